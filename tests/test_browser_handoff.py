"""A game night by link without rough edges (issue 43, parts 2, 6 and 7), in Chromium at 360 px,
in English and in Spanish: a turn that comes back to its sender plays on on the same phone
(nobody is sent a link), the feed tells the sender's own turn in full (no "Ben: …" waiting for
a review) and the die left after sending is the sender's, and a finished Ludo game's rematch
is its host's alone: their link, or the phone that made the game.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from app.link import Seat  # noqa: E402
from app.play import Game  # noqa: E402
from browser_support import (  # noqa: E402
    CHROMIUM, KEYS, PHONE, RA_NAMES, Phones, dice, hash_steps, ludo_last_turn, page_hash, roll,
    send_turn, tap_landing)

pytestmark = [pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
              pytest.mark.usefixtures("fresh_store")]  # each test its own store
LANGS = ("en", "es")
LOCALES = {"en": "en-US", "es": "es-AR"}
WORDS = {
    "en": {"again": "Nobody else had a move to choose. {who}, your turn again.",
           "continue": "Continue", "rolled": "{who} rolled {n}", "automatic": "automatic",
           "your_roll": "{who}, you rolled {n}: your move.", "i_am": "I'm {who}",
           "ask": "{who}, open the link with the results that was sent to you, or this page "
                  "on the phone you made the game on: the rematch is there.",
           "rematch": "Rematch"},
    "es": {"again": "Nadie más tenía una jugada para elegir. {who}, te toca otra vez.",
           "continue": "Seguir", "rolled": "{who} sacó {n}", "automatic": "automático",
           "i_am": "Soy {who}",
           "ask": "{who}, abrí el link con los resultados que te mandaron, o esta página en el "
                  "celular donde armaste la partida: la revancha está ahí.",
           "rematch": "Revancha"},
}


@pytest.fixture
def phone(browser):
    """``phone(lang)``: a new 360 px phone (its own profile) whose browser speaks ``lang``;
    every page is checked for errors at the end."""
    phones = Phones(browser)

    def open_phone(lang: str):
        return phones.open(viewport=dict(PHONE, width=360), locale=LOCALES[lang],
                           device_scale_factor=1, is_mobile=True, has_touch=True)[0]

    yield open_phone
    phones.close()


def arrive(page, url: str, ready: str):
    """Open ``url`` and end the replay on arrival, if one is still going, until ``ready``."""
    page.goto(url)
    skip, target = page.locator("#skip"), page.locator(ready).first
    expect(skip.or_(target).first).to_be_visible()
    page.evaluate("() => { const skip = document.getElementById('skip');"
                  " if (skip && !skip.hidden) skip.click(); }")
    expect(target).to_be_visible()
    return page


def in_lang(game: Game, lang: str) -> Game:
    return Game(replace(game.header, lang=lang), game.match, game.keys)


# -- games with known dice: three people, every step with nothing to decide played for them ----

def ludo_of_three(number: int, lang: str) -> Game:
    seats = [Seat(name=RA_NAMES[i], color=i) for i in range(3)]
    game = in_lang(Game.new("ludo", seats, KEYS, seed=number.to_bytes(8, "big")), lang)
    game.hand_on()
    return game


def after_choice(token: str, seat: int, index: int) -> Game:
    """The game at ``token`` after ``seat`` takes the move at ``index`` and the rest of the
    turn plays itself."""
    game = Game.from_token(token, KEYS)
    game.step(index)
    game.play_forced(seat)
    return game


def find_turn(wanted, lang: str) -> tuple[str, int]:
    """A link of a game of three at a choice of moves where ``wanted(token, seat, choices)``:
    ``(token, seat)`` (the players take the first move at every choice until then)."""
    for number in range(300):
        game = ludo_of_three(number, lang)
        for _ in range(40):
            if game.over:
                break
            token, seat = game.token(), game.match.turn
            choices = len(game.match.legal_moves())
            if game.match.phase == "move" and choices > 1 and wanted(token, seat, choices):
                return token, seat
            game.step(0)
            game.hand_on()
    raise AssertionError("no game reaches the situation the test needs")


def comes_back(token: str, seat: int, choices: int) -> bool:
    """Whatever the player chooses, their turn ends there, and the others' turns play
    themselves back to them, at a choice of theirs."""
    for index in range(choices):
        game = after_choice(token, seat, index)
        if game.over or game.match.turn == seat:
            return False
        game.hand_on()
        if game.over or game.match.turn != seat:
            return False
    return True


def six_then_its_roll(token: str, seat: int, choices: int) -> bool:
    """A 6 to move, the first move taken at every choice of the turn: the roll the 6 earns is
    the server's (nothing to decide), and the next player's link opens with a roll unlike the
    sender's last."""
    game = Game.from_token(token, KEYS)
    if game.match.history[-1] != ("roll", seat, (6,)):
        return False
    while not game.over and game.match.turn == seat:
        game.step(0)
        game.play_forced(seat)
    if game.over:
        return False
    ours = [dice for kind, who, dice in game.match.history if kind == "roll" and who == seat]
    game.hand_on()
    theirs = game.match.history[-1]
    return not game.over and game.match.turn != seat and theirs[0] == "roll" and \
        theirs[2] != ours[-1]


