"""Helpers for the browser tests: a live server, a watched browser page, game set-ups.

The server is the real app (werkzeug, a thread, a free port on 127.0.0.1); the browser is Debian's
headless Chromium driven by Playwright. Games with known dice are made here with the play service
and the engine, then opened in the browser by their link.
"""

from __future__ import annotations

import json
import re
import select
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field, replace
from pathlib import Path

from werkzeug.serving import WSGIRequestHandler, make_server

from app.keys import Keys
from app.link import Seat
from workbench.phone_browser import CHROMIUM, PHONE  # noqa: F401 (the tests import them from here)
from app.play import Game

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
KEYS = Keys.for_tests("browser")
SEATS = [Seat(name="Ana", color=0), Seat(name="Ben", color=2)]  # yellow and red, as the form

# The page's replay timing (static/js/table.js replay() and board.js fly()), in ms.
REPLAY_ROLL_MS, REPLAY_SQUARE_MS, REPLAY_MOVE_PAUSE_MS = 500, 90, 200


# -- the live server ------------------------------------------------------------------------------

class _Busy:
    """How many connections the server has taken and not yet closed, so that a test can wait
    for it to be idle."""

    def __init__(self):
        self.count, self.changed = 0, threading.Condition()

    def add(self, n: int) -> None:
        with self.changed:
            self.count += n
            self.changed.notify_all()

    def wait_idle(self, bound: float = 30) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: self.count == 0, bound), "the server stayed busy"


class _QuietHandler(WSGIRequestHandler):
    def log_request(self, *args, **kwargs):  # one line per request would drown the test output
        pass


def _counted(server, busy: _Busy) -> None:
    """Counts each connection from before the server accepts it until it is closed, after the
    answer and whatever runs after it (a page closed mid-answer included): counted from the
    handler's start instead, one accepted but not yet handed to its thread (a busy machine
    leaves it there a while) would look idle."""
    accept, close = server.get_request, server.shutdown_request

    def get_request():
        busy.add(1)
        try:
            return accept()
        except BaseException:
            busy.add(-1)
            raise

    def shutdown_request(request):
        try:
            close(request)
        finally:
            busy.add(-1)

    server.get_request, server.shutdown_request = get_request, shutdown_request


class LiveServer:
    """The app served from a thread on 127.0.0.1 (port chosen by the OS)."""

    def __init__(self, app):
        self.app = app  # tests may set its CLOCK
        self.server = make_server("127.0.0.1", 0, app, threaded=True,
                                  request_handler=_QuietHandler)
        self.server.busy = _Busy()
        _counted(self.server, self.server.busy)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.thread.join(5)
        self.server.server_close()

    def wait_idle(self) -> None:
        """Until no request is being answered, and none waits to be accepted: one the last
        test's pages sent before they closed may still be writing to the store."""
        for _ in range(600):  # 30 s at most
            self.server.busy.wait_idle()
            if not select.select([self.server.socket], [], [], 0)[0]:
                return
            time.sleep(0.05)  # the server's thread accepts it: then it counts
        raise AssertionError("the server stayed busy")

    def game_url(self, token: str) -> str:
        return f"{self.url}/g/{token}"

    def api(self, path: str, body=None) -> tuple[int, dict]:
        """GET (or POST JSON) an API path from Python: (status, JSON body)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method="GET" if data is None
                                         else "POST", headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def position(self, token: str, seat: int, steps: list) -> dict:
        """The game at ``token`` after this turn's ``steps``, as the server sees it."""
        status, view = self.api(f"/api/games/{token}/moves", {"seat": seat, "steps": steps})
        assert status == 200, view
        return view


# -- watching a page: console errors, failed requests ------------------------------------------

ANALYSIS = re.compile(r"/api/games/[^/]+/((chances|review)\?|luck$)")
ICON = re.compile(r"/icon-\d+\.png$")


@dataclass
class Allowed:
    """A failure a test provokes on purpose: ``count`` responses (and the console line each
    brings) whose URL contains ``url_part`` and whose status is ``status``."""

    url_part: str
    status: int
    count: int = 1
    responses: int = 0
    consoles: int = 0


