"""The JSON API of live rooms (``/api/rooms``, in static/openapi.json): make a room, join it,
play its steps, and poll it.

A room (``app/rooms.py``) holds the table's current link; every step a player makes is played
on it at once, for every phone to see, and written back with a compare-and-swap on the room's
version. A poll sends the version it has as ``If-None-Match`` and is answered 304 from the
store's entry alone while nothing changed. What the pages share with it (finding a room by its
code, opening one, its timer) is in live_rooms.py.
"""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, current_app, jsonify, request

from app import i18n
from app.engine.core import CLAIM, ROLL
from app.engine.games import rules_for
from app.engine.text import Text
from app.link import MAX_NAME, LinkError, Seat, seat_of
from app.names import clean as clean_name
from app.play import DISQUALIFY_AFTER, Game, TurnError
from app.rooms import SPEEDS, Room
from app.web import bookkeeping
from app.web.bookkeeping import current_standing, ledger, with_fixed
from app.web.limits import limits
from app.web.live_rooms import (device_digest, due, find, lobby_game, open_room, parse_timer,
                                record_new, room_url, rooms)
from app.web.parse import (BadRequest, NotHost, NotYours, TableFull, WrongSeat, json_body, message,
                           since_arg)
from app.web.seats import default_name, parse_table
from app.web.turns import CLAIM_SECONDS, analyse_ahead, keys, now
from app.web.views import game_view, load

bp = Blueprint("rooms", __name__)

# A step on its way when the time runs out still counts: the wait is resolved this much later.
RESOLVE_GRACE_SECONDS = 1.0

# How long after a re-roll's window (CLAIM_SECONDS, from the step that opened it) anyone seated
# may let it go for a player whose phone went away: the table never waits on a closed page.
CLAIM_GRACE_SECONDS = 3
# How many times a change is tried on the room read again when another request wrote first.
TRIES = 3


class Stale(ValueError):
    """A change sent against an older version of the room: refused, with the room as it is."""

    status = 409

    def __init__(self, text, room: dict):
        super().__init__(text)
        self.room = room


def room_view(room: Room, since: int | None = None) -> dict:
    """The game at the room's current link, as a link game's page gets it (the steps since
    ``since`` to replay), and the room (``room_state``)."""
    played, recorder = load(room.token, keys(), record=True)
    steps = len(played.match.steps)
    since = steps if since is None else min(since, steps)
    view = game_view(played, room.token, recorder, since, lang=i18n.page_lang())
    view["room"] = room_state(room, played)
    return view


def room_state(room: Room, played: Game) -> dict:
    """The room beside its game: its code, version, host, who is in, and the seats free."""
    seats = played.header.seats
    seat_of = {seat.color: i for i, seat in enumerate(seats)}
    out = set(played.rules.out(played.state))
    names = played.rules.board.color_names
    taken = {seat.color for seat in seats}
    return {
        "code": room.code,
        "version": room.rev,
        "url": room_url(room.code),
        "host": seat_of.get(room.host),
        "members": sorted(seat_of[c] for c in room.members if c in seat_of),
        "free": [i for i, seat in enumerate(seats)
                 if not seat.bot and seat.color not in room.members and i not in out],
        # Ludo: colors a newcomer may take now (its join-mid-game rules)
        "new_colors": [names[c] for c in range(len(names)) if c not in taken]
        if _can_add(played) else [],
        "capacity": capacity(played),  # a watcher is promised a seat only below it
        "timer": room.timer,
        "speed": room.speed,
        "due": waits_until(room, played),  # the server's clock, and its time now (a phone's
        "now": now(),                     # may be wrong)
        "offline": sorted(seat_of[c] for c in offline(room) if c in seat_of),
        "started": room.started,
        # Ludo: the turns run out in a row that disqualify (a seat's "missed" counts them)
        "disqualify_after": DISQUALIFY_AFTER if played.rules.disqualifies else None,
    }


def offline(room: Room) -> set[int]:
    """The colors whose phone is disconnected (``Room.offline``, with the app's settings)."""
    config = current_app.config
    return room.offline(now(), config["ROOM_OFFLINE_SECONDS"], config["ROOM_SILENT_SECONDS"])


