"""Board geometry as data: square numbers, entries, safe squares, home paths.

Each game's rules read their board from here, so a rule set is its tables plus the few rules that
really differ. Diagrams: ``docs/rules/parcheesi.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .text import N_


@dataclass(frozen=True)
class RaceBoard:
    """A loop track with one entry per color and a private home path leading to Home.

    Squares are numbered 1..track; a piece's *progress* counts from its own entry (0) to the last
    track square (``last``), then up the home path to Home. Cells number every square a piece can
    stand on: the track squares 1..track, then each color's home path in turn; 0 means "no cell"
    (the nest or Home).
    """

    track: int
    entries: tuple[int, ...]
    safe: frozenset[int]
    last: int  # progress of the last track square before the home path
    home_path: int
    colors: str  # one letter per color, for notation
    color_names: tuple[str, ...]

    @property
    def home(self) -> int:
        """Progress of Home."""
        return self.last + self.home_path + 1

    @property
    def cells(self) -> int:
        return self.track + 1 + self.home_path * len(self.entries)

    def cell(self, color: int, progress: int) -> int:
        """The cell a piece of ``color`` stands on at ``progress`` (0 for nest or Home)."""
        if progress < 0 or progress >= self.home:
            return 0
        if progress <= self.last:
            return (self.entries[color] - 1 + progress) % self.track + 1
        return self.track + 1 + self.home_path * color + (progress - self.last - 1)

    def progress(self, color: int, square: int) -> int:
        """Progress of a ``color`` piece on track ``square``; raises if that color can't be there."""
        progress = (square - self.entries[color]) % self.track
        if progress > self.last:
            raise ValueError(f"a {self.colors[color]} piece never stands on square {square}")
        return progress

    # Notation: a piece is "n" before it starts, its track square's number, "hK" on space K of
    # its home path, or ``end`` (Parcheesi's "H", Ludo's "G") at the end of it.

    def square_text(self, color: int, progress: int, end: str) -> str:
        if progress < 0:
            return "n"
        if progress == self.home:
            return end
        if progress > self.last:
            return f"h{progress - self.last}"
        return str(self.cell(color, progress))

    def progress_of(self, color: int, text: str, end: str) -> int:
        """The progress ``square_text`` wrote; ``ValueError`` for a place that isn't one."""
        if text == "n":
            return -1
        if text == end:
            return self.home
        if text.startswith("h"):
            step = int(text[1:])
            if not 1 <= step <= self.home_path:
                raise ValueError(f"no home path space {text}")
            return self.last + step
        return self.progress(color, int(text))


# The standard Parcheesi board: 68 squares, entries 17 apart, each quarter with three safety spaces
# (the entry, 7 after it, and 12 after it, which is the next color's turn into its home path).
PARCHEESI = RaceBoard(
    track=68,
    entries=(5, 22, 39, 56),
    safe=frozenset({5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63, 68}),
    last=63,
    home_path=7,
    colors="YBRG",
    color_names=(N_("yellow"), N_("blue"), N_("red"), N_("green")),
)


# -- Red Arse -------------------------------------------------------------------------------------

# Offsets inside each seat's 14 holes, clockwise from its own inside corner (the star). The rule
# text forces this order (shared/rules/DECISIONS.md; diagram in docs/rules/red-arse.md).
RING_SEGMENT = 14
INSIDE_CORNER, HOME_ENTRY, START = 0, 7, 9
OUTSIDE_CORNERS = (5, 9)


@dataclass(frozen=True)
class RingBoard:
    """The marble board: one loop of holes, 14 per seat, a center hole and a home column of 4 per
    seat.

    Places (what a marble's position is): -1 its base; 0..track-1 the track holes, hole 0 being
    seat 0's inside corner and seat ``c``'s holes ``14c..14c+13``; ``track`` the center; then each
    seat's home column in turn, ``home(c, 0)`` (slot 1, next to the home entry) to ``home(c, 3)``
    (slot 4, the top).
    """

    seats: int
    colors: str
    color_names: tuple[str, ...]

    @property
    def track(self) -> int:
        return RING_SEGMENT * self.seats

    @property
    def center(self) -> int:
        return self.track

    @property
    def places(self) -> int:
        """Every place but the base: track, center, home columns."""
        return self.track + 1 + 4 * self.seats

    def home(self, color: int, slot: int) -> int:
        """The place of ``slot`` (0 = slot 1, next to the entry) of ``color``'s home column."""
        return self.track + 1 + 4 * color + slot

    def home_owner(self, place: int) -> tuple[int, int] | None:
        """``(color, slot)`` of a home-column place, None for any other place."""
        if place <= self.track:
            return None
        return divmod(place - self.track - 1, 4)

    def inside_corner(self, color: int) -> int:
        return RING_SEGMENT * color + INSIDE_CORNER

    def home_entry(self, color: int) -> int:
        return RING_SEGMENT * color + HOME_ENTRY

    def start(self, color: int) -> int:
        return RING_SEGMENT * color + START

    def is_inside_corner(self, place: int) -> bool:
        return 0 <= place < self.track and place % RING_SEGMENT == INSIDE_CORNER

    def is_outside_corner(self, place: int) -> bool:
        return 0 <= place < self.track and place % RING_SEGMENT in OUTSIDE_CORNERS


RED_ARSE_COLORS = (N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("purple"), N_("orange"))
RED_ARSE_4 = RingBoard(seats=4, colors="RBGY", color_names=RED_ARSE_COLORS[:4])
RED_ARSE_6 = RingBoard(seats=6, colors="RBGYPO", color_names=RED_ARSE_COLORS)


# -- Ludo (Argentine rules) -------------------------------------------------------------------------

def ludo_board(seats: int) -> RaceBoard:
    """The classic 52-square board (4 arms) or the six-arm 78-square one: 13 squares per arm.

    Squares are numbered 1..track from the first color's exit. Each color's exit is 13 squares
    after the previous one, its star 8 squares after its exit; a piece goes 51 squares (77 on the
    big board) from its exit to the square at its own arm's end, then up its home column of 5 to
    the goal. Diagram: ``docs/rules/ludo.md``.
    """
    track = 13 * seats
    exits = tuple(1 + 13 * c for c in range(seats))
    return RaceBoard(
        track=track,
        entries=exits,
        safe=frozenset(exits) | frozenset(e + 8 for e in exits),
        last=track - 2,
        home_path=5,
        colors="RBGYPO"[:seats],
        color_names=RED_ARSE_COLORS[:seats],
    )


LUDO_4 = ludo_board(4)
LUDO_6 = ludo_board(6)
