"""Live rooms in a real browser: three phones (headless Chromium, 390 px wide, each its own
browser profile) in one room against a live server.

What a player would notice: the room made from the New game form, a code typed on the home page
(in lower case), a room opened by its link, seats taken by name, every roll and move played on one
phone showing on the others (timed: a move must show on another phone within 2 s; the median
and max are printed in the summary and written to test-artifacts/room-latency.txt), a step sent
from an older look at the room refused (409) and the page catching up by itself, a bot's turns
replayed on the phones, a link game turned into a room, a phone without a seat watching, and a
poll answer overtaken by the phone's own steps left undrawn.

Every page is watched (browser_support.Monitor): an uncaught exception, a console error or a
failed request fails the test (favicon.ico aside, and the 409s a test provokes on purpose).
"""

from __future__ import annotations

import os
import random
import re
import statistics
import time
import urllib.parse

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402
from app.web.room_api import RESOLVE_GRACE_SECONDS  # noqa: E402

from browser_support import (  # noqa: E402
    ARTIFACTS, CHROMIUM, PHONE, WATCH_PIECES_JS, Monitor, dice, enter_then_move,
    find_seed, ludo_last_turn, new_game, progress_grid, shot)


pytestmark = [pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
              pytest.mark.usefixtures("fresh_store")]  # each test its own store

LIMIT = 2.0  # s: the most a roll or move may take to show on another phone
CODE = re.compile(r"/r/([2-9A-HJKMNP-Z]{6})$")

# Every phone keeps, in the page, when each feed line appeared, when each replay ended (the
# Skip replay button hides again: the pieces are where the move took them) and when it was
# clicked, by the machine's clock (Date.now(), the same clock as Python's time.time()).
TIMING_JS = """
window.__room = {feed: [], replayed: [], clicks: []};
document.addEventListener('click', () => window.__room.clicks.push(Date.now()), true);
new MutationObserver((records) => {
  const now = Date.now();
  for (const r of records) {
    if (r.type === 'childList' && r.target.id === 'feed') {
      for (const n of r.addedNodes) window.__room.feed.push({t: now, text: n.textContent});
    } else if (r.type === 'attributes' && r.target.id === 'skip' && r.target.hidden) {
      window.__room.replayed.push(now);
    }
  }
}).observe(document, {subtree: true, childList: true, attributes: true,
                      attributeFilter: ['hidden']});
"""
INSTANT_BOTS_JS = "localStorage.setItem('boardpass:botspeed', 'instant');"
FEED_JS = "() => [...document.querySelectorAll('#feed li')].map((li) => li.textContent)"
# The page has drawn this feed (newest first, joined by newlines) and no replay is running.
SHOWS_FEED_JS = """(want) => !document.getElementById('skip').hidden ? false :
  [...document.querySelectorAll('#feed li')].map((li) => li.textContent).join('\\n') === want"""


class RoomMonitor(Monitor):
    """browser_support's Monitor, knowing one more thing that is no failure: Chromium reports a
    poll answered 304 Not Modified as aborted (net::ERR_ABORTED), though the page's fetch gets
    its 304, and leaving a page (a test's goto, the end of the test) cuts a poll off."""

    def _failed(self, request):
        path = urllib.parse.urlsplit(request.url).path
        if request.failure == "net::ERR_ABORTED" and request.method == "GET" and \
                re.fullmatch(r"/api/rooms/[^/]+", path):
            return
        super()._failed(request)


# -- fixtures ------------------------------------------------------------------------------------

class LatencySummary:
    """The time each roll or move took to show on the other phones, reported at the end."""

    def __init__(self):
        self.shown: list[float] = []     # s from the click to the feed line on another phone
        self.replayed: list[float] = []  # s from the click to the end of its replay there

    def lines(self) -> list[str]:
        def stats(values):
            return (f"median {statistics.median(values) * 1000:.0f} ms, "
                    f"max {max(values) * 1000:.0f} ms (n={len(values)})")
        if not self.shown:
            return []
        return [f"a roll or move on one phone shows on another (feed line, dice): "
                f"{stats(self.shown)}",
                f"... and its replay there is over (the piece in place): {stats(self.replayed)}"]

    def pytest_terminal_summary(self, terminalreporter):
        if self.shown:
            terminalreporter.write_sep("-", "room browser test: time for a move to show")
            for line in self.lines():
                terminalreporter.write_line(line)


@pytest.fixture(scope="module")
def latency(request):
    summary = LatencySummary()
    request.config.pluginmanager.register(summary, "room-latency-summary")
    yield summary
    if summary.shown:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "room-latency.txt").write_text(
            "".join(line + "\n" for line in summary.lines())
            + "shown (ms): " + " ".join(f"{s * 1000:.0f}" for s in summary.shown) + "\n"
            + "replayed (ms): " + " ".join(f"{s * 1000:.0f}" for s in summary.replayed) + "\n",
            encoding="utf-8")


@pytest.fixture
def phone(browser):
    """``phone()``: a new watched page in its own browser profile, like another person's phone.
    Each page's errors are checked at the end of the test."""
    opened = []

    def open_phone(instant_bots: bool = False, width: int = PHONE["width"]):
        context = browser.new_context(viewport=dict(PHONE, width=width), device_scale_factor=1,
                                      is_mobile=True, has_touch=True)
        context.set_default_timeout(30_000)
        context.add_init_script(TIMING_JS)
        if instant_bots:
            context.add_init_script(INSTANT_BOTS_JS)
        page = context.new_page()
        page.monitor = RoomMonitor()
        page.monitor.attach(page)
        opened.append((context, page.monitor))
        return page

    yield open_phone
    for context, _ in opened:
        context.close()
    for _, monitor in opened:
        monitor.check()


# -- the room, from the server and on a page -----------------------------------------------------

def room_code(page) -> str:
    match = CODE.search(urllib.parse.urlsplit(page.url).path)
    assert match, page.url
    return match.group(1)


def state(server, code: str) -> dict:
    status, view = server.api(f"/api/rooms/{code}")
    assert status == 200, view
    return view


def post(server, path: str, body: dict, expected: int = 200) -> dict:
    status, answer = server.api(path, body)
    assert status == expected, answer
    return answer


def feed(page) -> list[str]:
    return page.evaluate(FEED_JS)


def people(page) -> dict[str, list[str]]:
    """The In the room list: each seat's name and its tags (you, host, bot, free seat...)."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#people li')]
      .map((li) => [li.childNodes[2].textContent.trim(),
                    [...li.querySelectorAll('.tag')].map((t) => t.textContent)]))""")


