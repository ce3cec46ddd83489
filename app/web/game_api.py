"""The JSON API of a game played by passing its link (static/openapi.json describes it): make a
game, read it, play a turn's steps, finish the turn (the next link, texted to its player when
we can), play an absent player's turn once their time is up, and start a rematch.

Every request carries the game's link; none changes a game except by answering with a new link,
and only the newest link plays (bookkeeping.py).
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request

from app import i18n, wording
from app.engine.core import CLAIM
from app.engine.ludo import ludo_options
from app.ledger import Standing, request_digest
from app.play import Game, TurnError
from app.web.bookkeeping import (advance, begin, claim_shown, device, fix, host_here, ledger,
                                 to_move, with_backs, with_fixed)
from app.web.loading import game_at
from app.web.parse import (BadRequest, MovedOn, NotHost, TooEarly, WrongSeat, json_body, message,
                           parse_deadline, parse_lang, seat_number, since_arg)
from app.web.reading import read_game
from app.web.seats import check_host, parse_table, seat_changes
from app.web.texting import may_text, outbox_send, send_link
from app.web.turns import (CLAIM_SECONDS, analyse_ahead, answer_again, arrived_by_text,
                           fill_deadline, keys, new_game, now, with_lang, with_link)
from app.web.views import Recorder, game_view

bp = Blueprint("games", __name__)


@bp.post("/games")
def create():
    """Create a game: ``{"game", "players": [{"name", "color", "phone"?, "bot"?}],
    "settings"?, "host"?, "lang"?}``; Red Arse's settings are ``{"board": 4 or 6, "off": [house
    rules switched off]}``, Ludo's ``{"board": 4 or 6}``; Ludo's ``host`` is the creator's place
    in ``players``; ``lang`` the table's language (by default the request's). A player with
    ``"bot": "easy" | "medium" | "hard"`` is played by the server; bots to move first have
    played when the game's first link is made (it goes to the first human). ``"autoplay"``
    (true unless sent false) plays every step with nothing to decide for the players, so the
    link goes to the first person with a decision."""
    data = json_body()
    game, options, seats, host, lang = parse_table(data)
    deadline = parse_deadline(data.get("deadline_hours", 0))
    autoplay = data.get("autoplay", True)
    if not isinstance(autoplay, bool):  # 1 == True in Python: a number is not a yes
        raise BadRequest(message("autoplay"))
    played = new_game(game, seats, options, host, lang, deadline, by_hand=not autoplay)
    token = begin(played)
    body = with_link(game_view(played, token), token)
    body["message"] = send_link(played, None, body["url"], deliver=False)
    fill_deadline(body, played, None)
    return jsonify(body), 201


@bp.get("/games/<token>")
def read(token):
    """The game at this link, with the turns since the viewer's own last one, or since step
    ``?since=N`` (reading.py: the game's page carries the same answer)."""
    return jsonify(read_game(token, since_arg(), bool(request.args.get("invite")),
                             request.args.get("lang")))


@bp.post("/games/<token>/moves")
def moves(token):
    """Play part of a turn (``{"seat", "steps"}``) and see the result; nothing is stored.

    ``turn_steps`` are the steps to send next time (claim tickets swapped for receipts); at a
    claim point ``claim`` holds the ticket that claims the re-roll, good for a few seconds.
    """
    played, standing, done, recorder = _play(token, json_body(), record=True)
    start = len(played.match.steps) - len(played.turn_steps)
    # Still this link; its replay from the turn's start tells the turn's steps (turn_events).
    view = with_link(game_view(played, token, recorder, start, i18n.page_lang()), token)
    view["turn_events"] = view.pop("replay")["events"]
    fill_deadline(view, played, standing)
    view["turn_over"] = done
    view["turn_steps"] = played.turn_steps
    view["turn_forced"] = forced_steps(played)
    if played.match.phase == CLAIM:  # the window runs from when the claim point first showed
        moment = now()
        shown = claim_shown(standing, played, moment)
        view["claim"] = {"ticket": played.claim_ticket(shown),
                         "seconds": max(0, round(CLAIM_SECONDS - (moment - shown)))}
    return jsonify(view)


@bp.post("/games/<token>/turn")
def finish(token):
    """Finish a turn: play its steps, then the bots' turns that follow (until a human is to move
    or the game ends; ``replay`` lists them), make the next link (in the table's language:
    ``lang`` changes it), and text it to the next human when we can."""
    data = json_body()
    ask = request_digest("turn", data)
    played, standing, done, _ = _play(token, data, ask)
    if done is None:  # the very same turn, sent again: the same answer, nothing sent again
        return jsonify(answer_again(standing, played.header.seats[data["seat"]].name))
    if not done:
        raise TurnError(message("turn_not_over"))
    played = with_lang(played, parse_lang(data.get("lang"), played.header.lang))
    known = {s.phone for s in played.header.seats}
    if "seats" in data:
        first = not played.people_played(standing.step)
        played = played.with_seats(seat_changes(played, data["seats"], data["seat"], first))
    start = len(played.match.steps)
    body, sent = _send_on(played, standing, ask, data["seat"], known, _recorder(played), start,
                          since=start)
    return jsonify(body) if sent is None else analyse_ahead(jsonify(body), sent, standing.step)


@bp.post("/games/<token>/absent")
def absent(token):
    """After the turn deadline (``deadline.due_at``), whoever holds the link has the server
    play the absent player's turn as a medium bot (then the bots' turns after it); answered
    like ``/turn``: the next link, ``replay`` of what was played, and ``message`` for the next
    human (texted as usual). The absent player is texted that their turn was played."""
    ask = request_digest("absent", json_body())
    played, standing, _ = game_at(token, ask, check=_not_over)
    seat = played.match.turn
    name = played.header.seats[seat].name
    if not standing.current:  # played for them already: the same answer again
        return jsonify(_absent_view(answer_again(standing, name), seat, None))
    played = with_backs(played, standing)
    if played.due_at() is None:
        raise TooEarly(message("no_deadline", name=name))
    if standing.opened is None:  # the clock starts when the link reaches its player
        raise TooEarly(message("not_arrived", name=name))
    moment = now()
    if moment < standing.opened + played.header.deadline * 60:
        raise TooEarly(message("still_time", name=name))
    known = {s.phone for s in played.header.seats}
    start = len(played.match.steps)
    recorder = _recorder(played)
    played = with_fixed(played, standing, recorder)  # the absent player's own, since a roll shown
    played = played.stamped(standing.opened)
    played.play_for_absent(moment, recorder)
    # Back to the absent player (the others are bots): their own text below says so.
    body, sent = _send_on(played, standing, ask, seat, known, recorder, start, moment=moment)
    texted = None if sent is None else _tell_absent(sent, seat, body["url"])
    return jsonify(_absent_view(body, seat, texted))


def _not_over(played: Game) -> None:
    if played.over:
        raise TurnError(message("game_over"))


def _recorder(played: Game) -> Recorder:
    """What records the pieces after every step from here, for the answer's replay."""
    recorder = Recorder()
    if played.match.steps:
        recorder(played.match)  # the pieces the replay starts from
    return recorder


def _send_on(played: Game, standing: Standing, ask: str, seat: int, known: set[str | None],
             recorder: Recorder, start: int, since: int = 0,
             moment: float | None = None) -> tuple[dict, Game | None]:
    """Send on a turn ``seat`` has done on the link ``standing`` is about, from step ``start``
    (what ``recorder`` records from): play on until a person has a decision (``hand_on``),
    start the next turn at ``moment`` (now by default), record the next link as the game's
    newest and text or push it to its player (``known``: the phone numbers the table had;
    the text tells what was played for people from step ``since``). Returns the answer's body
    and the game sent on; None for the game when this browser's same request did it first,
    and the body is the answer given then."""
    played.hand_on(recorder)
    played = played.stamped(now() if moment is None else moment)
    mover = played.header.seats[seat].name
    token = played.token()
    made, repeat = advance(standing, ask, played, token, start)
    if repeat:
        return answer_again(repeat, mover), None
    body = with_link(game_view(played, token, recorder, start, lang=i18n.page_lang()), token)
    again = not played.over and played.match.turn == seat  # the others are bots: nobody to text
    body["message"] = send_link(played, mover, body["url"], since=since, notify=not again,
                                deliver=not again and may_text(played, known))
    fill_deadline(body, played, arrived_by_text(made, body["message"]))
    return body, played


def _tell_absent(played: Game, seat: int, url: str) -> str | None:
    """Text the absent player that their turn was played (not once disqualified), if they
    have a number and links point at PUBLIC_URL; the text's status."""
    player = played.header.seats[seat]
    if not player.phone or not current_app.config["PUBLIC_URL"] or player.out:
        return None
    text = wording.played_for_you_message(player.name, url, played.header.lang,
                                          away=seat in played.away())
    return outbox_send(played, player.phone, text, player.whatsapp).status


def _absent_view(body: dict, seat: int, texted: str | None) -> dict:
    """``/absent``'s answer: the game's, with who was played for, whether they were texted, and
    whether it disqualified them (Ludo: the third expiry in a row)."""
    player = body["seats"][seat]
    body["absent"] = {"seat": seat, "name": player["name"], "texted": texted,
                      "disqualified": player["out"]}
    return body


@bp.post("/games/<token>/rematch")
def rematch(token):
    """The host starts a new game at the same table once this one is over (``{"seat": host,
    "host_key"?, "lang"?, "capacity"?}``: a Ludo table may change its size, medals carry
    over): the new game's link (in the table's language, or ``lang``) and its invite for the
    first player. Only from the host's link (``host_key``: its ``?host=``) or the browser
    that made the game, so no other holder of the final link starts it in their name."""
    data = json_body()
    seat = seat_number(data)

    def may_rematch(game: Game) -> None:
        if not game.rules.rematches:
            raise TurnError(message("no_rematch"))
        check_host(game, seat, "start_rematch")

    played, standing, _ = game_at(token, check=may_rematch)
    lang = parse_lang(data.get("lang"), played.header.lang)
    capacity = data.get("capacity")
    if capacity is not None and (type(capacity) is not int or capacity not in range(2, 7)):
        raise BadRequest(message("ludo_table"))
    options = None if capacity is None else ludo_options(capacity)
    again = with_lang(played.rematched(options=options), lang)  # TurnError (422) before the end
    if not host_here(played, data.get("host_key")):
        raise NotHost(message("start_rematch", host=played.header.seats[played.header.host].name))
    if played.header.deadline:  # the table keeps its turn deadline
        again = again.replaced(deadline=played.header.deadline)
    again.hand_on()  # bots to move first play at once, and steps with nothing to decide
    again, new_token = _recorded_rematch(standing, again.stamped(now()))
    body = with_link(game_view(again, new_token, lang=i18n.page_lang()), new_token)
    body["message"] = send_link(again, None, body["url"], deliver=False)
    fill_deadline(body, again, None)
    return jsonify(body), 201


def _recorded_rematch(standing: Standing, again: Game) -> tuple[Game, str]:
    """The rematch of the finished game ``standing`` is about, and its link: ``again``,
    recorded as its first link, unless a rematch was started already (a second tap): that one
    stands."""
    new_token = again.token()
    made = ledger().rematch(standing, new_token) or ledger().rematch(ledger().again(standing),
                                                                     new_token)
    if made is None:
        raise MovedOn(message("try_again"))
    if made != new_token:
        return Game.from_token(made, keys()), made
    ledger().begin(again.header.seed, new_token, len(again.match.steps), to_move(again),
                   device(), seats=len(again.header.seats))
    return again, new_token


def _play(token: str, data: dict, ask: str | None = None, record: bool = False):
    """Play a turn's steps on the link (only its newest link plays); returns the game, the
    link's standing, whether the turn is over (None: ``ask`` repeats the request that moved
    this game on, and nothing was played), and with ``record`` the pieces after every step
    (``Recorder``: what the turn's steps did, for the feed)."""
    seat, steps = data.get("seat"), data.get("steps", [])
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest(message("playing_seat"))
    if not isinstance(steps, list) or len(steps) > 200:
        raise BadRequest(message("steps"))

    def seated(game: Game) -> None:
        if not 0 <= seat < len(game.header.seats):
            raise BadRequest(message("no_seat"))

    played, standing, recorder = game_at(token, ask, record, seated)
    if not standing.current:
        return played, standing, None, recorder
    played = with_backs(played, standing)
    if not played.over and played.match.turn != seat:
        raise WrongSeat(message("not_your_turn", turn=played.header.seats[played.match.turn].name,
                                seat=played.header.seats[seat].name))
    if played.header.seats[seat].bot:
        raise WrongSeat(message("bot_seat", name=played.header.seats[seat].name))
    done = played.play_turn(seat, steps, now=now(), watch=recorder)
    if not done and not played.header.by_hand:
        done = played.play_forced(seat, recorder)
    return played, fix(standing, played), done, recorder


def forced_steps(played: Game) -> list[int]:
    """Which of ``turn_steps`` were played for the player (nothing to decide): the page's
    Undo passes over them, back to the player's last choice."""
    if played.header.by_hand:
        return []
    start = len(played.match.steps) - len(played.turn_steps)
    return [i for i, (_, radix) in enumerate(played.match.steps[start:]) if radix == 1]
