"""Rate limits per client address on what could be repeated to find or fill rooms: making a
room, joining one, and asking for a room that doesn't exist; and on the one room change that
moves no game on (the bots' speed), which a seated phone could otherwise write for ever.

Counted by ``limits`` (the library under Flask-Limiter) in fixed windows, in the process's
memory: enough for one server. On Lambda every instance counts alone, so the edge limits in
front (API Gateway throttling, a WAF rate rule: docs/deploy.md) bound the whole deployment.

Only misses count against ``ROOM_MISSES_PER_ADDRESS``, so the phones of a room polling every
second never reach it; but an address past it is refused every room, found or not, or it
would learn which codes exist from which answers aren't refused. A room's poll costs one
look at a counter, nothing more.
"""

from __future__ import annotations

import os
import threading

from flask import current_app, request
from werkzeug.exceptions import TooManyRequests

# Settings (environment variables of the same name), in the notation of ``limits``.
DEFAULTS = {
    "ROOMS_PER_ADDRESS": "30 per hour",
    "ROOM_JOINS_PER_ADDRESS": "60 per hour",
    "ROOM_MISSES_PER_ADDRESS": "20 per minute",
    "ROOM_SPEEDS_PER_ADDRESS": "60 per hour",
}
SCOPES = {"made": "ROOMS_PER_ADDRESS", "joins": "ROOM_JOINS_PER_ADDRESS",
          "misses": "ROOM_MISSES_PER_ADDRESS", "speeds": "ROOM_SPEEDS_PER_ADDRESS"}
_making = threading.Lock()


def settings() -> dict:
    return {name: os.environ.get(name) or value for name, value in DEFAULTS.items()}


class Limits:
    """The app's counters (made at the first request that needs them: ``limits`` costs a few
    milliseconds to import, which a Lambda cold start needn't pay for a game's page)."""

    def __init__(self, config):
        from limits import parse
        from limits.storage import MemoryStorage
        from limits.strategies import FixedWindowRateLimiter

        self.window = FixedWindowRateLimiter(MemoryStorage())
        self.items = {scope: parse(config[setting]) for scope, setting in SCOPES.items()}

    def take(self, scope: str) -> None:
        """Count one more ``scope`` for this address: 429 past its limit."""
        if not self.window.hit(self.items[scope], scope, _address()):
            self.refuse(scope)

    def check(self, scope: str) -> None:
        """429 if this address is past its ``scope`` limit, counting nothing."""
        if not self.window.test(self.items[scope], scope, _address()):
            self.refuse(scope)

    def refuse(self, scope: str):
        import time

        stats = self.window.get_window_stats(self.items[scope], scope, _address())
        raise TooManyRequests(retry_after=max(1, int(stats.reset_time - time.time()) + 1))


def limits() -> Limits:
    app = current_app._get_current_object()
    made = app.extensions.get("boardpass.limits")
    if made is None:
        with _making:
            made = app.extensions.setdefault("boardpass.limits", Limits(app.config))
    return made


def _address() -> str:
    """The client's address (on Lambda, API Gateway's source IP, which Zappa passes on); an
    IPv6 address by its /64, which one household or one phone has whole.

    >>> from flask import Flask
    >>> with Flask(__name__).test_request_context(environ_base={"REMOTE_ADDR": "2001:db8::1"}):
    ...     _address()
    '2001:db8::/64'
    """
    address = request.remote_addr or "-"
    if ":" in address:
        import ipaddress

        try:
            return str(ipaddress.ip_network(address + "/64", strict=False))
        except ValueError:
            pass
    return address
