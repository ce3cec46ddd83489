"""Bots: easy, medium and hard players for every game, deterministic for a game and decision.

A bot's choice depends only on the position, its legal moves and a seed derived from the game's
seed and the decision's index (``decision_seed``), so replaying a link replays the bots' moves.
The bots never see the game's future dice: the hard bot's look-ahead rolls its own.

- **easy** plays like a beginner: now and then any move, otherwise the move that gets its side
  furthest, blind to danger.
- **medium** is the reference player of the analysis features: it weighs every move by the
  position it leaves (``evaluate``): how far each side has come, pieces home, and pieces a rival
  could hit on its next roll. Fast: one evaluation per legal move.
- **hard** looks one turn further: for each of medium's best few moves, every roll the next rival
  could make and that rival's best reply, and keeps the move that holds up best on average.
"""

from __future__ import annotations

import hashlib
import random

from .core import MOVE, OVER, ROLL, CLAIM

STRENGTHS = ("easy", "medium", "hard")
BOT_LEVELS = {1: "easy", 2: "medium", 3: "hard"}  # ``Seat.bot`` in the link


def decision_seed(seed: bytes, index: int, salt: str = "bot") -> int:
    """The seed of one decision of one game: the game's seed and the decision's step index."""
    digest = hashlib.sha256(b"boardpass/" + salt.encode() + b"/" + seed +
                            index.to_bytes(8, "big")).digest()
    return int.from_bytes(digest[:8], "big")


# -- evaluation --------------------------------------------------------------------------------

def evaluate(rules, state, seat: int, danger: float = 0.45) -> float:
    """How good ``state`` is for ``seat``: its score less its rivals' (mostly the best one's;
    scores: see ``_scores``, ``danger`` the share of a piece's worth a rival's reach costs).
    Finished games score +-100."""
    if state.phase == OVER:
        placed = getattr(state, "placed", None)
        winner = placed[0] if placed else state.winner
        return 100.0 if winner == seat else -100.0
    scores = _SCORERS[rules.name](rules, state, danger)
    rivals = [s for i, s in enumerate(scores) if i != seat]
    return scores[seat] - max(rivals) * 0.6 - sum(rivals) / len(rivals) * 0.4


# Scores: each seat's progress (0 at the start, about 5 with every piece home) less the share
# ``danger`` of the worth of its pieces within a rival's reach.

def _race_scores(rules, state, danger: float, home: int, last: int, reach: int,
                 safe_cell) -> list[float]:
    """Parcheesi and Ludo: progress counts from the nest (-1) to ``home``; a piece on the track
    is in danger when a rival piece stands 1 to ``reach`` squares behind it, off a safe square."""
    cells = rules.cell
    track = rules.board.track
    occupied: dict[int, list[int]] = {}
    for seat, pieces in enumerate(state.pos):
        color = state.colors[seat]
        for p in pieces:
            if 0 <= p <= last:
                occupied.setdefault(cells[color][p + 1], []).append(seat)
    scores = []
    for seat, pieces in enumerate(state.pos):
        color = state.colors[seat]
        score = 0.0
        for p in pieces:
            if p < 0:
                continue
            if p >= home:
                score += 1.25
                continue
            worth = (p + 10) / (home + 10)
            score += worth + (0.08 if p > last else 0.0)
            if p <= last:
                cell = cells[color][p + 1]
                if not safe_cell(cell):
                    for back in range(1, reach + 1):
                        behind = (cell - back - 1) % track + 1
                        if any(other != seat for other in occupied.get(behind, ())):
                            score -= danger * worth
                            break
        scores.append(score)
    return scores


def _parcheesi_scores(rules, state, danger: float) -> list[float]:
    safe = rules.board.safe
    return _race_scores(rules, state, danger, rules.home, rules.board.last, 10,
                        safe.__contains__)


def _ludo_scores(rules, state, danger: float) -> list[float]:
    safe = rules.safe
    return _race_scores(rules, state, danger, rules.goal, rules.last, 6, safe.__getitem__)


def _red_arse_scores(rules, state, danger: float) -> list[float]:
    """Red Arse: progress from the start hole round to the home column; a marble is in danger
    when a rival marble is 1 to 6 holes behind it, or 4 ahead (a backward 4)."""
    board = rules.board
    track = board.track
    at = state.at
    scores = []
    for seat, marbles in enumerate(state.pos):
        color = state.colors[seat]
        start = board.start(color)
        score = 0.0
        for place in marbles:
            if place < 0:
                continue
            owner = board.home_owner(place)
            if owner is not None:
                score += 1.2 + 0.05 * owner[1] if owner[0] == color else 0.5
                continue
            if place == board.center:
                worth = 0.55
            else:
                worth = ((place - start) % track + 8) / (track + 8)
            score += worth
            if place == board.center:
                continue
            near = [(place - back) % track for back in range(1, 7)] + [(place + 4) % track]
            if any(at[p] not in (-1, seat) for p in near):
                score -= danger * worth
        scores.append(score)
    return scores


