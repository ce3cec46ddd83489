"""The Ludo table through the play service: joining mid-game, placings, rematches and medals."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.engine.core import OVER, ROLL
from app.keys import Keys
from app.play import Game, TurnError, medals
from app.link import Seat

KEYS = Keys.for_tests("ludo-table")


def two_player_game(seed=b"ludotab1", **header) -> Game:
    game = Game.new("ludo", [Seat("Ana", 0), Seat("Cleo", 2)], KEYS, seed=seed, by_hand=True)
    if header:
        game = Game(replace(game.header, **header), game.match, KEYS)
    return game


def play_turns(game: Game, turns: int, rng=random.Random(5)) -> Game:
    """Random moves until ``turns`` turns have passed (or the game ends)."""
    for _ in range(turns):
        seat = game.match.turn
        while not game.over and game.match.turn == seat:
            moves = game.match.legal_moves()
            game.step(0 if game.match.phase == ROLL else rng.randrange(len(moves)))
    return game


def test_a_player_joins_mid_game_with_four_pieces_at_home_and_plays_when_their_turn_comes():
    game = play_turns(two_player_game(), 6)
    before = game.position()
    joined = game.with_player(Seat("Ben", 1))  # blue sits between red and green
    assert [s.name for s in joined.header.seats] == ["Ana", "Ben", "Cleo"]
    assert joined.header.seats[1].joined == len(game.match.steps)
    assert joined.state.pos[1] == [-1] * 4
    assert joined.state.pos[0] == game.state.pos[0] and joined.state.pos[2] == game.state.pos[1]
    # The link carries the join; opening it replays to the same game.
    again = Game.from_token(joined.token(), KEYS)
    assert again.position() == joined.position() and again.header.format_version == 2
    # From now on blue plays when the order reaches it: after red, before green.
    order = []
    while len(order) < 6 and not joined.over:
        seat = joined.match.turn
        if not order or order[-1] != seat:
            order.append(seat)
        play_turns(joined, 1)
    for a, b in zip(order, order[1:]):
        assert b == {0: 1, 1: 2, 2: 0}[a]
    assert "b:" not in before and "b:" in joined.position()


def test_a_game_with_a_latecomer_plays_to_the_end_and_places_everyone():
    game = play_turns(two_player_game(), 4).with_player(Seat("Dev", 3))
    while not game.over:
        play_turns(game, 1)
    assert sorted(game.state.placed) == [0, 1, 2]
    assert Game.from_token(game.token(), KEYS).position() == game.position()


def test_no_player_joins_a_full_table_a_taken_color_or_another_game():
    game = two_player_game()
    with pytest.raises(TurnError, match="taken"):
        game.with_player(Seat("Eve", 2))
    full = game.with_player(Seat("Ben", 1)).with_player(Seat("Dev", 3))
    with pytest.raises(TurnError, match="Every seat"):
        full.with_player(Seat("Eve", 4))
    parcheesi = Game.new("parcheesi", [Seat("Ana", 0), Seat("Ben", 2)], KEYS, by_hand=True)
    with pytest.raises(TurnError, match="no new players"):
        parcheesi.with_player(Seat("Cy", 1))


def test_a_player_added_before_the_first_roll_simply_sits_at_the_table():
    game = two_player_game().with_player(Seat("Ben", 1))
    assert game.header.seats[1].joined == 0 and not game.state.waiting


def test_the_host_stays_the_host_when_a_seat_is_added_before_it():
    game = two_player_game(host=1)  # Cleo (green) created the game
    added = play_turns(game, 2).with_player(Seat("Ben", 1))
    assert added.header.seats[added.header.host].name == "Cleo"


@pytest.mark.parametrize("placed,seats,expected", [
    ((1, 0), 2, [(0, 0, 0), (1, 0, 0)]),  # two players: gold only
    ((2, 0, 1), 3, [(0, 1, 0), (0, 0, 0), (1, 0, 0)]),
    ((3, 1, 0, 2), 4, [(0, 0, 1), (0, 1, 0), (0, 0, 0), (1, 0, 0)]),  # the last gets none
    ((0, 1, 2, 3, 4), 6, [(1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 0), (0, 0, 0), (0, 0, 0)]),
])
def test_medals_go_to_the_first_three_places_never_the_last(placed, seats, expected):
    assert medals(placed, seats) == expected


def test_a_rematch_keeps_the_table_and_adds_up_the_medals():
    game = two_player_game(lang="es", host=1)
    game = play_turns(game, 3).with_player(Seat("Ben", 1, phone="+5491155551234"))
    while not game.over:
        play_turns(game, 1)
    first = game.state.placed[0]
    rematch = game.rematched(seed=b"ludotab2")
    assert rematch.match.steps == [] and rematch.header.seed != game.header.seed
    assert [s.name for s in rematch.header.seats] == ["Ana", "Ben", "Cleo"]
    assert all(s.joined == 0 for s in rematch.header.seats)
    assert rematch.header.seats[1].phone == "+5491155551234"
    assert rematch.header.lang == "es"
    assert rematch.header.seats[rematch.header.host].name == "Cleo"
    assert rematch.header.seats[first].medals == (1, 0, 0)
    assert sum(sum(s.medals) for s in rematch.header.seats) == 2  # gold and silver of three
    # Medals add up over rematches and travel in the link.
    while not rematch.over:
        play_turns(rematch, 1)
    third = Game.from_token(rematch.rematched().token(), KEYS)
    assert sum(sum(s.medals) for s in third.header.seats) == 4


def test_no_rematch_before_the_end():
    with pytest.raises(TurnError, match="isn't over"):
        two_player_game().rematched()


def test_a_rematch_on_a_smaller_table_keeps_everyone_in_their_colors():
    game = Game.new("ludo", [Seat("Ana", 0), Seat("Eli", 4)], KEYS, seed=b"ludotab3",
                    options=6, by_hand=True)
    while not game.over:
        play_turns(game, 1)
    with pytest.raises(TurnError, match="in their colors"):
        game.rematched(options=0)  # purple has no seat at a table of 4
    assert game.rematched(options=5).rules.capacity == 5
