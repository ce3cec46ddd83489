"""Live rooms: a short code, the table's current link, and who sits where.

A room is the least the product needs for playing together live. The game stays in its signed
link, replayed by the same engine as ever; the room (one store entry, ``room#<CODE>``) adds only

- ``token``: the table's **current** link, every step played in the room included;
- ``members``: the colors taken by a phone (each with the random ``key`` its seat credential
  carries, when it joined, and a digest of the browser's ``device`` cookie, so that a browser
  that lost the answer to its join gets its credential again): a color, unlike a seat's
  number, never changes, even when a Ludo table seats a new player;
- ``host``: the host's color;
- ``moved``: when a step was last played (a re-roll left unclaimed for long after it may be
  let go by anyone seated);
- ``timer`` and ``due``: the seconds a player has for each roll and move (0: no timer), and
  when the current wait ends, by the server's clock (None: nobody is waited for). Whichever
  request finds it over plays the rest of that turn for them;
- ``speed``: how fast every phone shows the bots' moves (``SPEEDS``), which anyone seated may
  change during the game: it changes what is shown, never what is played;
- ``started``: whether the host has started the game (a new room is a lobby until then: people
  join, nobody plays, no timer runs).

The entry's version is the room's version: every change is a compare-and-swap on it, so of
several phones submitting at once exactly one wins, and a poll compares it alone (no replay)
with what the phone has. A room nobody plays in for a day expires.

A seat credential is signed (``itsdangerous``) and names the room, the color and the key given
when the phone joined: it plays that color only, and a code a later room happens to reuse
doesn't let an old credential in (its key is another).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field, replace

from itsdangerous import BadSignature, URLSafeSerializer

from app.keys import Keys
from app.store import Entry, Store

# Read aloud and typed on a phone: no 0/O, 1/I/L. 31 symbols, 6 of them: 887 million codes.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
ROOM_DAYS = 1  # a room lives a day after its last change
DAY = 24 * 3600
MAX_ROOM_BYTES = 8192  # a link (at most 4096 characters) and six members, with room to spare
CREDENTIAL_SALT = "boardpass.room-seat"
# The bots' moves shown at a share of the normal pace (static/js/table.js BOT_SPEEDS).
SPEEDS = {"slow": 2.0, "normal": 1.0, "fast": 0.3, "instant": 0.0}


def read_code(text) -> str | None:
    """A room code as typed (any case, spaces or dashes between), or None if it can't be one.

    >>> read_code(" abc-23x ")
    'ABC23X'
    >>> read_code("ABCD10") is None  # 1 and 0 are never in a code
    True
    """
    if not isinstance(text, str) or len(text) > 20:
        return None
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def new_code() -> str:
    """A random code (never counted up: nobody finds a room by trying the next one)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


@dataclass(frozen=True)
class Member:
    key: str  # the random part of this color's seat credential
    joined: float
    by: str | None = None  # the digest of the joining browser's device cookie
    seen: float | None = None  # when its phone last asked (None: when it joined)
    gone: float | None = None  # when its page said it was closed or hidden (None: it didn't)

    @property
    def last_seen(self) -> float:
        return self.joined if self.seen is None else self.seen

    def went(self, every: float) -> float:
        """When the phone went: when its page said so, else its last poll, which may have come
        up to ``every`` seconds after ``seen`` (a seat is marked seen no more often)."""
        return self.gone if self.gone is not None else self.last_seen + every


@dataclass(frozen=True)
class Room:
    code: str
    token: str
    host: int  # a color
    members: dict[int, Member] = field(default_factory=dict)  # by color
    moved: float = 0.0
    timer: int = 0  # seconds for each roll and move; 0: none
    due: float | None = None  # when the current wait ends (None: no wait)
    speed: str = "normal"  # how fast the bots' moves are shown (SPEEDS)
    rev: int = 1  # the room's version, as phones know it: one more with every change but "seen"
    left: frozenset = frozenset()  # colors whose player left: the server plays their turns
    closed: bool = False  # everyone left: the room is over
    started: bool = True  # False: the lobby, until the host taps Start
    version: int = 0  # the store entry's: 0 for a room not written yet

    def data(self) -> dict:
        return {"token": self.token, "host": self.host, "moved": self.moved,
                "timer": self.timer, "due": self.due, "speed": self.speed, "rev": self.rev,
                "left": sorted(self.left), "closed": self.closed, "started": self.started,
                "members": {str(color): {"key": m.key, "joined": m.joined, "by": m.by,
                                         "seen": m.seen, "gone": m.gone}
                            for color, m in sorted(self.members.items())}}

    @classmethod
    def from_entry(cls, code: str, entry: Entry) -> "Room":
        data = entry.data
        members = {int(color): Member(m["key"], m["joined"], m.get("by"), m.get("seen"),
                                      m.get("gone"))
                   for color, m in data["members"].items()}
        return cls(code, data["token"], data["host"], members, data["moved"],
                   data.get("timer", 0), data.get("due"), data.get("speed", "normal"),
                   data.get("rev", 1), frozenset(data.get("left", ())),
                   data.get("closed", False), data.get("started", True), entry.version)

    def offline(self, now: float, after: float, silent: float) -> set[int]:
        """The colors disconnected: their page said it went, or hasn't asked for ``after``
        seconds, or, ``silent`` seconds after the current wait's time ran out, not since."""
        return {color for color, m in self.members.items()
                if m.gone is not None or now - m.last_seen > after or
                (self.unheard(m, now) and now >= self.due + silent)}

    def unheard(self, member: Member, now: float) -> bool:
        """Whether ``member``'s phone hasn't asked since the current wait's time ran out: gone,
        or slow to ask (every phone's first poll after it is marked at once)."""
        return self.due is not None and member.last_seen < self.due <= now

    def tag(self, offline: set[int]) -> str:
        """What a poll compares (no replay needed): the room's code and version, and who is
        disconnected (a phone going or coming back changes what the others show)."""
        mask = sum(1 << color for color in offline)
        return f"{self.code}.{self.rev}.{mask}"

    def joined(self, color: int, now: float, by: str | None = None) -> "Room":
        """The room with a new phone on ``color`` (a fresh key: any older credential for the
        color stops playing it), from the browser whose device digest is ``by``."""
        members = dict(self.members)
        members[color] = Member(secrets.token_urlsafe(12), now, by)
        return replace(self, members=members, left=self.left - {color})

    def without(self, color: int, online: set[int]) -> "Room":
        """The room once the phone on ``color`` has left: its seat is free (the server plays
        its turns until someone takes it); the host's role passes to the phone that joined
        earliest among those ``online``, else among all; nobody left, the room is closed."""
        members = {c: m for c, m in self.members.items() if c != color}
        host = self.host
        if color == host and members:
            pick = [c for c in members if c in online] or list(members)
            host = min(pick, key=lambda c: members[c].joined)
        return replace(self, members=members, host=host, left=self.left | {color},
                       closed=not members)

    def color_by(self, by: str | None) -> int | None:
        """The color the browser ``by`` (a device digest) joined on, if any."""
        return next((color for color, m in self.members.items() if by and m.by == by), None)


