"""Turn machinery shared by every rule set: moves, phases, who goes first, and the match runner.

A game alternates chance nodes (a roll) and decision points (choose one of the legal moves, which
each rule set lists in a canonical order). Some rule sets add a claim point: a re-roll that is only
taken if the player claims it in time (index 0 claimed, 1 missed). The log of a game is the list of steps taken, each an
``(index, radix)`` pair: a roll is a forced step ``(0, 1)``, a move is the index chosen among
``radix`` legal moves. Replaying the same steps with the same dice gives the same game, which is
what lets a link hold only a seed and this log.
"""

from __future__ import annotations

from typing import Callable, ClassVar, Final, NamedTuple, Protocol

# The phases of a game. Final: compiled (app/native.py), constants rather than names looked up.
ROLL: Final = "roll"
MOVE: Final = "move"
CLAIM: Final = "claim"
OVER: Final = "over"


class IllegalMove(ValueError):
    """A move index outside the legal list, or a step that does not fit the phase."""


class Move(NamedTuple):
    """One piece going from ``src`` to ``dst`` (rule-set progress units), using ``values``.

    ``values`` are the dice or bonus values the move spends; a move names its destination, not
    just its piece, because one piece and roll may reach several places in some games.
    """

    piece: int
    src: int
    dst: int
    values: tuple[int, ...]


class Rules(Protocol):
    """What a rule set provides to the runner (see ``parcheesi.Parcheesi``)."""

    name: str
    dice_count: int
    rules_version: int  # new games get it; links of every version from 1 up still replay
    seat_dice_since: int | None  # the first version whose seats each roll their own dice

    def initial(self, colors: tuple[int, ...], first: int): ...
    def roll(self, state, dice: tuple[int, ...]) -> None: ...
    def legal_moves(self, state) -> list[Move]: ...
    def play(self, state, move: Move) -> None: ...


class RuleSet:
    """What every rule set is, as class attributes: the app asks these, never which game it is.

    ``joins``: players may join a game in progress (``join``); ``disqualifies``: a seat that
    misses turns goes out (``disqualify``); ``rematches``: the host may start a rematch at the
    same table once the game is over, medals carried over.
    """

    name = ""
    title: ClassVar[str] = ""  # the game's name as players say it (a Text: translated where shown)
    dice_count = 2
    pieces: ClassVar[int] = 4  # per seat
    joins: ClassVar[bool] = False
    disqualifies: ClassVar[bool] = False
    rematches: ClassVar[bool] = False
    rules_version = 1  # new games get it; links of every version from 1 up still replay
    seat_dice_since: int | None = None  # the first version whose seats each roll their own dice


class OneDie(RuleSet):
    """What rule sets rolling one die share: a roll with no possible move ends the move, but a
    6 still rolls again. A subclass gives ``legal_moves`` and ``_end_move``."""

    dice_count = 1

    def roll(self, state, dice: tuple[int]) -> None:
        if state.phase != ROLL:
            raise IllegalMove("it is not time to roll")
        (state.die,) = dice
        state.phase, state.moves = MOVE, None
        if not self.legal_moves(state):
            self._end_move(state, state.die == 6)

    def legal_moves(self, state) -> list[Move]:
        raise NotImplementedError

    def _end_move(self, state, again: bool) -> None:
        """The move is over: the same player rolls again (``again``), or the turn passes."""
        raise NotImplementedError


class Reader(Protocol):
    """A source of logged step indices (``app.link.LogReader`` is one)."""

    remaining: int

    def take(self, radix: int) -> int: ...


def first_player(seats: list[int], dice_count: int,
                 roll: Callable[[int, int], tuple[int, ...]]):
    """Everyone at the table (``seats``) rolls, in seat order (``roll(seat, dice_count)``);
    the highest total starts; tied leaders roll again.

    Returns ``(seat, rounds)`` where ``rounds`` lists each round's ``{seat: total}``.

    >>> seq = iter([6, 2, 6, 5, 6])
    >>> first_player([0, 1, 2], 1, lambda seat, count: (next(seq),))
    (2, [{0: 6, 1: 2, 2: 6}, {0: 5, 2: 6}])
    """
    contenders = list(seats)
    rounds = []
    while True:
        totals = {seat: sum(roll(seat, dice_count)) for seat in contenders}
        rounds.append(totals)
        best = max(totals.values())
        contenders = [seat for seat in contenders if totals[seat] == best]
        if len(contenders) == 1:
            return contenders[0], rounds


