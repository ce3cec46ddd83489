"""The servers the benches run against.

The reference server (the attack benches' and most others'): Gunicorn on 127.0.0.1 with
``WORKERS`` worker processes of 4 threads sharing one new SQLite store (made before the start,
as an operator does: the workers never make it), the app's default limits, and one trusted proxy
(``PROXY_HOPS=1``), so that each client of a bench is told apart by the address it sends in
X-Forwarded-For. The quick-start server: ``flask run``, as the README starts it.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from app.keys import Keys
from app.store import open_store

WORKERS = 2
SERVERS = ("reference", "quick")
ROOT = Path(__file__).resolve().parent.parent


def serve(store_url: str, port: int, keys_label: str = "reference") -> None:
    """The server's process (it ends with SIGTERM, as Gunicorn does); its keys are
    ``Keys.for_tests(keys_label)``, so that a bench may make its links beforehand."""
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
            return bench_app(Keys.for_tests(keys_label), store_url, PROXY_HOPS=1,
                             STORE_CREATE=False, COMPILE_TEMPLATES=True)  # as app.web.wsgi

    Server().run()


@contextmanager
def reference_server(keys_label: str = "reference"):
    """The server, started and answering: yields its port; stopped afterwards."""
    with tempfile.TemporaryDirectory() as folder, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        store_url = f"sqlite:///{folder}/store.db"
        open_store(store_url).create_table()
        server = subprocess.Popen(
            [sys.executable, "-c", "import sys; from workbench.reference_server import serve; "
             "serve(sys.argv[1], int(sys.argv[2]), sys.argv[3])", store_url, str(port),
             keys_label])
        try:
            _wait_for(port, server)
            yield port
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(10)


@contextmanager
def serving(kind: str, keys_label: str = "reference"):
    """The reference server (``kind`` "reference") or the quick-start one ("quick"), answering:
    yields its port and the keys its links are signed with, so that a bench may make links
    beforehand."""
    if kind == "quick":
        environ = {"SIGNING_KEYS": f"{keys_label}-bench-signing",
                   "DICE_KEY": f"{keys_label}-bench-dice",
                   "VAPID_PRIVATE_KEY": Keys.for_tests(keys_label).vapid}
        with quick_server(environ) as port:
            yield port, Keys.from_env(environ)
    else:
        with reference_server(keys_label) as port:
            yield port, Keys.for_tests(keys_label)


@contextmanager
def quick_server(keys: dict[str, str]):
    """``flask --app app.web run`` as the README's quick start has it, its ``keys`` read from
    the environment, on a free port with a new store in a folder of its own (its log there
    too): yields the port."""
    with tempfile.TemporaryDirectory(prefix="boardpass-quick-") as folder:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        environ = {**os.environ, **keys, "STORE_URL": f"sqlite:///{folder}/store.db"}
        with open(Path(folder) / "server.log", "w+", encoding="utf-8") as log:
            server = subprocess.Popen(
                [sys.executable, "-m", "flask", "--app", "app.web", "run", "--port", str(port)],
                cwd=ROOT, env=environ, stdout=log, stderr=subprocess.STDOUT)
            try:
                try:
                    _wait_for(port, server)
                except RuntimeError as error:
                    log.seek(0)
                    raise RuntimeError(f"{error}: {log.read().strip()[-500:]}") from None
                yield port
            finally:
                server.terminate()
                server.wait(10)


def _wait_for(port: int, server) -> None:
    for _ in range(200):
        if server.poll() is not None:
            raise RuntimeError("the server didn't start")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                time.sleep(0.5)  # the other workers' boot
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the server didn't answer")


def elsewhere(work, *args):
    """Start ``work(*args)`` in a process of its own, as an attacker's machine: its threads
    never take the measured client's turn at the interpreter (one process's threads run one at
    a time, and a client waiting for its turn among fifty would measure its own wait). Returns
    a function that waits for ``work``'s result."""
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    process = context.Process(target=lambda: results.put(work(*args)), daemon=True)
    process.start()

    def result():
        value = results.get()
        process.join()
        return value

    return result


def ask(port: int, path: str, address: str, body=None) -> tuple[int, bytes, float]:
    """One request from the client at ``address`` (a GET, or a POST of ``body`` as JSON), on
    a connection of its own: status, body, wall-clock milliseconds."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.perf_counter()
    try:
        headers = {"X-Forwarded-For": address}
        if body is not None:
            headers["Content-Type"] = "application/json"
        connection.request("POST" if body is not None else "GET", path,
                           json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        return response.status, response.read(), (time.perf_counter() - start) * 1000
    finally:
        connection.close()


def new_games(port: int, count: int, address: str, players: list) -> list[str]:
    """``count`` new Parcheesi games of ``players``, made by the client at ``address``: their
    links."""
    return [json.loads(ask(port, "/api/games", address,
                           {"game": "parcheesi", "players": players})[1])["token"]
            for _ in range(count)]
