"""A static evaluation of each seat's chance to win, and the luck of a roll measured by it.

Playouts (``analysis``) say who wins by playing the game out; this says it at a glance, from a
few race features of each seat (``FEATURES``, built on the medium bot's per-board tables):

    chance(seat) = exp(w . f(seat)) / sum over seats of exp(w . f(other))

with one weight vector ``w`` per board (``WEIGHTS``), fitted to who won medium bot games
(``python -m app fit-evaluation``, which prints them and their Brier scores). Cheap enough to
be asked hundreds of times a turn, which is what measuring luck needs.

**Luck** (``roll_luck``), as backgammon programs measure it: how much better or worse a roll
turned out for the player who rolled it than the average roll would have, each roll judged by
the position it leads to once the roller has played it (their moves as the medium bot would
play them), by this evaluation. A player's luck over a game is the sum over their rolls; over
many games it averages zero. Method and figures: ``docs/analysis.md``.
"""

from __future__ import annotations

import math

from . import bots
from .core import CLAIM, MOVE, OVER

# Per seat: its progress (the medium bot's worth of its pieces, about 1 a piece), the worth of
# those within a rival's reach, pieces home, pieces still in the nest or base, and whether it
# is the seat to move.
FEATURES = ("progress", "danger", "home", "nest", "to_move")

# ``python -m app fit-evaluation`` (200 medium games per board, a position in three).
WEIGHTS: dict[str, tuple[float, ...]] = {
    "parcheesi/4": (1.0957, -0.8099, -0.2082, 0.1049, 0.1024),
    "red-arse/4": (0.6222, -0.4208, 0.2963, 0.0617, 0.0689),
    "red-arse/6": (0.6961, -0.2149, 0.2958, 0.0545, 0.0747),
    "ludo/4": (1.423, -0.6494, -0.285, 0.1653, 0.0516),
    "ludo/6": (1.6144, -0.394, -0.311, 0.1529, 0.0437),
}


def board_key(rules) -> str:
    """The key of a rule set's board in ``WEIGHTS``: the game and its number of colors."""
    return f"{rules.name}/{len(rules.board.color_names)}"


def features(rules, state) -> list[tuple[float, ...]]:
    """Each seat's ``FEATURES``."""
    tables = bots._scorer(rules, 0.45).tables
    seated = [tables[c] for c in state.colors]
    marks = [bots._mark(table, pieces) for table, pieces in zip(seated, state.pos)]
    rows: list[tuple[float, ...]] = []
    for seat, ((add, cost, near, _), pieces) in enumerate(zip(seated, state.pos)):
        threat = bots._threat(marks, seat)
        progress = danger = home = nest = 0.0
        for p in pieces:
            progress += add[p]
            if near[p] & threat:
                danger += cost[p]
            if add[p] >= 1.2:  # a piece home (its worth there: 1.2 and up)
                home += 1
            elif p == -1:
                nest += 1
        rows.append((progress, danger, home, nest, 1.0 if seat == state.turn else 0.0))
    return rows


def chances(rules, state, weights: tuple[float, ...] | None = None) -> list[float]:
    """Each seat's chance to win by the evaluation (summing to 1); a finished game's winner
    has 1 (Ludo: the first placed, as soon as there is one), and a seat that doesn't play
    (Ludo: disqualified, or still to join) 0."""
    placed = getattr(state, "placed", None)
    won = placed[0] if placed else state.winner if state.phase == OVER else None
    if won is not None:
        return [1.0 if s == won else 0.0 for s in range(len(state.colors))]
    w = WEIGHTS[board_key(rules)] if weights is None else weights
    idle = idle_seats(state)
    scores = [sum(a * b for a, b in zip(w, row)) for row in features(rules, state)]
    top = max(score for s, score in enumerate(scores) if s not in idle)
    shares = [0.0 if s in idle else math.exp(score - top) for s, score in enumerate(scores)]
    total = sum(shares)
    return [share / total for share in shares]


def idle_seats(state) -> frozenset[int]:
    """The seats that take no more turns (Ludo's ``State.idle``; every seat plays on in the
    other games)."""
    idle = getattr(state, "idle", None)
    return frozenset() if idle is None else idle()


# Every roll of one die or two, with its chance (two dice: unordered, doubles 1/36).
ROLLS = bots._ROLLS


def played(rules, state, dice: tuple[int, ...]):
    """A copy of ``state`` (at a roll) after ``dice`` and the roller's moves with them, as the
    medium bot plays them, up to the next roll or the next player (a claimed re-roll is a
    next roll)."""
    child = state.copy()
    roller = child.turn
    rules.roll(child, dice)
    play = getattr(rules, "play_legal", rules.play)  # medium's moves are legal
    while child.phase == MOVE and child.turn == roller:
        play(child, bots.medium_move(rules, child))
    if child.phase == CLAIM:
        rules.claim(child, True)
    return child


def roll_luck(rules, state, dice: tuple[int, ...]) -> float:
    """The luck of ``dice`` for the seat rolling them at ``state`` (a roll): its chance to
    win after this roll, less its mean over every roll (-1..1)."""
    seat = state.turn
    value = mean = 0.0
    for roll, chance in ROLLS[rules.dice_count]:
        after = chances(rules, played(rules, state, roll))[seat]
        mean += chance * after
        if roll == tuple(sorted(dice)):
            value = after
    return value - mean
