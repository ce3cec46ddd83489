"""The one registry of rule sets (app/engine/games.py) against the link format's list of games,
whose order is part of the format: a link holds its game as an index into it."""

from app import link
from app.engine.core import RuleSet
from app.engine.games import NAMES, RULE_SETS, TITLES, rules_for


def test_the_link_format_s_games_keep_their_order_for_ever():
    assert link.GAMES == ("parcheesi", "red-arse", "ludo")


def test_the_registry_holds_the_link_format_s_games_and_no_other():
    assert sorted(NAMES) == sorted(link.GAMES)
    assert set(RULE_SETS) == set(TITLES) == set(link.GAMES)


def test_each_rule_set_is_registered_under_its_own_name_and_says_what_it_is():
    for name, rules in RULE_SETS.items():
        assert issubclass(rules, RuleSet) and rules.name == name
        assert rules.title and rules.words.no_move and rules.pieces == 4
        assert rules_for(name).name == name
