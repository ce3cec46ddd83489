"""Ludo (Argentine rules) scenarios: a position in notation, a die, what the player may do.

Squares as in docs/rules/ludo.md. On the 52-square board the exits are 1 (red), 14 (blue),
27 (green) and 40 (yellow); the stars are 8 squares after each exit (9, 22, 35, 48). Red's lap
ends on 51, then its home column h1..h5 and the goal G. The 78-square board adds purple (exit 53)
and orange (exit 66).
"""

from __future__ import annotations

import pytest
import scenarios

from app.engine.core import MOVE, OVER, ROLL, Match
from app.engine.games import rules_for

FOUR = rules_for("ludo")
SIX = rules_for("ludo", 6)


moves, play, roll = scenarios.for_rules(FOUR)


@pytest.mark.parametrize("text,rules", [
    ("ludo r:n,1,h3,G/b:14,14,n,12 b 5", FOUR),
    ("ludo6 r:n,n,n,n/p:53,n,n,n/o:G,G,G,G p roll placed:o", SIX),
    ("ludo r:G,G,G,G/b:5,n,n,n/g:G,G,G,G g over placed:g,r,b", FOUR),
])
def test_notation_round_trips(text, rules):
    assert rules.format(rules.parse(text)) == text


@pytest.mark.parametrize("seats", ["r:n,n,n,n/g:n,n,n,n/b:n,n,n,n", "r:n,n,n,n/r:n,n,n,n"])
def test_notation_refuses_seats_a_game_cannot_have(seats):
    with pytest.raises(ValueError, match="direction pieces move|different colors"):
        FOUR.parse(f"ludo {seats} r roll")


def test_a_6_brings_a_piece_out_onto_its_exit():
    assert moves("ludo r:n,n,n,n/b:n,n,n,n r 6") == ["r out 6"]
    assert play("ludo r:n,n,n,n/b:n,n,n,n r 6", "r out 6") == "ludo r:1,n,n,n/b:n,n,n,n r roll"


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5])
def test_nothing_else_brings_a_piece_out_and_the_turn_passes(die):
    assert roll("ludo r:n,n,n,n/b:n,n,n,n r roll", die) == "ludo r:n,n,n,n/b:n,n,n,n b roll"


def test_every_6_moves_and_rolls_again_without_limit():
    state = FOUR.parse("ludo r:5,n,n,n/b:n,n,n,n r roll")
    for _ in range(5):  # five sixes in a row: still red's roll each time
        FOUR.roll(state, (6,))
        FOUR.play(state, FOUR.legal_moves(state)[-1])
        assert (state.phase, state.turn) == (ROLL, 0)


def test_a_6_with_no_possible_move_still_rolls_again():
    assert roll("ludo r:G,G,G,h2/b:n,n,n,n r roll", 6) == "ludo r:G,G,G,h2/b:n,n,n,n r roll"


def test_landing_on_a_rival_sends_it_home_and_rolls_again():
    assert play("ludo r:10,n,n,n/b:n,n,n,12 r 2", "r 10-12 2") == \
        "ludo r:12,n,n,n/b:n,n,n,n r roll"


def test_landing_on_several_rival_pieces_sends_them_all_home():
    assert play("ludo r:10,n,n,n/b:12,12,n,n/g:12,n,n,n r 2", "r 10-12 2") == \
        "ludo r:12,n,n,n/b:n,n,n,n/g:n,n,n,n r roll"


@pytest.mark.parametrize("square", [9, 14, 22, 27])  # a star, an exit, a star, an exit
def test_exits_and_stars_are_safe_squares_shared_without_capture(square):
    text = f"ludo r:{square - 3},n,n,n/b:{square},n,n,n/g:{square},n,n,n r 3"
    assert play(text, f"r {square - 3}-{square} 3") == \
        f"ludo r:{square},n,n,n/b:{square},n,n,n/g:{square},n,n,n b roll"


def test_coming_out_onto_an_exit_where_a_rival_stands_shares_it():
    assert play("ludo r:n,n,n,n/b:1,n,n,n r 6", "r out 6") == \
        "ludo r:1,n,n,n/b:1,n,n,n r roll"


def test_squares_may_be_shared_and_no_barrier_forms():
    # Two blue pieces on 12 block nothing: red passes them and may even share with its own.
    assert moves("ludo r:10,11,n,n/b:12,12,n,n r 3") == ["r 10-13 3", "r 11-14 3"]
    assert play("ludo r:10,13,n,n/b:n,n,n,n r 3", "r 10-13 3") == \
        "ludo r:13,13,n,n/b:n,n,n,n b roll"


def test_pieces_sharing_a_square_offer_one_move():
    assert moves("ludo r:13,13,n,n/b:n,n,n,n r 2") == ["r 13-15 2"]


def test_the_goal_needs_the_exact_count():
    assert moves("ludo r:h3,n,n,n/b:n,n,n,n r 3") == ["r h3-G 3"]
    assert roll("ludo r:h3,G,G,G/b:n,n,n,n r roll", 4) == "ludo r:h3,G,G,G/b:n,n,n,n b roll"


def test_a_piece_turns_into_its_home_column_after_its_lap():
    assert moves("ludo r:50,n,n,n/b:n,n,n,n r 4") == ["r 50-h3 4"]
    assert moves("ludo r:51,n,n,n/b:n,n,n,n r 1") == ["r 51-h1 1"]


def test_no_rival_is_ever_captured_in_a_home_column():
    assert play("ludo r:51,n,n,n/b:n,n,n,n r 2", "r 51-h2 2") == \
        "ludo r:h2,n,n,n/b:n,n,n,n b roll"


