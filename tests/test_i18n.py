"""Languages: every message of the code has its Spanish, and pages pick the right language."""

from __future__ import annotations

import pytest
from flask import g
from flask_babel import gettext

from app import i18n
from app.keys import Keys
from app.web import create_app


@pytest.fixture(scope="module")
def app():
    return create_app({"KEYS": Keys.for_tests("i18n"), "TESTING": True})


def test_every_message_in_the_code_has_its_spanish():
    missing = i18n.untranslated("es")
    assert not missing, f"untranslated (run `python -m app i18n update`, translate " \
                        f"app/translations/es/LC_MESSAGES/messages.po): {missing[:20]}"


def test_the_template_in_the_repo_is_up_to_date_with_the_code():
    from babel.messages.pofile import read_po

    with i18n.POT.open("rb") as source:
        kept = {m.id for m in read_po(source) if m.id}
    found = {m.id for m in i18n.extract() if m.id}
    assert found == kept, "run `python -m app i18n update`"


def test_the_compiled_catalog_follows_its_source():
    written = i18n.compile_catalogs(force=True)
    assert written == [i18n.catalog_path("es", "mo")]
    assert i18n.compile_catalogs() == []  # up to date: nothing to do


@pytest.mark.parametrize("headers,query,cookie,table,expected", [
    ({"Accept-Language": "es-AR,es;q=0.9,en;q=0.5"}, "", None, None, "es"),
    ({"Accept-Language": "fr-FR,en;q=0.5"}, "", None, None, "en"),
    ({"Accept-Language": "fr-FR"}, "", None, None, "en"),
    ({"Accept-Language": "es"}, "?lang=en", None, None, "en"),  # an explicit switch wins
    ({"Accept-Language": "en"}, "", "es", None, "es"),  # an earlier choice beats the browser
    ({"Accept-Language": "en"}, "", "en", "es", "es"),  # the table's language beats both
    ({}, "?lang=en", None, "es", "en"),
    ({}, "?lang=xx", None, None, "en"),
])
def test_the_language_follows_the_switch_the_table_the_choice_then_the_browser(
        app, headers, query, cookie, table, expected):
    if cookie:
        headers = dict(headers, Cookie=f"lang={cookie}")
    with app.test_request_context("/" + query, headers=headers):
        if table:
            g.table_lang = table
        assert i18n.select_locale() == expected


def test_client_messages_are_only_the_browsers_and_english_needs_none():
    assert i18n.client_messages("en") == {}
    spanish = i18n.client_messages("es")
    assert spanish and all(isinstance(k, str) and v for k, v in spanish.items())
    assert "Roll the dice first." not in spanish  # a server message: not the client's


def test_flask_babel_reads_our_catalog(app):
    with app.test_request_context("/?lang=es"):
        assert gettext("Roll the dice first.") == "Primero tirá los dados."


def test_a_red_arse_marble_leaving_the_center_reads_well_in_spanish():
    from app.engine.core import Move
    from app.engine.games import rules_for

    rules = rules_for("red-arse")
    label = rules.move_label(0, Move(0, rules.center, 5, (6,)))
    assert i18n.translate(label, "es") == "Bolita en el centro a 6 (6)"  # not "de el centro"
    assert i18n.translate(label, "en") == "Marble on the center to 6 (6)"
    said = rules.move_said(0, Move(0, rules.center, 5, (6,)), "Meli")
    assert i18n.translate(said, "es") == "Meli movió una bolita desde el centro hasta 6 (6)"
    assert i18n.translate(said, "en") == "Meli moved a marble from the center to 6 (6)"


def test_a_move_in_the_feed_says_what_happened_in_each_game():
    """The feed tells a played move as a sentence ("Meli sacó una ficha"); the page's offered
    moves keep their short labels."""
    from app.engine.core import Move
    from app.engine.games import rules_for
    from app.engine.ludo import HOME
    from app.engine.parcheesi import NEST

    ludo, parcheesi = rules_for("ludo"), rules_for("parcheesi")
    out = ludo.move_said(0, Move(0, HOME, 0, (6,)), "Meli")
    assert i18n.translate(out, "es") == "Meli sacó una ficha (6)"
    assert i18n.translate(out, "en") == "Meli brought a piece out (6)"
    walk = ludo.move_said(0, Move(0, 12, 15, (3,)), "Meli")
    assert i18n.translate(walk, "es") == "Meli movió una ficha de 13 a 16 (3)"
    entered = parcheesi.move_said(0, Move(0, NEST, 0, (5,)), "Ana")
    assert i18n.translate(entered, "es") == "Ana sacó una ficha (5)"
    assert i18n.translate(entered, "en") == "Ana entered a pawn (5)"


def test_another_color_s_home_takes_the_home_s_gender_in_spanish():
    from app.engine.core import Move
    from app.engine.games import rules_for

    rules = rules_for("red-arse")
    blue_home = rules.board.home(1, 1)  # blue's slot 2
    raid = Move(0, blue_home - 3, blue_home, (3,))
    label = rules.move_label(0, raid)
    assert "el hoyo 2 de la casa azul" in i18n.translate(label, "es")
    said = i18n.translate(rules.move_said(0, raid, "Ana"), "es")
    assert said.startswith("Ana invadió el hoyo 2 de la casa azul con una bolita que estaba en")
