"""The game in a real browser: headless Chromium (Playwright) against a live server.

Phone-sized pages play turns the way people do (tap Roll, tap a landing spot, Send turn), reload
and undo mid-turn, tap what shouldn't be tapped, forge requests, watch the replay on arrival and
meet an older link. Every page is watched: a console error, an uncaught exception or a failed
request (favicon.ico aside, and the failures a test provokes on purpose) fails the test.

Screenshots go to test-artifacts/ (git-ignored), with sms-bodies.txt: every text message body the
server returned from /turn during these tests. The longest is printed in the test summary.
"""

from __future__ import annotations

import os
import re
import urllib.parse
from dataclasses import replace

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from app.play import Game  # noqa: E402
from api_support import choice_then_roll  # noqa: E402
from browser_support import (  # noqa: E402
    ARTIFACTS, CHROMIUM, HOME, KEYS, PHONE, REVIEWS, WATCH_PIECES_JS, Monitor, capture_alone, dice,
    enter_then_move, find_decision, find_ludo_decision, find_red_arse_decision, find_seed,
    finished_with_a_bot, hash_steps, ludo_capture, ludo_game, ludo_last_turn,
    new_game, page_hash, pieces, play_first_turn, play_out_turn, point_after, progress_grid,
    replay_ms, reviewed_game, roll, send_turn, shared_spot, shot, status, steps_hash, tap_landing)

pytestmark = [pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
              pytest.mark.usefixtures("fresh_store")]  # each test its own store
WIDTHS = (360, 390)  # CSS px: the narrow phones the page is laid out for


# -- fixtures ------------------------------------------------------------------------------------

class SmsSummary:
    """Keeps the text bodies /turn returned; writes them out and reports the longest."""

    def __init__(self):
        self.bodies: list[str] = []

    def pytest_terminal_summary(self, terminalreporter):
        if not self.bodies:
            return
        longest = max(self.bodies, key=len)
        terminalreporter.write_sep("-", "browser test: text messages")
        terminalreporter.write_line(
            f"{len(self.bodies)} text message bodies from /turn (test-artifacts/sms-bodies.txt); "
            f"longest: {len(longest)} characters")


@pytest.fixture(scope="module")
def sms(request):
    summary = SmsSummary()
    request.config.pluginmanager.register(summary, "browser-sms-summary")
    yield summary.bodies
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "sms-bodies.txt").write_text(
        "".join(body + "\n" for body in summary.bodies), encoding="utf-8")


@pytest.fixture
def phone(browser):
    """``phone()`` opens a new watched page in its own browser profile (its own localStorage),
    like another person's phone (``width`` CSS px wide, 390 unless told). Every page opened is checked for errors at the end, unless the
    test checks it itself (``checked_by_test=True``: the tests of known client bugs)."""
    opened = []

    def open_phone(init_script: str | None = None, checked_by_test: bool = False,
                   width: int = PHONE["width"]):
        context = browser.new_context(viewport=dict(PHONE, width=width), device_scale_factor=1,
                                      is_mobile=True, has_touch=True)
        context.set_default_timeout(30_000)
        if init_script:
            context.add_init_script(init_script)
        page = context.new_page()
        monitor = Monitor()
        monitor.attach(page)
        page.monitor = monitor
        opened.append((context, None if checked_by_test else monitor))
        return page

    yield open_phone
    for context, _ in opened:
        context.close()
    for _, monitor in opened:
        if monitor:
            monitor.check()


REPLAY_MS = 60_000  # a replay of every turn since a seat last played, hops included


def open_game(page, url: str):
    """Opens a link and waits until its replay, if there is one, has ended and Roll shows. A
    replay runs at the players' pace (a newcomer's first page replays the whole game), so the
    wait is bounded by the longest replay, not by a test's usual five seconds."""
    page.goto(url)
    expect(page.locator("#roll")).to_be_visible(timeout=REPLAY_MS)
    return page


def no_error(page):
    text, is_error = status(page)
    assert not is_error, text
    return text


def send_ways(page) -> list[str]:
    """The send box's ways to send the link, as shown, in order (Share shows only where the
    browser can share)."""
    return page.evaluate("""() => [...document.querySelectorAll(
        "#sendbox a.button, #sendbox button")]
        .filter((node) => !node.hidden && node.id !== "next" && node.id !== "share")
        .map((node) => node.id)""")


# -- 0. the link's preview tags, WhatsApp as a player's choice --------------------------------

def test_the_game_page_works_as_before_with_its_preview_tags(server, phone, sms):
    """The page a fetcher reads for its preview is the page people play on: the tags in its
    head change nothing (no error, no blocked request), and a player's "By WhatsApp" under
    Players goes out with their turn."""
    game = new_game(find_seed(lambda g: True))
    seats = (replace(game.header.seats[0], name='Ana "<b>'), *game.header.seats[1:])
    game = Game(replace(game.header, seats=seats), game.match, KEYS)
    page = open_game(phone(), f"{server.url}/g/{game.token()}")
    meta = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        "head meta[property^='og:'], head meta[name^='twitter:']")].map((m) =>
        [m.getAttribute("property") || m.getAttribute("name"), m.content]))""")
    mover = game.header.seats[game.match.turn].name
    assert meta["og:title"] == f"{mover}, your turn · Parcheesi"
    assert meta["og:image"] == f"{server.url}/g/{game.token()}/preview.png"
    assert meta["twitter:card"] == "summary_large_image"
    size = page.evaluate("""(url) => new Promise((done) => { const image = new Image();
        image.onload = () => done([image.naturalWidth, image.naturalHeight]);
        image.onerror = () => done(null); image.src = url; })""", meta["og:image"])
    assert size == [1200, 630]
    # The mover ticks "By WhatsApp" with a number under Players, and sends the turn.
    seat = game.match.turn
    page.locator("details.players summary").click()
    fields = page.locator(f"#seats fieldset[data-seat='{seat}']")
    fields.locator("input[name=phone]").fill("+1 415 555 0100")
    fields.locator("input[name=whatsapp]").check()
    play_out_turn(page)
    answer = send_turn(page, sms)
    assert answer["seats"][seat]["whatsapp"] is True
    chosen = Game.from_token(answer["token"], KEYS).header.seats[seat]
    assert (chosen.phone, chosen.whatsapp) == ("+14155550100", True)
    later = open_game(phone(), answer["url"])
    later.locator("details.players summary").click()
    expect(later.locator(f"#seats fieldset[data-seat='{seat}'] legend")) \
        .to_contain_text("(gets WhatsApp messages)")
    expect(later.locator(f"#seats fieldset[data-seat='{seat}'] input[name=whatsapp]")) \
        .to_be_checked()
    no_error(later)


# -- 1. a two-player game from the New game form to a finished turn ----------------------------

@pytest.mark.parametrize("width", WIDTHS)
def test_new_game_from_the_form_to_a_sent_turn(server, phone, sms, width):
    creator = phone(width=width)
    creator.goto(server.url + "/")
    form = creator.locator("#newgame")
    expect(form.locator("input[name=play0]")).to_be_checked()
    expect(form.locator("input[name=play2]")).to_be_checked()
    form.locator("input[name=name0]").fill("Ana")
    form.locator("input[name=name2]").fill("Ben")
    shot(creator, "1-new-game-form")
    form.locator("input[name=autoplay][type=checkbox]").uncheck()  # rolls by hand
    form.locator("button[type=submit]").click()

    expect(creator.locator("#sendbox")).to_be_visible()
    assert creator.url.endswith("?new=1")
    first_link = creator.locator("#nextlink").input_value()
    assert first_link == server.url + urllib.parse.urlsplit(creator.url).path
    first = creator.evaluate("(url) => fetch(url).then((r) => r.json())",
                             "/api/games/" + first_link.rsplit("/", 1)[1])
    mover = first["seats"][first["turn"]]["name"]
    other = next(s["name"] for s in first["seats"] if s["name"] != mover)
    expect(creator.locator("#sms")).to_have_text("Send by text")
    invite = urllib.parse.unquote(creator.locator("#sms").get_attribute("href").split("body=")[1])
    assert invite.startswith(f"{mover}, you're invited") and invite.endswith(first_link)
    expect(creator.locator("#copy")).to_be_visible()
    if first["turn"] == first["host"]:  # Ana made the game: her first turn, here and now
        expect(creator.locator("#next")).to_have_text("That's me: play now")
        assert creator.locator("#next").get_attribute("href") == \
            urllib.parse.urlsplit(first_link).path
    else:  # Ben's turn: his phone plays it
        expect(creator.locator("#next")).to_be_hidden()
    shot(creator, "1-new-game-created")

    # The first player opens the link, rolls, moves while they can, and sends the turn.
    player = open_game(phone(), first_link)
    shot(player, "1-first-player-arrives")
    play_out_turn(player)
    shot(player, "1-first-player-turn-done")
    answer = send_turn(player, sms)
    next_link = answer["url"]
    assert next_link.startswith(server.url + "/g/") and next_link != first_link
    expect(player.locator("#nextlink")).to_have_value(next_link)
    expect(player.locator("#send")).to_be_hidden()
    expect(player.locator("#undo")).to_be_hidden()
    href = player.locator("#sms").get_attribute("href")
    assert href.startswith("sms:") and "?&body=" in href
    body = urllib.parse.unquote(href.split("body=", 1)[1])
    assert body == answer["message"]["text"]
    assert next_link in body and other in body and f"{mover} moved" in body
    expect(player.locator("#sms")).to_have_text("Send by text")
    # WhatsApp next to it, filled in with the same text (nobody's number: WhatsApp asks whom);
    # at an English table the text comes first.
    whatsapp = player.locator("#whatsapp")
    expect(whatsapp).to_have_text("Send by WhatsApp")
    parts = urllib.parse.urlsplit(whatsapp.get_attribute("href"))
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "wa.me", "/")
    assert urllib.parse.parse_qs(parts.query) == {"text": [answer["message"]["text"]]}
    assert send_ways(player) == ["sms", "whatsapp", "copy"]
    expect(player.locator("#sms")).to_have_class(re.compile(r"\bprimary\b"))
    assert page_hash(player) == ""  # the turn is sent: no steps left in the URL
    no_error(player)
    shot(player, "1-turn-sent")

    # The second player opens the link on their own phone: the first player's turn replays.
    second = phone()
    second.goto(next_link)
    expect(second.locator("#feed li", has_text=f"{mover} rolled").first).to_be_visible()
    expect(second.locator("#roll")).to_be_visible()
    assert no_error(second) == f"{other}, your turn: roll the dice."
    shot(second, "1-second-player-arrives")


# -- 2. reload mid-turn ----------------------------------------------------------------------

@pytest.mark.parametrize("width", WIDTHS)
def test_reload_mid_turn_keeps_the_feed_of_what_the_others_did(server, phone, width):
    game = new_game(find_seed(lambda g: len(play_first_turn(g)) >= 3))  # a roll, two moves
    play_first_turn(game)
    page = phone(width=width)
    page = open_game(page, server.game_url(game.token()))
    others = page.locator("#feed li").all_text_contents()
    first = game.header.seats[game.match.history[0][1]].name
    assert any(line.startswith(f"{first} rolled") for line in others), others
    roll(page)
    page.reload()
    expect(page.locator("#feed li").first).to_be_visible()
    again = page.locator("#feed li").all_text_contents()
    assert [line for line in again if line in others] == others  # none lost, in order
    assert page_hash(page).startswith("#s=r")  # still mid-turn: nothing replayed as new


def test_reload_mid_turn_keeps_the_dice_and_the_moves(server, phone, sms):
    seed = find_seed(enter_then_move)
    game = new_game(seed)
    token, seat = game.token(), game.match.turn
    page = open_game(phone(), server.game_url(token))
    assert page_hash(page) == "" and dice(page) == []

    roll(page)
    rolled = dice(page)
    assert len(rolled) == 2 and 5 in rolled
    tap_landing(page)  # enter a pawn with the 5
    steps, faces, board = page_hash(page), dice(page), pieces(page)
    assert steps.startswith("#s=r,-1_0_5")
    assert faces == rolled
    pool = page.locator("#dice .pool").text_content()
    shot(page, "2-before-reload")

    page.reload()
    expect(page.locator("#board circle.landing").first).to_be_visible()
    assert page_hash(page) == steps
    assert dice(page) == faces
    assert page.locator("#dice .pool").text_content() == pool
    assert pieces(page) == board
    expect(page.locator("#undo")).to_be_visible()
    expect(page.locator("#roll")).to_be_hidden()
    view = server.position(token, seat, hash_steps(page))
    assert progress_grid(page) == view["pieces"] and view["pieces"][seat][0] == 0
    assert view["last_roll"] == rolled
    no_error(page)
    shot(page, "2-after-reload")

    play_out_turn(page)
    page.reload()  # the finished turn survives a reload too, ready to send
    expect(page.locator("#send")).to_be_visible()
    assert dice(page) == rolled
    send_turn(page, sms)
    shot(page, "2-sent-after-reload")


# -- 3. undo ---------------------------------------------------------------------------------

def test_undo_puts_the_pawn_back_with_the_same_dice(server, phone, sms):
    game = new_game(find_seed(enter_then_move))
    token, seat = game.token(), game.match.turn
    page = open_game(phone(), server.game_url(token))
    expect(page.locator("#undo")).to_be_hidden()
    rolled_hash = roll(page)
    rolled, nest = dice(page), pieces(page)
    spot = page.locator("#board circle.landing").first.get_attribute("aria-label")
    expect(page.locator("#undo")).to_be_hidden()  # nothing to undo: a roll can't be taken back

    moved_hash = tap_landing(page)
    moved = pieces(page)
    assert moved != nest
    shot(page, "3-moved")

    assert page.locator("#undo").click() is None
    page.wait_for_function("(h) => location.hash === h", arg=rolled_hash)
    assert pieces(page) == nest
    assert dice(page) == rolled
    expect(page.locator("#undo")).to_be_hidden()
    expect(page.locator("#roll")).to_be_hidden()
    expect(page.locator("#board circle.landing").first).to_have_attribute("aria-label", spot)
    assert server.position(token, seat, hash_steps(page))["pieces"] == progress_grid(page)
    no_error(page)
    shot(page, "3-undone")

    assert tap_landing(page) == moved_hash  # the same move again, to the same place
    assert pieces(page) == moved and dice(page) == rolled

    # Undo the next move as well, then finish the turn and send it.
    second_hash = tap_landing(page)
    page.locator("#undo").click()
    page.wait_for_function("(h) => location.hash === h", arg=moved_hash)
    assert pieces(page) == moved and dice(page) == rolled
    assert tap_landing(page) == second_hash
    play_out_turn(page)
    send_turn(page, sms)
    shot(page, "3-sent")


# -- 4. taps and requests that must change nothing ----------------------------------------------

def test_illegal_taps_and_forged_steps_change_nothing(server, phone, sms):
    game = new_game(find_seed(enter_then_move))
    token, seat = game.token(), game.match.turn
    other = 1 - seat
    page = open_game(phone(), server.game_url(token))
    monitor = page.monitor
    board_before = pieces(page)
    calls = monitor.api_calls("/moves")

    def assert_nothing_changed(hash_, board, faces):
        page.wait_for_timeout(150)  # time for any (wrong) request the tap might have made
        assert monitor.api_calls("/moves") == calls
        assert page_hash(page) == hash_
        assert pieces(page) == board
        assert dice(page) == faces
        no_error(page)

    # Before rolling: the board, an opponent's pawn, the player's own pawn, an empty square.
    page.locator("#board").click()
    page.locator(f"#board circle.piece[data-seat='{other}']").first.click()
    page.locator(f"#board circle.piece[data-seat='{seat}']").first.click()
    page.locator("#board rect.square:not(.safe)").nth(30).click()
    assert_nothing_changed("", board_before, [])
    expect(page.locator("#roll")).to_be_visible()
    assert page.locator("#board circle.landing").count() == 0

    hash_ = roll(page)
    calls = monitor.api_calls("/moves")
    faces, board = dice(page), pieces(page)
    before = server.position(token, seat, hash_steps(page))
    shot(page, "4-rolled")
    page.locator(f"#board circle.piece[data-seat='{other}']").first.click()
    page.locator("#board rect.square:not(.safe)").nth(30).click()
    page.locator("#board rect.square:not(.safe)").nth(45).click()
    page.locator("#dice").click()
    assert_nothing_changed(hash_, board, faces)
    assert server.position(token, seat, hash_steps(page))["position"] == before["position"]
    assert page.locator("#board circle.landing").count() == len(before["legal"])
    expect(page.locator("#choices")).to_be_hidden()

    # Forged requests from the page itself: each gets a 4xx and changes nothing.
    api = f"/api/games/{token}"
    legal = before["legal"][0]
    forged = [
        (f"{api}/moves", {"seat": seat, "steps": ["roll", {"from": 0, "to": 60, "values": [5]}]},
         422),
        (f"{api}/moves", {"seat": seat, "steps": ["roll", "roll"]}, 422),
        (f"{api}/moves", {"seat": other, "steps": ["roll"]}, 409),
        (f"{api}/moves", {"seat": seat, "steps": "roll"}, 400),
        (f"{api}/turn", {"seat": seat, "steps": ["roll"]}, 422),  # dice not played yet
        (f"/api/games/{token[:-3]}abc/moves",
         {"seat": seat, "steps": ["roll", {k: legal[k] for k in ("from", "to", "values")}]},
         400),  # a tampered link
    ]
    for url, body, code in forged:
        monitor.allow(url, code)
    answers = page.evaluate("""async (forged) => {
      const out = [];
      for (const [url, body] of forged) {
        const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                                    body: JSON.stringify(body)});
        out.push([r.status, await r.json()]);
      }
      return out;
    }""", [[url, body] for url, body, _ in forged])
    for (url, body, code), (got, answer) in zip(forged, answers):
        assert got == code, (url, body, answer)
        assert answer["error"]["message"], answer
    assert server.position(token, seat, hash_steps(page))["position"] == before["position"]
    assert page_hash(page) == hash_ and pieces(page) == board and dice(page) == faces
    no_error(page)

    # The page still plays: the move, the rest of the turn, and Send.
    tap_landing(page)
    play_out_turn(page)
    send_turn(page, sms)
    no_error(page)
    shot(page, "4-still-works")


# -- 5. the replay on arrival -------------------------------------------------------------------

def long_first_turn(game) -> bool:
    """The first player's turn moves pawns and takes the page a good while to replay."""
    history = play_first_turn(game)
    moves = [h for h in history if h[0] == "move"]
    return len(moves) >= 2 and replay_ms(history) >= 2500 and not game.over


