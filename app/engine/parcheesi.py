"""Parcheesi: two dice, entering on a 5, blockades, captures and Home with bonuses, doubles.

The rule text is ``shared/rules/parcheesi.txt``; the choices it leaves open are in
``docs/rules/parcheesi.md``. Positions read and write in the notation of ``docs/notation.md``:

>>> rules = Parcheesi()
>>> state = rules.parse("parcheesi y:n,n,n,10/r:n,n,n,44 y 3,5")
>>> [rules.describe(state, m) for m in rules.legal_moves(state)]  # a 5 must enter
['y enter 5']
>>> rules.play(state, rules.legal_moves(state)[0])
>>> rules.format(state)
'parcheesi y:5,n,n,10/r:n,n,n,44 y 3'
>>> [rules.describe(state, m) for m in rules.legal_moves(state)]
['y 5-8 3', 'y 10-13 3']
"""

from __future__ import annotations

from .boards import PARCHEESI, RaceBoard
from .core import MOVE, OVER, ROLL, IllegalMove, Move

NEST = -1
CAPTURE_BONUS = 20
_move = tuple.__new__  # builds a Move without NamedTuple's keyword handling: hot path
HOME_BONUS = 10


class State:
    """A Parcheesi position. ``pos[seat][piece]`` is a progress; cells are kept in step with it."""

    __slots__ = ("colors", "pos", "turn", "phase", "pool", "doubles", "pairs", "winner",
                 "count", "owner", "block", "moves", "memo", "captured")

    def copy(self) -> "State":
        other = State.__new__(State)
        other.colors = self.colors
        other.pos = [list(p) for p in self.pos]
        other.turn = self.turn
        other.phase = self.phase
        other.pool = self.pool
        other.doubles = self.doubles
        other.pairs = self.pairs
        other.winner = self.winner
        other.count = self.count[:]
        other.owner = self.owner[:]
        other.block = self.block
        other.moves = None
        other.memo = self.memo
        other.captured = self.captured
        return other

    def key(self):
        """What decides the rest of the game: equal keys, equal positions."""
        return (self.colors, tuple(map(tuple, self.pos)), self.turn, self.phase, self.pool,
                self.doubles, self.pairs, self.winner)

    def __eq__(self, other):
        return isinstance(other, State) and self.key() == other.key()

    def __repr__(self):
        return f"<parcheesi {Parcheesi().format(self)}>"


