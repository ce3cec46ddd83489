"""No roll is seen before the choices that come before it are recorded: once an answer has
shown a roll that follows a choice of the turn (a Ludo 6's bonus roll, Parcheesi's doubles, a
Red Arse re-roll claimed), those steps are the turn's, on every route and from any browser.
Through the API, on the SQLite store; the rule is in docs/playing.md."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.engine.core import CLAIM, ROLL
from app.keys import Keys
from app.play import Game, demo_seats, simulation_seed
from api_support import choice_then_roll, said

KEYS = Keys.for_tests("no peeking")


@pytest.fixture
def keys():
    """The keys this module's links are made with: its app's too."""
    return KEYS


def moves(client, token, seat, steps):
    return client.post(f"/api/games/{token}/moves", json={"seat": seat, "steps": steps})


def refused(answer) -> bool:
    return answer.status_code == 409 and answer.json["error"]["code"] == "RollShown"


def hosted_by(token: str, seat: int) -> str:
    """The same game with ``seat`` as its host (who adds players, and makes a room)."""
    game = Game.from_token(token, KEYS)
    return Game(replace(game.header, host=seat), game.match, KEYS).token()


def test_a_second_first_move_after_the_bonus_roll_was_shown_is_refused(client):
    token, seat, one, other = choice_then_roll("ludo", 2, KEYS)
    # Before any roll after the choice is shown, the move can still be changed (Undo).
    assert moves(client, token, seat, one).status_code == 200
    assert moves(client, token, seat, other).status_code == 200
    shown = moves(client, token, seat, one + ["roll"])  # the bonus roll, seen
    assert shown.status_code == 200 and shown.json["dice"]
    again = moves(client, token, seat, other + ["roll"])
    assert again.status_code == 409
    assert again.json["error"]["code"] == "RollShown"
    assert "undo goes back only as far as the last roll shown" in again.json["error"]["message"]
    for back in (["roll"], one):  # an undo past the roll seen
        assert moves(client, token, seat, back).status_code == 409
    # The turn goes on from the roll seen, and a reload gives the same dice, the same moves.
    assert moves(client, token, seat, one + ["roll"]).json["dice"] == shown.json["dice"]
    read = client.get(f"/api/games/{token}").json
    assert read["fixed_steps"] == one + ["roll"]


def test_the_page_s_own_automatic_roll_fixes_the_move_before_it(client):
    """Playing by the page's defaults, the bonus roll has nothing to decide and comes with the
    move's answer: that answer fixes the move."""
    token, seat, one, other = choice_then_roll("parcheesi", 2, KEYS)
    game = Game.from_token(token, KEYS)
    if game.header.by_hand:  # the helper's games are by hand: this one takes autoplay
        from dataclasses import replace

        game = Game(replace(game.header, by_hand=False), game.match, KEYS)
        token = game.token()
    answer = moves(client, token, seat, one)
    assert answer.status_code == 200
    if answer.json["turn_steps"][len(one):len(one) + 1] == ["roll"]:  # rolled for the player
        assert moves(client, token, seat, other).json["error"]["code"] == "RollShown"
    else:  # a roll still to make (a move with the second die first): nothing was shown
        assert moves(client, token, seat, other).status_code == 200


def test_the_chances_after_a_roll_fix_the_steps_before_it(client):
    token, seat, one, other = choice_then_roll("ludo", 2, KEYS)
    import json

    asked = client.get(f"/api/games/{token}/chances",
                       query_string={"steps": json.dumps(one + ["roll"])})
    assert asked.status_code in (200, 202)  # worked out or not yet, the roll was asked for
    refused = moves(client, token, seat, other + ["roll"])
    assert refused.status_code == 409 and refused.json["error"]["code"] == "RollShown"
    assert client.get(f"/api/games/{token}/chances", query_string={
        "steps": json.dumps(other + ["roll"])}).json["error"]["code"] == "RollShown"


def test_a_re_roll_claimed_then_let_go_is_refused(client):
    for number in range(200):
        game = Game.new("red-arse", demo_seats("red-arse", 2), KEYS,
                        seed=simulation_seed("peek claim", number), by_hand=True)
        token, seat, steps = game.token(), game.match.turn, []
        while game.match.turn == seat and game.match.phase != CLAIM and not game.over:
            if game.match.phase == ROLL:
                steps.append("roll")
                game.step()
            else:
                steps.append(said(game.match.legal_moves()[0]))
                game.step(0)
        if game.match.phase == CLAIM:
            break
    else:
        raise AssertionError("no claim point")
    ticket = moves(client, token, seat, steps).json["claim"]["ticket"]
    claimed = moves(client, token, seat, steps + [{"claim": ticket}, "roll"])  # re-roll seen
    assert claimed.status_code == 200
    receipt = claimed.json["turn_steps"][len(steps)]
    missed = moves(client, token, seat, steps + ["miss"])
    assert missed.status_code == 409 and missed.json["error"]["code"] == "RollShown"
    finish = client.post(f"/api/games/{token}/turn", json={"seat": seat, "steps": steps + ["miss"]})
    assert finish.status_code == 409
    assert client.get(f"/api/games/{token}").json["fixed_steps"] == \
        steps + [receipt, "roll"]


