"""``python -m app calibrate``: the chance to win against what happened in medium bot games, and
the review's grades against another seed's."""

from __future__ import annotations

import random
import statistics

from app.engine import analysis, evaluation
from app.engine.core import MOVE
from app.engine.games import rules_for
from workbench.games import bot_game, table_options


def calibrate(game: str, players: int, positions: int, playouts: int, decisions: int,
              seed: str = "1") -> dict:
    """The chance to win against what happened: positions sampled from medium bot games (a few
    per game), each position's outcome the winner of that game; Brier score (the playouts',
    and the static evaluation's) and a table by decile of the predicted chance. Then
    stability: ``decisions`` reviewed twice, with two playout seeds, the share of options
    graded the same, and the options two grades apart (Good on one, Blunder on the other)."""

    rules = rules_for(game, table_options(game, players))
    rng = random.Random(f"calibrate/{seed}")
    pairs = []  # (predicted chance, 1 if that seat won)
    static = []  # the same, by the static evaluation
    picked = []  # decisions for the stability check
    per_game = 5
    while len(pairs) < positions * players:
        seen, won = bot_game(rules, players, rng)
        for state in rng.sample(seen, min(per_game, len(seen))):
            for s, chance in enumerate(analysis.chances(rules, state, playouts)):
                pairs.append((chance, 1 if s == won else 0))
            for s, chance in enumerate(evaluation.chances(rules, state)):
                static.append((chance, 1 if s == won else 0))
        moves = [s for s in seen if s.phase == MOVE and len(rules.legal_moves(s)) > 1]
        if moves and len(picked) < decisions:
            picked.append(rng.choice(moves))
    pairs, static = pairs[:positions * players], static[:positions * players]
    brier = sum((p - o) ** 2 for p, o in pairs) / len(pairs)
    static_brier = sum((p - o) ** 2 for p, o in static) / len(static)
    share = 1 / players
    baseline = share * (1 - share) ** 2 + (1 - share) * share ** 2  # everyone 1/players
    table = {}
    for decile in range(10):
        inside = [(p, o) for p, o in pairs if min(int(p * 10), 9) == decile]
        if inside:
            table[f"{decile / 10:.1f}-{(decile + 1) / 10:.1f}"] = (
                f"n {len(inside)}, predicted {statistics.mean(p for p, _ in inside):.3f}, "
                f"observed {statistics.mean(o for _, o in inside):.3f}")
    same = total = ungraded = flips = 0
    for state in picked:  # within the budget, as the API reviews: options both graded count
        one = analysis.review(rules, state, seed=analysis.position_seed(rules, state, "a"))
        two = analysis.review(rules, state, seed=analysis.position_seed(rules, state, "b"))
        both = [(a, b) for a, b in zip(one, two) if a.graded and b.graded]
        same += sum(a.grade == b.grade for a, b in both)
        flips += sum({a.grade, b.grade} == {analysis.GOOD, analysis.BLUNDER} for a, b in both)
        total += len(both)
        ungraded += len(one) - len(both)
    return {"game": game, "players": players, "positions": len(pairs) // players,
            "playouts": playouts, "brier_score": round(brier, 4),
            "brier_static_evaluation": round(static_brier, 4),
            "brier_if_everyone_had_1_in_players": round(baseline, 4),
            "calibration_by_decile": table,
            "stability": {"decisions": len(picked), "options": total,
                          "not_graded_by_one_or_both": ungraded,
                          "same_grade_with_another_seed": round(same / max(total, 1), 3),
                          "good_on_one_seed_blunder_on_the_other": flips}}
