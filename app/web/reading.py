"""A game read by its link on arrival: what ``GET /api/games/<token>`` answers and what the game's
page carries for its first paint, built here once so the two never differ. Reading records
bookkeeping (the link reached its player; the creator's language switch), so a page that
carries the answer asks the API for nothing more: it happens once per arrival.
"""

from __future__ import annotations

from flask import request

from app import i18n
from app.ledger import request_digest
from app.link import LANGUAGES
from app.play import Game
from app.store import StoreUnavailable
from app.web.bookkeeping import (device, host_here, ledger, standing_of, to_move, with_backs,
                                 with_fixed)
from app.web.texting import send_link
from app.web.turns import (fill_deadline, humans_played, keys, moved_on, now, with_lang,
                           with_link)
from app.web.views import game_view, load


def read_game(token: str, since: int | None = None, invite: bool = False,
              asked_lang: str | None = None) -> dict:
    """The game at this link, with the turns since the viewer's own last one (or since step
    ``since``). ``invite``: the creator's page, before the first link is sent (its words to
    send); ``asked_lang``: the language the viewer's page asks for (``?lang=``). A finished Ludo
    game says whether this is its host (``host_here``: the host's link, its ``?host=`` key, or
    the browser that made the game), whose page offers the rematch."""
    played, recorder = load(token, keys(), record=True)
    i18n.use_table_lang(played.header.lang)
    since = None if since is None else min(since, len(played.match.steps))
    try:  # a game reads without the store: only whether this link is the newest is unknown
        standing = standing_of(played, token)
    except StoreUnavailable:
        standing = None
    current = standing is None or (standing.current and not standing.room)
    if standing and current:
        played = with_backs(played, standing)
    # The creator's first text: no human has played yet (bots to move first may have).
    invite = invite and not humans_played(played) and current
    if invite and asked_lang in set(LANGUAGES) - {played.header.lang} and \
            standing is not None and standing.made_by(device()):
        # The creator switched the page's language before sending the first link: the table
        # speaks it, so the link they send says so.
        switched = with_lang(played, asked_lang)
        if ledger().advance(standing, request_digest("lang", {"invite": "1", "lang": asked_lang}),
                            switched.token(), len(played.match.steps), to_move(played),
                            len(played.match.steps), device(), seats=len(played.header.seats),
                            fixed=standing.fixed):
            played, token = switched, switched.token()
    elif standing is not None and current and standing.opened is None and not played.over:
        try:  # the link reached its player (unless this is the browser that made it)
            standing = ledger().reached(standing, now(), device()) or standing
        except StoreUnavailable:
            pass
    body = with_link(game_view(played, token, recorder, since, i18n.page_lang()), token)
    if standing is not None and current:  # else when the time started is unknown: not shown
        fill_deadline(body, played, standing)
    elif body["deadline"]:
        body["deadline"].update(due_at=None, waiting=False)
    body["moved_on"] = None if current else moved_on(standing)
    body["room"] = standing.room if standing is not None else None
    body["fixed_steps"] = fixed_steps(token, standing) if standing and current else []
    if played.over and played.rules.rematches:  # the rematch is offered to the host only
        body["host_here"] = host_here(played, request.args.get("host"))
    if invite:
        body["message"] = send_link(played, None, body["url"], deliver=False)
    return body


def fixed_steps(token: str, standing) -> list:
    """The steps of the link's turn in progress that a roll shown has fixed, as a page plays
    them: a page opening the link (another tab, a phone without the address it had) starts
    from them."""
    if not standing.fixed:
        return []
    return with_fixed(Game.from_token(token, keys()), standing).steps_since(standing.step)
