"""Dice no choice can steer (docs/rules/*.md, "What the secret covers").

Red Arse and Ludo from rules version 2 give each seat its own stream of dice, so a choice (a
move that earns an extra roll or not, a re-roll claimed or missed) changes only when its player
rolls their own next die, never which dice anyone gets. Parcheesi keeps one stream for the
table: who rolls next follows from the dice alone, so no choice moves a die there either.
Links of Red Arse and Ludo version 1 keep their one stream, and replay as they always did.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.core import CLAIM, MOVE, OVER, ROLL, Match
from app.engine.dice import Dice, game_secret, seat_secret
from app.engine.red_arse_settings import RULE_KEYS, options_for
from app.keys import Keys
from app.link import Header
from app.play import demo_seats, new_match

KEYS = Keys.for_tests()
STEPS = 600  # each branch plays on this far: a few hundred rolls by every seat

seeds = st.binary(min_size=8, max_size=8)


def examples(count: int):
    return settings(max_examples=count, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tables(draw):
    """``(game, options, players, joined)``: any Red Arse table, or a Ludo table where the
    last seat may join a game in progress."""
    if draw(st.booleans()):
        board = draw(st.sampled_from([4, 6]))
        off = draw(st.lists(st.sampled_from(RULE_KEYS), unique=True))
        return "red-arse", options_for(board, off), draw(st.integers(2, board)), 0
    options, players = draw(st.sampled_from([(0, 4), (0, 2), (3, 3), (6, 6), (5, 3)]))
    return "ludo", options, players, draw(st.sampled_from([0, 7, 40])) if players > 2 else 0


def start(game: str, seed: bytes, version: int, options: int = 0, players: int = 2,
          joined: int = 0) -> Match:
    """A match as a link of that rules version starts it (``joined``: the last seat joins at
    that step)."""
    seats = demo_seats(game, players, options)
    if joined:
        seats[-1] = replace(seats[-1], joined=joined)
    header = Header(game=game, seats=tuple(seats), seed=seed, options=options,
                    rules_version=version)
    return new_match(header, game_secret(KEYS.dice, seed))


def decide(match: Match, index: int) -> None:
    """Take the next step: roll, or the choice ``index`` (claim 0, miss 1)."""
    if match.phase == ROLL:
        match.roll()
    elif match.phase == CLAIM:
        match.claim(index == 0)
    else:
        match.play(index)


def choices(match: Match) -> int:
    return 2 if match.phase == CLAIM else len(match.legal_moves()) if match.phase == MOVE else 1


def play_on(match: Match, rng: random.Random, steps: int) -> Match:
    while match.phase != OVER and steps > 0:
        decide(match, rng.randrange(choices(match)))
        steps -= 1
    return match


def dice_of(match: Match) -> dict[int, list[int]]:
    """The dice each seat rolled in the game, in order."""
    rolled: dict[int, list[int]] = {}
    for kind, seat, dice in match.history:
        if kind == "roll":
            rolled.setdefault(seat, []).extend(dice)
    return rolled


def branch(make, choice_seed: int, at: int) -> tuple[Match, Match]:
    """Two games on the same dice that part at one decision (the ``at``-th with a choice,
    counted round) and play on with random choices."""
    rng = random.Random(choice_seed)
    first = make()
    decisions = []
    while first.phase != OVER and len(first.steps) < STEPS:
        if choices(first) > 1:
            decisions.append(len(first.steps))
        decide(first, rng.randrange(choices(first)))
    part = decisions[at % len(decisions)]
    other = make()
    for index, _ in first.steps[:part]:
        decide(other, index)
    taken, count = first.steps[part]
    decide(other, (taken + 1 + rng.randrange(count - 1)) % count)  # any other choice
    play_on(first, rng, part + STEPS - len(first.steps))  # both play on as far past the part
    return first, play_on(other, random.Random(choice_seed + 1), STEPS)


def same_so_far(one: list, other: list) -> bool:
    n = min(len(one), len(other))
    return one[:n] == other[:n]


@examples(100)
@given(tables(), seeds, st.integers(0, 2**31), st.integers(0, 150))
def test_no_choice_changes_the_dice_any_seat_rolls(table, seed, choice_seed, at):
    game, options, players, joined = table
    first, other = branch(lambda: start(game, seed, 2, options, players, joined),
                          choice_seed, at)
    mine, theirs = dice_of(first), dice_of(other)
    for seat in range(players):  # the chooser's own dice too: only their timing moves
        assert same_so_far(mine.get(seat, []), theirs.get(seat, [])), seat
    # The comparison reached past the parting: some seat rolled again in both games after it.
    part = next(i for i, (a, b) in enumerate(zip(first.steps, other.steps)) if a != b)
    assert first.phase == OVER or other.phase == OVER or any(
        kind == "roll" for kind, _, _ in first.history[part + 1:]) and any(
        kind == "roll" for kind, _, _ in other.history[part + 1:])


@examples(50)
@given(st.integers(2, 4), seeds, st.integers(0, 2**31), st.integers(0, 100))
def test_parcheesi_rolls_pass_from_seat_to_seat_whatever_anyone_chooses(players, seed,
                                                                          choice_seed, at):
    """Doubles, not choices, decide who rolls next, and bonuses are no dice: one stream for the
    table gives every seat the same rolls whichever moves are played."""
    first, other = branch(lambda: start("parcheesi", seed, 1, players=players), choice_seed, at)
    rolls = [[entry for entry in m.history if entry[0] == "roll"] for m in (first, other)]
    assert same_so_far(*rolls)


def test_with_one_stream_a_missed_re_roll_went_to_the_next_player():
    """Why version 2: in a version-1 Red Arse game the die a player let go by missing a
    re-roll (after seeing it) was the next player's; with a stream per seat each keeps theirs."""
    claimed, missed = _at_first_claim(1)
    assert missed.roll() == claimed.roll()  # the re-roll, handed to the next player

    claimed, missed = _at_first_claim(2)
    chooser, other = claimed.turn, missed.turn
    re_roll = claimed.roll()
    assert _next_roll(missed, other) == _next_roll(claimed, other)  # theirs either way
    assert _next_roll(missed, chooser) == re_roll  # missed: it waits for the chooser's turn


