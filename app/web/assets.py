"""The browser client's files (static/) as the pages link them: each under a content-hashed
address (``js/board.3f9c0a1b2d4e.js``), served by WhiteNoise and cached a year as ``immutable``,
so a returning player's next turn fetches none of them again. The plain address keeps working,
revalidated at every use (``max-age=0``).

The modules import each other by relative URL ("./board.js"); the page's import map sends those
to the hashed addresses, and its hash is in the Content Security Policy (no other inline script
runs). A page also preloads every module its script imports (``modulepreload``), so the browser
fetches them at once instead of one import level after another.

Where the instance folder may be written (the development server, Gunicorn), each hashed file
is copied there with its gzip and brotli versions, which WhiteNoise sends to browsers that take
them; the names hold their content, so a copy is never stale. On Lambda (a read-only package)
the files are sent as they are, and API Gateway compresses them. docs/deploy.md.

Where esbuild is installed and that folder can be written, a page loads its script bundled
instead (bundles.py): one minified file under ``/static/bundle/``, and no import map or
preloads. ``BUNDLE_SCRIPTS=0`` in the environment (the app's config) loads the modules as
they are.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

from markupsafe import Markup

from app.web import ROOT, bundles

STATIC = ROOT / "static"
PREFIX = "/static/"
BUILT = ROOT / "instance" / "static"  # hashed copies and their compressed versions
COMPRESSED = (".js", ".css", ".json", ".svg")
YEAR = 365 * 24 * 3600
# A static import between our modules: `import { a, b } from "./board.js";` (static/js imports
# only its own files, by relative URL; a dynamic import() is left to load when needed).
IMPORT = re.compile(r'^import\s[^"]*?from\s*"\./([\w-]+\.js)";', re.M)


@dataclass(frozen=True)
class Assets:
    """Every static file's hashed name, the page's import map and its CSP hash."""
    names: dict[str, str]  # "js/game.js" -> "js/game.0a1b2c3d4e5f.js"
    import_map: Markup
    import_map_hash: str

    def url(self, path: str) -> str:
        return PREFIX + self.names[path]


def hashed_name(path: str, content: bytes) -> str:
    """``js/game.js`` as ``js/game.<12 hex digits of its SHA-256>.js``."""
    stem, dot, ext = path.rpartition(".")
    return f"{stem}.{hashlib.sha256(content).hexdigest()[:12]}{dot}{ext}"


@cache
def assets() -> Assets:
    names = {}
    for file in sorted(STATIC.rglob("*")):
        if file.is_file() and not file.name.startswith("."):
            path = file.relative_to(STATIC).as_posix()
            names[path] = hashed_name(path, file.read_bytes())
    imports = {PREFIX + path: PREFIX + name for path, name in names.items()
               if path.endswith(".js")}
    text = json.dumps({"imports": imports}, separators=(",", ":"), sort_keys=True)
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    return Assets(names, Markup(text), f"'sha256-{digest}'")


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
    """A static file's hashed address."""
    return assets().url(path)


def _built(path: str, name: str) -> Path | None:
    """The hashed copy of ``path`` with its .gz and .br beside it, made now if missing; None
    where the instance folder can't be written (Lambda)."""
    return _written(name, lambda: (STATIC / path).read_bytes())


def _written(name: str, content) -> Path | None:
    """The file ``name`` in the instance folder with its .gz and .br beside it, written now
    from ``content()`` if missing (its name holds its content: never stale); None where the
    folder can't be written."""
    target = BUILT / name
    if target.exists():
        return target
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        data = content()
        encodings = {"": data}
        if name.endswith(COMPRESSED):
            from whitenoise.compress import Compressor  # brotli too when installed

            compressor = Compressor(quiet=True)
            encodings[".gz"] = compressor.compress_gzip(data)
            if compressor.use_brotli:
                encodings[".br"] = compressor.compress_brotli(data)
        for suffix in sorted(encodings, reverse=True):  # the copy itself last: it marks done
            temporary = target.with_name(f"{target.name}{suffix}.{os.getpid()}")
            temporary.write_bytes(encodings[suffix])
            os.replace(temporary, target.with_name(target.name + suffix))
    except OSError:
        return None
    return target


