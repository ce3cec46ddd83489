"""Link previews: what a messaging app shows of a game's link before anyone opens it.

Messaging apps fetch a link's page without running JavaScript (WhatsApp, iMessage, Telegram,
Signal, Slack, Facebook's and X's card fetchers) and show its Open Graph and Twitter card tags:
a title, a line of description and an image. For a game's link (and a room's address) this
module makes them:

- ``words(...)``: the title ("Ben, your turn · Parcheesi", "Game over: Ana won · Ludo"), the
  description (who plays a new game; later what the others did since the player to move's
  last turn, "Ana moved. You rolled 6.") and the image's alt text, in the table's language;
- ``render(game)``: the image, a 1200x630 PNG of the board as the link leaves it, drawn with
  Pillow from the same geometry the page draws (``app/web/layout.py``, ``static/js/board.js``):
  every piece in place, the last move's path marked, the seats in turn order down the left
  (the one to move large, and the frame in their color) and the last roll's dice on the right.
  No words in it: names are hostile text, and the tags carry them;
- ``generic_png()``: the image for a link that can't be read (and for every other page);
- ``fetched_for_preview()``: whether a fetcher asks for the page (it gets the preview alone);
- ``page_asked()``: a page, not the API: a link that leads nowhere is answered 200 with the
  generic preview and a page that says why, to every agent alike.

Nothing private goes into a preview: no phone number (nor whether a player gets WhatsApp), no
dice secret, and no turn in progress (a turn's steps live in the ``#s=`` fragment, which never
reaches the server). The image's address is the link's own with ``/preview.png`` after it (a
room's, its code's: preview_images.py answers them), so it tells nothing the link doesn't.

Why Pillow, and what it costs: docs/previews.md.
"""

from __future__ import annotations

import io
import math
import re
from collections import deque
from functools import cache

from flask import request

from app import i18n
from app.engine.games import TITLES
from app.engine.text import N_, Text
from app.wording import listed
from app.web.layout import board_layout

WIDTH, HEIGHT = 1200, 630   # what the big apps show whole (1.91:1) and crop well
SUPERSAMPLE = 2             # drawn at twice the size and halved: smooth edges (Pillow draws none)
BOARD = 600                 # the board's square, in the middle: a square crop keeps it whole
PANEL = (WIDTH - BOARD) // 2
FRAME = 12                  # the band around the image, in the color of the seat to move
RENDER_VERSION = "1"        # change it when the drawing changes: the ETag and caches follow

# The page's colors (static/css/app.css), with its opacities blended over what lies below; the
# boards' own by game, as the page's stylesheet has them (drawing, which the rules know nothing
# of).
INK, PAGE = "#1d1d1f", "#fafaf7"
FELT = {"ludo": "#fbf7ee"}
FELT_DEFAULT = "#f3ead7"
SQUARE, SQUARE_LINE = "#fffdf8", "#b9ad94"
ENTRY = {"yellow": "#f4d35e", "blue": "#8fb3ee", "red": "#ec8f86", "green": "#8fd0a3",
         "purple": "#b99bd8", "orange": "#f5b57c"}
STAR, STAR_LINE = "#f6d25a", "#9a7b1c"
OUTLINE = {"ludo": ("#fffdf8", "#b9ad94", .06), "red-arse": ("#e6d3ae", "#b49a6a", .08)}
HOME_MIX = {"ludo": .8}  # how much of its color a home column's square takes (else .55)
HOLE, HOLE_LINE = "#5a4a32", "#3d3122"
CORNER, CORNER_LINE = "#cdb58a", "#8c7447"
PIECE_LINE = "#222222"
PIECE_R = 0.36
# Where the second, third... piece on a spot goes (board.js's STACK).
STACK = ((0.2, 0.2), (0.2, -0.2), (-0.2, 0.2), (0.0, 0.0))

