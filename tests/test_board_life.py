"""The board comes alive, in a real browser: dice that tumble from the tap on Roll and
land on the server's faces, pips and all; pieces that hop square by square along their path from
the tap; a burst where a piece is taken or comes home, with a sound and a buzz; a switch that
silences them; none of the motion (and no sound unless asked) under prefers-reduced-motion; and
each player's name by their nest, the player to move's highlighted.

The server's answers to moves can be held back (``held``): what the page shows meanwhile is what
it does without waiting for the server; released, the answer is drawn while the piece still
hops. Sound and vibration are observed by wrapping the page's Web Audio and ``navigator.vibrate``
(``SENSES_JS``): headless Chromium has no speaker or motor to check.
"""

from __future__ import annotations

import math
import os
import threading

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from app.play import Game  # noqa: E402
from browser_support import (  # noqa: E402
    ARTIFACTS, CHROMIUM, KEYS, PHONE, WATCH_PIECES_JS, Monitor, capture_alone, dice, find_decision,
    find_ludo_decision, hash_steps, ludo_capture, ludo_game, new_game, page_hash, pieces,
    progress_grid, red_arse_game, steps_hash)

pytestmark = [pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
              pytest.mark.usefixtures("fresh_store")]  # each test its own store

# Every sound the page starts and every vibration it asks for, counted.
SENSES_JS = """
window.__buzz = [];
navigator.vibrate = (pattern) => { window.__buzz.push(pattern); return true; };
window.__tones = 0;
for (const name of ['createOscillator', 'createBufferSource']) {
  const make = BaseAudioContext.prototype[name];
  BaseAudioContext.prototype[name] = function () { window.__tones++; return make.call(this); };
}
"""
# How far the hopping copy of a piece had gone (its recorded cx and cy changes: WATCH_PIECES_JS)
# when the page drew the server's answer: game.js writes the turn's steps to the address as it
# draws it.
ANSWER_JS = """
window.__hopsAtAnswer = [];
const replace = history.replaceState.bind(history);
history.replaceState = (...args) => {
  window.__hopsAtAnswer.push((window.__pieceMoves || []).length / 2);
  return replace(...args);
};
"""
# Every burst the board shows (a ring where a piece is taken, a star where one comes home), with
# where it is: [class, x, y] (a star's x and y: its points' middle).
BURSTS_JS = """
window.__bursts = [];
new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((n) => {
  if (!n.classList || !n.classList.contains('burst')) return;
  const b = n.getBBox();
  window.__bursts.push([n.getAttribute('class'), b.x + b.width / 2, b.y + b.height / 2]);
}))).observe(document, {childList: true, subtree: true});
"""


@pytest.fixture
def held(server):
    """A gate on the server's answers to a page's moves (``/moves``): cleared, they wait until
    it is set again."""
    gate = threading.Event()
    gate.set()
    app = server.app
    inner = app.wsgi_app

    def wsgi(environ, start_response):
        if environ.get("PATH_INFO", "").endswith("/moves"):
            gate.wait(15)
        return inner(environ, start_response)

    app.wsgi_app = wsgi
    yield gate
    gate.set()
    app.wsgi_app = inner


@pytest.fixture
def phone(browser):
    """``phone(*scripts, reduced=False)``: a watched phone page, run with ``scripts`` first;
    ``reduced``: the phone asks for reduced motion."""
    opened = []

    def open_phone(*scripts, reduced=False):
        context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True,
                                      has_touch=True,
                                      reduced_motion="reduce" if reduced else "no-preference")
        context.set_default_timeout(30_000)
        for script in scripts:
            context.add_init_script(script)
        page = context.new_page()
        monitor = Monitor()
        monitor.attach(page)
        opened.append((context, monitor))
        return page

    yield open_phone
    for context, monitor in opened:
        context.close()
        monitor.check()


def landing(page, label: str):
    return page.locator(f'#board circle.landing[aria-label="{label}"]')


def ghost_path(page) -> list[list[float]]:
    """Where the hopping copy of a piece went, square by square (WATCH_PIECES_JS)."""
    moves = [m for m in page.evaluate("() => window.__pieceMoves") if m["attr"] in ("cx", "cy")]
    xs = [m["value"] for m in moves if m["attr"] == "cx"]
    ys = [m["value"] for m in moves if m["attr"] == "cy"]
    return [[x, y] for x, y in zip(xs, ys)]