def play_first_moves(page, server, token: str, seat: int) -> list[dict]:
    """Tap the first move the server offers until the turn is over; the moves tapped."""
    tapped = []
    while not page.locator("#send").is_visible():
        move = server.position(token, seat, hash_steps(page))["legal"][0]
        tap_move(page, move)
        tapped.append(move)
    return tapped


def tap_move(page, move: dict) -> None:
    """Tap the landing spot of ``move`` (as the server offers it), choosing it if the spot
    offers two, and wait until the page has played it."""
    before = page_hash(page)
    page.locator(f'#board circle.landing[aria-label*="{move["label"]}"]').first.click()
    if page.locator("#choices").is_visible():
        page.locator("#choices button", has_text=move["label"]).click()
    page.wait_for_function("(h) => location.hash !== h", arg=before)


# -- part 2: the turn stays on the phone it belongs to -------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_a_turn_that_comes_back_to_its_sender_plays_on_on_the_same_phone(server, phone, lang):
    token, seat = find_turn(comes_back, lang)
    who, words = RA_NAMES[seat], WORDS[lang]
    page = arrive(phone(lang), server.game_url(token), "#board circle.landing")
    tap_landing(page)
    answer = send_turn(page, [])
    assert answer["turn"] == seat and answer["message"]["status"] == "not-sent"

    # "Your turn again", and no way to send the link: there is nobody to send it to.
    expect(page.locator("#sendmsg")).to_have_text(words["again"].format(who=who))
    for way in ("#sms", "#whatsapp", "#share", "#copy", "#nextlink"):
        expect(page.locator(way)).to_be_hidden()
    expect(page.locator("#next")).to_have_text(words["continue"])

    # Continue: the next turn, on the new link, its dice rolled for them.
    page.locator("#next").click()
    page.wait_for_url(answer["url"])
    expect(page.locator("#sendbox")).to_be_hidden()
    expect(page.locator("#board circle.landing").first).to_be_visible()
    if lang == "en":
        n = answer["last_roll"][0]
        expect(page.locator("#status")).to_have_text(words["your_roll"].format(who=who, n=n))
    tap_landing(page)  # and it plays
    expect(page.locator("html")).to_have_attribute("lang", lang)


# -- part 6: the feed says what happened; the die after sending is ours ----------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_feed_tells_a_6_and_the_roll_it_earned_and_our_die_stays_ours(server, phone, lang):
    token, seat = find_turn(six_then_its_roll, lang)
    who, words = RA_NAMES[seat], WORDS[lang]
    page = phone(lang)
    held = []  # the reviews are held unanswered: a server under load, the review never comes
    page.route("**/review?*", lambda route: held.append(route))
    arrive(page, server.game_url(token), "#board circle.landing")
    chosen = play_first_moves(page, server, token, seat)
    turn = server.position(token, seat, hash_steps(page))
    tapped, earned = turn["turn_events"][0], turn["turn_events"][1]
    assert tapped["kind"] == "move" and earned["kind"] == "roll" and earned["forced"]
    ours = turn["last_roll"]
    answer = send_turn(page, [])
    assert answer["last_roll"] != ours  # the next player's link opens with its own roll

    # The move chosen, in words, and the roll it earned, tagged automatic: never "Ben: …".
    for move in chosen:
        expect(page.locator("#feed li", has_text=move["said"]).first).to_be_visible()
    rolled = words["rolled"].format(who=who, n=earned["dice"][0])
    expect(page.locator("#feed li.forced", has_text=rolled).first).to_have_attribute(
        "data-tag", words["automatic"])
    expect(page.locator("#sendmsg")).to_be_visible()
    assert not [line for line in page.locator("#feed li").all_text_contents() if "…" in line]
    # Once the others' turns are shown, the die is the sender's last, not the next player's.
    expect(page.locator("#skip")).to_be_hidden()
    expect(page.locator("#dice span.die")).to_have_count(len(ours))
    assert dice(page) == ours
    assert held  # the review was asked for, and still isn't answered


