"""Red Arse rule scenarios: a position in notation, a die, and what the player may do.

Holes are numbered as in docs/rules/red-arse.md. On the 4-player board red's inside corner is 1,
its outside corner 6, home entry 8 and start 10; every seat's holes are 14 further on (blue 15,
20, 22, 24; green 29, 34, 36, 38; yellow 43, 48, 50, 52). The 6-player board adds purple (57, 62,
64, 66) and orange (71, 76, 78, 80) after yellow, 84 holes in all.
"""

from __future__ import annotations

import pytest
import scenarios

from app.engine.core import CLAIM, MOVE, OVER, ROLL, Match
from app.engine.games import rules_for
from app.engine.red_arse import table_of
from app.engine.red_arse_settings import options_for

FOUR = rules_for("red-arse")
SIX = rules_for("red-arse", options_for(6))


def table(board=4, off=()):
    return rules_for("red-arse", options_for(board, off))


moves, play, roll = scenarios.for_rules(FOUR)


# -- notation ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text,rules", [
    ("red-arse r:n,10,c,h2/b:h1r,22,n,h4 r 4", FOUR),
    ("red-arse6 r:n,n,n,n/g:1,2,3,4/p:h4,h3,h2,h1 p claim off:raids,claim",
     table(6, ["raids", "claim"])),
    ("red-arse r:h1,h2,h3,h4/b:n,n,n,n r won", FOUR),
])
def test_notation_round_trips(text, rules):
    assert rules.format(rules.parse(text)) == text


def test_notation_refuses_two_marbles_in_one_hole_and_the_other_board():
    with pytest.raises(ValueError):
        FOUR.parse("red-arse r:5,5,n,n/b:n,n,n,n r 1")
    with pytest.raises(ValueError):
        FOUR.parse("red-arse6 r:n,n,n,n/b:n,n,n,n r 1")


@pytest.mark.parametrize("text", ["red-arse r:n,n,n,n/b:n,n,n,n r 1 off:raids",
                                  "red-arse6 r:n,n,n,n/b:n,n,n,n r 1 off:raids,claim"])
def test_a_position_names_its_table_and_only_that_table_reads_it(text):
    rules = rules_for("red-arse", table_of(text))
    assert rules.format(rules.parse(text)) == text
    with pytest.raises(ValueError, match="another table"):
        FOUR.parse(text)


@pytest.mark.parametrize("text", ["red-arse r:n,n,n,n/b:n,n,n,n r 1 of:raids",
                                  "red-arse r:n,n,n,n/b:n,n,n,n r 1 off:rades",
                                  "red-arse r:n,n,n,n/b:n,n,n,n r 1 off:raids off:claim",
                                  "red-arse r:n,n,n,n/g:n,n,n,n/b:n,n,n,n r 1"])
def test_notation_refuses_unknown_fields_and_rules_and_seats_out_of_order(text):
    with pytest.raises(ValueError):
        table(4, ["raids"]).parse(text)


# -- getting out ----------------------------------------------------------------------------------

@pytest.mark.parametrize("die", [1, 6])
def test_a_marble_leaves_base_on_a_1_or_a_6_onto_its_start_hole(die):
    assert moves(f"red-arse r:n,n,n,n/b:n,n,n,n r {die}") == [f"r n-10 {die}"]


@pytest.mark.parametrize("die", [2, 3, 4, 5])
def test_no_other_roll_gets_a_marble_out_and_the_turn_passes(die):
    assert roll("red-arse r:n,n,n,n/b:n,n,n,n r roll", die) == "red-arse r:n,n,n,n/b:n,n,n,n b roll"


def test_coming_out_on_a_1_earns_no_re_roll_though_the_start_is_an_outside_corner():
    assert play("red-arse r:n,n,n,n/b:n,n,n,n r 1", "r n-10 1") == \
        "red-arse r:10,n,n,n/b:n,n,n,n b roll"


def test_coming_out_onto_an_opponent_kills_it_and_rolls_again():
    assert play("red-arse r:n,n,n,n/b:10,n,n,n r 1", "r n-10 1") == \
        "red-arse r:10,n,n,n/b:n,n,n,n r claim"


def test_a_marble_cannot_come_out_onto_its_own_marble():
    assert moves("red-arse r:n,n,n,10/b:n,n,n,n r 1") == ["r 10-11 1"]


