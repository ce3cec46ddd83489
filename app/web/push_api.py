"""Notifications on a player's phone (Web Push, app/push.py): switching them on for a seat of a
game, and off.

``POST /api/games/<token>/push`` ``{"subscription": PushSubscription.toJSON(), "texts"?}``
keeps the browser's subscription for the seat to move at this link (its player's link), in
place of any other: from then on that seat's turns are pushed to this phone, and texted too only
with ``"texts": true``. Only for a person's seat, from the game's newest link, and not from the
browser that made the link and sent it on (it would get the next player's turns) unless it is a
new game's first link and the seat its host's; or from the link this browser has just played
on (``_whose``). Both requests are counted per client
address (``Limits``, scope ``push``: ``PUSH_CHANGES_PER_ADDRESS``): past it, 429.

``DELETE /api/games/<token>/push`` ``{"seat", "endpoint"}``, from any link of the game: the
server forgets that seat's subscription if it is this endpoint's (the browser that knows it is
the one it notifies). Answered ``{"on": false}`` either way.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request

from app import i18n
from app.engine.text import N_
from app.push import MAX_BODY, StoreConflict, parse_subscription, public_key
from app.ledger import digest
from app.web.bookkeeping import device, standing_of, subscriptions
from app.web.limits import limits
from app.web.parse import (BadRequest, MovedOn, NotYours, WrongSeat, json_body, message,
                           seat_number)
from app.web.turns import humans_played, keys
from app.web.views import load

bp = Blueprint("push", __name__)

NO_PUSH = N_("This server sends no notifications: the link comes by text or by hand.")
NOT_YOURS = N_("Only the player the link was sent to can ask for its notifications: the phone "
               "that sent it can't.")
BOT = N_("Bots get no notifications.")


class NotOffered(ValueError):
    status = 404


def _body() -> dict:
    """The request's JSON, at most ``MAX_BODY`` bytes (Werkzeug's own limit: 413 past it)."""
    request.max_content_length = MAX_BODY
    return json_body()


@bp.post("/games/<token>/push")
def subscribe(token):
    """Notify this phone of the seat's turns (see the module's docstring)."""
    if not keys().vapid:
        raise NotOffered(NO_PUSH)
    limits().take("push")
    data = _body()
    played, _ = load(token, keys())
    i18n.use_table_lang(played.header.lang)
    if played.over:
        raise MovedOn(message("game_over"))
    subscription = parse_subscription(data.get("subscription"), data.get("texts", False),
                                      current_app.config["PUSH_SERVICES"])
    seat = _whose(played, token)
    if played.header.seats[seat].bot:
        raise WrongSeat(BOT)
    try:
        expires = subscriptions().keep(played.header.seed, seat, subscription)
    except StoreConflict:
        raise MovedOn(message("try_again")) from None
    return jsonify({"on": True, "seat": seat, "name": played.header.seats[seat].name,
                    "texts": subscription.texts, "expires_at": int(expires),
                    "key": public_key(keys().vapid)}), 201


def _whose(played, token: str) -> int:
    """The seat whose notifications this request may switch on: the player this link went to
    (its seat to move), asking from their own phone. That is the newest link, opened by a
    browser other than the one that made it (which sent it on), or a new game's first link and
    its host, who made it; or the link just played on by this browser (the page after its turn
    was sent). Anything else: 403 or 409."""
    standing = standing_of(played, token)
    if standing.room:
        raise MovedOn(message("in_room", code=standing.room))
    seat, here = played.match.turn, device()
    if standing.current:
        first = not humans_played(played) and seat == played.header.host
        if standing.made_by(here) and not first:
            raise NotYours(NOT_YOURS)
        return seat
    newest = standing.data
    if here is None or newest.get("from") != standing.link or newest.get("by") != digest(here):
        raise MovedOn(message("moved_on"))
    return seat


@bp.delete("/games/<token>/push")
def unsubscribe(token):
    """Forget the seat's subscription, if it is to this endpoint."""
    limits().take("push")
    data = _body()
    seat = seat_number(data)
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        raise BadRequest(N_("Say which subscription to switch off (\"endpoint\")."))
    played, _ = load(token, keys())
    i18n.use_table_lang(played.header.lang)
    if not 0 <= seat < len(played.header.seats):
        raise BadRequest(message("no_seat"))
    subscriptions().forget(played.header.seed, seat, endpoint)
    return jsonify({"on": False, "seat": seat})
