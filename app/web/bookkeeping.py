"""The store as the web handlers use it: opened once per process on first use (Lambda's cold
start pays for boto3 only when a request needs it), the ledger, outbox and push subscriptions
on it, and the
browser's ``device`` cookie, which tells the browser that made a link from the one it reaches.

The ledger's rules for the handlers are here too: only a game's newest link plays (a link's
standing says whether it is the newest; a turn moves the game on from it, once), and no roll is
shown before the choices that come before it are recorded (``fix``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading

from flask import current_app, request

from app.ledger import CLAIM_POINTS, Ledger, Standing
from app.outbox import Limits, Outbox
from app.play import Game
from app.store import Store, StoreUnavailable, open_store
from app.web.parse import MovedOn, RollShown, message

DEVICE_COOKIE = "device"
DEVICE_DAYS = 730
_opening = threading.Lock()


def store() -> Store:
    app = current_app._get_current_object()
    opened = app.extensions.get("boardpass.store")
    if opened is None:
        with _opening:
            opened = app.extensions.get("boardpass.store")
            if opened is None:
                opened = open_store(app.config["STORE_URL"], _clock(app),
                                    app.config["STORE_CREATE"])
                app.extensions["boardpass.store"] = opened
    return opened


def _clock(app):
    """The store's clock: the app's ``CLOCK``, read at every call (tests move theirs)."""
    return lambda: app.config["CLOCK"]()


def ledger() -> Ledger:
    return Ledger(store())


def outbox() -> Outbox:
    config = current_app.config
    return Outbox(store(), config["KEYS"].phone, Limits.from_config(config))


def subscriptions():
    """The players' push subscriptions in the store (``app/push.py``)."""
    from app.push import Subscriptions

    return Subscriptions(store(), current_app.config["KEYS"].phone)


def pusher():
    """What sends notifications, with the deployment's VAPID key and contact; None without
    either."""
    config = current_app.config
    if not config["KEYS"].vapid:
        return None
    from app.push import Pusher

    from app.push import contact

    subject = contact(config["VAPID_SUBJECT"] or "", config["PUBLIC_URL"] or "")
    if subject is None:  # said when the server started (create_app)
        return None
    return Pusher(config["KEYS"].vapid, subject, config["PUSH_SERVICES"])


def device() -> str | None:
    """This browser's device cookie, if it has one (API clients may not)."""
    value = request.cookies.get(DEVICE_COOKIE)
    return value if value and len(value) <= 64 else None


def private_page(response) -> bool:
    """Whether an answer may carry a cookie: an HTML page no cache keeps (``no-store``, which
    ``security_headers`` gives every page that says nothing else). A shared cache would hand
    one cookie to everyone it serves: a device id, and a room gives a seat back by it."""
    return response.mimetype == "text/html" and response.cache_control.no_store


def give_device(response):
    """Pages give a browser its device cookie once: a random name, nothing about the person."""
    if request.method == "GET" and not device() and response.status_code < 400 and \
            private_page(response):
        response.set_cookie(DEVICE_COOKIE, secrets.token_urlsafe(16),
                            max_age=DEVICE_DAYS * 24 * 3600, samesite="Lax", httponly=True,
                            secure=request.is_secure)
    return response


# -- the host of a finished Ludo game: their link, or the browser that made the game -------------

def host_key(played: Game, signing: bytes | None = None) -> str:
    """The key in the host's link (``?host=``, where the rematch is): signed for this game, so
    another phone can't write it; by the newest signing key unless told."""
    signing = signing or current_app.config["KEYS"].signing[-1]
    mac = hmac.digest(signing, b"boardpass/host" + played.header.seed, hashlib.sha256)
    return base64.urlsafe_b64encode(mac[:12]).decode()


def host_here(played: Game, key: str | None) -> bool:
    """Whether this page is the host's: opened by the host's link (``key``, from any signing
    key, as links rotate) or in the browser that made the game."""
    if isinstance(key, str) and key and any(
            hmac.compare_digest(key.encode(), host_key(played, signing).encode())
            for signing in current_app.config["KEYS"].signing):
        return True
    try:
        return standing_of(played, "").game_made_by(device())
    except StoreUnavailable:
        return False


# -- the newest link (app/ledger.py): only it plays -----------------------------------------------

def to_move(played: Game) -> int | None:
    """The seat to move, as the ledger records it (None: the game is over)."""
    return None if played.over else played.match.turn


def begin(played: Game) -> str:
    """A new game's first link, recorded as made by this browser (its opening by this browser
    starts nobody's time)."""
    token = played.token()
    ledger().begin(played.header.seed, token, len(played.match.steps), to_move(played), device(),
                   seats=len(played.header.seats))
    return token


