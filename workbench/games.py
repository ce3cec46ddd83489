"""Games made for measuring: random or bot games from a seed, and the links and turns taken
from them the way the API sees them. Simulations use fixed test keys, so a seed reproduces a run
exactly."""

from __future__ import annotations

import random

from app import claims, link
from app.engine import analysis, bots, red_arse_settings
from app.engine.core import CLAIM, MOVE, OVER, ROLL
from app.engine.games import default_colors
from app.engine.ludo import ludo_options
from app.keys import Keys
from app.play import Game, demo_seats, simulation_seed

SIM_KEYS_LABEL = "simulate"

# The tables the benches measure: each game at the tables the issues quote figures for.
TABLES = (("parcheesi", 4), ("red-arse", 4), ("red-arse", 6), ("ludo", 4), ("ludo", 6))


def play_random(game: str, players: int, seed: int | str, number: int, keys: Keys,
                options: int = 0, strength: str = "random") -> Game:
    """One complete game with uniformly random legal moves, or the moves of bots of
    ``strength`` (every re-roll claimed), reproducible from seed and number."""
    played = Game.new(game, demo_seats(game, players, options), keys,
                      seed=simulation_seed(seed, number), options=options)
    choose = random.Random(f"{seed}/{number}").randrange
    match = played.match
    state = match.state
    while True:
        phase = state.phase
        if phase == ROLL:
            match.roll()
        elif phase == MOVE:
            count = len(match.legal_moves())
            if count == 1:
                match.play(0)
            elif strength == "random":
                match.play(choose(count))
            else:
                match.play(bots.choose(strength, played.rules, state,
                                       bots.decision_seed(played.header.seed, len(match.steps))))
        elif phase == CLAIM:
            match.claim(True)
        else:
            return played


def hand_offs(played: Game) -> tuple[int, int]:
    """``(hand-offs, player-turns)`` of a finished game were all its seats people playing by
    link: a hand-off is a turn with a decision in it (a choice of moves, a re-roll to claim),
    since the server plays every other turn whole (``Game.hand_on``).

    >>> from app.keys import Keys
    >>> played = play_random("ludo", 4, 1, 0, Keys.for_tests(SIM_KEYS_LABEL))
    >>> made, turns = hand_offs(played)
    >>> 0 < made < turns
    True
    """
    history, steps = played.match.history, played.match.steps
    made = turns = 0
    for i, (_, seat, _) in enumerate(history):
        if i == 0 or history[i - 1][1] != seat:
            turns += 1
            decided = False
        if steps[i][1] > 1 and not decided:
            made += 1
            decided = True
    return made, turns


def table_options(game: str, players: int, board: int | None = None, off=()) -> int:
    """The link options for a simulated table: Red Arse and Ludo take the 6-player board when
    the players don't fit the 4-player one (or when asked)."""
    board = board or (6 if players > 4 else 4)
    if game == "red-arse":
        return red_arse_settings.options_for(board, off)
    if game == "ludo" and not off:
        return ludo_options(board)
    if game == "parcheesi" and board == 4 and not off:
        return 0
    raise ValueError(f"{game} has no such board or house-rule choices")


def after_first_turn(game: str, players: int, keys: Keys, seed: bytes = bytes(8)) -> Game:
    """A game by hand whose first player has played their turn: the next player's link
    opens on its replay (the pages' benches and budget load it)."""
    options = table_options(game, players)
    played = Game.new(game, demo_seats(game, players, options), keys, seed=seed,
                      options=options, by_hand=True)
    seat = played.match.turn
    while played.match.turn == seat and not played.over:
        played.step(0)
    return played


def a_turn(played: Game) -> tuple[str, int, list]:
    """The link halfway through a finished game, its seat to move, and that seat's whole turn
    as the API takes it."""
    history = played.match.history
    start = len(history) // 2
    while history[start][0] != "roll" or history[start - 1][1] == history[start][1]:
        start += 1
    return turn_at(played, start)


def turn_at(played: Game, start: int) -> tuple[str, int, list]:
    """The link of a finished game at the turn that begins at step ``start``, its seat to move
    and that seat's whole turn as the API takes it."""
    history = played.match.history
    seat = history[start][1]
    middle = link.encode(played.header, played.match.steps[:start], played.keys)
    turn = []
    for i, (kind, who, what) in enumerate(history[start:], start):
        if who != seat:
            break
        if kind == "claim":  # claimed in time: the receipt the server gave for its ticket
            binding = claims.game_binding(middle, played.match.steps[:i])
            turn.append({"claimed": claims.receipt(played.keys, binding)})
        else:
            turn.append("roll" if kind == "roll" else
                        {"from": what.src, "to": what.dst, "values": list(what.values)})
    return middle, seat, turn


def turn_links(played: Game, count: int) -> list[str]:
    """``count`` links of a finished game, spread from its first turns to its end, each made
    where a turn ends (as links are): the next seat is to roll."""
    history = played.match.history
    ends = [i for i in range(1, len(history)) if history[i][1] != history[i - 1][1]]
    ends.append(len(history))
    chosen = sorted({ends[round(k * (len(ends) - 1) / max(count - 1, 1))] for k in range(count)})
    return [link.encode(played.header, played.match.steps[:end], played.keys) for end in chosen]


