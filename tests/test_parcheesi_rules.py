"""Every rule sentence of shared/rules/parcheesi.txt and every recorded choice, as scenarios.

Each scenario is a position in notation (docs/notation.md), the dice, and what a player would
see: the legal moves, or the position after them. Square numbers: yellow enters on 5, blue on 22,
red on 39, green on 56; safety spaces 5 12 17 22 29 34 39 46 51 56 63 68.
"""

import pytest

from app.engine.core import first_player
from app.engine.parcheesi import Parcheesi

R = Parcheesi()


def moves(position: str) -> list[str]:
    state = R.parse(position)
    return [R.describe(state, m) for m in R.legal_moves(state)]


def play(position: str, *chosen: str) -> str:
    """Play moves by their description; return the position after them."""
    state = R.parse(position)
    for text in chosen:
        options = {R.describe(state, m): m for m in R.legal_moves(state)}
        assert text in options, f"{text!r} not among {list(options)}"
        R.play(state, options[text])
    return R.format(state)


def roll(position: str, dice: tuple[int, int]) -> str:
    state = R.parse(position)
    R.roll(state, dice)
    return R.format(state)


# -- Entering --------------------------------------------------------------------------------

def test_a_single_five_enters_a_pawn():
    assert moves("parcheesi y:n,n,n,n/r:n,n,n,n y 6,5") == ["y enter 5"]
    assert play("parcheesi y:n,n,n,n/r:n,n,n,n y 6,5", "y enter 5") == \
        "parcheesi y:5,n,n,n/r:n,n,n,n y 6"


def test_two_dice_adding_to_five_enter_using_both():
    assert moves("parcheesi y:n,n,n,n/r:n,n,n,n y 3,2") == ["y enter 2+3"]
    assert play("parcheesi y:n,n,n,n/r:n,n,n,n y 3,2", "y enter 2+3") == \
        "parcheesi y:5,n,n,n/r:n,n,n,n r roll"


def test_without_a_five_nobody_leaves_the_nest_and_the_turn_passes():
    assert roll("parcheesi y:n,n,n,n/r:n,n,n,n y roll", (6, 3)) == \
        "parcheesi y:n,n,n,n/r:n,n,n,n r roll"


def test_entering_is_compulsory_when_a_five_can_enter():
    # Decision 1: the 5 must bring a pawn out even though 10-15 would be a fine move.
    assert moves("parcheesi y:10,n,n,n/r:n,n,n,n y 5,4") == ["y enter 5"]
    assert moves("parcheesi y:10,n,n,n/r:n,n,n,n y 4,1") == ["y enter 1+4"]


def test_no_entering_onto_a_blockade_on_the_entry_space():
    # Yellow's own blockade on 5: the 5 is played on the track instead.
    assert moves("parcheesi y:5,5,n,n/r:n,n,n,n y 5,3") == ["y 5-8 3", "y 5-10 5"]
    # Nor onto a rival blockade sitting there.
    assert moves("parcheesi y:20,n,n,n/r:5,5,n,n y 5,3") == ["y 20-23 3", "y 20-25 5"]


def test_entering_captures_a_rival_on_your_entry_space_and_earns_twenty():
    after = play("parcheesi y:n,n,n,n/r:5,n,n,n y 5,6", "y enter 5")
    assert after == "parcheesi y:5,n,n,n/r:n,n,n,n y 20,6"


# -- Moving ----------------------------------------------------------------------------------

def test_each_die_is_a_separate_hop_and_the_halfway_space_must_be_legal():
    # Red sits on safety space 12: yellow can't stop there with the 3, so the only way to use
    # both dice is 1 first (9-10), then 3 (10-13), passing over red.
    assert moves("parcheesi y:9,H,H,H/r:12,n,n,n y 3,1") == ["y 9-10 1"]
    assert play("parcheesi y:9,H,H,H/r:12,n,n,n y 3,1", "y 9-10 1", "y 10-13 3") == \
        "parcheesi y:13,H,H,H/r:12,n,n,n r roll"


def test_use_as_many_values_as_you_can_judged_over_the_whole_roll():
    # Decision 2: after 20-25 the 6 goes 25-31 but h3 can no longer get Home (it needs exactly
    # 5): two values. 20-26 then h3-Home then the 10 bonus uses three, and so does h3-Home
    # first. So 20-25 is not legal.
    assert moves("parcheesi y:20,h3,H,H/r:n,n,n,n y 6,5") == ["y h3-H 5", "y 20-26 6"]


