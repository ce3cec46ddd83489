"""Red Arse's table settings: which board, and which house rules are switched off.

They travel in the link's ``options`` number: bit 0 is the 6-player board, bit ``1 + i`` switches
off ``HOUSE_RULES[i]``. Everything on and the 4-player board is 0, the smallest link.

>>> options_for(6, off=["raids"])
65
>>> settings(65)
{'board': 6, 'off': ['raids']}
"""

from __future__ import annotations

from .text import N_

# Every rule beyond plain Aggravation is its own switch, all on by default (DECISIONS 8). The
# labels are marked for translation (the pages show them in the page's language).
HOUSE_RULES = (
    ("kill_reroll", N_("Roll again after a kill")),
    ("corner_reroll", N_("Roll again after ending a move on an outside corner")),
    ("backward", N_("Backward 4 (and backing up behind your start parks you outside home)")),
    ("back_hop", N_("Backward hop of 4 inside corners on a 4 (6-player board)")),
    ("center_six", N_("The center's 6: a 6 from your start hole goes in, and a 6 leaves it")),
    ("raids", N_("Raids on other players' homes")),
    ("home_backout", N_("Backing out of home on a 4")),
    ("claim", N_("Claim it: 5 seconds to take a re-roll (off: re-rolls are rolled for you)")),
)
RULE_KEYS = tuple(key for key, _ in HOUSE_RULES)
BOARDS = (4, 6)
_ALL = (1 << (1 + len(HOUSE_RULES))) - 1


def options_for(board: int = 4, off=()) -> int:
    """The link's options for a table; ``ValueError`` for an unknown board or rule."""
    if board not in BOARDS:
        raise ValueError("Red Arse is played on the 4-player or the 6-player board.")
    options = int(board == 6)
    for key in off:
        if key not in RULE_KEYS:
            raise ValueError(f"No house rule called {key!r}.")
        options |= 2 << RULE_KEYS.index(key)
    return options


def settings(options: int) -> dict:
    """The table described by ``options``; ``ValueError`` for bits no setting uses."""
    if not 0 <= options <= _ALL:
        raise ValueError("unknown Red Arse options")
    return {"board": 6 if options & 1 else 4,
            "off": [key for i, key in enumerate(RULE_KEYS) if options & (2 << i)]}
