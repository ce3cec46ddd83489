"""Links that open a message ready to send, for the player to send it by hand (where the
server doesn't text, or a send failed): an ``sms:`` link that opens the phone's Messages app,
and WhatsApp's click-to-chat address, each with the number and the text filled in.
"""
from __future__ import annotations

import re
from urllib.parse import quote


def sms_href(phone: str | None, body: str) -> str:
    """An ``sms:`` link that opens Messages with the number (if any) and the text filled in.

    The form is ``sms:+15551234567?&body=<text>``. RFC 5724 says ``?body=``, which Android
    follows; iOS 8 and later read the body after ``&`` (iOS 7 wanted ``;``). With ``?&body=``
    Android sees a query whose first (empty) pair is ignored, and iOS finds its ``&body=``, so one
    link serves both. The body is percent-encoded in full (space as %20, never "+", which
    Messages would show as "+"). Only "+" and digits of ``phone`` are kept, so nothing in it can
    reach the query.

    >>> sms_href("+15551234567", "Your turn: https://b.example/p?x=1&y")
    'sms:+15551234567?&body=Your%20turn%3A%20https%3A%2F%2Fb.example%2Fp%3Fx%3D1%26y'
    >>> sms_href(None, "Hi")
    'sms:?&body=Hi'
    """
    digits = re.sub(r"\D", "", phone or "")
    number = ("+" if (phone or "").strip().startswith("+") and digits else "") + digits
    return f"sms:{number}?&body={quote(body, safe='')}"


WHATSAPP_CHAT = "https://wa.me/"
"""WhatsApp's click-to-chat address (its FAQ "How to use click to chat")."""


def whatsapp_href(phone: str | None, body: str) -> str:
    """WhatsApp's click-to-chat address: it opens WhatsApp (the app, or WhatsApp Web) on a
    chat with ``phone`` and the text filled in, ready to send; without a number, WhatsApp asks
    whom to send it to.

    The documented form is ``https://wa.me/<number>?text=<text>``: the number in full
    international form with digits only (no "+", zeros before the country code, spaces,
    brackets or dashes), the text URL-encoded. It is percent-encoded in full (UTF-8; space as
    %20, never "+"), so names, accents and the link's own ``?``/``&`` arrive as they are.

    >>> whatsapp_href("+54 9 11 2345-6789", "Te toca: https://b.example/g/x?a=1&b")
    'https://wa.me/5491123456789?text=Te%20toca%3A%20https%3A%2F%2Fb.example%2Fg%2Fx%3Fa%3D1%26b'
    >>> whatsapp_href(None, "Hola, José")
    'https://wa.me/?text=Hola%2C%20Jos%C3%A9'
    """
    digits = re.sub(r"\D", "", phone or "").lstrip("0")
    return f"{WHATSAPP_CHAT}{digits}?text={quote(body, safe='')}"
