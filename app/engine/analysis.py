"""Chance to win and move review: the rest of the game played out by medium bots.

Pure like the rest of the engine: the playouts roll their own dice from a seed that comes from
the position (``position_seed``), never from the game's real dice, so the same position always
gets the same answer and the real future dice stay secret. Method and reasons for the choices:
``docs/analysis.md``.

**Chance to win** (``chances``): from the position, ``playouts`` games are played with every
seat a medium bot (``bots.medium``; re-rolls are always claimed), to the end or for
``CHANCE_ROUNDS`` rounds, whichever comes first; a seat's chance is its mean over those games
of 1 for a game it won (Ludo: the first seat to finish), and for a game stopped after its
rounds, its chance by the static evaluation there (``evaluation.chances``). A finished position
gives 1 to its winner and 0 to the rest.

**Dice.** Playout ``k`` gives every seat its own stream of dice (``random.Random`` seeded from the
seed, ``k`` and the seat), drawn a block per turn: a seat's ``j``-th turn rolls the same dice
whatever the others did and whether its earlier turns earned re-rolls, so two playouts that
differ in one move stay on the same dice as long as possible.

**Move review** (``review``): at a decision with more than one legal move, each option is played
(the rest of the turn, then the game, by medium bots) on the *same* playouts, ``k = 0..n-1``
(common random numbers). For option ``i`` and the best option ``b`` (the most wins), each
playout gives a paired difference ``d_k = win_k(b) - win_k(i)`` (-1, 0 or 1; ``win`` is the
mover's). Because both options meet the same dice, most luck cancels in ``d_k`` and its spread
is far smaller than that of either result alone. With ``d`` the mean of the ``d_k``, ``s`` their
standard deviation and ``n`` the playouts, the loss is graded on the cautious end of a one-sided
99% confidence bound (the stability check, two seeds grading alike, asked for that much
caution: see ``docs/analysis.md``)::

    loss = max(0, 100 * (d - Z * s / sqrt(n)))      Z = 2.33

in points of chance to win: under 3 is Good, 3 to under 10 a Misstep, 10 or more a Blunder. A
move is thus flagged only when even the favourable end of the estimate says it cost something.
A close call, an option whose interval between the cautious end and the estimate,
``[d - Z * s / sqrt(n), d]``, holds a grade boundary (3 or 10 points), so that more playouts
could change its grade, gets them: batches of ``REVIEW_BATCH`` for it and the best option, up
to ``extra`` more in all. Unless they would be futile: if, with the interval narrowed as far
as the whole budget would narrow it (and one standard error to spare), the cautious end would
still stay on its side of the boundary, the option keeps its grade now; but never while the
interval ``d ± Z * s / sqrt(n)`` reaches from Good to Blunder (graded Good now, another seed
could call the move a Blunder). (Options about as good as the best, whose interval straddles 0
only, need no more: they are Good either way.) The
best option is itself picked from the same playouts, which makes the others' losses look
slightly smaller, never larger: the cautious side again.

**Budget** (``BUDGET``): an answer's playouts play that many steps at most, whatever the
decision's width or the games' length; a count, not a clock, so the same position still always
gets the same answer. A review plays its options out in ``order`` (the move played first, then
medium's favourites), with fewer playouts each when games are long; options the budget doesn't
reach are not graded (``Option.graded``). Details in ``review``.

Luck is measured without playouts, by the static evaluation (``evaluation.roll_luck``).
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass, field
from typing import cast

from . import bots, evaluation
from .core import CLAIM, MOVE, OVER, ROLL
from .text import N_

# The answers' version: a stored answer (the store keeps each for good, keyed by the position
# and this) is asked again once the method or its settings change. Bump it with them.
VERSION = 4
PLAYOUTS = 300  # chance to win
# A chance to win's playouts stop after this many rounds (each seat's turn once) and take the
# static evaluation's word for the rest: as near the truth as 300 played to the end, in 55 to
# 80% of the time where games are long (docs/analysis.md, "Chance to win").
CHANCE_ROUNDS = {"parcheesi": 16, "red-arse": 24, "ludo": 24}
REVIEW_PLAYOUTS = 200  # each option of a reviewed decision, at first
REVIEW_EXTRA = 600  # at most this many more for a close call
REVIEW_BATCH = 200
Z = 2.33  # one-sided 99%
# The most steps (rolls, moves, claims) the playouts of one answer (a chance to win, a review)
# may play, whatever the game and the decision's width: 1 to 1.8 s on one core, compiled (a
# step costs 4 to 7 microseconds, Parcheesi's most), so about 3 s at most when the machine
# runs at half its speed (docs/analysis.md, "Budget"). A count, not a clock, so the same
# position always gets the same answer. 0: no bound.
BUDGET = 250_000
MIN_PLAYOUTS = 20  # the fewest playouts an option is graded from; also the review's pilot
COMPARED = 3  # options a review's budget always affords: the move played, medium's favourites

GOOD, MISSTEP, BLUNDER = "good", "misstep", "blunder"
GRADE_LABELS = {GOOD: N_("Good"), MISSTEP: N_("Misstep"), BLUNDER: N_("Blunder")}
MISSTEP_POINTS, BLUNDER_POINTS = 3.0, 10.0


def position_seed(rules, state, salt: str = "") -> int:
    """The playouts' seed for a position: its notation hashed, so equal positions get equal
    seeds and no two positions share one by design."""
    text = f"boardpass/analysis/{salt}/{rules.format(state)}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def winner(state) -> int | None:
    """The winning seat of a finished game (Ludo: the first placed, as soon as there is one),
    or None."""
    placed = getattr(state, "placed", None)
    if placed:
        return placed[0]
    return state.winner if state.phase == OVER else None


def chances(rules, state, playouts: int = PLAYOUTS, seed: int | None = None,
            budget: int = BUDGET, rounds: int | None = None) -> list[float]:
    """Each seat's chance to win (0..1, summing to 1): its share of ``playouts`` games played
    out from ``state`` by medium bots, each for ``rounds`` rounds at most (``CHANCE_ROUNDS``
    by default; 0: to the end) and then weighed by the static evaluation. Works at a roll, a
    decision and a claim. Fewer games when their steps reach ``budget`` first
    (``counted_chances`` says how many)."""
    return counted_chances(rules, state, playouts, seed, budget, rounds)[0]


def counted_chances(rules, state, playouts: int = PLAYOUTS, seed: int | None = None,
                    budget: int = BUDGET, rounds: int | None = None
                    ) -> tuple[list[float], int]:
    """``chances``, and the number of games it played out: ``playouts``, or fewer when their
    steps reached ``budget`` (no game starts once they have; 0: no bound), which games
    stopped after their rounds seldom do; games played to the end (``rounds=0``) can, from
    the start of a 6-player game."""
    seats = len(state.colors)
    won = winner(state)
    if won is not None:
        return [1.0 if s == won else 0.0 for s in range(seats)], 0
    seed = position_seed(rules, state) if seed is None else seed
    playing = seats - len(evaluation.idle_seats(state))
    turns = playing * (CHANCE_ROUNDS[rules.name] if rounds is None else rounds)
    wins = [0.0] * seats
    spent = [0]
    played = 0
    while played < playouts and not 0 < budget <= spent[0]:
        end = state.copy()
        won = play_out(rules, end, dice(seed, played, seats), None, spent, turns)
        if won < 0:  # stopped after its rounds: the evaluation says who wins from there
            for s, chance in enumerate(evaluation.chances(rules, end)):
                wins[s] += chance
        else:
            wins[won] += 1
        played += 1
    return [w / played for w in wins], played


def dice(seed: int, k: int, seats: int) -> list:
    """Playout ``k``'s dice: per seat, a source of uniform numbers in [0, 1), each giving one
    die (``int(u * 6) + 1``)."""
    base = (seed & (1 << 64) - 1) << 24 | k << 8
    return [random.Random(base | s).random for s in range(seats)]


TURN_DICE = 6  # dice drawn for each turn, whether it uses them or not
MEETING_TURNS = 12  # turn starts at which a review's playouts look for one another


def play_out(rules, state, dice: list, met: dict | None = None,
             spent: list[int] | None = None, turns: int = 0) -> int:
    """Play ``state`` (changed in place) to the end with medium bots and ``dice`` (``dice``'s
    sources, one per seat); the winning seat. ``spent[0]``, when given, grows by the steps
    played (rolls, moves and claims: the budget's unit). With ``turns``, stop at the start
    of the turn after that many and return -1 (``state`` is where it stopped); turns count
    from the first roll, so the rest of a turn under way at a move or a claim counts only if
    it rolls again.

    Each turn of a seat takes a block of ``TURN_DICE`` dice from its source, used or not (a
    longer turn draws more), so the seat's next turn meets the same dice whether this one
    earned a re-roll or not.

    ``met`` (the review's, one per playout number): where the playouts of other options on
    the same dice were at their first ``MEETING_TURNS`` turn starts, and who won them. A
    playout that comes to one of those (the same position, and each seat as many blocks into
    its dice) would play the very same game from there: it takes that winner and stops. Two
    options often meet within a turn or two (Parcheesi: the same two hops in either order).
    """
    roll, pick = rules.roll, bots.medium_move
    play = getattr(rules, "play_legal", rules.play)  # medium's moves are legal
    two = rules.dice_count == 2
    placed = hasattr(state, "placed")  # Ludo: the first to finish wins
    roller, block, next_die = -1, [], 0  # -1: no seat has rolled yet
    drawn = [0] * len(dice)  # blocks each seat has taken
    passed: list = []  # the turn starts to remember in ``met``
    steps = started = 0
    while True:
        phase = state.phase
        steps += 1
        if phase == ROLL:
            if state.turn != roller:
                started += 1
                if started > turns > 0:
                    _count(spent, steps - 1)
                    return -1
                roller, next_die = state.turn, 0
                if met is not None and len(passed) < MEETING_TURNS:
                    here = (state.key(), tuple(drawn))
                    known = met.get(here)
                    if known is not None:
                        _count(spent, steps - 1)
                        return _remember(met, passed, known)
                    passed.append(here)
                uniform = dice[roller]
                block = [int(uniform() * 6) + 1 for _ in range(TURN_DICE)]
                drawn[roller] += 1
            if next_die + 2 > len(block):
                block += [int(uniform() * 6) + 1 for _ in range(TURN_DICE)]
                drawn[roller] += 1
            if two:
                roll(state, (block[next_die], block[next_die + 1]))
                next_die += 2
            else:
                roll(state, (block[next_die],))
                next_die += 1
        elif phase == MOVE:
            play(state, pick(rules, state))
            if placed and state.placed:
                _count(spent, steps)
                return _remember(met, passed, state.placed[0])
        elif phase == CLAIM:
            rules.claim(state, True)
        else:
            _count(spent, steps - 1)
            return _remember(met, passed, cast(int, winner(state)))


def _count(spent: list[int] | None, steps: int) -> None:
    if spent is not None:
        spent[0] += steps


def _remember(met: dict | None, passed: list, won: int) -> int:
    """``play_out``'s end: the turn starts it passed lead to ``won``."""
    if met is not None:
        for here in passed:
            met[here] = won
    return won


# -- move review ---------------------------------------------------------------------------------

@dataclass
class Option:
    """One legal move of a reviewed decision.

    ``index``: its place in the canonical legal list; ``chance``: the mover's chance to win
    after it (0..1); ``loss``: points of chance to win given up against the best option, on the
    cautious end of the estimate (0 for the best); ``estimate``: the same, as measured (the
    middle of the interval); ``grade``: ``GOOD``, ``MISSTEP`` or ``BLUNDER``; ``missed``: what
    it missed against the best, as keys (``capture``, ``home``...: ``REASONS``) and ``reasons``
    the same in a player's words (translatable texts); ``playouts``: games played out for it.
    An option the budget left fewer than ``MIN_PLAYOUTS`` games for is not graded: its
    ``chance``, ``loss``, ``estimate`` and ``grade`` are None (``graded`` False).
    """

    index: int
    chance: float | None
    loss: float | None
    estimate: float | None
    grade: str | None
    best: bool
    playouts: int
    missed: tuple[str, ...] = ()
    reasons: list[str] = field(default_factory=list)

    @property
    def graded(self) -> bool:
        return self.grade is not None


def grade(loss: float) -> str:
    """The grade of a move that gives up ``loss`` points of chance to win."""
    return GOOD if loss < MISSTEP_POINTS else MISSTEP if loss < BLUNDER_POINTS else BLUNDER


def review(rules, state, seed: int | None = None, playouts: int = REVIEW_PLAYOUTS,
           extra: int = REVIEW_EXTRA, batch: int = REVIEW_BATCH, budget: int = BUDGET,
           first: int = -1) -> list[Option]:
    """Every legal move of the decision at ``state`` (a move point), in canonical order, played
    out and graded against the best (see the module's docstring for the statistics), within
    ``budget`` steps of playouts (0: no bound).

    The options are played out in ``order``: ``first`` (the move played, when given), then
    medium's favourites. When the steps reach the budget, no playout starts: the options
    reached so far are graded, the rest are not (``Option.graded``). So that ``COMPARED``
    options at least are graded however long the games, the playouts per option come down
    from ``playouts`` to what that many can afford (no fewer than ``MIN_PLAYOUTS``), judged on
    the first option's first ``MIN_PLAYOUTS`` games. Close calls get their extra playouts
    only from what is left.

    Raises ``ValueError`` when there is no choice to review."""
    return counted_review(rules, state, seed, playouts, extra, batch, budget, first)[0]


def counted_review(rules, state, seed: int | None = None, playouts: int = REVIEW_PLAYOUTS,
                   extra: int = REVIEW_EXTRA, batch: int = REVIEW_BATCH, budget: int = BUDGET,
                   first: int = -1) -> tuple[list[Option], int]:
    """``review``, and the steps its playouts took (the budget's unit)."""
    moves = rules.legal_moves(state)
    if state.phase != MOVE or len(moves) < 2:
        raise ValueError("no choice to review here")
    seed = position_seed(rules, state, "review") if seed is None else seed
    seat, seats = state.turn, len(state.colors)
    children = []
    for move in moves:
        child = state.copy()
        child.moves = moves
        rules.play(child, move)
        children.append(child)
    wins = [bytearray() for _ in moves]  # per option, 1 where the mover won playout k
    meetings: list[dict] = []  # per playout number: ``play_out``'s ``met``
    spent = [0]  # steps played out

    def run(option: int, upto: int) -> bool:
        """Play ``option`` out to ``upto`` games; False when the budget stopped it first."""
        won = wins[option]
        child = children[option]
        finished = winner(child)
        while len(meetings) < upto:
            meetings.append({})
        for k in range(len(won), upto):
            if 0 < budget <= spent[0]:
                return False
            if finished is None:
                won.append(play_out(rules, child.copy(), dice(seed, k, seats), meetings[k],
                                    spent) == seat)
            else:
                won.append(finished == seat)
        return True

    ordered = order(rules, state, moves, first)
    least = min(playouts, MIN_PLAYOUTS)  # the fewest games an option is graded from
    each = playouts
    if budget > 0:  # the first option's first games say what a game costs here
        run(ordered[0], least)
        per_game = max(1.0, spent[0] / len(wins[ordered[0]]))
        each = max(least, min(playouts, int(budget / per_game / min(COMPARED, len(moves)))))
    for option in ordered:
        if not run(option, each):
            break
    cap = playouts + extra
    # Graded: the options with their ``least`` games at least (the first always has one).
    rated = [i for i in sorted(ordered) if len(wins[i]) >= least or i == ordered[0]]
    going = True
    while going:
        best = _best(wins, rated)
        close = [i for i in rated
                 if i != best and len(wins[i]) < cap and _close(wins[best], wins[i], cap)]
        going = bool(close)
        for option in [best] + close if going else []:
            going = going and run(option, min(len(wins[option]) + batch, cap))
    best = _best(wins, rated)
    options = []
    for i, move in enumerate(moves):
        won = wins[i]
        if i in rated:
            options.append(_graded(rules, state, moves, wins, i, best))
        else:
            options.append(Option(i, None, None, None, None, False, len(won)))
    return options, spent[0]


def _graded(rules, state, moves: list, wins: list[bytearray], i: int, best: int) -> Option:
    """Option ``i`` graded against the ``best``."""
    if i == best:
        low = middle = 0.0
    else:
        middle, half = _difference(wins[best], wins[i])
        low = max(0.0, middle - half)
    won = wins[i]
    graded = Option(i, sum(won) / len(won), round(100 * low, 2),
                    round(100 * max(0.0, middle), 2), grade(100 * low), i == best, len(won))
    if graded.grade != GOOD:
        graded.missed = missed(rules, state, moves[i], moves[best])
        graded.reasons = reasons(rules, graded.missed)
    return graded


def order(rules, state, moves: list, first: int = -1) -> list[int]:
    """The order a review plays its options out in, so that a budget grades those that
    matter: ``first`` (the move played), then by medium's weighing of the position each move
    leaves, best first (equals: the canonical order)."""
    return sorted((i for _, i in bots._ranked(rules, state, moves)), key=lambda i: i != first)


def _best(wins: list[bytearray], rated: list[int]) -> int:
    """Of the ``rated`` options (in canonical order), the one with the highest share of wins
    (the first of equals)."""
    shares = [sum(wins[i]) / len(wins[i]) for i in rated]
    return rated[shares.index(max(shares))]


def _difference(best: bytearray, other: bytearray) -> tuple[float, float]:
    """Mean of the paired differences over the playouts both have, and the half-width
    ``Z * s / sqrt(n)`` of its interval."""
    n = min(len(best), len(other))
    total = squares = 0
    for k in range(n):
        d = best[k] - other[k]
        total += d
        squares += d * d
    mean = total / n
    variance = max(0.0, (squares - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    return mean, Z * math.sqrt(variance / n)


def _good_or_blunder(middle: float, half: float) -> bool:
    """Does the interval ``middle ± half`` (a share, as ``_difference`` gives it) reach from
    Good to Blunder? Graded on its cautious end the move would be Good, yet the playouts can't
    rule out a Blunder, which another seed could call it."""
    return grade(100 * max(0.0, middle - half)) == GOOD and grade(100 * (middle + half)) == BLUNDER


def _close(best: bytearray, other: bytearray, budget: int) -> bool:
    """Is ``other``'s grade a close call: would its grade differ were it graded on the
    estimate rather than on the cautious end (a grade boundary lies between the two), and
    could ``budget`` playouts change it? They narrow the interval by ``sqrt(n / budget)``:
    if even then (and a standard error to spare) the cautious end would stay on this side of
    the boundary, more playouts are futile. Never futile while the interval reaches from Good
    to Blunder (``middle ± half``): graded Good on so few playouts, another seed could call the
    same move a Blunder, and a player asking twice must never hear that."""
    middle, half = _difference(best, other)
    if _good_or_blunder(middle, half):
        return True
    low = grade(100 * max(0.0, middle - half))
    if low == grade(100 * max(0.0, middle)):
        return False
    narrowed = half * math.sqrt(min(len(best), len(other)) / budget)
    return grade(100 * max(0.0, middle - narrowed + narrowed / Z)) != low


# -- what a move missed ----------------------------------------------------------------------------

# Per game, what a worse move can miss against the best one, in a player's words: each reads
# after "Missed:" (what the best move does and this one doesn't).
REASONS = {
    "parcheesi": {
        "capture": N_("a capture (and its 20 bonus)"),
        "home": N_("getting a pawn Home (and its 10 bonus)"),
        "out": N_("bringing a pawn out of the nest"),
        "blockade": N_("a blockade"),
        "danger": N_("keeping its pawns out of a rival's reach"),
    },
    "red-arse": {
        "capture": N_("a kill"),
        "home": N_("getting a marble home"),
        "out": N_("bringing a marble out of the base"),
        "corner": N_("a re-roll corner"),
        "shortcut": N_("the back-past-start shortcut"),
        "center": N_("the center hole"),
        "danger": N_("keeping its marbles out of a rival's reach"),
    },
    "ludo": {
        "capture": N_("a capture"),
        "home": N_("getting a piece to the goal"),
        "out": N_("bringing a piece out"),
        "danger": N_("keeping its pieces out of a rival's reach"),
    },
}


def reasons(rules, missed: tuple[str, ...] | list[str]) -> list[str]:
    """What a move ``missed`` (keys of ``REASONS``) in a player's words."""
    return [REASONS[rules.name][key] for key in missed]


def missed(rules, state, move, best) -> tuple[str, ...]:
    """What ``move`` missed against ``best`` (both legal at ``state``): what the best does and
    it doesn't (a capture, getting home...), and ``danger`` when it leaves more of the mover's
    pieces within a rival's reach. Keys of ``REASONS``, in its order."""
    mine, theirs = features(rules, state, move), features(rules, state, best)
    keys = [key for key in REASONS[rules.name] if key in theirs and key not in mine
            and key != "danger"]
    if mine.get("danger", 0) > theirs.get("danger", 0):
        keys.append("danger")
    return tuple(keys)


def features(rules, state, move) -> dict[str, int]:
    """What a legal move does, as a player sees it: ``capture``, ``home`` (a piece reaches its
    end), ``out`` (a piece comes into play), ``blockade`` (Parcheesi: two pawns on one space),
    ``corner``, ``shortcut`` and ``center`` (Red Arse: a re-roll corner, the back-past-start
    shortcut, the center hole), each 1 when it does, and ``danger``: how many of the mover's
    pieces stand within a rival's reach afterwards."""
    seat = state.turn
    color = state.colors[seat]
    won, changes = rules.landing(state, move)
    done = {}
    if won is not None:
        done["home"] = 1
        return done
    if len(changes) > 1:
        done["capture"] = 1
    _, src, dst, values = move
    if src < 0:
        done["out"] = 1
    pieces = changes[0][1]
    if rules.name == "red-arse":
        board = rules.board
        homes = rules._homes[color]
        if dst in homes and src not in homes:
            done["home"] = 1
        if rules.corner_reroll and src >= 0 and board.is_outside_corner(dst):
            done["corner"] = 1
        if values[0] < 0 and dst == board.home_entry(color) and 0 <= src < board.track:
            done["shortcut"] = 1
        if dst == board.center:
            done["center"] = 1
    else:
        end = rules.home if rules.name == "parcheesi" else rules.goal
        if dst == end:
            done["home"] = 1
        elif rules.name == "parcheesi" and pieces.count(dst) == 2:
            done["blockade"] = 1
    pos = list(state.pos)
    for s, after in changes:
        pos[s] = after
    danger = bots.in_danger(rules, state.colors, pos, seat)
    if danger:
        done["danger"] = danger
    return done
