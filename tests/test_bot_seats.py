"""Bot seats in link games, through the API: the server plays the bots' turns as soon as the turn
reaches them, so every link goes to a human (or ends the game), and replaying the link replays
the bots' moves."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import app.play
from app.keys import Keys
from app.link import Seat
from app.play import Game
from app.web.views import simulated_ending
from api_support import host_key

KEYS = Keys.for_tests("bot seats")
SIMULATED = ("Since the humans had already finished, the ending between the bots was simulated "
             "to decide their placings.")



@pytest.fixture
def keys():
    """The keys this module's links are made with: its app's too."""
    return KEYS


def seeded(monkeypatch, seed: bytes) -> None:
    """The next games the API creates get ``seed`` (its dice, so the test knows them)."""
    monkeypatch.setattr(app.play, "secrets", SimpleNamespace(token_bytes=lambda n: seed))


def api_step(kind, seat, what):
    if kind == "roll":
        return "roll"
    if kind in ("claim", "miss"):
        return "miss"  # a person lets the re-roll go (a claim needs the clock)
    return {"from": what.src, "to": what.dst, "values": list(what.values)}


def human_turn(token: str, choose=lambda game: 0):
    """The human to move's whole turn at ``token`` (``choose`` picks each move's index; re-rolls
    are let go), as the API takes it: (seat, steps)."""
    game = Game.from_token(token, KEYS)
    seat, start = game.match.turn, len(game.match.history)
    while not game.over and game.match.turn == seat:
        phase = game.match.phase
        game.step(1 if phase == "claim" else choose(game) if phase == "move" else 0)
    return seat, [api_step(*entry) for entry in game.match.history[start:]]


def send_turn(client, view, choose=lambda game: 0):
    seat, steps = human_turn(view["token"], choose)
    response = client.post(f"/api/games/{view['token']}/turn", json={"seat": seat, "steps": steps})
    assert response.status_code == 200, response.json
    return seat, steps, response.json


def seat_game(game: str, seats: list[Seat], seed: bytes, options: int = 0) -> Game:
    return Game.new(game, seats, KEYS, seed=seed, options=options, by_hand=True)


def find_seed(game: str, seats: list[Seat], wanted, options: int = 0, tries: int = 300) -> bytes:
    """The first seed whose new game, once its bots to move first have played, satisfies
    ``wanted(game)``."""
    for number in range(tries):
        seed = number.to_bytes(8, "big")
        played = seat_game(game, seats, seed, options)
        played.play_bots()
        if wanted(played):
            return seed
    raise AssertionError("no seed gives the situation the test needs")


LUDO_TABLE = [{"name": "Ana", "color": "red"}, {"color": "blue", "bot": "medium"},
              {"name": "Cleo", "color": "green"}, {"color": "yellow", "bot": "hard"}]
LUDO_SEATS = [Seat("Ana", 0), Seat("Bot (medium)", 1, bot=2), Seat("Cleo", 2),
              Seat("Bot (hard)", 3, bot=3)]


# -- creating a game with bots -------------------------------------------------------------------

def test_players_can_be_bots_of_a_strength_named_for_it_when_unnamed(api):
    view = api.create("ludo", [{"name": "Ana", "color": "red"}, {"color": "blue", "bot": "easy"},
                               {"color": "green", "bot": "medium"},
                               {"name": "Robo", "color": "yellow", "bot": "hard"}])
    assert [(s["name"], s["bot"], s["strength"]) for s in view["seats"]] == [
        ("Ana", 0, None), ("Bot (easy)", 1, "easy"), ("Bot (medium)", 2, "medium"),
        ("Robo", 3, "hard")]
    assert view["turn"] == 0 and view["seats"][view["host"]]["name"] == "Ana"
    # The bots travel in the link.
    header = Game.from_token(view["token"], KEYS).header
    assert [s.bot for s in header.seats] == [0, 1, 2, 3]
    assert not any(s.phone for s in header.seats)


def test_unnamed_bots_of_one_strength_are_numbered_and_named_in_the_table_s_language(api):
    view = api.create("ludo", [{"color": "red", "bot": "medium"}, {"name": "Ana", "color": "blue"},
                               {"color": "green", "bot": "medium"},
                               {"color": "yellow", "bot": "hard"}], lang="es")
    assert [s["name"] for s in view["seats"]] == ["Bot 1 (intermedio)", "Ana",
                                                  "Bot 3 (intermedio)", "Bot (difícil)"]
    assert view["seats"][view["host"]]["name"] == "Ana"  # the first human: bots host nothing


@pytest.mark.parametrize("game,colors", [("parcheesi", ("yellow", "blue", "red", "green")),
                                         ("red-arse", ("red", "blue", "green", "yellow"))])
def test_every_game_takes_bots(client, api, game, colors):
    players = [{"name": "Ana", "color": colors[0]}] + [
        {"color": c, "bot": s} for c, s in zip(colors[1:], ("easy", "medium", "hard"))]
    view = api.create(game, players)
    assert [s["bot"] for s in view["seats"]] == [0, 1, 2, 3]
    assert view["seats"][view["turn"]]["bot"] == 0  # a human is to move
    assert all(event["seat"] for event in client.get(
        f"/api/games/{view['token']}").json["replay"]["events"])  # only bots have played


def test_bots_to_move_first_play_at_creation_and_the_first_link_goes_to_the_first_human(
        client, api, monkeypatch):
    seats = [Seat("Ana", 0), Seat("Bot (easy)", 1, bot=1), Seat("Bot (medium)", 2, bot=2),
             Seat("Bot (hard)", 3, bot=3)]
    seed = find_seed("ludo", seats, lambda g: len(g.match.history) > 3)
    seeded(monkeypatch, seed)
    view = api.create("ludo", [{"name": "Ana", "color": "red"}, {"color": "blue", "bot": "easy"},
                               {"color": "green", "bot": "medium"},
                               {"color": "yellow", "bot": "hard"}])
    assert view["turn"] == 0 and view["steps"] > 3 and view["phase"] == "roll"
    assert view["message"]["to"] == "Ana" and "invited" in view["message"]["text"]
    expected = seat_game("ludo", seats, seed)
    expected.play_bots()
    assert Game.from_token(view["token"], KEYS).position() == expected.position()
    # Ana's page shows every bot move so far, and the creator's page still offers the invite.
    read = client.get(f"/api/games/{view['token']}?invite=1").json
    assert read["replay"]["start"] == 0
    assert [e["seat"] for e in read["replay"]["events"]] == \
        [seat for _, seat, _ in expected.match.history]
    assert read["message"]["to"] == "Ana"


# -- a turn, then the bots' ----------------------------------------------------------------------

def test_a_turn_plays_the_bots_until_a_human_is_to_move(client, api, monkeypatch):
    seed = find_seed("ludo", LUDO_SEATS, lambda g: not g.match.steps and g.match.turn == 0)
    seeded(monkeypatch, seed)
    view = api.create("ludo", LUDO_TABLE)
    assert view["turn"] == 0 and view["steps"] == 0
    seat, steps, after = send_turn(client, view)
    assert after["turn"] == 2  # the medium bot (blue) played, then Cleo
    replay = after["replay"]
    assert replay["start"] == len(steps)
    assert replay["events"] and {e["seat"] for e in replay["events"]} == {1}
    mine = Game.from_token(view["token"], KEYS)  # where Ana's own turn left the pieces
    mine.play_turn(0, steps)
    assert replay["pieces"] == [list(p) for p in mine.state.pos]
    assert replay["events"][-1]["pieces"] == after["pieces"]
    # The text goes to Cleo, from Ana (not from the bot).
    assert after["message"]["to"] == "Cleo" and after["message"]["text"].startswith("Ana ")
    # The link replays the bots' moves exactly as the server played them.
    expected = Game.from_token(view["token"], KEYS)
    expected.play_turn(0, steps)
    expected.play_bots()
    assert after["token"] == expected.token()
    # Cleo sees Ana's turn and the bot's since her own last turn (she hasn't played yet).
    read = client.get(f"/api/games/{after['token']}").json
    assert read["replay"]["start"] == 0
    assert [e["seat"] for e in read["replay"]["events"]] == [0] * len(steps) + [1] * len(
        replay["events"])
    # Cleo's turn: the hard bot (yellow) plays, and the link is Ana's again.
    _, cleo, again = send_turn(client, after)
    assert again["turn"] == 0 and again["message"]["to"] == "Ana"
    assert {e["seat"] for e in again["replay"]["events"]} == {3}
    read = client.get(f"/api/games/{again['token']}").json
    seats = [e["seat"] for e in read["replay"]["events"]]
    assert seats == sorted(seats) and set(seats) == {1, 2, 3}  # everyone since Ana's turn


def test_a_game_of_one_human_and_bots_comes_back_to_the_human_without_a_text(client, api,
                                                                             monkeypatch):
    from fake_twilio import FakeTwilio
    with FakeTwilio("AC" + "1" * 32, "secret-token") as twilio:
        monkeypatch.setenv("TWILIO_ACCOUNT_SID", twilio.account_sid)
        monkeypatch.setenv("TWILIO_AUTH_TOKEN", twilio.auth_token)
        monkeypatch.setenv("TWILIO_FROM", "+15005550006")
        monkeypatch.setenv("TWILIO_API_BASE", twilio.url)
        view = api.create("ludo", [{"name": "Ana", "color": "red", "phone": "+14155550100"},
                                   {"color": "blue", "bot": "medium"},
                                   {"color": "green", "bot": "hard"}])
        for _ in range(3):
            seat, _, view = send_turn(client, view)
            assert view["turn"] == seat == 0 and view["phase"] == "roll"
            assert {e["seat"] for e in view["replay"]["events"]} == {1, 2}
            assert view["message"]["to"] == "Ana" and view["message"]["status"] == "not-sent"
        assert not twilio.requests


@pytest.mark.parametrize("game,options,colors", [
    ("parcheesi", None, ("yellow", "blue", "red", "green")),
    ("red-arse", {"board": 6}, ("red", "blue", "green", "yellow", "purple", "orange")),
])
def test_bots_at_parcheesi_and_red_arse_tables_claim_their_re_rolls_and_replay(
        client, api, game, options, colors):
    players = [{"name": "Ana", "color": colors[0]}] + [
        {"color": c, "bot": "medium"} for c in colors[1:]]
    view = api.create(game, players, **({"settings": options} if options else {}))
    for _ in range(6):
        _, _, view = send_turn(client, view)
        assert view["turn"] == 0 or view["phase"] == "over"
        read = client.get(f"/api/games/{view['token']}").json
        assert read["position"] == view["position"]
        if view["phase"] == "over":
            break
    played = Game.from_token(view["token"], KEYS)
    kinds = {kind for kind, seat, _ in played.match.history if seat}
    assert "miss" not in kinds  # bots always claim
    assert "move" in kinds


def test_the_moves_of_a_bot_seat_are_the_server_s(client):
    # A link with a bot to move is never made; one forged from a test's game is refused.
    seats = [Seat("Ana", 0), Seat("Bot (easy)", 1, bot=1)]
    game = next(g for g in (seat_game("ludo", seats, n.to_bytes(8, "big")) for n in range(100))
                if g.match.turn == 1)
    for endpoint in ("moves", "turn"):
        response = client.post(f"/api/games/{game.token()}/{endpoint}",
                               json={"seat": 1, "steps": ["roll"]})
        assert response.status_code == 409
        assert response.json["error"]["message"] == \
            "Bot (easy) is a bot: the server plays its turns."


# -- Ludo: the ending between bots ---------------------------------------------------------------

def ludo_to_the_end(client, view):
    while view["phase"] != "over":
        _, _, view = send_turn(client, view)
    return view


SOLO = [Seat("Ana", 0), Seat("Bot (easy)", 1, bot=1), Seat("Bot (medium)", 2, bot=1),
        Seat("Bot (hard)", 3, bot=1)]
SOLO_TABLE = [{"name": "Ana", "color": "red"}] + [
    {"name": n, "color": c, "bot": "easy"}
    for n, c in zip(("Bot (easy)", "Bot (medium)", "Bot (hard)"), ("blue", "green", "yellow"))]


def played_out(seed: bytes) -> Game:
    """A game of SOLO played to its end, Ana always taking the first legal move."""
    game = seat_game("ludo", SOLO, seed)
    game.play_bots()
    while not game.over:
        seat = game.match.turn
        while not game.over and game.match.turn == seat:
            game.step(0)
        game.play_bots()
    return game


def test_when_the_humans_have_finished_the_bots_play_the_game_out_at_once(client, api, monkeypatch):
    seed = next(n.to_bytes(8, "big") for n in range(200)
                if played_out(n.to_bytes(8, "big")).state.placed[0] == 0)
    expected = played_out(seed)
    assert simulated_ending(expected)
    seeded(monkeypatch, seed)
    final = ludo_to_the_end(client, api.create("ludo", SOLO_TABLE))
    assert final["token"] == expected.token()
    assert final["placed"][0] == 0 and len(final["placed"]) == 4
    assert final["simulated"] is True
    # Ana's last turn set off the bots' whole ending: it is all in the answer's replay.
    events = final["replay"]["events"]
    assert len(events) > 10 and {e["seat"] for e in events} == {1, 2, 3}
    assert final["message"]["status"] == "game-over" and final["message"]["to"] == "Ana"
    read = client.get(f"/api/games/{final['token']}").json
    assert read["simulated"] is True and read["secret"]


def test_an_ending_a_human_played_to_is_not_simulated(client, api, monkeypatch):
    seed = next(n.to_bytes(8, "big") for n in range(200)
                if played_out(n.to_bytes(8, "big")).state.placed[-1] == 0)
    seeded(monkeypatch, seed)
    final = ludo_to_the_end(client, api.create("ludo", SOLO_TABLE))
    assert final["placed"][-1] == 0 and final["simulated"] is False


def test_the_simulated_note_is_on_the_results_in_both_languages(client):
    token = played_out(bytes(8)).token()
    spanish = ("Como las personas ya habían terminado, se simuló el final entre los bots para "
               "definir sus puestos.")
    assert SIMULATED in client.get(f"/g/{token}").get_data(as_text=True)
    assert spanish in client.get(f"/g/{token}?lang=es").get_data(as_text=True)


# -- adding players and rematches with bots ------------------------------------------------------

def test_the_host_adds_a_player_to_a_table_with_bots(client, api, monkeypatch):
    seats = [Seat("Ana", 0), Seat("Bot (medium)", 1, bot=2)]
    seed = find_seed("ludo", seats, lambda g: g.match.turn == 0 and not g.match.steps,
                     options=6)
    seeded(monkeypatch, seed)
    view = api.create("ludo", [{"name": "Ana", "color": "red"},
                               {"color": "blue", "bot": "medium"}], settings={"capacity": 6})
    assert view["steps"] == 0
    _, _, view = send_turn(client, view)  # the bot has played; Ana's turn again: she is host
    assert view["turn"] == 0 and view["steps"] > 1
    response = client.post(f"/api/games/{view['token']}/players",
                           json={"seat": 0, "player": {"name": "Cleo", "color": "green"}})
    assert response.status_code == 201, response.json
    joined = response.json
    assert [s["name"] for s in joined["seats"]] == ["Ana", "Bot (medium)", "Cleo"]
    seat, steps, after = send_turn(client, joined)
    assert after["turn"] == 2 and after["message"]["to"] == "Cleo"  # after the bot: Cleo
    # A bot never hosts: it can't add players.
    response = client.post(f"/api/games/{after['token']}/players",
                           json={"seat": 1, "player": {"name": "Dev", "color": "green"}})
    assert response.status_code == 403


def test_a_rematch_keeps_the_bots_and_lets_them_move_first(client, api, monkeypatch):
    seed = next(n.to_bytes(8, "big") for n in range(200)
                if played_out(n.to_bytes(8, "big")).state.placed[0] == 0)
    seeded(monkeypatch, seed)
    final = ludo_to_the_end(client, api.create("ludo", SOLO_TABLE))
    monkeypatch.undo()
    response = client.post(f"/api/games/{final['token']}/rematch",
                           json={"seat": 0, "host_key": host_key(final["token"], KEYS)})
    assert response.status_code == 201, response.json
    again = response.json
    assert [s["bot"] for s in again["seats"]] == [0, 1, 1, 1]
    assert again["turn"] == 0 and again["phase"] == "roll"  # bots first have played
    assert again["message"]["to"] == "Ana"


# -- bad requests --------------------------------------------------------------------------------

@pytest.mark.parametrize("players,english,spanish", [
    ([{"name": "Ana", "color": "red"}, {"color": "blue", "bot": "expert"}],
     '"bot" is a bot\'s strength', '"bot" es la dificultad de un bot'),
    ([{"name": "Ana", "color": "red"}, {"color": "blue", "bot": 2}],
     '"bot" is a bot\'s strength', '"bot" es la dificultad de un bot'),
    ([{"color": "red", "bot": "easy"}, {"color": "blue", "bot": "hard"}],
     "A game needs at least one human player.", "Una partida necesita al menos un jugador humano."),
    ([{"name": "Ana", "color": "red"}, {"color": "blue", "bot": "easy", "phone": "+14155550100"}],
     "Bots have no phone number.", "Los bots no tienen número de teléfono."),
])
def test_bad_bot_players_are_a_clear_400_in_both_languages(client, players, english, spanish):
    for lang, words in (("en", english), ("es", spanish)):
        response = client.post("/api/games", json={"autoplay": False, "game": "ludo", "players": players,
                                                   "lang": lang})
        assert response.status_code == 400, response.json
        assert words in response.json["error"]["message"]


def test_a_bot_host_is_refused_in_both_languages(client):
    players = [{"name": "Ana", "color": "red"}, {"color": "blue", "bot": "easy"}]
    for lang, words in (("en", "The host is a human player, not a bot."),
                        ("es", "Quien organiza la mesa es una persona, no un bot.")):
        response = client.post("/api/games", json={"autoplay": False, "game": "ludo", "players": players, "host": 1,
                                                   "lang": lang})
        assert response.status_code == 400
        assert response.json["error"]["message"] == words


def test_a_bot_s_phone_number_can_t_be_set_with_a_turn(client, api):
    view = api.create("ludo", [{"name": "Ana", "color": "red"}, {"color": "blue", "bot": "easy"}])
    seat, steps = human_turn(view["token"])
    response = client.post(f"/api/games/{view['token']}/turn", json={
        "seat": seat, "steps": steps, "seats": [{}, {"phone": "+14155550100"}]})
    assert response.status_code == 400
    assert response.json["error"]["message"] == "Bots have no phone number."


def test_the_new_game_form_makes_bots_and_needs_a_person(client):
    form = {"game": "ludo", "lu_lang": "en", "lu_capacity": "4", "lu_play0": "1",
            "lu_color0": "red", "lu_bot0": "hard", "lu_play1": "1", "lu_color1": "blue",
            "lu_name1": "Ben", "lu_play2": "1", "lu_color2": "green", "lu_bot2": "easy"}
    response = client.post("/new", data=form)
    assert response.status_code == 302
    token = response.headers["Location"].split("/g/")[1].split("?")[0]
    view = client.get(f"/api/games/{token}").json
    assert [(s["name"], s["strength"]) for s in view["seats"]] == [
        ("Bot (hard)", "hard"), ("Ben", None), ("Bot (easy)", "easy")]
    assert view["seats"][view["host"]]["name"] == "Ben" and view["turn"] == 1
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert page.count('data-bot="') == 2 and 'name="botspeed"' in page
    form.pop("lu_name1")
    form["lu_bot1"] = "medium"
    response = client.post("/new", data=form)
    assert response.status_code == 400
    assert "A game needs at least one human player." in response.get_data(as_text=True)
    home = client.get("/?lang=es").get_data(as_text=True)
    assert "Bot (difícil)" in home and "Una persona" in home
