"""Tap targets on a phone: on every board, at 360 and 390 px wide, each piece the player can move
and each landing spot answers taps over at least 44 x 44 CSS px, where a tap that two targets'
areas share goes to the nearer one, and a tap beside a piece or spot plays it.

How it is measured: board.js exports ``tapTarget(x, y, element)``, the one function its tap
handler (pointer events) asks which target a tap at (x, y) reaches. For each target the test
probes every CSS pixel around it (``document.elementFromPoint`` for what lies there, so a button
over the spot counts as a miss) and grows a square centred on the target while every point of it reaches the
target, or a target nearer to that point: the square's side is the target's hit area. The
smallest per board is printed in the summary and written to test-artifacts/tap-targets.txt
(quoted in docs/benchmarks.md). Then real taps (Playwright's touchscreen) a few px beside a
piece select it, and beside a landing spot play it.
"""

from __future__ import annotations

import functools
import os

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from browser_support import (  # noqa: E402
    ARTIFACTS, CHROMIUM, Monitor, find_decision, find_ludo_decision, find_red_arse_decision,
    hash_steps, page_hash, shared_spot, steps_hash)

pytestmark = [pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
              pytest.mark.usefixtures("fresh_store")]  # each test its own store

MIN_SIDE = 44  # CSS px: the usual minimum tap target (Apple's 44 pt; board.js gives 48)
REACH = 32     # CSS px probed on each side of a target's centre
ALONE = 48     # CSS px: a target with none nearer (board.js's hit square) shares no tap
WIDTHS = (360, 390)


def _spread(moves) -> bool:
    """Two pieces can move, to three places or more: pieces and spots to tap, some close."""
    return len({m.src for m in moves}) >= 2 and len({m.dst for m in moves}) >= 3


# Each board at a decision with pieces and landing spots to tap: (token, steps, seat, moves).
# Parcheesi's: three pawns can move, two of them to one square (test_browser.py's).
BOARDS = {
    "parcheesi-4": lambda: find_decision(shared_spot),
    "red-arse-4": lambda: find_red_arse_decision(lambda g, m: _spread(m), players=4, board=4),
    "red-arse-6": lambda: find_red_arse_decision(lambda g, m: _spread(m), players=6, board=6),
    "ludo-4": lambda: find_ludo_decision(lambda g, m: _spread(m), players=4, board=4),
    "ludo-6": lambda: find_ludo_decision(lambda g, m: _spread(m), players=6, board=6),
}


@pytest.fixture(scope="module")
def server_config():
    """The modules as they are, not bundled: the measures import board.js's own tapTarget, which
    must be the one the page drew the board with."""
    return {"BUNDLE_SCRIPTS": False}


@functools.cache
def decision(board: str):
    return BOARDS[board]()


# Every tappable target with what a tap at each CSS pixel around it reaches, by board.js's
# tapTarget (what the page's taps use).
MEASURE_JS = """async ({reach}) => {
  const { tapTarget } = await import('/static/js/board.js');
  const svg = document.getElementById('board');
  const targets = [...svg.querySelectorAll('circle.landing, circle.piece.movable')];
  const at = (x, y) => tapTarget(x, y, document.elementFromPoint(x, y));
  const centres = targets.map((t) => {
    const r = t.getBoundingClientRect();
    return [r.x + r.width / 2, r.y + r.height / 2, r.width / 2];
  });
  const far = (j, x, y) => Math.hypot(x - centres[j][0], y - centres[j][1]);
  return targets.map((t, i) => {
    const [cx, cy, radius] = centres[i];
    // A tap at (x, y) is fair to t when it reaches t, or a target nearer to that point.
    const fair = (x, y) => {
      const hit = at(x, y);
      const j = targets.indexOf(hit);
      return hit === t || (j >= 0 && far(j, x, y) < far(i, x, y) + 0.5);
    };
    const ring = (h) => {
      const points = [];
      for (let k = -h; k <= h; k++) points.push([k, -h], [k, h], [-h, k], [h, k]);
      return points.every(([dx, dy]) => fair(cx + dx, cy + dy));
    };
    let half = 0;
    while (half < reach && ring(half + 1)) half++;
    let own = 0;  // px² whose taps reach t
    for (let dx = -reach; dx <= reach; dx++) {
      for (let dy = -reach; dy <= reach; dy++) if (at(cx + dx, cy + dy) === t) own++;
    }
    // The nearest other target (Chebyshev distance): closer than a hit area, they share.
    const crowd = Math.min(Infinity, ...centres.filter((_, j) => j !== i)
      .map(([x, y]) => Math.max(Math.abs(x - cx), Math.abs(y - cy))));
    return { kind: t.classList.contains('landing') ? 'landing' : 'piece',
      progress: t.dataset.progress ?? null, label: t.getAttribute('aria-label'),
      x: cx, y: cy, radius, side: 2 * half, own, crowd };
  });
}"""

