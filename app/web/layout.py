"""Where things are drawn: board coordinates for the browser client, as data.

One client (static/js/board.js) draws every board from this description, so nothing about a
board's shape lives in JavaScript. Units are hole (or square) spacings; the client scales them.
Every coordinate is the centre of what it places.

A layout holds:

- ``view``: the drawing's box ``[x, y, width, height]``;
- ``outline``: the board's shape as one polygon (Red Arse), or None;
- ``cells``: what to draw, in order: ``{"x", "y", "shape", "kind", "color", "place"}``. ``shape``
  is ``square`` (a unit square), ``hole``, ``panel`` (a rounded rectangle ``w`` x ``h``) or
  ``disc`` (a circle of radius ``r``); ``kind`` says what it is (``track``, ``inside`` corner,
  ``outside`` corner, ``start``, ``entry``, ``home``, ``center``, ``base``, ``nest``...);
  ``color`` the color it belongs to, if any; ``place`` the position a piece there has;
- ``colors``: per color ``name``, ``letter``, ``fill``, ``tint`` (a light fill), ``base`` (where
  each of its 4 pieces waits at position -1) and, for Parcheesi and Ludo, ``path`` (progress ->
  point) and ``home`` (where its pieces at Home, or in Ludo's goal, stand);
- ``places`` (Red Arse): place -> point, the same for every color (places are shared);
  ``center`` the center's place and per color ``homes``, the places of its home slots 1 to 4;
- per color ``numbers`` (Parcheesi, Ludo): the track square's number at each progress up to its
  home column (how moves and the board's text alternative name where a piece stands);
- ``home_progress``: Parcheesi's Home or Ludo's goal (pieces there share one spot), None for Red
  Arse;
- ``squares`` (Parcheesi, Ludo): the track squares in number order (they are among ``cells`` too).

Squares may carry ``angle`` (degrees, turned about their centre: the six-arm Ludo board),
``safe`` and ``star`` (a safe square drawn with a star); ``polygon`` cells (Ludo's goal) list
their ``points``.

A piece's point: ``colors[c].base[piece]`` at -1; otherwise ``places[p]`` when the layout has
``places``, else ``colors[c].path[p]`` (and ``colors[c].home`` from ``home_progress`` on).
"""

from __future__ import annotations

import math
from functools import cache

from app.engine import boards

FILLS = {"yellow": "#e8b400", "blue": "#2a6fdb", "red": "#d33a2c", "green": "#2a9d4b",
         "purple": "#8044b8", "orange": "#ee7b16"}
PIECES = 4


def _tint(fill: str, keep: float = 0.45) -> str:
    """``fill`` mixed with white (``keep`` of the color)."""
    rgb = [int(fill[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - v) * keep):02x}" for v in rgb)


def _point(x: float, y: float) -> list[float]:
    return [round(x, 3) + 0.0, round(y, 3) + 0.0]


def _color(board, c: int) -> dict:
    name = board.color_names[c]
    return {"letter": board.colors[c].lower(), "name": name, "fill": FILLS[name],
            "tint": _tint(FILLS[name])}


def board_layout(game: str, options: int = 0) -> dict:
    """The drawing of ``game``'s board for the table ``options`` describe; ``ValueError`` for
    an unknown game or options."""
    from app.engine.games import rules_for

    try:
        rules = rules_for(game, options)
    except KeyError:
        raise ValueError(f"No game called {game!r}.") from None
    return DRAWINGS[game](rules.board_size())


def board_options(game: str, size: int) -> int:
    """The table options that draw ``game``'s board of ``size`` seats (4 or 6: Red Arse's and
    Ludo's; the others have one board)."""
    from app.engine.games import RULE_SETS

    return RULE_SETS[game].board_options(size)


# -- Parcheesi ----------------------------------------------------------------------------------

def _parcheesi_track() -> list[tuple[int, int]]:
    """Squares 1..68 on a 19x19 cross (top-left corners), counter-clockwise from the bottom arm's
    right column (yellow's entry, 5, is the fifth square up it). See docs/rules/parcheesi.md."""
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
_NESTS = {0: (14.5, 14.5), 1: (14.5, 3.5), 2: (3.5, 3.5), 3: (3.5, 14.5)}  # centres