def waits_until(room: Room, played: Game) -> float | None:
    """When the wait for the player to move is over: their time (``due``), or, when their
    phone is disconnected, not before ``ROOM_RECONNECT_SECONDS`` after it went."""
    if room.due is None or played.over:
        return room.due
    color = played.header.seats[played.match.turn].color
    if color not in offline(room):
        return room.due
    config = current_app.config
    gone = room.members[color].went(config["ROOM_SEEN_EVERY_SECONDS"])
    return max(room.due, gone + config["ROOM_RECONNECT_SECONDS"])


def undecided(room: Room, played: Game) -> bool:
    """Whether the mover's phone hasn't asked since their time ran out, and may yet: slow to
    ask, or gone (``offline`` says which ``ROOM_SILENT_SECONDS`` after their time)."""
    member = room.members.get(played.header.seats[played.match.turn].color)
    silent = current_app.config["ROOM_SILENT_SECONDS"]
    return member is not None and room.unheard(member, now()) and now() < room.due + silent


def capacity(played: Game) -> int:
    """The most players the table seats: a Ludo table's capacity (newcomers join it mid-game),
    else the seats it has."""
    return played.rules.capacity if played.rules.joins else len(played.header.seats)


def _can_add(played: Game) -> bool:
    """Whether a new player can sit at this table now: Ludo, seats left, and the host's turn
    not begun (or the game not begun)."""
    if not played.rules.joins or played.over or \
            len(played.header.seats) >= played.rules.capacity:
        return False
    history = played.match.history
    host = played.header.host
    return not history or (played.match.turn == host and played.match.phase == ROLL and
                           history[-1][1] != host)


def _answer(room: Room, since: int | None, status: int = 200, **extra):
    body = room_view(room, since)
    body.update(extra)
    response = jsonify(body)
    response.status_code = status
    response.set_etag(room.tag(offline(room)))
    response.cache_control.no_store = True  # it carries the room's current link
    return response


def play_on(played: Game, room: Room) -> None:
    """The turns of seats whose player left the room, played for them at once (and the bots'
    after them), until someone else's turn."""
    while not played.over and played.header.seats[played.match.turn].color in room.left:
        played.play_for(played.match.turn)


def resolve(room: Room) -> Room:
    """The room, with a wait that is over resolved: the rest of that turn played for its
    player (and the bots after it), as "Play it for them" does for links. Whichever request
    finds it over does it, through the room's compare-and-swap: two phones noticing it
    together resolve it once. A player is played for only once their phone has asked since
    their time ran out (slow, not gone): a phone gone waits for them (``waits_until``)."""
    if room.due is None or now() < room.due + RESOLVE_GRACE_SECONDS:
        return room
    played = Game.from_token(room.token, keys())
    if now() < waits_until(room, played) + RESOLVE_GRACE_SECONDS or undecided(room, played):
        return room  # a disconnected player's turn waits for them to come back
    start = len(played.match.steps)
    if not played.over and not played.header.seats[played.match.turn].bot:
        played.play_for(played.match.turn)
    play_on(played, room)
    written = rooms().write(room, now(), token=played.token(), due=due(played, start, room))
    return written or rooms().get(room.code) or room


def present(room: Room, credential) -> Room:
    """The room with the polling phone's seat (its ``X-Seat`` credential) marked seen, at most
    every ``ROOM_SEEN_EVERY_SECONDS``; at once when it was disconnected, and at its first poll
    after a turn's time ran out (which tells a slow player from one whose phone went). A
    player back on their own turn after their time ran out, not yet played for them, has their
    time for the step again; back within it (a reload), their time runs on as it was."""
    color = rooms().color_of(room, credential) if credential else None
    every = current_app.config["ROOM_SEEN_EVERY_SECONDS"]
    was_offline = color in offline(room)
    if color is None or (not was_offline and not room.unheard(room.members[color], now()) and
                         now() - room.members[color].last_seen < every):
        return room
    waits = room.due
    if was_offline and room.due is not None and now() >= room.due:
        played = Game.from_token(room.token, keys())
        if not played.over and played.header.seats[played.match.turn].color == color:
            waits = now() + room.timer
    return rooms().seen(room, color, now(), waits) or rooms().get(room.code) or room


