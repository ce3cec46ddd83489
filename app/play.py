"""The play service: where links meet the rules. Web handlers and the command line both use it.

A ``Game`` is a decoded link replayed through the engine. It can take the next step, and it gives
the link for the position it has reached.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass, field, replace

from app import claims, link
from app.engine.core import CLAIM, MOVE, OVER, ROLL, IllegalMove, Match
from app.engine.dice import TableDice, commitment, game_secret
from app.engine.games import default_colors, rules_for
from app.engine.text import N_
from app.keys import Keys
from app.link import Header, Seat


class TurnError(ValueError):
    """A submitted step that can't be played; the message is fit to show the player."""


class ClaimMissed(TurnError):
    """A re-roll claimed after its 5 seconds: the player lets it go ("miss") instead."""


@dataclass
class Game:
    """A game and the link it came from. Methods named by a verb (``step``, ``play_turn``,
    ``play_forced``, ``hand_on``, ``play_bots``, ``play_for``, ``play_for_absent``) change this
    game in place, its header too; ``replaced``, the participles and ``with_*`` (``stamped``,
    ``restarted``, ``rematched``, ``with_seats``, ``with_player``, ``with_player_back``)
    return a new Game and leave this one as it was. A new Game shares this one's match unless
    it replays: play on one of them only."""

    header: Header
    match: Match
    keys: Keys
    source: str = ""  # the link this game was read from: claim tickets belong to it
    turn_steps: list = field(default_factory=list)  # steps played here, receipts for tickets

    @classmethod
    def new(cls, game: str, seats: list[Seat], keys: Keys, seed: bytes | None = None,
            options: int = 0, by_hand: bool = False) -> "Game":
        """A fresh game; ``seed`` defaults to 8 random bytes (tests pass their own);
        ``by_hand``: its players take every step themselves (``Header.by_hand``)."""
        rules = rules_for(game, options)
        seed = secrets.token_bytes(link.SEED_BYTES) if seed is None else seed
        header = Header(game=game, seats=tuple(seats), seed=seed, options=options,
                        rules_version=rules.rules_version, by_hand=by_hand)
        return cls(header, new_match(header, game_secret(keys.dice, seed)), keys)

    @classmethod
    def from_token(cls, token: str, keys: Keys, watch=None) -> "Game":
        """Verify and replay a link; raises a ``link.LinkError`` subclass when it can't be played.

        ``watch`` is called after every replayed step (see ``Match.replay``).
        """
        header, reader = link.decode(token, keys)
        secret = game_secret(keys.dice, header.seed)
        return cls(header, replay(header, reader, secret, watch), keys, token)

    def replaced(self, match: Match | None = None, **changes) -> "Game":
        """A new Game with ``changes`` to the header (``Header``'s fields), and ``match`` when
        given: the same link it was read from (``source``: claim tickets belong to it), and the
        turn's ``turn_steps`` unless the match is new."""
        if match is None:
            return Game(replace(self.header, **changes), self.match, self.keys, self.source,
                        self.turn_steps)
        return Game(replace(self.header, **changes), match, self.keys, self.source)

    # -- reading ---------------------------------------------------------------------------

    @property
    def rules(self):
        return self.match.rules

    @property
    def state(self):
        return self.match.state

    @property
    def over(self) -> bool:
        return self.match.phase == OVER

    def position(self) -> str:
        """The current position in notation (docs/notation.md)."""
        return self.rules.format(self.state)

    def commitment(self) -> str:
        """The hash of this game's dice secret, shown from the first move on."""
        return commitment(game_secret(self.keys.dice, self.header.seed))

    def revealed_secret(self) -> str | None:
        """The dice secret in hex once the game is over (never before: it decides every roll)."""
        return game_secret(self.keys.dice, self.header.seed).hex() if self.over else None

    def token(self) -> str:
        """The signed link for the position reached."""
        return link.encode(self.header, self.match.steps, self.keys)

    # -- playing -----------------------------------------------------------------------------

    def step(self, index: int = 0):
        """Roll (at a chance node) or play the legal move at ``index``."""
        return self.match.step(index)

    def play_turn(self, seat: int, steps: list, now: float | None = None, watch=None) -> bool:
        """Play a player's steps: ``"roll"``, a move ``{"from", "to", "values"}`` (rule-set
        places, as the API lists them), and at a claim point ``{"claim": ticket}`` (checked
        against the clock, ``now``), ``{"claimed": receipt}`` or ``"miss"``. Every step is
        checked; the first that can't be played raises ``TurnError`` (callers then drop this
        Game: its link is unchanged). ``turn_steps`` lists the steps played, each ticket
        replaced by its receipt.

        Returns True when the turn is over (the next seat is to roll, or the game ended);
        ``watch`` is called after every step, as in ``play_bots``.
        """
        if self.over:
            raise TurnError(N_("This game is over."))
        if self.match.turn != seat:
            raise TurnError(N_("It is not this player's turn."))
        for step in steps:
            if self.over or self.match.turn != seat:
                raise TurnError(N_("The turn is already over: there is nothing more to play."))
            if self.match.phase == CLAIM:
                step = self._claim(step, time.time() if now is None else now)
            elif step == "roll":
                if self.match.phase != ROLL:
                    raise TurnError(N_("The dice are already rolled: play them first."))
                self.match.roll()
            else:
                self.match.play(self._index_of(step))
            self.turn_steps.append(step)
            if watch:
                watch(self.match)
        return self.over or self.match.turn != seat

    def fixed(self, start: int) -> list[tuple[int, int]]:
        """The decisions since step ``start`` (a turn in progress on this link) that can no
        longer be taken back: up to the last roll shown after a choice of this turn, or the
        last re-roll claimed or let go. A player who has seen a roll must not choose again
        what came before it (their next die is the same whatever they choose: seeing it
        first would be choosing with it), and a claim, once made, stands."""
        steps, history = self.match.steps, self.match.history
        chosen, end = False, start
        for k in range(start, len(steps)):
            kind = history[k][0]
            if (kind == "roll" and chosen) or kind in ("claim", "miss"):
                end = k + 1
            chosen = chosen or steps[k][1] > 1
        return steps[start:end]

    def steps_since(self, start: int) -> list:
        """The steps since step ``start`` as a page sends them (``play_turn``'s words, a
        receipt for each re-roll claimed): what a page opening this link mid-turn plays
        again."""
        said = []
        for k in range(start, len(self.match.steps)):
            kind, _, move = self.match.history[k]
            if kind == "move":
                said.append({"from": move.src, "to": move.dst, "values": list(move.values)})
            elif kind == "claim":
                binding = claims.game_binding(self.source, self.match.steps[:k])
                said.append({"claimed": claims.receipt(self.keys, binding)})
            else:
                said.append(kind)  # "roll" or "miss"
        return said

    def play_forced(self, seat: int, watch=None) -> bool:
        """The rest of ``seat``'s turn that has no alternative, played for them as ``hand_on``
        does, the steps added to ``turn_steps``; returns True when the turn is over."""
        match = self.match
        while match.turn == seat and self._forced_step():
            if watch:
                watch(match)
            kind, _, move = match.history[-1]
            self.turn_steps.append("roll" if kind == "roll" else
                                   {"from": move.src, "to": move.dst, "values": list(move.values)})
        return self.over or match.turn != seat

    def hand_on(self, watch=None) -> int:
        """Play on until a person has a decision to make, or the game ends: the bots' turns
        and those of players away (``play_bots``), and, unless the table plays by hand, every
        step of a person's turn that has no alternative: the roll (the dice are fixed, so
        rolling is never a choice), a single legal move; a roll with no move ends the turn by
        itself. A re-roll claim is the player's own act: play stops there. Returns how many
        steps were taken; ``watch`` as in ``play_bots``."""
        taken = self.play_bots(watch)
        while not self.header.by_hand and self._forced_step():
            taken += 1
            if watch:
                watch(self.match)
            taken += self.play_bots(watch)
        return taken

    def _forced_step(self) -> bool:
        """Take the next step if it has no alternative (a roll, the one legal move)."""
        match = self.match
        if match.phase == ROLL:
            match.roll()
        elif match.phase == MOVE and len(match.legal_moves()) == 1:
            match.play(0)
        else:
            return False
        return True

    def people_played(self, before: int | None = None) -> bool:
        """Whether a person took a step of their own (before step ``before``): bots' steps,
        and those played for a person with nothing to decide, are nobody's choice."""
        seats, steps = self.header.seats, self.match.steps
        return any(not seats[seat].bot and (self.header.by_hand or steps[i][1] > 1)
                   for i, (_, seat, _) in enumerate(self.match.history[:before]))

    def restarted(self) -> "Game":
        """The same table back at its first step (a table still being set, where nobody has
        played a step of their own: ``people_played``); ``hand_on`` plays it on again."""
        return self.replaced(new_match(self.header, game_secret(self.keys.dice, self.header.seed)))

    def forced_turn(self, start: int, end: int) -> bool:
        """Whether the steps ``start`` to ``end`` (one person's turn) were played for them
        because none had an alternative: never at a table that plays by hand."""
        return not self.header.by_hand and \
            all(radix == 1 for _, radix in self.match.steps[start:end])

    def play_bots(self, watch=None) -> int:
        """Play the bots' turns from here until a human is to move or the game ends (a table
        of bots plays to the end); returns how many steps they took. Bots claim every re-roll.
        Their choices come from the game's seed and each decision's index, so replaying the
        link replays them. Players who are away (``away``) are played for as medium bots too,
        as long as someone else is still playing: their turns are marked as played for them.
        ``watch`` is called after every step (as in ``Match.replay``)."""
        from app.engine import bots

        seats, away = self.header.seats, self.away()
        if not any(not s.bot and i not in away and self._playing(i) for i, s in enumerate(seats)):
            away = set()  # nobody left to play against: the game waits for its deadline

        def strength_of(seat):
            return bots.BOT_LEVELS.get(seats[seat].bot) or ("medium" if seat in away else None)

        return self._play_as_bots(strength_of, watch, absent=away)

    def _play_as_bots(self, strength_of, watch=None, absent=()) -> int:
        """Play while ``strength_of(seat to move)`` names a bot strength (None: stop). The turns
        of seats in ``absent`` are recorded as played for them (``Header.auto``)."""
        from app.engine import bots

        match, taken, mover, auto = self.match, 0, None, list(self.header.auto)
        while match.phase != OVER and (strength := strength_of(match.turn)):
            if match.turn in absent and match.turn != mover:
                auto.append(len(match.steps))
            mover = match.turn
            if match.phase == ROLL:
                match.roll()
            elif match.phase == CLAIM:
                match.claim(True)
            else:
                seed = bots.decision_seed(self.header.seed, len(match.steps))
                match.play(bots.choose(strength, self.rules, match.state, seed))
            taken += 1
            if watch:
                watch(match)
        if len(auto) > len(self.header.auto):
            self.header = replace(self.header, auto=tuple(auto))
        return taken

    # -- turn deadlines and absent players --------------------------------------------------------

    def stamped(self, now: float) -> "Game":
        """The same game with this link's turn starting at ``now`` (seconds since 1970, the
        server's clock): what its deadline counts from. Games without a deadline are unchanged."""
        if not self.header.deadline:
            return self
        return self.replaced(since=int(now // 60))

    def due_at(self) -> float | None:
        """When the player to move runs out of time (seconds since 1970), or None."""
        if not self.header.deadline or self.over:
            return None
        return (self.header.since + self.header.deadline) * 60.0

    def _playing(self, seat: int) -> bool:
        """Whether the seat still takes turns (not finished, disqualified or yet to join)."""
        rules, state = self.rules, self.state
        return self.match.phase != OVER and seat not in rules.placed(state) and \
            seat not in rules.out(state) and seat not in rules.waiting(state)

    def missed(self, seat: int) -> int:
        """How many of the seat's turns in a row, up to now, were played for them (since they
        last said "I'm back"): a turn counts once a step of it was played for them. A turn in
        progress that nobody played for them yet doesn't count either way, nor does a turn
        with nothing to decide (``forced_turn``): it says nothing of whether they are there."""
        if not self.header.auto:
            return 0
        back = max((step for step, who in self.header.back if who == seat), default=-1)
        auto = self.header.auto
        turns, start = [], 0  # the seat's turns: [start, end) step ranges
        history = self.match.history
        for step in range(1, len(history) + 1):
            if step == len(history) or history[step][1] != history[start][1]:
                if history[start][1] == seat:
                    turns.append((start, step))
                start = step
        count = 0
        for start, end in reversed(turns):
            if end <= back:
                break
            if self.forced_turn(start, end) and not any(start <= a < end for a in auto):
                continue  # nothing to decide: played for them, neither missed nor answered
            if any(start <= a < end for a in auto):
                count += 1
            elif end < len(history) or self.match.turn != seat:
                break  # a turn they played themselves (not one still in progress)
        return count

    def away(self) -> set[int]:
        """Parcheesi and Red Arse: the human players who missed two turns in a row and haven't
        said "I'm back": the server plays every turn of theirs (Ludo disqualifies instead)."""
        if not self.header.auto or self.rules.disqualifies:
            return set()
        return {i for i, s in enumerate(self.header.seats)
                if not s.bot and self._playing(i) and self.missed(i) >= AWAY_AFTER}

    def with_player_back(self, seat: int) -> "Game":
        """The same game with the player back: their turns are theirs to play again (recorded
        in the link)."""
        if self.over:
            raise TurnError(N_("This game is over."))
        if seat not in self.away():
            raise TurnError(N_("That player isn't being played for."))
        # (step, seat) pairs in order: two players back at one step go by seat
        return self.replaced(back=tuple(sorted((*self.header.back, (len(self.match.steps), seat)))))

    def play_for_absent(self, now: float, watch=None) -> None:
        """After the deadline, the server plays the absent player's turn as a medium bot
        would, then any bots (and players away) after it; the link records that turn as played
        for them, and the next turn starts at ``now``. Ludo: the third expiry in a row
        disqualifies the player instead."""
        due = self.due_at()
        if self.over:
            raise TurnError(N_("This game is over."))
        if due is None:
            raise TurnError(N_("This game has no turn deadline."))
        if now < due:
            raise TurnError(N_("The player still has time for this turn."))
        self.play_for(self.match.turn, watch)
        self.header = replace(self.header, since=int(now // 60))

    def play_for(self, seat: int, watch=None) -> None:
        """The rest of ``seat``'s turn, played for them as a medium bot would and recorded so
        (a link's deadline, a room's timer), then the bots' turns after it. Ludo: the third
        expiry in a row disqualifies the player instead."""
        if self.rules.disqualifies and self.missed(seat) + 1 >= DISQUALIFY_AFTER:
            self._disqualify(seat)
        else:
            self._play_as_bots(lambda turn: "medium" if turn == seat else None, watch, {seat})
        self.play_bots(watch)

    def _disqualify(self, seat: int) -> None:
        seats = list(self.header.seats)
        seats[seat] = replace(seats[seat], out=len(self.match.steps))
        self.header = replace(self.header, seats=tuple(seats))
        self.match.disqualify(seat)

    def claim_ticket(self, now: float) -> str:
        """The ticket for claiming the re-roll at this claim point, issued at ``now``."""
        if self.match.phase != CLAIM:
            raise TurnError(N_("There is no re-roll to claim."))
        return claims.ticket(self.keys, self.claim_point(), now)

    def claim_point(self) -> str:
        """This claim point's name (a digest of the link and every step since): a ticket
        belongs to it, and the server remembers when it was first shown."""
        return claims.game_binding(self.source, self.match.steps)

    def _claim(self, step, now: float):
        """Claim or let go the re-roll; returns the step as ``turn_steps`` keeps it."""
        if step == "miss":
            self.match.claim(False)
            return step
        if not isinstance(step, dict) or not ({"claim"} == step.keys() or
                                              {"claimed"} == step.keys()):
            raise TurnError(N_("Claim the re-roll or let it go first."))
        try:
            if "claim" in step:
                step = {"claimed": claims.receipt_for(self.keys, self.claim_point(), step["claim"],
                                                      now)}
            else:
                claims.check_receipt(self.keys, self.claim_point(), step["claimed"])
        except claims.ClaimMissed as error:
            raise ClaimMissed(*error.args) from None  # the message, still marked for translation
        except claims.ClaimError as error:
            raise TurnError(*error.args) from None
        self.match.claim(True)
        return step

    def _index_of(self, step) -> int:
        if self.match.phase != MOVE:
            raise TurnError(N_("Roll the dice first."))
        try:
            wanted = (step["from"], step["to"], tuple(step["values"]))
        except (TypeError, KeyError):
            wanted = None
        if wanted is None or not isinstance(step["values"], list) or \
                not all(type(n) is int for n in (*wanted[:2], *wanted[2])):
            raise TurnError(N_("A move names where a piece goes from and to (whole numbers), "
                               "and the list of values it uses."))
        for index, move in enumerate(self.match.legal_moves()):
            if (move.src, move.dst, move.values) == wanted:
                return index
        raise TurnError(N_("That move is not allowed here."))

    def with_player(self, seat: Seat) -> "Game":
        """The same game with a new player in a free seat (Ludo): four pieces at home, playing
        when the turn order reaches them. Before the first step they simply sit at the table."""
        if not self.rules.joins:
            raise TurnError(N_("This game takes no new players once it has started."))
        if self.over:
            raise TurnError(N_("This game is over."))
        seats = list(self.header.seats)
        if len(seats) >= self.rules.capacity:
            raise TurnError(N_("Every seat at this table is taken."))
        if seat.color in [s.color for s in seats]:
            raise TurnError(N_("That color is taken."))
        host = seats[self.header.host]
        seats.append(replace(seat, joined=len(self.match.steps), medals=(0, 0, 0)))
        seats.sort(key=lambda s: s.color)  # turn order: around the board
        header = replace(self.header, seats=tuple(seats), host=seats.index(host))
        count, data = link.pack_log(self.match.steps)
        match = replay(header, link.LogReader(count, data),
                       game_secret(self.keys.dice, header.seed))
        return self.replaced(match, seats=header.seats, host=header.host)

    def rematched(self, seed: bytes | None = None, options: int | None = None) -> "Game":
        """A new game at the same table once this one is over: same seats (latecomers
        included), host and language, a new seed, and the medals won here added to the
        table's count. ``options`` changes the table (Ludo: its size, so the board too);
        medals count across every table size."""
        if not self.over:
            raise TurnError(N_("The game isn't over yet."))
        if options is None:
            options = self.header.options
        else:
            rules = rules_for(self.header.game, options)
            if rules.capacity < len(self.header.seats) or \
                    any(s.color >= len(rules.board.color_names) for s in self.header.seats):
                raise TurnError(N_("The new table must seat everyone at this one, in their "
                                   "colors."))
        won = medals(self.rules.placed(self.state), len(self.header.seats),
                     self.rules.out(self.state))
        seats = [replace(s, joined=0, out=0, medals=tuple(a + b for a, b in zip(s.medals, won[i])))
                 for i, s in enumerate(self.header.seats)]
        game = Game.new(self.header.game, seats, self.keys, seed, options)
        return game.replaced(lang=self.header.lang, host=self.header.host,
                             by_hand=self.header.by_hand)

    def with_seats(self, seats: list[Seat]) -> "Game":
        """The same game with changed seat details (names, phones); colors can't change."""
        if [s.color for s in seats] != [s.color for s in self.header.seats]:
            raise ValueError("seats keep their colors")
        # When they joined or went out and their medals are the table's record, not the page's.
        seats = [replace(new, joined=old.joined, out=old.out, medals=old.medals)
                 for new, old in zip(seats, self.header.seats)]
        return self.replaced(seats=tuple(seats))


def new_match(header: Header, secret: bytes) -> Match:
    """The match a header starts, its dice drawn from the game's dice ``secret``: one stream
    for the table, or one per seat from the rules version that gives each seat its own."""
    try:
        rules = rules_for(header.game, header.options)
    except (KeyError, ValueError):
        raise link.UnknownVersion(N_("This link is for a game this version of Boardpass "
                                     "can't play yet.")) from None
    version, since = header.rules_version, rules.seat_dice_since
    if not 1 <= version <= rules.rules_version:
        raise link.UnknownVersion(
            N_("This link was made for another version of the rules and can't be replayed."))
    try:
        joined = tuple(s.joined for s in header.seats)
        if any(joined) and not rules.joins:
            raise ValueError("this game takes no players once it has started")
        out = tuple(s.out for s in header.seats)
        if any(out) and not rules.disqualifies:
            raise ValueError("this game disqualifies nobody")
        colors = tuple(s.color for s in header.seats)
        dice = TableDice(secret, colors, per_seat=since is not None and version >= since)
        return Match(rules, colors, dice, joined, out)
    except ValueError:  # seats the rules refuse (count, colors): signed, but not a game
        raise link.MalformedLink() from None


def replay(header: Header, reader, secret: bytes, watch=None) -> Match:
    """Replay a decoded log; a log the rules refuse raises ``link.IllegalLog``."""
    match = new_match(header, secret)
    try:
        match.replay(reader, watch)
    except IllegalMove as error:
        raise link.IllegalLog() from error
    reader.finish()
    return match


def auto_steps(history: list, auto) -> set[int]:
    """The steps of turns played for absent players: from each step in ``auto`` (the link's
    ``header.auto``) until the turn passes to another seat.

    >>> sorted(auto_steps([("roll", 0, 0), ("roll", 1, 0), ("move", 1, 0), ("roll", 0, 0)], (1,)))
    [1, 2]
    """
    marked = set()
    for start in auto:
        i = start
        while i < len(history) and history[i][1] == history[start][1]:
            marked.add(i)
            i += 1
    return marked


def medals(placed: tuple[int, ...], seats: int, out=()) -> list[tuple[int, int, int]]:
    """Each seat's (gold, silver, bronze) from a finished game's placings: places 1 to 3, never
    the last place (two players: gold only); seats not placed and the disqualified (``out``)
    win none (DECISIONS, Ludo 7).

    >>> medals((2, 0, 1), 4)
    [(0, 1, 0), (0, 0, 0), (1, 0, 0), (0, 0, 0)]
    >>> medals((2, 0, 3, 1), 4, out=(1, 3))
    [(0, 1, 0), (0, 0, 0), (1, 0, 0), (0, 0, 0)]
    """
    won = [(0, 0, 0)] * seats
    for place, seat in enumerate(placed[: min(3, len(placed) - 1)]):
        if seat not in out:
            won[seat] = tuple(int(place == k) for k in range(3))
    return won


AWAY_AFTER = 2  # Parcheesi and Red Arse: turns missed in a row before every turn is played for them
DISQUALIFY_AFTER = 3  # Ludo: expired turns in a row that disqualify


def simulation_seed(seed: int | str, number: int) -> bytes:
    """The seed of game ``number`` of a reproducible simulation run."""
    return hashlib.sha256(f"{seed}/{number}".encode()).digest()[: link.SEED_BYTES]


PLAYER_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")


def demo_seats(game: str, players: int, options: int = 0) -> list[Seat]:
    """Named human seats in the default colors, for simulations and benchmarks."""
    colors = default_colors(game, players, options)
    return [Seat(name=PLAYER_NAMES[i], color=c) for i, c in enumerate(colors)]


__all__ = ["Game", "Seat", "TurnError", "ClaimMissed", "ROLL", "OVER", "simulation_seed", "demo_seats"]
