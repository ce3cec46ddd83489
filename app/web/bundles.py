"""Each page's script with every module it imports as one minified file, made by esbuild (npm,
pinned in package.json) where it is installed.

Why: over HTTP/1.1 (Gunicorn, the development server) a browser opens at most six connections
to a server, so a page's dozen modules queue behind each other in round trips; on a phone on a
slow network that is most of the time to the first paint. One file, minified, is one request
and about half the bytes (the modules as written carry their comments). The modules stay the
source: the bundles are made when the server starts, from the files as they are then, so they
are never stale. What a bundle's script loads only when needed (a dynamic ``import()``: the
finished game's graph) stays a file of its own, a chunk named for its content.

Where esbuild is missing (a quick start without ``npm ci``, Lambda's package) the pages load the
modules as they are (assets.py); nothing else changes.
"""

from __future__ import annotations

import json
import logging
import subprocess
import tempfile
from pathlib import Path

from app.web import ROOT

ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
PAGE_SCRIPTS = ("js/game.js", "js/room.js", "js/home.js")  # what the templates load, in static/
# How esbuild is asked: a bundle made another way is another bundle (assets.py keys its
# bundles by this, esbuild's version and the modules' content).
OPTIONS = ("--bundle", "--minify", "--format=esm", "--splitting", "--target=es2022",
           "--chunk-names=[name]-[hash]", "--log-level=error")
# esbuild takes a few hundredths of a second a script; far longer is a stuck process, given up
# on well inside Gunicorn's 30 s for a worker to start.
SECONDS = 10


def available() -> bool:
    return ESBUILD.exists()


def version() -> str:
    """The installed esbuild's version, as npm recorded it ("" where it isn't installed)."""
    try:
        return json.loads((ROOT / "node_modules/esbuild/package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return ""


def build(source: Path) -> dict[str, bytes]:
    """The script at ``source`` (static/js/game.js) bundled: its files by name, the script's
    own ("game.js") first, then its chunks ("course-5KQ2XJ3M.js", imported relative to it); {}
    where esbuild is missing or fails (the modules are then loaded as they are)."""
    if not available():
        return {}
    entry = source.name
    with tempfile.TemporaryDirectory(prefix="boardpass-bundle-") as folder:
        try:
            subprocess.run([str(ESBUILD), str(source), *OPTIONS, f"--outdir={folder}"],
                           check=True, capture_output=True, timeout=SECONDS)
        except (OSError, subprocess.SubprocessError) as error:
            said = getattr(error, "stderr", b"") or b""
            logging.getLogger(__name__).warning(
                "esbuild could not bundle %s (the page loads its modules): %s %s", source,
                error, said.decode(errors="replace")[-500:])
            return {}
        made = {path.name: path.read_bytes() for path in sorted(Path(folder).iterdir())}
    if entry not in made:
        return {}
    return {entry: made.pop(entry), **made}
