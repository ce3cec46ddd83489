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
        self._pool_sums = {}
        colors = range(len(board.entries))
        # cell[color][progress + 1]: the cell a piece stands on (0 for the nest and Home).
        self.cell = [[board.cell(c, p) for p in range(NEST, home + 1)] for c in colors]
        self.safe = [1 <= cell <= board.track and cell in board.safe for cell in range(board.cells)]
        # between[color][progress][v]: bitmask of the cells a hop of v passes over (not its ends).
        self.between = [[self._masks(c, p) for p in range(home)] for c in colors]

    def _masks(self, color: int, src: int) -> list[int]:
        """For each hop length v from ``src``, the cells passed over (a hop of 0 or 1 passes
        over none)."""
        cells = self.cell[color]
        masks = [0, 0]
        for p in range(src + 1, self.home):
            masks.append(masks[-1] | 1 << cells[p + 1])
        return masks

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
        if not state.doubles:  # the turn starts: remember its blockades (rule: see _rejoins)
            state.pairs = self._pairs(state, seat)
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
        self._settle(state)

    def _pairs(self, state: State, seat: int) -> tuple:
        """The mover's blockades as the turn starts: (piece, piece, progress) each."""
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
        options = self._options(state)
        if len(options) > 1:
            totals = self._totals(state, options)
            best = max(totals)
            moves = [m for (m, _), t in zip(options, totals) if t == best]
        else:
            moves = [m for m, _ in options]
        state.moves = moves
        return moves

    def _total(self, state: State, move: Move, bonus: bool) -> int:
        """The most values a play starting with ``move`` uses."""
        used = len(move.values)
        if bonus:
            child = state.copy()
            self._apply(child, move)
            return used + self._most(child)
        # A plain move is cheap to make and take back in place; copying would cost more.
        undo = self._make(state, move)
        total = used + self._most(state)
        self._unmake(state, move, undo)
        return total

    def _two_dice(self, state: State, options: list) -> list[int]:
        """Totals for the commonest roll: two different dice, nothing to capture, no Home.

        Each total is 2 when the other die can follow, else 1. The other die's hops from this
        position still work after the first move unless that move's landing square lies on
        their way or it took the last pawn from their start; only then is it worked out in full.
        """
        pieces = state.pos[state.turn]
        totals = []
        for move, _ in options:
            k, src, dst, (v,) = move
            left = pieces.count(src) > 1
            follows = any(
                w != v and not (h_src < dst <= h_dst) and (h_src != src or left)
                for (_, h_src, h_dst, (w,)), _ in options
            )
            if not follows:
                undo = self._make(state, move)
                follows = self._fits(state, 1)
                self._unmake(state, move, undo)
            totals.append(2 if follows else 1)
        return totals

    def _make(self, state: State, move: Move):
        """Play a move that earns no bonus in place; ``_unmake`` takes it back."""
        k, src, dst, values = move
        cells = self.cell[state.colors[state.turn]]
        count, undo = state.count, (state.pool, state.block)
        a, b = cells[src + 1], cells[dst + 1]  # a is 0 for the nest: a cell nobody counts
        count[a] -= 1
        count[b] += 1
        state.owner[b] = state.turn
        if count[b] == 2:
            state.block = (state.block & ~(1 << a)) | (1 << b)
        elif count[a] == 1:
            state.block &= ~(1 << a)
        state.pos[state.turn][k] = dst
        state.pool = self._rest(state.pool, values)
        return undo

    def _unmake(self, state: State, move: Move, undo) -> None:
        k, src, dst, _ = move
        cells = self.cell[state.colors[state.turn]]
        state.count[cells[src + 1]] += 1
        state.count[cells[dst + 1]] -= 1
        state.pos[state.turn][k] = src
        state.pool, state.block = undo

    def _fits(self, state: State, n: int) -> bool:
        """Can a play use ``n`` more values? For calm rolls, where no bonus can come up, a
        play that uses every value is the best there is, and the first one found settles it."""
        if n == 0:
            return True
        for move, _ in self._options(state):
            used = len(move.values)
            if used >= n:
                return True
            undo = self._make(state, move)
            found = self._fits(state, n - used)
            self._unmake(state, move, undo)
            if found:
                return True
        return False

    def _calm(self, state: State) -> bool:
        """True when no capture and no Home can happen this roll, whatever is played: no pawn
        (nor one entering) can land on a rival or Home by any sum of the values."""
        seat = state.turn
        color = state.colors[seat]
        pieces = state.pos[seat]
        cells, count, owner = self.cell[color], state.count, state.owner
        safe, home = self.safe, self.home
        starts = {p for p in pieces if 0 <= p < home}
        if NEST in pieces:
            entry = cells[1]
            if count[entry] and owner[entry] != seat:
                return False
            starts.add(0)
        sums = self._sums(state.pool)
        for p in starts:
            for v in sums:
                q = p + v
                if q == home:
                    return False
                if q < home:
                    cell = cells[q + 1]
                    if count[cell] and owner[cell] != seat and not safe[cell]:
                        return False
        return True

    def _sums(self, pool: tuple) -> tuple:
        """Every sum of a non-empty part of ``pool``."""
        sums = self._pool_sums.get(pool)
        if sums is None:
            found = {0}
            for v in pool:
                found |= {s + v for s in found}
            found.discard(0)
            sums = self._pool_sums[pool] = tuple(sorted(found))
        return sums

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
        """The most values a play can still use from here (bonuses earned on the way count);
        remembered for the rest of the roll, as the same positions come up again and again."""
        pool = state.pool
        if not pool:
            return 0
        if len(pool) == 1 and not state.captured:  # cheaper to work out than to remember
            best = 0
            for move, bonus in self._options(state):
                total = self._total(state, move, True) if bonus else 1
                if total > best:
                    best = total
            return best
        # Within a roll only the mover's pawns change, until a capture sends a rival home; and
        # which pawn stands where doesn't matter, unless a blockade's pair must be told apart.
        if state.captured:
            key = (tuple(map(tuple, state.pos)), pool)
        elif state.pairs:
            key = (tuple(state.pos[state.turn]), pool)
        else:
            key = (tuple(sorted(state.pos[state.turn])), pool)
        best = state.memo.get(key)
        if best is None:
            # With nothing to capture and no Home in reach, no play can beat one that uses
            # every value, so the first such play found settles it.
            if len(pool) > 1 and self._calm(state) and self._fits(state, len(pool)):
                best = len(pool)
            else:
                best = max(self._totals(state, self._options(state)), default=0)
            state.memo[key] = best
        return best

    def _totals(self, state: State, options: list) -> list[int]:
        """For each option, the most values a play starting with it uses."""
        pool = state.pool
        size = len(pool)
        if size == 2 and pool[0] != pool[1] and options and options[0][0].src != NEST and \
                self._calm(state):
            return self._two_dice(state, options)
        return [size if not bonus and len(m[3]) == size else self._total(state, m, bonus)
                for m, bonus in options]

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
        """Would piece k land on its turn-start blockade partner, which has moved to q?

        A blockade may not move on intact (official rule): its two pawns may not end up
        together on a new space during the turn, doubles' re-rolls included.
        """
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
                state.pairs = ()
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
        state.pool, state.moves, state.phase = (), None, ROLL
        if not state.doubles:
            state.turn = (state.turn + 1) % len(state.colors)
            state.pairs = ()

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
        if state.pairs != self._default_pairs(state):
            color = state.colors[state.turn]
            fields.append("pairs:" + (",".join(f"{i}{j}@{self._square(color, p)}"
                                               for i, j, p in state.pairs) or "-"))
        return " ".join(fields)

    def _default_pairs(self, state: State) -> tuple:
        """The turn-start blockades notation assumes when it names none: the blockades on the
        board, once the turn has started (dice to play, or doubles rolled)."""
        if state.phase == MOVE or state.phase == ROLL and state.doubles:
            return self._pairs(state, state.turn)
        return ()

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
        if "pairs:" not in text:
            state.pairs = self._default_pairs(state)
        return state

    def describe(self, state: State, move: Move) -> str:
        """A move in words for logs and the command line, e.g. ``y 10-13 3``."""
        return self.move_text(state.colors[state.turn], move)

    def move_text(self, color: int, move: Move) -> str:
        """``describe`` for a move by ``color`` (history entries know the seat, not the state)."""
        letter = self.board.colors[color].lower()
        used = "+".join(map(str, move.values))
        if move.src == NEST:
            return f"{letter} enter {used}"
        return f"{letter} {self._square(color, move.src)}-{self._square(color, move.dst)} {used}"