# User-Agent words of the link preview fetchers: they get a preview of a broken link, not an
# error page (several show nothing for an error status). iMessage sends facebookexternalhit and
# Twitterbot; Signal sends WhatsApp's.
FETCHERS = re.compile(
    r"facebookexternalhit|Facebot|Twitterbot|WhatsApp|TelegramBot|Slackbot|Slack-ImgProxy|"
    r"Discordbot|LinkedInBot|SkypeUriPreview|MicrosoftPreview|Iframely|Embedly|redditbot|"
    r"Pinterest|vkShare|Viber|Mastodon|Google-PageRenderer", re.I)


def fetcher() -> bool:
    """Whether the request comes from a link preview fetcher (its User-Agent)."""
    return bool(FETCHERS.search(request.headers.get("User-Agent", "")))


def page_asked() -> bool:
    """A page asked for, not the API: a link that can't be read (or a room that isn't there)
    is answered 200, with Boardpass's own preview (the error page carries it) and a page that
    says why, whoever asks: a chat app shows a link whose page answers an error's status as
    dead, or shows nothing, and a fetcher not on ``FETCHERS`` must get what a listed one gets.
    The API answers such a link with its 4xx."""
    return request.method in ("GET", "HEAD") and not request.path.startswith("/api/")


def fetched_for_preview() -> bool:
    """A page a link preview fetcher asks for: it gets the preview, and the page's script
    (which it never runs) no game to read."""
    return page_asked() and fetcher()


# -- the words -----------------------------------------------------------------------------------

OG_LOCALES = {"en": "en_US", "es": "es_AR"}


class Watch:
    """Keeps the pieces after each of the last steps of a replay (``Game.from_token``'s
    ``watch``): what the description needs to say what the turns since the player to move's
    last one did."""

    KEEP = 256  # steps: far more than a round of turns takes

    def __init__(self):
        self.after = deque(maxlen=self.KEEP)

    def __call__(self, match):
        self.after.append((len(match.steps) - 1, [list(p) for p in match.state.pos]))

    def pieces_before(self, step: int, start: list) -> list | None:
        """The pieces before step ``step`` (``start``: before the first), if still kept."""
        if step == 0:
            return start
        for index, pieces in self.after:
            if index == step - 1:
                return pieces
        return None


def words(game, lang: str, watch: Watch | None = None, room: str | None = None) -> dict:
    """The preview's title, description and image alt text, in ``lang``.

    A link's title says what it asks of whom ("Ben, your turn · Parcheesi"); a room's names the
    room ("Parcheesi live · room K7P2QX"). The description is what the player to move wants to
    know (``_news``): who plays a new game, or what happened since their last turn, then the
    dice already rolled for them; for a room, first whose turn it is."""
    header, state = game.header, game.state
    title = TITLES[header.game]
    seats = header.seats
    over = game.over
    who = seats[state.winner if over else state.turn].name
    if room:
        head = Text("%(game)s live · room %(code)s", game=title, code=room)
        heading = Text("Game over: %(who)s won · %(game)s", who=who, game=head) if over else head
    elif over:
        heading = Text("Game over: %(who)s won · %(game)s", who=who, game=title)
    else:
        heading = Text("%(who)s, your turn · %(game)s", who=who, game=title)
    said = _news(game, watch, by_name=bool(room))
    if room and not over:
        said = [Text("It's %(who)s's turn.", who=who)] + said
    alt = Text("The %(game)s board at the end: %(who)s won", game=title, who=who) if over else \
        Text("The %(game)s board: %(who)s to play", game=title, who=who)
    return {"title": i18n.translate(heading, lang),
            "description": " ".join(_sentence(i18n.translate(s, lang)) for s in _unique(said)),
            "alt": i18n.translate(alt, lang), "locale": OG_LOCALES.get(lang, "en_US")}


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def _turns(history: list) -> list[tuple[int, int, int]]:
    """The history as turns: (seat, first step, end), each a seat's steps in a row (a bonus
    roll, a double or a re-roll claimed keeps the turn)."""
    turns: list[tuple[int, int, int]] = []
    for step, (_, seat, _) in enumerate(history):
        if turns and turns[-1][0] == seat:
            turns[-1] = (seat, turns[-1][1], step + 1)
        else:
            turns.append((seat, step, step + 1))
    return turns