def test_adding_a_player_after_the_bonus_roll_was_shown_keeps_the_moves_before_it(client):
    """A new link made mid-turn (the host adds a player) carries the steps a roll shown has
    fixed: they can't be dropped on the way, nor changed on the new link."""
    token, seat, one, other = choice_then_roll("ludo", 2, KEYS)
    token = hosted_by(token, seat)
    assert moves(client, token, seat, one + ["roll"]).status_code == 200  # the bonus roll, seen
    game = Game.from_token(token, KEYS)
    free = next(name for color, name in enumerate(game.rules.board.color_names)
                if color not in {s.color for s in game.header.seats})
    url, cleo = f"/api/games/{token}/players", {"name": "Cleo", "color": free}
    for steps in ([], other, other + ["roll"]):
        assert refused(client.post(url, json={"seat": seat, "player": cleo, "steps": steps}))
    assert "Cleo" not in [s["name"] for s in client.get(f"/api/games/{token}").json["seats"]]
    added = client.post(url, json={"seat": seat, "player": cleo, "steps": one + ["roll"]})
    assert added.status_code == 201, added.json
    new, seat = added.json["token"], added.json["turn"]  # the seats as the new link has them
    assert client.get(f"/api/games/{new}").json["fixed_steps"] == one + ["roll"]
    assert refused(moves(client, new, seat, other + ["roll"]))
    assert refused(moves(client, new, seat, ["roll"]))
    assert moves(client, new, seat, one + ["roll"]).status_code == 200


def test_a_room_made_from_a_link_after_the_bonus_roll_was_shown_goes_on_from_it(client):
    """Going on live in a room starts from the steps a roll shown has fixed, not before them."""
    token, seat, one, other = choice_then_roll("ludo", 2, KEYS)
    shown = moves(client, token, seat, one + ["roll"])
    room = client.post(f"/api/games/{token}/room", json={"seat": seat, "timer_seconds": 0})
    assert room.status_code == 201, room.json
    game = Game.from_token(room.json["token"], KEYS)
    fixed = Game.from_token(token, KEYS)
    fixed.play_turn(seat, one + ["roll"])
    assert game.match.steps == fixed.match.steps  # the move chosen, and the roll seen after it
    assert room.json["dice"] == shown.json["dice"]


def test_the_creator_s_language_switch_keeps_the_steps_a_roll_shown_fixed(client):
    """The creator's page switching the table's language before the first link goes out makes a
    new link: the steps a roll shown fixed stand on it too."""
    from app.web import bookkeeping

    for number in range(300):  # a first turn whose roll leaves a choice and earns another roll
        game = Game.new("ludo", demo_seats("ludo", 2), KEYS,
                        seed=simulation_seed("first choice", number))
        game.hand_on()
        seat, options = game.match.turn, game.match.legal_moves()
        if len(options) >= 2 and not game.people_played():
            token, first = game.token(), Game.from_token(game.token(), KEYS)
            first.play_turn(seat, [said(options[0])])
            first.play_forced(seat)
            if first.turn_steps[1:2] == ["roll"]:  # rolled for the player: a roll shown
                break
    else:
        raise AssertionError("no first turn with a choice and a roll after it")
    client.set_cookie("device", "creator-phone")
    with client.application.test_request_context(headers={"Cookie": "device=creator-phone"}):
        bookkeeping.ledger().begin(game.header.seed, token, len(game.match.steps), seat,
                                   bookkeeping.device())
    fixed = moves(client, token, seat, [said(options[0])]).json["turn_steps"]
    assert refused(moves(client, token, seat, [said(options[1])]))
    switched = client.get(f"/api/games/{token}", query_string={"invite": "1", "lang": "es"}).json
    new = switched["url"].rsplit("/", 1)[1]
    assert new != token and Game.from_token(new, KEYS).header.lang == "es"
    assert client.get(f"/api/games/{new}").json["fixed_steps"] == fixed[:2]  # to the roll
    assert refused(moves(client, new, seat, [said(options[1])]))


def test_a_roll_shown_while_a_new_link_is_being_made_sends_the_request_back(client, monkeypatch):
    """The host adds a player at the very moment another tab's answer shows the bonus roll: the
    new link, checked against no fixed steps, loses its write to that tab's; it is then not made
    without them but refused, to be asked again (and checked again)."""
    from app.ledger import Ledger

    token, seat, one, other = choice_then_roll("ludo", 2, KEYS)
    token = hosted_by(token, seat)
    game = Game.from_token(token, KEYS)
    start = len(game.match.steps)
    game.play_turn(seat, one + ["roll"])
    advance = Ledger.advance

    def other_tab_first(self, standing, *args, **kwargs):
        monkeypatch.setattr(Ledger, "advance", advance)
        assert self.fix(standing, game.fixed(start))  # the other tab's /moves, shown the roll
        return None

    monkeypatch.setattr(Ledger, "advance", other_tab_first)
    free = next(name for color, name in enumerate(game.rules.board.color_names)
                if color not in {s.color for s in game.header.seats})
    added = client.post(f"/api/games/{token}/players",
                        json={"seat": seat, "player": {"name": "Cleo", "color": free}})
    assert added.status_code == 409 and added.json["error"]["code"] == "MovedOn"
    assert "try again" in added.json["error"]["message"]
    assert client.get(f"/api/games/{token}").json["fixed_steps"] == one + ["roll"]
    assert refused(moves(client, token, seat, other + ["roll"]))
    again = client.post(f"/api/games/{token}/players",
                        json={"seat": seat, "player": {"name": "Cleo", "color": free}})
    assert refused(again)
