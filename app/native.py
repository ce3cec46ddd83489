"""The engine's busiest modules compiled with mypyc, and the guard that runs a build only while
it matches its source.

``python -m app build-native`` compiles ``MODULES`` (plain Python with type annotations) into
C extensions beside their sources, which makes the handler's replay and the analysis' playouts
faster (docs/benchmarks.md), and records each source's SHA-256 in ``app/engine/native.json``.
Python imports an extension in preference to a source of the same name, so an edited source
would otherwise be shadowed by an older build: ``use_current`` (run when ``app`` is imported)
sends the imports of every module to its source, with a warning, unless the build is of all
of ``MODULES`` and each source still matches the record. All or nothing, because the compiled
modules call one another's code and use one another's classes directly (analysis the bots',
the rules ``boards``' and ``core``'s): a module run from source beside the build would meet code
compiled from its old source, or classes the build does not take for its own. Without a build,
everything runs from source, the same rules at a slower pace.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "app" / "engine"
# What the replay and the playouts spend their time in, and what those modules build on.
MODULES = ("boards", "core", "parcheesi", "red_arse", "ludo", "bots", "analysis")
STAMP = ENGINE / "native.json"
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # this interpreter's (.cpython-311-...so)


def _digest(name: str) -> str:
    return hashlib.sha256((ENGINE / f"{name}.py").read_bytes()).hexdigest()


def _recorded() -> dict:
    try:
        return json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return {}


def _built() -> list[str]:
    return [name for name in MODULES if (ENGINE / f"{name}{SUFFIX}").exists()]


def _changed() -> list[str]:
    """The modules whose source differs from the one last built (or that were never built)."""
    record = _recorded()
    return [name for name in MODULES if record.get(name) != _digest(name)]


def current() -> list[str]:
    """The modules imports will load compiled: all of ``MODULES`` when their build is here and
    of their current sources, else none."""
    built = _built()
    if not built:  # without a build: no file is read
        return []
    return built if len(built) == len(MODULES) and not _changed() else []


class _FromSource(importlib.abc.MetaPathFinder):
    """Finds the named engine modules as their sources, ahead of any extension."""

    def __init__(self, names: list[str]):
        self.paths = {f"app.engine.{name}": ENGINE / f"{name}.py" for name in names}

    def find_spec(self, fullname, path=None, target=None):
        where = self.paths.get(fullname)
        return importlib.util.spec_from_file_location(fullname, where) if where else None


def use_current() -> None:
    """Make every engine import load the source when the build is not all current."""
    built = _built()
    if built and not current():
        warnings.warn(f"app/engine: {', '.join(_changed())} changed since the last `python -m "
                      "app build-native`: running the engine from source (build again to "
                      "compile it)", stacklevel=2)
        sys.meta_path.insert(0, _FromSource(built))


def in_use() -> list[str]:
    """The modules this process runs compiled (imports them)."""
    return [name for name in MODULES
            if str(importlib.import_module(f"app.engine.{name}").__file__).endswith(SUFFIX)]


def build() -> list[str]:
    """Compile ``MODULES`` in place (needs mypy and a C compiler: ``pip install -e
    '.[native]'``), then record their sources; raises ``CalledProcessError`` with
    the compiler's output when it fails.

    The old build's files are unlinked first: a process that loaded them keeps its copy, and
    the new files never overwrite one in use. The compiler runs in its own process, with
    setuptools, as mypyc's documentation shows."""
    import subprocess  # only here: a cold start need not import it

    digests = {name: _digest(name) for name in MODULES}
    STAMP.unlink(missing_ok=True)
    for name in MODULES:
        for old in ENGINE.glob(f"{name}*{SUFFIX}"):
            old.unlink()
    sources = [f"app/engine/{name}.py" for name in MODULES]
    script = ("from setuptools import setup\n"
              "from mypyc.build import mypycify\n"
              f"setup(name='boardpass-engine', ext_modules=mypycify({sources!r}, separate=True,"
              " opt_level='3'), script_args=['build_ext', '--inplace', '--build-temp',"
              " 'build/native'])\n")
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True, capture_output=True,
                   text=True)
    STAMP.write_text(json.dumps(digests, indent=1) + "\n")
    return current()
