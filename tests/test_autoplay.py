"""Link play that asks a player only when there is something to decide: the server rolls for
people, plays an only move, passes a roll with no move, and hands the link to the first person
with a choice (``Game.hand_on``). Rooms, and tables made with it switched off, play by hand."""

import pytest

from app import link
from app.keys import Keys
from app.play import Game
from workbench.games import link_game

KEYS = Keys.for_tests("autoplay")
TABLES = {
    "parcheesi": ["yellow", "blue", "red", "green"],
    "red-arse": ["red", "yellow", "green", "blue"],
    "ludo": ["red", "blue", "green", "yellow"],
}
NAMES = ["Ana", "Ben", "Cy", "Dev"]


@pytest.fixture
def keys():
    """The keys this module's links are made with: its app's too."""
    return KEYS


def table(game: str) -> dict:
    """Ana, Ben, Cy and Dev at ``game``'s table of four, each with a phone: for ``api.create``."""
    settings = {"red-arse": {"board": 4}, "ludo": {"capacity": 4}}.get(game)
    return {"players": [{"name": n, "color": c, "phone": f"+1415555010{i}"}
                        for i, (n, c) in enumerate(zip(NAMES, TABLES[game]))],
            **({"settings": settings} if settings else {})}


def at_a_decision(view) -> bool:
    """The link's player has a choice: of moves, or whether to claim a re-roll."""
    return view["phase"] == "claim" or (view["phase"] == "move" and len(view["legal"]) > 1)


@pytest.mark.parametrize("game", TABLES)
def test_a_new_link_goes_to_the_first_person_with_a_decision_their_dice_rolled(client, api,
                                                                                game):
    made = api.create(game, autoplay=True, **table(game))
    view = client.get(f"/api/games/{made['token']}").json
    assert view["autoplay"] and at_a_decision(view)
    played = Game.from_token(view["token"], KEYS)
    # Everything before it had no alternative, and the page's replay marks it so.
    assert all(radix == 1 for _, radix in played.match.steps)
    assert view["replay"]["events"] and all(e["forced"] for e in view["replay"]["events"])
    assert view["last_roll"] != []  # rolled for them: no Roll to tap


def test_turns_with_nothing_to_decide_play_themselves_and_only_the_next_decision_is_texted(
        client, api, twilio):
    view = api.create("ludo", autoplay=True, **table("ludo"))
    texted = 0
    for _ in range(12):  # a dozen hand-offs in the early game, when pieces wait for a 6
        start, steps_seat = view["steps"], view["turn"]
        steps, _ = api.play_turn(view)
        before = len(twilio.requests)
        view = client.post(f"/api/games/{view['token']}/turn",
                           json={"seat": view["turn"], "steps": steps}).json
        if view["phase"] == "over":
            break
        assert at_a_decision(view)
        sent = twilio.requests[before:]
        if view["turn"] == steps_seat:  # round the table to the same player: no text needed
            assert not sent and view["message"]["status"] == "not-sent"
            continue
        assert len(sent) == 1 and sent[0].field("To") == f"+1415555010{view['turn']}"
        texted += 1
        body = sent[0].field("Body")
        played = Game.from_token(view["token"], KEYS)
        forced_people = {played.header.seats[seat].name
                         for step, (_, seat, _) in enumerate(played.match.history[start:], start)
                         if seat != view["turn"] and step and played.match.history[step - 1][1] != seat
                         and played.forced_turn(step, _turn_end(played, step))}
        for name in forced_people:  # whose turn played itself is said, and nobody texts them
            assert name in body
        dice = view["last_roll"]
        assert f"you rolled {' and '.join(map(str, dice))}." in body
        # The replay shows the turns that played themselves, marked so.
        marked = {e["seat"] for e in view["replay"]["events"] if e.get("forced")}
        assert {played.header.seats[s].name for s in marked} >= forced_people
    assert texted >= 6


def _turn_end(played, start):
    history, end = played.match.history, start
    while end < len(history) and history[end][1] == history[start][1]:
        end += 1
    return end if end < len(history) else start  # a turn still going on is not a whole turn


