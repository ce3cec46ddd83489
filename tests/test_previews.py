"""Link previews: a game's link (and a room's address) fetched as messaging apps' preview
fetchers fetch it (their User-Agent strings, no JavaScript, no cookie): the Open Graph and
Twitter card tags with the right words in both languages, the image they name (decoded with
Pillow: its size, and the color of the pixels where pieces stand), caching, privacy, and the
generic preview of a link that can't be read."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from html.parser import HTMLParser

import pytest
from PIL import Image

from app import link
from workbench.games import play_random, table_options, turn_links
from app.keys import Keys
from app.play import Game
from app.web import preview, preview_images
from app.web.layout import board_layout
from app.web.views import Recorder

from api_support import play_until_turn_over

KEYS = Keys.for_tests("previews")

# Real User-Agent strings of the fetchers (iMessage's pretends to be Facebook's and X's; Signal
# sends WhatsApp's).
FETCHERS = {
    "WhatsApp": "WhatsApp/2.23.20.0 A",
    "WhatsApp iOS": "WhatsApp/2.23.18.78 i",
    "iMessage": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, "
                "like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot "
                "Twitterbot/1.0",
    "Telegram": "TelegramBot (like TwitterBot)",
    "Signal": "WhatsApp/2",
    "Slack": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "Facebook": "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "X": "Twitterbot/1.0",
    "Discord": "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
}
PHONE = "+14155550100"


@pytest.fixture
def keys():
    """The keys this module's links are made with: its app's too."""
    return KEYS


class Head(HTMLParser):
    """The page's head as a fetcher reads it: its meta tags, in order, and whether a script
    or a stylesheet came before the last of them."""

    def __init__(self):
        super().__init__()
        self.meta, self.order, self.in_head = {}, [], True

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body":
            self.in_head = False
        if self.in_head and tag == "meta" and "content" in attrs:
            key = attrs.get("property") or attrs.get("name")
            self.meta[key] = attrs["content"]
            self.order.append(key)
        elif self.in_head and tag in ("link", "script", "style"):
            self.order.append(tag)


def fetch(client, url: str, agent: str = FETCHERS["WhatsApp"]):
    """What a fetcher gets: no JavaScript runs, no cookie is sent."""
    client.delete_cookie("lang")
    return client.get(url, headers={"User-Agent": agent})


def head_of(response) -> Head:
    head = Head()
    head.feed(response.data.decode())
    return head


def path_of(url: str) -> str:
    assert url.startswith("https://play.test/")
    return url.removeprefix("https://play.test")


def game_of(game: str, names, lang: str = "en", options: int = 0, phones=(), seed=b"preview1"):
    seats = [link.Seat(name, color, phone=PHONE if i in phones else None)
             for i, (name, color) in enumerate(names)]
    played = Game.new(game, seats, KEYS, seed=seed, options=options)
    return Game(replace(played.header, lang=lang), played.match, KEYS)


def after_turns(played: Game, turns: int) -> Game:
    """The game ``turns`` whole turns on (each player takes the first legal move)."""
    match = played.match
    for _ in range(turns):
        seat = match.turn
        while match.phase != "over" and match.turn == seat:
            if match.phase == "move":
                match.play(0)
            elif match.phase == "claim":
                match.claim(True)
            else:
                match.roll()
    return Game.from_token(played.token(), KEYS)


# -- the tags ------------------------------------------------------------------------------------

@pytest.mark.parametrize("fetcher", sorted(FETCHERS))
def test_every_fetcher_gets_the_tags_first_in_the_head(client, fetcher):
    played = after_turns(game_of("parcheesi", [("Ana", 0), ("Ben", 2)]), 1)
    token = played.token()
    response = fetch(client, f"/g/{token}", FETCHERS[fetcher])
    assert response.status_code == 200 and response.mimetype == "text/html"
    head = head_of(response)
    meta = head.meta
    mover = played.header.seats[played.match.turn].name
    assert meta["og:title"] == meta["twitter:title"] == f"{mover}, your turn · Parcheesi"
    assert meta["og:description"] == meta["twitter:description"] == meta["description"]
    assert meta["og:url"] == f"https://play.test/g/{token}"
    assert meta["og:image"] == meta["twitter:image"] == f"https://play.test/g/{token}/preview.png"
    assert (meta["og:image:width"], meta["og:image:height"]) == ("1200", "630")
    assert meta["og:image:type"] == "image/png" and meta["twitter:card"] == "summary_large_image"
    assert meta["og:site_name"] == "Boardpass" and meta["og:locale"] == "en_US"
    assert meta["og:image:alt"] == f"The Parcheesi board: {mover} to play"
    # First and small: every tag before the stylesheet, all of them in the first 4 KB.
    assert head.order.index("link") > head.order.index("description")
    assert response.data.find(b'name="description"') < 4096


TABLES = {"parcheesi": ["yellow", "blue", "red"], "red-arse": ["red", "yellow", "green"],
          "ludo": ["red", "blue", "green"]}


def created(client, game: str, lang: str = "en") -> dict:
    """A new game of Ana, Ben and Cy made as the home page makes it (its turns with nothing to
    decide play themselves): the API's answer for its first link."""
    players = [{"name": name, "color": color} for name, color in zip(("Ana", "Ben", "Cy"),
                                                                      TABLES[game])]
    made = client.post("/api/games", json={"game": game, "lang": lang, "players": players,
                                           "settings": {"red-arse": {"board": 4},
                                                        "ludo": {"capacity": 4}}.get(game, {})})
    assert made.status_code == 201, made.json
    return client.get(f"/api/games/{made.json['token']}").json


