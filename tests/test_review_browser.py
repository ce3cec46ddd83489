"""The finished game's review reads right (issue 43, part 9), in Chromium at 360 px in both
languages: luck on the graph's scale (points of chance to win per roll), what a move missed
worded to follow "Missed:", and a misstep or blunder in the list that, tapped, goes to its
turn on the graph and shows the better move on a board of the position it was played from."""

from __future__ import annotations

import os
import re

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

from app import i18n  # noqa: E402
from app.engine.analysis import REASONS  # noqa: E402
from browser_support import (  # noqa: E402
    CHROMIUM, PHONE, Monitor, point_after, reviewed_game, shot)

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")

LUCK = {"en": r"[+−]?\d+\.\d points a roll", "es": r"[+−]?\d+,\d puntos por tirada"}


@pytest.fixture
def review_page(browser, server):
    """``review_page(lang)``: a finished game's page at 360 px, its whole review in; the game's
    decisions, reviews and course, as ``reviewed_game`` gives them."""
    opened = []

    def open_review(lang: str):
        token, decisions, reviews, course = reviewed_game(server)
        context = browser.new_context(viewport=dict(PHONE, width=360), is_mobile=True,
                                      has_touch=True)
        page = context.new_page()
        monitor = Monitor()
        monitor.attach(page)
        opened.append((context, monitor))
        page.goto(server.game_url(token) + f"?lang={lang}")
        expect(page.locator("#stats td", has_text="…")).to_have_count(0)
        expect(page.locator("#reviewprogress")).to_be_hidden()
        return page, token, decisions, reviews, course

    yield open_review
    for context, monitor in opened:
        monitor.check()
        context.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_luck_is_per_roll_on_the_graph_s_scale(server, review_page, lang):
    page, token, *_ = review_page(lang)
    answer = server.api(f"/api/games/{token}/luck")[1]
    per_roll = [round(luck / rolls, 1) for luck, rolls in zip(answer["luck"], answer["rolls"])]
    cells = page.locator("#stats tbody tr td:last-child").all_text_contents()
    assert all(re.fullmatch(LUCK[lang], cell.strip()) for cell in cells), cells
    shown = [float(re.match(r"[+−]?\d+[.,]\d", cell.strip()).group().replace(",", ".")
                   .replace("−", "-")) for cell in cells]
    assert shown == per_roll and all(abs(n) <= 100 for n in shown)
    # What a point of luck is, said beside the table.
    key = page.locator(".statkeys dd").last.text_content()
    assert key == i18n.translate("per roll, the points of chance to win (the graph's percentage "
                                 "points) the player's dice gave (+) or took (−) next to an "
                                 "average roll: +3 is a roll that led to a chance 3 points "
                                 "higher than an average roll would have.", lang)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_what_a_move_missed_reads_after_missed():
    # Each is what the better move does and the one played doesn't: "Missed: a capture",
    # "Missed: keeping its pawns out of a rival's reach", never "Missed: a pawn left in danger".
    for game, reasons in REASONS.items():
        assert "keeping its" in reasons["danger"] and "reach" in reasons["danger"], game
        for words in reasons.values():
            assert "left in" not in words, words


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_tapped_mistake_goes_to_its_turn_and_shows_the_better_move_on_a_board(
        review_page, lang):
    page, token, decisions, reviews, course = review_page(lang)
    wrong = [step for step, _ in decisions if reviews[step]["grade"] in ("misstep", "blunder")]
    assert wrong
    step = wrong[-1]
    item = page.locator(f"#mistakes li[data-step='{step}'] button")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the list at the bottom
    item.tap()
    k = point_after(course, step)
    panel = page.locator("#turnreview")
    expect(panel).to_have_attribute("data-point", str(k))
    assert page.locator("#course").get_attribute("aria-valuenow") == str(k)
    # The graph came into view, with the turn's review under it.
    graph = page.locator("#course").bounding_box()
    assert 0 <= graph["y"] and graph["y"] + graph["height"] <= PHONE["height"], graph
    # The board: the position the move was played from, the better move drawn, the one played
    # faint, with a caption saying so.
    board = panel.locator(f"li[data-step='{step}'] #reviewboard")
    expect(board).to_be_visible()
    assert board.locator("polyline.arrow.better").count() == 1
    assert board.locator("polyline.arrow.played").count() == 1
    review = page.evaluate(f"""async () => (await fetch(
        '/api/games/{token}/review?step={step}&lang={lang}')).json()""")
    assert board.locator("circle.piece").count() == sum(len(p) for p in review["pieces"])
    best = review["options"][review["best"]]
    assert board.get_attribute("aria-label").startswith(
        i18n.translate("Better: %(move)s", lang).replace("%(move)s", best["label"]))
    expect(panel.locator(".reviewboard figcaption")).to_have_text(i18n.translate(
        "The better move on the board, and faint the move played, where the pieces stood.",
        lang))
    box = board.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, f"{lang}-review-better-move-phone")
    # The page's own board still takes the taps: the review's is a picture.
    assert page.locator("#board").count() == 1