# -- part 7: the rematch is the host's ----------------------------------------------------------

def finished_by_a_guest(lang: str) -> tuple[Game, int, list]:
    """A Ludo game of three one roll and one move from its end, the last move not the host's
    (Ana's), its table speaking ``lang``."""
    for number in range(200):
        game, seat, steps = ludo_last_turn(number, players=3)
        if len(steps) == 2 and seat != 0:
            return in_lang(game, lang), seat, steps
    raise AssertionError("no game ends the way the test needs")


def made_on(server, page, game: Game, token: str) -> None:
    """Record ``game`` as made on the phone ``page`` (its device cookie), as the New game form
    records the games it makes."""
    from app.web.bookkeeping import ledger

    page.goto(server.url + "/")
    device = next(c["value"] for c in page.context.cookies() if c["name"] == "device")
    with server.app.app_context():
        ledger().begin(game.header.seed, token, len(game.match.steps), game.match.turn, device,
                       seats=len(game.header.seats))


@pytest.mark.parametrize("lang", LANGS)
def test_only_the_host_s_link_or_phone_gets_the_rematch(server, phone, lang):
    game, seat, steps = finished_by_a_guest(lang)
    token, words, host = game.token(), WORDS[lang], phone(lang)
    made_on(server, host, game, token)

    # The last mover finishes the game and is given the host's link to send them.
    guest = arrive(phone(lang), server.game_url(token), "#roll")
    roll(guest)
    legal = server.position(token, seat, ["roll"])["legal"]
    tap_move(guest, next(m for m in legal if [m["from"], m["to"]] == [steps[1]["from"],
                                                                       steps[1]["to"]]))
    answer = send_turn(guest, [])
    link = answer["message"]["url"]
    assert link.startswith(answer["url"] + "?host=")
    expect(guest.locator("#nextlink")).to_have_value(link)
    expect(guest.locator("#rematch")).to_be_hidden()

    # Another phone: "I'm Ana" asks for her link, and gives no rematch.
    other = arrive(phone(lang), answer["url"], "#results")
    expect(other.locator("#rematch")).to_be_hidden()
    expect(other.locator("#iamhost")).to_have_text(words["i_am"].format(who="Ana"))
    other.locator("#iamhost").click()
    expect(other.locator("#rematchnote")).to_have_text(words["ask"].format(who="Ana"))
    expect(other.locator("#iamhost")).to_be_hidden()
    expect(other.locator("#rematch")).to_be_hidden()
    # The host's link written by hand is no host's link.
    forged = arrive(phone(lang), answer["url"] + "?host=1", "#results")
    expect(forged.locator("#iamhost")).to_be_visible()
    expect(forged.locator("#rematch")).to_be_hidden()

    # The phone that made the game has it on the plain final link; any phone on her link.
    arrive(host, answer["url"], "#results")
    expect(host.locator("#rematch")).to_have_text(words["rematch"])
    expect(host.locator("#iamhost")).to_be_hidden()
    hers = arrive(phone(lang), link, "#results")
    expect(hers.locator("#rematch")).to_be_enabled()

    # The server has the last word: the other phone's own request is refused; her link's works.
    refused = other.request.post(f"{server.url}/api/games/{answer['token']}/rematch",
                                 data={"seat": 0})
    assert refused.status == 403
    hers.locator("#rematch").click()
    hers.wait_for_url(re.compile(r"/g/[^?]+\?new=1$"))
    expect(hers.locator("#sendbox")).to_be_visible()
