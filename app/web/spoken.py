"""The game in words for a player who doesn't see the board: each legal move's name as its
control says it ("Pawn 2 from 14 to 20 with the 6, eats Blue"), and where everyone stands
(the board's description, read out on demand). Worded here once, in the table's language, for
the page and the room alike; docs/playing.md says how a turn is played this way.

>>> from app.play import Game, demo_seats
>>> from app.keys import Keys
>>> game = Game.new("parcheesi", demo_seats("parcheesi", 2), Keys.for_tests("spoken"),
...                 seed=b"spoken01")
>>> position(game, "en")
'Everyone is level. Ana (yellow), 288 to go: 4 in the nest. Ben (red), 288 to go: 4 in the nest.'
"""

from __future__ import annotations

from app.engine import bots
from app.engine.red_arse import BACK, OTHER_HOME_SLOT
from app.engine.text import N_, Text
from app.i18n import translate

# A color as a seat's name ("eats Blue"), and as said beside a player's name ("Ana (blue)").
COLORS = {"red": N_("Red"), "blue": N_("Blue"), "green": N_("Green"), "yellow": N_("Yellow"),
          "purple": N_("Purple"), "orange": N_("Orange")}
COLOR_WORDS = {"red": N_("red"), "blue": N_("blue"), "green": N_("green"),
               "yellow": N_("yellow"), "purple": N_("purple"), "orange": N_("orange")}

# Each game's words: its pieces, where they start and where they finish.
MOVE = {"parcheesi": N_("Pawn %(n)s from %(src)s to %(dst)s with %(dice)s"),
        "ludo": N_("Piece %(n)s from %(src)s to %(dst)s with %(dice)s"),
        "red-arse": N_("Marble %(n)s from %(src)s to %(dst)s with %(dice)s")}
ENTER = {"parcheesi": N_("Enter a pawn with %(dice)s"),
         "ludo": N_("Bring a piece out with %(dice)s"),
         "red-arse": N_("Bring marble %(n)s out to %(dst)s with %(dice)s")}
BONUS = {"parcheesi": N_("Use the %(bonus)s bonus on pawn %(n)s, from %(src)s to %(dst)s")}
PIECE_AT = {"parcheesi": N_("pawn %(n)s on %(place)s"), "ludo": N_("piece %(n)s on %(place)s"),
            "red-arse": N_("marble %(n)s on %(place)s"),
            "center": N_("marble %(n)s in the center")}
AT_START = {"parcheesi": N_("%(n)s in the nest"), "ludo": N_("%(n)s at home"),
            "red-arse": N_("%(n)s in base")}
FINISHED = {"parcheesi": N_("%(n)s at Home"), "ludo": N_("%(n)s in the goal"),
            "red-arse": N_("%(n)s in their home")}


def move_name(game, move, lang: str) -> str:
    """What the legal ``move`` of the seat to move does, for its control, in ``lang``: the
    piece, from where to where with which dice (a bonus named as one), and whom it eats."""
    rules, state = game.rules, game.match.state
    seat = state.turn
    color = state.colors[seat]
    name, places = game.header.game, {"n": move.piece + 1,
                                      "dst": _place(rules, color, move.dst, move=True)}
    bonus = [v for v in move.values if v > 6]
    if bonus:
        text = Text(BONUS[name], bonus=bonus[0], src=_place(rules, color, move.src, move=True),
                    **places)
    else:
        places["dice"] = _dice(move.values)
        if move.src < 0:
            text = Text(ENTER[name], **places)
        else:
            text = Text(MOVE[name], src=_place(rules, color, move.src, move=True), **places)
    eaten = _eaten(rules, state, move)
    if eaten:
        whom = ", ".join(translate(COLORS[rules.board.color_names[state.colors[s]]], lang)
                         for s in eaten)
        text = Text("%(move)s, eats %(whom)s", move=text, whom=whom)
    return translate(text, lang)


def position(game, lang: str) -> str:
    """Where everyone stands, in ``lang``: who is ahead (fewest squares to go), then each
    seat's pieces: at the start, on the track (how far from home, and safe where nothing can
    eat them), finished."""
    rules, state, seats = game.rules, game.match.state, game.header.seats
    out = set(getattr(state, "out", ()))
    playing = [s for s in range(len(seats)) if s not in out and state.pos[s]]
    togo = {s: sum(_to_go(rules, state.colors[s], p) for p in state.pos[s]) for s in playing}
    best = min(togo.values())
    leaders = [seats[s].name for s in playing if togo[s] == best]
    lines = [Text("%(who)s is ahead", who=leaders[0]) if len(leaders) == 1
             else Text("Everyone is level") if len(leaders) == len(playing)
             else Text("%(who)s are level at the front", who=", ".join(leaders))]
    for s, seat in enumerate(seats):
        color = translate(COLOR_WORDS[rules.board.color_names[state.colors[s]]], lang)
        if s not in playing:
            lines.append(Text("%(who)s (%(color)s) is out", who=seat.name, color=color))
            continue
        lines.append(Text("%(who)s (%(color)s), %(n)s to go: %(pieces)s", who=seat.name,
                          color=color, n=togo[s], pieces=_pieces(rules, state, s)))
    return ". ".join(translate(line, lang) for line in lines) + "."


