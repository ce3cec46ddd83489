"""The JSON API (described in static/openapi.json). Every request carries the game's link.

Errors are JSON ``{"error": {"code", "message"}}`` with a 4xx status; no request changes a game
except by returning a new link.
"""

from __future__ import annotations

import re
import time
from dataclasses import replace

from flask import Blueprint, current_app, jsonify, request, send_from_directory, url_for

from app import answers, i18n, review, sms
from app.ledger import Standing, request_digest
from app.engine import analysis, red_arse_settings
from app.engine.bots import BOT_LEVELS
from app.engine.core import CLAIM
from app.engine.games import NAMES as GAMES, TITLES, rules_for
from app.engine.text import N_, Text
from app.link import LANGUAGES, Seat
from app.names import clean as clean_name
from app.store import StoreUnavailable
from app.engine.ludo import ludo_options
from app.play import Game, TurnError
from app.web import ROOT, bounded_json
from app.web import bookkeeping
from app.web.bookkeeping import device, ledger, outbox
from app.web.layout import board_layout
from app.web.views import Recorder, game_view, load, move_view, play_bots

bp = Blueprint("api", __name__)

# What this module says to people (errors), in one place, marked for translation: the errors
# carry the marked message (``N_``, or a ``Text`` with its values: see ``message``) and are
# answered in the request's language (pages._error).
MESSAGES = {
    "ludo_board": N_("Ludo is played on the 4-arm board of 52 squares (up to 4 players) or the "
                     "6-arm board of 78 squares (up to 6) (\"board\": 4 or 6)."),
    "ludo_board_query": N_("Ludo is played on the 4-arm board of 52 squares (up to 4 players) "
                           "or the 6-arm board of 78 squares (up to 6) (board=4 or board=6)."),
    "ludo_table": N_("A Ludo table seats 2 to 6 players."),
    "ludo_settings": N_("\"settings\" is an object with \"capacity\": the most players the "
                        "table seats, 2 to 6 (up to 4 play on 52 squares, 5 or 6 on 78)."),
    "players_on_board": N_("%(title)s takes 2 to %(seats)s players on the %(squares)s-square "
                           "board."),
    "players_on_ring": N_("%(title)s takes 2 to %(seats)s players on the %(seats)s-player "
                          "board."),
    "players": N_("%(title)s takes 2 to %(seats)s players."),
    "host": N_("\"host\" is the number of the player creating the game in \"players\" (0 for "
               "the first)."),
    "no_host": N_("%(title)s tables have no host."),
    "seat": N_("Say which seat is asking (\"seat\": a number)."),
    "playing_seat": N_("Say which seat is playing (\"seat\": a number)."),
    "no_seat": N_("There is no such seat in this game."),
    "not_your_turn": N_("It is %(turn)s's turn, not %(seat)s's."),
    "player": N_("\"player\" is an object with a name, a color and (optional) a phone number."),
    "add_players": N_("Only the host, %(host)s, can add players."),
    "start_rematch": N_("Only the host, %(host)s, can start a rematch."),
    "not_hosts_turn": N_("Players join on the host's turn: it is %(name)s's turn now."),
    "no_joining": N_("Players join a table of Ludo only; this game keeps its players."),
    "joining_over": N_("This game is over: start a rematch instead."),
    "game_over": N_("This game is over."),
    "table_full": N_("Every seat at this table is taken."),
    "color_taken": N_("%(color)s is taken. Free colors: %(free)s."),
    "turn_lost": N_("The turn in progress can't go on once a player joins now: add them "
                    "before rolling, or on your next turn. (%(reason)s)"),
    "no_rematch": N_("Rematches are for Ludo tables: start a new game instead."),
    "turn_not_over": N_("The turn isn't over yet: play your dice first."),
    "not_json": N_("Send the request body as JSON (Content-Type: application/json)."),
    "not_object": N_("The request body is not a JSON object."),
    "no_game": N_("No game called %(name)s."),
    "game_name": N_("\"game\" is a game's name."),
    "red_arse_board": N_("Red Arse is played on the 4-player or the 6-player board "
                         "(board=4 or board=6)."),
    "red_arse_board_json": N_("Red Arse is played on the 4-player or the 6-player board "
                              "(\"board\": 4 or 6)."),
    "red_arse_board_form": N_("Red Arse is played on the 4-player or the 6-player board."),
    "one_board": N_("%(title)s has one board."),
    "no_settings": N_("%(title)s has no settings."),
    "red_arse_settings": N_("\"settings\" is an object with \"board\" (4 or 6) and \"off\" "
                            "(the house rules switched off)."),
    "off": N_("\"off\" lists house rules by name: %(rules)s."),
    "no_house_rule": N_("No house rule called %(name)s. The house rules are: %(rules)s."),
    "different_colors": N_("Each player needs a different color."),
    "player_object": N_("Each player is an object with a name and a color."),
    "name_text": N_("A name is text."),
    "choose_color": N_("Choose a color among %(colors)s."),
    "phone_text": N_("A phone number is text."),
    "whatsapp": N_("\"whatsapp\" is true or false: whether a player with a phone number gets "
                   "their turns by WhatsApp."),
    "since": N_("\"since\" is a step number."),
    "step": N_("\"step\" is the number of a step this game has reached."),
    "step_or_steps": N_("Ask for a step of the game or for a turn's steps, not both."),
    "steps": N_("\"steps\" is a list of \"roll\" and moves."),
    "seats": N_("\"seats\" lists every seat."),
    "seat_change": N_("Each seat change is an object."),
    "seat_text": N_("Names and phone numbers are text."),
    "lang": N_("\"lang\" is the table's language: \"en\" (English) or \"es\" (Spanish)."),
    "default_name": N_("Player %(n)s"),
    "bot": N_("\"bot\" is a bot's strength: \"easy\", \"medium\" or \"hard\" (leave it out "
              "for a human player)."),
    "one_human": N_("A game needs at least one human player."),
    "bot_phone": N_("Bots have no phone number."),
    "bot_host": N_("The host is a human player, not a bot."),
    "bot_seat": N_("%(name)s is a bot: the server plays its turns."),
    # A bot's name when it is given none; numbered like "Player 2" when two would share one.
    "bot_easy": N_("Bot (easy)"),
    "bot_medium": N_("Bot (medium)"),
    "bot_hard": N_("Bot (hard)"),
    "deadline_hours": N_("\"deadline_hours\" is the time each player has for a turn, in "
                         "hours: 0 (no deadline) or 1 to 168."),
    "no_deadline": N_("This game has no turn deadline: only %(name)s can play this turn."),
    "still_time": N_("%(name)s still has time for this turn: it can be played for them only "
                     "once their time is up."),
    "moved_on": N_("This turn was already played: the game has moved on. Open the newest link "
                   "(the latest one sent to you)."),
    "in_room": N_("This game is played live in room %(code)s now: open the room to play."),
    "not_arrived": N_("%(name)s hasn't opened this link yet: their time starts when it reaches "
                      "them."),
    "try_again": N_("Someone else changed this game at the same moment: try again."),
    "analysis_hour": N_("This game's moves have been analysed as often as we do in an hour: "
                        "try again later."),
    "name_taken": N_("%(name)s is another player's name: choose your own."),
    "own_seat": N_("Only %(name)s changes their own name and number (the host can change "
                   "anyone's on the game's first turn)."),
    "bot_easy_n": N_("Bot %(n)s (easy)"),
    "bot_medium_n": N_("Bot %(n)s (medium)"),
    "bot_hard_n": N_("Bot %(n)s (hard)"),
}

