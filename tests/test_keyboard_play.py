"""A game played as someone who doesn't see the board plays it (issue 44): by keyboard alone, in
real Chromium, hearing what the live region says. A whole turn of each game, a capture and its
bonus (and Undo), a Ludo 6's roll again, a room from its lobby and its timer's warnings, the
review's graph as a table, in English and Spanish. Names and roles are read from Playwright's
accessibility snapshot, never pixels; the keystrokes of a whole turn and the live region's
words are written to test-artifacts/keyboard.txt. Run: ``python -m pytest
tests/test_keyboard_play.py -s``.
"""

from __future__ import annotations

import functools
import os
import urllib.parse

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from app.play import Game, demo_seats, simulation_seed  # noqa: E402
from app.web import spoken  # noqa: E402
from browser_support import ARTIFACTS, CHROMIUM, KEYS, PHONE  # noqa: E402
from workbench.games import play_random, table_options  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")

# Everything the live region said since the page opened (it keeps only its last lines).
HEAR_JS = """
window.__heard = [];
addEventListener("DOMContentLoaded", () => new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) window.__heard.push(n.textContent);
}).observe(document.getElementById("spoken"), { childList: true }));
"""


def turn_start(game: str, players: int, wanted) -> str:
    """The link of a turn's start, some turns into a game (always the first move, re-rolls let
    go), where ``wanted(game)`` holds of the turn about to be played (given a copy to play)."""
    options = table_options(game, players)
    for n in range(40):
        played = Game.new(game, demo_seats(game, players, options), KEYS,
                          seed=simulation_seed(f"keyboard {game}", n), options=options,
                          by_hand=True)
        for _ in range(600):
            if played.over:
                break
            match = played.match
            if match.phase == "roll" and len(match.history) > 8 * players and \
                    (not match.history or match.history[-1][1] != match.turn):
                if wanted(Game.from_token(played.token(), KEYS)):
                    return played.token()
            played.step(1 if match.phase == "claim" else 0)
    raise AssertionError(f"no {game} game gives the turn the test needs")


def a_choice(game: Game) -> bool:
    """The turn, played with the first moves, has a choice among moves at its first roll."""
    game.step()
    return game.match.phase == "move" and len(game.match.legal_moves()) >= 2


def a_capture_and_its_bonus(game: Game) -> bool:
    """Parcheesi: the first roll has a move that eats, after which the 20 bonus is offered."""
    game.step()
    if game.match.phase != "move":
        return False
    for i, move in enumerate(game.match.legal_moves()):
        if spoken._eaten(game.rules, game.match.state, move):
            game.step(i)
            return any(20 in m.values for m in game.match.legal_moves())
    return False


def a_six(game: Game) -> bool:
    """Ludo: a 6 at once, and a choice of moves with it."""
    return game.step() == (6,) and len(game.match.legal_moves()) >= 2


@pytest.fixture
def page(server, browser, fresh_store):
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(30_000)
    opened = context.new_page()
    opened.add_init_script("localStorage.setItem('boardpass:botspeed', 'instant')")
    opened.add_init_script(HEAR_JS)
    errors = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors


def focused(page) -> str:
    return page.evaluate("() => document.activeElement.id || "
                         "(document.activeElement.closest('#moves') ? 'moves' : "
                         "document.activeElement.tagName)")


def heard(page) -> list[str]:
    return page.evaluate("() => window.__heard")


def press(page, key: str, keys: list) -> None:
    """Press ``key`` and wait for what it sets off (a step: the address changes) to settle
    with the focus on a control, never on the page."""
    before = page.evaluate("() => location.hash")
    keys.append(key)
    page.keyboard.press(key)
    if key == "Enter":
        page.wait_for_function("(b) => location.hash !== b || !document.getElementById('sendbox')"
                               ".hidden", arg=before)
    page.wait_for_function("() => document.activeElement && "
                           "document.activeElement !== document.body")


def play_on_by_keys(page, keys: list) -> None:
    """Play the rest of the turn with Enter alone, on whatever has the focus, and send it."""
    for _ in range(40):
        where = focused(page)
        assert where in ("roll", "moves", "send"), f"the focus is on {where}"
        press(page, "Enter", keys)
        if where == "send":
            expect(page.locator("#sendbox")).to_be_visible()
            return
    raise AssertionError("the turn never ended")


