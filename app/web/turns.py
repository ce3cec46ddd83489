"""Games and their turns, as the handlers that play them share them: the games' and the seats'
blueprints, the rooms' (room_api.py) and the New game form (pages.py).

Here are the server's clock and keys; a new game; a link's address, and what an answer says
besides the game (the turn's deadline, how far the game has moved on, the same answer to a
request sent again); the re-roll's window; and what follows a turn's answer: its review worked
out ahead.
"""

from __future__ import annotations

from flask import current_app, request, url_for

from app import i18n, review
from app.ledger import Standing
from app.link import Seat
from app.play import Game
from app.store import StoreUnavailable
from app.web.bookkeeping import ledger
from app.web.limits import limits
from app.web.texting import send_link
from app.web.views import game_view, load


def keys():
    return current_app.config["KEYS"]


def now() -> float:
    """The server's time (seconds since 1970): the app's ``CLOCK`` (tests move theirs).
    Never the client's: deadlines and claim tickets trust only this."""
    return current_app.config["CLOCK"]()


def public_url(endpoint: str, **values) -> str:
    """A page's full address: under PUBLIC_URL when set, else the request's host."""
    base = current_app.config["PUBLIC_URL"]
    if base:
        return base.rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, **values, _external=True)


def page_url() -> str:
    """This page's full address, without its query: under PUBLIC_URL when set, else the
    request's host (a link preview's ``og:url``)."""
    base = current_app.config["PUBLIC_URL"] or request.host_url
    return base.rstrip("/") + request.path


def game_url(token: str) -> str:
    return public_url("pages.game", token=token)


def with_link(view: dict, token: str) -> dict:
    view["url"] = game_url(token)
    view["token_chars"] = len(token)
    return view


def new_game(game: str, seats: list[Seat], options: int, host: int = 0,
             lang: str = "en", deadline: int = 0, by_hand: bool = False) -> Game:
    """A new game; ``host`` (Ludo) is the seat of the player who created it, ``lang`` the
    table's language, ``deadline`` the minutes each player has for a turn (0: no deadline),
    ``by_hand`` whether its players take even the steps with no alternative (rooms do).
    Bots to move first have played, and so has every step with nothing to decide
    (``Game.hand_on``): a person with a decision is to move, their time starting now.
    Counted for the client first (``GAMES_PER_ADDRESS``: 429 past it), whichever way it is
    made (the form, the API); a rematch isn't (one per finished game, by its host)."""
    limits().take("games")
    played = Game.new(game, seats, keys(), options=options)
    if host or lang != played.header.lang or deadline or by_hand:
        played = played.replaced(host=host, lang=lang, deadline=deadline, by_hand=by_hand)
    played.hand_on()
    return played.stamped(now())


def with_lang(played: Game, lang: str) -> Game:
    """The same game, its table speaking ``lang`` from its next link on."""
    if lang == played.header.lang:
        return played
    return played.replaced(lang=lang)


def humans_played(played: Game) -> bool:
    """Whether any person has played a step of their own yet (bots to move first play at
    once, and so do the steps with nothing to decide)."""
    return played.people_played()


CLAIM_SECONDS = 5  # what the rules give the player; the server allows for the network


def answer_again(standing: Standing, mover: str | None, invite: bool = False) -> dict:
    """The answer to a request that was answered already (``standing``: of the link it was
    sent from): the same newest link, its replay from the same step, and nothing sent again."""
    newest = ledger().newest(standing)
    played, recorder = load(newest.token, keys(), record=True)
    body = with_link(game_view(played, newest.token, recorder, standing.data["start"],
                               lang=i18n.page_lang()), newest.token)
    if invite:
        body["message"] = (send_link(played, None, body["url"], deliver=False)
                           if not humans_played(played) else None)
    else:
        body["message"] = send_link(played, mover, body["url"], deliver=False,
                                    since=standing.data["start"])
        if standing.data.get("texted"):
            body["message"]["status"] = "sent"
    fill_deadline(body, played, newest)
    return body


def arrived_by_text(made: Standing, sent: dict) -> Standing:
    """The new link's standing (``made``), once we texted it to its player: it reached them
    now, and their time starts."""
    if sent.get("status") != "sent":
        return made
    try:
        return ledger().reached(made, now(), texted=True) or made
    except StoreUnavailable:  # the turn is played already: the clock starts when it is opened
        return made


def fill_deadline(body: dict, played: Game, standing: Standing | None) -> None:
    """A turn's deadline counts from when its link reached the player (``standing.opened``):
    until then there is no due time, and ``waiting`` says so."""
    deadline = body.get("deadline")
    if not deadline or played.over:
        return
    opened = standing.opened if standing is not None else None
    deadline["due_at"] = None if opened is None else opened + played.header.deadline * 60
    deadline["waiting"] = opened is None


def moved_on(standing: Standing) -> dict:
    """What a holder of an older link is told: how far the game has got and whose turn it is
    (never the newest link: it is the next player's)."""
    return {"steps": standing.data["step"], "turn": standing.data["turn"],
            "over": standing.data["turn"] is None}


def analyse_ahead(response, played: Game, since: int):
    """``response``, which once sent queues what the game's review will ask for from step
    ``since`` on (``review.ahead``: where there are analysis workers), so that it is kept
    before anyone asks and the turn's answer waits for none of it. ``ANALYSIS_AHEAD`` says
    whether (on; off in tests that don't switch it on: the suite's many turns would keep a
    worker busy with full-size reviews)."""
    config = current_app.config
    if config["ANALYSIS_AHEAD"]:
        moment = now()
        response.call_on_close(lambda: review.ahead(played, since, config, moment))
    return response