# A seat's ``bot`` in the link from the API's strength (``Seat.bot``: 0 is a human).
BOT_STRENGTHS = {name: level for level, name in BOT_LEVELS.items()}


def message(key: str, **values) -> str:
    """The message ``key``, with its values: a ``Text`` (the English, translated when shown)."""
    return Text(MESSAGES[key], **values) if values else MESSAGES[key]


# Where a phone number typed without its country code is assumed to be, by the table's
# language: Spanish tables are Argentine ones.
PHONE_REGION = {"en": "US", "es": "AR"}

STATUS = {
    "OversizedLink": 414,  # the link is part of the address
    "UnknownVersion": 410,
}


class BadRequest(ValueError):
    """A request the API can't read; the message says what is wrong."""

    status = 400


class WrongSeat(ValueError):
    status = 409


class NotJson(BadRequest):
    status = 415


class NotHost(ValueError):
    """Something only the table's host may do."""

    status = 403


class TableFull(ValueError):
    """No free seat, or not that color: the table is as it was."""

    status = 409


class NotYours(ValueError):
    """A change to another player's name or number."""

    status = 403


class MovedOn(ValueError):
    """A request from an older link: the game has moved on, and that link is read-only."""

    status = 409


def _keys():
    return current_app.config["KEYS"]


def now() -> float:
    """The server's time (seconds since 1970): ``CLOCK`` in the app's config when tests set one.
    Never the client's: deadlines and claim tickets trust only this."""
    return current_app.config.get("CLOCK", time.time)()


def game_url(token: str) -> str:
    return public_url("pages.game", token=token)


def public_url(endpoint: str, **values) -> str:
    """A page's full address: under PUBLIC_URL when set, else the request's host."""
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return base.rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, **values, _external=True)


def since_arg() -> int | None:
    """``?since=N``: a step number, as the request says it (None when it doesn't)."""
    since = request.args.get("since")
    if since is not None and not re.fullmatch(r"[0-9]{1,6}", since):
        raise BadRequest(message("since"))
    return None if since is None else int(since)


# Every error is answered app-wide (pages.py): JSON under /api/, a friendly page elsewhere.


def _json() -> dict:
    if not request.is_json:
        raise NotJson(message("not_json"))
    try:
        data = bounded_json.loads(request.get_data(cache=True))
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise BadRequest(message("not_object"))
    i18n.ask_lang(data.get("lang"))  # the answer's language (checked where it sets the table's)
    return data


def parse_lang(lang, default: str) -> str:
    """The table's language from a request (``default`` when it says none)."""
    if lang is None:
        return default
    if lang not in LANGUAGES:
        raise BadRequest(message("lang"))
    return lang


def with_lang(played: Game, lang: str) -> Game:
    """The same game, its table speaking ``lang`` from its next link on."""
    if lang == played.header.lang:
        return played
    return Game(replace(played.header, lang=lang), played.match, played.keys, played.source,
                played.turn_steps)


@bp.get("/i18n/<lang>.json")
def client_messages(lang):
    """The browser client's words in ``lang`` (msgid to text; English needs none). With
    ``?v=`` the fingerprint of these very words (the pages link them so), they keep."""
    if lang not in LANGUAGES:
        raise BadRequest(message("lang"))
    response = jsonify(i18n.client_messages(lang))
    response.cache_control.public = True
    fresh = request.args.get("v") == i18n.client_version(lang)
    response.cache_control.max_age = 365 * 24 * 3600 if fresh else 300
    response.set_etag(i18n.client_version(lang))
    return response.make_conditional(request)


@bp.get("/openapi.json")
def openapi():
    """This API's description (kept in the repo as static/openapi.json)."""
    return send_from_directory(ROOT / "static", "openapi.json", mimetype="application/json")


@bp.get("/boards/<game>")
def board(game):
    """The board's drawing; Red Arse's and Ludo's ``?board=4`` (the default) or ``?board=6``."""
    if game not in GAMES:
        raise BadRequest(message("no_game", name=repr(game)))
    size = request.args.get("board")
    if game in ("red-arse", "ludo"):
        if size not in (None, "4", "6"):
            raise BadRequest(message("red_arse_board" if game == "red-arse"
                                     else "ludo_board_query"))
    elif size is not None:
        raise BadRequest(message("one_board", title=TITLES[game]))
    response = jsonify(board_layout(game, board_options(game, int(size or 4))))
    response.cache_control.public = True
    response.cache_control.max_age = 3600
    return response


def board_options(game: str, size: int) -> int:
    """The table options that draw ``game``'s board of ``size`` seats (4 or 6: Red Arse's and
    Ludo's; the others have one board)."""
    if game == "red-arse":
        return red_arse_settings.options_for(size)
    return ludo_options(size) if game == "ludo" else 0


@bp.post("/games")
def create():
    """Create a game: ``{"game", "players": [{"name", "color", "phone"?, "bot"?}],
    "settings"?, "host"?, "lang"?}``; Red Arse's settings are ``{"board": 4 or 6, "off": [house
    rules switched off]}``, Ludo's ``{"board": 4 or 6}``; Ludo's ``host`` is the creator's place
    in ``players``; ``lang`` the table's language (by default the request's). A player with
    ``"bot": "easy" | "medium" | "hard"`` is played by the server; bots to move first have
    played when the game's first link is made (it goes to the first human)."""
    data = _json()
    game, options, seats, host, lang = parse_table(data)
    deadline = parse_deadline(data.get("deadline_hours", 0))
    played = new_game(game, seats, options, host, lang, deadline)
    token = begin(played)
    body = _with_link(game_view(played, token), token)
    body["message"] = _send(played, None, body["url"], deliver=False)
    _deadline(body, played, None)
    return jsonify(body), 201