@dataclass
class Monitor:
    """Everything that went wrong on a page (favicon.ico aside), and every request it made."""

    problems: list = field(default_factory=list)
    allowed: list = field(default_factory=list)
    requests: list = field(default_factory=list)

    def attach(self, page):
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("requestfailed", self._failed)
        page.on("response", self._response)
        page.on("request", lambda request: self.requests.append((request.method, request.url)))
        return page

    def allow(self, url_part: str, status: int, count: int = 1) -> None:
        self.allowed.append(Allowed(url_part, status, count))

    def _expected(self, url: str, status: int, kind: str) -> bool:
        for entry in self.allowed:
            if (entry.url_part in url and entry.status == status
                    and getattr(entry, kind) < entry.count):
                setattr(entry, kind, getattr(entry, kind) + 1)
                return True
        return False

    def _console(self, message):
        if message.type != "error":
            return
        url = (message.location or {}).get("url", "")
        if url.endswith("/favicon.ico"):
            return
        status = re.search(r"status of (\d{3})", message.text)
        if status and self._expected(url, int(status.group(1)), "consoles"):
            return
        self.problems.append(f"console error: {message.text} ({url})")

    def _failed(self, request):
        # The page's analysis (chance to win, move review, luck) runs in the background: leaving the
        # page cuts it off, which is no failure.
        if request.failure == "net::ERR_ABORTED" and ANALYSIS.search(request.url):
            return
        # Nor is the browser's fetch of the page's icon, cut off by the next page.
        if request.failure == "net::ERR_ABORTED" and ICON.search(request.url):
            return
        if not request.url.endswith("/favicon.ico"):
            self.problems.append(f"request failed: {request.method} {request.url}: "
                                 f"{request.failure}")

    def _response(self, response):
        if response.status < 400 or response.url.endswith("/favicon.ico"):
            return
        if not self._expected(response.url, response.status, "responses"):
            self.problems.append(f"HTTP {response.status}: {response.request.method} "
                                 f"{response.url}")

    def api_calls(self, part: str) -> int:
        return sum(1 for _, url in self.requests if part in url)

    def check(self) -> None:
        unmet = [a for a in self.allowed if a.responses < a.count]
        assert not self.problems, "unexpected errors in the page:\n" + "\n".join(self.problems)
        assert not unmet, f"provoked failures that never happened: {unmet}"


# -- reading the page -----------------------------------------------------------------------

PIECES_JS = """() => [...document.querySelectorAll('#board circle.piece')].map((c) => ({
  seat: +c.dataset.seat, piece: +c.dataset.piece, progress: +c.dataset.progress,
  cx: +c.getAttribute('cx'), cy: +c.getAttribute('cy')}))"""

# Records every move of a piece on the board: a piece node's, or the copy of it that hops along
# its path (board.js fly() sets cx/cy on it square by square).
WATCH_PIECES_JS = """
window.__pieceMoves = [];
new MutationObserver((records) => {
  for (const r of records) {
    const n = r.target;
    if (n.classList && (n.classList.contains('piece') || n.classList.contains('ghost'))) {
      window.__pieceMoves.push({seat: +n.dataset.seat, piece: +n.dataset.piece,
        ghost: n.classList.contains('ghost'),
        attr: r.attributeName, value: +n.getAttribute(r.attributeName), t: performance.now()});
    }
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['cx', 'cy']});
"""


class Phones:
    """The phones (browser contexts) a test opens, each page watched by a ``Monitor``:
    ``close()`` closes them all, then checks every page for errors."""

    def __init__(self, browser):
        self.browser, self.opened = browser, []

    def open(self, **options):
        """A new phone with ``options`` (Playwright's ``new_context``): its page and monitor."""
        context = self.browser.new_context(**options)
        context.set_default_timeout(30_000)
        page = context.new_page()
        monitor = Monitor()
        monitor.attach(page)
        self.opened.append((context, monitor))
        return page, monitor

    def close(self) -> None:
        for context, _ in self.opened:
            context.close()
        for _, monitor in self.opened:
            monitor.check()


def pieces(page) -> list[dict]:
    return page.evaluate(PIECES_JS)