class Match:
    """A game being played or replayed: rules, position, dice and the steps taken.

    ``dice.roll(seat, count)`` gives the next dice a seat rolls (``app.engine.dice.TableDice``:
    one stream for the table or one per seat); dice are fixed by the game's secret and taken in
    order, so the same log always meets the same dice. ``joined`` gives, per seat, the
    step at which it joined a game in progress (0: it played from the start); only rule sets
    with a ``join`` take such seats. ``out`` gives, per seat, the step at which it was
    disqualified (0: never); only rule sets with a ``disqualify`` do that.
    """

    def __init__(self, rules, colors: tuple[int, ...], dice,
                 joined: tuple[int, ...] = (), out: tuple[int, ...] = ()):
        self.rules = rules
        # Moves reach the rules from the legal list itself: no need to look for them in it.
        self._play_legal = getattr(rules, "play_legal", rules.play)
        self.dice = dice
        joined = joined or (0,) * len(colors)
        founders = [seat for seat, step in enumerate(joined) if not step]
        first, self.start_rounds = first_player(founders, rules.dice_count, dice.roll)
        # What happens to seats between steps: (step, seat, action), in order: joining (before
        # the disqualifications of the same step) and disqualification.
        joins = [(step, seat) for seat, step in enumerate(joined) if step]
        self._schedule = sorted([(step, 0, seat) for step, seat in joins] +
                                [(step, 1, seat) for seat, step in enumerate(out) if step])
        if joins:
            self.state = rules.initial(tuple(colors), first,
                                       waiting=frozenset(seat for _, seat in joins))
        else:
            self.state = rules.initial(tuple(colors), first)
        self.steps: list[tuple[int, int]] = []
        # ("roll", seat, dice) / ("move", seat, move) / ("claim" or "miss", seat, None)
        self.history: list[tuple] = []
        self._moves: list[Move] | None = None

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def turn(self) -> int:
        return self.state.turn

    # The stream the seat to move rolls from, and the number of its next die: ``die(next_die)``
    # is the next die that seat rolls (tests pick seeds by the dice to come).
    @property
    def die(self) -> Callable[[int], int]:
        return self.dice.streams[self.dice.stream(self.state.turn)].die

    @property
    def next_die(self) -> int:
        return self.dice.used[self.dice.stream(self.state.turn)]

    def legal_moves(self) -> list[Move]:
        if self.state.phase != MOVE:
            return []
        if self._moves is None:
            self._moves = self.rules.legal_moves(self.state)
        return self._moves

    def roll(self) -> tuple[int, ...]:
        """Resolve the chance node: the next dice the seat to move rolls."""
        if self.state.phase != ROLL:
            raise IllegalMove("it is not time to roll")
        return self._roll()

    def _roll(self) -> tuple[int, ...]:
        dice = self.dice.roll(self.state.turn, self.rules.dice_count)
        self.history.append(("roll", self.state.turn, dice))
        self.rules.roll(self.state, dice)
        self._moves = None
        self.steps.append((0, 1))
        if self._schedule:
            self._admit()
        return dice

    def play(self, index: int) -> Move:
        """Play the legal move at ``index`` of the canonical list."""
        moves = self.legal_moves()
        if self.state.phase != MOVE or not 0 <= index < len(moves):
            raise IllegalMove(f"no legal move number {index}")
        return self._play(moves, index)

    def _play(self, moves: list[Move], index: int) -> Move:
        move = moves[index]
        self.history.append(("move", self.state.turn, move))
        self._play_legal(self.state, move)
        self._moves = None
        self.steps.append((index, len(moves)))
        if self._schedule:
            self._admit()
        return move

    def claim(self, taken: bool) -> None:
        """At a claim point: take the re-roll (the same player rolls again) or let it go."""
        if self.state.phase != CLAIM:
            raise IllegalMove("there is no re-roll to claim")
        self.history.append(("claim" if taken else "miss", self.state.turn, None))
        self.rules.claim(self.state, taken)
        self.steps.append((0 if taken else 1, 2))
        if self._schedule:
            self._admit()

    def disqualify(self, seat: int) -> None:
        """Disqualify a seat now (rule sets with a ``disqualify``); the link records the step."""
        self.rules.disqualify(self.state, seat)
        self._moves = None

    def _admit(self) -> None:
        """Seat the players who joined, and disqualify those who went out, once the game had
        reached this many steps."""
        while self._schedule and self._schedule[0][0] <= len(self.steps):
            _, action, seat = self._schedule.pop(0)
            (self.rules.disqualify if action else self.rules.join)(self.state, seat)
            self._moves = None

    def step(self, index: int = 0):
        """Take the next step: roll at a chance node, claim (0) or miss (1) a re-roll at a claim
        point, otherwise play move ``index``."""
        phase = self.state.phase
        if phase == ROLL:
            return self.roll()
        if phase == CLAIM:
            if index not in (0, 1):
                raise IllegalMove("a re-roll is claimed (0) or missed (1)")
            return self.claim(index == 0)
        return self.play(index)

    def replay(self, reader: Reader, watch: Callable[["Match"], None] | None = None) -> "Match":
        """Apply every logged step; raises ``IllegalMove`` if the log does not fit the game.

        ``watch``, if given, is called after each step (the page's replay records positions).
        """
        state, take, legal_moves = self.state, reader.take, self.rules.legal_moves
        while reader.remaining:  # a logged index is always below its radix: no checks
            phase = state.phase
            if phase == ROLL:
                take(1)
                self._roll()
            elif phase == MOVE:
                moves = legal_moves(state)
                self._play(moves, take(len(moves)))
            elif phase == CLAIM:
                self.claim(reader.take(2) == 0)
            else:
                raise IllegalMove("the log goes on after the game ended")
            if watch:
                watch(self)
        return self
