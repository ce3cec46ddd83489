"""How far each game has got, kept in the store: so only the newest link plays, a repeated
request gets the same answer, a deadline counts from when a link reached its player, and "I'm
back" is never lost.

One entry per game, under its seed: the newest link (the token itself, to tell it from older
ones and to answer a repeated request with the same link, never shown to the holder of an older
one), its step and
seat to move, the link and request it was made from, who made it and who made the game (digests
of the browser's ``device`` cookie), when it first reached its player, the players who said "I'm back" since,
and the decisions of its turn in progress that a roll shown has fixed.
The game itself stays in the link: losing this entry loses no game, and every write is a
compare-and-swap on the entry's version, so of two requests racing from one link exactly one
moves the game on.

A link is *current* when it is the newest the store knows of, or when the store knows of no
link of its game as far on (a game it never recorded, or whose entry expired). Anything
else is an older link: read-only.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass

from app.store import Entry, Store

ENTRY_DAYS = 365  # a game's entry lives this long after its newest link was made
BEGIN_DAYS = 7  # a new game's, until its first link is played (creating games costs no more)
DAY = 24 * 3600
CLAIM_POINTS = 8  # claim points of a turn in progress remembered (a turn reaches one or two)


def digest(text: str) -> str:
    """A short digest of a link, a request or a device: enough to tell them apart, nothing
    more (16 characters, 96 bits).

    >>> digest("abc")
    'ungWv48Bz-pBQUDe'
    """
    return base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()[:12]).decode()


def request_digest(kind: str, body: dict) -> str:
    """What makes two requests "the same request": their kind and their whole JSON body."""
    return digest(kind + json.dumps(body, sort_keys=True, separators=(",", ":")))


@dataclass(frozen=True)
class Standing:
    """Where a link stands in its game, as the store has it."""

    key: str
    token: str  # this link
    step: int  # this link's steps
    turn: int | None  # this link's seat to move (None: the game is over)
    entry: Entry | None
    seats: int | None = None  # this link's seats (None: not said)

    @property
    def data(self) -> dict:
        return self.entry.data if self.entry else {}

    @property
    def link(self) -> str:
        """This link's digest, as an entry names the link its newest was made from."""
        return digest(self.token)

    @property
    def current(self) -> bool:
        """The newest link, or further on than it: more steps, or more seats (a Ludo player
        added before anyone chose starts the table again: fewer steps, one more seat)."""
        if self.entry is None or self.known:
            return True
        seats = self.data.get("seats")
        if seats is not None and self.seats is not None and self.seats != seats:
            return self.seats > seats
        return self.step > self.data["step"]

    @property
    def known(self) -> bool:
        """Whether the store has this very link as the newest (not only "nothing newer")."""
        return self.entry is not None and self.data["token"] == self.token

    def repeats(self, ask: str, device: str | None) -> bool:
        """Whether the newest link was made from this one by this very request, from the same
        browser: a double tap or a retry, answered with the same link (and nothing sent again).
        From any other browser it is an older link like any other: the newest link is the next
        player's, and a request is easy to guess."""
        return not self.current and self.data.get("from") == self.link and \
            self.data.get("ask") == ask and device is not None and \
            self.data.get("by") == digest(device)

    def made_by(self, device: str | None) -> bool:
        """Whether the browser ``device`` made this (known) link: the API without a cookie
        made it when nobody did."""
        return self.known and self.data.get("by") == (digest(device) if device else None)

    def game_made_by(self, device: str | None) -> bool:
        """Whether the browser ``device`` made the game (its first link): the host's phone,
        which a finished Ludo game offers the rematch."""
        return device is not None and self.data.get("made") == digest(device)

    @property
    def opened(self) -> float | None:
        """When this (current) link first reached its player: texted, or opened by another
        browser than the one that made it. None: not yet (or not known)."""
        return self.data.get("opened") if self.known else None

    @property
    def room(self) -> str | None:
        """The code of the live room this game is played in: its links no longer play."""
        return self.data.get("room")

    @property
    def fixed(self) -> list[tuple[int, int]]:
        """The decisions of this (newest) link's turn in progress that a roll shown has fixed
        (``Game.fixed``): every later request on the link must play them first."""
        return [tuple(step) for step in self.data.get("fixed", [])] if self.known else []

    @property
    def claims(self) -> dict[str, float]:
        """When each claim point of this (newest) link's turn in progress was first shown, by
        its name (``Game.claim_point``)."""
        return dict(self.data.get("claims", {})) if self.known else {}

    @property
    def backs(self) -> list[int]:
        """Seats that said "I'm back" since the newest link was made: this link applies them."""
        return list(self.data.get("backs", [])) if self.current else []