def progress_grid(page) -> list[list[int]]:
    """The pieces on the board as the API lists them: ``grid[seat][piece] = progress``."""
    grid: dict[int, dict[int, int]] = {}
    for p in pieces(page):
        grid.setdefault(p["seat"], {})[p["piece"]] = p["progress"]
    return [[grid[s][k] for k in sorted(grid[s])] for s in sorted(grid)]


def dice(page) -> list[int]:
    """The dice shown, by the faces' values (each die says its number to screen readers)."""
    return [int(v) for v in page.eval_on_selector_all(
        "#dice span.die", "(ds) => ds.map((d) => d.getAttribute('aria-label'))")]


def hash_steps(page) -> list:
    """This turn's steps from the page's URL hash, in the API's form."""
    fragment = urllib.parse.urlsplit(page.url).fragment
    match = re.search(r"(?:^|&)s=([^&]*)", fragment)
    if not match or not match.group(1):
        return []
    steps = []
    for part in match.group(1).split(","):
        if part == "r":
            steps.append("roll")
        elif part == "m":
            steps.append("miss")
        elif part.startswith("c"):
            steps.append({"claimed": urllib.parse.unquote(part[1:])})
        else:
            src, dst, values = part.split("_")
            steps.append({"from": int(src), "to": int(dst),
                          "values": [int(v) for v in values.split("+")]})
    return steps


def page_hash(page) -> str:
    return page.evaluate("() => location.hash")


def after_step(page, action) -> str:
    """Do ``action`` (a click that takes a step) and wait until the page has taken it.

    game.js writes the steps to the URL hash and redraws in the same task once the server has
    accepted them, so a changed hash means the page is drawn again.
    """
    before = page_hash(page)
    action()
    page.wait_for_function("(before) => location.hash !== before", arg=before)
    return page_hash(page)


def status(page) -> tuple[str, bool]:
    node = page.locator("#status")
    return node.text_content(), "error" in (node.get_attribute("class") or "")


def tap_landing(page, index: int = 0) -> str:
    """Tap a landing spot (and the first choice if several moves land there)."""
    def tap():
        page.locator("#board circle.landing").nth(index).click()
        if page.locator("#choices").is_visible():
            page.locator("#choices button").first.click()
    return after_step(page, tap)


def roll(page) -> str:
    return after_step(page, lambda: page.locator("#roll").click())


def play_out_turn(page, limit: int = 60) -> list[str]:
    """Roll and tap the first landing spot until the turn is over (Send turn shows)."""
    hashes = []
    for _ in range(limit):
        if page.locator("#send").is_visible():
            return hashes
        if page.locator("#roll").is_visible():
            hashes.append(roll(page))
        elif page.locator("#board circle.landing").count():
            hashes.append(tap_landing(page))
        else:
            raise AssertionError(f"nothing to do and no Send button: {status(page)}")
    raise AssertionError("the turn never ended")


def send_turn(page, bodies: list[str]) -> dict:
    """Click Send turn; return the /turn answer, keeping its text message body."""
    with page.expect_response(lambda r: r.url.endswith("/turn")
                              and r.request.method == "POST") as answer:
        page.locator("#send").click()
    response = answer.value
    assert response.status == 200, response.text()
    result = response.json()
    if result["message"]["text"] is not None:
        bodies.append(result["message"]["text"])
    page.locator("#sendbox").wait_for(state="visible")
    return result


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


# -- games with known dice ------------------------------------------------------------------

def new_game(seed: int) -> Game:
    return Game.new("parcheesi", list(SEATS), KEYS, seed=seed.to_bytes(8, "big"), by_hand=True)


def find_seed(wanted, tries: int = 500) -> int:
    """The first seed whose fresh game satisfies ``wanted(game)`` (the game may be stepped)."""
    for seed in range(tries):
        if wanted(new_game(seed)):
            return seed
    raise AssertionError("no seed gives the situation the test needs")