@pytest.mark.parametrize("game, players", [("parcheesi", 2), ("ludo", 4), ("red-arse", 4)])
def test_a_whole_turn_by_keyboard_alone(server, page, game, players):
    token = turn_start(game, players, a_choice)
    offered = server.position(token, Game.from_token(token, KEYS).match.turn, ["roll"])["legal"]
    page.goto(f"{server.game_url(token)}?lang=en")
    # Once the replay has ended, the focus is on Roll: the turn starts with Enter.
    expect(page.get_by_role("button", name="Roll")).to_be_focused()
    keys: list[str] = []
    press(page, "Enter", keys)
    # The moves are a toolbar of buttons, each named for what it does; the arrows go through it.
    toolbar = page.get_by_role("toolbar", name="Your moves")
    expect(toolbar.get_by_role("button", name=offered[0]["name"], exact=True)).to_be_focused()
    snapshot = toolbar.aria_snapshot()
    for move in offered:
        assert f'button "{move["name"]}"' in snapshot, (move, snapshot)
    press(page, "ArrowRight", keys)
    expect(toolbar.get_by_role("button", name=offered[1]["name"], exact=True)).to_be_focused()
    play_on_by_keys(page, keys)
    assert page.evaluate("() => location.hash") == ""  # sent
    assert focused(page) in ("copy", "sms", "whatsapp", "next", "nextlink"), focused(page)
    said = heard(page)
    assert any(line.startswith("You rolled") for line in said), said
    record(f"{game} {players}: {len(keys)} keys ({' '.join(keys)})", said)


