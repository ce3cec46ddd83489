"""Live rooms under load: ``python -m app bench rooms [--rooms 20] [--seconds 60]
[--step-every 3] [--url URL]`` (figures in docs/benchmarks.md, "Live rooms").

The app runs under Gunicorn on 127.0.0.1 (one worker process, so at most one core, with a
pool of threads), with a new SQLite store unless ``--url`` names one; each phone (and each
client thread) keeps its connection alive between requests, as a browser does. The bench makes ``rooms``
rooms of 4 to 6 people (every seat joined by a phone), then:

- **unchanged polls**: client threads poll the rooms back to back, each with the room's ETag,
  so every answer is a 304; the server's CPU seconds per poll (from ``/proc``) say how many
  one core answers, whatever share of the machine the load generator takes;
- **live**: every phone polls once a second as the room page does (``If-None-Match`` and
  ``?since=``), and one phone per room plays whoever is to move, a step every ``step_every``
  seconds (roll, then the first legal move, ``"miss"`` at a claim), each step a
  ``POST /steps``: polls per second, the 304 share, and the milliseconds of a step and of a
  turn (the steps of one seat in a row), wall clock at the phone.

In process, it counts the store's calls per request and times the app's own part of an
unchanged poll (what the server adds is the rest), and works out what an hour of a 4-player
room costs in requests and DynamoDB request units.
"""

from __future__ import annotations

import http.client
import json
import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field

from app.keys import Keys
from app.rooms import Room
from app.store import open_store
from app.web import defaults
from workbench.games import SIM_KEYS_LABEL, play_random
from workbench.measure import bench_app, spread
from workbench.store_bench import Metered

KEYS_LABEL = "room-bench"
POLL_SECONDS = 1.0  # static/js/room.js, POLL_VISIBLE
CLIENTS = 8  # threads polling back to back in the unchanged phase
# 4 to 6 phones a room, 5 on average: 20 rooms are 100 phones.
TABLES = (("parcheesi", 4, None), ("red-arse", 6, {"board": 6}), ("ludo", 5, {"capacity": 5}),
          ("red-arse", 5, {"board": 6}))
COLORS = {"parcheesi": ("yellow", "blue", "red", "green")}
SIX_COLORS = ("red", "blue", "green", "yellow", "purple", "orange")
# Making and joining rooms from one address, hundreds a minute: the bench's own limits.
LIMITS = {"ROOMS_PER_ADDRESS": "1000000 per hour", "ROOM_JOINS_PER_ADDRESS": "1000000 per hour"}

# us-east-1 list prices, US dollars: DynamoDB on demand (standard table class) per request
# unit, API Gateway REST API (what Zappa sets up) and Lambda per request, Lambda per GB-second
# (x86). A strongly consistent read of up to 4 KB is one read unit, a write of up to 1 KB one
# write unit.
PRICE_READ_UNIT = 0.125e-6
PRICE_WRITE_UNIT = 0.625e-6
PRICE_API_GATEWAY_REQUEST = 3.50e-6
PRICE_LAMBDA_REQUEST = 0.20e-6
PRICE_LAMBDA_GB_SECOND = 0.0000166667
LAMBDA_GB = 1769 / 1024  # docs/deploy.md, memory_size


SERVER_THREADS = 8  # the worker's threads (Gunicorn's gthread worker)


def serve(folder: str, store_url: str) -> None:
    """The server's process: Gunicorn, one worker (so one core at most) with a thread pool and
    keep-alive connections, as a server in production runs; the worker writes its process id
    and port into ``folder``. Ends with SIGTERM, as Gunicorn does."""
    import socket

    from gunicorn.app.base import BaseApplication


    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    def ready(worker):
        with open(os.path.join(folder, "worker"), "w") as out:
            out.write(f"{worker.pid} {port}")

    class Server(BaseApplication):
        def load_config(self):
            for name, value in {"bind": f"127.0.0.1:{port}", "workers": 1,
                                "worker_class": "gthread", "threads": SERVER_THREADS,
                                "keepalive": 30, "loglevel": "warning", "accesslog": None,
                                "post_worker_init": ready}.items():
                self.cfg.set(name, value)

        def load(self):
            return bench_app(Keys.for_tests(KEYS_LABEL), store_url, **LIMITS)

    Server().run()


