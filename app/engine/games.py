"""The rule sets by name, and each table's shared instance: built once per process and table,
as its tables cost a few milliseconds."""

from __future__ import annotations

from functools import cache

from .ludo import Ludo
from .parcheesi import Parcheesi
from .red_arse import RedArse

# Every rule set by its name: the one list of games (the link format's own, app/link.py GAMES,
# is checked against it by tests/test_rule_sets.py). The web app offers them all, and the
# command line plays them all.
RULE_SETS = {rules.name: rules for rules in (Parcheesi, RedArse, Ludo)}
NAMES = tuple(RULE_SETS)
# The games' names as players say them: each a Text, so a message that names a game says it in
# the message's language ("Parchís" in Spanish); str() of one is the English.
TITLES = {name: rules.title for name, rules in RULE_SETS.items()}


@cache
def rules_for(name: str, options: int = 0):
    """The shared rule-set instance for ``name`` and the table ``options`` (the link's number:
    Parcheesi has none); ``KeyError`` for an unknown game, ``ValueError`` for unknown options."""
    rules = RULE_SETS[name]
    if rules is Parcheesi:
        if options:
            raise ValueError("Parcheesi has no table options")
        return rules()
    return rules(options)


def default_colors(name: str, players: int, options: int = 0) -> tuple[int, ...]:
    """Seat colors for a table of ``players``: spread evenly around the board (two players sit
    opposite each other, three on a 6-player board every other seat)."""
    rules = rules_for(name, options)
    seats = len(rules.board.color_names)
    if seats % players == 0 and players <= rules.capacity:
        return tuple(range(0, seats, seats // players))
    return tuple(range(players))
