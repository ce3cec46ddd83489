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

from .boards import RaceBoard
from .text import Text

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


class Words(NamedTuple):
    """What a game calls its pieces and places, in the messages players read (each marked for
    translation; "" where the game has no such thing)."""

    no_move: str = ""  # why a roll had no move while every piece is still to come out
    move: str = ""  # a move as its control says it: piece, from, to, with which dice
    enter: str = ""  # a move that brings a piece out, as its control says it
    players: str = ""  # how many players a table takes (a request for more or fewer is told)
    piece_at: str = ""  # one piece on its way
    at_start: str = ""  # how many are still to come out
    finished: str = ""  # how many are done
    sent_back: str = ""  # the news of a capture
    brought_home: str = ""  # the news of a piece finishing
    label_enter: str = ""  # a move that brings a piece out, as offered on the page
    label_move: str = ""  # a move along, as offered on the page
    said_enter: str = ""  # a move that brings a piece out, as the feed tells it
    said_move: str = ""  # a move along, as the feed tells it
    end_place: str = ""  # the end of the home path (a race board)
    path_place: str = ""  # a space of the home path (a race board)
    bonus: str = ""  # a bonus spent on one piece, as its control says it
    your_turn: str = ""  # the status line of a turn that starts with a roll


class RuleSet:
    """What a rule set provides: what it is, as class attributes the app asks instead of which
    game it is; the turn machinery the runner (``Match``) drives; its positions' notation and
    its moves and places in words.

    ``joins``: players may join a game in progress (``join``); ``disqualifies``: a seat that
    misses turns goes out (``disqualify``); ``rematches``: the host may start a rematch at the
    same table once the game is over, medals carried over; ``ranks``: the game goes on until
    every place is decided, not only the winner's; ``hosted``: a table has a host, whom the
    rematch and the players joining wait for. The turn machinery's default is one die: a
    roll with no possible move ends the move, but a 6 still rolls again.
    """

    name: ClassVar[str] = ""  # as links and the API name the game
    title: ClassVar[str] = ""  # the game's name as players say it (a Text: translated where shown)
    dice_count = 1
    pieces: ClassVar[int] = 4  # per seat
    joins: ClassVar[bool] = False
    disqualifies: ClassVar[bool] = False
    rematches: ClassVar[bool] = False
    ranks: ClassVar[bool] = False
    hosted: ClassVar[bool] = False
    # A live room's time for each roll and move (seconds; 0: no timer) unless its maker chooses,
    # and whether a table with a bot keeps it.
    move_seconds: ClassVar[int] = 0
    timed_with_bots: ClassVar[bool] = True
    boards: ClassVar[tuple[int, ...]] = (4,)  # the boards it is played on, by their seats
    words: ClassVar[Words] = Words()
    rules_version = 1  # new games get it; links of every version from 1 up still replay
    seat_dice_since: int | None = None  # the first version whose seats each roll their own dice

    @staticmethod
    def board_options(size: int) -> int:
        """The table options (the link's number) of a table on the board of ``size`` seats."""
        return 0

    def board_size(self) -> int:
        """The seats of this table's board."""
        raise NotImplementedError

    def table_settings(self) -> dict:
        """The table's settings as players see them ({}: none)."""
        return {}

    def initial(self, colors: tuple[int, ...], first: int):
        """Everyone's pieces at the start, ``first`` to roll; ``colors`` in turn order."""
        raise NotImplementedError

    def roll(self, state, dice) -> None:
        """The seat to move rolled ``dice``."""
        if state.phase != ROLL:
            raise IllegalMove("it is not time to roll")
        (state.die,) = dice
        state.phase, state.moves = MOVE, None
        if not self.legal_moves(state):
            self._end_move(state, state.die == 6)

    def legal_moves(self, state) -> list[Move]:
        """The moves of the seat to move, in the canonical order the log's indices count."""
        raise NotImplementedError

    def play(self, state, move: Move) -> None:
        """Play a legal move."""
        raise NotImplementedError

    def _end_move(self, state, again: bool) -> None:
        """The move is over: the same player rolls again (``again``), or the turn passes."""
        raise NotImplementedError

    def claim(self, state, taken: bool) -> None:
        """At a claim point: the re-roll taken, or let go (rule sets with claim points)."""
        raise NotImplementedError

    def join(self, state, seat: int) -> None:
        """A waiting seat's player joins the game in progress (``joins``)."""
        raise NotImplementedError

    def disqualify(self, state, seat: int) -> None:
        """A seat goes out of the game (``disqualifies``)."""
        raise NotImplementedError

    def landing(self, state, move: Move) -> tuple[int | None, list]:
        """What a legal move changes, for bots that weigh moves without copying the position:
        the seat that wins with it or None, and ``(seat, pieces after)`` for each seat it
        changes."""
        raise NotImplementedError

    def to_play(self, state) -> list[int]:
        """The values still to play (the die)."""
        return [state.die]

    def placed(self, state) -> tuple[int, ...]:
        """The seats in the order they finished: the winner, once there is one."""
        return () if state.winner is None else (state.winner,)

    def out(self, state) -> tuple[int, ...]:
        """The seats disqualified, in the order they went out."""
        return ()

    def waiting(self, state) -> frozenset[int]:
        """The seats whose players join later."""
        return frozenset()

    def doubles(self, state) -> int:
        """How many doubles the seat to move has rolled in a row."""
        return 0

    # -- notation and words ----------------------------------------------------------------------

    def format(self, state) -> str:
        """The position in notation (``docs/notation.md``)."""
        raise NotImplementedError

    def parse(self, text: str):
        """Read a position written by ``format``; ``ValueError`` on a malformed one."""
        raise NotImplementedError

    def describe(self, state, move: Move) -> str:
        """A move in notation words for logs and the command line, e.g. ``y 10-13 3``."""
        return self.move_text(state.colors[state.turn], move)

    def move_text(self, color: int, move: Move) -> str:
        """``describe`` for a move by ``color`` (history entries know the seat, not the state)."""
        raise NotImplementedError

    def move_label(self, color: int, move: Move) -> str:
        """A move in a player's words, for the page."""
        raise NotImplementedError

    def move_said(self, color: int, move: Move, who: str) -> str:
        """A move as the feed tells it, ``who`` its player."""
        raise NotImplementedError

    def move_path(self, color: int, move: Move) -> tuple[int, ...]:
        """The places a move goes through, as its arrow is drawn."""
        if move.src < 0:
            return (move.src, move.dst)
        return tuple(range(move.src, move.dst + 1))

    def place_words(self, color: int, place: int, bare: bool = True) -> str:
        """A ``color`` piece's ``place`` in a player's words: a square's bare number as moves
        say it, or (``bare`` False) "square 14" as a position does."""
        raise NotImplementedError

    def piece_at(self, color: int, k: int, place: int) -> str:
        """Piece ``k`` of ``color`` on its way, in words."""
        return Text(self.words.piece_at, n=k + 1, place=self.place_words(color, place, False))

    def finished(self, color: int, place: int) -> bool:
        """Whether a ``color`` piece at ``place`` is done."""
        raise NotImplementedError

    def to_go(self, color: int, place: int) -> int:
        """How far a ``color`` piece at ``place`` still has to go, the plain way round."""
        raise NotImplementedError

    def sheltered(self, color: int, place: int) -> bool:
        """Whether nothing can capture a ``color`` piece at ``place``."""
        return False


