"""``python -m app simulate`` and ``tournament``: many complete games, of random moves or of bots
of given strengths, and what they add up to."""

from __future__ import annotations

import statistics
import time

from app.engine import bots
from app.engine.core import OVER, ROLL
from app.engine.games import rules_for
from app.keys import Keys
from app.play import Game, demo_seats, simulation_seed
from workbench.games import SIM_KEYS_LABEL, hand_offs, play_random, table_options


def simulate(game: str, players: int, games: int, seed: int | str, options: int = 0,
             strength: str = "random") -> dict:
    """``games`` complete games of random moves (or of bots of ``strength``): their length,
    wins by seat, link sizes, and the hand-offs a link game of people would make (each a text),
    against its player-turns."""
    keys = Keys.for_tests(SIM_KEYS_LABEL)
    wins = [0] * players
    moves, rolls, lengths = [], [], []
    handed, turns = [], []
    busy = 0.0
    for number in range(games):
        start = time.process_time()
        played = play_random(game, players, seed, number, keys, options, strength)
        busy += time.process_time() - start
        made, taken = hand_offs(played)
        handed.append(made)
        turns.append(taken)
        steps = played.match.steps
        rolls.append(sum(1 for kind, *_ in played.match.history if kind == "roll"))
        moves.append(len(steps) - rolls[-1])  # moves, and claims taken or missed
        lengths.append(len(played.token()))
        wins[played.state.winner] += 1
    seats = demo_seats(game, players, options)
    names = played.rules.board.color_names
    return {
        "game": game,
        "players": players,
        "settings": rules_for(game, options).table_settings(),
        "seed": seed,
        "moves_by": strength,
        "games_finished": games,
        "decisions": {"average": statistics.mean(moves), "longest": max(moves)},
        "rolls": {"average": statistics.mean(rolls), "longest": max(rolls)},
        "wins_by_seat": {f"{s.name} ({names[s.color]})": w for s, w in zip(seats, wins)},
        "link_chars": {"average": statistics.mean(lengths), "longest": max(lengths)},
        # Turns with nothing to decide play themselves: only these reach a person.
        "hand_offs": {"average": statistics.mean(handed), "player_turns": statistics.mean(turns),
                      "share_of_player_turns": f"{sum(handed) / sum(turns):.1%}"},
        "decisions_per_second": round(sum(moves) / busy) if busy else None,
    }


def tournament(game: str, players: int, seats: list[str], games: int, seed: str = "1",
               options: int | None = None) -> dict:
    """``games`` complete games between bots of the given strengths, the strengths rotating
    round the seats from game to game; wins per strength with a 95% confidence interval
    (Wilson) and the CPU time per bot move."""
    if len(seats) != players:
        raise ValueError(f"--seats lists {players} strengths, one per player")
    for strength in seats:
        if strength not in ("random", *bots.STRENGTHS):
            raise ValueError(f"no bot strength {strength!r}")
    keys = Keys.for_tests(SIM_KEYS_LABEL)
    options = table_options(game, players) if options is None else options
    wins = dict.fromkeys(seats, 0)
    played_by = dict.fromkeys(seats, 0)
    thinking = {s: [0.0, 0] for s in seats}
    for number in range(games):
        order = seats[number % players:] + seats[:number % players]
        played = Game.new(game, demo_seats(game, players, options), keys,
                          seed=simulation_seed(f"tournament/{seed}", number), options=options)
        match, rules = played.match, played.rules
        while match.phase != OVER:
            if match.phase == ROLL:
                match.roll()
                continue
            strength = order[match.turn]
            t0 = time.process_time()
            index = bots.choose(strength, rules, match.state,
                                bots.decision_seed(played.header.seed, len(match.steps)))
            spent = thinking[strength]
            spent[0] += time.process_time() - t0
            spent[1] += 1
            match.step(index)
        winner = match.state.winner
        wins[order[winner]] += 1
        for strength in order:
            played_by[strength] += 1
    table = {}
    for strength in dict.fromkeys(seats):
        n = played_by[strength]
        low, high = _wilson(wins[strength], n)
        seconds, moves = thinking[strength]
        table[strength] = {"seats": seats.count(strength), "wins": wins[strength],
                           "win_share_of_seat_games": f"{wins[strength] / n:.3f} "
                                                      f"[{low:.3f}, {high:.3f}]",
                           "ms_per_move": round(1000 * seconds / max(moves, 1), 3)}
    return {"game": game, "players": players, "settings": rules_for(game, options).table_settings(),
            "games": games, "fair_share": round(1 / players, 3), "strengths": table}


def _wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share of ``wins`` in ``n``."""
    if not n:
        return 0.0, 1.0
    share = wins / n
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((share * (1 - share) + z * z / (4 * n)) / n) ** 0.5 / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
