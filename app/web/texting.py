"""Texting a game's next link to the player it goes to: through the outbox (once per step of
the game and recipient, within its limits: app/outbox.py), by SMS or, for a player who chose it,
WhatsApp; or, where the server doesn't text, the words and the links (sms:, WhatsApp) that send
it by hand. Every answer that makes a link says which (its ``message``).

A player who asked for notifications on their phone (``app/push.py``) gets one first; the text
or WhatsApp then goes only if the push service says the subscription is gone (404, 410: it is
forgotten) or the player asked for the texts as well.
"""

from __future__ import annotations

from flask import current_app

from app import compose_links, i18n, twilio_send, wording
from app.delivery import Delivery
from app.engine.games import TITLES
from app.link import Seat
from app.play import Game
from app.store import StoreUnavailable
from app.web.bookkeeping import host_key, outbox, pusher, subscriptions


def may_text(played: Game, known: set) -> bool:
    """Text from our number only to a number the game already had (a number typed in this
    request is used from the next turn on), and only with PUBLIC_URL set (links built from a
    request's Host header could be forged). The outbox bounds the rest (``app/outbox.py``)."""
    if played.over or not current_app.config["PUBLIC_URL"]:
        return False
    return played.header.seats[played.match.turn].phone in known


def send_link(played: Game, mover: str | None, url: str, deliver: bool = True,
              since: int = 0, notify: bool = False) -> dict:
    """Text the next link to the player it goes to, or say how to send it by hand; the text
    says what was played for the people from step ``since`` on (``handoff``). ``notify``: a
    turn was handed on, so a player with a push subscription gets their notification.

    A new game's first link is not texted by the server: its creator sends it (the page's
    "Send to" button), so nobody gets a text from a stranger's number unasked.
    """
    if played.over:
        if not played.rules.rematches:
            return {"to": None, "text": None, "status": "game-over", "error": None,
                    "sms_href": None, "whatsapp_href": None, "whatsapp": False,
                    "channel": None, "pushed": False}
        # Nobody is texted; the page offers the host the final link (their rematch is there).
        host = played.header.seats[played.header.host]
        winner = played.header.seats[played.state.winner].name
        hosts = f"{url}?host={host_key(played)}"  # their link: the rematch is theirs alone
        text = wording.results_message(winner, host.name, hosts, TITLES[played.header.game],
                                       played.header.lang)
        return {"to": host.name, "text": text, "status": "game-over", "error": None,
                "url": hosts,
                "sms_href": compose_links.sms_href(host.phone, text),
                "whatsapp_href": compose_links.whatsapp_href(host.phone, text),
                "whatsapp": host.whatsapp, "channel": None, "pushed": False}
    to = played.header.seats[played.match.turn]
    news = handoff(played, since)
    title = i18n.translate(TITLES[played.header.game], played.header.lang)  # "Parchís"
    text = wording.turn_message(mover, to.name, url, title, played.header.lang, news)
    pushed = push_turn(played, mover, url, news) if notify else None
    return _text_to(played, to, text, deliver, pushed)


def handoff(played: Game, since: int) -> wording.Handoff:
    """What the server played from step ``since`` for people with nothing to decide: whose
    whole turn it was (no move, or an only move), and the dice of the player now to move."""
    history, seats = played.match.history, played.header.seats
    news, moved = wording.Handoff(), {}  # seat -> whether a turn of theirs played an only move
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


def push_turn(played: Game, mover: str | None, url: str,
              news: wording.Handoff) -> tuple[Delivery, bool] | None:
    """The notification that it is their turn, to the player to move, if they have a push
    subscription: (what became of it, whether they want the texts too). None when there is
    nothing to push to (no subscription, no VAPID key, no PUBLIC_URL: a link built from a
    request's Host header could be forged, as for texts; or the store down)."""
    sender = pusher()
    if sender is None or not current_app.config["PUBLIC_URL"]:  # (a game over: send_link)
        return None
    from app.push import notice, topic

    seed, seat = played.header.seed, played.match.turn
    to = played.header.seats[seat]
    try:
        kept = subscriptions()
        subscription = kept.get(seed, seat)
        if subscription is None:
            return None
        words = notice(mover, to.name, TITLES[played.header.game], url,
                       f"boardpass-{seed.hex()[:16]}", played.header.lang, news)
        delivery = outbox().push(seed, len(played.match.steps), kept.who(subscription),
                                 lambda: sender.send(subscription, words,
                                                     topic=topic(seed, seat)))
        if delivery.status == "gone":
            kept.forget(seed, seat, subscription.endpoint)
        elif delivery.status == "sent":
            kept.renew(seed, seat, subscription)
    except StoreUnavailable:
        return None
    return delivery, subscription.texts


def _text_to(played: Game, to: Seat, text: str, deliver: bool,
             pushed: tuple[Delivery, bool] | None = None) -> dict:
    """Text ``to`` (when ``deliver`` and their number is known: through the outbox, once for
    this step of the game), or say how to send it. ``pushed``: the notification sent them
    first (``push_turn``), and whether they want the texts too: without, they are texted only
    if the push service said their subscription is gone."""
    push, texts_too = pushed or (None, True)
    if push is not None and push.status == "gone":
        push = None  # forgotten: as if they had never asked
    if deliver and to.phone and (push is None or texts_too):
        delivery = outbox_send(played, to.phone, text, to.whatsapp)
        if push is not None and push.status == "sent" and delivery.status != "sent":
            delivery = push  # the text didn't go (or wasn't needed): the notification did
    else:
        delivery = push or Delivery("not-sent")
    return {
        "to": to.name,
        "text": text,
        "status": delivery.status,
        "error": i18n.say(delivery.error) if delivery.error else None,
        "sms_href": compose_links.sms_href(to.phone, text),
        # WhatsApp's click-to-chat address; ``whatsapp``: the player chose it (the page offers
        # it first); ``channel``: how the server sent it ("sms", "whatsapp"; None: it didn't).
        "whatsapp_href": compose_links.whatsapp_href(to.phone, text),
        "whatsapp": to.whatsapp,
        "channel": delivery.channel if delivery.status == "sent" else None,
        # Whether their phone was notified (``channel`` is "push" when nothing else went).
        "pushed": push is not None and push.status == "sent",
    }


def outbox_send(played: Game, phone: str, text: str, whatsapp: bool = False) -> Delivery:
    """Text (or, for a player who chose it, send by WhatsApp) through the outbox, for this step
    of the game. The game has moved on already when this runs: a store that fails now costs
    the text (sent by hand), not the turn."""
    try:
        return outbox().send(played.header.seed, len(played.match.steps), phone, text,
                             whatsapp, played.header.lang)
    except StoreUnavailable:
        return Delivery("failed", error=twilio_send.SERVICE_DOWN)
