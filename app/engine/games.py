"""The rule sets by name. Each is built once per process: its tables cost a few milliseconds."""

from __future__ import annotations

from functools import cache

from .parcheesi import Parcheesi

_RULES = {"parcheesi": Parcheesi}

NAMES = tuple(_RULES)


@cache
def rules_for(name: str):
    """The shared rule-set instance for ``name``; ``KeyError`` for an unknown game."""
    return _RULES[name]()


def default_colors(name: str, players: int) -> tuple[int, ...]:
    """Seat colors for a table of ``players``: two players sit opposite each other."""
    seats = len(rules_for(name).board.entries)
    if players == 2:
        return (0, seats // 2)
    return tuple(range(players))