def sent_on(client, view: dict) -> dict:
    """The turn at ``view`` played (the first move offered, every re-roll let go) and sent:
    the API's answer for the next link."""
    seat = view["turn"]
    steps, _ = play_until_turn_over(client, view)
    sent = client.post(f"/api/games/{view['token']}/turn", json={"seat": seat, "steps": steps})
    assert sent.status_code == 200, sent.json
    return client.get(f"/api/games/{sent.json['token']}").json


def dice_said(view: dict, lang: str = "en") -> str:
    """The dice rolled for the link's player, as a list is said ("6 and 2", "6 y 2")."""
    dice = [str(n) for n in view["last_roll"]]
    return f" {'and' if lang == 'en' else 'y'} ".join(dice)


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_new_game_s_first_link_names_its_players_and_the_dice_rolled_for_them(client, game):
    view = created(client, game)
    first = seats_of(view)[view["turn"]].name
    meta = head_of(fetch(client, f"/g/{view['token']}")).meta
    title = preview.TITLES[game]
    assert meta["og:title"] == f"{first}, your turn · {title}"
    # Not what the turns that played themselves before the first choice did.
    assert meta["og:description"] == \
        f"A new game of {title}: {', '.join(s.name for s in seats_of(view))}. " \
        f"You rolled {dice_said(view)}."


def seats_of(view: dict) -> list:
    return Game.from_token(view["token"], KEYS).header.seats


def since_last_turn(view: dict) -> tuple[list[str], list[str]]:
    """The names of the others whose turns came since the link's player's last one (the
    server's turns included), and of those who moved in them."""
    played = Game.from_token(view["token"], KEYS)
    history, to = played.match.history, played.match.turn
    end = len(history)
    while end and history[end - 1][1] == to:  # their own turn so far: the dice rolled for them
        end -= 1
    start = end
    while start and history[start - 1][1] != to:
        start -= 1
    names = [s.name for s in played.header.seats]
    turns = [names[seat] for _, seat, _ in history[start:end]]
    moved = [names[seat] for kind, seat, _ in history[start:end] if kind == "move"]
    return list(dict.fromkeys(turns)), list(dict.fromkeys(moved))


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_turn_says_what_the_others_did_since_the_player_s_last_turn_and_their_dice(client,
                                                                                       game):
    view = sent_on(client, sent_on(client, sent_on(client, created(client, game))))
    to = seats_of(view)[view["turn"]].name
    meta = head_of(fetch(client, f"/g/{view['token']}")).meta
    description = meta["og:description"]
    assert meta["og:title"] == f"{to}, your turn · {preview.TITLES[game]}"
    others, moved = since_last_turn(view)
    assert others and to not in others
    for name in others:  # each of them moved, had no move, or did something worth saying
        assert name in description
    if moved:
        assert any(said in description for said in ("moved.", " sent ", " brought "))
    if set(others) - set(moved):
        assert "had no move." in description
    # It is their move, with their dice already rolled: said to them, once, at the end.
    assert description.endswith(f"You rolled {dice_said(view)}.")
    assert f"{to} rolled" not in description and "A new game" not in description


