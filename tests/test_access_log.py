"""The reference server's access log (Gunicorn, as docs/deploy.md runs it) holds no link: each
one is logged as its digest, the same for every request of that link."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time

from app.ledger import digest
from app.store import open_store


def test_gunicorn_s_access_log_holds_each_link_s_digest_not_the_link(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "access.log"
    env = dict(os.environ, SIGNING_KEYS="access-log-test", DICE_KEY="access-log-test",
               STORE_URL=f"sqlite:///{tmp_path}/store.db")
    open_store(env["STORE_URL"]).create_table()  # the operator's, before the first start
    for name in [n for n in env if n.startswith("TWILIO_")]:
        del env[name]
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--workers", "1", "--threads", "4",
         "--worker-class", "gthread", "--bind", f"127.0.0.1:{port}",
         "--access-logfile", str(log), "--logger-class", "app.web.access_log.LinkFreeLogger",
         "app.web.wsgi:app"], env=env, stderr=subprocess.DEVNULL)
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

        status, made = ask("POST", "/api/games", {"game": "parcheesi", "players": [
            {"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]})
        assert status == 201
        token = json.loads(made)["token"]
        assert ask("GET", f"/g/{token}")[0] == 200
        assert ask("GET", f"/api/games/{token}?lang=es")[0] == 200
    finally:
        server.terminate()
        server.wait(10)
    logged = log.read_text()
    assert token not in logged and token.split(".")[1] not in logged
    assert logged.count(f"link:{digest(token)}") == 2, logged  # the page and its answer
    assert "POST /api/games" in logged
