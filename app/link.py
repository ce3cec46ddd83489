"""The link codec: a whole game (header + move log) as one short, signed, URL-safe token.

Token: ``base64url(payload) "." signature``, where the signature is HMAC-SHA256 (itsdangerous,
salt ``boardpass.link``, HMAC key derivation) truncated to 16 bytes: 22 base64url characters whose
last one is always a letter, so phones' link detectors never cut the token short.

Payload (varint = unsigned LEB128)::

    u8      format_version                  (1, or 2 for a table with extras)
    varint  rules_version                   (the rule set's; it decides the dice too)
    u8      game index                      (GAMES)
    varint  options
    format 2 only: varint extras flags      (never 0: a plain table is written as format 1)
        flag 1: u8 language                 (LANGUAGES; English when absent)
        flag 2: u8 host seat                (seat 0 when absent)
    u8      seat count                      (at most 6)
    per seat:
        u8      color << 3 | bot << 1 | has_phone
        varint  name length, then the name in UTF-8
    format 2, flag 4: per seat, varint the log step at which it joined (0: from the start)
    format 2, flag 8: per seat, 3 varints: gold, silver and bronze medals won at this table
    format 2, flag 128: per seat, varint the log step at which it was disqualified (0: never)
    format 2, flag 16 (after the extras' host): varint turn deadline in minutes, varint the
        server's time (minutes since 1970) when this link's turn began: signed, so trusted
    format 2, flag 32 (after flag 16's): varint count, then the log steps at which turns were
        played for absent players, each as its distance from the one before
    format 2, flag 64 (after flag 32's): varint count, then per "I'm back" (a player auto-played
        for missing turns came back): varint its log step's distance from the one before, u8 seat
    format 2, flag 256 (no data): the table plays by hand. Without it (links, pass-the-phone)
        every step of a person's turn that has no alternative is played for them: the roll, a
        single legal move (``Game.hand_on``); rooms always set it
    8 bytes seed
    varint  log count                       (decisions, forced ones included)
    if any seat has a phone:
        varint  blob length, then the blob: the phones joined with "," and encrypted with
                AES-SIV (associated data = seed), so they never travel in clear; a phone
                whose player chose WhatsApp is written with a "w" before it ("w+5491...":
                links made before that choice existed have no "w", and read the same)
    rest    the log: one mixed-radix integer, little-endian, minimal length

The log stores, at each decision point, the index chosen among ``radix`` legal moves. All indices
form one integer N = sum(index_k * prod(radix_j for j < k)), which needs only about
sum(log2 radix) bits: a forced move (radix 1) costs nothing.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import math
import re
import unicodedata
from dataclasses import dataclass, field

from itsdangerous.signer import HMACAlgorithm, Signer

from app.engine.text import N_, Text
from app.keys import Keys

GAMES = ("parcheesi", "red-arse", "ludo")
LANGUAGES = ("en", "es")
FORMAT_VERSIONS = (1, 2)
_LANG, _HOST, _JOINS, _MEDALS, _CLOCK, _AUTO, _BACK, _OUTS, _BY_HAND = 1, 2, 4, 8, 16, 32, 64, 128, 256
MAX_TOKEN = 4096
MAX_SEATS = 6
MAX_NAME = 24
SEED_BYTES = 8
_SIG_CHARS = 22  # 16 bytes in base64url without padding
_VARINT_BYTES = 9  # 63 bits: far beyond any real count, but bounded
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_E164 = re.compile(r"\+[1-9][0-9]{1,14}")
_WHATSAPP = "w"  # before a phone number in the encrypted blob: its player chose WhatsApp


class LinkError(ValueError):
    """A link that can't be played; ``str(error)`` is a message fit to show a player."""

    message = N_("This link is not a valid Boardpass game.")

    def __init__(self, message: str | None = None):
        super().__init__(message or self.message)


class OversizedLink(LinkError):
    message = N_("This link is far too long to be a Boardpass game.")


class TruncatedLink(LinkError):
    message = N_("This link is incomplete. It may have been cut off when it was copied or sent.")