@cache
def _parcheesi() -> dict:
    from app.engine.games import rules_for

    rules = rules_for("parcheesi")
    board = rules.board
    track = _parcheesi_track()
    centre = lambda cell: _point(cell[0] + 0.5, cell[1] + 0.5)  # noqa: E731
    cells, colors = [], []
    for c in range(len(board.color_names)):
        color = _color(board, c)
        nx, ny = _NESTS[c]
        color["base"] = [_point(nx + dx, ny + dy) for dx, dy in
                         ((-1.5, -1.5), (1.5, -1.5), (-1.5, 1.5), (1.5, 1.5))]
        hx, hy = _HOME_PATHS[c][-1]
        color["home"] = _point(9.5 + (hx - 9) * 0.55, 9.5 + (hy - 9) * 0.55)
        color["numbers"] = [board.cell(c, p) for p in range(board.last + 1)]
        color["path"] = ([centre(track[n - 1]) for n in color["numbers"]]
                         + [centre(cell) for cell in _HOME_PATHS[c]])
        colors.append(color)
        cells.append({"x": nx, "y": ny, "shape": "panel", "w": 7.2, "h": 7.2, "kind": "nest",
                      "color": color["name"], "place": -1})
        cells += [{"x": x, "y": y, "shape": "square", "kind": "home", "color": color["name"],
                   "place": board.last + 1 + k}
                  for k, (x, y) in enumerate(color["path"][board.last + 1:])]
        cells.append({"x": color["home"][0], "y": color["home"][1], "shape": "disc", "r": 0.9,
                      "kind": "homespot", "color": color["name"], "place": rules.home})
    squares = []
    for n, cell in enumerate(track, start=1):
        entry = board.entries.index(n) if n in board.entries else None
        squares.append({"x": centre(cell)[0], "y": centre(cell)[1], "shape": "square",
                      "kind": "entry" if entry is not None else "track",
                      "safe": n in board.safe, "square": n,
                      "color": None if entry is None else board.color_names[entry],
                        "place": None})
    return {"game": "parcheesi", "board": len(board.color_names), "view": [-0.2, -0.2, 19.4, 19.4],
            "outline": None, "cells": cells + squares, "squares": squares, "colors": colors,
            "places": None,
            "home_progress": rules.home, "nest_progress": -1}


# -- Red Arse -----------------------------------------------------------------------------------

ARM_HALF = 2     # the arm's end holes run from -2 to +2 across its axis
ARM_LENGTH = 5   # holes from an inside corner out to the outside corner
# Base holes, as steps from the next seat's inside corner: along the arm, and across it away from
# the arm. That puts the base in the gap between two arms, beside the start hole (5 along, 0
# across), and inside the board's outline on both boards.
BASE_STEPS = ((5.0, 1.3), (5.0, 2.3), (4.0, 1.3), (4.0, 2.3))


def _rotate(x: float, y: float, angle: float) -> tuple[float, float]:
    """Rotate clockwise on the screen (y points down) by ``angle`` radians."""
    cos, sin = math.cos(angle), math.sin(angle)
    return x * cos - y * sin, x * sin + y * cos


def _arm(c: int, seats: int):
    """Seat ``c``'s arm: its direction out from the centre ``d``, the direction ``p`` across it
    toward its own inside corner, and its inside corner ``v`` (seat 0 points down)."""
    angle = 2 * math.pi * c / seats
    d = _rotate(0, 1, angle)
    p = _rotate(1, 0, angle)
    apothem = ARM_HALF / math.tan(math.pi / seats)  # the inner polygon: side 4, corner to corner
    v = (apothem * d[0] + ARM_HALF * p[0], apothem * d[1] + ARM_HALF * p[1])
    return d, p, v, apothem


