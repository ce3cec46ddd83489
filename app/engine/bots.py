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

import functools
import hashlib
import random

from .core import CLAIM, MOVE, OVER, Move

Table = tuple[list[float], list[float], list[int], list[int]]
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
    scores: see ``_Scorer``, ``danger`` the share of a piece's worth a rival's reach costs).
    Finished games score +-100."""
    if state.phase == OVER:
        placed = getattr(state, "placed", None)
        winner = placed[0] if placed else state.winner
        return 100.0 if winner == seat else -100.0
    scorer = _scorer(rules, danger)
    tables = [scorer.tables[c] for c in state.colors]
    marks = [_mark(table, pieces) for table, pieces in zip(tables, state.pos)]
    return _weigh([_score(table, pieces, _threat(marks, s))
                   for s, (table, pieces) in enumerate(zip(tables, state.pos))], seat)


def _weigh(scores: list[float], seat: int) -> float:
    rivals = scores[:seat] + scores[seat + 1:]
    return scores[seat] - max(rivals) * 0.6 - sum(rivals) / len(rivals) * 0.4


class _Scorer:
    """Each seat's score: its progress (0 at the start, about 5 with every piece home) less the
    share ``danger`` of the worth of its pieces within a rival's reach.

    - Parcheesi and Ludo: progress counts from the nest (-1) to Home, a piece's worth
      ``(p + 10) / (home + 10)`` (+0.08 on its home path), 1.25 once Home; a piece on the track
      is in danger when a rival piece stands 1 to ``reach`` squares behind it (10 in Parcheesi,
      6 in Ludo), off a safe square.
    - Red Arse: progress from the start hole round to the home column, worth
      ``(holes from the start + 8) / (track + 8)``, 0.55 in the center, 1.2 + 0.05 a slot in
      its own home column (0.5 in a rival's); a marble on the track is in danger when a rival
      marble is 1 to 6 holes behind it, or 4 ahead (a backward 4).

    Everything a piece can contribute is worked out once per board, per color and place:
    ``tables[color]`` is ``(add, cost, near, bit)``, the worth the piece adds, what danger
    takes off, the track holes from which a rival threatens it (a bitmask) and the hole it
    stands on (a bit), each indexed by the place itself (the last entry is the nest/base,
    place -1). A score is then a few look-ups per piece, with the very same floating-point
    operations, in the same order, as the plain formulas. Every game has four pieces a seat.
    """

    def __init__(self, rules, danger: float):
        if rules.pieces != 4:
            raise ValueError("scores are written out for four pieces a seat")
        self.tables = [self._tables(rules, color, danger)
                       for color in range(len(rules.board.color_names))]
        self.landing = rules.landing  # what a move alone changes: (winner, changes)
        # seats' colors -> their tables, in seat order
        self.seated: dict[tuple[int, ...], list[Table]] = {}

    @staticmethod
    def _tables(rules, color: int, danger: float) -> Table:
        if rules.name == "red-arse":
            return _ring_tables(rules, color, danger)
        if rules.name == "parcheesi":
            return _race_tables(rules, color, danger, rules.home, rules.board.last, 10,
                                rules.board.safe.__contains__)
        return _race_tables(rules, color, danger, rules.goal, rules.last, 6,
                            rules.safe.__getitem__)


def _mark(table: Table, pieces: list[int]) -> int:
    """The track holes ``pieces`` stand on, as a bitmask."""
    bit = table[3]
    a, b, c, d = pieces
    return bit[a] | bit[b] | bit[c] | bit[d]


def _score(table: Table, pieces: list[int], threat: int) -> float:
    """One seat's score, ``threat`` the holes its rivals stand on."""
    add, cost, near, _ = table
    score = 0.0
    for p in pieces:
        worth = add[p]
        if worth:
            score += worth
            if near[p] & threat:
                score -= cost[p]
    return score


def _threat(marks: list[int], seat: int) -> int:
    """The holes the rivals of ``seat`` stand on, from every seat's ``marks``."""
    threat = 0
    for other, mark in enumerate(marks):
        if other != seat:
            threat |= mark
    return threat


def _race_tables(rules, color: int, danger: float, home: int, last: int, reach: int,
                 safe_cell) -> Table:
    cells, track = rules.cell[color], rules.board.track
    add: list[float] = []
    cost: list[float] = []
    near: list[int] = []
    bit: list[int] = []
    for p in range(home + 1):
        worth = (p + 10) / (home + 10)
        if p >= home:
            add.append(1.25)
            cost.append(0.0)
            near.append(0)
            bit.append(0)
            continue
        add.append(worth + (0.08 if p > last else 0.0))
        cost.append(danger * worth)
        if p <= last:
            cell = cells[p + 1]
            bit.append(1 << cell)
            near.append(0 if safe_cell(cell) else
                        sum(1 << (cell - back - 1) % track + 1 for back in range(1, reach + 1)))
        else:
            near.append(0)
            bit.append(0)
    return add + [0.0], cost + [0.0], near + [0], bit + [0]


def _ring_tables(rules, color: int, danger: float) -> Table:
    board = rules.board
    track, start = board.track, board.start(color)
    add: list[float] = []
    cost: list[float] = []
    near: list[int] = []
    bit: list[int] = []
    for place in range(board.places):
        owner = board.home_owner(place)
        worth, threat, here = 0.0, 0, 0
        if owner is not None:
            worth = 1.2 + 0.05 * owner[1] if owner[0] == color else 0.5
        elif place == board.center:
            worth = 0.55
        else:
            worth = ((place - start) % track + 8) / (track + 8)
            here = 1 << place
            threat = sum(1 << (place - back) % track for back in range(1, 7)) | \
                1 << (place + 4) % track
        add.append(worth)
        cost.append(danger * worth)
        near.append(threat)
        bit.append(here)
    return add + [0.0], cost + [0.0], near + [0], bit + [0]


@functools.cache
def _scorer(rules, danger: float) -> _Scorer:
    """The scorer of a rule set and danger, built once (its tables cost about a millisecond;
    rule sets are few and long-lived: ``games.rules_for`` keeps them)."""
    return _Scorer(rules, danger)


def in_danger(rules, colors, pos, seat: int) -> int:
    """How many of ``seat``'s pieces stand within a rival's reach (as medium's score counts
    danger) in the position ``pos``."""
    tables = _scorer(rules, 0.45).tables
    threat = _threat([_mark(tables[c], p) for c, p in zip(colors, pos)], seat)
    near = tables[colors[seat]][2]
    return sum(1 for p in pos[seat] if near[p] & threat)


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
    if strength == "medium":
        return medium(rules, state, moves)
    rng = random.Random(seed)
    if strength == "random":
        return rng.randrange(len(moves))
    if strength == "easy":
        if rng.random() < EASY_WHIM:
            return rng.randrange(len(moves))
        return _ranked(rules, state, moves, danger=0.0)[0][1]
    if strength == "hard":
        return _look_ahead(rules, state, _ranked(rules, state, moves), rng)
    raise ValueError(f"no bot strength {strength!r}")


def medium_move(rules, state):
    """The move medium plays (the move itself: playouts need no index). A rule set that lists
    its candidate moves (Parcheesi: ``candidates``, a superset of the legal moves in the same
    order) has them all weighed, then asks the rule set for the best legal one
    (``best_legal``), which settles the legality of as few as it can."""
    candidates = getattr(rules, "candidates", None)
    if candidates is None:
        moves = rules.legal_moves(state)
        return moves[0] if len(moves) == 1 else moves[medium(rules, state, moves)]
    hops = candidates(state)
    if len(hops) == 1:
        return hops[0]
    return hops[rules.best_legal(state, _worths(rules, state, hops))]


def medium(rules, state, moves) -> int:
    """Medium's move among ``moves`` (the legal list, more than one): the best evaluated, the
    first listed of equals (``_ranked``'s first, without the sorting)."""
    worths = _worths(rules, state, moves)
    return worths.index(max(worths))


EASY_WHIM = 0.3  # how often easy plays any move at all


def _ranked(rules, state, moves, danger: float = 0.45) -> list[tuple[float, int]]:
    """Legal moves by the evaluation of the position each leaves, best first (ties: the
    canonical order)."""
    return sorted([(-worth, i) for i, worth in enumerate(_worths(rules, state, moves, danger))])


def _worths(rules, state, moves, danger: float = 0.45) -> list[float]:
    """``evaluate(rules, after(rules, state, move), state.turn, danger)`` for every move, to the
    last bit, without copying the position.

    A move changes the pieces of the mover and of any seat it captures from (the rule set's
    ``landing`` tells which); every other seat keeps its score unless a changed piece stands
    or stood where a rival threatens one of its pieces from, so only the changed seats' scores
    are worked out again (each with the same operations, in the same order, as ``evaluate``).
    """
    seat: int = state.turn
    pos: list[list[int]] = state.pos
    scorer = _scorer(rules, danger)
    landing = scorer.landing
    tables = scorer.seated.get(state.colors)
    if tables is None:
        tables = scorer.seated[state.colors] = [scorer.tables[c] for c in state.colors]
    seats = range(len(pos))
    marks: list[int] = []
    reach: list[int] = []
    for (_, _, near, bit), (a, b, c, d) in zip(tables, pos):
        marks.append(bit[a] | bit[b] | bit[c] | bit[d])
        reach.append(near[a] | near[b] | near[c] | near[d])
    threats: list[int] = []  # per seat: what its rivals stand on
    before = 0
    for mark in marks:
        threats.append(before)
        before |= mark
    after = 0
    for s in reversed(seats):
        threats[s] |= after
        after |= marks[s]
    scores = [0.0 if s == seat else _score(tables[s], pos[s], threats[s]) for s in seats]
    rivals = scores[:seat] + scores[seat + 1:]
    first, rest = max(rivals) * 0.6, sum(rivals) / len(rivals) * 0.4  # while no rival changes
    table, threat, bit = tables[seat], threats[seat], tables[seat][3]
    others = 0  # where a rival's piece can be threatened from
    for s in seats:
        if s != seat:
            others |= reach[s]
    worths: list[float] = []
    for move in moves:
        winner, changes = landing(state, move)
        if winner is not None:
            worths.append(100.0 if winner == seat else -100.0)
            continue
        if len(changes) == 1:  # the mover's pieces alone: the commonest case by far
            pieces = changes[0][1]
            score = _score(table, pieces, threat)
            a, b, c, d = pieces
            mark = bit[a] | bit[b] | bit[c] | bit[d]
            moved = mark ^ marks[seat]
            if not moved & others:  # no rival's danger changes: nor its score
                worths.append(score - first - rest)
                continue
            touched = [s for s in seats if reach[s] & moved and s != seat]
            later = scores[:]
            later[seat] = score
            now = marks[:]
            now[seat] = mark
            for s in touched:
                later[s] = _score(tables[s], pos[s], _threat(now, s))
        else:
            later = scores[:]
            now, moved = marks[:], 0
            for s, pieces in changes:
                now[s] = _mark(tables[s], pieces)
                moved |= now[s] ^ marks[s]
            changed = [s for s, _ in changes]
            for s, pieces in changes:
                later[s] = _score(tables[s], pieces, _threat(now, s))
            for s in seats:
                if reach[s] & moved and s not in changed:
                    later[s] = _score(tables[s], pos[s], _threat(now, s))
        rivals = later[:seat] + later[seat + 1:]
        worths.append(later[seat] - max(rivals) * 0.6 - sum(rivals) / len(rivals) * 0.4)
    return worths


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
_ROLLS: dict[int, list[tuple[tuple[int, ...], float]]] = {
    1: [((d,), 1 / 6) for d in range(1, 7)],
    2: [((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)],
}
