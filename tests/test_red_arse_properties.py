"""Red Arse over whole random games, on both boards and under any house rules.

Games go through the play service with the real deterministic dice of each drawn seed; random
legal choices (claims taken or missed at random too) come from ``random.Random(choice_seed)``.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pytest

from app.engine.core import CLAIM, MOVE, OVER, ROLL
from app.engine.games import rules_for
from app.engine.red_arse import table_of
from app.engine.red_arse_settings import RULE_KEYS, options_for
from app.keys import Keys
from app.play import Game, demo_seats, replay
from app.link import decode
from app.engine.dice import game_secret

KEYS = Keys.for_tests()
MAX_STEPS = 20_000  # the longest of 2,000 random 6-player games took 3,600 steps

whole_games = settings(max_examples=25, deadline=None,
                       suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tables(draw):
    """A board, a player count that fits it, and any house rules switched off."""
    board = draw(st.sampled_from([4, 6]))
    off = draw(st.lists(st.sampled_from(RULE_KEYS), unique=True))
    return options_for(board, off), draw(st.integers(2, board))


def play_random(game: Game, choice_seed: int, each=None, limit: int = MAX_STEPS) -> Game:
    rng = random.Random(choice_seed)
    match = game.match
    while match.phase != OVER and len(match.steps) < limit:
        if match.phase == ROLL:
            game.step()
        elif match.phase == CLAIM:
            game.step(int(rng.random() < 0.2))  # 0 claims, 1 misses
        else:
            game.step(rng.randrange(len(match.legal_moves())))
        if each is not None:
            each(game)
    return game


def new_game(table, seed: bytes) -> Game:
    options, players = table
    return Game.new("red-arse", demo_seats("red-arse", players, options), KEYS, seed=seed,
                    options=options)


def check_marbles(game: Game) -> None:
    """Four marbles per player, each in its base or on its own place; at most one per place."""
    rules, state = game.rules, game.state
    seen = {}
    for seat, marbles in enumerate(state.pos):
        assert len(marbles) == 4
        for place in marbles:
            assert -1 <= place < rules.board.places
            if place != -1:
                assert place not in seen, f"two marbles on {place}: {rules.format(state)}"
                seen[place] = seat
                assert state.at[place] == seat
                owner = rules.board.home_owner(place)
                assert owner is None or owner[0] == state.colors[seat] or rules.raids
    assert sum(1 for s in state.at if s != -1) == len(seen)


@whole_games
@given(tables(), st.binary(min_size=8, max_size=8), st.integers(0, 2**32 - 1))
def test_every_game_ends_with_a_winner_and_no_marble_is_ever_lost(table, seed, choice_seed):
    game = play_random(new_game(table, seed), choice_seed, each=check_marbles)
    assert game.over, f"no winner after {MAX_STEPS} steps"
    winner = game.state.winner
    color = game.state.colors[winner]
    assert sorted(game.state.pos[winner]) == [game.rules.board.home(color, k) for k in range(4)]


@whole_games
@given(tables(), st.binary(min_size=8, max_size=8), st.integers(0, 2**32 - 1),
       st.integers(0, 3000))
def test_a_link_replays_to_the_same_position_and_the_same_moves(table, seed, choice_seed, cut):
    game = play_random(new_game(table, seed), choice_seed, limit=cut)
    again = Game.from_token(game.token(), KEYS)
    assert again.position() == game.position()
    assert again.match.legal_moves() == game.match.legal_moves()
    assert again.match.history == game.match.history
    header, reader = decode(game.token(), KEYS)
    assert header.options == table[0]
    assert replay(header, reader, game_secret(KEYS.dice, seed)).state == game.state


@settings(max_examples=200, deadline=None)
@given(tables(), st.binary(min_size=8, max_size=8), st.integers(0, 2**32 - 1),
       st.integers(0, 400))
def test_notation_round_trips_every_reached_position_and_its_table(table, seed, choice_seed,
                                                                    cut):
    game = play_random(new_game(table, seed), choice_seed, limit=cut)
    text = game.position()
    assert game.rules.format(game.rules.parse(text)) == text
    assert game.rules.parse(text) == game.state
    assert table_of(text) == table[0]
    other = rules_for("red-arse", table[0] ^ 2 << choice_seed % len(RULE_KEYS))  # one rule flipped
    with pytest.raises(ValueError, match="another table"):
        other.parse(text)


def distinct_move_texts(game: Game) -> None:
    if game.match.phase == MOVE:
        texts = [game.rules.describe(game.state, m) for m in game.match.legal_moves()]
        assert len(set(texts)) == len(texts), texts


@whole_games
@given(tables(), st.binary(min_size=8, max_size=8), st.integers(0, 2**32 - 1))
def test_a_position_and_a_move_text_name_exactly_one_move(table, seed, choice_seed):
    """Hops say so (``r hop 15-29 1``); walks, raids, the center and the base by their places."""
    play_random(new_game(table, seed), choice_seed, each=distinct_move_texts)