@pytest.mark.parametrize("game", sorted(TABLES))
def test_spanish_tables_say_a_new_game_and_a_turn_in_spanish(client, game):
    view = created(client, game, "es")
    first = seats_of(view)[view["turn"]].name
    meta = head_of(fetch(client, f"/g/{view['token']}")).meta
    assert meta["og:title"].startswith(f"{first}, te toca · ")
    assert meta["og:description"].startswith("Una partida nueva de ")
    assert f": {', '.join(s.name for s in seats_of(view))}. " in meta["og:description"]
    assert meta["og:description"].endswith(f"Sacaste {dice_said(view, 'es')}.")
    view = sent_on(client, sent_on(client, view))
    description = head_of(fetch(client, f"/g/{view['token']}")).meta["og:description"]
    assert description.endswith(f"Sacaste {dice_said(view, 'es')}.")
    for english in ("moved", "rolled", "had no move", "sent", "brought", "new game"):
        assert english not in description, description


def test_a_room_s_preview_names_who_rolled_since_everyone_reads_it():
    table = game_of("parcheesi", [("Ana", 0), ("Ben", 2)])
    played = Game(replace(table.header, by_hand=True), table.match, KEYS)  # as rooms play
    played.match.roll()
    while played.match.phase != "move":  # rolls with no move pass the turn
        played.match.roll()
    mover = played.header.seats[played.match.turn].name
    dice = played.match.history[-1][2]
    said = preview.words(played, "en", preview.Watch(), room="K7P2QX")
    assert said["description"].startswith(f"It's {mover}'s turn. ")
    assert said["description"].endswith(f". {mover} rolled {dice[0]} and {dice[1]}.")
    assert "You rolled" not in said["description"]


def test_a_new_game_nobody_has_rolled_in_names_its_players_alone(client):
    played = game_of("ludo", [("Ana", 0), ("Ben", 2)], options=table_options("ludo", 2))
    meta = head_of(fetch(client, f"/g/{played.token()}")).meta
    first = played.header.seats[played.match.turn].name
    assert meta["og:title"] == f"{first}, your turn · Ludo"
    assert meta["og:description"] == "A new game of Ludo: Ana, Ben."


def last_turn_with(game: str, players: int, wanted) -> tuple[Game, list, int]:
    """A link (at a turn's end) whose last turn did what ``wanted(turn, before, after,
    history)`` says, from random games: the game, and the last turn's mover."""
    for number in range(40):
        finished = play_random(game, players, "previews", number, KEYS,
                               table_options(game, players))
        for token in turn_links(finished, 400):
            recorder = Recorder()
            played = Game.from_token(token, KEYS, recorder)
            history = played.match.history
            if not history:
                continue
            end, seat = len(history), history[-1][1]
            start = end
            while start and history[start - 1][1] == seat:
                start -= 1
            before = recorder.after[start - 1] if start else None
            if before is not None and wanted(history[start:end], before,
                                             recorder.after[end - 1], seat):
                return played, before, seat
    raise AssertionError("no such turn")


CAPTURES = {"parcheesi": "{who} sent {whom}'s pawn back to the nest.",
            "red-arse": "{who} sent {whom}'s marble back to base.",
            "ludo": "{who} sent {whom}'s piece home."}


@pytest.mark.parametrize("game", sorted(CAPTURES))
def test_a_capture_is_the_description(client, game):
    def captured(turn, before, after, seat):
        return any(s != seat and b.count(-1) < a.count(-1) for s, (b, a) in
                   enumerate(zip(before, after)))

    played, before, seat = last_turn_with(game, 4, captured)
    after = [list(p) for p in played.state.pos]
    whom = next(s for s, (b, a) in enumerate(zip(before, after))
                if s != seat and b.count(-1) < a.count(-1))
    names = [s.name for s in played.header.seats]
    meta = head_of(fetch(client, f"/g/{played.token()}")).meta
    assert CAPTURES[game].format(who=names[seat], whom=names[whom]) in meta["og:description"]