def _pieces(rules, state, seat: int) -> Text:
    """A seat's pieces in words: how many at the start, each one on its way, how many done."""
    name, color, pos = rules.name, state.colors[seat], state.pos[seat]
    parts = []
    started = pos.count(-1)
    if started:
        parts.append(Text(AT_START[name], n=started))
    for k, p in enumerate(pos):
        if p < 0 or _finished(rules, color, p):
            continue
        part = Text("%(piece)s, %(n)s to go", n=_to_go(rules, color, p),
                    piece=Text(PIECE_AT["center" if p == getattr(rules, "center", None) else name],
                               n=k + 1, place=_place(rules, color, p)))
        if _safe(rules, color, p):
            part = Text("%(piece)s, safe", piece=part)
        parts.append(part)
    done = sum(1 for p in pos if p >= 0 and _finished(rules, color, p))
    if done:
        parts.append(Text(FINISHED[name], n=done))
    return _joined(parts)


def _joined(parts: list) -> Text:
    text = parts[0]
    for part in parts[1:]:
        text = Text("%(a)s; %(b)s", a=text, b=part)
    return text


def _dice(values) -> Text:
    if len(values) == 1:
        return Text("the %(die)s", die=4 if values[0] == BACK else values[0])
    return Text("%(a)s and %(b)s", a=values[0], b=values[1])


def _eaten(rules, state, move) -> list[int]:
    """The seats whose pieces the move sends back to the start."""
    child = bots.after(rules, state, move)
    return [s for s, (was, now) in enumerate(zip(state.pos, child.pos))
            if s != state.turn and now.count(-1) > was.count(-1)]


def _place(rules, color: int, p: int, move: bool = False):
    """Place ``p`` of a ``color`` piece as the game's move labels say it (a square's bare
    number in a move, "square 14" in the position)."""
    if rules.name == "red-arse":
        board = rules.board
        if p == board.center:
            return Text("the center")
        owner = board.home_owner(p)
        if owner is None:
            return str(p + 1) if move else Text("hole %(n)s", n=p + 1)
        if owner[0] == color:
            return Text("home slot %(n)s", n=owner[1] + 1)
        return Text(OTHER_HOME_SLOT[board.color_names[owner[0]]], n=owner[1] + 1)
    home, last = _ends(rules)
    if p == home:
        return Text("the goal") if rules.name == "ludo" else Text("Home")
    if p > last:
        if rules.name == "ludo":
            return Text("home column %(n)s", n=p - last)
        return Text("home row %(n)s", n=p - last)
    square = rules.board.cell(color, p)
    return str(square) if move else Text("square %(n)s", n=square)


def _ends(rules) -> tuple[int, int]:
    """Where a piece finishes and the track's last square, as progress (Parcheesi, Ludo)."""
    if rules.name == "ludo":
        return rules.goal, rules.last
    return rules.home, rules.board.last


def _finished(rules, color: int, p: int) -> bool:
    if rules.name == "red-arse":
        owner = rules.board.home_owner(p)
        return owner is not None and owner[0] == color
    return p == _ends(rules)[0]


def _to_go(rules, color: int, p: int) -> int:
    """Squares (Red Arse: holes) a piece at ``p`` still has to cover, by the plain way round;
    from the start, the whole way."""
    if rules.name != "red-arse":
        home = _ends(rules)[0]
        return home - max(p, -1)
    board, track = rules.board, rules.track
    owner = board.home_owner(p)
    if owner is not None:
        return 0 if owner[0] == color else track
    entry = board.home_entry(color)
    if p < 0:
        p = board.start(color) - 1
    elif p == board.center:  # out through a corner: the nearest to home
        return 1 + min((entry - q) % track for q in range(track) if board.is_inside_corner(q))
    return (entry - p) % track + 1


def _safe(rules, color: int, p: int) -> bool:
    """Whether nothing can eat a piece there: a safe square, or its home row."""
    if rules.name == "red-arse":
        return False
    last = _ends(rules)[1]
    if p > last:
        return True
    cell = rules.board.cell(color, p)
    return cell in rules.board.safe