class BadSignature(LinkError):
    message = N_("This link has been changed since it was made, so it can't be trusted.")


class UnknownVersion(LinkError):
    message = N_("This link comes from a different version of Boardpass and can't be opened here.")


class MalformedLink(LinkError):
    message = N_("This link is damaged and can't be read.")


class IllegalLog(LinkError):
    message = N_("The moves in this link don't fit the game.")


@dataclass(frozen=True)
class Seat:
    """A player: ``bot`` 0 is a human, 1..3 a bot's strength; ``phone`` is E.164 or None;
    ``joined`` the log step at which the seat joined a game in progress (0: from the start);
    ``medals`` the (gold, silver, bronze) won at this table in earlier games; ``out`` the log
    step at which the player was disqualified (0: never); ``whatsapp`` whether the player
    chose to get their turns by WhatsApp on that phone (only with a phone: it travels
    encrypted with the number)."""

    name: str
    color: int
    bot: int = 0
    phone: str | None = field(default=None, repr=False)  # private: keep it out of logs
    joined: int = 0
    medals: tuple[int, int, int] = (0, 0, 0)
    out: int = 0
    whatsapp: bool = field(default=False, repr=False)  # private, like the number it goes with

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise ValueError("a name is text")
        object.__setattr__(self, "name", self.name.strip())
        # Control characters, direction overrides and lone surrogates: shown to others they
        # could disguise text, and a surrogate can't even be encoded. (Joiners stay: emoji.)
        if any(unicodedata.category(ch) in ("Cc", "Cs") or ch in _BIDI for ch in self.name):
            raise ValueError(N_("A name can't contain control or formatting characters."))
        if len(self.name) > MAX_NAME:
            raise ValueError(Text("A name has at most %(n)s characters.", n=MAX_NAME))
        if not 0 <= self.color < 32:
            raise ValueError("color must be in 0..31")
        if not 0 <= self.bot <= 3:
            raise ValueError("bot must be 0 (human) or a strength 1..3")
        if self.phone is not None and not _E164.fullmatch(self.phone):
            raise ValueError(N_("Write a phone number with its country code, like "
                                "+15551234567."))
        if self.whatsapp not in (False, True) or (self.whatsapp and self.phone is None):
            raise ValueError("whatsapp is a choice for a seat with a phone number")
        object.__setattr__(self, "whatsapp", bool(self.whatsapp))
        object.__setattr__(self, "medals", tuple(self.medals))
        if self.joined < 0 or self.out < 0 or len(self.medals) != 3 or min(self.medals) < 0:
            raise ValueError("joined, out and medals are counts")


def seat_of(seats, color: int) -> int:
    """The number of the seat in ``seats`` that plays ``color`` (a room knows its phones, and
    a turn its mover, by color)."""
    return next(i for i, seat in enumerate(seats) if seat.color == color)


