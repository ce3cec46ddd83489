"""Chance-to-win pills after a move, as a phone sees them: ``python -m app bench pills``.

The app is served as the product runs it (``--server``: the reference server,
workbench/reference_server.py: Gunicorn's two workers, a new SQLite store, the default analysis
workers and playouts; or the quick-start one, ``flask run``), and a 390 px phone page in Chromium (Debian's ``chromium``, Playwright's Python package: ``pip install -e
'.[test]'``) opens people's turns from the middle of a medium game of people at every seat per table, rolls,
and taps a
landing spot a second after the roll (a person looks at the board when it opens, and at the dice
before choosing). The figure: from the tap until the answer to the page's request for the
chances after the move is in and every seat's pill shows its number (until the move's own
answer is in, the page still shows the previous pills), median and maximum per table, over
``turns`` taps (turns whose roll leaves no move are passed over), the answers not ready (202
or 503) the page got, and the errors its console showed. The aims: 1.5 s median, 3 s at most,
none not ready, no errors. The page
asks for reduced motion: a phone draws its animations itself, but here Chromium's software
drawing would take the server's two cores.
"""

from __future__ import annotations

import statistics
import sys
import time

from workbench.analysis_load import KEYS_LABEL
from workbench.measure import NOT_READY
from workbench.phone_browser import CHROMIUM, PHONE
from workbench.reference_server import serving
from workbench.review_bench import _turns, medium_game

# Every pill drawn, and none waiting for its number.
PILLS_SHOWN = """(seats) => {
  const pills = [...document.querySelectorAll('#board g.chance')];
  return pills.length === seats && pills.every((g) => !g.classList.contains('pending') &&
    /^\\d+%$/.test(g.textContent));
}"""


def _people_turns(game: str, players: int, keys):
    """Links at the start of people's turns from the middle of medium games of people only (the
    first and last fifth of each game left out), every third turn, game after game."""

    number = 0
    while True:
        starts = _turns(medium_game(game, players, number, players, keys))
        middle = starts[len(starts) // 5: len(starts) - len(starts) // 5]
        yield from (link for link, _, _ in middle[::3])
        number += 1


def pills_bench(tables, turns: int = 12, think: float = 1.0,
                server: str = "reference") -> list[dict]:
    """For each ``(game, players)`` table: seconds from a tap on a landing spot to every pill
    showing a number, median and max over ``turns`` taps, each ``think`` seconds after the roll
    (the pills after the roll are being worked out meanwhile)."""
    from playwright.sync_api import sync_playwright

    figures = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for game, players in tables:
            figures.append(_table(browser, game, players, turns, think, server))
        browser.close()
    return figures


def _table(browser, game: str, players: int, turns: int, think: float, server: str) -> dict:
    """``pills_bench`` for one table, through a server of its own (the benches' games of every
    table share their seeds: one store would take them for one game)."""

    seconds: list[float] = []
    no_move = 0
    busy, errors = [], []
    with serving(server, KEYS_LABEL) as (port, keys):
        for link in _people_turns(game, players, keys):
            if len(seconds) == turns or no_move > 4 * turns:
                break
            # Still (reduced motion): here the phone's drawing would take the server's cores.
            context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                          reduced_motion="reduce")
            context.on("response", lambda answer: busy.append(answer.url)
                       if answer.status in NOT_READY else None)
            context.on("console", lambda said: errors.append(said.text)
                       if said.type == "error" else None)
            took = _tap(context.new_page(), f"http://127.0.0.1:{port}/g/{link}#seen=1",
                        players, think)
            context.close()
            if took is None:
                no_move += 1
                continue
            seconds.append(took)
            print(f"{game}, {players} players: tap {len(seconds)} of {turns}, {took:.2f} s",
                  file=sys.stderr, flush=True)
    return {"game": game, "players": players, "server": server, "think_s": think,
            "taps": len(seconds), "rolls_without_a_move": no_move,
            "answers_not_ready": len(busy), "console_errors": len(errors),
            "median_s": round(statistics.median(seconds), 2), "max_s": round(max(seconds), 2)}


def _tap(page, url: str, seats: int, think: float) -> float | None:
    """Open ``url``, roll, and tap a landing spot ``think`` s after: the seconds until every
    pill shows a number; None when the roll leaves no move."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.goto(url)
    try:
        page.locator("#roll").wait_for(state="visible", timeout=30_000)
        # A person looks at the board (its pills) before rolling.
        page.wait_for_function(PILLS_SHOWN, arg=seats, timeout=60_000)
        page.locator("#roll").click()
        # The dice show their faces as the answer is drawn, landing spots and all.
        page.locator("#dice .die:not(.rolling)").first.wait_for(timeout=30_000)
    except PlaywrightTimeout:
        raise RuntimeError(f"the page got stuck: {page.locator('#status').text_content()} "
                           f"({url})") from None
    spot = page.locator("#board circle.landing").first
    if not spot.count():
        return None
    page.wait_for_timeout(think * 1000)  # and at the roll before tapping
    # The pills turn pending only once the move's own answer is in: until the page has the
    # answer for the chances after the move, the pills shown are the old ones.
    try:
        with page.expect_response(lambda answer: "/chances?steps=" in answer.url,
                                  timeout=60_000):
            start = time.perf_counter()
            spot.click()
            if page.locator("#choices").is_visible():  # several moves land there: one chosen
                start = time.perf_counter()
                page.locator("#choices button").first.click()
        page.wait_for_function(PILLS_SHOWN, arg=seats, polling="raf", timeout=60_000)
    except PlaywrightTimeout:
        raise RuntimeError(f"no chances after the move: {page.locator('#status').text_content()} "
                           f"({url})") from None
    return time.perf_counter() - start