def test_a_piece_reaching_the_goal_is_the_description(client):
    goal = board_layout("ludo", table_options("ludo", 4))["home_progress"]

    def home(turn, before, after, seat):
        return any(kind == "move" and what.dst == goal for kind, _, what in turn)

    played, _, seat = last_turn_with("ludo", 4, home)
    meta = head_of(fetch(client, f"/g/{played.token()}")).meta
    assert f"{played.header.seats[seat].name} brought a piece to the goal." in \
        meta["og:description"]


def test_game_over_says_who_won(client):
    finished = play_random("ludo", 3, "previews-over", 0, KEYS, table_options("ludo", 3))
    winner = finished.header.seats[finished.state.winner].name
    meta = head_of(fetch(client, f"/g/{finished.token()}")).meta
    assert meta["og:title"] == f"Game over: {winner} won · Ludo"
    assert meta["og:image:alt"] == f"The Ludo board at the end: {winner} won"


def test_spanish_tables_preview_in_spanish_whatever_the_fetcher_s_language(client):
    played = after_turns(game_of("ludo", [("Ana", 0), ("Ben", 2)], "es",
                                 table_options("ludo", 2)), 1)
    mover = played.header.seats[played.match.turn].name
    response = client.get(f"/g/{played.token()}", headers={
        "User-Agent": FETCHERS["WhatsApp"], "Accept-Language": "en-US,en;q=0.9"})
    meta = head_of(response).meta
    assert meta["og:title"] == f"{mover}, te toca · Ludo"
    assert meta["og:locale"] == "es_AR"
    assert meta["og:image:alt"] == f"El tablero de Ludo: le toca a {mover}"
    finished = play_random("ludo", 2, "previews-es", 0, KEYS, table_options("ludo", 2))
    finished = Game(replace(finished.header, lang="es"), finished.match, KEYS)
    winner = finished.header.seats[finished.state.winner].name
    meta = head_of(fetch(client, f"/g/{finished.token()}")).meta
    assert meta["og:title"] == f"Terminó la partida: ganó {winner} · Ludo"


def test_hostile_names_are_escaped_in_the_tags(client):
    name = '"><script>x</script>'
    played = game_of("parcheesi", [(name, 0), ("Ben", 2)])
    page = fetch(client, f"/g/{played.token()}").data.decode()
    assert "<script>x" not in page
    meta = head_of(fetch(client, f"/g/{played.token()}")).meta
    assert name in meta["og:description"]  # as text, read back whole


# -- the image -----------------------------------------------------------------------------------

def image_of(client, url: str, agent: str = FETCHERS["WhatsApp"]) -> tuple[Image.Image, object]:
    response = fetch(client, path_of(url) if url.startswith("https://") else url, agent)
    assert response.status_code == 200 and response.mimetype == "image/png"
    image = Image.open(io.BytesIO(response.data))
    image.load()
    return image.convert("RGB"), response


def expected_spots(layout: dict, played: Game) -> list[tuple[float, float, str]]:
    """Where each piece is drawn (board units) and its color, worked out from the layout as
    the page's board.js does, for the pieces that stand alone on their spot."""
    home = layout["home_progress"]
    out = getattr(played.state, "out", ())
    spots = []
    for s, pieces in enumerate(played.state.pos):
        if s in out:
            continue
        color = layout["colors"][played.header.seats[s].color]
        for k, p in enumerate(pieces):
            if p < 0:
                spot = color["base"][k]
            elif layout["places"]:
                spot = layout["places"][p]
            elif p >= home:
                hx, hy = color["home"]
                spot = [hx + (k % 2) * .5 - .25, hy + (k // 2) * .5 - .25]
            else:
                spot = color["path"][p]
            spots.append((spot[0], spot[1], color["fill"], p >= 0 and (home is None or p < home)))
    alone = []
    for x, y, fill, shared in spots:
        if shared and sum(1 for a, b, _, s in spots if s and (a, b) == (x, y)) > 1:
            continue  # stacked: drawn side by side
        alone.append((x, y, fill))
    return alone


def rgb(fill: str) -> tuple[int, int, int]:
    return tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))


