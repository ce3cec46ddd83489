"""The part of position notation every game shares: the seats field (``docs/notation.md``).

``y:5,n,n,n/r:n,n,n,44``: per seat in turn order its color letter and its pieces (four in every
game), each written by the game's own place notation.

>>> text = write_seats("yr", (0, 1), [[5, -1], [-1, 44]], lambda color, p: str(p))
>>> text
'y:5,-1/r:-1,44'
>>> read_seats(text, "yr", lambda color, s: int(s), "pawns", count=2)
([0, 1], [[5, -1], [-1, 44]])
"""

from __future__ import annotations

from typing import Callable

NUMBERS = ("no", "one", "two", "three", "four", "five", "six")  # as an error says a count


def write_seats(letters: str, colors, pos, place: Callable[[int, int], str]) -> str:
    return "/".join(letters[c] + ":" + ",".join(place(c, p) for p in pieces)
                    for c, pieces in zip(colors, pos))


def read_seats(field: str, letters: str, place: Callable[[int, str], int], noun: str,
               count: int) -> tuple[list[int], list[list[int]]]:
    """Colors and ``count`` pieces a seat from a seats field; ``ValueError`` (e.g. "y needs
    four pawns")."""
    colors, pos = [], []
    for part in field.split("/"):
        letter, _, places = part.partition(":")
        color = letters.index(letter)
        pieces = [place(color, text) for text in places.split(",")]
        if len(pieces) != count:
            raise ValueError(f"{letter} needs {NUMBERS[count]} {noun}")
        colors.append(color)
        pos.append(pieces)
    return colors, pos
