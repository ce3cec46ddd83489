"""Analysis of a link's game for the page: chance to win at a step, and the review of a decision.

The engine's ``analysis`` does the playouts; this module finds the positions in a replayed game
and says which decisions are a person's to grade. Each answer depends only on the position (the
playouts are seeded from it, never from the game's real dice), so the web layer can cache it for
good. Why the page asks for one step per request rather than the turn's handler grading the turn
and carrying grades in the link: a turn stays a few milliseconds and its link stays short, a slow
review never holds up the game, and on Lambda the page's requests run side by side
(docs/analysis.md).

Every answer has a budget (``analysis.BUDGET``: steps of playouts, 1.5 s or so on one core),
and where the app is one process serving many requests (Flask's threaded server, gunicorn's
threads) the playouts run apart from the request threads, in ``Analysts``: processes of their
own (one per core but one) at a lower priority, with a bounded number of requests admitted;
when all are taken, ``Busy`` (the API answers 503 with Retry-After) rather than a queue that
grows.
"""

from __future__ import annotations

import os
import threading
import time

from app import link
from app.engine import analysis
from app.engine.core import MOVE
from app.engine.dice import game_secret
from app.engine.games import rules_for
from app.engine.text import N_
from app.play import Game, TurnError, auto_steps, replay


class NotADecision(TurnError):
    """The step asked for is not a person's choice between moves."""


def state_at(game: Game, step: int):
    """The position after the game's first ``step`` steps."""
    if not 0 <= step <= len(game.match.steps):
        raise TurnError(N_("This game has no such step."))
    if step == len(game.match.steps):
        return game.state.copy()
    count, data = link.pack_log(game.match.steps[:step])
    secret = game_secret(game.keys.dice, game.header.seed)
    return replay(game.header, link.LogReader(count, data), secret).state


def decisions(game: Game) -> list[tuple[int, int]]:
    """``(step, seat)`` of every choice a person made among two legal moves or more (bots,
    and turns played for absent players, aren't graded)."""
    seats = game.header.seats
    bot_steps = auto_steps(game.match.history, game.header.auto)
    return [(step, seat) for step, ((_, radix), (kind, seat, _))
            in enumerate(zip(game.match.steps, game.match.history))
            if kind == "move" and radix > 1 and not seats[seat].bot and step not in bot_steps]


def turn_starts(game: Game) -> list[tuple[int, int]]:
    """``(step, seat)`` where each turn began, and the final step with no seat (-1): where the
    page asks for chances to measure each player's luck."""
    history = game.match.history
    starts = [(step, seat) for step, (_, seat, _) in enumerate(history)
              if step == 0 or history[step - 1][1] != seat]
    return starts + [(len(history), -1)]


def chances_at(game: Game, step: int, playouts: int, budget: int | None = None,
               analysts: Analysts | None = None) -> tuple[list[float], int]:
    """Each seat's chance to win from the position at ``step``, and the games played out for
    it (``playouts``, or fewer when they reached the ``budget``: steps, the engine's by
    default). Worked out by ``analysts`` (in this thread without)."""
    state = state_at(game, step)
    budget = analysis.BUDGET if budget is None else budget
    return _work(analysts, _chances_job, game.header.game, game.header.options, state,
                 playouts, budget)


def review_at(game: Game, step: int, playouts: int | None = None,
              extra: int | None = None, budget: int | None = None,
              analysts: Analysts | None = None) -> dict:
    """The review of the person's decision at ``step``: every option's chance and grade (the
    engine's ``Option``s, in the canonical order; the move played is graded first, and options
    the budget didn't reach are listed in ``not_graded``), the one played, the best, the games
    played out (``playouts``) and the position (``state``) the options are moves of. Worked out
    by ``analysts`` (in this thread without)."""
    if not any(step == s for s, _ in decisions(game)):
        raise NotADecision(N_("That step is not a player's choice between moves."))
    state = state_at(game, step)
    assert state.phase == MOVE
    played = game.match.steps[step][0]
    settings = {"playouts": analysis.REVIEW_PLAYOUTS if playouts is None else playouts,
                "extra": analysis.REVIEW_EXTRA if extra is None else extra,
                "budget": analysis.BUDGET if budget is None else budget, "first": played}
    options, _ = _work(analysts, _review_job, game.header.game, game.header.options, state,
                       settings)
    best = next(o.index for o in options if o.best)
    return {"step": step, "seat": state.turn, "played": played, "best": best,
            "options": options, "not_graded": [o.index for o in options if not o.graded],
            "playouts": sum(o.playouts for o in options), "state": state}


def _chances_job(game: str, options: int, state, playouts: int,
                 budget: int) -> tuple[list[float], int]:
    return analysis.counted_chances(rules_for(game, options), state, playouts, budget=budget)


