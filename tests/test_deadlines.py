"""Turn deadlines through the API: set at creation, stamped with the server's clock (``CLOCK``),
and turns played for absent players once the deadline has passed ("Play it for them")."""

from dataclasses import replace

import pytest

from app import link
from app.engine.ludo import ludo_options
from app.keys import Keys
from app.play import Game
from api_support import PLAYERS, host_key, play_until_turn_over
from browser_support import ludo_last_turn

KEYS = Keys.for_tests("deadlines")
T0 = 1_800_000_000.0  # the server's clock in these tests (seconds since 1970)


@pytest.fixture
def keys():
    """The keys this module's links are made with: its app's too."""
    return KEYS


def at(client, moment: float) -> None:
    client.application.config["CLOCK"] = lambda: moment


def header(token: str) -> link.Header:
    return Game.from_token(token, KEYS).header


def opens(client, view: dict) -> dict:
    """The player the link went to opens it (their time starts now): ``view`` with the deadline
    their page shows."""
    return dict(view, deadline=client.get(f"/api/games/{view['token']}").json["deadline"])



def late_game(seats, since: int, minutes: int = 60, lang: str = "en", seed: bytes = bytes(8)):
    """A two-player game whose turn began at ``since`` (minutes since 1970)."""
    game = Game.new("parcheesi", seats, KEYS, seed=seed, by_hand=True)
    return link.encode(replace(game.header, deadline=minutes, since=since, lang=lang),
                       game.match.steps, KEYS)


