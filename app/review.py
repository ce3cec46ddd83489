"""Analysis of a link's game for the page: chance to win at a step, and the review of a decision.

The engine's ``analysis`` does the playouts; this module finds the positions in a replayed game,
says which decisions are a person's to grade, and asks the questions whose answers
``app/answers.py`` keeps in the store, for every phone and for good (each depends only on the
position: the playouts are seeded from it, never from the game's real dice). The page asks for
one step per request rather than the turn's handler grading the turn and carrying grades in the
link: a turn stays a few milliseconds and its link stays short, a slow review never holds up the
game, and on Lambda the page's requests run side by side. Where there are analysis workers, a
turn also queues its answers once it has been answered (``ahead``), so that the finished game's
review finds them kept (docs/analysis.md, "Where the work runs").

Every answer has a budget (``analysis.BUDGET``: steps of playouts, 1.5 s or so on one core),
and where the app is one process serving many requests (Flask's threaded server, gunicorn's
threads) the playouts run apart from the request threads, in ``Analysts``: processes of their
own (one per core but one) at a lower priority, with a bounded number of requests admitted;
when all are taken, ``Busy`` rather than a queue that grows (the API then queues the question
in the bounded backlog and answers 202 with Retry-After).
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections import deque
from concurrent.futures import CancelledError, Future

from app import answers, link
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


def states_at(game: Game, steps) -> dict:
    """The positions after each of ``steps`` (steps of the game), from one replay."""
    wanted = set(steps)
    found = {0: state_at(game, 0)} if 0 in wanted else {}

    def watch(match) -> None:
        if len(match.steps) in wanted:
            found[len(match.steps)] = match.state.copy()

    last = max(wanted, default=0)
    if last:
        count, data = link.pack_log(game.match.steps[:last])
        secret = game_secret(game.keys.dice, game.header.seed)
        replay(game.header, link.LogReader(count, data), secret, watch)
    return found


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


def chances_question(game: Game, state, config) -> answers.Question:
    """Each seat's chance to win at ``state`` (a position of ``game``), from
    ``ANALYSIS_PLAYOUTS`` games played out (300) within ``ANALYSIS_BUDGET`` steps (the
    engine's) in the app's ``config``."""
    return answers.question("chances", game.header.game, game.header.options, state,
                            playouts=config["ANALYSIS_PLAYOUTS"], budget=config["ANALYSIS_BUDGET"])


def review_question(game: Game, step: int, state, config) -> answers.Question:
    """The review of the person's decision at ``step`` (``state``: the position there), the
    move played graded first, with the app's ``REVIEW_PLAYOUTS``, ``REVIEW_EXTRA`` and
    ``ANALYSIS_BUDGET`` (the engine's by default). ``NotADecision`` for any other step."""
    if not any(step == s for s, _ in decisions(game)):
        raise NotADecision(N_("That step is not a player's choice between moves."))
    assert state.phase == MOVE
    return answers.question(
        "review", game.header.game, game.header.options, state,
        playouts=config["REVIEW_PLAYOUTS"], extra=config["REVIEW_EXTRA"],
        budget=config["ANALYSIS_BUDGET"],
        first=game.match.steps[step][0])


# A finished game's page asks for this many reviews at once where every request has an
# instance of its own (Lambda): many instances share one game's review.
AT_ONCE_WITHOUT_WORKERS = 8


def at_once(config) -> int:
    """How many of a finished game's reviews its page asks for at once: on a server with its
    own analysis workers, one client's share of a process's places (so that one table alone is
    never refused a place: docs/analysis.md); without them (Lambda), ``AT_ONCE_WITHOUT_WORKERS``."""
    workers = analysts(config)
    return workers.share if workers.workers else AT_ONCE_WITHOUT_WORKERS


def ahead(game: Game, since: int, config, now: float) -> int:
    """Queue what the pages will ask for from step ``since`` on (the reviews of people's
    decisions, for the feed and the finished game's review, then the chances where the next
    link opens, for the next player's pills) with the analysis workers, to
    be worked out and kept in the store at ``STORE_URL``, within the game's
    ``ANALYSIS_PER_GAME_HOUR``; how many were queued. None without workers (Lambda: the pages
    ask), nor past their backlog."""
    workers = analysts(config)
    if not workers.workers:
        return 0
    reviews = [step for step, _ in decisions(game) if step >= since]
    starts = [len(game.match.history)]  # the next link's position (its dice may be rolled)
    states = states_at(game, reviews + starts)
    asked = [review_question(game, step, states[step], config) for step in reviews] + \
        [chances_question(game, states[step], config) for step in starts]
    url, limit = config["STORE_URL"] or "", config["ANALYSIS_PER_GAME_HOUR"]
    return sum(workers.submit(question.key, answers.ahead, url, question, game.header.seed,
                              now, limit) for question in asked)


# -- where the work runs -------------------------------------------------------------------------

BUSY = N_("Many moves are being reviewed right now: try again in a few seconds.")
RETRY_AFTER = 3  # seconds: about one answer's budget, when a place may have come free
WAITING = 2  # requests admitted per worker besides the one it works on
NICENESS = 10  # the workers' lower priority: turns and pages come first on a shared core
JOB_TIMEOUT = 60  # seconds: a safeguard only (an answer's budget is 1 to 2 s)
# Background answers (``ahead``) waiting per worker at most: a few games' turns. Past it a
# turn's answers are not queued (its pages still ask), so the backlog's memory is bounded.
BACKLOG = 64

_log = logging.getLogger(__name__)


class Busy(Exception):
    """Every place for analysis is taken (or the job was lost): ask again later."""


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
    bounded by its budget. One client (``who``: its address) holds half the places at most
    (``share``), so a burst from one never leaves another table without a place.

    The workers are given one job each at a time, by ``_dispatch``: a page's request first,
    the clients waiting taken in turn (a burst from one waits behind another table's request,
    not the other way round), and only when no request waits, a job of the background's
    (``submit``: a turn's answers, worked out before anyone asks), which waits in a backlog of
    ``workers * BACKLOG`` at most. So a request waits behind one job per worker at most, and
    work ahead yields to it. A request for an answer in the backlog takes it over rather than
    working it out twice."""

    def __init__(self, workers: int, waiting: int = WAITING, niceness: int = NICENESS):
        self.workers = workers
        self.niceness = niceness
        self.places = max(1, workers) * (1 + waiting)
        self.share = (self.places + 1) // 2
        self._admitted = threading.BoundedSemaphore(self.places)
        self._held: dict[str, int] = {}  # places held, by client
        self._holding = threading.Lock()  # guards _held with the places taken
        self._inline = threading.Lock()
        self._guard = threading.Lock()
        self._executor = None  # a ProcessPoolExecutor, made at the first job (not at start-up)
        self._ready = threading.Lock()  # guards what follows
        self._asked: dict[str, deque] = {}  # requests waiting, by client
        self._given: dict[str, int] = {}  # jobs with the workers, by client
        self._last: dict[str, int] = {}  # when each client was last given a worker
        self._turns = itertools.count()
        self._backlog: deque[str] = deque()  # keys of background jobs not started, next first
        self._queued: dict[str, tuple] = {}  # by key, until done: (Future, job, args)
        self._requests: dict[str, Future] = {}  # requests' jobs by key, until answered
        self._running = 0  # jobs with the workers

    def run(self, job, *args, key: str | None = None, who: str | None = None,
            also: str | None = None):
        """``job(*args)`` in a worker (or the job of another request or of the background for
        the same ``key``, waited for rather than worked out twice); ``Busy`` when every place
        is taken, or when ``who`` (a table: its phones share its turn) or ``also`` (the
        address it comes from: many tables there still can't hold every place) holds its share
        of them."""
        holders = [name for name in (who, also) if name is not None]
        with self._holding:
            if any(self._held.get(name, 0) >= self.share for name in holders):
                raise Busy()
            if not self._admitted.acquire(blocking=False):
                raise Busy()
            for name in holders:
                self._held[name] = self._held.get(name, 0) + 1
        try:
            if not self.workers:
                with self._inline:
                    return job(*args)
            answer = self._ask(job, args, key, who or "")
            if answer is None:  # the background's job for ``key`` gave none: this one's own
                answer = self._ask(job, args, None, who or "")
            return answer
        finally:
            with self._holding:
                self._admitted.release()
                for name in holders:
                    self._held[name] -= 1
                    if not self._held[name]:
                        del self._held[name]

    def _ask(self, job, args, key: str | None, who: str):
        """A request's job, in its client's turn (or the background's for ``key``, taken over
        when it hasn't started, else waited for; or another request's for ``key``, waited
        for: one answer worked out once for every phone that asks)."""
        with self._ready:
            queued = self._queued.get(key) if key is not None else None
            asked = self._requests.get(key) if key is not None else None
            taken = None  # the background's key, when its job is taken over
            if queued is not None and key in self._backlog:
                self._backlog.remove(key)  # taken over: its answer is this request's
                promise, job, args = queued
                taken = key
            elif queued is not None or asked is not None:
                promise = None  # being worked out, or asked by another phone: wait for it
            else:
                promise = Future()
                if key is not None:
                    self._requests[key] = promise
                    promise.add_done_callback(lambda _, key=key: self._answered(key))
            if promise is not None:
                self._asked.setdefault(who, deque()).append((promise, job, args, taken))
            waited = queued[0] if queued is not None else asked or promise
        self._dispatch()
        try:
            answer = waited.result(timeout=JOB_TIMEOUT)
        except TimeoutError:
            if waited is promise:  # not started: its turn goes to the next (another's stays)
                waited.cancel()
            raise Busy() from None
        except CancelledError:
            raise Busy() from None
        if isinstance(answer, _Broken):
            raise Busy()
        return answer

    def _answered(self, key: str) -> None:
        with self._ready:
            self._requests.pop(key, None)

    def has_place(self, who: str | None = None, also: str | None = None) -> bool:
        """Whether ``run`` would admit a request from ``who`` (and ``also``) now (a look,
        nothing taken): a request that would be Busy is refused before anything is counted
        for it."""
        with self._holding:
            return all(self._held.get(name, 0) < self.share for name in (who, also)
                       if name is not None) and \
                self._admitted._value > 0  # the places left (CPython's Semaphore keeps it)

    def asked(self, key: str) -> bool:
        """Whether the answer under ``key`` is on its way: queued in the background, or asked
        for by a request being answered."""
        with self._ready:
            return key in self._queued or key in self._requests

    def submit(self, key: str, job, *args) -> bool:
        """Queue ``job(*args)``, whose answer is kept under ``key``, in the background, and
        don't wait for it: whether it was queued (not without workers, nor when it is queued
        already or the backlog is full)."""
        with self._ready:
            if not self.workers or key in self._queued or \
                    len(self._backlog) >= self.workers * BACKLOG:
                return False
            self._queued[key] = (Future(), job, args)
            self._backlog.append(key)
        self._dispatch()
        return True

    def queued(self, key: str) -> bool:
        """Whether the answer under ``key`` is queued in the background (or being worked out)."""
        with self._ready:
            return key in self._queued

    def _next(self) -> tuple | None:
        """The next job for a free worker: (promise, job, args, key, who). A request first,
        from the client with the fewest jobs with the workers, and of those the one served
        longest ago; else the background's next."""
        while self._asked:
            who = min(self._asked, key=lambda w: (self._given.get(w, 0), self._last.get(w, -1)))
            waiting = self._asked[who]
            promise, job, args, key = waiting.popleft()
            if not waiting:
                del self._asked[who]
            if promise.set_running_or_notify_cancel():
                self._given[who] = self._given.get(who, 0) + 1
                self._last[who] = next(self._turns)
                return promise, job, args, key, who
            self._queued.pop(key, None)  # its request gave up waiting
            self._forget(who)
        if self._backlog:
            key = self._backlog.popleft()
            promise, job, args = self._queued[key]
            if promise.set_running_or_notify_cancel():
                return promise, job, args, key, None
        return None

    def _forget(self, who: str) -> None:
        """A client with nothing waiting nor with the workers needs no turn of its own."""
        if who not in self._asked and not self._given.get(who):
            self._given.pop(who, None)
            self._last.pop(who, None)

    def _dispatch(self) -> None:
        """Give each free worker its next job."""
        from concurrent.futures.process import BrokenProcessPool

        while True:
            with self._ready:
                if self._running >= self.workers:
                    return
                taken = self._next()
                if taken is None:
                    return
                self._running += 1
            promise, job, args, key, who = taken
            try:
                future = self._pool().submit(job, *args)
            except (BrokenProcessPool, RuntimeError):  # broken, or stopping (``close``)
                self._reset()
                self._done(promise, key, who, _Broken())
                continue
            future.add_done_callback(
                lambda f, p=promise, k=key, w=who: self._done(p, k, w, _outcome(f)))

    def _done(self, promise: Future, key: str | None, who: str | None, answer) -> None:
        """A job is over: its answer to whoever waits, its worker to the next job."""
        from concurrent.futures.process import BrokenProcessPool

        if isinstance(answer, BaseException):
            if isinstance(answer, BrokenProcessPool):  # a worker died: start afresh
                self._reset()
            elif not isinstance(answer, CancelledError):  # a bug: said in the log
                _log.error("Analysis failed", exc_info=answer)
            answer = _Broken()
        with self._ready:
            self._running -= 1
            if key is not None:
                self._queued.pop(key, None)
            if who is not None:
                self._given[who] -= 1
                self._forget(who)
        promise.set_result(answer if key is None or not isinstance(answer, _Broken) else None)
        self._dispatch()

    def _pool(self):
        import atexit
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with self._guard:
            if self._executor is None:
                atexit.register(self.close)  # before the interpreter tears its modules down
                # Spawned, not forked: the server has threads, and a fork copies their locks.
                self._executor = ProcessPoolExecutor(
                    self.workers, multiprocessing.get_context("spawn"), _worker_starts,
                    (os.getpid(), self.niceness))
            return self._executor

    def _reset(self) -> None:
        with self._guard:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def close(self) -> None:
        """Stop the workers (they stop with the process anyway), and forget the backlog."""
        with self._ready:
            for key in self._backlog:
                self._queued.pop(key)[0].cancel()
            self._backlog.clear()
        self._reset()


class _Broken:
    """A job that gave no answer (its worker died, or it failed): the request is Busy."""


def _outcome(future: Future):
    """A finished job's answer, or what stopped it."""
    try:
        return future.result()
    except BaseException as error:  # handed on to _done, which says what it was
        return error


def _worker_starts(server: int, niceness: int) -> None:
    """A worker's start: a watch that ends it when the server's process ends (however it ends:
    a server stopped by a signal runs no clean-up, and its workers would wait for work
    forever), a lower priority than the server's own threads (``niceness`` more), and the
    engine loaded. ``server`` is the pool's owner's pid, read by the owner: a worker runs this
    only after its imports, and a server that died meanwhile has handed it to another parent,
    which the worker would have watched instead, for ever."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()
    try:
        os.nice(niceness)
    except OSError:
        pass
    rules_for("parcheesi")


_analysts: dict[tuple[int, int], Analysts] = {}
_analysts_guard = threading.Lock()


def analysts(config) -> Analysts:
    """The process's ``Analysts`` for an app's settings ``ANALYSIS_WORKERS``,
    ``ANALYSIS_WAITING`` and ``ANALYSIS_NICENESS`` (their defaults: ``create_app``). One per
    process and settings, shared by the apps that ask for the same."""
    key = (int(config["ANALYSIS_WORKERS"]), int(config["ANALYSIS_WAITING"]),
           int(config["ANALYSIS_NICENESS"]))
    with _analysts_guard:
        if key not in _analysts:
            _analysts[key] = Analysts(*key)
        return _analysts[key]
