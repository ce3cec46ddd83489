"""The static evaluation and the luck measured by it (app.engine.evaluation, app.luck)."""

from __future__ import annotations

import random

import pytest

from workbench.games import play_random, table_options
from app.engine import evaluation
from app.engine.games import rules_for
from workbench.evaluation_fit import brier, fit
from app.keys import Keys
from app.luck import game_luck

POSITIONS = [
    ("parcheesi", "parcheesi y:n,n,n,n/r:n,n,n,n y roll"),
    ("parcheesi", "parcheesi y:10,30,n,n/b:n,n,n,n/r:6,n,n,n y roll"),
    ("red-arse", "red-arse r:n,n,14,30/b:h2,h3,h4,18 r roll"),
    ("ludo", "ludo r:n,n,n,5/b:n,n,n,9 r roll"),
    ("ludo", "ludo r:n,n,5,30/b:n,n,10,8/g:n,n,n,n g roll"),
]


def luck_of_each_roll(game: str, text: str) -> dict[tuple[int, ...], float]:
    rules = rules_for(game)
    state = rules.parse(text)
    return {roll: evaluation.roll_luck(rules, state, roll)
            for roll, _ in evaluation.ROLLS[rules.dice_count]}


@pytest.mark.parametrize("game,text", POSITIONS)
def test_luck_is_zero_on_average_over_every_roll_the_player_could_have_had(game, text):
    chance = dict(evaluation.ROLLS[rules_for(game).dice_count])
    luck = luck_of_each_roll(game, text)
    assert sum(chance[roll] * points for roll, points in luck.items()) == pytest.approx(0,
                                                                                     abs=1e-12)
    assert max(luck.values()) > 0 > min(luck.values())  # some rolls did better than others


def test_the_six_that_brings_a_ludo_piece_out_is_the_lucky_roll():
    luck = luck_of_each_roll("ludo", "ludo r:n,n,n,n/b:n,n,n,n r roll")
    assert luck[(6,)] > 0
    assert all(luck[(die,)] < 0 for die in range(1, 6))


def test_a_parcheesi_roll_that_makes_a_five_beats_one_that_cannot_leave_the_nest():
    luck = luck_of_each_roll("parcheesi", "parcheesi y:n,n,n,n/r:n,n,n,n y roll")
    assert luck[(5, 5)] == max(luck.values())  # two pawns out, and another roll
    assert luck[(1, 4)] > luck[(1, 2)]  # 1 + 4 = 5 brings a pawn out
    assert luck[(1, 2)] < 0


def test_the_roll_that_reaches_the_red_arse_shortcut_is_the_lucky_one():
    luck = luck_of_each_roll("red-arse", "red-arse r:n,n,14,30/b:h2,h3,h4,18 r roll")
    assert luck[(4,)] == max(luck.values())


@pytest.mark.parametrize("game,text", POSITIONS)
def test_the_evaluation_gives_every_seat_a_chance_summing_to_one(game, text):
    rules = rules_for(game)
    chances = evaluation.chances(rules, rules.parse(text))
    assert len(chances) == len(rules.parse(text).colors)
    assert sum(chances) == pytest.approx(1.0)
    assert all(0 < chance < 1 for chance in chances)


@pytest.mark.parametrize("game,text,leader", [
    ("parcheesi", "parcheesi y:H,H,H,h6/r:n,n,n,n y roll", 0),
    ("red-arse", "red-arse r:h2,h3,h4,5/b:n,n,n,n b roll", 0),
    ("ludo", "ludo r:G,G,G,h5/b:n,n,n,n b roll", 0),
])
def test_a_seat_nearly_home_is_the_evaluation_s_favourite(game, text, leader):
    rules = rules_for(game)
    chances = evaluation.chances(rules, rules.parse(text))
    assert chances[leader] == max(chances) and chances[leader] > 0.7


def test_a_finished_ludo_game_gives_its_first_placed_every_chance():
    rules = rules_for("ludo")
    state = rules.parse("ludo r:G,G,G,G/b:G,G,G,30/g:n,n,n,n b roll placed:r")
    assert evaluation.chances(rules, state) == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("game,players", [("parcheesi", 4), ("red-arse", 6), ("ludo", 4)])
def test_a_game_s_luck_counts_every_roll_of_every_player_once(game, players):
    keys = Keys.for_tests("luck")
    played = play_random(game, players, "luck", 0, keys, table_options(game, players))
    luck = game_luck(played)
    rolls = [seat for kind, seat, _ in played.match.history if kind == "roll"]
    assert luck["rolls"] == [rolls.count(seat) for seat in range(players)]
    assert len(luck["luck"]) == players and any(luck["luck"])
    assert game_luck(played) == luck  # the same game, the same luck


def test_fitting_finds_the_weights_that_made_the_winners():
    """Winners drawn from the evaluation's own softmax with known weights: the fit recovers
    them, and scores better than weights that ignore every feature."""
    rng = random.Random(7)
    truth = (1.2, -0.8, 0.3, 0.2, 0.1)
    rows = []
    for _ in range(3000):
        seats = [tuple(rng.uniform(0, 4) if i < 2 else rng.randint(0, 4) if i < 4 else
                       float(s == 0) for i in range(5)) for s in range(4)]
        shares = [pow(2.718281828459045, sum(w * f for w, f in zip(truth, row)))
                  for row in seats]
        won = rng.choices(range(4), shares)[0]
        rows.append((seats, won))
    found = fit(rows)
    assert found == pytest.approx(truth, abs=0.25)
    assert brier(rows, found) < brier(rows, (0.0,) * 5)
