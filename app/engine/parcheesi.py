"""Parcheesi: two dice, entering on a 5, blockades, captures and Home with bonuses, doubles.

The rule text is ``shared/rules/parcheesi.txt``; the choices it leaves open are in
``docs/rules/parcheesi.md``. Positions read and write in the notation of ``docs/notation.md``,
whose examples show this module at work (they run as doctests; this module's own docstrings
are gone once it is compiled, see ``app/native.py``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Optional, Sequence, cast

from .boards import PARCHEESI, RaceBoard
from .core import MOVE, OVER, ROLL, IllegalMove, Move, Race, Words
from .notation import read_seats, write_seats
from .text import N_, Text

NEST = -1
CAPTURE_BONUS = 20
HOME_BONUS = 10

# The search's values have types so that the compiled build (app/native.py) works on them as
# plain integers and tuples:
Pool = tuple[int, ...]  # dice and bonuses still to play, largest first
Pairs = tuple[tuple[int, int, int], ...]  # turn-start blockades: (piece, piece, progress)
Search = tuple[int, int, Pairs, dict]  # what a roll's search keeps: walls, nostop, pairs, memo


class State:
    """A Parcheesi position. ``pos[seat][piece]`` is a progress; cells are kept in step with it."""

    __slots__ = ("colors", "pos", "turn", "phase", "pool", "doubles", "pairs", "winner",
                 "count", "owner", "ones", "twos", "moves", "hops", "memo", "rivals")
    colors: tuple[int, ...]
    pos: list[list[int]]
    turn: int
    phase: str
    pool: Pool
    doubles: int
    pairs: Pairs
    winner: Optional[int]
    count: list[int]
    owner: list[int]
    ones: int
    twos: int
    moves: Optional[list[Move]]
    hops: Optional[list[Move]]
    memo: dict[Any, int]
    rivals: Optional[tuple[int, int, int]]

    def copy(self) -> "State":
        other = State()
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
        other.ones, other.twos = self.ones, self.twos
        other.moves = other.hops = None
        other.memo = self.memo
        other.rivals = self.rivals
        return other

    def key(self):
        """What decides the rest of the game: equal keys, equal positions."""
        return (self.colors, tuple(map(tuple, self.pos)), self.turn, self.phase, self.pool,
                self.doubles, self.pairs, self.winner)

    def __eq__(self, other):
        return isinstance(other, State) and self.key() == other.key()

    def __repr__(self):
        return f"<parcheesi {Parcheesi().format(self)}>"


class Parcheesi(Race):
    """The rule set. One instance holds the board's precomputed tables and is shared freely.

    Its seats share one stream of dice, and always will: who rolls next follows from the dice
    alone (doubles), never from a choice, so nobody can steer anyone's dice."""

    name: ClassVar[str] = "parcheesi"
    title: ClassVar[str] = Text("Parcheesi")
    dice_count = 2
    end: ClassVar[str] = "H"
    entry: ClassVar[str] = "enter"
    words: ClassVar[Words] = Words(
        no_move=N_("No move: a pawn comes out on a 5 (one die, or the two added up)."),
        move=N_("Pawn %(n)s from %(src)s to %(dst)s with %(dice)s"),
        enter=N_("Enter a pawn with %(dice)s"),
        players=N_("%(title)s takes 2 to %(seats)s players."),
        bonus=N_("Use the %(bonus)s bonus on pawn %(n)s, from %(src)s to %(dst)s"),
        piece_at=N_("pawn %(n)s on %(place)s"),
        at_start=N_("%(n)s in the nest"),
        finished=N_("%(n)s at Home"),
        sent_back=N_("%(who)s sent %(whom)s's pawn back to the nest"),
        brought_home=N_("%(who)s brought a pawn Home"),
        label_enter=N_("Enter a pawn (%(used)s)"),
        label_move=N_("Pawn on %(src)s to %(dst)s (%(used)s)"),
        said_enter=N_("%(who)s entered a pawn (%(used)s)"),
        said_move=N_("%(who)s moved a pawn from %(src)s to %(dst)s (%(used)s)"),
        end_place=N_("Home"),
        path_place=N_("home row %(n)s"),
        your_turn=N_("%(who)s, your turn: roll the dice."))

    def __init__(self, board: RaceBoard = PARCHEESI):
        self.board = board
        self.capacity = len(board.entries)  # players at most
        self.home = home = board.home
        self._rests: dict[tuple[Pool, Pool], Pool] = {}
        self._pluses: dict[tuple[Pool, int], Pool] = {}
        self._pool_sums: dict[Pool, int] = {}
        colors = range(len(board.entries))
        # cell[color][progress + 1]: the cell a piece stands on (0 for the nest and Home).
        self.cell = [[board.cell(c, p) for p in range(NEST, home + 1)] for c in colors]
        self.safe = [1 <= cell <= board.track and cell in board.safe for cell in range(board.cells)]
        # ahead[color][cell]: the progress of a piece of ``color`` on that cell, -1 if it
        # never stands there (cell 0 included).
        self.ahead = [[-1] * board.cells for _ in colors]
        for c in colors:
            for p in range(home):
                self.ahead[c][self.cell[c][p + 1]] = p
        # span[p][v]: bitmask of the progress a hop of v from p passes over or lands on (Home,
        # which no blockade holds, aside).
        below_home = (1 << home) - 1
        self.span = [[(2 << p + v) - (2 << p) & below_home for v in range(home - p + 1)]
                     for p in range(home)]
        self.home_bit = 1 << home
        # bit[p]: 1 << p where a pair of pawns makes a blockade, 0 for Home and (as bit[-1])
        # for the nest.
        self.bit = [1 << p for p in range(home)] + [0]
        # hop[v][k][p]: piece k's move from progress p by v (a die or a bonus), made once and
        # shared, as moves are immutable: the search meets the same hops over and over.
        # (None past Home: never looked up, the search checks first.)
        self.hop = cast(dict[int, list[list[Move]]], {
            v: [[Move(k, p, p + v, (v,)) if p + v <= home else None for p in range(home)]
                for k in range(self.pieces)]
            for v in (1, 2, 3, 4, 5, 6, HOME_BONUS, CAPTURE_BONUS)})
        # Track cells 1..track as bitmask bits, turned into each color's progress 0..last.
        self._turn_to_progress = [self._turner(entry) for entry in board.entries]
        self.safe_progress = [sum(1 << p for p in range(board.last + 1)
                                  if self.cell[c][p + 1] in board.safe) for c in colors]

    def _turner(self, entry: int):
        """Cell bitmask (bits 1..track) to progress bitmask (bits 0..last) for one color."""
        track, reach = self.board.track, (1 << self.board.last + 1) - 1
        cells = (2 << track) - 2
        low = (1 << entry) - 2  # cells 1..entry-1 come round after the last ones

        def turn(mask: int) -> int:
            mask &= cells
            return (mask >> entry | (mask & low) << track - entry) & reach
        return turn

    # -- positions ---------------------------------------------------------------------------

    def initial(self, colors: tuple[int, ...], first: int) -> State:
        """Everyone in the nest, ``first`` to roll. ``colors`` lists the seats in turn order."""
        self._check_seats(colors)
        return self._state(colors, [[NEST] * 4 for _ in colors], first, ROLL, (), 0, (), None)

    def _check_seats(self, colors: Sequence[int]) -> None:
        """Refuse seats a game can't have (``initial`` and ``parse`` alike)."""
        if not 2 <= len(colors) <= 4 or len(set(colors)) != len(colors) or \
                not all(0 <= c < len(self.board.entries) for c in colors):
            raise ValueError("Parcheesi takes 2 to 4 players of different colors")
        if list(colors) != sorted(colors, key=lambda c: (c - colors[0]) % 4):
            raise ValueError("seats go around the board in the direction the pawns move")

    def _state(self, colors, pos, turn, phase, pool, doubles, pairs, winner) -> State:
        state = State()
        state.colors, state.pos, state.turn, state.phase = tuple(colors), pos, turn, phase
        state.pool, state.doubles, state.pairs, state.winner = pool, doubles, pairs, winner
        state.count = [0] * self.board.cells
        state.owner = [0] * self.board.cells
        state.ones = state.twos = 0
        state.moves = state.hops = None
        state.memo = {}
        state.rivals = None
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
            state.rivals = None  # they have moved since this seat last rolled (a capture
            # during the turn clears them too: see _apply)
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
        self._settle(state)

    def _pairs(self, state: State, seat: int) -> tuple:
        """The mover's blockades as the turn starts: (piece, piece, progress) each."""
        pieces = state.pos[seat]
        if self._block(pieces, 0) == 0:  # no two pawns together on the board: the commonest
            return ()
        seen: dict[int, int] = {}
        pairs = []
        for k, p in enumerate(pieces):
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
    #
    # The search behind legal_moves works in the mover's progress units, on bitmasks: bit t of
    # ``walls`` is a rival blockade at progress t, of ``nostop`` a lone rival on a safety space,
    # of ``prey`` a lone rival that can be captured there (on the entry space, bit 0, only by
    # entering). Rivals don't move during a roll, so walls and nostop stay put; captures only
    # clear prey bits. A position of the search is then (mover's pawns, values, prey): small
    # immutable keys, no board to update and restore.

    def legal_moves(self, state: State) -> list[Move]:
        """The moves allowed now, in canonical order, judged over the whole roll.

        Among all ways to play the dice and the bonuses they lead to, only moves that start a
        play using the most values are legal (``docs/rules/parcheesi.md``).
        """
        if state.phase != MOVE:
            return []
        if state.moves is not None:
            return state.moves
        hops = self._candidates(state)
        prey, walls, nostop = cast(tuple[int, int, int], state.rivals)
        pieces = state.pos[state.turn]
        pool = state.pool
        pairs = state.pairs
        size = len(pool)
        # Hops that each play every value and earn nothing are all equally good.
        if len(hops) > 1 and not self._plain(hops, size, prey):
            search = (walls, nostop, pairs, state.memo)
            if size == 2 and pool[0] != pool[1] and hops[0][1] != NEST:
                totals = self._two_dice(pieces, pool, prey, hops, search)
            else:
                totals, best = [], -1
                for hop in hops:  # only totals as good as the best so far need be exact
                    total = self._after(pieces, pool, prey, hop, search, best - 1)
                    totals.append(total)
                    best = max(best, total)
            best = max(totals)
            hops = [hop for hop, total in zip(hops, totals) if total == best]
        state.moves = hops
        return hops

    def _plain(self, hops: list[Move], size: int, prey: int) -> bool:
        """Does every hop play all ``size`` values and earn nothing?"""
        home = self.home
        for _, _, q, values in hops:
            if len(values) != size or q == home or prey >> q & 1:
                return False
        return True

    def _candidates(self, state: State) -> list[Move]:
        """The position's hops before the use-the-most-values rule (``_hops``), kept with it
        until something moves."""
        hops = state.hops
        if hops is None:
            if state.rivals is None:
                state.rivals = self._rivals(state)
            prey, walls, nostop = state.rivals
            hops = state.hops = self._hops(state.pos[state.turn], state.pool, prey, walls,
                                           nostop, state.pairs)
        return hops

    def candidates(self, state: State) -> list[Move]:
        """Every move the board allows now, before the use-the-most-values rule: the legal
        moves are among them, in the same order (see ``best_legal``)."""
        return self._candidates(state) if state.phase == MOVE else []

    def best_legal(self, state: State, worths: list[float]) -> int:
        """The index (in ``candidates``) of the legal move with the highest of ``worths`` (one
        per candidate; the first listed of equals), working out no more of the search than it
        takes: a candidate whose play uses as many values as the most any play could
        (``_bound``) is legal without looking at the others, and one short of it only needs
        the others shown to use no more. Players that rank every candidate (bots) then need the
        whole legal list only now and then."""
        best = worths.index(max(worths))
        if state.moves is None:
            hops = self._candidates(state)
            size = len(state.pool)
            prey, walls, nostop = cast(tuple[int, int, int], state.rivals)
            if len(hops) == 1 or self._plain(hops, size, prey):
                return best
            pieces, pool, pairs = state.pos[state.turn], state.pool, state.pairs
            top = hops[best]
            if size == 2 and pool[0] != pool[1] and hops[0][1] != NEST and \
                    self._calm(pieces, pool, prey):
                if self._follows(pieces, hops, top, pairs):  # both dice played: the most
                    return best
                bound = 2
            else:
                bound = self._bound(pieces, pool, prey)
            search = (walls, nostop, pairs, state.memo)
            total = self._after(pieces, pool, prey, top, search)
            # Short of the bound (a bonus it counts can't be had), the top is still legal if no
            # other hop's play uses more.
            if total >= bound or not any(
                    self._after(pieces, pool, prey, hop, search, total) > total
                    for hop in hops if hop is not top):
                return best
        legal = self.legal_moves(state)
        hops = self.candidates(state)
        return max((i for i, hop in enumerate(hops) if hop in legal), key=worths.__getitem__)

    def _two_dice(self, pieces: Sequence[int], pool: Pool, prey: int, hops: list[Move],
                  search: Search) -> list[int]:
        """Totals for the commonest roll: two different dice (no pawn entering).

        A hop that earns nothing, after which the other die earns nothing either, totals 2 when
        the other die can follow, else 1. The other die's hops from this position still work
        after the first one unless its landing square lies on their way or it took the last
        pawn from their start; only then, or when a bonus may come, is it worked out in full.
        """
        targets = prey | self.home_bit
        stands = self._stands(pieces)
        enters = prey & 1 and NEST in pieces  # a 5 could enter onto a rival: a capture
        a, b = pool
        pairs = search[2]
        totals = []
        for hop in hops:
            q, v = hop[2], hop[3][0]
            w = b if v == a else a
            if targets >> q & 1 or targets >> w & (stands | 1 << q) or w == 5 and enters or \
                    not self._follows(pieces, hops, hop, pairs):
                totals.append(self._after(pieces, pool, prey, hop, search))
            else:
                totals.append(2)
        return totals

    @staticmethod
    def _stands(pieces: Sequence[int]) -> int:
        """Where the pawns stand on the board, as a bitmask of progress. After one of them hops
        to q, a value w can earn a bonus only if ``targets >> w & (stands | 1 << q)`` (a superset
        of the places it could be played from): ``_two_dice`` and ``_two`` skip the rest when
        not."""
        stands = 0
        for p in pieces:
            if p >= 0:
                stands |= 1 << p
        return stands

    @staticmethod
    def _follows(pieces: Sequence[int], hops: list[Move], hop: Move, pairs: Pairs) -> bool:
        """``_two_dice``: is some hop of the other die sure to work after ``hop``? (A hop from
        the space ``hop`` leaves is made by the pawn left there, which the blockade rule may
        treat otherwise: trusted only when the turn began with no blockade.)"""
        _, src, dst, (v,) = hop
        left = pieces.count(src) > 1 and not pairs
        for _, h_src, h_dst, (w,) in hops:
            if w != v and not h_src < dst <= h_dst and (h_src != src or left):
                return True
        return False

    def _options(self, state: State) -> list[tuple[Move, bool]]:
        """Single hops and entries the board allows, before the use-the-most-values rule, each
        with whether it earns a bonus (a capture or reaching Home)."""
        prey, walls, nostop = self._rivals(state)
        hops = self._hops(state.pos[state.turn], state.pool, prey, walls, nostop, state.pairs)
        return [(hop, hop[2] == self.home or bool(prey >> hop[2] & 1)) for hop in hops]

    def _rivals(self, state: State) -> tuple[int, int, int]:
        """The rivals as the mover sees them: (prey, walls, nostop) bitmasks of progress.

        The board keeps bitmasks of the track cells holding one pawn and two (``ones``,
        ``twos``); less the mover's own, turned to start at the mover's entry, they are the
        rivals' lone pawns and blockades in the mover's progress.
        """
        color = state.colors[state.turn]
        cells, count = self.cell[color], state.count
        own1 = own2 = 0
        for p in state.pos[state.turn]:
            cell = cells[p + 1]
            if cell:
                if count[cell] == 2:
                    own2 |= 1 << cell
                else:
                    own1 |= 1 << cell
        turn = self._turn_to_progress[color]
        lone = turn(state.ones & ~own1)
        walls = turn(state.twos & ~own2)
        safe = self.safe_progress[color]
        prey = lone & ~safe | lone & 1  # the entry is safe, yet entering captures there
        return prey, walls, lone & safe & ~1

    def _hops(self, pieces: Sequence[int], pool: Pool, prey: int, walls: int, nostop: int,
              pairs: Pairs) -> list[Move]:
        """Single hops and entries the board allows, before the use-the-most-values rule, as
        moves (one that lands on ``prey`` or Home earns a bonus).

        Entering is compulsory: when a 5 (or two dice making 5) can bring a pawn out of the nest,
        entering is the only move.
        """
        if NEST in pieces and (5 in pool or 1 in pool and 4 in pool or 2 in pool and 3 in pool) \
                and not walls & 1 and pieces.count(0) < 2:
            k = pieces.index(NEST)
            ways: list[tuple[int, ...]] = [(5,)] if 5 in pool else []
            ways += [(a, 5 - a) for a in (1, 2) if a in pool and 5 - a in pool]
            return [Move(k, NEST, 0, values) for values in ways]
        home = self.home
        span = self.span
        block = self._block(pieces, walls)
        hops = []
        last = 0
        for v in reversed(pool):  # distinct values, smallest first
            if v == last:
                continue
            last = v
            done = 0
            moves = self.hop[v]
            for k, p in enumerate(pieces):
                q = p + v
                if p < 0 or q > home or done >> p & 1 or span[p][v] & block:
                    continue
                if q != home:
                    bit = 1 << q
                    if nostop & bit or pairs and not prey & bit and \
                            self._rejoins(pieces, pairs, k, q):
                        continue
                done |= 1 << p
                hops.append(moves[k][p])
        return hops

    def _block(self, pieces: Sequence[int], walls: int) -> int:
        """What no pawn may pass or land on: the rival blockades and the mover's own. Written
        out for four pawns, as it runs for nearly every position the search meets."""
        bit = self.bit
        a, b, c, d = pieces
        if a == b or a == c or a == d:
            walls |= bit[a]
        if b == c or b == d:
            walls |= bit[b]
        if c == d:
            walls |= bit[c]
        return walls

    @staticmethod
    def _rejoins(pieces: Sequence[int], pairs: Pairs, k: int, q: int) -> bool:
        """Would piece k land on its turn-start blockade partner, which has moved to q?

        A blockade may not move on intact (official rule): its two pawns may not end up
        together on a new space during the turn, doubles' re-rolls included.
        """
        for i, j, _ in pairs:
            if k == i and pieces[j] == q or k == j and pieces[i] == q:
                return True
        return False

    def _after(self, pieces: Sequence[int], pool: Pool, prey: int, hop: Move, search: Search,
               floor: int = -1) -> int:
        """The most values a play starting with ``hop`` uses, when that is above ``floor``;
        otherwise some number no higher than ``floor`` (the caller already has as good)."""
        k, _, q, values = hop
        child = list(pieces)
        child[k] = q
        rest = self._rests.get((pool, values))
        if rest is None:
            rest = self._rest(pool, values)
        if q == self.home or prey >> q & 1:  # a bonus
            if q == self.home:
                if child.count(q) == 4:  # the game is won: nothing more is played
                    return len(values)
                rest = self._plus(rest, HOME_BONUS)
            else:
                rest = self._plus(rest, CAPTURE_BONUS)
                prey &= ~(1 << q)
        used = len(values)
        if not rest:
            return used
        if len(rest) == 1:
            if floor < 0:  # a root hop, met once: cheaper to work out than to remember
                return used + self._last(child, rest[0], prey, search)
            return used + self._remembered_last(child, rest, prey, search)
        # Which pawn stands where doesn't matter, unless a blockade's pair must be told apart.
        if not search[2]:
            child.sort()
        return used + self._most(tuple(child), rest, prey, search, floor - used)

    def _remembered_last(self, pieces: list[int], rest: Pool, prey: int, search: Search) -> int:
        """``_last`` for the one value in ``rest``, remembered for the roll: deep in a search
        the same positions come up in many orders. (``pieces`` is sorted in place when no
        blockade's pair must be told apart.)"""
        if not search[2]:
            pieces.sort()
        key = (tuple(pieces), rest, prey)
        memo = search[3]
        known = memo.get(key)
        if known is None:
            known = memo[key] = self._last(pieces, rest[0], prey, search)
        return known

    def _most(self, pieces: tuple[int, ...], pool: Pool, prey: int, search: Search,
              floor: int = -1) -> int:
        """The most values a play can still use from here with two values or more (bonuses
        earned on the way count), when that is above ``floor``; otherwise some number no
        higher than ``floor``. Answers are remembered for the rest of the roll, as the same
        positions come up again and again: exact ones as they are, "no more than c" as -1 - c.

        Branch and bound: no play uses more than the bound, so a position whose bound is no
        better than what the caller has is not searched, and the first play found that reaches
        the bound settles it (when calm: the first that uses every value)."""
        walls, nostop, pairs, memo = search
        key = (pieces, pool, prey)
        known = memo.get(key)
        if known is not None:
            if known >= 0:
                return known
            size = -1 - known
        else:
            size = self._bound(pieces, pool, prey)
        if size <= floor:
            return size
        if len(pool) == 2 and NEST not in pieces:
            best = self._two(pieces, pool, prey, search, max(floor, 0), size)
        else:
            best = max(floor, 0)
            for hop in self._hops(pieces, pool, prey, walls, nostop, pairs):
                total = self._after(pieces, pool, prey, hop, search, best)
                if total > best:
                    best = total
                    if best == size:
                        break
        memo[key] = best if best > floor else -1 - floor
        return best

    def _two(self, pieces: tuple[int, ...], pool: Pool, prey: int, search: Search, best: int,
             size: int) -> int:
        """``_most``'s search for two values and no pawn in the nest, the commonest by far:
        ``_hops`` and ``_after`` written out, so that a hop that earns nothing goes straight to
        the other value's (remembered) ``_last``."""
        walls, nostop, pairs, _ = search
        home, span = self.home, self.span
        block = self._block(pieces, walls)
        targets = prey | self.home_bit
        stands = self._stands(pieces)
        a, b = pool
        for v, rest in ((b, (a,)), (a, (b,))) if a != b else ((a, (a,)),):  # smaller first
            aims = targets >> rest[0]
            done = 0
            for k, p in enumerate(pieces):
                q = p + v
                if q > home or done >> p & 1 or span[p][v] & block:
                    continue
                if q == home or prey >> q & 1:
                    total = self._after(pieces, pool, prey, self.hop[v][k][p], search, best)
                elif nostop >> q & 1 or pairs and self._rejoins(pieces, pairs, k, q):
                    continue
                elif best >= 2 and not aims & (stands | 1 << q):
                    continue  # the other value earns nothing after it: 2 at most
                else:
                    child = list(pieces)
                    child[k] = q
                    total = 1 + self._remembered_last(child, rest, prey, search)
                done |= 1 << p
                if total > best:
                    best = total
                    if best == size:
                        return best
        return best

    def _last(self, pieces: list[int], v: int, prey: int, search: Search) -> int:
        """``_most`` with one value left: 1 if a pawn can play it, more if the hop earns a
        bonus that can be played in turn. ``_hops`` without building its list."""
        walls, nostop, pairs, _ = search
        if v == 5 and NEST in pieces:
            hops = self._hops(pieces, (v,), prey, walls, nostop, pairs)
            if hops and hops[0][1] == NEST:  # entering is the only move
                return self._after(pieces, (v,), prey, hops[0], search) if prey & 1 else 1
        home = self.home
        span = self.span
        block = self._block(pieces, walls)
        targets = prey | self.home_bit
        best = done = 0
        for k, p in enumerate(pieces):
            q = p + v
            if p < 0 or q > home or span[p][v] & block:
                continue
            if targets >> q & 1:
                if not done >> p & 1:  # as in _hops: a space's first pawn makes its hop
                    done |= 1 << p
                    best = max(best, self._after(pieces, (v,), prey, self.hop[v][k][p], search,
                                                 best))
            elif not best and not nostop >> q & 1 and not (
                    pairs and self._rejoins(pieces, pairs, k, q)):
                best = 1
        return best

    def _bound(self, pieces: Sequence[int], pool: Pool, prey: int) -> int:
        """At least the most values a play can use from here: every value, plus one bonus
        for each rival some pawn (or one entering) could land on and each pawn that could
        reach Home by a sum of the values, with the bonuses those would bring counted among
        the values until no more come into reach. Exactly ``len(pool)`` when calm."""
        home = self.home
        sums = self._sums(pool)
        captures = homes = 0
        while True:
            reach = 0
            arrive = 0
            for p in pieces:
                if p < 0:
                    reach |= sums | 1
                    arrive += sums >> home & 1
                elif p < home:
                    reach |= sums << p
                    arrive += sums >> home - p & 1
            caught = (prey & reach).bit_count()
            if caught == captures and arrive == homes:
                return len(pool) + captures + homes
            for bonus in (CAPTURE_BONUS,) * (caught - captures) + (HOME_BONUS,) * (arrive - homes):
                sums |= sums << bonus | 1 << bonus  # the sums with one more value
            captures, homes = caught, arrive

    def _calm(self, pieces: Sequence[int], pool: Pool, prey: int) -> bool:
        """True when no capture and no Home can happen, whatever is played: no pawn (nor one
        entering) can land on a rival or Home by any sum of the values."""
        sums = self._sums(pool)
        reach = 0
        for p in pieces:
            if p >= 0:
                reach |= sums << p
            elif prey & 1:
                return False
            else:
                reach |= sums
        return not reach & (prey | self.home_bit)

    def _sums(self, pool: Pool) -> int:
        """Every sum of a non-empty part of ``pool``, as a bitmask."""
        sums = self._pool_sums.get(pool)
        if sums is None:
            sums = 1
            for v in pool:
                sums |= sums << v
            sums = self._pool_sums[pool] = sums & ~1
        return sums

    def _rest(self, pool: Pool, values: Pool) -> Pool:
        """``pool`` less ``values``; pools are few, so each answer is kept."""
        rest = self._rests.get((pool, values))
        if rest is None:
            left = list(pool)
            for v in values:
                left.remove(v)
            rest = self._rests[pool, values] = tuple(left)
        return rest

    def _plus(self, pool: Pool, bonus: int) -> Pool:
        """``pool`` with a bonus added, kept in order like every pool."""
        more = self._pluses.get((pool, bonus))
        if more is None:
            more = self._pluses[pool, bonus] = tuple(sorted(pool + (bonus,), reverse=True))
        return more

    def play(self, state: State, move: Move) -> None:
        """Make a legal move, then end the roll if nothing more can be played."""
        moves = state.moves if state.moves is not None else self.legal_moves(state)
        if move not in moves:
            raise IllegalMove(f"{move} is not legal here")
        self.play_legal(state, move)

    def play_legal(self, state: State, move: Move) -> None:
        """``play`` for a move known to be legal (``best_legal`` found it): no check."""
        self._apply(state, move)
        if state.phase != OVER:
            self._settle(state)

    def _apply(self, state: State, move: Move) -> None:
        """Move the piece, capture, add bonuses; no legality check, no turn passing."""
        seat = state.turn
        k, src, dst, values = move
        pieces = state.pos[seat]
        cells = self.cell[state.colors[seat]]
        pool = self._rest(state.pool, values)
        if src >= 0:
            self._remove(state, cells[src + 1])
        pieces[k] = dst
        if dst == self.home:
            if pieces.count(dst) == 4:
                state.phase, state.winner, state.pool, state.moves = OVER, seat, (), None
                state.hops = None
                state.pairs = ()
                return
            pool = self._plus(pool, HOME_BONUS)
        else:
            cell = cells[dst + 1]
            if state.count[cell] and state.owner[cell] != seat:
                self._capture(state, cell)
                state.rivals = None
                pool = self._plus(pool, CAPTURE_BONUS)
            self._add(state, cell, seat)
        state.pool = pool
        state.moves = state.hops = None

    def _capture(self, state: State, cell: int) -> None:
        victim = state.owner[cell]
        state.pos[victim][self._victim_piece(state, victim, cell)] = NEST
        self._remove(state, cell)

    def _victim_piece(self, state: State, victim: int, cell: int) -> int:
        """Which of ``victim``'s pawns stands on ``cell`` (the first, if two do)."""
        cells = self.cell[state.colors[victim]]
        for k, p in enumerate(state.pos[victim]):
            if cells[p + 1] == cell:
                return k
        raise ValueError("no pawn there")

    def landing(self, state: State, move: Move) -> tuple[int | None, list]:
        """What a legal move alone (``_apply``, not the rest of the roll) changes, for bots that
        weigh many moves without copying the position: ``(winner, changes)``, the seat that
        wins with it or None, and ``(seat, pawns after)`` for the mover and any pawn it
        captures."""
        seat = state.turn
        k, dst = move[0], move[2]
        pieces = state.pos[seat][:]
        pieces[k] = dst
        if dst == self.home:
            return (seat if pieces.count(dst) == 4 else None), [(seat, pieces)]
        cell = self.cell[state.colors[seat]][dst + 1]
        victim = state.owner[cell]
        if not state.count[cell] or victim == seat:
            return None, [(seat, pieces)]
        caught = state.pos[victim][:]
        caught[self._victim_piece(state, victim, cell)] = NEST
        return None, [(seat, pieces), (victim, caught)]

    def _settle(self, state: State) -> None:
        """End the roll when no value left can be played (some hop can, exactly when some move
        is legal)."""
        if not (state.pool and self._candidates(state)):
            self._end_roll(state)

    def _end_roll(self, state: State) -> None:
        """Unplayable values are lost; doubles roll again, otherwise the next seat rolls."""
        state.pool, state.moves, state.hops, state.phase = (), None, None, ROLL
        if not state.doubles:
            state.turn = (state.turn + 1) % len(state.colors)
            state.pairs = ()

    @staticmethod
    def _add(state: State, cell: int, seat: int) -> None:
        state.count[cell] += 1
        state.owner[cell] = seat
        bit = 1 << cell
        if state.count[cell] == 2:
            state.ones &= ~bit
            state.twos |= bit
        else:
            state.ones |= bit

    @staticmethod
    def _remove(state: State, cell: int) -> None:
        bit = 1 << cell
        if state.count[cell] == 2:
            state.twos &= ~bit
            state.ones |= bit
        else:
            state.ones &= ~bit
        state.count[cell] -= 1

    def to_play(self, state: State) -> list[int]:
        """The dice and bonuses still to play."""
        return list(state.pool)

    def doubles(self, state: State) -> int:
        return state.doubles

    # -- notation ------------------------------------------------------------------------------

    def format(self, state: State) -> str:
        """The position in notation (``docs/notation.md``)."""
        letters = self.board.colors.lower()
        seats = write_seats(letters, state.colors, state.pos, self.place_text)
        fields = ["parcheesi", seats]
        if state.phase == OVER:
            fields += [letters[state.colors[cast(int, state.winner)]], "won"]
        else:
            fields.append(letters[state.colors[state.turn]])
            fields.append(",".join(map(str, state.pool)) if state.phase == MOVE else "roll")
        if state.doubles:
            fields.append(f"d{state.doubles}")
        if state.pairs != self._default_pairs(state):
            color = state.colors[state.turn]
            fields.append("pairs:" + (",".join(f"{i}{j}@{self.place_text(color, p)}"
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
        colors, pos = read_seats(fields[1], letters, self.place_of, "pawns", self.pieces)
        self._check_seats(colors)
        turn = colors.index(letters.index(fields[2]))
        doubles = 0
        pairs: Pairs = ()
        for extra in fields[4:]:
            if extra.startswith("d"):
                doubles = int(extra[1:])
            elif extra.startswith("pairs:"):
                pairs = tuple(
                    (int(item[0]), int(item[1]), self.place_of(colors[turn], item[3:]))
                    for item in extra[6:].split(",") if item != "-"
                )
            else:
                raise ValueError(f"unknown field {extra!r}")
        winner: Optional[int] = None
        pool: Pool
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
