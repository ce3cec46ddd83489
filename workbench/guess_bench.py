"""How many room-code guesses get through a minute, as an attacker would send them: from one
address, from every /64 of one IPv6 /48, and from a thousand IPv4 addresses, against the
reference server (workbench/reference_server.py: two Gunicorn workers sharing one store, where
the limits count: app/web/limits.py).

From the counts, the expected time to hit one of ``LIVE_ROOMS`` live rooms by guessing, at that
rate around the clock.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from app.rooms import ALPHABET, CODE_LENGTH
from workbench.reference_server import WORKERS, ask, reference_server

LIVE_ROOMS = 1000


def _through(port: int, addresses: list[str]) -> int:
    """How many of these guesses (a code no room has, one per address listed, sent 8 at a
    time) got an answer other than 429: what an attacker learns from."""
    with ThreadPoolExecutor(8) as pool:
        return sum(status != 429 for status in pool.map(
            lambda address: ask(port, "/api/rooms/ABC234", address)[0], addresses))


def guess_bench(guesses: int = 300) -> dict:
    """Each attacker sends its guesses within a minute (a new minute each): ``guesses`` from
    one address and from one /48, one from each of a thousand addresses."""
    attackers = {
        "one address": ["203.0.113.7"] * guesses,
        "one IPv6 /48 (a new /64 each guess)": [f"2001:db8:7:{n:x}::1" for n in range(guesses)],
        "a thousand IPv4 addresses (one guess each)": [
            f"198.51.{n // 250}.{n % 250 + 1}" for n in range(1000)],
    }
    result = {"workers": WORKERS, "through in a minute": {}}
    with reference_server() as port:
        for name, addresses in attackers.items():
            _next_minute()
            result["through in a minute"][name] = _through(port, addresses)
    codes = len(ALPHABET) ** CODE_LENGTH
    result["expected time to hit one of 1,000 live rooms"] = {
        name: _days(codes / LIVE_ROOMS / per_minute) for name, per_minute in
        result["through in a minute"].items()}
    return result


def _days(minutes: float) -> str:
    return f"{minutes / 1440:.1f} days" if minutes >= 1440 else f"{minutes / 60:.1f} hours"


def _next_minute() -> None:
    """Wait for a minute's start, so that one attacker's guesses fall in one window."""
    time.sleep(60 - time.time() % 60 + 0.2)
