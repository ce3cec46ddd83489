"""What became of a message, whichever way it went (a text or WhatsApp message through Twilio,
a notification through the outbox): one answer, so the web layer tells the player the same way.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Delivery:
    """What became of a message. ``error`` is written to be shown to the player as it is."""

    status: str  # "sent" | "not-configured" | "failed" | "already-sent" | "limited" | "gone";
    #              the API adds "not-sent" (by choice)
    sid: str | None = None  # Twilio's id for the message it accepted
    error: str | None = None
    channel: str = "sms"  # "sms" | "whatsapp" | "push": how it went out (or was meant to)
