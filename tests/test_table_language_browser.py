"""The New game form speaks the page's language (issue 43, part 5), in Chromium at 360 px: a
table made from an English page is English unless the host picks Spanish, "By WhatsApp" follows
the table's language and the number typed, and "how to play" opens the rules in the page's
language, header and all."""

from __future__ import annotations

import os

import pytest

from browser_support import CHROMIUM, PHONE, Phones

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")

# The browser's own language, as a phone in each country would send it.
LOCALES = {"en": "en-US", "es": "es-AR"}
WORDS = {"en": {"h1": "New game", "rules": "How to play Ludo", "nav": "What's new"},
         "es": {"h1": "Partida nueva", "rules": "Cómo se juega al Ludo", "nav": "Novedades"}}


@pytest.fixture
def page_in(browser):
    """``page_in(server, lang)``: the home page on a 360 px phone whose browser speaks ``lang``
    (``refused``: a form the server is expected to send back, 400, once)."""
    phones = Phones(browser)

    def open_home(server, lang: str, refused: bool = False):
        page, monitor = phones.open(viewport=dict(PHONE, width=360), locale=LOCALES[lang],
                                    is_mobile=True, has_touch=True)
        if refused:
            monitor.allow("/new", 400)
        page.goto(server.url + "/")
        page.locator("#newgame.enhanced").wait_for()
        page.locator("input[name=game][value=ludo]").check()
        return page

    yield open_home
    phones.close()


def whatsapp(page, seat: int):
    return page.locator(f"input[name=lu_whatsapp{seat}]")


def phone_of(page, seat: int):
    return page.locator(f"input[name=lu_phone{seat}]")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_ludo_table_is_proposed_in_the_page_s_language(server, page_in, lang):
    from playwright.sync_api import expect

    page = page_in(server, lang)
    expect(page.locator("h1")).to_have_text(WORDS[lang]["h1"])
    expect(page.locator(f"input[name=lu_lang][value={lang}]")).to_be_checked()
    # Texts at an English table, WhatsApp at a Spanish (Argentine) one, on every seat.
    for seat in (0, 1, 2, 3):
        expect(whatsapp(page, seat)).to_be_checked(checked=lang == "es")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # The game made is in the page's language: its page speaks it.
    page.locator("input[name=autoplay][type=checkbox]").uncheck()
    page.locator("#newgame button[type=submit]").click()
    page.locator("#sendbox").wait_for()
    assert page.locator("html").get_attribute("lang") == lang


@pytest.mark.parametrize("lang", ["en", "es"])
def test_by_whatsapp_follows_the_number_typed_and_the_table_s_language(server, page_in, lang):
    from playwright.sync_api import expect

    page = page_in(server, lang)
    # An Argentine number suggests WhatsApp, a US one a text, whatever the page's language.
    phone_of(page, 0).fill("+54 9 11 2345-6789")
    expect(whatsapp(page, 0)).to_be_checked()
    phone_of(page, 2).fill("+1 201 555 0123")
    expect(whatsapp(page, 2)).not_to_be_checked()
    # A number without its country code is read in the table's country (Spanish: Argentina),
    # and a blank one follows the table's language: switching it switches them.
    phone_of(page, 1).fill("11 2345-6789")
    expect(whatsapp(page, 1)).to_be_checked(checked=lang == "es")
    other = "en" if lang == "es" else "es"
    page.locator(f"input[name=lu_lang][value={other}]").check()
    expect(whatsapp(page, 1)).to_be_checked(checked=other == "es")
    expect(whatsapp(page, 3)).to_be_checked(checked=other == "es")
    expect(whatsapp(page, 0)).to_be_checked()
    expect(whatsapp(page, 2)).not_to_be_checked()
    # The host's own tick stands: neither the number nor the language changes it again.
    whatsapp(page, 0).uncheck()
    phone_of(page, 0).fill("+54 9 11 2345-6780")
    page.locator(f"input[name=lu_lang][value={lang}]").check()
    expect(whatsapp(page, 0)).not_to_be_checked()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.parametrize("lang", ["en", "es"])
def test_how_to_play_opens_the_rules_in_the_page_s_language(server, page_in, lang):
    from playwright.sync_api import expect

    page = page_in(server, lang)
    page.locator("#gamechoice label", has_text="Ludo").locator("a").click()
    expect(page.locator("h1")).to_have_text(WORDS[lang]["rules"])
    assert page.locator("html").get_attribute("lang") == lang
    expect(page.locator("header.bar nav")).to_contain_text(WORDS[lang]["nav"])
    # Switched to the other language on the home page, the link follows the switch.
    other = "en" if lang == "es" else "es"
    page.goto(server.url + f"/?lang={other}")
    page.locator("input[name=game][value=ludo]").check()
    page.locator("#gamechoice label", has_text="Ludo").locator("a").click()
    expect(page.locator("h1")).to_have_text(WORDS[other]["rules"])


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_form_sent_back_keeps_the_host_s_channels(server, page_in, lang):
    from playwright.sync_api import expect

    page = page_in(server, lang, refused=True)
    phone_of(page, 0).fill("+54 9 11 2345")  # too short: the form comes back with the error
    whatsapp(page, 0).uncheck()
    page.locator("#newgame button[type=submit]").click()
    expect(page.locator("p.error[role=alert]")).to_be_visible()
    expect(whatsapp(page, 0)).not_to_be_checked()
    phone_of(page, 0).fill("+54 9 11 2345-6789")  # mended: the host's choice stands
    expect(whatsapp(page, 0)).not_to_be_checked()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
