"""Analysis shared fairly: one client (one address) sends a burst of chance-to-win requests, 50
at once, each retried as soon as it is refused, while another table's phone asks for its chances
every two seconds, as a page does after a move. On the reference server
(workbench/reference_server.py: its analysis pools at the defaults), the other table's answers'
times are the figure (the page waits a 503's Retry-After, 3 s, before asking again).
"""

from __future__ import annotations

import threading
import time

from workbench.measure import spread
from workbench.reference_server import WORKERS, ask, new_games, reference_server

BURST = 50
PLAYERS = [{"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"},
           {"name": "Cy", "color": "blue"}, {"name": "Dee", "color": "green"}]


def fair_bench(seconds: float = 30.0) -> dict:
    hog, other = "198.51.100.66", "203.0.113.5"
    refused = {"hog": 0, "other": 0}
    waited = []
    with reference_server() as port:
        hogs = new_games(port, BURST, hog, PLAYERS)
        theirs = new_games(port, int(seconds // 2) + 2, other, PLAYERS)
        until = time.perf_counter() + seconds
        lock = threading.Lock()

        def burst(token: str) -> None:
            while time.perf_counter() < until:
                if ask(port, f"/api/games/{token}/chances", hog)[0] != 503:
                    return
                with lock:
                    refused["hog"] += 1
                time.sleep(0.05)

        def table() -> None:
            for token in theirs:
                if time.perf_counter() >= until:
                    return
                asked = time.perf_counter()
                while ask(port, f"/api/games/{token}/chances", other)[0] == 503:
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
    return {"workers": WORKERS, "burst": BURST, "seconds": seconds,
            "other table's chances, ms": spread(waited, 0), "refused (503)": refused}