def test_replay_on_arrival_animates_the_turn_and_skip_ends_it(server, phone):
    game = new_game(find_seed(long_first_turn))
    history = play_first_turn(game)
    token = game.token()
    mover = game.header.seats[history[0][1]].name
    final = server.api(f"/api/games/{token}")[1]
    events = final["replay"]["events"]
    assert [e["kind"] for e in events] == [h[0] for h in history]

    # Watch it all: pieces slide, the feed lists the roll and every move.
    page = phone(WATCH_PIECES_JS)
    page.goto(server.game_url(token))
    expect(page.locator("#skip")).to_be_visible()
    expect(page.locator("#feed li", has_text=f"{mover} ").first).to_be_visible()
    shot(page, "5-replaying")
    expect(page.locator("#roll")).to_be_visible(timeout=replay_ms(history) + 30_000)
    expect(page.locator("#skip")).to_be_hidden()
    feed = page.locator("#feed li").all_text_contents()[::-1]  # newest first on the page
    expected = [f"{mover} rolled {'-'.join(map(str, e['dice']))}"
                + (": no move" if e.get("no_move") else "") if e["kind"] == "roll"
                else e["said"] for e in events]
    assert feed == expected
    slid = page.evaluate("() => window.__pieceMoves")
    moved_pieces = {(e["seat"], e["piece"]) for e in events if e["kind"] == "move"}
    assert {(m["seat"], m["piece"]) for m in slid} == moved_pieces
    assert len(slid) >= 2 * sum(1 for e in events if e["kind"] == "move")
    assert progress_grid(page) == final["pieces"]
    no_error(page)
    shot(page, "5-replayed")

    # Skip: the replay ends at once, with the board where the turn left it.
    skipper = phone(WATCH_PIECES_JS)
    skipper.goto(server.game_url(token))
    expect(skipper.locator("#skip")).to_be_visible()
    skipper.locator("#skip").click()
    expect(skipper.locator("#roll")).to_be_visible()
    expect(skipper.locator("#skip")).to_be_hidden()
    assert progress_grid(skipper) == final["pieces"]
    # Skipped, the feed still lists every step: nothing the others did is lost.
    assert skipper.locator("#feed li").all_text_contents()[::-1] == expected
    no_error(skipper)
    shot(skipper, "5-skipped")


# -- 6. an older link after a newer one ------------------------------------------------------

def test_an_older_link_is_read_only_on_every_phone_and_points_to_the_newest_seen(server, phone):
    game = new_game(find_seed(enter_then_move))
    old = game.token()
    play_first_turn(game)
    new = game.token()

    page = open_game(phone(), server.game_url(old))
    expect(page.locator("#newer")).to_be_hidden()
    open_game(page, server.game_url(new))
    expect(page.locator("#newer")).to_be_hidden()

    page.goto(server.game_url(old))
    notice = page.locator("#newer")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("This turn was already played: the game has moved on.")
    expect(notice.locator("a")).to_have_attribute("href", f"/g/{new}")
    expect(page.locator("#board .piece").first).to_be_visible()  # the game as it was
    expect(page.locator("#roll")).to_be_hidden()  # and nothing to play
    expect(page.locator("#feed li", has_text="rolled")).to_have_count(0)  # and no replay
    shot(page, "6-older-link")

    notice.locator("a").click()
    page.wait_for_url(server.game_url(new))
    expect(page.locator("#roll")).to_be_visible()
    expect(page.locator("#newer")).to_be_hidden()
    shot(page, "6-newest-link")

    # Another phone, which never saw the newer link, can't fork the game from the old one: the
    # server knows it has moved on.
    fresh = phone()
    fresh.goto(server.game_url(old))
    expect(fresh.locator("#newer")).to_contain_text("the game has moved on")
    expect(fresh.locator("#newer a")).to_have_count(0)  # it never saw the newest link
    expect(fresh.locator("#roll")).to_be_hidden()
    status, refused = server.api(f"/api/games/{old}/moves", {"seat": game.header.host,
                                                             "steps": ["roll"]})
    assert status == 409 and refused["error"]["code"] == "MovedOn"


# -- a game on one device ----------------------------------------------------------------------

@pytest.mark.parametrize("width", WIDTHS)
def test_local_game_passes_the_phone(server, phone, sms, width):
    page = phone(width=width)
    page.goto(server.url + "/")
    page.locator("input[name=name0]").fill("Ana")
    page.locator("input[name=name2]").fill("Ben")
    page.locator("input[name=local]").check()
    page.locator("#newgame input[name=autoplay][type=checkbox]").uncheck()  # by hand
    page.locator("#newgame button[type=submit]").click()
    expect(page.locator("#next")).to_be_visible()
    expect(page.locator("#next")).to_have_text("Play the next turn here")
    expect(page.locator("#sms")).to_be_hidden()
    link = page.locator("#nextlink").input_value()
    page.locator("#next").click()
    page.wait_for_url(link)
    expect(page.locator("#roll")).to_be_visible()
    play_out_turn(page)
    # Its own words: the turn is ended and the phone passed, not a link sent.
    expect(page.locator("#send")).to_have_text("End turn")
    expect(page.locator("#status")).to_have_text(re.compile(
        r"^(No move.*\. )?Ana, your turn is done: pass the phone to Ben\.$|"
        r"^(No move.*\. )?Ben, your turn is done: pass the phone to Ana\.$"))
    answer = send_turn(page, sms)
    expect(page.locator("#sendmsg")).to_have_text(f"Pass the phone to {answer['message']['to']}.")
    expect(page.locator("#next")).to_be_visible()
    # Playing on here comes first, before Copy link.
    assert page.evaluate("""() => [...document.querySelectorAll('#sendbox > :not([hidden])')]
        .map((node) => node.id)""")[:2] == ["sendmsg", "next"]
    expect(page.locator("#sms")).to_be_hidden()
    shot(page, "local-pass-the-phone")
    page.locator("#next").click()
    page.wait_for_url(answer["url"])
    expect(page.locator("#roll")).to_be_visible()
    expect(page.locator("#newer")).to_be_hidden()


# -- choosing among moves ----------------------------------------------------------------------

def test_tapping_a_pawn_highlights_its_moves_and_a_shared_spot_asks_which(server, phone):
    token, steps, seat, _ = find_decision(shared_spot)
    assert server.api("/api/boards/parcheesi")[1]["home_progress"] == HOME
    page = phone()
    page.goto(server.game_url(token) + steps_hash(steps))  # a link mid-turn, as after a reload
    expect(page.locator("#board circle.landing").first).to_be_visible()
    view = server.position(token, seat, steps)
    legal = view["legal"]
    def spot(m):  # where the page draws a move's landing spot
        return m["to"] if m["to"] < HOME else (HOME, m["piece"])

    by_spot: dict = {}
    for m in legal:
        by_spot.setdefault(spot(m), []).append(m)
    landings, arrows = page.locator("#board circle.landing"), page.locator("#board polyline.arrow")
    expect(arrows).to_have_count(len(legal))
    expect(page.locator("#board polyline.arrow.dim")).to_have_count(0)
    expect(landings).to_have_count(len(by_spot))
    movable = page.locator(f"#board circle.piece.movable[data-seat='{seat}']")
    sources = {m["from"] for m in legal}
    expect(movable).to_have_count(sum(p in sources for p in view["pieces"][seat]))
    calls = page.monitor.api_calls("/moves")

    # Tap a pawn: the other pawns' arrows dim and only its landing spots stay.
    alone = next(m["from"] for m in legal
                 if all(len(by_spot[spot(n)]) == 1 for n in legal if n["from"] == m["from"]))
    own = [m for m in legal if m["from"] == alone]
    pawn = page.locator(f"#board circle.piece.movable[data-seat='{seat}'][data-progress='{alone}']")
    pawn.first.click()
    expect(page.locator("#board polyline.arrow.dim")).to_have_count(len(legal) - len(own))
    expect(landings).to_have_count(len(own))
    assert sorted(landings.evaluate_all("(ls) => ls.map((l) => l.getAttribute('aria-label'))")) \
        == sorted(m["label"] for m in own)
    shot(page, "choices-pawn-selected")
    pawn.first.click()
    expect(page.locator("#board polyline.arrow.dim")).to_have_count(0)
    expect(landings).to_have_count(len(by_spot))

    # Tap the square two moves land on: the page asks which, and plays the one chosen.
    shared = next(group for group in by_spot.values() if len(group) > 1)
    label = " or ".join(m["label"] for m in shared)
    page.locator(f'#board circle.landing[aria-label="{label}"]').click()
    choices = page.locator("#choices")
    expect(choices).to_be_visible()
    expect(choices.locator("button")).to_have_text([m["label"] for m in shared])
    assert page.monitor.api_calls("/moves") == calls  # nothing played yet
    assert page_hash(page) == steps_hash(steps)
    shot(page, "choices-which-move")
    chosen = shared[-1]
    before = page_hash(page)
    choices.locator("button").last.click()
    page.wait_for_function("(h) => location.hash !== h", arg=before)
    assert hash_steps(page) == steps + [{k: chosen[k] for k in ("from", "to", "values")}]
    expect(choices).to_be_hidden()
    after = server.position(token, seat, hash_steps(page))
    assert progress_grid(page) == after["pieces"]
    assert after["pieces"][seat][chosen["piece"]] == chosen["to"]
    no_error(page)
    shot(page, "choices-played")


