"""Chance-to-win pills after a move, as a phone sees them: ``python -m app bench pills``.

The app is served as the product runs it (``app.analysis_load.served``: a threaded server on
127.0.0.1, a new SQLite store, the default analysis workers and playouts), and a 390 px phone
page in Chromium (Debian's ``chromium``, Playwright's Python package: ``pip install -e
'.[test]'``) opens people's turns from the middle of a medium game per table, rolls, and taps a
landing spot. From the tap until every seat's pill shows a number is the figure: median and
maximum per table, over ``turns`` turns of a few games. The issue's aim: 1.5 s.
"""

from __future__ import annotations

import statistics
import time

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
# Every pill drawn, and none waiting for its number.
PILLS_SHOWN = """(seats) => {
  const pills = [...document.querySelectorAll('#board g.chance')];
  return pills.length === seats && pills.every((g) => !g.classList.contains('pending') &&
    /^\\d+%$/.test(g.textContent));
}"""


def _people_turns(game: str, players: int, turns: int) -> list[tuple[str, int]]:
    """Links at the start of people's turns from the middle of medium games (the first and last
    fifth of each game left out): ``(link, seats)``, ``turns`` of them."""
    from app.review_bench import _turns, medium_game

    links: list[tuple[str, int]] = []
    number = 0
    while len(links) < turns:
        played = medium_game(game, players, number)
        starts = _turns(played)
        middle = starts[len(starts) // 5: len(starts) - len(starts) // 5]
        links += [(link, players) for link, _, _ in middle[::3]]
        number += 1
    return links[:turns]


def pills_bench(tables, turns: int = 12) -> list[dict]:
    """For each ``(game, players)`` table: seconds from a tap on a landing spot to every pill
    showing a number, median and max over the turns whose roll left a move to tap."""
    from playwright.sync_api import sync_playwright

    from app.analysis_load import served

    figures = []
    with served() as port, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for game, players in tables:
            seconds = []
            for link, seats in _people_turns(game, players, turns):
                context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{port}/g/{link}#seen=1")
                page.locator("#roll").wait_for(state="visible", timeout=30_000)
                page.locator("#roll").click()
                spot = page.locator("#board circle.landing").first
                try:
                    spot.wait_for(state="visible", timeout=10_000)
                except Exception:  # a roll that leaves no move: nothing to tap
                    context.close()
                    continue
                start = time.perf_counter()
                spot.click()
                if page.locator("#choices").is_visible():  # several moves land there
                    start = time.perf_counter()
                    page.locator("#choices button").first.click()
                page.wait_for_function(PILLS_SHOWN, arg=seats, polling="raf", timeout=60_000)
                seconds.append(time.perf_counter() - start)
                context.close()
            figures.append({"game": game, "players": players, "taps": len(seconds),
                            "median_s": round(statistics.median(seconds), 2),
                            "max_s": round(max(seconds), 2)})
        browser.close()
    return figures