class RoomFull(ValueError):
    """Every code tried was in use (never in practice: 887 million codes)."""


class Rooms:
    """Rooms in the store, and their seat credentials."""

    def __init__(self, store: Store, keys: Keys):
        self.store = store
        self._serializer = URLSafeSerializer(list(keys.signing), salt=CREDENTIAL_SALT)

    def get(self, code: str) -> Room | None:
        """The live room ``code`` names, or None (never made, or expired)."""
        entry = self.store.get("room#" + code)
        return Room.from_entry(code, entry) if entry else None

    def create(self, token: str, host: int, me: int, now: float, by: str | None = None,
               codes=None, timer: int = 0, due: float | None = None,
               started: bool = True) -> Room:
        """A new room for the game at ``token`` (its host on color ``host``), the asking phone
        in it on color ``me``, under the first of ``codes`` (by default, random ones) no live
        room has: a code in use is never given again. ``started``: False for a lobby."""
        for code in codes or (new_code() for _ in range(8)):
            room = Room(code, token, host, moved=now, timer=timer, due=due,
                        started=started).joined(me, now, by)
            if self.store.add("room#" + room.code, self._checked(room), self._expires(now)):
                return replace(room, version=1)
        raise RoomFull("no free room code")

    def write(self, room: Room, now: float, **changes) -> Room | None:
        """The room with ``changes`` written over the version it was read at, or None when
        another request changed it first (nothing written). A new link is a move: the room
        lives a day from it. Every write but a phone's ``seen`` is a new version for the
        phones (``rev``)."""
        changed = replace(room, **changes, rev=room.rev + 1)
        if "token" in changes and changes["token"] != room.token:
            changed = replace(changed, moved=now)
        return self._swap(room, changed)

    def seen(self, room: Room, color: int, now: float, due: float | None) -> Room | None:
        """The room with ``color``'s phone seen ``now`` (and the wait ending at ``due``): no
        new version for the phones, so their polls stay 304 (unless it was disconnected)."""
        members = dict(room.members)
        members[color] = replace(members[color], seen=now, gone=None)
        return self._swap(room, replace(room, members=members, due=due))

    def gone(self, room: Room, color: int, now: float) -> Room | None:
        """The room with ``color``'s page gone ``now`` (closed or hidden, as it said): no new
        version either, but its phone shows as disconnected at once."""
        members = dict(room.members)
        members[color] = replace(members[color], gone=now)
        return self._swap(room, replace(room, members=members))

    def _swap(self, room: Room, changed: Room) -> Room | None:
        if not self.store.swap("room#" + room.code, room.version, self._checked(changed),
                               self._expires(changed.moved)):
            return None
        return replace(changed, version=room.version + 1)

    def credential(self, room: Room, color: int) -> str:
        """What lets a phone play ``color`` in ``room``: kept in the browser."""
        return self._serializer.dumps([room.code, color, room.members[color].key])

    def color_of(self, room: Room, credential) -> int | None:
        """The color a credential plays in this room, or None (not a credential, another room's,
        or a color someone has joined since)."""
        if not isinstance(credential, str) or len(credential) > 200:
            return None
        try:
            code, color, key = self._serializer.loads(credential)
        except (BadSignature, ValueError, TypeError):
            return None
        member = room.members.get(color) if type(color) is int else None
        if code != room.code or member is None or not secrets.compare_digest(member.key, key):
            return None
        return color

    @staticmethod
    def _expires(moved: float) -> float:
        return moved + ROOM_DAYS * DAY

    @staticmethod
    def _checked(room: Room) -> dict:
        data = room.data()
        if len(json.dumps(data)) > MAX_ROOM_BYTES:
            raise ValueError("a room holds a link and six members: no more")
        return data