def test_dice_that_cannot_be_used_are_lost():
    # Only the 2 fits (each pawn's count to Home is exact): after it the 6 is lost, red rolls.
    assert moves("parcheesi y:h4,h5,H,H/r:n,n,n,n y 6,2") == ["y h4-h6 2", "y h5-h7 2"]
    assert play("parcheesi y:h4,h5,H,H/r:n,n,n,n y 6,2", "y h5-h7 2") == \
        "parcheesi y:h4,h7,H,H/r:n,n,n,n r roll"


def test_a_pawn_may_take_both_dice():
    assert play("parcheesi y:30,n,n,n/r:n,n,n,n y 6,3", "y 30-33 3", "y 33-39 6") == \
        "parcheesi y:39,n,n,n/r:n,n,n,n r roll"


def test_exact_count_to_home():
    # h5 needs exactly 3 (h6, h7, Home): a 4 or a 6 overshoots and can't be played.
    assert roll("parcheesi y:h5,H,H,H/r:n,n,n,n y roll", (4, 6)) == \
        "parcheesi y:h5,H,H,H/r:n,n,n,n r roll"
    assert moves("parcheesi y:h5,H,H,H/r:n,n,n,n y 4,3") == ["y h5-H 3"]


# -- Doubles ---------------------------------------------------------------------------------

def test_doubles_roll_again_after_moving():
    after = play("parcheesi y:30,n,n,n/r:n,n,n,n y 4,4 d1", "y 30-34 4", "y 34-38 4")
    assert after == "parcheesi y:38,n,n,n/r:n,n,n,n y roll d1"


def test_doubles_give_the_opposite_faces_when_all_four_pawns_are_out():
    assert roll("parcheesi y:10,20,30,40/r:n,n,n,n y roll", (6, 6)).endswith("y 6,6,1,1 d1")
    # A pawn still in the nest: just the two sixes.
    assert roll("parcheesi y:10,20,30,n/r:n,n,n,n y roll", (6, 6)).endswith("y 6,6 d1")


def test_pawns_already_home_count_as_out_of_the_nest():
    # Decision 5.
    assert roll("parcheesi y:10,H,H,H/r:n,n,n,n y roll", (2, 2)).endswith("y 5,5,2,2 d1")


def test_the_four_values_of_doubles_may_be_played_in_any_order():
    position = "parcheesi y:10,20,30,40/r:n,n,n,n y 6,6,1,1 d1"
    assert "y 10-11 1" in moves(position) and "y 10-16 6" in moves(position)


def test_doubles_roll_again_even_when_they_could_not_be_played():
    # Decision 4: nothing can move on 3-3 from the nest, yet yellow rolls again, doubles counted.
    assert roll("parcheesi y:n,n,n,n/r:n,n,n,n y roll", (3, 3)) == \
        "parcheesi y:n,n,n,n/r:n,n,n,n y roll d1"


def test_three_doubles_send_the_pawn_nearest_home_back_and_end_the_turn():
    # Decision 7: the home path counts; the third roll is not played.
    after = roll("parcheesi y:30,h2,60,n/r:n,n,n,n y roll d2", (3, 3))
    assert after == "parcheesi y:30,n,60,n/r:n,n,n,n r roll"


def test_a_third_non_double_roll_is_just_played():
    assert roll("parcheesi y:30,n,n,n/r:n,n,n,n y roll d2", (3, 4)) == \
        "parcheesi y:30,n,n,n/r:n,n,n,n y 4,3"


# -- Capturing and bonuses -------------------------------------------------------------------

def test_landing_exactly_on_a_single_rival_captures_it_for_twenty():
    after = play("parcheesi y:10,n,n,n/r:14,n,n,n y 4,6", "y 10-14 4")
    assert after == "parcheesi y:14,n,n,n/r:n,n,n,n y 20,6"


def test_reaching_home_earns_ten():
    after = play("parcheesi y:h5,30,n,n/r:n,n,n,n y 3,6", "y h5-H 3")
    assert after == "parcheesi y:H,30,n,n/r:n,n,n,n y 10,6"


def test_a_bonus_is_played_whole_by_one_pawn():
    position = "parcheesi y:14,30,n,n/r:n,n,n,n y 20"
    assert moves(position) == ["y 14-34 20", "y 30-50 20"]


def test_a_bonus_no_pawn_can_use_is_lost():
    # After capturing, yellow's only other pawn is in the home path: the 20 fits nowhere.
    # Red's blockade on 30 stops the capturer going 20: the bonus is lost, the 2 still played.
    position = play("parcheesi y:10,H,H,H/r:14,30,30,n y 4,2", "y 10-14 4")
    assert moves(position) == ["y 14-16 2"]
    assert play(position, "y 14-16 2") == "parcheesi y:16,H,H,H/r:n,30,30,n r roll"


