"""Scenario helpers for the one-die rule tests: a position in notation, then what happens."""

from __future__ import annotations


def moves(text: str, rules) -> list[str]:
    """The legal moves from a position, in the rule set's words and canonical order."""
    state = rules.parse(text)
    return [rules.describe(state, m) for m in rules.legal_moves(state)]


def play(text: str, move: str, rules) -> str:
    """The position after playing ``move`` (in describe's words) from ``text``."""
    state = rules.parse(text)
    chosen = {rules.describe(state, m): m for m in rules.legal_moves(state)}
    assert move in chosen, f"{move} not among {list(chosen)}"
    rules.play(state, chosen[move])
    return rules.format(state)


def roll(text: str, die: int, rules) -> str:
    """The position after rolling ``die`` in ``text``."""
    state = rules.parse(text)
    rules.roll(state, (die,))
    return rules.format(state)


def for_rules(default):
    """``moves``, ``play`` and ``roll`` with ``default`` as the rule set unless one is given."""
    return (lambda text, rules=default: moves(text, rules),
            lambda text, move, rules=default: play(text, move, rules),
            lambda text, die, rules=default: roll(text, die, rules))


class Scripted:
    """Dice for a ``Match`` from a list, whoever rolls them (``TableDice``'s ``roll``)."""

    def __init__(self, values):
        self.values = iter(values)

    def roll(self, seat: int, count: int) -> tuple[int, ...]:
        return tuple(next(self.values) for _ in range(count))
