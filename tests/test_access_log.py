"""The reference server's logs (Gunicorn, as docs/deploy.md runs it) hold no link and no room
code: each link is logged as its digest, the same for every request of that link, however the
link was written in the address."""

from __future__ import annotations

import http.client
import json
import os
import re
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
    (method, path, body, headers: status and body) and the port."""
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

        def ask(method, path, body=None, headers=()):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            typed = {"Content-Type": "application/json"} if body else {}
            connection.request(method, path, body and json.dumps(body), typed | dict(headers))
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


def _asked(logged: str) -> list[str]:
    """The request line's target of each line of an access log (what stands between the
    method and the protocol, as it is logged)."""
    return [re.search(r'"[A-Z]+ (.*) HTTP/1\.1"', line).group(1) for line in logged.splitlines()]


def test_a_room_code_however_written_is_left_out_whole(tmp_path):
    """The code reader takes a code in any case, with spaces or dashes anywhere
    (app/rooms.py ``read_code``); decoded, a space looked like the end of the address and the
    code's second half was logged after ``<room>``. The address is read as a whole: none of
    the code reaches the log, in the path, the query (any place) or the referrer."""
    with gunicorn(tmp_path) as (ask, _):
        status, made = ask("POST", "/api/rooms", {"game": "parcheesi", "players": [
            {"name": "Ana", "color": "yellow"}, {"name": "", "color": "red"}]})
        assert status == 201
        code = json.loads(made)["room"]["code"]
        head, tail = code[:3], code[3:]
        written = [f"{head}%20{tail}", f"{head.lower()}-{tail}", f"%20{head}%09{tail}%20",
                   f"{head}%C2%A0{tail}", f"{code[0]}%20{code[1:3]}%20{tail}", f"{head}+{tail}"]
        for way in written[:5]:  # each opens the room
            assert ask("GET", f"/r/{way}")[0] == 200, way
            assert ask("GET", f"/api/rooms/{way}")[0] == 200, way
        assert b"No room" in ask("GET", f"/r/{written[5]}")[1]  # not a code: none of it either
        for query in [f"code={head}%20{tail}", f"code={head}+{tail}",
                      f"lang=es&code={head.lower()}-{tail}", f"%63ode={head}+{tail.lower()}"]:
            assert ask("GET", f"/r?{query}")[0] == 302, query  # to the room's page
        assert ask("GET", "/", headers={"Referer": f"http://x.example/r/{head}%20{tail}"})[0] \
            == 200
        assert ask("GET", "/", headers={"Referer": f"http://x.example/r?code={head}+{tail}"})[0] \
            == 200
    logged = (tmp_path / "access.log").read_text()
    # In any order: a worker's thread logs once it has answered, and the next request may be
    # answered (and logged) by another thread first.
    asked = _asked(logged)
    assert sorted(asked) == sorted(["/api/rooms"] + ["/r/<room>", "/api/rooms/<room>"] * 5 +
                                   ["/r/<room>"] + ["/r?code=<room>"] * 2 +
                                   ["/r?lang=es&code=<room>", "/r?code=<room>", "/", "/"]), logged
    referrers = re.findall(r'" \d+ \d+ "([^"]*)"', logged)
    assert sorted(referrers) == sorted(["-"] * 16 + ["http://x.example/r/<room>",
                                                     "http://x.example/r?code=<room>"]), logged


def test_a_link_with_a_space_or_a_plus_in_it_is_left_out_whole(tmp_path):
    """A link a phone broke with a space (or a plus) doesn't play, but most of it is the link:
    it is logged as one digest, none of it after."""
    with gunicorn(tmp_path) as (ask, _):
        token = _new_game(ask)
        payload, signature = token.split(".")
        broken = [f"{payload[:-4]}%20{payload[-4:]}.{signature}",
                  f"{payload[:-4]}+{payload[-4:]}.{signature}",
                  f"{payload}.{signature[:6]}%20{signature[6:]}",
                  f"{payload}.{signature[:6]}+{signature[6:]}"]
        for link in broken:
            assert b"has been changed since it was made" in ask("GET", f"/g/{link}")[1], link
            assert ask("GET", f"/api/games/{link}?lang=es")[0] == 400, link
        page = ask("GET", f"/g/%20{token}%20")  # spaces around it: it plays
        assert page[0] == 200 and b"has been changed" not in page[1]
    logged = (tmp_path / "access.log").read_text()
    for target in [t for t in _asked(logged) if t != "/api/games"]:  # all but the game made
        assert re.fullmatch(r"/(g|api/games)/link:[\w-]{16}(\?lang=es)?", target), logged
    assert f"/g/link:{digest(token)}" in logged
    assert payload[:-4] not in logged and signature[6:] not in logged, logged


def test_a_broken_link_anywhere_in_an_address_is_left_out_whole():
    """Not only where a game's link goes: in a query's value, another path's segment, a
    referrer, a link a phone broke with a space or a plus is one digest, none of it after."""
    from app.web.access_log import address, request_line

    token = "AQICAAIAA0FuYRADQmVu.-wEmSmrkUc9nk-UnyfaPeQ"
    payload, signature = token.split(".")
    for cut in (f"{payload}.{signature[:16]}+{signature[16:]}",
                f"{payload}.{signature[:16]}%20{signature[16:]}",
                f"{payload[:12]}%20{payload[12:]}.{signature}"):
        for sent in (f"/?x={cut}", f"/whats-new?ref={cut}", f"/nope/{cut}",
                     f"/r?code=ABC&x={cut}", f"http://h.example/?x={cut}"):
            shown = address(sent)
            assert payload[:8] not in shown and signature[-6:] not in shown, (sent, shown)
            assert f"link:{digest(token)}" in shown, (sent, shown)
            assert signature[-6:] not in request_line(f"GET {sent} HTTP/1.1"), sent


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


def test_gunicorn_s_own_warnings_hold_no_part_of_a_room_code_or_a_link(tmp_path):
    """A request line with a space in its address is refused by Gunicorn, which quotes what
    follows the space as the line's version: it may be the second half of a code or a link."""
    with gunicorn(tmp_path) as (ask, port):
        payload, signature = _new_game(ask).split(".")
        for line in ["GET /r/K7P 2QX HTTP/1.1", "GET /r/K7P\t2QX HTTP/1.1",
                     "GET /api/rooms/K7P\xa02QX/join HTTP/1.1", "GET /r/K7P2QX",
                     f"GET /g/{payload[:-4]} {payload[-4:]}.{signature} HTTP/1.1",
                     f"GET /g/{payload}.{signature[:6]}\t{signature[6:]} HTTP/1.1"]:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
                raw.sendall(line.encode("latin-1") + b"\r\n\r\n")
                assert raw.recv(100).startswith(b"HTTP/1.1 400"), line
    errors = (tmp_path / "error.log").read_text()
    assert errors.count("Invalid request from") == 6, errors
    assert "K7P" not in errors and "2QX" not in errors, errors
    assert errors.count("/r/<room>") == 2 and "/api/rooms/<room>" in errors, errors
    assert signature[6:] not in errors and payload[:-4] not in errors, errors
    assert errors.count("<left out> HTTP/1.1") == 2 and "/g/link:" in errors, errors
