"""Texting a game's next link to the player it goes to: through the outbox (once per step of
the game and recipient, within its limits: app/outbox.py), by SMS or, for a player who chose it,
WhatsApp; or, where the server doesn't text, the words and the links (sms:, WhatsApp) that send
it by hand. Every answer that makes a link says which (its ``message``).
"""

from __future__ import annotations

from flask import current_app

from app import i18n, sms
from app.engine.games import TITLES
from app.link import Seat
from app.play import Game
from app.store import StoreUnavailable
from app.web.bookkeeping import outbox


def may_text(played: Game, known: set) -> bool:
    """Text from our number only to a number the game already had (a number typed in this
    request is used from the next turn on), and only with PUBLIC_URL set (links built from a
    request's Host header could be forged). The outbox bounds the rest (``app/outbox.py``)."""
    if played.over or not current_app.config.get("PUBLIC_URL"):
        return False
    return played.header.seats[played.match.turn].phone in known


def send_link(played: Game, mover: str | None, url: str, deliver: bool = True,
              since: int = 0) -> dict:
    """Text the next link to the player it goes to, or say how to send it by hand; the text
    says what was played for the people from step ``since`` on (``handoff``).

    A new game's first link is not texted by the server: its creator sends it (the page's
    "Send to" button), so nobody gets a text from a stranger's number unasked.
    """
    if played.over:
        if played.header.game != "ludo":
            return {"to": None, "text": None, "status": "game-over", "error": None,
                    "sms_href": None, "whatsapp_href": None, "whatsapp": False,
                    "channel": None}
        # Nobody is texted; the page offers the host the final link (their rematch is there).
        host = played.header.seats[played.header.host]
        winner = played.header.seats[played.state.winner].name
        text = sms.results_message(winner, host.name, url + "?host=1",
                                   TITLES[played.header.game], played.header.lang)
        return {"to": host.name, "text": text, "status": "game-over", "error": None,
                "sms_href": sms.sms_href(host.phone, text),
                "whatsapp_href": sms.whatsapp_href(host.phone, text),
                "whatsapp": host.whatsapp, "channel": None}
    to = played.header.seats[played.match.turn]
    text = sms.turn_message(mover, to.name, url, TITLES[played.header.game],
                            played.header.lang, handoff(played, since))
    return _text_to(played, to, text, deliver)


def handoff(played: Game, since: int) -> sms.Handoff:
    """What the server played from step ``since`` for people with nothing to decide: whose
    whole turn it was (no move, or an only move), and the dice of the player now to move."""
    history, seats = played.match.history, played.header.seats
    news, moved = sms.Handoff(), {}  # seat -> whether a turn of theirs played an only move
    start = since
    for step in range(since, len(history) + 1):
        if step < len(history) and history[step][1] == history[start][1]:
            continue
        seat = history[start][1] if start < len(history) else None
        if seat is not None and step < len(history) and not seats[seat].bot and \
                seat != played.match.turn and played.forced_turn(start, step):
            moved[seat] = moved.get(seat, False) or \
                any(kind == "move" for kind, _, _ in history[start:step])
        elif seat == played.match.turn and step == len(history):  # the next player's own turn
            rolls = [dice for kind, _, dice in history[start:] if kind == "roll"]
            news.rolled = tuple(rolls[-1]) if rolls else ()
        start = step
    for seat, only in moved.items():
        (news.only_move if only else news.no_move).append(seats[seat].name)
    return news


def _text_to(played: Game, to: Seat, text: str, deliver: bool) -> dict:
    """Text ``to`` (when ``deliver`` and their number is known: through the outbox, once for
    this step of the game), or say how to send it."""
    delivery = outbox_send(played, to.phone, text, to.whatsapp) if deliver and to.phone \
        else sms.Delivery("not-sent")
    return {
        "to": to.name,
        "text": text,
        "status": delivery.status,
        "error": i18n.say(delivery.error) if delivery.error else None,
        "sms_href": sms.sms_href(to.phone, text),
        # WhatsApp's click-to-chat address; ``whatsapp``: the player chose it (the page offers
        # it first); ``channel``: how the server sent it ("sms", "whatsapp"; None: it didn't).
        "whatsapp_href": sms.whatsapp_href(to.phone, text),
        "whatsapp": to.whatsapp,
        "channel": delivery.channel if delivery.status == "sent" else None,
    }


def outbox_send(played: Game, phone: str, text: str, whatsapp: bool = False) -> sms.Delivery:
    """Text (or, for a player who chose it, send by WhatsApp) through the outbox, for this step
    of the game. The game has moved on already when this runs: a store that fails now costs
    the text (sent by hand), not the turn."""
    try:
        return outbox().send(played.header.seed, len(played.match.steps), phone, text,
                             whatsapp, played.header.lang)
    except StoreUnavailable:
        return sms.Delivery("failed", error=sms.SERVICE_DOWN)
