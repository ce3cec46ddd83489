"""``python -m app calibrate``: the chance to win against what happened in medium bot games, and
the review's grades against another seed's and (``--reference``) against the reference's: the
same decisions reviewed with four times the playouts and no budget, and the reference's own
grades against a second reference on another seed (the most any review can agree with it)."""

from __future__ import annotations

import random
import statistics
import time

from app.engine import analysis, evaluation
from app.engine.core import MOVE
from app.engine.games import rules_for
from workbench.games import bot_game, table_options


# The reference a review's grades are measured against: this many times the playouts (at
# first, extra and per batch), and no budget.
REFERENCE_TIMES = 4


def reference(rules, state, salt: str = "reference"):
    """The reference review of a decision: ``REFERENCE_TIMES`` times the playouts, no budget,
    on a seed of its own (``salt`` another: a second reference)."""
    return analysis.review(rules, state, seed=analysis.position_seed(rules, state, salt),
                           playouts=REFERENCE_TIMES * analysis.REVIEW_PLAYOUTS,
                           extra=REFERENCE_TIMES * analysis.REVIEW_EXTRA,
                           batch=REFERENCE_TIMES * analysis.REVIEW_BATCH, budget=0)


def two_grades(a: str, b: str) -> bool:
    return {a, b} == {analysis.GOOD, analysis.BLUNDER}


def calibrate(game: str, players: int, positions: int, playouts: int, decisions: int,
              seed: str = "1", against_reference: bool = False) -> dict:
    """The chance to win against what happened: positions sampled from medium bot games (a few
    per game), each position's outcome the winner of that game; Brier score (the playouts',
    and the static evaluation's) and a table by decile of the predicted chance. Then
    stability: ``decisions`` reviewed twice, with two playout seeds, the share of options
    graded the same, and the options two grades apart (Good on one, Blunder on the other);
    the review's steps and CPU time per decision. With ``against_reference``, each review's
    grades against the ``reference`` review's: the share the same, the options two grades
    from it, and which grades differed; and the reference's grades against a second
    reference's (another seed): a review as precise as the reference agrees with it that
    often, so no review can be expected to do better. ``positions`` may be 0: the reviews alone (games are
    played until there are ``decisions``, one from each)."""

    rules = rules_for(game, table_options(game, players))
    rng = random.Random(f"calibrate/{seed}")
    pairs = []  # (predicted chance, 1 if that seat won)
    static = []  # the same, by the static evaluation
    picked = []  # decisions for the stability check
    per_game = 5
    while len(pairs) < positions * players or len(picked) < decisions:
        seen, won = bot_game(rules, players, rng)
        for state in rng.sample(seen, min(per_game, len(seen))):
            if len(pairs) >= positions * players:  # only decisions are still wanted
                continue
            for s, chance in enumerate(analysis.chances(rules, state, playouts)):
                pairs.append((chance, 1 if s == won else 0))
            for s, chance in enumerate(evaluation.chances(rules, state)):
                static.append((chance, 1 if s == won else 0))
        moves = [s for s in seen if s.phase == MOVE and len(rules.legal_moves(s)) > 1]
        if moves and len(picked) < decisions:
            picked.append(rng.choice(moves))
    pairs, static = pairs[:positions * players], static[:positions * players]
    brier = sum((p - o) ** 2 for p, o in pairs) / max(len(pairs), 1)
    static_brier = sum((p - o) ** 2 for p, o in static) / max(len(static), 1)
    share = 1 / players
    baseline = share * (1 - share) ** 2 + (1 - share) * share ** 2  # everyone 1/players
    table = {}
    for decile in range(10):
        inside = [(p, o) for p, o in pairs if min(int(p * 10), 9) == decile]
        if inside:
            table[f"{decile / 10:.1f}-{(decile + 1) / 10:.1f}"] = (
                f"n {len(inside)}, predicted {statistics.mean(p for p, _ in inside):.3f}, "
                f"observed {statistics.mean(o for _, o in inside):.3f}")
    same = total = ungraded = flips = steps = 0
    seconds = 0.0
    matched = compared = far = 0  # against the reference
    estimated = 0  # the same grade as the reference's estimate (its best measure, no caution)
    twins = twinned = 0  # the reference against a second reference, on another seed
    differed: dict[str, int] = {}
    for state in picked:  # within the budget, as the API reviews: options both graded count
        started = time.process_time()
        one, spent = analysis.counted_review(rules, state,
                                             seed=analysis.position_seed(rules, state, "a"))
        seconds += time.process_time() - started
        steps += spent
        two = analysis.review(rules, state, seed=analysis.position_seed(rules, state, "b"))
        both = [(a, b) for a, b in zip(one, two) if a.graded and b.graded]
        same += sum(a.grade == b.grade for a, b in both)
        flips += sum(two_grades(a.grade, b.grade) for a, b in both)
        total += len(both)
        ungraded += len(one) - len(both)
        if against_reference:
            first = reference(rules, state)
            for a, b in zip(first, reference(rules, state, "reference/2")):
                if a.graded and b.graded:
                    twins += 1
                    twinned += a.grade == b.grade
            for ours, best in zip(zip(one, two), first):
                for option in ours:
                    if not option.graded:
                        continue
                    compared += 1
                    matched += option.grade == best.grade
                    estimated += best.graded and option.grade == analysis.grade(best.estimate)
                    far += two_grades(option.grade, best.grade)
                    if option.grade != best.grade:
                        key = f"{option.grade}_where_the_reference_says_{best.grade}"
                        differed[key] = differed.get(key, 0) + 1
    stability = {"decisions": len(picked), "options": total,
                 "not_graded_by_one_or_both": ungraded,
                 "same_grade_with_another_seed": round(same / max(total, 1), 3),
                 "good_on_one_seed_blunder_on_the_other": flips}
    if against_reference:
        stability.update({"options_against_the_reference": compared,
                          "same_grade_as_the_reference": round(matched / max(compared, 1), 3),
                          "two_grades_from_the_reference": far,
                          "same_grade_as_the_estimate_of_the_reference":
                              round(estimated / max(compared, 1), 3),
                          "same_grade_between_two_references": round(twinned / max(twins, 1), 3),
                          "differed_from_the_reference": dict(sorted(differed.items()))})
    stability.update({"review_steps_per_decision": round(steps / max(len(picked), 1)),
                      "review_cpu_seconds_per_decision":
                          round(seconds / max(len(picked), 1), 3)})
    scores = {"playouts": playouts, "brier_score": round(brier, 4),
              "brier_static_evaluation": round(static_brier, 4),
              "brier_if_everyone_had_1_in_players": round(baseline, 4),
              "calibration_by_decile": table} if pairs else {}  # --positions 0: reviews only
    return {"game": game, "players": players, "positions": len(pairs) // players, **scores,
            "stability": stability}
