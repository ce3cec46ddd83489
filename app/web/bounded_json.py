"""JSON from a request, with its nesting bounded before it is parsed: Python's parser recurses
once per level, so a body of a few kilobytes of ``[[[[...`` raises RecursionError (a 500, and a
traceback with the game link in the log) instead of a clear 400.

>>> loads('{"seat": 0, "steps": ["roll", {"from": -1, "to": 0, "values": [5]}]}')["seat"]
0
>>> loads("[" * 1000 + "]" * 1000)
Traceback (most recent call last):
ValueError: nested deeper than 16 levels
>>> loads('["[[[[[[[[[[[[[[[[[[[[[[[["]')  # brackets inside a string don't count
['[[[[[[[[[[[[[[[[[[[[[[[[']
"""

from __future__ import annotations

import json
import re

MAX_DEPTH = 16  # a turn's steps are three levels deep; a little room for what the API adds

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def loads(text: str | bytes, depth: int = MAX_DEPTH):
    """Parse ``text`` as JSON: ValueError when it isn't, or when arrays and objects nest deeper
    than ``depth``."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")  # UnicodeDecodeError is a ValueError
    level = 0
    for bracket in _BRACKETS.finditer(_STRINGS.sub("", text)):
        level += 1 if bracket.group() in "[{" else -1
        if level > depth:
            raise ValueError(f"nested deeper than {depth} levels")
    return json.loads(text)