@dataclass(frozen=True)
class Header:
    """Everything about a game except its moves."""

    game: str
    seats: tuple[Seat, ...]
    seed: bytes
    options: int = 0
    rules_version: int = 1
    lang: str = "en"
    host: int = 0  # the seat that created the game: it decides rematches and adds players
    deadline: int = 0  # minutes a player has for a turn; 0: no deadline
    since: int = 0  # the server's clock (minutes since 1970) when this link's turn began
    auto: tuple[int, ...] = ()  # log steps at which turns were played for absent players
    back: tuple[tuple[int, int], ...] = ()  # (log step, seat): an auto-played player came back
    by_hand: bool = False  # every step is the player's: none with no alternative is played for them

    def __post_init__(self):
        object.__setattr__(self, "seats", tuple(self.seats))
        if self.game not in GAMES:
            raise ValueError(f"game must be one of {GAMES}")
        if len(self.seats) > MAX_SEATS:
            raise ValueError(f"at most {MAX_SEATS} seats")
        if len(self.seed) != SEED_BYTES:
            raise ValueError(f"the seed is {SEED_BYTES} bytes")
        if self.options < 0 or self.rules_version < 0:
            raise ValueError("options and rules_version are not negative")
        if self.lang not in LANGUAGES:
            raise ValueError(f"lang must be one of {LANGUAGES}")
        if self.seats and not 0 <= self.host < len(self.seats):
            raise ValueError("the host is one of the seats")
        object.__setattr__(self, "auto", tuple(self.auto))
        if self.deadline < 0 or self.since < 0 or list(self.auto) != sorted(set(self.auto)):
            raise ValueError("deadline, since and auto steps are counts (auto: ascending)")
        object.__setattr__(self, "back", tuple(map(tuple, self.back)))
        if list(self.back) != sorted(self.back) or \
                any(step < 0 or not 0 <= seat < len(self.seats) for step, seat in self.back):
            raise ValueError("back: (step, seat) pairs, ascending")

    @property
    def extras(self) -> int:
        """The flags of the table's extras this header needs (0: a plain format-1 link)."""
        flags = _LANG * (self.lang != LANGUAGES[0]) | _HOST * (self.host != 0)
        flags |= _JOINS * any(s.joined for s in self.seats)
        flags |= _CLOCK * bool(self.deadline or self.since) | _AUTO * bool(self.auto)
        flags |= _BACK * bool(self.back) | _OUTS * any(s.out for s in self.seats)
        flags |= _BY_HAND * bool(self.by_hand)
        return flags | _MEDALS * any(any(s.medals) for s in self.seats)

    @property
    def format_version(self) -> int:
        return 2 if self.extras else 1


# -- the move log ---------------------------------------------------------------------------------


