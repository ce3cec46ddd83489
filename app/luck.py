"""Each player's luck over a link's game: the sum of their rolls' luck, by the static evaluation.

One pass over the game: it is replayed once, keeping the position before every roll, and each
roll is measured against every other roll that player could have had at that moment
(``evaluation.roll_luck``). No playouts, so a whole game's luck costs a fraction of a second
and is one request for the page (``GET /api/games/<token>/luck``, kept in the store like the
other answers: app/answers.py; docs/analysis.md, "Luck").
"""

from __future__ import annotations

from app import link
from app.engine import evaluation
from app.engine.core import ROLL
from app.engine.dice import game_secret
from app.link import Header
from app.play import Game, new_match


def game_luck(game: Game) -> dict:
    """Per seat, in points of chance to win: ``luck`` (the sum over its rolls) and ``rolls``
    (how many it made)."""
    return replayed_luck(game.header, game_secret(game.keys.dice, game.header.seed),
                         list(game.match.steps))


def replayed_luck(header: Header, secret: bytes, steps: list) -> dict:
    """``game_luck`` from what a game is made of (a header, its dice ``secret`` and its
    steps), so that an analysis worker can work it out without the link's keys."""
    match = new_match(header, secret)
    before = [match.state.copy()] if match.state.phase == ROLL else []

    def watch(played) -> None:
        if played.state.phase == ROLL:
            before.append(played.state.copy())

    count, data = link.pack_log(steps)
    match.replay(link.LogReader(count, data), watch)
    rolls = [entry for entry in match.history if entry[0] == "roll"]
    seats = len(header.seats)
    luck, made = [0.0] * seats, [0] * seats
    for state, (_, seat, dice) in zip(before, rolls):
        luck[seat] += evaluation.roll_luck(match.rules, state, dice)
        made[seat] += 1
    return {"luck": [round(100 * points, 1) for points in luck], "rolls": made}
