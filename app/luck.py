"""Each player's luck over a link's game: the sum of their rolls' luck, by the static evaluation.

One pass over the game: it is replayed once, keeping the position before every roll, and each
roll is measured against every other roll that player could have had at that moment
(``evaluation.roll_luck``). No playouts, so a whole game's luck costs a fraction of a second
and is one request for the page (``GET /api/games/<token>/luck``, kept in the store like the
other answers: app/answers.py; docs/analysis.md, "Luck"). The same pass gives the course of the
game for the review's graph: every seat's chance to win by the same evaluation where each turn
began, and at the end (docs/analysis.md, "The game's course").
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
    (how many it made); and ``course``: ``[step, seat, chances]`` where each turn began (the
    first roll of a seat after another seat's), ``chances`` each seat's chance to win there
    by the static evaluation in whole percents, and last the position reached (seat -1)."""
    return replayed_luck(game.header, game_secret(game.keys.dice, game.header.seed),
                         list(game.match.steps))


def replayed_luck(header: Header, secret: bytes, steps: list) -> dict:
    """``game_luck`` from what a game is made of (a header, its dice ``secret`` and its
    steps), so that an analysis worker can work it out without the link's keys."""
    match = new_match(header, secret)
    before = [match.state.copy()] if match.state.phase == ROLL else []
    steps_before = [0] if before else []  # the step of each position in ``before``

    def watch(played) -> None:
        if played.state.phase == ROLL:
            before.append(played.state.copy())
            steps_before.append(len(played.history))

    count, data = link.pack_log(steps)
    match.replay(link.LogReader(count, data), watch)
    rolls = [entry for entry in match.history if entry[0] == "roll"]
    seats = len(header.seats)
    luck, made, course = [0.0] * seats, [0] * seats, []
    for state, step, (_, seat, dice) in zip(before, steps_before, rolls):
        luck[seat] += evaluation.roll_luck(match.rules, state, dice)
        made[seat] += 1
        if not course or course[-1][1] != seat:
            course.append([step, seat, _percents(match.rules, state)])
    if not course or course[-1][0] != len(match.history):
        course.append([len(match.history), -1, _percents(match.rules, match.state)])
    return {"luck": [round(100 * points, 1) for points in luck], "rolls": made,
            "course": course}


def _percents(rules, state) -> list[int]:
    """Each seat's chance to win at ``state`` by the static evaluation, in whole percents (the
    graph's resolution: a long game's course stays a few kilobytes, kept in the store)."""
    return [round(100 * chance) for chance in evaluation.chances(rules, state)]