def person_turn(played: Game) -> tuple[int, list]:
    """Play the seat to move's whole turn as a medium bot would; returns (seat, the API's
    steps)."""
    match, seat, start = played.match, played.match.turn, len(played.match.history)
    while match.phase != OVER and match.turn == seat:
        if match.phase == ROLL:
            match.roll()
        else:
            match.play(bots.choose("medium", played.rules, match.state,
                                   bots.decision_seed(played.header.seed, len(match.steps))))
    return seat, ["roll" if kind == "roll" else
                  {"from": what.src, "to": what.dst, "values": list(what.values)}
                  for kind, _, what in match.history[start:]]


def play_out(rules, players: int, rng: random.Random, choose, seen: list | None = None):
    """A game from a fresh table with ``rng``'s dice, every re-roll claimed and each move the
    one ``choose(state, moves)`` picks (its index); ``seen`` collects every position passed
    through (copies, at rolls, decisions and claims). Returns the first position and the
    winner (Ludo: the first to finish)."""

    state = rules.initial(default_colors(rules.name, players, getattr(rules, "options", 0)),
                          rng.randrange(players))
    start = state.copy()
    while analysis.winner(state) is None:
        if seen is not None:
            seen.append(state.copy())
        if state.phase == ROLL:
            rules.roll(state, tuple(rng.randint(1, 6) for _ in range(rules.dice_count)))
        elif state.phase == CLAIM:
            rules.claim(state, True)
        else:
            moves = rules.legal_moves(state)
            rules.play(state, moves[choose(state, moves)])
    return start, analysis.winner(state)


def bot_game(rules, players: int, rng: random.Random) -> tuple[list, int]:
    """A game of medium bots with ``rng``'s dice: every position it passed through (copies, at
    rolls, decisions and claims) and the winner (Ludo: the first to finish)."""
    seen = []
    _, winner = play_out(rules, players, rng, lambda state, moves: 0 if len(moves) == 1 else
                         bots.medium(rules, state, moves), seen)
    return seen, winner


def middle_roll(positions: list):
    """The first roll from the middle of a game on."""
    return next(state for state in positions[len(positions) // 2:] if state.phase == ROLL)


def link_game(client, game: str, players: int, autoplay: bool = True) -> dict:
    """A game of people played to the end through the API, as phones passing its link do
    (each chooses as a medium bot would, and lets every re-roll go): how many times the link
    was handed on (each a text: the creator's first included), and the player-turns."""
    from app.engine.games import rules_for

    options = table_options(game, players)
    names = rules_for(game, options).board.color_names
    settings = {"red-arse": {"board": 6 if players > 4 else 4},
                "ludo": {"capacity": players}}.get(game, {})
    body = {"game": game, "autoplay": autoplay, "settings": settings,
            "players": [{"name": f"P{i + 1}", "color": names[c]}
                        for i, c in enumerate(default_colors(game, players, options))]}
    if not settings:
        del body["settings"]
    view = _answer(client.post("/api/games", json=body))
    handed = 1
    while view["phase"] != "over":
        token, seat, steps, now = view["token"], view["turn"], [], view
        while True:
            if now["phase"] == "roll":
                steps.append("roll")
            elif now["phase"] == "claim":
                steps.append("miss")
            else:
                played = Game.from_token(token, client.application.config["KEYS"])
                played.play_turn(seat, list(steps))
                index = bots.choose("medium", played.rules, played.state, bots.decision_seed(
                    played.header.seed, len(played.match.steps)))
                steps.append({k: now["legal"][index][k] for k in ("from", "to", "values")})
            now = _answer(client.post(f"/api/games/{token}/moves",
                                      json={"seat": seat, "steps": steps}))
            steps = now["turn_steps"]
            if now["turn_over"]:
                break
        view = _answer(client.post(f"/api/games/{token}/turn",
                                   json={"seat": seat, "steps": steps}))
        handed += view["phase"] != "over"
    history = Game.from_token(view["token"], client.application.config["KEYS"]).match.history
    turns = sum(1 for i, (_, seat, _) in enumerate(history) if i == 0 or history[i - 1][1] != seat)
    return {"hand_offs": handed, "player_turns": turns}


def texts_bench(game: str, players: int, games: int) -> dict:
    """Texts per game of people by link (``link_game``, ``games`` games each way): with the
    turns that have nothing to decide played for them (the default) and by hand."""
    from workbench.measure import bench_app

    client = bench_app(Keys.for_tests("texts"),
                       GAMES_PER_ADDRESS="1000000 per hour").test_client()  # one address
    figures = {"game": game, "players": players, "games": games}
    for way, autoplay in (("played_for_them", True), ("by_hand", False)):
        runs = [link_game(client, game, players, autoplay) for _ in range(games)]
        texts = sum(run["hand_offs"] for run in runs)
        turns = sum(run["player_turns"] for run in runs)
        figures[way] = {"texts_per_game": round(texts / games, 1),
                        "player_turns_per_game": round(turns / games, 1),
                        "share_of_player_turns": f"{texts / turns:.1%}"}
    return figures


def _answer(response) -> dict:
    if response.status_code >= 400:
        raise RuntimeError(f"{response.status_code}: {response.get_json()}")
    return response.get_json()
