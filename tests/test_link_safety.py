"""What the store makes safe, tried as an attacker would, on both backends (SQLite, and DynamoDB
on the dynalite server tests/dynalite.py starts): a replayed request texts once, an older link
can't fork the game, a withheld link starts nobody's clock, "I'm back" is never lost, and a
store that is down stops play with a 503 but not reading."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from app import link
from app.keys import Keys
from app.play import Game
from app.web import create_app
from api_support import host_key, whole_turn

KEYS = Keys.for_tests("safety")
T0 = 1_800_000_000.0
ANA, BEN = "+14155550100", "+14155550199"


@pytest.fixture(params=["sqlite", "dynamodb"])
def app(request, tmp_path, monkeypatch):
    """The app on one backend or the other, with a public address (so it texts) and a clock."""
    for name in ("TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM",
                 "TWILIO_MESSAGING_SERVICE_SID"):
        monkeypatch.delenv(name, raising=False)
    url = f"sqlite:///{tmp_path}/store.db" if request.param == "sqlite" else \
        request.getfixturevalue("dynamodb_url")
    made = create_app({"KEYS": KEYS, "TESTING": True, "PUBLIC_URL": "https://play.test",
                       "STORE_URL": url})
    made.config["CLOCK"] = lambda: T0
    return made


def phone(app, device: str | None = None):
    """A person's browser: its own cookies, and a device cookie as the pages give one."""
    browser = app.test_client()
    if device:
        browser.set_cookie("device", device)
    return browser


def at(app, moment: float) -> None:
    app.config["CLOCK"] = lambda: moment


def new_game(browser, deadline_hours: int = 0, phones=(ANA, BEN)) -> dict:
    players = [{"name": "Ana", "color": "yellow", "phone": phones[0]},
               {"name": "Ben", "color": "red", "phone": phones[1]}]
    response = browser.post("/api/games", json={"game": "parcheesi", "players": players,
                                                "deadline_hours": deadline_hours,
                                                "autoplay": False})
    assert response.status_code == 201, response.json
    return response.json


# -- 1. a text goes out at most once per game step and recipient --------------------------------

def test_a_finished_turn_sent_again_and_again_texts_once(app, twilio):
    ana = phone(app, "ana-phone")
    view = new_game(ana)
    request = {"seat": view["turn"], "steps": whole_turn(ana, view)}
    first = ana.post(f"/api/games/{view['token']}/turn", json=request)
    assert first.status_code == 200 and first.json["message"]["status"] == "sent"
    for _ in range(20):  # a double tap, a retry: the same answer, sent once
        again = ana.post(f"/api/games/{view['token']}/turn", json=request)
        assert again.status_code == 200
        assert again.json["token"] == first.json["token"]  # the same next link
        assert again.json["message"]["status"] == "sent"  # as it was: sent once, not again
    for attacker in (phone(app), phone(app, "mallory")):  # the replay loop, from elsewhere
        for _ in range(20):
            again = attacker.post(f"/api/games/{view['token']}/turn", json=request)
            assert again.status_code == 409 and again.json["error"]["code"] == "MovedOn"
            assert first.json["token"] not in again.data.decode()  # never the next player's link
    assert len(twilio.requests) == 1


