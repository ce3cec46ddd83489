"""The board drawings (app/web/layout.py): every place has its own spot, and the Red Arse boards
have the shape the rules describe (docs: shared/rules/DECISIONS.md, Red Arse geometry)."""

import math

import pytest

from app.engine import boards
from app.engine.red_arse_settings import options_for
from app.web.layout import board_layout

RING = {4: boards.RED_ARSE_4, 6: boards.RED_ARSE_6}
PHONE_WIDTH = 390  # CSS pixels across a phone (the board takes the page's width)


def layout(seats: int) -> dict:
    return board_layout("red-arse", options_for(seats))


def dist(a, b) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def angle(p) -> float:
    """The angle of ``p`` around the centre, growing clockwise on the screen (y points down)."""
    return math.atan2(p[1], p[0])


@pytest.fixture(params=[4, 6])
def seats(request):
    return request.param


def test_every_place_and_base_hole_has_its_own_spot(seats):
    board, drawn = RING[seats], layout(seats)
    assert len(drawn["places"]) == board.places == board.track + 1 + 4 * seats
    spots = [tuple(p) for p in drawn["places"]]
    spots += [tuple(p) for color in drawn["colors"] for p in color["base"]]
    assert len(set(spots)) == len(spots)
    # Nothing is crowded: holes are at least 0.9 spacings apart (readable on a phone).
    closest = min(dist(a, b) for i, a in enumerate(spots) for b in spots[i + 1:])
    assert closest >= 0.9


