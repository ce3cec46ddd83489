"""Chance to win, move review and luck (app.engine.analysis), on positions built by hand.

Playout counts are kept low where the answer is clear-cut, so the suite stays quick; the
benchmark (``python -m app analysis-bench``) measures speed, never these tests.
"""

from __future__ import annotations

import random

import pytest

from app.engine import analysis, bots, evaluation
from app.engine.core import MOVE, OVER, ROLL
from app.engine.games import rules_for
from app.engine.red_arse_settings import options_for

FEW = dict(playouts=100, extra=300, batch=100)  # review: enough for a clear-cut position


def graded(game: str, text: str, options: int = 0, **playouts) -> dict[str, analysis.Option]:
    """The review of a position, by each move's description."""
    rules = rules_for(game, options)
    state = rules.parse(text)
    moves = rules.legal_moves(state)
    return {rules.describe(state, moves[o.index]): o
            for o in analysis.review(rules, state, **(playouts or FEW))}


@pytest.mark.parametrize("game,text", [
    ("parcheesi", "parcheesi y:10,30,n,n/b:n,n,n,n/r:6,n,n,n y roll"),
    ("red-arse", "red-arse r:n,n,14,30/b:h2,h3,h4,18 r 4"),
    ("ludo", "ludo r:n,n,5,30/b:n,n,10,8/g:n,n,n,n g roll"),
])
def test_chances_sum_to_one_and_are_the_same_every_time(game, text):
    rules = rules_for(game)
    state = rules.parse(text)
    first = analysis.chances(rules, state, playouts=40)
    assert len(first) == len(state.colors)
    assert sum(first) == pytest.approx(1.0)
    assert analysis.chances(rules, rules.parse(text), playouts=40) == first
    assert rules.format(state) == text  # the position itself is left as it was


def test_the_seed_comes_from_the_position_not_from_the_game():
    rules = rules_for("ludo")
    one = rules.parse("ludo r:n,n,5,30/b:n,n,10,8 r roll")
    other = rules.parse("ludo r:n,n,5,31/b:n,n,10,8 r roll")
    assert analysis.position_seed(rules, one) == analysis.position_seed(rules, one.copy())
    assert analysis.position_seed(rules, one) != analysis.position_seed(rules, other)
    assert analysis.position_seed(rules, one) != analysis.position_seed(rules, one, "review")


@pytest.mark.parametrize("game,text,leader", [
    ("parcheesi", "parcheesi y:H,H,H,h6/r:n,n,n,n y roll", 0),  # one pawn a step from Home
    ("red-arse", "red-arse r:h2,h3,h4,5/b:n,n,n,n b roll", 0),
    ("ludo", "ludo r:G,G,G,h5/b:n,n,n,n b roll", 0),
    ("ludo", "ludo r:G,G,G,G/b:G,G,G,30/g:n,n,n,n b roll placed:r", 0),  # red already won
])
def test_a_game_all_but_won_gives_its_leader_nearly_every_chance(game, text, leader):
    rules = rules_for(game)
    chances = analysis.chances(rules, rules.parse(text), playouts=60)
    assert chances[leader] >= 0.9


@pytest.mark.parametrize("game,text", [
    ("parcheesi", "parcheesi y:10,30,n,n/b:n,n,n,n/r:6,n,n,n y roll"),
    ("red-arse", "red-arse r:n,n,14,30/b:h2,h3,h4,18 r 4"),
    ("ludo", "ludo r:n,n,5,30/b:n,n,10,8/g:n,n,n,n g roll"),
])
def test_a_chance_stopped_after_its_rounds_says_what_playing_on_says(game, text):
    """The chances' playouts stop after ``CHANCE_ROUNDS`` rounds and take the static
    evaluation's word: the same favourite, within a few points, as games played to the end."""
    rules = rules_for(game)
    state = rules.parse(text)
    stopped = state.copy()
    seats = len(state.colors)
    assert analysis.play_out(rules, stopped, analysis.dice(7, 0, seats), turns=2) == -1
    assert stopped.phase == ROLL and analysis.winner(stopped) is None
    assert analysis.play_out(rules, state.copy(), analysis.dice(7, 0, seats)) in range(seats)
    short = analysis.chances(rules, state, playouts=300)
    full = analysis.chances(rules, state, playouts=300, rounds=0)
    assert sum(short) == pytest.approx(1.0)
    assert any(0 < round(c * 300, 6) % 1 for c in short)  # some games were weighed, not won
    assert all(round(c * 300, 6) % 1 == 0 for c in full)
    assert short.index(max(short)) == full.index(max(full))
    assert max(abs(a - b) for a, b in zip(short, full)) < 0.08