def _review_job(game: str, options: int, state, settings: dict):
    return analysis.counted_review(rules_for(game, options), state, **settings)


def _work(analysts: Analysts | None, job, *args):
    return job(*args) if analysts is None else analysts.run(job, *args)


# -- where the work runs -------------------------------------------------------------------------

BUSY = N_("Many moves are being reviewed right now: try again in a few seconds.")
RETRY_AFTER = 3  # seconds: about one answer's budget, when a place may have come free
WAITING = 2  # requests admitted per worker besides the one it works on
NICENESS = 10  # the workers' lower priority: turns and pages come first on a shared core
JOB_TIMEOUT = 60  # seconds: a safeguard only (an answer's budget is 1 to 2 s)


class Busy(Exception):
    """Every place for analysis is taken: try again after ``retry_after`` seconds."""

    retry_after = RETRY_AFTER


class Analysts:
    """Runs analysis apart from the request threads and bounds how much of it waits.

    ``workers`` processes of their own (started when first needed, at ``NICENESS``), so that
    the playouts take neither the request threads' interpreter lock (in the request threads,
    one review at a time made the turns ten times slower: docs/benchmarks.md) nor the core
    left to them; 0 runs each job in the request's thread, one at a time (Lambda, where
    each request has its own instance, and where processes can't share the queues a pool
    needs). At most ``workers * (1 + waiting)`` requests are admitted at once (one at a time
    plus ``waiting`` with no workers); the next raises ``Busy`` at once, so waiting requests
    never pile up, never hold every thread of the server, and none waits long: each job is
    bounded by its budget."""

    def __init__(self, workers: int, waiting: int = WAITING):
        self.workers = workers
        self.places = max(1, workers) * (1 + waiting)
        self._admitted = threading.BoundedSemaphore(self.places)
        self._inline = threading.Lock()
        self._guard = threading.Lock()
        self._executor = None  # a ProcessPoolExecutor, made at the first job (not at start-up)

    def run(self, job, *args):
        """``job(*args)`` in a worker; ``Busy`` when every place is taken."""
        if not self._admitted.acquire(blocking=False):
            raise Busy()
        try:
            if not self.workers:
                with self._inline:
                    return job(*args)
            from concurrent.futures.process import BrokenProcessPool

            future = None
            try:
                future = self._pool().submit(job, *args)
                return future.result(timeout=JOB_TIMEOUT)
            except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
                self._reset()
                raise Busy() from None
            except TimeoutError:  # its place is freed: so is its turn in the queue
                future.cancel()
                raise Busy() from None
        finally:
            self._admitted.release()

    def _pool(self):
        import atexit
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with self._guard:
            if self._executor is None:
                atexit.register(self.close)  # before the interpreter tears its modules down
                # Spawned, not forked: the server has threads, and a fork copies their locks.
                self._executor = ProcessPoolExecutor(
                    self.workers, multiprocessing.get_context("spawn"), _worker_starts)
            return self._executor

    def _reset(self) -> None:
        with self._guard:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def close(self) -> None:
        """Stop the workers (they stop with the process anyway)."""
        self._reset()


def _worker_starts() -> None:
    """A worker's start: a lower priority than the server's own threads, a watch that ends it
    when the server's process ends (however it ends: a server stopped by a signal runs no
    clean-up, and its workers would wait for work forever), and the engine loaded."""
    try:
        os.nice(NICENESS)
    except OSError:
        pass
    server = os.getppid()

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()
    rules_for("parcheesi")


_analysts: dict[tuple[int, int], Analysts] = {}
_analysts_guard = threading.Lock()


def analysts(config) -> Analysts:
    """The process's ``Analysts`` for an app's settings (or else the environment's):
    ``ANALYSIS_WORKERS`` (by default one per core but one, which is left to the turns, and at
    least one; none on Lambda) and ``ANALYSIS_WAITING`` (``WAITING``). One per process and
    settings, shared by the apps that ask for the same."""
    workers = config.get("ANALYSIS_WORKERS", os.environ.get("ANALYSIS_WORKERS"))
    if workers is None or workers == "":
        workers = 0 if os.environ.get("AWS_LAMBDA_FUNCTION_NAME") else \
            max(1, (os.cpu_count() or 1) - 1)
    waiting = config.get("ANALYSIS_WAITING", os.environ.get("ANALYSIS_WAITING"))
    if waiting is None or waiting == "":
        waiting = WAITING
    key = (int(workers), int(waiting))
    with _analysts_guard:
        if key not in _analysts:
            _analysts[key] = Analysts(*key)
        return _analysts[key]