def parse_table(data: dict) -> tuple[str, int, list[Seat], int, str]:
    """A new game's table from a request (``POST /api/games``, ``POST /api/rooms``): the game,
    its options, the seats, the host's seat and the table's language (this request's errors
    speak it too)."""
    lang = parse_lang(data.get("lang"), i18n.page_lang())
    i18n.use_table_lang(lang)
    game = data.get("game", "parcheesi")
    if not isinstance(game, str) or game not in GAMES:
        raise BadRequest(message("no_game", name=repr(game)) if isinstance(game, str) else
                         message("game_name"))
    options = parse_settings(game, data.get("settings"))
    seats = parse_players(game, data.get("players"), options, lang)
    host = parse_host(game, data.get("host"), data["players"], seats, options)
    return game, options, seats, host, lang


def begin(played: Game) -> str:
    """A new game's first link, recorded as made by this browser (its opening by this browser
    starts nobody's time)."""
    token = played.token()
    ledger().begin(played.header.seed, token, len(played.match.steps), _turn(played), device())
    return token


def new_game(game: str, seats: list[Seat], options: int, host: int = 0,
             lang: str = "en", deadline: int = 0) -> Game:
    """A new game; ``host`` (Ludo) is the seat of the player who created it, ``lang`` the
    table's language, ``deadline`` the minutes each player has for a turn (0: no deadline).
    Bots to move first have played: a human is to move, their time starting now."""
    played = Game.new(game, seats, _keys(), options=options)
    if host or lang != played.header.lang or deadline:
        played = Game(replace(played.header, host=host, lang=lang, deadline=deadline),
                      played.match, played.keys)
    played.play_bots()
    return played.stamped(now())


DEADLINE_HOURS = range(169)  # up to a week; 0: no deadline


def parse_deadline(hours) -> int:
    """A turn deadline in minutes from the request's ``deadline_hours``."""
    if type(hours) is not int or hours not in DEADLINE_HOURS:
        raise BadRequest(message("deadline_hours"))
    return hours * 60


def parse_host(game: str, host, players: list, seats: list[Seat], options: int) -> int:
    """The creator's seat (seats are sorted) from their place in the request's ``players``
    (Ludo; the first human listed by default). The host is a human: bots add nobody."""
    if game != "ludo":
        if host is not None:
            raise BadRequest(message("no_host", title=TITLES[game]))
        return 0
    if host is None:
        host = next(i for i, player in enumerate(players) if not player.get("bot"))
    if type(host) is not int or not 0 <= host < len(players):
        raise BadRequest(message("host"))
    color = rules_for(game, options).board.color_names.index(players[host]["color"])
    seat = next(i for i, seat in enumerate(seats) if seat.color == color)
    if seats[seat].bot:
        raise BadRequest(message("bot_host"))
    return seat


def parse_settings(game: str, settings) -> int:
    """The link's options for a game's table settings (see ``red_arse_settings``)."""
    if settings is None or settings == {}:
        return 0
    if game == "ludo":  # the table's capacity ("board": 4 or 6 is a table of that many)
        if not isinstance(settings, dict) or len(settings) != 1 or \
                not set(settings) <= {"capacity", "board"}:
            raise BadRequest(message("ludo_settings"))
        capacity = settings.get("capacity", settings.get("board"))
        if type(capacity) is not int or capacity not in range(2, 7):
            raise BadRequest(message("ludo_table"))
        return ludo_options(capacity)
    if game != "red-arse":
        raise BadRequest(message("no_settings", title=TITLES[game]))
    if not isinstance(settings, dict) or not set(settings) <= {"board", "off"}:
        raise BadRequest(message("red_arse_settings"))
    board, off = settings.get("board", 4), settings.get("off", [])
    if type(board) is not int or board not in red_arse_settings.BOARDS:
        raise BadRequest(message("red_arse_board_json"))
    rules = ", ".join(red_arse_settings.RULE_KEYS)
    if not isinstance(off, list) or not all(isinstance(key, str) for key in off):
        raise BadRequest(message("off", rules=rules))
    for key in off:
        if key not in red_arse_settings.RULE_KEYS:
            raise BadRequest(message("no_house_rule", name=repr(key), rules=rules))
    return red_arse_settings.options_for(board, off=off)


def parse_players(game: str, players, options: int = 0, lang: str = "en",
                  numbers: list[int] | None = None) -> list[Seat]:
    """Seats from the request, in turn order (around the board in the direction of play);
    ``lang`` is the table's language (blank names, phone numbers), ``numbers`` each player's
    number in blank names ("Player 2"; by default their place in the list, from 1). At least
    one player is a human."""
    rules = rules_for(game, options)
    names = rules.board.color_names
    if not isinstance(players, list) or not 2 <= len(players) <= rules.capacity:
        if game == "ludo":
            raise BadRequest(message("players_on_board", title=TITLES[game],
                                     seats=rules.capacity, squares=rules.board.track))
        raise BadRequest(message("players_on_ring" if game == "red-arse" else "players",
                                 title=TITLES[game], seats=len(names)))
    numbers = numbers or list(range(1, len(players) + 1))
    seats = [parse_player(player, names, n, lang) for n, player in zip(numbers, players)]
    if all(s.bot for s in seats):
        raise BadRequest(message("one_human"))
    # Bots given no name would share one ("Bot (medium)"): they are numbered like players.
    shared = [s.name for s in seats if s.bot]
    seats = [replace(s, name=bot_name(s.bot, lang, n))
             if s.bot and s.name == bot_name(s.bot, lang) and shared.count(s.name) > 1 else s
             for n, s in zip(numbers, seats)]
    colors = [s.color for s in seats]
    if len(set(colors)) != len(colors):
        raise BadRequest(message("different_colors"))
    seats.sort(key=lambda s: s.color)  # turns go around the board in the direction of play
    return seats


def parse_player(player, names: tuple[str, ...], number: int, lang: str = "en") -> Seat:
    """One player from a request: ``{"name", "color", "phone"?, "bot"?}``, a color among
    ``names``; a blank name is "Player <number>" in the table's language ``lang`` (a bot's
    "Bot (medium)"), which also says where a phone number without its country code is. A bot
    (``"bot"``: its strength) has no phone number."""
    if not isinstance(player, dict):
        raise BadRequest(message("player_object"))
    bot = player.get("bot")
    if bot is not None and (not isinstance(bot, str) or bot not in BOT_STRENGTHS):
        raise BadRequest(message("bot"))
    bot = BOT_STRENGTHS.get(bot, 0)
    name = player.get("name") or ""
    if not isinstance(name, str):
        raise BadRequest(message("name_text"))
    name = clean_name(name) or (bot_name(bot, lang) if bot else default_name(number, lang))
    color = player.get("color")
    if color not in names:  # the API's names for colors: not translated
        raise BadRequest(message("choose_color", colors=", ".join(names)))
    phone = player.get("phone") or None
    if phone is not None and not isinstance(phone, str):
        raise BadRequest(message("phone_text"))
    if phone and bot:
        raise BadRequest(message("bot_phone"))
    whatsapp = player.get("whatsapp", False)
    if type(whatsapp) is not bool or (whatsapp and not phone):
        raise BadRequest(message("whatsapp"))
    try:
        if phone:
            phone = sms.normalize_phone(phone, PHONE_REGION[lang],
                                        current_app.config["TEXT_COUNTRIES"])
        return Seat(name=name, color=names.index(color), bot=bot, phone=phone,
                    whatsapp=whatsapp)
    except ValueError as error:
        raise BadRequest(error.args[0]) from None


