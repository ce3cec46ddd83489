"""The store as the web handlers use it: opened once per process on first use (Lambda's cold
start pays for boto3 only when a request needs it), the ledger and outbox on it, and the
browser's ``device`` cookie, which tells the browser that made a link from the one it reaches.
"""

from __future__ import annotations

import secrets
import threading

from flask import current_app, request

from app.ledger import Ledger
from app.outbox import Limits, Outbox
from app.store import Store, open_store

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
                opened = open_store(app.config.get("STORE_URL"), _clock(app))
                app.extensions["boardpass.store"] = opened
    return opened


def _clock(app):
    """The store's clock: the app's (``CLOCK`` when tests set one), read at every call."""
    import time

    return lambda: app.config.get("CLOCK", time.time)()


def ledger() -> Ledger:
    return Ledger(store())


def outbox() -> Outbox:
    config = current_app.config
    return Outbox(store(), config["KEYS"].phone, Limits.from_config(config))


def device() -> str | None:
    """This browser's device cookie, if it has one (API clients may not)."""
    value = request.cookies.get(DEVICE_COOKIE)
    return value if value and len(value) <= 64 else None


def give_device(response):
    """Pages give a browser its device cookie once: a random name, nothing about the person."""
    if request.method == "GET" and not request.path.startswith(("/api/", "/static/")) and \
            not device() and response.status_code < 400:
        response.set_cookie(DEVICE_COOKIE, secrets.token_urlsafe(16),
                            max_age=DEVICE_DAYS * 24 * 3600, samesite="Lax", httponly=True,
                            secure=request.is_secure)
    return response
