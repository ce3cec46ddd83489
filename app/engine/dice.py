"""Deterministic, secret dice: die = f(DICE_KEY, game seed, roll index).

The seed travels readable in every link, so dice come from a per-game secret that only the server
can compute (an HMAC of the seed under the dice key). Rolls are therefore the same on every replay,
reload or machine, yet knowing the seed reveals nothing about future rolls. The commitment of the
secret can be shown from the first move; revealing the secret when the game ends lets anyone check
that the dice were fixed in advance.

>>> dice = Dice.from_key(b"k" * 32, bytes(8))
>>> [dice.die(i) for i in range(10)]
[3, 1, 2, 3, 5, 4, 6, 2, 3, 2]
>>> commitment(dice.secret) == commitment(game_secret(b"k" * 32, bytes(8)))
True
"""

from __future__ import annotations

import hashlib
from hmac import digest as _digest

# Bytes below 252 = 6 * 42 map onto 1..6 exactly evenly; larger ones are rejected.
_LIMIT = 252


def game_secret(dice_key: bytes, seed: bytes) -> bytes:
    """The secret behind one game's dice; never put it in a link before the game ends."""
    return _digest(dice_key, b"boardpass/dice-secret/" + seed, "sha256")


def commitment(secret: bytes) -> str:
    """Public fingerprint of a game's dice secret, safe to show while the game runs."""
    return hashlib.sha256(b"boardpass/commit/" + secret).hexdigest()


class Dice:
    """The dice stream of one game: ``die(i)`` is the i-th die, uniform in 1..6.

    Each index gets its own HMAC, so replaying a game costs one short one-shot HMAC per die and any
    die can be computed without the ones before it.
    """

    __slots__ = ("secret",)

    def __init__(self, secret: bytes):
        self.secret = secret

    @classmethod
    def from_key(cls, dice_key: bytes, seed: bytes) -> Dice:
        return cls(game_secret(dice_key, seed))

    def die(self, index: int) -> int:
        message = index.to_bytes(8, "big")
        for byte in _digest(self.secret, message, "sha256"):
            if byte < _LIMIT:
                return byte % 6 + 1
        # All 32 bytes rejected (odds about 1 in 10**57): draw more bytes, still deterministically.
        counter = 1
        while True:
            for byte in _digest(self.secret, message + counter.to_bytes(4, "big"), "sha256"):
                if byte < _LIMIT:
                    return byte % 6 + 1
            counter += 1