def _at_first_claim(version: int) -> tuple[Match, Match]:
    """Two copies of a game at its first re-roll: one claims it, the other misses it."""
    copies = []
    for taken in (True, False):
        match = start("red-arse", b"re-rolls", version)
        while match.phase != CLAIM:
            decide(match, 0)
        match.claim(taken)
        copies.append(match)
    return copies[0], copies[1]


def _next_roll(match: Match, seat: int) -> tuple[int, ...]:
    while match.phase != ROLL or match.turn != seat:
        decide(match, 0)
    return match.roll()


@examples(50)
@given(st.sampled_from(["red-arse", "ludo"]), st.sampled_from([1, 2]), st.integers(2, 4),
       seeds, st.integers(0, 2**31))
def test_each_rules_version_rolls_its_own_streams_in_order(game, version, players, seed,
                                                           choice_seed):
    """Version 1: the table's one stream, die by die, whoever rolls (start rolls first, in seat
    order), exactly as before version 2. Version 2: each seat's stream, keyed by its color."""
    match = play_on(start(game, seed, version, players=players), random.Random(choice_seed),
                    STEPS)
    secret = game_secret(KEYS.dice, seed)
    rolled = [(seat, total) for totals in match.start_rounds for seat, total in totals.items()]
    rolled += [(seat, die) for kind, seat, dice in match.history if kind == "roll"
               for die in dice]
    if version == 1:
        stream = Dice(secret)
        assert [die for _, die in rolled] == [stream.die(i) for i in range(len(rolled))]
    else:
        for seat, color in enumerate(match.state.colors):
            mine = [die for who, die in rolled if who == seat]
            stream = Dice(seat_secret(secret, color))
            assert mine == [stream.die(k) for k in range(len(mine))]
