"""Names as players type them, cleaned before anyone else sees them: characters that show
nothing (Unicode's default-ignorable code points: zero-width spaces, soft hyphens, word joiners,
byte order marks, tag characters, the combining grapheme joiner, Hangul fillers, variation
selectors other than emoji's) and the Braille blank are dropped, as are private-use code points
and noncharacters; a letter keeps at most three combining marks (no towers of accents); odd
spaces become one plain space; and a name that shows nothing is no name (the caller gives the
default one). Joiners that build emoji and scripts (U+200C, U+200D) and emoji's variation
selectors (U+FE0E, U+FE0F) stay, and so do code points newer than this Python's Unicode tables
(new emoji).

>>> clean("  Ana\\u200b  Mar\\u00adía ")
'Ana María'
>>> clean("\\u3164\\u2800\\u200b"), clean("\\u200d\\u0301"), clean("B\\u034fen")
('', '', 'Ben')
>>> clean("Leo \\U0001f468\\u200d\\U0001f469\\u200d\\U0001f467")
'Leo 👨\\u200d👩\\u200d👧'
>>> len(clean("A" + "\\u0301" * 16))
4
"""

from __future__ import annotations

import unicodedata

MARKS_PER_LETTER = 3
_KEPT_FORMAT = frozenset("\u200c\u200d")
_IGNORABLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0"
                       "\u2800" + "".join(map(chr, range(0xFE00, 0xFE0E))))


def clean(text: str) -> str:
    """``text`` with what shows nothing dropped and spaces tidied ('' if nothing shows)."""
    kept, marks = [], 0
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        if _ignorable(char, category):
            continue
        if category in ("Mn", "Me"):
            marks += 1
            if marks > MARKS_PER_LETTER:
                continue
        else:
            marks = 0
        kept.append(" " if category[0] == "Z" or char.isspace() else char)
    name = " ".join("".join(kept).split())
    shows = any(unicodedata.category(c)[0] in "LNPS" or unicodedata.category(c) == "Cn"
                for c in name)
    return name if shows else ""


def _ignorable(char: str, category: str) -> bool:
    code = ord(char)
    return char in _IGNORABLE or (category == "Cf" and char not in _KEPT_FORMAT) or \
        category == "Co" or 0xE0100 <= code <= 0xE01EF or 0xFDD0 <= code <= 0xFDEF or \
        code & 0xFFFE == 0xFFFE