def tries(code: str, credential, resolved: bool = True):
    """The room ``code`` for a change written with its compare-and-swap, read again each time
    another request wrote between our read and our write (a poll marking a phone seen, another
    phone's step), ``TRIES`` times at most: the caller stops once its write is in, and else
    raises ``stale``. ``resolved``: with a wait that is over resolved first (``resolve``)."""
    for _attempt in range(TRIES):
        room = find(code, credential)
        yield resolve(room) if resolved else room


def stale(room: Room, since: int | None) -> Stale:
    """The refusal of a change the room moved on under: the room as it is now."""
    return Stale(message("stale"), room_view(rooms().get(room.code) or room, since))


@bp.post("/rooms/<code>/gone")
def gone(code):
    """This phone's page is closing or hidden (``{"credential"}``, sent as a beacon): its seat
    shows as disconnected at once, and its turn, if it is theirs, waits for it (``waits_until``).
    Its next poll from a visible page brings it back. Answered 204, whatever the credential."""
    data = json_body()
    for room in tries(code, data.get("credential"), resolved=False):
        color = rooms().color_of(room, data.get("credential"))
        if color is None or room.members[color].gone is not None or \
                rooms().gone(room, color, now()):
            break
    return "", 204


@bp.get("/rooms/<code>")
def read(code):
    """The room as it is now; ``If-None-Match`` with the ETag a phone has is answered 304 (no
    body, no replay) while nothing changed. ``?since=N``: the steps after step N to replay.
    A player's time that ran out is played for them first (``resolve``)."""
    since = since_arg()
    room = present(resolve(find(code)), request.headers.get("X-Seat"))
    tag = room.tag(offline(room))
    if tag in request.if_none_match:
        response = current_app.response_class(status=304)
        response.set_etag(tag)
        response.cache_control.no_store = True
        return response
    return _answer(room, since)


@bp.post("/rooms")
def create():
    """A game played live in a room: the body of ``POST /api/games``, and ``me``, the creator's
    place in ``players`` (Ludo: ``host``). The other people's seats are free for whoever
    joins. The room is a lobby until its host starts the game (``/start``). Answered with the
    room, the creator's seat and its credential."""
    limits().take("made")
    data = json_body()
    game, options, seats, host, lang = parse_table(data)
    players = data["players"]
    me = data.get("me", data.get("host") if rules_for(game, options).hosted else None)
    if me is None:
        me = next(i for i, player in enumerate(players) if not player.get("bot"))
    if type(me) is not int or not 0 <= me < len(players) or players[me].get("bot"):
        raise BadRequest(message("me"))
    color = rules_for(game, options).board.color_names.index(players[me]["color"])
    timer = parse_timer(game, data.get("timer_seconds"), seats)
    played = lobby_game(game, seats, options, host, lang)
    return _joined(open_room(played, color, record_new(played), timer, lobby=True), color, None,
                   201)


def _joined(room: Room, color: int, since: int | None, status: int = 200):
    played = Game.from_token(room.token, keys())
    seat = seat_of(played.header.seats, color)
    return _answer(room, since, status,
                   you={"seat": seat, "credential": rooms().credential(room, color)})


@bp.post("/games/<token>/room")
def from_link(token):
    """Go on with a link game live, in a room (``{"seat"}``: the seat to move, whose link this
    is): from then on its links are read-only and point to the room. Players being played for
    (away) are back: a room has no "I'm back"."""
    limits().take("made")
    data = json_body()
    played, _ = load(token, keys())
    i18n.use_table_lang(played.header.lang)
    seat = data.get("seat")
    if played.over:
        raise TurnError(message("room_game_over"))
    if type(seat) is not int or not 0 <= seat < len(played.header.seats):
        raise BadRequest(message("seat"))
    if seat != played.match.turn:
        raise WrongSeat(message("room_holder", name=played.header.seats[played.match.turn].name))
    timer = parse_timer(played.header.game, data.get("timer_seconds"), played.header.seats)
    standing = current_standing(played, token)
    for away in sorted(played.away()):
        played = played.with_player_back(away)
    played = with_fixed(played, standing)  # never from before a roll shown
    color = played.header.seats[seat].color
    return _joined(open_room(played, color, lambda code: ledger().into_room(standing, code),
                             timer), color, None, 201)