# -- moving, jumping ------------------------------------------------------------------------------

def test_marbles_jump_other_players_marbles():
    assert moves("red-arse r:11,n,n,n/b:12,13,n,n r 3") == ["r 11-14 3"]


def test_marbles_never_jump_or_land_on_their_own():
    assert moves("red-arse r:11,12,n,n/b:n,n,n,n r 3") == ["r 12-15 3"]
    assert moves("red-arse r:11,14,n,n/b:n,n,n,n r 3") == ["r 14-17 3"]


def test_with_no_possible_move_the_turn_ends():
    # Red's last marble would have to jump its own marbles in the home column.
    assert roll("red-arse r:7,h2,h3,h4/b:n,n,n,n r roll", 5) == \
        "red-arse r:7,h2,h3,h4/b:n,n,n,n b roll"


def test_a_6_with_no_possible_move_still_rolls_again():
    assert roll("red-arse r:7,h2,h3,h4/b:n,n,n,n r roll", 6) == \
        "red-arse r:7,h2,h3,h4/b:n,n,n,n r claim"


def test_moves_are_compulsory_and_in_a_fixed_order():
    state = FOUR.parse("red-arse r:n,11,20,n/b:n,n,n,n r 1")
    assert [FOUR.describe(state, m) for m in FOUR.legal_moves(state)] == \
        ["r n-10 1", "r 11-12 1", "r 20-21 1"]


# -- home -----------------------------------------------------------------------------------------

def test_a_marble_turns_into_its_home_column_by_exact_count():
    assert moves("red-arse r:7,n,n,n/b:n,n,n,n r 5") == ["r 7-h4 5"]
    assert moves("red-arse r:7,n,n,n/b:n,n,n,n r 2") == ["r 7-h1 2"]
    assert roll("red-arse r:7,h1,h2,h3/b:n,n,n,n r roll", 6) == \
        "red-arse r:7,h1,h2,h3/b:n,n,n,n r claim"  # 6 overshoots: nothing moves


def test_a_marble_that_has_gone_around_never_starts_a_second_lap():
    assert moves("red-arse r:8,n,n,n/b:n,n,n,n r 3") == ["r 8-h3 3"]


def test_no_jumping_your_own_marbles_in_home():
    # 7 -> 8 -> h1 -> (h2 is red's) -> h3: not allowed, nor h2 backing out over 7; h1 is.
    assert moves("red-arse r:7,h2,n,n/b:n,n,n,n r 4") == ["r 7-3 -4"]
    assert moves("red-arse r:7,h2,n,n/b:n,n,n,n r 2") == ["r 7-h1 2", "r h2-h4 2"]


def test_locked_in_marbles_cannot_move_but_others_in_home_do():
    # h4 and h3 are filled from the top: locked. h1 is not (h2 is a gap) and moves up.
    assert moves("red-arse r:h1,h3,h4,n/b:n,n,n,n r 1") == ["r h1-h2 1", "r n-10 1"]
    # A marble in h2 with h3 empty above it is not locked either.
    assert moves("red-arse r:h2,h4,n,n/b:n,n,n,n r 1") == ["r h2-h3 1", "r n-10 1"]


def test_home_marbles_back_out_on_a_4_and_must_when_nothing_else_moves():
    # h1's only move: 4 back (h1 -> 8 -> 7 -> 6 -> 5); h3 and h4 are locked.
    assert moves("red-arse r:h1,h3,h4,n/b:n,n,n,n r 4") == ["r h1-5 -4"]
    # With another marble that can go forward, backing out is a choice.
    assert moves("red-arse r:h1,h3,h4,30/b:n,n,n,n r 4") == ["r h1-5 -4", "r 30-34 4",
                                                               "r 30-26 -4"]


def test_backing_out_of_home_lands_on_an_outside_corner_and_rolls_again():
    state = FOUR.parse("red-arse r:h2,n,n,n/b:n,n,n,n r 4")
    assert [FOUR.describe(state, m) for m in FOUR.legal_moves(state)] == ["r h2-6 -4"]
    assert play("red-arse r:h2,n,n,n/b:n,n,n,n r 4", "r h2-6 -4") == \
        "red-arse r:6,n,n,n/b:n,n,n,n r claim"