@contextmanager
def _server(store_url: str):
    """The server: yields its port and its worker's process id; stopped as Gunicorn is."""
    with tempfile.TemporaryDirectory() as folder:
        ready = os.path.join(folder, "worker")
        server = subprocess.Popen(
            [sys.executable, "-c", "import sys; from workbench.room_bench import serve; "
             "serve(sys.argv[1], sys.argv[2])", folder, store_url])
        try:
            while not os.path.exists(ready) or not open(ready).read():
                if server.poll() is not None:
                    raise RuntimeError("the server didn't start")
                time.sleep(0.05)
            time.sleep(0.2)  # the worker's first accept
            pid, port = map(int, open(ready).read().split())
            yield port, pid
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def _cpu_seconds(pid: int) -> float:
    """A process's CPU seconds so far, user and system (``/proc/PID/stat``)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


_connections = threading.local()


def _request(port: int, method: str, path: str, body=None, headers=None):
    """One request on this thread's connection, kept alive between requests as a phone's
    browser keeps its own: status, headers, the JSON body (None if empty), wall-clock
    milliseconds."""
    headers = dict(headers or {})
    if body is not None:
        headers["Content-Type"] = "application/json"
    start = time.perf_counter()
    for attempt in range(2):
        connection = getattr(_connections, "open", None)
        if connection is None or connection.port != port:
            connection = _connections.open = http.client.HTTPConnection("127.0.0.1", port,
                                                                         timeout=30)
        try:
            connection.request(method, path, None if body is None else json.dumps(body),
                               headers)
            response = connection.getresponse()
            data = response.read()
            break
        except (http.client.RemoteDisconnected, ConnectionError):  # closed while idle
            connection.close()
            _connections.open = None
            if attempt:
                raise
    took = (time.perf_counter() - start) * 1000
    return response.status, response.headers, json.loads(data) if data else None, took


def room_body(game: str, players: int, settings) -> dict:
    """``POST /api/rooms``'s body for a table of ``players`` people, the first one making it.
    No turn timer: the bench's phones poll without playing for a while, which no timer would
    let stand (each wait that runs out would make the room change)."""
    colors = COLORS.get(game, SIX_COLORS)
    body = {"game": game, "players": [{"name": f"P{i + 1}", "color": colors[i]}
                                      for i in range(players)], "me": 0, "timer_seconds": 0}
    return {**body, "settings": settings} if settings else body


@dataclass
class Phone:
    """A phone in a room: what it polls with (its seat's credential, as a seated phone's page
    says who it is), and, for the room's player, every seat's credential and the room as its
    last answer showed it."""
    code: str
    etag: str
    since: int
    seat: str
    credentials: dict | None = None
    view: dict | None = None
    polls: list = field(default_factory=list)  # (status, ms)
    steps: list = field(default_factory=list)  # (seat, status, ms)


def _open_room(port: int, game: str, players: int, settings) -> list[Phone]:
    """A room with every seat joined, started: its phones, the first of them its player."""
    status, _, made, _ = _request(port, "POST", "/api/rooms", room_body(game, players, settings))
    assert status == 201, made
    code = made["room"]["code"]
    credentials = {made["you"]["seat"]: made["you"]["credential"]}
    for _ in range(players - 1):
        status, headers, view, _ = _request(port, "POST", f"/api/rooms/{code}/join", {})
        assert status == 200, view
        credentials[view["you"]["seat"]] = view["you"]["credential"]
    status, headers, view, _ = _request(port, "POST", f"/api/rooms/{code}/start",
                                        {"credential": made["you"]["credential"]})
    assert status == 200, view
    etag = headers["ETag"]
    phones = [Phone(code, etag, view["steps"], seat) for seat in credentials.values()]
    phones[0].credentials, phones[0].view = credentials, view
    return phones


def _poll(port: int, phone: Phone) -> None:
    status, headers, view, took = _request(
        port, "GET", f"/api/rooms/{phone.code}?since={phone.since}&lang=en",
        headers={"If-None-Match": phone.etag, "X-Seat": phone.seat})
    phone.polls.append((status, took))
    if status == 200:
        _seen(phone, headers, view)


def _seen(phone: Phone, headers, view: dict) -> None:
    """What a phone keeps from a room's answer: its ETag and step (the player: the view)."""
    phone.etag, phone.since = headers["ETag"], view["steps"]
    if phone.credentials:
        phone.view = view


