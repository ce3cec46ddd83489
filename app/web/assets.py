"""The browser client's files as the pages link them: a page preloads every module its script
imports (``<link rel="modulepreload">``), so the browser fetches them at once instead of one
import level after another.
"""

from __future__ import annotations

import re
from functools import cache

from flask import url_for

from app.web import ROOT

STATIC = ROOT / "static"
# A static import between our modules: `import { a, b } from "./board.js";` (static/js imports
# only its own files, by relative URL; a dynamic import() is left to load when needed).
IMPORT = re.compile(r'^import\s[^"]*?from\s*"\./([\w-]+\.js)";', re.M)


@cache
def preloads(script: str) -> tuple[str, ...]:
    """``script`` ("js/game.js") and every module it imports statically, at any depth."""
    found, queue = [], [script]
    while queue:
        path = queue.pop(0)
        if path in found:
            continue
        found.append(path)
        folder = path.rsplit("/", 1)[0]
        queue += [f"{folder}/{name}" for name in
                  IMPORT.findall((STATIC / path).read_text(encoding="utf-8"))]
    return tuple(found)


def static_url(path: str) -> str:
    """A static file's address."""
    return url_for("static", filename=path)


def init_app(app) -> None:
    app.jinja_env.globals.update(preloads=preloads, static_url=static_url)
