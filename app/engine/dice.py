"""Deterministic, secret dice: die = f(DICE_KEY, game seed, seat, roll index).

The seed travels readable in every link, so dice come from a per-game secret that only the server
can compute (an HMAC of the seed under the dice key). Rolls are therefore the same on every replay,
reload or machine, yet knowing the seed reveals nothing about future rolls. The commitment of the
secret can be shown from the first move; revealing the secret when the game ends lets anyone check
that the dice were fixed in advance.

A table rolls either one stream in turn (die i is the i-th die anyone rolls: Parcheesi, and the
first rules version of Red Arse and Ludo) or one stream per seat (its k-th die, keyed by the seat's
color: a player who joins later moves nobody's stream), so that no player's choice, such as a move
that earns an extra roll, changes which dice anyone else gets.

>>> dice = Dice.from_key(b"k" * 32, bytes(8))
>>> [dice.die(i) for i in range(10)]
[3, 6, 5, 3, 4, 4, 4, 4, 1, 5]
>>> commitment(dice.secret) == commitment(game_secret(b"k" * 32, bytes(8)))
True
>>> table = TableDice(dice.secret, colors=(0, 2), per_seat=True)
>>> table.roll(1, 2), table.roll(0, 1), table.roll(1, 1)
((3, 1), (2,), (4,))
>>> fresh = TableDice(dice.secret, colors=(0, 2), per_seat=True)
>>> fresh.roll(1, 2), fresh.roll(1, 1)  # seat 0 rolled nothing: seat 2's dice are the same
((3, 1), (4,))
"""

from __future__ import annotations

import hashlib
from hmac import digest as _digest

# Bytes below 252 = 6 * 42 map onto 1..6 exactly evenly; larger ones are rejected.
_LIMIT = 252
_PER_BLOCK = 8  # dice per HMAC-SHA256 digest: 32 bytes, 4 for each die


def game_secret(dice_key: bytes, seed: bytes) -> bytes:
    """The secret behind one game's dice; never put it in a link before the game ends."""
    return _digest(dice_key, b"boardpass/dice-secret/" + seed, "sha256")


def seat_secret(secret: bytes, color: int) -> bytes:
    """The secret behind the stream of dice the seat of ``color`` rolls in a game."""
    return _digest(secret, b"boardpass/seat/" + bytes((color,)), "sha256")


def commitment(secret: bytes) -> str:
    """Public fingerprint of a game's dice secret, safe to show while the game runs."""
    return hashlib.sha256(b"boardpass/commit/" + secret).hexdigest()


class Dice:
    """The dice stream of one game: ``die(i)`` is the i-th die, uniform in 1..6.

    One HMAC gives the bytes of eight dice (four bytes each), so a replay costs one short HMAC
    per eight dice; each die still has bytes of its own, so any die can be computed without the
    ones before it. A die is its first byte below 252 (rejection sampling: exactly uniform); if
    all four are rejected (odds about 1 in 17 million) it draws from an HMAC of its own.
    """

    __slots__ = ("secret", "_block", "_bytes")

    def __init__(self, secret: bytes):
        self.secret = secret
        self._block = -1
        self._bytes = b""

    @classmethod
    def from_key(cls, dice_key: bytes, seed: bytes) -> Dice:
        return cls(game_secret(dice_key, seed))

    def die(self, index: int) -> int:
        block, slot = divmod(index, _PER_BLOCK)
        if block != self._block:  # dice are used in order: one digest serves eight of them
            self._block = block
            self._bytes = _digest(self.secret, block.to_bytes(8, "big"), "sha256")
        for byte in self._bytes[slot * 4:slot * 4 + 4]:
            if byte < _LIMIT:
                return byte % 6 + 1
        return self._redraw(index)

    def _redraw(self, index: int) -> int:
        """A die whose four bytes were all rejected: more bytes, still deterministically."""
        counter = 0
        while True:
            message = b"redraw/" + index.to_bytes(8, "big") + counter.to_bytes(4, "big")
            for byte in _digest(self.secret, message, "sha256"):
                if byte < _LIMIT:
                    return byte % 6 + 1
            counter += 1


class TableDice:
    """The dice a table rolls: one stream the seats take in turn, or (``per_seat``) a stream of
    each seat's own, ``Dice(seat_secret(secret, color))``, which no other player's choices move.
    ``colors`` are the seats' colors in seat order; ``roll(seat, count)`` gives the next dice
    ``seat`` rolls; ``used[stream]`` counts the dice each stream has given."""

    __slots__ = ("streams", "used", "per_seat")

    def __init__(self, secret: bytes, colors: tuple[int, ...], per_seat: bool):
        self.per_seat = per_seat
        self.streams = [Dice(seat_secret(secret, color)) for color in colors] if per_seat \
            else [Dice(secret)]
        self.used = [0] * len(self.streams)

    def stream(self, seat: int) -> int:
        return seat if self.per_seat else 0

    def roll(self, seat: int, count: int) -> tuple[int, ...]:
        """``count`` dice (one or two: every game's roll) from the seat's stream."""
        stream = seat if self.per_seat else 0  # stream(), inlined: every replayed roll comes here
        first, die = self.used[stream], self.streams[stream].die
        self.used[stream] = first + count
        return (die(first),) if count == 1 else (die(first), die(first + 1))
