"""How soon a page first paints on a phone: ``python -m app bench pages``.

The test suite checks what makes a page paint early (tests/test_page_budget.py: only the
stylesheet holds up the first render, and the scripts and styles stay within their weight); the
milliseconds depend on the machine and its load, so they are measured here. The app is served
as the product runs it (the reference server, workbench/reference_server.py), and each page is
opened ``loads`` times on a fresh 390 px phone in Chromium (Debian's ``chromium``, Playwright's
Python package: ``pip install -e '.[test]'``): the first contentful paint and the largest
contentful paint, median and maximum, per page. The aim: a first paint under a second.
"""

from __future__ import annotations

import statistics

from app.keys import Keys
from workbench.analysis_load import KEYS_LABEL
from workbench.games import TABLES, after_first_turn
from workbench.phone_browser import CHROMIUM, PHONE
from workbench.reference_server import reference_server

# The paints so far, in ms from the navigation's start (the largest is the last reported).
PAINTS_JS = """() => new Promise((done) => new PerformanceObserver((list, observer) => {
  const first = performance.getEntriesByName('first-contentful-paint')[0];
  const largest = list.getEntries().at(-1);
  observer.disconnect();
  done([first ? first.startTime : null, largest.startTime]);
}).observe({type: 'largest-contentful-paint', buffered: true}))"""


def page_bench(loads: int = 5) -> list[dict]:
    """For a game page after a turn at each table, and the home and a rules page: the first
    and largest contentful paints over ``loads`` loads, median and max."""
    from playwright.sync_api import sync_playwright

    figures = []
    with sync_playwright() as playwright, reference_server(KEYS_LABEL) as port:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        base = f"http://127.0.0.1:{port}"
        keys = Keys.for_tests(KEYS_LABEL)
        pages = [(f"{game} {players}, after a turn",
                  f"/g/{after_first_turn(game, players, keys).token()}")
                 for game, players in TABLES] + [("home", "/"), ("rules, Ludo", "/rules/ludo")]
        for name, path in pages:
            paints = [_load(browser, base + path) for _ in range(loads)]
            first, largest = zip(*paints)
            figures.append({"page": name, "loads": loads,
                            "first_paint_ms": _spread(first),
                            "largest_paint_ms": _spread(largest)})
        browser.close()
    return figures


def _load(browser, url: str) -> tuple[float, float]:
    """Open ``url`` on a fresh phone once the network is quiet: its first and largest paints."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("networkidle")
    first, largest = page.evaluate(PAINTS_JS)
    context.close()
    return first, largest


def _spread(values) -> dict:
    return {"median": round(statistics.median(values)), "max": round(max(values))}