@bp.post("/rooms/<code>/join")
def join(code):
    """Sit at the table (``{"name"?, "color"?, "credential"?}``): on the free seat of that
    color, or the first free one; at a Ludo table a new player may take a free color at the
    start of the host's turn. A phone already in the room (its credential, or the browser it
    joined from) keeps its seat. ``?since=N`` as for reading."""
    since = since_arg()
    data = json_body()
    for attempt, room in enumerate(tries(code, data.get("credential"))):
        played = Game.from_token(room.token, keys())
        i18n.use_table_lang(played.header.lang)
        mine = rooms().color_of(room, data.get("credential"))
        if mine is None:
            mine = room.color_by(device_digest())
        if mine is not None:
            return _joined(room, mine, since)
        if attempt == 0:
            limits().take("joins")
        name, color = data.get("name") or "", data.get("color")
        if not isinstance(name, str):
            raise BadRequest(message("name_text"))
        names = played.rules.board.color_names
        if color is not None and color not in names:
            raise BadRequest(message("choose_color", colors=", ".join(names)))
        seats = played.header.seats
        state = room_state(room, played)
        free = [seats[i].color for i in state["free"]]
        wanted = names.index(color) if color is not None else (free or [None])[0]
        if wanted is None and state["new_colors"]:
            wanted = names.index(state["new_colors"][0])
        if wanted is None:
            raise TableFull(message("no_free_seat", code=room.code))
        name = clean_name(name)
        if len(name) > MAX_NAME:
            raise BadRequest(Text("A name has at most %(n)s characters.", n=MAX_NAME))
        joined = _renamed(played, wanted, name) if wanted in free else \
            _seated(played, wanted, name, room)
        seated = room.joined(wanted, now(), device_digest())
        waits = room.due if room.due is not None or not room.started else \
            due(joined, len(joined.match.steps), seated)
        written = rooms().write(seated, now(), token=joined.token(), due=waits)
        if written:
            return _joined(written, wanted, since)
    raise stale(room, since)


def _renamed(played: Game, color: int, name: str) -> Game:
    """The game with the free seat of ``color`` named ``name`` (kept as it is when blank)."""
    seats = played.header.seats
    seat = seat_of(seats, color)
    if not name:
        return played
    if name.casefold() in {clean_name(s.name).casefold() for i, s in enumerate(seats)
                           if i != seat}:
        raise BadRequest(message("name_taken", name=name))
    return played.with_seats([replace(s, name=name) if i == seat else s
                              for i, s in enumerate(seats)])


def _seated(played: Game, color: int, name: str, room: Room) -> Game:
    """A Ludo table with a new player on ``color`` (its rules for joining mid-game); in a
    started room, a bot the newcomer leaves first to move plays at once."""
    seats = played.header.seats
    if color in {s.color for s in seats}:
        taken = seats[seat_of(seats, color)].name
        raise TableFull(message("seat_not_free", name=taken))
    if not _can_add(played):
        if not played.rules.joins or len(seats) >= played.rules.capacity:
            raise TableFull(message("no_free_seat", code=room.code))
        raise WrongSeat(message("join_on_hosts_turn", name=seats[played.match.turn].name))
    if name.casefold() in {clean_name(s.name).casefold() for s in seats}:
        raise BadRequest(message("name_taken", name=name))
    number = len(seats) + 1
    seat = Seat(name=name or default_name(number, played.header.lang), color=color)
    try:
        joined = played.with_player(seat)
    except (TurnError, LinkError) as error:
        raise TableFull(error.args[0]) from None
    if room.started and not played.match.steps:
        joined.play_bots()
    return joined