def tags(view: dict, me: str | None = None) -> dict[str, list[str]]:
    """The In the room list the server's ``view`` makes, on the phone of ``me`` (whose own
    seat to move reads "your turn")."""
    room = view["room"]
    moving = view["phase"] != "over" and room["started"]
    return {s["name"]: [tag for tag, on in (
        ("you", s["name"] == me), ("host", s["seat"] == room["host"]), ("bot", bool(s["bot"])),
        ("free seat", s["seat"] in room["free"]),
        ("your turn" if s["name"] == me else "to move", moving and s["seat"] == view["turn"]))
        if on]
        for s in view["seats"]}


def expect_people(page, want: dict[str, list[str]]):
    """Wait until the page lists these seats with these tags (polls bring others' changes)."""
    deadline = time.monotonic() + 30
    while people(page) != want:
        if time.monotonic() > deadline:
            assert people(page) == want
        page.wait_for_timeout(50)


def take_seat(page, name: str, color: str | None = None, shown: str | None = None):
    """Sit down on a free seat (``color``, else the first offered) as ``name``; the list then
    shows this phone on it as ``shown`` (by default the name)."""
    form = page.locator("#join")
    expect(form).to_be_visible()
    expect(page.locator("#watching")).to_have_text("You are watching: take a free seat to play.")
    form.locator("input[name=name]").fill(name)
    if color:
        page.locator("#joincolor").select_option(color)
    form.locator("button[type=submit]").click()
    expect(form).to_be_hidden()
    expect(page.locator("#watching")).to_be_hidden()
    assert "you" in people(page)[shown or name]


def agrees_with(page, view: dict, seated: bool = True):
    """The page shows the room as the server has it: the pieces, the dice, whose turn it is, and
    the Roll button on the phone to move only."""
    assert progress_grid(page) == view["pieces"]
    assert dice(page) == (view["last_roll"] or [])
    mover = view["seats"][view["turn"]]["name"]
    tagged = [name for name, tags in people(page).items()
              if "to move" in tags or "your turn" in tags]
    assert tagged == ([] if view["phase"] == "over" else [mover])
    mine = seated and "you" in people(page).get(mover, [])
    if mine and view["phase"] in ("roll", "claim"):
        expect(page.locator("#roll")).to_be_visible()
    else:
        expect(page.locator("#roll")).to_be_hidden()
    spots = page.locator("#board circle.landing").count()
    movable = page.locator("#board .movable").count()
    if mine and view["phase"] == "move":
        assert spots and movable
    else:  # nothing to tap on a phone whose turn it isn't
        assert spots == movable == 0


def tap_landing(page):
    """Tap the first landing spot (and the first choice, if several moves land there)."""
    page.locator("#board circle.landing").first.click()
    if page.locator("#choices").is_visible():
        page.locator("#choices button").first.click()


def act(page, view: dict):
    """The player to move does what the room waits for: roll, or tap a landing spot."""
    if view["phase"] in ("roll", "claim"):
        page.locator("#roll").click()
    else:
        tap_landing(page)


def timing(page) -> dict:
    return page.evaluate("() => window.__room")


def play_step(server, code: str, phones: dict, latency: LatencySummary | None = None,
              think: float = 0) -> dict:
    """One step played live: the phone to move rolls or taps a landing spot (after ``think``
    seconds); every phone then shows it. Returns the room as the server has it after the step."""
    before = state(server, code)
    mover = phones[before["seats"][before["turn"]]["name"]]
    others = [page for page in phones.values() if page is not mover]
    counts = {id(page): len(timing(page)["feed"]) for page in phones.values()}
    if think:
        mover.wait_for_timeout(think * 1000)
    act(mover, before)
    # The mover's page has the new lines and its replay is over: what it shows is the answer.
    mover.wait_for_function("(n) => window.__room.feed.length > n && "
                            "document.getElementById('skip').hidden", arg=counts[id(mover)])
    after = state(server, code)
    assert after["steps"] > before["steps"]
    want = feed(mover)
    clicked = timing(mover)["clicks"][-1]
    for page in others:
        page.wait_for_function(SHOWS_FEED_JS, arg="\n".join(want))
        seen = timing(page)
        new = seen["feed"][counts[id(page)]:]
        assert [line["text"] for line in reversed(new)] == want[:len(new)]
        if latency is not None:
            latency.shown.append((new[0]["t"] - clicked) / 1000)
            latency.replayed.append((seen["replayed"][-1] - clicked) / 1000)
    for page in phones.values():
        agrees_with(page, after)
    return after


def hold_polls(page, code: str) -> list:
    """Hold the page's next poll of the room (GET /api/rooms/CODE) on its way: until it is let
    go, the page learns nothing of what others do (the way a poll that hasn't come yet would).
    Returns the held requests; ``let_go(page, held)`` sends them on."""
    held = []

    def handler(route):
        request = route.request
        if request.method == "GET" and urllib.parse.urlsplit(request.url).path == \
                f"/api/rooms/{code}":
            held.append(route)
        else:
            route.fallback()

    page.route("**/api/rooms/**", handler)
    deadline = time.monotonic() + 30
    while not held:
        assert time.monotonic() < deadline, "the page stopped polling"
        page.wait_for_timeout(20)
    return held


def let_go(page, held: list):
    for route in held:
        route.continue_()
    page.unroute("**/api/rooms/**")