def test_reaching_the_goal_rolls_again():
    assert play("ludo r:h3,n,n,n/b:n,n,n,n r 3", "r h3-G 3") == "ludo r:G,n,n,n/b:n,n,n,n r roll"


def test_a_6_that_captures_repeats_only_once():
    state = FOUR.parse("ludo r:6,n,n,n/b:12,n,n,n r 6")
    FOUR.play(state, FOUR.legal_moves(state)[0])
    assert (state.phase, state.turn) == (ROLL, 0)
    FOUR.roll(state, (2,))
    FOUR.play(state, FOUR.legal_moves(state)[0])
    assert (state.phase, state.turn) == (ROLL, 1)  # one extra roll only, now blue's turn


def test_completing_the_four_places_the_player_without_an_extra_roll():
    assert play("ludo r:h5,G,G,G/b:5,n,n,n/g:n,n,n,n r 1", "r h5-G 1") == \
        "ludo r:G,G,G,G/b:5,n,n,n/g:n,n,n,n b roll placed:r"


def test_finished_players_are_skipped():
    assert roll("ludo r:G,G,G,G/b:5,n,n,n/g:n,n,n,n g roll placed:r", 3) == \
        "ludo r:G,G,G,G/b:5,n,n,n/g:n,n,n,n b roll placed:r"


def test_the_game_ends_when_one_player_is_left_who_takes_last_place():
    assert play("ludo r:G,G,G,G/b:h4,G,G,G/g:n,n,n,n b 2 placed:r", "b h4-G 2") == \
        "ludo r:G,G,G,G/b:G,G,G,G/g:n,n,n,n r over placed:r,b,g"
    state = FOUR.parse("ludo r:G,G,G,G/b:G,G,G,G/g:n,n,n,n r over placed:r,b,g")
    assert state.winner == 0 and state.phase == OVER


def test_a_6_that_finishes_a_piece_but_completes_the_four_gives_no_roll():
    assert play("ludo r:51,G,G,G/b:n,n,n,n/g:n,n,n,n r 6", "r 51-G 6") == \
        "ludo r:G,G,G,G/b:n,n,n,n/g:n,n,n,n b roll placed:r"


def test_the_six_arm_board_has_78_squares_and_six_exits():
    assert SIX.board.track == 78
    assert sorted(SIX.board.entries) == [1, 14, 27, 40, 53, 66]
    assert moves("ludo6 r:77,n,n,n/o:n,n,n,n r 1", SIX) == ["r 77-h1 1"]
    assert play("ludo6 r:n,n,n,n/o:70,n,n,n o 4", "o 70-74 4", SIX) == \
        "ludo6 r:n,n,n,n/o:74,n,n,n r roll"  # 74 is orange's star: no capture, no roll
    assert play("ludo6 r:75,n,n,n/o:73,n,n,n o 2", "o 73-75 2", SIX) == \
        "ludo6 r:n,n,n,n/o:75,n,n,n o roll"


def test_everyone_rolls_for_first_and_ties_roll_again():
    match = Match(FOUR, (0, 1, 2, 3), scenarios.Scripted([4, 6, 6, 1, 5, 3]))
    assert match.turn == 1 and match.start_rounds[-1] == {1: 5, 2: 3}
    assert match.phase == ROLL


def disqualified(text: str, color: str) -> str:
    state = FOUR.parse(text)
    FOUR.disqualify(state, state.colors.index("rbgy".index(color)))
    return FOUR.format(state)


def test_a_disqualified_player_s_pieces_leave_the_board_and_the_turn_passes():
    # Blue, to move with a 6 in hand, runs out of time a third time: green rolls next.
    assert disqualified("ludo r:3,n,n,n/b:20,h2,n,n/g:30,n,n,n b 6", "b") == \
        "ludo r:3,n,n,n/b:n,n,n,n/g:30,n,n,n g roll out:b"


def test_the_last_player_left_wins_above_the_disqualified_the_first_of_them_last():
    after_blue = "ludo r:3,n,n,n/b:n,n,n,n/g:30,n,n,n g roll out:b"
    assert disqualified(after_blue, "g") == \
        "ludo r:3,n,n,n/b:n,n,n,n/g:n,n,n,n r over placed:r,g,b out:b,g"
    # Finishers keep their places above the one left.
    assert disqualified("ludo r:G,G,G,G/b:9,n,n,n/g:30,n,n,n/y:5,n,n,n y roll placed:r", "y") \
        == "ludo r:G,G,G,G/b:9,n,n,n/g:30,n,n,n/y:n,n,n,n b roll placed:r out:y"
    assert disqualified("ludo r:G,G,G,G/b:9,n,n,n/g:30,n,n,n/y:n,n,n,n b roll placed:r out:y",
                        "b") == \
        "ludo r:G,G,G,G/b:n,n,n,n/g:30,n,n,n/y:n,n,n,n r over placed:r,g,b,y out:y,b"


def test_a_disqualification_in_the_log_replays_at_its_step():
    from app.engine.dice import TableDice

    def match(out):
        return Match(FOUR, (0, 1, 2), TableDice(bytes(32), (0, 1, 2), per_seat=True), out=out)

    live = match(())
    for _ in range(5):
        live.step(0)
    live.disqualify(1)
    replayed = match((0, 5, 0))
    for _ in range(5):
        replayed.step(0)
    assert FOUR.format(replayed.state) == FOUR.format(live.state)
    assert "out:b" in FOUR.format(replayed.state)
