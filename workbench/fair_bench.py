"""Analysis shared fairly: one client (one address) sends a burst of chance-to-win requests, 50
at once, each asked again after a refusal (waiting its Retry-After, or a flood's 50 ms), while another table's phone asks for its chances
every two seconds, as a page does after a move, from another process. On the reference server
(workbench/reference_server.py: its analysis pools at the defaults), the other table's answers'
times are the figure (the page waits a 202's Retry-After, 3 s, before asking again).
"""

from __future__ import annotations

import threading
import time

from app.review import RETRY_AFTER
from workbench.measure import NOT_READY, spread
from workbench.reference_server import WORKERS, ask, elsewhere, new_games, reference_server

BURST = 50
# A page waits out a 202's Retry-After; a flood asks again at once, which only the edge's rate
# limits can stop (its load generator shares these two cores with the server, too).
PAUSES = {"after Retry-After, as a page does": RETRY_AFTER, "every 50 ms (a flood)": 0.05}
HOG, OTHER = "198.51.100.66", "203.0.113.5"  # the burst's address, and the other table's
PLAYERS = [{"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"},
           {"name": "Cy", "color": "blue"}, {"name": "Dee", "color": "green"}]


def burst(port: int, hogs: list, until: float, pause: float) -> int:
    """The one client's burst, a thread per game, each asking again ``pause`` seconds after a
    202: how many times it was put off."""
    refused = []

    def ask_until_answered(token: str) -> None:
        while time.perf_counter() < until:
            if ask(port, f"/api/games/{token}/chances", HOG)[0] not in NOT_READY:
                return
            refused.append(1)
            time.sleep(pause)

    threads = [threading.Thread(target=ask_until_answered, args=(t,)) for t in hogs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(refused)


def fair_bench(seconds: float = 30.0) -> dict:
    return {"workers": WORKERS, "burst": BURST, "seconds": seconds,
            **{f"the burst asking again {label}": other_table(seconds, pause)
               for label, pause in PAUSES.items()}}


def other_table(seconds: float, pause: float) -> dict:
    """One run: the burst, asking again ``pause`` seconds after each 202, and the other table."""
    refused = {"hog": 0, "other": 0}
    waited = []
    with reference_server() as port:
        hogs = new_games(port, BURST, HOG, PLAYERS)
        theirs = new_games(port, int(seconds // 2) + 2, OTHER, PLAYERS)
        until = time.perf_counter() + seconds
        hogged = elsewhere(burst, port, hogs, until, pause)
        for token in theirs:  # the other table's phone, on a process of its own
            if time.perf_counter() >= until:
                break
            asked = time.perf_counter()
            while ask(port, f"/api/games/{token}/chances", OTHER)[0] in NOT_READY:
                refused["other"] += 1
                time.sleep(RETRY_AFTER)  # the page waits out Retry-After
            waited.append((time.perf_counter() - asked) * 1000)
            time.sleep(max(0.0, asked + 2 - time.perf_counter()))
        refused["hog"] = hogged()
    return {"other table's chances, ms": spread(waited, 0), "not ready (202)": refused}
