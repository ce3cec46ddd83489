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
from app.engine.red_arse import BACK
from app.engine.text import N_, Text
from app.i18n import translate

# A color as a seat's name ("eats Blue"), and as said beside a player's name ("Ana (blue)").
COLORS = {"red": N_("Red"), "blue": N_("Blue"), "green": N_("Green"), "yellow": N_("Yellow"),
          "purple": N_("Purple"), "orange": N_("Orange")}
COLOR_WORDS = {"red": N_("red"), "blue": N_("blue"), "green": N_("green"),
               "yellow": N_("yellow"), "purple": N_("purple"), "orange": N_("orange")}


def move_name(game, move, lang: str) -> str:
    """What the legal ``move`` of the seat to move does, for its control, in ``lang``: the
    piece, from where to where with which dice (a bonus named as one), and whom it eats."""
    rules, state = game.rules, game.match.state
    seat = state.turn
    color = state.colors[seat]
    words = rules.words
    places = {"n": move.piece + 1, "dst": rules.place_words(color, move.dst)}
    bonus = [v for v in move.values if v > 6]
    if bonus:
        text = Text(words.bonus, bonus=bonus[0], src=rules.place_words(color, move.src),
                    **places)
    else:
        places["dice"] = _dice(move.values)
        if move.src < 0:
            text = Text(words.enter, **places)
        else:
            text = Text(words.move, src=rules.place_words(color, move.src), **places)
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
    out = set(rules.out(state))
    playing = [s for s in range(len(seats)) if s not in out and state.pos[s]]
    togo = {s: sum(rules.to_go(state.colors[s], p) for p in state.pos[s]) for s in playing}
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
    words, color, pos = rules.words, state.colors[seat], state.pos[seat]
    parts = []
    started = pos.count(-1)
    if started:
        parts.append(Text(words.at_start, n=started))
    for k, p in enumerate(pos):
        if p < 0 or rules.finished(color, p):
            continue
        part = Text("%(piece)s, %(n)s to go", n=rules.to_go(color, p),
                    piece=rules.piece_at(color, k, p))
        if rules.sheltered(color, p):
            part = Text("%(piece)s, safe", piece=part)
        parts.append(part)
    done = sum(1 for p in pos if p >= 0 and rules.finished(color, p))
    if done:
        parts.append(Text(words.finished, n=done))
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
