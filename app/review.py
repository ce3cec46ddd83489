"""Analysis of a link's game for the page: chance to win at a step, and the review of a decision.

The engine's ``analysis`` does the playouts; this module finds the positions in a replayed game
and says which decisions are a person's to grade. Each answer depends only on the position (the
playouts are seeded from it, never from the game's real dice), so the web layer can cache it for
good. Why the page asks for one step per request rather than the turn's handler grading the turn
and carrying grades in the link: a turn stays a few milliseconds and its link stays short, a slow
review never holds up the game, and on Lambda the page's requests run side by side
(docs/analysis.md).
"""

from __future__ import annotations

from app import link
from app.engine import analysis
from app.engine.core import MOVE
from app.engine.dice import game_secret
from app.engine.text import N_
from app.play import Game, TurnError, auto_steps, replay


class NotADecision(TurnError):
    """The step asked for is not a person's choice between moves."""


def state_at(game: Game, step: int):
    """The position after the game's first ``step`` steps."""
    if not 0 <= step <= len(game.match.steps):
        raise TurnError(N_("This game has no such step."))
    if step == len(game.match.steps):
        return game.state.copy()
    count, data = link.pack_log(game.match.steps[:step])
    secret = game_secret(game.keys.dice, game.header.seed)
    return replay(game.header, link.LogReader(count, data), secret).state


def decisions(game: Game) -> list[tuple[int, int]]:
    """``(step, seat)`` of every choice a person made among two legal moves or more (bots,
    and turns played for absent players, aren't graded)."""
    seats = game.header.seats
    bot_steps = auto_steps(game.match.history, game.header.auto)
    return [(step, seat) for step, ((_, radix), (kind, seat, _))
            in enumerate(zip(game.match.steps, game.match.history))
            if kind == "move" and radix > 1 and not seats[seat].bot and step not in bot_steps]


def turn_starts(game: Game) -> list[tuple[int, int]]:
    """``(step, seat)`` where each turn began, and the final step with no seat (-1): where the
    page asks for chances to measure each player's luck."""
    history = game.match.history
    starts = [(step, seat) for step, (_, seat, _) in enumerate(history)
              if step == 0 or history[step - 1][1] != seat]
    return starts + [(len(history), -1)]


def chances_at(game: Game, step: int, playouts: int) -> list[float]:
    """Each seat's chance to win from the position at ``step``."""
    return analysis.chances(game.rules, state_at(game, step), playouts=playouts)


def review_at(game: Game, step: int, playouts: int | None = None,
              extra: int | None = None) -> dict:
    """The review of the person's decision at ``step``: every option's chance and grade (the
    engine's ``Option``s, in the canonical order), the one played, the best, and the position
    (``state``) the options are moves of."""
    if not any(step == s for s, _ in decisions(game)):
        raise NotADecision(N_("That step is not a player's choice between moves."))
    state = state_at(game, step)
    assert state.phase == MOVE
    kwargs = {name: value for name, value in (("playouts", playouts), ("extra", extra))
              if value is not None}  # the engine's defaults otherwise
    options = analysis.review(game.rules, state, **kwargs)
    played = game.match.steps[step][0]
    best = next(o.index for o in options if o.best)
    return {"step": step, "seat": state.turn, "played": played, "best": best,
            "options": options, "state": state}
