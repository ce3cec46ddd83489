"""The JSON API (described in static/openapi.json). Every request about a game carries its link.

Errors are JSON ``{"error": {"code", "message"}}`` with a 4xx status; no request changes a game
except by returning a new link. The API is five blueprints under /api, none importing another:

- ``api`` (this module): what is the same for every game: the API's description, the browser
  client's words, a board's drawing;
- ``games`` (game_api.py): make a game, read it, play and finish a turn, an absent player's
  turn, a rematch;
- ``seats`` (seat_api.py): a player added to a table, a player back;
- ``analysis`` (analysis_api.py): the chance to win, a choice's review, the luck;
- ``rooms`` (room_api.py): live rooms.

What they share lives below them: reading requests (parse.py), seats and players (seats.py),
games and turns (turns.py), texting the next link (texting.py), live rooms (live_rooms.py) and
the store's bookkeeping (bookkeeping.py).
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request, send_from_directory

from app import i18n
from app.engine.games import RULE_SETS, TITLES
from app.link import LANGUAGES
from app.web import ROOT
from app.web.layout import board_layout, board_options
from app.web.parse import BadRequest, message

bp = Blueprint("api", __name__)
# What asking for a board a game isn't played on is told (parse.MESSAGES), for the games played
# on more than one.
OTHER_BOARD = {"red-arse": "red_arse_board", "ludo": "ludo_board_query"}


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
    if game not in RULE_SETS:
        raise BadRequest(message("no_game", name=repr(game)))
    size = request.args.get("board")
    boards = RULE_SETS[game].boards
    if len(boards) > 1:
        if size not in (None, *map(str, boards)):
            raise BadRequest(message(OTHER_BOARD[game]))
    elif size is not None:
        raise BadRequest(message("one_board", title=TITLES[game]))
    response = jsonify(board_layout(game, board_options(game, int(size or 4))))
    response.cache_control.public = True
    response.cache_control.max_age = 3600
    return response