def enter_then_move(game: Game) -> bool:
    """The first roll is a 5 and another number: enter a pawn, and a move is still left."""
    rolled = game.step()
    if 5 not in rolled or len(set(rolled)) != 2:
        return False
    moves = game.match.legal_moves()
    if len(moves) != 1 or moves[0].src != -1:
        return False
    game.step(0)
    return game.match.phase == "move" and game.match.turn == game.match.history[0][1]


def play_first_turn(game: Game) -> list[tuple]:
    """Play the player to move's whole turn, always the first legal move; returns the history."""
    seat = game.match.turn
    while game.match.turn == seat and not game.over:
        game.step(0)
    return list(game.match.history)


def replay_ms(history: list[tuple]) -> int:
    """How long the page takes to replay these history entries (game.js replay())."""
    total = 0
    for kind, _, what in history:
        if kind == "roll":
            total += REPLAY_ROLL_MS
        else:
            squares = 1 if what.src < 0 or what.dst < what.src else what.dst - what.src
            total += squares * REPLAY_SQUARE_MS + REPLAY_MOVE_PAUSE_MS
    return total


def find_decision(wanted, seeds: int = 100, steps: int = 400):
    """A decision point some way into a game where ``wanted(moves)`` holds.

    Plays games (always the first legal move) and returns ``(token, steps, seat, moves)``: the
    link at the start of the turn, the turn's steps so far and the legal moves there.
    """
    return _search(new_game, lambda game, moves: wanted(moves), lambda rng, moves: 0, seeds,
                   steps, "no game reaches the situation the test needs")


HOME = 71  # Parcheesi's Home progress (/api/boards home_progress): its spot differs by pawn


def shared_spot(moves) -> bool:
    """Three pawns can move and two of them can land on the same square."""
    landings = [m.dst for m in moves if m.dst < HOME]
    return len({m.src for m in moves}) >= 3 and len(landings) > len(set(landings))


def _search(make_game, wanted, choose, seeds: int, steps: int, failure: str):
    """Play games from seeds 0.. (moves picked by ``choose(rng, moves)``, every re-roll let go)
    until ``wanted(game, moves)`` holds at a decision point; ``(token, steps, seat, moves)``."""
    import random

    for seed in range(seeds):
        rng, game = random.Random(seed), make_game(seed)
        token, taken, seat = game.token(), [], game.match.turn
        for _ in range(steps):
            if game.over:
                break
            if game.match.turn != seat:
                token, taken, seat = game.token(), [], game.match.turn
            phase = game.match.phase
            if phase == "move":
                moves = game.match.legal_moves()
                if wanted(game, moves):
                    return token, taken, seat, moves
                move = game.step(choose(rng, moves))
                taken.append({"from": move.src, "to": move.dst, "values": list(move.values)})
            elif phase == "claim":
                game.step(1)
                taken.append("miss")
            else:
                game.step()
                taken.append("roll")
    raise AssertionError(failure)


def steps_hash(steps: list) -> str:
    """This turn's steps as game.js writes them in the URL (``#s=r,<from>_<to>_<values>``)."""
    parts = [_step_text(s) for s in steps]
    return "#s=" + ",".join(parts) if parts else ""


def _step_text(step) -> str:
    if step in ("roll", "miss"):
        return step[0]
    if "claimed" in step:
        return "c" + urllib.parse.quote(step["claimed"], safe="")
    return f"{step['from']}_{step['to']}_{'+'.join(map(str, step['values']))}"


# -- Red Arse games with known dice -----------------------------------------------------------

RA_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")


def red_arse_game(seed: int, players: int = 6, board: int = 6, off=()) -> Game:
    """A Red Arse game on the ``board``-player board, players in the first colors."""
    from app.engine.red_arse_settings import options_for

    seats = [Seat(name=RA_NAMES[i], color=i) for i in range(players)]
    return Game.new("red-arse", seats, KEYS, seed=seed.to_bytes(8, "big"),
                    options=options_for(board, off), by_hand=True)


def find_red_arse_decision(wanted, seeds: int = 100, steps: int = 4000, **table):
    """Like ``find_decision``, for Red Arse: ``wanted(game, moves)`` at a decision point.

    Games are played with the first legal move, and every re-roll let go ("miss"), so a turn's
    steps before a decision are rolls and moves only. Returns ``(token, steps, seat, moves)``.
    """
    return _search(lambda seed: red_arse_game(seed, **table), wanted, lambda rng, moves: 0,
                   seeds, steps, "no Red Arse game reaches the situation the test needs")


