"""The JSON API of a game's seats (static/openapi.json describes it): the host adds a player to a
Ludo table, and a player who was being played for is back.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from app import i18n
from app.ledger import request_digest
from app.link import Seat, seat_of
from app.play import Game, TurnError
from app.web.bookkeeping import advance, fix, ledger, standing_of, with_backs
from app.web.loading import game_at
from app.web.parse import (BadRequest, MovedOn, TableFull, WrongSeat, json_body, message,
                           parse_lang, seat_number)
from app.web.seats import check_host, parse_player
from app.web.texting import send_link
from app.web.turns import (answer_again, fill_deadline, humans_played, keys, moved_on, now,
                           with_lang, with_link)
from app.web.views import game_view, load

bp = Blueprint("seats", __name__)


@bp.post("/games/<token>/players")
def add_player(token):
    """The host adds a player to a Ludo table (``{"seat": host, "player": {"name", "color",
    "phone"?}, "steps"?, "lang"?}``): the same game with the new seat, as a new link.
    ``steps`` is the host's turn in progress, checked to go on the same on the new link;
    ``lang`` the table's language from then on."""
    data = json_body()
    seat = seat_number(data)
    ask = request_digest("players", data)
    played, standing, _ = game_at(token, ask)
    if not standing.current:  # the same player added again: the same answer
        return jsonify(answer_again(standing, None, invite=True)), 201
    if not played.rules.joins:
        raise TurnError(message("no_joining"))
    if played.over:
        raise TurnError(message("joining_over"))
    seats, host = played.header.seats, played.header.host
    check_host(played, seat, "add_players")
    # Before anyone played a step of their own, any time; then on the host's turn.
    if humans_played(played) and played.match.turn != host:
        raise WrongSeat(message("not_hosts_turn", name=seats[played.match.turn].name))
    steps = data.get("steps", [])
    if not isinstance(steps, list) or len(steps) > 200:
        raise BadRequest(message("steps"))
    if standing.fixed:  # a roll shown after the host's choices: the new link can't undo them
        standing = fix(standing, _turn_on(token, seats[played.match.turn].color, steps)[0])
    lang = parse_lang(data.get("lang"), played.header.lang)
    player = _newcomer(played, data.get("player"), lang)
    # A table still being set (nobody played a step of their own) starts again with the
    # newcomer rolling for who starts too; bots, and steps with nothing to decide, play again.
    setting = not humans_played(played) and not steps
    try:
        joined = with_lang(played.restarted() if setting else played, lang).with_player(player)
    except TurnError as error:
        raise TableFull(error.args[0]) from None
    if setting:
        joined.hand_on()
    new_token = joined.token()
    fixed = _check_turn_goes_on(seats[played.match.turn].color, new_token, steps) if steps else []
    _, repeat = advance(standing, ask, joined, new_token, len(joined.match.steps), fixed)
    if repeat:
        return jsonify(answer_again(repeat, None, invite=True)), 201
    body = with_link(game_view(joined, new_token, lang=i18n.page_lang()), new_token)
    body["message"] = (send_link(joined, None, body["url"], deliver=False)
                       if not humans_played(joined) else None)
    fill_deadline(body, joined, None)
    return jsonify(body), 201


def _newcomer(played: Game, player, lang: str) -> Seat:
    """The player a request adds (``player``: its fields), refused when the table is full or
    their color taken."""
    seats, names = played.header.seats, played.rules.board.color_names
    if not isinstance(player, dict):
        raise BadRequest(message("player"))
    if len(seats) >= len(names):
        raise TableFull(message("table_full"))
    newcomer = parse_player(player, names, len(seats) + 1, lang)
    taken = {s.color for s in seats}
    if newcomer.color in taken:  # said to people (the page's form): colors in their words
        free = [i18n.say(n) for c, n in enumerate(names) if c not in taken]
        raise TableFull(message("color_taken", color=i18n.say(names[newcomer.color]).capitalize(),
                                free=", ".join(free)))
    return newcomer


def _turn_on(token: str, mover: int, steps: list) -> tuple[Game, int]:
    """The game at ``token`` with the turn in progress of the player on color ``mover``
    (``steps``) played on it, and the step that turn began at."""
    game = Game.from_token(token, keys())
    start = len(game.match.steps)
    game.play_turn(seat_of(game.header.seats, mover), steps, now=now())
    return game, start


def _check_turn_goes_on(mover: int, token: str, steps: list) -> list[tuple[int, int]]:
    """The turn in progress of the player on color ``mover`` (``steps``) must go on the same on
    the new link (``token``), or the host would lose it: refused (409) if it doesn't. Returns
    the steps of it a roll shown has fixed, as the new link has them."""
    try:
        check, start = _turn_on(token, mover, steps)
    except TurnError as error:
        raise WrongSeat(message("turn_lost", reason=i18n.say(error.args[0]))) from None
    return check.fixed(start)


@bp.post("/games/<token>/back")
def come_back(token):
    """A player who was being played for (two turns missed in a row, Parcheesi and Red Arse)
    is back (``{"seat": n}``), from any link of the game, the newest or an older one: the store
    remembers it, and the newest link, wherever it is opened, gives them their turns back (the
    link made from it records it). Answered with this link's game, ``back`` naming the seat."""
    seat = seat_number(json_body())
    played, _ = load(token, keys())
    i18n.use_table_lang(played.header.lang)
    if not 0 <= seat < len(played.header.seats):
        raise BadRequest(message("no_seat"))
    for _attempt in range(3):  # another request may write between our read and write
        standing = standing_of(played, token)
        if standing.room:
            raise MovedOn(message("in_room", code=standing.room))
        newest = standing if standing.current else ledger().newest(standing)
        if newest is None:
            raise MovedOn(message("moved_on"))
        if seat in newest.backs:  # said already
            break
        game = played if newest is standing else Game.from_token(newest.token, keys())
        with_backs(game, newest).with_player_back(seat)  # TurnError: not away, or the game is over
        if ledger().come_back(newest, seat):
            break
    else:
        raise MovedOn(message("try_again"))
    if standing.current:
        played = with_backs(played, ledger().again(standing))
    body = with_link(game_view(played, token, lang=i18n.page_lang()), token)
    body["moved_on"] = None if standing.current else moved_on(standing)
    body["seats"][seat]["away"] = False  # on an older link too: the newest has them back
    body["back"] = {"seat": seat, "name": played.header.seats[seat].name}
    return jsonify(body)