def standing_of(played: Game, token: str) -> Standing:
    """What the ledger knows of this link: whether it is the game's newest, and more."""
    return ledger().standing(played.header.seed, token, len(played.match.steps), to_move(played),
                             len(played.header.seats))


def current_standing(played: Game, token: str, ask: str | None = None) -> Standing:
    """The link's standing; an older link is refused (409), unless ``ask`` repeats the request
    that moved the game on from it (the caller answers that with the same link)."""
    standing = standing_of(played, token)
    if standing.room:
        raise MovedOn(message("in_room", code=standing.room))
    if not standing.current and not (ask and standing.repeats(ask, device())):
        raise MovedOn(message("moved_on"))
    return standing


def with_backs(played: Game, standing: Standing) -> Game:
    """The game with the players who said "I'm back" since its link was made back."""
    for seat in standing.backs:
        if seat in played.away():
            played = played.with_player_back(seat)
    return played


def with_fixed(played: Game, standing: Standing, watch=None) -> Game:
    """``played`` (the link ``standing`` is about) with the steps of its turn in progress that a
    roll shown has fixed played on it (``watch(match)`` after each): where any later play of
    the turn starts, whoever plays it (the page, the server for an absent player, a room)."""
    for index, _ in standing.fixed:
        played.step(index)
        if watch:
            watch(played.match)
    return played


def advance(standing: Standing, ask: str, played: Game, token: str, start: int, fixed=()):
    """Record ``token`` as the game's newest link: (its standing, None) when done; (None, the
    standing of the link sent from) when this browser's same request did it first (a double
    tap), to answer like it; else 409. The entry may have changed under us without the game
    moving on (the link reached its player, someone said "I'm back"): then try again.
    ``fixed``: the steps of the new link's turn in progress a roll shown has fixed."""
    applied = standing.backs  # with_backs gave the game these
    checked = standing.fixed  # what the request's steps were checked against (``fix``)
    for _attempt in range(3):
        made = ledger().advance(standing, ask, token, len(played.match.steps), to_move(played),
                                start, device(), applied, len(played.header.seats), fixed)
        if made:
            return made, None
        standing = ledger().again(standing)
        if standing.room:  # gone live meanwhile: the room plays it now
            raise MovedOn(message("in_room", code=standing.room))
        if standing.repeats(ask, device()):
            return None, standing
        if not standing.known:
            raise MovedOn(message("moved_on"))
        if standing.fixed != checked:  # a roll shown meanwhile fixed steps: check them again
            raise MovedOn(message("try_again"))
    raise MovedOn(message("try_again"))


def fix(standing: Standing, played: Game, fewer: bool = False) -> Standing:
    """Check ``played`` (the link ``standing`` is about, with a turn's steps played on it)
    against the steps a roll shown has fixed, and record the ones its answer will fix: call it
    before answering with what a roll shows. Steps that differ from the fixed ones are refused
    (409), however the request came: the page's Undo, a second tab, the API; ``fewer`` lets a
    question about a moment before the last of them through (the chances there show no roll
    that isn't seen already)."""
    start = standing.step
    for _attempt in range(3):
        fixed = standing.fixed
        mine = played.match.steps[start:start + len(fixed)]
        if mine != (fixed[:len(mine)] if fewer else fixed):
            raise RollShown(message("roll_shown"))
        now_fixed = played.fixed(start)
        if len(now_fixed) <= len(fixed):
            return standing
        made = ledger().fix(standing, now_fixed)
        if made:
            return made
        standing = ledger().again(standing)  # another request wrote first: check again
        if not standing.current:
            raise MovedOn(message("moved_on"))
    raise MovedOn(message("try_again"))


def claim_shown(standing: Standing, played: Game, moment: float) -> float:
    """When ``played``'s claim point was first shown on this link (recorded now, ``moment``,
    the first time): its window runs from then however often it is asked for again (a reload,
    the API), so a re-roll can't be weighed at leisure and claimed late. A turn reaches one or
    two; past ``CLAIM_POINTS`` (a client walking through every move that earns a re-roll), a
    new one is as old as the first, and nothing more is written."""
    point = played.claim_point()
    for _attempt in range(3):
        if point in standing.claims:
            return standing.claims[point]
        if len(standing.claims) >= CLAIM_POINTS:  # more than a turn reaches: no more writes,
            return min(standing.claims.values())  # and no window newer than the first
        if ledger().claim_shown(standing, point, moment):
            return moment
        standing = ledger().again(standing)  # another request wrote first: check again
        if not standing.current:
            raise MovedOn(message("moved_on"))
    raise MovedOn(message("try_again"))