# A point `distance` px or more from a target's centre, off its drawn shape, that tapTarget
# gives to the target: where a thumb lands "beside" it.
BESIDE_JS = """async ({selector, distance}) => {
  const { tapTarget } = await import('/static/js/board.js');
  const node = document.querySelector(selector);
  const r = node.getBoundingClientRect();
  const [cx, cy] = [r.x + r.width / 2, r.y + r.height / 2];
  for (let d = Math.max(distance, r.width / 2 + 3); d <= 22; d++) {
    for (let k = 0; k < 16; k++) {
      const x = cx + d * Math.cos(k * Math.PI / 8), y = cy + d * Math.sin(k * Math.PI / 8);
      const element = document.elementFromPoint(x, y);
      if (element !== node && tapTarget(x, y, element) === node) return [x, y, d];
    }
  }
  return null;
}"""


def open_board(browser, server, board: str, width: int):  # noqa: F811
    """A phone ``width`` px wide, on ``board`` at its decision: (page, token, steps, seat)."""
    token, steps, seat, _ = decision(board)
    context = browser.new_context(viewport={"width": width, "height": 800}, device_scale_factor=1,
                                  is_mobile=True, has_touch=True)
    context.set_default_timeout(30_000)  # the replay of the others' turns comes first
    page = context.new_page()
    page.monitor = Monitor()
    page.monitor.attach(page)
    page.goto(server.game_url(token) + steps_hash(steps))
    expect(page.locator("#board circle.landing").first).to_be_visible()
    expect(page.locator("#skip")).to_be_hidden()
    page.locator("#board").scroll_into_view_if_needed()
    return page, token, steps, seat


def measure(page) -> list[dict]:
    return page.evaluate(MEASURE_JS, {"reach": REACH})


class Figures:
    """The smallest hit area per board and width, reported at the end."""

    def __init__(self):
        self.rows: dict[tuple[str, int], list[dict]] = {}

    def lines(self) -> list[str]:
        out = []
        for (board, width), targets in sorted(self.rows.items()):
            side = min(t["side"] for t in targets)
            shared = [t["own"] for t in targets if t["crowd"] < ALONE]
            out.append(f"{board} at {width} px: {len(targets)} targets, smallest hit area "
                       f"{side} x {side} px; of {len(shared)} sharing theirs with a nearer "
                       f"target, the smallest keeps {min(shared, default='-')} px² to itself")
        return out

    def pytest_terminal_summary(self, terminalreporter):
        if self.rows:
            terminalreporter.write_sep("-", "tap targets: smallest hit area per board")
            for line in self.lines():
                terminalreporter.write_line(line)


@pytest.fixture(scope="module")
def figures(request):
    summary = Figures()
    request.config.pluginmanager.register(summary, "tap-target-figures")
    yield summary
    if summary.rows:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "tap-targets.txt").write_text(
            "".join(line + "\n" for line in summary.lines()), encoding="utf-8")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("board", list(BOARDS))
