"""Accessibility, as axe-core sees it: no serious or critical violation on the home
page, a game page of each game mid-turn (the dice rolled, its landing spots showing), a finished
game's review and the rules pages, in English and Spanish, in real Chromium on a phone. On the
game pages the board also has to say itself in words: each piece whose it is, which and where,
the pieces that can move as buttons, and each landing spot as a button naming its move.

axe-core comes from npm (package.json's devDependencies: ``npm ci``) and runs in each page
through the devtools protocol (``page.evaluate``), which the pages' Content-Security-Policy
doesn't stop (``page.add_script_tag`` adds an inline script, which the policy refuses). Every
violation found, whatever its impact, is printed and written to
test-artifacts/accessibility.txt (rule, impact, how many elements), the figures
docs/benchmarks.md quotes. Run: ``python -m pytest tests/test_accessibility.py -s``.
"""

from __future__ import annotations

import functools
import os
import re

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from workbench.games import play_random, table_options  # noqa: E402
from app.play import PLAYER_NAMES, Game, demo_seats, simulation_seed  # noqa: E402
from browser_support import (  # noqa: E402
    ARTIFACTS, CHROMIUM, KEYS, PHONE, ROOT, steps_hash)

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

pytestmark = [
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
    pytest.mark.skipif(not AXE.exists(), reason="needs npm's axe-core: npm ci"),
]

BLOCKING = ("serious", "critical")

# Every violation axe finds, with its impact and the elements it names.
AXE_RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ")) }));
}"""




@functools.cache
def mid_turn(game: str, players: int) -> tuple[str, list]:
    """A game some turns in, at a roll that leaves a choice: (the link at the turn's start, the
    turn's steps so far). Always the first legal move; every re-roll let go. (A seed of its
    own: the store takes games of one seed for one game, and the newest link for its only.)"""
    options = table_options(game, players)
    played = Game.new(game, demo_seats(game, players, options), KEYS,
                      seed=simulation_seed(f"accessibility {game} {players}", 0), options=options, by_hand=True)
    token, taken, seat, turns = played.token(), [], played.match.turn, 0
    while not played.over:
        if played.match.turn != seat:
            token, taken, seat, turns = played.token(), [], played.match.turn, turns + 1
        phase = played.match.phase
        if phase == "move":
            moves = played.match.legal_moves()
            if turns >= 2 * players and len({m.src for m in moves}) >= 2:
                return token, taken
            move = played.step(0)
            taken.append({"from": move.src, "to": move.dst, "values": list(move.values)})
        elif phase == "claim":
            played.step(1)
            taken.append("miss")
        else:
            played.step()
            taken.append("roll")
    raise AssertionError(f"no {game} game reaches a choice")


def audit(browser, url: str, name: str, ready=None) -> list[dict]:
    """axe's violations on ``url`` (on a phone), once ``ready(page)`` has returned; each is
    printed and written to test-artifacts/accessibility.txt."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.add_init_script("localStorage.setItem('boardpass:botspeed', 'instant')")
    page.goto(url)
    if ready:
        ready(page)
    page.evaluate(AXE.read_text(encoding="utf-8"))  # add_script_tag: an inline script
    violations = page.evaluate(AXE_RUN)
    context.close()
    ARTIFACTS.mkdir(exist_ok=True)
    lines = [f"{v['id']} ({v['impact']}): {len(v['nodes'])}" for v in violations]
    with open(ARTIFACTS / "accessibility.txt", "a", encoding="utf-8") as out:
        out.write(f"{name}: {'; '.join(lines) or 'none'}\n")
    for v in violations:
        print(f"{name}: {v['id']} ({v['impact']}) {v['help']}: {', '.join(v['nodes'][:6])}")
    return violations


def blocking(violations: list[dict]) -> list[dict]:
    return [v for v in violations if v["impact"] in BLOCKING]


LANGS = pytest.mark.parametrize("lang", ["en", "es"])


@LANGS
def test_the_home_page(server, browser, lang):
    assert not blocking(audit(browser, f"{server.url}/?lang={lang}", f"home ({lang})"))


@LANGS
@pytest.mark.parametrize("path", ["/rules/parcheesi", "/rules/red-arse", "/rules/ludo"])
def test_the_rules(server, browser, path, lang):
    assert not blocking(audit(browser, f"{server.url}{path}?lang={lang}", f"{path} ({lang})"))


def landing_spots(page):
    expect(page.locator("#board circle.landing").first).to_be_visible()
    expect(page.locator("#skip")).to_be_hidden()


# Each piece in words: "Ana (yellow): pawn 2, on square 14" ("Ana (amarillo): peón 2, en la
# casilla 14"); a piece that can move is a button saying so.
PIECE_WORDS = {"en": r"^{name} \((\w+)\): (pawn|marble|piece) {n}, (on|in|at) \w",
               "es": r"^{name} \((\w+)\): (peón|bolita|ficha) {n}, en \w"}
SHOW_MOVES = {"en": ": show its moves", "es": ": ver sus jugadas"}


def board_in_words(lang):
    """The board's text alternative, once its landing spots show: every piece named (whose,
    which, where), the movable ones buttons, every landing spot a button naming its move."""
    def check(page):
        landing_spots(page)
        pieces = page.locator("#board circle.piece").evaluate_all(
            """(nodes) => nodes.map((n) => ({ seat: +n.dataset.seat, piece: +n.dataset.piece,
              role: n.getAttribute("role"), label: n.getAttribute("aria-label") || "",
              movable: n.classList.contains("movable") }))""")
        assert pieces and any(p["movable"] for p in pieces)
        for p in pieces:
            words = PIECE_WORDS[lang].format(name=PLAYER_NAMES[p["seat"]], n=p["piece"] + 1)
            assert re.match(words, p["label"]), p
            assert p["role"] == ("button" if p["movable"] else "img"), p
            assert p["label"].endswith(SHOW_MOVES[lang]) == p["movable"], p
        spots = page.locator("#board circle.landing").evaluate_all(
            "(nodes) => nodes.map((n) => [n.getAttribute('role'), n.getAttribute('aria-label')])")
        assert spots and all(role == "button" and label for role, label in spots), spots
    return check


@LANGS
@pytest.mark.parametrize("game, players", [("parcheesi", 2), ("red-arse", 4), ("ludo", 4)])
def test_a_game_mid_turn(server, browser, game, players, lang):
    token, steps = mid_turn(game, players)
    url = f"{server.game_url(token)}?lang={lang}{steps_hash(steps)}"
    assert not blocking(audit(browser, url, f"{game} {players} mid-turn ({lang})",
                              board_in_words(lang)))


@LANGS
def test_a_finished_game_s_review(server, browser, lang):
    def reviewed(page):
        expect(page.locator("#gamereview")).to_be_visible()
        # Its figures come in one review at a time (a long game's, on a busy machine, for
        # minutes); once the first is in, the table is the table axe reads.
        page.wait_for_function("() => [...document.querySelectorAll('#stats tbody td')]"
                               ".some((td) => td.textContent !== '…')", timeout=120_000)
        # The graph drawn, and a turn picked on it: its review on the page too.
        expect(page.locator("#course polyline.line")).to_have_count(2)
        page.locator("#course").click()
        expect(page.locator("#turnreview .turnhead")).to_be_visible()

    played = play_random("parcheesi", 2, "accessibility", 0, KEYS)
    url = f"{server.game_url(played.token())}?lang={lang}"
    assert not blocking(audit(browser, url, f"review ({lang})", reviewed))
