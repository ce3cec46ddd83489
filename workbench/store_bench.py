"""What the store costs a turn: ``python -m app bench store [--url URL] [--games N]``.

Plays turns through the API (Flask in process) the way a player's page does: open the link
(a page view), one ``/moves`` per step, then ``/turn``, with every seat's number known and
Twilio "configured" at a closed local port, so each turn also goes through the outbox (its texts
fail at once: Twilio's time is not the store's). Counts the store's calls per request and
times them (wall clock: a DynamoDB call is network time).
"""

from __future__ import annotations

import logging
import os
import statistics
import time
from unittest.mock import patch

from app.keys import Keys
from app.store import Store, open_store
from workbench.measure import bench_app, spread

PHONES = ["+12015550123", "+12015550124", "+12015550125", "+12015550126"]


class Metered(Store):
    """A store that counts its calls and the time spent in them."""

    def __init__(self, inner: Store):
        super().__init__(inner.clock)
        self.inner, self.calls, self.seconds = inner, 0, 0.0

    def _timed(self, name, *args):
        start = time.perf_counter()
        try:
            return getattr(self.inner, name)(*args)
        finally:
            self.seconds += time.perf_counter() - start
            self.calls += 1

    def get(self, key):
        return self._timed("get", key)

    def add(self, key, data, expires):
        return self._timed("add", key, data, expires)

    def swap(self, key, version, data, expires):
        return self._timed("swap", key, version, data, expires)

    def count(self, key, limit, expires):
        return self._timed("count", key, limit, expires)

    def close(self):
        self.inner.close()


def store_bench(url: str | None, games: int = 20, turns: int = 10) -> dict:
    """Store calls per page view, ``/moves`` and ``/turn``, and the store's and the server's
    milliseconds per turn (median, p99), over ``games`` 4-player Parcheesi games of ``turns``
    turns each."""

    app = bench_app(Keys.for_tests("store-bench"), url, TEXTS_PER_NUMBER_HOUR=10**6,
                    TEXTS_PER_NUMBER_DAY=10**6, TEXTS_PER_DAY=10**6,
                    GAMES_PER_ADDRESS="1000000 per hour")  # runs again on one --url
    url = app.config["STORE_URL"]
    metered = Metered(open_store(url, create=True))
    app.extensions["boardpass.store"] = metered
    client = app.test_client()
    calls = {"view": [], "moves": [], "turn": []}
    store_ms, server_ms = [], []

    def request(kind, call):
        before_calls, before_seconds = metered.calls, metered.seconds
        start = time.perf_counter()
        response = call()
        assert response.status_code in (200, 201), response.json
        calls[kind].append(metered.calls - before_calls)
        return response.json, metered.seconds - before_seconds, time.perf_counter() - start

    logging.getLogger("app.twilio_send").setLevel(logging.ERROR)  # the texts fail on purpose
    with patch.dict(os.environ, _TWILIO):
        for _ in range(games):
            players = [{"name": f"P{i}", "color": color, "phone": PHONES[i]}
                       for i, color in enumerate(("yellow", "blue", "red", "green"))]
            made = client.post("/api/games", json={"game": "parcheesi", "players": players})
            if made.status_code != 201:  # a store not made yet (store create-table), say
                raise RuntimeError(f"no game made: {made.status_code} {made.json}")
            view = made.json
            for _ in range(turns):
                token, seat = view["token"], view["turn"]
                view, spent, took = request("view", lambda: client.get(f"/api/games/{token}"))
                steps = []
                while True:
                    steps.append("roll" if view["phase"] == "roll" else
                                 {k: view["legal"][0][k] for k in ("from", "to", "values")})
                    view, more, longer = request("moves", lambda: client.post(
                        f"/api/games/{token}/moves", json={"seat": seat, "steps": steps}))
                    spent, took = spent + more, took + longer
                    steps = list(view["turn_steps"])  # with the steps played for them, as a page
                    if view["turn_over"]:
                        break
                view, more, longer = request("turn", lambda: client.post(
                    f"/api/games/{token}/turn", json={"seat": seat, "steps": steps}))
                store_ms.append((spent + more) * 1000)
                server_ms.append((took + longer) * 1000)
                if view["phase"] == "over":
                    break
        metered.close()
    return {"store": url.split("?")[0], "turns": len(store_ms),
            "store_calls": {kind: round(statistics.mean(n), 2) for kind, n in calls.items()},
            "store_ms_per_turn": spread(store_ms), "server_ms_per_turn": spread(server_ms)}


# Twilio "configured", at a port where nothing listens: texts fail at once.
_TWILIO = {"TWILIO_ACCOUNT_SID": "AC" + "0" * 32, "TWILIO_AUTH_TOKEN": "bench",
           "TWILIO_FROM": "+12015550100", "TWILIO_API_BASE": "http://127.0.0.1:9"}
