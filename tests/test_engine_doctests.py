"""The engine's doctests, run against its sources in every run.

With the compiled build in use (app/native.py), pytest collects no doctests from the compiled
modules (conftest.py): an extension keeps no docstrings, and pytest would take its source for
another module. Here each such module's examples run in a process of its own that imports the
whole engine from source, so a build never hides a broken example."""

from __future__ import annotations

import subprocess
import sys

import pytest

from app import native

WITH_EXAMPLES = [name for name in native.MODULES
                 if ">>>" in (native.ENGINE / f"{name}.py").read_text(encoding="utf-8")]
# Every engine module from source, before anything imports one compiled: a module run from
# source meets only the source of the others (native.py says why they go together).
FROM_SOURCE = """
import doctest, importlib, sys
from app import native
sys.meta_path.insert(0, native._FromSource(list(native.MODULES)))
module = importlib.import_module(sys.argv[1])
assert module.__file__.endswith(".py"), module.__file__
print(*doctest.testmod(module, optionflags=doctest.ELLIPSIS))
"""


def test_the_modules_with_examples_are_found():
    assert {"core", "ludo", "red_arse"} <= set(WITH_EXAMPLES)


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_the_examples_in_the_engine_s_source_hold(name):
    done = subprocess.run([sys.executable, "-c", FROM_SOURCE, f"app.engine.{name}"],
                          cwd=native.ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    failed, attempted = map(int, done.stdout.split()[-2:])
    assert attempted > 0 and failed == 0, done.stdout