# -- client bugs found once: keyboard, cut-short addresses, refused steps, errors, focus --------

def test_a_landing_spot_can_be_played_from_the_keyboard(server, phone):
    game = new_game(find_seed(enter_then_move))
    page = open_game(phone(checked_by_test=True), server.game_url(game.token()))
    roll(page)
    page.locator("#board circle.landing").first.focus()
    before = page_hash(page)
    page.keyboard.press("Enter")
    page.wait_for_function("(h) => location.hash !== h", arg=before)
    assert hash_steps(page)[1]["from"] == -1
    page.monitor.check()


def test_a_cut_short_hash_does_not_break_the_page(server, phone):
    game = new_game(find_seed(enter_then_move))
    page = phone(checked_by_test=True)
    page.goto(server.game_url(game.token()) + "#s=r,-1_0")  # cut off in the middle of a step
    # The readable part (the roll) is kept; the broken step is dropped.
    page.wait_for_function("() => location.hash === '#s=r'")
    assert len(dice(page)) == 2
    expect(page.locator("#board circle.landing").first).to_be_visible()
    page.monitor.check()


def test_steps_in_the_hash_the_server_refuses_are_dropped(server, phone):
    game = new_game(find_seed(enter_then_move))
    page = phone(checked_by_test=True)
    page.monitor.allow("/moves", 422)  # the refused hash, once
    page.goto(server.game_url(game.token()) + "#s=r,r")  # well formed, but no one rolls twice
    expect(page.locator("#roll")).to_be_visible()
    page.locator("#roll").click()
    page.wait_for_function("() => location.hash === '#s=r'")
    assert len(dice(page)) == 2
    page.monitor.check()


def test_a_move_the_server_cannot_take_says_so(server, phone):
    game = new_game(find_seed(enter_then_move))
    page = open_game(phone(checked_by_test=True), server.game_url(game.token()))
    roll(page)
    page.monitor.allow("/moves", 503)
    page.route("**/moves", lambda route: route.fulfill(
        status=503, json={"error": {"code": "Unavailable", "message": "Try again in a moment."}}))
    with page.expect_response("**/moves"):
        page.locator("#board circle.landing").first.click()
    expect(page.locator("#status")).to_have_class(re.compile(r"\berror\b"))
    expect(page.locator("#status")).to_have_text("Try again in a moment.")
    page.unroute("**/moves")
    tap_landing(page)  # and the move can be tapped again
    page.monitor.check()


def test_a_tapped_landing_spot_paints_no_focus_ring_over_the_board(server, phone):
    token, steps, _, moves = find_decision(shared_spot)
    page = phone(checked_by_test=True)
    page.goto(server.game_url(token) + steps_hash(steps))
    expect(page.locator("#board circle.landing").first).to_be_visible()
    spot = page.locator("#board circle.landing[aria-label*=' or ']")
    spot.click()  # two moves land there: the spot stays (and keeps the focus) while #choices asks
    expect(page.locator("#choices")).to_be_visible()
    box = spot.bounding_box()
    around = {"x": box["x"] - box["width"] * 2, "y": box["y"] - box["height"] * 2,
              "width": box["width"] * 5, "height": box["height"] * 5}
    tapped = page.screenshot(clip=around)
    page.evaluate("() => document.activeElement.blur()")
    assert page.screenshot(clip=around) == tapped, "see test-artifacts/choices-which-move.png"
    page.monitor.check()


# -- Red Arse on the 6-player board --------------------------------------------------------------

def _move_step(move) -> dict:
    return {"from": move.src, "to": move.dst, "values": list(move.values)}


def _is_hop(game, move) -> bool:
    board = game.rules.board
    return board.is_inside_corner(move.src) and board.is_inside_corner(move.dst)


def hop_alone(game, moves) -> bool:
    """A forward inside-corner hop is possible and no other move lands where it does."""
    return any(_is_hop(game, m) and m.values[0] > 0 and
               sum(n.dst == m.dst for n in moves) == 1 for m in moves)


def back_four_alone(game, moves) -> bool:
    """A plain backward 4 along the track is possible, landing where no other move does."""
    track = game.rules.board.track
    color = game.header.seats[game.match.turn].color
    return any(m.values == (-4,) and 0 <= m.src < track and not _is_hop(game, m) and
               len(game.rules.move_path(color, m)) == 5 and  # not parked behind its start
               sum(n.dst == m.dst for n in moves) == 1 for m in moves)


def six_to_play(game, moves) -> bool:
    """A 6 to play: whatever is moved, the player may claim a re-roll; the first move's re-roll
    claimed gives a die with a move to make."""
    if game.state.die != 6 or len({m.dst for m in moves}) != len(moves):
        return False
    ahead = Game.from_token(game.token(), KEYS)
    ahead.step(0)
    if ahead.match.phase != "claim":
        return False
    ahead.step(0)  # claimed
    ahead.step()  # rolled
    return ahead.match.phase == "move"


def open_red_arse(phone, server, token, steps):
    page = phone()
    page.goto(server.game_url(token) + steps_hash(steps))  # mid-turn, as after a reload
    expect(page.locator("#board circle.landing").first).to_be_visible()
    return page


def landing_for(page, label):
    return page.locator(f'#board circle.landing[aria-label="{label}"]')


def test_red_arse_hop_between_inside_corners_on_the_6_player_board(server, phone, sms):
    token, steps, seat, _ = find_red_arse_decision(hop_alone)
    page = open_red_arse(phone, server, token, steps)
    view = server.position(token, seat, steps)
    layout = server.api("/api/boards/red-arse?board=6")[1]
    assert view["settings"] == {"board": 6, "off": []}
    # The 6-player board: 84 holes, the center and six home columns, as /api/boards drew them.
    expect(page.locator("#board circle.hole[data-place]:not(.base)")).to_have_count(84 + 1 + 24)
    expect(page.locator("#board polygon.star")).to_have_count(6)
    expect(page.locator("#board circle.startring")).to_have_count(6)
    assert dice(page) == view["dice"] and len(view["dice"]) == 1
    assert page.locator("#dice .pool").count() == 0  # one die: nothing more to show
    assert no_error(page).endswith("tap a marble or a landing spot.")
    assert progress_grid(page) == view["pieces"]

    hop = next(m for m in view["legal"] if "hops" in m["label"])
    assert hop["path"] == [hop["from"], hop["to"]]
    arrows = page.locator("#board polyline.arrow")
    expect(arrows).to_have_count(len(view["legal"]))
    points = [a.split(" ") for a in arrows.evaluate_all("(ls) => ls.map((l) => "
                                                        "l.getAttribute('points'))")]
    for move, drawn in zip(view["legal"], points):  # each arrow follows the move's path
        assert len(drawn) == len(move["path"])
        x, y = map(float, drawn[-1].split(","))
        assert [x, y] == pytest.approx(layout["places"][move["to"]])
    shot(page, "ra-hop-offered")

    before = page_hash(page)
    landing_for(page, hop["label"]).click()
    page.wait_for_function("(h) => location.hash !== h", arg=before)
    assert hash_steps(page)[len(steps)] == {k: hop[k] for k in ("from", "to", "values")}
    after = server.position(token, seat, hash_steps(page))
    assert after["pieces"][seat][hop["piece"]] == hop["to"]
    assert progress_grid(page) == after["pieces"]
    node = page.locator(f"#board circle.piece[data-seat='{seat}'][data-piece='{hop['piece']}']")
    assert [float(node.get_attribute("cx")), float(node.get_attribute("cy"))] == \
        pytest.approx(layout["places"][hop["to"]])
    no_error(page)
    shot(page, "ra-hop-played")

    # The rest of the turn, sent; the next player watches it replayed, hop included.
    play_out_turn(page)
    answer = send_turn(page, sms)
    assert "Your turn in Boardpass" in answer["message"]["text"]
    watcher = phone(WATCH_PIECES_JS)
    watcher.goto(answer["url"])
    expect(watcher.locator("#roll")).to_be_visible(timeout=60_000)  # the whole replay
    assert hop["said"].startswith(answer["seats"][seat]["name"] + " hopped a marble ")
    expect(watcher.locator("#feed li", has_text=hop["said"])).to_have_count(1)
    slid = watcher.evaluate("() => window.__pieceMoves")
    hopped = [m["value"] for m in slid if (m["seat"], m["piece"]) == (seat, hop["piece"])]
    pairs = [hopped[i:i + 2] for i in range(0, len(hopped), 2)]  # (cx, cy) per step
    start, end = layout["places"][hop["from"]], layout["places"][hop["to"]]
    # One jump from corner to corner: the marble is never drawn on a hole in between (its
    # earlier moves may be in the replay too, ending on the corner it hops from).
    assert pairs[0] == end or any(a == start and b == end for a, b in zip(pairs, pairs[1:]))


def test_red_arse_backward_4_and_its_replay_along_the_track(server, phone, sms):
    token, steps, seat, _ = find_red_arse_decision(back_four_alone)
    page = open_red_arse(phone, server, token, steps)
    view = server.position(token, seat, steps)
    back = next(m for m in view["legal"] if m["values"] == [-4] and "back 4" in m["label"] and
                len(m["path"]) == 5 and sum(n["to"] == m["to"] for n in view["legal"]) == 1)
    forward = [m for m in view["legal"] if m["from"] == back["from"] and m["values"] == [4]]
    assert len(back["path"]) == 5  # four holes back, one at a time

    # Tap the marble: only its moves stay; its backward landing spot is one of them.
    marble = page.locator(f"#board circle.piece.movable[data-seat='{seat}']"
                          f"[data-progress='{back['from']}']")
    marble.click()
    own = [m for m in view["legal"] if m["from"] == back["from"]]
    expect(page.locator("#board circle.landing")).to_have_count(len({m["to"] for m in own}))
    assert len(own) >= 1 + len(forward)
    shot(page, "ra-back-4-offered")
    before = page_hash(page)
    landing_for(page, back["label"]).click()
    page.wait_for_function("(h) => location.hash !== h", arg=before)
    assert hash_steps(page)[len(steps)] == {"from": back["from"], "to": back["to"],
                                            "values": [-4]}
    assert page_hash(page).split(",")[len(steps)] == f"{back['from']}_{back['to']}_-4"
    after = server.position(token, seat, hash_steps(page))
    assert progress_grid(page) == after["pieces"]
    no_error(page)
    shot(page, "ra-back-4-played")
    play_out_turn(page)
    answer = send_turn(page, sms)

    # The replay hops the marble back hole by hole, along the move's path.
    layout = server.api("/api/boards/red-arse?board=6")[1]
    watcher = phone(WATCH_PIECES_JS)
    watcher.goto(answer["url"])
    expect(watcher.locator("#roll")).to_be_visible(timeout=60_000)
    slid = watcher.evaluate("() => window.__pieceMoves")
    xs = [m["value"] for m in slid if m["seat"] == seat and m["piece"] == back["piece"]
          and m["attr"] == "cx"]
    ys = [m["value"] for m in slid if m["seat"] == seat and m["piece"] == back["piece"]
          and m["attr"] == "cy"]
    walked = [list(p) for p in zip(xs, ys)]
    want = [layout["places"][p] for p in back["path"][1:]]
    assert any(walked[i:i + len(want)] == want for i in range(len(walked))), (walked, want)
    assert back["said"].startswith(answer["seats"][seat]["name"] + " moved a marble back 4 ")
    expect(watcher.locator("#feed li", has_text=back["said"])).to_have_count(1)


def test_red_arse_re_roll_claimed_in_time_rolls_again(server, phone, sms):
    token, steps, seat, _ = find_red_arse_decision(six_to_play)
    page = open_red_arse(phone, server, token, steps)
    roll_class = page.locator("#roll").get_attribute("class")
    status_before = no_error(page)
    tap_landing(page)  # any move with a 6 earns a re-roll
    expect(page.locator("#roll")).to_be_visible()
    # Nothing reminds the player: the Roll button looks as always, no countdown anywhere.
    assert page.locator("#roll").get_attribute("class") == roll_class
    assert page.locator("#roll").text_content() == "Roll"
    assert no_error(page) != status_before and "roll" not in no_error(page).lower()
    expect(page.locator("#send")).to_be_hidden()
    expect(page.locator("#undo")).to_be_hidden()
    assert "c" not in page_hash(page).split(",")[-1]  # no ticket in the address
    shot(page, "ra-claim-window")

    roll(page)
    taken = hash_steps(page)
    assert taken[len(steps) + 1].keys() == {"claimed"} and taken[len(steps) + 2] == "roll"
    after = server.position(token, seat, taken)
    assert after["turn"] == seat and after["phase"] == "move"
    assert len(dice(page)) == 1 and dice(page) == after["last_roll"]
    name = after["seats"][seat]["name"]
    expect(page.locator("#feed li", has_text=f"{name}: re-roll claimed")).to_have_count(1)
    no_error(page)
    shot(page, "ra-claimed")

    # A reload keeps the claim (the receipt is in the address) and the dice.
    hash_ = page_hash(page)
    page.reload()
    expect(page.locator("#board circle.landing").first).to_be_visible()
    expect(page.locator("#feed li", has_text=f"{name}: re-roll claimed")).to_have_count(1)
    assert page_hash(page) == hash_ and dice(page) == after["last_roll"]
    assert server.position(token, seat, hash_steps(page))["position"] == after["position"]
    play_out_turn(page)
    send_turn(page, sms)