def test_four_marbles_home_win():
    assert play("red-arse r:h2,h3,h4,7/b:n,n,n,n r 2", "r 7-h1 2") == \
        "red-arse r:h2,h3,h4,h1/b:n,n,n,n r won"


# -- kills ------------------------------------------------------------------------------------------

def test_landing_exactly_on_an_opponent_sends_it_to_base_and_rolls_again():
    assert play("red-arse r:11,n,n,n/b:13,n,n,n r 2", "r 11-13 2") == \
        "red-arse r:13,n,n,n/b:n,n,n,n r claim"


def test_a_backward_move_kills():
    assert play("red-arse r:17,n,n,n/b:13,n,n,n r 4", "r 17-13 -4") == \
        "red-arse r:13,n,n,n/b:n,n,n,n r claim"


def test_a_move_into_the_center_kills():
    assert play("red-arse r:12,n,n,n/b:c,n,n,n r 4", "r 12-c 4") == \
        "red-arse r:c,n,n,n/b:n,n,n,n r claim"


# -- re-rolls -----------------------------------------------------------------------------------------

def test_a_6_rolls_again():
    assert play("red-arse r:11,n,n,n/b:n,n,n,n r 6", "r 11-17 6") == \
        "red-arse r:17,n,n,n/b:n,n,n,n r claim"


@pytest.mark.parametrize("hole", [20, 24, 34, 38, 48, 52])
def test_ending_on_any_outside_corner_rolls_again(hole):
    text = f"red-arse r:{hole - 2},n,n,n/b:n,n,n,n r 2"
    assert play(text, f"r {hole - 2}-{hole} 2").endswith("r claim")


def test_backing_onto_your_own_start_hole_rolls_again():
    assert play("red-arse r:14,n,n,n/b:n,n,n,n r 4", "r 14-10 -4") == \
        "red-arse r:10,n,n,n/b:n,n,n,n r claim"


def test_a_6_and_a_kill_on_an_outside_corner_earn_one_re_roll_not_three():
    state = FOUR.parse("red-arse r:14,n,n,n/b:20,n,n,n r 6")
    move = next(m for m in FOUR.legal_moves(state) if FOUR.describe(state, m) == "r 14-20 6")
    FOUR.play(state, move)
    assert state.phase == CLAIM
    FOUR.claim(state, True)
    assert (state.phase, state.turn) == (ROLL, 0)
    FOUR.roll(state, (2,))  # the one re-roll is played: then the turn passes
    FOUR.play(state, FOUR.legal_moves(state)[0])
    assert (state.phase, state.turn) == (ROLL, 1)


def test_a_missed_claim_passes_the_turn():
    state = FOUR.parse("red-arse r:11,n,n,n/b:n,n,n,n r claim")
    FOUR.claim(state, False)
    assert FOUR.format(state) == "red-arse r:11,n,n,n/b:n,n,n,n b roll"


# -- inside-corner hops ---------------------------------------------------------------------------

def test_a_marble_on_an_inside_corner_hops_one_corner_per_pip():
    # Red on blue's corner (15): 1 corner to green's (29), 2 to yellow's (43), 3 to its own (1).
    assert "r hop 15-29 1" in moves("red-arse r:15,n,n,n/b:n,n,n,n r 1")
    assert "r hop 15-43 2" in moves("red-arse r:15,n,n,n/b:n,n,n,n r 2")
    assert "r hop 15-1 3" in moves("red-arse r:15,n,n,n/b:n,n,n,n r 3")


def test_hops_never_go_past_your_own_inside_corner():
    assert moves("red-arse r:15,n,n,n/b:n,n,n,n r 4") == ["r 15-19 4", "r 15-11 -4"]
    # Red's own corner (1): no hop at all, only the track and the center.
    assert moves("red-arse r:1,n,n,n/b:n,n,n,n r 1") == ["r 1-c 1", "r 1-2 1", "r n-10 1"]


def test_hops_pass_any_marble_on_the_corners_between_but_never_land_on_your_own():
    assert "r hop 15-43 2" in moves("red-arse r:15,29,n,n/b:n,n,n,n r 2")
    assert "r hop 15-29 1" not in moves("red-arse r:15,29,n,n/b:n,n,n,n r 1")