def pack_log(pairs: list[tuple[int, int]]) -> tuple[int, bytes]:
    """``(count, data)``: the (index, radix) pairs as one mixed-radix integer, little-endian."""
    number = 0
    for index, radix in reversed(pairs):
        if not 0 <= index < radix:
            raise ValueError(f"index {index} is not below radix {radix}")
        number = number * radix + index
    return len(pairs), number.to_bytes((number.bit_length() + 7) // 8, "little")


class LogReader:
    """Gives back the logged indices one decision at a time, as the replay asks for them.

    The reader can't know the radices: only the replayed game does, so it passes each one in.
    """

    __slots__ = ("remaining", "_number")

    def __init__(self, count: int, data: bytes):
        self.remaining = count
        self._number = int.from_bytes(data, "little")

    def take(self, radix: int) -> int:
        if self.remaining <= 0:
            raise IllegalLog(N_("The link's moves ran out before the game expected."))
        self.remaining -= 1
        if radix == 1:  # a roll or a forced move: nothing stored (and no big division)
            return 0
        self._number, index = divmod(self._number, radix)
        return index

    def finish(self) -> None:
        """Call after the replay: refuses decisions left over or data beyond the log."""
        if self.remaining or self._number:
            raise IllegalLog(N_("The link holds more moves than the game can use."))


def info_bits(log: list[tuple[int, int]]) -> float:
    """The information in a log, in bits: the floor for any encoding of it."""
    return sum(math.log2(radix) for _, radix in log)


# -- the binary payload ---------------------------------------------------------------------------


def _varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


class _Reader:
    """Reads the payload front to back; any short or bad read is a MalformedLink."""

    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def take(self, size: int) -> bytes:
        end = self.pos + size
        if end > len(self.data):
            raise MalformedLink()
        chunk = self.data[self.pos : end]
        self.pos = end
        return chunk

    def u8(self) -> int:
        return self.take(1)[0]

    def varint(self) -> int:
        value = 0
        for shift in range(0, 7 * _VARINT_BYTES, 7):
            byte = self.u8()
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value
        raise MalformedLink()

    def rest(self) -> bytes:
        return self.data[self.pos :]


def _pack(header: Header, log: list[tuple[int, int]], keys: Keys) -> bytes:
    out = bytearray()
    out.append(header.format_version)
    out += _varint(header.rules_version)
    out.append(GAMES.index(header.game))
    out += _varint(header.options)
    flags = header.extras
    if flags:
        out += _varint(flags)
        if flags & _LANG:
            out.append(LANGUAGES.index(header.lang))
        if flags & _HOST:
            out.append(header.host)
        if flags & _CLOCK:
            out += _varint(header.deadline) + _varint(header.since)
        if flags & _AUTO:
            steps = (0, *header.auto)
            out += _varint(len(header.auto)) + b"".join(
                _varint(b - a) for a, b in zip(steps, steps[1:]))
        if flags & _BACK:
            steps = (0, *(step for step, _ in header.back))
            out += _varint(len(header.back)) + b"".join(
                _varint(b - a) + bytes((seat,))
                for a, b, (_, seat) in zip(steps, steps[1:], header.back))
    out.append(len(header.seats))
    for seat in header.seats:
        name = seat.name.encode("utf-8")
        out.append(seat.color << 3 | seat.bot << 1 | (seat.phone is not None))
        out += _varint(len(name)) + name
    if flags & _JOINS:
        out += b"".join(_varint(s.joined) for s in header.seats)
    if flags & _MEDALS:
        out += b"".join(_varint(n) for s in header.seats for n in s.medals)
    if flags & _OUTS:
        out += b"".join(_varint(s.out) for s in header.seats)
    out += header.seed
    count, data = pack_log(log)
    out += _varint(count)
    phones = [_WHATSAPP * seat.whatsapp + seat.phone for seat in header.seats
              if seat.phone is not None]
    if phones:
        blob = _siv(keys).encrypt(",".join(phones).encode("ascii"), [header.seed])
        out += _varint(len(blob)) + blob
    out += data
    return bytes(out)


def _unpack(payload: bytes, keys: Keys | None) -> tuple[Header, LogReader]:
    read = _Reader(payload)
    version = read.u8()
    if version not in FORMAT_VERSIONS:
        raise UnknownVersion()
    rules_version = read.varint()
    game = read.u8()
    if game >= len(GAMES):
        raise UnknownVersion()
    options = read.varint()
    flags = read.varint() if version == 2 else 0
    if flags >= _BY_HAND << 1:
        raise UnknownVersion()
    table = {}
    if flags & _LANG:
        lang = read.u8()
        if lang >= len(LANGUAGES):
            raise UnknownVersion()
        table["lang"] = LANGUAGES[lang]
    if flags & _HOST:
        table["host"] = read.u8()
    if flags & _CLOCK:
        table["deadline"], table["since"] = read.varint(), read.varint()
    if flags & _AUTO:
        auto, step = [], 0
        for _ in range(min(read.varint(), len(read.data))):  # each takes a byte at least
            step += read.varint()
            auto.append(step)
        table["auto"] = tuple(auto)
    if flags & _BACK:
        back, step = [], 0
        for _ in range(min(read.varint(), len(read.data))):
            step += read.varint()
            back.append((step, read.u8()))
        table["back"] = tuple(back)
    if flags & _BY_HAND:
        table["by_hand"] = True
    seat_count = read.u8()
    if seat_count > MAX_SEATS:
        raise MalformedLink()
    seats = []
    for _ in range(seat_count):
        bits = read.u8()
        name = read.take(read.varint()).decode("utf-8")
        seats.append((name, bits >> 3, bits >> 1 & 3, bits & 1))
    joined = [read.varint() for _ in seats] if flags & _JOINS else [0] * seat_count
    medals = [(read.varint(), read.varint(), read.varint()) for _ in seats] \
        if flags & _MEDALS else [(0, 0, 0)] * seat_count
    outs = [read.varint() for _ in seats] if flags & _OUTS else [0] * seat_count
    seed = read.take(SEED_BYTES)
    count = read.varint()
    phone_count = sum(has_phone for *_, has_phone in seats)
    phones = iter(())
    if phone_count:
        blob = read.take(read.varint())
        phones = iter(_open_phones(blob, seed, keys, phone_count) if keys else
                      [(None, False)] * phone_count)
    data = read.rest()
    if data[-1:] == b"\0":
        raise MalformedLink()  # not minimal: we never write this
    header = Header(
        game=GAMES[game],
        seats=tuple(
            Seat(name, color, bot, phone, joined[i], medals[i], outs[i], whatsapp)
            for i, (name, color, bot, has_phone) in enumerate(seats)
            for phone, whatsapp in [next(phones) if has_phone else (None, False)]
        ),
        seed=seed,
        options=options,
        rules_version=rules_version,
        **table,
    )
    if version != header.format_version:
        raise MalformedLink()  # extras that say nothing: we never write them
    return header, LogReader(count, data)



def _open_phones(blob: bytes, seed: bytes, keys: Keys,
                 count: int) -> list[tuple[str, bool]]:
    """Each phone number in the blob, and whether its player chose WhatsApp."""
    from cryptography.exceptions import InvalidTag

    try:
        phones = _siv(keys).decrypt(blob, [seed]).decode("ascii").split(",")
    except InvalidTag:
        raise MalformedLink() from None
    if len(phones) != count:
        raise MalformedLink()
    return [(phone.removeprefix(_WHATSAPP), phone.startswith(_WHATSAPP)) for phone in phones]


def _siv(keys: Keys):
    # Imported here: only games with phone numbers pay for loading the cipher (cold starts).
    from cryptography.hazmat.primitives.ciphers.aead import AESSIV

    return AESSIV(keys.phone)


# -- signing --------------------------------------------------------------------------------------


class _HMACSHA256x128(HMACAlgorithm):
    """HMAC-SHA256 cut to 16 bytes: forging still takes 2**128 tries, and the link stays short."""

    def __init__(self):
        super().__init__(hashlib.sha256)

    def get_signature(self, key: bytes, value: bytes) -> bytes:
        return hmac.digest(key, value, "sha256")[:16]


def _signer(keys: Keys) -> Signer:
    return Signer(
        secret_key=list(keys.signing),
        salt="boardpass.link",
        sep=".",
        key_derivation="hmac",
        digest_method=hashlib.sha256,
        algorithm=_HMACSHA256x128(),
    )


def _sign(payload: bytes, keys: Keys) -> str:
    text = base64.urlsafe_b64encode(payload).rstrip(b"=")
    return _signer(keys).sign(text).decode("ascii")


def encode(header: Header, log: list[tuple[int, int]], keys: Keys) -> str:
    """The token for a game: its header and every decision taken so far."""
    return _sign(_pack(header, log, keys), keys)


def decode(token: str, keys: Keys) -> tuple[Header, LogReader]:
    """Verify and read a token; every way it can be wrong raises a LinkError subclass."""
    if len(token) > MAX_TOKEN:
        raise OversizedLink()
    token = token.strip()
    text, sep, signature = token.rpartition(".")
    if not sep or not text or len(signature) < _SIG_CHARS:
        raise TruncatedLink()
    if not _canonical_signature(signature) or not _signer(keys).verify_signature(text, signature):
        raise BadSignature()
    try:
        return _unpack(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)), keys)
    except LinkError:
        raise
    except ValueError:  # bad base64 or UTF-8, or a field out of range: all only after signing
        raise MalformedLink() from None


def read_unverified(token: str) -> tuple[Header, LogReader]:
    """Read a token without its signature or phone numbers: what anyone can do without the
    server's keys, enough to check a finished game's dice (``python -m app verify``)."""
    if len(token) > MAX_TOKEN:
        raise OversizedLink()
    text, sep, _ = token.strip().rpartition(".")
    if not sep or not text:
        raise TruncatedLink()
    try:
        return _unpack(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)), None)
    except LinkError:
        raise
    except ValueError:
        raise MalformedLink() from None


def _canonical_signature(signature: str) -> bool:
    """Exactly the 22 characters we write: base64 decoding alone would ignore stray bits."""
    if len(signature) != _SIG_CHARS or not signature.isascii():
        return False
    try:
        raw = base64.urlsafe_b64decode(signature + "==")
    except binascii.Error:
        return False
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii") == signature
