"""Fitting the static evaluation's weights (``app.engine.evaluation.WEIGHTS``) to bot games.

``python -m app fit-evaluation`` plays medium bot games per board, takes every third position
at a roll with the seat that went on to win, and finds the weights that make those winners
most likely under the evaluation's softmax (maximum likelihood, by Newton's method: five
weights, a concave problem). It prints them with their Brier score on fresh games (another
seed), beside the score of saying 1/players for everyone and that of the weights in use.
"""

from __future__ import annotations

import math
import random

from app.engine import evaluation
from app.engine.core import ROLL
from app.engine.games import rules_for
from workbench.games import bot_game, table_options

def sample(game: str, players: int, games: int, seed: str) -> tuple[object, list]:
    """The rule set and ``(features, winner)`` of every third position at a roll of ``games``
    medium bot games."""

    rules = rules_for(game, table_options(game, players))
    rng = random.Random(f"fit-evaluation/{seed}")
    rows = []
    for _ in range(games):
        seen, won = bot_game(rules, players, rng)
        rows += [(evaluation.features(rules, state), won)
                 for state in seen[::3] if state.phase == ROLL]
    return rules, rows


def fit(rows: list, steps: int = 25) -> tuple[float, ...]:
    """The weights of greatest likelihood for ``rows`` (Newton's method from all zeros)."""
    size = len(evaluation.FEATURES)
    w = [0.0] * size
    for _ in range(steps):
        gradient = [0.0] * size
        hessian = [[0.0] * size for _ in range(size)]
        for seats, won in rows:
            p = _softmax(w, seats)
            mean = [sum(p[s] * seats[s][i] for s in range(len(seats))) for i in range(size)]
            for i in range(size):
                gradient[i] += seats[won][i] - mean[i]
                for j in range(size):
                    hessian[i][j] -= sum(p[s] * seats[s][i] * seats[s][j]
                                         for s in range(len(seats))) - mean[i] * mean[j]
        for i in range(size):
            hessian[i][i] -= 1e-6  # features that never vary (a board with no nest) stay 0
        step = _solve(hessian, gradient)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(b) for b in step) < 1e-6:
            break
    return tuple(round(a, 4) for a in w)


def brier(rows: list, weights: tuple[float, ...]) -> float:
    """The mean over positions and seats of (predicted chance - outcome) squared."""
    total = count = 0.0
    for seats, won in rows:
        for s, p in enumerate(_softmax(weights, seats)):
            total += (p - (1.0 if s == won else 0.0)) ** 2
            count += 1
    return total / count


def _softmax(w, seats) -> list[float]:
    scores = [sum(a * b for a, b in zip(w, row)) for row in seats]
    top = max(scores)
    shares = [math.exp(score - top) for score in scores]
    total = sum(shares)
    return [share / total for share in shares]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= factor * m[col][c]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def report(game: str, players: int, games: int) -> dict:
    """Fitted weights for a board, and Brier scores on fresh games."""
    rules, rows = sample(game, players, games, "1")
    _, fresh = sample(game, players, max(20, games // 4), "2")
    weights = fit(rows)
    share = 1 / players
    return {"board": evaluation.board_key(rules), "positions": len(rows),
            "weights": dict(zip(evaluation.FEATURES, weights)),
            "brier_fresh_games": round(brier(fresh, weights), 4),
            "brier_weights_in_use": round(brier(fresh, evaluation.WEIGHTS[
                evaluation.board_key(rules)]), 4),
            "brier_if_everyone_had_1_in_players": round(
                share * (1 - share) ** 2 + (1 - share) * share ** 2, 4)}
