"""Bots: always legal, deterministic for a game and decision, and able to finish any game."""

from __future__ import annotations

import pytest

from app.engine import bots
from app.engine.core import OVER, ROLL
from app.engine.games import rules_for
from app.engine.red_arse_settings import options_for
from app.keys import Keys
from app.play import Game, TurnError, demo_seats, simulation_seed

KEYS = Keys.for_tests("bots")
TABLES = [("parcheesi", 0, 4), ("red-arse", 0, 4), ("red-arse", options_for(6), 6),
          ("ludo", 0, 4), ("ludo", 6, 6)]


def bot_game(game, options, players, strengths, number=0, each=None) -> Game:
    played = Game.new(game, demo_seats(game, players, options), KEYS,
                      seed=simulation_seed("bots", number), options=options)
    match = played.match
    while match.phase != OVER:
        if match.phase == ROLL:
            match.roll()
            continue
        strength = strengths[match.turn % len(strengths)]
        index = bots.choose(strength, played.rules, match.state,
                            bots.decision_seed(played.header.seed, len(match.steps)))
        if each:
            each(played, strength, index)
        match.step(index)
    return played


@pytest.mark.parametrize("game,options,players", TABLES)
def test_a_game_of_bots_finishes_with_legal_moves_only(game, options, players):
    def legal(played, strength, index):
        if played.match.phase == "claim":
            assert index == 0  # bots claim every re-roll
        else:
            assert 0 <= index < len(played.match.legal_moves())

    played = bot_game(game, options, players, ["easy", "medium", "random"], each=legal)
    assert played.over
    assert Game.from_token(played.token(), KEYS).position() == played.position()


@pytest.mark.parametrize("game,options,players", TABLES[:2] + TABLES[3:4])
def test_every_strength_chooses_the_same_move_for_the_same_decision(game, options, players):
    rules = rules_for(game, options)
    checked = 0

    def twice(played, strength, index):
        nonlocal checked
        if strength != "random" and len(played.match.legal_moves()) > 1 and checked < 25:
            seed = bots.decision_seed(played.header.seed, len(played.match.steps))
            state = played.match.state.copy()
            for again in ("easy", "medium", "hard"):
                assert bots.choose(again, rules, state, seed) == \
                    bots.choose(again, rules, state.copy(), seed)
            checked += 1

    bot_game(game, options, players, ["medium", "easy"], number=3, each=twice)
    assert checked == 25


def test_decision_seeds_differ_by_game_and_decision():
    assert bots.decision_seed(b"12345678", 7) == bots.decision_seed(b"12345678", 7)
    assert len({bots.decision_seed(b"12345678", i) for i in range(100)} |
               {bots.decision_seed(b"87654321", 0)}) == 101


def test_medium_takes_a_capture_and_avoids_leaving_a_piece_in_reach():
    ludo = rules_for("ludo")
    state = ludo.parse("ludo r:10,30,n,n/b:12,n,n,n r 2")
    assert ludo.describe(state, ludo.legal_moves(state)[bots.choose("medium", ludo, state, 1)]) \
        == "r 10-12 2"
    parcheesi = rules_for("parcheesi")
    # Yellow's pawn on 10 has red 4 squares behind it: medium takes it to safety on 12.
    state = parcheesi.parse("parcheesi y:10,30,n,n/r:6,n,n,n y 2")
    moves = parcheesi.legal_moves(state)
    assert [parcheesi.describe(state, m) for m in moves] == ["y 10-12 2", "y 30-32 2"]
    assert bots.choose("medium", parcheesi, state, 1) == 0
    assert bots.choose("hard", parcheesi, state, 1) == 0


def test_the_server_plays_bot_seats_until_a_human_is_to_move():
    from app.link import Seat

    seats = [Seat("Ana", 0), Seat("Bot 1", 1, bot=1), Seat("Bot 2", 2, bot=2),
             Seat("Bot 3", 3, bot=3)]
    game = Game.new("ludo", seats, KEYS, seed=b"botseats")
    human_turns = 0
    while not game.over and human_turns < 40:
        game.play_bots()
        if game.over:
            break
        assert game.header.seats[game.match.turn].bot == 0  # the link goes to a human
        human_turns += 1
        seat = game.match.turn
        while not game.over and game.match.turn == seat:
            game.step(0)
    # The same link replays the bots' moves exactly.
    assert Game.from_token(game.token(), KEYS).position() == game.position()


@pytest.mark.parametrize("game,options,players", TABLES)
def test_a_table_of_bots_plays_to_the_end_on_its_own(game, options, players):
    from app.link import Seat

    colors = [s.color for s in demo_seats(game, players, options)]
    seats = [Seat(f"Bot {i}", c, bot=1 + i % 2) for i, c in enumerate(colors)]  # easy, medium
    played = Game.new(game, seats, KEYS, seed=b"allbots!", options=options)
    assert played.play_bots() > 0 and played.over


def test_after_the_deadline_the_server_plays_the_absent_players_turn():
    from dataclasses import replace

    from app.link import Seat

    game = Game.new("ludo", [Seat("Ana", 0), Seat("Ben", 2)], KEYS, seed=b"deadline")
    game = Game(replace(game.header, deadline=60), game.match, KEYS).stamped(1_000_000.0)
    assert game.header.since == 1_000_000 // 60
    due = game.due_at()
    assert due == (game.header.since + 60) * 60
    with pytest.raises(TurnError, match="still has time"):
        game.play_for_absent(due - 1)
    absent, start = game.match.turn, len(game.match.steps)
    game.play_for_absent(due + 5)
    played = game
    assert played.header.auto == (start,) and played.match.turn != absent
    assert played.header.since == int((due + 5) // 60)  # the next player's time starts now
    again = Game.from_token(played.token(), KEYS)
    assert again.position() == played.position() and again.header.auto == (start,)
    no_deadline = Game.new("ludo", [Seat("Ana", 0), Seat("Ben", 2)], KEYS, seed=b"deadline")
    with pytest.raises(TurnError, match="no turn deadline"):
        no_deadline.play_for_absent(due + 5)
