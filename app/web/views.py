"""A game as the browser sees it: JSON built from a replayed link, shared by the API and pages.

Nothing here is secret beyond what the link's holder may know: phone numbers are never listed
(only whether a seat has one), and the dice secret only once the game is over.
"""

from __future__ import annotations

from app.engine.bots import BOT_LEVELS
from app.engine.core import MOVE, OVER
from app.engine.text import N_, Text
from app.i18n import translate
from app import link, review
from app.web import spoken
from app.play import Game, auto_steps, medals


class Recorder:
    """Records the pieces after every replayed (or played) step, by step index, for the page's
    replay: of a link on arrival, or of the bots' turns a finished turn set off."""

    def __init__(self):
        self.after = {}

    def __call__(self, match):
        self.after[len(match.steps) - 1] = [list(p) for p in match.state.pos]


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


def _event(rules, header, kind, seat, what, before, after, lang: str = "en") -> dict:
    if kind == "roll":
        return {"kind": "roll", "seat": seat, "dice": list(what), "pieces": after}
    if kind in ("claim", "miss"):  # a re-roll claimed in time, or let go
        return {"kind": kind, "seat": seat, "pieces": after}
    return dict(move_view(rules, header.seats[seat], what, lang), kind="move", seat=seat,
                kills=_kills(before, after), pieces=after)


def move_view(rules, seat: link.Seat, move, lang: str = "en") -> dict:
    """A move by ``seat`` as the page draws it: ``path`` lists the places its arrow goes
    through; ``text`` is the notation, ``label`` the move in the player's words as offered and
    ``said`` as the feed tells it once played (both in ``lang``)."""
    color = seat.color
    return {"piece": move.piece, "from": move.src, "to": move.dst, "values": list(move.values),
            "path": path_of(rules, color, move), "text": rules.move_text(color, move),
            "label": translate(rules.move_label(color, move), lang),
            "said": translate(rules.move_said(color, move, seat.name), lang)}


def path_of(rules, color: int, move) -> list[int]:
    """Places a move goes through, as its arrow is drawn."""
    return list(rules.move_path(color, move))


def _kills(before: list, after: list) -> list[int]:
    """Seats whose piece a move sent back (to the nest or base)."""
    return [seat for seat, (was, now) in enumerate(zip(before, after))
            if now.count(-1) > was.count(-1)]


def game_view(game: Game, token: str, recorder: Recorder | None = None,
              since: int | None = None, lang: str = "en") -> dict:
    """Everything the page needs to draw the game and offer the legal moves; with a
    ``recorder``, also the steps to replay: from step ``since``, or by default since the
    viewer's (the seat to move's) own last turn. Moves are labelled in ``lang`` (the page's
    language: ``lang`` in the view is the table's)."""
    match, header, rules = game.match, game.header, game.rules
    state = match.state
    seat = state.turn if match.phase != OVER else state.winner
    names = rules.board.color_names
    away = game.away()
    out = rules.out(state)
    won = _won(game)
    view = {
        "game": header.game,
        "token": token,
        "seed": header.seed.hex(),
        "steps": len(match.steps),
        "position": game.position(),
        "phase": match.phase,
        "turn": state.turn,
        "winner": state.winner,
        "doubles": rules.doubles(state),
        "pool": rules.to_play(state) if match.phase == MOVE else [],
        "dice": _current_dice(match),
        "last_roll": _last_roll(match),
        "no_move": no_move(game, lang),
        "pieces": [[] if i in out else list(p) for i, p in enumerate(state.pos)],  # off the board
        "seats": [
            {"seat": i, "name": s.name, "color": names[s.color], "bot": s.bot,
             "strength": BOT_LEVELS.get(s.bot),
             "has_phone": s.phone is not None, "whatsapp": s.whatsapp,
             "medals": list(s.medals), "won": list(won[i]),
             "waiting": i in rules.waiting(state), "out": i in out,
             "away": i in away, "missed": game.missed(i)}
            for i, s in enumerate(header.seats)
        ],
        "host": header.host,
        "lang": header.lang,
        # Steps with nothing to decide are played for the players (``Game.hand_on``).
        "autoplay": not header.by_hand,
        # Seats in the order they finished (Ludo); the winner alone for the other games.
        "placed": list(rules.placed(state)),
        "simulated": simulated_ending(game),
        # Each move's name for its control (``spoken``: what it does, whom it eats).
        "legal": [dict(move_view(rules, header.seats[state.turn], m, lang), index=i,
                       name=spoken.move_name(game, m, lang))
                  for i, m in enumerate(match.legal_moves())],
        # Where everyone stands, in words: the board's description, read out on demand.
        "in_words": spoken.position(game, lang),
        "settings": rules.table_settings(),
        "first_rolls": [[[seat, total] for seat, total in round_.items()]
                        for round_ in match.start_rounds],
        "commitment": game.commitment(),
        "secret": game.revealed_secret(),
        # The turn deadline: the server's time the player to move runs out (seconds since
        # 1970; None once the game is over). The page only shows it: the server decides.
        "deadline": {"minutes": header.deadline, "due_at": game.due_at()}
        if header.deadline else None,
        # The people's choices between moves, which the page has reviewed (``/review``), and
        # once the game is over where each turn began.
        "decisions": [[step, seat] for step, seat in review.decisions(game)],
        "turns": [[step, seat] for step, seat in review.turn_starts(game)]
        if match.phase == OVER else [],
    }
    if recorder is not None:
        start = replay_start(match.history, seat) if since is None else since
        before = recorder.after[start - 1] if start else _initial_pieces(game)
        auto = auto_steps(match.history, header.auto)
        view["replay"] = {
            "start": start,
            "pieces": before,
            "events": [_marked(_event(rules, header, *entry,
                                      recorder.after[i - 1] if i else _initial_pieces(game),
                                      recorder.after[i], lang), i in auto,
                               _forced(game, i, auto), _no_move(match, i))
                       for i, entry in enumerate(match.history[start:], start)],
        }
    return view


