"""JSON from a request, nested no deeper than a request needs: Python's parser recurses once per
level, so a body of a few kilobytes of ``[[[[...`` would otherwise raise RecursionError (a 500,
and a traceback with the game link in the log) instead of a clear 400. Parsing stays linear:
the parser's own RecursionError is caught, and the depth of what it returns is measured after.

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

MAX_DEPTH = 16  # a turn's steps are three levels deep; a little room for what the API adds


def loads(text: str | bytes, depth: int = MAX_DEPTH):
    """Parse ``text`` as JSON: ValueError when it isn't, or when arrays and objects nest deeper
    than ``depth``."""
    try:
        value = json.loads(text)  # bytes: UTF-8 (or 16, 32); a bad byte is a ValueError
    except RecursionError:
        raise ValueError(f"nested deeper than {depth} levels") from None
    if _depth(value) > depth:
        raise ValueError(f"nested deeper than {depth} levels")
    return value


def _depth(value) -> int:
    """How deeply arrays and objects nest in a parsed value (a scalar: 0), without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        children = item.values() if isinstance(item, dict) else item \
            if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, level)
            todo.extend((child, level + 1) for child in children)
    return deepest