class Parcheesi:
    """The rule set. One instance holds the board's precomputed tables and is shared freely."""

    name = "parcheesi"
    dice_count = 2
    pieces = 4
    rules_version = 1

    def __init__(self, board: RaceBoard = PARCHEESI):
        self.board = board
        self.home = home = board.home
        self._rests = {}
        colors = range(len(board.entries))
        # cell[color][progress + 1]: the cell a piece stands on (0 for the nest and Home).
        self.cell = [[board.cell(c, p) for p in range(NEST, home + 1)] for c in colors]
        self.safe = [1 <= cell <= board.track and cell in board.safe for cell in range(board.cells)]
        # between[color][progress][v]: bitmask of the cells a hop of v passes over (not its ends).
        self.between = [
            [[self._mask(c, p, p + v) for v in range(home - p + 1)] for p in range(home)]
            for c in colors
        ]

    def _mask(self, color: int, src: int, dst: int) -> int:
        mask = 0
        for p in range(src + 1, dst):
            mask |= 1 << self.cell[color][p + 1]
        return mask

    # -- positions ---------------------------------------------------------------------------

    def initial(self, colors: tuple[int, ...], first: int) -> State:
        """Everyone in the nest, ``first`` to roll. ``colors`` lists the seats in turn order."""
        if not 2 <= len(colors) <= 4 or len(set(colors)) != len(colors):
            raise ValueError("Parcheesi takes 2 to 4 players of different colors")
        if list(colors) != sorted(colors, key=lambda c: (c - colors[0]) % 4):
            raise ValueError("seats go around the board in the direction the pawns move")
        return self._state(colors, [[NEST] * 4 for _ in colors], first, ROLL, (), 0, (), None)

    def _state(self, colors, pos, turn, phase, pool, doubles, pairs, winner) -> State:
        state = State()
        state.colors, state.pos, state.turn, state.phase = tuple(colors), pos, turn, phase
        state.pool, state.doubles, state.pairs, state.winner = pool, doubles, pairs, winner
        state.count = [0] * self.board.cells
        state.owner = [0] * self.board.cells
        state.block = 0
        state.moves = None
        state.memo = {}
        state.captured = False
        for seat, pieces in enumerate(pos):
            for p in pieces:
                cell = self.cell[colors[seat]][p + 1]
                if cell:
                    if state.count[cell] and state.owner[cell] != seat:
                        raise ValueError("two colors on one space")
                    if state.count[cell] == 2:
                        raise ValueError("at most two pawns on a space")
                    self._add(state, cell, seat)
        return state

    # -- chance node ---------------------------------------------------------------------------

    def roll(self, state: State, dice: tuple[int, int]) -> None:
        """Throw the two dice: doubles, the third-doubles penalty, then the values to play."""
        if state.phase != ROLL:
            raise IllegalMove("it is not time to roll")
        a, b = dice
        seat = state.turn
        pieces = state.pos[seat]
        if a == b:
            state.doubles += 1
            if state.doubles == 3:
                self._penalty(state, seat)
                state.doubles = 0
                self._end_roll(state)
                return
            values = (a, a, 7 - a, 7 - a) if NEST not in pieces else (a, a)
        else:
            state.doubles = 0
            values = (a, b)
        state.pool = tuple(sorted(values, reverse=True))
        state.phase = MOVE
        state.memo = {}
        state.captured = False
        state.pairs = self._pairs(state, seat)
        self._settle(state)

    def _pairs(self, state: State, seat: int) -> tuple:
        """The mover's blockades as the roll starts: (piece, piece, progress) each."""
        seen = {}
        pairs = []
        for k, p in enumerate(state.pos[seat]):
            if 0 <= p < self.home:
                if p in seen:
                    pairs.append((seen[p], k, p))
                seen[p] = k
        return tuple(pairs)

    def _penalty(self, state: State, seat: int) -> None:
        """Third doubles: the pawn nearest Home (home path included) goes back to the nest."""
        pieces = state.pos[seat]
        out = [k for k, p in enumerate(pieces) if 0 <= p < self.home]
        if out:
            k = max(out, key=lambda k: (pieces[k], -k))
            self._remove(state, self.cell[state.colors[seat]][pieces[k] + 1])
            pieces[k] = NEST

    # -- decisions -----------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        """The moves allowed now, in canonical order, judged over the whole roll.

        Among all ways to play the dice and the bonuses they lead to, only moves that start a
        play using the most values are legal (``docs/rules/parcheesi.md``).
        """
        if state.phase != MOVE:
            return []
        if state.moves is not None:
            return state.moves
        options, totals, best = self._evaluate(state)
        state.moves = moves = [m for (m, _), t in zip(options, totals) if t == best]
        return moves

    def _total(self, state: State, move: Move, bonus: bool) -> int:
        """The most values a play starting with ``move`` uses."""
        pool = state.pool
        used = len(move.values)
        if bonus:
            child = state.copy()
            self._apply(child, move)
            return used + self._most(child)
        # A plain move is cheap to make and take back in place; copying would cost more.
        pieces = state.pos[state.turn]
        cells = self.cell[state.colors[state.turn]]
        k, src, dst, values = move
        count, before = state.count, state.block
        a, b = cells[src + 1], cells[dst + 1]  # a is 0 for the nest: a cell nobody counts
        count[a] -= 1
        count[b] += 1
        state.owner[b] = state.turn
        if count[b] == 2:
            state.block = (before & ~(1 << a)) | (1 << b)
        elif count[a] == 1:
            state.block = before & ~(1 << a)
        pieces[k] = dst
        state.pool = self._rest(pool, values)
        total = used + self._most(state)
        state.pool = pool
        pieces[k] = src
        count[a] += 1
        count[b] -= 1
        state.block = before
        return total

    def _rest(self, pool: tuple, values: tuple) -> tuple:
        """``pool`` less ``values``; pools are few, so each answer is kept."""
        rest = self._rests.get((pool, values))
        if rest is None:
            left = list(pool)
            for v in values:
                left.remove(v)
            rest = self._rests[pool, values] = tuple(left)
        return rest

    def _most(self, state: State) -> int:
        """The most values a play can still use from here (bonuses earned on the way count)."""
        pool = state.pool
        if len(pool) == 1:  # the common last value: cheaper to work out than to remember
            best = 0
            for move, bonus in self._options(state):
                total = self._total(state, move, True) if bonus else 1
                if total > best:
                    best = total
            return best
        return self._evaluate(state)[2] if pool else 0

    def _evaluate(self, state: State):
        """Options, the most values each can lead to, and the best of those; remembered for the
        rest of the roll, since the same positions come up again in later decisions."""
        # Within a roll only the mover's pawns change, until a capture sends a rival home.
        if state.captured:
            key = (tuple(map(tuple, state.pos)), state.pool)
        else:
            key = (tuple(state.pos[state.turn]), state.pool)
        found = state.memo.get(key)
        if found is None:
            options = self._options(state)
            size = len(state.pool)
            totals = [size if not bonus and len(m[3]) == size else self._total(state, m, bonus)
                      for m, bonus in options]
            found = state.memo[key] = (options, totals, max(totals, default=0))
        return found

    def _options(self, state: State) -> list[tuple[Move, bool]]:
        """Single hops and entries the board allows, before the use-the-most-values rule, each
        with whether it earns a bonus (a capture or reaching Home).

        Entering is compulsory: when a 5 (or two dice making 5) can bring a pawn out of the nest,
        entering is the only move.
        """
        seat = state.turn
        color = state.colors[seat]
        pieces = state.pos[seat]
        pool = state.pool
        if NEST in pieces and (5 in pool or 1 in pool and 4 in pool or 2 in pool and 3 in pool):
            entries = self._entries(state, seat, color, pieces, pool)
            if entries:
                return entries
        home = self.home
        cells = self.cell[color]
        between = self.between[color]
        safe = self.safe
        count, owner, block = state.count, state.owner, state.block
        options = []
        last = 0
        for v in reversed(pool):  # distinct values, smallest first
            if v == last:
                continue
            last = v
            done = []
            for k, p in enumerate(pieces):
                q = p + v
                if p < 0 or q > home or p in done or between[p][v] & block:
                    continue
                bonus = q == home
                if not bonus:
                    cell = cells[q + 1]
                    n = count[cell]
                    if n:
                        if n == 2:
                            continue
                        if owner[cell] == seat:
                            if state.pairs and self._rejoins(state, k, q):
                                continue
                        elif safe[cell]:
                            continue
                        else:
                            bonus = True
                done.append(p)
                options.append((_move(Move, (k, p, q, (v,))), bonus))
        return options

    def _entries(self, state, seat, color, pieces, pool) -> list[tuple[Move, bool]]:
        cell = self.cell[color][1]
        n = state.count[cell]
        if n == 2:
            return []
        capture = n == 1 and state.owner[cell] != seat
        k = pieces.index(NEST)
        ways = [(5,)] if 5 in pool else []
        ways += [(a, 5 - a) for a in (1, 2) if a in pool and 5 - a in pool]
        return [(Move(k, NEST, 0, values), capture) for values in ways]

    @staticmethod
    def _rejoins(state: State, k: int, q: int) -> bool:
        """Would piece k land on its roll-start blockade partner, which has moved to q?"""
        pieces = state.pos[state.turn]
        for i, j, _ in state.pairs:
            if k == i and pieces[j] == q or k == j and pieces[i] == q:
                return True
        return False

    def play(self, state: State, move: Move) -> None:
        """Make a legal move, then end the roll if nothing more can be played."""
        if move not in self.legal_moves(state):
            raise IllegalMove(f"{move} is not legal here")
        self._apply(state, move)
        if state.phase != OVER:
            self._settle(state)

    def _apply(self, state: State, move: Move) -> None:
        """Move the piece, capture, add bonuses; no legality check, no turn passing."""
        seat = state.turn
        pieces = state.pos[seat]
        cells = self.cell[state.colors[seat]]
        pool = list(self._rest(state.pool, move.values))
        if move.src >= 0:
            self._remove(state, cells[move.src + 1])
        pieces[move.piece] = move.dst
        if move.dst == self.home:
            pool.append(HOME_BONUS)
            if all(p == self.home for p in pieces):
                state.phase, state.winner, state.pool, state.moves = OVER, seat, (), None
                return
        else:
            cell = cells[move.dst + 1]
            if state.count[cell] and state.owner[cell] != seat:
                self._capture(state, cell)
                state.captured = True
                pool.append(CAPTURE_BONUS)
            self._add(state, cell, seat)
        state.pool = tuple(sorted(pool, reverse=True))
        state.moves = None

    def _capture(self, state: State, cell: int) -> None:
        victim = state.owner[cell]
        cells = self.cell[state.colors[victim]]
        pieces = state.pos[victim]
        for k, p in enumerate(pieces):
            if cells[p + 1] == cell:
                pieces[k] = NEST
                break
        self._remove(state, cell)

    def _settle(self, state: State) -> None:
        if not (state.pool and self.legal_moves(state)):
            self._end_roll(state)

    def _end_roll(self, state: State) -> None:
        """Unplayable values are lost; doubles roll again, otherwise the next seat rolls."""
        state.pool, state.pairs, state.moves, state.phase = (), (), None, ROLL
        if not state.doubles:
            state.turn = (state.turn + 1) % len(state.colors)

    @staticmethod
    def _add(state: State, cell: int, seat: int) -> None:
        state.count[cell] += 1
        state.owner[cell] = seat
        if state.count[cell] == 2:
            state.block |= 1 << cell

    @staticmethod
    def _remove(state: State, cell: int) -> None:
        if state.count[cell] == 2:
            state.block &= ~(1 << cell)
        state.count[cell] -= 1

    # -- notation ------------------------------------------------------------------------------

    def _square(self, color: int, p: int) -> str:
        if p == NEST:
            return "n"
        if p == self.home:
            return "H"
        if p > self.board.last:
            return f"h{p - self.board.last}"
        return str(self.cell[color][p + 1])

    def _progress(self, color: int, text: str) -> int:
        if text == "n":
            return NEST
        if text == "H":
            return self.home
        if text.startswith("h"):
            step = int(text[1:])
            if not 1 <= step <= self.board.home_path:
                raise ValueError(f"no home path space {text}")
            return self.board.last + step
        return self.board.progress(color, int(text))

    def format(self, state: State) -> str:
        """The position in notation (``docs/notation.md``)."""
        letters = self.board.colors.lower()
        seats = "/".join(
            letters[c] + ":" + ",".join(self._square(c, p) for p in pieces)
            for c, pieces in zip(state.colors, state.pos)
        )
        fields = ["parcheesi", seats]
        if state.phase == OVER:
            fields += [letters[state.colors[state.winner]], "won"]
        else:
            fields.append(letters[state.colors[state.turn]])
            fields.append(",".join(map(str, state.pool)) if state.phase == MOVE else "roll")
        if state.doubles:
            fields.append(f"d{state.doubles}")
        if state.phase == MOVE and state.pairs != self._pairs(state, state.turn):
            color = state.colors[state.turn]
            fields.append("pairs:" + (",".join(f"{i}{j}@{self._square(color, p)}"
                                               for i, j, p in state.pairs) or "-"))
        return " ".join(fields)

    def parse(self, text: str) -> State:
        """Read a position written by ``format``; raises ``ValueError`` on a malformed one."""
        fields = text.split()
        if len(fields) < 4 or fields[0] != "parcheesi":
            raise ValueError("expected: parcheesi <seats> <to move> <dice|roll|won> [dN] [pairs:..]")
        letters = self.board.colors.lower()
        colors, pos = [], []
        for part in fields[1].split("/"):
            letter, _, squares = part.partition(":")
            color = letters.index(letter)
            pieces = [self._progress(color, s) for s in squares.split(",")]
            if len(pieces) != 4:
                raise ValueError(f"{letter} needs four pawns")
            colors.append(color)
            pos.append(pieces)
        turn = colors.index(letters.index(fields[2]))
        doubles, pairs = 0, ()
        for extra in fields[4:]:
            if extra.startswith("d"):
                doubles = int(extra[1:])
            elif extra.startswith("pairs:"):
                pairs = tuple(
                    (int(item[0]), int(item[1]), self._progress(colors[turn], item[3:]))
                    for item in extra[6:].split(",") if item != "-"
                )
            else:
                raise ValueError(f"unknown field {extra!r}")
        winner = None
        if fields[3] == "won":
            phase, pool, winner = OVER, (), turn
        elif fields[3] == "roll":
            phase, pool = ROLL, ()
        else:
            phase = MOVE
            pool = tuple(sorted((int(v) for v in fields[3].split(",")), reverse=True))
        state = self._state(colors, pos, turn, phase, pool, doubles, pairs, winner)
        if phase == MOVE and "pairs:" not in text:
            state.pairs = self._pairs(state, turn)
        return state

    def describe(self, state: State, move: Move) -> str:
        """A move in words for logs and the command line, e.g. ``y 10-13 3``."""
        color = state.colors[state.turn]
        letter = self.board.colors[color].lower()
        used = "+".join(map(str, move.values))
        if move.src == NEST:
            return f"{letter} enter {used}"
        return f"{letter} {self._square(color, move.src)}-{self._square(color, move.dst)} {used}"