@bp.post("/rooms/<code>/steps")
def steps(code):
    """Play steps of the turn now (``{"version", "credential", "steps"}``: ``"roll"``, a move
    ``{"from", "to", "values"}``, at a claim point ``{"claim": ticket}`` or ``"miss"``), on
    the room's link, for every phone to see; when the turn is over the bots that follow play
    too. A version other than the room's is refused (409, with the room as it is): of several
    phones sending the same turn, one wins. A re-roll left unclaimed past its window (and
    ``CLAIM_GRACE_SECONDS``) may be let go by anyone seated. ``?since=N`` as for reading."""
    since = since_arg()
    data = json_body()
    version, moves = data.get("version"), data.get("steps")
    if type(version) is not int:
        raise BadRequest(message("stale"))
    if not isinstance(moves, list) or not 1 <= len(moves) <= 4:
        raise BadRequest(message("steps"))
    # Another phone's poll marking it seen may write between our read and our write: that is
    # no new version, so the step is played again on the room as it is then.
    for room in tries(code, data.get("credential")):
        # a step after its time is refused: what was played for them stands
        played = Game.from_token(room.token, keys())
        played.source = "room#" + room.code  # claim tickets: this room's, whatever its link
        i18n.use_table_lang(played.header.lang)
        color = rooms().color_of(room, data.get("credential"))
        if version != room.rev:
            raise Stale(message("stale"), room_view(room, since))
        if played.over:
            raise TurnError(message("game_over"))
        if not room.started:
            raise TurnError(message("not_started", name=_host_name(room, played)))
        _check_mover(room, played, color, moves)
        seat, start = played.match.turn, len(played.match.steps)
        if played.play_turn(seat, moves, now=now()):
            played.play_bots()
            play_on(played, room)
        written = rooms().write(room, now(), token=played.token(), due=due(played, start, room))
        if written:
            break
    else:
        raise stale(room, since)
    extra = {}
    if played.match.phase == CLAIM and played.match.turn == seat:
        extra["claim"] = {"ticket": played.claim_ticket(now()), "seconds": CLAIM_SECONDS}
    return analyse_ahead(_answer(written, since, **extra), played, start)


def _check_mover(room: Room, played: Game, color: int | None, moves: list) -> None:
    """Only the phone on the seat to move plays it; anyone seated may let a re-roll go once
    its window is long past (the mover's page was closed)."""
    seats = played.header.seats
    mover = seats[played.match.turn]
    if color == mover.color:
        return
    if color is not None and moves == ["miss"] and played.match.phase == CLAIM and \
            now() >= room.moved + CLAIM_SECONDS + CLAIM_GRACE_SECONDS:
        return
    if mover.bot:
        raise WrongSeat(message("bot_seat", name=mover.name))
    if color is None:
        raise NotYours(message("seat_free" if mover.color not in room.members else
                               "not_your_seat", name=mover.name))
    seat = seats[seat_of(seats, color)]
    raise WrongSeat(message("not_your_turn", turn=mover.name, seat=seat.name))


@bp.post("/rooms/<code>/start")
def start(code):
    """The host starts the game (``{"credential"}``): the seats nobody took leave the table
    (two players at least stay, people or bots), the bots to move first play, and the timer
    runs. Anyone else: 403. A room already started is answered as it is (a second tap)."""
    since = since_arg()
    data = json_body()
    for room in tries(code, data.get("credential"), resolved=False):
        if room.started:
            return _answer(room, since)
        played = Game.from_token(room.token, keys())
        i18n.use_table_lang(played.header.lang)
        if rooms().color_of(room, data.get("credential")) != room.host:
            raise NotHost(message("start_host", name=_host_name(room, played)))
        begun = _at_the_table(played, room)
        written = rooms().write(room, now(), token=begun.token(), started=True,
                                due=due(begun, 0, room))
        if written:
            return analyse_ahead(_answer(written, since), begun, 0)
    raise stale(room, since)


def _host_name(room: Room, played: Game) -> str:
    return next((s.name for s in played.header.seats if s.color == room.host), "")


def _at_the_table(played: Game, room: Room) -> Game:
    """The lobby's game as Start begins it: the seats nobody joined leave the table (a game
    of the players there, people and bots, at least two), and the bots to move first play."""
    seats = played.header.seats
    kept = tuple(s for s in seats if s.bot or s.color in room.members)
    if len(kept) < 2:
        raise TurnError(message("two_to_start"))
    host_color = seats[played.header.host].color
    host = next((i for i, s in enumerate(kept) if s.color == host_color), 0)
    begun = played.replaced(seats=kept, host=host).restarted()
    begun.play_bots()
    return begun


