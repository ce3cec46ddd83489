"""The 5-second claim through the play service: tickets, receipts and the clock, nothing stored."""

from __future__ import annotations

import pytest

from app.claims import GRACE, WINDOW
from app.engine.core import CLAIM, ROLL
from app.keys import Keys
from app.play import ClaimMissed, Game, TurnError, demo_seats, simulation_seed

KEYS = Keys.for_tests("claims")
NOW = 1_800_000_000.0


def at_claim_point():
    """A fresh link (a turn's start) and the API steps that take its player to a claim point."""
    for number in range(200):
        game = Game.new("red-arse", demo_seats("red-arse", 2), KEYS,
                        seed=simulation_seed("claims", number), by_hand=True)
        token, seat = game.token(), game.match.turn
        steps = []
        while game.match.turn == seat and game.match.phase != CLAIM:
            if game.match.phase == ROLL:
                steps.append("roll")
                game.step()
            else:
                move = game.match.legal_moves()[0]
                steps.append({"from": move.src, "to": move.dst, "values": list(move.values)})
                game.step(0)
        if game.match.phase == CLAIM:
            return token, seat, steps
    raise AssertionError("no claim point in 200 games")


def replayed(token, seat, steps, now=NOW):
    game = Game.from_token(token, KEYS)
    game.play_turn(seat, steps, now=now)
    return game


def test_a_claim_within_5_seconds_rolls_again_and_turns_into_a_receipt():
    token, seat, steps = at_claim_point()
    ticket = replayed(token, seat, steps).claim_ticket(NOW)
    game = replayed(token, seat, steps + [{"claim": ticket}, "roll"], now=NOW + WINDOW)
    assert game.match.history[-2][0] == "claim"
    assert game.match.turn == seat
    receipt = game.turn_steps[len(steps)]
    assert set(receipt) == {"claimed"}
    # The receipt stands for the claim later in the turn, whatever the clock says.
    later = replayed(token, seat, game.turn_steps, now=NOW + 3600)
    assert later.position() == game.position()


def test_a_claim_after_the_window_is_missed():
    token, seat, steps = at_claim_point()
    ticket = replayed(token, seat, steps).claim_ticket(NOW)
    with pytest.raises(ClaimMissed, match="within 5 seconds"):
        replayed(token, seat, steps + [{"claim": ticket}], now=NOW + WINDOW + GRACE + 0.1)
    game = replayed(token, seat, steps + ["miss"])
    assert game.match.turn != seat and game.match.history[-1][0] == "miss"


def test_a_forged_or_borrowed_ticket_or_receipt_is_refused():
    token, seat, steps = at_claim_point()
    for bad in ({"claim": "1800000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
                {"claimed": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
                {"claim": None}, {"claim": "x", "claimed": "y"}, "roll"):
        with pytest.raises(TurnError):
            replayed(token, seat, steps + [bad])
    # A ticket from another game can't claim this re-roll.
    other = Game.new("red-arse", demo_seats("red-arse", 2), KEYS, seed=b"elsewher", by_hand=True)
    while other.match.phase != CLAIM:
        other.step(0)
    with pytest.raises(TurnError, match="doesn't belong"):
        replayed(token, seat, steps + [{"claim": other.claim_ticket(NOW)}])


def test_a_ticket_is_only_issued_at_a_claim_point():
    game = Game.new("red-arse", demo_seats("red-arse", 2), KEYS, seed=b"12345678", by_hand=True)
    with pytest.raises(TurnError):
        game.claim_ticket(NOW)
