"""The workbench's command line: ``simulate | tournament | bench | analysis-bench | calibrate |
fit-evaluation | repeat | previews | screenshots``.

Each command is a thin call into the module that does the work; ``python -m app`` hands these
commands on here, so both spellings work. Simulations and benches use fixed test keys, so that
``--seed`` reproduces a run exactly.
"""

from __future__ import annotations

import argparse
import json
import sys

from app.cli import lines
from app.engine import bots, red_arse_settings
from app.engine.core import IllegalMove
from app.engine.games import NAMES as GAMES
from app.link import LinkError
from workbench.games import TABLES, table_options
from workbench.lighthouse_bench import LighthouseError, lighthouse_bench
from workbench.reference_server import SERVERS


def parser(prog: str = "python -m workbench") -> tuple[argparse.ArgumentParser, set[str]]:
    """Every tool command and its options, and the commands' names."""
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
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
    sim.add_argument("--moves", default="random", choices=("random", *bots.STRENGTHS),
                     help="who chooses the moves: random (default) or bots of a strength")
    sim.add_argument("--seed", default="1")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    ben = commands.add_parser("bench", help="engine speed, handler cost, link size, and a turn "
                                "followed by five bot turns; rooms: live rooms polled and played "
                                "through a threaded server on 127.0.0.1 (workbench/room_bench.py)")
    ben.add_argument("what", nargs="?",
                     choices=["rooms", "previews", "review", "pills", "pages", "store",
                              "texts", "guesses", "burst", "fair", "lighthouse"],
                     help="rooms: the live rooms bench; store: the store's calls and time per "
                          "turn, through the API; texts: the texts a game of people by link "
                          "costs, turns with nothing to decide played for them or not; previews: drawing the link preview "
                          "images; review: a brisk game of people by link, its pills on each turn "
                          "and its review ready after the last move "
                          "(workbench/review_bench.py); guesses: room-code "
                          "guesses let through a minute by two Gunicorn workers "
                          "(workbench/guess_bench.py); fair: another table's chances during "
                          "one client's burst of analysis requests (workbench/fair_bench.py); "
                          "burst: a game page's time under a "
                          "burst of preview fetches (workbench/burst_bench.py); pills: a phone's "
                          "chance pills after a tap, in Chromium (workbench/pills_bench.py); "
                          "pages: a page's first and largest paint on a phone, in Chromium "
                          "(workbench/page_bench.py); lighthouse: Lighthouse's scores and "
                          "figures of five pages (workbench/lighthouse_bench.py) "
                          "(without it: the engine's)")
    ben.add_argument("--turns", type=int,
                     help="pills: taps per table (default 12); store: turns per game (default 10)")
    ben.add_argument("--loads", type=int, default=5, help="pages: loads of each page")
    ben.add_argument("--think", type=float, default=1.0,
                     help="pills: seconds between the roll and the tap")
    ben.add_argument("--every", type=float, default=5.0,
                     help="review: seconds between the people's turns")
    ben.add_argument("--people", type=int, default=4,
                     help="review: the people at each table, the other seats medium bots")
    ben.add_argument("--game", choices=GAMES,
                     help="review: this game's table only (default: every game's)")
    ben.add_argument("--games", type=int,
                     help="engine: games per table (default 100); previews: random games per "
                          "board, 8 links each (default 10); store: games (default 20); "
                          "texts: games per table and way (default 10)")
    ben.add_argument("--seconds", type=float,
                     help="engine: at least this much play per table (default 5); rooms: the "
                          "live phase (default 60; the unchanged polls a third of it)")
    ben.add_argument("--rooms", type=int, default=20,
                     help="rooms: how many, of 4 to 6 phones (5 on average)")
    ben.add_argument("--step-every", type=float, default=3.0,
                     help="rooms: seconds between a room's steps")
    ben.add_argument("--url", help="rooms, store: a store URL (default: a new SQLite file)")
    ben.add_argument("--runs", type=int, default=3,
                     help="lighthouse: runs per page, of which the median is given")
    ben.add_argument("--server", choices=SERVERS, default="reference",
                     help="lighthouse, review, pills: the reference server (Gunicorn) or the "
                          "quick-start one (flask run)")
    prev = commands.add_parser("previews", help="write a link preview image per board (and the "
                               "generic one) into a folder, with each one's title and "
                               "description")
    prev.add_argument("--out", default="docs/previews")
    shots = commands.add_parser("screenshots", help="the game on a 390 px phone in Chromium: each "
                                "game mid-turn and a finished game's review "
                                "(workbench/screenshots.py)")
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
                             "analysis clients ask for reviews (workbench/analysis_load.py)")
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
    cal.add_argument("--reference", action="store_true",
                     help="also grade the decisions against the reference: four times the "
                     "playouts, no budget (slow: minutes per decision on 6-player boards)")
    fit = commands.add_parser("fit-evaluation", help="fit the static evaluation's weights "
                              "(app/engine/evaluation.py) to medium bot games, per board")
    fit.add_argument("--games", type=int, default=200, help="medium games per board")
    return parser, set(commands.choices)