def test_the_dice_tumble_from_the_tap_and_land_on_the_server_s_faces(server, phone, held):
    game = new_game(3)
    page = phone(SENSES_JS)
    page.goto(server.game_url(game.token()))
    expect(page.locator("#roll")).to_be_visible()
    held.clear()  # the server doesn't answer yet
    page.locator("#roll").click()
    expect(page.locator("#dice .die.rolling")).to_have_count(2)  # Parcheesi's two dice
    faces = set()
    for _ in range(10):  # a tumbling face isn't read out: its value is in its data
        faces.add(tuple(page.eval_on_selector_all(
            "#dice .die", "(ds) => ds.map((d) => d.dataset.value)")))
        page.wait_for_timeout(90)
    assert len(faces) > 1, faces  # tumbling, with no answer yet
    assert page.evaluate("() => window.__tones") > 0  # and rattling
    before = page_hash(page)
    held.set()
    page.wait_for_function("(h) => location.hash !== h", arg=before)
    expect(page.locator("#dice .die.landed")).to_have_count(2)
    view = server.position(game.token(), game.match.turn, hash_steps(page))
    assert dice(page) == view["last_roll"]
    # Each face shows its number in pips.
    pips = page.eval_on_selector_all("#dice .die", "(ds) => ds.map((d) => d.children.length)")
    assert pips == view["last_roll"]


def _long_move(moves) -> bool:
    """A pawn on the track can go 5 squares or more, and no other move lands where it does."""
    return any(m.src >= 0 and m.dst - m.src >= 5 and sum(n.dst == m.dst for n in moves) == 1
               for m in moves)


def test_a_piece_hops_square_by_square_from_the_tap_and_the_answer_never_waits_for_it(
        server, phone, held):
    token, steps, seat, moves = find_decision(_long_move)
    move = max((m for m in moves if sum(n.dst == m.dst for n in moves) == 1),
               key=lambda m: m.dst - m.src)
    view = server.position(token, seat, steps)
    legal = next(m for m in view["legal"] if [m["from"], m["to"]] == [move.src, move.dst])
    layout = server.api("/api/boards/parcheesi")[1]
    path = next(c["path"] for c in layout["colors"] if c["name"] == view["seats"][seat]["color"])
    page = phone(WATCH_PIECES_JS, ANSWER_JS)
    page.goto(server.game_url(token) + steps_hash(steps))
    expect(landing(page, legal["label"])).to_be_visible()
    page.evaluate("() => { window.__pieceMoves = []; window.__hopsAtAnswer = []; }")

    # Held: the pawn hops at once, square by square, and waits hidden in the air for nothing.
    held.clear()
    before = page_hash(page)
    landing(page, legal["label"]).click()
    squares = [path[p] for p in range(move.src + 1, move.dst + 1)]
    page.wait_for_function("(n) => window.__pieceMoves.length >= 2 * n", arg=len(squares))
    assert ghost_path(page) == squares
    assert page_hash(page) == before  # nothing answered yet
    expect(page.locator("#board .ghost")).to_have_count(1)
    expect(page.locator("#board .piece.aloft")).to_have_count(1)
    held.set()
    page.wait_for_function("(h) => location.hash !== h", arg=before)
    expect(page.locator("#board .ghost")).to_have_count(0)
    expect(page.locator("#board .piece.aloft")).to_have_count(0)
    assert progress_grid(page) == server.position(token, seat, hash_steps(page))["pieces"]

    # Released at the first hop: the answer is drawn while the pawn is still in the air.
    page.goto("about:blank")
    page.goto(server.game_url(token) + steps_hash(steps))
    expect(landing(page, legal["label"])).to_be_visible()
    page.evaluate("() => { window.__pieceMoves = []; window.__hopsAtAnswer = []; }")
    before = page_hash(page)
    held.clear()
    landing(page, legal["label"]).click()
    page.wait_for_function("() => window.__pieceMoves.length >= 2")
    held.set()
    page.wait_for_function("(h) => location.hash !== h", arg=before)
    [hops] = page.evaluate("() => window.__hopsAtAnswer")
    assert 1 <= hops < len(squares)  # drawn mid-hop
    expect(page.locator("#board .ghost")).to_have_count(0)  # then it lands
    assert ghost_path(page) == squares
    assert progress_grid(page) == server.position(token, seat, hash_steps(page))["pieces"]


def _capture(game, moves):
    return next(m for m in moves if ludo_capture(game, m) and sum(n.dst == m.dst for n in moves) == 1)


