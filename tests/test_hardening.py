"""Hostile input and the headers that keep links private: deep JSON, methods, an address made
to lead off the site, caches, names that show nothing, and other players' names and numbers."""

from __future__ import annotations

import re

import pytest

from app import link
from app.keys import Keys
from app.play import Game
from api_support import PLAYERS

KEYS = Keys.for_tests("hardening")
DEEP = "[" * 1000 + "]" * 1000


@pytest.fixture
def keys():
    """The keys this module's links are made with: its app's too."""
    return KEYS


# -- no 500 on any input --------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["", "/moves", "/turn", "/absent", "/back", "/players",
                                  "/rematch"])
def test_deeply_nested_json_is_a_400_everywhere(client, api, path):
    token = api.create()["token"]
    url = "/api/games" + (f"/{token}{path}" if path else "")
    for body in (DEEP, '{"seat": 0, "steps": ' + DEEP + "}"):
        response = client.post(url, data=body, content_type="application/json")
        assert response.status_code == 400, (path, response.data[:200])
        assert response.json["error"]["code"] == "BadRequest"


def test_a_body_of_unterminated_strings_is_refused_at_once(client):
    response = client.post("/api/games", data='"\\' * 32000, content_type="application/json")
    assert response.status_code == 400


def test_deeply_nested_steps_in_a_query_are_a_400(client, api):
    token = api.create()["token"]
    response = client.get(f"/api/games/{token}/chances", query_string={"steps": "[" * 900})
    assert response.status_code == 400


def test_a_method_not_allowed_says_which_are(client):
    response = client.get("/api/games")
    assert response.status_code == 405
    assert set(response.headers["Allow"].split(", ")) == {"OPTIONS", "POST"}
    page = client.delete("/")
    assert page.status_code == 405 and "GET" in page.headers["Allow"]


# -- headers, caching, redirects ------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/%5Cevil.example", "/%5C%5Cevil.example/x",
                                  "/%2F%2Fevil.example", "/g/%5Cevil.example"])
def test_the_language_switch_never_leads_off_the_site(client, path):
    page = client.get(path).data.decode()
    hrefs = [part.split('"', 1)[0] for part in page.split('href="')[1:]]
    switch = [h for h in hrefs if "lang=" in h]
    assert switch and all(h.startswith("/") and not h.startswith(("//", "/\\")) and
                          "\\" not in h for h in switch), switch


def test_answers_that_carry_a_link_are_never_stored_and_https_asks_for_https(client, api):
    view = api.create()
    token = view["token"]
    for response in (client.get(f"/g/{token}"), client.get(f"/api/games/{token}"),
                     client.post("/api/games", json={"autoplay": False, "game": "parcheesi", "players": PLAYERS}),
                     client.post("/new", data={"game": "parcheesi", "play0": "1",
                                               "color0": "yellow", "play2": "1",
                                               "color2": "red"})):
        assert response.headers["Cache-Control"] == "no-store"
        assert "Strict-Transport-Security" not in response.headers  # plain http: no HSTS
    redirect = client.get(f"/api//games/{token}")  # werkzeug's slash merging: the link again
    assert redirect.headers["Cache-Control"] == "no-store"
    assert "no-store" not in client.get("/api/boards/parcheesi").headers["Cache-Control"]
    secure = client.get(f"/g/{token}", base_url="https://play.test")
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"


@pytest.mark.parametrize("bad", ["x", "..", "%00", "a." * 1500, "AQ.AAAAAAAAAAAAAAAAAAAAAA",
                                 "%F0%9F%8E%B2", "<script>"])
def test_any_preview_image_address_answers_an_image_never_an_error(client, bad):
    """A preview fetcher asking for the image of anything that isn't a link gets Boardpass's
    own image (a 200, never an error image or a 500); a room that isn't there too."""
    for path in (f"/g/{bad}/preview.png", f"/r/{bad[:40]}/preview.png"):
        response = client.get(path, headers={"User-Agent": "WhatsApp/2"})
        assert response.status_code in (200, 404), path  # 404: a path Flask can't route
        if response.status_code == 200:
            assert response.mimetype == "image/png" and response.data.startswith(b"\x89PNG")


def test_a_bug_drawing_a_preview_logs_no_link(client, api, caplog, monkeypatch):
    from app.web import preview

    token = api.create()["token"]
    monkeypatch.setattr(preview, "render", lambda game: 1 / 0)
    client.application.testing = False
    client.application.config["PROPAGATE_EXCEPTIONS"] = False
    response = client.get(f"/g/{token}/preview.png")
    assert response.status_code == 500
    assert "Exception on /g/<link>/preview.png [GET]" in caplog.text
    assert token not in caplog.text


# -- names players type --------------------------------------------------------------------------

