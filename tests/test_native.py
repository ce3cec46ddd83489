"""The compiled engine (``app/native.py``): what runs is built from the current source, and it
plays exactly as the source does."""

from __future__ import annotations

import doctest
import importlib
import importlib.abc
import importlib.util
import pickle
import random
import shutil
import subprocess
import sys

import pytest

from app import native
from app.engine import analysis, bots
from app.engine.core import CLAIM, MOVE, OVER, ROLL
from app.engine.games import default_colors, rules_for
from app.engine.red_arse_settings import RULE_KEYS, options_for

SOURCE = "engine_source"  # the package the engine's sources are imported as, beside the build


class _Sources(importlib.abc.MetaPathFinder):
    """Finds ``engine_source.<name>`` as ``app/engine/<name>.py``: the engine run from source,
    down to what its modules import from one another (a source module imported on its own
    would build on the compiled ``core`` and ``boards``)."""

    def find_spec(self, fullname, path=None, target=None):
        package, _, name = fullname.partition(".")
        if package != SOURCE:
            return None
        if not name:
            return importlib.util.spec_from_file_location(
                SOURCE, native.ENGINE / "__init__.py", submodule_search_locations=[])
        return importlib.util.spec_from_file_location(fullname, native.ENGINE / f"{name}.py")


def _source(name: str):
    """The engine module ``name`` run from its source."""
    if not any(isinstance(finder, _Sources) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Sources())
    module = importlib.import_module(f"{SOURCE}.{name}")
    assert module.__file__.endswith(".py")
    return module


def test_the_engine_runs_compiled_from_its_current_source():
    # The README's test command builds it first, so the tests try what is deployed.
    assert native.in_use() == list(native.MODULES), \
        "build the engine for the tests: python -m app build-native"


# Every game and board (Red Arse's house rules on, and all off): (game, options, players,
# games played).
TABLES = [("parcheesi", 0, 4, 6),
          ("red-arse", options_for(4), 4, 20),
          ("red-arse", options_for(6), 6, 15),
          ("red-arse", options_for(6, off=RULE_KEYS), 3, 15),
          ("ludo", 0, 4, 20),
          ("ludo", 6, 6, 3)]


@pytest.mark.parametrize("game, options, players, games", TABLES)
def test_the_compiled_engine_plays_as_its_source_does(game, options, players, games):
    # Random games, half the moves medium's, every position and list of legal moves compared,
    # and medium's choice (the playouts' too, now and then).
    built, source = rules_for(game, options), _source("games").rules_for(game, options)
    source_bots, source_analysis = _source("bots"), _source("analysis")
    colors = default_colors(game, players, options)
    checked = 0
    for number in range(games):
        rng = random.Random(f"native/{game}/{options}/{number}")
        one, two = built.initial(colors, 0), source.initial(colors, 0)
        while one.phase != OVER:
            assert built.format(one) == source.format(two)
            if one.phase == ROLL:
                dice = tuple(rng.randint(1, 6) for _ in range(built.dice_count))
                built.roll(one, dice)
                source.roll(two, dice)
                continue
            if one.phase == CLAIM:
                taken = rng.random() < 0.8
                built.claim(one, taken)
                source.claim(two, taken)
                continue
            assert one.phase == MOVE
            moves = built.legal_moves(one)
            assert moves == source.legal_moves(two)
            chosen = 0
            if len(moves) > 1:
                chosen = bots.medium(built, one, moves)
                assert chosen == source_bots.medium(source, two, moves)
                checked += 1
                if checked % 50 == 0:
                    assert analysis.chances(built, one, 5) == \
                        source_analysis.chances(source, two, 5)
                if rng.random() < 0.5:  # random moves too, to meet all kinds of positions
                    chosen = rng.randrange(len(moves))
            built.play(one, moves[chosen])
            source.play(two, moves[chosen])
        assert built.format(one) == source.format(two)
    assert checked > 100 * games


@pytest.mark.parametrize("name", native.MODULES)
def test_the_examples_in_the_sources_hold_for_the_build(name):
    # A compiled module keeps no docstrings, so pytest finds no examples in it (conftest.py):
    # here its source's examples run on the build.
    built = importlib.import_module(f"app.engine.{name}")
    runner = doctest.DocTestRunner()
    for example in doctest.DocTestFinder().find(_source(name), globs=vars(built)):
        runner.run(example)
    assert runner.failures == 0


@pytest.mark.parametrize("game, options, players, games", TABLES)
def test_positions_reach_the_analysis_processes_whole(game, options, players, games):
    # app/review.py sends positions to other processes, pickled.
    rules = rules_for(game, options)
    state = rules.initial(default_colors(game, players, options), 0)
    rng = random.Random("native/pickle")
    while state.phase != OVER:
        if state.phase == MOVE:
            moves = rules.legal_moves(state)
            again = pickle.loads(pickle.dumps(state))
            assert type(again) is type(state) and again == state
            assert rules.format(again) == rules.format(state)
            assert rules.legal_moves(again) == moves
            rules.play(state, moves[rng.randrange(len(moves))])
        elif state.phase == CLAIM:
            rules.claim(state, True)
        else:
            rules.roll(state, tuple(rng.randint(1, 6) for _ in range(rules.dice_count)))


@pytest.mark.parametrize("edited", ["core", "bots"])
def test_an_edited_source_runs_the_whole_engine_from_source(tmp_path, edited):
    # All of it: the compiled modules call one another directly, so beside a module run from
    # source they would meet code and classes of its older build.
    shutil.copytree(native.ROOT / "app", tmp_path / "app",
                    ignore=shutil.ignore_patterns("__pycache__", "translations", "web"))
    with open(tmp_path / "app" / "engine" / f"{edited}.py", "a") as source:
        source.write("\n# edited since the build\n")
    shown = subprocess.run(
        [sys.executable, "-c", "from app import native; from app.engine import analysis, games; "
         "rules = games.rules_for('red-arse', 1); "
         "print(native.in_use(), analysis.chances(rules, rules.initial((0, 2, 4), 0), 3))"],
        cwd=tmp_path, capture_output=True, text=True, check=True)
    rules = rules_for("red-arse", 1)
    assert shown.stdout.strip() == f"[] {analysis.chances(rules, rules.initial((0, 2, 4), 0), 3)}"
    assert f"{edited} changed since the last `python -m app build-native`" in shown.stderr
