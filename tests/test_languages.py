"""English and Spanish through the web: the table's language in the link, the switcher and its
cookie, the API's errors in the request's language, and pages with no English left in Spanish.

(tests/test_i18n.py checks the catalogs themselves; tests/test_browser.py plays a Spanish game.)
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from app import i18n, link
from app.keys import Keys
from app.play import Game

KEYS = Keys.for_tests("languages")
TEMPLATES = Path(__file__).resolve().parents[1] / "app" / "web" / "templates"
LUDO = [{"name": "Ana", "color": "red"}, {"name": "Ben", "color": "green"}]
ES = {"Accept-Language": "es-AR,es;q=0.9"}



@pytest.fixture
def keys():
    """The keys this module's links are made with: its app's too."""
    return KEYS


def lang_of(token: str) -> str:
    return Game.from_token(token, KEYS).header.lang


# -- the table's language: chosen at creation, carried in the link ---------------------------

def test_a_new_game_takes_the_table_s_language_and_its_link_carries_it(client, api):
    made = api.create("ludo", [{"color": "red"}, {"color": "green"}], lang="es")
    assert made["lang"] == "es" and lang_of(made["token"]) == "es"
    assert [s["name"] for s in made["seats"]] == ["Jugador 1", "Jugador 2"]
    assert made["message"]["text"].startswith("Jugador ") and "te invitaron" in \
        made["message"]["text"]
    # Read again with an English browser: the link's language wins.
    read = client.get(f"/api/games/{made['token']}", headers={"Accept-Language": "en"}).json
    assert read["lang"] == "es"
    assert client.get(f"/g/{made['token']}", headers={"Accept-Language": "en"}).data \
        .startswith(b'<!doctype html>\n<html lang="es"')


def test_without_lang_a_new_game_speaks_the_request_s_language(client, api):
    assert api.create("parcheesi", [{"color": "yellow"}, {"color": "red"}])["lang"] == "en"
    spanish = client.post("/api/games", headers=ES, json={"autoplay": False, 
        "game": "parcheesi", "players": [{"color": "yellow"}, {"color": "red"}]}).json
    assert spanish["lang"] == "es" and "Jugador 1" in [s["name"] for s in spanish["seats"]]


@pytest.mark.parametrize("lang", ["fr", "ES", 1, ""])
def test_an_unknown_language_is_a_clear_400(client, lang):
    response = client.post("/api/games", json={"autoplay": False, "game": "ludo", "players": LUDO, "lang": lang})
    assert response.status_code == 400 and '"lang"' in response.json["error"]["message"]


def test_move_labels_come_in_the_table_s_language_or_the_one_asked_for(client, api):
    made = api.create("ludo", LUDO, lang="es")
    rolled = client.post(f"/api/games/{made['token']}/moves",
                         json={"seat": made["turn"], "steps": ["roll"]}).json
    while rolled["phase"] != "move":  # no 6 yet: Ludo waits for one; pass the turn on
        steps, _ = api.play_turn(made)
        made = client.post(f"/api/games/{made['token']}/turn",
                           json={"seat": made["turn"], "steps": steps}).json
        rolled = client.post(f"/api/games/{made['token']}/moves",
                             json={"seat": made["turn"], "steps": ["roll"]}).json
    assert rolled["legal"][0]["label"] == "Sale una ficha (6)"
    english = client.post(f"/api/games/{made['token']}/moves?lang=en",
                          json={"seat": made["turn"], "steps": ["roll"]}).json
    assert english["legal"][0]["label"] == "Bring a piece out (6)"
    assert english["lang"] == "es"  # asking in English doesn't change the table
    asked = client.post(f"/api/games/{made['token']}/moves",  # a page switched to English
                        json={"seat": made["turn"], "steps": ["roll"], "lang": "en"}).json
    assert asked["legal"][0]["label"] == "Bring a piece out (6)" and asked["lang"] == "es"


def test_the_turn_can_change_the_table_s_language_for_the_next_link(client, api):
    made = api.create("parcheesi", [{"name": "Ana", "color": "yellow"},
                                    {"name": "Ben", "color": "red"}])
    steps, _ = api.play_turn(made)
    nxt = client.post(f"/api/games/{made['token']}/turn",
                      json={"seat": made["turn"], "steps": steps, "lang": "es"}).json
    assert nxt["lang"] == "es" and lang_of(nxt["token"]) == "es"
    assert "hizo su jugada. Te toca en Boardpass" in nxt["message"]["text"]
    # The next turn without "lang" keeps it.
    steps, _ = api.play_turn(nxt)
    later = client.post(f"/api/games/{nxt['token']}/turn",
                        json={"seat": nxt["turn"], "steps": steps}).json
    assert later["lang"] == "es"
    bad = client.post(f"/api/games/{later['token']}/turn",
                      json={"seat": later["turn"], "steps": api.play_turn(later)[0], "lang": "de"})
    assert bad.status_code == 400


def test_the_creator_switching_language_before_sending_gets_the_link_in_it(client, api):
    made = api.create("ludo", LUDO, lang="en")
    read = client.get(f"/api/games/{made['token']}?invite=1&lang=es").json
    assert lang_of(read["token"]) == "es" and read["token"] != made["token"]
    assert "te invitaron" in read["message"]["text"] and read["url"].endswith(read["token"])
    # Without invite (or once the game has begun) reading never makes a new link.
    assert client.get(f"/api/games/{made['token']}?lang=es").json["token"] == made["token"]


def test_the_host_s_rematch_and_a_new_player_can_switch_the_table_s_language(client, api):
    made = api.create("ludo", LUDO, lang="es", settings={"capacity": 3})
    added = client.post(f"/api/games/{made['token']}/players",
                        json={"seat": made["host"], "player": {"color": "blue"}, "lang": "en"})
    assert added.status_code == 201, added.json
    assert added.json["lang"] == "en" and "Player 3" in [s["name"] for s in added.json["seats"]]


# -- errors in the request's language ----------------------------------------------------------

@pytest.mark.parametrize("how", [{"query": "?lang=es"}, {"headers": ES}, {"cookie": "es"}])
def test_api_errors_speak_spanish_when_asked(client, how):
    if "cookie" in how:
        client.set_cookie("lang", how["cookie"])
    response = client.post("/api/games" + how.get("query", ""), headers=how.get("headers"),
                           json={"game": "ludo", "players": LUDO[:1]})
    assert response.status_code == 400
    assert response.json["error"]["message"] == \
        "Al Ludo juegan de 2 a 4 jugadores en el tablero de 52 casillas."
    broken = client.get("/api/games/not-a-game" + how.get("query", ""), headers=how.get("headers"))
    assert broken.status_code == 400
    assert broken.json["error"]["message"].startswith("Este link")


def test_a_spanish_table_answers_in_spanish_and_english_on_request(client, api):
    made = api.create("ludo", LUDO, lang="es")
    wrong = 1 - made["turn"]
    refused = client.post(f"/api/games/{made['token']}/moves", json={"seat": wrong, "steps": []})
    assert refused.status_code == 409
    names = [s["name"] for s in made["seats"]]
    assert refused.json["error"]["message"] == \
        f"Le toca a {names[made['turn']]}, no a {names[wrong]}."
    early = client.post(f"/api/games/{made['token']}/turn",
                        json={"seat": made["turn"], "steps": []})
    assert early.json["error"]["message"] == "El turno todavía no terminó: primero jugá tus dados."
    english = client.post(f"/api/games/{made['token']}/turn?lang=en",
                          json={"seat": made["turn"], "steps": []})
    assert english.json["error"]["message"] == "The turn isn't over yet: play your dice first."
    not_host = client.post(f"/api/games/{made['token']}/players",
                           json={"seat": 1 - made["host"], "player": {"color": "blue"}})
    assert not_host.json["error"]["message"].startswith("Solo quien organiza la mesa")


def test_error_pages_speak_the_visitor_s_language(client):
    page = client.get("/nothing-here", headers=ES)
    assert page.status_code == 404 and "Acá no hay nada" in page.data.decode()
    assert "Not allowed" in client.get("/new").data.decode()  # GET on a form's address: 405
    assert "No permitido" in client.get("/new", headers=ES).data.decode()
    assert client.get("/g/not-a-game?lang=es").data.decode().count("Este link no anda") >= 1
    form = client.post("/new?lang=es", data={"game": "ludo", "lu_play0": "1", "lu_color0": "red"})
    assert form.status_code == 400 and "Al Ludo juegan de 2 a 4" in form.data.decode()


def test_a_failed_text_is_explained_in_the_table_s_language(client, api, twilio):
    for number in ("+14155550100", "+14155550199"):
        twilio.reject(number, message="Unknown number.")
    game = Game.new("parcheesi", [link.Seat("Ana", 0, phone="+14155550100"),
                                  link.Seat("Ben", 2, phone="+14155550199")], KEYS,
                    seed=bytes(8), by_hand=True)
    from dataclasses import replace
    game = Game(replace(game.header, lang="es"), game.match, KEYS)
    view = client.get(f"/api/games/{game.token()}").json
    steps, _ = api.play_turn(view)
    nxt = client.post(f"/api/games/{view['token']}/turn",
                      json={"seat": view["turn"], "steps": steps}).json
    assert nxt["message"]["status"] == "failed"
    assert nxt["message"]["error"].startswith("Al número +1415555") and \
        nxt["message"]["error"].endswith("Unknown number. Mandá el link vos.")


# -- the switcher, the cookie, the defaults ----------------------------------------------------

def test_the_switcher_sets_the_cookie_and_the_cookie_chooses_the_next_pages(client):
    home = client.get("/", headers={"Accept-Language": "en"}).data.decode()
    assert '<html lang="en">' in home
    assert re.search(r'<a class="lang" href="/\?lang=es" lang="es" hreflang="es" '
                     r'data-lang="es">Español</a>', home)
    switched = client.get("/?lang=es")
    assert '<html lang="es"' in switched.data.decode()
    cookie = switched.headers["Set-Cookie"]
    assert cookie.startswith("lang=es;") and "Max-Age=31536000" in cookie and \
        "SameSite=Lax" in cookie
    # The test client keeps the cookie: the next page is Spanish, whatever the browser says.
    again = client.get("/whats-new", headers={"Accept-Language": "en"}).data.decode()
    assert '<html lang="es"' in again and "Una imagen del tablero en cada link" in again
    assert "Set-Cookie" not in client.get("/?lang=es").headers  # already chosen
    assert client.get("/?lang=en").headers["Set-Cookie"].startswith("lang=en;")
    assert '<html lang="en">' in client.get("/").data.decode()


def test_the_api_s_lang_never_sets_the_cookie(client, api):
    made = api.create("ludo", LUDO)
    assert "Set-Cookie" not in client.get(f"/api/games/{made['token']}?lang=es").headers


def test_switch_links_keep_the_page_s_address_and_its_query(client, api):
    made = api.create("ludo", LUDO, lang="en")
    page = client.get(f"/g/{made['token']}?new=1&local=1").data.decode()
    assert f'href="/g/{made["token"]}?new=1&amp;local=1&amp;lang=es"' in page


def test_ludo_pages_speak_the_page_s_language_as_every_game_s_do(client):
    english = {"Accept-Language": "en-US,en;q=0.9"}
    rules = client.get("/rules/ludo", headers=english).data.decode()
    assert '<html lang="en"' in rules and "How to play Ludo" in rules
    assert "Cómo se juega al Ludo" in client.get("/rules/ludo", headers=ES).data.decode()
    client.set_cookie("lang", "es")
    assert "Cómo se juega al Ludo" in client.get("/rules/ludo", headers=english).data.decode()
    client.delete_cookie("lang")
    # The New game form proposes every table in the page's language, and links the rules in it.
    home = client.get("/", headers=english).data.decode()
    assert re.search(r'name="lu_lang" value="en"\s+checked', home)
    assert re.search(r'name="lang" value="en"\s+checked', home)
    assert 'href="/rules/ludo"' in home
    chosen = client.get("/?lang=es", headers=english).data.decode()
    assert re.search(r'name="lu_lang" value="es"\s+checked', chosen)
    assert 'href="/rules/ludo?table=es"' in chosen  # the cookie comes with this answer


def test_the_form_s_language_goes_in_the_link(client):
    response = client.post("/new", data={"game": "ludo", "lu_lang": "es", "lu_capacity": "4",
                                         "lu_play0": "1", "lu_color0": "red", "lu_name0": "Ana",
                                         "lu_play2": "1", "lu_color2": "green", "lu_host": "0"})
    assert response.status_code == 302
    token = response.headers["Location"].split("/g/")[1].split("?")[0]
    game = Game.from_token(token, KEYS)
    assert game.header.lang == "es" and [s.name for s in game.header.seats] == ["Ana", "Jugador 3"]


def test_a_game_page_links_its_rules_in_the_table_s_language(client, api):
    spanish = api.create("parcheesi", [{"color": "yellow"}, {"color": "red"}], lang="es")
    page = client.get(f"/g/{spanish['token']}", headers={"Accept-Language": "en"}).data.decode()
    assert 'href="/rules/parcheesi?table=es"' in page
    rules = client.get("/rules/parcheesi?table=es", headers={"Accept-Language": "en"})
    assert "Cómo se juega al Parchís" in rules.data.decode()
    assert "Set-Cookie" not in rules.headers  # the table's language: not the visitor's choice
    page = client.get(f"/g/{spanish['token']}", headers=ES).data.decode()
    assert 'href="/rules/parcheesi"' in page  # the rules page chooses Spanish by itself


def test_every_rules_page_has_its_spanish(client):
    for template in TEMPLATES.glob("rules_*.html"):
        if template.name.count(".") == 1:
            assert (TEMPLATES / template.name.replace(".html", ".es.html")).exists(), template


def test_the_client_s_words_are_served_cacheable(client):
    words = client.get("/api/i18n/es.json")
    assert words.status_code == 200 and words.json["Send turn"] == "Mandar el turno"
    assert words.json["red"] == "rojo"  # colors too: the client names them
    assert all(k in i18n.client_messages("es") for k in words.json)
    version = i18n.client_version("es")
    fresh = client.get(f"/api/i18n/es.json?v={version}")
    assert "max-age=31536000" in fresh.headers["Cache-Control"] and \
        "public" in fresh.headers["Cache-Control"]
    assert client.get("/api/i18n/es.json", headers={"If-None-Match": f'"{version}"'}) \
        .status_code == 304
    assert client.get("/api/i18n/en.json").json == {}
    assert client.get("/api/i18n/xx.json").status_code == 400
    # A page carries its words (nothing to fetch before it is drawn); English needs none.
    page = client.get("/?lang=es").data.decode()
    sent = re.search(r'<script type="application/json" id="messages">(.*?)</script>', page)
    assert json.loads(sent.group(1)) == i18n.client_messages("es")
    assert 'id="messages"' not in client.get("/?lang=en").data.decode()


# -- no English left on a Spanish page ----------------------------------------------------------

class Words(HTMLParser):
    """The words a page shows people: text, and the attributes read out or shown (aria-label,
    placeholder, title), outside code, scripts and parts marked in another language."""

    SHOWN = ("aria-label", "placeholder", "title")

    def __init__(self, lang: str):
        super().__init__()
        self.lang, self.skip, self.words = lang, [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        other = attrs.get("lang") not in (None, self.lang) and tag != "html"
        void = tag in ("input", "meta", "link", "br", "img")
        if not void:
            self.skip.append(other or tag in ("code", "script", "style") or
                             bool(self.skip and self.skip[-1]))
        if not (self.skip and self.skip[-1]) and not other:
            self.words += [attrs[a] for a in self.SHOWN if attrs.get(a)]

    def handle_endtag(self, tag):
        if self.skip and tag not in ("input", "meta", "link", "br", "img"):
            self.skip.pop()

    def handle_data(self, data):
        if not (self.skip and self.skip[-1]) and data.strip():
            self.words.append(" ".join(data.split()))


def words(html: str, lang: str) -> set[str]:
    parser = Words(lang)
    parser.feed(html)
    return {w for w in parser.words if re.search(r"[A-Za-z]{2}", w)}


# Words that are the same in both languages: names, and a few words Spanish shares.
SAME = {"Boardpass", "Parcheesi", "Red Arse", "Ludo", "Ana", "Ben", "Color", "Error",
        "Parcheesi · Boardpass", "Red Arse · Boardpass", "Ludo · Boardpass",
        "K7P2QX"}  # a room code, as the home page's example


def pages(api) -> list[str]:
    made = api.create("ludo", LUDO, lang="en")
    red_arse = api.create("red-arse", [{"name": "Ana", "color": "red", "phone": "+14155550100"},
                                       {"name": "Ben", "color": "green"}], lang="en")
    room = api.client.post("/api/rooms", json={"game": "parcheesi", "lang": "en", "players": [
        {"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]}).json["room"]
    return ["/", f"/g/{made['token']}", f"/g/{red_arse['token']}", "/g/broken", "/nowhere",
            "/whats-new", "/rules/parcheesi", "/rules/red-arse", "/rules/ludo",
            f"/r/{room['code']}", "/r/ABC234"]


def test_spanish_pages_leave_no_english_behind(client, api):
    for path in pages(api):
        english = words(client.get(path + "?lang=en").data.decode(), "en")
        spanish = words(client.get(path + "?lang=es").data.decode(), "es")
        code = path[3:] if path.startswith("/r/") else None  # a room's code reads the same
        left = sorted(spanish & english - SAME - {code})
        assert not left, f"{path}: untranslated {left}"
        assert english - SAME, path  # the check saw words


def test_every_template_string_is_marked(client):
    """Templates say nothing outside _() (the rules pages are written per language)."""
    for template in TEMPLATES.glob("*.html"):
        if template.name.startswith("rules_"):
            continue
        text = template.read_text(encoding="utf-8")
        text = re.sub(r"{{.*?}}|{%.*?%}|{#.*?#}|<[^>]*>|&\w+;", " ", text, flags=re.S)
        loose = [w for w in text.split() if re.search(r"[A-Za-z]{2}", w)]
        assert not loose, f"{template.name}: {loose}"


def test_a_spanish_table_reads_phone_numbers_as_argentine(client, api):
    players = [{"name": "Ana", "color": "red", "phone": "11 5555-1234"},
               {"name": "Ben", "color": "green"}]
    made = api.create("ludo", players, lang="es")
    game = Game.from_token(made["token"], KEYS)
    assert game.header.seats[0].phone == "+5491155551234"  # a mobile: the 9 added
    refused = client.post("/api/games", json={"autoplay": False, "game": "ludo", "lang": "es", "players": [
        {"name": "Ana", "color": "red", "phone": "12"}, {"name": "Ben", "color": "green"}]})
    assert refused.status_code == 400 and "+54 9 11 1234 5678" in refused.json["error"]["message"]
