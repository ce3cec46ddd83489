"""No unfilled placeholder on any page, in English and in Spanish: headless Chromium walks the
home page, the rules, What's new, an error page, a link game (its creator's page, two turns
played and sent, a bot's turns replayed, an older link), a pass-the-phone game and a live room
whose turn timer runs out, and fails on any text containing ``%(`` (a message whose ``%(name)s``
the page never filled: "%(who)s's time is up" in every room was one).

Every page reports, as it is drawn, each text node and each label (aria-label, title,
placeholder, alt) that holds ``%(``, even one shown for a moment (the room's timer says the time
is up for a second or so); at each stop the visible text (``innerText``) and the title are read
too. Pages are watched for errors like the other browser tests' (browser_support.Monitor).
"""

from __future__ import annotations

import os
import re
import urllib.parse

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from browser_support import (  # noqa: E402
    BOT_SPEED_JS, CHROMIUM, PHONE, Monitor, play_out_turn, send_turn)

pytestmark = [pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
              pytest.mark.usefixtures("fresh_store")]
LANGS = ("en", "es")

# Reports (through the page's __unfilled binding) every text and label with "%(" as it appears,
# and every text the room's timer shows (through __timer).
WATCH_JS = r"""
(() => {
  const LABELS = ["aria-label", "title", "placeholder", "alt"];
  const CODE = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"]);
  const report = (where, text) => {
    if (text && text.includes("%(")) window.__unfilled(`${where}: ${text}`);
  };
  const name = (node) => (node ? node.nodeName.toLowerCase() + (node.id ? "#" + node.id : "")
    : "?");
  const visit = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      if (!CODE.has(node.parentNode && node.parentNode.nodeName)) {
        report(name(node.parentNode), node.data);
      }
    } else if (node.nodeType === Node.ELEMENT_NODE && !CODE.has(node.nodeName)) {
      for (const label of LABELS) report(`${name(node)}[${label}]`, node.getAttribute(label));
      node.childNodes.forEach(visit);
    }
  };
  let timer = null;
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "childList") r.addedNodes.forEach(visit);
      else if (r.type === "characterData") visit(r.target);
      else report(`${name(r.target)}[${r.attributeName}]`, r.target.getAttribute(r.attributeName));
    }
    const box = document.getElementById("timer");
    if (box && box.textContent !== timer) {
      timer = box.textContent;
      if (timer) window.__timer(timer);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true,
    attributeFilter: LABELS });
})();
"""
# A link game's page is ready once its replay is over and it waits for this phone (Roll, a
# landing spot, Send) or shows the send box.
READY_JS = """() => {
  const shown = (id) => { const n = document.getElementById(id); return !!n && !n.hidden &&
    n.getClientRects().length > 0; };
  return !shown('skip') && (shown('roll') || shown('send') || shown('sendbox') ||
    !!document.querySelector('#board circle.landing'));
}"""
# The room's messages this test waits for, as each language says them.
WORDS = {
    "en": {"time_up": "{who}'s time is up: the turn is played for them.",
           "played_for": "{who}'s turn was played for them"},
    "es": {"time_up": "Se le acabó el tiempo a {who}: su turno se juega automáticamente.",
           "played_for": "{who} no llegó a tiempo: su turno se jugó solo"},
}


class Watched(Monitor):
    """browser_support's Monitor, and what is no failure in a room (as in
    test_room_browser.py): a poll answered 304 or cut off by leaving the page is reported
    aborted."""

    def _failed(self, request):
        path = urllib.parse.urlsplit(request.url).path
        if request.failure == "net::ERR_ABORTED" and request.method == "GET" and \
                re.fullmatch(r"/api/rooms/[^/]+", path):
            return
        super()._failed(request)


@pytest.fixture
def phone(browser):
    """``phone()``: a new watched page in its own browser profile (the bots' moves replayed at
    once). Its unfilled texts are kept in ``page.unfilled`` across its pages, and the times
    its room timer said in ``page.timer``; both, and its errors, are checked at the end."""
    opened = []

    def open_phone():
        context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True,
                                      has_touch=True)
        context.set_default_timeout(30_000)
        unfilled, timer = [], []
        context.expose_function("__unfilled", lambda text: unfilled.append(text))
        context.expose_function("__timer", lambda text: timer.append(text))
        context.add_init_script(WATCH_JS)
        context.add_init_script(BOT_SPEED_JS % "instant")
        page = context.new_page()
        page.monitor = Watched()
        page.monitor.attach(page)
        page.unfilled, page.timer = unfilled, timer
        opened.append((context, page))
        return page

    yield open_phone
    for context, _ in opened:
        context.close()
    for _, page in opened:
        page.monitor.check()
        assert not page.unfilled, page.unfilled


def filled(page) -> None:
    """Nothing on the page holds an unfilled placeholder: not its visible text nor its title,
    nor anything it has shown since it opened."""
    shown = page.evaluate("() => document.title + '\\n' + document.body.innerText")
    unfilled = [line for line in shown.splitlines() if "%(" in line]
    assert not unfilled, f"{page.url}: {unfilled}"
    assert not page.unfilled, f"{page.url}: {page.unfilled}"