@pytest.mark.parametrize("text", [
    "ludo r:3,n,n,n/b:n,n,n,n/g:5,n,n,n/y:n,n,n,n g roll out:b",
    "ludo r:3,n,n,n/b:n,n,n,n/g:5,n,n,n/y:n,n,n,n g roll waiting:b",
])
def test_a_seat_that_takes_no_turns_has_no_chance(text):
    """A disqualified player, or one still to join, wins no game played on, nor one the
    evaluation weighs where it stops."""
    rules = rules_for("ludo")
    state = rules.parse(text)
    assert evaluation.chances(rules, state)[1] == 0.0
    short = analysis.chances(rules, state, playouts=100)
    assert short[1] == 0.0 and sum(short) == pytest.approx(1.0)


def test_a_finished_game_gives_the_winner_everything():
    rules = rules_for("parcheesi")
    assert analysis.chances(rules, rules.parse("parcheesi y:H,H,H,H/r:n,n,n,5 y won")) == \
        [1.0, 0.0]


@pytest.mark.parametrize("game,text,best,worse,reason", [
    # Leaving the rival's last pawn, a few squares from Home, instead of capturing it (its
    # 20 bonus can't be played: the capture is a choice).
    ("parcheesi", "parcheesi y:H,H,55,65/r:H,H,h1,58 y 3", "y 55-58 3", "y 65-68 3",
     "capture"),
    # Playing the 3 first leaves the 4 unplayable: the last pawn misses Home and the game.
    ("parcheesi", "parcheesi y:H,H,H,h4/r:H,H,H,30 y 4,3", "y h4-H 4", "y h4-h7 3", "home"),
    # Blue's last marble nears its home column: kill it or lose.
    ("red-arse", "red-arse r:h3,h4,14,30/b:h2,h3,h4,18 r 4", "r 14-18 4", "r 30-26 -4",
     "capture"),
    # The last marble can walk into the home column and win.
    ("red-arse", "red-arse r:h2,h3,h4,5/b:h2,h3,h4,40 r 4", "r 5-h1 4", "r 5-1 -4", "home"),
    # Blue's last piece is 10 squares from its goal; red can send it home.
    ("ludo", "ludo r:G,G,5,30/b:G,G,G,8 r 3", "r 5-8 3", "r 30-33 3", "capture"),
    # The third piece into the goal, with the re-roll it earns.
    ("ludo", "ludo r:G,G,h1,h3/b:G,G,G,8 r 3", "r h3-G 3", "r h1-h4 3", "home"),
])
def test_a_clearly_worse_move_is_a_blunder_that_names_what_it_missed(game, text, best, worse,
                                                                      reason):
    review = graded(game, text, playouts=analysis.REVIEW_PLAYOUTS)  # the real review
    assert review[best].grade == analysis.GOOD and review[best].best
    assert review[best].loss == 0 and review[best].reasons == []
    assert review[worse].grade == analysis.BLUNDER, review[worse]
    assert review[worse].loss >= 10 and review[worse].chance < review[best].chance
    assert reason in review[worse].missed
    assert analysis.REASONS[game][reason] in review[worse].reasons


def test_reasons_are_texts_the_page_translates():
    review = graded("ludo", "ludo r:G,G,5,30/b:G,G,G,8 r 3")
    assert review["r 30-33 3"].reasons == ["a capture"]
    from app.i18n import translate

    assert translate(review["r 30-33 3"].reasons[0], "es") != "a capture"


def test_moves_that_lead_to_the_same_position_are_both_good():
    # The 3 then the 2, or the 2 then the 3: the last pawn ends on 25 either way.
    review = graded("parcheesi", "parcheesi y:20,H,H,H/r:n,n,n,n y 3,2",
                    playouts=40, extra=0, batch=40)
    assert len(review) == 2
    assert all(o.grade == analysis.GOOD and o.estimate == 0 for o in review.values())


class _Counting:
    """A rule set that counts the moves played out with it (the engine may be compiled, so
    the count is taken where the playouts call in, not by patching the engine's functions)."""

    def __init__(self, rules):
        self.rules, self.played = rules, 0

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def play_legal(self, state, move):
        self.played += 1
        self.rules.play_legal(state, move)


