"""The compiled engine (``app/native.py``): what runs is built from the current source, and it
plays exactly as the source does."""

from __future__ import annotations

import importlib.util
import random
import shutil
import subprocess
import sys

import pytest

from app import native
from app.engine import analysis, bots, parcheesi
from app.engine.core import MOVE, OVER, ROLL


def _source(name: str):
    """The engine module ``name`` loaded from its source, beside the one imports give."""
    spec = importlib.util.spec_from_file_location(f"app.engine._source_{name}",
                                                  native.ENGINE / f"{name}.py")
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_engine_runs_compiled_from_its_current_source():
    # The README's test command builds it first, so the tests try what is deployed.
    assert native.in_use() == list(native.MODULES), \
        "build the engine for the tests: python -m app build-native"


def test_the_compiled_engine_plays_as_its_source_does():
    built, source = parcheesi.Parcheesi(), _source("parcheesi").Parcheesi()
    source_bots, source_analysis = _source("bots"), _source("analysis")
    checked = 0
    for game in range(6):
        rng = random.Random(f"native/{game}")
        one = built.initial((0, 1, 2, 3), 0)
        two = source.initial((0, 1, 2, 3), 0)
        while one.phase != OVER:
            assert built.format(one) == source.format(two)
            if one.phase == ROLL:
                dice = (rng.randint(1, 6), rng.randint(1, 6))
                built.roll(one, dice)
                source.roll(two, dice)
                continue
            assert one.phase == MOVE
            moves = built.legal_moves(one)
            assert moves == source.legal_moves(two)
            chosen = 0
            if len(moves) > 1:
                chosen = bots.medium(built, one, moves)
                assert chosen == source_bots.medium(source, two, moves)
                checked += 1
                if checked % 60 == 0:  # the playouts too, now and then
                    assert analysis.chances(built, one, 20) == \
                        source_analysis.chances(source, two, 20)
                if rng.random() < 0.5:  # random moves too, to meet all kinds of positions
                    chosen = rng.randrange(len(moves))
            built.play(one, moves[chosen])
            source.play(two, moves[chosen])
        assert one.winner == two.winner
    assert checked > 300


@pytest.mark.parametrize("edited", ["bots", "parcheesi"])
def test_an_edited_source_runs_instead_of_its_older_build(tmp_path, edited):
    shutil.copytree(native.ROOT / "app", tmp_path / "app",
                    ignore=shutil.ignore_patterns("__pycache__", "translations", "web"))
    with open(tmp_path / "app" / "engine" / f"{edited}.py", "a") as source:
        source.write("\n# edited since the build\n")
    shown = subprocess.run(
        [sys.executable, "-c", "from app import native; import app.engine.bots, "
         "app.engine.parcheesi, app.engine.analysis; print(native.in_use())"],
        cwd=tmp_path, capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == str([n for n in native.MODULES if n != edited])
    assert f"{edited} changed since the last `python -m app build-native`" in shown.stderr