def main(argv: list[str] | None = None, prog: str = "python -m workbench") -> int:
    args = parser(prog)[0].parse_args(argv)
    try:
        for report in run(args):
            if isinstance(report, str):
                print(report)
            else:
                print(json.dumps(report) if getattr(args, "json", False) else lines(report))
    except (LinkError, ValueError, IllegalMove, LighthouseError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def run(args):
    """The reports a command makes, one at a time (each printed as it comes: some take
    minutes): a dict of figures, or lines already written."""
    command = args.command
    if command == "simulate":
        from workbench.simulate import simulate

        options = table_options(args.game, args.players, args.board, args.off)
        yield simulate(args.game, args.players, args.games, args.seed, options, args.moves)
    elif command == "tournament":
        from workbench.simulate import tournament

        options = table_options(args.game, args.players, args.board)
        yield tournament(args.game, args.players, args.seats.split(","), args.games, args.seed,
                         options)
    elif command == "analysis-bench":
        yield from _analysis_bench(args)
    elif command == "calibrate":
        from workbench.calibrate import calibrate

        yield calibrate(args.game, args.players, args.positions, args.playouts, args.decisions,
                        args.seed, args.reference)
    elif command == "fit-evaluation":
        from workbench.evaluation_fit import report

        for game, players in TABLES:
            yield report(game, players, args.games)
    elif command == "repeat":
        from workbench.engine_bench import REPEAT_COUNTS, repeat

        count = args.count if args.count is not None else REPEAT_COUNTS[args.work]
        yield repeat(args.work, args.game, args.players, count, args.times)
    elif command == "bench":
        yield from _bench(args)
    elif command == "previews":
        from workbench.previews import write_previews

        yield "\n".join(write_previews(args.out))
    else:
        from workbench.screenshots import take

        yield "\n".join(take(args.out))


def _bench(args):
    if args.what == "rooms":
        from workbench.room_bench import room_bench

        seconds = 60.0 if args.seconds is None else args.seconds
        yield room_bench(args.url, args.rooms, seconds, args.step_every)
    elif args.what == "previews":
        from workbench.previews import preview_bench

        for game, players in TABLES:
            yield preview_bench(game, players, args.games or 10)
    elif args.what == "review":
        from workbench.review_bench import TABLES as review_tables, review_bench

        tables = [table for table in review_tables if table[0] == args.game] if args.game \
            else review_tables
        yield from review_bench(args.every, tables, args.server, args.people)
    elif args.what == "pills":
        from workbench.pills_bench import pills_bench

        yield from pills_bench(TABLES, args.turns or 12, args.think, args.server)
    elif args.what == "pages":
        from workbench.page_bench import page_bench

        yield from page_bench(args.loads)
    elif args.what == "lighthouse":
        yield from lighthouse_bench(args.server, args.runs)
    elif args.what == "store":
        from workbench.store_bench import store_bench

        yield store_bench(args.url, args.games or 20, args.turns or 10)
    elif args.what == "burst":
        from workbench.burst_bench import burst_bench

        yield burst_bench(20.0 if args.seconds is None else args.seconds)
    elif args.what == "fair":
        from workbench.fair_bench import fair_bench

        yield fair_bench(30.0 if args.seconds is None else args.seconds)
    elif args.what == "guesses":
        from workbench.guess_bench import guess_bench

        yield guess_bench()
    elif args.what == "texts":
        from workbench.games import texts_bench

        for game, players in TABLES:
            yield texts_bench(game, players, args.games or 10)
    else:
        from workbench.engine_bench import bench, bot_turn_bench

        for game, players in TABLES:
            yield bench(game, players, args.games or 100,
                        5.0 if args.seconds is None else args.seconds)
        yield {"bots": bot_turn_bench()}


def _analysis_bench(args):
    if args.load:
        from workbench.analysis_load import analysis_load

        yield analysis_load(args.turns, args.clients, args.workers, args.games or 300)
        return
    from workbench.analysis_bench import analysis_bench, widest_bench

    for game, players in TABLES:
        if args.widest:
            yield widest_bench(game, players, args.games or 300, args.keep, args.unbounded)
        else:
            yield analysis_bench(game, players, args.games or 5)
