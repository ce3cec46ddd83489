"""Ludo with Argentine rules: a 6 to come out, sixes without limit, safe exits and stars, shared
squares and no barriers, exact count to the goal, placings until one player is left.

The rule text is ``shared/rules/ludo-argentino.es.txt`` (English beside it); the board and the
choices it leaves open are in ``docs/rules/ludo.md``. A piece's *progress* counts from its exit (0)
to the last square of its lap, then up its home column to the goal, as in Parcheesi.

>>> rules = Ludo()
>>> state = rules.parse("ludo r:n,n,n,10/b:n,n,n,12 r 2")
>>> [rules.describe(state, m) for m in rules.legal_moves(state)]
['r 10-12 2']
>>> rules.play(state, rules.legal_moves(state)[0])  # captures blue: red rolls again
>>> rules.format(state)
'ludo r:n,n,n,12/b:n,n,n,n r roll'
"""

from __future__ import annotations

from typing import ClassVar, Final

from .boards import LUDO_4, LUDO_6, RaceBoard
from .core import MOVE, OVER, ROLL, IllegalMove, Move, Race, Words
from .notation import read_seats, write_seats
from .text import N_, Text

# Final: compiled (app/native.py), a constant rather than a name looked up.
HOME: Final = -1  # a piece at home, before it comes out ("casa")
_move = tuple.__new__  # builds a Move without NamedTuple's keyword handling: hot path


class State:
    """A Ludo position: ``pos[seat][piece]`` is a progress; ``placed`` lists the seats that
    finished, in order (when the game ends, the last one left and then the disqualified, the
    first disqualified last, are added); ``waiting`` the seats whose players join later (they
    don't play until then); ``out`` the disqualified seats, in the order they went out."""

    __slots__ = ("colors", "pos", "turn", "phase", "die", "placed", "waiting", "out", "moves")
    colors: tuple[int, ...]
    pos: list[list[int]]
    turn: int
    phase: str
    die: int
    placed: tuple[int, ...]
    waiting: frozenset[int]
    out: tuple[int, ...]
    moves: list[Move] | None

    def copy(self) -> "State":
        other = State()
        other.colors, other.turn, other.phase = self.colors, self.turn, self.phase
        other.die, other.placed, other.waiting = self.die, self.placed, self.waiting
        other.out = self.out
        other.pos = [p[:] for p in self.pos]
        other.moves = None
        return other

    @property
    def winner(self) -> int | None:
        return self.placed[0] if self.phase == OVER else None

    def idle(self) -> frozenset[int]:
        """The seats that take no more turns: placed, still to join, or disqualified."""
        return frozenset(self.placed) | self.waiting | frozenset(self.out)

    def key(self):
        return (self.colors, tuple(map(tuple, self.pos)), self.turn, self.phase, self.die,
                self.placed, self.waiting, self.out)

    def __eq__(self, other):
        return isinstance(other, State) and self.key() == other.key()

    def __repr__(self):
        return f"<ludo {self.colors} {self.pos} turn={self.turn} {self.phase} {self.die}>"


def ludo_options(capacity: int) -> int:
    """The link's options for a table of up to ``capacity`` players (2 to 6): the capacity, or
    0 for the commonest table of 4.

    >>> [ludo_options(n) for n in range(2, 7)]
    [2, 3, 0, 5, 6]
    """
    if capacity not in range(2, 7):
        raise ValueError("A Ludo table seats 2 to 6 players.")
    return 0 if capacity == 4 else capacity