def _news(game, watch: Watch | None, by_name: bool = False) -> list:
    """What the player to move wants to know, as sentences to translate.

    A new game (no person has chosen anything yet: the turns that played themselves are no
    news) names its players. Later, what the others did since this player's last turn: the
    pieces each sent back or brought home, else that they moved, or had no move. A finished
    game says what the winning turn did. Then the dice rolled for the player to move ("You
    rolled 6."; ``by_name``, for a room that everyone reads: "Ben rolled 6")."""
    history, seats = game.match.history, game.header.seats
    turns = _turns(history)
    own = None
    if game.over:
        told = turns[-1:]
    else:
        if turns and turns[-1][0] == game.state.turn:
            own = turns.pop()  # what was played for them already: their roll
        last = max((k for k, turn in enumerate(turns) if turn[0] == game.state.turn), default=-1)
        told = turns[last + 1:]
    if not game.over and not game.people_played():
        names = ", ".join(seat.name for seat in seats)
        said = [Text("A new game of %(game)s: %(players)s.", game=TITLES[game.header.game],
                     players=names)]
    else:
        said, notable, moved, stuck = [], set(), [], []
        for seat, start, end in told:
            events = _events(game, watch, seat, start, end)
            said += events
            if events:
                notable.add(seat)
            (moved if any(kind == "move" for kind, _, _ in history[start:end])
             else stuck).append(seat)
        moved = [s for s in dict.fromkeys(moved) if s not in notable]
        stuck = [s for s in dict.fromkeys(stuck) if s not in notable and s not in moved]
        if len(moved) == 1:
            said.append(Text("%(who)s moved.", who=seats[moved[0]].name))
        elif moved:
            # TRANSLATORS: several players moved ("Ana, Ben and Cy moved.").
            said.append(Text("%(names)s moved.", names=listed([seats[s].name for s in moved])))
        if stuck:
            said.append(Text("%(names)s had no move.",
                             names=listed([seats[s].name for s in stuck])))
    if own is not None:
        said += _events(game, watch, *own) + _rolled(game, own, by_name)
    return said or [Text("It's %(who)s's turn.", who=seats[game.state.turn].name)]


def _events(game, watch: Watch | None, seat: int, start: int, end: int) -> list:
    """The pieces ``seat``'s turn (steps ``start`` to ``end``) sent back and brought home, as
    sentences; a capture is seen only while ``watch`` keeps the pieces before and after it."""
    history, seats = game.match.history, game.header.seats
    who, color, words = seats[seat].name, seats[seat].color, game.rules.words
    said, sent_back = [], set()
    start_pieces = [[-1] * game.rules.pieces for _ in seats]
    for i in range(start, end):
        kind, _, what = history[i]
        if kind != "move":
            continue
        before = watch.pieces_before(i, start_pieces) if watch else None
        after = watch.pieces_before(i + 1, start_pieces) if watch else None
        if before is not None and after is not None:
            for other, (was, now) in enumerate(zip(before, after)):
                if other != seat and now.count(-1) > was.count(-1) and other not in sent_back:
                    sent_back.add(other)
                    said.append(Text(words.sent_back, who=who, whom=seats[other].name))
        if game.rules.finished(color, what.dst) and not game.rules.finished(color, what.src):
            said.append(Text(words.brought_home, who=who))
    return said


def _rolled(game, turn: tuple[int, int, int], by_name: bool) -> list:
    """The last roll of the turn in progress: "You rolled 6 and 2." (or, ``by_name``,
    "Ben rolled 6 and 2")."""
    seat, start, end = turn
    rolls = [what for kind, _, what in game.match.history[start:end] if kind == "roll"]
    if not rolls:
        return []
    dice = [str(n) for n in rolls[-1]]
    if not by_name:
        return [Text("You rolled %(dice)s.", dice=listed(dice))]
    who = game.header.seats[seat].name
    if len(dice) == 2:
        return [Text("%(who)s rolled %(a)s and %(b)s", who=who, a=dice[0], b=dice[1])]
    return [Text("%(who)s rolled %(dice)s", who=who, dice=", ".join(dice))]


