"""Ludo over whole random games on both boards, through the play service and the real dice."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.core import OVER, ROLL
from app.keys import Keys
from app.play import Game, demo_seats

KEYS = Keys.for_tests()
MAX_STEPS = 20_000  # random 6-player games on 78 squares take about 2,400 steps, 3,300 at most

whole_games = settings(max_examples=25, deadline=None,
                       suppress_health_check=[HealthCheck.too_slow])
tables = st.sampled_from([(2, 2), (3, 3), (0, 4), (0, 2), (5, 5), (6, 6), (6, 3)])  # (options, players)


def new_game(table, seed: bytes) -> Game:
    options, players = table
    return Game.new("ludo", demo_seats("ludo", players, options), KEYS, seed=seed,
                    options=options)


def play_random(game: Game, choice_seed: int, limit: int = MAX_STEPS, each=None) -> Game:
    rng = random.Random(choice_seed)
    match = game.match
    while match.phase != OVER and len(match.steps) < limit:
        game.step(0 if match.phase == ROLL else rng.randrange(len(match.legal_moves())))
        if each is not None:
            each(game)
    return game


def check_pieces(game: Game) -> None:
    rules, state = game.rules, game.state
    for seat, pieces in enumerate(state.pos):
        assert len(pieces) == 4
        assert all(-1 <= p <= rules.goal for p in pieces)
        if seat in state.placed[: len(state.placed) - (state.phase == OVER)]:
            assert pieces == [rules.goal] * 4  # placed players have all four in
    if state.phase != OVER:
        assert state.turn not in state.placed  # finished players never play again


@whole_games
@given(tables, st.binary(min_size=8, max_size=8), st.integers(0, 2**32 - 1))
def test_every_game_ends_with_every_player_placed(table, seed, choice_seed):
    game = play_random(new_game(table, seed), choice_seed, each=check_pieces)
    assert game.over
    assert sorted(game.state.placed) == list(range(table[1]))
    assert game.state.pos[game.state.placed[-1]] != [game.rules.goal] * 4  # the one left


@whole_games
@given(tables, st.binary(min_size=8, max_size=8), st.integers(0, 2**32 - 1),
       st.integers(0, 3000))
def test_a_link_replays_to_the_same_game(table, seed, choice_seed, cut):
    game = play_random(new_game(table, seed), choice_seed, limit=cut)
    again = Game.from_token(game.token(), KEYS)
    assert again.position() == game.position()
    assert again.match.history == game.match.history
    assert game.rules.parse(game.position()) == game.state
