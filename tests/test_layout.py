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
