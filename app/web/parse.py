"""Reading a request: its JSON body and its fields, checked, and the errors that refuse it.

The JSON API's blueprints and the New game form (pages.py) read requests with these. An error
carries its message, marked for translation, and its HTTP status: errors.py answers every one
of them app-wide, as JSON under /api/ and as a friendly page elsewhere, in the request's language.
"""

from __future__ import annotations

import re

from flask import request

from app import i18n
from app.engine.text import N_, Text
from app.link import LANGUAGES
from app.web import bounded_json

# What the API and the rooms say to people (errors, and the names they give players), in one
# place, marked for translation: the errors carry the marked message (``N_``, or a ``Text`` with
# its values: see ``message``) and are answered in the request's language
# (``errors.error_answer``).
MESSAGES = {
    "ludo_board": N_("Ludo is played on the 4-arm board of 52 squares (up to 4 players) or the "
                     "6-arm board of 78 squares (up to 6) (\"board\": 4 or 6)."),
    "ludo_board_query": N_("Ludo is played on the 4-arm board of 52 squares (up to 4 players) "
                           "or the 6-arm board of 78 squares (up to 6) (board=4 or board=6)."),
    "ludo_table": N_("A Ludo table seats 2 to 6 players."),
    "ludo_settings": N_("\"settings\" is an object with \"capacity\": the most players the "
                        "table seats, 2 to 6 (up to 4 play on 52 squares, 5 or 6 on 78)."),
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
    "autoplay": N_("\"autoplay\" is true (turns with nothing to decide play themselves) or "
                   "false."),
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
    "roll_shown": N_("A roll that follows these moves has been shown, so they stand: undo goes "
                     "back only as far as the last roll shown (or a re-roll claimed or let "
                     "go)."),
    "analysis_hour": N_("This game's moves have been analysed as often as we do in an hour: "
                        "try again later."),
    "name_taken": N_("%(name)s is another player's name: choose your own."),
    "own_seat": N_("Only %(name)s changes their own name and number (the host can change "
                   "anyone's on the game's first turn)."),
    "bot_easy_n": N_("Bot %(n)s (easy)"),
    "bot_medium_n": N_("Bot %(n)s (medium)"),
    "bot_hard_n": N_("Bot %(n)s (hard)"),
    # Live rooms (live_rooms.py, room_api.py)
    "no_room": N_("No room %(code)s: check the code and try again, or ask whoever made the "
                  "room for it."),
    "room_code": N_("A room code is 6 letters and digits, like K7P2QX."),
    "stale": N_("The room has changed since your last look: here it is as it is now."),
    "not_your_seat": N_("This phone doesn't play %(name)s: join the room on a free seat."),
    "seat_free": N_("Nobody plays %(name)s yet: join the room to take the seat."),
    "no_free_seat": N_("Room %(code)s is full: you can watch."),
    "seat_not_free": N_("%(name)s is someone else's seat: choose a free one."),
    "join_on_hosts_turn": N_("New players join at the start of the host's turn: it is "
                             "%(name)s's turn now. Wait for the host's turn and try again."),
    "me": N_("\"me\" is the number of the player creating the room in \"players\" (0 for the "
             "first), a person, not a bot."),
    "room_game_over": N_("This game is over: there is nothing left to play live."),
    "room_holder": N_("Only %(name)s, whose turn this link is, can open the game as a room."),
    "no_codes": N_("No room could be made just now: try again."),
    "timer": N_("\"timer_seconds\" is the time for each roll and move, in seconds: 0 (no "
                "timer) or 3 to 300."),
    "not_away": N_("%(name)s is playing their own turns already."),
    "no_seat_here": N_("This phone has no seat in this room."),
    "closed": N_("Room %(code)s is closed: everyone left. Start a new game to play again."),
    "speed": N_("\"speed\" is how fast the bots' moves are shown: slow, normal, fast or "
                "instant."),
    "not_started": N_("The game hasn't started yet: %(name)s starts it."),
    "start_host": N_("Only %(name)s, the host, can start the game."),
    "two_to_start": N_("A game needs two players at the table: share the code and wait for "
                       "someone to join."),
}


def message(key: str, **values) -> str:
    """The message ``key``, with its values: a ``Text`` (the English; ``i18n.say`` translates
    it when shown)."""
    return Text(MESSAGES[key], **values) if values else MESSAGES[key]


# A link that can't be read is answered 400, but for these (by its error's name: app/link.py).
STATUS = {
    "OversizedLink": 414,  # the link is part of the address
    "UnknownVersion": 410,
}


class BadRequest(ValueError):
    """A request the API can't read; the message says what is wrong."""

    status = 400


class WrongSeat(ValueError):
    """Not this seat's to do now: another player's turn, a bot's, or not the host's turn."""

    status = 409


class NotJson(BadRequest):
    """A body that isn't JSON."""

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


class RollShown(ValueError):
    """Steps that differ from a turn's steps a roll shown has fixed: an undo past a roll seen."""

    status = 409


class TooEarly(ValueError):
    """A turn played for an absent player before their time is up (or with no deadline)."""

    status = 409


def json_body() -> dict:
    """The request's body: a JSON object (415 when it isn't JSON, 400 when it isn't an
    object). Its ``lang`` is the answer's language."""
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


def since_arg() -> int | None:
    """``?since=N``: a step number, as the request says it (None when it doesn't)."""
    since = request.args.get("since")
    if since is not None and not re.fullmatch(r"[0-9]{1,6}", since):
        raise BadRequest(message("since"))
    return None if since is None else int(since)


def parse_lang(lang, default: str) -> str:
    """The table's language from a request (``default`` when it says none)."""
    if lang is None:
        return default
    if lang not in LANGUAGES:
        raise BadRequest(message("lang"))
    return lang


def seat_number(data: dict) -> int:
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest(message("seat"))
    return seat


DEADLINE_HOURS = range(169)  # up to a week; 0: no deadline


def parse_deadline(hours) -> int:
    """A turn deadline in minutes from the request's ``deadline_hours``."""
    if type(hours) is not int or hours not in DEADLINE_HOURS:
        raise BadRequest(message("deadline_hours"))
    return hours * 60