@pytest.mark.parametrize("same_phone", [True, False])
def test_eight_finishing_the_same_turn_at_once_make_one_step_and_one_text(app, twilio,
                                                                          same_phone):
    ana = phone(app, "ana-phone")
    view = new_game(ana)
    request = {"seat": view["turn"], "steps": whole_turn(ana, view)}
    start, answers = threading.Barrier(8), []

    def finish(n):
        browser = phone(app, "ana-phone" if same_phone else f"phone-{n}")
        start.wait()
        answers.append(browser.post(f"/api/games/{view['token']}/turn", json=request))

    threads = [threading.Thread(target=finish, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(a.status_code for a in answers)
    # Taps on one phone all get the one answer; of eight phones, one moves the game on.
    assert statuses == ([200] * 8 if same_phone else [200] + [409] * 7)
    assert len({a.json["token"] for a in answers if a.status_code == 200}) == 1
    assert len(twilio.requests) == 1


def test_a_turn_played_for_an_absent_player_texts_each_of_them_once(app, twilio):
    ana, ben = phone(app, "ana-phone"), phone(app, "ben-phone")
    view = new_game(ana, deadline_hours=1)
    ben_turn = ana.post(f"/api/games/{view['token']}/turn",
                        json={"seat": view["turn"], "steps": whole_turn(ana, view)}).json
    assert len(twilio.requests) == 1  # the text starts the next player's hour
    at(app, T0 + 3601)
    answers = [ana.post(f"/api/games/{ben_turn['token']}/absent", json={}) for _ in range(5)]
    assert all(a.status_code == 200 for a in answers)
    assert len({a.json["token"] for a in answers}) == 1
    assert len(twilio.requests) == 3  # the next player's text and the absent player's, once
    assert ben.get(f"/api/games/{ben_turn['token']}").json["moved_on"]


def test_texts_to_one_number_are_capped_each_hour(app, twilio):
    app.config["TEXTS_PER_NUMBER_HOUR"] = 2
    ana = phone(app, "ana-phone")
    statuses = []
    for _ in range(3):  # three games, each texting the same number once
        view = new_game(ana, phones=(BEN, BEN))
        turn = ana.post(f"/api/games/{view['token']}/turn",
                        json={"seat": view["turn"], "steps": whole_turn(ana, view)}).json
        statuses.append(turn["message"]["status"])
    assert statuses == ["sent", "sent", "limited"] and len(twilio.requests) == 2
    assert turn["message"]["sms_href"].startswith("sms:+1415555")  # sent by hand instead
    assert "Send the link yourself" in turn["message"]["error"]
    at(app, T0 + 3600)  # the next hour
    view = new_game(ana, phones=(BEN, BEN))
    turn = ana.post(f"/api/games/{view['token']}/turn",
                    json={"seat": view["turn"], "steps": whole_turn(ana, view)}).json
    assert turn["message"]["status"] == "sent"


def test_texts_to_one_number_are_capped_each_day(app, twilio):
    app.config.update(TEXTS_PER_NUMBER_HOUR=10, TEXTS_PER_NUMBER_DAY=3)
    ana = phone(app, "ana-phone")
    statuses = []
    for hour in range(4):  # one text an hour, four hours running
        at(app, T0 + hour * 3600)
        view = new_game(ana, phones=(BEN, BEN))
        turn = ana.post(f"/api/games/{view['token']}/turn",
                        json={"seat": view["turn"], "steps": whole_turn(ana, view)}).json
        statuses.append(turn["message"]["status"])
    assert statuses == ["sent", "sent", "sent", "limited"] and len(twilio.requests) == 3


def test_the_deployment_sends_no_more_than_its_daily_texts(app, twilio):
    app.config["TEXTS_PER_DAY"] = 2
    ana = phone(app, "ana-phone")
    statuses = []
    for n in range(3):  # three games, texting three numbers
        view = new_game(ana, phones=(f"+1415555012{n}",) * 2)
        turn = ana.post(f"/api/games/{view['token']}/turn",
                        json={"seat": view["turn"], "steps": whole_turn(ana, view)}).json
        statuses.append(turn["message"]["status"])
    assert statuses == ["sent", "sent", "limited"] and len(twilio.requests) == 2


# -- 2. only the newest link plays --------------------------------------------------------------

def test_an_older_link_is_read_only_on_every_phone(app, tmp_path):
    ana = phone(app, "ana-phone")
    # The other way to play a turn is found on a second server with its own store: tried here,
    # its rolls would be shown, and a roll shown fixes the moves before it (RollShown).
    scout = phone(create_app({"KEYS": KEYS, "TESTING": True,
                              "STORE_URL": f"sqlite:///{tmp_path}/scout.db"}))
    view = new_game(ana)
    while True:  # on to a turn that can be played two ways
        fork = whole_turn(scout, view, -1)
        turn = {"seat": view["turn"], "steps": whole_turn(ana, view)}
        if fork != turn["steps"]:
            break
        view = ana.post(f"/api/games/{view['token']}/turn", json=turn).json
    nxt = ana.post(f"/api/games/{view['token']}/turn", json=turn).json
    # Another phone with the older link: it sees the game, read-only, and how far it has got.
    other = phone(app, "cleo-phone")
    read = other.get(f"/api/games/{view['token']}")
    assert read.status_code == 200
    assert read.json["moved_on"] == {"steps": nxt["steps"], "turn": nxt["turn"], "over": False}
    assert nxt["token"] not in read.data.decode()  # never the newest link: it is Ben's
    for path, body in (("moves", {"seat": view["turn"], "steps": ["roll"]}),
                       ("turn", {"seat": view["turn"], "steps": fork})):
        refused = other.post(f"/api/games/{view['token']}/{path}", json=body)
        assert refused.status_code == 409, refused.json
        assert refused.json["error"]["code"] == "MovedOn"
        assert "already played" in refused.json["error"]["message"]
    assert other.get(f"/api/games/{nxt['token']}").json["moved_on"] is None


def test_a_player_added_makes_the_link_without_them_older(app):
    ana = phone(app, "ana-phone")
    made = ana.post("/api/games", json={"game": "ludo", "settings": {"capacity": 4}, "players": [
        {"name": "Ana", "color": "red"}, {"name": "Ben", "color": "green"}]}).json
    body = {"seat": made["host"], "player": {"name": "Cleo", "color": "blue"}}
    joined = ana.post(f"/api/games/{made['token']}/players", json=body)
    assert joined.status_code == 201
    assert ana.post(f"/api/games/{made['token']}/players", json=body).json["token"] == \
        joined.json["token"]  # the same request again: the same answer
    dev = {"seat": made["host"], "player": {"name": "Dev", "color": "yellow"}}
    assert ana.post(f"/api/games/{made['token']}/players", json=dev).status_code == 409
    assert phone(app).get(f"/api/games/{made['token']}").json["moved_on"]


def test_a_player_added_before_anyone_chose_makes_the_first_link_older_though_it_has_more_steps(
        app):
    """Adding a Ludo player to a table nobody has chosen at starts it again: the new link may
    have fewer steps than the first (whose turns with nothing to decide had played), and the
    first is older all the same."""
    from app.engine.ludo import ludo_options

    seats = [link.Seat("Ana", 0), link.Seat("Ben", 2)]
    for number in range(200):
        first = Game.new("ludo", seats, KEYS, seed=number.to_bytes(8, "big"),
                         options=ludo_options(4))
        first.hand_on()
        again = Game(first.header, first.restarted().match, KEYS).with_player(link.Seat("Cleo", 1))
        again.hand_on()
        if len(first.match.steps) > len(again.match.steps):
            break
    else:
        raise AssertionError("no seed found")
    ana = phone(app, "ana-phone")
    token = first.token()
    added = ana.post(f"/api/games/{token}/players",
                     json={"seat": 0, "player": {"name": "Cleo", "color": "blue"}})
    assert added.status_code == 201 and added.json["steps"] < len(first.match.steps)
    dev = ana.post(f"/api/games/{token}/players",
                   json={"seat": 0, "player": {"name": "Dev", "color": "yellow"}})
    assert dev.status_code == 409
    assert phone(app).get(f"/api/games/{token}").json["moved_on"]


def test_only_the_creator_switches_a_new_games_language(app):
    ana = phone(app, "ana-phone")
    made = new_game(ana)
    invite = f"/api/games/{made['token']}?invite=1&lang=es"
    assert phone(app, "ben-phone").get(invite).json["token"] == made["token"]  # not Ben
    switched = ana.get(invite).json
    assert switched["token"] != made["token"] and switched["lang"] == "es"


def test_a_rematch_is_made_once(app):
    from workbench.games import play_random

    final = play_random("ludo", 2, "rematch-once", 0, KEYS).token()
    host = phone(app, "host-phone")
    asked = {"seat": 0, "host_key": host_key(final, KEYS)}  # the host's link
    first = host.post(f"/api/games/{final}/rematch", json=asked)
    second = host.post(f"/api/games/{final}/rematch", json=asked)
    assert first.status_code == second.status_code == 201, first.json
    assert first.json["token"] == second.json["token"]


# -- 3. a deadline starts when the link reaches its player --------------------------------------

def test_a_withheld_link_starts_nobodys_clock(app):
    ana = phone(app, "ana-phone")
    view = new_game(ana, deadline_hours=1, phones=(None, None))
    ben_turn = ana.post(f"/api/games/{view['token']}/turn",
                        json={"seat": view["turn"], "steps": whole_turn(ana, view)}).json
    assert ben_turn["deadline"]["waiting"] and ben_turn["deadline"]["due_at"] is None
    at(app, T0 + 5 * 3600)  # Ana never sends it
    refused = ana.post(f"/api/games/{ben_turn['token']}/absent", json={})
    assert refused.status_code == 409 and "hasn't opened this link" in \
        refused.json["error"]["message"]
    # Ana opening it herself starts nothing: she made it.
    assert ana.get(f"/api/games/{ben_turn['token']}").json["deadline"]["waiting"]
    assert ana.post(f"/api/games/{ben_turn['token']}/absent", json={}).status_code == 409
    # Ben opens it: his hour starts now, whatever the link's own time says.
    ben = phone(app, "ben-phone")
    opened = ben.get(f"/api/games/{ben_turn['token']}").json["deadline"]
    assert opened == {"minutes": 60, "due_at": T0 + 5 * 3600 + 3600, "waiting": False}
    at(app, T0 + 6 * 3600 - 1)
    assert ana.post(f"/api/games/{ben_turn['token']}/absent", json={}).status_code == 409
    at(app, T0 + 6 * 3600)
    assert ana.post(f"/api/games/{ben_turn['token']}/absent", json={}).status_code == 200


def test_a_texted_link_starts_the_clock_when_it_is_sent(app, twilio):
    ana = phone(app, "ana-phone")
    view = new_game(ana, deadline_hours=1)
    ben_turn = ana.post(f"/api/games/{view['token']}/turn",
                        json={"seat": view["turn"], "steps": whole_turn(ana, view)}).json
    assert ben_turn["message"]["status"] == "sent"
    assert ben_turn["deadline"] == {"minutes": 60, "due_at": T0 + 3600, "waiting": False}
    at(app, T0 + 3600)
    assert ana.post(f"/api/games/{ben_turn['token']}/absent", json={}).status_code == 200


# -- 4. "I'm back" is never lost ----------------------------------------------------------------

def test_im_back_from_an_older_link_reaches_the_newest(app):
    seats = [link.Seat("Ana", 0), link.Seat("Ben", 1), link.Seat("Cleo", 2)]
    played = Game.new("parcheesi", seats, KEYS, seed=b"back-old", by_hand=True)
    token = link.encode(replace(played.header, deadline=60, since=int(T0 // 60)),
                        played.match.steps, KEYS)
    views, view = [], phone(app).get(f"/api/games/{token}").json
    absent = view["turn"]
    while not view["seats"][absent]["away"]:  # the absent player misses two turns
        at(app, app.config["CLOCK"]() + 3601)
        if view["turn"] == absent:
            view = phone(app).post(f"/api/games/{view['token']}/absent", json={}).json
        else:
            browser = phone(app)
            view = browser.post(f"/api/games/{view['token']}/turn", json={
                "seat": view["turn"], "steps": whole_turn(browser, view)}).json
        views.append(view)
        view = phone(app).get(f"/api/games/{view['token']}").json  # the next player opens it
    newest = view
    older = views[0]["token"]  # the link in the text they got when first played for
    back = phone(app, "absent-phone").post(f"/api/games/{older}/back", json={"seat": absent})
    assert back.status_code == 200, back.json
    assert back.json["moved_on"] and back.json["token"] == older
    assert not back.json["seats"][absent]["away"]
    # Whoever opens the newest link sees them back, and the next link records it.
    assert not phone(app).get(f"/api/games/{newest['token']}").json["seats"][absent]["away"]
    browser = phone(app)
    after = browser.post(f"/api/games/{newest['token']}/turn", json={
        "seat": newest["turn"], "steps": whole_turn(browser, newest)}).json
    assert not after["seats"][absent]["away"]
    assert any(who == absent for _, who in Game.from_token(after["token"], KEYS).header.back)


# -- a store that is down -----------------------------------------------------------------------

def test_with_the_store_down_games_read_and_nothing_is_played(tmp_path, unreachable_dynamodb_url):
    good = create_app({"KEYS": KEYS, "TESTING": True, "STORE_URL": f"sqlite:///{tmp_path}/s.db"})
    view = good.test_client().post("/api/games", json={"game": "parcheesi", "players": [
        {"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]}).json
    (tmp_path / "dir.db").mkdir()
    for url in (f"sqlite:///{tmp_path}/dir.db", unreachable_dynamodb_url):
        down = create_app({"KEYS": KEYS, "TESTING": True, "STORE_URL": url}).test_client()
        read = down.get(f"/api/games/{view['token']}")
        assert read.status_code == 200 and read.json["moved_on"] is None
        assert down.get(f"/g/{view['token']}").status_code == 200
        assert down.get("/rules/parcheesi").status_code == 200
        for path, body in (("moves", {"seat": view["turn"], "steps": ["roll"]}),
                           ("turn", {"seat": view["turn"], "steps": ["roll"]}),
                           ("absent", {})):
            refused = down.post(f"/api/games/{view['token']}/{path}", json=body)
            assert refused.status_code == 503, (url, path, refused.data)
            assert refused.headers["Retry-After"] == "30"
            assert refused.json["error"]["code"] == "StoreUnavailable"
        page = down.post("/new", data={"game": "parcheesi", "play0": "1", "color0": "yellow",
                                       "play2": "1", "color2": "red"})
        assert page.status_code == 503 and b"Your game is safe" in page.data


@pytest.mark.parametrize("typed,said", [
    ("+1 900 555 0199", "can't get text messages"),  # premium rate
    ("+44 20 7946 0958", "can't get text messages"),  # a London landline
    ("+881 6 1234 5678", "We text mobile numbers in"),  # satellite: no country
    ("+33 6 12 34 56 78", "We text mobile numbers in"),  # a mobile, in a country not texted
])
def test_numbers_the_server_wont_text_are_refused_when_typed(app, typed, said):
    players = [{"name": "Ana", "color": "yellow", "phone": typed},
               {"name": "Ben", "color": "red"}]
    refused = phone(app).post("/api/games", json={"game": "parcheesi", "players": players})
    assert refused.status_code == 400 and said in refused.json["error"]["message"]
