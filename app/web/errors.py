"""An error's answer, the same wherever it is raised: JSON ``{"error": {"code", "message"}}``
under /api/, a friendly page elsewhere, in the request's language.

Every error handler is registered here, app-wide, by ``init_app``: each chooses its error's
title and status. The errors themselves live beside the code that raises them.
"""

from __future__ import annotations

from flask import Flask, current_app, render_template, request

from app import i18n
from app.engine.text import N_
from app.link import BadSignature, LinkError, MalformedLink, OversizedLink, TruncatedLink
from app.play import ClaimMissed, TurnError
from app.push import BadSubscription
from app.store import StoreUnavailable
from app.web import preview
from app.web.live_rooms import NoRoom
from app.web.parse import (STATUS, BadRequest, MovedOn, NotHost, NotJson, NotYours, RollShown,
                           TableFull, TooEarly, WrongSeat)
from app.web.push_api import NotOffered
from app.web.room_api import Stale
from app.web.same_site import CrossSite

# Werkzeug's own errors, in our words (its descriptions are English only).
HTTP_ERRORS = {
    400: (N_("Bad request"), N_("The request couldn't be read.")),
    405: (N_("Not allowed"), N_("This address can't be used that way.")),
    413: (N_("Too much"), N_("The request is too large.")),
    414: (N_("Address too long"), N_("This address is far too long.")),
    429: (N_("Too many tries"), N_("Too many requests from here: wait a little and try "
                                    "again.")),
}

RETRY_SECONDS = 30  # the store down: when to try again
# Links broken on their way (cut off, changed, run together with more): the page asks for the
# link again. Not a link from another version, nor one whose moves don't fit the game: sent
# again, it would be the same.
BROKEN = (TruncatedLink, BadSignature, MalformedLink, OversizedLink)


def init_app(app: Flask) -> None:
    """Register every error's handler on ``app``."""
    app.register_error_handler(LinkError, link_error)
    for refusal in (BadRequest, NotJson, WrongSeat, NotHost, TableFull, TooEarly, MovedOn,
                    RollShown, NotYours, BadSubscription, NotOffered):
        app.register_error_handler(refusal, request_error)
    app.register_error_handler(TurnError, turn_error)
    app.register_error_handler(ClaimMissed, claim_missed)
    app.register_error_handler(Stale, stale)
    app.register_error_handler(NoRoom, no_room)
    app.register_error_handler(CrossSite, cross_site)
    app.register_error_handler(404, not_found)
    for code in HTTP_ERRORS:
        app.register_error_handler(code, http_error)
    app.register_error_handler(StoreUnavailable, store_unavailable)
    app.register_error_handler(500, server_error)


def error_answer(title: str, message: str, status: int, code: str, typed: str | None = None,
                 broken: bool = False):
    """The same error as JSON under /api/, as a friendly page elsewhere, in the request's
    language (``title`` and ``message`` are marked messages: ``N_`` or ``Text``). ``typed``: a
    room code that found no room, offered again in the code field to correct. ``broken``: a
    link that broke on its way, which the page asks to have sent again."""
    message = i18n.say(message)
    if request.path.startswith("/api/"):
        return {"error": {"code": code, "message": message}}, status
    return render_template("error.html", title=i18n.say(title), message=message,
                           status=status, join_form=typed is not None, typed=typed,
                           broken=broken), status


def link_error(error):
    status = STATUS.get(type(error).__name__, 400)
    if preview.page_asked():
        status = 200  # the page that says why, with Boardpass's own preview (previews.md)
    return error_answer(N_("This link doesn't work"), error.args[0], status,
                        type(error).__name__, broken=isinstance(error, BROKEN))


def request_error(error):
    return error_answer(N_("That request can't be answered"), error.args[0], error.status,
                        type(error).__name__)


def turn_error(error):
    return error_answer(N_("That move can't be played"), error.args[0], 422, "TurnError")


def claim_missed(error):
    """Too late for the re-roll: the page then lets it go ("miss")."""
    return error_answer(N_("Too late for the re-roll"), error.args[0], 409, "ClaimMissed")


def stale(error):
    """A change against an older version of a room: the error, and the room as it is now."""
    return {"error": {"code": "Stale", "message": i18n.say(error.args[0])},
            "room": error.room}, 409


def no_room(error):
    # A page that says why, with Boardpass's own preview, to everyone (docs/previews.md).
    status = 200 if preview.page_asked() else 404
    return error_answer(N_("No such room"), error.args[0], status, error.code, typed=error.typed)


def cross_site(_error):
    return error_answer(N_("Sent from another site"),
                        N_("This was sent from another website's page, so Boardpass did "
                           "nothing with it. To play, open Boardpass itself and try again."),
                        403, "CrossSite")


def not_found(error):
    # A game's link cut off after /g/ (or run on past its token) leads nowhere: asked again.
    return error_answer(N_("Nothing here"), N_("This address doesn't lead to a game."), 404,
                        "NotFound", broken=request.path.startswith("/g/"))


def http_error(error):
    title, text = HTTP_ERRORS[error.code]
    body, status = error_answer(title, text, error.code, error.name.replace(" ", ""))
    # 405 says what is allowed, 429 when to try again
    said = {name: value for name, value in error.get_headers() if name in ("Allow", "Retry-After")}
    return body, status, said


def store_unavailable(error):
    """The store is down or slow: what needs it waits, nothing is decided without it (reading
    a game and the rules pages don't need it)."""
    current_app.logger.warning("store unavailable: %s", error)
    body, status = error_answer(N_("Try again in a minute"),
                                N_("Boardpass can't keep track of games right now, so nothing "
                                   "can be played or sent. Your game is safe: its link still "
                                   "works."),
                                503, "StoreUnavailable")
    return body, status, {"Retry-After": str(RETRY_SECONDS)}


def server_error(error):
    return error_answer(N_("Something went wrong"),
                        N_("Something went wrong on our side. Your game is safe: its link "
                           "still works."),
                        500, "ServerError")
