"""A brisk game night, and its review ready when the game ends: ``python -m app bench review``.

A server the bench starts (``--server``: the reference one, workbench/reference_server.py,
Gunicorn's two workers and a new SQLite store; or the quick-start one, ``flask run``, as the
README has it), with the default analysis workers and their work ahead, is sent a whole game
of people's turns, one turn every ``every`` seconds, as the players' pages send them: open the
link, ask for the pills (the chance to win where the turn starts, waiting out a 202's or 503's
Retry-After as the page does), send the turn a little before the next hand-off. A turn shows
its pills when their answer came before the next turn opened. The moves are medium's (people
who play sensibly), from a game played here first. At the last turn's answer the clock starts,
and the finished game's page asks what it shows: the game's luck and the review of every
decision, as many at a time as the page is told (its ``data-at-once``). Reported per table:
the turns, the share of them that showed their pills, the decisions, the seconds until the
review was all answered after the last move, the slowest single answer, the answers not ready
(202 "being worked out", or 503: a page asks again) and the errors (a status of 400 or more,
which a browser's console shows). The aims: every pill and a review within 10 s of the last
move on the reference server; on the quick-start one, pills on 95% of a brisk 4-person game's
turns and a review within 30 s.
"""

from __future__ import annotations

import http.client
import json
import re
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from app import review
from app.engine import bots
from app.engine.core import MOVE
from app.keys import Keys
from app.play import Game, demo_seats, simulation_seed
from workbench.analysis_load import KEYS_LABEL, _request
from workbench.measure import NOT_READY
from workbench.reference_server import ask, serving
from workbench.games import table_options, turn_at

PEOPLE = 4  # the people at each table; any other seats are medium bots
MEDIUM = 2  # the bots' level (app.engine.bots)
PHONES = "127.0.0.1"  # the players' address: one Wi-Fi, as every other request of the bench
SENT_BEFORE = 0.5  # the turn is sent this many seconds before the next hand-off


def medium_game(game: str, players: int, number: int, people: int = PEOPLE, keys=None):
    """A finished game of ``people`` people, whose every choice is medium's, and medium bots
    in the other seats (the server plays the bots' turns after each of theirs), its links
    signed with ``keys`` (by default the benches' test keys)."""
    from dataclasses import replace

    options = table_options(game, players)
    seats = [seat if i < people else replace(seat, bot=MEDIUM)
             for i, seat in enumerate(demo_seats(game, players, options))]
    # By hand: the benches send every person's turn themselves, forced ones too (the server
    # playing those would leave the next turn's link behind the game).
    played = Game.new(game, seats, keys or Keys.for_tests(KEYS_LABEL),
                      seed=simulation_seed("bench/review", number), options=options,
                      by_hand=True)
    played.play_bots()
    while not played.over:
        match = played.match
        moves = match.legal_moves() if match.phase == MOVE else ()
        played.step(bots.medium(played.rules, match.state, moves) if len(moves) > 1 else 0)
        played.play_bots()
    return played


def _turns(played) -> list[tuple[str, int, list]]:
    """Each person's turn of ``played`` as their page sends it: the link at its start, the
    seat, the steps."""

    history, seats = played.match.history, played.header.seats
    starts = [step for step in range(len(history))
              if history[step][0] == "roll" and not seats[history[step][1]].bot and
              (step == 0 or history[step - 1][1] != history[step][1])]
    return [turn_at(played, start) for start in starts]