def ana_and_ben(server, phone, **room) -> tuple[str, dict, dict]:
    """A Parcheesi room of Ana (who made it) and Ben (joined from Python), each on a phone of
    their own that says yes to "Leave the room?": the code, the pages and the credentials."""
    made = post(server, "/api/rooms", {"game": "parcheesi", "me": 0, **room, "players": [
        {"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]}, 201)
    code = made["room"]["code"]
    joined = post(server, f"/api/rooms/{code}/join", {})
    credentials = {"Ana": made["you"]["credential"], "Ben": joined["you"]["credential"]}
    post(server, f"/api/rooms/{code}/start", {"credential": credentials["Ana"]})
    pages = {}
    for name, credential in credentials.items():
        pages[name] = phone()
        pages[name].on("dialog", lambda dialog: dialog.accept())
        pages[name].goto(f"{server.url}/r/{code}#c={urllib.parse.quote(credential)}")
    return code, pages, credentials


def ana_and_a_bot(server, phone) -> tuple[str, object]:
    """A started Parcheesi room of Ana (who made it) and an easy bot, Ana's page open on her
    phone: the code and the page."""
    made = post(server, "/api/rooms", {"game": "parcheesi", "me": 0, "players": [
        {"name": "Ana", "color": "yellow"}, {"color": "red", "bot": "easy"}]}, 201)
    code = made["room"]["code"]
    post(server, f"/api/rooms/{code}/start", {"credential": made["you"]["credential"]})
    ana = phone()
    ana.goto(f"{server.url}/r/{code}#c={urllib.parse.quote(made['you']['credential'])}")
    return code, ana


# -- 1. three phones: make, join by code and by link, play live --------------------------------

def test_three_phones_make_join_and_play_live(server, phone, latency):
    ana, ben, cleo = phone(), phone(), phone()

    # Ana makes a three-player game from the home page, live in a room.
    ana.goto(server.url + "/")
    form = ana.locator("#newgame")
    form.locator("input[name=play1]").check()  # yellow, blue and red
    form.locator("input[name=name0]").fill("Ana")
    form.locator("input[name=room]").check()
    expect(ana.locator("#deadlinechoice")).to_be_hidden()  # a room has no turn deadline
    form.locator("button[type=submit]").click()
    ana.wait_for_url(CODE)
    code = room_code(ana)
    expect(ana.locator("#roomcode")).to_have_text(code)
    assert urllib.parse.urlsplit(ana.url).fragment == ""  # the seat's credential left the address
    expect(ana.locator("#watching")).to_be_hidden()
    expect(ana.locator("#join")).to_be_hidden()
    view = state(server, code)
    assert [s["name"] for s in view["seats"]] == ["Ana", "Player 2", "Player 3"]
    assert view["room"]["free"] == [1, 2]
    expect_people(ana, tags(view, "Ana"))
    link = ana.locator("#roomlink").input_value()
    assert link == f"{server.url}/r/{code}"
    shot(ana, "room-1-made")

    # Ben types the code, in lower case, on the home page; he takes the first free seat.
    ben.goto(server.url + "/")
    ben.locator("#joincode input[name=code]").fill(code.lower())
    ben.locator("#joincode button[type=submit]").click()
    ben.wait_for_url(f"**/r/{code}")
    expect(ben.locator("#roomcode")).to_have_text(code)
    expect(ben.locator("#roll")).to_be_hidden()
    assert ben.locator("#joincolor option").all_text_contents() == ["Blue (Player 2)",
                                                                    "Red (Player 3)"]
    take_seat(ben, "Ben")

    # Cleo opens the room's link; the one free seat left is red.
    cleo.goto(link)
    expect(cleo.locator("#roomcode")).to_have_text(code)
    assert cleo.locator("#joincolor option").all_text_contents() == ["Red (Player 3)"]
    take_seat(cleo, "Cleo", "red")

    # The lobby: nothing is played until Ana, the host, taps Start.
    phones = {"Ana": ana, "Ben": ben, "Cleo": cleo}
    view = state(server, code)
    assert [s["name"] for s in view["seats"]] == ["Ana", "Ben", "Cleo"]
    assert view["room"]["free"] == [] and view["room"]["members"] == [0, 1, 2]
    assert not view["room"]["started"] and view["steps"] == 0
    for name, page in phones.items():
        expect_people(page, tags(view, name))
        expect(page.locator("#roll")).to_be_hidden()
        expect(page.locator("#start")).to_be_visible() if name == "Ana" else \
            expect(page.locator("#start")).to_be_hidden()
    expect(ben.locator("#status")).to_have_text("Waiting for Ana to start the game.")
    shot(ben, "room-1-everyone-in")
    ana.locator("#start").click()
    for name, page in phones.items():
        expect(page.locator("#feed li").first).to_have_text("The game has started")
        expect(page.locator("#start")).to_be_hidden()
    view = state(server, code)
    assert view["room"]["started"]
    for name, page in phones.items():
        agrees_with(page, view)

    # Several turns live: each roll and move shows on the other two phones. A player takes a
    # moment before each tap (up to a second, as the phones poll): played at once, every tap
    # would come at the same point of the others' polling, and the times would all be alike.
    movers, pauses = set(), random.Random(1)
    for _ in range(16):
        movers.add(view["seats"][view["turn"]]["name"])
        view = play_step(server, code, phones, latency, think=pauses.uniform(0, 1))
        if view["phase"] == "over":
            break
    assert len(movers) >= 2, "the turn never passed"
    shot(cleo, "room-1-played")
    assert len(latency.shown) >= 30
    slowest = max(latency.shown)
    print("\n" + "\n".join(latency.lines()))
    assert slowest < LIMIT, f"a move took {slowest:.2f} s to show on another phone"


# -- 2. a step sent from an older look at the room ---------------------------------------------

def test_stale_step_is_refused_and_the_page_catches_up(server, phone):
    # A link at its first turn, made a room by the player to move: a 5 and another number (enter
    # a pawn, then a move is left).
    seed = find_seed(enter_then_move)
    game = new_game(seed)
    seat = game.match.turn
    name, other = game.header.seats[seat].name, game.header.seats[1 - seat].name
    made = post(server, f"/api/games/{game.token()}/room", {"seat": seat}, 201)
    code, credential = made["room"]["code"], made["you"]["credential"]

    page = phone()
    page.monitor.allow(f"/api/rooms/{code}/steps", 409, count=2)
    page.goto(f"{server.url}/r/{code}#c={urllib.parse.quote(credential)}")
    expect(page.locator("#roll")).to_be_visible()
    assert people(page) == tags(state(server, code), name)
    assert people(page)[other] == ["free seat"]

    # Behind the phone's back someone takes the free seat: the phone's Roll goes with the
    # version it saw, and is refused with the room as it is now. The game itself is where it
    # was, so the page sends the same roll again on the new version: one tap still rolls.
    held = hold_polls(page, code)
    post(server, f"/api/rooms/{code}/join", {"name": "Dora"})
    statuses = []
    page.on("response", lambda r: statuses.append(r.status)
            if r.url.split("?")[0].endswith("/steps") else None)
    page.locator("#roll").click()
    expect(page.locator("#board circle.landing")).to_have_count(1)  # enter a pawn with the 5
    assert statuses == [409, 200]
    view = state(server, code)
    assert view["phase"] == "move" and 5 in view["last_roll"]
    assert people(page) == tags(view, name)
    assert people(page)["Dora"] == []
    expect(page.locator("#status")).to_have_text(f"{name}: tap a pawn or a landing spot.")
    agrees_with(page, view)
    let_go(page, held)

    # The same player enters the pawn from another device (the credential, from Python): the
    # landing spot still on this page is a step of an older room.
    held = hold_polls(page, code)
    entering = view["legal"][0]
    post(server, f"/api/rooms/{code}/steps", {
        "version": view["room"]["version"], "credential": credential,
        "steps": [{"from": entering["from"], "to": entering["to"],
                   "values": entering["values"]}]})
    with page.expect_response(lambda r: r.url.split("?")[0].endswith("/steps")) as answer:
        tap_landing(page)
    assert answer.value.status == 409
    # The page replays the move it missed and shows the move that is left.
    expect(page.locator("#feed li").first).to_have_text(entering["said"])
    expect(page.locator("#skip")).to_be_hidden()
    view = state(server, code)
    expect(page.locator("#status")).to_have_text(
        "The room has changed since your last look: here it is as it is now.")
    agrees_with(page, view)
    let_go(page, held)

    # The player goes on from there: the move left plays.
    count = len(feed(page))
    tap_landing(page)
    page.wait_for_function("(n) => document.querySelectorAll('#feed li').length > n && "
                           "document.getElementById('skip').hidden", arg=count)
    view = state(server, code)
    assert "error" not in (page.locator("#status").get_attribute("class") or "")
    agrees_with(page, view)
    shot(page, "room-2-caught-up")


# -- 3. a bot's seat ----------------------------------------------------------------------------

def test_bot_turns_replay_on_the_phones(server, phone):
    ana, watcher = phone(instant_bots=True), phone(instant_bots=True)
    ana.goto(server.url + "/")
    form = ana.locator("#newgame")
    form.locator("input[name=name0]").fill("Ana")
    form.locator("select[name=bot2]").select_option("easy")
    form.locator("input[name=room]").check()
    form.locator("button[type=submit]").click()
    ana.wait_for_url(CODE)
    code = room_code(ana)
    watcher.goto(f"{server.url}/r/{code}")  # in the lobby: the watcher sees the game start
    expect(watcher.locator("#watching")).to_have_text(f"Room {code} is full: you can watch.")
    ana.locator("#start").click()
    expect(ana.locator("#start")).to_be_hidden()
    view = state(server, code)
    bot = view["seats"][1]["name"]
    assert view["seats"][1]["bot"] and view["room"]["free"] == []
    expect_people(ana, tags(view, "Ana"))
    assert people(ana)[bot][:1] == ["bot"]

    # Ana plays her turn; once it is over the bot's turn comes back to both phones, tagged.
    phones = {"Ana": ana, "watcher": watcher}
    for _ in range(30):
        if ana.locator("#feed li.bot").count():
            break
        view = state(server, code)
        assert view["seats"][view["turn"]]["name"] == "Ana"
        expect(ana.locator("#skip")).to_be_hidden()  # the page is where the server is
        if view["phase"] == "roll":
            expect(ana.locator("#roll")).to_be_visible()
        count = len(feed(ana))
        act(ana, view)
        ana.wait_for_function("(n) => document.querySelectorAll('#feed li').length > n && "
                              "document.getElementById('skip').hidden", arg=count)
    else:
        raise AssertionError("the bot never played")
    view = state(server, code)
    want = feed(ana)
    watcher.wait_for_function(SHOWS_FEED_JS, arg="\n".join(want))
    for page in phones.values():
        lines = page.locator("#feed li.bot")
        assert lines.count() >= 1
        assert all(text.startswith(bot) for text in lines.all_text_contents())
        assert set(lines.evaluate_all("(items) => items.map((li) => li.dataset.tag)")) == {"bot"}
        agrees_with(page, view, seated=page is ana)
    assert any(re.fullmatch(rf"{re.escape(bot)} rolled \d-\d(: no move)?", text)
               for text in ana.locator("#feed li.bot").all_text_contents())
    if view["phase"] != "over":
        assert view["seats"][view["turn"]]["name"] == "Ana"
        expect(ana.locator("#roll")).to_be_visible()
    shot(watcher, "room-3-bot-played")


# -- 4. a link game goes on live --------------------------------------------------------------

def test_link_game_opened_as_a_room(server, phone):
    game = new_game(0)
    token, seat = game.token(), game.match.turn
    name, other = game.header.seats[seat].name, game.header.seats[1 - seat].name
    player = phone()
    player.goto(f"{server.url}/g/{token}")
    expect(player.locator("#roll")).to_be_visible()
    expect(player.locator("#toroom")).to_be_visible()
    player.locator("#toroom").click()
    player.wait_for_url(CODE)
    code = room_code(player)
    expect(player.locator("#roll")).to_be_visible()
    expect(player.locator("#watching")).to_be_hidden()
    assert people(player) == tags(state(server, code), name)
    assert people(player)[name] == ["you", "host", "your turn"]
    shot(player, "room-4-from-link")

    # Anyone opening the game's link lands in the room: here the other player, who sits down.
    friend = phone()
    friend.goto(f"{server.url}/g/{token}")
    friend.wait_for_url(f"**/r/{code}")
    take_seat(friend, "", shown=other)  # a blank name keeps the seat's name
    assert people(friend) == {name: ["host", "to move"], other: ["you"]}
    status, link = server.api(f"/api/games/{token}")
    assert status == 200 and link["room"] == code  # what sends a link's page to the room
    expect_people(player, tags(state(server, code), name))  # her phone has seen him sit down
    play_step(server, code, {name: player, other: friend})
    # The player's own old link, opened again, is the room too, with her seat.
    player.goto(f"{server.url}/g/{token}")
    player.wait_for_url(f"**/r/{code}")
    expect(player.locator("#watching")).to_be_hidden()
    assert "you" in people(player)[name]


def test_a_seat_taken_before_the_room_s_first_answer(server, phone):
    """The room page comes with its join form, usable at once: a guest sitting down before the
    page's first poll is answered (held here) is seated, the request carrying no unknown step
    (it was ``?since=&``, refused with 400, on a busy machine)."""
    made = post(server, "/api/rooms", {"game": "parcheesi", "me": 0, "players": [
        {"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]}, 201)
    code = made["room"]["code"]
    guest, held = phone(), []
    poll = re.compile(r"/api/rooms/[A-Z0-9]+\?")
    guest.route(poll, lambda route: held.append(route))
    guest.goto(f"{server.url}/r/{code}")
    form = guest.locator("#join")
    expect(form).to_be_visible()
    form.locator("input[name=name]").fill("Ben")
    with guest.expect_response(lambda r: "/join" in r.url) as joined:
        form.locator("button[type=submit]").click()
    assert joined.value.ok, joined.value.text()
    assert held, "the page's first poll was held"
    guest.unroute(poll)  # the held poll goes on
    expect(form).to_be_hidden()
    assert "you" in people(guest)["Ben"]


# -- 5. a phone without a seat watches ---------------------------------------------------------

def test_spectator_watches_a_full_room(server, phone):
    made = post(server, "/api/rooms", {"game": "parcheesi", "me": 0, "players": [
        {"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]}, 201)
    code = made["room"]["code"]
    credentials = {"Ana": made["you"]["credential"]}
    joined = post(server, f"/api/rooms/{code}/join", {})
    credentials["Ben"] = joined["you"]["credential"]
    assert joined["room"]["free"] == []
    post(server, f"/api/rooms/{code}/start", {"credential": credentials["Ana"]})

    ana = phone()  # Ana's seat comes to her phone in the address (#c=), as from the form
    ana.goto(f"{server.url}/r/{code}#c={urllib.parse.quote(credentials['Ana'])}")
    spectator = phone()
    spectator.goto(f"{server.url}/r/{code}")
    expect(spectator.locator("#watching")).to_have_text(f"Room {code} is full: you can watch.")
    expect(spectator.locator("#join")).to_be_hidden()
    view = state(server, code)
    mover = view["seats"][view["turn"]]["name"]
    assert people(spectator) == tags(view)
    expect(spectator.locator("#status")).to_have_text(f"{mover} is playing.")
    agrees_with(spectator, view, seated=False)

    # A roll, by whoever is to move (Ana on her phone, Ben from Python): the spectator sees it,
    # and still has nothing to play.
    if mover == "Ana":
        play_step(server, code, {"Ana": ana, "spectator": spectator})
    else:
        post(server, f"/api/rooms/{code}/steps", {"version": view["room"]["version"],
                                                  "credential": credentials["Ben"],
                                                  "steps": ["roll"]})
        expect(spectator.locator("#feed li").first).to_have_text(re.compile(r"Ben rolled \d-\d"))
    view = state(server, code)
    expect(spectator.locator("#skip")).to_be_hidden()
    agrees_with(spectator, view, seated=False)
    expect(spectator.locator("#roll")).to_be_hidden()
    expect(spectator.locator("#watching")).to_be_visible()
    shot(spectator, "room-5-spectator")


# -- 6. a poll overtaken by the phone's own step ----------------------------------------------

def test_a_late_poll_answer_does_not_take_the_page_back(server, phone):
    """A poll sent before two steps of this phone's, and answered after them (a slow network):
    its room is older than the one on the page, which keeps what it shows (it used to draw the
    older room, then replay the step again when the next poll came: the move twice in the
    feed)."""
    seed = find_seed(enter_then_move)
    game = new_game(seed)
    seat = game.match.turn
    name = game.header.seats[seat].name
    made = post(server, f"/api/games/{game.token()}/room", {"seat": seat}, 201)
    code, credential = made["room"]["code"], made["you"]["credential"]
    page = phone()
    page.goto(f"{server.url}/r/{code}#c={urllib.parse.quote(credential)}")
    expect(page.locator("#roll")).to_be_visible()

    held = hold_polls(page, code)  # a poll on its way, with the version before the roll
    page.locator("#roll").click()
    expect(page.locator("#board circle.landing")).to_have_count(1)
    late = held[0].fetch()  # the server reads the room after the roll...
    assert late.status == 200 and late.json()["steps"] == 1
    count = len(feed(page))
    tap_landing(page)  # ...she enters a pawn...
    page.wait_for_function("(n) => document.querySelectorAll('#feed li').length > n && "
                           "document.getElementById('skip').hidden", arg=count)
    shown = feed(page)
    assert shown[0].startswith(f"{name} ")
    held[0].fulfill(response=late)  # ...and the poll's answer, from before the move, comes last
    page.unroute("**/api/rooms/**")
    with page.expect_request(lambda request: request.method == "GET" and urllib.parse.urlsplit(
            request.url).path == f"/api/rooms/{code}") as polled:
        pass
    polled.value.response()  # the next poll has come and gone
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")
    assert feed(page) == shown
    view = state(server, code)
    assert view["steps"] == 2
    agrees_with(page, view)


def test_a_phone_s_own_move_hops_once_and_lands(server, phone):
    """In a room the move is played when tapped: the pawn hops from the tap (a copy above the
    board), and the room's answer, whose replay holds that same move, doesn't hop it again."""
    game = new_game(find_seed(enter_then_move))
    made = post(server, f"/api/games/{game.token()}/room", {"seat": game.match.turn}, 201)
    code, credential = made["room"]["code"], made["you"]["credential"]
    page = phone()
    page.add_init_script(WATCH_PIECES_JS)
    page.goto(f"{server.url}/r/{code}#c={urllib.parse.quote(credential)}")
    expect(page.locator("#roll")).to_be_visible()
    page.locator("#roll").click()
    expect(page.locator("#board circle.landing")).to_have_count(1)
    page.evaluate("() => { window.__pieceMoves = []; }")
    count = len(feed(page))
    tap_landing(page)  # a pawn enters: one hop, from the nest to its entry square
    page.wait_for_function("(n) => document.querySelectorAll('#feed li').length > n && "
                           "document.getElementById('skip').hidden", arg=count)
    expect(page.locator("#board .ghost")).to_have_count(0)
    expect(page.locator("#board .piece.aloft")).to_have_count(0)
    hops = [m for m in page.evaluate("() => window.__pieceMoves")
            if m["ghost"] and m["attr"] == "cx"]
    assert len({(m["seat"], m["piece"]) for m in hops}) == 1 and len(hops) == 1, hops
    agrees_with(page, state(server, code))


# -- 7. a turn timer runs out ----------------------------------------------------------------

def test_a_timer_runs_out_and_every_phone_sees_the_turn_played_for_the_player(server, phone):
    """Three-second timers; nobody plays. Each phone counts down on the server's clock, the
    turn is played for the player when it runs out (whichever phone asks first), every phone
    shows it, and after two in a row the player's own phone offers "I'm back". The server's
    clock is the test's: it reaches each turn's time when the test says, so a busy machine
    can't let a further turn run out while the phones are being checked. (Each phone's
    countdown is set again at each poll; on a busy machine, a poll late by three seconds
    leaves it saying the time is up, waiting for the server.)"""
    now = [time.time()]
    server.app.config["CLOCK"] = lambda: now[0]
    try:
        code, pages, _ = ana_and_ben(server, phone, timer_seconds=3)
        watcher = phone()
        watcher.goto(f"{server.url}/r/{code}")
        first = state(server, code)
        mover = first["seats"][first["turn"]]["name"]
        for page in (*pages.values(), watcher):
            expect(page.locator("#timer")).to_have_text(re.compile(rf"{mover} has [0-3] s|{mover}'s time is up"))

        for expiry in range(3):  # the first mover's, the other's, the first mover's again
            view = state(server, code)
            who = view["seats"][view["turn"]]["name"]
            assert who == (mover if expiry != 1 else "Ben" if mover == "Ana" else "Ana")
            now[0] = view["room"]["due"] + RESOLVE_GRACE_SECONDS  # up: the next poll plays it
            line = f"{who}'s turn was played for them"
            for page in (*pages.values(), watcher):
                expect(page.locator("#feed li.auto").filter(has_text=line)).to_have_count(
                    1 + (expiry == 2))

        view = state(server, code)
        assert view["seats"][first["turn"]]["away"]
        back = pages[mover].get_by_role("button", name=f"I'm {mover}: I'm back")
        expect(back).to_be_visible()
        expect(pages["Ben" if mover == "Ana" else "Ana"].locator("#away button")).to_have_count(0)
        back.click()
        expect(pages[mover].locator("#away")).to_be_hidden()
        assert not state(server, code)["seats"][first["turn"]]["away"]
        shot(pages[mover], "room-7-timer")
    finally:
        server.app.config["CLOCK"] = time.time


# -- 8. the bots' speed is the room's ------------------------------------------------------------

def test_the_bots_speed_set_on_one_phone_is_every_phones(server, phone):
    code, ana = ana_and_a_bot(server, phone)
    watcher = phone()
    watcher.goto(f"{server.url}/r/{code}")
    expect(watcher.locator("#botspeed select")).to_have_value("normal")
    expect(watcher.locator("#botspeed select")).to_be_disabled()  # a watcher has no say
    ana.locator("#botspeed select").select_option("instant")
    expect(watcher.locator("#botspeed select")).to_have_value("instant")
    assert state(server, code)["room"]["speed"] == "instant"


# -- 9. a phone goes away and comes back -----------------------------------------------------------

def test_a_phone_that_goes_away_and_comes_back_in_time_keeps_its_seat_and_turn(server, phone):
    """Short presence settings: a seat not seen for 2 s is disconnected, and its turn waits
    8 s for it (in use: 8 s and two minutes). The server's clock is the test's, moved on half
    a second at each of the other phone's polls: on a busy machine, the seconds the pages take
    to load are not the player's."""
    config = server.app.config
    saved = {k: config.get(k) for k in ("ROOM_OFFLINE_SECONDS", "ROOM_RECONNECT_SECONDS",
                                        "ROOM_SEEN_EVERY_SECONDS")}
    config.update(ROOM_OFFLINE_SECONDS=2, ROOM_RECONNECT_SECONDS=8, ROOM_SEEN_EVERY_SECONDS=0.5)
    now = [time.time()]
    config["CLOCK"] = lambda: now[0]
    try:
        code, pages, _ = ana_and_ben(server, phone, timer_seconds=3)
        view = state(server, code)
        mover = view["seats"][view["turn"]]["name"]
        other = "Ben" if mover == "Ana" else "Ana"
        expect(pages[mover].locator("#roll")).to_be_visible()
        watcher = pages[other]

        def tick(seconds: float) -> None:
            """The server's clock moves on ``seconds``, half a second at each watcher's poll
            (so the watcher itself is always seen)."""
            for _ in range(round(seconds * 2)):
                now[0] += 0.5
                with watcher.expect_response(lambda answer: urllib.parse.urlsplit(
                        answer.url).path == f"/api/rooms/{code}"):
                    pass

        room_url = pages[mover].url
        pages[mover].goto("about:blank")  # the phone goes away: its page stops asking
        tick(2.5)  # not seen for 2.5 s: gone
        expect(watcher.locator("#feed li").filter(has_text=f"{mover} lost the connection")
               ).to_have_count(1)
        expect(watcher.locator("#timer")).to_have_text(
            re.compile(rf"{mover} is disconnected: their turn waits \d+ s for them"))
        expect(watcher.locator("#people li").filter(has_text=mover)).to_contain_text(
            "disconnected")
        tick(2.5)  # past their 3 s, within the 8 s the turn waits for them
        assert state(server, code)["steps"] == view["steps"]

        pages[mover].goto(room_url)  # back within the window: the seat and the turn are there
        expect(watcher.locator("#feed li").filter(has_text=f"{mover} is back")).to_have_count(
            1)
        expect(pages[mover].locator("#roll")).to_be_visible()
        assert state(server, code)["steps"] == view["steps"]  # nothing was played for them
        pages[mover].locator("#roll").click()
        expect(watcher.locator("#feed li").filter(has_text=re.compile(rf"{mover} rolled"))
               ).to_have_count(1)
    finally:
        config["CLOCK"] = time.time
        for key, value in saved.items():
            if value is None:
                config.pop(key, None)
            else:
                config[key] = value


HIDE_JS = """(hidden) => {
  Object.defineProperty(document, 'visibilityState', {configurable: true,
                                                      get: () => hidden ? 'hidden' : 'visible'});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def test_a_page_closed_on_its_turn_shows_gone_in_seconds_and_its_turn_waits(server, phone):
    """Three phones, the presence settings in use: a page closed on its own turn says so as it
    goes, and the other two show it disconnected within 5 s (10 times: median and worst
    printed); the timer (3 s) never plays the turn while the phone is gone, though its time
    runs out each time; a phone switching to another app for a moment keeps its turn too;
    back, the turn is there with its time again, and the phone never shows itself gone. The
    server's clock is the test's: it moves past the turn's time while the page is closed, and
    stands still while it is open, however long a busy machine takes to reopen it."""
    now = [time.time()]
    server.app.config["CLOCK"] = lambda: now[0]
    try:
        made = post(server, "/api/rooms", {"game": "parcheesi", "me": 0, "timer_seconds": 3,
                                           "players": [{"name": "Ana", "color": "yellow"},
                                                       {"name": "Ben", "color": "red"},
                                                       {"name": "Cleo", "color": "green"}]}, 201)
        code = made["room"]["code"]
        credentials = {"Ana": made["you"]["credential"]}
        for name in ("Ben", "Cleo"):
            credentials[name] = post(server, f"/api/rooms/{code}/join", {"name": name})["you"][
                "credential"]
        post(server, f"/api/rooms/{code}/start", {"credential": credentials["Ana"]})

        def open_seat(name):
            page = phone()
            page.goto(f"{server.url}/r/{code}#c={urllib.parse.quote(credentials[name])}")
            expect(page.locator("#status")).not_to_have_text("Loading the room…")  # drawn
            return page

        pages = {name: open_seat(name) for name in credentials}
        view = state(server, code)
        mover = view["seats"][view["turn"]]["name"]
        others = [pages[name] for name in credentials if name != mover]

        def past_the_time():
            """The server's clock moves past the mover's time and the seconds after it that
            tell a slow phone from a gone one; the others have asked since."""
            now[0] += 3 + 4  # its 3 s ran from when its page was drawn, the clock standing
            for page in others:
                page.wait_for_event("response", lambda answer: urllib.parse.urlsplit(
                    answer.url).path == f"/api/rooms/{code}")

        expect(pages[mover].locator("#roll")).to_be_visible()
        times = []
        for _ in range(10):
            counts = [page.locator("#feed li", has_text=f"{mover} lost the connection").count()
                      for page in others]
            closed = time.monotonic()
            pages[mover].close()
            for page, count in zip(others, counts):
                expect(page.locator("#feed li", has_text=f"{mover} lost the connection")
                       ).to_have_count(count + 1)
            times.append(time.monotonic() - closed)
            past_the_time()
            expect(others[0].locator("#timer")).to_have_text(
                re.compile(rf"{mover} is disconnected: their turn waits 11\d s for them"))
            pages[mover] = open_seat(mover)  # back: the seat and the turn are waiting
            expect(pages[mover].locator("#roll")).to_be_visible()
            assert state(server, code)["room"]["due"] == pytest.approx(now[0] + 3, abs=0.01)
            for page in others:
                expect(page.locator("#people li").filter(has_text=mover)).not_to_contain_text(
                    "disconnected")
        times.sort()
        print(f"\nclosed page shown disconnected on the others: median {times[4] * 1000:.0f} "
              f"ms, worst {times[-1] * 1000:.0f} ms over {len(times)}")
        assert state(server, code)["steps"] == view["steps"]  # 10 times past its time: waited

        # Another app for a moment (to share the code): hidden, the seat is gone and the turn
        # waits.
        page = pages[mover]
        page.evaluate(HIDE_JS, True)
        expect(others[0].locator("#people li").filter(has_text=mover)).to_contain_text(
            "disconnected")
        past_the_time()
        assert state(server, code)["steps"] == view["steps"]
        page.evaluate(HIDE_JS, False)
        expect(others[0].locator("#people li").filter(has_text=mover)).not_to_contain_text(
            "disconnected")
        expect(page.locator("#people li").filter(has_text=mover)).not_to_contain_text(
            "disconnected")
        expect(page.locator("#feed li", has_text=f"{mover} lost the connection")).to_have_count(0)
        page.locator("#roll").click()
        expect(others[0].locator("#feed li").filter(has_text=re.compile(rf"{mover} rolled"))
               ).to_have_count(1)
    finally:
        server.app.config["CLOCK"] = time.time


def test_a_ludo_player_one_run_out_turn_from_disqualification_is_told_on_their_phone(server,
                                                                                    phone):
    made = post(server, "/api/rooms", {"game": "ludo", "settings": {"capacity": 4},
                                       "timer_seconds": 3, "players": [
                                           {"name": "Ana", "color": "red"},
                                           {"color": "blue", "bot": "easy"}]}, 201)
    code, me = made["room"]["code"], made["you"]["seat"]
    post(server, f"/api/rooms/{code}/start", {"credential": made["you"]["credential"]})
    ana = phone(instant_bots=True)
    ana.goto(f"{server.url}/r/{code}#c={urllib.parse.quote(made['you']['credential'])}")
    warning = ana.locator("#away p.warning")
    expect(ana.locator("#roll")).to_be_visible()
    expect(warning).to_have_count(0)
    # Ana lets her time run out twice: the server plays those turns for her.
    deadline = time.monotonic() + 120
    while state(server, code)["seats"][me]["missed"] < 2:
        assert time.monotonic() < deadline, "her time never ran out twice"
        ana.wait_for_timeout(500)
    expect(warning).to_have_text("Ana, your time ran out on your last turns: one more and you "
                                 "are out of the game.")
    shot(ana, "room-ludo-last-chance")
    # A third run-out disqualifies her (the game is over at a table of two): no more warning.
    expect(warning).to_have_count(0)
    assert state(server, code)["seats"][me]["out"]


def test_a_room_lost_with_its_store_loses_no_game(server, phone, tmp_path):
    """The store is lost (a new empty one in its place, as after a deleted file and a restart):
    the room is gone, but its phone kept the game's last link and goes on with it by link."""
    code, ana = ana_and_a_bot(server, phone)
    expect(ana.locator("#roll")).to_be_visible()
    ana.monitor.allow(f"/api/rooms/{code}", 404)  # the room gone: its poll says so
    token = state(server, code)["token"]
    app = server.app
    saved = app.config["STORE_URL"], app.extensions.pop("boardpass.store", None)
    app.config["STORE_URL"] = f"sqlite:///{tmp_path}/new-store.db"
    try:
        go_on = ana.locator("#goon")
        expect(go_on).to_have_text("Go on with the game")
        assert go_on.get_attribute("href") == f"/g/{token}"
        go_on.click()
        expect(ana.locator("#roll")).to_be_visible()  # the link plays: nothing was lost
    finally:
        app.extensions.pop("boardpass.store", None)
        app.config["STORE_URL"] = saved[0]
        if saved[1] is not None:
            app.extensions["boardpass.store"] = saved[1]


# -- 10. leaving: the host passes, the last one closes the room --------------------------------------

def test_the_host_leaves_another_phone_hosts_and_the_last_to_leave_closes_the_room(server, phone):
    code, pages, _ = ana_and_ben(server, phone)
    ben = pages["Ben"]
    expect(ben.locator("#people li").filter(has_text="Ana")).to_contain_text("host")

    pages["Ana"].locator("#leave").click()
    expect(pages["Ana"].locator("#watching")).to_be_visible()  # her phone watches now
    expect(pages["Ana"].locator("#leave")).to_be_hidden()
    expect(ben.locator("#feed li").filter(has_text="Ana left the room")).to_have_count(1)
    expect(ben.locator("#feed li").filter(has_text="Ben is the host now")).to_have_count(1)
    expect(ben.locator("#people li").filter(has_text="Ben")).to_contain_text("host")
    assert state(server, code)["room"]["host"] == 1  # Ben's seat (red, after yellow)

    pages["Ana"].monitor.allow(f"/api/rooms/{code}", 404)  # her page, watching, finds it closed
    ben.locator("#leave").click()
    expect(ben.locator("#status")).to_have_text("You left the room.")
    ben.close()
    # A poll of his on its way as the room closed may have found it closed: that's no error.
    ben.monitor.problems = [problem for problem in ben.monitor.problems
                            if f"/api/rooms/{code}?" not in problem]
    expect(pages["Ana"].locator("#status")).to_have_text(
        f"Room {code} is closed: everyone left. Start a new game to play again.")
    later = phone()
    later.goto(f"{server.url}/r/{code}")  # 200: a page that says why (docs/previews.md)
    expect(later.locator("main")).to_contain_text(f"Room {code} is closed: everyone left.")


# -- the end of a room's game --------------------------------------------------------------

def test_a_finished_room_shows_the_games_review_as_a_link_game_does(server, phone):
    game, seat, steps = ludo_last_turn(3, players=2)
    made = post(server, f"/api/games/{game.token()}/room", {"seat": seat}, 201)
    code, credential = made["room"]["code"], made["you"]["credential"]
    view = made
    for step in steps:  # the last turn, step by step as the phone would send it
        view = post(server, f"/api/rooms/{code}/steps", {
            "version": view["room"]["version"], "credential": credential, "steps": [step]})
    assert view["phase"] == "over"
    page = phone()
    page.goto(f"{server.url}/r/{code}#c={urllib.parse.quote(credential)}")
    review = page.locator("#gamereview")
    expect(review).to_be_visible()
    expect(review.locator("#course polyline.line")).to_have_count(2)  # a line per player
    expect(review.locator("#courselegend li")).to_have_count(2)
    expect(review.locator("#stats tbody tr")).to_have_count(2)
    expect(page.locator("#reviewprogress")).to_contain_text(
        f"of {len(view['decisions'])} moves")
    shot(page, "room-6-game-review")


# -- 11. a watcher is promised a seat only where the table has one; one clock for everyone -------

# Every text the countdown shows, from the page's first paint (one list a page load).
TIMER_TEXTS_JS = """
window.__timers = [];
new MutationObserver(() => {
  const text = document.getElementById('timer')?.textContent;
  if (text && text !== window.__timers.at(-1)) window.__timers.push(text);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def said(msgid: str, lang: str, **values) -> str:
    """A message as a page in ``lang`` shows it (the catalog's words: the Spanish may be
    reworded, what is tested is which message shows)."""
    from app.engine.text import Text
    from app.i18n import translate

    return translate(Text(msgid, **values) if values else msgid, lang)


def seconds_shown(text: str) -> int:
    match = re.search(r"(\d+) s\b", text)
    assert match, text
    return int(match.group(1))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_watcher_is_promised_a_seat_only_where_the_table_has_one(server, phone, lang):
    """A fourth phone at a full three-seat Ludo table reads that the room is full, poll after
    poll, with no seat offered (it used to be promised a seat at the host's turn, which never
    came: the page compared with the board's four colors). At a four-seat table of three, the
    promise holds: the seat shows at the start of the host's turn."""
    def table(capacity: int) -> tuple[str, dict]:
        made = post(server, "/api/rooms", {
            "game": "ludo", "settings": {"capacity": capacity}, "lang": lang, "timer_seconds": 0,
            "players": [{"name": "Ana", "color": "red"}, {"name": "", "color": "blue"},
                        {"name": "", "color": "green"}]}, 201)
        code = made["room"]["code"]
        phones = {made["you"]["seat"]: made["you"]["credential"]}
        for name in ("Ben", "Cleo"):
            joined = post(server, f"/api/rooms/{code}/join", {"name": name})
            phones[joined["you"]["seat"]] = joined["you"]["credential"]
        post(server, f"/api/rooms/{code}/start", {"credential": phones[made["you"]["seat"]]})
        return code, phones

    def play_until(code: str, phones: dict, seat_now: bool) -> dict:
        """Steps from the API until a newcomer may (or may not) sit at once."""
        view = state(server, code)
        while bool(view["room"]["new_colors"]) != seat_now:
            assert view["phase"] != "over"
            move = view["legal"][0] if view["phase"] == "move" else None
            steps = [{"from": move["from"], "to": move["to"], "values": move["values"]}] \
                if move else ["roll"]
            view = post(server, f"/api/rooms/{code}/steps", {
                "version": view["room"]["version"], "credential": phones[view["turn"]],
                "steps": steps})
        return view

    full_code, _ = table(3)
    watcher = phone(width=360)
    watcher.goto(f"{server.url}/r/{full_code}")
    full = said("Room %(code)s is full: you can watch.", lang, code=full_code)
    expect(watcher.locator("#watching")).to_have_text(full)
    watcher.wait_for_event("response", lambda answer: urllib.parse.urlsplit(answer.url).path ==
                           f"/api/rooms/{full_code}")  # a poll later, still no seat promised
    expect(watcher.locator("#watching")).to_have_text(full)
    expect(watcher.locator("#join")).to_be_hidden()
    assert watcher.evaluate("document.documentElement.scrollWidth") <= 360

    code, phones = table(4)
    play_until(code, phones, seat_now=False)
    later = phone(width=360)
    later.goto(f"{server.url}/r/{code}")
    promise = said("New players join at the start of the host's turn: a seat will show here "
                   "then.", lang)
    expect(later.locator("#watching")).to_have_text(promise)
    expect(later.locator("#join")).to_be_hidden()
    play_until(code, phones, seat_now=True)  # the host's turn begins: the seat is there
    expect(later.locator("#join")).to_be_visible()
    expect(later.locator("#watching")).to_have_text(
        said("You are watching: take a free seat to play.", lang))
    expect(later.locator("#joincolor option")).to_have_count(1)
    assert later.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_countdown_is_the_servers_deadline_through_a_reload_and_never_over_its_length(
        server, phone, lang):
    """A Red Arse room's 30 s, after a bot's turn: the countdown starts at 30 s, never more
    (the server's deadline counts the bot's moves being shown first: it used to read "Ana has
    32 s"), and a reload on her own turn finds the same deadline, not a fresh 30 s. The
    server's clock is the test's: it stands still but where the test moves it."""
    now = [time.time()]
    server.app.config["CLOCK"] = lambda: now[0]
    try:
        made = post(server, "/api/rooms", {
            "game": "red-arse", "settings": {"board": 4}, "lang": lang, "players": [
                {"name": "Ana", "color": "red"}, {"color": "blue", "bot": "easy"}]}, 201)
        code, credential, me = made["room"]["code"], made["you"]["credential"], \
            made["you"]["seat"]
        view = post(server, f"/api/rooms/{code}/start", {"credential": credential})
        # Her steps until her roll comes after steps the phones show first (the bot's turn)
        while view["turn"] != me or view["phase"] != "roll" or \
                view["room"]["due"] <= view["room"]["now"] + 30:
            move = view["legal"][0] if view["phase"] == "move" else None
            steps = [{"from": move["from"], "to": move["to"], "values": move["values"]}] \
                if move else ["miss"] if view["phase"] == "claim" else ["roll"]
            view = post(server, f"/api/rooms/{code}/steps", {
                "version": view["room"]["version"], "credential": credential, "steps": steps})
        due = view["room"]["due"]
        assert due > now[0] + 30  # the bot's moves are shown before her time starts

        ana = phone(width=360)
        ana.add_init_script(TIMER_TEXTS_JS)
        ana.goto(f"{server.url}/r/{code}#c={urllib.parse.quote(credential)}")
        expect(ana.locator("#roll")).to_be_visible()
        expect(ana.locator("#timer")).to_have_text(re.compile(r"\b(2\d|30) s\b"))
        shown = [seconds_shown(text) for text in ana.evaluate("window.__timers")]
        assert shown[0] == 30 and max(shown) == 30, shown

        now[0] += 10  # ten seconds of her turn, then she reloads the page
        ana.reload()
        expect(ana.locator("#roll")).to_be_visible()
        deadline = time.monotonic() + 30
        while state(server, code)["room"]["offline"]:  # until her page's poll says she is here
            assert time.monotonic() < deadline, "her page never said it was back"
            ana.wait_for_timeout(50)
        ana.wait_for_event("response", lambda answer: urllib.parse.urlsplit(answer.url).path ==
                           f"/api/rooms/{code}")  # and a poll answered after that
        assert state(server, code)["room"]["due"] == due  # the server's deadline stands
        left = due - now[0]  # 20 s and the bot's moves' time
        shown = [seconds_shown(text) for text in ana.evaluate("window.__timers")]
        assert shown and max(shown) <= left + 1, (shown, left)
        assert ana.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        server.app.config["CLOCK"] = time.time