@dataclass(frozen=True)
class Bundled:
    """The page scripts' bundles as served: each script's name, and every file written."""
    scripts: dict[str, str]  # "js/game.js" -> "bundle/game.0a1b2c3d4e5f.js"
    files: dict[str, Path]  # every bundle and chunk, by name as served -> its file


@cache
def bundled() -> Bundled | None:
    """Every page script bundled (bundles.py) and written to the instance folder; None where
    one can't be (no esbuild, a folder that can't be written): the pages load the modules.

    What was made is listed under a name that holds the modules' content and esbuild's version
    and options: a server's other workers, and its next start with the same files, read that
    list instead of running esbuild again."""
    if not bundles.available():
        return None
    made_from = json.dumps([bundles.version(), bundles.OPTIONS, sorted(
        (path, name) for path, name in assets().names.items() if path.startswith("js/"))])
    listed = BUILT / "bundle" / f"made-{hashlib.sha256(made_from.encode()).hexdigest()[:12]}.json"
    try:
        found = json.loads(listed.read_text(encoding="utf-8"))
        if all((BUILT / name).exists() for name in found["files"]):
            return Bundled(found["scripts"], {name: BUILT / name for name in found["files"]})
    except (OSError, ValueError, KeyError):
        pass  # not made yet (or unreadable): made now
    scripts, files = {}, {}
    for script in bundles.PAGE_SCRIPTS:
        made = bundles.build(STATIC / script)
        if not made:
            return None
        for i, (name, data) in enumerate(made.items()):
            # The script's own name gets its content's hash; a chunk's has it already, and
            # the script imports it by that name.
            served = hashed_name(f"bundle/{name}", data) if i == 0 else f"bundle/{name}"
            written = _written(served, lambda data=data: data)
            if written is None:
                return None
            files[served] = written
            if i == 0:
                scripts[script] = served
    temporary = listed.with_name(f"{listed.name}.{os.getpid()}")
    temporary.write_text(json.dumps({"scripts": scripts, "files": sorted(files)}),
                         encoding="utf-8")
    os.replace(temporary, listed)  # the bundles are written already: this marks them made
    return Bundled(scripts, files)


def init_app(app) -> None:
    """WhiteNoise in front of the app for /static/, and the templates' helpers: ``scripts``
    gives a page's script tags' addresses, bundled or as modules."""
    from whitenoise import WhiteNoise

    found = assets()
    made = bundled() if app.config["BUNDLE_SCRIPTS"] else None
    hashed = {PREFIX + name for name in found.names.values()} | \
        {PREFIX + name for name in (made.files if made else ())}
    served = WhiteNoise(app.wsgi_app, max_age=0, immutable_file_test=lambda _, url: url in hashed)
    served.FOREVER = YEAR  # WhiteNoise's own is ten years
    for path, name in found.names.items():
        served.add_file_to_dictionary(PREFIX + path, str(STATIC / path))
        served.add_file_to_dictionary(PREFIX + name, str(_built(path, name) or STATIC / path))
    for name, file in (made.files.items() if made else ()):
        served.add_file_to_dictionary(PREFIX + name, str(file))
    app.wsgi_app = served

    def scripts(script: str) -> PageScripts:
        if made and script in made.scripts:
            return PageScripts(PREFIX + made.scripts[script], (), None)
        return PageScripts(static_url(script), tuple(static_url(path) for path in preloads(script)),
                           found.import_map)

    app.jinja_env.globals.update(scripts=scripts, static_url=static_url)


class PageScripts(NamedTuple):
    """What a page's head and end carry to run its script."""
    main: str  # the script's address
    preloads: tuple[str, ...]  # the modules it imports, fetched at once
    import_map: Markup | None  # the modules' hashed addresses
