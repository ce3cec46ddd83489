"""Helpers for tests that play through the API as a page does."""

from __future__ import annotations


def turn_steps(client, view) -> tuple[list, dict]:
    """Roll and take the first legal move until the turn is over, through ``/moves``: the steps
    (as ``/turn`` takes them) and the last view."""
    seat, steps = view["turn"], []
    while True:
        steps.append("roll" if view["phase"] == "roll" else
                     {k: view["legal"][0][k] for k in ("from", "to", "values")})
        after = client.post(f"/api/games/{view['token']}/moves",
                            json={"seat": seat, "steps": steps}).json
        if after["turn_over"]:
            return steps, after
        view = dict(after, token=view["token"])


def whole_turn(client, view) -> list:
    """The steps of the turn at ``view`` (``turn_steps``)."""
    return turn_steps(client, view)[0]
