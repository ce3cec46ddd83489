"""``python -m app bench``: engine speed, handler cost and link size for complete random games,
the API's time per call, a person's turn followed by five bot turns; and ``repeat``, a bench's
work done a given number of times to count its instructions under callgrind.

The VM's speed varies from minute to minute with its neighbours' load, so, as ``timeit``
advises, each figure is the fastest of ``REPEATS`` runs of the same work: other processes can
only add time."""

from __future__ import annotations

import math
import random
import statistics
import time

from app import link
from app.engine import analysis
from app.engine.games import rules_for
from app.engine.ludo import ludo_options
from app.keys import Keys
from app.play import Game, simulation_seed
from workbench.games import (
    SIM_KEYS_LABEL,
    a_turn,
    bot_game,
    middle_roll,
    person_turn,
    play_random,
    table_options,
)
from workbench.measure import REPEATS, bench_app

API_GAMES = 40  # games whose API calls ``bench`` times


def bench(game: str, players: int, games: int, seconds: float) -> dict:
    """Engine speed, handler cost and link size for complete random games.

    The VM's speed varies from minute to minute with its neighbours' load, so, as ``timeit``
    advises, each figure is the fastest of ``REPEATS`` runs of the same work: other processes
    can only add time. Games per second: the same games played again, the fastest pass over
    all of them; the handler: each link opened ``REPEATS`` times, its fastest time, then the
    median over the links."""
    keys = Keys.for_tests(SIM_KEYS_LABEL)
    options = table_options(game, players)
    # Only what is measured later is kept: holding every finished game would make the
    # garbage collector, not the games, the thing measured.
    kept, tokens, ratios = [], [], []
    busy = 0.0
    while len(tokens) < games or busy < seconds:
        t0 = time.process_time()
        played = play_random(game, players, "bench", len(tokens), keys, options)
        busy += time.process_time() - t0
        tokens.append(played.token())
        _, data = link.pack_log(played.match.steps)
        ratios.append(len(data) * 8 / max(link.info_bits(played.match.steps), 1))
        if len(kept) < API_GAMES:
            kept.append(played)
    for _ in range(REPEATS - 1):
        t0 = time.process_time()
        for number in range(len(tokens)):
            play_random(game, players, "bench", number, keys, options)
        busy = min(busy, time.process_time() - t0)
    handler = []
    for token in tokens:
        fastest = math.inf
        for _ in range(REPEATS):
            t0 = time.process_time()
            Game.from_token(token, keys).token()
            fastest = min(fastest, time.process_time() - t0)
        handler.append(fastest)
    lengths = [len(t) for t in tokens]
    return {
        "game": game,
        "players": players,
        "random_games_per_second": round(len(tokens) / busy, 1),
        "handler_ms": {"median": round(statistics.median(handler) * 1000, 2),
                       "max": round(max(handler) * 1000, 2), "links": len(tokens)},
        "link_chars": {"median": statistics.median(lengths), "max": max(lengths)},
        "log_vs_information_limit": {"mean": round(statistics.mean(ratios), 3),
                                     "max": round(max(ratios), 3)},
        "api_ms_median": api_bench(kept, keys),
    }


def api_bench(finished: list[Game], keys: Keys) -> dict:
    """Server time per API call (Flask in process, no network), median over the games given:
    reading a finished game, and, halfway through each game, rolling and finishing a turn."""
    client = bench_app(keys).test_client()
    timings = {"read_finished": [], "roll": [], "finish_turn": []}

    def timed(name, call):
        t0 = time.process_time()
        response = call()
        timings[name].append(time.process_time() - t0)
        assert response.status_code == 200, response.json

    for played in finished:  # the turn before the end is read (else the middle is older)
        middle, seat, turn = a_turn(played)
        url = f"/api/games/{middle}"
        timed("roll", lambda: client.post(f"{url}/moves", json={"seat": seat, "steps": ["roll"]}))
        timed("finish_turn", lambda: client.post(f"{url}/turn", json={"seat": seat, "steps": turn}))
        token = played.token()
        timed("read_finished", lambda: client.get(f"/api/games/{token}"))
    return {name: round(statistics.median(t) * 1000, 2) for name, t in timings.items()}


BOT_TURN_GAMES = 9  # games whose mid-game turn against five bots ``bench`` times


def bot_turn_bench(games: int = BOT_TURN_GAMES) -> dict:
    """Server time of a person's ``/turn`` when the next five turns are bots' (the server plays
    them before making the next link): a 6-player Ludo table of one person and five medium bots,
    timed at the middle of each game (Flask in process, no network; CPU time), median over
    ``games`` games. The person plays like a medium bot too."""
    keys = Keys.for_tests(SIM_KEYS_LABEL)
    options = ludo_options(6)
    seats = [link.Seat("Ana", 0)] + [link.Seat(f"Bot {i + 1}", i, bot=2) for i in range(1, 6)]
    client = bench_app(keys).test_client()
    timings, bot_steps = [], []
    for number in range(games):
        seed = simulation_seed("bench/bots", number)
        played = Game.new("ludo", seats, keys, seed=seed, options=options)
        played.play_bots()
        turns = []  # the links at Ana's turns while all five bots still play
        while not played.over:
            if not played.state.placed:
                turns.append(played.token())
            person_turn(played)
            played.play_bots()
        if not turns:
            continue
        token = turns[len(turns) // 2]
        seat, steps = person_turn(Game.from_token(token, keys))
        t0 = time.process_time()
        response = client.post(f"/api/games/{token}/turn", json={"seat": seat, "steps": steps})
        timings.append(time.process_time() - t0)
        assert response.status_code == 200, response.json
        bot_steps.append(len(response.json["replay"]["events"]))
    return {"table": "ludo, 1 person + 5 medium bots", "games": len(timings),
            "turn_and_five_bot_turns_ms": {"median": round(statistics.median(timings) * 1000, 2),
                                           "max": round(max(timings) * 1000, 2)},
            "bot_steps_per_turn_median": statistics.median(bot_steps)}


REPEAT_COUNTS = {"links": 100, "chances": 2}


def repeat(work: str, game: str, players: int, count: int, times: int) -> dict:
    """A bench's work, made ready, then done ``times`` times. The VM's speed swings too much to
    compare small changes by the clock; instructions don't: ``PYTHONHASHSEED=0 valgrind
    --tool=callgrind python -m app repeat WORK`` with ``--times 1`` less the same with
    ``--times 0`` is what the work costs (docs/benchmarks.md).

    ``links``: the bench's first ``count`` finished games (the same seeds), each link opened
    and its next link made. ``chances``: the chance to win (300 playouts) from the middle of
    the analysis bench's first ``count`` medium games."""
    options = table_options(game, players)
    if work == "links":
        keys = Keys.for_tests(SIM_KEYS_LABEL)
        tokens = [play_random(game, players, "bench", n, keys, options).token()
                  for n in range(count)]

        def job():
            for token in tokens:
                Game.from_token(token, keys).token()
    else:

        rules = rules_for(game, options)
        middles = [middle_roll(bot_game(rules, players, random.Random(f"analysis-bench/{n}"))[0])
                   for n in range(count)]

        def job():
            for middle in middles:
                analysis.chances(rules, middle)
    for _ in range(times):
        job()
    return {"work": work, "game": game, "players": players, "count": count, "times": times}