def test_bonuses_join_the_values_still_to_play_in_any_order():
    # Decision 3: with the 20 earned, the 6 and the 20 may go in either order.
    position = play("parcheesi y:10,30,n,n/r:14,n,n,n y 4,6", "y 10-14 4")
    assert moves(position) == ["y 14-20 6", "y 30-36 6", "y 14-34 20", "y 30-50 20"]


def test_a_capture_made_with_a_bonus_earns_another_twenty():
    after = play("parcheesi y:10,30,n,n/r:50,n,n,n y 20", "y 30-50 20")
    assert after == "parcheesi y:10,50,n,n/r:n,n,n,n y 20"


# -- Safety spaces ---------------------------------------------------------------------------

def test_no_capture_on_a_safety_space_and_no_landing_on_a_rival_there():
    # Red on 12 (safety): yellow can't land there.
    assert "y 8-12 4" not in moves("parcheesi y:8,n,n,n/r:12,n,n,n y 4,6")
    assert moves("parcheesi y:8,n,n,n/r:12,n,n,n y 4,6") == ["y 8-14 6"]


def test_safety_spaces_may_be_passed():
    assert play("parcheesi y:8,H,H,H/r:12,n,n,n y 6,1", "y 8-14 6", "y 14-15 1") == \
        "parcheesi y:15,H,H,H/r:12,n,n,n r roll"


# -- Blockades -------------------------------------------------------------------------------

def test_no_pawn_passes_or_lands_on_a_blockade_not_even_your_own():
    # Yellow's own blockade on 14 stops its pawn on 10: 10-15 and 10-14 are both out.
    assert moves("parcheesi y:10,14,14,H/r:n,n,n,n y 5,4") == \
        ["y 14-18 4", "y 14-19 5"]
    # A rival blockade too.
    assert moves("parcheesi y:10,H,H,H/r:13,13,n,n y 5,2") == ["y 10-12 2"]


def test_at_most_two_pawns_on_a_space():
    # 10-14 would make three on 14 (and it is a blockade): never.
    assert "y 10-14 4" not in moves("parcheesi y:10,14,14,H/r:n,n,n,n y 4,1")


def test_two_pawns_of_one_color_form_a_blockade():
    after = play("parcheesi y:10,14,n,n/r:n,n,n,n y 4,6", "y 10-14 4")
    assert after.startswith("parcheesi y:14,14,n,n")
    # And the blockade now holds red back.
    assert "r 8-15 6" not in moves("parcheesi y:14,14,n,n/r:8,n,n,n r 6,1")


def test_a_blockade_may_not_move_together_onto_one_new_space():
    # Decision 6: both pawns of the blockade on 30 may move 3, but not both onto 33.
    # The pawn that moved first may go on; its partner may not join it on 33.
    position = play("parcheesi y:30,30,n,n/r:n,n,n,n y 3,3 d1", "y 30-33 3")
    assert moves(position) == ["y 33-36 3"]


def test_a_blockade_may_split_and_move_on():
    position = "parcheesi y:30,30,n,n/r:n,n,n,n y 3,4"
    after = play(position, "y 30-33 3", "y 30-34 4")
    assert after == "parcheesi y:33,34,n,n/r:n,n,n,n r roll"


# -- Turns, winning, who starts ---------------------------------------------------------------

def test_turns_go_around_the_board_in_the_direction_the_pawns_move():
    state = R.initial((0, 1, 2, 3), 0)
    assert R.format(state) == "parcheesi y:n,n,n,n/b:n,n,n,n/r:n,n,n,n/g:n,n,n,n y roll"
    with pytest.raises(ValueError):
        R.initial((0, 2, 1), 0)


@pytest.mark.parametrize("seats", ["y:n,n,n,n/r:n,n,n,n/b:n,n,n,n", "y:n,n,n,n/y:n,n,n,n",
                                   "y:n,n,n,n"])
def test_notation_refuses_seats_a_game_cannot_have(seats):
    # Turn order goes around the board (y b r g), as ``initial`` has it; colors differ.
    with pytest.raises(ValueError, match="direction the pawns move|different colors"):
        R.parse(f"parcheesi {seats} y roll")


def test_first_to_get_all_four_pawns_home_wins():
    after = play("parcheesi y:h7,H,H,H/r:n,n,n,n y 1,3", "y h7-H 1")
    assert after == "parcheesi y:H,H,H,H/r:n,n,n,n y won"


def test_who_goes_first_everyone_rolls_and_ties_roll_again():
    dice = iter([6, 6, 5, 6, 6, 6, 3, 4, 4, 4, 6, 5])  # 12, 11, 12, 7: y and r roll again
    seat, rounds = first_player([0, 1, 2, 3], 2, lambda seat, count: (next(dice), next(dice)))
    assert rounds == [{0: 12, 1: 11, 2: 12, 3: 7}, {0: 8, 2: 11}]
    assert seat == 2 and next(dice, None) is None