# -- Ludo games played server-side ------------------------------------------------------------

def ludo_game(seed: int, players: int = 3, board: int = 4, host: int = 0,
              keys: Keys = KEYS, medals=()) -> Game:
    """A Ludo table of ``players`` in the first colors (Ana red, Ben blue, Cleo green...) on the
    ``board``-arm board, ``host`` the seat that created it, ``medals`` the seats' medals from
    earlier games."""
    from dataclasses import replace

    medals = list(medals) + [(0, 0, 0)] * (players - len(medals))
    seats = [Seat(name=RA_NAMES[i], color=i, medals=medals[i]) for i in range(players)]
    game = Game.new("ludo", seats, keys, seed=seed.to_bytes(8, "big"),
                    options=6 if board == 6 else 0, by_hand=True)
    return Game(replace(game.header, host=host), game.match, keys) if host else game


def api_step(kind: str, what) -> object:
    """A history entry as the API's step."""
    if kind == "roll":
        return "roll"
    return {"from": what.src, "to": what.dst, "values": list(what.values)}


def ludo_last_turn(seed: int, **table):
    """A Ludo game played with random legal moves to its end, then taken back to the start of
    its last turn: ``(game there, seat to move, the steps that end the game)``."""
    import random

    rng = random.Random(seed)
    game, choices = ludo_game(seed, **table), []
    while not game.over:
        index = 0 if game.match.phase == "roll" else rng.randrange(len(game.match.legal_moves()))
        game.step(index)
        choices.append(index)
    history = game.match.history  # one entry per step: Ludo has no claims
    seat, start = history[-1][1], len(history)
    while start and history[start - 1][1] == seat:
        start -= 1
    before = ludo_game(seed, **table)
    for index in choices[:start]:
        before.step(index)
    return before, seat, [api_step(kind, what) for kind, _, what in history[start:]]


def ludo_turn_of(seat: int, seed: int, turns: int = 8, **table) -> Game:
    """A Ludo game played with random moves for at least ``turns`` turns, up to the start of a
    turn of ``seat``."""
    import random

    rng = random.Random(seed)
    game, passed, last = ludo_game(seed, **table), 0, None
    while not game.over:
        if game.match.turn != last:
            passed, last = passed + 1, game.match.turn
            if passed > turns and last == seat and game.match.phase == "roll":
                return game
        index = 0 if game.match.phase == "roll" else rng.randrange(len(game.match.legal_moves()))
        game.step(index)
    raise AssertionError("the game ended first")


def find_ludo_decision(wanted, seeds: int = 100, steps: int = 3000, **table):
    """Like ``find_decision``, for Ludo (random legal moves): ``wanted(game, moves)`` at a
    decision point. Returns ``(token, steps, seat, moves)``."""
    return _search(lambda seed: ludo_game(seed, **table), wanted,
                   lambda rng, moves: rng.randrange(len(moves)), seeds, steps,
                   "no Ludo game reaches the situation the test needs")


def ludo_capture(game, move):
    """The rival seats a Ludo move would send home (none on a safe square)."""
    rules, state = game.rules, game.state
    if move.dst > rules.last:
        return []
    square = rules.board.cell(state.colors[state.turn], move.dst)
    if square in rules.board.safe:
        return []
    return [seat for seat, pieces in enumerate(state.pos) if seat != state.turn and any(
        0 <= p <= rules.last and rules.board.cell(state.colors[seat], p) == square
        for p in pieces)]


def capture_alone(game, moves) -> bool:
    """A move sends a rival piece home, and no other move lands where it does."""
    return any(ludo_capture(game, m) and sum(n.dst == m.dst for n in moves) == 1 for m in moves)


# -- a table of one person and bots ----------------------------------------------------------

BOT_SEATS = [Seat(name="Ana", color=0), Seat(name="Bot (easy)", color=1, bot=1),
             Seat(name="Bot (medium)", color=2, bot=2), Seat(name="Bot (hard)", color=3, bot=3)]