_SCORERS = {"parcheesi": _parcheesi_scores, "ludo": _ludo_scores, "red-arse": _red_arse_scores}


def after(rules, state, move):
    """The position a legal move leaves (a copy: ``state`` is unchanged)."""
    child = state.copy()
    if hasattr(rules, "_apply"):  # Parcheesi: the move alone, not the rest of the roll
        rules._apply(child, move)
    else:
        child.moves = state.moves  # the same legal list: no need to work it out again
        rules.play(child, move)
    return child


# -- the players -------------------------------------------------------------------------------

def choose(strength: str, rules, state, seed: int) -> int:
    """The index of the legal move a bot of ``strength`` plays; 0 at a claim point (claim)."""
    if state.phase == CLAIM:
        return 0
    moves = rules.legal_moves(state)
    if len(moves) == 1:
        return 0
    rng = random.Random(seed)
    if strength == "random":
        return rng.randrange(len(moves))
    if strength == "easy":
        if rng.random() < EASY_WHIM:
            return rng.randrange(len(moves))
        return _ranked(rules, state, moves, danger=0.0)[0][1]
    ranked = _ranked(rules, state, moves)
    if strength == "medium":
        return ranked[0][1]
    if strength == "hard":
        return _look_ahead(rules, state, ranked, rng)
    raise ValueError(f"no bot strength {strength!r}")


EASY_WHIM = 0.3  # how often easy plays any move at all


def _ranked(rules, state, moves, danger: float = 0.45) -> list[tuple[float, int]]:
    """Legal moves by the evaluation of the position each leaves, best first (ties: the
    canonical order)."""
    seat = state.turn
    return sorted(((-evaluate(rules, after(rules, state, m), seat, danger), i)
                   for i, m in enumerate(moves)))


HARD_CANDIDATES = 4  # medium's best moves that hard looks further into


def _look_ahead(rules, state, ranked, rng) -> int:
    """Hard: medium's best few moves, each judged by what the dice and the players (playing as
    medium) can do next: every roll of the next mover's dice and that player's best reply, and
    for one-die games the roll after that too. ``rng`` is unused: hard needs no chance of its
    own (kept for the common signature)."""
    seat = state.turn
    moves = rules.legal_moves(state)
    depth = 3 if rules.dice_count == 1 else 1
    best, choice = None, ranked[0][1]
    for _, i in ranked[:HARD_CANDIDATES]:
        worth = _value(rules, _played(rules, state, moves[i]), seat, depth)
        if best is None or worth > best:
            best, choice = worth, i
    return choice


def _played(rules, state, move):
    """A copy of ``state`` after a legal move, the turn settled (who is to move next)."""
    child = state.copy()
    child.moves = state.moves
    rules.play(child, move)
    return child


def _best(rules, state):
    """The mover's best move by medium's eyes."""
    moves = rules.legal_moves(state)
    return moves[0] if len(moves) == 1 else moves[_ranked(rules, state, moves)[0][1]]


def _value(rules, state, seat: int, depth: int) -> float:
    """``seat``'s evaluation once ``depth`` more rolls have been played by medium players (the
    rest of a turn in progress is played first), averaged over every roll of the dice."""
    while state.phase == MOVE:
        state = _played(rules, state, _best(rules, state))
    if state.phase == CLAIM:
        state = state.copy()
        rules.claim(state, True)
    if state.phase == OVER or depth == 0:
        return evaluate(rules, state, seat)
    total = 0.0
    for dice, chance in _ROLLS[rules.dice_count]:
        child = state.copy()
        rules.roll(child, dice)
        if child.phase == MOVE:
            mover = child.turn
            child = _played(rules, child, _best(rules, child))
            while child.phase == MOVE and child.turn == mover and depth == 1:
                child = _played(rules, child, _best(rules, child))
        total += chance * _value(rules, child, seat, depth - 1)
    return total


# Every roll of one die or two, with its chance (two dice: unordered, doubles 1/36).
_ROLLS = {
    1: [((d,), 1 / 6) for d in range(1, 7)],
    2: [((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)],
}


def playout(rules, state, seat: int, rng: random.Random, turns: int) -> float:
    """Play ``turns`` turns with medium players and ``rng``'s dice; ``seat``'s evaluation."""
    count = rules.dice_count
    passed = 0
    last = state.turn
    while state.phase != OVER and passed < turns:
        if state.phase == ROLL:
            rules.roll(state, tuple(rng.randint(1, 6) for _ in range(count)))
        elif state.phase == CLAIM:
            rules.claim(state, True)
        else:
            moves = rules.legal_moves(state)
            index = 0 if len(moves) == 1 else _ranked(rules, state, moves)[0][1]
            rules.play(state, moves[index])
        if state.turn != last:
            passed += 1
            last = state.turn
    return evaluate(rules, state, seat)
