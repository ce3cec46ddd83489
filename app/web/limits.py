"""Rate limits on what could be repeated to find or fill rooms: making a room, joining one, and
asking for a room that doesn't exist; on making a game by link (a write to the store, and the
bots to move first played at once); on the one room change that moves no game on (the bots'
speed), which a seated phone could otherwise write for ever; on drawing link previews, the
one answer to a GET that costs real CPU (app/web/preview_images.py); and on switching a
seat's notifications on or off (app/web/push_api.py), each a write to the store.

Counted in the store, in fixed windows (``limit#<scope>#<who>#<window>``, one atomic counter
that expires with its window: ``Store.count``), so there is one count for the whole
deployment: every gunicorn worker and every Lambda instance shares it. A limit costs one
conditional write when something is counted, one read when it is only looked at.

Who is counted is the client's address (``client_address``) as a bare IP, whatever port or
brackets a proxy wrote around it, an IPv6 address by its /64 (one household or phone has it
whole); anything that isn't an address is one shared client, counted by every counter. Room codes that find nothing are counted three ways: per
address, per IPv6 /48 with a higher ceiling (a network that hands out many /64s), and for the
deployment as a whole, so that guessing codes from many addresses stays slow too.

Only misses count, so the phones of a room polling every second never reach the limit; but an
address past it is refused every room, found or not, or it would learn which codes exist from
which answers aren't refused. A phone seated in the room (its ``X-Seat`` credential) is never
refused: it knows the code.
"""

from __future__ import annotations

import ipaddress
import re

from flask import current_app, request
from werkzeug.exceptions import TooManyRequests

from app.web import bookkeeping

# Each scope's counters: (setting, whom it counts); the settings' defaults are create_app's.
SCOPES = {
    "games": (("GAMES_PER_ADDRESS", "address"),),  # new games by link (turns.new_game)
    "made": (("ROOMS_PER_ADDRESS", "address"),),
    "joins": (("ROOM_JOINS_PER_ADDRESS", "address"),),
    "misses": (("ROOM_MISSES_PER_ADDRESS", "address"), ("ROOM_MISSES_PER_NETWORK", "network"),
               ("ROOM_MISSES_IN_ALL", "all")),
    "speeds": (("ROOM_SPEEDS_PER_ADDRESS", "address"),),
    "previews": (("PREVIEWS_PER_ADDRESS", "address"), ("PREVIEWS_IN_ALL", "all")),
    "push": (("PUSH_CHANGES_PER_ADDRESS", "address"),),  # notifications on or off (push_api)
}
SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


def parse(text: str) -> tuple[int, int]:
    """A limit's setting as (how many, in how many seconds).

    >>> parse("20 per minute"), parse("1000 per day"), parse("3/hour")
    ((20, 60), (1000, 86400), (3, 3600))
    """
    match = re.fullmatch(r"\s*(\d+)\s*(?:per|/)\s*(second|minute|hour|day)s?\s*", text or "")
    if not match:
        raise ValueError(f"a limit is 'N per second|minute|hour|day', not {text!r}")
    return int(match.group(1)), SECONDS[match.group(2)]


