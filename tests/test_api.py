"""The JSON API and the pages through Flask's test client: every endpoint, every kind of bad input.

Bad input gets a clear 4xx (JSON for the API, a page for people), never a 500, never a changed game.
"""

import base64
import hashlib
import html
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import link
from app.keys import Keys
from app.play import Game
from app.web import ROOT
import browser_support
from api_support import PLAYERS, host_key

KEYS = Keys.for_tests("api")


@pytest.fixture
def keys():
    """The keys this module's links are made with: its app's too."""
    return KEYS


def created_with(client, wanted) -> dict:
    """A two-player game whose first roll satisfies ``wanted(dice)`` (dice are fixed by the
    seed, so tests pick a seed instead of hoping)."""
    for number in range(500):
        game = Game.new("parcheesi", [link.Seat("Ana", 0), link.Seat("Ben", 2)], KEYS,
                        seed=number.to_bytes(8, "big"), by_hand=True)
        if wanted(game.match.die(game.match.next_die), game.match.die(game.match.next_die + 1)):
            return client.get(f"/api/games/{game.token()}").json
    raise AssertionError("no seed found")


def assert_error(response, status):
    assert response.status_code == status, response.data
    assert response.is_json
    assert response.json["error"]["message"]


# -- endpoints ---------------------------------------------------------------------------------

def test_openapi_document_is_served_and_valid(client):
    from openapi_spec_validator import validate
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    validate(response.json)
    assert set(response.json["paths"]) >= {"/api/games", "/api/games/{token}",
                                           "/api/games/{token}/moves", "/api/games/{token}/turn",
                                           "/api/games/{token}/players",
                                           "/api/games/{token}/rematch"}


def test_board_layout_places_every_square(client):
    layout = client.get("/api/boards/parcheesi").json
    assert [c["square"] for c in layout["squares"]] == list(range(1, 69))
    assert [c["name"] for c in layout["colors"]] == ["yellow", "blue", "red", "green"]
    assert all(len(c["path"]) == 71 for c in layout["colors"])
    assert_error(client.get("/api/boards/chess"), 400)
    assert_error(client.get("/api/boards/parcheesi?board=6"), 400)


@pytest.mark.parametrize("size, holes", [(None, 56), ("4", 56), ("6", 84)])
def test_red_arse_board_layouts(client, size, holes):
    url = "/api/boards/red-arse" + (f"?board={size}" if size else "")
    layout = client.get(url).json
    assert layout["game"] == "red-arse" and layout["board"] == holes // 14
    assert len(layout["places"]) == holes + 1 + 4 * holes // 14  # track, center, home columns
    assert len(layout["colors"]) == holes // 14
    assert all(len(c["base"]) == 4 for c in layout["colors"])


@pytest.mark.parametrize("size", ["5", "six", "", "4.0"])
def test_red_arse_board_size_must_be_4_or_6(client, size):
    assert_error(client.get(f"/api/boards/red-arse?board={size}"), 400)


def test_create_a_game_gives_its_link_and_the_invite_for_the_first_player(api):
    view = api.create()
    assert view["url"] == "https://play.test/g/" + view["token"]
    assert view["phase"] == "roll"
    assert [s["name"] for s in view["seats"]] == ["Ana", "Ben"]
    first = view["seats"][view["turn"]]["name"]
    assert view["message"]["to"] == first and view["url"] in view["message"]["text"]
    assert view["message"]["sms_href"].startswith("sms:")


def test_players_sit_in_turn_order_whatever_order_they_are_listed_in(api):
    view = api.create(players=[{"name": "Red", "color": "red"}, {"name": "Yel", "color": "yellow"}])
    assert [s["color"] for s in view["seats"]] == ["yellow", "red"]


def test_read_a_game_shows_position_legal_moves_and_replay(client, api):
    view = api.create()
    read = client.get(f"/api/games/{view['token']}").json
    assert read["position"] == view["position"] and read["legal"] == []
    assert read["replay"]["events"] == [] and read["steps"] == 0


def test_read_the_turns_since_a_given_step(client):
    from workbench.games import play_random
    game = play_random("parcheesi", 3, "api-since", 0, KEYS)
    token = game.token()
    whole = client.get(f"/api/games/{token}?since=0").json["replay"]
    assert len(whole["events"]) == len(game.match.steps)
    assert whole["pieces"] == [[-1] * 4] * 3
    tail = client.get(f"/api/games/{token}?since=10").json["replay"]
    assert tail["events"] == whole["events"][10:] and tail["start"] == 10
    assert tail["pieces"] == whole["events"][9]["pieces"]
    assert_error(client.get(f"/api/games/{token}?since=-1"), 400)
    assert_error(client.get(f"/api/games/{token}?since=abc"), 400)


def test_rolling_reveals_the_dice_and_the_legal_moves(client, api):
    view = api.create()
    response = client.post(f"/api/games/{view['token']}/moves",
                           json={"seat": view["turn"], "steps": ["roll"]})
    after = response.json
    assert response.status_code == 200
    assert len(after["last_roll"]) == 2 and all(1 <= d <= 6 for d in after["last_roll"])
    assert after["dice"] == (after["last_roll"] if after["phase"] == "move" else [])
    for move in after["legal"]:
        assert {"from", "to", "values", "text"} <= set(move)


def test_the_same_link_always_gives_the_same_dice(client, api):
    view = api.create()
    body = {"seat": view["turn"], "steps": ["roll"]}
    first = client.post(f"/api/games/{view['token']}/moves", json=body).json
    again = client.post(f"/api/games/{view['token']}/moves", json=body).json
    assert first == again


def test_the_dice_secret_is_shown_only_once_the_game_is_over(client, api):
    from workbench.games import play_random
    from app.engine.dice import commitment
    finished = play_random("parcheesi", 2, "api-secret", 0, KEYS)
    view = client.get(f"/api/games/{finished.token()}").json
    assert view["phase"] == "over" and view["secret"]
    assert commitment(bytes.fromhex(view["secret"])) == view["commitment"]
    ongoing = api.create()
    assert ongoing["secret"] is None and len(ongoing["commitment"]) == 64


def test_finishing_a_turn_returns_the_next_link_for_the_next_player(client, api):
    view = api.create()
    steps, _ = api.play_turn(view)
    response = client.post(f"/api/games/{view['token']}/turn",
                           json={"seat": view["turn"], "steps": steps})
    assert response.status_code == 200
    nxt = response.json
    assert nxt["token"] != view["token"] and nxt["turn"] != view["turn"]
    mover = view["seats"][view["turn"]]["name"]
    assert nxt["message"]["to"] == nxt["seats"][nxt["turn"]]["name"]
    assert mover in nxt["message"]["text"] and nxt["url"] in nxt["message"]["text"]
    assert nxt["message"]["status"] == "not-sent"  # nobody has a phone number here
    # The next player sees the previous turn replayed.
    read = client.get(f"/api/games/{nxt['token']}").json
    assert [e["kind"] for e in read["replay"]["events"]][0] == "roll"
    assert all(e["seat"] == view["turn"] for e in read["replay"]["events"])


def test_phone_changes_go_out_with_the_next_link(client, api):
    # The host's first turn: they may set anyone's name and number (later, only their own).
    game = next(g for g in (Game.new("parcheesi", [link.Seat("Ana", 0), link.Seat("Ben", 2)],
                                     KEYS, seed=n.to_bytes(8, "big"), by_hand=True) for n in range(100))
                if g.match.turn == g.header.host and not g.match.steps)
    view = client.get(f"/api/games/{game.token()}").json
    steps, _ = api.play_turn(view)
    seats = [{"name": "Ana", "phone": "+1 415 555 0100"}, {"name": "Benjamin", "phone": None}]
    nxt = client.post(f"/api/games/{view['token']}/turn",
                      json={"seat": view["turn"], "steps": steps, "seats": seats}).json
    game = Game.from_token(nxt["token"], KEYS)
    assert [s.name for s in game.header.seats] == ["Ana", "Benjamin"]
    assert game.header.seats[0].phone == "+14155550100"
    assert "+14155550100" not in nxt["token"]


