"""Live rooms through the API, on both store backends (SQLite, and DynamoDB on dynalite): a
code, joining, steps for everyone to see, polls answered 304, one winner among phones racing,
and bad input that changes nothing."""

from __future__ import annotations

import re
import threading
from dataclasses import replace

import pytest

from app import link
from app.keys import Keys
from app.play import Game
from app.rooms import ALPHABET, CODE_LENGTH, ROOM_DAYS, read_code
from app.web import create_app

KEYS = Keys.for_tests("rooms")
NOW = 1_800_000_000
PLAYERS = [{"name": "Ana", "color": "yellow"}, {"name": "", "color": "red"},
           {"name": "", "color": "green"}]


class Clock:
    def __init__(self):
        self.now = NOW

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def app(store_url, clock):
    return create_app({"KEYS": KEYS, "TESTING": True, "STORE_URL": store_url, "CLOCK": clock,
                       "ROOMS_PER_ADDRESS": "1000 per hour",
                       "ROOM_JOINS_PER_ADDRESS": "1000 per hour",
                       # these tests' phones don't say who they are when polling: nobody is
                       # disconnected for it (the presence tests say so, and shorten it), and
                       # a timer runs out with the mover's phone asking (idle)
                       "ROOM_OFFLINE_SECONDS": 10 ** 9})


def make_room(client, players=PLAYERS, start=False, **extra) -> dict:
    """A new room (its lobby); ``start``: the maker starts it at once (free seats leave)."""
    response = client.post("/api/rooms", json={"game": "parcheesi", "players": players, **extra})
    assert response.status_code == 201, response.json
    made = response.json
    return started(client, made, made["you"]["credential"]) | {"you": made["you"]} if start \
        else made


def started(client, view, credential, status=200) -> dict:
    """The host starts the room's game."""
    response = client.post(f"/api/rooms/{view['room']['code']}/start?since={view['steps']}",
                           json={"credential": credential})
    assert response.status_code == status, response.json
    return response.json


def join(client, code, status=200, **body) -> dict:
    response = client.post(f"/api/rooms/{code}/join", json=body)
    assert response.status_code == status, response.json
    return response.json


def next_steps(view: dict) -> list:
    """What the player to move does next: roll, let a re-roll go, or the first legal move."""
    if view["phase"] == "roll":
        return ["roll"]
    if view["phase"] == "claim":
        return ["miss"]
    move = view["legal"][0]
    return [{"from": move["from"], "to": move["to"], "values": move["values"]}]


def step(client, view, credential, steps=None, status=200):
    response = client.post(f"/api/rooms/{view['room']['code']}/steps?since={view['steps']}",
                           json={"version": view["room"]["version"], "credential": credential,
                                 "steps": steps or next_steps(view)})
    assert response.status_code == status, response.json
    return response.json


def seated(client) -> tuple[dict, dict]:
    """A room of Ana (its maker) and Ben (joined): the latest view, and each seat's credential."""
    made = make_room(client, PLAYERS[:2])
    code = made["room"]["code"]
    ben = join(client, code, name="Ben", color="red")
    credentials = {made["you"]["seat"]: made["you"]["credential"],
                   ben["you"]["seat"]: ben["you"]["credential"]}
    return started(client, ben, made["you"]["credential"]), credentials


def red_arse_until_claim(client) -> tuple[dict, str]:
    """A Red Arse room of Ana and a bot, played until Ana has a re-roll to claim: the view
    (with her ticket) and her credential."""
    made = make_room(client, [{"name": "Ana", "color": "red"}, {"color": "blue", "bot": "easy"}],
                     start=True, game="red-arse", settings={"board": 4})
    view, credential = made, made["you"]["credential"]
    for _ in range(400):
        if view["phase"] == "claim" and view["turn"] == made["you"]["seat"]:
            return view, credential
        if view["phase"] == "over":
            pytest.skip("no re-roll in this game")  # rare: a re-roll comes in most games
        view = step(client, view, credential)
    raise AssertionError("no re-roll in 400 steps")


# -- the code --------------------------------------------------------------------------------------

def test_a_room_code_is_six_readable_characters_and_typed_any_way_it_finds_the_room(client):
    made = make_room(client)
    code = made["room"]["code"]
    assert len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)
    assert not set(code) & set("01OIL")
    typed = code[:3].lower() + " - " + code[3:]
    assert client.get(f"/api/rooms/{read_code(typed)}").status_code == 200
    page = client.get(f"/r?code={typed.replace(' ', '+')}")
    assert page.status_code == 302 and page.headers["Location"].endswith(f"/r/{code}")
    assert made["room"]["url"].endswith(f"/r/{code}")


def test_codes_are_random_not_counted(client):
    codes = [make_room(client)["room"]["code"] for _ in range(6)]
    assert len(set(codes)) == 6
    assert sorted(codes) != codes or sorted(codes, reverse=True) != codes


def test_an_unknown_code_is_a_404_and_a_clear_page(client):
    response = client.get("/api/rooms/ABC234")
    assert response.status_code == 404
    assert response.json["error"]["message"] == \
        "No room ABC234: check the code and try again, or ask whoever made the room for it."
    page = client.get("/r/ABC234")  # a page that says why (200, as to a chat app's fetcher)
    assert page.status_code == 200 and b"No room ABC234" in page.data
    text = page.get_data(as_text=True)  # the code field again, with the code to correct
    assert re.search(r'<input name="code"[^>]*value="ABC234"', text)
    assert "links must arrive whole" not in text
    mistyped = client.get("/r?code=AB1")
    assert mistyped.status_code == 400 and b"6 letters and digits" in mistyped.data


def test_a_room_expires_a_day_after_its_last_move(client, clock):
    view, credentials = seated(client)
    code = view["room"]["code"]
    clock.now += ROOM_DAYS * 24 * 3600 - 60
    played = step(client, view, credentials[view["turn"]])  # a move: a day more from now
    clock.now += ROOM_DAYS * 24 * 3600 - 60
    assert client.get(f"/api/rooms/{code}").status_code == 200
    clock.now += 120
    assert client.get(f"/api/rooms/{code}").status_code == 404
    assert played["steps"] > view["steps"]


# -- joining ---------------------------------------------------------------------------------------

def test_the_maker_sits_on_their_seat_and_the_other_peoples_seats_are_free(client):
    made = make_room(client)
    seats = made["seats"]
    me = made["you"]["seat"]
    assert seats[me]["name"] == "Ana" and made["room"]["host"] == me
    assert made["room"]["members"] == [me]
    assert sorted(made["room"]["free"]) == sorted(s["seat"] for s in seats if s["seat"] != me)


def test_joining_takes_a_free_seat_with_a_name_and_the_link_keeps_it(client):
    made = make_room(client)
    code = made["room"]["code"]
    ben = join(client, code, name="Ben", color="red")
    seat = ben["you"]["seat"]
    assert ben["seats"][seat] | {"name": "Ben", "color": "red"} == ben["seats"][seat]
    assert seat in ben["room"]["members"] and seat not in ben["room"]["free"]
    assert Game.from_token(ben["token"], KEYS).header.seats[seat].name == "Ben"
    cleo = join(client, code, name="Cleo")  # no color: the first free seat
    assert cleo["seats"][cleo["you"]["seat"]]["color"] == "green"
    assert join(client, code, status=409, name="Dan")["error"]["message"] == \
        f"Room {code} is full: you can watch."


def test_a_phone_that_joins_again_keeps_its_seat(client):
    made = make_room(client)
    again = join(client, made["room"]["code"], credential=made["you"]["credential"], name="X")
    assert again["you"]["seat"] == made["you"]["seat"]
    assert again["room"]["version"] == made["room"]["version"]  # nothing written