@pytest.mark.parametrize("lang, rolled, ate, bonus, eaten, undone", [
    ("en", "You rolled", "'s pawn back to the nest", "Use the 20 bonus on pawn", ", eats ",
     "Taken back."),
    ("es", "Sacaste", "le comió una ficha a ", "Usar el premio de 20 en la ficha", ", come a ",
     "Jugada deshecha."),
])
def test_a_capture_and_its_bonus_are_heard(server, page, lang, rolled, ate, bonus, eaten,
                                           undone):
    token = turn_start("parcheesi", 2, a_capture_and_its_bonus)
    seat = Game.from_token(token, KEYS).match.turn
    offered = server.position(token, seat, ["roll"])["legal"]
    eats = next(i for i, m in enumerate(offered) if "eats" in m["name"])
    page.goto(f"{server.game_url(token)}?lang={lang}")
    expect(page.locator("#roll")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#moves button").first).to_be_focused()
    assert any(line.startswith(rolled) for line in heard(page))
    for _ in range(eats):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(page.locator("#moves").get_by_role("button", name=bonus).first).to_be_attached()
    assert any(ate in line for line in heard(page)), heard(page)
    # P, on the moves, reads where everyone stands: the board's description.
    page.keyboard.press("p")
    described = page.locator("#board").get_attribute("aria-describedby")
    text = page.locator(f"#{described}").text_content()
    assert text and heard(page)[-1] == text
    record(f"parcheesi capture ({lang})", heard(page))
    # Undo is a Shift+Tab away: the capture is taken back, said so, and offered again.
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#undo")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#moves button").first).to_be_focused()
    expect(page.locator("#moves button").nth(eats)).to_contain_text(eaten)
    assert heard(page)[-1] == undone


@pytest.mark.parametrize("lang, rolled, again", [
    ("en", "You rolled 6", "Ana, roll again."), ("es", "Sacaste 6", "Ana, volvé a tirar."),
])
def test_a_six_and_the_roll_it_earns_are_heard(server, page, lang, rolled, again):
    token = turn_start("ludo", 2, a_six)
    page.goto(f"{server.game_url(token)}?lang={lang}")
    expect(page.locator("#roll")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#moves button").first).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#roll")).to_be_focused()
    said = heard(page)
    assert rolled in said and said[-1].endswith(again), said
    record(f"ludo six ({lang})", said)


ROLL_OR_MOVES_JS = """() => { const at = document.activeElement;
  return at.closest("#moves") || (at.id === "roll" && !at.hidden); }"""


def test_a_room_from_its_lobby_by_keyboard(server, page):
    """The host's Start, then Roll, then the moves: each has the focus in turn, and a move is
    played with Enter (the room has no Send: the move is played as it is chosen)."""
    status, made = server.api("/api/rooms", {"game": "ludo", "me": 0, "players": [
        {"name": "Ana", "color": "red"}, {"color": "blue", "bot": "easy"}]})
    assert status == 201, made
    credential = urllib.parse.quote(made["you"]["credential"])
    page.goto(f"{server.url}/r/{made['room']['code']}?lang=en#c={credential}")
    expect(page.get_by_role("button", name="Start the game")).to_be_focused()
    page.keyboard.press("Enter")
    for _ in range(200):  # Ana rolls until a 6 brings a piece out; the bot plays its turns
        page.wait_for_function(ROLL_OR_MOVES_JS)
        if focused(page) == "moves":
            page.keyboard.press("Enter")
            expect(page.get_by_role("toolbar", name="Your moves")).to_be_hidden()
            break
        said = len(heard(page))
        page.keyboard.press("Enter")
        page.wait_for_function("(n) => window.__heard.length > n", arg=said)
    page.wait_for_function("() => window.__heard.some((t) => t.includes('brought a piece out'))")
    said = heard(page)
    assert "You rolled 6" in said and "Ana rolled 6" not in said, said  # this phone's own roll
    assert any(" moved a piece " in line or "brought a piece out" in line
               for line in heard(page)), heard(page)


@pytest.mark.parametrize("lang, ten, five", [("en", "10 seconds left", "5 seconds left"),
                                              ("es", "Quedan 10 segundos", "Quedan 5 segundos")])
def test_a_room_s_timer_warns_on_your_own_turn(server, page, lang, ten, five):
    status, made = server.api("/api/rooms", {"game": "ludo", "me": 0, "timer_seconds": 12,
                                             "players": [{"name": "Ana", "color": "red"},
                                                         {"color": "blue", "bot": "easy"}]})
    assert status == 201, made
    code, credential = made["room"]["code"], made["you"]["credential"]
    assert server.api(f"/api/rooms/{code}/start", {"credential": credential})[0] == 200
    page.goto(f"{server.url}/r/{code}?lang={lang}#c={urllib.parse.quote(credential)}")
    page.wait_for_function("(words) => words.every((w) => window.__heard.includes(w))",
                           arg=[ten, five])
    said = heard(page)
    assert said.index(ten) < said.index(five) and said.count(ten) == 1, said


@pytest.mark.parametrize("lang, caption, turn", [
    ("en", "Chance to win after each turn", "Turn"),
    ("es", "Probabilidad de ganar después de cada turno", "Turno"),
])
def test_the_review_s_graph_is_a_table_to_walk(server, page, lang, caption, turn):
    played = play_random("parcheesi", 2, "keyboard review", 0, KEYS)
    page.goto(f"{server.game_url(played.token())}?lang={lang}")
    expect(page.locator("#coursetable tbody tr").first).to_be_attached(timeout=120_000)
    page.locator(".coursetable summary").focus()
    page.keyboard.press("Enter")  # opened by keyboard, the table is in the accessibility tree
    table = page.get_by_role("table", name=caption)
    expect(table).to_be_visible()
    turns = int(page.locator("#course").get_attribute("aria-valuemax"))
    expect(table.get_by_role("row")).to_have_count(turns + 1)
    snapshot = table.aria_snapshot()
    assert f'columnheader "{turn}"' in snapshot and 'rowheader "1"' in snapshot, snapshot
    assert 'columnheader "Ana"' in snapshot and 'columnheader "Ben"' in snapshot, snapshot


@functools.cache
def _artifact():
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "keyboard.txt"
    path.write_text("", encoding="utf-8")
    return path


def record(title: str, said: list[str]) -> None:
    with open(_artifact(), "a", encoding="utf-8") as out:
        out.write(f"{title}\n" + "".join(f"  {line}\n" for line in said))