@bp.post("/rooms/<code>/back")
def come_back(code):
    """A player being played for (two turns run out in a row: Parcheesi and Red Arse) is back
    (``{"credential"}``): their turns are theirs again, from the next one."""
    since = since_arg()
    data = json_body()
    for room in tries(code, data.get("credential")):
        played = Game.from_token(room.token, keys())
        i18n.use_table_lang(played.header.lang)
        color = rooms().color_of(room, data.get("credential"))
        if color is None:
            raise NotYours(message("no_seat_here"))
        seat = seat_of(played.header.seats, color)
        if seat not in played.away():
            raise TurnError(message("not_away", name=played.header.seats[seat].name))
        written = rooms().write(room, now(), token=played.with_player_back(seat).token())
        if written:
            return _answer(written, since)
    raise stale(room, since)


@bp.post("/rooms/<code>/speed")
def speed(code):
    """How fast every phone shows the bots' moves (``{"credential", "speed"}``: slow, normal,
    fast or instant): anyone seated may change it during the game; it changes what is shown,
    never what is played."""
    since = since_arg()
    data = json_body()
    chosen = data.get("speed")
    if not isinstance(chosen, str) or chosen not in SPEEDS:
        raise BadRequest(message("speed"))
    limits().take("speeds")
    for room in tries(code, data.get("credential")):
        if rooms().color_of(room, data.get("credential")) is None:
            raise NotYours(message("no_seat_here"))
        if room.speed == chosen:
            return _answer(room, since)
        written = rooms().write(room, now(), speed=chosen)
        if written:
            return _answer(written, since)
    raise stale(room, since)


@bp.post("/rooms/<code>/rematch")
def rematch(code):
    """The host starts a rematch at a finished Ludo table (``{"credential"}``): a new game in
    the same room, the same phones on the same seats, the medals carried over."""
    since = since_arg()
    data = json_body()
    room = resolve(find(code, data.get("credential")))
    played = Game.from_token(room.token, keys())
    i18n.use_table_lang(played.header.lang)
    if not played.rules.rematches:
        raise TurnError(message("no_rematch"))
    if rooms().color_of(room, data.get("credential")) != room.host:
        raise NotHost(message("start_rematch", host=_host_name(room, played)))
    again = played.rematched()  # TurnError (422) while the game goes on
    again.play_bots()  # bots to move first play at once
    ledger().begin(again.header.seed, again.token(), len(again.match.steps),
                   None if again.over else again.match.turn, bookkeeping.device(), room=code)
    written = rooms().write(room, now(), token=again.token(),
                            due=due(again, len(again.match.steps), room))
    if written is None:  # a second tap, or another change, came first
        raise stale(room, since)
    return _answer(written, since)


@bp.post("/rooms/<code>/leave")
def leave(code):
    """This phone leaves the room (``{"credential"}``): its seat is free for anyone to take, and
    the server plays its turns meanwhile; a host leaving passes the role to the phone that
    joined earliest among those connected (a Ludo table's host too); the last one to leave
    closes the room. Answered with the room (``{"closed": true}`` once it is closed)."""
    since = since_arg()
    data = json_body()
    for room in tries(code, data.get("credential")):
        color = rooms().color_of(room, data.get("credential"))
        if color is None:
            raise NotYours(message("no_seat_here"))
        played = Game.from_token(room.token, keys())
        start = len(played.match.steps)
        gone = room.without(color, set(room.members) - offline(room))
        if not gone.closed:
            play_on(played, gone)
            if played.rules.joins and gone.host != room.host:
                played = played.replaced(host=seat_of(played.header.seats, gone.host))
        written = rooms().write(gone, now(), token=played.token(),
                                due=due(played, start, gone))
        if written and written.closed:
            return jsonify(closed=True, code=written.code)
        if written:
            return _answer(written, since)
    raise stale(room, since)
