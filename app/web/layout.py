"""Where things are drawn: board coordinates for the browser client, as data.

The page draws any board from this description (squares, each color's path from entry to Home,
nests), so one client serves every game. Units are grid cells; the client scales them.
"""

from __future__ import annotations

from functools import cache

from app.engine.games import rules_for

FILLS = {"yellow": "#e8b400", "blue": "#2a6fdb", "red": "#d33a2c", "green": "#2a9d4b"}


def _parcheesi_track() -> list[tuple[int, int]]:
    """Squares 1..68 on a 19x19 cross, counter-clockwise from the bottom arm's right column
    (yellow's entry, 5, is the fifth square up it). See docs/rules/parcheesi.md."""
    walk = []
    walk += [(10, y) for y in range(18, 10, -1)]      # 1-8   bottom arm, right column, up
    walk += [(x, 10) for x in range(11, 19)]          # 9-16  right arm, bottom row, out
    walk += [(18, 9)]                                 # 17    right arm's end
    walk += [(x, 8) for x in range(18, 10, -1)]       # 18-25 right arm, top row, in
    walk += [(10, y) for y in range(7, -1, -1)]       # 26-33 top arm, right column, up
    walk += [(9, 0)]                                  # 34    top arm's end
    walk += [(8, y) for y in range(0, 8)]             # 35-42 top arm, left column, down
    walk += [(x, 8) for x in range(7, -1, -1)]        # 43-50 left arm, top row, out
    walk += [(0, 9)]                                  # 51    left arm's end
    walk += [(x, 10) for x in range(0, 8)]            # 52-59 left arm, bottom row, in
    walk += [(8, y) for y in range(11, 19)]           # 60-67 bottom arm, left column, down
    walk += [(9, 18)]                                 # 68    bottom arm's end
    return walk


# Each color's home path runs up the middle of the arm whose end it turns from, toward (9, 9).
_HOME_PATHS = {
    0: [(9, y) for y in range(17, 10, -1)],   # yellow, from 68
    1: [(x, 9) for x in range(17, 10, -1)],   # blue, from 17
    2: [(9, y) for y in range(1, 8)],         # red, from 34
    3: [(x, 9) for x in range(1, 8)],         # green, from 51
}
_NESTS = {0: (14.5, 14.5), 1: (14.5, 3.5), 2: (3.5, 3.5), 3: (3.5, 14.5)}


@cache
def board_layout(game: str) -> dict:
    rules = rules_for(game)
    board = rules.board
    track = _parcheesi_track()
    squares = [
        {"n": n, "x": x, "y": y, "safe": n in board.safe,
         "entry": board.entries.index(n) if n in board.entries else None}
        for n, (x, y) in enumerate(track, start=1)
    ]
    colors = []
    for c, name in enumerate(board.color_names):
        path = [track[board.cell(c, p) - 1] for p in range(board.last + 1)] + _HOME_PATHS[c]
        hx, hy = _HOME_PATHS[c][-1]
        nx, ny = _NESTS[c]
        colors.append({
            "letter": board.colors[c].lower(), "name": name, "fill": FILLS[name],
            "path": path, "home": (9 + (hx - 9) * 0.55, 9 + (hy - 9) * 0.55),
            "nest": [(nx + dx, ny + dy) for dx, dy in ((-1.5, -1.5), (1.5, -1.5), (-1.5, 1.5), (1.5, 1.5))],
        })
    return {"game": game, "size": 19, "squares": squares, "colors": colors,
            "home_progress": rules.home, "home_path_start": board.last + 1, "nest_progress": -1}
