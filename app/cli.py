"""The command line: ``python -m app simulate | inspect | bench | previews | screenshots | verify |
store``.

Simulations and benchmarks use fixed test keys so that ``--seed`` reproduces a run exactly;
``inspect`` reads real links with the keys from the environment; ``verify`` needs no keys at all.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time

from app import claims, link
from app.engine import red_arse_settings
from app.engine import bots
from app.engine.core import CLAIM, MOVE, OVER, ROLL, IllegalMove
from app.engine.dice import commitment
from app.engine.games import ALL as GAMES, rules_for, table_settings
from app.engine.ludo import ludo_options
from app.keys import Keys
from app.play import Game, demo_seats, replay, simulation_seed

SIM_KEYS_LABEL = "simulate"


def play_random(game: str, players: int, seed: int | str, number: int, keys: Keys,
                options: int = 0) -> Game:
    """One complete game with uniformly random legal moves (every re-roll claimed),
    reproducible from seed and number."""
    played = Game.new(game, demo_seats(game, players, options), keys,
                      seed=simulation_seed(seed, number), options=options)
    choose = random.Random(f"{seed}/{number}").randrange
    match = played.match
    state = match.state
    while True:
        phase = state.phase
        if phase == ROLL:
            match.roll()
        elif phase == MOVE:
            count = len(match.legal_moves())
            match.play(choose(count) if count > 1 else 0)
        elif phase == CLAIM:
            match.claim(True)
        else:
            return played


def table_options(game: str, players: int, board: int | None = None, off=()) -> int:
    """The link options for a simulated table: Red Arse and Ludo take the 6-player board when
    the players don't fit the 4-player one (or when asked)."""
    board = board or (6 if players > 4 else 4)
    if game == "red-arse":
        return red_arse_settings.options_for(board, off)
    if game == "ludo" and not off:
        return ludo_options(board)
    if game == "parcheesi" and board == 4 and not off:
        return 0
    raise ValueError(f"{game} has no such board or house-rule choices")


def simulate(game: str, players: int, games: int, seed: int | str, options: int = 0) -> dict:
    keys = Keys.for_tests(SIM_KEYS_LABEL)
    wins = [0] * players
    moves, rolls, lengths = [], [], []
    busy = 0.0
    for number in range(games):
        start = time.process_time()
        played = play_random(game, players, seed, number, keys, options)
        busy += time.process_time() - start
        steps = played.match.steps
        rolls.append(sum(1 for kind, *_ in played.match.history if kind == "roll"))
        moves.append(len(steps) - rolls[-1])  # moves, and claims taken or missed
        lengths.append(len(played.token()))
        wins[played.state.winner] += 1
    seats = demo_seats(game, players, options)
    names = played.rules.board.color_names
    return {
        "game": game,
        "players": players,
        "settings": table_settings(rules_for(game, options)),
        "seed": seed,
        "games_finished": games,
        "decisions": {"average": statistics.mean(moves), "longest": max(moves)},
        "rolls": {"average": statistics.mean(rolls), "longest": max(rolls)},
        "wins_by_seat": {f"{s.name} ({names[s.color]})": w for s, w in zip(seats, wins)},
        "link_chars": {"average": statistics.mean(lengths), "longest": max(lengths)},
        "decisions_per_second": round(sum(moves) / busy) if busy else None,
    }


API_GAMES = 40  # games whose API calls ``bench`` times

# What ``bench`` measures: each game at the tables the issues quote figures for.
BENCH_TABLES = (("parcheesi", 4), ("red-arse", 4), ("red-arse", 6), ("ludo", 4), ("ludo", 6))


REPEATS = 3  # every timing is taken this many times and the fastest kept (as timeit does)


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
        from app.engine import analysis

        rules = rules_for(game, options)
        middles = [_middle(bot_game(rules, players, random.Random(f"analysis-bench/{n}"))[0])
                   for n in range(count)]

        def job():
            for middle in middles:
                analysis.chances(rules, middle)
    for _ in range(times):
        job()
    return {"work": work, "game": game, "players": players, "count": count, "times": times}


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
        middle, seat, turn = _a_turn(played)
        url = f"/api/games/{middle}"
        timed("roll", lambda: client.post(f"{url}/moves", json={"seat": seat, "steps": ["roll"]}))
        timed("finish_turn", lambda: client.post(f"{url}/turn", json={"seat": seat, "steps": turn}))
        token = played.token()
        timed("read_finished", lambda: client.get(f"/api/games/{token}"))
    return {name: round(statistics.median(t) * 1000, 2) for name, t in timings.items()}


def bench_app(keys: Keys, store_url: str | None = None, **config):
    """The app for a bench: a store of its own (a new SQLite file unless ``store_url``), so
    runs never meet an earlier run's links; ``config`` adds settings."""
    import tempfile

    from app.web import create_app

    if not store_url:
        store_url = f"sqlite:///{tempfile.mkdtemp(prefix='boardpass-bench-')}/store.db"
    return create_app({"KEYS": keys, "PUBLIC_URL": "https://bench.test", "STORE_URL": store_url,
                       **config})


