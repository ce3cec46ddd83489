"""Live rooms as the pages and the rooms' API share them: a room found by its code (``NoRoom``
when there is none), a room opened for a game, and a room's timer.

A room (``app/rooms.py``) holds the table's current link; the rooms' API (room_api.py) plays in
it, and the pages open one from the New game form and show it (``/r/<code>``).
"""

from __future__ import annotations

from flask import current_app, request

from app.engine.games import RULE_SETS
from app.ledger import digest
from app.play import Game, auto_steps
from app.rooms import SPEEDS, Room, RoomFull, Rooms, read_code
from app.store import StoreUnavailable
from app.web import bookkeeping
from app.web.bookkeeping import ledger, to_move
from app.web.limits import limits
from app.web.parse import BadRequest, MovedOn, message
from app.web.turns import keys, now, public_url
from app.web.views import path_of

TIMER_SECONDS = range(3, 301)  # a timer's choices besides 0
# How long a phone takes to show a step (static/js/table.js replay(), at the normal pace): a
# player's time starts once the others' steps are shown.
REPLAY_SECONDS = {"roll": 0.5, "claim": 0.3, "miss": 0.3, "move": 0.2, "square": 0.09}


class NoRoom(ValueError):
    """No live room by that code (``code`` NoRoom), or it is closed (RoomClosed); ``typed``,
    the code as asked for."""

    status = 404

    def __init__(self, text, typed: str = "", code: str = "NoRoom"):
        super().__init__(text)
        self.typed, self.code = typed, code


def rooms() -> Rooms:
    """The app's rooms (one per app: its credential signer is made once)."""
    app = current_app._get_current_object()
    made = app.extensions.get("boardpass.rooms")
    if made is None or made.store is not bookkeeping.store():
        made = app.extensions["boardpass.rooms"] = Rooms(bookkeeping.store(), keys())
    return made


def room_url(code: str) -> str:
    return public_url("pages.room", code=code)


def find(code: str, credential=None) -> Room:
    """The live room ``code`` names (as typed): 404 when there is none, 429 for a client that
    has asked for too many that weren't there (app/web/limits.py), unless its seat
    ``credential`` (by default its ``X-Seat`` header) seats it in this room: it knows the code,
    and its requests cost no counter."""
    read = read_code(code)
    room = rooms().get(read) if read else None
    seat = credential or request.headers.get("X-Seat")
    if room is None or not seat or rooms().color_of(room, seat) is None:
        limits().check("misses")
    if room is None:
        limits().take("misses")
        raise NoRoom(message("no_room", code=(read or code)[:12]), (read or code)[:12])
    if room.closed:
        raise NoRoom(message("closed", code=room.code), room.code, "RoomClosed")
    return room


def parse_timer(game: str, seconds, seats) -> int:
    """A room's timer from a request: the game's own for these ``seats`` when it says none
    (``RuleSet.move_seconds``, docs/rooms.md)."""
    if seconds is None:
        rules, bots = RULE_SETS[game], any(seat.bot for seat in seats)
        return 0 if bots and not rules.timed_with_bots else rules.move_seconds
    if type(seconds) is not int or (seconds and seconds not in TIMER_SECONDS):
        raise BadRequest(message("timer"))
    return seconds


def lobby_game(game: str, seats: list, options: int, host: int, lang: str) -> Game:
    """A new room's game, as its lobby holds it: nobody has played, not even the bots (the
    host's Start plays them), and its players take every step by hand (a room's timers and
    the rules expect it)."""
    played = Game.new(game, seats, keys(), options=options, by_hand=True)
    return played.replaced(host=host, lang=lang)


def open_room(played: Game, color: int, record, timer: int = 0, lobby: bool = False) -> Room:
    """Make the room for ``played`` with the phone asking on ``color``, then have
    ``record(code)`` tell the game's ledger that its links now play in the room (None: they
    moved on meanwhile). In that order: a room whose game couldn't be marked is never
    answered, so nobody knows its code, and it expires unplayed. A room's players take every
    step by hand (its timers and the rules expect it). ``lobby``: a new game waits for the
    host's Start, with no timer running."""
    if not played.header.by_hand:
        played = played.replaced(by_hand=True)
    seats = played.header.seats
    host = seats[played.header.host].color if played.rules.joins else color
    try:
        room = rooms().create(played.token(), host, color, now(), device_digest(), timer=timer,
                              due=None if lobby else wait(played, len(played.match.steps),
                                                          timer, "normal", {color}),
                              started=not lobby)
    except RoomFull:
        raise StoreUnavailable(message("no_codes")) from None
    if not record(room.code):
        raise MovedOn(message("try_again"))
    return room


def record_new(played: Game):
    """``open_room``'s ``record`` for a new game: its first link, played in the room."""
    return lambda code: ledger().begin(
        played.header.seed, played.token(), len(played.match.steps), to_move(played),
        bookkeeping.device(), room=code)


def credential(room: Room, color: int) -> str:
    return rooms().credential(room, color)


def device_digest() -> str | None:
    """This browser's device cookie as a room keeps it (digested): the phone that joined."""
    device = bookkeeping.device()
    return digest(device) if device else None


def due(played: Game, start: int, room: Room) -> float | None:
    """When the player to move in ``room`` runs out of time (``wait``)."""
    return wait(played, start, room.timer, room.speed, room.members)


def wait(played: Game, start: int, timer: int, speed: str, members) -> float | None:
    """When the player to move runs out of time: ``timer`` seconds once the steps from
    ``start`` on are shown on the phones, the bots' (and those played for someone) at the
    room's ``speed``. None: no timer, nobody to wait for, or a seat nobody has joined yet (of
    the colors in ``members``: the game waits for whoever takes it, and an empty seat is never
    played for, nor disqualified)."""
    seats = played.header.seats
    if not timer or played.over or seats[played.match.turn].bot or \
            seats[played.match.turn].color not in members:
        return None
    history = played.match.history
    played_for = auto_steps(history, played.header.auto)  # shown at the bots' pace
    shown = 0.0
    for step, (kind, seat, what) in enumerate(history[start:], start):
        took = REPLAY_SECONDS.get(kind, 0.0)
        if kind == "move":
            squares = len(path_of(played.rules, seats[seat].color, what)) - 1
            took += REPLAY_SECONDS["square"] * squares
        shown += took * (SPEEDS[speed] if seats[seat].bot or step in played_for else 1.0)
    return now() + shown + timer