# -- bad input: links, requests and moves get a clear 4xx, never a 500 or a changed game -------

def test_a_tampered_link_is_refused(client, api):
    token = api.create()["token"]
    bad = token[:20] + ("A" if token[20] != "A" else "B") + token[21:]
    assert_error(client.get(f"/api/games/{bad}"), 400)
    page = client.get(f"/g/{bad}")  # a page that says why, 200: never a dead link in a chat
    assert page.status_code == 200 and b"This link doesn" in page.data


def test_a_truncated_link_is_refused(client, api):
    token = api.create()["token"]
    assert_error(client.get(f"/api/games/{token[:-5]}"), 400)
    assert_error(client.get(f"/api/games/{token.split('.')[0]}"), 400)
    assert b"This link doesn" in client.get(f"/g/{token[:30]}").data


def test_an_oversized_link_is_refused(client):
    assert_error(client.get("/api/games/" + "A" * 5000), 414)
    assert b"This link doesn" in client.get("/g/" + "A" * 5000).data


def test_a_link_from_another_rules_version_is_refused_as_gone(client):
    game = Game.new("parcheesi", [link.Seat("A", 0), link.Seat("B", 2)], KEYS, by_hand=True)
    from dataclasses import replace
    old = link.encode(replace(game.header, rules_version=99), [], KEYS)
    assert_error(client.get(f"/api/games/{old}"), 410)
    assert b"This link doesn" in client.get(f"/g/{old}").data


def test_signed_links_this_version_cannot_play_are_refused_not_crashed(client):
    for seats in ([link.Seat("A", 0)], [link.Seat("A", 0), link.Seat("B", 0)],
                  [link.Seat("A", 0), link.Seat("B", 9)]):
        token = link.encode(link.Header("parcheesi", tuple(seats), bytes(8)), [], KEYS)
        assert_error(client.get(f"/api/games/{token}"), 400)
        assert b"This link doesn" in client.get(f"/g/{token}").data
    # Table options from a later version (here: house rules Red Arse doesn't have).
    later = link.encode(link.Header("red-arse", (link.Seat("A", 0), link.Seat("B", 1)), bytes(8),
                                    options=1 << 20), [], KEYS)
    assert_error(client.get(f"/api/games/{later}"), 410)


def test_wrong_content_type_and_malformed_json(client, api):
    view = api.create()
    url = f"/api/games/{view['token']}/moves"
    assert_error(client.post(url, data="seat=0", content_type="application/x-www-form-urlencoded"), 415)
    assert_error(client.post(url, data="{nope", content_type="application/json"), 400)
    assert_error(client.post(url, json=[1, 2]), 400)
    assert_error(client.post(url, json={"steps": ["roll"]}), 400)
    assert_error(client.post(url, json={"seat": 0, "steps": "roll"}), 400)
    assert_error(client.post("/api/games", json={"players": [{"name": "x", "color": "pink"}]}), 400)
    assert_error(client.post("/api/games", json={"players": PLAYERS * 3}), 400)
    assert_error(client.post("/api/games", json={"players": [PLAYERS[0], PLAYERS[0]]}), 400)
    assert_error(client.post("/api/games", json={
        "players": [{"name": "A", "color": "yellow", "phone": "123"}, PLAYERS[1]]}), 400)


def test_moves_for_a_seat_that_is_not_to_move_are_refused(client, api):
    view = api.create()
    other = 1 - view["turn"]
    response = client.post(f"/api/games/{view['token']}/moves", json={"seat": other, "steps": ["roll"]})
    assert_error(response, 409)
    assert_error(client.post(f"/api/games/{view['token']}/moves", json={"seat": 7, "steps": []}), 400)


def test_illegal_and_malformed_moves_are_refused(client):
    view = created_with(client, lambda a, b: a != b)
    url, seat = f"/api/games/{view['token']}/moves", view["turn"]
    assert_error(client.post(url, json={"seat": seat, "steps": [{"from": -1, "to": 0, "values": [5]}]}), 422)
    assert_error(client.post(url, json={"seat": seat, "steps": ["roll", "roll"]}), 422)
    assert_error(client.post(url, json={"seat": seat, "steps": ["roll", {"from": 3, "to": 90, "values": [9]}]}), 422)
    assert_error(client.post(url, json={"seat": seat, "steps": ["roll", {"to": 1}]}), 422)
    assert_error(client.post(url, json={"seat": seat, "steps": ["dance"]}), 422)


@pytest.mark.parametrize("step", [
    {"from": 1e400, "to": 0, "values": [5]}, {"from": 5.9, "to": 8, "values": [3]},
    {"from": True, "to": 0, "values": [5]}, {"from": "5", "to": "8", "values": "3"},
    {"from": -1, "to": 0, "values": {"5": 1}}, {"from": None}, [1, 2], 7, None,
])
def test_moves_that_are_not_whole_numbers_are_refused(client, step):
    view = created_with(client, lambda a, b: 5 in (a, b) and a != b)
    response = client.post(f"/api/games/{view['token']}/moves",
                           json={"seat": view["turn"], "steps": ["roll", step]})
    assert_error(response, 422)


@pytest.mark.parametrize("name", ["\ud800", None, 12, {"a": 1}, "\u202eevil", "x" * 25])
def test_names_that_are_not_plain_text_are_refused_or_cleaned(client, name):
    players = [{"name": name, "color": "yellow"}, PLAYERS[1]]
    response = client.post("/api/games", data=json.dumps({"players": players}),
                           content_type="application/json")
    if name in (None, "\ud800", "\u202eevil"):  # nothing, or what shows nothing, is dropped
        assert response.status_code == 201
        assert response.json["seats"][0]["name"] == \
            ("evil" if name == "\u202eevil" else "Player 1")
    else:
        assert_error(response, 400)


def test_a_seat_change_is_checked_like_a_new_player(client, api):
    view = created_with(client, lambda a, b: a != b)
    steps, _ = api.play_turn(view)
    url = f"/api/games/{view['token']}/turn"
    mine = view["turn"]  # the mover's own seat: theirs to change

    def own(change):
        return [change if i == mine else {} for i in range(2)]

    for seats in (own({"name": "x" * 30}), [{}], own({"phone": "123"}), own({"name": 5}), "no"):
        assert_error(client.post(url, json={"seat": mine, "steps": steps, "seats": seats}), 400)


@pytest.mark.parametrize("since", ["\u00b2", "-1", "1e3", "9999999", ""])
def test_since_must_be_a_plain_step_number(client, api, since):
    token = api.create()["token"]
    assert_error(client.get(f"/api/games/{token}", query_string={"since": since}), 400)


def test_finishing_a_turn_too_early_or_playing_past_its_end_is_refused(client, api):
    view = api.create()
    url, seat = f"/api/games/{view['token']}", view["turn"]
    assert_error(client.post(f"{url}/turn", json={"seat": seat, "steps": []}), 422)
    steps, _ = api.play_turn(view)
    assert_error(client.post(f"{url}/moves", json={"seat": seat, "steps": steps + ["roll"]}), 422)


def test_a_refused_request_never_changes_the_game(client):
    view = created_with(client, lambda a, b: a != b)
    before = client.get(f"/api/games/{view['token']}").json
    refused = client.post(f"/api/games/{view['token']}/turn",
                          json={"seat": view["turn"], "steps": ["roll", "roll"]})
    assert_error(refused, 422)
    assert "token" not in refused.json  # no next link was made
    assert client.get(f"/api/games/{view['token']}").json == before


def test_unknown_api_address_and_method_are_json_errors(client):
    assert_error(client.get("/api/nothing"), 404)
    assert_error(client.get("/api/games"), 405)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)

bodies = st.fixed_dictionaries({}, optional={
    "seat": json_values, "steps": json_values, "seats": json_values, "game": json_values,
    "players": json_values})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies | json_values, endpoint=st.sampled_from(["moves", "turn", "create"]))