def assert_pieces_drawn(image: Image.Image, played: Game) -> int:
    layout = board_layout(played.header.game, played.header.options)
    frame = preview.Frame(layout["view"])
    checked = 0
    for x, y, fill in expected_spots(layout, played):
        px, py = frame(x, y)
        got = image.getpixel((round(px), round(py)))
        assert max(abs(a - b) for a, b in zip(got, rgb(fill))) <= 6, (x, y, fill, got)
        checked += 1
    return checked


@pytest.mark.parametrize("game, players", [("parcheesi", 4), ("red-arse", 4), ("red-arse", 6),
                                           ("ludo", 4), ("ludo", 6)])
def test_the_image_shows_every_piece_in_its_color(client, game, players):
    finished = play_random(game, players, "previews-image", 0, KEYS,
                           table_options(game, players))
    for token in turn_links(finished, 4):
        played = Game.from_token(token, KEYS)
        meta = head_of(fetch(client, f"/g/{token}")).meta
        image, response = image_of(client, meta["og:image"])
        assert image.size == (1200, 630)
        assert len(response.data) < 150 * 1024
        assert assert_pieces_drawn(image, played) >= players * 2
        # The frame is the color of the seat to move (the winner's once it is over).
        seat = played.state.winner if played.over else played.state.turn
        layout = board_layout(game, played.header.options)
        band = layout["colors"][played.header.seats[seat].color]["fill"]
        for point in ((3, 3), (1196, 626), (600, 4)):
            assert image.getpixel(point) == rgb(band)


def test_the_last_move_is_marked_on_the_board(client):
    played = after_turns(game_of("parcheesi", [("Ana", 0), ("Ben", 2)], seed=b"marked!!"), 3)
    image, _ = image_of(client, f"/g/{played.token()}/preview.png")
    plain = Image.open(io.BytesIO(preview.render(played))).convert("RGB")
    assert image.tobytes() == plain.tobytes()
    # The line is the page's ink: some of it shows between the move's ends.
    assert (29, 29, 31) in {color for _, color in image.getcolors(1 << 20)}


def test_the_image_is_kept_for_good_and_answers_304(client):
    played = after_turns(game_of("parcheesi", [("Ana", 0), ("Ben", 2)]), 2)
    url = f"/g/{played.token()}/preview.png"
    first = fetch(client, url)
    assert first.headers["Cache-Control"] == "private, max-age=31536000, immutable"
    etag = first.headers["ETag"]
    assert played.token() not in etag
    again = client.get(url, headers={"If-None-Match": etag, "User-Agent": FETCHERS["Slack"]})
    assert again.status_code == 304 and not again.data
    assert fetch(client, url, FETCHERS["Telegram"]).data == first.data  # the same for everyone


def test_drawing_is_bounded_and_past_the_bound_the_generic_image_comes_at_once(client):
    """Drawing an image is counted per address and in all (PREVIEWS_PER_ADDRESS: 2 an hour
    here): past it a new link previews as Boardpass, not to be kept, never after a wait; an
    image already drawn is still answered, and another address may draw."""
    client.application.config["PREVIEWS_PER_ADDRESS"] = "2 per hour"
    played = after_turns(game_of("parcheesi", [("Ana", 0), ("Ben", 2)]), 2)
    links = [played.token()] + [after_turns(played, n).token() for n in (1, 2)]
    drawn = [fetch(client, f"/g/{token}/preview.png") for token in links]
    generic = preview.generic_png()
    assert [r.data == generic for r in drawn] == [False, False, True]
    assert drawn[2].headers["Cache-Control"] == "no-store"  # the link's own may come later
    assert fetch(client, f"/g/{links[0]}/preview.png").data == drawn[0].data  # kept: no drawing
    other = client.get(f"/g/{links[2]}/preview.png", environ_base={"REMOTE_ADDR": "10.9.9.9"},
                       headers={"User-Agent": FETCHERS["Slack"]})
    assert other.status_code == 200 and other.data != generic