def test_a_taken_seat_and_a_taken_name_are_refused_and_change_nothing(client):
    made = make_room(client)
    code = made["room"]["code"]
    taken = join(client, code, status=400, name="ana", color="red")
    assert taken["error"]["message"] == "ana is another player's name: choose your own."
    join(client, code, name="Ben", color="red")
    refused = join(client, code, status=409, name="Cleo", color="red")
    assert refused["error"]["message"] == "Ben is someone else's seat: choose a free one."
    assert client.get(f"/api/rooms/{code}").json["room"]["version"] == 2


def test_a_ludo_room_seats_newcomers_at_the_start_of_the_hosts_turn_only(client):
    made = make_room(client, [{"name": "Ana", "color": "red"}, {"color": "blue", "bot": "easy"}],
                     game="ludo", settings={"capacity": 4}, lang="en")
    code, credential, host = made["room"]["code"], made["you"]["credential"], made["you"]["seat"]
    assert made["room"]["new_colors"]  # before anyone plays: sit down any time
    view = started(client, made, credential)
    for _ in range(300):
        starting = view["turn"] == host and view["phase"] == "roll" and view["steps"] and \
            view["replay"]["events"] and view["replay"]["events"][-1]["seat"] != host
        if starting:
            assert view["room"]["new_colors"] == ["green", "yellow"]
        view = step(client, view, credential)
        if starting and view["turn"] == host and view["phase"] == "move":
            break  # the host has rolled: their turn has begun
    assert view["room"]["new_colors"] == []
    refused = join(client, code, status=409, name="Ben", color="green")
    assert "start of the host's turn" in refused["error"]["message"]
    assert client.get(f"/api/rooms/{code}").json["room"]["version"] == view["room"]["version"]


def test_a_ludo_newcomer_joins_with_four_pieces_at_home_and_the_board_keeps_its_size(client):
    made = make_room(client, [{"name": "Ana", "color": "red"}, {"name": "", "color": "blue"}],
                     game="ludo", settings={"capacity": 4}, lang="en")
    code = made["room"]["code"]
    ben = join(client, code, name="Ben", color="blue")  # the free seat made at creation
    cleo = join(client, code, name="Cleo", color="green")  # a new seat, before the first roll
    seats = cleo["seats"]
    assert [s["name"] for s in seats] == ["Ana", "Ben", "Cleo"]
    assert cleo["pieces"][cleo["you"]["seat"]] == [-1] * 4
    game = Game.from_token(cleo["token"], KEYS)
    assert game.rules.capacity == 4
    join(client, code, name="Dan", color="yellow")
    assert join(client, code, status=409, name="Eve")["error"]["code"] == "TableFull"
    # Seats moved around the table as people sat: every credential still plays its own color.
    assert join(client, code, credential=ben["you"]["credential"])["you"]["seat"] == 1


# -- playing ---------------------------------------------------------------------------------------

