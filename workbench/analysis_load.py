"""Turns under analysis load: ``python -m app analysis-bench --load [--workers N]``.

A threaded server (Werkzeug's, as ``flask run`` serves) on 127.0.0.1, in a process of its own
with a new SQLite store, is sent turns by one client, one every ``interval`` seconds (or as soon as the last is
answered), as a page sends them: open the link, then ``/turn`` with the whole turn (4-player
Parcheesi, each from the middle of a different random game). First alone, then while ``clients`` analysis clients ask, back to
back, for the reviews of the widest decisions of random games (4-player Parcheesi and 6-player
Red Arse, 9 to 13 options: the costliest there are) and for the chance to win at their steps,
waiting out a 202's (or 503's) Retry-After as the page does. Each phase reports the turns' wall-clock
milliseconds (median, p99) and what the analysis clients got.

``workers`` is the server's ``ANALYSIS_WORKERS``: the analysis processes (by default one per
core but one, at least one); 0 runs the analysis in the request threads (one at a time, each
answer still within its budget), to show what the processes are for.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager

from app import review
from app.keys import Keys
from workbench.games import a_turn, play_random, table_options
from workbench.measure import NOT_READY, bench_app, spread

KEYS_LABEL = "analysis-load"


def serve(port_file: str, workers: int | None) -> None:
    """The server's process: the app on a free port of 127.0.0.1, written to ``port_file``."""
    import logging

    from werkzeug.serving import make_server


    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    config = {} if workers is None else {"ANALYSIS_WORKERS": workers}
    server = make_server("127.0.0.1", 0, bench_app(Keys.for_tests(KEYS_LABEL), **config),
                         threaded=True)
    with open(port_file, "w") as out:
        out.write(str(server.server_port))
    try:
        server.serve_forever()
    except KeyboardInterrupt:  # stopped: the analysis workers stop with the process
        pass


@contextmanager
def served(workers: int | None = None):
    """``serve`` in a process of its own; yields its port, and stops it as Ctrl-C would (the
    server stops its analysis workers)."""
    with tempfile.TemporaryDirectory() as folder:
        port_file = os.path.join(folder, "port")
        server = subprocess.Popen(
            [sys.executable, "-c", "import sys; from workbench.analysis_load import serve; "
             "serve(sys.argv[1], None if sys.argv[2] == '-' else int(sys.argv[2]))",
             port_file, "-" if workers is None else str(workers)])
        try:
            while not os.path.exists(port_file) or not open(port_file).read():
                if server.poll() is not None:
                    raise RuntimeError("the server didn't start")
                time.sleep(0.05)
            yield int(open(port_file).read())
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def _turns(count: int) -> list[tuple[str, int, list]]:
    """``count`` turns: the link from the middle of a random 4-player Parcheesi game, the seat
    to move and its whole turn, each from a game of its own (so none is a repeat)."""

    keys = Keys.for_tests(KEYS_LABEL)
    return [a_turn(play_random("parcheesi", 4, "analysis-load", n, keys)) for n in range(count)]


def _asks(games: int) -> list[str]:
    """Analysis URLs: per table, the review of the widest person's decision of each of
    ``games`` random games (the 9 or more options wide), and the chance to win there."""

    keys = Keys.for_tests(KEYS_LABEL)
    urls = []
    for game, players in (("parcheesi", 4), ("red-arse", 6)):
        for n in range(games):
            played = play_random(game, players, "analysis-load", n, keys,
                                 table_options(game, players))
            widths = {step: played.match.steps[step][1] for step, _ in review.decisions(played)}
            step = max(widths, key=lambda s: (widths[s], -s))
            if widths[step] >= 9:
                token = played.token()
                urls += [f"/api/games/{token}/review?step={step}&lang=en",
                         f"/api/games/{token}/chances?step={step}"]
    return urls


def _request(port: int, method: str, path: str, body=None) -> tuple[int, dict, float]:
    """One request on a connection of its own: status, headers, wall-clock seconds."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    start = time.perf_counter()
    try:
        data = None if body is None else json.dumps(body)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, data, headers)
        response = connection.getresponse()
        response.read()
        return response.status, dict(response.getheaders()), time.perf_counter() - start
    finally:
        connection.close()


def _play(port: int, turns: list, interval: float) -> list[float]:
    """Each turn as a page plays it (open the link, send the turn), one every ``interval``
    seconds: their milliseconds."""
    took = []
    start = time.perf_counter()
    for number, (token, seat, steps) in enumerate(turns):
        time.sleep(max(0.0, start + number * interval - time.perf_counter()))
        status, _, opened = _request(port, "GET", f"/api/games/{token}")
        assert status == 200, status
        status, _, sent = _request(port, "POST", f"/api/games/{token}/turn",
                                   {"seat": seat, "steps": steps})
        assert status == 200, status
        took.append(1000 * (opened + sent))
    return took


def analysis_load(turns: int = 300, clients: int = 8, workers: int | None = None,
                  games: int = 300, interval: float = 0.05) -> dict:
    """Turn times alone and under ``clients`` analysis clients (see the module's docstring)."""

    jobs = _turns(2 * turns)
    asks = _asks(games)
    with served(workers) as port:
        _play(port, jobs[:5], interval)  # warm up: imports, the store's file
        alone = _play(port, jobs[5:turns], interval)
        # The analysis pool starts with the first request: not part of what is timed.
        _request(port, "GET", asks[1])
        stop = threading.Event()
        answers: dict[int, int] = {}
        seconds: list[float] = []
        lock = threading.Lock()

        def ask(number: int) -> None:
            k = number
            while not stop.is_set():
                status, headers, took = _request(port, "GET", asks[k % len(asks)])
                with lock:
                    answers[status] = answers.get(status, 0) + 1
                    if status == 200:
                        seconds.append(took)
                k += clients
                if status in NOT_READY:
                    stop.wait(float(headers.get("Retry-After", 3)))

        askers = [threading.Thread(target=ask, args=(n,)) for n in range(clients)]
        for asker in askers:
            asker.start()
        time.sleep(1.0)  # the analysis under way before the turns are timed
        loaded = _play(port, jobs[turns:turns + len(alone)], interval)
        stop.set()
        for asker in askers:
            asker.join()
    return {"workers": "the default (one per core but one)" if workers is None else workers,
            "cores": os.cpu_count(), "turns": len(alone), "turn_every_s": interval,
            "turn_ms_alone": spread(alone, 1),
            "turn_ms_under_analysis": spread(loaded, 1),
            "analysis_clients": clients,
            "analysis_answers": {str(k): v for k, v in sorted(answers.items())},
            "analysis_s_when_answered": spread(seconds, 1) if seconds else None}