def open_capture(server, page):
    """A Ludo page mid-turn where a move sends a rival piece home; (label, seat, victim)."""
    token, steps, seat, moves = find_ludo_decision(capture_alone, players=3, board=6)
    game = Game.from_token(token, KEYS)
    game.play_turn(seat, steps)
    move = _capture(game, moves)
    victim = ludo_capture(game, move)[0]
    view = server.position(token, seat, steps)
    label = next(m["label"] for m in view["legal"] if [m["from"], m["to"]] == [move.src, move.dst])
    page.goto(server.game_url(token) + steps_hash(steps))
    expect(landing(page, label)).to_be_visible()
    return token, label, seat, victim


def test_a_capture_bursts_where_it_happens_with_a_sound_and_a_buzz(server, phone):
    page = phone(SENSES_JS, BURSTS_JS)
    token, label, seat, victim = open_capture(server, page)
    drawn = {(p["seat"], p["piece"]): (p["progress"], p["cx"], p["cy"]) for p in pieces(page)}
    before = page_hash(page)
    landing(page, label).click()
    page.wait_for_function("(h) => location.hash !== h", arg=before)
    page.wait_for_function("() => window.__bursts.length > 0")
    expect(page.locator("#board .burst")).to_have_count(0)  # it fades and goes
    after = server.position(token, seat, hash_steps(page))
    [taken] = [k for k, p in enumerate(after["pieces"][victim])
               if p == -1 and drawn[(victim, k)][0] != -1]
    _, x, y = drawn[(victim, taken)]
    [(kind, bx, by)] = page.evaluate("() => window.__bursts")  # one, where the piece stood
    assert kind == "burst capture" and abs(bx - x) < 0.01 and abs(by - y) < 0.01
    assert [70] in page.evaluate("() => window.__buzz")
    assert page.evaluate("() => window.__tones") > 0
    expect(page.locator("#board .ghost")).to_have_count(0)
    assert progress_grid(page) == after["pieces"]


def _home(game, moves) -> bool:
    return any(m.dst == game.rules.goal and sum(n.dst == m.dst for n in moves) == 1 for m in moves)


def test_a_piece_reaching_the_goal_gets_a_star(server, phone):
    token, steps, seat, moves = find_ludo_decision(_home, players=2, board=4)
    game = Game.from_token(token, KEYS)
    move = next(m for m in moves if m.dst == game.rules.goal)
    view = server.position(token, seat, steps)
    label = next(m["label"] for m in view["legal"] if [m["from"], m["to"]] == [move.src, move.dst])
    layout = server.api("/api/boards/ludo?board=4")[1]
    goal = next(c["home"] for c in layout["colors"] if c["name"] == view["seats"][seat]["color"])
    page = phone(SENSES_JS, BURSTS_JS)
    page.goto(server.game_url(token) + steps_hash(steps))
    expect(landing(page, label)).to_be_visible()
    before = page_hash(page)
    landing(page, label).click()
    page.wait_for_function("(h) => location.hash !== h", arg=before)
    page.wait_for_function("() => window.__bursts.length > 0")
    [(kind, x, y)] = page.evaluate("() => window.__bursts")
    assert kind == "burst home" and math.dist((x, y), goal) < 0.6  # on the goal
    assert [30, 50, 30] in page.evaluate("() => window.__buzz")


def test_the_sound_switch_silences_the_game_and_is_kept(server, phone):
    page = phone(SENSES_JS)
    page.goto(server.game_url(new_game(3).token()))
    expect(page.locator("#roll")).to_be_visible()
    expect(page.locator("#sound")).to_be_checked()  # on by default
    page.locator("#sound").uncheck()
    page.locator("#roll").click()
    expect(page.locator("#dice .die:not(.rolling)").first).to_be_visible()
    page.wait_for_timeout(300)
    assert page.evaluate("() => [window.__tones, window.__buzz.length]") == [0, 0]
    page.reload()
    expect(page.locator("#sound")).not_to_be_checked()