def test_a_hop_onto_an_opponent_kills_it():
    assert play("red-arse r:15,n,n,n/b:29,n,n,n r 1", "r hop 15-29 1") == \
        "red-arse r:29,n,n,n/b:n,n,n,n r claim"


def test_a_marble_that_reaches_a_corner_may_hop_on_its_re_roll():
    state = FOUR.parse("red-arse r:9,n,n,n/b:n,n,n,n r 6")  # 9 -> 15 with a 6: re-roll
    FOUR.play(state, next(m for m in FOUR.legal_moves(state) if m.dst == 14))
    FOUR.claim(state, True)
    FOUR.roll(state, (2,))
    assert "r hop 15-43 2" in [FOUR.describe(state, m) for m in FOUR.legal_moves(state)]


def test_the_backward_hop_of_4_corners_is_only_on_the_6_player_board():
    # Red on orange's corner (71) on the 6-player board: 4 corners back is blue's (15).
    assert "r hop 71-15 -4" in moves("red-arse6 r:71,n,n,n/b:n,n,n,n r 4", SIX)
    assert not [m for m in moves("red-arse r:43,n,n,n/b:n,n,n,n r 4") if m.endswith("-43 -4")]


def test_a_backward_hop_behind_your_start_parks_outside_home():
    # Red on green's corner (29) on the 6-player board: 4 corners back passes its start.
    assert "r hop 29-8 -4" in moves("red-arse6 r:29,n,n,n/b:n,n,n,n r 4", SIX)


# -- the center ---------------------------------------------------------------------------------------

def test_a_roll_passing_an_inside_corner_with_one_step_left_may_end_in_the_center():
    assert moves("red-arse r:12,n,n,n/b:n,n,n,n r 4") == ["r 12-c 4", "r 12-16 4", "r 12-8 -4"]


def test_a_6_from_the_start_hole_goes_straight_in():
    assert "r 10-c 6" in moves("red-arse r:10,n,n,n/b:n,n,n,n r 6")


def test_a_1_from_an_inside_corner_goes_in():
    assert "r 15-c 1" in moves("red-arse r:15,n,n,n/b:n,n,n,n r 1")


@pytest.mark.parametrize("die", [1, 6])
def test_the_center_is_left_on_a_1_or_a_6_to_any_inside_corner(die):
    assert moves(f"red-arse r:c,n,n,n/b:n,n,n,n r {die}") == \
        [f"r c-1 {die}", f"r c-15 {die}", f"r c-29 {die}", f"r c-43 {die}", f"r n-10 {die}"]


def test_leaving_the_center_never_lands_on_your_own_and_kills_opponents():
    assert moves("red-arse r:c,15,n,n/b:n,n,n,n r 1") == \
        ["r c-1 1", "r c-29 1", "r c-43 1", "r 15-16 1", "r hop 15-29 1", "r n-10 1"]
    assert play("red-arse r:c,n,n,n/b:29,n,n,n r 1", "r c-29 1") == \
        "red-arse r:29,n,n,n/b:n,n,n,n r claim"


# -- backward 4 ---------------------------------------------------------------------------------------

def test_on_a_4_the_player_chooses_forward_or_back():
    assert moves("red-arse r:18,n,n,n/b:n,n,n,n r 4") == ["r 18-22 4", "r 18-c -4",
                                                            "r 18-14 -4"]


def test_backward_is_forced_when_nothing_can_go_forward():
    # Forward, 6 would go 7 -> 8 -> h1 (red's own): blocked. h1..h3 can't go 4 up.
    assert moves("red-arse r:6,h1,h2,h3/b:n,n,n,n r 4") == ["r 6-2 -4"]


def test_backward_moves_cannot_jump_your_own_marbles():
    assert "r 18-14 -4" not in moves("red-arse r:18,16,n,n/b:n,n,n,n r 4")


def test_backward_moves_never_go_straight_into_your_own_home():
    # Backing past the start stops on the home entry, never in the column.
    assert moves("red-arse r:11,n,n,n/b:n,n,n,n r 4") == ["r 11-15 4", "r 11-8 -4"]