def _unique(said: list) -> list:
    seen, kept = set(), []
    for text in said:
        key = (text.msgid, tuple(sorted(text.args.items())))
        if key not in seen:
            seen.add(key)
            kept.append(text)
    return kept


def generic_words(lang: str) -> dict:
    """The preview of a link that can't be read, and of every other page."""
    return {"title": "Boardpass",
            "description": i18n.translate(N_("Parcheesi, Ludo and Red Arse with friends: each "
                                             "turn goes on by link."), lang),
            "alt": i18n.translate(N_("Game board"), lang),
            "locale": OG_LOCALES.get(lang, "en_US")}


# -- the image -----------------------------------------------------------------------------------

def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _mix(color: str, under: str, keep: float) -> tuple[int, int, int]:
    """``color`` at opacity ``keep`` over ``under``."""
    top, bottom = _rgb(color), _rgb(under)
    return tuple(round(t * keep + b * (1 - keep)) for t, b in zip(top, bottom))


class Frame:
    """Board units to the image's pixels (at ``scale`` times the final size): the layout's
    view fitted in the middle square."""

    def __init__(self, view: list[float], scale: int = 1):
        vx, vy, vw, vh = view
        self.unit = BOARD / max(vw, vh) * scale
        self.x0 = (PANEL + (BOARD - vw * BOARD / max(vw, vh)) / 2) * scale - vx * self.unit
        self.y0 = ((HEIGHT - BOARD) / 2 + (BOARD - vh * BOARD / max(vw, vh)) / 2) * scale \
            - vy * self.unit

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return self.x0 + x * self.unit, self.y0 + y * self.unit


