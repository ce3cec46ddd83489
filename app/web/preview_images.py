"""The link previews' images, drawn by preview.py: Boardpass's own (``/preview.png``, every
page's but a game's and a room's), a link's (``/g/<token>/preview.png``) and a room's
(``/r/<code>/preview.png``).

A link never changes, so neither does its image: it is answered ``immutable`` with an ETag (a
hash of the link and ``preview.RENDER_VERSION``), and kept in the process's memory for the next
fetcher (``IMAGES_KEPT``, the most recently asked). A link that can't be read previews as
Boardpass, never as an error; so does a link asked past the limits on drawing
(``PREVIEWS_PER_ADDRESS``, ``PREVIEWS_IN_ALL``: app/web/limits.py) or while its process is
drawing another, at once.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from flask import Blueprint, current_app, request

from app.link import LinkError
from app.play import Game
from app.web import preview
from app.web.limits import limits
from app.web.live_rooms import NoRoom, find

bp = Blueprint("preview", __name__)

CACHE_SECONDS = 365 * 24 * 3600
IMAGES_KEPT = 32  # rendered images kept in memory, the most recently asked
# Held while this process draws an image: one at a time, so that a burst of fetchers never has
# a process's threads all drawing (the limits bound drawing per minute, not at once), and its
# pages keep their turn at the processor.
DRAWING = threading.Lock()


def _kept() -> tuple[OrderedDict, threading.Lock]:
    return current_app.extensions.setdefault("boardpass.previews",
                                             (OrderedDict(), threading.Lock()))


def etag_of(token: str) -> str:
    """The image's ETag: it depends on the link alone (and the drawing's version)."""
    return hashlib.sha256(f"preview/{preview.RENDER_VERSION}/{token}".encode()).hexdigest()[:24]


def _png(body: bytes | None, etag: str, cache_control: str):
    response = current_app.response_class(body or b"", mimetype="image/png")
    response.set_etag(etag)
    response.headers["Cache-Control"] = cache_control
    if body is None:
        response.status_code = 304
    return response


def _answer(token: str, cache_control: str):
    """The image of the link ``token``: 304 when the asker has it, else from memory or drawn."""
    etag = etag_of(token)
    if request.if_none_match.contains(etag):
        try:  # only a good link's image is "unchanged": a forged one gets the generic
            Game.from_token(token, current_app.config["KEYS"])
        except LinkError:
            return _generic()
        return _png(None, etag, cache_control)
    kept, guard = _kept()
    with guard:
        body = kept.get(token)
        if body is not None:
            kept.move_to_end(token)
    if body is None:
        try:
            game = Game.from_token(token, current_app.config["KEYS"])
        except LinkError:
            return _generic()
        if not DRAWING.acquire(blocking=False):  # drawing is the costly part: never a wait
            return _generic(again=True)
        try:
            if not limits().allows("previews"):
                return _generic(again=True)
            body = preview.render(game)
        finally:
            DRAWING.release()
        with guard:
            kept[token] = body
            if len(kept) > IMAGES_KEPT:
                kept.popitem(last=False)
    return _png(body, etag, cache_control)


def _generic(again: bool = False):
    """A link that can't be read previews as Boardpass, never as an error; so does one asked
    past the limits on drawing (``again``: not to be kept, the link's own may come later)."""
    return _png(preview.generic_png(), f"generic-{preview.RENDER_VERSION}",
                "no-store" if again else "public, max-age=86400")


@bp.get("/preview.png")
def generic_image():
    """Boardpass's own preview image: every page's but a game's and a room's."""
    return _generic()


@bp.get("/g/<token>/preview.png")
def game_image(token):
    """A link's preview image: the same for good, like the link (``private``: its address
    holds the link, which has no place in a shared cache)."""
    return _answer(token, f"private, max-age={CACHE_SECONDS}, immutable")


@bp.get("/r/<code>/preview.png")
def room_image(code):
    """A room's preview image: its current link's, asked again each time (the room moves on;
    the ETag saves the image while it doesn't)."""
    try:
        room = find(code)  # counted like any visit: codes are no cheaper to try here
    except NoRoom:
        return _generic()
    return _answer(room.token, "private, no-cache")