def test_a_spanish_text_says_who_had_no_move_and_what_you_rolled():
    from app import wording

    text = wording.turn_message("Ana", "Dev", "https://b.example/g/x", "Ludo", "es",
                                wording.Handoff(no_move=["Ben", "Cy"], rolled=(6, 3)))
    assert text == ("Ana hizo su jugada. No hubo jugada para Ben y Cy. Te toca en Boardpass, "
                    "Dev: sacaste 6 y 3. https://b.example/g/x")
    assert wording.gsm7_length(text) is not None


def test_an_only_move_after_a_choice_is_played_and_undo_passes_over_it(client):
    for number in range(300):
        game = Game.new("parcheesi", [link.Seat("Ana", 0), link.Seat("Ben", 2)], KEYS,
                        seed=number.to_bytes(8, "big"))
        game.hand_on()
        token, seat = game.token(), game.match.turn
        first = client.get(f"/api/games/{token}").json
        if first["phase"] != "move":
            continue
        for move in first["legal"]:
            step = {k: move[k] for k in ("from", "to", "values")}
            after = client.post(f"/api/games/{token}/moves",
                                json={"seat": seat, "steps": [step]}).json
            if len(after["turn_steps"]) > 1 and after["turn_forced"]:
                # The player chose once; what had no alternative after it was played for them.
                assert after["turn_steps"][0] == step and 0 not in after["turn_forced"]
                assert all(i > 0 for i in after["turn_forced"])
                return
    raise AssertionError("no seed found")


def test_a_red_arse_re_roll_claim_is_the_player_s_and_opens_when_the_page_asks(client):
    for number in range(300):
        game = Game.new("red-arse", [link.Seat(n, i) for i, n in enumerate(NAMES)], KEYS,
                        seed=number.to_bytes(8, "big"), options=0)
        game.hand_on()
        if game.match.phase != "claim":
            continue
        # Nothing was played past the claim window: the link stops at it.
        view = client.get(f"/api/games/{game.token()}").json
        assert view["phase"] == "claim" and view["turn"] == game.match.turn
        window = client.post(f"/api/games/{game.token()}/moves",
                             json={"seat": view["turn"], "steps": []}).json
        assert window["claim"]["seconds"] == 5 and window["claim"]["ticket"]
        return
    raise AssertionError("no seed found")


def test_switched_off_at_creation_every_step_is_the_player_s(client, api):
    view = api.create("ludo", autoplay=False, **table("ludo"))
    assert not view["autoplay"] and view["phase"] == "roll" and view["steps"] == 0
    assert link.decode(view["token"], KEYS)[0].by_hand
    assert client.post("/api/games", json={"game": "ludo", "autoplay": "no", "players": [
        {"name": "A", "color": "red"}, {"name": "B", "color": "blue"}]}).status_code == 400


def test_the_new_game_form_plays_for_them_unless_unticked(client):
    form = {"game": "parcheesi", "play0": "1", "color0": "yellow", "play1": "1",
            "color1": "red"}
    made = client.post("/new", data={**form, "autoplay": ["0", "1"]})
    unticked = client.post("/new", data={**form, "autoplay": "0"})
    plain = client.post("/new", data=form)
    tokens = [r.headers["Location"].split("/g/")[1].split("?")[0] for r in (made, unticked, plain)]
    assert [link.decode(t, KEYS)[0].by_hand for t in tokens] == [False, True, False]
    page = client.get(made.headers["Location"]).data.decode()
    assert "&#39;s turn:" in page or "'s turn:" in page  # the creator's page: not "You:"


def test_a_forced_turn_is_never_counted_as_missed():
    game = Game.new("ludo", [link.Seat(n, c) for n, c in zip(NAMES, (0, 1, 2, 3))], KEYS,
                    seed=bytes(8))
    game.hand_on()
    # A turn with nothing to decide answers nothing: it neither counts nor ends a run of misses.
    history = game.match.history
    turns = [s for s in range(len(history)) if s == 0 or history[s - 1][1] != history[s][1]]
    forced = [s for s in turns[:-1] if game.forced_turn(s, _turn_end(game, s))]
    assert forced and all(game.missed(seat) == 0 for seat in range(4))