def test_no_request_body_makes_the_server_fail(client, body, endpoint):
    token = FUZZ_TOKEN
    url = "/api/games" if endpoint == "create" else f"/api/games/{token}/{endpoint}"
    response = client.post(url, data=json.dumps(body), content_type="application/json")
    assert response.status_code < 500, response.data
    assert response.is_json


FUZZ_TOKEN = Game.new("parcheesi", [link.Seat("A", 0), link.Seat("B", 2)], KEYS,
                      seed=bytes(8), by_hand=True).token()


# -- pages ---------------------------------------------------------------------------------------

def sent(page, name: str):
    """What a page carries for its script as data (``<script type="application/json">``)."""
    import re
    found = re.search(rb'<script type="application/json" id="%s">(.*?)</script>' % name.encode(),
                      page.data, re.S)
    return json.loads(found.group(1))


def test_pages_send_a_content_security_policy_without_inline_script(client, api):
    import re
    game = api.create()
    for path in ("/", "/rules/parcheesi", "/rules/red-arse", "/rules/ludo", "/whats-new",
                 f"/g/{game['token']}",
                 "/nowhere"):
        response = client.get(path)
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        scripts = re.findall(rb"<script[^>]*>", response.data)
        # Only scripts from our files; what the page carries inline is data, never run.
        assert all(b" src=" in tag or b'type="application/json"' in tag or
                   b'type="importmap"' in tag for tag in scripts), scripts
        for found in re.findall(rb'<script type="importmap">(.*?)</script>', response.data):
            # The one inline script: the import map, allowed by its hash, never run as code.
            digest = base64.b64encode(hashlib.sha256(found).digest()).decode()
            assert f"'sha256-{digest}'" in csp
            assert json.loads(found)["imports"]


def test_new_game_form_creates_a_game_and_opens_it(client):
    form = {"game": "parcheesi", "play0": "1", "name0": "Ana", "color0": "yellow",
            "play2": "1", "name2": "<img src=x onerror=1>", "color2": "red"}
    response = client.post("/new", data=form)
    assert response.status_code == 302
    page = client.get(response.headers["Location"])
    assert page.status_code == 200
    assert b"&lt;img src=x onerror=1&gt;" in page.data
    assert b"<img src=x" not in page.data


def test_new_game_form_with_one_player_explains_the_problem(client):
    response = client.post("/new", data={"game": "parcheesi", "play0": "1", "color0": "yellow"})
    assert response.status_code == 400 and b"2 to 4 players" in response.data


def test_new_game_form_with_a_too_long_name_explains_the_problem(client):
    response = client.post("/new", data={"game": "parcheesi", "play0": "1", "color0": "yellow",
                                         "name0": "x" * 30, "play1": "1", "color1": "blue"})
    assert response.status_code == 400 and b"at most 24 characters" in response.data


@pytest.mark.parametrize("lang, words", [
    ("en", "A picture of the board in every shared link"),
    ("es", "Una imagen del tablero en cada link compartido"),
])
def test_whats_new_is_for_players_in_their_language(client, lang, words):
    page = client.get(f"/whats-new?lang={lang}").get_data(as_text=True)
    news = page[page.index("<article"):page.index("</article>")]
    assert words in news
    # Players' words: no developers' notes, API routes or settings.
    for developer in ("[Unreleased]", "/api/", "POST ", "ANALYSIS_", "Changelog"):
        assert developer not in news


def test_the_news_is_kept_in_both_languages_alike():
    """The same release habit for both: each month's section, with as many items, in each."""
    import re

    news = Path("app/web/news")
    shapes = [[(len(re.findall(r"(?m)^- ", part))) for part in
               re.split(r"(?m)^## ", (news / f"{lang}.md").read_text())[1:]]
              for lang in ("en", "es")]
    assert shapes[0] == shapes[1] and shapes[0]