class Ledger:
    def __init__(self, store: Store):
        self.store = store

    def standing(self, seed: bytes, token: str, step: int, turn: int | None,
                 seats: int | None = None) -> Standing:
        """Where the link ``token`` (of the game ``seed``, at ``step`` with ``turn`` to move,
        and ``seats``) stands: one read."""
        key = "game#" + seed.hex()
        return Standing(key, token, step, turn, self.store.get(key), seats)

    def again(self, standing: Standing) -> Standing:
        """The same link's standing read anew (after a write another request won)."""
        return Standing(standing.key, standing.token, standing.step, standing.turn,
                        self.store.get(standing.key), standing.seats)

    def newest(self, standing: Standing) -> Standing | None:
        """The standing of the newest link of ``standing``'s game (None when the store doesn't
        hold it): where a player reading an older link says "I'm back"."""
        token = standing.data.get("token")
        if standing.current or not token:
            return None
        data = standing.data
        return Standing(standing.key, token, data["step"], data["turn"], standing.entry,
                        data.get("seats"))

    def begin(self, seed: bytes, token: str, step: int, turn: int | None,
              device: str | None, room: str | None = None,
              seats: int | None = None) -> Standing | None:
        """Record a new game's first link (of ``seats``), made by ``device`` (whose opening it
        isn't an arrival); ``room``: the game is played in that live room, not by links."""
        first = Standing("game#" + seed.hex(), token, step, turn, None, seats)
        by = digest(device) if device else None
        data = dict(self._newest(first), by=by, made=by)
        if room:  # its links must stay read-only as long as any could be around
            data["room"] = room
        return self._write(first, data, ENTRY_DAYS if room else BEGIN_DAYS)

    def into_room(self, standing: Standing, room: str) -> Standing | None:
        """The game at the current link ``standing`` goes on in the live room ``room``: from
        now on its links are read-only, wherever they are."""
        return self._write(standing, dict(self._newest(standing), room=room))

    def advance(self, standing: Standing, ask: str, token: str, step: int, turn: int | None,
                start: int, device: str | None, applied=(),
                seats: int | None = None, fixed=()) -> Standing | None:
        """Record ``token`` (``step`` steps, ``turn`` to move or None once over) as the game's
        newest link, made from the link ``standing`` is about by the request ``ask``; ``start``
        is where the steps the server played (bots) began, for answering a repeat. Returns the
        new link's standing, or None when another request moved the game on first (nothing was
        written). Every write below answers the same way. "I'm back"s other than the
        ``applied`` ones (said since the link was read) wait for the new link, and so do
        ``fixed``, the decisions of its turn in progress a roll shown has fixed (a link made
        mid-turn: the host added a player, the table's language changed)."""
        data = {"token": token, "step": step, "turn": turn, "from": standing.link, "ask": ask,
                "start": start, "by": digest(device) if device else None, "opened": None,
                "backs": [seat for seat in standing.backs if seat not in applied],
                "made": standing.data.get("made")}
        if seats is not None:
            data["seats"] = seats
        if fixed:
            data["fixed"] = [list(step) for step in fixed]
        return self._write(standing, data)

    def reached(self, standing: Standing, when: float, device: str | None = None,
                texted: bool = False) -> Standing | None:
        """The current link reached its player at ``when``: we texted it (``texted``) or a
        browser opened it, unless it is the browser that made it (the sender holds the link too,
        and their clock must not start anyone's time). Only the first arrival counts."""
        if not standing.current or standing.opened is not None:
            return None
        if not texted and device is not None and standing.data.get("by") == digest(device):
            return None
        data = self._newest(standing)
        data["opened"], data["texted"] = int(when), texted
        return self._write(standing, data)

    def fix(self, standing: Standing, decisions: list[tuple[int, int]]) -> Standing | None:
        """Record that the current link's turn in progress has shown a roll after these
        ``decisions``: they are the turn's from now on. Written before the roll is answered."""
        data = self._newest(standing)
        data["fixed"] = [list(step) for step in decisions]
        return self._write(standing, data)

    def claim_shown(self, standing: Standing, point: str, when: float) -> Standing | None:
        """Record that the claim point ``point`` of the current link's turn in progress was
        first shown at ``when`` (beside the others it has shown: an Undo can lead to another)."""
        data = self._newest(standing)
        data["claims"] = dict(standing.claims, **{point: when})
        return self._write(standing, data)

    def come_back(self, standing: Standing, seat: int) -> Standing | None:
        """Remember that ``seat`` is back, for whichever current link is played next."""
        data = self._newest(standing)
        if seat not in data["backs"]:
            data["backs"].append(seat)
        return self._write(standing, data)

    def rematch(self, standing: Standing, token: str) -> str | None:
        """Record ``token`` as the rematch of this finished game: the one recorded first stands
        (None when another request wrote first: ask again)."""
        if standing.data.get("rematch"):
            return standing.data["rematch"]
        data = self._newest(standing)
        data["rematch"] = token
        return token if self._write(standing, data) else None

    def _newest(self, standing: Standing) -> dict:
        """The entry's data for the current link ``standing`` is about (a fresh one when the
        store had none for it)."""
        if standing.known:
            return dict(standing.data, backs=list(standing.data.get("backs", [])))
        fresh = {"token": standing.token, "step": standing.step, "turn": standing.turn,
                 "from": None, "ask": None, "start": None, "by": None, "opened": None,
                 "backs": []}
        if standing.seats is not None:
            fresh["seats"] = standing.seats
        return fresh

    def _write(self, standing: Standing, data: dict, days: int = ENTRY_DAYS) -> Standing | None:
        """Write ``data`` over the entry ``standing`` read (compare-and-swap on its version):
        the standing of the link it names as newest, or None if the entry changed meanwhile."""
        expires = self.store.clock() + days * DAY
        if standing.entry is None:
            version = 1 if self.store.add(standing.key, data, expires) else None
        else:
            version = standing.entry.version + 1 if self.store.swap(
                standing.key, standing.entry.version, data, expires) else None
        if version is None:
            return None
        return Standing(standing.key, data["token"], data["step"], data["turn"],
                        Entry(data, version), data.get("seats"))