def test_a_link_asked_while_its_process_draws_another_previews_as_boardpass_at_once(client):
    """One drawing at a time in a process: a burst of fetchers never has every thread drawing.
    The link asked meanwhile gets the generic image (not to be kept), and counts no drawing."""
    played = after_turns(game_of("parcheesi", [("Ana", 0), ("Ben", 2)]), 2)
    url = f"/g/{played.token()}/preview.png"
    with preview_images.DRAWING:  # another thread of the process is drawing
        meanwhile = fetch(client, url)
    assert meanwhile.data == preview.generic_png()
    assert meanwhile.headers["Cache-Control"] == "no-store"
    client.application.config["PREVIEWS_PER_ADDRESS"] = "1 per hour"
    drawn = fetch(client, url)  # the one drawing this address may have: not spent meanwhile
    assert drawn.status_code == 200 and drawn.data != preview.generic_png()


def test_the_6_arm_board_s_image_stays_small():
    """Not a timing test (see python -m app bench previews): the size, for the 6-arm board."""
    finished = play_random("ludo", 6, "previews-size", 0, KEYS, table_options("ludo", 6))
    for token in turn_links(finished, 3):
        assert len(preview.render(Game.from_token(token, KEYS))) < 150 * 1024


# -- nothing private ---------------------------------------------------------------------------

def test_a_preview_tells_nothing_private(client):
    finished = play_random("parcheesi", 2, "previews-private", 0, KEYS)
    seats = (replace(finished.header.seats[0], phone=PHONE, whatsapp=True),
             finished.header.seats[1])
    over = Game(replace(finished.header, seats=seats), finished.match, KEYS)
    token = over.token()
    response = fetch(client, f"/g/{token}#s=r,5_10_5")  # a fragment never reaches the server
    head = response.data.decode().split("</head>")[0]
    secret = over.revealed_secret()
    for private in (PHONE, PHONE[1:], PHONE[-7:], secret, "whatsapp", "wa.me"):
        assert private not in head
    meta = head_of(response).meta
    assert meta["og:image"] == f"https://play.test/g/{token}/preview.png"  # the link, no more
    image, _ = image_of(client, meta["og:image"])
    assert image.size == (1200, 630)


def test_opening_a_link_for_its_preview_starts_no_clock(client):
    """A preview fetcher reads the page, not the API: the link hasn't reached its player."""
    played = game_of("parcheesi", [("Ana", 0), ("Ben", 2)])
    played = Game(replace(played.header, deadline=60), played.match, KEYS)
    token = played.token()
    for agent in FETCHERS.values():
        fetch(client, f"/g/{token}", agent)
        fetch(client, f"/g/{token}/preview.png", agent)
    from app.web.bookkeeping import ledger

    with client.application.test_request_context():
        standing = ledger().standing(played.header.seed, token, len(played.match.steps),
                                     played.match.turn)
        assert standing.opened is None
    view = client.get(f"/api/games/{token}").json  # the page's script: now it has reached them
    assert view["deadline"]["waiting"] is False and view["deadline"]["due_at"] is not None


# -- links that can't be read ----------------------------------------------------------------

