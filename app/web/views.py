"""A game as the browser sees it: JSON built from a replayed link, shared by the API and pages.

Nothing here is secret beyond what the link's holder may know: phone numbers are never listed
(only whether a seat has one), and the dice secret only once the game is over.
"""

from __future__ import annotations

from app.engine.core import MOVE, OVER
from app.play import Game


class Recorder:
    """Records the pieces after every replayed step, for the page's replay on arrival."""

    def __init__(self):
        self.after = []

    def __call__(self, match):
        self.after.append([list(p) for p in match.state.pos])


def load(token: str, keys, record: bool = False) -> tuple[Game, Recorder | None]:
    recorder = Recorder() if record else None
    return Game.from_token(token, keys, recorder), recorder


def replay_start(history: list, seat: int) -> int:
    """Where the viewer's replay starts: just after their own last turn (or at the start).

    The viewer is the seat to move: the link was sent to them.
    """
    i = len(history)
    while i and history[i - 1][1] == seat:  # the viewer's turn in progress
        i -= 1
    while i and history[i - 1][1] != seat:  # everyone else's turns since
        i -= 1
    return i


def _event(rules, header, kind, seat, what) -> dict:
    color = header.seats[seat].color
    if kind == "roll":
        return {"kind": "roll", "seat": seat, "dice": list(what)}
    return {"kind": "move", "seat": seat, "piece": what.piece, "from": what.src, "to": what.dst,
            "values": list(what.values), "text": rules.move_text(color, what),
            "label": rules.move_label(color, what)}


def game_view(game: Game, token: str, recorder: Recorder | None = None,
              since: int | None = None) -> dict:
    """Everything the page needs to draw the game and offer the legal moves; with a
    ``recorder``, also the steps to replay: from step ``since``, or by default since the
    viewer's (the seat to move's) own last turn."""
    match, header, rules = game.match, game.header, game.rules
    state = match.state
    seat = state.turn if match.phase != OVER else state.winner
    names = rules.board.color_names
    view = {
        "game": header.game,
        "token": token,
        "seed": header.seed.hex(),
        "steps": len(match.steps),
        "position": game.position(),
        "phase": match.phase,
        "turn": state.turn,
        "winner": state.winner,
        "doubles": getattr(state, "doubles", 0),
        "pool": list(state.pool) if match.phase == MOVE else [],
        "dice": _current_dice(match),
        "last_roll": _last_roll(match),
        "pieces": [list(p) for p in state.pos],
        "seats": [
            {"seat": i, "name": s.name, "color": names[s.color], "bot": s.bot,
             "has_phone": s.phone is not None}
            for i, s in enumerate(header.seats)
        ],
        "legal": [
            {"index": i, "piece": m.piece, "from": m.src, "to": m.dst, "values": list(m.values),
             "text": rules.move_text(header.seats[state.turn].color, m),
             "label": rules.move_label(header.seats[state.turn].color, m)}
            for i, m in enumerate(match.legal_moves())
        ],
        "first_rolls": [[[seat, total] for seat, total in round_.items()]
                        for round_ in match.start_rounds],
        "commitment": game.commitment(),
        "secret": game.revealed_secret(),
    }
    if recorder is not None:
        start = replay_start(match.history, seat) if since is None else since
        before = recorder.after[start - 1] if start else _initial_pieces(game)
        view["replay"] = {
            "start": start,
            "pieces": before,
            "events": [dict(_event(rules, header, *entry), pieces=recorder.after[i])
                       for i, entry in enumerate(match.history[start:], start)],
        }
    return view


def _initial_pieces(game: Game) -> list:
    return [[-1] * game.rules.pieces for _ in game.header.seats]


def _current_dice(match) -> list[int]:
    """The roll being played (none while the player is to roll)."""
    return _last_roll(match) if match.phase == MOVE else []


def _last_roll(match) -> list[int]:
    for kind, seat, what in reversed(match.history):
        if kind == "roll":
            return list(what)
    return []


__all__ = ["load", "game_view"]