@pytest.mark.parametrize("typed,shown", [
    ("\u200bAna\u2060", "Ana"), ("\ufeffBen\u00ad", "Ben"), ("Cl\u200beo", "Cleo"),
    ("Dev\U000e0041\U000e0042", "Dev"), ("\u3164", "Player 1"), ("\u2800\u2800", "Player 1"),
    ("\u200b\u200b\u200b", "Player 1"), ("\u0301", "Player 1"), ("Ana\u2003 B", "Ana B"),
])
def test_a_name_shows_something(api, typed, shown):
    view = api.create(players=[{"name": typed, "color": "yellow"}, {"name": "Zed", "color": "red"}])
    assert view["seats"][0]["name"] == shown


def test_the_player_to_move_changes_only_their_own_name_and_number(client, api):
    from dataclasses import replace

    game = Game.new("parcheesi", [link.Seat("Ana", 0, phone="+14155550100"),
                                  link.Seat("Ben", 2, phone="+14155550199")], KEYS, by_hand=True)
    while not any(not game.header.seats[s].bot for _, s, _ in game.match.history):
        game.step(0)  # past the first turn: a human has played
    mover = game.match.turn
    while game.match.turn == mover:
        game.step(0)
    game = Game(replace(game.header, host=0), game.match, KEYS)
    token = game.token()
    view = client.get(f"/api/games/{token}").json
    me, other = view["turn"], 1 - view["turn"]
    steps, _ = api.play_turn(view)
    names = [s["name"] for s in view["seats"]]
    theirs = [dict(name=n) for n in names]
    theirs[other] = {"name": "Mallory", "phone": "+14155550123"}
    refused = client.post(f"/api/games/{token}/turn",
                          json={"seat": me, "steps": steps, "seats": theirs})
    assert refused.status_code == 403 and refused.json["error"]["code"] == "NotYours"
    mine = [dict(name=n) for n in names]
    mine[me] = {"name": "Me Again", "phone": "+14155550177"}
    done = client.post(f"/api/games/{token}/turn", json={"seat": me, "steps": steps,
                                                         "seats": mine})
    assert done.status_code == 200, done.json
    assert done.json["seats"][me]["name"] == "Me Again"
    assert Game.from_token(done.json["token"], KEYS).header.seats[other].phone == \
        game.header.seats[other].phone


def first_link(first_is_host: bool, names=("Ana", "Ben")) -> str:
    """A new two-player game (host: seat 0) whose first turn is, or isn't, the host's."""
    for n in range(100):
        game = Game.new("parcheesi", [link.Seat(names[0], 0), link.Seat(names[1], 2)], KEYS,
                        seed=n.to_bytes(8, "big"), by_hand=True)
        if (game.match.turn == 0) == first_is_host:
            return game.token()
    raise AssertionError("no such seed")


@pytest.mark.parametrize("first_is_host", [True, False])
def test_the_host_sets_the_table_on_the_games_first_turn(client, api, first_is_host):
    view = client.get(f"/api/games/{first_link(first_is_host)}").json
    steps, _ = api.play_turn(view)
    seats = [{"name": s["name"]} for s in view["seats"]]
    other = 1 - view["turn"]
    seats[other] = {"name": "Bea", "phone": "+14155550123"}
    answer = client.post(f"/api/games/{view['token']}/turn",
                         json={"seat": view["turn"], "steps": steps, "seats": seats})
    if first_is_host:
        assert answer.status_code == 200 and answer.json["seats"][other]["name"] == "Bea"
    else:  # the first turn is the other player's: they can't rename the host
        assert answer.status_code == 403


def test_names_from_before_the_cleaning_and_names_of_others(client, api):
    view = client.get(f"/api/games/{first_link(False, ('Mary  Jane', 'Jose'))}").json
    me = view["turn"]
    steps, _ = api.play_turn(view)
    as_shown = [{"name": s["name"]} for s in view["seats"]]  # the page sends every name back
    taken = [dict(n) for n in as_shown]
    taken[me] = {"name": " mary jane "}
    refused = client.post(f"/api/games/{view['token']}/turn",
                          json={"seat": me, "steps": steps, "seats": taken})
    assert refused.status_code == 400 and "another player's name" in \
        refused.json["error"]["message"]
    done = client.post(f"/api/games/{view['token']}/turn",
                       json={"seat": me, "steps": steps, "seats": as_shown})
    assert done.status_code == 200, done.json  # "Mary  Jane" unchanged, not "changed" by another
    assert done.json["seats"][0]["name"] == "Mary  Jane"


def test_honest_links_stay_far_inside_servers_request_line_limits():
    """The longest games (6 players, random moves: longer than people's) make links that leave
    a request line far under gunicorn's 4,094 bytes (docs/deploy.md)."""
    from workbench.simulate import simulate
    from app.engine.red_arse_settings import options_for

    longest = simulate("red-arse", 6, 30, "request-line", options_for(6))["link_chars"]["longest"]
    line = f"GET /api/games/{'x' * longest}/review?step=99999&lang=es HTTP/1.1"
    assert len(line) < 4094 // 4, longest


