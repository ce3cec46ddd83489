"""Languages: English, and Spanish as spoken in Argentina, from gettext catalogs (Flask-Babel).

The catalogs live in ``app/translations``. ``messages.pot`` is extracted from the code
(``babel.cfg``: the Python modules, the templates and the browser client's modules, which call
``_()`` too); ``es/LC_MESSAGES/messages.po`` holds the Spanish; ``messages.mo`` is compiled from
it (not committed). ``python -m app i18n update`` extracts and merges, ``python -m app i18n
compile`` compiles; the app compiles a stale catalog itself when it starts where it may write
(development, tests), and Zappa's prebuild hook (``zappa_settings.json``) compiles before
packaging for Lambda.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from app.link import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
POT = TRANSLATIONS / "messages.pot"
LANGUAGE_NAMES = {"en": "English", "es": "Español"}


def catalog_path(lang: str, ext: str = "po") -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / f"messages.{ext}"


def compile_catalogs(force: bool = False) -> list[Path]:
    """Compile every ``.po`` whose ``.mo`` is missing or older; returns the files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for lang in LANGUAGES[1:]:
        po, mo = catalog_path(lang), catalog_path(lang, "mo")
        if not po.exists() or not force and mo.exists() and \
                mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=lang)
        with mo.open("wb") as target:
            write_mo(target, catalog)
        written.append(mo)
    return written


def prebuild() -> None:
    """Zappa's ``prebuild_script``: the Lambda package carries compiled catalogs."""
    compile_catalogs(force=True)


def extract():
    """Every translatable message in the code, as a Babel catalog (what ``messages.pot`` is)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

    catalog = Catalog(project="Boardpass", charset="utf-8")
    method_map = [("app/**.py", "python"), ("app/web/templates/**.html", "jinja2"),
                  ("static/js/**.js", "javascript")]
    options = {"app/web/templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    keywords = dict(DEFAULT_KEYWORDS, Text=None)  # app.engine.text.Text("...", **values)
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT, method_map, options, keywords=keywords, comment_tags=("TRANSLATORS:",),
            directory_filter=lambda path: "tests" not in Path(path).parts):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                    context=context)
    return catalog


def update() -> dict[str, int]:
    """Write ``messages.pot`` from the code and merge it into each language's ``.po`` (new
    messages come in untranslated, gone ones are kept as obsolete). Returns message counts."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    template = extract()
    POT.parent.mkdir(parents=True, exist_ok=True)
    with POT.open("wb") as out:
        write_po(out, template, width=99, omit_header=False, sort_output=True)
    counts = {"messages": len(template)}
    for lang in LANGUAGES[1:]:
        path = catalog_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            with path.open("rb") as source:
                catalog = read_po(source, locale=lang)
        else:
            catalog = Catalog(locale=lang, project="Boardpass", charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True)
        with path.open("wb") as out:
            write_po(out, catalog, width=99, sort_output=True)
        counts[lang] = len(untranslated(lang, catalog))
    return counts


def untranslated(lang: str, catalog=None) -> list[str]:
    """Messages of the code that ``lang``'s catalog lacks, or has only as a fuzzy guess."""
    from babel.messages.pofile import read_po

    if catalog is None:
        with catalog_path(lang).open("rb") as source:
            catalog = read_po(source, locale=lang)
    missing = []
    for message in extract():
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        text = found.string if found else None
        if isinstance(text, tuple):
            text = text[0] and all(text)
        if not found or not text or found.fuzzy:
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    return missing


@cache
def client_messages(lang: str) -> dict[str, str]:
    """The browser client's messages in ``lang`` (msgid to text): what static/js asks for."""
    if lang not in LANGUAGES or lang == LANGUAGES[0]:
        return {}
    from babel.messages.pofile import read_po

    with catalog_path(lang).open("rb") as source:
        catalog = read_po(source, locale=lang)
    return {m.id: m.string for m in catalog
            if m.id and isinstance(m.id, str) and m.string and not m.fuzzy and
            any(path.startswith("static/js/") for path, _ in m.locations)}


def select_locale() -> str:
    """The page's language: an explicit ``?lang=`` switch (or ``lang`` in an API request's
    body: ``g.asked_lang``), then the table's language (a game's link carries it:
    ``g.table_lang``), then the visitor's earlier choice (cookie), then the browser's
    preference."""
    from flask import g, request

    for lang in (request.args.get("lang"), g.get("asked_lang"), g.get("table_lang"),
                 request.cookies.get("lang")):
        if lang in LANGUAGES:
            return lang
    return request.accept_languages.best_match(LANGUAGES) or LANGUAGES[0]


def page_lang() -> str:
    """The language of the request being answered (``select_locale``'s choice)."""
    from flask_babel import get_locale

    locale = get_locale()
    lang = locale.language if locale is not None else None
    return lang if lang in LANGUAGES else LANGUAGES[0]


def use_table_lang(lang: str) -> None:
    """Answer this request in a table's language (unless ``?lang=`` asks for another): game
    pages and API calls set it from the link once it is read."""
    from flask import g
    from flask_babel import refresh

    g.table_lang = lang
    refresh()  # Flask-Babel keeps the locale it chose: choose again


def ask_lang(lang) -> None:
    """Answer this request in ``lang`` (an API request's body asks for it), whatever the
    table's: ignored unless a language of ours."""
    from flask import g
    from flask_babel import refresh

    if lang in LANGUAGES:
        g.asked_lang = lang
        refresh()


def say(message: str) -> str:
    """A marked message (``N_``, or a ``Text`` as ``app.web.parse.message`` makes one), translated
    into the language of the request being answered: showing a message, not choosing it."""
    return translate(message, page_lang())


@cache
def client_version(lang: str) -> str:
    """A fingerprint of the client's messages in ``lang``: their URL changes when they do, so
    browsers may keep them."""
    import hashlib
    import json

    text = json.dumps(client_messages(lang), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


@cache
def _translations(lang: str):
    from babel.support import Translations

    try:
        compile_catalogs()
    except OSError:  # a read-only package (Lambda) carries compiled catalogs
        pass
    return Translations.load(str(TRANSLATIONS), [lang])


def translate(message: str, lang: str) -> str:
    """A player message in ``lang``: a fixed message marked with ``N_``, or a ``Text`` whose
    values (``Text`` themselves, or plain values such as names) are filled in after."""
    from app.engine.text import Text

    if lang not in LANGUAGES or lang == LANGUAGES[0]:
        return str(message)
    gettext = _translations(lang).gettext
    if isinstance(message, Text):
        values = {key: translate(value, lang) if isinstance(value, Text) else value
                  for key, value in message.args.items()}
        return gettext(message.msgid) % values
    return gettext(message)