def test_a_missing_page_is_a_friendly_404(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404 and b"Nothing here" in response.data


# -- texting the next link through Twilio (the real client, a fake Twilio on 127.0.0.1) ----------

def game_with_phones(api, phone, seed=bytes(8)):
    game = Game.new("parcheesi", [link.Seat("Ana", 0, phone="+14155550100"),
                                  link.Seat("Ben", 2, phone=phone)], KEYS, seed=seed, by_hand=True)
    view = api.client.get(f"/api/games/{game.token()}").json
    if view["turn"] != 0:  # make Ana the mover, so that Ben is the one texted
        steps, _ = api.play_turn(view)
        view = api.client.post(f"/api/games/{view['token']}/turn",
                           json={"seat": view["turn"], "steps": steps}).json
    return view


def test_finishing_a_turn_texts_the_next_link_to_the_next_player(client, api, twilio):
    view = game_with_phones(api, "+14155550199")
    before = len(twilio.requests)
    steps, _ = api.play_turn(view)
    nxt = client.post(f"/api/games/{view['token']}/turn", json={"seat": 0, "steps": steps}).json
    assert nxt["message"]["status"] == "sent" and nxt["message"]["to"] == "Ben"
    sent = twilio.requests[before:]
    assert len(sent) == 1
    assert sent[0].field("To") == "+14155550199" and sent[0].field("From") == "+15005550006"
    assert sent[0].field("Body") == nxt["message"]["text"]
    assert nxt["url"] in sent[0].field("Body") and "Ana" in sent[0].field("Body")
    assert sent[0].basic_auth == (twilio.account_sid, twilio.auth_token)


def test_a_text_twilio_refuses_still_gives_the_link_to_send_by_hand(client, api, twilio):
    twilio.reject("+14155550199")
    view = game_with_phones(api, "+14155550199")
    steps, _ = api.play_turn(view)
    response = client.post(f"/api/games/{view['token']}/turn", json={"seat": 0, "steps": steps})
    assert response.status_code == 200  # the game goes on: the turn is kept in the new link
    message = response.json["message"]
    assert message["status"] == "failed" and "Send the link yourself" in message["error"]
    assert message["sms_href"].startswith("sms:+14155550199")
    assert Game.from_token(response.json["token"], KEYS).match.turn == 1


def test_phone_numbers_never_appear_in_a_game_read(client):
    game = Game.new("parcheesi", [link.Seat("Ana", 0, phone="+14155550100"),
                                  link.Seat("Ben", 2, phone="+14155550199")], KEYS, by_hand=True)
    read = client.get(f"/api/games/{game.token()}").data
    assert b"4155550100" not in read and b"4155550199" not in read  # in any form
    game.match.roll()
    later = client.get(f"/api/games/{game.token()}?invite=1").json
    assert "message" not in later  # the invitation, with a number, only for a new game


def test_no_text_is_sent_without_a_public_address(client, api, twilio):
    client.application.config["PUBLIC_URL"] = ""
    view = game_with_phones(api, "+14155550199")
    before = len(twilio.requests)
    steps, _ = api.play_turn(view)
    nxt = client.post(f"/api/games/{view['token']}/turn", json={"seat": 0, "steps": steps},
                      headers={"Host": "evil.example"}).json
    assert len(twilio.requests) == before and nxt["message"]["status"] == "not-sent"


def test_a_number_typed_this_turn_is_not_texted_until_the_next(client, api, twilio):
    # The host setting the table on the game's first turn (only then may they type Ben's).
    view = next(v for v in (game_with_phones(api, "+14155550199", seed=n.to_bytes(8, "big"))
                            for n in range(1, 40)) if v["steps"] == 0)
    before = len(twilio.requests)
    steps, _ = api.play_turn(view)
    nxt = client.post(f"/api/games/{view['token']}/turn", json={
        "seat": 0, "steps": steps, "seats": [{}, {"phone": "+1 415 555 0123"}]}).json
    assert len(twilio.requests) == before and nxt["message"]["status"] == "not-sent"
    assert nxt["message"]["sms_href"].startswith("sms:+14155550123")


# -- Red Arse: table settings, seats, the claim window ------------------------------------------

RA_PLAYERS = [{"name": "Ana", "color": "red"}, {"name": "Ben", "color": "purple"},
              {"name": "Cleo", "color": "yellow"}]


def test_red_arse_settings_travel_in_the_link_and_come_back_in_the_view(client):
    response = client.post("/api/games", json={
        "game": "red-arse", "players": RA_PLAYERS,
        "settings": {"board": 6, "off": ["raids", "claim"]}})
    assert response.status_code == 201, response.json
    view = response.json
    assert view["game"] == "red-arse"
    assert view["settings"] == {"board": 6, "off": ["raids", "claim"]}
    assert [s["color"] for s in view["seats"]] == ["red", "yellow", "purple"]  # clockwise
    assert "a game of Red Arse in Boardpass" in view["message"]["text"]
    read = client.get(f"/api/games/{view['token']}").json
    assert read["settings"] == view["settings"]
    game = Game.from_token(view["token"], KEYS)
    assert game.rules.board.seats == 6 and not game.rules.raids and not game.rules.claims
    # The page draws the 6-player board for it.
    page = client.get(f"/g/{view['token']}")
    assert sent(page, "layout") == client.get("/api/boards/red-arse?board=6").json
    assert b"<title>Red Arse" in page.data and b'href="/rules/red-arse"' in page.data


def test_red_arse_defaults_to_the_4_player_board_with_every_house_rule(client, api):
    for settings in (None, {}, {"board": 4}, {"off": []}):
        body = {"game": "red-arse", "players": RA_PLAYERS[:1] + RA_PLAYERS[2:]}
        if settings is not None:
            body["settings"] = settings
        view = client.post("/api/games", json=body).json
        assert view["settings"] == {"board": 4, "off": []}, settings
        page = client.get(f"/g/{view['token']}")
        assert sent(page, "layout") == client.get("/api/boards/red-arse?board=4").json
    parcheesi = api.create()
    assert parcheesi["settings"] == {}


@pytest.mark.parametrize("settings, words", [
    ({"board": 5}, "4-player or the 6-player board"),
    ({"board": "6"}, "4-player or the 6-player board"),
    ({"board": True}, "4-player or the 6-player board"),
    ({"board": 6.0}, "4-player or the 6-player board"),
    ({"off": "raids"}, "lists house rules"),
    ({"off": [1]}, "lists house rules"),
    ({"off": ["nope"]}, "No house rule called 'nope'"),
    ({"board": 6, "colour": "red"}, "\"settings\" is an object"),
    ([6], "\"settings\" is an object"),
    ("board=6", "\"settings\" is an object"),
])
def test_bad_red_arse_settings_are_a_clear_400(client, settings, words):
    response = client.post("/api/games", json={"autoplay": False, "game": "red-arse", "players": RA_PLAYERS,
                                               "settings": settings})
    assert_error(response, 400)
    assert words in response.json["error"]["message"]


def test_parcheesi_takes_no_settings_and_games_are_named_by_text(client):
    response = client.post("/api/games", json={"autoplay": False, "game": "parcheesi", "players": PLAYERS,
                                               "settings": {"board": 6}})
    assert_error(response, 400)
    assert "Parcheesi has no settings" in response.json["error"]["message"]
    assert_error(client.post("/api/games", json={"autoplay": False, "game": ["red-arse"], "players": PLAYERS}), 400)


def test_red_arse_seats_use_the_board_s_colors(client):
    def create_ra(players, board):
        return client.post("/api/games", json={"autoplay": False, "game": "red-arse", "players": players,
                                               "settings": {"board": board}})
    refused = create_ra(RA_PLAYERS, 4)  # purple is on the 6-player board only
    assert_error(refused, 400)
    assert "red, blue, green, yellow." in refused.json["error"]["message"]
    six = [{"name": n, "color": c} for n, c in zip("ABCDEF", ("red", "blue", "green", "yellow",
                                                              "purple", "orange"))]
    assert create_ra(six, 6).status_code == 201
    too_many = create_ra(six[:5], 4)
    assert_error(too_many, 400)
    assert too_many.json["error"]["message"] == \
        "Red Arse takes 2 to 4 players on the 4-player board."
    assert_error(create_ra(six + [{"name": "G", "color": "red"}], 6), 400)
    same = create_ra([{"name": "A", "color": "yellow"}, {"name": "B", "color": "yellow"}], 6)
    assert_error(same, 400)
    assert same.json["error"]["message"] == "Each player needs a different color."


def test_new_game_form_makes_a_red_arse_table(client):
    form = {"game": "red-arse", "board": "6", "rules_shown": "1",
            "ra_play0": "1", "ra_name0": "Ana", "ra_color0": "red",
            "ra_play4": "1", "ra_name4": "Ben", "ra_color4": "purple",
            "play0": "1", "color0": "yellow"}  # Parcheesi's part of the form is not read
    form.update({f"rule_{key}": "1" for key in ("kill_reroll", "corner_reroll", "backward",
                                                 "back_hop", "center_six", "home_backout")})
    response = client.post("/new", data=form)
    assert response.status_code == 302, response.data
    token = response.headers["Location"].split("/g/")[1].split("?")[0]
    game = Game.from_token(token, KEYS)
    assert game.header.game == "red-arse"
    assert client.get(f"/api/games/{token}").json["settings"] == {"board": 6,
                                                                   "off": ["raids", "claim"]}
    assert [s.name for s in game.header.seats] == ["Ana", "Ben"]
    # Without the rules' boxes on the form every house rule stays on.
    plain = client.post("/new", data={"game": "red-arse", "ra_play0": "1", "ra_color0": "red",
                                      "ra_play2": "1", "ra_color2": "green"})
    token = plain.headers["Location"].split("/g/")[1].split("?")[0]
    assert client.get(f"/api/games/{token}").json["settings"] == {"board": 4, "off": []}


def test_new_game_form_explains_a_red_arse_problem_and_keeps_the_choices(client):
    response = client.post("/new", data={
        "game": "red-arse", "board": "4", "rules_shown": "1", "rule_raids": "1",
        "ra_play0": "1", "ra_color0": "red", "ra_name0": "Ana",
        "ra_play5": "1", "ra_color5": "orange"})
    assert response.status_code == 400
    flat = " ".join(response.data.decode().split())
    assert "Choose a color among red, blue, green, yellow." in flat
    assert 'name="game" value="red-arse" checked' in flat
    assert 'name="rule_raids" value="1" checked' in flat
    assert 'name="rule_claim" value="1" >' in flat  # unticked stays unticked
    assert 'value="Ana"' in flat
    assert client.post("/new", data={"game": "red-arse", "board": "8"}).status_code == 400


def test_home_offers_both_games_and_the_red_arse_rules_page_lists_the_house_rules(client):
    from app.engine.red_arse_settings import HOUSE_RULES
    home = client.get("/").data.decode()
    for needle in ('name="game" value="parcheesi"', 'name="game" value="red-arse"',
                   'name="board" value="6"', 'name="ra_play5"', 'href="/rules/red-arse"'):
        assert needle in home
    page = client.get("/rules/red-arse")
    assert page.status_code == 200
    text = page.data.decode()
    assert "How to play Red Arse" in text and "switched it off" in text
    for _, label in HOUSE_RULES:
        assert label.replace("'", "&#39;") in text
    assert client.get("/rules/red_arse").status_code == 404


def red_arse_claim_point(options=0):
    """A Red Arse link at a turn's start and the steps that take its player to a claim point
    (none claimed before it in that turn)."""
    from app.engine.core import CLAIM, ROLL
    for number in range(300):
        game = Game.new("red-arse", [link.Seat("Ana", 0), link.Seat("Ben", 2)], KEYS,
                        seed=number.to_bytes(8, "big"), options=options, by_hand=True)
        token, seat, steps = game.token(), game.match.turn, []
        while game.match.turn == seat and game.match.phase != CLAIM:
            if game.match.phase == ROLL:
                steps.append("roll")
                game.step()
            else:
                move = game.step(0)
                steps.append({"from": move.src, "to": move.dst, "values": list(move.values)})
        if game.match.phase == CLAIM:
            return token, seat, steps
    raise AssertionError("no claim point found")


def test_moves_give_a_claim_ticket_and_a_claim_in_time_becomes_a_receipt(client):
    token, seat, steps = red_arse_claim_point()
    url = f"/api/games/{token}/moves"
    at_claim = client.post(url, json={"seat": seat, "steps": steps}).json
    assert at_claim["phase"] == "claim" and not at_claim["turn_over"]
    assert at_claim["claim"]["seconds"] == 5 and at_claim["claim"]["ticket"]
    assert at_claim["turn_steps"] == steps
    assert at_claim["legal"] == [] and at_claim["pool"] == []
    claimed = client.post(url, json={"seat": seat, "steps": steps + [
        {"claim": at_claim["claim"]["ticket"]}, "roll"]}).json
    assert claimed["turn_steps"][:len(steps)] == steps
    receipt = claimed["turn_steps"][len(steps)]
    assert set(receipt) == {"claimed"} and claimed["turn_steps"][-1] == "roll"
    assert claimed["turn"] == seat and claimed["phase"] in ("move", "roll", "claim")
    assert "claim" not in claimed or claimed["phase"] == "claim"
    # The receipt stands for the claim from then on: the same position, no ticket needed.
    again = client.post(url, json={"seat": seat, "steps": claimed["turn_steps"]}).json
    assert again["position"] == claimed["position"]


def test_a_late_claim_is_a_409_and_the_page_then_lets_it_go(client, monkeypatch):
    import time
    token, seat, steps = red_arse_claim_point()
    url = f"/api/games/{token}/moves"
    ticket = client.post(url, json={"seat": seat, "steps": steps}).json["claim"]["ticket"]
    monkeypatch.setitem(client.application.config, "CLOCK", lambda: time.time() + 60)
    late = client.post(url, json={"seat": seat, "steps": steps + [{"claim": ticket}, "roll"]})
    assert_error(late, 409)
    assert late.json["error"]["code"] == "ClaimMissed"
    missed = client.post(url, json={"seat": seat, "steps": steps + ["miss"]}).json
    assert missed["turn_over"] and missed["turn"] != seat and "claim" not in missed
    assert missed["turn_steps"] == steps + ["miss"]
    done = client.post(f"/api/games/{token}/turn", json={"seat": seat, "steps": steps + ["miss"]})
    assert done.status_code == 200
    events = client.get(f"/api/games/{done.json['token']}").json["replay"]["events"]
    assert events[-1]["kind"] == "miss" and events[-1]["seat"] == seat


def test_asking_again_at_a_claim_point_never_renews_its_window(client, monkeypatch):
    """The window runs from when the claim point was first shown on the link: a reload, or the
    API asked again, gets what is left of it, never a fresh five seconds."""
    import time
    token, seat, steps = red_arse_claim_point()
    url, start = f"/api/games/{token}/moves", time.time()
    monkeypatch.setitem(client.application.config, "CLOCK", lambda: start)
    first = client.post(url, json={"seat": seat, "steps": steps}).json["claim"]
    monkeypatch.setitem(client.application.config, "CLOCK", lambda: start + 2)
    within = client.post(url, json={"seat": seat, "steps": steps}).json["claim"]
    assert within == {"ticket": first["ticket"], "seconds": 3}
    monkeypatch.setitem(client.application.config, "CLOCK", lambda: start + 9)
    after = client.post(url, json={"seat": seat, "steps": steps}).json["claim"]
    assert after == {"ticket": first["ticket"], "seconds": 0}
    late = client.post(url, json={"seat": seat, "steps": steps + [{"claim": after["ticket"]}, "roll"]})
    assert_error(late, 409)
    assert late.json["error"]["code"] == "ClaimMissed"
    assert client.post(url, json={"seat": seat, "steps": steps + ["miss"]}).status_code == 200


def test_walking_through_claim_points_renews_no_window_and_writes_no_more(client, monkeypatch):
    """A turn shows one or two claim points; a client walking through every move that earns a
    re-roll, past ``CLAIM_POINTS`` of them, meets a window as old as the first, and the store
    is written no more."""
    import time
    from app.ledger import CLAIM_POINTS
    from app.web import bookkeeping
    token, seat, steps = red_arse_claim_point()
    game, start = Game.from_token(token, KEYS), time.time()
    with client.application.test_request_context():
        standing = bookkeeping.standing_of(game, token)
        for n in range(CLAIM_POINTS):  # as many others shown already, the first a minute ago
            standing = bookkeeping.ledger().claim_shown(standing, f"another {n}", start - 60 + n)
    monkeypatch.setitem(client.application.config, "CLOCK", lambda: start)
    url = f"/api/games/{token}/moves"
    shown = client.post(url, json={"seat": seat, "steps": steps}).json["claim"]
    assert shown["seconds"] == 0
    late = client.post(url, json={"seat": seat, "steps": steps + [{"claim": shown["ticket"]}, "roll"]})
    assert_error(late, 409)
    assert late.json["error"]["code"] == "ClaimMissed"
    with client.application.test_request_context():
        assert bookkeeping.standing_of(game, token).entry == standing.entry  # nothing written


def test_claim_steps_that_are_not_claims_are_refused(client):
    token, seat, steps = red_arse_claim_point()
    url = f"/api/games/{token}/moves"
    for bad in ("roll", {"claim": "123.abc"}, {"claimed": "AAAAAAAAAAAAAAAAAAAAAA"},
                {"claim": 5}, {"claimed": None}, {"claim": "x", "claimed": "y"}):
        assert_error(client.post(url, json={"seat": seat, "steps": steps + [bad]}), 422)


def test_with_the_claim_rule_off_a_re_roll_needs_no_claim(client):
    from app.engine.red_arse_settings import options_for
    from app.engine.core import ROLL
    for number in range(300):
        game = Game.new("red-arse", [link.Seat("Ana", 0), link.Seat("Ben", 2)], KEYS,
                        seed=number.to_bytes(8, "big"), options=options_for(4, off=["claim"]), by_hand=True)
        token, seat, steps = game.token(), game.match.turn, []
        while game.match.turn == seat and not game.over:
            if game.match.phase == ROLL:
                if steps:
                    break  # rolling again without a claim
                steps.append("roll")
                game.step()
            else:
                move = game.step(0)
                steps.append({"from": move.src, "to": move.dst, "values": list(move.values)})
        if steps and game.match.turn == seat and game.match.phase == ROLL:
            view = client.post(f"/api/games/{token}/moves",
                               json={"seat": seat, "steps": steps}).json
            assert view["phase"] == "roll" and "claim" not in view and not view["turn_over"]
            return
    raise AssertionError("no re-roll found")


def test_a_red_arse_view_lists_paths_for_moves_and_the_one_die(client):
    for number in range(100):
        game = Game.new("red-arse", [link.Seat("Ana", 0), link.Seat("Ben", 2)], KEYS,
                        seed=number.to_bytes(8, "big"), options=0, by_hand=True)
        view = client.post(f"/api/games/{game.token()}/moves",
                           json={"seat": game.match.turn, "steps": ["roll"]}).json
        if view["phase"] == "move":
            break
    assert len(view["dice"]) == 1 and view["pool"] == view["dice"]
    for move in view["legal"]:
        assert move["path"][0] == move["from"] and move["path"][-1] == move["to"]


# -- Ludo: the table's board and host, players joining, the results and the rematch -------------

def ludo_game(seed, **table):
    return browser_support.ludo_game(seed, keys=KEYS, **table)


def ludo_last_turn(seed, **table):
    return browser_support.ludo_last_turn(seed, keys=KEYS, **table)


def ludo_turn_of(seat, seed, **table):
    return browser_support.ludo_turn_of(seat, seed, keys=KEYS, **table)


LU_PLAYERS = [{"name": "Ana", "color": "green"}, {"name": "Ben", "color": "red"},
              {"name": "Cleo", "color": "purple", "phone": "+1 415 555 0142"}]


@pytest.mark.parametrize("size, squares, colors", [(None, 52, 4), ("4", 52, 4), ("6", 78, 6)])
def test_ludo_board_layouts(client, size, squares, colors):
    layout = client.get("/api/boards/ludo" + (f"?board={size}" if size else "")).json
    assert layout["game"] == "ludo" and layout["board"] == colors
    assert [c["square"] for c in layout["squares"]] == list(range(1, squares + 1))
    assert len(layout["colors"]) == colors
    assert all(len(c["path"]) == squares - 2 + 6 for c in layout["colors"])
    assert layout["home_progress"] == squares + 4
    for bad in ("5", "78", "", "six"):
        assert_error(client.get(f"/api/boards/ludo?board={bad}"), 400)


def test_a_ludo_table_keeps_its_board_and_its_host(client, api):
    view = api.create("ludo", LU_PLAYERS, settings={"board": 6}, host=2)
    assert view["game"] == "ludo" and view["settings"] == {"board": 6, "capacity": 6}
    assert [s["name"] for s in view["seats"]] == ["Ben", "Ana", "Cleo"]  # red, green, purple
    assert view["seats"][view["host"]]["name"] == "Cleo"
    assert view["placed"] == [] and all(s["medals"] == [0, 0, 0] for s in view["seats"])
    assert "a game of Ludo in Boardpass" in view["message"]["text"]
    game = Game.from_token(view["token"], KEYS)
    assert game.rules.board.track == 78 and game.header.host == view["host"]
    page = client.get(f"/g/{view['token']}")
    assert sent(page, "layout") == client.get("/api/boards/ludo?board=6").json
    assert b"<title>Ludo" in page.data and b'href="/rules/ludo"' in page.data
    # By default: the 52-square board, and the first player listed is the host.
    plain = api.create("ludo", LU_PLAYERS[:2])
    assert plain["settings"] == {"board": 4, "capacity": 4}
    assert plain["seats"][plain["host"]]["name"] == "Ana"
    assert sent(client.get(f"/g/{plain['token']}"), "layout") == \
        client.get("/api/boards/ludo?board=4").json


@pytest.mark.parametrize("body, words", [
    ({"settings": {"capacity": 7}}, "A Ludo table seats 2 to 6 players."),
    ({"settings": {"board": "6"}}, "A Ludo table seats 2 to 6 players."),
    ({"settings": {"board": 6, "off": []}}, "\"settings\" is an object with \"capacity\""),
    ({"settings": {"board": 6, "capacity": 6}}, "\"settings\" is an object with \"capacity\""),
    ({"settings": [6]}, "\"settings\" is an object with \"capacity\""),
    ({"settings": {"capacity": 3}, "players": [{"color": c} for c in ("red", "blue", "green",
                                                                     "yellow")]},
     "Ludo takes 2 to 3 players on the 52-square board."),
    ({"host": 3}, "\"host\" is the number of the player"),
    ({"host": "Ana"}, "\"host\" is the number of the player"),
    ({"host": True}, "\"host\" is the number of the player"),
    ({"settings": {"board": 4}, "players": LU_PLAYERS},
     "Choose a color among red, blue, green, yellow."),
    ({"players": LU_PLAYERS[:1], "settings": {}},
     "Ludo takes 2 to 4 players on the 52-square board."),
    ({"settings": {"board": 6}, "players": [{"color": c} for c in ("red", "blue", "green",
                                                                    "yellow", "purple",
                                                                    "orange", "red")]},
     "Ludo takes 2 to 6 players on the 78-square board."),
])
def test_bad_ludo_tables_are_a_clear_400(client, body, words):
    body = {"players": LU_PLAYERS, "settings": {"board": 6}, **body}
    response = client.post("/api/games", json={"autoplay": False, "game": "ludo", **body})
    assert_error(response, 400)
    assert words in response.json["error"]["message"]


def test_only_ludo_tables_have_a_host(client):
    response = client.post("/api/games", json={"autoplay": False, "game": "parcheesi", "players": PLAYERS, "host": 1})
    assert_error(response, 400)
    assert response.json["error"]["message"] == "Parcheesi tables have no host."


def test_the_host_adds_a_player_on_their_turn_and_the_turn_in_progress_goes_on(client, api):
    game = ludo_turn_of(1, seed=7, players=2, host=1)  # Ana red and Ben blue; Ben is the host
    token, host = game.token(), game.header.host
    assert game.match.turn == host and game.match.steps
    steps = ["roll"]
    turn = client.post(f"/api/games/{token}/moves", json={"seat": host, "steps": steps}).json
    response = client.post(f"/api/games/{token}/players", json={
        "seat": host, "steps": steps,
        "player": {"name": "Cleo", "color": "green", "phone": "+1 415 555 0199"}})
    assert response.status_code == 201, response.json
    added = response.json
    assert added["token"] != token and added["url"].endswith(added["token"])
    assert [s["name"] for s in added["seats"]] == ["Ana", "Ben", "Cleo"]
    assert added["seats"][added["host"]]["name"] == "Ben"
    assert added["pieces"][2] == [-1] * 4 and added["seats"][2]["has_phone"]
    assert added["steps"] == len(game.match.steps) and added["message"] is None
    assert "+14155550199" not in added["token"]
    # The turn in progress plays on the new link to the same place, Cleo's pieces at home.
    again = client.post(f"/api/games/{added['token']}/moves",
                        json={"seat": added["host"], "steps": steps}).json
    assert again["pieces"][:2] == turn["pieces"] and again["last_roll"] == turn["last_roll"]
    # Green sits after blue: Cleo plays when Ben's turn is over.
    steps, after = api.play_turn(client.get(f"/api/games/{added['token']}").json)
    assert steps[0] == "roll" and after["turn"] == 2 and not after["seats"][2]["waiting"]


def test_adding_a_player_is_the_host_s_and_needs_a_free_seat(client):
    game = ludo_turn_of(0, seed=8, players=3)  # Ana, Ben, Cleo: red, blue, green; Ana hosts
    token = game.token()
    url = f"/api/games/{token}/players"
    dev = {"name": "Dev", "color": "yellow"}
    not_host = client.post(url, json={"seat": 1, "player": dev})
    assert_error(not_host, 403)
    assert not_host.json["error"] == {"code": "NotHost",
                                      "message": "Only the host, Ana, can add players."}
    taken = client.post(url, json={"seat": 0, "player": {"name": "Dev", "color": "blue"}})
    assert_error(taken, 409)
    assert taken.json["error"]["message"] == "Blue is taken. Free colors: yellow."
    assert_error(client.post(url, json={"seat": 0, "player": {"color": "purple"}}), 400)
    assert_error(client.post(url, json={"seat": 0, "player": "Dev"}), 400)
    assert_error(client.post(url, json={"seat": 0}), 400)
    assert_error(client.post(url, json={"seat": "0", "player": dev}), 400)
    assert_error(client.post(url, json={"seat": 5, "player": dev}), 400)
    assert_error(client.post(url, json={"seat": 0, "player": {**dev, "phone": "12"}}), 400)
    assert_error(client.post(url, json={"seat": 0, "player": dev, "steps": "roll"}), 400)
    full = client.post(url, json={"seat": 0, "player": dev})
    assert full.status_code == 201
    again = client.post(f"/api/games/{full.json['token']}/players",
                        json={"seat": 0, "player": {"name": "Eve", "color": "yellow"}})
    assert_error(again, 409)
    assert again.json["error"] == {"code": "TableFull",
                                   "message": "Every seat at this table is taken."}
    # Not on someone else's turn: the host adds players on their own.
    other = ludo_turn_of(1, seed=9, players=3)  # another game: seed 8's has four seats now
    response = client.post(f"/api/games/{other.token()}/players", json={"seat": 0, "player": dev})
    assert_error(response, 409)
    assert response.json["error"]["message"] == \
        "Players join on the host's turn: it is Ben's turn now."


def test_before_the_first_roll_the_host_adds_players_and_gets_a_new_invite(client, api):
    view = api.create("ludo", LU_PLAYERS[:2])
    host = view["host"]
    response = client.post(f"/api/games/{view['token']}/players",
                           json={"seat": host, "player": {"name": "", "color": "blue"}})
    assert response.status_code == 201, response.json
    added = response.json
    assert [s["color"] for s in added["seats"]] == ["red", "blue", "green"]
    assert added["seats"][1]["name"] == "Player 3"  # the third player
    assert added["seats"][added["host"]]["name"] == "Ana"
    assert added["message"]["to"] == added["seats"][added["turn"]]["name"]
    assert added["url"] in added["message"]["text"] and "invited" in added["message"]["text"]


def test_a_turn_in_progress_that_would_change_is_refused(client):
    # Before the first roll the new player rolls for first place too: a roll already made
    # would not be the same roll any more.
    for number in range(50):
        game = ludo_game(number, players=2)
        host = game.header.host
        if game.match.turn != host:
            continue
        joined = game.with_player(link.Seat("Cleo", 2))
        if joined.match.turn == joined.header.host:
            continue
        response = client.post(f"/api/games/{game.token()}/players", json={
            "seat": host, "steps": ["roll"], "player": {"name": "Cleo", "color": "green"}})
        assert_error(response, 409)
        assert "The turn in progress can't go on" in response.json["error"]["message"]
        return
    raise AssertionError("no table found")


def test_only_ludo_tables_take_players_and_finished_games_none(client, api):
    view = api.create()
    response = client.post(f"/api/games/{view['token']}/players",
                           json={"seat": 0, "player": {"name": "Cy", "color": "blue"}})
    assert_error(response, 422)
    assert "Ludo only" in response.json["error"]["message"]
    game, seat, steps = ludo_last_turn(11)
    game.play_turn(seat, steps)
    over = client.post(f"/api/games/{game.token()}/players",
                       json={"seat": 0, "player": {"name": "Dev", "color": "yellow"}})
    assert_error(over, 422)
    assert over.json["error"]["message"] == "This game is over: start a rematch instead."


def test_the_last_turn_shows_placings_and_medals_and_offers_the_host_the_final_link(client):
    game, seat, steps = next(  # a last turn played by someone other than the host, Dev
        (game, seat, steps) for game, seat, steps in (
            ludo_last_turn(number, players=4, host=3) for number in range(12, 80)) if seat != 3)
    seats = list(game.header.seats)  # the host's number, from before (only they may change it)
    seats[3] = replace(seats[3], phone="+14155550177")
    token = Game(replace(game.header, seats=tuple(seats)), game.match, KEYS).token()
    response = client.post(f"/api/games/{token}/turn", json={"seat": seat, "steps": steps})
    assert response.status_code == 200, response.json
    final = response.json
    assert final["phase"] == "over" and sorted(final["placed"]) == [0, 1, 2, 3]
    assert final["winner"] == final["placed"][0]
    won = {final["placed"][i]: medal for i, medal in enumerate(
        ([1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]))}
    assert [s["won"] for s in final["seats"]] == [won[i] for i in range(4)]
    message = final["message"]
    assert message["status"] == "game-over" and message["to"] == "Dev"
    # The host's link: the final one with its key, where the rematch is theirs alone.
    assert message["url"].startswith(final["url"] + "?host=") and len(message["url"]) > \
        len(final["url"]) + 6
    assert message["text"].endswith(message["url"])
    assert message["sms_href"].startswith("sms:+14155550177?&body=")
    from app.wording import gsm7_length
    assert gsm7_length(message["text"]) is not None
    # Reading the final link gives the same results; an unfinished game awards nothing.
    read = client.get(f"/api/games/{final['token']}").json
    assert read["placed"] == final["placed"] and read["seats"][0]["won"] == won[0]
    assert all(s["won"] == [0, 0, 0] for s in client.get(f"/api/games/{token}").json["seats"])


def test_a_two_player_game_awards_gold_only(client):
    game, seat, steps = ludo_last_turn(13, players=2)
    game.play_turn(seat, steps)
    view = client.get(f"/api/games/{game.token()}").json
    assert sorted(map(tuple, (s["won"] for s in view["seats"]))) == [(0, 0, 0), (1, 0, 0)]
    assert view["seats"][view["winner"]]["won"] == [1, 0, 0]


def test_the_host_starts_a_rematch_with_the_medals_added(client, api):
    game, seat, steps = ludo_last_turn(14, players=3, host=1)
    game.play_turn(seat, steps)
    token = game.token()
    url = f"/api/games/{token}/rematch"
    refused = client.post(url, json={"seat": 0})
    assert_error(refused, 403)
    assert refused.json["error"]["message"] == "Only the host, Ben, can start a rematch."
    assert_error(client.post(url, json={}), 400)
    assert_error(client.post(url, json={"seat": 9}), 400)
    # The host's seat alone is not enough: the host's link (its key) or the phone that made it.
    assert_error(client.post(url, json={"seat": 1}), 403)
    assert_error(client.post(url, json={"seat": 1, "host_key": "forged"}), 403)
    response = client.post(url, json={"seat": 1, "host_key": host_key(token, KEYS)})
    assert response.status_code == 201, response.json
    again = response.json
    assert again["steps"] == 0 and again["phase"] == "roll"
    assert again["seed"] != game.header.seed.hex()
    assert [s["name"] for s in again["seats"]] == ["Ana", "Ben", "Cleo"] and again["host"] == 1
    placed = game.state.placed
    assert again["seats"][placed[0]]["medals"] == [1, 0, 0]
    assert again["seats"][placed[1]]["medals"] == [0, 1, 0]
    assert again["seats"][placed[2]]["medals"] == [0, 0, 0]  # the last place: none
    assert again["message"]["to"] == again["seats"][again["turn"]]["name"]
    assert again["url"] in again["message"]["text"]
    # No rematch before the end, nor for the other games.
    early = client.post(f"/api/games/{again['token']}/rematch", json={"seat": 1})
    assert_error(early, 422)
    assert early.json["error"]["message"] == "The game isn't over yet."
    assert_error(client.post(f"/api/games/{api.create()['token']}/rematch", json={"seat": 0}),
                 422)


def test_new_game_form_makes_a_ludo_table_with_its_host(client):
    form = {"game": "ludo", "lu_capacity": "6", "lu_host": "4",
            "lu_play0": "1", "lu_name0": "Ana", "lu_color0": "red",
            "lu_play4": "1", "lu_name4": "Ben", "lu_color4": "purple",
            "play0": "1", "color0": "yellow"}  # Parcheesi's part of the form is not read
    response = client.post("/new", data=form)
    assert response.status_code == 302, response.data
    token = response.headers["Location"].split("/g/")[1].split("?")[0]
    view = client.get(f"/api/games/{token}").json
    assert view["game"] == "ludo" and view["settings"] == {"board": 6, "capacity": 6}
    assert view["seats"][view["host"]]["name"] == "Ben"
    refused = client.post("/new", data={**form, "lu_capacity": "4"})
    assert refused.status_code == 400
    assert "Choose a color among red, blue, green, yellow." in refused.data.decode()
    assert client.post("/new", data={**form, "lu_capacity": "7"}).status_code == 400
    three = client.post("/new", data={**form, "lu_capacity": "3", "lu_color4": "blue"})
    token = three.headers["Location"].split("/g/")[1].split("?")[0]
    assert client.get(f"/api/games/{token}").json["settings"] == {"board": 4, "capacity": 3}


def test_home_offers_ludo_and_its_rules_page(client):
    home = client.get("/").data.decode()
    for needle in ('name="game" value="ludo"', 'name="lu_capacity" value="6"', 'name="lu_play5"',
                   'name="lu_host"', 'href="/rules/ludo"'):
        assert needle in home
    page = client.get("/rules/ludo")
    assert page.status_code == 200 and b"How to play Ludo" in page.data
    assert b"never wins a medal" in page.data


def test_a_ludo_table_for_three_takes_one_more_player_and_no_more(client):
    made = client.post("/api/games", json={"autoplay": False, "game": "ludo", "settings": {"capacity": 3},
                                           "players": LU_PLAYERS[:2]}).json
    assert made["settings"] == {"board": 4, "capacity": 3}
    host = made["host"]
    added = client.post(f"/api/games/{made['token']}/players",
                        json={"seat": host, "player": {"name": "Dev", "color": "yellow"}})
    assert added.status_code == 201, added.json
    full = client.post(f"/api/games/{added.json['token']}/players",
                       json={"seat": added.json["host"], "player": {"name": "Eve",
                                                                    "color": "blue"}})
    assert_error(full, 409)
    assert full.json["error"]["message"] == "Every seat at this table is taken."


def test_a_rematch_may_change_the_table_size_and_the_medals_carry_over(client):
    game, seat, steps = ludo_last_turn(14, players=3, host=1)
    game.play_turn(seat, steps)
    url = f"/api/games/{game.token()}/rematch"
    assert_error(client.post(url, json={"seat": 1, "capacity": 2}), 422)  # three players
    assert_error(client.post(url, json={"seat": 1, "capacity": 9}), 400)
    bigger = client.post(url, json={"seat": 1, "capacity": 6,
                                    "host_key": host_key(game.token(), KEYS)})
    assert bigger.status_code == 201, bigger.json
    again = bigger.json
    assert again["settings"] == {"board": 6, "capacity": 6}
    assert sorted(sum(s["medals"]) for s in again["seats"]) == [0, 1, 1]


def first_roll_without_a_move(game: str, lang: str = "en") -> Game:
    """A new 2-player game (on the first seed there is) whose first roll leaves no move."""
    from app.play import demo_seats

    for number in range(100):
        played = Game.new(game, demo_seats(game, 2), KEYS, seed=number.to_bytes(8, "big"), by_hand=True)
        played = Game(replace(played.header, lang=lang), played.match, KEYS)
        ahead = Game.from_token(played.token(), KEYS)
        ahead.step()
        if ahead.match.phase != "move":
            return played
    raise AssertionError("no such seed")


@pytest.mark.parametrize("game, lang, words", [
    ("parcheesi", "en", "No move: a pawn comes out on a 5 (one die, or the two added up)."),
    ("ludo", "es", "Sin jugada: una ficha sale con un 6."),
    ("red-arse", "en", "No move: a marble comes out on a 1 or a 6."),
])
def test_a_roll_that_leaves_no_move_says_why(client, game, lang, words):
    played = first_roll_without_a_move(game, lang)
    seat = played.match.turn
    view = client.post(f"/api/games/{played.token()}/moves",
                       json={"seat": seat, "steps": ["roll"]}).json
    assert view["no_move"] == {"seat": seat, "why": words}
    assert client.get(f"/api/games/{played.token()}").json["no_move"] is None  # not rolled yet


def test_a_roll_that_leaves_pieces_in_play_stuck_names_the_dice():
    from workbench.games import play_random
    from app.web.views import no_move

    played = play_random("parcheesi", 2, "no-move", 0, KEYS)
    history = played.match.history
    for end in range(1, len(history)):
        kind, seat, dice = history[end - 1]
        if kind == "roll" and history[end][0] != "move":
            game = Game.from_token(link.encode(played.header, played.match.steps[:end], KEYS),
                                   KEYS)
            if any(p != -1 for p in game.state.pos[seat]):
                break
    said = no_move(game, "en")
    assert said["seat"] == seat
    assert said["why"] == (f"No move with {dice[0]} + {dice[1]}: every piece in play is "
                           "blocked or needs an exact count.")


def test_a_game_page_carries_the_game_as_the_api_reads_it_and_the_board_it_is_drawn_on(client, api):
    """The first paint is the turn: the page carries what GET /api/games/<link> answers and
    the board's layout, so its script asks for neither before drawing."""
    game = api.create()
    page = client.get(f"/g/{game['token']}")
    assert sent(page, "view") == client.get(f"/api/games/{game['token']}").json
    assert sent(page, "layout") == client.get("/api/boards/parcheesi").json


def status_line(page) -> str:
    """The page's status line as the server drew it."""
    found = re.search(r'<p id="status"[^>]*>(.*?)</p>', page.get_data(as_text=True), re.S)
    return html.unescape(found.group(1))


@pytest.mark.parametrize("game, words", [("parcheesi", "roll the dice"),
                                         ("red-arse", "roll the die"), ("ludo", "roll the die")])
def test_a_game_page_opens_on_the_turn_s_status_line(client, api, game, words):
    """The first paint is the turn: the status line a turn that starts with a roll gets from
    the script (table.js yourTurn) is in the page as sent, in the table's language; a game
    just made (``?new``) is first sent on, so its page says it is loading."""
    made = api.create(game)
    mover = made["seats"][made["turn"]]["name"]
    assert status_line(client.get(f"/g/{made['token']}")) == f"{mover}, your turn: {words}."
    assert status_line(client.get(f"/g/{made['token']}?new=1")) == "Loading the game…"
    spanish = api.create(game, lang="es")
    said = status_line(client.get(f"/g/{spanish['token']}"))
    mover = spanish["seats"][spanish["turn"]]["name"]
    assert said == f"{mover}, te toca: tirá {'los dados' if game == 'parcheesi' else 'el dado'}."


def test_an_older_link_s_page_leaves_the_status_line_to_the_script(client, api):
    """A link whose turn has been sent on is read-only: the script says so (it knows how far
    the game has got); the page as sent says it is loading rather than "roll"."""
    made = api.create("ludo")
    steps, _ = api.play_turn(made)
    sent_on = client.post(f"/api/games/{made['token']}/turn",
                          json={"seat": made["turn"], "steps": steps})
    assert sent_on.status_code == 200, sent_on.json
    assert client.get(f"/api/games/{made['token']}").json["moved_on"]
    assert status_line(client.get(f"/g/{made['token']}")) == "Loading the game…"


@pytest.mark.parametrize("on_lambda", [False, True])
def test_a_server_s_worker_compiles_its_templates_before_its_first_request(
        monkeypatch, tmp_path, on_lambda):
    """app.web.wsgi under Gunicorn compiles every template when it makes the app: a new
    worker's first game page isn't held up compiling them. On Lambda it doesn't: most
    requests there are JSON, which need none (a test's app compiles them when first used)."""
    import importlib
    import sys

    monkeypatch.setenv("SIGNING_KEYS", "wsgi-test-signing")
    monkeypatch.setenv("DICE_KEY", "wsgi-test-dice")
    monkeypatch.setenv("STORE_URL", f"sqlite:///{tmp_path}/store.db")
    if on_lambda:
        monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "boardpass-test")
    else:
        monkeypatch.delenv("AWS_LAMBDA_FUNCTION_NAME", raising=False)
    monkeypatch.delitem(sys.modules, "app.web.wsgi", raising=False)
    made = importlib.import_module("app.web.wsgi").app
    compiled = {name for _, name in made.jinja_env.cache.keys()}
    pages = {"base.html", "game.html", "gamereview.html", "room.html", "home.html"}
    assert (pages <= compiled) is not on_lambda, compiled