def _step(port: int, phone: Phone) -> None:
    """The player plays the next step for whoever is to move: roll, the first legal move, or
    let a re-roll go."""
    view = phone.view
    if view["phase"] == "over":
        return
    step = {"roll": "roll", "claim": "miss"}.get(view["phase"]) or \
        {key: view["legal"][0][key] for key in ("from", "to", "values")}
    seat = view["turn"]
    status, headers, answer, took = _request(
        port, "POST", f"/api/rooms/{phone.code}/steps?since={phone.since}&lang=en",
        {"version": view["room"]["version"], "credential": phone.credentials[seat],
         "steps": [step]})
    phone.steps.append((seat, status, took))
    if status == 200:
        _seen(phone, headers, answer)


def _use(port: int, phone: Phone, start: float, first_step: float, until: float,
         step_every: float) -> None:
    """A phone for the live phase: a poll a second after each answer, as the page does; the
    player also plays a step every ``step_every`` seconds from ``first_step``."""
    next_poll, next_step = start, first_step
    while True:
        stepping = phone.credentials is not None and next_step < next_poll
        at = next_step if stepping else next_poll
        if at >= until:
            return
        time.sleep(max(0.0, at - time.perf_counter()))
        if stepping:
            _step(port, phone)
            next_step += step_every
        else:
            _poll(port, phone)
            next_poll = time.perf_counter() + POLL_SECONDS


def _measured(pid: int, work) -> dict:
    """Run ``work``: its wall seconds, and the cores kept busy meanwhile by the server, this
    process (the load generator) and everything else on the machine: other load makes the
    answers slower, while the server's CPU time per request hardly moves."""
    server, own, machine = _cpu_seconds(pid), _own_cpu_seconds(), _machine_cpu_seconds()
    start = time.perf_counter()
    work()
    wall = time.perf_counter() - start
    server, own = _cpu_seconds(pid) - server, _own_cpu_seconds() - own
    return {"wall": wall, "server": server, "server_cores_busy": round(server / wall, 2),
            "load_generator_cores_busy": round(own / wall, 2),
            "other_cores_busy": round(max(0.0, _machine_cpu_seconds() - machine - server - own)
                                      / wall, 2)}