def test_an_unexpected_error_logs_no_link(client, api, caplog, monkeypatch):
    from app.web import views

    token = api.create()["token"]

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(views, "game_view", broken)  # a bug, where no bug should be
    monkeypatch.setattr("app.web.reading.game_view", broken)
    client.application.testing = False
    client.application.config["PROPAGATE_EXCEPTIONS"] = False
    response = client.get(f"/api/games/{token}")
    assert response.status_code == 500 and response.json["error"]["code"] == "ServerError"
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "Exception on /api/games/<link> [GET]" in logged and token not in logged
    assert token not in caplog.text


def test_analysis_of_a_game_is_bounded_per_hour_and_a_repeat_is_free(client, api):
    client.application.config.update(ANALYSIS_PLAYOUTS=10, ANALYSIS_WORKERS=0,
                                     ANALYSIS_PER_GAME_HOUR=2)
    token = api.create()["token"]
    first = client.get(f"/api/games/{token}/chances?step=0")
    assert first.status_code == 200
    for lang in ("", "&lang=es", "&lang=en"):  # the same position again: kept, not counted
        again = client.get(f"/api/games/{token}/chances?step=0{lang}")
        assert again.status_code == 200 and again.json == first.json
    game = Game.from_token(token, KEYS)
    positions, new = {game.position()}, []
    while len(new) < 2:  # the game's next two positions unlike any before
        game.step(0)
        if game.position() not in positions:
            positions.add(game.position())
            new.append(len(game.match.steps))
    assert client.get(f"/api/games/{game.token()}/chances?step={new[0]}").status_code == 200
    refused = client.get(f"/api/games/{game.token()}/chances?step={new[1]}")
    assert refused.status_code == 429 and refused.json["error"]["code"] == "TooMuchAnalysis"
    assert 0 < int(refused.headers["Retry-After"]) <= 3600
    assert refused.headers["Cache-Control"] == "no-store"
    other = api.create()["token"]  # another game has its own count
    assert client.get(f"/api/games/{other}/chances?step=0").status_code == 200


LINK = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{16,}")  # a signed link's token


def test_every_route_that_answers_with_a_link_says_no_store(client, api):
    """Every route of the app, GET and POST, asked about a game, a live room and a seat in it:
    any answer that holds a link (in its body or its headers), the room's poll and its 304
    included, is never stored by a browser, proxy or CDN."""
    game = api.create()
    room = client.post("/api/rooms", json={"game": "parcheesi", "players": [
        {"name": "Ana", "color": "yellow"}, {"color": "red", "bot": "easy"}]}).json
    code, credential = room["room"]["code"], room["you"]["credential"]
    room = client.post(f"/api/rooms/{code}/start", json={"credential": credential}).json
    values = {"token": game["token"], "code": code, "game": "parcheesi", "lang": "es",
              "size": "192", "filename": "js/game.js"}
    body = {"seat": game["turn"], "credential": credential, "version": room["room"]["version"],
            "steps": ["roll"], "game": "parcheesi", "players": PLAYERS, "autoplay": False}
    etag = client.get(f"/api/rooms/{code}").headers["ETag"]
    unchanged = client.get(f"/api/rooms/{code}", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.headers["Cache-Control"] == "no-store"
    checked = 0
    for rule in client.application.url_map.iter_rules():
        path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], rule.rule)
        for method in sorted(rule.methods & {"GET", "POST"}):
            response = client.open(path, method=method, json=body if method == "POST" else None,
                                   headers={"X-Seat": credential})
            said = response.get_data().decode("utf-8", "replace") + " ".join(
                value for name, value in response.headers if name != "Set-Cookie")
            if LINK.search(said):
                checked += 1
                assert "no-store" in response.headers.get("Cache-Control", ""), (method, path)
    assert checked >= 10  # the walk reached the routes that answer with links


def test_nothing_public_or_cacheable_carries_a_cookie(client, api):
    """Every route of the app, asked by a browser with no cookies yet (and switching the
    language): an answer a cache may keep (``public``, or a max-age) never sets a cookie, or a
    shared cache would hand one device id to everyone; an uncached page still gives one."""
    game = api.create()
    room = client.post("/api/rooms", json={"game": "parcheesi", "players": PLAYERS}).json
    values = {"token": game["token"], "code": room["room"]["code"], "game": "parcheesi",
              "lang": "es", "size": "192", "filename": "js/game.js"}
    browser = client.application.test_client(use_cookies=False)
    cacheable = 0
    for rule in client.application.url_map.iter_rules():
        path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            response = browser.open(path + "?lang=es", method=method,
                                    json={} if method != "GET" else None)
            control = response.cache_control
            if control.public or (control.max_age or 0) > 0 or (control.s_maxage or 0) > 0:
                cacheable += 1
                assert "Set-Cookie" not in response.headers, (method, path, control)
    assert cacheable >= 8  # the icons, the manifest, the previews, the boards, the words
    assert "device=" in browser.get("/").headers["Set-Cookie"]