def spot(layout: dict, c: int, p: int, piece: int = 0) -> list[float]:
    """Where a piece of color ``c`` at progress ``p`` stands (board.js's ``spot``)."""
    color = layout["colors"][c]
    if p < 0:
        return color["base"][piece]
    if layout["places"]:
        return layout["places"][p]
    home = layout["home_progress"]
    if p >= home:
        hx, hy = color["home"]
        return [hx + (piece % 2) * 0.5 - 0.25, hy + (piece // 2) * 0.5 - 0.25]
    return color["path"][p]


def _shared(layout: dict, p: int) -> bool:
    home = layout["home_progress"]
    return p >= 0 and (home is None or p < home)


def placements(layout: dict, pieces: list[list[int]], colors: list[int]) -> list[dict]:
    """Every piece's centre (board units) and color, in drawing order, stacked as board.js's
    ``place`` stacks pieces sharing a spot."""
    def count_at(x, y):
        return sum(1 for s, plist in enumerate(pieces) for k, p in enumerate(plist)
                   if _shared(layout, p) and spot(layout, colors[s], p, k) == [x, y])

    stacks, placed = {}, []
    for s, plist in enumerate(pieces):
        for k, p in enumerate(plist):
            x, y = spot(layout, colors[s], p, k)
            if _shared(layout, p):
                key = (x, y)
                n = stacks.get(key, 0)
                stacks[key] = n + 1
                if n:
                    dx, dy = STACK[(n - 1) % len(STACK)]
                    x, y = x + dx, y + dy
                elif count_at(x, y) > 1:
                    x, y = x - 0.2, y - 0.2
            placed.append({"seat": s, "piece": k, "progress": p, "x": x, "y": y,
                           "fill": layout["colors"][colors[s]]["fill"]})
    return placed


def _star(x: float, y: float, outer: float, inner: float) -> list[tuple[float, float]]:
    return [(x + (inner if i % 2 else outer) * math.cos(-math.pi / 2 + i * math.pi / 5),
             y + (inner if i % 2 else outer) * math.sin(-math.pi / 2 + i * math.pi / 5))
            for i in range(10)]


class _Canvas:
    """Pillow's drawing in board units, through a ``Frame``."""

    def __init__(self, draw, frame: Frame):
        self.draw, self.frame = draw, frame

    def width(self, units: float) -> int:
        return max(1, round(units * self.frame.unit))

    def circle(self, x, y, r, fill=None, line=None, width=0.0):
        cx, cy = self.frame(x, y)
        rr = r * self.frame.unit
        self.draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=fill,
                          outline=line, width=self.width(width) if line else 0)

    def polygon(self, points, fill=None, line=None, width=0.0):
        xy = [self.frame(x, y) for x, y in points]
        self.draw.polygon(xy, fill=fill, outline=line, width=self.width(width) if line else 0)

    def rounded(self, x, y, w, h, r, fill=None, line=None, width=0.0):
        x0, y0 = self.frame(x - w / 2, y - h / 2)
        x1, y1 = self.frame(x + w / 2, y + h / 2)
        self.draw.rounded_rectangle((x0, y0, x1, y1), r * self.frame.unit, fill=fill,
                                    outline=line, width=self.width(width) if line else 0)


def _square(x, y, angle, size=0.9):
    half = size / 2
    corners = ((-half, -half), (half, -half), (half, half), (-half, half))
    if not angle:
        return [(x + dx, y + dy) for dx, dy in corners]
    a = math.radians(angle)
    cos, sin = math.cos(a), math.sin(a)
    return [(x + dx * cos - dy * sin, y + dx * sin + dy * cos) for dx, dy in corners]


def _draw_board(canvas: _Canvas, layout: dict) -> None:
    """The board as board.js's ``drawBoard`` draws it."""
    game = layout["game"]
    felt = FELT.get(game, FELT_DEFAULT)
    vx, vy, vw, vh = layout["view"]
    canvas.polygon([(vx, vy), (vx + vw, vy), (vx + vw, vy + vh), (vx, vy + vh)], fill=felt)
    under = felt
    if layout["outline"]:
        fill, line, width = OUTLINE[game]
        canvas.polygon(layout["outline"], fill=fill, line=line, width=width)
        under = fill
    fills = {c["name"]: c for c in layout["colors"]}
    for cell in layout["cells"]:
        x, y, kind, shape = cell["x"], cell["y"], cell["kind"], cell["shape"]
        color = fills.get(cell.get("color")) or {"fill": INK, "tint": PAGE}
        if shape == "panel":
            if kind == "nest":
                canvas.rounded(x, y, cell["w"], cell["h"], 0.6,
                               fill=_mix(color["fill"], under, .35))
            else:  # Ludo's yard
                canvas.rounded(x, y, cell["w"], cell["h"], 0.6,
                               fill=_mix(color["fill"], under, .85), line=HOLE_LINE, width=.05)
        elif shape == "disc":
            if kind == "yardspot":
                canvas.circle(x, y, cell["r"], fill=SQUARE, line=HOLE_LINE, width=.04)
            elif kind == "yard":
                canvas.circle(x, y, cell["r"], fill=_mix(color["fill"], under, .85),
                              line=HOLE_LINE, width=.05)
            elif kind == "basearea":
                canvas.circle(x, y, cell["r"], fill=_mix(color["fill"], under, .22))
            else:  # Parcheesi's Home spot
                canvas.circle(x, y, cell["r"], fill=color["fill"])
        elif shape == "polygon":
            canvas.polygon(cell["points"], fill=color["fill"], line=HOLE_LINE, width=.04)
        elif shape == "square":
            points = _square(x, y, cell.get("angle"))
            if kind == "home":
                canvas.polygon(points, fill=_mix(color["fill"], under, HOME_MIX.get(game, .55)))
            else:
                fill = ENTRY.get(cell.get("color"), SQUARE) if kind == "entry" else SQUARE
                canvas.polygon(points, fill=fill, line=SQUARE_LINE, width=.04)
            if cell.get("star"):
                canvas.polygon(_star(x, y, .4, .17), fill=STAR, line=STAR_LINE, width=.04)
            elif cell.get("safe"):
                canvas.circle(x, y, .32, line="#7a6a4a", width=.06)
        elif kind == "inside":
            canvas.polygon(_star(x, y, .56, .26), fill=STAR, line=STAR_LINE, width=.04)
            canvas.circle(x, y, .24, fill=HOLE, line=HOLE_LINE, width=.05)
        elif kind in ("outside", "start"):
            canvas.polygon([(x, y - .5), (x + .5, y), (x, y + .5), (x - .5, y)], fill=CORNER,
                           line=CORNER_LINE, width=.04)
            if kind == "start":
                canvas.circle(x, y, .45, line=color["fill"], width=.1)
            canvas.circle(x, y, .24 if kind == "start" else .28, fill=HOLE, line=HOLE_LINE,
                          width=.05)
        elif kind == "center":
            canvas.circle(x, y, .42, fill=HOLE_LINE, line="#fff8e6", width=.08)
        elif kind in ("home", "base"):
            canvas.circle(x, y, .28, fill=color["tint"], line=color["fill"], width=.09)
        elif kind == "entry":
            canvas.circle(x, y, .28, fill=HOLE, line=color["fill"], width=.11)
        else:
            canvas.circle(x, y, .28, fill=HOLE, line=HOLE_LINE, width=.05)


def _draw_last_move(canvas: _Canvas, layout: dict, game, colors: list[int]) -> None:
    """The last move's path: a dark line with a light edge, under the pieces, ending in an
    arrowhead short of where it landed, and a ring in the mover's color around the landing."""
    from app.web.views import path_of

    last = next(((seat, what) for kind, seat, what in reversed(game.match.history)
                 if kind == "move"), None)
    if last is None:
        return
    seat, move = last
    c = colors[seat]
    points = [spot(layout, c, p, move.piece) for p in path_of(game.rules, c, move)]
    points = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    if len(points) < 2:
        return
    end = points[-1]
    # Stop the line a piece's radius short of the landing, where the arrowhead points in.
    (px, py), (ex, ey) = points[-2], end
    length = math.hypot(ex - px, ey - py) or 1
    ux, uy = (ex - px) / length, (ey - py) / length
    tip = (ex - ux * (PIECE_R + .08), ey - uy * (PIECE_R + .08))
    line = [canvas.frame(x, y) for x, y in points[:-1] + [list(tip)]]
    for color, width in (("#ffffff", .30), (INK, .16)):
        canvas.draw.line(line, fill=color, width=canvas.width(width), joint="curve")
    head = [(tip[0] + ux * .02, tip[1] + uy * .02),
            (tip[0] - ux * .38 - uy * .24, tip[1] - uy * .38 + ux * .24),
            (tip[0] - ux * .38 + uy * .24, tip[1] - uy * .38 - ux * .24)]
    canvas.polygon(head, fill=INK, line="#ffffff", width=.05)
    canvas.circle(end[0], end[1], PIECE_R + .2, line=layout["colors"][c]["fill"], width=.12)


def _draw_pieces(canvas: _Canvas, placed: list[dict]) -> None:
    for piece in placed:
        canvas.circle(piece["x"], piece["y"], PIECE_R, fill=piece["fill"], line=PIECE_LINE,
                      width=.08)


def _draw_seats(draw, layout: dict, game, colors: list[int], scale: int) -> None:
    """Down the left: each seat's color in turn order, the one to move (or the winner) large
    and ringed, with a gold star when the game is over; seats out of the game faded."""
    seats, state = game.header.seats, game.state
    now = state.winner if game.over else state.turn
    out = set(game.rules.out(state))
    n = len(seats)
    gap = min(92, (HEIGHT - 2 * FRAME - 60) / max(n, 1))
    top = HEIGHT / 2 - gap * (n - 1) / 2
    cx = PANEL / 2
    for s in range(n):
        fill = layout["colors"][colors[s]]["fill"]
        cy = top + s * gap
        r = 22 if s != now else min(38, gap / 2 - 4)
        if s in out:
            fill = "#%02x%02x%02x" % _mix(fill, PAGE, .3)
        if s == now:
            ring = r + 9
            draw.ellipse(_box(cx, cy, ring, scale), outline=fill, width=5 * scale)
        draw.ellipse(_box(cx, cy, r, scale), fill=fill, outline=PIECE_LINE, width=3 * scale)
        if s == now and game.over:
            points = _star(cx, cy, r * .62, r * .26)
            draw.polygon([(x * scale, y * scale) for x, y in points], fill=STAR,
                         outline=STAR_LINE, width=2 * scale)
    if now is not None and not game.over:  # a pointer at the seat to move
        cy = top + now * gap
        r = min(38, gap / 2 - 4) + 20
        tip = cx + r
        draw.polygon([((tip + 26) * scale, (cy - 16) * scale), (tip * scale, cy * scale),
                      ((tip + 26) * scale, (cy + 16) * scale)], fill=INK)


PIPS = {1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
        4: ((-1, -1), (1, -1), (-1, 1), (1, 1)), 5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
        6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1))}


