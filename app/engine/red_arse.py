"""Red Arse: one die, marbles that jump, inside-corner hops, the center hole, backward 4s, raids.

The rule text is ``shared/rules/red-arse.txt``; the board geometry and the choices it leaves open
are in ``docs/rules/red-arse.md``. Places are those of ``boards.RingBoard``: -1 the base,
0..track-1 the holes, ``track`` the center, then the home columns. Positions read and write in
notation (``docs/notation.md``):

>>> rules = RedArse()
>>> state = rules.parse("red-arse r:n,n,n,28/g:n,n,n,n r 4")
>>> [rules.describe(state, m) for m in rules.legal_moves(state)]  # forward, or back 4
['r 28-32 4', 'r 28-24 -4']
>>> rules.play(state, rules.legal_moves(state)[1])  # 24 is an outside corner: roll again
>>> rules.format(state)
'red-arse r:n,n,n,24/g:n,n,n,n r claim'

Every move a marble could make from a place with a die is worked out once from the geometry (a
*route*: where it lands, what it jumps, what it needs there) and cached; a position only filters
the routes by what stands on the board.
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar, Final, NamedTuple, cast

from .boards import HOME_ENTRY, RED_ARSE_4, RED_ARSE_6, RING_SEGMENT, RingBoard
from .core import CLAIM, MOVE, OVER, ROLL, IllegalMove, Move, RuleSet, Words
from .notation import read_seats, write_seats
from .text import N_, Text
from .red_arse_settings import RULE_KEYS, options_for, settings

# Final: compiled (app/native.py), these are constants rather than names looked up.
BASE: Final = -1
BACK: Final = -4  # the value of a backward 4, as moves record it

# What a route needs at its landing place, besides "not your own marble".
PLAIN: Final = 0
RAID: Final = 1


def table_of(text: str) -> int:
    """The table (the link's options) a position was written for, read from its board and its
    ``off:`` field, so that ``rules_for("red-arse", table_of(text)).parse(text)`` reads any
    position; ``ValueError`` for an unknown rule or field.

    >>> settings(table_of("red-arse6 r:n,n,n,n/b:n,n,n,n r roll off:raids,claim"))
    {'board': 6, 'off': ['raids', 'claim']}
    """
    fields = text.split()
    off = fields[4] if len(fields) > 4 else "off:"
    if not off.startswith("off:"):
        raise ValueError(f"unknown field {off!r}")
    keys = off[4:].split(",") if off != "off:" else ()
    return options_for(6 if fields[:1] == ["red-arse6"] else 4, keys)


# A move's wordings, by kind: as offered on the page, and as the feed tells it once played.
MOVE_LABELS = {
    "out": N_("A marble out of base to %(dst)s (%(die)s)"),
    "hop back": N_("Marble on %(src)s hops 4 corners back to %(dst)s"),
    "hop 1": N_("Marble on %(src)s hops 1 corner to %(dst)s"),
    "hop": N_("Marble on %(src)s hops %(die)s corners to %(dst)s"),
    "raid": N_("Marble on %(src)s raids %(dst)s (%(die)s)"),
    "back": N_("Marble on %(src)s back 4 to %(dst)s"),
    "walk": N_("Marble on %(src)s to %(dst)s (%(die)s)"),
}
MOVES_SAID = {
    "out": N_("%(who)s brought a marble out of base to %(dst)s (%(die)s)"),
    "hop back": N_("%(who)s hopped a marble 4 corners back from %(src)s to %(dst)s"),
    "hop 1": N_("%(who)s hopped a marble 1 corner from %(src)s to %(dst)s"),
    "hop": N_("%(who)s hopped a marble %(die)s corners from %(src)s to %(dst)s"),
    "raid": N_("%(who)s raided %(dst)s with a marble from %(src)s (%(die)s)"),
    "back": N_("%(who)s moved a marble back 4 from %(src)s to %(dst)s"),
    "walk": N_("%(who)s moved a marble from %(src)s to %(dst)s (%(die)s)"),
}
# Another color's home slot, one message per color: Spanish gives the color the home's gender
# ("la casa roja").
OTHER_HOME_SLOT = {
    "red": N_("slot %(n)s of the red home"), "blue": N_("slot %(n)s of the blue home"),
    "green": N_("slot %(n)s of the green home"), "yellow": N_("slot %(n)s of the yellow home"),
    "purple": N_("slot %(n)s of the purple home"), "orange": N_("slot %(n)s of the orange home"),
}

class Route(NamedTuple):
    """One way a marble can go with one die, from geometry alone."""

    dst: int
    values: tuple[int, ...]
    path: tuple[int, ...]  # every place walked, from the source to dst
    jumps: tuple[int, ...]  # places passed that must not hold the mover's own marble
    needs: int  # PLAIN or RAID


class State:
    """A Red Arse position: ``pos[seat][marble]`` is a place; ``at[place]`` is the seat whose
    marble stands there, or -1."""

    __slots__ = ("colors", "pos", "turn", "phase", "die", "winner", "at", "moves")
    colors: tuple[int, ...]
    pos: list[list[int]]
    turn: int
    phase: str
    die: int
    winner: int | None
    at: list[int]
    moves: list[Move] | None

    def copy(self) -> "State":
        other = State()
        other.colors, other.turn, other.phase = self.colors, self.turn, self.phase
        other.die, other.winner = self.die, self.winner
        other.pos = [p[:] for p in self.pos]
        other.at = self.at[:]
        other.moves = None
        return other

    def key(self):
        return (self.colors, tuple(map(tuple, self.pos)), self.turn, self.phase, self.die,
                self.winner)

    def __eq__(self, other):
        return isinstance(other, State) and self.key() == other.key()

    def __repr__(self):
        return f"<red-arse {self.colors} {self.pos} turn={self.turn} {self.phase} {self.die}>"


class RedArse(RuleSet):
    """The rule set for one table: a board and its house rules (``red_arse_settings``)."""

    name: ClassVar[str] = "red-arse"
    title: ClassVar[str] = Text("Red Arse")
    move_seconds: ClassVar[int] = 30  # the rule text's
    boards: ClassVar[tuple[int, ...]] = (4, 6)
    words: ClassVar[Words] = Words(
        no_move=N_("No move: a marble comes out on a 1 or a 6."),
        move=N_("Marble %(n)s from %(src)s to %(dst)s with %(dice)s"),
        enter=N_("Bring marble %(n)s out to %(dst)s with %(dice)s"),
        players=N_("%(title)s takes 2 to %(seats)s players on the %(seats)s-player "
                   "board."),
        piece_at=N_("marble %(n)s on %(place)s"),
        at_start=N_("%(n)s in base"),
        finished=N_("%(n)s in their home"),
        sent_back=N_("%(who)s sent %(whom)s's marble back to base"),
        brought_home=N_("%(who)s brought a marble into their home"),
        your_turn=N_("%(who)s, your turn: roll the die."))
    # 2: each seat rolls its own dice, so a re-roll claimed, missed or earned moves nobody
    # else's; links of version 1 (one stream for the table) still replay (app/engine/dice.py).
    rules_version = 2
    seat_dice_since: int | None = 2

    def __init__(self, options: int = 0):
        table = settings(options)
        self.options = options
        self.board: RingBoard = RED_ARSE_6 if table["board"] == 6 else RED_ARSE_4
        self.capacity = self.board.seats  # players at most
        on = {key: key not in table["off"] for key in RULE_KEYS}
        self.kill_reroll = on["kill_reroll"]
        self.corner_reroll = on["corner_reroll"]
        self.backward = on["backward"]
        self.back_hop = on["back_hop"] and self.board.seats == 6
        self.center_six = on["center_six"]
        self.raids = on["raids"]
        self.home_backout = on["home_backout"]
        self.claims = on["claim"]
        self.track = self.board.track
        self.center = self.board.center
        self.routes = cache(self._routes)
        # Each color's home column: a marble's move can only win when it lands there.
        self._homes = [frozenset(self.board.home(c, k) for k in range(4))
                       for c in range(self.board.seats)]

    @staticmethod
    def board_options(size: int) -> int:
        return options_for(size)

    def board_size(self) -> int:
        return self.board.seats

    def table_settings(self) -> dict:
        """The board and the house rules switched off."""
        return settings(self.options)

    # -- positions --------------------------------------------------------------------------

    def initial(self, colors: tuple[int, ...], first: int) -> State:
        """Every marble in its base, ``first`` to roll. ``colors`` lists the seats in turn order."""
        self._check_seats(colors)
        return self._state(colors, [[BASE] * 4 for _ in colors], first, ROLL, 0, None)

    def _check_seats(self, colors) -> None:
        """Refuse seats a game can't have (``initial`` and ``parse`` alike)."""
        seats = self.board.seats
        if not 2 <= len(colors) <= seats or len(set(colors)) != len(colors) or \
                not all(0 <= c < seats for c in colors):
            raise ValueError(f"this board takes 2 to {seats} players of different colors")
        if list(colors) != sorted(colors, key=lambda c: (c - colors[0]) % seats):
            raise ValueError("seats go around the board clockwise")

    def _state(self, colors, pos, turn, phase, die, winner) -> State:
        state = State()
        state.colors, state.pos, state.turn = tuple(colors), pos, turn
        state.phase, state.die, state.winner = phase, die, winner
        state.at = [-1] * self.board.places
        state.moves = None
        for seat, marbles in enumerate(pos):
            for place in marbles:
                if place == BASE:
                    continue
                if not 0 <= place < self.board.places:
                    raise ValueError(f"no place {place}")
                if state.at[place] != -1:
                    raise ValueError("two marbles in one hole")
                state.at[place] = seat
        return state

    # -- geometry -----------------------------------------------------------------------------

    def _routes(self, color: int, place: int, die: int) -> tuple[Route, ...]:
        """Every route a ``color`` marble at ``place`` may take with ``die``, ignoring what stands
        on the board (cached: there are few places, colors and dice)."""
        board, routes = self.board, []
        if place == BASE:
            if die in (1, 6):
                start = board.start(color)
                routes.append(Route(start, (die,), (BASE, start), (), PLAIN))
            return tuple(routes)
        if place == self.center:
            if die == 1 or die == 6 and self.center_six:
                routes += [Route(c, (die,), (place, c), (), PLAIN)
                           for c in self._corners_from(color)]
            return tuple(routes)
        owner = board.home_owner(place)
        if owner is not None and owner[0] != color:  # a raider: it only backs out, on a 4
            if die == 4 and self.raids:
                routes += self._walk(color, place, -1)
            return tuple(routes)
        routes += self._walk(color, place, 1, die)
        if die == 4 and (self.backward if owner is None else self.home_backout):
            routes += self._walk(color, place, -1)
        if board.is_inside_corner(place):
            routes += self._hops(color, place, die)
        return tuple(routes)

    def _corners_from(self, color: int) -> list[int]:
        """The inside corners, starting from this color's own (the order moves are listed in)."""
        seats = self.board.seats
        return [self.board.inside_corner((color + i) % seats) for i in range(seats)]

    def _walk(self, color: int, place: int, direction: int, die: int = 4) -> list[Route]:
        """Routes hole by hole: forward ``die`` holes or back 4, with the center and raids as
        branches. Forward walks turn into the mover's home at its entry; a backward walk that
        would go behind the mover's start stops on its home entry (back-past-start)."""
        board, track = self.board, self.track
        entry, start = board.home_entry(color), board.start(color)
        value = die if direction > 0 else BACK
        routes, path = [], [place]
        cur = place
        for step in range(1, die + 1):
            left = die - step + 1  # steps still to take, this one included
            owner = board.home_owner(cur)
            # Branches before this step: into another player's home column (a raid) ...
            # (not on the way out of that column, and with at most 4 steps left) ...
            if owner is None and self.raids and cur % RING_SEGMENT == HOME_ENTRY and \
                    cur != entry and left <= 4 and board.home_owner(path[-2] if step > 1
                                                                    else BASE) is None:
                slots = [board.home(cur // RING_SEGMENT, k) for k in range(left)]
                routes.append(Route(slots[-1], (value,), (*path, *slots),
                                    (*path[1:], *slots[:-1]), RAID))
            # ... or into the center, from an inside corner with one step left.
            if left == 1 and owner is None and board.is_inside_corner(cur) and \
                    (die != 6 or self.center_six):
                routes.append(Route(self.center, (value,), (*path, self.center), tuple(path[1:]),
                                    PLAIN))
            # The step itself.
            if direction > 0:
                if owner is not None:
                    slot = owner[1] + 1
                    if slot == 4:
                        return routes  # past the top of the column: no exact count
                    nxt = board.home(owner[0], slot)
                elif cur == entry:
                    nxt = board.home(color, 0)
                else:
                    nxt = (cur + 1) % track
            else:
                if owner is not None:
                    nxt = board.home(owner[0], owner[1] - 1) if owner[1] else \
                        board.home_entry(owner[0])
                elif cur == start:  # behind the start: park outside home instead
                    jumps = tuple(path[1:])
                    routes.append(Route(entry, (value,), (*path, entry), jumps, PLAIN))
                    return routes
                else:
                    nxt = (cur - 1) % track
            path.append(nxt)
            cur = nxt
        routes.append(Route(cur, (value,), tuple(path), tuple(path[1:-1]), PLAIN))
        return routes

    def _hops(self, color: int, place: int, die: int) -> list[Route]:
        """Inside-corner hops: ``die`` corners clockwise, never past the mover's own corner; on
        the 6-player board also 4 corners back on a 4 (behind the start: home entry)."""
        board, seats = self.board, self.board.seats
        # Corner number counted from the one after the mover's start (0) to its own (seats-1).
        q = (place // RING_SEGMENT - color - 1) % seats
        routes = []
        if q + die <= seats - 1:
            dst = (place + RING_SEGMENT * die) % self.track
            routes.append(Route(dst, (die,), (place, dst), (), PLAIN))
        if die == 4 and self.back_hop:
            dst = (place - RING_SEGMENT * 4) % self.track if q >= 4 else board.home_entry(color)
            routes.append(Route(dst, (BACK,), (place, dst), (), PLAIN))
        return routes

    # -- chance node and claims -------------------------------------------------------------------

    def claim(self, state: State, taken: bool) -> None:
        if state.phase != CLAIM:
            raise IllegalMove("there is no re-roll to claim")
        state.phase = ROLL
        if not taken:
            state.turn = (state.turn + 1) % len(state.colors)

    def _end_move(self, state: State, again: bool) -> None:
        state.die, state.moves = 0, None
        if again:
            state.phase = CLAIM if self.claims else ROLL
        else:
            state.phase = ROLL
            state.turn = (state.turn + 1) % len(state.colors)

    # -- moves ----------------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        """Every legal move, in canonical order: by marble, then as the routes come (forward,
        raids and the center as they branch off, backward, hops). Marbles in the base are
        interchangeable: only the first is offered."""
        if state.phase != MOVE:
            return []
        if state.moves is not None:
            return state.moves
        seat, die = state.turn, state.die
        color = state.colors[seat]
        at, pos = state.at, state.pos
        moves, seen = [], set()
        for k, place in enumerate(pos[seat]):
            if place == BASE:
                if BASE in seen:
                    continue
                seen.add(BASE)
            elif self._locked(state, place):
                continue
            for route in self.routes(color, place, die):
                dst = route.dst
                if at[dst] == seat or any(at[p] == seat for p in route.jumps):
                    continue
                if route.needs == RAID:
                    victim = at[dst]
                    raided, _ = cast(tuple[int, int], self.board.home_owner(dst))
                    if victim == -1 or state.colors[victim] != raided or \
                            self._locked(state, dst):
                        continue
                moves.append(Move(k, place, dst, route.values))
        state.moves = moves
        return moves

    def _locked(self, state: State, place: int) -> bool:
        """A home marble is locked in when it and every slot above it hold its owner's marbles."""
        owner = self.board.home_owner(place)
        if owner is None:
            return False
        color, slot = owner
        at, colors = state.at, state.colors
        for k in range(slot, 4):
            seat = at[self.board.home(color, k)]
            if seat == -1 or colors[seat] != color:
                return False
        return True

    def play(self, state: State, move: Move) -> None:
        """Make a legal move; then the game ends, the player may roll again, or the turn passes."""
        if move not in self.legal_moves(state):
            raise IllegalMove(f"{move} is not legal here")
        seat = state.turn
        k, src, dst, values = move
        at = state.at
        if src != BASE:
            at[src] = -1
        killed = at[dst] != -1
        if killed:
            victim = at[dst]
            state.pos[victim][state.pos[victim].index(dst)] = BASE
        at[dst] = seat
        state.pos[seat][k] = dst
        if dst in self._homes[state.colors[seat]] and \
                all(p in self._homes[state.colors[seat]] for p in state.pos[seat]):
            state.phase, state.winner, state.die, state.moves = OVER, seat, 0, None
            return
        again = state.die == 6 or killed and self.kill_reroll or \
            self.corner_reroll and src != BASE and self.board.is_outside_corner(dst)
        self._end_move(state, again)

    def landing(self, state: State, move: Move) -> tuple[int | None, list]:
        """What a legal move changes, for bots that weigh many moves without copying the
        position: ``(winner, changes)``, the seat that wins with it or None, and ``(seat,
        marbles after)`` for the mover and any marble it kills."""
        seat = state.turn
        k, _, dst, _ = move
        marbles = state.pos[seat][:]
        marbles[k] = dst
        homes = self._homes[state.colors[seat]]
        if dst in homes and all(p in homes for p in marbles):
            return seat, [(seat, marbles)]
        victim = state.at[dst]
        if victim == -1:
            return None, [(seat, marbles)]
        killed = state.pos[victim][:]
        killed[killed.index(dst)] = BASE
        return None, [(seat, marbles), (victim, killed)]

    def move_path(self, color: int, move: Move) -> tuple[int, ...]:
        """The places a move walks through, for drawing it (``src`` first, ``dst`` last)."""
        for route in self.routes(color, move.src, abs(move.values[0])):
            if route.dst == move.dst and route.values == move.values:
                return route.path
        return (move.src, move.dst)

    # -- notation ---------------------------------------------------------------------------------

    def place_text(self, color: int, place: int) -> str:
        """A place in notation."""
        if place == BASE:
            return "n"
        if place == self.center:
            return "c"
        owner = self.board.home_owner(place)
        if owner is None:
            return str(place + 1)
        owner_color, slot = owner
        own = "" if owner_color == color else self.board.colors[owner_color].lower()
        return f"h{slot + 1}{own}"

    def place_of(self, color: int, text: str) -> int:
        """The place ``place_text`` wrote; ``ValueError`` for one that isn't."""
        if text == "n":
            return BASE
        if text == "c":
            return self.center
        if text.startswith("h"):
            slot, owner = text[1:2], text[2:] or self.board.colors[color].lower()
            if not slot.isdigit() or not 1 <= int(slot) <= 4 or len(owner) != 1:
                raise ValueError(f"no home slot {text!r}")
            return self.board.home(self.board.colors.lower().index(owner), int(slot) - 1)
        hole = int(text)
        if not 1 <= hole <= self.track:
            raise ValueError(f"no hole {text!r}")
        return hole - 1

    def format(self, state: State) -> str:
        """The position in notation (``docs/notation.md``)."""
        letters = self.board.colors.lower()
        seats = write_seats(letters, state.colors, state.pos, self.place_text)
        table = settings(self.options)
        fields = [self.name + ("6" if table["board"] == 6 else ""), seats]
        if state.phase == OVER:
            fields += [letters[state.colors[cast(int, state.winner)]], "won"]
        else:
            fields.append(letters[state.colors[state.turn]])
            fields.append(str(state.die) if state.phase == MOVE else state.phase)
        if table["off"]:
            fields.append("off:" + ",".join(table["off"]))
        return " ".join(fields)

    def parse(self, text: str) -> State:
        """Read a position written by ``format`` for this table: ``ValueError`` for a malformed
        one or one of another table (board or house rules: ``table_of`` tells which)."""
        fields = text.split()
        if not 4 <= len(fields) <= 5 or fields[0] not in ("red-arse", "red-arse6"):
            raise ValueError("expected: red-arse[6] <seats> <to move> <die|roll|claim|won> [off:..]")
        if table_of(text) != self.options:
            raise ValueError("this position is for another table (board or house rules)")
        letters = self.board.colors.lower()
        colors, pos = read_seats(fields[1], letters, self.place_of, "marbles", self.pieces)
        self._check_seats(colors)
        turn = colors.index(letters.index(fields[2]))
        phase, die, winner = fields[3], 0, None
        if phase == "won":
            phase, winner = OVER, turn
        elif phase not in (ROLL, CLAIM):
            phase, die = MOVE, int(phase)
            if not 1 <= die <= 6:
                raise ValueError("a die shows 1 to 6")
        return self._state(colors, pos, turn, phase, die, winner)

    def move_text(self, color: int, move: Move) -> str:
        """A move in notation words: ``r 19-15 -4`` walks, ``r hop 15-29 1`` hops corners."""
        letter = self.board.colors[color].lower()
        src, dst = self.place_text(color, move.src), self.place_text(color, move.dst)
        hop = "hop " if self._is_hop(color, move) else ""
        return f"{letter} {hop}{src}-{dst} {move.values[0]}"

    def _is_hop(self, color: int, move: Move) -> bool:
        """Whether a move hops inside corners rather than walking holes (no walk from the same
        corner with the same die ends where a hop does)."""
        return self.board.is_inside_corner(move.src) and any(
            route.dst == move.dst and route.values == move.values
            for route in self._hops(color, move.src, abs(move.values[0])))

    def move_label(self, color: int, move: Move) -> Text:
        """A move in a player's words, for the page: "Marble on 19 back 4 to 15"."""
        kind, places = self._move_kind(color, move)
        return Text(MOVE_LABELS[kind], **places)

    def move_said(self, color: int, move: Move, who: str) -> Text:
        """A move as the feed tells it: "Ana moved a marble back 4 from 19 to 15"."""
        kind, places = self._move_kind(color, move)
        return Text(MOVES_SAID[kind], who=who, **places)

    def _move_kind(self, color: int, move: Move) -> tuple[str, dict]:
        """Which of the move's wordings applies (a key of ``MOVE_LABELS``) and its places."""
        src, dst, die = move.src, move.dst, move.values[0]
        places = {"dst": self.place_words(color, dst), "die": die}
        if src == BASE:
            return "out", places
        places["src"] = self.place_words(color, src)
        if self._is_hop(color, move):
            if die == BACK:
                return "hop back", places
            return ("hop 1" if die == 1 else "hop"), places
        owner = self.board.home_owner(dst)
        if owner is not None and owner[0] != color:
            return "raid", places
        return ("back" if die == BACK else "walk"), places

    def place_words(self, color: int, place: int, bare: bool = True) -> str:
        board = self.board
        if place == self.center:
            return Text("the center")
        owner = board.home_owner(place)
        if owner is None:
            return str(place + 1) if bare else Text("hole %(n)s", n=place + 1)
        owner_color, slot = owner
        if owner_color == color:
            return Text("home slot %(n)s", n=slot + 1)
        return Text(OTHER_HOME_SLOT[board.color_names[owner_color]], n=slot + 1)

    def piece_at(self, color: int, k: int, place: int) -> str:
        if place == self.center:
            return Text("marble %(n)s in the center", n=k + 1)
        return super().piece_at(color, k, place)

    def finished(self, color: int, place: int) -> bool:
        owner = self.board.home_owner(place)
        return owner is not None and owner[0] == color

    def to_go(self, color: int, place: int) -> int:
        """Holes to go: from the start the whole way; from the center, out through the corner
        nearest home."""
        board, track = self.board, self.track
        owner = board.home_owner(place)
        if owner is not None:
            return 0 if owner[0] == color else track
        entry = board.home_entry(color)
        if place < 0:
            place = board.start(color) - 1
        elif place == self.center:
            return 1 + min((entry - q) % track for q in range(track) if board.is_inside_corner(q))
        return (entry - place) % track + 1