def tampered(token: str) -> list[str]:
    body, signature = token.rsplit(".", 1)
    flipped = body[:10] + ("A" if body[10] != "A" else "B") + body[11:]
    return [f"{flipped}.{signature}", token[: len(token) // 2], "not-a-game",
            body + "." + signature[:-1] + ("a" if signature[-1] != "a" else "b"), "x" * 5000]


@pytest.mark.parametrize("fetcher", ["WhatsApp", "iMessage", "Telegram", "Slack", "X"])
def test_a_tampered_link_gets_the_generic_preview(client, fetcher):
    played = after_turns(game_of("parcheesi", [("Ana", 0), ("Ben", 2)]), 1)
    for bad in tampered(played.token()):
        response = fetch(client, f"/g/{bad}", FETCHERS[fetcher])
        assert response.status_code == 200, bad
        meta = head_of(response).meta
        assert meta["og:title"] == "Boardpass"
        assert meta["og:description"].startswith("Parcheesi, Ludo and Red Arse")
        assert meta["og:image"] == "https://play.test/preview.png"
        image, _ = image_of(client, meta["og:image"], FETCHERS[fetcher])
        assert image.size == (1200, 630)
        direct, _ = image_of(client, f"/g/{bad}/preview.png", FETCHERS[fetcher])
        assert direct.tobytes() == image.tobytes()  # the generic image, never an error


# The default User-Agents of unfurlers that aren't on the fetchers' list (open-graph-scraper's,
# metadata_parser's), and a person's phone: each gets what a listed chat app gets.
UNLISTED = {"open-graph-scraper": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
            "(KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
            "metadata_parser": "python-requests/2.32.3",
            "a phone": "Mozilla/5.0 (iPhone)"}


@pytest.mark.parametrize("agent", UNLISTED)
def test_every_agent_gets_the_same_page_for_a_broken_link_with_the_generic_preview(client,
                                                                                  agent):
    """Never an error's status that a chat app would show as a dead link: 200, the generic
    preview and a page that says why, to a listed fetcher, an unlisted one and a person
    alike. The API still answers 400."""
    for bad in tampered(after_turns(game_of("parcheesi", [("Ana", 0), ("Ben", 2)]), 1).token()):
        response = client.get(f"/g/{bad}", headers={"User-Agent": UNLISTED[agent]})
        assert response.status_code == 200 and "This link doesn" in response.data.decode()
        meta = head_of(response).meta
        assert meta["og:title"] == "Boardpass" and meta["og:url"] == f"https://play.test/g/{bad}"
    assert client.get("/api/games/not-a-game",
                      headers={"User-Agent": FETCHERS["WhatsApp"]}).status_code == 400


@pytest.mark.parametrize("path", ["/", "/rules/ludo", "/rules/red-arse", "/whats-new"])
def test_every_page_with_open_graph_tags_says_its_own_address(client, path):
    meta = head_of(client.get(f"{path}?lang=es")).meta
    assert meta["og:url"] == f"https://play.test{path}"  # its address, without the query


def test_every_page_has_boardpass_s_own_preview(client):
    for path in ("/", "/rules/ludo", "/whats-new"):
        meta = head_of(fetch(client, path)).meta
        assert meta["og:title"] == "Boardpass" and meta["og:image"].endswith("/preview.png")
    spanish = head_of(client.get("/?lang=es")).meta
    assert spanish["og:description"] == \
        "Parchís, Ludo y Red Arse con amigos: cada turno se pasa por link."
    image, response = image_of(client, "/preview.png")
    assert image.size == (1200, 630) and "max-age" in response.headers["Cache-Control"]


# -- rooms -------------------------------------------------------------------------------------

def test_a_room_previews_its_game_as_it_stands(client):
    made = client.post("/api/rooms", json={"game": "parcheesi", "lang": "en", "players": [
        {"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]}).json
    code = made["room"]["code"]
    meta = head_of(fetch(client, f"/r/{code}")).meta
    assert meta["og:title"] == f"Parcheesi live · room {code}"
    assert re.fullmatch(r"It's (Ana|Ben)'s turn\. A new game of Parcheesi: Ana, Ben\.",
                        meta["og:description"])
    assert meta["og:image"] == f"https://play.test/r/{code}/preview.png"
    assert meta["og:url"] == f"https://play.test/r/{code}"
    image, response = image_of(client, meta["og:image"])
    assert response.headers["Cache-Control"] == "private, no-cache"  # the room moves on
    played = Game.from_token(made["token"], KEYS)
    assert assert_pieces_drawn(image, played) == 8
    again = client.get(meta["og:image"].removeprefix("https://play.test"),
                       headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    missing = fetch(client, "/r/ABC234")
    assert missing.status_code == 200 and head_of(missing).meta["og:title"] == "Boardpass"
    people = client.get("/r/ABC234")  # the same status, and the page says the room isn't there
    assert people.status_code == 200 and b"No room ABC234" in people.data
    generic, _ = image_of(client, "/r/ABC234/preview.png")
    assert generic.size == (1200, 630)