def test_every_place_is_drawn_once_as_a_hole_of_its_kind(seats):
    board, drawn = RING[seats], layout(seats)
    holes = [c for c in drawn["cells"] if c["shape"] == "hole" and c["place"] != -1]
    assert sorted(c["place"] for c in holes) == list(range(board.places))
    for cell in holes:
        assert [cell["x"], cell["y"]] == drawn["places"][cell["place"]]
    kinds = {}
    for cell in holes:
        kinds.setdefault(cell["kind"], []).append(cell["place"])
    assert sorted(kinds["inside"]) == [board.inside_corner(c) for c in range(seats)]
    assert sorted(kinds["start"]) == [board.start(c) for c in range(seats)]
    assert sorted(kinds["entry"]) == [board.home_entry(c) for c in range(seats)]
    assert sorted(kinds["outside"]) == [14 * c + 5 for c in range(seats)]
    assert kinds["center"] == [board.center]
    assert len(kinds["home"]) == 4 * seats
    for cell in holes:  # the colored holes belong to their seat
        if cell["kind"] in ("start", "entry", "inside"):
            assert cell["color"] == board.color_names[cell["place"] // 14]
        if cell["kind"] == "home":
            assert cell["color"] == board.color_names[board.home_owner(cell["place"])[0]]
    bases = [c for c in drawn["cells"] if c["kind"] == "base"]
    assert len(bases) == 4 * seats


def test_the_track_is_one_loop_of_neighbouring_holes_going_clockwise(seats):
    board, places = RING[seats], layout(seats)["places"]
    track = places[:board.track]
    for i, here in enumerate(track):
        assert dist(here, track[(i + 1) % board.track]) == pytest.approx(1, abs=0.01)
    # Clockwise on the screen: each seat's segment starts a turn further round than the last.
    corners = [angle(track[board.inside_corner(c)]) for c in range(seats)]
    turns = [(corners[(c + 1) % seats] - corners[c]) % (2 * math.pi) for c in range(seats)]
    assert turns == pytest.approx([2 * math.pi / seats] * seats, abs=0.001)


def test_inside_corners_are_14_apart_around_the_center_and_outside_corners_at_arm_ends(seats):
    board, places = RING[seats], layout(seats)["places"]
    center = places[board.center]
    assert center == [0, 0]
    inside = [places[board.inside_corner(c)] for c in range(seats)]
    assert [board.inside_corner(c) for c in range(seats)] == list(range(0, board.track, 14))
    radius = dist(inside[0], center)
    assert all(dist(p, center) == pytest.approx(radius, abs=0.002) for p in inside)
    # Neighbouring inside corners are one arm's width (4 spacings) apart: the arms' feet touch.
    for c in range(seats):
        assert dist(inside[c], inside[(c + 1) % seats]) == pytest.approx(4, abs=0.01)
    # Outside corners are the holes farthest out, at the two ends of each arm's end.
    far = max(dist(p, center) for p in places[:board.track])
    for c in range(seats):
        for offset in (5, 9):
            assert dist(places[14 * c + offset], center) == pytest.approx(far, abs=0.01)
        for offset in (6, 7, 8):  # across the arm's end, between its corners
            assert dist(places[14 * c + offset], center) < far


def test_home_columns_run_from_the_entry_to_the_center(seats):
    board, places = RING[seats], layout(seats)["places"]
    center = places[board.center]
    for c in range(seats):
        entry = places[board.home_entry(c)]
        column = [places[board.home(c, k)] for k in range(4)]
        assert dist(entry, column[0]) == pytest.approx(1, abs=0.01)
        for a, b in zip(column, column[1:]):
            assert dist(a, b) == pytest.approx(1, abs=0.01)
        # Straight in along the arm's axis: slot 4 (the top) nearest the center.
        distances = [dist(p, center) for p in [entry] + column]
        assert distances == sorted(distances, reverse=True)
        assert distances[0] - distances[-1] == pytest.approx(4, abs=0.01)
        # The entry is the middle of the arm's end: as far from either outside corner.
        assert dist(entry, places[14 * c + 5]) == pytest.approx(dist(entry, places[board.start(c)]),
                                                              abs=0.002)


def test_seat_0_sits_at_the_bottom_and_bases_beside_their_start(seats):
    board, drawn = RING[seats], layout(seats)
    places = drawn["places"]
    column = [places[board.home(0, k)] for k in range(4)]
    assert all(x == pytest.approx(0, abs=0.002) and y > 0 for x, y in column)  # straight down from the middle
    for c, color in enumerate(drawn["colors"]):
        assert color["name"] == board.color_names[c]
        starts = [places[board.start(s)] for s in range(seats)]
        for hole in color["base"]:
            nearest = min(range(seats), key=lambda s: dist(hole, starts[s]))
            assert nearest == c
            assert dist(hole, starts[c]) < 3


def test_the_6_player_board_is_the_4_player_shape_with_six_arms():
    places = layout(6)["places"]
    # Every seat's holes are seat 0's turned by 60 degrees per seat.
    for c in range(6):
        turn = math.radians(60 * c)
        for offset in range(14):
            x, y = places[offset]
            want = (x * math.cos(turn) - y * math.sin(turn), x * math.sin(turn) + y * math.cos(turn))
            assert places[14 * c + offset] == pytest.approx(list(want), abs=0.002)


def test_everything_fits_the_view_and_a_phone_shows_holes_big_enough(seats):
    drawn = layout(seats)
    x0, y0, width, height = drawn["view"]
    for cell in drawn["cells"]:
        reach = cell.get("r", 0.3)
        assert x0 <= cell["x"] - reach and cell["x"] + reach <= x0 + width
        assert y0 <= cell["y"] - reach and cell["y"] + reach <= y0 + height
    assert PHONE_WIDTH / width >= 17  # CSS pixels between neighbouring holes on a phone


def test_options_choose_the_board_and_house_rules_do_not_change_it():
    assert board_layout("red-arse", 0)["board"] == 4
    assert board_layout("red-arse", options_for(6, off=["raids", "claim"])) == layout(6)
    assert board_layout("red-arse", options_for(4, off=["backward"])) == layout(4)
    with pytest.raises(ValueError):
        board_layout("chess")
    with pytest.raises(ValueError):
        board_layout("red-arse", 1 << 20)


def test_parcheesi_keeps_its_cross():
    drawn = board_layout("parcheesi")
    squares = [c for c in drawn["cells"] if c["shape"] == "square" and c["kind"] != "home"]
    assert sorted(c["square"] for c in squares) == list(range(1, 69))
    assert len({(c["x"], c["y"]) for c in squares}) == 68
    assert drawn["places"] is None and drawn["home_progress"] == 71
    for color in drawn["colors"]:
        path = color["path"]
        assert len(path) == 71 and len({tuple(p) for p in path}) == 71
        for a, b in zip(path, path[1:]):  # one square at a time, corners cut diagonally
            assert dist(a, b) <= math.sqrt(2) + 1e-9
        assert len(color["base"]) == 4


# -- Ludo: the classic cross of 52 squares and the six-arm board of 78 (docs/rules/ludo.md) ------

LUDO = {4: boards.LUDO_4, 6: boards.LUDO_6}


@pytest.fixture(params=[4, 6])
def arms(request):
    return request.param


def ludo_layout(arms: int) -> dict:
    return board_layout("ludo", 6 if arms == 6 else 0)


def test_ludo_squares_are_numbered_once_each_on_a_spot_of_their_own(arms):
    board, drawn = LUDO[arms], ludo_layout(arms)
    squares = drawn["squares"]
    assert [c["square"] for c in squares] == list(range(1, board.track + 1))
    assert [c for c in drawn["cells"] if c.get("square")] == squares
    spots = [(c["x"], c["y"]) for c in squares]
    spots += [tuple(p) for color in drawn["colors"] for p in color["path"][board.last + 1:]]
    spots += [tuple(p) for color in drawn["colors"] for p in color["base"]]
    assert len(set(spots)) == len(spots) == board.track + 5 * arms + 4 * arms
    # Nothing is crowded: a piece (radius 0.36) on one spot never covers the next.
    assert min(dist(a, b) for i, a in enumerate(spots) for b in spots[i + 1:]) >= 0.99


def test_ludo_track_is_one_loop_of_neighbouring_squares_going_clockwise(arms):
    board, squares = LUDO[arms], ludo_layout(arms)["squares"]
    points = [(c["x"], c["y"]) for c in squares]
    for i, here in enumerate(points):
        step = dist(here, points[(i + 1) % board.track])
        assert step == pytest.approx(1, abs=0.01) or 1.3 <= step <= math.sqrt(2) + 0.01  # corners
    # Clockwise on the screen: each color's exit a turn of 1/arms further round than the last.
    exits = [angle(points[e - 1]) for e in board.entries]
    turns = [(exits[(c + 1) % arms] - exits[c]) % (2 * math.pi) for c in range(arms)]
    assert turns == pytest.approx([2 * math.pi / arms] * arms, abs=0.001)


def test_ludo_exits_and_stars_are_where_the_rules_put_them(arms):
    board, squares = LUDO[arms], ludo_layout(arms)["squares"]
    exits = {c["square"]: c["color"] for c in squares if c["kind"] == "entry"}
    assert exits == {1 + 13 * c: board.color_names[c] for c in range(arms)}
    assert sorted(c["square"] for c in squares if c["star"]) == [9 + 13 * c for c in range(arms)]
    assert {c["square"] for c in squares if c["safe"]} == board.safe
    assert not any(c["star"] for c in squares if c["kind"] == "entry")
    if arms == 4:
        assert sorted(exits) == [1, 14, 27, 40] and 48 in board.safe


def test_ludo_home_columns_run_inward_from_each_color_s_last_square(arms):
    board, drawn = LUDO[arms], ludo_layout(arms)
    home = [c for c in drawn["cells"] if c["kind"] == "home"]
    assert len(home) == 5 * arms
    for c, color in enumerate(drawn["colors"]):
        path = color["path"]
        assert len(path) == board.last + 6  # progress 0 .. the fifth square of the column
        assert path[0] == [drawn["squares"][board.entries[c] - 1][k] for k in ("x", "y")]
        last = drawn["squares"][board.cell(c, board.last) - 1]
        assert path[board.last] == [last["x"], last["y"]] and last["kind"] == "track"
        column = path[board.last:]
        for a, b in zip(column, column[1:]):
            assert dist(a, b) == pytest.approx(1, abs=0.01)
        distances = [math.hypot(*p) for p in column]  # the centre is (0, 0)
        assert distances == sorted(distances, reverse=True)
        # The column's cells are the color's, and lead to its triangle of the goal.
        mine = sorted((cell["place"], [cell["x"], cell["y"]]) for cell in home
                      if cell["color"] == color["name"])
        assert mine == [(board.last + 1 + m, path[board.last + 1 + m]) for m in range(5)]
        goal = next(cell for cell in drawn["cells"] if cell["kind"] == "goal"
                    and cell["color"] == color["name"])
        assert goal["place"] == drawn["home_progress"] == board.home
        assert dist(color["home"], path[-1]) < 1.6 and math.hypot(*color["home"]) < 1.7
    assert ludo_layout(arms)["colors"][0]["path"][board.last][1] > 0  # red at the bottom


def test_ludo_bases_sit_beside_their_own_exit_and_away_from_the_track(arms):
    board, drawn = LUDO[arms], ludo_layout(arms)
    squares = [(c["x"], c["y"]) for c in drawn["squares"]]
    exits = [squares[e - 1] for e in board.entries]
    for c, color in enumerate(drawn["colors"]):
        assert len(color["base"]) == 4
        middle = [sum(x for x, _ in color["base"]) / 4, sum(y for _, y in color["base"]) / 4]
        assert min(range(arms), key=lambda e: dist(middle, exits[e])) == c
        for spot in color["base"]:
            assert min(dist(spot, s) for s in squares) >= 1.2


def test_ludo_fits_a_phone(arms):
    drawn = ludo_layout(arms)
    x0, y0, width, height = drawn["view"]
    for cell in drawn["cells"]:
        reach = cell.get("r", 0.5)
        assert x0 <= cell["x"] - reach and cell["x"] + reach <= x0 + width
        assert y0 <= cell["y"] - reach and cell["y"] + reach <= y0 + height
    assert PHONE_WIDTH / width >= 20  # CSS pixels per square on a phone
    assert height <= width * 1.05


def test_ludo_options_choose_the_board():
    assert ludo_layout(4)["board"] == 4 and board_layout("ludo", 0) == ludo_layout(4)
    assert len(ludo_layout(6)["colors"]) == 6
    assert all("angle" not in c for c in ludo_layout(4)["cells"])
    assert board_layout("ludo", 3) == ludo_layout(4)  # a table for 3 plays on the 52 squares
    assert board_layout("ludo", 5) == ludo_layout(6)
    with pytest.raises(ValueError):
        board_layout("ludo", 1)