def visit(page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    filled(page)


def ready(page) -> None:
    page.wait_for_function(READY_JS, timeout=30_000)
    filled(page)


# -- the pages that show no game --------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_home_rules_news_and_an_error_page(server, phone, lang):
    page = phone()
    for path in ("/", "/rules/parcheesi", "/rules/ludo", "/rules/red-arse", "/whats-new"):
        visit(page, f"{server.url}{path}?lang={lang}")
        assert page.locator("html").get_attribute("lang") == lang
    visit(page, f"{server.url}/g/not-a-game?lang={lang}")  # 200: a page that says why


# -- a link game: made from the form, turns sent, a bot's replayed, an older link ----------------

@pytest.mark.parametrize("lang", LANGS)
def test_a_link_game_with_a_bot_and_a_deadline(server, phone, lang):
    creator = phone()
    visit(creator, f"{server.url}/?lang={lang}")
    form = creator.locator("#newgame")
    form.locator(f"input[name=lang][value={lang}]").check()
    form.locator("input[name=play1]").check()
    form.locator("select[name=bot1]").select_option("easy")
    form.locator("input[name=name0]").fill("Ana")
    form.locator("input[name=name2]").fill("Ben")
    form.locator("select[name=deadline]").select_option("1")
    form.locator("button[type=submit]").click()
    expect(creator.locator("#sendbox")).to_be_visible()
    filled(creator)

    link, bodies = creator.locator("#nextlink").input_value(), []
    first_link = link
    for _ in range(2):  # a person's turn, the bot's, the other person's
        player = phone()
        player.goto(link)
        ready(player)
        play_out_turn(player)
        filled(player)
        link = send_turn(player, bodies)["url"]
        filled(player)
    last = phone()
    last.goto(link)
    ready(last)
    expect(last.locator("#feed li.bot").first).to_be_attached()
    expect(last.locator("#timeleft")).not_to_be_empty()
    older = phone()
    older.goto(first_link)  # played long ago: it says where the game went
    expect(older.locator("#status")).not_to_be_empty()
    older.wait_for_load_state("networkidle")
    filled(older)
    assert not [body for body in bodies if "%(" in body]


# -- a game on one phone ------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_a_pass_the_phone_game(server, phone, lang):
    page = phone()
    visit(page, f"{server.url}/?lang={lang}")
    form = page.locator("#newgame")
    form.locator("input[name=game][value=ludo]").check()
    form.locator(f"input[name=lu_lang][value={lang}]").check()
    form.locator("input[name=lu_name0]").fill("Ana")
    form.locator("input[name=lu_name2]").fill("Cleo")
    form.locator("input[name=local]").check()
    form.locator("button[type=submit]").click()
    expect(page.locator("#next")).to_be_visible()
    filled(page)
    for _ in range(2):
        page.locator("#next").click()
        ready(page)
        play_out_turn(page)
        filled(page)
        send_turn(page, [])
        expect(page.locator("#next")).to_be_visible()
        filled(page)


# -- a live room whose turn timer runs out -------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_a_room_whose_turn_timer_runs_out(server, phone, lang):
    """Three-second timers and nobody plays: every phone says the time is up, the turn is
    played for its player, and after two missed in a row the player is played for ("I'm
    back" on their phone)."""
    status, made = server.api("/api/rooms", {
        "game": "parcheesi", "me": 0, "lang": lang, "timer_seconds": 3,
        "players": [{"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]})
    assert status == 201, made
    code = made["room"]["code"]
    status, joined = server.api(f"/api/rooms/{code}/join", {})
    assert status == 200, joined
    pages = []
    for credential in (made["you"]["credential"], joined["you"]["credential"], None):
        page = phone()
        fragment = f"#c={urllib.parse.quote(credential)}" if credential else ""
        page.goto(f"{server.url}/r/{code}{fragment}")
        pages.append(page)
    for page in pages:  # the lobby, then the host starts the game
        expect(page.locator("#people li")).to_have_count(2)
        filled(page)
    status, _ = server.api(f"/api/rooms/{code}/start", {"credential": made["you"]["credential"]})
    assert status == 200
    first = server.api(f"/api/rooms/{code}")[1]
    first = first["seats"][first["turn"]]["name"]
    for page in pages:
        expect(page.locator("#timer")).not_to_be_empty()
    whose = []
    for _ in range(3):  # the first mover's, the other's, the first mover's again
        view = server.api(f"/api/rooms/{code}")[1]
        who = view["seats"][view["turn"]]["name"]
        whose.append(who)
        line = WORDS[lang]["played_for"].format(who=who)
        for page in pages:
            expect(page.locator("#feed li.auto").filter(has_text=line)).to_have_count(
                whose.count(who))
    for page in pages:
        filled(page)
        assert WORDS[lang]["time_up"].format(who=first) in page.timer, page.timer
    expect(pages[0 if first == "Ana" else 1].locator("#away button")).to_be_visible()
    for page in pages:
        filled(page)