def test_options_whose_playouts_meet_are_graded_as_if_each_were_played_out_in_full(
        monkeypatch):
    # Either order of the 4 and the 2 (or the same pawn taking both) often comes to the same
    # position at the next turn: those playouts stop there and take the other's winner.
    text = "parcheesi y:20,30,40,50/b:n,n,n,n/r:26,n,n,n y 4,2"
    meeting = _Counting(rules_for("parcheesi"))
    graded_meeting = analysis.review(meeting, meeting.parse(text), playouts=60, extra=0)
    monkeypatch.setattr(analysis, "MEETING_TURNS", 0)  # no playout looks for another
    full = _Counting(rules_for("parcheesi"))
    assert analysis.review(full, full.parse(text), playouts=60, extra=0) == graded_meeting
    assert meeting.played < full.played * 0.8


def test_the_review_and_the_chances_are_deterministic():
    rules = rules_for("red-arse", options_for(6))
    text = "red-arse6 r:n,n,20,40/b:n,n,n,30/g:n,n,n,n r 4"
    first = analysis.review(rules, rules.parse(text), playouts=12, extra=0)
    assert first == analysis.review(rules, rules.parse(text), playouts=12, extra=0)
    assert len(first) == len(rules.legal_moves(rules.parse(text)))


def test_only_a_real_choice_is_reviewed():
    rules = rules_for("ludo")
    with pytest.raises(ValueError):
        analysis.review(rules, rules.parse("ludo r:n,n,n,10/b:n,n,n,n r 3"))  # one move
    with pytest.raises(ValueError):
        analysis.review(rules, rules.parse("ludo r:n,n,n,10/b:n,n,n,n r roll"))


def test_a_close_call_gets_more_playouts_and_a_grade_on_the_cautious_side():
    options = graded("red-arse", "red-arse r:n,n,14,30/b:h2,h3,h4,18 r 4",
                     playouts=40, extra=80, batch=40)
    assert max(o.playouts for o in options.values()) <= 120
    for o in options.values():
        assert o.loss <= o.estimate  # the cautious end never exceeds the estimate
        assert o.grade == analysis.grade(o.loss)


def test_extra_playouts_go_only_where_they_can_change_a_grade():
    # 200 playouts on the same dice; the option loses 8 of them that the best wins: an estimate
    # of 4 points (a Misstep), a cautious end under 1 (Good).
    best, other = bytearray([1] * 200), bytearray([1] * 192 + [0] * 8)
    # Four times the playouts halve the interval: the cautious end could then pass 3 points.
    assert analysis._close(best, other, budget=800)
    # Twice as many could not: more would be spent for nothing.
    assert not analysis._close(best, other, budget=400)
    # An option about as good as the best (Good at both ends) never needs more.
    assert not analysis._close(best, bytearray([1] * 199 + [0]), budget=800)
    # 40 playouts, 3 lost: Good on the cautious end (under 0), a Blunder on the other (17
    # points). However little more the budget allows, that is never futile: another seed
    # could call the move a Blunder.
    few, lost = bytearray([1] * 40), bytearray([1] * 37 + [0] * 3)
    assert analysis.grade(100 * max(0.0, analysis._difference(few, lost)[0] -
                                    analysis._difference(few, lost)[1])) == analysis.GOOD
    assert analysis._close(few, lost, budget=60)


def test_grades_follow_the_points_given_up():
    assert [analysis.grade(x) for x in (0, 2.99, 3, 9.99, 10, 50)] == \
        ["good", "good", "misstep", "misstep", "blunder", "blunder"]


@pytest.mark.parametrize("game,options,players", [
    ("parcheesi", 0, 4), ("red-arse", 0, 4), ("red-arse", options_for(6), 6), ("ludo", 0, 4),
    ("ludo", 6, 6)])
