"""Dice: exactly uniform, independent, deterministic, secret per key and seed.

The statistical tests use a fixed key, so they are deterministic: they pass or fail the same way on
every run, never flakily. Critical values are chi-square at p = 0.001.
"""

from collections import Counter

import pytest

from app.engine import dice as dice_module
from app.engine.dice import Dice, TableDice, commitment, game_secret, seat_secret

KEY = b"k" * 32
SEED = bytes(8)


def chi_square(counts: Counter, cells: list, total: int) -> float:
    expected = total / len(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


def test_uniform():
    dice = Dice.from_key(KEY, SEED)
    rolls = [dice.die(i) for i in range(60_000)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert chi_square(Counter(rolls), list(range(1, 7)), len(rolls)) < 20.52  # df 5


def test_consecutive_dice_independent():
    dice = Dice.from_key(KEY, b"pairs!!!")
    rolls = [dice.die(i) for i in range(72_000)]
    pairs = Counter(zip(rolls[0::2], rolls[1::2]))
    cells = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    assert chi_square(pairs, cells, len(rolls) // 2) < 66.62  # df 35


def test_same_inputs_same_dice():
    first = Dice.from_key(KEY, SEED)
    again = Dice(game_secret(KEY, SEED))
    assert [first.die(i) for i in range(200)] == [again.die(i) for i in range(200)]


def test_pinned_values():
    """Changing the algorithm would change every game in flight: this catches it."""
    dice = Dice.from_key(KEY, SEED)
    assert [dice.die(i) for i in range(10)] == [3, 6, 5, 3, 4, 4, 4, 4, 1, 5]


def test_pinned_seat_streams():
    """Each seat's stream (Red Arse and Ludo from rules version 2), keyed by its color: changing
    it would change every such game in flight."""
    secret = b"k" * 32
    assert [Dice(seat_secret(secret, 0)).die(i) for i in range(10)] == \
        [4, 6, 6, 5, 1, 6, 1, 1, 4, 4]
    assert [Dice(seat_secret(secret, 5)).die(i) for i in range(10)] == \
        [6, 3, 5, 1, 2, 5, 5, 2, 5, 6]


def test_a_table_rolls_one_stream_in_turn_or_a_stream_per_seat():
    secret = game_secret(KEY, SEED)
    one = TableDice(secret, (0, 2, 3), per_seat=False)
    assert [one.roll(seat, 2) for seat in (2, 0, 1)] == \
        [tuple(Dice(secret).die(i) for i in range(k, k + 2)) for k in (0, 2, 4)]
    each = TableDice(secret, (0, 2, 3), per_seat=True)
    assert [each.roll(seat, 1) for seat in (2, 0, 2, 1)] == [
        (Dice(seat_secret(secret, 3)).die(0),), (Dice(seat_secret(secret, 0)).die(0),),
        (Dice(seat_secret(secret, 3)).die(1),), (Dice(seat_secret(secret, 2)).die(0),)]


def test_any_die_can_be_computed_alone_in_any_order():
    dice = Dice.from_key(KEY, SEED)
    in_order = [dice.die(i) for i in range(100)]
    order = list(range(100))[::-7] + list(range(100))
    assert [Dice.from_key(KEY, SEED).die(i) for i in order] == [in_order[i] for i in order]


@pytest.mark.parametrize("key, seed", [(b"j" * 32, SEED), (KEY, bytes(7) + b"\1")])
def test_other_key_or_seed_other_dice(key, seed):
    base = Dice.from_key(KEY, SEED)
    other = Dice.from_key(key, seed)
    assert [base.die(i) for i in range(64)] != [other.die(i) for i in range(64)]


def test_fully_rejected_bytes_draw_more_deterministically(monkeypatch):
    """The rare branch: a die whose four bytes are all rejected draws from its own digests,
    counter 0, then 1, ... (here both the block and the first redraw are made all-rejected)."""
    real = dice_module._digest
    rejected = b"\xfc" * 32

    def digest(key, message, name):
        if len(message) == 8 or message.endswith(b"\0\0\0\0"):
            return rejected
        return real(key, message, name)

    monkeypatch.setattr(dice_module, "_digest", digest)
    dice = Dice(b"s" * 32)
    message = b"redraw/" + (5).to_bytes(8, "big") + (1).to_bytes(4, "big")
    second = real(b"s" * 32, message, "sha256")
    assert dice.die(5) == next(b % 6 + 1 for b in second if b < 252)


def test_commitment():
    secret = game_secret(KEY, SEED)
    assert commitment(secret) == commitment(Dice.from_key(KEY, SEED).secret)
    assert len(bytes.fromhex(commitment(secret))) == 32
    assert commitment(secret) != commitment(game_secret(KEY, b"other!!!"))
    assert secret.hex() not in commitment(secret)