def test_red_arse_re_roll_not_claimed_in_5_seconds_passes_the_turn(server, phone, sms):
    token, steps, seat, _ = find_red_arse_decision(six_to_play)
    page = phone()
    page.emulate_media(reduced_motion="reduce")  # no hop: the window opens with the answer
    page.clock.install()  # the page's timers on a clock the test moves, whatever the load
    page.goto(server.game_url(token) + steps_hash(steps))
    expect(page.locator("#board circle.landing").first).to_be_visible()
    page.clock.pause_at(page.evaluate("() => Date.now()") + 1)
    tap_landing(page)
    for _ in range(600):  # a tenth of a second on the page's clock at a time
        if page.locator("#roll").is_visible():
            break  # the window opened in the last tenth
        page.clock.run_for(100)
    expect(page.locator("#roll")).to_be_visible()
    name = server.position(token, seat, steps)["seats"][seat]["name"]
    missed = page.locator("#feed li", has_text=f"{name}: re-roll missed")
    page.clock.run_for(4800)
    expect(missed).to_have_count(0)  # still in the window
    page.clock.run_for(300)
    expect(missed).to_have_count(1)
    expect(page.locator("#roll")).to_be_hidden()
    expect(page.locator("#send")).to_be_visible()
    assert page_hash(page).endswith(",m")
    after = server.position(token, seat, hash_steps(page))
    assert after["turn"] != seat and after["turn_over"]
    no_error(page)
    shot(page, "ra-claim-missed")
    answer = send_turn(page, sms)
    # The next player's replay says so too.
    watcher = phone()
    watcher.goto(answer["url"])
    expect(watcher.locator("#feed li", has_text=f"{name}: re-roll missed")).to_have_count(1)


def test_red_arse_claim_window_lost_to_a_reload_is_let_go_and_stands(server, phone):
    token, steps, seat, moves = find_red_arse_decision(six_to_play)
    at_claim = steps + [_move_step(moves[0])]
    assert server.position(token, seat, at_claim)["phase"] == "claim"
    # Reopened during the window: the page has missed it and says so.
    page = phone()
    page.goto(server.game_url(token) + steps_hash(at_claim))
    page.wait_for_function("() => location.hash.endsWith(',m')")
    expect(page.locator("#send")).to_be_visible()
    expect(page.locator("#feed li", has_text="re-roll missed")).to_have_count(1)
    # Let go, it stands: the link opened afresh starts from it (docs/playing.md).
    again = phone()
    again.goto(server.game_url(token))
    again.wait_for_function("() => location.hash.endsWith(',m')")
    assert hash_steps(again) == hash_steps(page)


def test_red_arse_claim_tapped_too_late_is_let_go(server, fresh_store, phone):
    token, steps, seat, moves = find_red_arse_decision(six_to_play)
    # The server finds a tap too late (409 ClaimMissed): the page lets the re-roll go.
    late = phone(checked_by_test=True)
    late.goto(server.game_url(token) + steps_hash(steps))
    expect(late.locator("#board circle.landing").first).to_be_visible()
    tap_landing(late)
    late.monitor.allow("/moves", 409)
    late.route("**/moves", lambda route: route.fulfill(status=409, json={"error": {
        "code": "ClaimMissed", "message": "Too late: the re-roll had to be claimed within 5 "
        "seconds."}}) if "claim" in (route.request.post_data or "") else route.continue_())
    late.locator("#roll").click()
    late.wait_for_function("() => location.hash.endsWith(',m')")
    expect(late.locator("#send")).to_be_visible()
    expect(late.locator("#feed li", has_text="re-roll missed")).to_have_count(1)
    late.monitor.check()


def test_red_arse_from_the_new_game_form(server, phone, sms):
    page = phone()
    page.goto(server.url + "/")
    form = page.locator("#newgame")
    expect(form.locator("section.table[data-game=red-arse]")).to_be_hidden()
    form.locator("input[name=game][value=red-arse]").check()
    expect(form.locator("section.table[data-game=parcheesi]")).to_be_hidden()
    expect(form.locator("input[name=ra_play4]")).to_be_hidden()  # purple: 6-player board only
    form.locator("input[name=board][value='6']").check()
    expect(form.locator("input[name=ra_play4]")).to_be_visible()
    form.locator("input[name=ra_name0]").fill("Ana")
    expect(form.locator("input[name=ra_play2]")).to_be_checked()  # red and green by default
    form.locator("input[name=ra_play2]").uncheck()
    form.locator("input[name=ra_play4]").check()
    form.locator("input[name=ra_name4]").fill("Ben")
    form.locator(".houserules summary").click()
    form.locator("input[name=rule_raids]").uncheck()
    shot(page, "ra-new-game-form")
    form.locator("input[name=autoplay][type=checkbox]").uncheck()  # rolls by hand
    form.locator("button[type=submit]").click()
    expect(page.locator("#sendbox")).to_be_visible()
    token = urllib.parse.urlsplit(page.url).path.rsplit("/", 1)[1]
    view = server.api(f"/api/games/{token}")[1]
    assert view["game"] == "red-arse" and view["settings"] == {"board": 6, "off": ["raids"]}
    assert [(s["name"], s["color"]) for s in view["seats"]] == [("Ana", "red"), ("Ben", "purple")]
    expect(page.locator("#board circle.hole[data-place]:not(.base)")).to_have_count(84 + 1 + 24)
    invite = urllib.parse.unquote(page.locator("#sms").get_attribute("href").split("body=")[1])
    assert "a game of Red Arse in Boardpass" in invite
    assert page.locator("#rules-link").get_attribute("href") == "/rules/red-arse"
    shot(page, "ra-new-game-created")
    player = phone()
    player.goto(page.locator("#nextlink").input_value())
    expect(player.locator("#roll")).to_be_visible()
    assert no_error(player).endswith("your turn: roll the die.")
    play_out_turn(player)
    send_turn(player, sms)


def raid_possible(game, moves) -> bool:
    board, color = game.rules.board, game.state.colors[game.state.turn]
    return any(board.home_owner(m.dst) is not None and board.home_owner(m.dst)[0] != color
               and board.home_owner(m.src) is None for m in moves)


def test_red_arse_replay_tells_of_raids_and_marbles_sent_back(server, phone):
    token, steps, seat, moves = find_red_arse_decision(raid_possible)
    game = Game.from_token(token, KEYS)
    board = game.rules.board
    color = game.state.colors[seat]
    raid = next(m for m in moves if board.home_owner(m.dst) is not None
                and board.home_owner(m.dst)[0] != color and board.home_owner(m.src) is None)
    victim = game.header.seats.index(next(s for s in game.header.seats
                                          if s.color == board.home_owner(raid.dst)[0]))
    game.play_turn(seat, steps + [_move_step(raid)])
    while game.match.turn == seat and not game.over:  # let every re-roll go
        game.step(1 if game.match.phase == "claim" else 0)
    page = phone()
    page.goto(server.game_url(game.token()))
    expect(page.locator("#roll")).to_be_visible(timeout=60_000)
    names = [s.name for s in game.header.seats]
    who, whom = names[seat], names[victim]
    feed = page.locator("#feed li").all_text_contents()[::-1]
    said = game.rules.move_said(color, raid, who)
    assert said.startswith(f"{who} raided slot ")  # "Ana raided slot 2 of the blue home"
    at = feed.index(said)
    assert feed[at + 1:at + 4] == [f"{who} raided {whom}'s home",
                                   f"{who} sent {whom}'s marble back to base",
                                   f"{who}: re-roll missed"]
    no_error(page)
    shot(page, "ra-raid-replayed")


def play_labelled(page, label: str) -> None:
    """Tap the landing spot of the move with this label (choosing it if the spot offers two)."""
    before = page_hash(page)
    page.locator(f'#board circle.landing[aria-label*="{label}"]').click()
    if page.locator("#choices").is_visible():
        page.locator("#choices button", has_text=label).click()
    page.wait_for_function("(h) => location.hash !== h", arg=before)


# -- Ludo: the table from the form, a player joining, the results, the rematch -----------------

def token_of(url: str) -> str:
    return urllib.parse.urlsplit(url).path.rsplit("/", 1)[1]


def arrive(page, url: str, ready: str = "#roll"):
    """Open ``url`` and skip the replay on arrival, if there is one still going: the check and
    the tap in one step in the page, since a replay may end between a look and a tap."""
    page.goto(url)
    skip, target = page.locator("#skip"), page.locator(ready)
    expect(skip.or_(target).first).to_be_visible()
    page.evaluate("() => { const skip = document.getElementById('skip');"
                  " if (skip && !skip.hidden) skip.click(); }")
    expect(target).to_be_visible()
    return page


def test_ludo_from_the_form_a_turn_and_a_player_added_by_the_host_mid_turn(server, phone, sms):
    creator = phone()
    creator.goto(server.url + "/")
    form = creator.locator("#newgame")
    form.locator("input[name=game][value=ludo]").check()
    expect(form.locator("section.table[data-game=parcheesi]")).to_be_hidden()
    expect(form.locator("input[name=lu_play4]")).to_be_hidden()  # purple: tables of 6 only
    form.locator("input[name=lu_capacity][value='6']").check()
    expect(form.locator("input[name=lu_play4]")).to_be_visible()
    form.locator("input[name=lu_capacity][value='3']").check()
    expect(form.locator("input[name=lu_play4]")).to_be_hidden()
    expect(form.locator("input[name=lu_play0]")).to_be_checked()  # red and green by default
    expect(form.locator("input[name=lu_play2]")).to_be_checked()
    expect(form.locator("input[name=lu_host][value='0']")).to_be_checked()  # red creates it
    expect(form.locator("input[name=lu_lang][value=en]")).to_be_checked()  # the page's language
    form.locator("input[name=lu_name0]").fill("Ana")
    form.locator("input[name=lu_name2]").fill("Cleo")
    shot(creator, "lu-new-game-form")
    form.locator("input[name=autoplay][type=checkbox]").uncheck()  # rolls by hand
    form.locator("button[type=submit]").click()

    expect(creator.locator("#sendbox")).to_be_visible()
    token = token_of(creator.url)
    view = server.api(f"/api/games/{token}")[1]
    assert view["game"] == "ludo" and view["settings"] == {"board": 4, "capacity": 3}
    assert [(s["name"], s["color"]) for s in view["seats"]] == [("Ana", "red"), ("Cleo", "green")]
    assert view["seats"][view["host"]]["name"] == "Ana"
    # The classic cross: 52 squares, 4 stars, the goal's 4 triangles, 4 home columns.
    expect(creator.locator("#board rect.square")).to_have_count(52)
    expect(creator.locator("#board polygon.safestar")).to_have_count(4)
    expect(creator.locator("#board polygon.goal")).to_have_count(4)
    expect(creator.locator("#board rect.homepath")).to_have_count(20)
    expect(creator.locator("#addplayer")).to_be_visible()  # the host may add players already
    invite = urllib.parse.unquote(creator.locator("#sms").get_attribute("href").split("body=")[1])
    assert "a game of Ludo in Boardpass" in invite
    # The rules page speaks this English browser's language by itself: a plain link.
    assert creator.locator("#rules-link").get_attribute("href") == "/rules/ludo"
    shot(creator, "lu-new-game-created")

    # Turns go round until the host, Ana, is to play a game already started.
    link = creator.locator("#nextlink").input_value()
    for _ in range(10):  # two or three turns, more if a re-roll was let go (a slow machine)
        page = open_game(phone(), link)
        current = server.api(f"/api/games/{token_of(link)}")[1]
        mover = current["seats"][current["turn"]]["name"]
        assert no_error(page) == f"{mover}, your turn: roll the die."
        if current["steps"] and mover == "Ana":
            break
        if mover != "Ana":
            expect(page.locator("#addplayer")).to_be_hidden()  # not the host's page
        play_out_turn(page)
        link = send_turn(page, sms)["url"]
    else:
        raise AssertionError("Ana never got the turn")

    # Ana rolls, then adds Ben (blue) in the middle of her turn.
    expect(page.locator("#addplayer")).to_be_visible()
    steps_hash_ = roll(page)
    rolled, before = dice(page), progress_grid(page)
    page.locator("#addplayer summary").click()
    expect(page.locator("#addcolors input[name=color]")).to_have_count(2)  # blue and yellow
    page.locator("#addform input[name=name]").fill("Ben")
    page.locator("#addcolors input[value=blue]").check()
    shot(page, "lu-add-a-player")
    old = token_of(link)
    page.locator("#addform button[type=submit]").click()
    page.wait_for_url(lambda url: old not in url)
    expect(page.locator("#send").or_(page.locator("#board circle.landing")).first).to_be_visible()
    new = token_of(page.url)
    assert page_hash(page) == steps_hash_ and dice(page) == rolled  # the turn goes on
    assert progress_grid(page) == [before[0], [-1] * 4, before[1]]  # Ben: red, blue, green
    added = server.position(new, 0, hash_steps(page))
    assert [s["name"] for s in added["seats"]] == ["Ana", "Ben", "Cleo"]
    expect(page.locator("#seats fieldset")).to_have_count(3)
    expect(page.locator("#addplayer")).to_be_hidden()  # a table for 3: full now
    no_error(page)
    shot(page, "lu-player-added")
    play_out_turn(page)
    answer = send_turn(page, sms)
    assert answer["message"]["to"] == "Ben"  # blue plays after red
    expect(page.locator("#sms")).to_have_text("Send by text")
    expect(page.locator("#addplayer")).to_be_hidden()  # the turn is sent
    ben = open_game(phone(), answer["url"])
    assert no_error(ben) == "Ben, your turn: roll the die."
    assert progress_grid(ben)[1] == [-1] * 4