def spread(values: list[float], digits: int = 2) -> dict:
    """Median, 99th percentile and max of a bench's timings."""
    ordered = sorted(values)
    return {"median": round(statistics.median(ordered), digits),
            "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], digits),
            "max": round(ordered[-1], digits)}


def _a_turn(played: Game) -> tuple[str, int, list]:
    """The link halfway through a finished game, its seat to move, and that seat's whole turn
    as the API takes it."""
    history = played.match.history
    start = len(history) // 2
    while history[start][0] != "roll" or history[start - 1][1] == history[start][1]:
        start += 1
    return turn_at(played, start)


def turn_at(played: Game, start: int) -> tuple[str, int, list]:
    """The link of a finished game at the turn that begins at step ``start``, its seat to move
    and that seat's whole turn as the API takes it."""
    history = played.match.history
    seat = history[start][1]
    middle = link.encode(played.header, played.match.steps[:start], played.keys)
    turn = []
    for i, (kind, who, what) in enumerate(history[start:], start):
        if who != seat:
            break
        if kind == "claim":  # claimed in time: the receipt the server gave for its ticket
            binding = claims.game_binding(middle, played.match.steps[:i])
            turn.append({"claimed": claims.receipt(played.keys, binding)})
        else:
            turn.append("roll" if kind == "roll" else
                        {"from": what.src, "to": what.dst, "values": list(what.values)})
    return middle, seat, turn


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
            _person_turn(played)
            played.play_bots()
        if not turns:
            continue
        token = turns[len(turns) // 2]
        seat, steps = _person_turn(Game.from_token(token, keys))
        t0 = time.process_time()
        response = client.post(f"/api/games/{token}/turn", json={"seat": seat, "steps": steps})
        timings.append(time.process_time() - t0)
        assert response.status_code == 200, response.json
        bot_steps.append(len(response.json["replay"]["events"]))
    return {"table": "ludo, 1 person + 5 medium bots", "games": len(timings),
            "turn_and_five_bot_turns_ms": {"median": round(statistics.median(timings) * 1000, 2),
                                           "max": round(max(timings) * 1000, 2)},
            "bot_steps_per_turn_median": statistics.median(bot_steps)}


PREVIEW_POSITIONS = 8  # links per game whose preview ``bench previews`` draws


def turn_links(played: Game, count: int) -> list[str]:
    """``count`` links of a finished game, spread from its first turns to its end, each made
    where a turn ends (as links are): the next seat is to roll."""
    history = played.match.history
    ends = [i for i in range(1, len(history)) if history[i][1] != history[i - 1][1]]
    ends.append(len(history))
    chosen = sorted({ends[round(k * (len(ends) - 1) / max(count - 1, 1))] for k in range(count)})
    return [link.encode(played.header, played.match.steps[:end], played.keys) for end in chosen]


def preview_bench(game: str, players: int, games: int,
                  positions: int = PREVIEW_POSITIONS) -> dict:
    """The preview image's cost (``app/web/preview.py``): CPU time to draw and encode one
    (the fastest of ``REPEATS``: one core, as Pillow draws on one), and its size, over
    ``positions`` links of each of ``games`` random games, from their first turns to their
    end; and the whole answer to a preview fetcher asking for the image (Flask in process, a
    cold in-memory cache)."""
    from app.web import preview

    keys = Keys.for_tests(SIM_KEYS_LABEL)
    options = table_options(game, players)
    timings, sizes, tokens = [], [], []
    for number in range(games):
        played = play_random(game, players, "bench/previews", number, keys, options)
        for token in turn_links(played, positions):
            at = Game.from_token(token, keys)
            fastest = math.inf
            for _ in range(REPEATS):
                t0 = time.process_time()
                png = preview.render(at)
                fastest = min(fastest, time.process_time() - t0)
            timings.append(fastest * 1000)
            sizes.append(len(png) / 1024)
            tokens.append(token)
    client = bench_app(keys).test_client()
    answers = []
    for token in tokens[:: max(1, len(tokens) // 20)]:
        client.application.extensions.pop("boardpass.previews", None)
        t0 = time.process_time()
        response = client.get(f"/g/{token}/preview.png",
                              headers={"User-Agent": "WhatsApp/2.23.20.0 A"})
        answers.append((time.process_time() - t0) * 1000)
        assert response.status_code == 200
    return {"game": game, "players": players, "images": len(timings),
            "render_ms": spread(timings, 1), "png_kb": spread(sizes, 1),
            "image_request_ms": spread(answers, 1)}


def write_previews(out: str) -> list[str]:
    """One preview image per board, of a game a little past its middle (reproducible: the
    bench's games), and the words that go with it: what docs/previews/ shows."""
    from pathlib import Path

    from app.web import preview

    keys = Keys.for_tests(SIM_KEYS_LABEL)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game, players in BENCH_TABLES:
        played = play_random(game, players, "bench/previews", 0, keys,
                             table_options(game, players))
        token = turn_links(played, 5)[3]
        at = Game.from_token(token, keys, watch := preview.Watch())
        name = f"{game}-{players}.png"
        (folder / name).write_bytes(preview.render(at))
        said = preview.words(at, "en", watch)
        written.append(f"{folder / name}: {said['title']} | {said['description']}")
    (folder / "generic.png").write_bytes(preview.generic_png())
    written.append(f"{folder / 'generic.png'}: Boardpass (a link that can't be read)")
    return written


def _person_turn(played: Game) -> tuple[int, list]:
    """Play the seat to move's whole turn as a medium bot would; returns (seat, the API's
    steps)."""
    match, seat, start = played.match, played.match.turn, len(played.match.history)
    while match.phase != OVER and match.turn == seat:
        if match.phase == ROLL:
            match.roll()
        else:
            match.play(bots.choose("medium", played.rules, match.state,
                                   bots.decision_seed(played.header.seed, len(match.steps))))
    return seat, ["roll" if kind == "roll" else
                  {"from": what.src, "to": what.dst, "values": list(what.values)}
                  for kind, _, what in match.history[start:]]


def tournament(game: str, players: int, seats: list[str], games: int, seed: str = "1",
               options: int | None = None) -> dict:
    """``games`` complete games between bots of the given strengths, the strengths rotating
    round the seats from game to game; wins per strength with a 95% confidence interval
    (Wilson) and the CPU time per bot move."""
    if len(seats) != players:
        raise ValueError(f"--seats lists {players} strengths, one per player")
    for strength in seats:
        if strength not in ("random", *bots.STRENGTHS):
            raise ValueError(f"no bot strength {strength!r}")
    keys = Keys.for_tests(SIM_KEYS_LABEL)
    options = table_options(game, players) if options is None else options
    wins = dict.fromkeys(seats, 0)
    played_by = dict.fromkeys(seats, 0)
    thinking = {s: [0.0, 0] for s in seats}
    for number in range(games):
        order = seats[number % players:] + seats[:number % players]
        played = Game.new(game, demo_seats(game, players, options), keys,
                          seed=simulation_seed(f"tournament/{seed}", number), options=options)
        match, rules = played.match, played.rules
        while match.phase != OVER:
            if match.phase == ROLL:
                match.roll()
                continue
            strength = order[match.turn]
            t0 = time.process_time()
            index = bots.choose(strength, rules, match.state,
                                bots.decision_seed(played.header.seed, len(match.steps)))
            spent = thinking[strength]
            spent[0] += time.process_time() - t0
            spent[1] += 1
            match.step(index)
        winner = match.state.winner
        wins[order[winner]] += 1
        for strength in order:
            played_by[strength] += 1
    table = {}
    for strength in dict.fromkeys(seats):
        n = played_by[strength]
        low, high = _wilson(wins[strength], n)
        seconds, moves = thinking[strength]
        table[strength] = {"seats": seats.count(strength), "wins": wins[strength],
                           "win_share_of_seat_games": f"{wins[strength] / n:.3f} "
                                                      f"[{low:.3f}, {high:.3f}]",
                           "ms_per_move": round(1000 * seconds / max(moves, 1), 3)}
    return {"game": game, "players": players, "settings": table_settings(rules_for(game, options)),
            "games": games, "fair_share": round(1 / players, 3), "strengths": table}


def _wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share of ``wins`` in ``n``."""
    if not n:
        return 0.0, 1.0
    share = wins / n
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((share * (1 - share) + z * z / (4 * n)) / n) ** 0.5 / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# -- analysis: speed, calibration, stability ------------------------------------------------------

ANALYSIS_TABLES = (("parcheesi", 4), ("red-arse", 4), ("red-arse", 6), ("ludo", 4), ("ludo", 6))


def play_out(rules, players: int, rng: random.Random, choose, seen: list | None = None):
    """A game from a fresh table with ``rng``'s dice, every re-roll claimed and each move the
    one ``choose(state, moves)`` picks (its index); ``seen`` collects every position passed
    through (copies, at rolls, decisions and claims). Returns the first position and the
    winner (Ludo: the first to finish)."""
    from app.engine import analysis
    from app.engine.games import default_colors

    state = rules.initial(default_colors(rules.name, players, getattr(rules, "options", 0)),
                          rng.randrange(players))
    start = state.copy()
    while analysis.winner(state) is None:
        if seen is not None:
            seen.append(state.copy())
        if state.phase == ROLL:
            rules.roll(state, tuple(rng.randint(1, 6) for _ in range(rules.dice_count)))
        elif state.phase == CLAIM:
            rules.claim(state, True)
        else:
            moves = rules.legal_moves(state)
            rules.play(state, moves[choose(state, moves)])
    return start, analysis.winner(state)


def bot_game(rules, players: int, rng: random.Random) -> tuple[list, int]:
    """A game of medium bots with ``rng``'s dice: every position it passed through (copies, at
    rolls, decisions and claims) and the winner (Ludo: the first to finish)."""
    seen = []
    _, winner = play_out(rules, players, rng, lambda state, moves: 0 if len(moves) == 1 else
                         bots.medium(rules, state, moves), seen)
    return seen, winner


def _middle(positions: list):
    """The first roll from the middle of a game on."""
    return next(state for state in positions[len(positions) // 2:] if state.phase == ROLL)


def analysis_bench(game: str, players: int, games: int = 5) -> dict:
    """CPU seconds for the chance to win (300 playouts) from the middle of ``games`` medium
    games, and for the review of a decision of two to four options near the middle."""
    from app.engine import analysis

    rules = rules_for(game, table_options(game, players))
    chance, review, options = [], [], []
    for number in range(games):
        positions, _ = bot_game(rules, players, random.Random(f"analysis-bench/{number}"))
        middle = _middle(positions)
        t0 = time.process_time()
        analysis.chances(rules, middle)
        chance.append(time.process_time() - t0)
        for state in positions[len(positions) // 2:]:
            if state.phase == MOVE and 2 <= len(rules.legal_moves(state)) <= 4:
                t0 = time.process_time()
                graded = analysis.review(rules, state)
                review.append(time.process_time() - t0)
                options.append(len(graded))
                break
    return {"table": f"{game}, {players} players", "positions": games,
            "chances_300_playouts_s": {"median": round(statistics.median(chance), 2),
                                       "max": round(max(chance), 2)},
            "review_s": {"median": round(statistics.median(review), 2),
                         "max": round(max(review), 2), "options": options}}


def widest_bench(game: str, players: int, games: int = 300, keep: int = 5,
                 unbounded: bool = False) -> dict:
    """CPU seconds for the reviews of the widest decisions of ``games`` games of random moves
    (each game's widest decision, then the ``keep`` widest of those), within the analysis
    budget (the move the game played graded first, as the API does), and with ``unbounded``
    also without it; and the chance to win from the start of each
    game (the longest playouts there are), within the budget."""
    from app.engine import analysis

    rules = rules_for(game, table_options(game, players))
    widest = []  # (-width, game number, position, the move played)
    starts = []  # the first ``keep`` games' first positions
    for number in range(games):
        rng = random.Random(f"widest/{number}")
        wide = None

        def choose(state, moves):  # a random move, remembering the widest decision
            nonlocal wide
            chosen = rng.randrange(len(moves))
            if wide is None or len(moves) > -wide[0]:
                wide = (-len(moves), number, state.copy(), chosen)
            return chosen

        start, _ = play_out(rules, players, rng, choose)
        if wide is not None and -wide[0] > 1:
            widest.append(wide)
        if number < keep:
            starts.append(start)
    widest = sorted(widest, key=lambda w: w[:2])[:keep]
    bounded, before, graded, spent = [], [], [], []
    same_grade = best_graded = 0  # against the review without the budget
    for _, _, state, chosen in widest:
        t0 = time.process_time()
        options, steps = analysis.counted_review(rules, state, first=chosen)
        bounded.append(time.process_time() - t0)
        graded.append(f"{sum(o.graded for o in options)}/{len(options)}")
        spent.append(steps)
        if unbounded:
            t0 = time.process_time()
            full, _ = analysis.counted_review(rules, state, first=chosen, budget=0)
            before.append(time.process_time() - t0)
            same_grade += options[chosen].grade == full[chosen].grade
            best_graded += options[next(o.index for o in full if o.best)].graded
    chance, playouts = [], []
    for start in starts:
        t0 = time.process_time()
        playouts.append(analysis.counted_chances(rules, start)[1])
        chance.append(time.process_time() - t0)
    report = {"table": f"{game}, {players} players", "games": games,
              "widths": [-w[0] for w in widest],
              "review_s": {"median": round(statistics.median(bounded), 2),
                           "max": round(max(bounded), 2)},
              "graded": graded, "steps": spent, "budget": analysis.BUDGET,
              "chances_from_start_s": {"median": round(statistics.median(chance), 2),
                                       "max": round(max(chance), 2), "playouts": playouts}}
    if unbounded:
        report["review_s_unbounded"] = {"median": round(statistics.median(before), 2),
                                        "max": round(max(before), 2),
                                        "each": [round(t, 1) for t in before]}
        report["move_played_graded_as_unbounded"] = f"{same_grade}/{len(widest)}"
        report["unbounded_best_among_graded"] = f"{best_graded}/{len(widest)}"
    return report


def calibrate(game: str, players: int, positions: int, playouts: int, decisions: int,
              seed: str = "1") -> dict:
    """The chance to win against what happened: positions sampled from medium bot games (a few
    per game), each position's outcome the winner of that game; Brier score (the playouts',
    and the static evaluation's) and a table by decile of the predicted chance. Then
    stability: ``decisions`` reviewed twice, with two playout seeds, the share of options
    graded the same, and the options two grades apart (Good on one, Blunder on the other)."""
    from app.engine import analysis, evaluation

    rules = rules_for(game, table_options(game, players))
    rng = random.Random(f"calibrate/{seed}")
    pairs = []  # (predicted chance, 1 if that seat won)
    static = []  # the same, by the static evaluation
    picked = []  # decisions for the stability check
    per_game = 5
    while len(pairs) < positions * players:
        seen, won = bot_game(rules, players, rng)
        for state in rng.sample(seen, min(per_game, len(seen))):
            for s, chance in enumerate(analysis.chances(rules, state, playouts)):
                pairs.append((chance, 1 if s == won else 0))
            for s, chance in enumerate(evaluation.chances(rules, state)):
                static.append((chance, 1 if s == won else 0))
        moves = [s for s in seen if s.phase == MOVE and len(rules.legal_moves(s)) > 1]
        if moves and len(picked) < decisions:
            picked.append(rng.choice(moves))
    pairs, static = pairs[:positions * players], static[:positions * players]
    brier = sum((p - o) ** 2 for p, o in pairs) / len(pairs)
    static_brier = sum((p - o) ** 2 for p, o in static) / len(static)
    share = 1 / players
    baseline = share * (1 - share) ** 2 + (1 - share) * share ** 2  # everyone 1/players
    table = {}
    for decile in range(10):
        inside = [(p, o) for p, o in pairs if min(int(p * 10), 9) == decile]
        if inside:
            table[f"{decile / 10:.1f}-{(decile + 1) / 10:.1f}"] = (
                f"n {len(inside)}, predicted {statistics.mean(p for p, _ in inside):.3f}, "
                f"observed {statistics.mean(o for _, o in inside):.3f}")
    same = total = ungraded = flips = 0
    for state in picked:  # within the budget, as the API reviews: options both graded count
        one = analysis.review(rules, state, seed=analysis.position_seed(rules, state, "a"))
        two = analysis.review(rules, state, seed=analysis.position_seed(rules, state, "b"))
        both = [(a, b) for a, b in zip(one, two) if a.graded and b.graded]
        same += sum(a.grade == b.grade for a, b in both)
        flips += sum({a.grade, b.grade} == {analysis.GOOD, analysis.BLUNDER} for a, b in both)
        total += len(both)
        ungraded += len(one) - len(both)
    return {"game": game, "players": players, "positions": len(pairs) // players,
            "playouts": playouts, "brier_score": round(brier, 4),
            "brier_static_evaluation": round(static_brier, 4),
            "brier_if_everyone_had_1_in_players": round(baseline, 4),
            "calibration_by_decile": table,
            "stability": {"decisions": len(picked), "options": total,
                          "not_graded_by_one_or_both": ungraded,
                          "same_grade_with_another_seed": round(same / max(total, 1), 3),
                          "good_on_one_seed_blunder_on_the_other": flips}}


def describe_history(played_match, header) -> list[str]:
    rules = played_match.rules
    lines = []
    for kind, seat, what in played_match.history:
        color = header.seats[seat].color
        letter = rules.board.colors[color].lower()
        if kind == "roll":
            lines.append(f"{letter} rolls {'-'.join(map(str, what))}")
        elif kind in ("claim", "miss"):
            lines.append(f"{letter} {'claims' if kind == 'claim' else 'misses'} the re-roll")
        else:
            lines.append(rules.move_text(color, what))
    return lines


def _mask(phone: str | None) -> str:
    return f"{phone[:3]}...{phone[-2:]}" if phone else "-"


def inspect(token: str) -> str:
    played = Game.from_token(token, Keys.from_env())
    header = played.header
    names = played.rules.board.color_names
    out = [f"game: {header.game} (format {header.format_version}, rules {header.rules_version}, "
           f"options {header.options})", f"seed: {header.seed.hex()}",
           f"dice commitment: {played.commitment()}", "seats:"]
    for i, seat in enumerate(header.seats):
        kind = "human" if not seat.bot else f"bot {seat.bot}"
        by = " by WhatsApp" if seat.whatsapp else ""
        out.append(f"  {i}. {seat.name} ({names[seat.color]}, {kind}, phone "
                   f"{_mask(seat.phone)}{by})")
    out.append(f"log: {len(played.match.steps)} steps")
    out += ["  " + line for line in describe_history(played.match, header)]
    out.append(f"position: {played.position()}")
    if played.over:
        out.append(f"winner: {header.seats[played.state.winner].name}")
        out.append(f"dice secret (revealed): {played.revealed_secret()}")
    return "\n".join(out)


def verify(token: str, secret_hex: str | None, expected: str | None) -> tuple[bool, str]:
    """Recompute every roll of a finished game from its revealed secret; no server keys needed."""
    header, reader = link.read_unverified(token)
    if secret_hex is None:
        played = Game.from_token(token, Keys.from_env())
        if not played.over:
            return False, "The game is not over: its dice secret is revealed only at the end."
        secret_hex = played.revealed_secret()
    secret = bytes.fromhex(secret_hex)
    match = replay(header, reader, secret)
    lines = [f"commitment of this secret: {commitment(secret)}"]
    ok = True
    if expected is not None:
        same = expected.strip().lower() == commitment(secret)
        ok &= same
        lines.append("matches the commitment shown at the start" if same
                     else "DOES NOT match the commitment given")
    rolls = [what for kind, _, what in match.history if kind == "roll"]
    lines.append(f"first-player rolls: {match.start_rounds}")
    lines.append(f"{len(rolls)} rolls recomputed from the secret; every move in the log is legal "
                 f"with them")
    lines += ["  " + line for line in describe_history(match, header) if " rolls " in line]
    if match.phase != OVER:
        ok = False
        lines.append("the log does not reach the end of the game")
    else:
        lines.append(f"final position: {match.rules.format(match.state)}")
    return ok, "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play complete games with random legal moves")
    sim.add_argument("--game", choices=GAMES, default="parcheesi")
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--board", type=int, choices=red_arse_settings.BOARDS,
                     help="Red Arse and Ludo: the 4- or 6-player board (default: the smallest "
                          "that fits)")
    sim.add_argument("--off", action="append", default=[], choices=red_arse_settings.RULE_KEYS,
                     help="Red Arse: switch a house rule off (repeatable)")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", default="1")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    ins = commands.add_parser("inspect", help="print the game a link holds")
    ins.add_argument("link")
    ben = commands.add_parser("bench", help="engine speed, handler cost, link size, and a turn "
                                "followed by five bot turns; rooms: live rooms polled and played "
                                "through a threaded server on 127.0.0.1 (app/room_bench.py)")
    ben.add_argument("what", nargs="?", choices=["rooms", "previews", "review", "pills"],
                     help="rooms: the live rooms bench; previews: drawing the link preview "
                          "images; review: a game's review ready after its last move, through "
                          "a threaded server (app/review_bench.py); pills: a phone's chance "
                          "pills after a tap, in Chromium (app/pills_bench.py) (without it: "
                          "the engine's)")
    ben.add_argument("--turns", type=int, default=12, help="pills: taps per table")
    ben.add_argument("--think", type=float, default=1.0,
                     help="pills: seconds between the roll and the tap")
    ben.add_argument("--every", type=float, default=3.0,
                     help="review: seconds between the people's turns")
    ben.add_argument("--games", type=int,
                     help="engine: games per table (default 100); previews: random games per "
                          "board, 8 links each (default 10)")
    ben.add_argument("--seconds", type=float,
                     help="engine: at least this much play per table (default 5); rooms: the "
                          "live phase (default 60; the unchanged polls a third of it)")
    ben.add_argument("--rooms", type=int, default=20,
                     help="rooms: how many, of 4 to 6 phones (5 on average)")
    ben.add_argument("--step-every", type=float, default=3.0,
                     help="rooms: seconds between a room's steps")
    ben.add_argument("--url", help="rooms: a store URL (default: a new SQLite file)")
    prev = commands.add_parser("previews", help="write a link preview image per board (and the "
                               "generic one) into a folder, with each one's title and "
                               "description")
    prev.add_argument("--out", default="docs/previews")
    shots = commands.add_parser("screenshots", help="the game on a 390 px phone in Chromium: each "
                                "game mid-turn and a finished game's review (app/screenshots.py)")
    shots.add_argument("--out", default="docs/screenshots")
    rep = commands.add_parser("repeat", help="do a bench's work TIMES times, to count its "
                              "instructions: under callgrind, TIMES 1 less TIMES 0")
    rep.add_argument("work", choices=["links", "chances"],
                     help="links: open the bench's finished links and make their next ones; "
                          "chances: the chance to win from the analysis bench's positions")
    rep.add_argument("--game", choices=GAMES, default="parcheesi")
    rep.add_argument("--players", type=int, default=4)
    rep.add_argument("--count", type=int, help="links (default 100) or positions (default 2)")
    rep.add_argument("--times", type=int, default=1)
    ver = commands.add_parser("verify", help="check a finished game's dice against its secret")
    ver.add_argument("link")
    ver.add_argument("--secret", help="the revealed dice secret (hex)")
    ver.add_argument("--commitment", help="the commitment shown when the game started")
    tour = commands.add_parser("tournament", help="bots of given strengths play each other")
    tour.add_argument("--game", choices=GAMES, default="parcheesi")
    tour.add_argument("--players", type=int, default=4)
    tour.add_argument("--seats", default="hard,medium,medium,medium",
                      help="one strength per seat: random, easy, medium or hard")
    tour.add_argument("--games", type=int, default=100)
    tour.add_argument("--board", type=int, choices=red_arse_settings.BOARDS)
    tour.add_argument("--seed", default="1")
    tour.add_argument("--json", action="store_true")
    abench = commands.add_parser("analysis-bench", help="speed of the chance to win and of the "
                                 "move review, from the middle of medium bot games; --widest: "
                                 "the widest decisions of random games; --load: turn times "
                                 "under analysis load")
    abench.add_argument("--games", type=int,
                        help="medium games (default 5); with --widest random games per table "
                             "(default 300); with --load random games per table the analysis "
                             "clients ask about (default 300)")
    abench.add_argument("--widest", action="store_true",
                        help="review the widest decisions of random games, within the budget")
    abench.add_argument("--keep", type=int, default=5, help="--widest: decisions per table")
    abench.add_argument("--unbounded", action="store_true",
                        help="--widest: time the reviews without the budget too (slow)")
    abench.add_argument("--load", action="store_true",
                        help="turns through a threaded server on 127.0.0.1, alone and while "
                             "analysis clients ask for reviews (app/analysis_load.py)")
    abench.add_argument("--turns", type=int, default=300, help="--load: turns per phase")
    abench.add_argument("--clients", type=int, default=8, help="--load: analysis clients")
    abench.add_argument("--workers", type=int,
                        help="--load: the server's ANALYSIS_WORKERS (default one per core but "
                             "one; 0: analysis in the request threads)")
    cal = commands.add_parser("calibrate", help="chance to win against bot games' outcomes "
                              "(Brier score, deciles) and the review's stability across seeds")
    cal.add_argument("--game", choices=GAMES, default="parcheesi")
    cal.add_argument("--players", type=int, default=4)
    cal.add_argument("--positions", type=int, default=500)
    cal.add_argument("--playouts", type=int, default=300)
    cal.add_argument("--decisions", type=int, default=40)
    cal.add_argument("--seed", default="1")
    fit = commands.add_parser("fit-evaluation", help="fit the static evaluation's weights "
                              "(app/engine/evaluation.py) to medium bot games, per board")
    fit.add_argument("--games", type=int, default=200, help="medium games per board")
    commands.add_parser("build-native", help="compile the engine's busiest modules with mypyc "
                        "(needs pip install -e '.[native]' and a C compiler); see app/native.py")
    lang = commands.add_parser("i18n", help="translation catalogs: update, compile, check")
    lang.add_argument("action", choices=["update", "compile", "check"],
                      help="update: extract the messages and merge them into each language's "
                           "catalog; compile: build the .mo files; check: list what lacks a "
                           "translation")
    store = commands.add_parser("store", help="the store's DynamoDB table")
    store_commands = store.add_subparsers(dest="action", required=True)
    table = store_commands.add_parser("create-table", help="create the DynamoDB table a store URL "
                                      "names, with TTL on its ttl attribute (safe to run again)")
    table.add_argument("--url", help="dynamodb://TABLE?region=REGION (default: STORE_URL)")
    sbench = store_commands.add_parser("bench", help="the store's calls and time per turn, "
                                       "through the API")
    sbench.add_argument("--url", help="a store URL (default: a new SQLite file)")
    sbench.add_argument("--games", type=int, default=20)
    sbench.add_argument("--turns", type=int, default=10)
    args = parser.parse_args(argv)

    try:
        if args.command == "simulate":
            options = table_options(args.game, args.players, args.board, args.off)
            report = simulate(args.game, args.players, args.games, args.seed, options)
            print(json.dumps(report) if args.json else _lines(report))
        elif args.command == "inspect":
            print(inspect(_token(args.link)))
        elif args.command == "tournament":
            options = table_options(args.game, args.players, args.board)
            report = tournament(args.game, args.players, args.seats.split(","), args.games,
                                args.seed, options)
            print(json.dumps(report) if args.json else _lines(report))
        elif args.command == "i18n":
            return _i18n(args.action)
        elif args.command == "build-native":
            return _build_native()
        elif args.command == "store" and args.action == "bench":
            from app.store_bench import store_bench

            print(_lines(store_bench(args.url, args.games, args.turns)))
        elif args.command == "store":
            return _create_table(args.url or os.environ.get("STORE_URL"))
        elif args.command == "analysis-bench" and args.load:
            from app.analysis_load import analysis_load

            print(_lines(analysis_load(args.turns, args.clients, args.workers,
                                       args.games or 300)))
        elif args.command == "analysis-bench" and args.widest:
            for game, players in ANALYSIS_TABLES:
                print(_lines(widest_bench(game, players, args.games or 300, args.keep,
                                          args.unbounded)))
        elif args.command == "analysis-bench":
            for game, players in ANALYSIS_TABLES:
                print(_lines(analysis_bench(game, players, args.games or 5)))
        elif args.command == "calibrate":
            print(_lines(calibrate(args.game, args.players, args.positions, args.playouts,
                                   args.decisions, args.seed)))
        elif args.command == "fit-evaluation":
            from app.evaluation_fit import BOARDS, report

            for game, players in BOARDS:
                print(_lines(report(game, players, args.games)))
        elif args.command == "repeat":
            count = args.count if args.count is not None else REPEAT_COUNTS[args.work]
            print(_lines(repeat(args.work, args.game, args.players, count, args.times)))
        elif args.command == "bench" and args.what == "rooms":
            from app.room_bench import room_bench

            seconds = 60.0 if args.seconds is None else args.seconds
            print(_lines(room_bench(args.url, args.rooms, seconds, args.step_every)))
        elif args.command == "bench" and args.what == "previews":
            for game, players in BENCH_TABLES:
                print(_lines(preview_bench(game, players, args.games or 10)))
        elif args.command == "bench" and args.what == "review":
            from app.review_bench import review_bench

            for figures in review_bench(args.every):
                print(_lines(figures))
        elif args.command == "bench" and args.what == "pills":
            from app.pills_bench import pills_bench

            for figures in pills_bench(BENCH_TABLES, args.turns, args.think):
                print(_lines(figures))
        elif args.command == "previews":
            print("\n".join(write_previews(args.out)))
        elif args.command == "screenshots":
            from app.screenshots import take

            print("\n".join(take(args.out)))
        elif args.command == "bench":
            for game, players in BENCH_TABLES:
                print(_lines(bench(game, players, args.games or 100,
                                   5.0 if args.seconds is None else args.seconds)))
            print(_lines({"bots": bot_turn_bench()}))
        else:
            ok, text = verify(_token(args.link), args.secret, args.commitment)
            print(text)
            print("VERIFIED" if ok else "NOT VERIFIED")
            return 0 if ok else 1
    except (link.LinkError, ValueError, IllegalMove) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def _build_native() -> int:
    import subprocess

    from app import native

    start = time.perf_counter()
    try:
        built = native.build()
    except subprocess.CalledProcessError as error:
        print((error.stdout + error.stderr)[-4000:], file=sys.stderr)
        print("error: the build failed; it needs pip install -e '.[native]' and a C compiler",
              file=sys.stderr)
        return 1
    print(f"compiled {', '.join(built)} in {time.perf_counter() - start:.0f} s")
    return 0


def _create_table(url: str | None) -> int:
    """The DynamoDB table for the store, made once per stage before the first deploy. SQLite
    needs none of this: it makes its own table."""
    from app.store import StoreUnavailable, open_store
    from app.store.dynamodb import DynamoStore

    if not (url or "").strip():
        raise ValueError("no store URL: give --url or set STORE_URL")
    store = open_store(url)
    if not isinstance(store, DynamoStore):
        raise ValueError(f"{url} is not a DynamoDB store: only DynamoDB needs its table made "
                         f"(SQLite makes its own)")
    try:
        print("\n".join(store.create_table()))
    except StoreUnavailable as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        store.close()
    return 0


def _i18n(action: str) -> int:
    from app import i18n

    if action == "update":
        print(_lines(i18n.update()))
    elif action == "compile":
        written = i18n.compile_catalogs(force=True)
        print("\n".join(str(path.relative_to(i18n.ROOT)) for path in written))
    else:
        missing = {lang: i18n.untranslated(lang) for lang in i18n.LANGUAGES[1:]}
        for lang, messages in missing.items():
            print(f"{lang}: {len(messages)} untranslated")
            print("".join(f"  {m!r}\n" for m in messages), end="")
        return 1 if any(missing.values()) else 0
    return 0


def _token(text: str) -> str:
    """Accept a whole link (even one copied from the address bar, with ``?new=1`` or a turn
    in progress after ``#``) as well as a bare token: the token is the last path segment."""
    path = text.strip().split("#", 1)[0].split("?", 1)[0]
    return path.rstrip("/").rsplit("/", 1)[-1]


def _lines(report: dict, indent: str = "") -> str:
    out = []
    for key, value in report.items():
        label = key.replace("_", " ")
        if isinstance(value, dict):
            out.append(f"{indent}{label}:")
            out.append(_lines(value, indent + "  "))
        else:
            out.append(f"{indent}{label}: {value}")
    return "\n".join(out)
