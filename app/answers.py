"""Analysis answers kept in the store: each worked out once, for every phone and for good.

An answer (each seat's chance at a position, the review of a decision) depends only on the
position, the table's rules, the settings that change answers (playouts, budget, the move
played first) and the engine's ``analysis.VERSION``: the playouts are seeded from the position,
never from a game's dice, and the budget is a count, not a clock. So it is kept under a digest
of exactly those, never of a link: two games that reach the same position share it, any phone
finds it, and an entry holds nothing secret (no link, seed, name or dice to come). What is kept
is the engine's result without words; move labels and reasons are the asker's language, added
per request (docs/analysis.md, "Where the work runs"). A game's luck (``luck_question``) is the
one answer about a whole game rather than a position, kept the same way.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass

from app import luck
from app.engine import analysis
from app.engine.dice import game_secret
from app.engine.games import rules_for
from app.store import Store, StoreUnavailable, open_store

# An answer never goes stale for its version, and working it out again costs a budget of CPU,
# so it is kept as long as a game's own entry (a year after its newest link: docs/store.md):
# a finished game reopened within the year finds its review. Not for ever: a new
# ``analysis.VERSION`` leaves the old answers unasked, and their expiry clears them away.
ANSWER_DAYS = 365
# A review holds every option's figures: about 120 bytes each, and the widest decisions have
# a dozen or so. An answer past this (far under DynamoDB's 400 KB item) is given, not kept.
MAX_ANSWER_BYTES = 32 * 1024
KINDS = ("chances", "review", "luck")


@dataclass(frozen=True)
class Question:
    """What to work out: ``kind`` (``KINDS``) at ``state`` of a ``game`` with table
    ``options``, with the engine's keyword ``settings``; ``key`` is where its answer is kept."""

    key: str
    kind: str
    game: str
    options: int
    state: object
    settings: dict


def question(kind: str, game: str, options: int, state, **settings) -> Question:
    """The question and its store key: a SHA-256 of the position's notation, the table, the
    kind, the settings and the engine's ``VERSION``."""
    assert kind in ("chances", "review")
    position = rules_for(game, options).format(state)
    return Question(_key(kind, game, options, position, settings), kind, game, options, state,
                    settings)


def luck_question(game) -> Question:
    """Each player's luck over a link's ``game`` (``app.luck``). Unlike a position's answers it
    depends on the whole game: every roll, drawn from the game's dice secret. So its key is a
    digest of that secret (a one-way digest: the entry still tells nothing of the dice), the
    seats' colors and comings and goings, and every step; the question carries what a worker
    needs to replay the game, never the link's keys."""
    header = game.header
    secret = game_secret(game.keys.dice, header.seed)
    steps = list(game.match.steps)
    table = [header.rules_version, [[s.color, s.joined, s.out] for s in header.seats],
             hashlib.sha256(secret).hexdigest(), steps]
    # ``course``: the key names the answer's course too, so a kept luck answer without one is
    # never given for it.
    return Question(_key("luck", header.game, header.options, table, {"course": 1}), "luck",
                    header.game, header.options, (header, secret, steps), {})


def _key(kind: str, game: str, options: int, position, settings: dict) -> str:
    text = json.dumps([analysis.VERSION, kind, game, options, position, settings],
                      sort_keys=True, separators=(",", ":"))
    return "answer#" + hashlib.sha256(text.encode()).hexdigest()


def work(asked: Question) -> dict:
    """Work the answer out (the engine's playouts: a budget of CPU). A chance: ``chances`` and
    the games played out; a review: every option's figures (``analysis.Option`` without its
    words), in the canonical order of the legal moves; luck: each seat's, and its rolls."""
    if asked.kind == "luck":
        return luck.replayed_luck(*asked.state)
    rules = rules_for(asked.game, asked.options)
    if asked.kind == "chances":
        odds, games = analysis.counted_chances(rules, asked.state, **asked.settings)
        return {"chances": odds, "playouts": games}
    options, _ = analysis.counted_review(rules, asked.state, **asked.settings)
    return {"options": [{"index": o.index, "chance": o.chance, "loss": o.loss,
                         "estimate": o.estimate, "grade": o.grade, "missed": list(o.missed),
                         "playouts": o.playouts, "best": o.best} for o in options]}


def kept(store: Store, asked: Question) -> dict | None:
    """The answer kept for ``asked``, or None; ``StoreUnavailable`` when the store is down."""
    entry = store.get(asked.key)
    return None if entry is None else entry.data


def keep(store: Store, asked: Question, answer: dict, now: float) -> bool:
    """Keep ``answer`` for everyone (unless it is too large, or another request kept it first,
    or the store is down: it was given all the same)."""
    if len(json.dumps(answer, separators=(",", ":"))) > MAX_ANSWER_BYTES:
        return False
    try:
        return store.add(asked.key, answer, now + ANSWER_DAYS * 24 * 3600)
    except StoreUnavailable:
        return False


def counted(store: Store, seed: bytes, now: float, limit: int) -> bool:
    """Count one more answer worked out for the game ``seed`` this hour, unless ``limit`` is
    reached (``ANALYSIS_PER_GAME_HOUR``): whether it may be worked out."""
    hour = int(now // 3600)
    return store.count(f"analysis#{seed.hex()}#{hour}", limit, (hour + 2) * 3600)


def ahead(url: str, asked: Question, seed: bytes, now: float, limit: int) -> dict | None:
    """A turn's answer worked out in the background (in an analysis worker, on the store at
    ``url``): the kept one if a page asked first, else worked out and kept, within the game's
    count. None when the count is spent or the store is down (what can't be kept waits for a
    page to ask)."""
    try:
        store = _store(url)
        answer = kept(store, asked)
        if answer is None and counted(store, seed, now, limit):
            answer = work(asked)
            keep(store, asked, answer, now)
        return answer
    except StoreUnavailable:
        return None


_opened: list = []  # this worker's store: [(url, Store)], the last one asked for
_opening = threading.Lock()


def _store(url: str) -> Store:
    """The store at ``url``, opened once per worker process (and again if the URL changes)."""
    with _opening:
        if not _opened or _opened[0][0] != url:
            if _opened:
                _opened.pop()[1].close()
            _opened.append((url, open_store(url)))
        return _opened[0][1]
