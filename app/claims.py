"""The 5-second claim without server state: signed tickets and receipts.

When a move earns a re-roll that must be claimed, the server hands out a *ticket*: the time it was
issued, signed together with the game so far (the link and every step since). Claiming sends the
ticket back; if it comes back within the window the server answers with a *receipt* (a signature
over the same game, no time in it), which stands for "claimed in time" in every later request of
that turn. Nothing is stored: a page that was closed and reopened has no ticket, and a ticket
shown again later is too old.

>>> from app.keys import Keys
>>> keys = Keys.for_tests("claims")
>>> binding = game_binding("token", [(0, 1), (2, 3)])
>>> t = ticket(keys, binding, now=1000.0)
>>> receipt_for(keys, binding, t, now=1004.0) == receipt(keys, binding)
True
>>> receipt_for(keys, binding, t, now=1010.0)
Traceback (most recent call last):
...
app.claims.ClaimMissed: Too late: the re-roll had to be claimed within 5 seconds.
"""

from __future__ import annotations

import base64
import hashlib
import re

from itsdangerous.signer import Signer

from app.engine.text import N_, Text
from app.keys import Keys

WINDOW = 5  # seconds the player has, as the rules say
GRACE = 1.5  # the network, both ways: the player sees the move later than we answer it
_TICKET = re.compile(r"([0-9]{1,15})\.([A-Za-z0-9_-]{10,64})")


class ClaimError(ValueError):
    """A claim the server can't accept; the message is fit to show the player."""


class ClaimMissed(ClaimError):
    """The ticket is genuine but its time has passed."""


def game_binding(token: str, steps: list[tuple[int, int]]) -> str:
    """What a ticket belongs to: this link and exactly these steps since it."""
    text = token + "|" + ",".join(f"{i}/{r}" for i, r in steps)
    digest = hashlib.sha256(text.encode()).digest()[:16]
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _signer(keys: Keys) -> Signer:
    return Signer(secret_key=list(keys.signing), salt="boardpass.claim", key_derivation="hmac",
                  digest_method=hashlib.sha256)


def ticket(keys: Keys, binding: str, now: float) -> str:
    """A ticket issued at ``now`` (seconds) for the claim point ``binding``."""
    ms = int(now * 1000)
    return f"{ms}.{_signer(keys).get_signature(f'{binding}.{ms}').decode()}"


def receipt(keys: Keys, binding: str) -> str:
    return _signer(keys).get_signature(f"{binding}.claimed").decode()


def receipt_for(keys: Keys, binding: str, ticket_text: str, now: float) -> str:
    """The receipt for a ticket brought back at ``now``; ``ClaimMissed`` when it is too late,
    ``ClaimError`` when it isn't a ticket for this claim."""
    match = _TICKET.fullmatch(ticket_text) if isinstance(ticket_text, str) else None
    if not match or not _signer(keys).verify_signature(f"{binding}.{match[1]}", match[2]):
        raise ClaimError(N_("That claim ticket doesn't belong to this re-roll."))
    if not 0 <= now - int(match[1]) / 1000 <= WINDOW + GRACE:
        raise ClaimMissed(Text("Too late: the re-roll had to be claimed within %(n)s seconds.",
                               n=WINDOW))
    return receipt(keys, binding)


def check_receipt(keys: Keys, binding: str, receipt_text: str) -> None:
    """Accept a receipt for this claim point, or raise ``ClaimError``."""
    if not isinstance(receipt_text, str) or len(receipt_text) > 64 or \
            not _signer(keys).verify_signature(f"{binding}.claimed", receipt_text):
        raise ClaimError(N_("That claimed re-roll doesn't belong to this game."))