@pytest.mark.parametrize("game", ["red-arse", "ludo"])
def test_a_game_of_people_by_link_texts_only_the_turns_with_a_decision(client, game,
                                                                      monkeypatch):
    # The same games every run (a new game's seed is random: one game's share of hand-offs
    # varies from game to game around the 55% of simulate's hundred).
    import itertools

    import app.play

    drawn = itertools.count(1)
    monkeypatch.setattr(app.play.secrets, "token_bytes",
                        lambda size: next(drawn).to_bytes(size, "big"))
    made = link_game(client, game, 4)
    by_hand = link_game(client, game, 4, autoplay=False)
    assert by_hand["hand_offs"] == by_hand["player_turns"]
    assert made["hand_offs"] <= 0.7 * made["player_turns"]


def test_a_turn_that_comes_back_to_its_sender_goes_to_nobody(client, api, twilio, monkeypatch):
    # Three people, every one with a number (one by WhatsApp), the early game: the others' turns
    # often pass with no 6 to come out on, and the next decision is the sender's own again.
    import itertools

    import app.play

    drawn = itertools.count(1)
    monkeypatch.setattr(app.play.secrets, "token_bytes",
                        lambda size: next(drawn).to_bytes(size, "big"))
    twilio.whatsapp_senders.add("whatsapp:+15005550006")
    monkeypatch.setenv("TWILIO_WHATSAPP_FROM", "whatsapp:+15005550006")
    body = {"game": "ludo", "settings": {"capacity": 3},
            "players": [{"name": n, "color": c, "phone": f"+1415555010{i}", "whatsapp": i == 0}
                        for i, (n, c) in enumerate(zip(NAMES, TABLES["ludo"][:3]))]}
    view = client.post("/api/games", json=body).json
    came_back = handed_on = 0
    for _ in range(60):
        sender = view["turn"]
        steps, _ = api.play_turn(view)
        before = len(twilio.requests)
        view = client.post(f"/api/games/{view['token']}/turn",
                           json={"seat": sender, "steps": steps}).json
        if view["phase"] == "over":
            break
        if view["turn"] == sender:  # nobody else had a decision
            came_back += 1
            assert twilio.requests[before:] == []  # no text, no WhatsApp
            assert view["message"]["status"] == "not-sent" and not view["message"]["pushed"]
        elif view["message"]["status"] != "limited":  # (six texts an hour to a number)
            handed_on += 1
            assert len(twilio.requests[before:]) == 1
    assert came_back and handed_on


def test_a_turn_s_events_tell_every_step_the_automatic_ones_too(client):
    # A Ludo 6 moved: the roll after it is the server's (nothing to decide), and the turn's
    # events say it with its dice, as the feed tells it.
    for number in range(300):
        game = Game.new("ludo", [link.Seat(n, i) for i, n in enumerate(NAMES[:3])], KEYS,
                        seed=number.to_bytes(8, "big"))
        game.hand_on()
        token, seat = game.token(), game.match.turn
        if game.match.phase != "move" or game.match.history[-1] != ("roll", seat, (6,)):
            continue
        first = client.get(f"/api/games/{token}").json
        move = first["legal"][0]
        step = {k: move[k] for k in ("from", "to", "values")}
        after = client.post(f"/api/games/{token}/moves",
                            json={"seat": seat, "steps": [step]}).json
        events = after["turn_events"]
        assert len(events) == len(after["turn_steps"]) >= 2
        assert events[0]["kind"] == "move" and events[0]["said"] == move["said"]
        assert events[1] == {**events[1], "kind": "roll", "seat": seat, "forced": True}
        assert events[1]["dice"] == after["last_roll"] or len(events) > 2
        return
    raise AssertionError("no seed found")