def _draw_dice(draw, layout: dict, game, colors: list[int], scale: int) -> None:
    """On the right: the last roll's dice, edged in the roller's color."""
    last = next(((seat, what) for kind, seat, what in reversed(game.match.history)
                 if kind == "roll"), None)
    if last is None:
        return
    seat, dice = last
    edge = layout["colors"][colors[seat]]["fill"]
    size, gap = 104, 28
    cx = WIDTH - PANEL / 2
    top = HEIGHT / 2 - (len(dice) * size + (len(dice) - 1) * gap) / 2
    for i, value in enumerate(dice):
        y0 = top + i * (size + gap)
        box = (cx - size / 2, y0, cx + size / 2, y0 + size)
        draw.rounded_rectangle([v * scale for v in box], 18 * scale, fill="#ffffff",
                               outline=edge, width=7 * scale)
        for dx, dy in PIPS.get(value, ()):
            draw.ellipse(_box(cx + dx * 26, y0 + size / 2 + dy * 26, 9.5, scale), fill=INK)


def _box(cx: float, cy: float, r: float, scale: int) -> tuple[float, float, float, float]:
    return ((cx - r) * scale, (cy - r) * scale, (cx + r) * scale, (cy + r) * scale)


def pieces_of(game) -> list[list[int]]:
    """The pieces on the board (a disqualified Ludo seat's are off it: views.game_view)."""
    out = game.rules.out(game.state)
    return [[] if i in out else list(p) for i, p in enumerate(game.state.pos)]