def default_name(number: int, lang: str) -> str:
    """The name of a player who gave none: "Player 2" ("Jugador 2")."""
    return i18n.translate(message("default_name", n=number), lang)


def bot_name(bot: int, lang: str, number: int | None = None) -> str:
    """The name of a bot given none: "Bot (medium)", or numbered, "Bot 2 (medium)"."""
    key = f"bot_{BOT_LEVELS[bot]}"
    text = message(f"{key}_n", n=number) if number is not None else message(key)
    return i18n.translate(text, lang)


@bp.get("/games/<token>")
def read(token):
    """The game at this link, with the turns since the viewer's own last one, or since step
    ``?since=N``."""
    since = since_arg()
    played, recorder = load(token, _keys(), record=True)
    i18n.use_table_lang(played.header.lang)
    since = None if since is None else min(since, len(played.match.steps))
    try:  # a game reads without the store: only whether this link is the newest is unknown
        standing = _standing(played, token)
    except StoreUnavailable:
        standing = None
    current = standing is None or (standing.current and not standing.room)
    if standing and current:
        played = _with_backs(played, standing)
    # The creator's first text: no human has played yet (bots to move first may have).
    invite = request.args.get("invite") and not humans_played(played) and current
    if invite and request.args.get("lang") in set(LANGUAGES) - {played.header.lang} and \
            standing is not None and standing.made_by(device()):
        # The creator switched the page's language before sending the first link: the table
        # speaks it, so the link they send says so.
        switched = with_lang(played, request.args["lang"])
        if ledger().advance(standing, request_digest("lang", dict(request.args)),
                            switched.token(), len(played.match.steps), _turn(played),
                            len(played.match.steps), device()):
            played, token = switched, switched.token()
    elif standing is not None and current and standing.opened is None and not played.over:
        try:  # the link reached its player (unless this is the browser that made it)
            standing = ledger().reached(standing, now(), device()) or standing
        except StoreUnavailable:
            pass
    body = _with_link(game_view(played, token, recorder, since, i18n.page_lang()), token)
    if standing is not None and current:  # else when the time started is unknown: not shown
        _deadline(body, played, standing)
    elif body["deadline"]:
        body["deadline"].update(due_at=None, waiting=False)
    body["moved_on"] = None if current else _moved_on(standing)
    body["room"] = standing.room if standing is not None else None
    if invite:
        body["message"] = _send(played, None, body["url"], deliver=False)
    return jsonify(body)


def _step_arg(played: Game) -> int:
    """``?step=N``: a step of this game (by default the position it has reached)."""
    step = request.args.get("step")
    if step is None:
        return len(played.match.steps)
    if not re.fullmatch(r"[0-9]{1,6}", step) or int(step) > len(played.match.steps):
        raise BadRequest(message("step"))
    return int(step)


