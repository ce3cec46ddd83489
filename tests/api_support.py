"""Helpers for tests that play through the API as a page does."""

from __future__ import annotations

from app.engine.core import ROLL
from app.play import Game, demo_seats, simulation_seed
from workbench.games import table_options

PLAYERS = [{"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]


class Api:
    """A test's games made and played through the JSON API, as a page does (the ``api``
    fixture, on the test's ``client``)."""

    def __init__(self, client):
        self.client = client

    def create(self, game: str = "parcheesi", players=PLAYERS, **body) -> dict:
        """A new game, played by hand unless ``body`` turns ``autoplay`` on: the API's answer."""
        response = self.client.post("/api/games", json={"autoplay": False, "game": game,
                                                        "players": players, **body})
        assert response.status_code == 201, response.json
        return response.json

    def play_turn(self, view, pick: int = 0) -> tuple[list, dict]:
        """The turn at ``view`` played to its end (``play_until_turn_over``)."""
        return play_until_turn_over(self.client, view, pick)


def play_until_turn_over(client, view, pick: int = 0):
    """Roll, take the legal move at ``pick`` (the first; -1: the last) and let re-rolls go until
    the turn passes; returns (steps, last view), the steps as the server answers them (its only
    moves included)."""
    seat, steps = view["turn"], []
    while True:
        phase = view["phase"]
        steps.append("roll" if phase == "roll" else "miss" if phase == "claim" else
                     {k: view["legal"][pick][k] for k in ("from", "to", "values")})
        response = client.post(f"/api/games/{view['token']}/moves",
                               json={"seat": seat, "steps": steps})
        assert response.status_code == 200, response.json
        after = response.json
        steps = list(after.get("turn_steps") or steps)  # with the rolls played for the player
        after["token"] = view["token"]
        if after["turn_over"]:
            return steps, after
        view = after


def whole_turn(client, view, pick: int = 0) -> list:
    """The steps of the turn at ``view`` (``play_until_turn_over``)."""
    return play_until_turn_over(client, view, pick)[0]


def said(move) -> dict:
    """A move as a page sends it."""
    return {"from": move.src, "to": move.dst, "values": list(move.values)}


def choice_then_roll(game: str, players: int, keys) -> tuple[str, int, list, list]:
    """A link at a turn's start whose first roll leaves a choice of moves and earns another
    roll (a 6, doubles): the link, the seat, and the steps of the turn's two first moves."""
    options = table_options(game, players)
    for number in range(300):
        played = Game.new(game, demo_seats(game, players, options), keys,
                          seed=simulation_seed("no peeking", number), options=options,
                          by_hand=True)
        for _ in range(400):
            if played.over:
                break
            seat = played.match.turn
            token, start = played.token(), len(played.match.steps)
            played.step()  # the turn's first roll
            moves = played.match.legal_moves() if not played.over else []
            if played.match.turn == seat and len(moves) >= 2:
                first = Game.from_token(token, keys)
                first.play_turn(seat, ["roll", said(moves[0])])
                if first.match.turn == seat and first.match.phase == ROLL:  # a roll again
                    return token, seat, ["roll", said(moves[0])], ["roll", said(moves[1])]
            played = Game.from_token(token, keys)
            while len(played.match.steps) == start or played.match.turn == seat:
                if played.over:
                    break
                played.step()
    raise AssertionError(f"no turn with a choice and a roll after it in {game}")


def host_key(token: str, keys) -> str:
    """The key of a finished game's host's link (``?host=``), which a rematch asks for."""
    from app.web.bookkeeping import host_key as key

    return key(Game.from_token(token, keys), keys.signing[-1])
