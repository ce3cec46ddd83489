"""Seats and players: a new table as a request says it (the game, its settings, the players,
the host), the names of players who give none, who may act as the host, and the names and
numbers a turn changes.

Read by the games' and seats' blueprints, by the rooms' (``POST /api/rooms``) and by the New
game form (pages.py).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from flask import current_app

from app import i18n, phone_numbers
from app.engine import red_arse_settings
from app.engine.bots import BOT_LEVELS
from app.engine.games import RULE_SETS, TITLES, rules_for
from app.engine.text import Text
from app.engine.ludo import ludo_options
from app.link import Seat, seat_of
from app.names import clean as clean_name
from app.play import Game
from app.web.parse import BadRequest, NotHost, NotYours, message, parse_lang

# A seat's ``bot`` in the link from the API's strength (``Seat.bot``: 0 is a human).
BOT_STRENGTHS = {name: level for level, name in BOT_LEVELS.items()}

# Where a phone number typed without its country code is assumed to be, by the table's
# language: Spanish tables are Argentine ones.
PHONE_REGION = {"en": "US", "es": "AR"}
# Where friends message each other by WhatsApp rather than by text: Spanish- and
# Portuguese-speaking America, and Spain. The New game form ticks "By WhatsApp" for a number
# from there, and for a number typed without a country code at a table whose language assumes
# one of them (Spanish: Argentina).
WHATSAPP_FIRST = frozenset({"AR", "UY", "PY", "BO", "CL", "PE", "EC", "CO", "VE", "MX", "CR",
                            "PA", "GT", "HN", "SV", "NI", "BR", "ES"})


def parse_table(data: dict) -> tuple[str, int, list[Seat], int, str]:
    """A new game's table from a request (``POST /api/games``, ``POST /api/rooms``): the game,
    its options, the seats, the host's seat and the table's language (this request's errors
    speak it too)."""
    lang = parse_lang(data.get("lang"), i18n.page_lang())
    i18n.use_table_lang(lang)
    game = data.get("game", "parcheesi")
    if not isinstance(game, str) or game not in RULE_SETS:
        raise BadRequest(message("no_game", name=repr(game)) if isinstance(game, str) else
                         message("game_name"))
    options = parse_settings(game, data.get("settings"))
    seats = parse_players(game, data.get("players"), options, lang)
    host = parse_host(game, data.get("host"), data["players"], seats, options)
    return game, options, seats, host, lang


def parse_settings(game: str, settings) -> int:
    """The link's options for a game's table settings (see ``red_arse_settings``)."""
    if settings is None or settings == {}:
        return 0
    if game not in SETTINGS:
        raise BadRequest(message("no_settings", title=TITLES[game]))
    return SETTINGS[game](settings)


def _ludo_settings(settings) -> int:
    """Ludo's table: its capacity ("board": 4 or 6 is a table of that many)."""
    if not isinstance(settings, dict) or len(settings) != 1 or \
            not set(settings) <= {"capacity", "board"}:
        raise BadRequest(message("ludo_settings"))
    capacity = settings.get("capacity", settings.get("board"))
    if type(capacity) is not int or capacity not in range(2, 7):
        raise BadRequest(message("ludo_table"))
    return ludo_options(capacity)


def _red_arse_settings(settings) -> int:
    """Red Arse's table: its board and the house rules switched off."""
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


# The settings object of each game that has one, read into the link's options: each game's own
# shape and errors, as the API describes them (static/openapi.json).
SETTINGS = {"ludo": _ludo_settings, "red-arse": _red_arse_settings}


def parse_players(game: str, players, options: int = 0, lang: str = "en",
                  numbers: list[int] | None = None) -> list[Seat]:
    """Seats from the request, in turn order (around the board in the direction of play);
    ``lang`` is the table's language (blank names, phone numbers), ``numbers`` each player's
    number in blank names ("Player 2"; by default their place in the list, from 1). At least
    one player is a human."""
    rules = rules_for(game, options)
    names = rules.board.color_names
    if not isinstance(players, list) or not 2 <= len(players) <= rules.capacity:
        raise BadRequest(Text(rules.words.players, title=TITLES[game], seats=rules.capacity,
                              squares=rules.board.track))
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
            phone = phone_numbers.normalize_phone(phone, PHONE_REGION[lang],
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


def parse_host(game: str, host, players: list, seats: list[Seat], options: int) -> int:
    """The creator's seat (seats are sorted) from their place in the request's ``players``
    (a game whose tables have one; the first human listed by default). The host is a human:
    bots add nobody."""
    if not RULE_SETS[game].hosted:
        if host is not None:
            raise BadRequest(message("no_host", title=TITLES[game]))
        return 0
    if host is None:
        host = next(i for i, player in enumerate(players) if not player.get("bot"))
    if type(host) is not int or not 0 <= host < len(players):
        raise BadRequest(message("host"))
    color = rules_for(game, options).board.color_names.index(players[host]["color"])
    seat = seat_of(seats, color)
    if seats[seat].bot:
        raise BadRequest(message("bot_host"))
    return seat


def check_host(played: Game, seat: int, what: str) -> None:
    """Only the host may do ``what`` (the message that says so: "add_players"...)."""
    seats = played.header.seats
    if not 0 <= seat < len(seats):
        raise BadRequest(message("no_seat"))
    if seat != played.header.host:
        raise NotHost(message(what, host=seats[played.header.host].name))


def seat_changes(played: Game, changes, mover: int, first_turn: bool) -> list[Seat]:
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
                phone = phone_numbers.normalize_phone(phone, PHONE_REGION[played.header.lang],
                                                      current_app.config["TEXT_COUNTRIES"])
            seats.append(Seat(name=name, color=seat.color, bot=seat.bot, phone=phone,
                              whatsapp=whatsapp))
        except ValueError as error:
            raise BadRequest(error.args[0]) from None
    return seats


@cache
def whatsapp_first() -> dict[str, list[str]]:
    """What the New game form ticks "By WhatsApp" by (its script reads it): the calling codes
    of ``WHATSAPP_FIRST`` ("54"), by phonenumbers, and the table languages whose numbers typed
    without one are from there."""
    import phonenumbers  # here, not at the top: only the home page needs it

    return {"codes": sorted({str(phonenumbers.country_code_for_region(region))
                             for region in WHATSAPP_FIRST}),
            "langs": [lang for lang, region in PHONE_REGION.items() if region in WHATSAPP_FIRST]}