def _track_point(c: int, offset: int, seats: int) -> tuple[float, float]:
    """Offset 0..13 of seat ``c``'s 14 holes: out along the arm (0..5), across its end (5..9),
    back in (9..13)."""
    d, p, v, _ = _arm(c, seats)
    if offset <= ARM_LENGTH:
        along, across = offset, 0
    elif offset <= ARM_LENGTH + 2 * ARM_HALF:
        along, across = ARM_LENGTH, offset - ARM_LENGTH
    else:
        along, across = 2 * ARM_LENGTH + 2 * ARM_HALF - offset, 2 * ARM_HALF
    return v[0] + along * d[0] - across * p[0], v[1] + along * d[1] - across * p[1]


def _outline(seats: int, margin: float = 0.75) -> list[list[float]]:
    """The board's shape: the inner polygon with an arm on each side, ``margin`` outside the
    holes."""
    points = []
    for c in range(seats):
        d, p, _, apothem = _arm(c, seats)
        dp, pp, _, _ = _arm((c - 1) % seats, seats)
        # The inner corner: where this arm's first side meets the previous arm's last side.
        # Solve x.p = a and x.pp = -a for x, with a = ARM_HALF + margin.
        a = ARM_HALF + margin
        det = p[0] * pp[1] - p[1] * pp[0]
        x = (a * pp[1] + a * p[1]) / det
        y = (-a * pp[0] - a * p[0]) / det
        points.append(_point(x, y))
        end = apothem + ARM_LENGTH + margin
        points.append(_point(end * d[0] + a * p[0], end * d[1] + a * p[1]))
        points.append(_point(end * d[0] - a * p[0], end * d[1] - a * p[1]))
    return points


@cache
def red_arse(seats: int) -> dict:
    """The Red Arse board for 4 or 6 seats: the classic Aggravation drawing, an arm per seat."""
    board = {4: boards.RED_ARSE_4, 6: boards.RED_ARSE_6}[seats]
    places: list[list[float] | None] = [None] * board.places
    cells, colors = [], []
    for c in range(seats):
        color = _color(board, c)
        d, p, _, _ = _arm(c, seats)
        _, _, vn, _ = _arm((c + 1) % seats, seats)
        color["base"] = [_point(vn[0] + a * d[0] - b * p[0], vn[1] + a * d[1] - b * p[1])
                         for a, b in BASE_STEPS]
        color["home"] = None
        color["homes"] = [board.home(c, slot) for slot in range(PIECES)]
        colors.append(color)
        bx = sum(x for x, _ in color["base"]) / PIECES
        by = sum(y for _, y in color["base"]) / PIECES
        cells.append({"x": round(bx, 3), "y": round(by, 3), "shape": "disc", "r": 1.25,
                      "kind": "basearea", "color": color["name"], "place": -1})
        cells += [{"x": x, "y": y, "shape": "hole", "kind": "base", "color": color["name"],
                   "place": -1} for x, y in color["base"]]
        for offset in range(boards.RING_SEGMENT):
            place = boards.RING_SEGMENT * c + offset
            places[place] = _point(*_track_point(c, offset, seats))
        entry = places[board.home_entry(c)]
        for slot in range(PIECES):  # slot 1 next to the entry, slot 4 nearest the centre
            places[board.home(c, slot)] = _point(entry[0] - (slot + 1) * d[0],
                                                 entry[1] - (slot + 1) * d[1])
    places[board.center] = [0.0, 0.0]
    for place, (x, y) in enumerate(places):
        owner = board.home_owner(place)
        seat = place // boards.RING_SEGMENT if place < board.track else None
        if place == board.center:
            kind, color = "center", None
        elif owner is not None:
            kind, color = "home", board.color_names[owner[0]]
        elif board.is_inside_corner(place):
            kind, color = "inside", board.color_names[seat]
        elif place == board.start(seat):
            kind, color = "start", board.color_names[seat]
        elif board.is_outside_corner(place):
            kind, color = "outside", None
        elif place == board.home_entry(seat):
            kind, color = "entry", board.color_names[seat]
        else:
            kind, color = "track", None
        cells.append({"x": x, "y": y, "shape": "hole", "kind": kind, "color": color,
                      "place": place})
    outline = _outline(seats)
    reach = [(cell["x"], cell["y"], cell.get("r", 0.5)) for cell in cells]
    reach += [(x, y, 0) for x, y in outline]
    pad = 0.4
    left, top = min(x - r for x, _, r in reach) - pad, min(y - r for _, y, r in reach) - pad
    right, bottom = max(x + r for x, _, r in reach) + pad, max(y + r for _, y, r in reach) + pad
    view = [round(left, 3), round(top, 3), round(right - left, 3), round(bottom - top, 3)]
    return {"game": "red-arse", "board": seats, "view": view, "outline": outline,
            "cells": cells, "colors": colors, "places": places, "center": board.center,
            "home_progress": None, "nest_progress": -1}