def test_medium_weighs_moves_as_the_plain_evaluation_does(game, options, players):
    """The quick ranking (no copies, only the seats a move touches scored again) gives every
    move exactly the value ``evaluate`` gives the position it leaves."""
    rules = rules_for(game, options)
    from app.engine.games import default_colors

    rng = random.Random(7)
    state = rules.initial(default_colors(game, players, options), 0)
    checked = 0
    while state.phase != OVER and checked < 150:
        if state.phase == ROLL:
            rules.roll(state, tuple(rng.randint(1, 6) for _ in range(rules.dice_count)))
        elif state.phase == MOVE:
            moves = rules.legal_moves(state)
            if len(moves) > 1:
                assert bots._worths(rules, state, moves) == \
                    [bots.evaluate(rules, bots.after(rules, state, m), state.turn)
                     for m in moves]
                checked += 1
            rules.play(state, moves[rng.randrange(len(moves))])
        else:
            rules.claim(state, True)
    assert checked > 20


# -- the budget: a bound on every answer, whatever the decision's width ---------------------------

# From games of random moves: the widest decisions there are (12 options in Parcheesi), and a
# 6-player Ludo position, whose games to the end are the longest.
WIDE = ("parcheesi", 0, "parcheesi y:H,n,H,h2/b:n,28,n,n/r:54,52,45,42/g:21,n,63,56 r 20,6,1 d1")
LONG = ("ludo", 6, "ludo6 r:15,n,n,n/b:28,19,n,n/g:n,n,n,n/y:62,40,n,n/p:53,63,n,n/o:n,n,n,n p 6")


def _position(game: str, options: int, text: str):
    rules = rules_for(game, options)
    state = rules.parse(text)
    assert rules.format(state) == text
    return rules, state


def test_a_wide_decision_is_graded_within_the_budget_the_move_played_first():
    rules, state = _position(*WIDE)
    assert len(rules.legal_moves(state)) == 12
    budget, played = 20_000, 5  # the product's budget is 12 times that: the same rules, quicker
    options, spent = analysis.counted_review(rules, state, playouts=40, extra=40, batch=40,
                                             budget=budget, first=played)
    # A count of steps, not a clock: no playout starts once it is spent.
    assert budget <= spent < budget * 1.1
    graded = [o for o in options if o.graded]
    assert options[played].graded and 2 <= len(graded) < 12
    # The options are reached in ``order`` (the move played, then medium's favourites): the
    # graded ones come first in it, the rest say they weren't graded.
    reached = [options[i].graded for i in analysis.order(rules, state, rules.legal_moves(state),
                                                        played)]
    assert reached == sorted(reached, reverse=True)
    for option in options:
        if option.graded:
            assert option.playouts >= analysis.MIN_PLAYOUTS and option.grade in analysis.GRADE_LABELS
        else:
            assert (option.chance, option.loss, option.estimate, option.grade, option.best) == \
                (None, None, None, None, False)
    assert sum(o.best for o in options) == 1
    # The same answer every time: answers are cached for good.
    assert analysis.counted_review(rules, state, playouts=40, extra=40, batch=40,
                                   budget=budget, first=played) == (options, spent)


def test_long_games_bring_the_playouts_per_option_down_so_that_three_are_compared():
    rules, state = _position(*LONG)
    assert len(rules.legal_moves(state)) == 3
    # 100 games each would take about 450,000 steps (some 1,500 a game): the budget affords
    # a third of it.
    options, spent = analysis.counted_review(rules, state, playouts=100, extra=0,
                                             budget=100_000, first=2)
    assert all(o.graded for o in options)
    assert all(analysis.MIN_PLAYOUTS <= o.playouts < 100 for o in options)
    assert spent < 100_000 * 1.1


def test_a_budget_not_reached_changes_nothing():
    rules, state = _position("ludo", 0, "ludo r:G,G,5,30/b:G,G,G,8 r 3")
    assert analysis.counted_review(rules, state, playouts=60, extra=60, batch=60)[0] == \
        analysis.review(rules, state, playouts=60, extra=60, batch=60, budget=0)
    # Nor does the move played, which only comes first.
    assert analysis.review(rules, state, playouts=60, extra=60, batch=60, first=1) == \
        analysis.review(rules, state, playouts=60, extra=60, batch=60, first=0)


def test_the_chance_to_win_stops_at_the_budget_and_says_after_how_many_games():
    rules, state = _position(*LONG)
    chances, games = analysis.counted_chances(rules, state, 300, budget=10_000)
    assert 0 < games < 300 and sum(chances) == pytest.approx(1.0)
    assert analysis.counted_chances(rules, state, 300, budget=10_000) == (chances, games)
    assert analysis.chances(rules, state, 300, budget=10_000) == chances
    assert analysis.counted_chances(rules, state, 5, budget=0)[1] == 5
