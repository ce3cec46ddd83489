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