# The bots' replay speed a page starts with unless the test (or the person) chose one.
BOT_SPEED_JS = """
if (!localStorage.getItem('boardpass:botspeed')) localStorage.setItem('boardpass:botspeed', '%s');
"""


def _round(game: Game) -> list[tuple]:
    """Ana's turn (always the first legal move, as ``play_out_turn`` plays it), then the bots'
    turns the server plays: the bots' history entries."""
    seat = game.match.turn
    while not game.over and game.match.turn == seat:
        game.step(0)
    start = len(game.match.history)
    game.play_bots()
    return game.match.history[start:]


def against_bots(rounds: int = 2, after: int = 6) -> str:
    """A Ludo link of Ana and three bots, at Ana's turn some way into the game, such that each of
    her next ``rounds`` turns is followed by bots' turns that move pieces."""
    for number in range(50):
        game = Game.new("ludo", BOT_SEATS, KEYS, seed=number.to_bytes(8, "big"), by_hand=True)
        game.play_bots()
        for turn in range(60):
            if game.over:
                break
            if turn >= after:
                probe = Game.from_token(game.token(), KEYS)
                if all(any(kind == "move" for kind, _, _ in _round(probe)) and not probe.over
                       for _ in range(rounds)):
                    return game.token()
            _round(game)
    raise AssertionError("no game reaches the situation the test needs")


def bots_end_it() -> tuple[str, Game]:
    """A Ludo link of Ana and three bots at the start of Ana's last turn: she finishes first, and
    the bots then play the rest of the game out at once. Returns the link and the finished game
    (Ana always takes the first legal move, as ``play_out_turn`` does)."""
    from app.web.views import simulated_ending

    easy = [replace(seat, bot=1, name=f"Bot {i + 1} (easy)") if seat.bot else seat
            for i, seat in enumerate(BOT_SEATS)]
    for number in range(200):
        game = Game.new("ludo", easy, KEYS, seed=number.to_bytes(8, "big"), by_hand=True)
        game.play_bots()
        while not game.over:
            token = game.token()
            _round(game)
        if simulated_ending(game):
            return token, game
    raise AssertionError("no game ends the way the test needs")


# -- a finished game and its review -----------------------------------------------------------

REVIEWS = "/api/games/{token}/review?step={step}"


def finished_with_a_bot(seed: int = 11) -> Game:
    """A finished Red Arse game of Ana, Ben and a medium bot, short enough to review in a test:
    the people mostly take the medium bot's move, now and then a random one."""
    import random

    from app.engine import bots

    seats = [Seat("Ana", 0), Seat("Ben", 1), Seat("Bot", 2, bot=2)]
    game = Game.new("red-arse", seats, KEYS, seed=seed.to_bytes(8, "big"), by_hand=True)
    rng = random.Random(seed)
    game.play_bots()
    while not game.over:
        match = game.match
        if match.phase == "move":
            moves = match.legal_moves()
            game.step(bots.medium(game.rules, match.state, moves) if rng.random() < 0.8
                      else rng.randrange(len(moves)))
        else:
            game.step(0)  # roll, or claim the re-roll
        game.play_bots()
    return game


def reviewed_game(server) -> tuple[str, list, dict, list]:
    """``finished_with_a_bot``'s link, its decisions, each one's review (asked here, so the page
    finds them kept) and the game's course (``/luck``). Seed 15's game has two Missteps with
    the browser tests' playouts: the graph has marks to draw."""
    token = finished_with_a_bot(15).token()
    decisions = server.api(f"/api/games/{token}")[1]["decisions"]
    reviews = {}
    for step, _ in decisions:
        review = server.api(REVIEWS.format(token=token, step=step))[1]
        reviews[step] = review["options"][review["played"]] | {
            "best": review["options"][review["best"]]["label"]}
    return token, decisions, reviews, server.api(f"/api/games/{token}/luck")[1]["course"]


def point_after(course: list, step: int) -> int:
    """The graph's point after the turn of the decision at ``step``."""
    return next((k for k, (start, _, _) in enumerate(course) if start > step), len(course) - 1)