def test_ludo_a_piece_sent_home_in_the_feed_and_the_next_player_s_replay(server, phone, sms):
    token, steps, seat, moves = find_ludo_decision(capture_alone, players=3, board=6)
    game = Game.from_token(token, KEYS)
    game.play_turn(seat, steps)
    capture = next(m for m in moves if ludo_capture(game, m)
                   and sum(n.dst == m.dst for n in moves) == 1)
    victim = ludo_capture(game, capture)[0]
    names = [s.name for s in game.header.seats]
    who, whom = names[seat], names[victim]
    page = phone()
    page.goto(server.game_url(token) + steps_hash(steps))  # mid-turn, as after a reload
    expect(page.locator("#board circle.landing").first).to_be_visible()
    # The six-arm board: 78 squares, six stars, six home columns.
    expect(page.locator("#board rect.square")).to_have_count(78)
    expect(page.locator("#board polygon.safestar")).to_have_count(6)
    expect(page.locator("#board rect.homepath")).to_have_count(30)
    view = server.position(token, seat, steps)
    assert view["settings"] == {"board": 6, "capacity": 6}
    label, said = next((m["label"], m["said"]) for m in view["legal"]
                       if [m["from"], m["to"]] == [capture.src, capture.dst])
    before = page_hash(page)
    page.locator(f'#board circle.landing[aria-label="{label}"]').click()
    page.wait_for_function("(h) => location.hash !== h", arg=before)
    expect(page.locator("#feed li.now", has_text=f"{who} sent {whom}'s piece home")) \
        .to_have_count(1)
    after = server.position(token, seat, hash_steps(page))
    assert progress_grid(page) == after["pieces"]
    assert after["pieces"][victim].count(-1) > view["pieces"][victim].count(-1)
    assert no_error(page) == f"{who}, roll again."  # a capture rolls again
    shot(page, "lu-capture")
    play_out_turn(page)
    answer = send_turn(page, sms)
    watcher = phone()
    watcher.goto(answer["url"])
    expect(watcher.locator("#feed li", has_text=f"{who} sent {whom}'s piece home").first) \
        .to_be_visible()
    assert said.startswith(f"{who} moved a piece from ")
    expect(watcher.locator("#feed li", has_text=said)).to_have_count(1)


def flights(page, which) -> list[int]:
    """How many of the page's requests whose URL ``which`` picks are in flight, after each
    request starts or ends (the list grows as the page goes)."""
    counts = [0]

    def change(by):
        return lambda request: counts.append(counts[-1] + by) if which(request.url) else None

    page.on("request", change(1))
    page.on("requestfinished", change(-1))
    page.on("requestfailed", change(-1))
    return counts


def final_turn():
    """A Ludo game of three (medals from earlier games) one roll and one move from its end,
    the last move not the host's (Ana's)."""
    earlier = [(1, 0, 0), (0, 2, 0), (0, 0, 1)]
    for number in range(200):
        game, seat, steps = ludo_last_turn(number, players=3, medals=earlier)
        if len(steps) == 2 and seat != 0:
            return game, seat, steps, earlier
    raise AssertionError("no game ends the way the test needs")


def test_ludo_results_medals_and_a_rematch_started_by_the_host(server, phone, sms):
    game, seat, steps, earlier = final_turn()
    token, names = game.token(), ["Ana", "Ben", "Cleo"]
    mover = names[seat]
    page = arrive(phone(), server.game_url(token))
    expect(page.locator("#results")).to_be_hidden()
    roll(page)
    legal = server.position(token, seat, ["roll"])["legal"]
    last = next(m for m in legal if [m["from"], m["to"]] == [steps[1]["from"], steps[1]["to"]])
    play_labelled(page, last["label"])

    # The results, at once: places 1st..3rd, this game's medals, the table's count.
    final = server.position(token, seat, hash_steps(page))
    assert final["phase"] == "over"
    placed = final["placed"]
    results = page.locator("#results")
    expect(results).to_be_visible()
    places = results.locator("#placings li")
    expect(places).to_have_count(3)
    for i, who in enumerate(placed):
        expect(places.nth(i)).to_contain_text(f"{['1st', '2nd', '3rd'][i]} {names[who]}")
    expect(places.nth(0).locator(".medal.gold")).to_have_count(1)
    expect(places.nth(1).locator(".medal.silver")).to_have_count(1)
    expect(places.nth(2).locator(".medal")).to_have_count(0)  # never for the last place
    won = {placed[0]: (1, 0, 0), placed[1]: (0, 1, 0), placed[2]: (0, 0, 0)}
    table = [[int(n) for n in row.locator("td").all_text_contents()]
             for row in results.locator("#medaltable tbody tr").all()]
    total = [[a + b for a, b in zip(earlier[s], won[s])] for s in range(3)]
    assert table == total
    place = placed.index(seat) + 1
    expect(page.locator("#feed li", has_text=f"{mover} finished {['1st', '2nd'][place - 1]}")) \
        .to_have_count(1)
    expect(page.locator("#feed li", has_text=f"{names[placed[2]]} takes the last place (3rd)")) \
        .to_have_count(1)
    expect(page.locator("#rematch")).to_be_hidden()  # the final link isn't made yet
    expect(page.locator("#send")).to_have_text("Finish the game")
    assert no_error(page) == f"{names[placed[0]]} wins!"
    shot(page, "lu-results")

    # The last mover isn't the host: the page offers them the results to send to Ana.
    answer = send_turn(page, sms)
    assert answer["message"]["status"] == "game-over" and answer["message"]["to"] == "Ana"
    expect(page.locator("#sendmsg")).to_contain_text("Send the results to Ana")
    expect(page.locator("#sms")).to_have_text("Send by text")
    body = urllib.parse.unquote(page.locator("#sms").get_attribute("href").split("body=")[1])
    host_link = answer["message"]["url"]  # the final link with the host's key
    assert host_link.startswith(answer["url"] + "?host=")
    assert body.endswith(host_link)
    expect(page.locator("#nextlink")).to_have_value(host_link)
    expect(page.locator("#rematch")).to_be_hidden()
    expect(page.locator("#rematchnote")).to_have_text(
        "Ana, the host, can start a rematch from this page.")
    expect(page.locator("#results")).to_be_visible()
    shot(page, "lu-results-sent")

    # Ana opens it: the same results, and her Rematch, which never waits behind the review's
    # requests (four at most in flight: the browser has six connections to the server, and
    # the test server would take twenty at once).
    host = phone()
    reviews = flights(host, lambda url: "/review?" in url or url.endswith("/luck"))
    arrive(host, host_link, "#results")
    expect(host.locator("#placings li")).to_have_count(3)
    expect(host.locator("#rematch")).to_be_visible()
    expect(host.locator("#addplayer")).to_be_hidden()
    # The rematch's table: any size that seats the three of them (medals carry over).
    expect(host.locator("#rematchsize")).to_be_visible()
    expect(host.locator("#rematchcapacity")).to_have_value(str(final["settings"]["capacity"]))
    expect(host.locator("#rematchcapacity option[value='2']")).to_be_disabled()
    host.locator("#rematchcapacity").select_option("6")
    shot(host, "lu-results-host")
    host.locator("#rematch").click()
    host.wait_for_url(re.compile(r"/g/[^?]+\?new=1$"))
    assert 0 < max(reviews) <= 4, reviews
    expect(host.locator("#sendbox")).to_be_visible()
    again = server.api(f"/api/games/{token_of(host.url)}")[1]
    assert again["steps"] == 0 and again["seed"] != final["seed"]
    assert again["settings"] == {"board": 6, "capacity": 6}
    assert [s["name"] for s in again["seats"]] == names and again["host"] == 0
    assert [tuple(s["medals"]) for s in again["seats"]] == [tuple(t) for t in total]
    first = again["seats"][again["turn"]]["name"]
    expect(host.locator("#sendmsg")).to_have_text(
        f"Game created. {first} goes first: send them the link.")
    invite = urllib.parse.unquote(host.locator("#sms").get_attribute("href").split("body=")[1])
    assert "a game of Ludo in Boardpass" in invite and invite.endswith(again["url"])
    expect(host.locator("#addplayer")).to_be_visible()  # the table still has a free seat
    shot(host, "lu-rematch-created")

    # Someone else opening the final link sees the results; the rematch is the host's.
    other = arrive(phone(), answer["url"], "#results")
    expect(other.locator("#rematch")).to_be_hidden()
    expect(other.locator("#iamhost")).to_have_text("I'm Ana")


# -- a Spanish table: the form, a turn, the results -----------------------------------------------

# English words the main controls must not show on a Spanish page (names are Ana, Ben, Cleo...;
# "link" is Argentine Spanish too).
ENGLISH = re.compile(r"\b(the|roll|rolled|send|sent|your|turn|game|wins?|players?|copy|"
                     r"share|rematch|results|tap|piece|finished|takes|place|goes|first|next|"
                     r"host|open|messages|undo|skip|replay|add|name|phone)\b", re.I)
CONTROLS = ["#roll", "#undo", "#skip", "#send", "#copy", "#share", "#sms", "#next", "#rematch",
            "#iamhost", "#addplayer summary", "#results-title", "#status", "#sendmsg",
            "#rematchnote", "#rules-link", "h1"]


def no_english(page):
    """The page speaks Spanish: its language, its controls, its feed and its labels."""
    assert page.locator("html").get_attribute("lang") == "es"
    shown = [(selector, page.locator(selector).first.text_content() or "")
             for selector in CONTROLS if page.locator(selector).count()]
    shown += [("#feed", text) for text in page.locator("#feed li").all_text_contents()]
    shown += [("#placings", text) for text in page.locator("#placings li").all_text_contents()]
    shown += [("aria-label", label) for label in page.eval_on_selector_all(
        "[aria-label]", "(nodes) => nodes.map((n) => n.getAttribute('aria-label'))")]
    english = [(where, text) for where, text in shown if ENGLISH.search(text)]
    assert not english, english


