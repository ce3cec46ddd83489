"""WhatsApp as a way to send the turn, through the web: a player's "by WhatsApp" choice (the
New game form, the API, the Players list; it travels in the link with their number), the
click-to-chat address the page offers, and turns sent through Twilio's WhatsApp sender (the fake
Twilio of tests/fake_twilio.py), failures included, as texts are."""

from __future__ import annotations

import json
from dataclasses import replace
from urllib.parse import parse_qs, urlsplit

import pytest

from app import link
from app.keys import Keys
from app.play import Game
from api_support import whole_turn

KEYS = Keys.for_tests("whatsapp")
WA_FROM = "whatsapp:+14155238886"
ANA, BEN = "+14155550100", "+5491123456789"  # a US mobile, an Argentine one


@pytest.fixture
def keys():
    """The keys this module's links are made with: its app's too."""
    return KEYS


@pytest.fixture
def whatsapp(twilio, monkeypatch):
    """The fake Twilio account with a WhatsApp sender, set up for the app."""
    twilio.whatsapp_senders.add(WA_FROM)
    monkeypatch.setenv("TWILIO_WHATSAPP_FROM", WA_FROM)
    return twilio


def game_with(client, ben_whatsapp=True, lang="en", seed=bytes(8)) -> dict:
    """Ana (yellow) to move, Ben (red) next, both with numbers; Ben chose WhatsApp."""
    game = Game.new("parcheesi", [link.Seat("Ana", 0, phone=ANA),
                                  link.Seat("Ben", 2, phone=BEN, whatsapp=ben_whatsapp)],
                    KEYS, seed=seed, by_hand=True)
    game = Game(replace(game.header, lang=lang), game.match, KEYS)
    view = client.get(f"/api/games/{game.token()}").json
    while view["turn"] != 0:
        view = client.post(f"/api/games/{view['token']}/turn",
                           json={"seat": view["turn"], "steps": whole_turn(client, view)}).json
    return view


def send_turn(client, view, **extra) -> dict:
    response = client.post(f"/api/games/{view['token']}/turn",
                           json={"seat": view["turn"], "steps": whole_turn(client, view), **extra})
    assert response.status_code == 200, response.json
    return response.json


# -- the choice --------------------------------------------------------------------------------

def test_a_new_player_s_whatsapp_choice_goes_in_the_link_with_their_number(client):
    made = client.post("/api/games", json={"game": "ludo", "lang": "es", "players": [
        {"name": "Ana", "color": "red", "phone": "11 2345-6789", "whatsapp": True},
        {"name": "Ben", "color": "green", "phone": "+14155550199"}]})
    assert made.status_code == 201, made.json
    seats = Game.from_token(made.json["token"], KEYS).header.seats
    assert [(s.phone, s.whatsapp) for s in seats] == [("+5491123456789", True),
                                                      ("+14155550199", False)]
    assert [s["whatsapp"] for s in made.json["seats"]] == [True, False]
    unverified, _ = link.read_unverified(made.json["token"])
    assert not any(s.whatsapp for s in unverified.seats)  # closed like the number


@pytest.mark.parametrize("player", [
    {"name": "Ana", "color": "red", "whatsapp": True},              # no number to message
    {"name": "Ana", "color": "red", "phone": ANA, "whatsapp": "yes"},
    {"name": "Ana", "color": "red", "phone": ANA, "whatsapp": 1},
    {"name": "Ana", "color": "red", "bot": "easy", "whatsapp": True},
])
def test_a_whatsapp_choice_that_makes_no_sense_is_a_clear_400(client, player):
    response = client.post("/api/games", json={"game": "ludo", "players": [
        player, {"name": "Ben", "color": "green"}]})
    assert response.status_code == 400
    assert response.json["error"]["message"]


def test_the_new_game_form_takes_the_choice_with_a_number_only(client):
    response = client.post("/new", data={
        "game": "ludo", "lu_lang": "es", "lu_capacity": "4", "lu_host": "0",
        "lu_play0": "1", "lu_color0": "red", "lu_name0": "Ana", "lu_phone0": "11 2345-6789",
        "lu_whatsapp0": "1",
        "lu_play2": "1", "lu_color2": "green", "lu_name2": "Ben", "lu_whatsapp2": "1"})
    assert response.status_code == 302, response.data
    token = response.headers["Location"].split("/g/")[1].split("?")[0]
    seats = Game.from_token(token, KEYS).header.seats
    assert [(s.name, s.whatsapp) for s in seats] == [("Ana", True), ("Ben", False)]


def test_the_form_proposes_whatsapp_at_spanish_tables(client):
    page = client.get("/", headers={"Accept-Language": "es-AR"}).data.decode()
    assert 'name="lu_whatsapp0" value="1"\n        checked' in page  # Ludo: a Spanish table
    english = client.get("/?lang=en").data.decode()
    assert 'name="lu_whatsapp0" value="1"\n        >' in english


