"""``python -m app analysis-bench``: the speed of the chance to win and of the move review, from
the middle of medium bot games, and (``--widest``) on the widest decisions of random games."""

from __future__ import annotations

import random
import statistics
import time

from app.engine import analysis
from app.engine.core import MOVE
from app.engine.games import rules_for
from workbench.games import bot_game, middle_roll, play_out, table_options


def analysis_bench(game: str, players: int, games: int = 5) -> dict:
    """CPU seconds for the chance to win (300 playouts) from the middle of ``games`` medium
    games, and for the review of a decision of two to four options near the middle."""

    rules = rules_for(game, table_options(game, players))
    chance, review, options = [], [], []
    for number in range(games):
        positions, _ = bot_game(rules, players, random.Random(f"analysis-bench/{number}"))
        middle = middle_roll(positions)
        t0 = time.process_time()
        analysis.chances(rules, middle)
        chance.append(time.process_time() - t0)
        for state in positions[len(positions) // 2:]:
            if state.phase == MOVE and 2 <= len(rules.legal_moves(state)) <= 4:
                t0 = time.process_time()
                graded = analysis.review(rules, state)
                review.append(time.process_time() - t0)
                options.append(len(graded))
                break
    return {"table": f"{game}, {players} players", "positions": games,
            "chances_300_playouts_s": {"median": round(statistics.median(chance), 2),
                                       "max": round(max(chance), 2)},
            "review_s": {"median": round(statistics.median(review), 2),
                         "max": round(max(review), 2), "options": options}}


def widest_bench(game: str, players: int, games: int = 300, keep: int = 5,
                 unbounded: bool = False) -> dict:
    """CPU seconds for the reviews of the widest decisions of ``games`` games of random moves
    (each game's widest decision, then the ``keep`` widest of those), within the analysis
    budget (the move the game played graded first, as the API does), and with ``unbounded``
    also without it; and the chance to win from the start of each
    game (the longest playouts there are), within the budget."""

    rules = rules_for(game, table_options(game, players))
    widest = []  # (-width, game number, position, the move played)
    starts = []  # the first ``keep`` games' first positions
    for number in range(games):
        rng = random.Random(f"widest/{number}")
        wide = None

        def choose(state, moves):  # a random move, remembering the widest decision
            nonlocal wide
            chosen = rng.randrange(len(moves))
            if wide is None or len(moves) > -wide[0]:
                wide = (-len(moves), number, state.copy(), chosen)
            return chosen

        start, _ = play_out(rules, players, rng, choose)
        if wide is not None and -wide[0] > 1:
            widest.append(wide)
        if number < keep:
            starts.append(start)
    widest = sorted(widest, key=lambda w: w[:2])[:keep]
    bounded, before, graded, spent = [], [], [], []
    same_grade = best_graded = 0  # against the review without the budget
    for _, _, state, chosen in widest:
        t0 = time.process_time()
        options, steps = analysis.counted_review(rules, state, first=chosen)
        bounded.append(time.process_time() - t0)
        graded.append(f"{sum(o.graded for o in options)}/{len(options)}")
        spent.append(steps)
        if unbounded:
            t0 = time.process_time()
            full, _ = analysis.counted_review(rules, state, first=chosen, budget=0)
            before.append(time.process_time() - t0)
            same_grade += options[chosen].grade == full[chosen].grade
            best_graded += options[next(o.index for o in full if o.best)].graded
    chance, playouts = [], []
    for start in starts:
        t0 = time.process_time()
        playouts.append(analysis.counted_chances(rules, start)[1])
        chance.append(time.process_time() - t0)
    report = {"table": f"{game}, {players} players", "games": games,
              "widths": [-w[0] for w in widest],
              "review_s": {"median": round(statistics.median(bounded), 2),
                           "max": round(max(bounded), 2)},
              "graded": graded, "steps": spent, "budget": analysis.BUDGET,
              "chances_from_start_s": {"median": round(statistics.median(chance), 2),
                                       "max": round(max(chance), 2), "playouts": playouts}}
    if unbounded:
        report["review_s_unbounded"] = {"median": round(statistics.median(before), 2),
                                        "max": round(max(before), 2),
                                        "each": [round(t, 1) for t in before]}
        report["move_played_graded_as_unbounded"] = f"{same_grade}/{len(widest)}"
        report["unbounded_best_among_graded"] = f"{best_graded}/{len(widest)}"
    return report