def test_steps_are_played_for_everyone_and_a_poll_sees_them(client):
    view, credentials = seated(client)
    code = view["room"]["code"]
    seen = client.get(f"/api/rooms/{code}")
    etag = seen.headers["ETag"]
    unchanged = client.get(f"/api/rooms/{code}", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b""
    rolled = step(client, view, credentials[view["turn"]], ["roll"])
    assert rolled["steps"] == view["steps"] + 1
    changed = client.get(f"/api/rooms/{code}?since={view['steps']}",
                         headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert [e["kind"] for e in changed.json["replay"]["events"]] == ["roll"]
    assert changed.json["replay"]["events"][0]["dice"] == rolled["last_roll"]


def test_an_unchanged_poll_is_answered_from_the_rooms_version_without_reading_the_game(
        client, monkeypatch):
    made = make_room(client)
    code = made["room"]["code"]
    etag = client.get(f"/api/rooms/{code}").headers["ETag"]

    def no_replay(*args, **kwargs):
        raise AssertionError("a 304 needs no replay")

    monkeypatch.setattr(Game, "from_token", no_replay)
    unchanged = client.get(f"/api/rooms/{code}", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.headers["ETag"] == etag


def test_a_whole_game_in_a_room_replays_from_its_link_to_the_same_position(client):
    view, credentials = seated(client)
    for _ in range(120):
        if view["phase"] == "over":
            break
        view = step(client, view, credentials[view["turn"]])
    game = Game.from_token(view["token"], KEYS)
    assert game.position() == view["position"] and len(game.match.steps) == view["steps"]


def test_only_the_seat_to_move_plays_and_only_with_its_own_credential(client):
    view, credentials = seated(client)
    mover = view["turn"]
    other = next(seat for seat in credentials if seat != mover)
    wrong = step(client, view, credentials[other], ["roll"], status=409)
    assert wrong["error"]["code"] == "WrongSeat"
    nobody = step(client, view, None, ["roll"], status=403)
    assert nobody["error"]["code"] == "NotYours"
    forged = credentials[mover][:-2] + ("AA" if not credentials[mover].endswith("AA") else "BB")
    assert step(client, view, forged, ["roll"], status=403)["error"]["code"] == "NotYours"
    code = view["room"]["code"]
    assert client.get(f"/api/rooms/{code}").json["room"]["version"] == view["room"]["version"]


def test_a_credential_of_another_room_plays_nothing_here(client):
    view, credentials = seated(client)
    elsewhere = make_room(client)["you"]["credential"]
    assert step(client, view, elsewhere, ["roll"], status=403)["error"]["code"] == "NotYours"


def test_a_step_against_an_older_version_is_refused_with_the_room_as_it_is(client):
    view, credentials = seated(client)
    mover = credentials[view["turn"]]
    moved = step(client, view, mover, ["roll"])
    stale = step(client, view, mover, ["roll"], status=409)
    assert stale["error"]["code"] == "Stale"
    assert stale["room"]["room"]["version"] == moved["room"]["version"]
    assert stale["room"]["steps"] == moved["steps"]


def polled_in_between(monkeypatch) -> list:
    """A phone's poll marks it seen between a request's read of the room and its
    write, once: the write then finds the room changed. Returns the writes tried."""
    from app.rooms import Rooms
    original, tried = Rooms.write, []

    def write(self, room, now, **changes):
        if not tried:
            self.seen(self.get(room.code), min(room.members), now, room.due)
        tried.append(room.rev)
        return original(self, room, now, **changes)

    monkeypatch.setattr(Rooms, "write", write)
    return tried


def test_a_step_sent_as_another_phone_is_seen_plays_the_first_time(client, monkeypatch):
    view, credentials = seated(client)
    tried = polled_in_between(monkeypatch)
    played = step(client, view, credentials[view["turn"]], ["roll"])
    assert played["steps"] == view["steps"] + 1 and played["last_roll"]
    assert len(tried) == 2  # lost to the poll's write, then played on the room as it is


def test_a_join_as_another_phone_is_seen_takes_its_seat_the_first_time(client, monkeypatch):
    made = make_room(client, PLAYERS[:2])
    tried = polled_in_between(monkeypatch)
    joined = join(client, made["room"]["code"], name="Ben", color="red")
    assert [s["name"] for s in joined["seats"]] == ["Ana", "Ben"]
    assert len(tried) == 2  # lost to the poll's write, then seated on the room as it is


def test_of_six_phones_sending_the_same_step_at_once_exactly_one_wins(app):
    clients = [app.test_client() for _ in range(6)]
    view, credentials = seated(clients[0])
    mover = credentials[view["turn"]]
    answers = [None] * 6
    start = threading.Barrier(6)

    def send(i):
        start.wait()
        answers[i] = clients[i].post(f"/api/rooms/{view['room']['code']}/steps",
                                     json={"version": view["room"]["version"],
                                           "credential": mover, "steps": ["roll"]})

    threads = [threading.Thread(target=send, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200] + [409] * 5
    winner = next(a.json for a in answers if a.status_code == 200)
    for lost in (a.json for a in answers if a.status_code == 409):
        assert lost["room"]["room"]["version"] >= winner["room"]["version"] or \
            lost["error"]["code"] == "Stale"
    now = clients[0].get(f"/api/rooms/{view['room']['code']}").json
    assert now["token"] == winner["token"] and now["steps"] == view["steps"] + 1
    assert Game.from_token(now["token"], KEYS).position() == winner["position"]


def test_a_bot_seat_plays_in_the_room_when_its_turn_comes(client):
    made = make_room(client, [{"name": "Ana", "color": "yellow"},
                              {"color": "red", "bot": "medium"}], start=True)
    view, credential = made, made["you"]["credential"]
    bot = next(s["seat"] for s in made["seats"] if s["bot"])
    for _ in range(40):
        before = view["steps"]
        view = step(client, view, credential)
        bots = [e for e in view["replay"]["events"] if e["seat"] == bot]
        if bots:
            break
    assert bots and view["turn"] != bot
    assert view["replay"]["start"] == before
    assert bots[0]["kind"] == "roll"  # the bot's whole turn, from its roll, for the phones


def test_a_re_roll_claim_works_in_a_room(client):
    """Red Arse's re-roll: the ticket goes to the mover's phone, and claiming it rolls again."""
    view, credential = red_arse_until_claim(client)
    assert view["claim"]["seconds"] == 5
    claimed = step(client, view, credential, [{"claim": view["claim"]["ticket"]}, "roll"])
    events = claimed["replay"]["events"]  # then the bot's turn, if the roll ended this one
    assert [(e["kind"], e["seat"]) for e in events[:2]] == [("claim", view["turn"]),
                                                             ("roll", view["turn"])]


# -- a link game, opened as a room -----------------------------------------------------------------

def test_a_link_game_goes_on_in_a_room_and_its_links_then_only_read(client):
    made = client.post("/api/games", json={"game": "parcheesi", "players": PLAYERS[:2]}).json
    token = made["token"]
    opened = client.post(f"/api/games/{token}/room", json={"seat": made["turn"]})
    assert opened.status_code == 201, opened.json
    room = opened.json
    assert room["you"]["seat"] == made["turn"] and room["steps"] == made["steps"]
    # The same game, its dice already rolled for the player; from now on played by hand.
    keys = client.application.config["KEYS"]
    assert link.decode(room["token"], keys)[0] == replace(link.decode(token, keys)[0],
                                                          by_hand=True)
    assert room["phase"] == "move" and room["dice"] == made["dice"]
    refused = client.post(f"/api/games/{token}/turn", json={"seat": made["turn"],
                                                            "steps": ["roll"]})
    assert refused.status_code == 409
    assert room["room"]["code"] in refused.json["error"]["message"]
    assert client.get(f"/api/games/{token}").json["room"] == room["room"]["code"]
    again = client.post(f"/api/games/{token}/room", json={"seat": made["turn"]})
    assert again.status_code == 409  # one room per game
    move = room["legal"][0]
    played = step(client, room, room["you"]["credential"],
                  [{"from": move["from"], "to": move["to"], "values": move["values"]}])
    assert played["steps"] == room["steps"] + 1


def test_only_the_player_to_move_opens_their_link_as_a_room(client):
    made = client.post("/api/games", json={"game": "parcheesi", "players": PLAYERS[:2]}).json
    other = 1 - made["turn"]
    refused = client.post(f"/api/games/{made['token']}/room", json={"seat": other})
    assert refused.status_code == 409 and refused.json["error"]["code"] == "WrongSeat"


# -- bad input --------------------------------------------------------------------------------------

@pytest.mark.parametrize("body", [
    {"version": "1", "credential": "x", "steps": ["roll"]},
    {"version": 1, "credential": "x", "steps": "roll"},
    {"version": 1, "credential": "x", "steps": []},
    {"version": 1, "credential": "x", "steps": ["roll"] * 5},
])
def test_a_malformed_step_is_a_400(client, body):
    made = make_room(client)
    response = client.post(f"/api/rooms/{made['room']['code']}/steps", json=body)
    assert response.status_code == 400


def test_an_illegal_move_is_a_422_and_changes_nothing(client):
    view, credentials = seated(client)
    moved = step(client, view, credentials[view["turn"]],
                 [{"from": 0, "to": 90, "values": [6]}], status=422)
    assert moved["error"]["code"] == "TurnError"
    code = view["room"]["code"]
    assert client.get(f"/api/rooms/{code}").json["room"]["version"] == view["room"]["version"]


@pytest.mark.parametrize("path", ["/api/rooms/ABC234/join", "/api/rooms/ABC234/steps"])
def test_posting_to_an_unknown_room_is_a_404(client, path):
    response = client.post(path, json={"version": 1, "steps": ["roll"]})
    assert response.status_code == 404 and response.json["error"]["code"] == "NoRoom"


@pytest.mark.parametrize("code", ["abc", "ABCDEFG", "ABC10O", "%00%00", "A" * 300])
def test_codes_that_cant_be_codes_are_404s_never_500s(client, code):
    assert client.get(f"/api/rooms/{code}").status_code == 404


def test_a_bad_me_is_a_400(client):
    response = client.post("/api/rooms", json={
        "game": "parcheesi", "me": 1,
        "players": [{"name": "Ana", "color": "yellow"}, {"color": "red", "bot": "easy"}]})
    assert response.status_code == 400 and "\"me\"" in response.json["error"]["message"]


def test_the_room_page_shows_the_code_and_is_a_friendly_page_for_a_gone_room(client):
    made = make_room(client)
    code = made["room"]["code"]
    page = client.get(f"/r/{code.lower()}").get_data(as_text=True)
    assert re.search(rf'id="roomcode"[^>]*>{code}<', page)
    assert re.search(r'<script type="module" src="/static/(bundle|js)/room\.[0-9a-f]{12}\.js"', page)


# -- rate limits -----------------------------------------------------------------------------------

def test_making_rooms_and_missing_codes_are_limited_per_address(store_url, clock):
    app = create_app({"KEYS": KEYS, "TESTING": True, "STORE_URL": store_url, "CLOCK": clock,
                      "ROOMS_PER_ADDRESS": "3 per hour", "ROOM_MISSES_PER_ADDRESS": "5 per minute"})
    client = app.test_client()
    made = [client.post("/api/rooms", json={"game": "parcheesi", "players": PLAYERS})
            for _ in range(4)]
    assert [r.status_code for r in made] == [201, 201, 201, 429]
    assert made[-1].headers.get("Retry-After")
    code = made[0].json["room"]["code"]
    misses = [client.get("/api/rooms/ABC234").status_code for _ in range(6)]
    assert misses == [404] * 5 + [429]
    assert client.get(f"/api/rooms/{code}").status_code == 429  # trying codes: a pause for all
    other = app.test_client()
    other_address = {"REMOTE_ADDR": "10.0.0.2"}
    assert other.get(f"/api/rooms/{code}", environ_base=other_address).status_code == 200


def test_polls_that_find_their_room_are_never_limited(store_url, clock):
    app = create_app({"KEYS": KEYS, "TESTING": True, "STORE_URL": store_url, "CLOCK": clock,
                      "ROOM_MISSES_PER_ADDRESS": "5 per minute"})
    client = app.test_client()
    code = make_room(client)["room"]["code"]
    assert {client.get(f"/api/rooms/{code}").status_code for _ in range(30)} == {200}


def test_limits_are_one_count_for_two_app_instances_on_one_store(store_url, clock):
    """Two workers (or Lambda instances) share the store's counters: 10 misses a minute from
    one address in all, whichever instance answers; the next minute counts afresh."""
    config = {"KEYS": KEYS, "TESTING": True, "STORE_URL": store_url, "CLOCK": clock,
              "ROOM_MISSES_PER_ADDRESS": "10 per minute"}
    one, two = create_app(config).test_client(), create_app(config).test_client()
    clock.now = 60 * (NOW // 60)  # the start of a minute
    misses = [(one if i % 2 else two).get("/api/rooms/ABC234").status_code for i in range(12)]
    assert misses == [404] * 10 + [429] * 2
    clock.now += 60
    assert one.get("/api/rooms/ABC234").status_code == 404


def test_code_guessing_is_bounded_per_ipv6_network_and_for_the_whole_deployment(store_url,
                                                                               clock):
    app = create_app({"KEYS": KEYS, "TESTING": True, "STORE_URL": store_url, "CLOCK": clock,
                      "ROOM_MISSES_PER_ADDRESS": "5 per minute",
                      "ROOM_MISSES_PER_NETWORK": "8 per minute",
                      "ROOM_MISSES_IN_ALL": "12 per minute"})
    client = app.test_client()
    clock.now = 60 * (NOW // 60)

    def miss(address):
        return client.get("/api/rooms/ABC234", environ_base={"REMOTE_ADDR": address}).status_code

    # Four /64s of one /48: the /48 stops them at 8, though each /64 has 5.
    network = [miss(f"2001:db8:1:{n}::1") for n in range(4) for _ in range(3)]
    assert network.count(404) == 8 and network[-1] == 429
    # Many IPv4 addresses: the deployment's ceiling stops them at 12 misses in all.
    spread = [miss(f"198.51.100.{n}") for n in range(10)]
    assert spread.count(404) == 4 and spread[-1] == 429
    seated = make_room(client, [{"name": "Ana", "color": "yellow"},
                                {"color": "red", "bot": "easy"}], start=True)
    code, credential = seated["room"]["code"], seated["you"]["credential"]
    # A phone seated in a room still polls it (its credential shows it knows the code).
    assert client.get(f"/api/rooms/{code}", headers={"X-Seat": credential}).status_code == 200
    assert client.get(f"/api/rooms/{code}").status_code == 429  # a stranger: refused
    assert step(client, seated, credential)  # its steps too (the credential in the body)


def test_the_client_address_is_the_trusted_proxy_s_not_a_header_the_client_sent(store_url,
                                                                                clock):
    """Behind one trusted proxy (PROXY_HOPS=1), clients are told apart by the address the proxy
    saw; with no proxy setting, X-Forwarded-For is never believed."""
    config = {"KEYS": KEYS, "TESTING": True, "STORE_URL": store_url, "CLOCK": clock,
              "ROOM_MISSES_PER_ADDRESS": "2 per minute"}
    clock.now = 60 * (NOW // 60)
    behind = create_app(dict(config, PROXY_HOPS=1)).test_client()
    proxy = {"REMOTE_ADDR": "10.0.0.1"}

    def miss(client, forwarded):
        return client.get("/api/rooms/ABC234", environ_base=proxy,
                          headers={"X-Forwarded-For": forwarded}).status_code

    assert [miss(behind, "203.0.113.1") for _ in range(3)] == [404, 404, 429]
    assert miss(behind, "203.0.113.2") == 404  # another client behind the same proxy
    assert miss(behind, "9.9.9.9, 203.0.113.1") == 429  # a forged hop before the real one
    direct = create_app(config).test_client()
    assert [miss(direct, f"192.0.2.{n}") for n in range(3)][-1] == 429  # all one address



def test_a_port_or_brackets_a_proxy_writes_never_make_a_new_client(store_url, clock):
    """Load balancers that write ``ip:port`` in X-Forwarded-For: each connection's port is no
    new client, an IPv6 address with a port still counts for its /48, and anything that isn't
    an address is one client, not a new one each time."""
    config = {"KEYS": KEYS, "TESTING": True, "STORE_URL": store_url, "CLOCK": clock,
              "PROXY_HOPS": 1, "ROOM_MISSES_PER_ADDRESS": "2 per minute",
              "ROOM_MISSES_PER_NETWORK": "3 per minute"}
    clock.now = 60 * (NOW // 60)
    client = create_app(config).test_client()

    def miss(forwarded):
        return client.get("/api/rooms/ABC234", environ_base={"REMOTE_ADDR": "10.0.0.1"},
                          headers={"X-Forwarded-For": forwarded}).status_code

    assert [miss(f"203.0.113.1:{port}") for port in (5000, 5001, 5002)] == [404, 404, 429]
    assert miss("203.0.113.1") == 429  # the same client without a port
    assert [miss(f"[2001:db8:1:{n}::1]:{443 + n}") for n in range(4)] == [404] * 3 + [429]
    assert miss("2001:db8:1:9::1") == 429  # the same /48, written bare
    assert [miss(text) for text in ("not-an-address", "[nope]:1", "a:b:c")] == [404, 404, 429]


# -- what a room holds ------------------------------------------------------------------------------

def test_a_code_drawn_again_after_its_room_expired_lets_no_old_credential_in(app, client, clock):
    from app.rooms import Rooms
    from app.web.bookkeeping import store

    made = make_room(client, PLAYERS[:2])
    code, old = made["room"]["code"], made["you"]["credential"]
    clock.now += ROOM_DAYS * 24 * 3600 + 1
    with app.app_context():
        rooms = Rooms(store(), KEYS)
        again = rooms.create(made["token"], 0, 0, clock.now, codes=[code])
        assert again.code == code
        assert rooms.color_of(again, old) is None
        assert rooms.color_of(again, rooms.credential(again, 0)) == 0


def test_a_live_code_is_never_given_twice(app, client):
    from app.rooms import RoomFull, Rooms
    from app.web.bookkeeping import store

    made = make_room(client)
    with app.app_context(), pytest.raises(RoomFull):
        Rooms(store(), KEYS).create(made["token"], 0, 0, NOW, codes=[made["room"]["code"]])


def test_what_a_room_holds_is_bounded(app):
    from app.rooms import MAX_ROOM_BYTES, Rooms
    from app.web.bookkeeping import store

    with app.app_context(), pytest.raises(ValueError):
        Rooms(store(), KEYS).create("x" * MAX_ROOM_BYTES, 0, 0, NOW)


# -- found in review: each of these once forked a game, leaked a roll or lost a seat -----------------

def test_a_link_game_that_goes_live_while_its_turn_is_sent_is_not_forked(client, api,
                                                                         monkeypatch):
    """The room is made between /turn's read of the ledger and its write: /turn must not
    retry its way past the room."""
    from app.ledger import Ledger

    made = api.create(players=PLAYERS[:2])
    token, seat = made["token"], made["turn"]
    turn, _ = api.play_turn(made)
    advance, opened = Ledger.advance, {}

    def racing(self, *args, **kwargs):
        if not opened:
            opened.update(client.post(f"/api/games/{token}/room", json={"seat": seat}).json)
        return advance(self, *args, **kwargs)

    monkeypatch.setattr(Ledger, "advance", racing)
    sent = client.post(f"/api/games/{token}/turn", json={"seat": seat, "steps": turn})
    assert sent.status_code == 409 and opened["room"]["code"] in sent.json["error"]["message"]
    assert step(client, opened, opened["you"]["credential"], ["roll"])["steps"] == 1


def test_steps_tried_on_a_rooms_link_are_refused_so_nobody_sees_the_dice_to_come(client):
    made = make_room(client)
    tried = client.get(f"/api/games/{made['token']}/chances?steps=%5B%22roll%22%5D")
    assert tried.status_code == 409 and made["room"]["code"] in tried.json["error"]["message"]


@pytest.mark.parametrize("since", ["%C2%B2", "-1", "1234567", "x"])
def test_a_bad_since_is_a_400_before_anything_is_written(client, since):
    view, credentials = seated(client)
    code = view["room"]["code"]
    response = client.post(f"/api/rooms/{code}/steps?since={since}", json={
        "version": view["room"]["version"], "credential": credentials[view["turn"]],
        "steps": ["roll"]})
    assert response.status_code == 400
    assert client.get(f"/api/rooms/{code}?since={since}").status_code == 400
    assert client.get(f"/api/rooms/{code}").json["room"]["version"] == view["room"]["version"]


def test_a_name_too_long_to_join_with_is_a_400(client):
    made = make_room(client)
    response = client.post(f"/api/rooms/{made['room']['code']}/join", json={"name": "A" * 30})
    assert response.status_code == 400
    assert response.json["error"]["message"] == "A name has at most 24 characters."


def test_a_browser_that_lost_its_joins_answer_gets_its_seat_back(client):
    made = make_room(client)
    code = made["room"]["code"]
    client.get(f"/r/{code}")  # the page gives this browser its device cookie
    first = join(client, code, name="Ben")
    again = join(client, code, name="Ben")  # the answer was lost: the page asks again
    assert again["you"] == first["you"]
    assert again["room"]["version"] == first["room"]["version"]


def test_a_join_during_a_re_roll_window_leaves_the_ticket_good(app, client):
    """Naming a seat changes the room's link, not the re-roll the player is claiming."""
    from app.rooms import Rooms
    from app.web.bookkeeping import store

    view, credential = red_arse_until_claim(client)
    with app.app_context():  # as a join would: the same game, a seat renamed
        rooms = Rooms(store(), KEYS)
        room = rooms.get(view["room"]["code"])
        game = Game.from_token(room.token, KEYS)
        bot = next(i for i, s in enumerate(game.header.seats) if s.bot)
        renamed = game.with_seats([replace(s, name="Robo") if i == bot else s
                                   for i, s in enumerate(game.header.seats)])
        rooms.write(room, NOW, token=renamed.token())
    view = client.get(f"/api/rooms/{view['room']['code']}").json | {"claim": view["claim"]}
    claimed = step(client, view, credential, [{"claim": view["claim"]["ticket"]}, "roll"])
    assert claimed["replay"]["events"][0]["kind"] == "claim"


def test_anyone_seated_lets_a_re_roll_go_once_its_window_is_long_past(client, clock):
    made = make_room(client, [{"name": "Ana", "color": "red"}, {"name": "", "color": "blue"}],
                     game="red-arse", settings={"board": 4})
    code = made["room"]["code"]
    ben = join(client, code, name="Ben")
    credentials = {made["you"]["seat"]: made["you"]["credential"],
                   ben["you"]["seat"]: ben["you"]["credential"]}
    view = started(client, ben, made["you"]["credential"])
    for _ in range(600):
        if view["phase"] == "claim":
            break
        view = step(client, view, credentials[view["turn"]])
    assert view["phase"] == "claim"
    other = credentials[1 - view["turn"]]
    early = step(client, view, other, ["miss"], status=409)
    assert early["error"]["code"] == "WrongSeat"
    clock.now += 9  # the window (5 s) and the grace (3 s) are over
    let_go = step(client, view, other, ["miss"])
    assert let_go["replay"]["events"][0]["kind"] == "miss"


def test_a_ludo_room_is_hosted_by_the_tables_host(client):
    made = make_room(client, [{"name": "Ana", "color": "red"}, {"name": "Ben", "color": "blue"}],
                     game="ludo", settings={"capacity": 4}, host=1, me=0)
    assert made["you"]["seat"] == 0 and made["room"]["host"] == made["host"] == 1


def test_an_ipv6_household_counts_as_one_address(store_url, clock):
    app = create_app({"KEYS": KEYS, "TESTING": True, "STORE_URL": store_url, "CLOCK": clock,
                      "ROOM_MISSES_PER_ADDRESS": "3 per minute"})
    client = app.test_client()
    misses = [client.get("/api/rooms/ABC234",
                         environ_base={"REMOTE_ADDR": f"2001:db8::{n}"}).status_code
              for n in range(1, 6)]
    assert misses == [404, 404, 404, 429, 429]
    other = client.get("/api/rooms/ABC234", environ_base={"REMOTE_ADDR": "2001:db8:0:1::1"})
    assert other.status_code == 404


# -- turn timers: the server's clock, resolved by whichever request finds the time over -------------

def red_arse_with_a_bot(client, start=True, **extra) -> dict:
    return make_room(client, [{"name": "Ana", "color": "red"}, {"color": "blue", "bot": "easy"}],
                     start=start, game="red-arse", settings={"board": 4}, **extra)


def test_each_game_has_its_texts_timer_and_the_maker_may_change_it(client):
    assert red_arse_with_a_bot(client)["room"]["timer"] == 30
    assert make_room(client)["room"]["timer"] == 0  # Parcheesi: none unless chosen
    assert make_room(client, timer_seconds=15)["room"]["timer"] == 15
    ludo = make_room(client, [{"name": "Ana", "color": "red"}, {"name": "Ben", "color": "blue"}],
                     game="ludo", settings={"capacity": 4})
    assert ludo["room"]["timer"] == 10
    # Ludo's text times "rooms without bots": a table with a bot has no timer unless chosen.
    with_bot = [{"name": "Ana", "color": "red"}, {"color": "blue", "bot": "easy"}]
    assert make_room(client, with_bot, game="ludo", settings={"capacity": 4}
                     )["room"]["timer"] == 0
    assert make_room(client, with_bot, game="ludo", settings={"capacity": 4},
                     timer_seconds=10)["room"]["timer"] == 10
    assert red_arse_with_a_bot(client)["room"]["timer"] == 30  # Red Arse's text: bots or not
    for bad in (2, 301, "30", True):
        response = client.post("/api/rooms", json={"game": "parcheesi", "players": PLAYERS,
                                                   "timer_seconds": bad})
        assert response.status_code == 400


def test_a_player_whose_time_runs_out_has_the_turn_played_for_them_once(client, clock):
    made = red_arse_with_a_bot(client)
    code, me = made["room"]["code"], made["you"]["seat"]
    room = made["room"]
    assert made["turn"] == me and room["due"] >= room["now"] + 30
    clock.now = room["due"] - 1
    tag = f'"{code}.{room["version"]}.0"'
    assert client.get(f"/api/rooms/{code}", headers={"If-None-Match": tag}
                      ).status_code == 304  # still time
    clock.now = room["due"] + 1
    poll(client, code, made["you"]["credential"])  # her phone is there: she is slow, not gone
    first = client.get(f"/api/rooms/{code}?since={made['steps']}").json
    again = client.get(f"/api/rooms/{code}").json
    assert first["room"]["version"] == again["room"]["version"] == room["version"] + 1
    mine = [e for e in first["replay"]["events"] if e["seat"] == me]
    assert mine and all(e.get("auto") for e in mine)
    late = step(client, made, made["you"]["credential"], ["roll"], status=409)
    assert late["error"]["code"] == "Stale"  # what was played for them stands


def test_a_players_time_starts_once_the_bots_moves_are_shown(client):
    made = red_arse_with_a_bot(client)
    view = step(client, made, made["you"]["credential"])
    for _ in range(60):
        if view["turn"] == made["you"]["seat"] and view["replay"]["events"] and \
                any(e["seat"] != made["you"]["seat"] for e in view["replay"]["events"]):
            break
        view = step(client, view, made["you"]["credential"])
    room = view["room"]
    assert room["due"] > room["now"] + 30 + 0.5  # the bot's roll, at least, is shown first


def test_two_turns_run_out_in_a_row_and_the_player_is_played_for_until_they_are_back(client,
                                                                                    clock):
    made = red_arse_with_a_bot(client)
    code, me, credential = made["room"]["code"], made["you"]["seat"], made["you"]["credential"]
    view = made
    for _ in range(2):
        assert view["turn"] == me
        view = idle(client, clock, code, view, credential)
    assert view["seats"][me]["away"]
    back = client.post(f"/api/rooms/{code}/back", json={"credential": credential})
    assert back.status_code == 200 and not back.json["seats"][me]["away"]
    again = client.post(f"/api/rooms/{code}/back", json={"credential": credential})
    assert again.status_code == 422
    assert client.post(f"/api/rooms/{code}/back", json={"credential": "x"}).status_code == 403


def test_three_expiries_in_a_row_disqualify_at_a_ludo_table(client, clock):
    made = make_room(client, [{"name": "Ana", "color": "red"}, {"color": "blue", "bot": "easy"},
                              {"color": "green", "bot": "easy"}],
                     start=True, game="ludo", settings={"capacity": 4}, timer_seconds=10)
    code, me = made["room"]["code"], made["you"]["seat"]
    view = made
    assert view["room"]["disqualify_after"] == 3
    for missed in range(3):
        assert view["turn"] == me and not view["seats"][me]["out"]
        assert view["seats"][me]["missed"] == missed  # the room's real count, for her phone
        view = idle(client, clock, code, view, made["you"]["credential"])
    assert view["seats"][me]["out"] and view["phase"] == "over"


def test_the_new_game_form_makes_a_room_with_its_timer(client):
    form = {"game": "parcheesi", "play0": "1", "name0": "Ana", "color0": "yellow",
            "play2": "1", "color2": "red", "room": "1", "room_timer": "10"}
    made = client.post("/new", data=form)
    assert made.status_code == 302
    location = made.headers["Location"]
    code, credential = re.fullmatch(r".*/r/([A-Z0-9]{6})#c=(.+)", location).groups()
    view = client.get(f"/api/rooms/{code}").json
    assert view["room"]["timer"] == 10 and [s["name"] for s in view["seats"]][0] == "Ana"
    assert join(client, code, credential=credential)["you"]["seat"] == 0
    refused = client.post("/new", data={**form, "room_timer": "soon"})
    assert refused.status_code == 400 and b"timer_seconds" in refused.data


def test_anyone_seated_sets_the_bots_speed_for_every_phone_and_it_is_only_shown(client):
    made = red_arse_with_a_bot(client)
    code, credential = made["room"]["code"], made["you"]["credential"]
    assert made["room"]["speed"] == "normal"
    changed = client.post(f"/api/rooms/{code}/speed", json={"credential": credential,
                                                           "speed": "instant"})
    assert changed.status_code == 200 and changed.json["room"]["speed"] == "instant"
    assert changed.json["token"] == made["token"]  # nothing played
    assert client.get(f"/api/rooms/{code}").json["room"]["speed"] == "instant"
    watcher = client.post(f"/api/rooms/{code}/speed", json={"speed": "slow"})
    assert watcher.status_code == 403
    bad = client.post(f"/api/rooms/{code}/speed", json={"credential": credential,
                                                       "speed": "warp"})
    assert bad.status_code == 400
    view = changed.json
    for _ in range(60):  # a bot's turn shown at once: the player's time starts at once too
        view = step(client, view, credential)
        bots = [e for e in view["replay"]["events"] if e["seat"] != made["you"]["seat"]]
        if bots and view["turn"] == made["you"]["seat"]:
            break
    room = view["room"]
    assert bots and room["now"] + 30 <= room["due"] <= room["now"] + 30 + 2


def idle(client, clock, code, view, credential):
    """The player to move (their seat's ``credential``) doesn't play: their time runs out with
    their phone there (it asks after its time: slow, not gone), and a poll plays the turn for
    them."""
    clock.now = view["room"]["due"] + 2
    poll(client, code, credential)
    return client.get(f"/api/rooms/{code}").json


def test_two_players_back_at_once_are_both_back(client, clock):
    made = make_room(client, PLAYERS[:2], timer_seconds=3)
    code = made["room"]["code"]
    ben = join(client, code, name="Ben")
    credentials = [made["you"]["credential"], ben["you"]["credential"]]
    view = started(client, ben, credentials[0])
    while not all(s["away"] for s in view["seats"]):  # each runs out twice
        view = idle(client, clock, code, view, credentials[view["turn"]])
    for credential in credentials:
        back = client.post(f"/api/rooms/{code}/back", json={"credential": credential})
        assert back.status_code == 200, back.json
    assert not any(s["away"] for s in back.json["seats"])


def test_a_new_room_waits_in_its_lobby_until_the_host_starts_it(client, clock):
    """Nobody plays and no timer runs before the host's Start; only the host starts, from two
    players at the table; the seats nobody took leave the game."""
    made = make_room(client, [{"name": "Ana", "color": "red"}, {"name": "", "color": "blue"},
                              {"name": "", "color": "green"}],
                     game="ludo", settings={"capacity": 4})
    code, ana = made["room"]["code"], made["you"]["credential"]
    assert not made["room"]["started"] and made["room"]["due"] is None and made["steps"] == 0
    early = step(client, made, ana, ["roll"], status=422)
    assert early["error"]["message"] == "The game hasn't started yet: Ana starts it."
    alone = started(client, made, ana, status=422)
    assert "two players" in alone["error"]["message"]
    clock.now += 3600  # an hour in the lobby: nothing is played for anyone
    waited = client.get(f"/api/rooms/{code}").json
    assert waited["steps"] == 0 and not waited["room"]["started"]
    ben = join(client, code, name="Ben")
    assert ben["room"]["due"] is None
    refused = started(client, ben, ben["you"]["credential"], status=403)
    assert refused["error"]["code"] == "NotHost" and "Ana" in refused["error"]["message"]
    begun = started(client, ben, ana)
    assert begun["room"]["started"] and begun["room"]["free"] == []
    assert [s["name"] for s in begun["seats"]] == ["Ana", "Ben"]  # green's seat left
    assert begun["room"]["due"] == pytest.approx(clock.now + 10)  # the timer runs now
    assert started(client, begun, ana)["room"]["version"] == begun["room"]["version"]  # twice
    assert step(client, begun, [ana, ben["you"]["credential"]][begun["turn"]], ["roll"])


def test_a_step_on_its_way_when_the_time_runs_out_still_counts(client, clock):
    made = red_arse_with_a_bot(client)
    clock.now = made["room"]["due"] + 0.5  # sent in time, arrived just after
    played = step(client, made, made["you"]["credential"], ["roll"])
    assert played["replay"]["events"][0]["kind"] == "roll"
    assert not played["replay"]["events"][0].get("auto")


# -- presence: polls mark a seat seen; a phone gone is disconnected, and its turn waits ------------

@pytest.fixture
def present_app(store_url, clock):
    return create_app({"KEYS": KEYS, "TESTING": True, "STORE_URL": store_url, "CLOCK": clock,
                       "ROOMS_PER_ADDRESS": "1000 per hour"})


def poll(client, code, credential=None, etag=None):
    headers = {"X-Seat": credential} if credential else {}
    if etag:
        headers["If-None-Match"] = etag
    return client.get(f"/api/rooms/{code}", headers=headers)


def test_polls_mark_a_seat_seen_at_most_every_three_seconds_and_stay_304(present_app, clock):
    from app.rooms import Rooms
    from app.web.bookkeeping import store

    client = present_app.test_client()
    made = make_room(client, PLAYERS[:2])
    code, credential = made["room"]["code"], made["you"]["credential"]
    etag = poll(client, code).headers["ETag"]
    with present_app.app_context():
        before = Rooms(store(), KEYS).get(code).version
    statuses = []
    for _ in range(15):  # 15 polls, one a second, as a visible page asks
        clock.now += 1
        statuses.append(poll(client, code, credential, etag).status_code)
    with present_app.app_context():
        assert Rooms(store(), KEYS).get(code).version - before == 5  # a write every 3 s
    assert set(statuses) == {304}  # nothing the phones show changed


def test_a_phone_gone_is_disconnected_for_the_others_and_back_when_it_asks(present_app, clock):
    client = present_app.test_client()
    made = make_room(client, PLAYERS[:2])
    code, ana = made["room"]["code"], made["you"]["credential"]
    ben = join(client, code, name="Ben")
    seat = made["you"]["seat"]
    for _ in range(9):  # Ben's phone keeps asking; Ana's has gone silent
        clock.now += 1
        seen = poll(client, code, ben["you"]["credential"])
    assert seen.json["room"]["offline"] == [seat]
    etag = seen.headers["ETag"]
    back = poll(client, code, ana, etag)
    assert back.status_code == 200 and back.json["room"]["offline"] == []


def test_a_disconnected_players_turn_waits_two_minutes_then_the_timer_takes_over(
        present_app, clock):
    client = present_app.test_client()
    made = red_arse_with_a_bot(client)  # 30 s a step
    code, me = made["room"]["code"], made["you"]["seat"]
    start = clock.now
    clock.now = made["room"]["due"] + 10  # Ana's phone went silent at once
    waiting = poll(client, code).json
    assert waiting["steps"] == made["steps"] and waiting["room"]["offline"] == [me]
    # two minutes from her last poll, which may have come up to 3 s after she was last marked
    # seen (a seat is marked every 3 s)
    assert waiting["room"]["due"] == pytest.approx(start + 3 + 120, abs=0.01)
    clock.now = start + 3 + 120 + 2
    played = poll(client, code).json
    after = client.get(f"/api/rooms/{code}?since={made['steps']}").json
    ana = [e for e in after["replay"]["events"] if e["seat"] == me]
    assert played["steps"] > made["steps"] and ana and all(e.get("auto") for e in ana)


def test_a_player_back_within_two_minutes_keeps_their_turn_and_gets_their_time(
        present_app, clock):
    client = present_app.test_client()
    made = red_arse_with_a_bot(client)
    code, ana = made["room"]["code"], made["you"]["credential"]
    clock.now = made["room"]["due"] + 60  # gone, their time over, within the two minutes
    back = poll(client, code, ana).json
    assert back["steps"] == made["steps"] and back["turn"] == made["you"]["seat"]
    assert back["room"]["due"] == pytest.approx(clock.now + 30)
    rolled = step(client, back, ana, ["roll"])["replay"]["events"][0]
    assert rolled["kind"] == "roll" and rolled["seat"] == made["you"]["seat"]
    assert not rolled.get("auto")


def gone(client, code, credential):
    response = client.post(f"/api/rooms/{code}/gone", json={"credential": credential})
    assert response.status_code == 204
    return response


def test_a_page_closed_on_its_own_turn_is_disconnected_at_once_and_its_turn_paused(
        present_app, clock):
    """The page says it went (a beacon on pagehide or when hidden): the others see it at
    their next poll; the turn waits two minutes from then, never less; back, the player has
    their time for the step again, and their own phone never shows them gone."""
    client = present_app.test_client()
    made = red_arse_with_a_bot(client)  # 30 s a step
    code, me, ana = made["room"]["code"], made["you"]["seat"], made["you"]["credential"]
    clock.now += 5
    gone(client, code, ana)
    seen = poll(client, code).json
    assert seen["room"]["offline"] == [me] and seen["room"]["due"] == \
        pytest.approx(clock.now + 120)
    gone(client, code, ana)  # said twice (pagehide after hidden): nothing more
    gone(client, code, "not a credential")  # a stranger's beacon: ignored
    clock.now += 119
    assert poll(client, code).json["steps"] == made["steps"]  # not played for her
    back = poll(client, code, ana).json  # she comes back: her page polls, visible
    assert back["room"]["offline"] == [] and back["steps"] == made["steps"]
    assert back["room"]["due"] == pytest.approx(clock.now + 30)
    assert step(client, back, ana, ["roll"])["replay"]["events"][0]["seat"] == me


def ludo_of_two(client) -> tuple[dict, str, str]:
    """A started Ludo room of Ana and Ben (10 s a step): the view, and the credentials of the
    player to move and of the other."""
    made = make_room(client, [{"name": "Ana", "color": "red"}, {"name": "", "color": "blue"}],
                     game="ludo", settings={"capacity": 4})
    ben = join(client, made["room"]["code"], name="Ben")
    view = started(client, ben, made["you"]["credential"])
    phones = {made["you"]["seat"]: made["you"]["credential"],
              ben["you"]["seat"]: ben["you"]["credential"]}
    return view, phones[view["turn"]], phones[1 - view["turn"]]


def test_a_phone_that_goes_silent_on_its_turn_pauses_it_whatever_the_second_it_drops(
        present_app, clock):
    """Ludo's text: a disconnection may reconnect for two minutes, and meanwhile the turn
    waits. The mover's phone asks every second for the first seconds of its 10 s, then its
    network goes; the other phone asks every second. For a drop at every second of the turn:
    the other phone sees the mover disconnected once their time has run out, the turn is
    never played for them within two minutes of their last poll, and back, their time is
    whole again and they play their own roll."""
    client = present_app.test_client()
    for drop in range(10):
        view, mover, other = ludo_of_two(client)
        code, seat, start = view["room"]["code"], view["turn"], clock.now
        assert view["room"]["due"] == pytest.approx(start + 10, abs=0.01)
        for second in range(1, 10 + 3 + 1):  # the turn's 10 s, and the 3 s that tell
            clock.now = start + second
            if second <= drop:
                seen = poll(client, code, mover).json
                assert seen["room"]["offline"] == []
            seen = poll(client, code, other).json
            assert seen["steps"] == view["steps"], f"dropped at {drop} s, played at {second} s"
        assert seen["room"]["offline"] == [seat], f"dropped at {drop} s"
        assert seen["room"]["due"] >= start + drop + 120
        clock.now = start + drop + 119.5
        assert poll(client, code, other).json["steps"] == view["steps"]
        back = poll(client, code, mover).json
        assert back["room"]["offline"] == [] and back["turn"] == seat
        assert back["room"]["due"] == pytest.approx(clock.now + 10, abs=0.01)
        rolled = step(client, back, mover, ["roll"])["replay"]["events"][0]
        assert rolled["seat"] == seat and not rolled.get("auto")


def test_a_slow_player_whose_phone_keeps_asking_is_played_for_at_their_time(present_app,
                                                                            clock):
    """Not disconnected, slow: their phone asks every second, so the turn is played for them a
    second or two after their time, and nobody sees them disconnected."""
    client = present_app.test_client()
    view, mover, other = ludo_of_two(client)
    code, seat, start = view["room"]["code"], view["turn"], clock.now
    for second in range(1, 10 + 3):
        clock.now = start + second
        poll(client, code, mover)
        seen = poll(client, code, other).json
        assert seen["room"]["offline"] == []
        if seen["steps"] > view["steps"]:
            break
    assert 10 < second <= 12 and seen["turn"] != seat
    assert client.get(f"/api/rooms/{code}?since={view['steps']}").json["replay"]["events"][0][
        "auto"]


def test_a_page_reloaded_on_its_turn_keeps_the_time_it_had(present_app, clock):
    """A reload says the page went (its beacon) and comes back a moment later: the server's
    deadline stands, no fresh time."""
    client = present_app.test_client()
    view, mover, _ = ludo_of_two(client)
    code, due = view["room"]["code"], view["room"]["due"]
    clock.now += 4
    poll(client, code, mover)
    gone(client, code, mover)
    clock.now += 1
    back = poll(client, code, mover).json
    assert back["room"]["offline"] == [] and back["room"]["due"] == due


def test_a_hidden_page_s_polls_keep_its_seat_disconnected(present_app, clock):
    client = present_app.test_client()
    made = red_arse_with_a_bot(client)
    code, me, ana = made["room"]["code"], made["you"]["seat"], made["you"]["credential"]
    gone(client, code, ana)
    for _ in range(3):  # the page, hidden, polls every 15 s without saying who it is
        clock.now += 15
        assert poll(client, code).json["room"]["offline"] == [me]
    assert poll(client, code, ana).json["room"]["offline"] == []


# -- leaving ---------------------------------------------------------------------------------------

def three_in_a_room(client):
    made = make_room(client)
    code = made["room"]["code"]
    ben = join(client, code, name="Ben", color="red")
    cleo = join(client, code, name="Cleo", color="green")
    return code, {"Ana": made["you"], "Ben": ben["you"], "Cleo": cleo["you"]}, \
        started(client, cleo, made["you"]["credential"])


def leave(client, code, credential, status=200):
    response = client.post(f"/api/rooms/{code}/leave", json={"credential": credential})
    assert response.status_code == status, response.json
    return response.json


def test_a_player_who_leaves_frees_the_seat_and_the_server_plays_its_turns(client):
    code, you, view = three_in_a_room(client)
    left = leave(client, code, you["Ben"]["credential"])
    seat = you["Ben"]["seat"]
    assert seat in left["room"]["free"] and seat not in left["room"]["members"]
    for _ in range(60):  # the others play on; Ben's turns are played for him
        if any(e["seat"] == seat for e in left["replay"]["events"]):
            break
        mover = next(v for v in you.values() if v["seat"] == left["turn"])
        left = step(client, left, mover["credential"])
    bens = [e for e in left["replay"]["events"] if e["seat"] == seat]
    assert bens and all(e.get("auto") for e in bens)
    assert left["turn"] != seat
    assert leave(client, code, you["Ben"]["credential"], status=403)["error"]["code"] == \
        "NotYours"  # leaving twice


def test_the_host_leaving_passes_the_room_to_who_joined_earliest(client):
    code, you, _ = three_in_a_room(client)
    assert client.get(f"/api/rooms/{code}").json["room"]["host"] == you["Ana"]["seat"]
    left = leave(client, code, you["Ana"]["credential"])
    assert left["room"]["host"] == you["Ben"]["seat"]


def test_the_last_to_leave_closes_the_room_and_a_later_visit_says_so(client):
    code, you, _ = three_in_a_room(client)
    for name in ("Ana", "Ben"):
        leave(client, code, you[name]["credential"])
    assert leave(client, code, you["Cleo"]["credential"]) == {"closed": True, "code": code}
    gone = client.get(f"/api/rooms/{code}")
    assert gone.status_code == 404 and "closed" in gone.json["error"]["message"]
    page = client.get(f"/r/{code}")
    assert page.status_code == 200 and b"everyone left" in page.data


# -- a rematch at a Ludo table ---------------------------------------------------------------------

def test_the_host_starts_a_rematch_at_a_finished_ludo_table_in_the_same_room(client):
    made = make_room(client, [{"name": "Ana", "color": "red"}, {"color": "blue", "bot": "easy"}],
                     start=True, game="ludo", settings={"capacity": 4}, timer_seconds=0)
    code, ana = made["room"]["code"], made["you"]["credential"]
    early = client.post(f"/api/rooms/{code}/rematch", json={"credential": ana})
    assert early.status_code == 422  # the game goes on
    view = made
    for _ in range(3000):
        if view["phase"] == "over":
            break
        view = step(client, view, ana)
    assert view["phase"] == "over"
    nobody = client.post(f"/api/rooms/{code}/rematch", json={})
    assert nobody.status_code == 403 and nobody.json["error"]["code"] == "NotHost"
    again = client.post(f"/api/rooms/{code}/rematch", json={"credential": ana})
    assert again.status_code == 200, again.json
    fresh = again.json
    assert fresh["phase"] != "over" and fresh["seed"] != view["seed"]
    assert fresh["room"]["code"] == code and fresh["room"]["members"] == made["room"]["members"]
    assert sum(map(sum, (s["medals"] for s in fresh["seats"]))) > 0  # the medals carried over
    assert join(client, code, credential=ana)["you"]["seat"] == made["you"]["seat"]
    link = client.post(f"/api/games/{fresh['token']}/turn",
                       json={"seat": fresh["turn"], "steps": ["roll"]})
    assert link.status_code == 409  # the new game is the room's too: its links only read


def test_a_player_back_after_the_window_finds_the_turns_played_and_says_im_back(present_app,
                                                                             clock):
    client = present_app.test_client()
    made = make_room(client, PLAYERS[:2], timer_seconds=10)
    code = made["room"]["code"]
    ben = join(client, code, name="Ben")
    me = made["you"]["seat"]
    credentials = {me: made["you"]["credential"], ben["you"]["seat"]: ben["you"]["credential"]}
    other = credentials[1 - me]
    view = started(client, ben, made["you"]["credential"])
    for _ in range(40):  # Ana's phone is gone for good; Ben's keeps asking and plays
        if view["seats"][me]["away"]:
            break
        clock.now += 30
        view = poll(client, code, other).json
        if view["turn"] != me and view["phase"] != "over":
            view = step(client, view, other)
    assert view["seats"][me]["away"]  # her turns ran out twice, after the two minutes
    back = poll(client, code, credentials[me]).json
    assert back["seats"][me]["away"] and me not in back["room"]["offline"]
    said = client.post(f"/api/rooms/{code}/back", json={"credential": credentials[me]})
    assert said.status_code == 200 and not said.json["seats"][me]["away"]


def test_changing_the_bots_speed_is_bounded_per_address(store_url, clock):
    app = create_app({"KEYS": KEYS, "TESTING": True, "STORE_URL": store_url, "CLOCK": clock,
                      "ROOM_SPEEDS_PER_ADDRESS": "3 per hour"})
    client = app.test_client()
    made = red_arse_with_a_bot(client)
    code, credential = made["room"]["code"], made["you"]["credential"]
    statuses = [client.post(f"/api/rooms/{code}/speed", json={"credential": credential,
                                                              "speed": speed}).status_code
                for speed in ("fast", "slow", "fast", "slow")]
    assert statuses == [200, 200, 200, 429]