def test_the_mover_changes_their_own_choice_with_the_turn(client):
    view = game_with(client, ben_whatsapp=False)
    seats = [{"name": "Ana", "whatsapp": True}, {"name": "Ben"}]
    nxt = send_turn(client, view, seats=seats)
    assert [s.whatsapp for s in Game.from_token(nxt["token"], KEYS).header.seats] == \
        [True, False]
    assert nxt["seats"][0]["whatsapp"] is True
    # Not someone else's (the host's first turn aside).
    later = client.post(f"/api/games/{nxt['token']}/turn", json={
        "seat": nxt["turn"], "steps": whole_turn(client, nxt),
        "seats": [{"name": "Ana", "whatsapp": False}, {"name": "Ben"}]})
    assert later.status_code == 403
    bad = client.post(f"/api/games/{nxt['token']}/turn", json={
        "seat": nxt["turn"], "steps": whole_turn(client, nxt),
        "seats": [{"name": "Ana"}, {"name": "Ben", "whatsapp": "on"}]})
    assert bad.status_code == 400


def test_dropping_the_number_drops_the_choice(client):
    view = game_with(client, ben_whatsapp=False)
    nxt = send_turn(client, view, seats=[{"name": "Ana", "phone": None, "whatsapp": True},
                                         {"name": "Ben"}])
    seat = Game.from_token(nxt["token"], KEYS).header.seats[0]
    assert (seat.phone, seat.whatsapp) == (None, False)


def test_the_players_list_shows_and_keeps_the_choice(client):
    view = game_with(client)
    page = client.get(f"/g/{view['token']}").data.decode()
    assert "(gets WhatsApp messages)" in page and "(gets texts)" in page
    assert '<input type="checkbox" name="whatsapp" checked>' in page


# -- the address the page offers ---------------------------------------------------------------

@pytest.mark.parametrize("lang, words", [
    ("en", "Ana moved. Your turn in Boardpass, Ben: "),
    ("es", "Ana hizo su jugada. Te toca en Boardpass, Ben: ")])
def test_the_message_offers_whatsapp_to_the_player_s_number(client, lang, words):
    view = game_with(client, lang=lang)
    message = send_turn(client, view)["message"]
    assert message["status"] == "not-configured" and message["whatsapp"] is True
    parts = urlsplit(message["whatsapp_href"])
    assert (parts.netloc, parts.path) == ("wa.me", "/" + BEN.removeprefix("+"))
    text = parse_qs(parts.query)["text"][0]
    assert text == message["text"] and text.startswith(words)
    assert "%20" in parts.query and "+" not in parts.query  # spaces encoded, never "+"
    assert message["sms_href"].startswith(f"sms:{BEN}?&body=")