def test_under_reduced_motion_nothing_moves_and_nothing_sounds(server, phone, held):
    page = phone(SENSES_JS, WATCH_PIECES_JS, BURSTS_JS, reduced=True)
    token, label, seat, victim = open_capture(server, page)
    expect(page.locator("#sound")).not_to_be_checked()  # off unless asked for
    page.evaluate("() => { window.__pieceMoves = []; }")
    held.clear()
    before = page_hash(page)
    landing(page, label).click()
    page.wait_for_timeout(400)
    expect(page.locator("#board .ghost")).to_have_count(0)  # no copy in the air
    expect(page.locator("#board .piece.aloft")).to_have_count(0)
    held.set()
    page.wait_for_function("(h) => location.hash !== h", arg=before)
    assert progress_grid(page) == server.position(token, seat, hash_steps(page))["pieces"]
    page.wait_for_timeout(400)
    assert page.evaluate("() => window.__bursts") == []  # the piece taken just goes home
    assert page.evaluate("() => window.__pieceMoves.filter((m) => m.attr === 'cx').length") <= 1
    # The dice show no tumbling faces: blank until the answer, and none of it sounds.
    expect(page.locator("#roll")).to_be_visible()  # a capture rolls again
    held.clear()
    page.locator("#roll").click()
    expect(page.locator("#dice .die.rolling")).to_have_count(1)
    assert page.eval_on_selector_all(  # a blank face: no pips, no number
        "#dice .die", "(ds) => ds.map((d) => [d.children.length, d.dataset.value])") == [[0, None]]
    assert page.locator("#dice .die.rolling").evaluate(
        "(d) => getComputedStyle(d).animationName") == "none"
    held.set()
    expect(page.locator("#dice .die.rolling")).to_have_count(0)
    assert page.evaluate("() => [window.__tones, window.__buzz.length]") == [0, 0]


# -- names by the nests ---------------------------------------------------------------------------

TABLES = {
    "parcheesi": (lambda: new_game(3), "/api/boards/parcheesi"),
    "red-arse-4": (lambda: red_arse_game(3, players=4, board=4), "/api/boards/red-arse?board=4"),
    "red-arse-6": (lambda: red_arse_game(3, players=6, board=6), "/api/boards/red-arse?board=6"),
    "ludo-4": (lambda: ludo_game(3, players=4, board=4), "/api/boards/ludo?board=4"),
    "ludo-6": (lambda: ludo_game(3, players=6, board=6), "/api/boards/ludo?board=6"),
}
PIECE_R = 0.36  # a piece's radius, in board units (board.js)

BOXES_JS = """(sel) => [...document.querySelectorAll(sel)].map((n) => {
  const b = n.getBBox(); return [b.x, b.y, b.width, b.height]; })"""


def _gap(box, point) -> float:
    """How far ``point`` is from the box ``(x, y, width, height)`` (0 inside it)."""
    x, y, w, h = box
    dx = max(x - point[0], 0, point[0] - (x + w))
    dy = max(y - point[1], 0, point[1] - (y + h))
    return math.hypot(dx, dy)


@pytest.mark.parametrize("table", TABLES)
def test_every_name_stands_by_its_nest_clear_of_the_board_and_the_player_to_move_s_is_lit(
        server, phone, table):
    make, board = TABLES[table]
    game = make()
    page = phone()
    page.goto(server.game_url(game.token()))
    expect(page.locator("#roll")).to_be_visible()
    names = [s.name for s in game.header.seats]
    plates = page.locator("#board g.nestname")
    expect(plates).to_have_count(len(names))
    shown = page.eval_on_selector_all("#board g.nestname", "(gs) => gs.map((g) => "
                                      "[+g.dataset.seat, g.textContent])")
    assert sorted(shown) == [[s, name[:8] + "…" if len(name) > 9 else name]
                             for s, name in enumerate(names)]
    lit = page.eval_on_selector_all("#board g.nestname.tomove", "(gs) => gs.map((g) => "
                                    "+g.dataset.seat)")
    assert lit == [game.match.turn]
    # Names and pills cover no hole, square or piece: every spot's centre is a piece's radius
    # away from them at least.
    layout = server.api(board)[1]
    spots = [[c["x"], c["y"]] for c in layout["cells"] if isinstance(c.get("x"), (int, float))
             and c.get("shape") not in ("panel", "disc", "polygon")]
    spots += [p for color in layout["colors"] for p in color["base"]]
    expect(page.locator("#board g.chance:not(.pending)")).to_have_count(len(names))
    page.locator("#board").screenshot(path=str(ARTIFACTS / f"names-{table}.png"))
    boxes = page.evaluate(BOXES_JS, "#board g.nestname rect, #board g.chance rect")
    nearest = min(_gap(box, p) for box in boxes for p in spots)
    assert nearest >= PIECE_R, (table, nearest)