class Ludo(Race):
    """The rule set for one table: its capacity, chosen when the game is created (the link's
    options: ``ludo_options``), decides the board: 52 squares for up to 4 players, 78 for 5 or 6.
    Players may join a game in progress until the table is full."""

    name: ClassVar[str] = "ludo"
    title: ClassVar[str] = Text("Ludo")
    joins: ClassVar[bool] = True  # until the table is full
    disqualifies: ClassVar[bool] = True
    rematches: ClassVar[bool] = True
    ranks: ClassVar[bool] = True
    hosted: ClassVar[bool] = True
    move_seconds: ClassVar[int] = 10  # the rule text's; none at a table with a bot
    timed_with_bots: ClassVar[bool] = False
    boards: ClassVar[tuple[int, ...]] = (4, 6)  # up to 4 players, 5 or 6
    end: ClassVar[str] = "G"
    entry: ClassVar[str] = "out"
    words: ClassVar[Words] = Words(
        no_move=N_("No move: a piece comes out on a 6."),
        move=N_("Piece %(n)s from %(src)s to %(dst)s with %(dice)s"),
        enter=N_("Bring a piece out with %(dice)s"),
        players=N_("%(title)s takes 2 to %(seats)s players on the %(squares)s-square "
                   "board."),
        piece_at=N_("piece %(n)s on %(place)s"),
        at_start=N_("%(n)s at home"),
        finished=N_("%(n)s in the goal"),
        sent_back=N_("%(who)s sent %(whom)s's piece home"),
        brought_home=N_("%(who)s brought a piece to the goal"),
        label_enter=N_("Bring a piece out (6)"),
        label_move=N_("Piece on %(src)s to %(dst)s (%(die)s)"),
        said_enter=N_("%(who)s brought a piece out (6)"),
        said_move=N_("%(who)s moved a piece from %(src)s to %(dst)s (%(die)s)"),
        end_place=N_("the goal"),
        path_place=N_("home column %(n)s"),
        your_turn=N_("%(who)s, your turn: roll the die."))
    # 2: each seat rolls its own dice, so a capture or a piece home (an extra roll) moves nobody
    # else's; links of version 1 (one stream for the table) still replay (app/engine/dice.py).
    rules_version = 2
    seat_dice_since: int | None = 2

    def __init__(self, options: int = 0):
        if options not in (0, 2, 3, 5, 6):
            raise ValueError("unknown Ludo options")
        self.options = options
        self.capacity = options or 4
        self.board = LUDO_6 if self.capacity > 4 else LUDO_4
        self.goal = self.board.home
        self.last = self.board.last
        colors = range(len(self.board.entries))
        # cell[color][progress + 1]: the square (1..track) a piece stands on, 0 off the track
        # (at home, in its home column or in the goal: no rival can meet it there).
        self.cell = [[self.board.cell(c, p) if 0 <= p <= self.last else 0
                      for p in range(HOME, self.goal + 1)] for c in colors]
        self.safe = [n in self.board.safe for n in range(self.board.track + 1)]
        # at[color][square]: the progress of a ``color`` piece standing on that track square
        # (-2 where it never stands), to find the rivals a landing piece meets.
        self.at = [[-2] * (self.board.track + 1) for _ in colors]
        for c in colors:
            for p in range(self.last + 1):
                self.at[c][self.cell[c][p + 1]] = p

    @staticmethod
    def board_options(size: int) -> int:
        return ludo_options(size)

    def table_settings(self) -> dict:
        """The board and the table's capacity."""
        return {"board": self.board_size(), "capacity": self.capacity}

    # -- positions ----------------------------------------------------------------------------

    def initial(self, colors: tuple[int, ...], first: int, waiting=frozenset()) -> State:
        """Everyone's pieces at home, ``first`` to roll; ``colors`` in turn order; the seats in
        ``waiting`` join later."""
        self._check_seats(colors)
        if first in waiting or len(colors) - len(waiting) < 2:
            raise ValueError("a game starts with two players or more, one of them first")
        return self._state(colors, [[HOME] * self.pieces for _ in colors], first, ROLL, 0, (), waiting)

    def _check_seats(self, colors) -> None:
        """Refuse seats this table can't have (``initial`` and ``parse`` alike)."""
        seats = len(self.board.entries)
        if not 2 <= len(colors) <= self.capacity or len(set(colors)) != len(colors) or \
                not all(0 <= c < seats for c in colors):
            raise ValueError(f"this table takes 2 to {self.capacity} players of different colors")
        if list(colors) != sorted(colors, key=lambda c: (c - colors[0]) % seats):
            raise ValueError("seats go around the board in the direction pieces move")

    @staticmethod
    def _state(colors, pos, turn, phase, die, placed, waiting=frozenset(), out=()) -> State:
        state = State()
        state.colors, state.pos, state.turn, state.phase = tuple(colors), pos, turn, phase
        state.die, state.placed, state.moves = die, tuple(placed), None
        state.waiting, state.out = frozenset(waiting), tuple(out)
        return state

    def join(self, state: State, seat: int) -> None:
        """A player joins the game in progress: their pieces at home, and a place in the turn
        order (they play when it reaches them)."""
        if seat not in state.waiting or state.phase == OVER:
            raise IllegalMove("that seat can't join now")
        state.waiting = state.waiting - {seat}

    def disqualify(self, state: State, seat: int) -> None:
        """Three expired turns in a row: the player's pieces leave the board and they rank
        below everyone still playing (DECISIONS, Ludo 5). If one player is left, the game ends."""
        if state.phase == OVER or seat in state.placed or seat in state.out or \
                seat in state.waiting:
            raise IllegalMove("that seat can't be disqualified now")
        state.pos[seat] = [HOME] * self.pieces
        state.out += (seat,)
        if not self._finish_if_alone(state) and state.turn == seat:
            self._end_move(state, False)

    def placed(self, state: State) -> tuple[int, ...]:
        return state.placed

    def out(self, state: State) -> tuple[int, ...]:
        return state.out

    def waiting(self, state: State) -> frozenset[int]:
        return state.waiting

    def _finish_if_alone(self, state: State) -> bool:
        """End the game when one player is left: they take the next place, then the
        disqualified, the first of them last."""
        idle = state.idle()
        active = [s for s in range(len(state.colors)) if s not in idle]
        if len(active) > 1:
            return False
        state.placed += (*active, *reversed(state.out))
        state.phase, state.die, state.moves = OVER, 0, None
        state.turn = state.placed[0]  # as the notation writes a finished game
        return True

    # -- chance node ----------------------------------------------------------------------------

    def _end_move(self, state: State, again: bool) -> None:
        """The same player rolls again, or the next player still in the game rolls."""
        state.phase, state.die, state.moves = ROLL, 0, None
        if again:
            return
        seats = len(state.colors)
        turn = (state.turn + 1) % seats
        while turn in state.placed or turn in state.waiting or turn in state.out:
            turn = (turn + 1) % seats
        state.turn = turn

    # -- moves -----------------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        """One move per distinct place of the mover's pieces (pieces sharing a square are
        interchangeable), in piece order: out on a 6, otherwise forward by the die, never past
        the goal."""
        if state.phase != MOVE:
            return []
        moves = state.moves
        if moves is None:
            die, goal = state.die, self.goal
            moves = []
            pieces = state.pos[state.turn]
            for k, p in enumerate(pieces):
                if p in pieces[:k]:  # the same move as an earlier piece's
                    continue
                if p == HOME:
                    if die == 6:
                        moves.append(_move(Move, (k, HOME, 0, (6,))))
                elif p + die <= goal:
                    moves.append(_move(Move, (k, p, p + die, (die,))))
            state.moves = moves
        return moves

    def play(self, state: State, move: Move) -> None:
        """Move; capture every rival on an unsafe landing square; then roll again, finish, or
        pass the turn."""
        if move not in self.legal_moves(state):
            raise IllegalMove(f"{move} is not legal here")
        seat, (k, _, q, _) = state.turn, move
        pieces = state.pos[seat]
        pieces[k] = q
        again = state.die == 6
        if q == self.goal:
            if pieces.count(q) == self.pieces:  # all are in: placed, no extra roll
                state.placed += (seat,)
                if not self._finish_if_alone(state):
                    self._end_move(state, False)
                return
            again = True
        elif q <= self.last:
            square = self.cell[state.colors[seat]][q + 1]
            if not self.safe[square] and self._capture(state, seat, square):
                again = True
        self._end_move(state, again)

    def landing(self, state: State, move: Move) -> tuple[int | None, list]:
        """What a legal move changes, for bots that weigh many moves without copying the
        position (``play`` without the turn): ``(winner, changes)``, the seat that wins with it
        or None, and ``(seat, pieces after)`` for the mover and every rival it sends home."""
        seat = state.turn
        k, _, q, _ = move
        pieces = state.pos[seat][:]
        pieces[k] = q
        changes = [(seat, pieces)]
        if q == self.goal:
            if pieces.count(q) == self.pieces:
                placed = state.placed + (seat,)
                active = [s for s in range(len(state.colors)) if s not in placed and
                          s not in state.waiting and s not in state.out]
                if len(active) == 1:
                    return placed[0], changes
            return None, changes
        if q <= self.last:
            square = self.cell[state.colors[seat]][q + 1]
            if not self.safe[square]:
                for other, theirs in enumerate(state.pos):
                    p = self.at[state.colors[other]][square]
                    if other != seat and p in theirs:
                        changes.append((other, [HOME if x == p else x for x in theirs]))
        return None, changes

    def _capture(self, state: State, seat: int, square: int) -> bool:
        """Send home every rival piece on ``square``; True if there was one."""
        caught = False
        for other, pieces in enumerate(state.pos):
            p = self.at[state.colors[other]][square]
            if other != seat and p in pieces:
                for k, q in enumerate(pieces):
                    if q == p:
                        pieces[k] = HOME
                caught = True
        return caught

    # -- notation -----------------------------------------------------------------------------------

    def format(self, state: State) -> str:
        """The position in notation (``docs/notation.md``)."""
        letters = self.board.colors.lower()
        seats = write_seats(letters, state.colors, state.pos, self.place_text)
        fields = [self.name + ("6" if self.capacity > 4 else ""), seats]
        if state.phase == OVER:
            fields += [letters[state.colors[state.placed[0]]], "over"]
        else:
            fields.append(letters[state.colors[state.turn]])
            fields.append(str(state.die) if state.phase == MOVE else "roll")
        if state.placed:
            fields.append("placed:" + ",".join(letters[state.colors[s]] for s in state.placed))
        if state.waiting:
            fields.append("waiting:" + ",".join(letters[state.colors[s]]
                                                for s in sorted(state.waiting)))
        if state.out:
            fields.append("out:" + ",".join(letters[state.colors[s]] for s in state.out))
        return " ".join(fields)

    def parse(self, text: str) -> State:
        """Read a position written by ``format``; ``ValueError`` on a malformed one."""
        fields = text.split()
        if len(fields) < 4 or fields[0] != self.name + ("6" if self.capacity > 4 else ""):
            raise ValueError("expected: ludo[6] <seats> <to move> <die|roll|over> [placed:..] "
                             "[waiting:..] [out:..]")
        letters = self.board.colors.lower()
        colors, pos = read_seats(fields[1], letters, self.place_of, "pieces", self.pieces)
        self._check_seats(colors)
        turn = colors.index(letters.index(fields[2]))
        placed: tuple[int, ...] = ()
        waiting: frozenset[int] = frozenset()
        out: tuple[int, ...] = ()
        for extra in fields[4:]:
            name, _, values = extra.partition(":")
            seats = tuple(colors.index(letters.index(x)) for x in values.split(","))
            if name == "placed":
                placed = seats
            elif name == "waiting":
                waiting = frozenset(seats)
            elif name == "out":
                out = seats
            else:
                raise ValueError(f"unknown field {extra!r}")
        phase, die = fields[3], 0
        if phase == "over":
            phase = OVER
        elif phase != ROLL:
            phase, die = MOVE, int(phase)
            if not 1 <= die <= 6:
                raise ValueError("a die shows 1 to 6")
        return self._state(colors, pos, turn, phase, die, placed, waiting, out)