class Limits:
    """The app's limits, counted in its store."""

    def __init__(self, config):
        self.items = {scope: [(parse(config[setting]), whom) for setting, whom in counters]
                      for scope, counters in SCOPES.items()}

    def take(self, scope: str) -> None:
        """Count one more ``scope`` for this client: 429 past any of its limits."""
        ends = self._counted(scope)
        if ends is not None:
            self._refuse(ends, bookkeeping.store().clock())

    def allows(self, scope: str) -> bool:
        """Count one more ``scope`` for this client: whether it is within all its limits."""
        return self._counted(scope) is None

    def _counted(self, scope: str) -> float | None:
        """Count one more ``scope``: None when every counter took it, else when the window
        of the first one past its limit ends."""
        store = bookkeeping.store()
        for key, limit, ends in self._counters(scope, store.clock()):
            if not store.count(key, limit, ends):
                return ends
        return None

    def check(self, scope: str) -> None:
        """429 if this client is past any of its ``scope`` limits, counting nothing."""
        store = bookkeeping.store()
        for key, limit, ends in self._counters(scope, store.clock()):
            entry = store.get(key)
            if entry is not None and entry.version >= limit:
                self._refuse(ends, store.clock())

    def _counters(self, scope: str, now: float):
        """Each counter of ``scope`` this request falls under: (key, limit, window's end)."""
        address = client_address()
        for (limit, seconds), whom in self.items[scope]:
            who = "all" if whom == "all" else \
                counted_as(address, 64 if whom == "address" else 48)
            if who is None:
                continue  # an IPv4 address has no network of its own to count
            window = int(now // seconds)
            yield f"limit#{scope}#{whom}#{who}#{window}", limit, (window + 1) * seconds

    @staticmethod
    def _refuse(ends: float, now: float):
        raise TooManyRequests(retry_after=max(1, int(ends - now) + 1))


def limits() -> Limits:
    app = current_app._get_current_object()
    made = app.extensions.get("boardpass.limits")
    if made is None:
        made = app.extensions.setdefault("boardpass.limits", Limits(app.config))
    return made


def client_address() -> str:
    """The client's address, as a bare IP (``bare_ip``). On Lambda, API Gateway's source IP,
    which Zappa copies from the event into the header ``SOURCE_IP_HEADER`` names (over any the
    client sent: see docs/deploy.md); behind ``PROXY_HOPS`` trusted proxies, the address they
    saw (werkzeug's ProxyFix, set up in ``create_app``); else the connection's."""
    header = current_app.config["SOURCE_IP_HEADER"]
    return bare_ip((request.headers.get(header) if header else None) or request.remote_addr or "")


UNKNOWN = "unknown"  # every address that isn't one: one client, so every limit still holds
_WITH_PORT = re.compile(r"\[(?P<v6>[^\]]*)\](?::\d{1,5})?|(?P<v4>[^:]*):\d{1,5}")


def bare_ip(text: str) -> str:
    """An address as written by a proxy or a load balancer, as its bare IP: without a port or
    brackets (each port would otherwise count as a new client), an IPv4 address mapped into
    IPv6 as itself; ``UNKNOWN`` for anything else.

    >>> bare_ip("203.0.113.9:5678"), bare_ip("[2001:DB8::1]:443"), bare_ip("::ffff:192.0.2.1")
    ('203.0.113.9', '2001:db8::1', '192.0.2.1')
    >>> bare_ip("2001:db8::1"), bare_ip("[2001:db8::1]"), bare_ip("a.b:c"), bare_ip("")
    ('2001:db8::1', '2001:db8::1', 'unknown', 'unknown')
    """
    text = text.strip()
    match = _WITH_PORT.fullmatch(text)
    if match:
        text = match["v4"] if match["v6"] is None else match["v6"]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return UNKNOWN
    mapped = getattr(address, "ipv4_mapped", None)
    return str(mapped or address)


def counted_as(address: str, prefix: int) -> str | None:
    """Whom a limit counts for a bare ``address``: an IPv6 address by its /``prefix`` (64: one
    household or phone; 48: a site's network), an IPv4 address as itself for a /64 and not at
    all for a /48, ``UNKNOWN`` as itself for both.

    >>> counted_as("2001:db8:1:2::1", 64), counted_as("2001:db8:1:2::1", 48)
    ('2001:db8:1:2::/64', '2001:db8:1::/48')
    >>> counted_as("203.0.113.9", 64), counted_as("203.0.113.9", 48)
    ('203.0.113.9', None)
    >>> counted_as(UNKNOWN, 48)
    'unknown'
    """
    if ":" in address:
        return str(ipaddress.ip_network(f"{address}/{prefix}", strict=False))
    return address if prefix == 64 or address == UNKNOWN else None