class Race(RuleSet):
    """A rule set on a race board (``boards.RaceBoard``: Parcheesi, Ludo): its places'
    notation and words, which the two games share."""

    board: RaceBoard
    end: ClassVar[str] = ""  # the notation of the end of the home path
    entry: ClassVar[str] = ""  # the notation of a move that brings a piece out

    def board_size(self) -> int:
        return len(self.board.entries)

    def place_text(self, color: int, p: int) -> str:
        """A place in notation."""
        return self.board.square_text(color, p, self.end)

    def place_of(self, color: int, text: str) -> int:
        """The place ``place_text`` wrote; ``ValueError`` for one that isn't."""
        return self.board.progress_of(color, text, self.end)

    def move_text(self, color: int, move: Move) -> str:
        letter = self.board.colors[color].lower()
        used = "+".join(map(str, move.values))
        if move.src < 0:
            return f"{letter} {self.entry} {used}"
        return f"{letter} {self.place_text(color, move.src)}-{self.place_text(color, move.dst)} " \
               f"{used}"

    def move_label(self, color: int, move: Move) -> str:
        words = self.words
        return Text(words.label_enter if move.src < 0 else words.label_move,
                    **self._move_places(color, move))

    def move_said(self, color: int, move: Move, who: str) -> str:
        words = self.words
        return Text(words.said_enter if move.src < 0 else words.said_move, who=who,
                    **self._move_places(color, move))

    def _move_places(self, color: int, move: Move) -> dict:
        """A move's values as its words fill them in: the dice ``used``, or the ``die``."""
        places: dict = {"used": " + ".join(map(str, move.values)), "die": move.values[0]}
        if move.src >= 0:
            places["src"] = self.place_words(color, move.src)
            places["dst"] = self.place_words(color, move.dst)
        return places

    def place_words(self, color: int, place: int, bare: bool = True) -> str:
        board = self.board
        if place == board.home:
            return Text(self.words.end_place)
        if place > board.last:
            return Text(self.words.path_place, n=place - board.last)
        square = board.cell(color, place)
        return str(square) if bare else Text("square %(n)s", n=square)

    def finished(self, color: int, place: int) -> bool:
        return place == self.board.home

    def to_go(self, color: int, place: int) -> int:
        return self.board.home - max(place, -1)

    def sheltered(self, color: int, place: int) -> bool:
        board = self.board
        return place > board.last or board.cell(color, place) in board.safe


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
    that ``joins`` take such seats. ``out`` gives, per seat, the step at which it was
    disqualified (0: never); only rule sets that ``disqualifies`` do that.
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
        """Disqualify a seat now (rule sets that ``disqualifies``); the link records the step."""
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