def test_every_piece_and_landing_spot_has_a_thumb_sized_hit_area(  # noqa: F811
        browser, server, figures, board, width):  # noqa: F811
    page, token, steps, seat = open_board(browser, server, board, width)
    try:
        hit_areas_and_taps(page, server, figures, board, width, token, steps, seat)
    finally:
        page.context.close()


def hit_areas_and_taps(page, server, figures, board, width, token, steps, seat):  # noqa: F811
    targets = measure(page)
    figures.rows[(board, width)] = targets
    assert {t["kind"] for t in targets} == {"landing", "piece"}
    small = [t for t in targets if t["side"] < MIN_SIDE]
    assert not small, f"hit areas under {MIN_SIDE} px: {small}"
    # A target with no other within a hit area's width has the whole square to itself; any
    # other keeps at least a 22 px square's worth (two targets drawn at one point would not).
    for t in targets:
        assert t["own"] >= (MIN_SIDE if t["crowd"] >= ALONE else MIN_SIDE // 2) ** 2, t

    # A tap beside a movable piece (off its disc) selects it: the other pieces' arrows dim.
    legal = server.position(token, seat, steps)["legal"]
    piece = next(t for t in targets if t["kind"] == "piece")
    selector = (f"#board circle.piece.movable[data-seat='{seat}']"
                f"[data-progress='{piece['progress']}']")
    point = page.evaluate(BESIDE_JS, {"selector": selector, "distance": 8})
    assert point, f"no point beside the piece at {piece['progress']} reaches it"
    page.touchscreen.tap(point[0], point[1])
    own = [m for m in legal if m["from"] == int(piece["progress"])]
    expect(page.locator("#board polyline.arrow.dim")).to_have_count(len(legal) - len(own))
    expect(page.locator("#board circle.landing")).to_have_count(len({m["to"] for m in own}))

    # A tap beside one of its landing spots plays it (asking which, if two moves land there).
    spot = page.locator("#board circle.landing").first
    label = spot.get_attribute("aria-label")
    point = page.evaluate(BESIDE_JS, {"selector": "#board circle.landing", "distance": 8})
    assert point, f"no point beside the landing spot {label!r} reaches it"
    before = page_hash(page)
    page.touchscreen.tap(point[0], point[1])
    if len([m for m in own if m["label"] in label]) > 1:
        expect(page.locator("#choices")).to_be_visible()
        page.locator("#choices button").first.click()
    page.wait_for_function("(h) => location.hash !== h", arg=before)
    assert len(hash_steps(page)) == len(steps) + 1  # played once (its click is swallowed)
    played = hash_steps(page)[len(steps)]
    assert any({k: m[k] for k in ("from", "to", "values")} == played and m["label"] in label
               for m in own), (played, label)
    page.monitor.check()


def test_a_screen_readers_click_on_a_piece_or_spot_plays_it(browser, server):  # noqa: F811
    """A click no pointer made (a screen reader's activation: TalkBack, VoiceOver) reaches the
    target it is sent to, as the keyboard's Enter does."""
    page, token, steps, seat = open_board(browser, server, "ludo-4", 390)
    try:
        legal = server.position(token, seat, steps)["legal"]
        pawn = page.locator(f"#board circle.piece.movable[data-seat='{seat}']").first
        progress = int(pawn.get_attribute("data-progress"))
        pawn.dispatch_event("click")
        own = [m for m in legal if m["from"] == progress]
        expect(page.locator("#board polyline.arrow.dim")).to_have_count(len(legal) - len(own))
        before = page_hash(page)
        spot = page.locator("#board circle.landing").first
        spot.dispatch_event("click")
        if page.locator("#choices").is_visible():
            page.locator("#choices button").first.click()
        page.wait_for_function("(h) => location.hash !== h", arg=before)
        assert len(hash_steps(page)) == len(steps) + 1
        page.monitor.check()
    finally:
        page.context.close()