def render(game, scale: int = SUPERSAMPLE) -> bytes:
    """The preview image of ``game`` as its link leaves it: a 1200x630 PNG."""
    layout = board_layout(game.header.game, game.header.options)
    colors = [s.color for s in game.header.seats]
    mover = game.state.winner if game.over else game.state.turn
    band = layout["colors"][colors[mover]]["fill"] if mover is not None else INK
    return _image(layout, lambda canvas, draw: (
        _draw_last_move(canvas, layout, game, colors),
        _draw_pieces(canvas, placements(layout, pieces_of(game), colors)),
        _draw_seats(draw, layout, game, colors, scale),
        _draw_dice(draw, layout, game, colors, scale)), band, scale)


def _image(layout: dict, extra, band: str, scale: int) -> bytes:
    from PIL import Image, ImageDraw  # imported by the first preview: cold starts skip it

    image = Image.new("RGB", (WIDTH * scale, HEIGHT * scale), band)
    draw = ImageDraw.Draw(image)
    f = FRAME * scale
    draw.rectangle((f, f, (WIDTH * scale) - f - 1, (HEIGHT * scale) - f - 1), fill=PAGE)
    canvas = _Canvas(draw, Frame(layout["view"], scale))
    _draw_board(canvas, layout)
    extra(canvas, draw)
    if scale > 1:
        image = image.reduce(scale)
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=6)
    return out.getvalue()


@cache
def generic_png() -> bytes:
    """The image of a link that can't be read: a Parcheesi board, set for a game, framed in
    the page's blue."""
    layout = board_layout("parcheesi")
    colors = list(range(len(layout["colors"])))
    pieces = [[-1] * 4 for _ in colors]
    return _image(layout, lambda canvas, draw: _draw_pieces(
        canvas, placements(layout, pieces, colors)), "#0b6bcb", SUPERSAMPLE)


def tags(words_: dict, url: str, image: str) -> dict:
    """What the page's head says to preview fetchers (base.html)."""
    return dict(words_, url=url, image=image, width=WIDTH, height=HEIGHT)