# -- Ludo ---------------------------------------------------------------------------------------

LUDO_ARM = 6          # squares along an arm, from the centre out
LUDO_HALF = 1.5       # half an arm's width (three squares)
LUDO_MARGIN = 0.2     # the board's edge, outside the squares


def _ludo_frame(a: int, arms: int):
    """Arm ``a``'s direction out from the centre ``d`` and the direction ``p`` across it toward
    the column pieces go out along (arm 0 points down; arms follow clockwise, as pieces move)."""
    angle = 2 * math.pi * a / arms
    return _rotate(0, 1, angle), _rotate(1, 0, angle)


def _ludo_square(a: int, along: int, across: int, arms: int) -> tuple[float, float]:
    """The centre of the square ``along`` (0 next to the centre .. 5 at the end) and ``across``
    (-1 the column coming back in, 0 the home column, 1 the column going out) of arm ``a``."""
    d, p = _ludo_frame(a, arms)
    inner = LUDO_HALF / math.tan(math.pi / arms)  # the centre: a square or a hexagon of side 3
    r = inner + 0.5 + along
    return r * d[0] + across * p[0], r * d[1] + across * p[1]


def _ludo_track(arms: int) -> dict[int, tuple[int, int, int]]:
    """Square number -> (arm, along, across), as docs/rules/ludo.md numbers them: arm ``a`` goes
    out along its +1 column (13a-7 .. 13a-2), across its end (13a-1) and back in along its -1
    column (13a .. 13a+5, the color's exit 13a+1 the second of them)."""
    track = 13 * arms
    where = {}
    for a in range(arms):
        for k in range(LUDO_ARM):
            where[(13 * a - 8 + k) % track + 1] = (a, k, 1)
            where[(13 * a - 1 + k) % track + 1] = (a, LUDO_ARM - 1 - k, -1)
        where[(13 * a - 2) % track + 1] = (a, LUDO_ARM - 1, 0)
    return where


def _ludo_outline(arms: int) -> list[list[float]]:
    """The board's shape: the centre with an arm on each side, a margin outside the squares."""
    inner = LUDO_HALF / math.tan(math.pi / arms)
    half, end = LUDO_HALF + LUDO_MARGIN, inner + LUDO_ARM + LUDO_MARGIN
    points = []
    for a in range(arms):
        d, p = _ludo_frame(a, arms)
        _, pp = _ludo_frame(a - 1, arms)
        # Where the previous arm's -p side meets this arm's +p side: x.p = half, x.pp = -half.
        det = p[0] * pp[1] - p[1] * pp[0]
        points.append(_point((half * pp[1] + half * p[1]) / det,
                             (-half * pp[0] - half * p[0]) / det))
        points.append(_point(end * d[0] + half * p[0], end * d[1] + half * p[1]))
        points.append(_point(end * d[0] - half * p[0], end * d[1] - half * p[1]))
    return points


