"""The Spanish is written for readers from Buenos Aires (docs/spanish.md), not translated: what
one stumbled on (issue 43) never comes back, in the catalog (pages, texts, notifications, the
browser's words), the rules pages, the news, or the Spanish pages as served."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app import i18n
from app.engine.text import Text

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "app" / "web" / "templates"

# What a Rioplatense reader stumbled on, and what is said instead.
STUMBLES = [
    "Vos: ",                           # "Jugás con Rojo (Xa)"
    "Sin jugada posible",              # "No hubo jugada para Sofi."
    "Con una sola jugada, ya hecha",   # "Hicimos la jugada obligada de Sofi."
    "Cedido por jugada",               # "Pérdida por jugada"
    "Capturas no hechas",              # "Fichas sin comer"
    "Victorias de siempre",            # "Historial de victorias en este navegador"
    "Se le pasó:",                     # "Le faltó: no dejar fichas a tiro de un rival"
    "pasándose un link",               # "Jugá con tus amigos: el link pasa de uno a otro"
    "(medio)",                         # "Bot (intermedio)"
    "cifras",                          # "letras y números"
    "Parcheesi",                       # "Parchís"
    "móvil",                           # "celular"
]
PATTERNS = [
    r"\b[Vv]olvi\b",      # "volví" without its accent: texts say "avisá que volviste"
    r"\b[Cc]aptur",       # a piece is comida
    r"\d[ \u00a0]%",      # "8%", as the pills write it
]
# The voseo imperatives the buttons used to mix with infinitives: buttons are infinitives now.
OLD_BUTTONS = ["Copiá el link", "Mandá el turno", "Tirá los dados", "Tirá el dado",
               "Terminá el turno", "Terminá la partida", "Salteá la repetición", "Ocupá el lugar",
               "Jugá el próximo turno acá", "Mandalo por WhatsApp", "Mandalo por SMS",
               "Abrí el link más nuevo", "Empezá una partida nueva"]

# Every button's words, by its English (msgctxt, msgid): the page's and the script's.
BUTTONS = [(None, m) for m in (
    "Copy link", "Send turn", "End turn", "Finish the game", "Skip replay", "Take the seat",
    "Play the next turn here", "Send by WhatsApp", "Send by text", "Open the newest link",
    "Start a new game", "Create game", "Start the game", "Leave the room", "Play it for them",
    "Add a player", "Add to the game", "Join", "Join with a code", "Share", "Undo", "Continue",
    "Play", "Play live in a room", "Go on with the game", "Rematch",
    "Notify me on this phone when it's my turn", "Stop notifying this phone", "I'm %(host)s",
    "I'm %(who)s: I'm back", "That's me: play now")] + [("dice", "Roll"), ("die", "Roll")]
# A button says its action in the infinitive ("Copiar el link"), the player's own "Soy Ana",
# or names a thing.
INFINITIVE = re.compile(r"(?:[A-ZÁÉÍÓÚÑ][a-záéíóúñ]*(?:ar|er|ir|ír)(?:me|se|lo|la|le|les)?"
                        r"|Soy|Revancha)\b")


def stumbles(text: str) -> list[str]:
    """What in ``text`` a reader stumbled on; an old button's words count as a button's (whole,
    bold or quoted), not in a sentence ("Abrí el link más nuevo (el último que te mandaron)")."""
    found = [s for s in STUMBLES if s in text]
    found += [b for b in OLD_BUTTONS
              if re.search(rf"(?:^|<b>|[\"«]){re.escape(b)}(?:$|</b>|[\"»])", text.strip())]
    return found + [p for p in PATTERNS if re.search(p, text)]


def spanish_catalog():
    with i18n.catalog_path("es").open("rb") as source:
        return read_po(source, locale="es")


def test_no_spanish_message_says_what_a_rioplatense_reader_stumbled_on():
    said = {m.id: m.string for m in spanish_catalog() if m.id and m.string}
    bad = {mid: (text, stumbles(text)) for mid, text in said.items() if stumbles(text)}
    assert not bad


def test_the_compiled_catalog_says_the_same():
    i18n.compile_catalogs(force=True)
    i18n._translations.cache_clear()
    assert i18n.translate(Text("%(names)s had no move.", names="Sofi"), "es") == \
        "No hubo jugada para Sofi."
    assert i18n.translate(Text("Parcheesi"), "es") == "Parchís"
    assert i18n.translate(Text("How to play %(game)s", game=Text("Parcheesi")), "es") == \
        "Cómo se juega al Parchís"


def test_texts_and_notifications_use_the_words_of_the_buttons_they_name():
    """Texts are GSM-7 (no á, í, ó, ú), so they don't quote "volví": they say "volviste"."""
    away = i18n.translate(Text("You missed two turns in Boardpass: we play yours until you tap "
                               "I'm back: %(link)s", link="L"), "es")
    assert "volviste" in away and not stumbles(away)
    assert i18n.translate(Text("%(who)s's turn was played for them", who="Tom"), "es") == \
        "Tom no llegó a tiempo: su turno se jugó solo"