def _forced(game: Game, step: int, auto: set[int]) -> bool:
    """Whether the step was played for a person because it had no alternative (a roll, an only
    move: ``Game.hand_on``), not by them, a bot, or for them as absent."""
    _, seat, _ = game.match.history[step]
    return not game.header.by_hand and not game.header.seats[seat].bot and \
        step not in auto and game.match.steps[step][1] == 1


def _no_move(match, step: int) -> bool:
    """Whether the step is a roll its player had no move for (the turn went on without one)."""
    history = match.history
    kind, seat, _ = history[step]
    if kind != "roll":
        return False
    if step + 1 == len(history):
        return match.phase != MOVE
    following, by, _ = history[step + 1]
    return following != "move" or by != seat


BLOCKED = N_("No move with %(dice)s: every piece in play is blocked or needs an exact count.")


def no_move(game: Game, lang: str) -> dict | None:
    """When the last roll left its player no move (the game went on without one), whose roll it
    was and why, in ``lang``: the page says so rather than only "your turn is done"."""
    match = game.match
    if match.phase == MOVE or not match.history or match.history[-1][0] != "roll":
        return None
    _, seat, dice = match.history[-1]
    if all(p == -1 for p in match.state.pos[seat]):  # none out yet: the exit roll is wanted
        why = translate(game.rules.words.no_move, lang)
    else:
        shown = " + ".join(str(d) for d in dice)
        why = translate(Text(BLOCKED, dice=shown), lang)
    return {"seat": seat, "why": why}


def _marked(event: dict, auto: bool, forced: bool, no_move: bool) -> dict:
    """A replay event, marked ``"auto"`` when it belongs to a turn played for an absent player,
    ``"forced"`` when it had no alternative and was played for its player, ``"no_move"`` when
    it is a roll that left its player no move."""
    marks = {"auto": auto, "forced": forced, "no_move": no_move}
    return dict(event, **{mark: True for mark, on in marks.items() if on})


def _won(game: Game) -> list[tuple[int, int, int]]:
    """This game's medals per seat (Ludo, once it is over); the seats' ``medals`` are earlier
    games'."""
    state, rules = game.match.state, game.rules
    if game.match.phase == OVER and rules.ranks:
        return medals(rules.placed(state), len(game.header.seats), rules.out(state))
    return [(0, 0, 0)] * len(game.header.seats)


def final_results(game: Game) -> dict | None:
    """A finished Ludo game's results as the page is sent: each place's seat and medal (an
    index, or None) and every seat's medals at the table, this game's included. The script
    draws the same once it has the game; sent with the page, they keep their room above the
    board from the first paint. ``capacity``: the table's size, the rematch's at first. None
    for a game not over, or not Ludo."""
    state = game.match.state
    if not game.rules.ranks or game.match.phase != OVER:
        return None
    names = game.rules.board.color_names
    won = _won(game)
    seats = [{"name": s.name, "color": names[s.color],
              "medals": [a + b for a, b in zip(s.medals, won[i])]}
             for i, s in enumerate(game.header.seats)]
    return {"places": [dict(seats[seat], seat=seat,
                            medal=next((k for k, n in enumerate(won[seat]) if n), None))
                       for seat in state.placed],
            "seats": seats, "simulated": simulated_ending(game),
            "capacity": game.rules.capacity,
            "host": game.header.seats[game.header.host].name}


def simulated_ending(game: Game) -> bool:
    """A Ludo game whose end the bots played out alone: every human had finished (none is the
    one left in last place) or was disqualified, and the game ended on a bot's move."""
    state, rules = game.state, game.rules
    placed, out = rules.placed(state), rules.out(state)
    history, seats = game.match.history, game.header.seats
    if not rules.ranks or game.match.phase != OVER or not history:
        return False
    gone = set(placed[: len(placed) - len(out) - 1]) | set(out)
    return bool(seats[history[-1][1]].bot) and \
        all(i in gone for i, s in enumerate(seats) if not s.bot)


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


__all__ = ["load", "game_view", "move_view", "simulated_ending"]