def test_backing_up_behind_your_own_start_parks_outside_home():
    assert play("red-arse r:12,n,n,n/b:n,n,n,n r 4", "r 12-8 -4") == \
        "red-arse r:8,n,n,n/b:n,n,n,n b roll"  # the home entry is not a corner: no re-roll


def test_back_past_start_is_blocked_by_your_own_marble_and_kills_an_opponent():
    assert "r 12-8 -4" not in moves("red-arse r:12,8,n,n/b:n,n,n,n r 4")
    assert play("red-arse r:12,n,n,n/b:8,n,n,n r 4", "r 12-8 -4") == \
        "red-arse r:8,n,n,n/b:n,n,n,n r claim"


def test_a_backward_4_can_drop_into_the_center():
    # From 18 three steps back is blue's inside corner (15), with one step left.
    assert "r 18-c -4" in moves("red-arse r:18,n,n,n/b:n,n,n,n r 4")


# -- raids --------------------------------------------------------------------------------------------

def test_a_raid_turns_into_another_home_to_land_exactly_on_its_marble():
    # Red at 20 with a 4: 21, blue's entry 22, then blue's h1, h2.
    assert moves("red-arse r:20,n,n,n/b:h2,n,n,n r 4") == ["r 20-h2b 4", "r 20-24 4",
                                                             "r 20-16 -4"]
    assert play("red-arse r:20,n,n,n/b:h2,n,n,n r 4", "r 20-h2b 4") == \
        "red-arse r:h2b,n,n,n/b:n,n,n,n r claim"


def test_no_raid_onto_an_empty_slot_or_a_locked_marble():
    assert "r 20-h2b 4" not in moves("red-arse r:20,n,n,n/b:h1,n,n,n r 4")
    assert "r 20-h2b 4" not in moves("red-arse r:20,n,n,n/b:h2,h3,h4,n r 4")


def test_a_raid_with_a_backward_4():
    # Red at 24 (blue's start) backing up: 23, blue's entry 22, then h1, h2.
    assert "r 24-h2b -4" in moves("red-arse r:24,n,n,n/b:h2,n,n,n r 4")


def test_a_raider_stays_until_it_backs_out_with_a_4():
    assert moves("red-arse r:h2b,n,n,n/b:n,n,n,n r 2") == []
    assert moves("red-arse r:h2b,n,n,n/b:n,n,n,n r 4") == ["r h2b-20 -4"]


def test_a_raid_never_lands_on_a_third_players_raider():
    assert "r 20-h2b 4" not in moves("red-arse r:20,n,n,n/b:n,n,n,n/g:h2b,n,n,n r 4")


def test_a_home_owner_landing_on_a_raider_kills_it():
    assert play("red-arse r:h2b,n,n,n/b:21,n,n,n b 3", "b 21-h2 3") == \
        "red-arse r:n,n,n,n/b:h2,n,n,n b claim"


def test_a_raider_breaks_the_lock_of_the_marbles_below_it():
    # Blue's h2 with a red raider on h3 above it is not locked: it may be raided.
    assert "g 20-h2b 4" in moves("red-arse r:h3b,n,n,n/b:h2,h4,n,n/g:20,n,n,n g 4")


# -- house rules switched off ----------------------------------------------------------------------

def test_without_kill_re_rolls_a_kill_passes_the_turn():
    rules = table(off=["kill_reroll"])
    assert play("red-arse r:11,n,n,n/b:13,n,n,n r 2 off:kill_reroll", "r 11-13 2", rules) == \
        "red-arse r:13,n,n,n/b:n,n,n,n b roll off:kill_reroll"


def test_without_corner_re_rolls_an_outside_corner_passes_the_turn():
    rules = table(off=["corner_reroll"])
    assert play("red-arse r:18,n,n,n/b:n,n,n,n r 2 off:corner_reroll", "r 18-20 2", rules) \
        .endswith("b roll off:corner_reroll")


def test_without_backward_4_a_4_only_goes_forward():
    rules = table(off=["backward"])
    assert moves("red-arse r:18,n,n,n/b:n,n,n,n r 4 off:backward", rules) == ["r 18-22 4"]


def test_without_the_backward_hop_a_corner_marble_has_no_4_corner_hop_back():
    rules = table(6, ["back_hop"])
    assert "r 71-15 -4" not in moves("red-arse6 r:71,n,n,n/b:n,n,n,n r 4 off:back_hop", rules)


