"""Rate limits per client address (Flask-Limiter) on what could be repeated to find or fill
rooms: making a room, joining one, and asking for a room that doesn't exist (only misses
count, so the phones of a room polling every second never reach it).

Each app has its own limiter, counting in its process's memory: enough for one server. On
Lambda every instance counts alone, so the edge limits in front (API Gateway throttling, a WAF
rate rule: docs/deploy.md) are what bound the whole deployment.
"""

from __future__ import annotations

import os

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# Settings (environment variables of the same name), in Flask-Limiter's notation.
DEFAULTS = {
    "ROOMS_PER_ADDRESS": "30 per hour",
    "ROOM_JOINS_PER_ADDRESS": "60 per hour",
    "ROOM_MISSES_PER_ADDRESS": "20 per minute",
}


def settings() -> dict:
    return {name: os.environ.get(name) or value for name, value in DEFAULTS.items()}


def limit_rooms(app: Flask) -> None:
    """Put the limits on the room endpoints of ``app`` (registered already)."""
    limiter = Limiter(get_remote_address, app=app, storage_uri="memory://",
                      headers_enabled=True)
    limited = {  # endpoint: (setting, shared scope)
        "rooms.create": ("ROOMS_PER_ADDRESS", "made"),
        "rooms.from_link": ("ROOMS_PER_ADDRESS", "made"),
        "rooms.join": ("ROOM_JOINS_PER_ADDRESS", "joins"),
        "rooms.read": ("ROOM_MISSES_PER_ADDRESS", "misses"),
        "pages.room": ("ROOM_MISSES_PER_ADDRESS", "misses"),
    }
    for endpoint, (setting, scope) in limited.items():
        app.view_functions[endpoint] = limiter.limit(
            app.config[setting], scope=scope,
            deduct_when=_missed if scope == "misses" else None)(app.view_functions[endpoint])


def _missed(response) -> bool:
    """A request that found no room: what someone trying codes would mostly get."""
    return response.status_code == 404
