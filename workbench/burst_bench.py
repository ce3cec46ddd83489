"""A burst of link preview fetches, and what it does to ordinary pages: on the reference server
(workbench/reference_server.py), 16 clients (each its own address, all in one process) asking
five times a second each for the preview images of 66 different links, while one player's
phone, from another process, opens a game page every 100 ms. The page's times (p50, p99) and
how the previews were answered (drawn, or Boardpass's generic image past the drawing limits or
while the process draws another) are the figures.
"""

from __future__ import annotations

import threading
import time

from workbench.measure import spread
from workbench.reference_server import WORKERS, ask, elsewhere, new_games, reference_server

CLIENTS = 16
LINKS = 66
PACE = 0.2  # seconds between a fetcher's asks, at most: 80 a second from all 16 (a flood of
# requests as such is the edge limits' to stop: docs/deploy.md)
PLAYERS = [{"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]


def fetchers(port: int, tokens: list, generic: bytes, until: float) -> dict:
    """The 16 fetchers, each in a thread: how their previews were answered."""
    answers = {"drawn or kept": 0, "generic": 0}
    lock = threading.Lock()

    def fetcher(number: int) -> None:
        address, n = f"198.51.100.{number + 1}", number
        while time.perf_counter() < until:
            asked = time.perf_counter()
            _, body, _ = ask(port, f"/g/{tokens[n % LINKS]}/preview.png", address)
            with lock:
                answers["generic" if body == generic else "drawn or kept"] += 1
            n += CLIENTS
            time.sleep(max(0.0, asked + PACE - time.perf_counter()))

    threads = [threading.Thread(target=fetcher, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def burst_bench(seconds: float = 20.0) -> dict:
    with reference_server() as port:
        # two makers: one address makes at most GAMES_PER_ADDRESS (60) games an hour
        tokens = [token for maker in ("192.0.2.1", "192.0.2.2")
                  for token in new_games(port, LINKS // 2, maker, PLAYERS)]
        generic = ask(port, "/preview.png", "192.0.2.250")[1]
        for _ in range(20):  # each worker's first pages (templates, the game's tables)
            ask(port, f"/g/{tokens[0]}", "203.0.113.1")
        quiet = [ask(port, f"/g/{tokens[0]}", "203.0.113.1")[2] for _ in range(100)]
        until = time.perf_counter() + seconds
        answers = elsewhere(fetchers, port, tokens, generic, until)
        page_ms = []
        while time.perf_counter() < until:  # the player's phone, on a process of its own
            status, _, took = ask(port, f"/g/{tokens[0]}", "203.0.113.1")
            assert status == 200, status
            page_ms.append(took)
            time.sleep(0.1)
        answered = answers()
    return {"workers": WORKERS, "clients": CLIENTS, "links": LINKS, "seconds": seconds,
            "page ms, quiet": spread(quiet, 1), "page ms, during the burst": spread(page_ms, 1),
            "previews answered": answered}