FORM = {"game": "parcheesi", "play0": "1", "color0": "yellow", "play1": "1", "color1": "red"}
RESEND = "links must arrive whole"  # what a broken link's page asks


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
    {"Origin": "https://evil.example"},
    {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"},
    {"Origin": "https://play.test.evil.example"}])
def test_a_form_or_an_api_call_from_another_site_changes_nothing(client, api, headers):
    """A page on another site posting our New game form (or calling the API, or switching
    notifications off) in a visitor's name is refused, and told why."""
    page = client.post("/new", data=FORM, headers=headers)
    assert page.status_code == 403 and "Location" not in page.headers
    assert "another website" in page.get_data(as_text=True)
    assert RESEND not in page.get_data(as_text=True)  # no link broke: nothing to send again
    made = client.post("/api/games", json={"game": "parcheesi", "players": PLAYERS},
                       headers=headers)
    assert made.status_code == 403 and made.json["error"]["code"] == "CrossSite"
    token = api.create()["token"]
    assert client.delete(f"/api/games/{token}/push", json={"seat": 0},
                         headers=headers).status_code == 403


@pytest.mark.parametrize("headers", [
    {}, {"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}, {"Origin": "null"},
    {"Origin": "https://play.test", "Sec-Fetch-Site": "same-origin"},  # PUBLIC_URL
    {"Origin": "http://localhost"}])  # the request's own host
def test_our_own_pages_and_clients_without_those_headers_still_make_games(client, headers):
    assert client.post("/new", data=FORM, headers=headers).status_code == 302
    assert client.post("/api/games", json={"game": "parcheesi", "players": PLAYERS},
                       headers=headers).status_code == 201
    room = client.post("/api/rooms", json={"game": "parcheesi", "players": PLAYERS},
                       headers=headers).json
    gone = client.post(f"/api/rooms/{room['room']['code']}/gone", headers=headers,
                       json={"credential": room["you"]["credential"]})  # the page's beacon
    assert gone.status_code == 204


def test_making_games_is_limited_per_address_by_the_form_and_the_api_together(tmp_path):
    """``GAMES_PER_ADDRESS`` counts new games in the store, however they are made; past it a
    person gets a page that says to wait, the API a 429 with Retry-After."""
    from app.web import create_app

    app = create_app({"KEYS": KEYS, "TESTING": True, "CLOCK": lambda: 1_800_000_000,
                      "STORE_URL": f"sqlite:///{tmp_path}/store.db",
                      "GAMES_PER_ADDRESS": "3 per hour"})
    client = app.test_client()
    body = {"game": "parcheesi", "players": PLAYERS}
    assert client.post("/new", data=FORM).status_code == 302
    assert [client.post("/api/games", json=body).status_code for _ in range(3)] == [201, 201, 429]
    refused = client.post("/api/games", json=body)
    assert refused.json["error"]["code"] == "TooManyRequests" and refused.headers["Retry-After"]
    page = client.post("/new", data=FORM)
    assert page.status_code == 429 and "wait a little" in page.get_data(as_text=True)
    assert RESEND not in page.get_data(as_text=True)
    assert client.post("/api/games", json=body,
                       environ_base={"REMOTE_ADDR": "10.0.0.2"}).status_code == 201


def test_only_a_link_broken_on_its_way_is_asked_for_again(client, api):
    """A link cut off, changed or run on into more text is asked for again, in the page's
    language; a page that says why something else was refused doesn't ask it."""
    token = api.create()["token"]
    payload, signature = token.split(".")
    for broken in [payload, f"{payload}.{signature[:-1]}X", f"{token}x" * 200]:
        page = client.get(f"/g/{broken}").get_data(as_text=True)
        assert "This link doesn" in page and RESEND in page, broken[:40]
    assert RESEND in client.get("/g/").get_data(as_text=True)  # cut off after /g/
    for refused in [client.get("/nowhere"), client.post("/new", data={"game": "parcheesi"}),
                    client.post("/new", data=FORM, headers={"Sec-Fetch-Site": "cross-site"})]:
        assert RESEND not in refused.get_data(as_text=True), refused.status
    spanish = client.application.test_client()
    page = spanish.get(f"/g/{payload}?lang=es").get_data(as_text=True)
    assert "pedile que te lo vuelva a mandar" in page
    refused = spanish.post("/new", data=FORM, headers={"Origin": "https://evil.example"})
    assert "vuelva a mandar" not in refused.get_data(as_text=True)