def test_a_spanish_ludo_game_from_the_form_to_the_results(server, phone, sms):
    # The form, switched to Spanish: Ludo proposes a Spanish table.
    creator = phone()
    creator.goto(server.url + "/")
    expect(creator.locator("h1")).to_have_text("New game")
    creator.locator("#langs a[data-lang=es]").click()
    expect(creator.locator("h1")).to_have_text("Partida nueva")
    assert creator.locator("html").get_attribute("lang") == "es"
    form = creator.locator("#newgame")
    form.locator("input[name=game][value=ludo]").check()
    expect(form.locator("input[name=lu_lang][value=es]")).to_be_checked()
    expect(form.locator("section.table[data-game=ludo] .player legend").first) \
        .to_contain_text("Rojo")
    expect(form.locator("input[name=lu_name0]")).to_have_attribute("placeholder", "Jugador 1")
    form.locator("input[name=lu_name0]").fill("Ana")
    form.locator("input[name=lu_name2]").fill("Cleo")
    expect(form.locator("button[type=submit]")).to_have_text("Crear la partida")
    shot(creator, "es-new-game-form")
    form.locator("input[name=autoplay][type=checkbox]").uncheck()  # rolls by hand
    form.locator("button[type=submit]").click()

    expect(creator.locator("#sendbox")).to_be_visible()
    token = token_of(creator.url)
    view = server.api(f"/api/games/{token}")[1]
    assert view["lang"] == "es" and Game.from_token(token, KEYS).header.lang == "es"
    first = view["seats"][view["turn"]]["name"]
    expect(creator.locator("#sendmsg")).to_have_text(
        f"Partida creada. Empieza {first}: mandale el link.")
    expect(creator.locator("#sms")).to_have_text("Mandar por SMS")
    invite = urllib.parse.unquote(creator.locator("#sms").get_attribute("href").split("body=")[1])
    assert invite.startswith(f"{first}, te invitaron a una partida de Ludo en Boardpass. Te toca:")
    # At a Spanish table WhatsApp comes first, with the same invitation.
    expect(creator.locator("#whatsapp")).to_have_text("Mandar por WhatsApp")
    assert send_ways(creator) == ["whatsapp", "sms", "copy"]
    expect(creator.locator("#whatsapp")).to_have_class(re.compile(r"\bprimary\b"))
    wa = urllib.parse.urlsplit(creator.locator("#whatsapp").get_attribute("href"))
    assert urllib.parse.parse_qs(wa.query) == {"text": [invite]}
    expect(creator.locator("#copy")).to_have_text("Copiar el link")
    expect(creator.locator("#addplayer summary")).to_have_text("Sumar un jugador")
    assert creator.locator("#rules-link").get_attribute("href") == "/rules/ludo"
    no_english(creator)
    shot(creator, "es-new-game-created")

    # The first player's phone speaks English, the table Spanish: the page follows the table.
    player = open_game(phone(), creator.locator("#nextlink").input_value())
    expect(player.locator("#roll")).to_have_text("Tirar el dado")
    assert no_error(player) == f"{first}, te toca: tirá el dado."
    no_english(player)
    play_out_turn(player)
    expect(player.locator("#send")).to_have_text("Mandar el turno")
    answer = send_turn(player, sms)
    other = answer["message"]["to"]
    assert answer["lang"] == "es" and f"{first} hizo su jugada. Te toca en Boardpass, {other}" \
        in answer["message"]["text"]
    expect(player.locator("#sendmsg")).to_have_text(f"Mandale el link a {other}:")
    expect(player.locator("#sms")).to_have_text("Mandar por SMS")
    no_english(player)
    shot(player, "es-turn-sent")
    watcher = phone()
    watcher.goto(answer["url"])
    expect(watcher.locator("#feed li", has_text=f"{first} sacó").first).to_be_visible()
    expect(watcher.locator("#roll")).to_be_visible()
    no_english(watcher)

    # The same table near its end (set up with the engine): the last move, the results.
    game, seat, steps, earlier = final_turn()
    game = Game(replace(game.header, lang="es"), game.match, KEYS)
    token, names = game.token(), ["Ana", "Ben", "Cleo"]
    mover = names[seat]
    page = arrive(phone(), server.game_url(token))
    roll(page)
    legal = server.position(token, seat, ["roll"])["legal"]
    last = next(m for m in legal if [m["from"], m["to"]] == [steps[1]["from"], steps[1]["to"]])
    assert not ENGLISH.search(last["label"])  # "Ficha de 50 a la meta (2)"
    play_labelled(page, last["label"])

    final = server.position(token, seat, hash_steps(page))
    placed = final["placed"]
    results = page.locator("#results")
    expect(results).to_be_visible()
    expect(results.locator("#results-title")).to_have_text("Resultados")
    places = results.locator("#placings li")
    expect(places).to_have_count(3)
    for i, who in enumerate(placed):
        expect(places.nth(i)).to_contain_text(f"{['1.º', '2.º', '3.º'][i]} {names[who]}")
    expect(places.nth(0).locator(".medal.gold")).to_have_attribute("aria-label", "Medalla de oro")
    expect(results.locator("caption")).to_have_text("Medallas de esta mesa, contando esta partida")
    place = placed.index(seat) + 1
    expect(page.locator("#feed li", has_text=f"{mover} terminó en el puesto {place}")) \
        .to_have_count(1)
    expect(page.locator("#feed li",
                        has_text=f"{names[placed[2]]} se queda con el último puesto (3.º)")) \
        .to_have_count(1)
    expect(page.locator("#send")).to_have_text("Terminar la partida")
    assert no_error(page) == f"¡Ganó {names[placed[0]]}!"
    no_english(page)
    shot(page, "es-results")

    answer = send_turn(page, sms)
    assert answer["message"]["to"] == "Ana"
    expect(page.locator("#sendmsg")).to_have_text(
        "Terminó la partida. Mandale los resultados a Ana, que organiza la mesa: la revancha se "
        "arma desde su página.")
    expect(page.locator("#sms")).to_have_text("Mandar por SMS")
    body = urllib.parse.unquote(page.locator("#sms").get_attribute("href").split("body=")[1])
    assert body.startswith(f"{names[placed[0]]} gana nuestra partida de Ludo en Boardpass. "
                           "Ana, para ver los resultados (y armar la revancha): ")
    expect(page.locator("#rematchnote")).to_have_text(
        "Ana, que organiza la mesa, puede armar la revancha desde esta página.")
    expect(page.locator("#iamhost")).to_have_text("Soy Ana")
    no_english(page)
    shot(page, "es-results-sent")

    # Ana's page: the rematch, in Spanish too.
    host = arrive(phone(), answer["message"]["url"], "#results")
    expect(host.locator("#rematch")).to_have_text("Revancha")
    no_english(host)


def test_switching_language_mid_turn_keeps_the_turn_and_the_next_link_speaks_it(server, phone,
                                                                                sms):
    english = new_game(find_seed(enter_then_move))
    game = Game(replace(english.header, lang="es"), english.match, KEYS)
    page = open_game(phone(), server.game_url(game.token()))
    expect(page.locator("#roll")).to_have_text("Tirar los dados")
    hash_ = roll(page)
    rolled = dice(page)
    page.locator("#langs a[data-lang=en]").click()
    page.wait_for_url(re.compile(r"\?lang=en#s="))
    expect(page.locator("#board circle.landing").first).to_be_visible()
    assert page_hash(page) == hash_ and dice(page) == rolled  # the turn goes on
    assert page.locator("html").get_attribute("lang") == "en"
    expect(page.locator("#undo")).to_have_text("Undo")
    play_out_turn(page)
    answer = send_turn(page, sms)
    assert answer["lang"] == "en" and " moved. Your turn in Boardpass" in \
        answer["message"]["text"]
    assert Game.from_token(answer["token"], KEYS).header.lang == "en"
    expect(page.locator("#sms")).to_have_text("Send by text")


# -- bot seats -------------------------------------------------------------------------------

def test_against_bots_their_moves_replay_at_the_chosen_speed_and_the_turn_comes_back(
        server, phone, sms):
    from browser_support import BOT_SPEED_JS, against_bots

    token = against_bots()
    arrival = server.api(f"/api/games/{token}")[1]
    assert arrival["turn"] == 0 and {e["seat"] for e in arrival["replay"]["events"]} <= {1, 2, 3}
    page = phone(WATCH_PIECES_JS + BOT_SPEED_JS % "instant")
    open_game(page, server.game_url(token))
    expect(page.locator("#botspeed select")).to_have_value("instant")  # as this browser chose
    # Instant: the bots' moves since Ana's last turn are in the feed, and nothing slid.
    bot_lines = page.locator("#feed li.bot")
    assert bot_lines.count() >= len(arrival["replay"]["events"])
    assert page.locator("#feed li").count() == bot_lines.count()
    assert bot_lines.first.get_attribute("data-tag") == "bot"
    assert page.evaluate("() => window.__pieceMoves") == []
    assert progress_grid(page) == arrival["pieces"]
    # The Players list marks the bots; only Ana has a phone number to give.
    expect(page.locator("#seats fieldset[data-bot]")).to_have_count(3)
    expect(page.locator("#seats input[name=phone]")).to_have_count(1)
    expect(page.locator("#seats fieldset[data-seat='2'] legend")).to_contain_text("Bot (medium)")

    play_out_turn(page)
    expect(page.locator("#send")).to_have_text("End turn")
    # (After why, when the last roll left no move: "No move: a piece comes out on a 6.")
    assert re.fullmatch(r"(No move: [^.]+\. )?Ana, your turn is done: the bots play next\.",
                        no_error(page))
    answer = send_turn(page, sms)
    events = answer["replay"]["events"]
    assert answer["turn"] == 0 and {e["seat"] for e in events} <= {1, 2, 3}
    assert any(e["kind"] == "move" for e in events)
    assert page.evaluate("() => window.__pieceMoves") == []  # instant: no animation
    assert progress_grid(page) == answer["pieces"]
    for event in events:
        if event["kind"] == "move":
            expect(page.locator("#feed li.bot", has_text=event["said"]).first).to_be_visible()
    # Nobody to send it to: Ana plays on.
    expect(page.locator("#sendmsg")).to_have_text("The bots have played. Ana, your turn again.")
    expect(page.locator("#next")).to_have_text("Continue")
    expect(page.locator("#sms")).to_be_hidden()
    shot(page, "bots-instant")

    # Normal speed: the bots' pieces slide again (and Ana's own moves never do).
    page.locator("#botspeed select").select_option("normal")
    assert page.evaluate("() => localStorage.getItem('boardpass:botspeed')") == "normal"
    page.locator("#next").click()
    page.wait_for_url(answer["url"])
    expect(page.locator("#roll")).to_be_visible()
    assert no_error(page) == "Ana, your turn: roll the die."
    assert page.locator("#feed li.bot").count() > len(events)  # the feed goes on
    page.evaluate("() => { window.__pieceMoves = []; }")
    play_out_turn(page)
    again = send_turn(page, sms)
    moved = {(e["seat"], e["piece"]) for e in again["replay"]["events"] if e["kind"] == "move"}
    slid = page.evaluate("() => window.__pieceMoves")
    assert moved and {(m["seat"], m["piece"]) for m in slid} == moved
    assert progress_grid(page) == again["pieces"]
    shot(page, "bots-normal")

    # The choice is kept in this browser.
    page.reload()
    expect(page.locator("#roll")).to_be_visible(timeout=30_000)
    expect(page.locator("#botspeed select")).to_have_value("normal")


def test_two_people_and_a_bot_from_the_form_the_next_person_sees_the_bot_s_moves(
        server, phone, sms):
    creator = phone()
    creator.goto(server.url + "/")
    form = creator.locator("#newgame")
    form.locator("input[name=game][value=ludo]").check()
    form.locator("input[name=lu_lang][value=en]").check()
    form.locator("input[name=lu_name0]").fill("Ana")
    form.locator("input[name=lu_name2]").fill("Cleo")
    form.locator("input[name=lu_play1]").check()
    expect(form.locator("input[name=lu_phone1]")).to_be_visible()
    form.locator("select[name=lu_bot1]").select_option("hard")
    expect(form.locator("input[name=lu_phone1]")).to_be_hidden()  # bots have no phone
    expect(form.locator("input[name=lu_host][value='1']")).to_be_hidden()  # nor host a table
    assert form.locator("input[name=lu_name1]").get_attribute("placeholder") == "Bot (hard)"
    form.locator("input[name=autoplay][type=checkbox]").uncheck()  # rolls by hand
    form.locator("button[type=submit]").click()
    expect(creator.locator("#sendbox")).to_be_visible()
    link = creator.locator("#nextlink").input_value()
    view = server.api(f"/api/games/{token_of(link)}")[1]
    assert [(s["name"], s["strength"]) for s in view["seats"]] == [
        ("Ana", None), ("Bot (hard)", "hard"), ("Cleo", None)]
    assert view["seats"][view["turn"]]["bot"] == 0

    # Turns go round until Ana sends one: the bot plays after her, then it's Cleo's.
    for _ in range(10):  # Ana's turn comes within a round, more if a re-roll was let go
        page = open_game(phone(), link)
        mover = server.api(f"/api/games/{token_of(link)}")[1]["turn"]
        play_out_turn(page)
        if mover == 0:  # (after why, when her last roll left no move)
            assert re.fullmatch(r"(No move: [^.]+\. )?Ana, your turn is done: the bots play "
                                r"next\.", no_error(page))
        answer = send_turn(page, sms)
        link = answer["url"]
        if mover == 0:
            break
    else:
        raise AssertionError("Ana never got the turn")
    assert answer["turn"] == 2 and answer["message"]["to"] == "Cleo"
    assert answer["message"]["text"].startswith("Ana moved")
    assert {e["seat"] for e in answer["replay"]["events"]} == {1}
    expect(page.locator("#feed li.bot", has_text="Bot (hard) rolled").first).to_be_visible()
    expect(page.locator("#sms")).to_have_text("Send by text")
    expect(page.locator("#next")).to_be_hidden()

    cleo = open_game(phone(), link)
    expect(cleo.locator("#feed li.bot", has_text="Bot (hard) rolled").first).to_be_visible()
    expect(cleo.locator("#feed li:not(.bot)", has_text="Ana rolled").first).to_be_visible()
    assert no_error(cleo) == "Cleo, your turn: roll the die."
    expect(cleo.locator("#seats fieldset[data-bot='3']")).to_have_count(1)
    shot(cleo, "bots-next-person")


def test_when_ana_finishes_the_bots_play_the_game_out_and_the_results_say_so(server, phone, sms):
    from browser_support import bots_end_it

    token, final = bots_end_it()
    page = open_game(phone(), server.game_url(token))
    expect(page.locator("#results")).to_be_hidden()
    arrived = page.locator("#feed li.bot").count()  # the bots' turns since Ana's last one
    play_out_turn(page)
    answer = send_turn(page, sms)
    assert answer["phase"] == "over" and answer["simulated"] is True
    assert len(answer["replay"]["events"]) > 5
    assert answer["token"] == final.token()
    results = page.locator("#results")
    expect(results).to_be_visible()
    expect(results.locator("#placings li")).to_have_count(4)
    expect(results.locator("#placings li").first).to_contain_text("Ana")
    expect(page.locator("#simulated")).to_have_text(
        "Since the humans had already finished, the ending between the bots was simulated to "
        "decide their placings.")
    # The ending isn't replayed move by move: the results come at once.
    assert page.locator("#feed li.bot").count() == arrived
    assert progress_grid(page) == answer["pieces"]
    shot(page, "bots-simulated-ending")
    # In Spanish, from the final link.
    spanish = phone()
    spanish.goto(answer["url"] + "?lang=es")
    expect(spanish.locator("#simulated")).to_have_text(
        "Como las personas ya habían terminado, se simuló el final entre los bots para definir "
        "sus puestos.")


def test_undo_never_reaches_back_past_a_re_roll(server, phone, sms):
    # A Ludo table whose first player rolls a 6: out of home, then the 6's roll again.
    seed = next(s for s in range(500) if ludo_game(s, players=2).match.roll() == (6,))
    game = ludo_game(seed, players=2)
    page = arrive(phone(), server.game_url(game.token()))
    roll(page)
    expect(page.locator("#undo")).to_be_hidden()
    tap_landing(page)  # the piece comes out: this move may still be undone...
    expect(page.locator("#undo")).to_be_visible()
    roll(page)  # ...until the roll it earned is seen: then the move stays
    expect(page.locator("#undo")).to_be_hidden()
    assert hash_steps(page)[:3] == ["roll", hash_steps(page)[1], "roll"]
    no_error(page)