def _at_once(port: int, token: str) -> int:
    """How many reviews the finished game's page asks for at once, as the server tells it."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", f"/g/{token}")
        page = connection.getresponse().read().decode()
    finally:
        connection.close()
    return int(re.search(r'data-at-once="(\d+)"', page).group(1))


def _answered(port: int, url: str, statuses: Counter) -> float:
    """``url`` asked as a page asks it, a 202 or 503 again after its Retry-After, until
    answered: when (``time.perf_counter()``). Every status seen is counted in ``statuses``."""
    while True:
        status, headers, _ = _request(port, "GET", url)
        statuses[status] += 1
        if status == 200:
            return time.perf_counter()
        if status not in NOT_READY:
            raise RuntimeError(f"{url[:60]}…: {status}")
        time.sleep(float(headers.get("Retry-After", 3)))


def _ask_all(port: int, urls: list[str], at_once: int, statuses: Counter) -> list[float]:
    """Every URL asked, ``at_once`` at a time, as the page asks: each one's seconds until
    answered."""

    def ask(url: str) -> float:
        start = time.perf_counter()
        return _answered(port, url, statuses) - start

    with ThreadPoolExecutor(at_once) as pool:
        return list(pool.map(ask, urls))


def _play(port: int, turns: list, every: float, statuses: Counter) -> int:
    """Each turn as a phone plays it, one every ``every`` seconds: open the link, ask for its
    pills, send the turn ``SENT_BEFORE`` s before the next hand-off (the pills still on their
    way are left to come, as a page left open). The turns whose pills were answered before the
    next one opened."""
    asked = []  # (hand-off, the pills' answer to come)
    pills = ThreadPoolExecutor(64)
    start = time.perf_counter()
    for number, (token, seat, steps) in enumerate(turns):
        opens, hand_off = start + number * every, start + (number + 1) * every
        time.sleep(max(0.0, opens - time.perf_counter()))
        status, body, _ = ask(port, f"/api/games/{token}", PHONES)
        if status != 200:
            raise RuntimeError(f"opening turn {number}: {status}")
        url = f"/api/games/{token}/chances?step={json.loads(body)['steps']}"
        asked.append((hand_off, pills.submit(_answered, port, url, statuses)))
        time.sleep(max(0.0, hand_off - SENT_BEFORE - time.perf_counter()))
        status, _, _ = _request(port, "POST", f"/api/games/{token}/turn",
                                {"seat": seat, "steps": steps})
        if status != 200:
            raise RuntimeError(f"sending turn {number}: {status}")
    pills.shutdown()
    return sum(answer.result() <= hand_off for hand_off, answer in asked)


def review_ready(game: str, players: int, every: float, server: str = "reference",
                 people: int = PEOPLE) -> dict:
    """One table's game played through a fresh server, and its review asked after the last move
    (see the module's docstring): the first of ``bench/review``'s games with 60 or more
    decisions (the issue's size), so the figure is of a game of that length."""

    statuses: Counter = Counter()
    with serving(server, KEYS_LABEL) as (port, keys):
        played = next(played for played in (medium_game(game, players, n, people, keys)
                                             for n in range(100))
                      if len(review.decisions(played)) >= 60)
        turns = _turns(played)
        decisions = review.decisions(played)
        token = played.token()
        asks = [f"/api/games/{token}/luck"] + \
            [f"/api/games/{token}/review?step={step}&lang=en" for step, _ in decisions]
        shown = _play(port, turns, every, statuses)
        last = time.perf_counter()
        at_once = _at_once(port, token)
        took = _ask_all(port, asks, at_once, statuses)
        ready = time.perf_counter() - last
    return {"game": game, "players": players, "people": people, "server": server,
            "turns": len(turns), "turn_every_s": every,
            "turns_showing_pills": f"{shown / len(turns):.0%}",
            "decisions": len(decisions), "asked_at_once": at_once,
            "review_ready_s": round(ready, 2), "slowest_answer_s": round(max(took), 2),
            "answers_not_ready": sum(statuses[status] for status in NOT_READY),
            "errors": sum(n for status, n in statuses.items() if status >= 400)}


TABLES = [("parcheesi", 4), ("red-arse", 4), ("ludo", 4)]


def review_bench(every: float = 5.0, tables=TABLES, server: str = "reference",
                 people: int = PEOPLE):
    """``review_ready`` for each table, yielded as each is done."""
    for game, players in tables:
        yield review_ready(game, players, every, server, people)