def test_a_player_without_a_number_gets_an_address_that_asks_whom(client):
    made = client.post("/api/games", json={"game": "parcheesi", "players": [
        {"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]}).json
    message = made["message"]
    assert message["whatsapp_href"].startswith("https://wa.me/?text=")
    assert message["whatsapp"] is False


# -- sending through Twilio --------------------------------------------------------------------

def test_a_turn_goes_by_whatsapp_to_a_player_who_chose_it(client, whatsapp):
    view = game_with(client, lang="es")
    before = len(whatsapp.requests)
    steps = whole_turn(client, view)
    nxt = client.post(f"/api/games/{view['token']}/turn",
                      json={"seat": view["turn"], "steps": steps}).json
    assert nxt["message"]["status"] == "sent" and nxt["message"]["channel"] == "whatsapp"
    (sent,) = whatsapp.requests[before:]
    assert sent.field("To") == f"whatsapp:{BEN}" and sent.field("From") == WA_FROM
    assert sent.field("Body") == nxt["message"]["text"] and nxt["url"] in sent.field("Body")
    assert sent.basic_auth == (whatsapp.account_sid, whatsapp.auth_token)
    # The same turn sent again (here from a browser the server doesn't know: the test client
    # keeps no secure cookie) is refused, and messages nobody again.
    again = client.post(f"/api/games/{view['token']}/turn",
                        json={"seat": view["turn"], "steps": steps})
    assert again.status_code == 409 and len(whatsapp.requests) == before + 1


def test_a_player_who_did_not_choose_it_is_texted(client, whatsapp):
    view = game_with(client, ben_whatsapp=False)
    before = len(whatsapp.requests)
    nxt = send_turn(client, view)
    assert nxt["message"]["channel"] == "sms"
    (sent,) = whatsapp.requests[before:]
    assert sent.field("To") == BEN and sent.field("From") == "+15005550006"


def test_without_a_whatsapp_sender_the_choice_is_texted(client, twilio):
    view = game_with(client)
    before = len(twilio.requests)
    nxt = send_turn(client, view)
    assert nxt["message"]["status"] == "sent" and nxt["message"]["channel"] == "sms"
    assert [r.field("To") for r in twilio.requests[before:]] == [BEN]


def test_a_template_carries_the_turn_at_a_table_of_its_language(client, whatsapp, monkeypatch):
    monkeypatch.setenv("TWILIO_WHATSAPP_TEMPLATES", "es:HX" + "e" * 32)
    view = game_with(client, lang="es")
    before = len(whatsapp.requests)
    nxt = send_turn(client, view)
    (sent,) = whatsapp.requests[before:]
    assert sent.field("ContentSid") == "HX" + "e" * 32 and "Body" not in sent.form
    assert json.loads(sent.field("ContentVariables")) == {"1": nxt["message"]["text"]}


@pytest.mark.parametrize("code, message, error", [
    (63003, "Channel could not find To address",
     f"The number {BEN} could not receive the WhatsApp message: Channel could not find To "
     "address. Send the link yourself."),
    (63007, "Twilio could not find a Channel with the specified From address",
     "WhatsApp messages are not working right now. Send the link yourself."),
])
def test_a_whatsapp_message_twilio_refuses_leaves_the_link_to_send_by_hand(
        client, whatsapp, code, message, error):
    whatsapp.reject(f"whatsapp:{BEN}", code=code, message=message)
    view = game_with(client)
    nxt = send_turn(client, view)
    assert Game.from_token(nxt["token"], KEYS).match.turn == 1  # the game goes on
    assert nxt["message"]["status"] == "failed" and nxt["message"]["channel"] is None
    assert nxt["message"]["error"] == error
    assert nxt["message"]["whatsapp_href"].startswith("https://wa.me/5491123456789?text=")


def test_a_whatsapp_failure_is_explained_in_the_table_s_language(client, whatsapp):
    whatsapp.fail_on_arrival(f"whatsapp:{BEN}", 63016, "Outside the allowed window.")
    nxt = send_turn(client, game_with(client, lang="es"))
    assert nxt["message"]["status"] == "failed"
    assert nxt["message"]["error"] == (f"Al número {BEN} no le pudo llegar el mensaje de "
                                       "WhatsApp: Outside the allowed window. Mandá el link "
                                       "vos.")


def test_whatsapp_messages_count_against_the_texts_limits(client, whatsapp):
    client.application.config["TEXTS_PER_NUMBER_HOUR"] = 1
    view = game_with(client)
    first = send_turn(client, view)
    assert first["message"]["status"] == "sent"
    back = send_turn(client, first)  # Ben's turn: Ana is texted
    third = send_turn(client, back)
    assert third["message"]["status"] == "limited"
    assert [r.field("To") for r in whatsapp.requests].count(f"whatsapp:{BEN}") == 1


def test_an_absent_player_who_chose_whatsapp_hears_of_it_by_whatsapp(client, whatsapp):
    game = Game.new("parcheesi", [link.Seat("Ana", 0, phone=ANA),
                                  link.Seat("Ben", 2, phone=BEN, whatsapp=True)], KEYS,
                    seed=bytes(8), by_hand=True)
    game = Game(replace(game.header, deadline=60), game.match, KEYS).stamped(0)
    clock = {"now": 1_000_000.0}
    client.application.config["CLOCK"] = lambda: clock["now"]
    view = client.get(f"/api/games/{game.token()}").json
    while view["turn"] != 1:
        view = send_turn(client, view)
    client.get(f"/api/games/{view['token']}")  # the link reaches Ben: his time starts
    clock["now"] += 2 * 3600
    before = len(whatsapp.requests)
    played = client.post(f"/api/games/{view['token']}/absent", json={}).json
    assert played["absent"]["texted"] == "sent"
    to_ben = [r for r in whatsapp.requests[before:] if r.field("To") == f"whatsapp:{BEN}"]
    assert len(to_ben) == 1 and "played for you" in to_ben[0].field("Body")


@pytest.mark.parametrize("game, lang, words", [
    ("parcheesi", "en", "Join my Parcheesi room on Boardpass: "),
    ("ludo", "es", "Sumate a mi sala de Ludo en Boardpass: "),
])
def test_a_room_page_invites_by_whatsapp_first_at_spanish_tables(client, game, lang, words):
    import re

    players = [{"name": "Ana", "color": "red"}, {"name": "", "color": "blue"}]
    made = client.post("/api/rooms", json={"game": game, "players": players, "lang": lang})
    assert made.status_code == 201, made.json
    code = made.json["room"]["code"]
    page = client.get(f"/r/{code}").get_data(as_text=True)
    href = re.search(r'id="whatsapp"[^>]*href="([^"]+)"', page).group(1)
    address = urlsplit(href.replace("&amp;", "&"))
    assert (address.netloc, address.path) == ("wa.me", "/")  # WhatsApp asks whom to send it to
    text = parse_qs(address.query)["text"][0]
    assert text.startswith(words) and text.endswith(f"/r/{code}")
    share = page.index('id="copy"')
    assert (page.index('id="whatsapp"') < share) == (lang == "es")