def test_a_link_that_replays_the_others_turns_opens_saying_so(client, api):
    """The next player's link replays the turn just sent before its own begins: the page as
    sent says so, in the page's language (``?lang=`` switches it), and the script narrates the
    replay, then says "roll"."""
    made = api.create("ludo", lang="es")
    steps, _ = api.play_turn(made)
    sent_on = client.post(f"/api/games/{made['token']}/turn",
                          json={"seat": made["turn"], "steps": steps}).json
    mover = sent_on["seats"][sent_on["turn"]]["name"]
    assert status_line(client.get(f"/g/{sent_on['token']}")) == \
        f"{mover}, te toca después de la repetición."
    assert status_line(client.get(f"/g/{sent_on['token']}?lang=en")) == \
        f"{mover}, your turn, after the replay."


def test_the_opening_line_is_the_one_the_script_says(client):
    """The server's "your turn" line (the rule sets' words) is the one static/js/table.js says
    for each game: the page's first paint and its script agree."""
    from app.engine.games import RULE_SETS

    table = (ROOT / "static/js/table.js").read_text(encoding="utf-8")
    block = table[table.index("yourTurn: {"):table.index("},", table.index("yourTurn: {"))]
    said = dict(re.findall(r'"?([\w-]+)"?: \(who\) => _\("([^"]+)"', block))
    assert said == {name: rules.words.your_turn for name, rules in RULE_SETS.items()}