def test_every_button_says_its_action_in_the_infinitive():
    catalog = spanish_catalog()
    for context, msgid in BUTTONS:
        found = catalog.get(msgid, context)
        assert found is not None, msgid
        assert INFINITIVE.match(found.string), (msgid, found.string)


def test_the_room_s_tags_say_te_toca_on_your_own_seat():
    catalog = spanish_catalog()
    tag = {m: catalog.get(m).string for m in ("you", "to move", "your turn", "host")}
    assert tag == {"you": "vos", "to move": "le toca", "your turn": "te toca",
                   "host": "a cargo de la mesa"}
    room = (ROOT / "static" / "js" / "room.js").read_text(encoding="utf-8")
    assert "s.seat === seat ? ROOM.yourMove() : ROOM.toMove()" in room


@pytest.mark.parametrize("path", sorted(TEMPLATES.glob("*.es.html")) +
                         [ROOT / "app" / "web" / "news" / "es.md"], ids=lambda p: p.name)
def test_the_spanish_pages_written_by_hand_say_nothing_translated(path):
    assert not stumbles(path.read_text(encoding="utf-8"))


class Shown(HTMLParser):
    """A page's words as shown (scripts' data left out), and each button's words."""

    def __init__(self):
        super().__init__()
        self.words, self.buttons, self.open, self.script = [], [], [], False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.script = tag in ("script", "style")
        self.words += [attrs[a] for a in ("aria-label", "title", "placeholder", "content",
                                          "data-percent") if attrs.get(a)]
        if tag == "button" or tag == "a" and "button" in (attrs.get("class") or "").split():
            self.open.append([])

    def handle_endtag(self, tag):
        self.script = False
        if self.open and (tag == "button" or tag == "a"):
            words = " ".join("".join(self.open.pop()).split())
            if words:
                self.buttons.append(words)

    def handle_data(self, data):
        if not self.script:
            self.words.append(data)
            for button in self.open:
                button.append(data)


def spanish_pages(client) -> list[str]:
    made = {game: client.post("/api/games", json={
        "autoplay": False, "game": game, "lang": "es",
        "players": [{"name": "Ana", "color": "red"}, {"name": "Ben", "color": "green"}]}).json
        for game in ("parcheesi", "ludo", "red-arse")}
    room = client.post("/api/rooms", json={"game": "parcheesi", "lang": "es", "players": [
        {"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]}).json["room"]
    return ["/", "/whats-new", "/rules/parcheesi", "/rules/red-arse", "/rules/ludo",
            f"/r/{room['code']}", "/g/broken"] + [f"/g/{m['token']}" for m in made.values()]


def test_the_spanish_pages_as_served_say_nothing_translated(client):
    buttons = set()
    for path in spanish_pages(client):
        page = client.get(path + ("&" if "?" in path else "?") + "lang=es")
        shown = Shown()
        shown.feed(page.data.decode())
        assert not stumbles(" ".join(shown.words)), path
        buttons |= set(shown.buttons)
    assert "Tirar los dados" in buttons and "Copiar el link" in buttons
    assert all(INFINITIVE.match(words) for words in buttons), buttons


def test_the_browser_s_words_and_a_spanish_text_say_nothing_translated(client):
    words = client.get("/api/i18n/es.json").json
    assert not [(k, v) for k, v in words.items() if stumbles(v)]
    made = client.post("/api/games", json={
        "autoplay": False, "game": "parcheesi", "lang": "es",
        "players": [{"name": "Ana", "color": "red"}, {"name": "Ben", "color": "green"}]}).json
    text = made["message"]["text"]
    assert "Parchis" in text and not stumbles(text)  # GSM-7: "Parchís" loses its accent


def test_percentages_are_written_as_the_pills_write_them(client):
    """"8%", in English and in Spanish: the review's pattern is the pills' (board.js)."""
    from app.web.numbers import number_format

    for lang in ("en", "es"):
        with client.application.test_request_context(f"/?lang={lang}"):
            assert number_format()["percent"] == "%(n)s%"
    board = (ROOT / "static" / "js" / "board.js").read_text(encoding="utf-8")
    assert "* 100)}%`" in board
