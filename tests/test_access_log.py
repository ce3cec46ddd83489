"""The reference server's logs (Gunicorn, as docs/deploy.md runs it) hold no link and no room
code: each link is logged as its digest, the same for every request of that link, however the
link was written in the address."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager

from app.ledger import digest
from app.store import open_store


@contextmanager
def gunicorn(tmp_path):
    """The reference server's command on a free port, its logs in ``tmp_path``: yields ``ask``
    (method, path, body: status and body) and the port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, SIGNING_KEYS="access-log-test", DICE_KEY="access-log-test",
               STORE_URL=f"sqlite:///{tmp_path}/store.db")
    open_store(env["STORE_URL"]).create_table()  # the operator's, before the first start
    for name in [n for n in env if n.startswith("TWILIO_")]:
        del env[name]
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--workers", "1", "--threads", "4",
         "--worker-class", "gthread", "--bind", f"127.0.0.1:{port}",
         "--access-logfile", str(tmp_path / "access.log"),
         "--error-logfile", str(tmp_path / "error.log"),
         "--logger-class", "app.web.access_log.LinkFreeLogger", "app.web.wsgi:app"], env=env)
    try:
        deadline = time.monotonic() + 60  # Gunicorn's start, on a busy machine
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "no server"
                time.sleep(0.05)

        def ask(method, path, body=None):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request(method, path, body and json.dumps(body),
                               {"Content-Type": "application/json"} if body else {})
            response = connection.getresponse()
            data = response.read()
            connection.close()
            return response.status, data

        yield ask, port
    finally:
        server.terminate()
        server.wait(10)


def _new_game(ask) -> str:
    status, made = ask("POST", "/api/games", {"game": "parcheesi", "players": [
        {"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]})
    assert status == 201
    return json.loads(made)["token"]


def test_gunicorn_s_access_log_holds_each_link_s_digest_not_the_link(tmp_path):
    with gunicorn(tmp_path) as (ask, _):
        token = _new_game(ask)
        assert ask("GET", f"/g/{token}")[0] == 200
        assert ask("GET", f"/api/games/{token}?lang=es")[0] == 200
    logged = (tmp_path / "access.log").read_text()
    assert token not in logged and token.split(".")[1] not in logged
    assert logged.count(f"link:{digest(token)}") == 2, logged  # the page and its answer
    assert "POST /api/games" in logged


def test_a_link_written_with_percent_escapes_is_logged_as_its_digest_too(tmp_path):
    with gunicorn(tmp_path) as (ask, _):
        token = _new_game(ask)
        payload, signature = token.split(".")
        escaped = f"{payload}%2E{signature[0]}%{ord(signature[1]):02x}{signature[2:]}"
        assert ask("GET", f"/g/{escaped}")[0] == 200  # the server decodes it: it plays
    logged = (tmp_path / "access.log").read_text()
    assert signature not in logged and signature[2:] not in logged, logged
    assert f"/g/link:{digest(token)}" in logged


def test_room_codes_stay_out_of_the_access_log(tmp_path):
    with gunicorn(tmp_path) as (ask, _):
        ask("GET", "/r/K7P2QX")
        ask("GET", "/api/rooms/K7P2QX")
        ask("GET", "/r?code=k7p2qx")
        ask("GET", "/r/%4B7P2QX")
    logged = (tmp_path / "access.log").read_text()
    assert "K7P2QX" not in logged.upper() and "%4B7P2QX" not in logged.upper(), logged
    assert logged.count("/r/<room>") == 2 and "/api/rooms/<room>" in logged


def test_gunicorn_s_own_warning_about_a_bad_request_line_holds_no_link(tmp_path):
    with gunicorn(tmp_path) as (ask, port):
        token = _new_game(ask)
        with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
            raw.sendall(f"GET /g/{token}\r\n\r\n".encode())  # no HTTP version: refused
            assert raw.recv(100).startswith(b"HTTP/1.1 400")
    errors = (tmp_path / "error.log").read_text()
    assert "Invalid HTTP request line" in errors, errors
    assert token.split(".")[1] not in errors and f"link:{digest(token)}" in errors
    assert token.split(".")[1] not in (tmp_path / "access.log").read_text()