def _machine_cpu_seconds() -> float:
    """The machine's busy CPU seconds so far, all cores (``/proc/stat``: all but idle and
    I/O wait)."""
    with open("/proc/stat") as stat:
        ticks = [int(n) for n in stat.readline().split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def _own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _threads(targets) -> None:
    """Run the callables in threads of their own, and wait for them all."""
    threads = [threading.Thread(target=target) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _unchanged(port: int, pid: int, phones: list[Phone], seconds: float) -> dict:
    """``CLIENTS`` threads poll the rooms back to back with their current ETags: all 304s."""

    statuses, took = Counter(), []

    def client(number: int) -> None:
        until, k = time.perf_counter() + seconds, number
        while time.perf_counter() < until:
            phone = phones[k % len(phones)]
            status, _, _, ms = _request(port, "GET",
                                        f"/api/rooms/{phone.code}?since={phone.since}&lang=en",
                                        headers={"If-None-Match": phone.etag})
            statuses[status] += 1
            took.append(ms)
            k += CLIENTS

    busy = _measured(pid, lambda: _threads([lambda n=n: client(n) for n in range(CLIENTS)]))
    wall, server = busy.pop("wall"), busy.pop("server")
    polls = sum(statuses.values())
    return {"clients": CLIENTS, "polls": polls, "share_304": round(statuses[304] / polls, 3),
            "polls_per_second_wall": round(polls / wall),
            "server_cpu_ms_per_poll": round(server * 1000 / polls, 3),
            "polls_per_server_cpu_second": round(polls / server) if server else None,
            "poll_ms": spread(took), **busy}


def _live(port: int, pid: int, rooms: list[list[Phone]], seconds: float,
          step_every: float) -> dict:
    """Every phone polling once a second, a player per room stepping every ``step_every``."""

    start = time.perf_counter() + 0.1
    until = start + seconds
    phones, first_steps = [], []
    for number, room in enumerate(rooms):  # spread out, as people are
        phones += room
        first_steps += [start + step_every * (number + 1) / len(rooms)] * len(room)
    starts = [start + POLL_SECONDS * n / len(phones) for n in range(len(phones))]
    busy = _measured(pid, lambda: _threads(
        [lambda a=a: _use(port, *a, until, step_every) for a in zip(phones, starts, first_steps)]))
    wall, server = busy.pop("wall"), busy.pop("server")
    polls = [status for phone in phones for status, _ in phone.polls]
    steps = [step for room in rooms for step in room[0].steps]
    statuses = Counter(polls) + Counter(status for _, status, _ in steps)
    requests, turns = len(polls) + len(steps), _turn_ms(rooms)
    return {"rooms": len(rooms), "phones": len(phones), "seconds": round(wall, 1),
            "step_every_s": step_every, "polls": len(polls),
            "polls_per_second_wall": round(len(polls) / wall, 1),
            "share_304": round(polls.count(304) / len(polls), 3),
            "poll_ms": spread([ms for phone in phones for _, ms in phone.polls]),
            "steps": len(steps), "step_ms": spread([ms for _, _, ms in steps]),
            "turns": len(turns), "turn_ms": spread(turns),
            "errors": {str(s): n for s, n in sorted(statuses.items())
                       if s not in (200, 304)} or "none",
            "server_cpu_ms_per_request": round(server * 1000 / requests, 3), **busy}


def _turn_ms(rooms: list[list[Phone]]) -> list[float]:
    """Each turn's milliseconds: the steps one seat played in a row in a room, added up."""
    turns = []
    for room in rooms:
        seat = None
        for mover, _, ms in room[0].steps:
            if mover == seat:
                turns[-1] += ms
            else:
                turns.append(ms)
            seat = mover
    return turns


class Tally(Metered):
    """A store that also counts its calls by kind (get, add, swap, count)."""

    def __init__(self, inner):
        super().__init__(inner)
        self.kinds = Counter()

    def _timed(self, name, *args):
        self.kinds[name] += 1
        return super()._timed(name, *args)


def in_process(polls: int = 2000) -> dict:
    """In process (a new SQLite store), what every backend and server shares: the store's
    calls for each kind of room request, and the app's CPU milliseconds for an unchanged poll
    (its WSGI call alone, ``polls`` times: what the server adds is the rest)."""
    from werkzeug.test import EnvironBuilder


    app = bench_app(Keys.for_tests(KEYS_LABEL), **LIMITS)
    tally = Tally(open_store(app.config["STORE_URL"], create=True))
    app.extensions["boardpass.store"] = tally
    client = app.test_client()
    calls = {}

    def counted(kind: str, call):
        before = Counter(tally.kinds)
        response = call()
        assert response.status_code in (200, 201, 304), response.json
        calls[kind] = dict(tally.kinds - before)
        return response

    made = counted("create", lambda: client.post("/api/rooms",
                                                 json=room_body("parcheesi", 4, None))).json
    code, credentials = made["room"]["code"], {made["you"]["seat"]: made["you"]["credential"]}
    for _ in range(3):
        joined = counted("join", lambda: client.post(f"/api/rooms/{code}/join", json={}))
        credentials[joined.json["you"]["seat"]] = joined.json["you"]["credential"]
    joined = counted("start", lambda: client.post(f"/api/rooms/{code}/start",
                                                  json={"credential": made["you"]["credential"]}))
    view, etag = joined.json, joined.headers["ETag"]
    seated = {"If-None-Match": etag, "X-Seat": made["you"]["credential"]}
    poll = EnvironBuilder(f"/api/rooms/{code}", query_string=f"since={view['steps']}&lang=en",
                          headers=seated).get_environ()
    start = time.process_time()
    for _ in range(polls):
        b"".join(app(dict(poll), lambda *_: None))
    app_ms = (time.process_time() - start) * 1000 / polls
    counted("unchanged_poll", lambda: client.get(f"/api/rooms/{code}", headers=seated))
    counted("step", lambda: client.post(f"/api/rooms/{code}/steps", json={
        "version": view["room"]["version"], "credential": credentials[view["turn"]],
        "steps": ["roll"]}))
    counted("changed_poll", lambda: client.get(f"/api/rooms/{code}?since={view['steps']}",
                                               headers={"If-None-Match": etag}))
    tally.close()
    return {"store_calls": calls, "app_cpu_ms_per_unchanged_poll": round(app_ms, 3)}


def room_item_bytes(games: int = 20) -> int:
    """The largest DynamoDB item of a 4-player room holding a finished game's link (the
    longest of ``games`` random games), every seat joined: attribute names and values."""
    from app.store.dynamodb import _item

    keys = Keys.for_tests(SIM_KEYS_LABEL)
    token = max((play_random("parcheesi", 4, "bench", n, keys).token() for n in range(games)),
                key=len)
    room = Room("K7P2QX", token, 0, moved=time.time())
    for color in range(4):
        room = room.joined(color, time.time())
    item = _item("room#K7P2QX", 1000, room.data(), time.time())
    return sum(len(name) + len(next(iter(value.values())).encode())
               for name, value in item.items())


def room_hour(calls: dict, step_every: float, item_bytes: int, cpu_ms: float) -> dict:
    """An hour of a 4-player room: four visible phones polling once a second, each poll of a
    phone marking its seat seen every ``ROOM_SEEN_EVERY_SECONDS`` (one more conditional write),
    and a step every ``step_every`` seconds. The store's calls become DynamoDB requests (a get one
    GetItem, an add or a swap one conditional PutItem; ``count`` is unused by rooms); on Lambda
    each request takes about ``cpu_ms``."""
    polls, steps = 4 * 3600 / POLL_SECONDS, 3600 / step_every
    seen = 4 * 3600 / defaults()["ROOM_SEEN_EVERY_SECONDS"]
    requests = polls + steps

    def per_hour(kinds):
        return polls * sum(calls["unchanged_poll"].get(k, 0) for k in kinds) + \
            steps * sum(calls["step"].get(k, 0) for k in kinds)

    reads, writes = per_hour(("get",)), per_hour(("add", "swap", "count")) + seen
    read_units = reads * math.ceil(item_bytes / 4096)
    write_units = writes * math.ceil(item_bytes / 1024)
    dollars = {
        "dynamodb": read_units * PRICE_READ_UNIT + write_units * PRICE_WRITE_UNIT,
        "api_gateway": requests * PRICE_API_GATEWAY_REQUEST,
        "lambda_requests": requests * PRICE_LAMBDA_REQUEST,
        "lambda_duration": requests * cpu_ms / 1000 * LAMBDA_GB * PRICE_LAMBDA_GB_SECOND,
    }
    return {"phones": 4, "polls": round(polls), "steps": round(steps), "seen_writes": round(seen),
            "requests": round(requests), "dynamodb_reads": round(reads),
            "dynamodb_writes": round(writes), "room_item_bytes": item_bytes,
            "read_units": round(read_units), "write_units": round(write_units),
            "usd": {name: round(cost, 5) for name, cost in dollars.items()}
            | {"total": round(sum(dollars.values()), 5)}}


def room_bench(url: str | None, rooms: int = 20, seconds: float = 60.0,
               step_every: float = 3.0) -> dict:
    """The bench (see the module's docstring): one dict of figures."""
    store_url = url or f"sqlite:///{tempfile.mkdtemp(prefix='boardpass-bench-')}/store.db"
    with _server(store_url) as (port, pid):
        tables = [TABLES[n % len(TABLES)] for n in range(rooms)]
        made = [_open_room(port, *table) for table in tables]
        phones = [phone for room in made for phone in room]
        unchanged = _unchanged(port, pid, phones, seconds / 3)
        live = _live(port, pid, made, seconds, step_every)
    app = in_process()
    return {"store": store_url.split("?")[0],
            "server": f"Gunicorn, one gthread worker of {SERVER_THREADS} threads, 127.0.0.1",
            "cores": os.cpu_count(), "unchanged_polls": unchanged, "live": live,
            "in_process": app,
            "hour_of_a_4_player_room": room_hour(app["store_calls"], step_every,
                                                 room_item_bytes(),
                                                 live["server_cpu_ms_per_request"])}