def _for_good(asked: answers.Question, played: Game, shape):
    """The answer to ``asked`` (a question about a position of ``played``: app/answers.py),
    as ``shape(answer)`` words it for this request, cached for good by the browser: it
    depends only on the URL (the link, the step, and ``?lang=`` or else the table's language,
    never the cookie or Accept-Language, so no Vary). ``private``: the URL holds the game's
    link, a key to the game, which has no place in a shared cache or its logs; the browser
    that asks has the link already.

    The answer itself is kept in the store, for every phone and every game that reaches the
    position: one kept costs nothing more. Working one out is the costliest thing anyone can
    ask for, so it is bounded like texts: at most ``ANALYSIS_PER_GAME_HOUR`` answers are worked
    out for a game in an hour, counted in the store (429 past it: making games to get more is
    what the edge's rate limits are for), and when the pool is full, 503; both say when to
    try again (Retry-After). One being worked out ahead after the game's turn
    (``analyse_ahead``) is waited for, and counted once. With the store down, it is worked
    out all the same, and neither counted nor kept: the pool's places still bound it."""
    store, config = bookkeeping.store(), current_app.config
    pool = review.analysts(config)
    try:
        answer, reachable = answers.kept(store, asked), True
    except StoreUnavailable:
        answer, reachable = None, False
    if answer is None:
        if reachable and not pool.queued(asked.key):  # a queued one has been counted
            try:
                if not answers.counted(store, played.header.seed, now(),
                                       config["ANALYSIS_PER_GAME_HOUR"]):
                    hour = int(now() // 3600)
                    return _refused("TooMuchAnalysis", message("analysis_hour"), 429,
                                    (hour + 1) * 3600 - int(now()))
            except StoreUnavailable:
                reachable = False
        try:
            answer = pool.run(answers.work, asked, key=asked.key)
        except review.Busy as busy:
            return _refused("Busy", review.BUSY, 503, busy.retry_after)
        if reachable:
            answers.keep(store, asked, answer, now())
    response = jsonify(shape(answer))
    response.cache_control.private = True
    response.cache_control.max_age = 365 * 24 * 3600
    response.cache_control.immutable = True
    return response


def analyse_ahead(response, played: Game, since: int):
    """``response``, which once sent queues what the game's review will ask for from step
    ``since`` on (``review.ahead``: where there are analysis workers), so that it is kept
    before anyone asks and the turn's answer waits for none of it. ``ANALYSIS_AHEAD`` says
    whether (on; off in tests that don't switch it on: the suite's many turns would keep a
    worker busy with full-size reviews)."""
    config = current_app.config
    if config.get("ANALYSIS_AHEAD", not current_app.testing):
        moment = now()
        response.call_on_close(lambda: review.ahead(played, since, config, moment))
    return response


def _refused(code: str, said, status: int, retry_after: int):
    """An analysis not worked out now, and when to ask again."""
    response = jsonify(error={"code": code, "message": i18n.say(said)})
    response.status_code = status
    response.headers["Retry-After"] = str(max(1, retry_after))
    response.cache_control.no_store = True
    return response


@bp.get("/games/<token>/chances")
def chances(token):
    """Each seat's chance to win at ``?step=N`` (default: now), or after ``?steps=[...]``: the
    turn in progress on top of the link, as ``/moves`` takes it (its ``turn_steps``), so the
    page can ask after each of its own moves. From playing the game on with medium bots
    (``ANALYSIS_PLAYOUTS`` times, 300 by default, fewer when their steps reach
    ``ANALYSIS_BUDGET``: ``playouts`` says how many), each game to the end or for
    ``analysis.CHANCE_ROUNDS`` rounds and then weighed by the static evaluation, seeded from
    the position, never from the game's dice: the answer is the same for anyone, kept for
    everyone and cached for good."""
    played, _ = load(token, _keys())
    step = _step_arg(played)
    steps = request.args.get("steps")
    if steps is not None:
        if "step" in request.args:
            raise BadRequest(message("step_or_steps"))
        try:
            steps = bounded_json.loads(steps) if len(steps) <= MAX_STEPS_ARG else None
        except ValueError:
            steps = None
        if not isinstance(steps, list) or len(steps) > 200:
            raise BadRequest(message("steps"))
        room = _standing(played, token).room
        if room:  # steps tried on a room's link would tell anyone watching the dice to come
            raise MovedOn(message("in_room", code=room))
        if not played.over:
            played.play_turn(played.match.turn, steps, now=now())
        elif steps:
            raise TurnError(message("game_over"))
        step = len(played.match.steps)
    asked = review.chances_question(played, review.state_at(played, step), current_app.config)
    return _for_good(asked, played, lambda answer: {
        "step": step, "playouts": answer["playouts"], "chances": answer["chances"]})


@bp.get("/games/<token>/luck")
def luck(token):
    """Each player's luck over the game so far, in points of chance to win (``luck``: per seat,
    the sum over its rolls of how much better that roll was than the average roll, by the
    static evaluation; ``rolls``: how many it made). One replay, no playouts; kept, counted
    and cached for good like ``chances``."""
    played, _ = load(token, _keys())
    return _for_good(answers.luck_question(played), played,
                     lambda answer: dict(answer, step=len(played.match.steps)))


MAX_STEPS_ARG = 8000  # characters of ``?steps=``: a long turn's steps, receipts included


@bp.get("/games/<token>/review")
def review_step(token):
    """The review of a person's choice between moves at ``?step=N``: each option's chance to win
    (for the player), the points of chance it gave up next to the best one (the cautious end of
    the estimate), its grade (good under 3 points, misstep under 10, blunder), and what it missed
    next to the best, in ``?lang=`` or else the table's language (so the URL alone decides the
    answer). Within a budget (``ANALYSIS_BUDGET``): the move played is graded first, then
    medium's favourites; options it didn't reach have a null grade, chance and loss and are
    listed in ``not_graded``. Cached for good like ``chances``."""
    played, _ = load(token, _keys())
    i18n.use_table_lang(played.header.lang)  # unless ?lang= says otherwise
    step = _step_arg(played)
    state = review.state_at(played, step)
    asked = review.review_question(played, step, state, current_app.config)
    return _for_good(asked, played, lambda answer: _review_view(played, step, state, answer))


def _review_view(played: Game, step: int, state, answer: dict) -> dict:
    """A kept review (the engine's figures for each option) in this request's words: each
    option's move and what it missed next to the best."""
    lang, rules = i18n.page_lang(), played.rules
    color = played.header.seats[state.turn].color
    moves = rules.legal_moves(state)
    options = answer["options"]
    return {
        "step": step, "seat": state.turn, "played": played.match.steps[step][0],
        "best": next(o["index"] for o in options if o["best"]),
        "options": [dict(move_view(rules, color, moves[o["index"]], lang), index=o["index"],
                         chance=None if o["chance"] is None else round(o["chance"], 4),
                         loss=None if o["loss"] is None else round(o["loss"], 1),
                         grade=o["grade"], playouts=o["playouts"], missed=o["missed"],
                         reasons=[i18n.say(analysis.REASONS[rules.name][key])
                                  for key in o["missed"]])
                    for o in options],
        "not_graded": [o["index"] for o in options if o["grade"] is None],
        "playouts": sum(o["playouts"] for o in options)}


@bp.post("/games/<token>/moves")
def moves(token):
    """Play part of a turn (``{"seat", "steps"}``) and see the result; nothing is stored.

    ``turn_steps`` are the steps to send next time (claim tickets swapped for receipts); at a
    claim point ``claim`` holds the ticket that claims the re-roll, good for a few seconds.
    """
    played, standing, done = _play(token, _json())
    view = _with_link(game_view(played, token, lang=i18n.page_lang()), token)  # still this link
    _deadline(view, played, standing)
    view["turn_over"] = done
    view["turn_steps"] = played.turn_steps
    if played.match.phase == CLAIM:
        view["claim"] = {"ticket": played.claim_ticket(now()), "seconds": CLAIM_SECONDS}
    return jsonify(view)


@bp.post("/games/<token>/turn")
def finish(token):
    """Finish a turn: play its steps, then the bots' turns that follow (until a human is to move
    or the game ends; ``replay`` lists them), make the next link (in the table's language:
    ``lang`` changes it), and text it to the next human when we can."""
    data = _json()
    ask = request_digest("turn", data)
    played, standing, done = _play(token, data, ask)
    if done is None:  # the very same turn, sent again: the same answer, nothing sent again
        return jsonify(_repeat(standing, played.header.seats[data["seat"]].name))
    if not done:
        raise TurnError(message("turn_not_over"))
    played = with_lang(played, parse_lang(data.get("lang"), played.header.lang))
    known = {s.phone for s in played.header.seats}
    if "seats" in data:
        seats = played.header.seats
        first = not any(not seats[s].bot for _, s, _ in played.match.history[:standing.step])
        played = played.with_seats(_seat_changes(played, data["seats"], data["seat"], first))
    start = len(played.match.steps)
    recorder = play_bots(played)
    played = played.stamped(now())
    mover = played.header.seats[data["seat"]].name
    next_token = played.token()
    made, repeat = _advance(standing, ask, played, next_token, start)
    if repeat:
        return jsonify(_repeat(repeat, mover))
    url = game_url(next_token)
    body = _with_link(game_view(played, next_token, recorder, start, lang=i18n.page_lang()),
                      next_token)
    # Back to the same player (the others are bots): nobody to text.
    again = not played.over and played.match.turn == data["seat"]
    body["message"] = _send(played, mover, url, deliver=not again and _may_text(played, known))
    _deadline(body, played, _arrived(made, body["message"]))
    return analyse_ahead(jsonify(body), played, standing.step)


class TooEarly(ValueError):
    """A turn played for an absent player before their time is up (or with no deadline)."""

    status = 409


@bp.post("/games/<token>/absent")
def absent(token):
    """After the turn deadline (``deadline.due_at``), whoever holds the link has the server
    play the absent player's turn as a medium bot (then the bots' turns after it); answered
    like ``/turn``: the next link, ``replay`` of what was played, and ``message`` for the next
    human (texted as usual). The absent player is texted that their turn was played."""
    data = _json()
    ask = request_digest("absent", data)
    played, _ = load(token, _keys())
    i18n.use_table_lang(played.header.lang)
    if played.over:
        raise TurnError(message("game_over"))
    seat = played.match.turn
    name = played.header.seats[seat].name
    standing = _current(played, token, ask)
    if not standing.current:  # played for them already: the same answer again
        return jsonify(_absent_view(_repeat(standing, name), seat, None))
    played = _with_backs(played, standing)
    if played.due_at() is None:
        raise TooEarly(message("no_deadline", name=name))
    if standing.opened is None:  # the clock starts when the link reaches its player
        raise TooEarly(message("not_arrived", name=name))
    moment = now()
    if moment < standing.opened + played.header.deadline * 60:
        raise TooEarly(message("still_time", name=name))
    known = {s.phone for s in played.header.seats}
    start = len(played.match.steps)
    recorder = Recorder()
    if start:
        recorder(played.match)
    played = played.stamped(standing.opened).play_for_absent(moment, recorder)
    next_token = played.token()
    made, repeat = _advance(standing, ask, played, next_token, start)
    if repeat:
        return jsonify(_absent_view(_repeat(repeat, name), seat, None))
    url = game_url(next_token)
    body = _with_link(game_view(played, next_token, recorder, start, lang=i18n.page_lang()),
                      next_token)
    back = not played.over and played.match.turn == seat  # the others were bots
    # Back to the absent player (the others are bots): their own text below says so.
    body["message"] = _send(played, name, url, deliver=not back and _may_text(played, known))
    arrived = _arrived(made, body["message"])
    absent_phone = played.header.seats[seat].phone
    texted = None
    if absent_phone and current_app.config.get("PUBLIC_URL") and not played.header.seats[seat].out:
        text = sms.played_for_you_message(name, url, played.header.lang,
                                          away=seat in played.away())
        texted = _outbox_send(played, absent_phone, text,
                              played.header.seats[seat].whatsapp).status
    _deadline(body, played, arrived)
    return jsonify(_absent_view(body, seat, texted))


def _absent_view(body: dict, seat: int, texted: str | None) -> dict:
    """``/absent``'s answer: the game's, with who was played for, whether they were texted, and
    whether it disqualified them (Ludo: the third expiry in a row)."""
    player = body["seats"][seat]
    body["absent"] = {"seat": seat, "name": player["name"], "texted": texted,
                      "disqualified": player["out"]}
    return body


@bp.post("/games/<token>/back")
def come_back(token):
    """A player who was being played for (two turns missed in a row, Parcheesi and Red Arse)
    is back (``{"seat": n}``), from any link of the game, the newest or an older one: the store
    remembers it, and the newest link, wherever it is opened, gives them their turns back (the
    link made from it records it). Answered with this link's game, ``back`` naming the seat."""
    seat = _seat_number(_json())
    played, _ = load(token, _keys())
    i18n.use_table_lang(played.header.lang)
    if not 0 <= seat < len(played.header.seats):
        raise BadRequest(message("no_seat"))
    for _attempt in range(3):  # another request may write between our read and write
        standing = _standing(played, token)
        if standing.room:
            raise MovedOn(message("in_room", code=standing.room))
        newest = standing if standing.current else ledger().newest(standing)
        if newest is None:
            raise MovedOn(message("moved_on"))
        if seat in newest.backs:  # said already
            break
        game = played if newest is standing else Game.from_token(newest.token, _keys())
        _with_backs(game, newest).come_back(seat)  # TurnError: not away, or the game is over
        if ledger().come_back(newest, seat):
            break
    else:
        raise MovedOn(message("try_again"))
    if standing.current:
        played = _with_backs(played, ledger().again(standing))
    body = _with_link(game_view(played, token, lang=i18n.page_lang()), token)
    body["moved_on"] = None if standing.current else _moved_on(standing)
    body["seats"][seat]["away"] = False  # on an older link too: the newest has them back
    body["back"] = {"seat": seat, "name": played.header.seats[seat].name}
    return jsonify(body)


def humans_played(played: Game) -> bool:
    """Whether any human has played a step yet (bots to move first play at once)."""
    seats = played.header.seats
    return any(not seats[seat].bot for _, seat, _ in played.match.history)


CLAIM_SECONDS = 5  # what the rules give the player; the server allows for the network


@bp.post("/games/<token>/players")
def add_player(token):
    """The host adds a player to a Ludo table (``{"seat": host, "player": {"name", "color",
    "phone"?}, "steps"?, "lang"?}``): the same game with the new seat, as a new link.
    ``steps`` is the host's turn in progress, checked to go on the same on the new link;
    ``lang`` the table's language from then on."""
    data = _json()
    seat = _seat_number(data)
    played, _ = load(token, _keys())
    i18n.use_table_lang(played.header.lang)
    ask = request_digest("players", data)
    standing = _current(played, token, ask)
    if not standing.current:  # the same player added again: the same answer
        return jsonify(_repeat(standing, None, invite=True)), 201
    if not hasattr(played.rules, "join"):
        raise TurnError(message("no_joining"))
    if played.over:
        raise TurnError(message("joining_over"))
    seats, host = played.header.seats, played.header.host
    _check_host(played, seat, "add_players")
    if played.match.steps and played.match.turn != host:  # before the first roll: any time
        raise WrongSeat(message("not_hosts_turn", name=seats[played.match.turn].name))
    steps = data.get("steps", [])
    if not isinstance(steps, list) or len(steps) > 200:
        raise BadRequest(message("steps"))
    lang = parse_lang(data.get("lang"), played.header.lang)
    names = played.rules.board.color_names
    if not isinstance(data.get("player"), dict):
        raise BadRequest(message("player"))
    if len(seats) >= len(names):
        raise TableFull(message("table_full"))
    player = parse_player(data["player"], names, len(seats) + 1, lang)
    taken = {s.color for s in seats}
    if player.color in taken:  # said to people (the page's form): colors in their words
        free = [i18n.say(n) for c, n in enumerate(names) if c not in taken]
        raise TableFull(message("color_taken", color=i18n.say(names[player.color]).capitalize(),
                                free=", ".join(free)))
    try:
        joined = with_lang(played, lang).add_player(player)
    except TurnError as error:
        raise TableFull(error.args[0]) from None
    if not steps:  # joining before the first roll may seat a bot first: it plays at once
        joined.play_bots()
    new_token = joined.token()
    if steps:
        mover = seats[played.match.turn].color
        check = Game.from_token(new_token, _keys())
        try:
            check.play_turn(next(i for i, s in enumerate(joined.header.seats) if s.color == mover),
                            steps, now=now())
        except TurnError as error:
            raise WrongSeat(message("turn_lost", reason=i18n.say(error.args[0]))) from None
    _, repeat = _advance(standing, ask, joined, new_token, len(joined.match.steps))
    if repeat:
        return jsonify(_repeat(repeat, None, invite=True)), 201
    body = _with_link(game_view(joined, new_token, lang=i18n.page_lang()), new_token)
    body["message"] = (_send(joined, None, body["url"], deliver=False)
                       if not humans_played(joined) else None)
    _deadline(body, joined, None)
    return jsonify(body), 201


@bp.post("/games/<token>/rematch")
def rematch(token):
    """The host starts a new game at the same table once this one is over (``{"seat": host,
    "lang"?, "capacity"?}``: a Ludo table may change its size, medals carry over): the new
    game's link (in the table's language, or ``lang``) and its invite for the first player."""
    data = _json()
    seat = _seat_number(data)
    played, _ = load(token, _keys())
    i18n.use_table_lang(played.header.lang)
    if played.header.game != "ludo":
        raise TurnError(message("no_rematch"))
    _check_host(played, seat, "start_rematch")
    standing = _current(played, token)
    lang = parse_lang(data.get("lang"), played.header.lang)
    capacity = data.get("capacity")
    if capacity is not None and (type(capacity) is not int or capacity not in range(2, 7)):
        raise BadRequest(message("ludo_table"))
    options = None if capacity is None else ludo_options(capacity)
    again = with_lang(played.rematch(options=options), lang)  # TurnError (422) before the end
    if played.header.deadline:  # the table keeps its turn deadline
        again = Game(replace(again.header, deadline=played.header.deadline), again.match,
                     again.keys)
    again.play_bots()  # bots to move first play at once
    again = again.stamped(now())
    new_token = again.token()
    made = ledger().rematch(standing, new_token) or ledger().rematch(ledger().again(standing),
                                                                     new_token)
    if made is None:
        raise MovedOn(message("try_again"))
    if made != new_token:  # a rematch was started already (a second tap): that one stands
        again, new_token = Game.from_token(made, _keys()), made
    else:
        ledger().begin(again.header.seed, new_token, len(again.match.steps), _turn(again),
                       device())
    body = _with_link(game_view(again, new_token, lang=i18n.page_lang()), new_token)
    body["message"] = _send(again, None, body["url"], deliver=False)
    _deadline(body, again, None)
    return jsonify(body), 201


def _seat_number(data: dict) -> int:
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest(message("seat"))
    return seat


def _check_host(played: Game, seat: int, what: str) -> None:
    """Only the host may do ``what`` (the message that says so: "add_players"...)."""
    seats = played.header.seats
    if not 0 <= seat < len(seats):
        raise BadRequest(message("no_seat"))
    if seat != played.header.host:
        raise NotHost(message(what, host=seats[played.header.host].name))


def _may_text(played: Game, known: set) -> bool:
    """Text from our number only to a number the game already had (a number typed in this
    request is used from the next turn on), and only with PUBLIC_URL set (links built from a
    request's Host header could be forged). The outbox bounds the rest (``app/outbox.py``)."""
    if played.over or not current_app.config.get("PUBLIC_URL"):
        return False
    return played.header.seats[played.match.turn].phone in known


def _play(token: str, data: dict, ask: str | None = None):
    """Play a turn's steps on the link (only its newest link plays); returns the game, the
    link's standing, and whether the turn is over (None: ``ask`` repeats the request that
    moved this game on, and nothing was played)."""
    seat, steps = data.get("seat"), data.get("steps", [])
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest(message("playing_seat"))
    if not isinstance(steps, list) or len(steps) > 200:
        raise BadRequest(message("steps"))
    played, _ = load(token, _keys())
    i18n.use_table_lang(played.header.lang)
    if not 0 <= seat < len(played.header.seats):
        raise BadRequest(message("no_seat"))
    standing = _current(played, token, ask)
    if not standing.current:
        return played, standing, None
    played = _with_backs(played, standing)
    if not played.over and played.match.turn != seat:
        raise WrongSeat(message("not_your_turn", turn=played.header.seats[played.match.turn].name,
                                seat=played.header.seats[seat].name))
    if played.header.seats[seat].bot:
        raise WrongSeat(message("bot_seat", name=played.header.seats[seat].name))
    done = played.play_turn(seat, steps, now=now())
    return played, standing, done


# -- the store's bookkeeping (app/ledger.py): only the newest link plays --------------------------

def _turn(played: Game) -> int | None:
    return None if played.over else played.match.turn


def _standing(played: Game, token: str) -> Standing:
    return ledger().standing(played.header.seed, token, len(played.match.steps), _turn(played))


def _current(played: Game, token: str, ask: str | None = None) -> Standing:
    """The link's standing; an older link is refused (409), unless ``ask`` repeats the request
    that moved the game on from it (the caller answers that with the same link)."""
    standing = _standing(played, token)
    if standing.room:
        raise MovedOn(message("in_room", code=standing.room))
    if not standing.current and not (ask and standing.repeats(ask, device())):
        raise MovedOn(message("moved_on"))
    return standing


def _with_backs(played: Game, standing: Standing) -> Game:
    """The game with the players who said "I'm back" since its link was made back."""
    for seat in standing.backs:
        if seat in played.away():
            played = played.come_back(seat)
    return played


def _advance(standing: Standing, ask: str, played: Game, token: str, start: int):
    """Record ``token`` as the game's newest link: (its standing, None) when done; (None, the
    standing of the link sent from) when this browser's same request did it first (a double
    tap), to answer like it; else 409. The entry may have changed under us without the game
    moving on (the link reached its player, someone said "I'm back"): then try again."""
    applied = standing.backs  # _with_backs gave the game these
    for _attempt in range(3):
        made = ledger().advance(standing, ask, token, len(played.match.steps), _turn(played),
                                start, device(), applied)
        if made:
            return made, None
        standing = ledger().again(standing)
        if standing.room:  # gone live meanwhile: the room plays it now
            raise MovedOn(message("in_room", code=standing.room))
        if standing.repeats(ask, device()):
            return None, standing
        if not standing.known:
            raise MovedOn(message("moved_on"))
    raise MovedOn(message("try_again"))


def _repeat(standing: Standing, mover: str | None, invite: bool = False) -> dict:
    """The answer to a request that was answered already (``standing``: of the link it was
    sent from): the same newest link, its replay from the same step, and nothing sent again."""
    newest = ledger().newest(standing)
    played, recorder = load(newest.token, _keys(), record=True)
    body = _with_link(game_view(played, newest.token, recorder, standing.data["start"],
                                lang=i18n.page_lang()), newest.token)
    if invite:
        body["message"] = (_send(played, None, body["url"], deliver=False)
                           if not humans_played(played) else None)
    else:
        body["message"] = _send(played, mover, body["url"], deliver=False)
        if standing.data.get("texted"):
            body["message"]["status"] = "sent"
    _deadline(body, played, newest)
    return body


def _arrived(made: Standing, sent: dict) -> Standing:
    """The new link's standing (``made``), once we texted it to its player: it reached them
    now, and their time starts."""
    if sent.get("status") != "sent":
        return made
    try:
        return ledger().reached(made, now(), texted=True) or made
    except StoreUnavailable:  # the turn is played already: the clock starts when it is opened
        return made


def _deadline(body: dict, played: Game, standing: Standing | None) -> None:
    """A turn's deadline counts from when its link reached the player (``standing.opened``):
    until then there is no due time, and ``waiting`` says so."""
    deadline = body.get("deadline")
    if not deadline or played.over:
        return
    opened = standing.opened if standing is not None else None
    deadline["due_at"] = None if opened is None else opened + played.header.deadline * 60
    deadline["waiting"] = opened is None


def _moved_on(standing: Standing) -> dict:
    """What a holder of an older link is told: how far the game has got and whose turn it is
    (never the newest link: it is the next player's)."""
    return {"steps": standing.data["step"], "turn": standing.data["turn"],
            "over": standing.data["turn"] is None}


def _seat_changes(played: Game, changes, mover: int, first_turn: bool) -> list[Seat]:
    """Names and phone numbers edited on the page go out with the next link. The player to
    move changes only their own (else they could redirect someone's texts); the host, on the
    game's first turn, anyone's (the table is being set up)."""
    if not isinstance(changes, list) or len(changes) != len(played.header.seats):
        raise BadRequest(message("seats"))
    anyone = first_turn and mover == played.header.host
    seats = []
    for i, (seat, change) in enumerate(zip(played.header.seats, changes)):
        if not isinstance(change, dict):
            raise BadRequest(message("seat_change"))
        name, phone = change.get("name", seat.name), seat.phone
        if "phone" in change:
            phone = change["phone"] or None
            if phone is not None and seat.bot:
                raise BadRequest(message("bot_phone"))
        if not isinstance(name, str) or not isinstance(phone, (str, type(None))):
            raise BadRequest(message("seat_text"))
        whatsapp = change.get("whatsapp", seat.whatsapp)
        if type(whatsapp) is not bool:
            raise BadRequest(message("whatsapp"))
        whatsapp = whatsapp and phone is not None  # the choice goes with the number
        name = clean_name(name) or seat.name
        if name == clean_name(seat.name):  # as it was (a name from before the cleaning too)
            name = seat.name
        if (name, phone, whatsapp) != (seat.name, seat.phone, seat.whatsapp) and i != mover \
                and not anyone:
            raise NotYours(message("own_seat", name=seat.name))
        if name != seat.name and name.casefold() in {
                clean_name(s.name).casefold() for j, s in enumerate(played.header.seats) if j != i}:
            raise BadRequest(message("name_taken", name=name))
        try:
            if phone and phone != seat.phone:
                phone = sms.normalize_phone(phone, PHONE_REGION[played.header.lang],
                                            current_app.config["TEXT_COUNTRIES"])
            seats.append(Seat(name=name, color=seat.color, bot=seat.bot, phone=phone,
                              whatsapp=whatsapp))
        except ValueError as error:
            raise BadRequest(error.args[0]) from None
    return seats


def _send(played: Game, mover: str | None, url: str, deliver: bool = True) -> dict:
    """Text the next link to the player it goes to, or say how to send it by hand.

    A new game's first link is not texted by the server: its creator sends it (the page's
    "Send to" button), so nobody gets a text from a stranger's number unasked.
    """
    if played.over:
        if played.header.game != "ludo":
            return {"to": None, "text": None, "status": "game-over", "error": None,
                    "sms_href": None, "whatsapp_href": None, "whatsapp": False,
                    "channel": None}
        # Nobody is texted; the page offers the host the final link (their rematch is there).
        host = played.header.seats[played.header.host]
        winner = played.header.seats[played.state.winner].name
        text = sms.results_message(winner, host.name, url + "?host=1",
                                   TITLES[played.header.game], played.header.lang)
        return {"to": host.name, "text": text, "status": "game-over", "error": None,
                "sms_href": sms.sms_href(host.phone, text),
                "whatsapp_href": sms.whatsapp_href(host.phone, text),
                "whatsapp": host.whatsapp, "channel": None}
    to = played.header.seats[played.match.turn]
    text = sms.turn_message(mover, to.name, url, TITLES[played.header.game],
                            played.header.lang)
    return _text_to(played, to, text, deliver)


def _text_to(played: Game, to: Seat, text: str, deliver: bool) -> dict:
    """Text ``to`` (when ``deliver`` and their number is known: through the outbox, once for
    this step of the game), or say how to send it."""
    delivery = _outbox_send(played, to.phone, text, to.whatsapp) if deliver and to.phone \
        else sms.Delivery("not-sent")
    return {
        "to": to.name,
        "text": text,
        "status": delivery.status,
        "error": i18n.say(delivery.error) if delivery.error else None,
        "sms_href": sms.sms_href(to.phone, text),
        # WhatsApp's click-to-chat address; ``whatsapp``: the player chose it (the page offers
        # it first); ``channel``: how the server sent it ("sms", "whatsapp"; None: it didn't).
        "whatsapp_href": sms.whatsapp_href(to.phone, text),
        "whatsapp": to.whatsapp,
        "channel": delivery.channel if delivery.status == "sent" else None,
    }


def _outbox_send(played: Game, phone: str, text: str, whatsapp: bool = False) -> sms.Delivery:
    """Text (or, for a player who chose it, send by WhatsApp) through the outbox, for this step
    of the game. The game has moved on already when this runs: a store that fails now costs
    the text (sent by hand), not the turn."""
    try:
        return outbox().send(played.header.seed, len(played.match.steps), phone, text,
                             whatsapp, played.header.lang)
    except StoreUnavailable:
        return sms.Delivery("failed", error=sms.SERVICE_DOWN)


def _with_link(view: dict, token: str) -> dict:
    view["url"] = game_url(token)
    view["token_chars"] = len(token)
    return view


