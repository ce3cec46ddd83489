"""Names as players type them, cleaned before anyone else sees them: characters that show
nothing (zero-width spaces, soft hyphens, word joiners, byte order marks, tag characters, Hangul
and Braille blanks, private-use and unassigned code points) are dropped, odd spaces become one
plain space, and a name that shows nothing is no name (the caller gives the default one).
Joiners that build emoji and scripts (U+200C, U+200D) stay.

>>> clean("  Ana\\u200b  Mar\\u00adía ")
'Ana María'
>>> clean("\\u3164\\u2800\\u200b"), clean("\\u200d\\u0301")
('', '')
>>> clean("Leo \\U0001f468\\u200d\\U0001f469\\u200d\\U0001f467")
'Leo 👨\\u200d👩\\u200d👧'
"""

from __future__ import annotations

import unicodedata

# Characters that are letters to Unicode but show as blank space.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_JOINERS = frozenset("\u200c\u200d")


def clean(text: str) -> str:
    """``text`` with what shows nothing dropped and spaces tidied ('' if nothing shows)."""
    kept = []
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        if char in _BLANKS or (category in ("Cf", "Co", "Cn") and char not in _JOINERS):
            continue
        kept.append(" " if category[0] == "Z" or char.isspace() else char)
    name = " ".join("".join(kept).split())
    shows = any(unicodedata.category(c)[0] in "LNPS" for c in name if c not in _BLANKS)
    return name if shows else ""
