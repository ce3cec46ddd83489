"""Links issued by earlier releases must keep replaying to the same position (ARCHITECTURE.md:
links are versioned). Each file under tests/golden/ pins tokens made with fixed test keys; a
change to the rules, the dice or the codec that breaks one must bump a version instead."""

import json
from pathlib import Path

import pytest

from app import link
from app.keys import Keys
from app.play import Game

GOLDEN = sorted(Path(__file__).parent.joinpath("golden").glob("*.json"))


def _cases():
    for path in GOLDEN:
        data = json.loads(path.read_text())
        for case in data["links"]:
            yield pytest.param(case, id=f"{path.stem}-{case['steps']}")


@pytest.mark.parametrize("case", list(_cases()))
def test_golden_link_replays_to_the_same_position(case):
    game = Game.from_token(case["token"], Keys.for_tests("golden"))
    assert game.position() == case["position"]
    assert len(game.match.steps) == case["steps"]
    assert game.token() == case["token"]  # re-encoding is stable too
    if case["winner"]:
        assert game.header.seats[game.state.winner].name == case["winner"]


def test_a_link_from_another_rules_version_is_refused_clearly():
    case = json.loads(GOLDEN[0].read_text())["links"][0]
    keys = Keys.for_tests("golden")
    header, _ = link.decode(case["token"], keys)
    from dataclasses import replace
    old = link.encode(replace(header, rules_version=0), [], keys)
    with pytest.raises(link.UnknownVersion, match="another version of the rules"):
        Game.from_token(old, keys)