def test_without_the_centers_6_a_6_neither_goes_in_nor_comes_out():
    rules = table(off=["center_six"])
    assert "r 10-c 6" not in moves("red-arse r:10,n,n,n/b:n,n,n,n r 6 off:center_six", rules)
    assert moves("red-arse r:c,n,n,n/b:n,n,n,n r 6 off:center_six", rules) == ["r n-10 6"]
    assert "r c-1 1" in moves("red-arse r:c,n,n,n/b:n,n,n,n r 1 off:center_six", rules)


def test_without_raids_no_marble_turns_into_another_home():
    rules = table(off=["raids"])
    assert moves("red-arse r:20,n,n,n/b:h2,n,n,n r 4 off:raids", rules) == ["r 20-24 4",
                                                                          "r 20-16 -4"]


def test_without_backing_out_home_marbles_stay_in():
    rules = table(off=["home_backout"])
    assert moves("red-arse r:h2,n,n,n/b:n,n,n,n r 4 off:home_backout", rules) == []


def test_without_the_claim_a_re_roll_is_rolled_for_you():
    rules = table(off=["claim"])
    assert play("red-arse r:11,n,n,n/b:n,n,n,n r 6 off:claim", "r 11-17 6", rules) == \
        "red-arse r:17,n,n,n/b:n,n,n,n r roll off:claim"


# -- who goes first, and the runner ---------------------------------------------------------------

def test_everyone_rolls_the_highest_starts_and_ties_roll_again():
    match = Match(SIX, (0, 1, 2, 3, 4, 5), scenarios.Scripted([5, 6, 6, 2, 1, 3, 4, 6, 1, 1]))
    assert match.turn == 2  # 6 and 6 tied; the roll-off: 4 against 6
    assert match.start_rounds == [{0: 5, 1: 6, 2: 6, 3: 2, 4: 1, 5: 3}, {1: 4, 2: 6}]


def test_a_claim_point_is_a_logged_step():
    match = Match(FOUR, (0, 2), scenarios.Scripted([6, 1] + [6] * 10))
    match.roll()  # red's 6: out of base, and a re-roll to claim
    match.play(0)
    assert match.phase == CLAIM
    match.step(1)  # missed
    assert (match.phase, match.turn, match.steps[-1]) == (ROLL, 1, (1, 2))
    assert match.history[-1] == ("miss", 0, None)


# -- the 6-player board plays the same ----------------------------------------------------------------

def test_six_player_hops_reach_up_to_five_corners_never_past_your_own():
    # Red on blue's star (15): 5 corners is red's own star (1); purple's star (57) is 3.
    assert "r hop 15-1 5" in moves("red-arse6 r:15,n,n,n/b:n,n,n,n r 5", SIX)
    assert "r hop 15-57 3" in moves("red-arse6 r:15,n,n,n/b:n,n,n,n r 3", SIX)
    # From green's star (29) 5 corners would pass red's own star (1) and reach blue's (15).
    assert moves("red-arse6 r:29,n,n,n/b:n,n,n,n r 5", SIX) == ["r 29-34 5"]


def test_six_player_center_exits_to_all_six_stars():
    assert moves("red-arse6 r:c,n,n,n/p:n,n,n,n r 1", SIX) == \
        ["r c-1 1", "r c-15 1", "r c-29 1", "r c-43 1", "r c-57 1", "r c-71 1", "r n-10 1"]


def test_six_player_raid_on_orange():
    # Red at 76 (orange's outside corner) with a 3: 77, orange's entry 78, then orange's h1.
    assert play("red-arse6 r:76,n,n,n/o:h1,n,n,n r 3", "r 76-h1o 3", SIX) == \
        "red-arse6 r:h1o,n,n,n/o:n,n,n,n r claim"


def test_six_player_lap_ends_at_the_home_entry_after_82_holes():
    # 84 holes, start 10, entry 8: a marble on 7 is 2 short of slot 1.
    assert moves("red-arse6 r:7,n,n,n/b:n,n,n,n r 2", SIX) == ["r 7-h1 2"]
    assert moves("red-arse6 r:84,n,n,n/b:n,n,n,n r 1", SIX) == ["r 84-1 1", "r n-10 1"]
