"""A finished game's review, ready when the game ends: ``python -m app bench review``.

The reference server (workbench/reference_server.py: Gunicorn's two workers, a new SQLite
store, the default analysis workers and their work ahead) is sent a whole game of people's turns, one
turn every ``every`` seconds, as the players' pages send them: open the link, then ``/turn``.
The moves are medium's (people who play sensibly), from a game played here first. At the last
turn's answer the clock starts, and the finished game's page asks what it shows: the game's luck
and the review of every decision, as many at a time as the page is told (its ``data-at-once``),
waiting out a 202's (or 503's) Retry-After as the page
does. Reported per table: the decisions, the seconds until all of it was answered after the
last move, the slowest single answer and the answers not ready (202 "being worked out", or
503) on the way. The aim: within 10 s of the last move of a 60-decision game played a move
every 5 s.
"""

from __future__ import annotations

import http.client
import re
import time
from concurrent.futures import ThreadPoolExecutor

from app import review
from app.engine import bots
from app.engine.core import MOVE
from app.keys import Keys
from app.play import Game, demo_seats, simulation_seed
from workbench.analysis_load import KEYS_LABEL, _play, _request
from workbench.measure import NOT_READY
from workbench.reference_server import reference_server
from workbench.games import table_options, turn_at

PEOPLE = 2  # the people at each table; the other seats are medium bots
MEDIUM = 2  # the bots' level (app.engine.bots)


def medium_game(game: str, players: int, number: int):
    """A finished game of two people, whose every choice is medium's, and medium bots in the
    other seats (the server plays the bots' turns after each of theirs)."""
    from dataclasses import replace


    options = table_options(game, players)
    seats = [seat if i < PEOPLE else replace(seat, bot=MEDIUM)
             for i, seat in enumerate(demo_seats(game, players, options))]
    # By hand: the benches send every person's turn themselves, forced ones too (the server
    # playing those would leave the next turn's link behind the game).
    played = Game.new(game, seats, Keys.for_tests(KEYS_LABEL),
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


def _ask_all(port: int, urls: list[str], at_once: int) -> tuple[list[float], int]:
    """Every URL asked, ``at_once`` at a time (a 202 or 503 asked again after its Retry-After):
    each one's seconds until answered, and how many of those came."""
    busy = []

    def ask(url: str) -> float:
        start = time.perf_counter()
        while True:
            status, headers, _ = _request(port, "GET", url)
            if status == 200:
                return time.perf_counter() - start
            if status not in NOT_READY:
                raise RuntimeError(f"{url[:60]}…: {status}")
            busy.append(url)
            time.sleep(float(headers.get("Retry-After", 3)))

    with ThreadPoolExecutor(at_once) as pool:
        return list(pool.map(ask, urls)), len(busy)


def review_ready(game: str, players: int, every: float, number: int = 0) -> dict:
    """One table's game played through a fresh server, and its review asked after the last move
    (see the module's docstring)."""

    played = medium_game(game, players, number)
    turns = _turns(played)
    decisions = review.decisions(played)
    token = played.token()
    asks = [f"/api/games/{token}/luck"] + \
        [f"/api/games/{token}/review?step={step}&lang=en" for step, _ in decisions]
    with reference_server(KEYS_LABEL) as port:
        _play(port, turns, every)
        last = time.perf_counter()
        at_once = _at_once(port, token)
        took, busy = _ask_all(port, asks, at_once)
        ready = time.perf_counter() - last
    return {"game": game, "players": players, "turns": len(turns),
            "decisions": len(decisions), "turn_every_s": every,
            "asked_at_once": at_once, "review_ready_s": round(ready, 2),
            "slowest_answer_s": round(max(took), 2), "answers_not_ready": busy}


TABLES = [("parcheesi", 4), ("red-arse", 4), ("ludo", 4)]


def review_bench(every: float = 5.0, tables=TABLES) -> list[dict]:
    """``review_ready`` for each table: the first of ``bench/review``'s games with 60 or more
    decisions (the issue's size), so the figure is of a game of that length."""

    figures = []
    for game, players in tables:
        number = next(n for n in range(100)
                      if len(review.decisions(medium_game(game, players, n))) >= 60)
        figures.append(review_ready(game, players, every, number))
    return figures

