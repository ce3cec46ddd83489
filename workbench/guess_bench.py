"""How many room-code guesses get through a minute, as an attacker would send them: from one
address, from every /64 of one IPv6 /48, and from a thousand IPv4 addresses, against the app
under Gunicorn with two worker processes sharing one SQLite store (the limits count in the
store: app/web/limits.py). The clients' addresses come through X-Forwarded-For from one
trusted proxy (``PROXY_HOPS=1``), as behind a load balancer.

From the counts, the expected time to hit one of ``LIVE_ROOMS`` live rooms by guessing, at that
rate around the clock.
"""

from __future__ import annotations

import http.client
import signal
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from app.rooms import ALPHABET, CODE_LENGTH

LIVE_ROOMS = 1000
WORKERS = 2


def serve(store_url: str, port: int) -> None:
    """The server's process: Gunicorn, ``WORKERS`` processes, the app's default limits."""
    from gunicorn.app.base import BaseApplication

    from app.keys import Keys
    from workbench.measure import bench_app

    class Server(BaseApplication):
        def load_config(self):
            for name, value in {"bind": f"127.0.0.1:{port}", "workers": WORKERS,
                                "worker_class": "gthread", "threads": 4, "loglevel": "warning",
                                "accesslog": None}.items():
                self.cfg.set(name, value)

        def load(self):
            return bench_app(Keys.for_tests("guesses"), store_url, PROXY_HOPS=1)

    Server().run()


def _miss(port: int, address: str) -> int:
    """One guess (a code no room has) from ``address``: the answer's status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/api/rooms/ABC234", headers={"X-Forwarded-For": address})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def _through(port: int, addresses: list[str]) -> int:
    """How many of these guesses (one per address listed, sent 8 at a time) got an answer
    other than 429: what an attacker learns from."""
    with ThreadPoolExecutor(8) as pool:
        return sum(status != 429 for status in pool.map(lambda a: _miss(port, a), addresses))


def guess_bench(guesses: int = 300) -> dict:
    """Each attacker sends its guesses within a minute (a new minute each): ``guesses`` from
    one address and from one /48, one from each of a thousand addresses."""
    with tempfile.TemporaryDirectory() as folder, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        server = subprocess.Popen(
            [sys.executable, "-c", "import sys; from workbench.guess_bench import serve; "
             "serve(sys.argv[1], int(sys.argv[2]))", f"sqlite:///{folder}/store.db", str(port)])
        try:
            _wait_for(port, server)
            attackers = {
                "one address": ["203.0.113.7"] * guesses,
                "one IPv6 /48 (a new /64 each guess)": [
                    f"2001:db8:7:{n:x}::1" for n in range(guesses)],
                "a thousand IPv4 addresses (one guess each)": [
                    f"198.51.{n // 250}.{n % 250 + 1}" for n in range(1000)],
            }
            result = {"workers": WORKERS, "through in a minute": {}}
            for name, addresses in attackers.items():
                _next_minute()
                result["through in a minute"][name] = _through(port, addresses)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(10)
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


def _wait_for(port: int, server) -> None:
    for _ in range(200):
        if server.poll() is not None:
            raise RuntimeError("the server didn't start")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                time.sleep(0.5)  # the second worker's boot
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the server didn't answer")