def test_a_capture_is_compulsory_when_its_bonus_can_then_be_played():
    # Decision 2: bonuses count as values, so 10-14 (capture, then 20 and 6) beats any play of
    # the two dice alone.
    assert moves("parcheesi y:10,H,H,H/r:14,n,n,n y 6,4") == ["y 10-14 4"]


def test_there_is_no_play_the_larger_die_rule():
    # Only one die can be played (h1 needs 7 to get Home): either one, the player's choice.
    assert moves("parcheesi y:h1,H,H,H/r:n,n,n,n y 6,5") == ["y h1-h6 5", "y h1-h7 6"]


def test_entering_comes_first_even_when_it_costs_a_value():
    # Decision 1 before decision 2: the 5 must enter; the 6 then has no legal move and is lost,
    # although 23-28-34 would have used both dice.
    assert moves("parcheesi y:n,n,n,23/r:29,8,8,n y 6,5") == ["y enter 5"]
    assert play("parcheesi y:n,n,n,23/r:29,8,8,n y 6,5", "y enter 5") == \
        "parcheesi y:5,n,n,23/r:29,8,8,n r roll"


def test_a_blockade_stays_split_for_the_rest_of_the_turn():
    # Decision 6, "in the same turn": after doubles, the re-roll may not bring the pair
    # together on a new space either.
    position = play("parcheesi y:30,30,n,n/r:n,n,n,n y 3,3 d1", "y 30-33 3", "y 33-36 3")
    assert position == "parcheesi y:36,30,n,n/r:n,n,n,n y roll d1 pairs:01@30"
    rerolled = roll(position, (6, 1))
    assert moves(rerolled) == ["y 36-37 1", "y 30-31 1", "y 36-42 6"]


def test_a_move_from_a_shared_space_moves_its_first_pawn_even_for_the_blockade_rule():
    # Green's pawns 0 and 3 were a blockade on 56 when the turn began; pawn 0 has since gone to
    # 58. 58-63 would bring it beside pawn 2; the 3 from 63 then moves pawn 0 (one move per
    # space and value: the first pawn's), capturing on 66 for 20 that takes 39 Home for 10,
    # and that 10 could only be played by pawn 3 joining pawn 0 on 66: not allowed. So 58-63
    # leads to three values at most, against four for the moves listed.
    position = "parcheesi y:n,6,5,5/b:66,52,42,22/r:44,20,n,n/g:58,39,63,56 g 5,3 pairs:03@56"
    assert moves(position) == ["g 63-66 3", "g 56-61 5"]


def test_a_blockade_on_the_home_path_blocks_its_own_pawns():
    # h1 can't go 4 (past yellow's own blockade on h3); the blockade's pawns may leave it.
    assert moves("parcheesi y:h1,h3,h3,H/r:n,n,n,n y 4,1") == \
        ["y h1-h2 1", "y h3-h4 1", "y h3-h7 4"]


def test_third_doubles_with_no_pawn_on_the_board_still_end_the_turn():
    assert roll("parcheesi y:n,n,n,H/r:n,n,n,n y roll d2", (5, 5)) == \
        "parcheesi y:n,n,n,H/r:n,n,n,n r roll"


def test_two_players_sit_opposite_and_three_take_the_first_three_colors():
    from app.engine.games import default_colors
    assert default_colors("parcheesi", 2) == (0, 2)
    assert default_colors("parcheesi", 3) == (0, 1, 2)
    assert R.format(R.initial((0, 2), 1)) == "parcheesi y:n,n,n,n/r:n,n,n,n r roll"


def test_moves_read_in_a_players_words_on_the_page():
    def labels(position):
        state = R.parse(position)
        return [R.move_label(0, m) for m in R.legal_moves(state)]

    assert labels("parcheesi y:n,10,h5,H/r:n,n,n,n y 5,3") == ["Enter a pawn (5)"]
    assert labels("parcheesi y:n,n,n,n/r:n,n,n,n y 3,2") == ["Enter a pawn (2 + 3)"]
    assert labels("parcheesi y:H,10,h2,H/r:n,n,n,n y 3,2") == [
        "Pawn on 10 to 12 (2)", "Pawn on home row 2 to home row 4 (2)",
        "Pawn on 10 to 13 (3)", "Pawn on home row 2 to home row 5 (3)"]
    assert labels("parcheesi y:h7,30,H,H/r:n,n,n,n y 1") == ["Pawn on home row 7 to Home (1)"]