@cache
def ludo(arms: int) -> dict:
    """The Ludo board: the classic cross of 52 squares (4 arms) or six arms and 78 squares.

    Each color owns the arm its home column runs up: red at the bottom, then clockwise. Its base
    (where pieces wait at home) sits beside its exit, between its arm and the next; the goal is
    the centre, a triangle of each color's at the foot of its home column.
    """
    board = {4: boards.LUDO_4, 6: boards.LUDO_6}[arms]
    goal = board.home
    inner = LUDO_HALF / math.tan(math.pi / arms)
    where = _ludo_track(arms)
    tilt = lambda a: {"angle": round(360 * a / arms)} if (360 * a / arms) % 90 else {}  # noqa: E731
    squares = []
    for n in range(1, board.track + 1):
        a, along, across = where[n]
        x, y = _point(*_ludo_square(a, along, across, arms))
        exit_of = board.entries.index(n) if n in board.entries else None
        squares.append({"x": x, "y": y, "shape": "square", **tilt(a),
                        "kind": "entry" if exit_of is not None else "track",
                        "safe": n in board.safe, "star": n in board.safe and exit_of is None,
                        "square": n,
                        "color": None if exit_of is None else board.color_names[exit_of],
                        "place": None})
    cells, colors = [], []
    for c in range(arms):
        color = _color(board, c)
        d, p = _ludo_frame(c, arms)
        # The base: in the gap between this arm and the next, on the line halfway between them.
        bd = _rotate(0, 1, 2 * math.pi * (c + 0.5) / arms)
        if arms == 4:
            reach, size, spread = 4.5 * math.sqrt(2), 5.4, 1.2
            cells.append({"x": _point(reach * bd[0], 0)[0], "y": _point(0, reach * bd[1])[1],
                          "shape": "panel", "w": size, "h": size, "kind": "yard",
                          "color": color["name"], "place": -1})
        else:
            reach, spread = 6.9, 0.8  # the gap between arms opens at 60 degrees from radius 3
            cells.append({"x": _point(reach * bd[0], 0)[0], "y": _point(0, reach * bd[1])[1],
                          "shape": "disc", "r": 1.85, "kind": "yard", "color": color["name"],
                          "place": -1})
        bx, by = reach * bd[0], reach * bd[1]
        color["base"] = [_point(bx + sx * spread, by + sy * spread)
                         for sx, sy in ((-1, -1), (1, -1), (-1, 1), (1, 1))]
        cells += [{"x": x, "y": y, "shape": "disc", "r": 0.5, "kind": "yardspot",
                   "color": color["name"], "place": -1} for x, y in color["base"]]
        # The goal: this color's triangle of the centre, at the foot of its home column.
        corner = inner / math.cos(math.pi / arms)
        left, right = _rotate(d[0], d[1], -math.pi / arms), _rotate(d[0], d[1], math.pi / arms)
        color["home"] = _point(0.62 * inner * d[0], 0.62 * inner * d[1])
        cells.append({"x": color["home"][0], "y": color["home"][1], "shape": "polygon",
                      "points": [[0.0, 0.0], _point(corner * left[0], corner * left[1]),
                                 _point(corner * right[0], corner * right[1])],
                      "kind": "goal", "color": color["name"], "place": goal})
        color["numbers"] = [board.cell(c, q) for q in range(board.last + 1)]
        track = [[squares[n - 1]["x"], squares[n - 1]["y"]] for n in color["numbers"]]
        column = [_point(*_ludo_square(c, LUDO_ARM - 2 - m, 0, arms))
                  for m in range(board.home_path)]
        color["path"] = track + column
        cells += [{"x": x, "y": y, "shape": "square", **tilt(c), "kind": "home",
                   "color": color["name"], "place": board.last + 1 + m}
                  for m, (x, y) in enumerate(column)]
        colors.append(color)
    outline = _ludo_outline(arms)
    cells += squares
    reach = [(x, y, 0) for x, y in outline]
    for cell in cells:
        r = cell.get("r") or max(cell.get("w", 0), cell.get("h", 0)) / 2 or 0.5
        reach.append((cell["x"], cell["y"], r))
    pad = 0.2
    left, top = min(x - r for x, _, r in reach) - pad, min(y - r for _, y, r in reach) - pad
    right, bottom = max(x + r for x, _, r in reach) + pad, max(y + r for _, y, r in reach) + pad
    view = [round(left, 3), round(top, 3), round(right - left, 3), round(bottom - top, 3)]
    return {"game": "ludo", "board": arms, "view": view, "outline": outline, "cells": cells,
            "squares": squares, "colors": colors, "places": None, "home_progress": goal,
            "nest_progress": -1}


# Each game's board drawn for its number of seats (Parcheesi has one board).
DRAWINGS = {"parcheesi": lambda seats: _parcheesi(), "red-arse": red_arse, "ludo": ludo}