def test_a_roll_seen_fixes_the_moves_before_it_on_any_phone(server, phone, sms):
    """The bonus roll shown after a choice: the link opened elsewhere, without this page's
    address, starts from the same steps and dice (the server keeps them), and its Undo can't
    take them back either."""
    token, seat, one, _ = choice_then_roll("ludo", 2, KEYS)
    page = arrive(phone(), server.game_url(token))
    roll(page)
    play_labelled(page, server.position(token, seat, ["roll"])["legal"][
        [[m["from"], m["to"]] for m in server.position(token, seat, ["roll"])["legal"]].index(
            [one[1]["from"], one[1]["to"]])]["label"])
    roll(page)  # the 6's roll again, seen
    seen, shown = hash_steps(page), dice(page)
    other = phone()
    other.goto(server.game_url(token))  # no steps in its address
    other.wait_for_function("(n) => (location.hash.match(/s=([^&]*)/) || [, ''])[1]"
                            ".split(',').length >= n", arg=len(seen))
    assert hash_steps(other)[:len(seen)] == seen and dice(other) == shown
    expect(other.locator("#undo")).to_be_hidden()
    no_error(other)


# -- turn deadlines: the time left, and "Play it for them" once it is up -----------------------

def test_a_turn_past_its_deadline_is_played_for_the_absent_player(server, phone, sms):
    import time

    game = new_game(3)
    now = int(time.time() // 60)
    waiting = link_with(game, deadline=60, since=now - 30)  # half an hour to go
    page = phone()
    page.goto(server.game_url(waiting))
    expect(page.locator("#roll")).to_be_visible()
    who = game.header.seats[game.match.turn].name
    # The hour starts when the link reaches its player (now), whatever the link says.
    expect(page.locator("#timeleft")).to_have_text(re.compile(
        rf"^{who} has (1 h|59 min) for this turn$"))
    expect(page.locator("#absent")).to_be_hidden()
    game = new_game(4)  # another game (this one's link is the newest of the first)
    who = game.header.seats[game.match.turn].name
    late = link_with(game, deadline=60, since=now - 61)
    page = phone()
    server.app.config["CLOCK"] = lambda: time.time() - 61 * 60  # it reached them 61 min ago
    try:
        page.goto(server.game_url(late))
        expect(page.locator("#absent")).to_be_visible()
    finally:
        server.app.config["CLOCK"] = time.time
    expect(page.locator("#timeleft")).to_contain_text(f"{who}'s time for this turn is up")
    with page.expect_response(lambda r: r.url.endswith("/absent")) as answer:
        page.locator("#absent").click()
    played = answer.value.json()
    assert answer.value.status == 200 and played["absent"]["name"] == who
    sms.append(played["message"]["text"])
    page.locator("#sendbox").wait_for(state="visible")
    expect(page.locator("#deadline")).to_be_hidden()
    expect(page.locator("#roll")).to_be_hidden()
    expect(page.locator("#feed li.auto", has_text=f"{who}'s turn was played for them")) \
        .to_have_count(1)
    assert page.locator("#nextlink").input_value() == played["url"]
    nxt = Game.from_token(played["token"], KEYS)
    assert nxt.header.auto == (0,) and nxt.match.turn != game.match.turn
    # The next player sees it in their replay, and has their own hour.
    watcher = phone()
    watcher.goto(played["url"])
    expect(watcher.locator("#feed li.auto", has_text=f"{who}'s turn was played for them")) \
        .to_have_count(1)
    expect(watcher.locator("#roll")).to_be_visible()
    expect(watcher.locator("#timeleft")).to_contain_text("for this turn")
    expect(watcher.locator("#absent")).to_be_hidden()
    shot(watcher, "deadline-played-for-them")


def test_a_player_away_after_two_missed_turns_says_i_m_back(server, phone, sms):
    import time

    from app import link

    seats = [link.Seat("Ana", 0), link.Seat("Ben", 1), link.Seat("Cleo", 2)]
    game = Game.new("parcheesi", seats, KEYS, seed=bytes(8), by_hand=True)
    game = Game(replace(game.header, deadline=60, since=1), game.match, KEYS)
    absent, misses = game.match.turn, 0
    while misses < 2:  # the others play their own turns: the first legal move each time
        if game.match.turn == absent:
            game.play_for_absent(now=10**9 * (misses + 1))
            misses += 1
        else:
            mover = game.match.turn
            while game.match.turn == mover and not game.over:
                game.step(0)
    who = seats[absent].name
    page = phone()
    page.goto(server.game_url(link_with(game, since=int(time.time() // 60))))
    expect(page.locator("#roll")).to_be_visible()
    expect(page.locator("#away")).to_contain_text(
        f"{who} missed two turns in a row: their turns are played for them.")
    with page.expect_response(lambda r: r.url.endswith("/back")) as answer:
        page.get_by_role("button", name=f"I'm {who}: I'm back").click()
    back = answer.value.json()
    assert answer.value.status == 200, back
    expect(page.locator("#away")).to_be_hidden()
    expect(page.locator("#status")).to_have_text(f"{who} is back and plays their own turns again.")
    # No new link to send: the one in play, wherever it is opened, has them back.
    expect(page.locator("#roll")).to_be_visible()
    expect(page.locator("#sendbox")).to_be_hidden()
    assert back["token"] == token_of(page.url)
    status, read = server.api(f"/api/games/{back['token']}")
    assert status == 200 and not read["seats"][absent]["away"]
    shot(page, "away-i-m-back")


def test_the_turn_deadline_is_not_offered_for_one_device(server, phone):
    page = phone()
    page.goto(server.url + "/")
    choice = page.locator("select[name=deadline]")
    expect(choice).to_be_visible()
    assert choice.input_value() == "0"  # off by default
    page.locator("input[name=local]").check()
    expect(choice).to_be_hidden()
    page.locator("input[name=local]").uncheck()
    expect(choice).to_be_visible()


def link_with(game: Game, **table) -> str:
    """The link of ``game`` with its header changed (a deadline, when its turn began)."""
    from app import link

    return link.encode(replace(game.header, **table), game.match.steps, KEYS)


# -- chance to win, move review, the finished game's review and stats -------------------------

GRADED = re.compile(r"^(good|misstep|blunder)$")


def chance_pills(page, seats: int) -> dict[int, int]:
    """The chance-to-win pills once computed: each seat's percentage."""
    expect(page.locator("#board g.chance:not(.pending)")).to_have_count(seats)
    shown = page.eval_on_selector_all("#board g.chance", "(gs) => gs.map((g) => [+g.dataset.seat, "
                                      "g.textContent])")
    return {seat: int(text.rstrip("%")) for seat, text in shown}


def test_pills_on_a_server_whose_analysis_is_full_wait_without_an_error(server, fresh_store,
                                                                        phone):
    """Every analysis place taken: the page is told 202 "being worked out", keeps its pills
    pending, asks again after Retry-After, and shows them once answered; no error anywhere
    (the phone's monitor fails the test on any console error or failed request)."""
    from app import review

    token, steps, seat, moves = find_decision(lambda moves: len(moves) > 1)
    pool = review.analysts(server.app.config)
    held = 0
    while pool._admitted.acquire(blocking=False):  # every place: requests are being worked on
        held += 1
    page = phone()
    try:
        with page.expect_response(lambda answer: "/chances" in answer.url and
                                  answer.status == 202):
            open_game(page, server.game_url(token))
        expect(page.locator("#board g.chance.pending").first).to_be_visible()
    finally:
        for _ in range(held):
            pool._admitted.release()
    assert len(chance_pills(page, 2)) == 2  # asked again, answered


def test_chance_to_win_pills_by_each_base_on_arrival_and_after_each_move(server, phone):
    token, steps, seat, moves = find_decision(lambda moves: len(moves) > 1)
    # Arrival: the replay of the turns since, then each seat's chance at the link's position.
    page = phone()
    open_game(page, server.game_url(token))
    arrival = server.api(f"/api/games/{token}")[1]
    pills = chance_pills(page, 2)
    assert 98 <= sum(pills.values()) <= 102  # each rounded to a whole percent
    answer = server.api(f"/api/games/{token}/chances?step={arrival['steps']}")[1]
    assert pills == {s: round(c * 100) for s, c in enumerate(answer["chances"])}
    # Each pill sits amid its own nest's four spots (Parcheesi's square nests leave room), under
    # its player's name.
    layout = server.api("/api/boards/parcheesi")[1]
    for s, view_seat in enumerate(arrival["seats"]):
        base = next(c["base"] for c in layout["colors"] if c["name"] == view_seat["color"])
        middle = (sum(p[0] for p in base) / 4, sum(p[1] for p in base) / 4)
        box = page.locator(f"#board g.chance[data-seat='{s}'] rect")
        x = float(box.get_attribute("x")) + float(box.get_attribute("width")) / 2
        y = float(box.get_attribute("y")) + float(box.get_attribute("height")) / 2
        name = page.locator(f"#board g.nestname[data-seat='{s}'] text")
        assert name.text_content() == view_seat["name"]
        name_y = float(name.get_attribute("y"))
        assert round(x, 3) == middle[0] and name_y < middle[1] < y
        assert round(y - name_y, 3) == 0.85  # one under the other
    shot(page, "chances-arrival")

    # Mid-turn (as after a reload), then after a move: the chances after the turn's steps so far.
    page = phone()
    page.goto(server.game_url(token) + steps_hash(steps))
    expect(page.locator("#board circle.landing").first).to_be_visible()
    chance_pills(page, 2)
    with page.expect_response(lambda r: "/chances?steps=" in r.url) as asked:
        tap_landing(page)
    after = asked.value.json()
    assert after["step"] == arrival["steps"] + len(hash_steps(page))
    assert chance_pills(page, 2) == {s: round(c * 100) for s, c in enumerate(after["chances"])}
    assert 98 <= sum(chance_pills(page, 2).values()) <= 102
    no_error(page)
    shot(page, "chances-after-a-move")


def test_a_person_s_choice_gets_a_grade_in_the_feed_for_them_and_the_next_player(
        server, phone, sms):
    token, steps, seat, moves = find_decision(lambda moves: len(moves) > 1)
    start = server.api(f"/api/games/{token}")[1]["steps"]
    name = ["Ana", "Ben"][seat]
    page = phone()
    page.goto(server.game_url(token) + steps_hash(steps))
    expect(page.locator("#board circle.landing").first).to_be_visible()
    decision = start + len(steps)  # the choice among these moves, in the game's steps
    tap_landing(page)
    play_out_turn(page)
    answer = send_turn(page, sms)
    assert [decision, seat] in answer["decisions"]
    status_code, review = server.api(REVIEWS.format(token=answer["token"], step=decision))
    assert status_code == 200 and review["seat"] == seat
    label = review["options"][review["played"]]["label"]
    said = review["options"][review["played"]]["said"]
    grade = review["options"][review["played"]]["grade"]
    # The sent turn's moves join the feed, told as what happened; the choice gets its grade.
    line = page.locator(f"#feed li[data-step='{decision}']")
    expect(line).to_have_attribute("data-grade", grade)
    assert said.startswith(f"{name} moved a pawn from ") or said.startswith(f"{name} entered")
    expect(line).to_have_text(said)
    expect(line).to_have_attribute("data-grade-label", grade.capitalize())
    kept = page.evaluate("(key) => JSON.parse(localStorage.getItem(key))",
                         f"boardpass:review:{answer['seed']}:2:{decision}")
    assert kept["grade"] == grade and kept["label"] == label and kept["said"] == said
    shot(page, "review-own-move")

    # The next player watches the turn: the same move, graded in their replay.
    watcher = open_game(phone(), answer["url"])
    line = watcher.locator(f"#feed li[data-step='{decision}']")
    expect(line).to_have_attribute("data-grade", GRADED)
    expect(line).to_have_text(said)
    assert line.get_attribute("data-grade") == grade
    # Only a person's choices are graded: rolls and forced moves aren't.
    graded = watcher.eval_on_selector_all("#feed li[data-step]", "(ls) => ls.map((l) => "
                                          "+l.dataset.step)")
    assert set(graded) <= {step for step, _ in answer["decisions"]}
    shot(watcher, "review-in-the-replay")


PROGRESS_JS = """
window.__progress = [];
new MutationObserver(() => {
  const line = document.getElementById('reviewprogress');
  if (line && !line.hidden) window.__progress.push(line.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""


def test_a_finished_game_reviews_every_move_with_stats_gold_leaders_and_all_time_wins(
        server, phone):
    game = finished_with_a_bot()
    token, names = game.token(), ["Ana", "Ben", "Bot"]
    view = server.api(f"/api/games/{token}")[1]
    decisions, winner = view["decisions"], view["winner"]
    assert {seat for _, seat in decisions} == {0, 1}  # the bot's moves aren't graded
    reviews = {}
    for step, _ in decisions:
        status_code, review = server.api(REVIEWS.format(token=token, step=step))
        assert status_code == 200
        reviews[step] = review["options"][review["played"]] | {
            "best": review["options"][review["best"]]["label"]}

    page = phone(PROGRESS_JS)
    page.goto(server.game_url(token))
    box = page.locator("#gamereview")
    expect(box).to_be_visible()
    # Every review is kept on the server by now (asked above, as the turns' own pages or the
    # server's work ahead would have): the whole review is on screen within the 10 s aim.
    expect(page.locator("#reviewprogress")).to_be_hidden()
    expect(box.locator("#stats tbody tr td").last).not_to_have_text("…")
    progress = page.evaluate("() => window.__progress")
    assert any(re.fullmatch(rf"Reviewing the game: \d+ of {len(decisions)} moves", p)
               for p in progress), progress

    # Every misstep and blunder, in order: who, the move, its grade and cost, the better play
    # and what it missed.
    wrong = [(step, seat) for step, seat in decisions if reviews[step]["grade"] != "good"]
    items = box.locator("#mistakes li")
    expect(items).to_have_count(len(wrong))
    for item, (step, seat) in zip(items.all(), wrong):
        r = reviews[step]
        text = item.text_content().strip()
        assert text.startswith(f"{names[seat]}: {r['label']} {r['grade'].capitalize()} "
                               f"{r['loss']:.1f} points lost"), text
        assert f"Better: {r['best']}" in text
        for reason in r["reasons"]:
            assert reason in text
    expect(box.locator("#nomistakes")).to_be_visible() if not wrong else None

    # The stats: the people's from their graded moves, the bot's "—"; gold leads each column.
    # Accuracy, points lost per move, Missteps, Blunders, captures missed, luck.
    rows = [[cell.strip() for cell in row.locator("td").all_text_contents()]
            for row in box.locator("#stats tbody tr").all()]
    luck = server.api(f"/api/games/{token}/luck")[1]
    per_roll = [round(points / rolls, 1) for points, rolls in zip(luck["luck"], luck["rolls"])]
    assert rows[2][:5] == ["—"] * 5  # the bot's moves aren't graded; its dice have luck
    # In points a roll (the graph's scale), with the unit; luckier than average with a plus sign.
    assert all(re.fullmatch(r"[+−]?\d+\.\d points a roll", row[5]) for row in rows), rows
    assert [float(row[5][:-14].replace("−", "-").lstrip("+")) for row in rows] == per_roll
    for seat in (0, 1):
        mine = [reviews[step] for step, s in decisions if s == seat]
        good = sum(r["grade"] == "good" for r in mine)
        assert rows[seat][0] == f"{round(100 * good / len(mine))}%"
        assert re.fullmatch(r"\d+\.\d points", rows[seat][1]), rows[seat]
        per_move = sum(r["loss"] for r in mine) / len(mine)
        assert abs(float(rows[seat][1][:-7]) - per_move) <= 0.05 + 1e-9, (rows[seat], per_move)
        assert rows[seat][2:5] == [
            str(sum(r["grade"] == "misstep" for r in mine)),
            str(sum(r["grade"] == "blunder" for r in mine)),
            str(sum("capture" in r["missed"] for r in mine))]
    leads = box.locator("#stats td.lead")
    assert leads.count() >= 1
    best = [max, min, min, min, min, max]
    # Among the figures a column has: the people's, and the bot's luck.
    numbers = [{i: float(re.sub(r"[%+]| points( a roll)?", "", row[c]).replace("−", "-"))
                for i, row in enumerate(rows) if row[c] != "—"} for c in range(6)]
    for row_index, row in enumerate(box.locator("#stats tbody tr").all()):
        for c, cell in enumerate(row.locator("td").all()):
            is_lead = "lead" in (cell.get_attribute("class") or "")
            column = numbers[c]
            differ = len(set(column.values())) > 1
            assert is_lead == (row_index in column and differ and
                               column[row_index] == best[c](column.values())), (row_index, c)
    shot(page, "review-finished-game")

    # On a phone each player's stats are a card: every figure named, nothing cut off.
    page.set_viewport_size({"width": 360, "height": 780})
    card = box.locator("#stats tbody tr").first
    labels = [card.locator("td").nth(c).evaluate(
        "(td) => getComputedStyle(td, '::before').content") for c in range(6)]
    assert labels == ['"Accuracy"', '"Lost per move"', '"Missteps"', '"Blunders"',
                      '"Captures missed"', '"Luck"']
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    for cell in card.locator("td, th").all():
        box_ = cell.bounding_box()
        assert box_["x"] >= 0 and box_["x"] + box_["width"] <= 360, cell.text_content()
    expect(box.locator(".statkeys dt")).to_have_count(5)
    shot(page, "review-finished-game-phone")

    # All-time wins in this browser: this game counted once, on the winner screen and at home.
    expected = sorted([[n, "1" if i == winner else "0", "1"] for i, n in enumerate(names)],
                      key=lambda r: (-int(r[1]), r[0]))
    def all_time(where):
        return [[cell.strip() for cell in row.locator("th, td").all_text_contents()]
                for row in where.locator("#alltime tbody tr").all()]
    assert all_time(box) == expected
    page.reload()
    expect(page.locator("#reviewprogress")).to_be_hidden(timeout=30_000)
    expect(box.locator("#stats td.lead").first).to_be_visible()
    assert all_time(box) == expected  # the same game isn't counted twice
    page.goto(server.url + "/")
    expect(page.locator("#alltimebox")).to_be_visible()
    assert all_time(page) == expected
    shot(page, "all-time-home")


def tap_point(page, k: int, points: int) -> None:
    """Tap the graph where its point ``k`` of ``points`` is drawn (on the first line)."""
    box = page.locator("#course").bounding_box()
    unit = box["width"] / 320  # course.js's viewBox
    drawn = page.locator("#course polyline.line").first.get_attribute("points").split()
    assert len(drawn) == points
    x = float(drawn[k].split(",")[0])
    page.touchscreen.tap(box["x"] + unit * x, box["y"] + box["height"] / 2)


def test_the_review_s_graph_draws_each_player_s_chance_and_a_tap_opens_that_turn_s_review(
        server, phone):
    token, decisions, reviews, course = reviewed_game(server)
    names, colors = ["Ana", "Ben", "Bot"], ["red", "blue", "green"]
    page = phone(width=360)
    page.goto(server.game_url(token))
    graph = page.locator("#course")
    # The whole review in (every review kept on the server by now, as in the test above).
    expect(page.locator("#stats td", has_text="…")).to_have_count(0)
    expect(page.locator("#reviewprogress")).to_be_hidden()
    # One line per player, in their color, through every turn's start and the end.
    lines = graph.locator("polyline.line")
    expect(lines).to_have_count(3)
    fill = {"red": "rgb(211, 58, 44)", "blue": "rgb(42, 111, 219)", "green": "rgb(42, 157, 75)"}
    for seat, line in enumerate(lines.all()):
        assert line.get_attribute("data-seat") == str(seat)
        assert colors[seat] in line.get_attribute("class").split()
        assert line.evaluate("(l) => getComputedStyle(l).stroke") == fill[colors[seat]]
        assert len(line.get_attribute("points").split()) == len(course)
    assert len(course) == len(server.api(f"/api/games/{token}")[1]["turns"])
    assert course[-1][2][server.api(f"/api/games/{token}")[1]["winner"]] == 100
    # Each Misstep and Blunder marked on its player's line, after its turn.
    wrong = [(step, seat) for step, seat in decisions if reviews[step]["grade"] in
             ("misstep", "blunder")]
    assert wrong
    marks = graph.locator(".mark")
    expect(marks).to_have_count(len(wrong))
    drawn = sorted((int(m.get_attribute("data-point")), m.get_attribute("class"),
                    f"{m.get_attribute('cx')},{m.get_attribute('cy')}") for m in marks.all())
    on_lines = [line.get_attribute("points").split() for line in lines.all()]
    assert drawn == sorted((point_after(course, step), f"mark {reviews[step]['grade']}",
                            on_lines[seat][point_after(course, step)]) for step, seat in wrong)
    # Nothing wider than the phone; the graph right under the heading (no empty line between).
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    heading = page.locator("#gamereview-title").bounding_box()
    figure = page.locator("#gamereview figure").bounding_box()
    assert figure["y"] - (heading["y"] + heading["height"]) < 12, (heading, figure)
    assert graph.bounding_box()["width"] >= 300

    # A tap on a point: that turn's review (who played, everyone's chance after it, each of
    # the choices made in it with its grade, and for a Misstep or a Blunder the better move).
    step, seat = wrong[0] if wrong else decisions[0]
    k = point_after(course, step)
    tap_point(page, k, len(course))
    panel = page.locator("#turnreview")
    expect(panel).to_have_attribute("data-point", str(k))
    assert graph.get_attribute("aria-valuenow") == str(k)
    text = panel.text_content()
    assert f"Turn {k} of {len(course) - 1}" in text and names[seat] in text
    r = reviews[step]
    assert r["label"] in text and r["grade"].capitalize() in text
    if r["grade"] != "good":
        assert f"{r['loss']:.1f} points lost" in text and f"Better: {r['best']}" in text
    for name, chance in zip(names, course[k][2]):
        assert f"{name} {chance}%" in text
    expect(panel.locator(f"li[data-step='{step}']")).to_be_visible()
    expect(graph.locator(".cursor circle")).to_have_count(3)
    shot(page, "review-graph-phone")
    # The arrow keys move along the turns: the graph is a slider.
    graph.focus()
    page.keyboard.press("ArrowRight")
    expect(panel).to_have_attribute("data-point", str(min(k + 1, len(course) - 1)))
    page.keyboard.press("Home")
    expect(panel).to_have_attribute("data-point", "1")
    assert graph.get_attribute("aria-valuetext").startswith(f"Turn 1 of {len(course) - 1}: Ana ")


def test_the_review_s_numbers_are_written_as_spanish_writes_them(server, phone):
    token, decisions, reviews, course = reviewed_game(server)
    page = phone(width=360)
    page.goto(server.game_url(token) + "?lang=es")
    box = page.locator("#gamereview")
    expect(box.locator("#stats td", has_text="…")).to_have_count(0)
    rows = [[cell.strip() for cell in row.locator("td").all_text_contents()]
            for row in box.locator("#stats tbody tr").all()]
    # Spanish: a decimal comma, "puntos", and "8%" as on the pills (docs/spanish.md).
    for row in rows[:2]:
        assert re.fullmatch(r"\d+%", row[0]), row
        assert re.fullmatch(r"\d+,\d puntos", row[1]), row
    assert all(re.fullmatch(r"[+−]?\d+,\d puntos por tirada", row[5]) for row in rows), rows
    labels = box.locator("#stats thead th").all_text_contents()
    assert labels == ["Jugador", "Precisión", "Pérdida por jugada", "Imprecisiones",
                      "Errores graves", "Fichas sin comer", "Suerte"]
    axis = box.locator("#course .ylabel").all_text_contents()
    assert axis == ["0%", "50%", "100%"]
    step, seat = decisions[0]
    tap_point(page, point_after(course, step), len(course))
    expect(box.locator("#turnreview")).to_contain_text(f"Turno {point_after(course, step)} de ")
    wrong = [step for step, _ in decisions if reviews[step]["grade"] != "good"]
    loss = f"{reviews[wrong[0]]['loss']:.1f}".replace(".", ",")
    expect(box.locator(f"#mistakes li[data-step='{wrong[0]}']")).to_contain_text(
        f"{loss} puntos perdidos")
    shot(page, "es-review-graph-phone")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_roll_that_leaves_no_move_says_why_not_only_that_the_turn_is_done(server, phone, width):
    from app.play import demo_seats

    for number in range(100):  # a game whose first roll brings no pawn out
        game = Game.new("parcheesi", demo_seats("parcheesi", 2), KEYS,
                        seed=number.to_bytes(8, "big"), by_hand=True)
        ahead = Game.from_token(game.token(), KEYS)
        ahead.step()
        if ahead.match.phase != "move":
            break
    page = phone(width=width)
    page.goto(server.game_url(game.token()))
    roll(page)
    expect(page.locator("#status")).to_have_text(re.compile(
        r"^No move: a pawn comes out on a 5 \(one die, or the two added up\)\. "
        r"\w+, your turn is done\. Send it to \w+\.$"))
    expect(page.locator("#send")).to_be_visible()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_page_says_whose_link_it_is_and_colors_every_line_of_the_feed(server, phone, width):
    game = new_game(find_seed(lambda g: len(play_first_turn(g)) >= 3))
    play_first_turn(game)
    you = game.header.seats[game.match.turn]
    color = game.rules.board.color_names[you.color]
    page = phone(width=width)
    page = open_game(page, server.game_url(game.token()))
    expect(page.locator("#you")).to_have_text(f"You: {color.capitalize()} ({you.name})")
    expect(page.locator(f"#you .swatch.{color}")).to_be_visible()
    # Every name by its nest, the one to move lit, and nothing wider than the phone.
    names = page.eval_on_selector_all("#board g.nestname", "(gs) => gs.map((g) => g.textContent)")
    assert names == [seat.name for seat in game.header.seats]
    assert page.locator("#board g.nestname.tomove").get_attribute("data-seat") == \
        str(game.match.turn)
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    # Every line of what the other player did carries their color.
    other = game.rules.board.color_names[game.header.seats[game.match.history[0][1]].color]
    lines = page.locator("#feed li")
    assert lines.count() >= 3
    for line in lines.all():
        assert line.get_attribute("data-color") == other, line.text_content()
    swatch = lines.first.evaluate("(li) => getComputedStyle(li).borderLeftColor")
    fill = {"red": "rgb(211, 58, 44)", "blue": "rgb(42, 111, 219)",
            "green": "rgb(42, 157, 75)", "yellow": "rgb(232, 180, 0)"}[other]
    assert swatch == fill
    # Spanish: "Jugás con" (not "Vos:").
    page.goto(server.game_url(game.token()) + "?lang=es")
    expect(page.locator("#you")).to_contain_text("Jugás con ")
