"""Analysis shared fairly: one client (one address) sends a burst of chance-to-win requests, 50
at once, each retried as soon as it is refused, while another table's phone asks for its chances
every two seconds, as a page does after a move. On the reference server (``guess_bench.serve``:
Gunicorn, two worker processes, their analysis pools at the defaults), the other table's
answers' times are the figure (the page waits a 503's Retry-After, 3 s, before asking again).
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from workbench.burst_bench import _get
from workbench.guess_bench import _wait_for
from workbench.measure import spread

BURST = 50
PLAYERS = [{"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"},
           {"name": "Cy", "color": "blue"}, {"name": "Dee", "color": "green"}]


def _games(port: int, count: int, address: str) -> list[str]:
    import json

    return [json.loads(_get(port, "/api/games", address,
                            {"game": "parcheesi", "players": PLAYERS})[1])["token"]
            for _ in range(count)]


def fair_bench(seconds: float = 30.0) -> dict:
    with tempfile.TemporaryDirectory() as folder, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        server = subprocess.Popen(
            [sys.executable, "-c", "import sys; from workbench.guess_bench import serve; "
             "serve(sys.argv[1], int(sys.argv[2]))", f"sqlite:///{folder}/store.db", str(port)])
        try:
            _wait_for(port, server)
            hog, other = "198.51.100.66", "203.0.113.5"
            hogs = _games(port, BURST, hog)
            theirs = _games(port, int(seconds // 2) + 2, other)
            until = time.perf_counter() + seconds
            refused = {"hog": 0, "other": 0}
            lock = threading.Lock()

            def burst(token: str) -> None:
                while time.perf_counter() < until:
                    status = _get(port, f"/api/games/{token}/chances", hog)[0]
                    if status != 503:
                        return
                    with lock:
                        refused["hog"] += 1
                    time.sleep(0.05)

            waited = []

            def table() -> None:
                for token in theirs:
                    if time.perf_counter() >= until:
                        return
                    asked = time.perf_counter()
                    while True:
                        status = _get(port, f"/api/games/{token}/chances", other)[0]
                        if status != 503:
                            break
                        refused["other"] += 1
                        time.sleep(3)  # the page waits out Retry-After
                    waited.append((time.perf_counter() - asked) * 1000)
                    time.sleep(max(0.0, asked + 2 - time.perf_counter()))

            threads = [threading.Thread(target=burst, args=(t,)) for t in hogs]
            threads.append(threading.Thread(target=table))
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(10)
    return {"workers": 2, "burst": BURST, "seconds": seconds,
            "other table's chances, ms": spread(waited, 0), "refused (503)": refused}