def test_a_game_created_with_a_deadline_holds_it_with_the_servers_time(client, api):
    at(client, T0)
    view = api.create(deadline_hours=12)
    since = int(T0 // 60)
    # The time starts when the link reaches its player, not when its creator gets it.
    assert view["deadline"] == {"minutes": 720, "due_at": None, "waiting": True}
    assert header(view["token"]).since == since
    at(client, T0 + 500)
    assert opens(client, view)["deadline"] == {"minutes": 720, "due_at": T0 + 500 + 720 * 60,
                                               "waiting": False}
    plain = api.create()
    assert plain["deadline"] is None and header(plain["token"]).deadline == 0


@pytest.mark.parametrize("hours", [-1, 169, "1", 1.5, True, None, [1]])
def test_a_deadline_is_a_whole_number_of_hours_up_to_a_week(client, hours):
    response = client.post("/api/games", json={"autoplay": False, "game": "parcheesi", "players": PLAYERS,
                                                "deadline_hours": hours})
    assert response.status_code == 400 and "deadline_hours" in response.json["error"]["message"]


def test_the_next_players_time_starts_when_they_open_the_link(client, api):
    at(client, T0)
    view = api.create(deadline_hours=1)
    steps, _ = api.play_turn(view)
    later = T0 + 3 * 3600 + 30  # past the deadline: the player may still play their turn
    at(client, later)
    nxt = client.post(f"/api/games/{view['token']}/turn",
                      json={"seat": view["turn"], "steps": steps}).json
    assert header(nxt["token"]).since == int(later // 60)
    assert nxt["deadline"] == {"minutes": 60, "due_at": None, "waiting": True}
    at(client, later + 7200)  # two hours on, they open it: their hour starts
    assert opens(client, nxt)["deadline"]["due_at"] == later + 7200 + 3600


def test_play_it_for_them_only_after_the_deadline(client):
    since = int(T0 // 60)
    token = late_game([link.Seat("Ana", 0), link.Seat("Ben", 2)], since)
    view = client.get(f"/api/games/{token}").json
    due = view["deadline"]["due_at"]
    at(client, due - 1)
    early = client.post(f"/api/games/{token}/absent", json={})
    assert early.status_code == 409
    absent = view["turn"]
    name = view["seats"][absent]["name"]
    assert early.json["error"]["message"].startswith(f"{name} still has time for this turn")
    at(client, due + 90)
    response = client.post(f"/api/games/{token}/absent", json={})
    assert response.status_code == 200, response.json
    played = response.json
    assert played["turn"] != absent and played["replay"]["start"] == 0
    events = played["replay"]["events"]
    assert events and all(e.get("auto") == (e["seat"] == absent) for e in events)
    assert header(played["token"]).auto == (0,)
    assert header(played["token"]).since == int((due + 90) // 60)
    assert played["message"]["to"] == played["seats"][played["turn"]]["name"]
    assert played["message"]["text"].startswith(f"{name} moved.")
    assert played["absent"] == {"seat": absent, "name": name, "texted": None,
                                "disqualified": False}
    # The next player's link tells of it too (their replay starts before the absent turn).
    later = client.get(f"/api/games/{played['token']}").json
    assert any(e.get("auto") for e in later["replay"]["events"])
    # Played once: the new link's player has their own full hour.
    again = client.post(f"/api/games/{played['token']}/absent", json={})
    assert again.status_code == 409


def test_no_turn_is_played_for_anyone_without_a_deadline_or_once_the_game_is_over(client):
    from workbench.games import play_random

    game = Game.new("parcheesi", [link.Seat("Ana", 0), link.Seat("Ben", 2)], KEYS, seed=bytes(8), by_hand=True)
    at(client, T0)
    response = client.post(f"/api/games/{game.token()}/absent", json={})
    assert response.status_code == 409
    assert "no turn deadline" in response.json["error"]["message"]
    finished = play_random("parcheesi", 2, "deadline-over", 0, KEYS)
    over = link.encode(replace(finished.header, deadline=60, since=1), finished.match.steps, KEYS)
    assert client.post(f"/api/games/{over}/absent", json={}).status_code == 422


def test_the_absent_and_the_next_player_are_texted(client, twilio):
    seats = [link.Seat("Ana", 0, phone="+14155550100"), link.Seat("Ben", 2, phone="+14155550199")]
    token = late_game(seats, since=1000)
    at(client, T0 - 3601)
    opens(client, {"token": token})
    at(client, T0)
    played = client.post(f"/api/games/{token}/absent", json={}).json
    absent = played["absent"]["seat"]
    numbers = {0: "+14155550100", 1: "+14155550199"}
    sent = {r.field("To"): r.field("Body") for r in twilio.requests}
    assert len(twilio.requests) == 2 and played["absent"]["texted"] == "sent"
    name = played["absent"]["name"]
    assert sent[numbers[absent]] == \
        f"{name}, your turn in Boardpass was played for you: {played['url']}"
    assert sent[numbers[1 - absent]] == played["message"]["text"]
    assert played["message"]["status"] == "sent"
    assert played["message"]["text"].startswith(f"{name} moved. Your turn in Boardpass")


def test_the_absent_players_text_speaks_the_tables_language(client, twilio):
    seats = [link.Seat("Ana", 0, phone="+14155550100"), link.Seat("Ben", 2, phone="+14155550199")]
    token = late_game(seats, since=1000, lang="es")
    at(client, T0 - 3601)
    opens(client, {"token": token})
    at(client, T0)
    played = client.post(f"/api/games/{token}/absent", json={}).json
    numbers = {0: "+14155550100", 1: "+14155550199"}
    sent = {r.field("To"): r.field("Body") for r in twilio.requests}
    body = sent[numbers[played["absent"]["seat"]]]
    assert body == (f"{played['absent']['name']}, como no llegaste a tiempo, jugamos tu turno en "
                    f"Boardpass por vos: {played['url']}")
    assert not set(body) & set("áéíóú")
    early = late_game(seats, since=int(T0 // 60), lang="es", seed=b"another!")
    opens(client, {"token": early})
    refused = client.post(f"/api/games/{early}/absent", json={})
    assert refused.status_code == 409
    assert "todavía tiene tiempo" in refused.json["error"]["message"]


def test_no_text_for_the_absent_player_without_a_public_address(client, twilio):
    client.application.config["PUBLIC_URL"] = ""
    seats = [link.Seat("Ana", 0, phone="+14155550100"), link.Seat("Ben", 2, phone="+14155550199")]
    token = late_game(seats, since=1000)
    at(client, T0 - 3601)
    opens(client, {"token": token})
    at(client, T0)
    played = client.post(f"/api/games/{token}/absent", json={}).json
    assert not twilio.requests and played["absent"]["texted"] is None
    assert played["message"]["status"] == "not-sent"


def test_a_rematch_keeps_the_deadline_and_a_new_player_keeps_the_time(client):
    game, seat, steps = ludo_last_turn(14, keys=KEYS, players=3, host=1)
    game.play_turn(seat, steps)
    token = link.encode(replace(game.header, deadline=1440, since=5), game.match.steps, KEYS)
    at(client, T0)
    again = client.post(f"/api/games/{token}/rematch",
                        json={"seat": 1, "host_key": host_key(token, KEYS)}).json
    assert header(again["token"]).deadline == 1440
    assert header(again["token"]).since == int(T0 // 60)
    new = Game.new("ludo", [link.Seat("Ana", 0), link.Seat("Ben", 2)], KEYS, seed=b"joinlate",
                   options=ludo_options(4), by_hand=True)
    start = link.encode(replace(new.header, deadline=60, since=777), [], KEYS)
    at(client, T0)
    joined = client.post(f"/api/games/{start}/players",
                         json={"seat": 0, "player": {"name": "Cleo", "color": "blue"}})
    assert joined.status_code == 201, joined.json
    assert header(joined.json["token"]).since == 777


FORM = {"game": "parcheesi", "play0": "1", "name0": "Ana", "color0": "yellow",
        "play2": "1", "name2": "Ben", "color2": "red"}


def test_the_new_game_form_sets_the_deadline_but_not_for_one_device(client):
    home = client.get("/").data.decode()
    assert 'name="deadline"' in home and "Turn deadline" in home and ">3 days<" in home
    at(client, T0)
    made = client.post("/new", data={**FORM, "deadline": "24"})
    assert made.status_code == 302
    token = made.headers["Location"].split("/g/")[1].split("?")[0]
    assert (header(token).deadline, header(token).since) == (1440, int(T0 // 60))
    local = client.post("/new", data={**FORM, "deadline": "24", "local": "1"})
    token = local.headers["Location"].split("/g/")[1].split("?")[0]
    assert header(token).deadline == 0
    refused = client.post("/new", data={**FORM, "deadline": "999"})
    assert refused.status_code == 400 and b"deadline_hours" in refused.data


# -- players away (Parcheesi, Red Arse) and disqualified (Ludo) -------------------------------------

def table(client, game: str, names, minutes: int = 60, seed: bytes = bytes(8)) -> dict:
    """A game of humans with a deadline of ``minutes``, its first turn begun at T0 (Red Arse:
    re-rolls rolled for the player, no claim window)."""
    from app.engine.red_arse_settings import options_for

    options = options_for(off=("claim",)) if game == "red-arse" else 0
    played = Game.new(game, [link.Seat(n, c) for c, n in enumerate(names)], KEYS, seed=seed,
                      options=options, by_hand=True)
    token = link.encode(replace(played.header, deadline=minutes, since=int(T0 // 60)),
                        played.match.steps, KEYS)
    return client.get(f"/api/games/{token}").json


def play_own_turn(client, view) -> dict:
    at(client, view["deadline"]["due_at"] - 60)  # in time
    steps, _ = play_until_turn_over(client, view)
    response = client.post(f"/api/games/{view['token']}/turn",
                           json={"seat": view["turn"], "steps": steps})
    assert response.status_code == 200, response.json
    return opens(client, response.json)


def miss_turn(client, view) -> dict:
    at(client, view["deadline"]["due_at"] + 60)
    response = client.post(f"/api/games/{view['token']}/absent", json={})
    assert response.status_code == 200, response.json
    return opens(client, response.json)


def until_turn_of(client, view, seat: int) -> dict:
    """The others play their own turns until ``seat`` is to move."""
    while view["turn"] != seat:
        view = play_own_turn(client, view)
    return view


@pytest.mark.parametrize("game", ["parcheesi", "red-arse"])
def test_two_missed_turns_make_a_player_away_until_they_say_they_are_back(client, twilio, game):
    view = table(client, game, ["Ana", "Ben", "Cleo"])
    absent = view["turn"]
    name = view["seats"][absent]["name"]
    view = miss_turn(client, view)
    assert view["seats"][absent]["missed"] == 1 and not view["seats"][absent]["away"]
    view = miss_turn(client, until_turn_of(client, view, absent))
    assert view["seats"][absent]["away"] and view["seats"][absent]["missed"] == 2
    # Away: their turns are played at once, as the others' turns are sent.
    for _ in range(4):
        assert view["turn"] != absent
        view = play_own_turn(client, view)
    events = [e for e in view["replay"]["events"] if e["seat"] == absent]
    assert events and all(e["auto"] for e in events)
    # Only an away player can come back: the link in play gives them their turns again, with
    # no new link to send and no text.
    other = next(s for s in range(3) if s != absent)
    assert client.post(f"/api/games/{view['token']}/back", json={"seat": other}).status_code == 422
    sent = len(twilio.requests)
    back = client.post(f"/api/games/{view['token']}/back", json={"seat": absent})
    assert back.status_code == 200, back.json
    back = back.json
    assert back["back"] == {"seat": absent, "name": name} and back["token"] == view["token"]
    assert not back["seats"][absent]["away"] and len(twilio.requests) == sent
    assert not client.get(f"/api/games/{view['token']}").json["seats"][absent]["away"]
    view = until_turn_of(client, dict(view, seats=back["seats"]), absent)
    assert view["turn"] == absent and not view["seats"][absent]["away"]
    assert [who for _, who in header(view["token"]).back] == [absent]  # the link has it now


def test_nobody_is_played_for_when_every_human_is_away(client):
    view = table(client, "parcheesi", ["Ana", "Ben"])
    for _ in range(4):
        view = miss_turn(client, view)
    assert all(s["away"] for s in view["seats"])
    assert view["phase"] == "roll"  # the game waits at someone's turn: it doesn't play itself out


def test_ludo_disqualifies_after_three_expiries_in_a_row_and_ranks_them_last(client):
    view = table(client, "ludo", ["Ana", "Ben", "Cleo"])
    first = view["turn"]
    second = (first + 1) % 3
    # Two expiries, then a turn in time: the count starts again.
    for _ in range(2):
        view = until_turn_of(client, miss_turn(client, view), first)
    view = until_turn_of(client, play_own_turn(client, view), first)
    for expiry in (1, 2, 3):
        view = miss_turn(client, view)
        assert view["absent"]["disqualified"] == (expiry == 3)
        if expiry < 3:
            view = until_turn_of(client, view, first)
    assert view["seats"][first]["out"] and view["pieces"][first] == []  # off the board
    assert view["phase"] != "over" and view["turn"] != first
    # The second to go out ends the game: the one left wins, the first disqualified is last.
    view = until_turn_of(client, view, second)
    for _ in range(3):
        view = miss_turn(client, until_turn_of(client, view, second))
    third = 3 - first - second
    assert view["phase"] == "over" and view["placed"] == [third, second, first]
    assert [s["won"] for s in view["seats"]] == \
        [[1, 0, 0] if i == third else [0, 0, 0] for i in range(3)]
