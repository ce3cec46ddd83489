"""The Lambda package: built from an allow-list, with bytecode, and its cold start measured.

Zappa zips the project folder and the site-packages of the environment it runs in, less an
``exclude`` list of names: anything else in the checkout or the environment would ship. Two of
Zappa's callbacks (``"callbacks"`` in ``zappa_settings.json``) turn that into an allow-list:

- ``settings_callback`` (after Zappa reads the settings, before ``package``, ``deploy`` or
  ``update``) adds to ``exclude`` every name at the top of the project folder and of
  site-packages that the package does not hold, so Zappa doesn't even copy them. Only a speed-up:
  a name that also appears inside something that ships is left for the zip callback.
- ``zip_callback`` (after Zappa writes the zip, before it is uploaded) rewrites the zip from
  the allow-list: entries it doesn't name are dropped, whatever put them there; every shipped
  distribution is checked whole against its ``RECORD``; each module gets its bytecode for the
  Lambda's Python (``__pycache__/*.cpython-311.pyc``, unchecked hash-based, so that no file time
  on Lambda can make Python ignore it and compile again); and Zappa's ``zappa/utilities.py``
  imports boto3 and botocore at first use instead of with the handler. Then it leaves out what
  nothing imports on Lambda (``LEFT_OUT``: packages' tests, pytest plugins, type stubs, Twilio's
  APIs but the Messages API's, Pillow's codecs the app doesn't draw with, and the bundled
  libraries only those needed), ships the distributions' modules as their bytecode alone
  (``x.pyc`` in place of ``x.py``; the app's own and Zappa's files keep their source too),
  strips the compiled files of their debug information, and fails when one of them needs a
  newer glibc than the runtime's Amazon Linux has.

What ships (``allowed``): from the project, ``app/`` (its modules, templates, the compiled engine
``app/engine/*.so`` with ``native.json``, the catalogs: ``*.mo`` for the pages, ``*.po`` for
the browser client's words, the What's new page's ``app/web/news/*.md``) and ``static/``; Zappa's
``handler.py``, ``zappa_settings.py``, ``package_info.json``; from site-packages, the
distributions the app needs at run time: those ``pyproject.toml`` names and what they require,
where Zappa counts for its handler alone (``HANDLER_NEEDS``, not its command line's
dependencies), boto3 with botocore for nothing (``LAMBDA_PROVIDES``: the runtime has them), and
Twilio's asynchronous client for nothing either (``NOT_IMPORTED``).

``python -m app.package cold-start ZIP`` unzips a package and times, in fresh ``python -I -S -B``
processes with only that folder on ``sys.path`` (no site-packages, no bytecode written: Lambda's
code folder is read-only), importing Zappa's handler and answering a first request through it.
``python -m app.package contents ZIP`` sums a package by top-level name.
Only the standard library at module level: Zappa loads this file by path to call it.
"""

from __future__ import annotations

import argparse
import compileall
import csv
import fnmatch
import glob
import json
import os
import py_compile
import re
import shlex
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
from importlib import metadata
from importlib.util import cache_from_source
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent

# The project's part of the package, as paths inside the zip (fnmatch: "*" spans folders too).
PROJECT_TOP = ("app", "static")
PROJECT_FILES = (
    "app/*.py",                                      # the app's modules, at any depth
    "app/web/templates/*",
    "app/engine/*.so", "app/engine/native.json",     # python -m app build-native, when present
    "app/translations/*/LC_MESSAGES/*.mo",           # compiled by the prebuild script
    "app/translations/*/LC_MESSAGES/*.po",           # the browser client's words are read here
    "app/web/news/*.md",                             # the What's new page, per language
    "static/*",
)
# Deploy-time only: Zappa loads this file by path, the app never imports it.
PROJECT_LEFT_OUT = ("app/package.py",)
# What the build makes (git ignores it): it ships though git doesn't track it.
BUILT_FILES = ("app/engine/*.so", "app/engine/native.json", "app/translations/*/LC_MESSAGES/*.mo")
ZAPPA_FILES = ("handler.py", "zappa_settings.py", "package_info.json")  # Zappa writes these
# Zappa adds an empty __init__.py at the top (and in any folder of modules that lacks one).

# What Zappa's Lambda handler imports (zappa.handler, .wsgi, .asgi, .middleware, .utilities),
# instead of everything the zappa distribution requires for its command line.
HANDLER_NEEDS = ("werkzeug", "durationpy")
# In the Lambda runtime already: never shipped, even when something asks for them.
LAMBDA_PROVIDES = ("boto3", "botocore", "s3transfer", "jmespath")
# Required by a distribution that ships, never imported on Lambda: left out with what only they
# require. aiohttp and aiohttp-retry are Twilio's asynchronous client's (app/twilio_send.py texts
# through its synchronous one, on requests; yarl, multidict, frozenlist, attrs... go with them), and
# pywebpush's (app/push.py pushes through its synchronous one, on requests, with a stand-in for
# the aiohttp that pywebpush imports);
# pycparser is cffi's C parser, for making bindings, not for loading them; brotli makes the
# static files' .br versions where the server may write them, never on Lambda (assets.py).
NOT_IMPORTED = ("aiohttp", "aiohttp-retry", "pycparser", "brotli")

# Files of the distributions that ship which nothing imports or reads on Lambda, by why
# (regular expressions on the paths in the zip; the tests import and use what stays).
LEFT_OUT = {
    "tests and pytest plugins":
        r"(.+/)?(tests?/.+|test_[^/]+\.py|conftest\.py|pytest_plugin\.py)",
    "type stubs": r".+\.pyi|.+/py\.typed",
    "Zappa's command line": r"zappa/(cli|core|letsencrypt)\.py",  # the handler imports none
    # cryptography loads cffi's compiled backend (_cffi_backend, at the top), never cffi itself.
    "cffi's bindings maker": r"cffi/.+",
    # app/twilio_send.py sends through client.messages, the Api domain's (twilio/rest/api); the
    # other domains' packages load only when their attribute of the Client is read.
    "Twilio's APIs other than the Messages API's": r"twilio/rest/(?!api/)[^/]+/.+",
    # The app draws shapes and writes PNG and ICO (app/web/preview.py, icons.py): no text
    # (FreeType), color profiles, AVIF or WebP, image math or morphology, Tk. Pillow imports
    # each of these modules only if it is there.
    "Pillow's optional modules": r"PIL/_(avif|webp|imagingft|imagingcms|imagingmath|imagingmorph"
                                 r"|imagingtk)\..+",
}
# A library a wheel bundles (auditwheel's <name>.libs/) ships if a shipped extension needs it.
BUNDLED = re.compile(r"[^/]+\.libs/[^/]+")
UNUSED_LIBRARIES = "bundled libraries no shipped extension needs"

# Zappa's handler imports zappa.utilities, which imports boto3 and botocore (about 1,300 modules)
# only for deploy-time helpers. In the package they load at first use: its annotations become
# strings, and the two names stand for the modules until an attribute is read.
UTILITIES = "zappa/utilities.py"
EAGER_BOTO = "import boto3\nimport botocore\n"
LAZY_BOTO = '''\
class _ImportedAtFirstUse:
    """Boardpass's package (app/package.py): a module imported when first used, not here."""

    def __init__(self, name, *submodules):
        self._names = (name, *(f"{name}.{sub}" for sub in submodules))

    def __getattr__(self, attr):
        import importlib

        module = [importlib.import_module(name) for name in self._names][0]
        return getattr(module, attr)


boto3 = _ImportedAtFirstUse("boto3")
botocore = _ImportedAtFirstUse("botocore", "exceptions")
'''


# The C library of each runtime's Amazon Linux (python3.8 to 3.11: Amazon Linux 2; then 2023):
# compiled code that asks for a newer glibc doesn't load there.
RUNTIME_GLIBC = {"python3.9": (2, 26), "python3.10": (2, 26), "python3.11": (2, 26),
                 "python3.12": (2, 34), "python3.13": (2, 34), "python3.14": (2, 34)}


class PackageError(Exception):
    """The package can't be built as the allow-list says (the message says why)."""


def canonical(name: str) -> str:
    """A distribution's name as PyPI compares names (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_class():
    try:
        from packaging.requirements import Requirement
    except ImportError:  # pip, which Zappa requires, carries its own copy
        from pip._vendor.packaging.requirements import Requirement
    return Requirement


def project_requirements(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    import tomllib

    with pyproject.open("rb") as f:
        return list(tomllib.load(f)["project"]["dependencies"])


def runtime_distributions(site_packages: Path, requirements: list[str]) -> dict:
    """The distributions installed in ``site_packages`` that the app needs on Lambda, by
    canonical name: ``requirements`` and, through each one's metadata, what they require (its
    extras left out, environment markers as this interpreter reads them)."""
    Requirement = _requirement_class()
    installed: dict = {}
    twice = set()
    for dist in metadata.distributions(path=[str(site_packages)]):
        name = canonical(dist.metadata["Name"])
        if installed.setdefault(name, dist) is not dist:
            twice.add(name)
    chosen: dict = {}
    missing = []
    pending = [(text, "pyproject.toml") for text in requirements]
    while pending:
        text, wanted_by = pending.pop()
        requirement = Requirement(text)
        if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = canonical(requirement.name)
        if name in LAMBDA_PROVIDES or name in NOT_IMPORTED or name in chosen:
            continue
        dist = installed.get(name)
        if dist is None:
            missing.append(f"{requirement.name} (for {wanted_by})")
            continue
        chosen[name] = dist
        needs = HANDLER_NEEDS if name == "zappa" else (dist.requires or [])
        pending.extend((need, name) for need in needs)
    if missing:
        raise PackageError(f"not installed in {site_packages}: {', '.join(sorted(missing))}")
    if twice & set(chosen):  # pip install --target over another version leaves its metadata
        names = " ".join(sorted(twice & set(chosen)))
        raise PackageError(f"installed twice in {site_packages} (two .dist-info folders): "
                           f"{names}; pip uninstall -y {names} (until none is left), then "
                           "install them once")
    return chosen


def _record_tops(paths) -> set[str]:
    """The top-level names (folders, modules, .dist-info) that a RECORD's paths lie under."""
    tops = set()
    for path in paths:
        parts = PurePosixPath(str(path)).parts
        if parts and parts[0] not in ("..", "/"):
            tops.add(parts[0])
    return tops


def distribution_tops(dist) -> set[str]:
    if dist.files:
        return _record_tops(dist.files)
    top_level = dist.read_text("top_level.txt") or canonical(dist.metadata["Name"])
    return set(top_level.replace("-", "_").split())


def site_packages_of(venv: Path) -> Path:
    """Where Zappa takes the packages from, for the environment ``venv``."""
    return Path(venv) / "lib" / "python{}.{}".format(*sys.version_info) / "site-packages"


def project_file_allowed(path: str, tracked: set[str] | None = None) -> bool:
    """Whether a project file ships: on the allow-list, and in a git checkout either tracked by
    git or made by the build (the compiled engine, the catalogs), so that a stray
    ``app/local_keys.py`` or ``static/.env`` never ships whatever its name."""
    if not any(fnmatch.fnmatchcase(path, pattern) for pattern in PROJECT_FILES):
        return False
    return tracked is None or path in tracked or \
        any(fnmatch.fnmatchcase(path, pattern) for pattern in BUILT_FILES)


def tracked_files(root: Path = ROOT) -> set[str] | None:
    """The files git tracks in the checkout at ``root`` (None: not a git checkout)."""
    try:
        listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], check=True,
                                capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return {name for name in listed.decode().split("\0") if name}


# -- Zappa's callbacks ---------------------------------------------------------------------------


def _packaging_command(cli) -> bool:
    return getattr(cli, "command", None) in (None, "package", "deploy", "update")


def settings_callback(cli) -> None:
    """Zappa's ``settings`` callback: exclude, by name, whatever is not to ship, so that Zappa
    doesn't copy it (the zip callback drops anything else that gets through)."""
    venv = cli.zappa.get_current_venv() if cli.zappa else None
    if not _packaging_command(cli) or venv is None:  # no environment: Zappa will say so
        return
    site = site_packages_of(venv)
    chosen = runtime_distributions(site, project_requirements(Path.cwd() / "pyproject.toml"))
    keep_site = set().union(*(distribution_tops(d) for d in chosen.values()))
    # Names anywhere inside what ships: excluding one of them would drop it there too, since
    # Zappa matches the exclude list against names at every depth.
    inside = {part for d in chosen.values() for f in (d.files or ()) for part in
              PurePosixPath(str(f)).parts}
    inside |= {part for top in PROJECT_TOP if (Path.cwd() / top).is_dir()
               for f in (Path.cwd() / top).rglob("*") for part in f.relative_to(Path.cwd()).parts}
    inside |= set(ZAPPA_FILES) | set(PROJECT_TOP) | keep_site
    candidates = {p.name for p in Path.cwd().iterdir()} | {p.name for p in site.iterdir()}
    exclude = list(cli.stage_config.get("exclude", []))
    exclude += sorted(glob.escape(name) for name in candidates - inside - set(exclude))
    cli.override_stage_config_setting("exclude", exclude)  # stage_config is made afresh each time


def zip_callback(cli) -> None:
    """Zappa's ``zip`` callback: rewrite the package from the allow-list, with bytecode. A
    package that can't be built as it should is not left behind: Zappa stops with the reason
    (exit status 1), before any upload."""
    zip_path = Path(cli.zip_path)
    try:
        if cli.stage_config.get("slim_handler", False):
            raise PackageError("slim_handler makes two archives: app/package.py rewrites one zip")
        report = rebuild(zip_path, site_packages_of(cli.zappa.get_current_venv()),
                         project_requirements(Path.cwd() / "pyproject.toml"),
                         runtime=cli.stage_config.get("runtime", ""),
                         exclude_glob=cli.stage_config.get("exclude_glob", []))
    except PackageError as error:
        zip_path.unlink(missing_ok=True)
        from click import ClickException  # Zappa's command line is made with click

        raise ClickException(f"no package: {error}") from None
    print(_summary(report))


def _summary(report: dict) -> str:
    sizes = (f"Package: {report['files']:,} files, {_mib(report['zip_bytes'])} zipped, "
             f"{_mib(report['unzipped_bytes'])} unzipped; {report['sourceless']:,} modules as "
             f"bytecode alone, {report['with_source']:,} with their source")
    lines = [sizes]
    for why, (files, size) in report["left_out"].items():
        lines.append(f"  left out, {why}: {_mib(size)} in {files:,} file{'s' * (files > 1)}")
    if report["dropped"]:
        lines.append(f"  dropped, not on the allow-list: {', '.join(report['dropped'])}")
    if report["not_compiled"]:
        lines.append(f"  left without bytecode (they don't compile): "
                     f"{', '.join(report['not_compiled'])}")
    if isinstance(report["stripped"], str):
        lines.append(f"  WARNING: compiled files keep their debug information: "
                     f"{report['stripped']}")
    else:
        lines.append(f"  compiled files stripped: {_mib(report['stripped'])} less")
    if not report["lazy_boto3"]:
        lines.append(f"  WARNING: {UTILITIES} is not as app/package.py expects: boto3 is "
                     "imported with the handler")
    return "\n".join(lines)


def _mib(size: int) -> str:
    return f"{size / 2**20:.1f} MiB"


# -- the rewrite ---------------------------------------------------------------------------------


def check_interpreter(runtime: str) -> str:
    """The cache tag the package's bytecode carries, which must be the Lambda runtime's."""
    wanted = "cpython-" + runtime.removeprefix("python").replace(".", "")
    tag = sys.implementation.cache_tag
    if not runtime.startswith("python") or tag != wanted:
        raise PackageError(f"the runtime is {runtime!r} but Zappa runs on {tag}: build the "
                           f"package with the runtime's Python, or its bytecode would be ignored")
    return tag


def allowed(names: list[str], chosen: dict, records: dict[str, str],
            tracked: set[str] | None = None) -> tuple[set[str], set[str]]:
    """The entries of a zip (``names``) on the allow-list, and the top-level names it dropped.
    ``records`` maps each ``*.dist-info/RECORD`` in the zip to its text: a distribution that
    Zappa swapped for a manylinux wheel lists its own files there. ``tracked``: the checkout's
    files git tracks (``tracked_files``)."""
    tops = set(ZAPPA_FILES)
    for dist in chosen.values():
        tops |= distribution_tops(dist)
    for path, text in records.items():
        if _dist_name(path.split("/")[0]) in chosen:
            tops |= _record_tops(_record_files(text))
    kept, dropped = set(), set()
    for name in names:
        if name.endswith("/"):
            continue
        top = name.split("/")[0]
        if "__pycache__/" in name or name.endswith((".pyc", ".pyo")):
            continue  # compiled again below, for the runtime's interpreter
        if top in PROJECT_TOP or name == "__init__.py":
            ok = project_file_allowed(name, tracked) or name == "__init__.py"
        else:
            ok = top in tops
        if ok:
            kept.add(name)
        else:
            dropped.add(name if top in PROJECT_TOP else top)
    return kept, dropped


def _record_files(text: str) -> list[str]:
    """The paths a RECORD file lists (CSV: path, hash, size)."""
    return [row[0] for row in csv.reader(text.splitlines()) if row and row[0]]


def _dist_name(dist_info: str) -> str:
    """``Flask_Babel-4.0.0.dist-info`` -> ``flask-babel``."""
    return canonical(dist_info.removesuffix(".dist-info").rsplit("-", 1)[0])


def check_complete(kept: set[str], records: dict[str, str], chosen: dict,
                   exclude_glob: list[str]) -> None:
    """Every file a shipped distribution's RECORD names is in the package, but for bytecode,
    scripts outside site-packages and what ``exclude_glob`` leaves out on purpose: otherwise an
    exclude pattern took a piece of it and the package would break on Lambda."""
    missing = []
    seen = set()
    for path, text in records.items():
        name = _dist_name(path.split("/")[0])
        if name not in chosen:
            continue
        seen.add(name)
        for file in _record_files(text):
            if file.startswith(("..", "/")) or "__pycache__/" in file \
                    or file.endswith(".pyc") or file in kept:
                continue
            if any(fnmatch.fnmatch(p, pattern) for pattern in exclude_glob
                   for p in (file, *(q.as_posix() for q in PurePosixPath(file).parents))):
                continue
            missing.append(file)
    if missing:
        raise PackageError(f"{len(missing)} files of shipped distributions are missing from the "
                           f"package (an exclude pattern?): {', '.join(sorted(missing)[:10])}")
    if set(chosen) - seen:
        raise PackageError(f"no RECORD in the package for {', '.join(sorted(set(chosen) - seen))}")


def lazy_boto3(source: str) -> str | None:
    """``zappa/utilities.py`` importing boto3 and botocore at first use, or None if the file
    is not as expected (the handler then imports them at start, as upstream does)."""
    if source.count(EAGER_BOTO) != 1 or "from __future__ import annotations" in source:
        return None
    return "from __future__ import annotations\n" + source.replace(EAGER_BOTO, LAZY_BOTO)


def rebuild(zip_path: Path, site_packages: Path, requirements: list[str], runtime: str,
            exclude_glob: list[str] = ()) -> dict:
    """Rewrite Zappa's zip in place from the allow-list, less what nothing imports on Lambda,
    with bytecode; returns a report. Raises ``PackageError`` (and writes nothing) when a
    compiled file needs a newer glibc than ``runtime`` has."""
    check_interpreter(runtime)
    chosen = runtime_distributions(site_packages, requirements)
    with zipfile.ZipFile(zip_path) as old:
        names = old.namelist()
        records = {n: old.read(n).decode("utf-8", "replace") for n in names
                   if re.fullmatch(r"[^/]+\.dist-info/RECORD", n)}
        kept, dropped = allowed(names, chosen, records, tracked_files())
        check_complete(kept, records, chosen, list(exclude_glob))
        left_out: dict[str, list[int]] = {}
        for name in sorted(kept):
            why = left_out_because(name)
            if why:
                kept.remove(name)
                _count(left_out, why, old.getinfo(name).file_size)
        with tempfile.TemporaryDirectory(prefix="boardpass-package-") as temp:
            tree = Path(temp) / "package"
            for name in sorted(kept):
                target = tree / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(old.read(name))
            old.close()
            utilities = tree / UTILITIES
            patched = lazy_boto3(utilities.read_text("utf-8")) if utilities.exists() else None
            if patched:
                utilities.write_text(patched, "utf-8")
            compiled = {p.relative_to(tree).as_posix(): elf_needs(p.read_bytes())
                        for p in tree.rglob("*.so*") if p.is_file()}
            for name in _unused_libraries(compiled):
                _count(left_out, UNUSED_LIBRARIES, (tree / name).stat().st_size)
                (tree / name).unlink()
                del compiled[name]
            too_new = _too_new(runtime, compiled)
            if too_new:
                raise PackageError(_glibc_error(runtime, too_new, records, site_packages))
            stripped = _strip(tree, sorted(compiled))
            not_compiled = _compile(tree)
            sourceless, with_source = _bytecode_alone(tree)
            report = _write(tree, zip_path)
    report.update(dropped=sorted(dropped), not_compiled=not_compiled, lazy_boto3=bool(patched),
                  distributions=sorted(chosen), left_out=left_out, sourceless=sourceless,
                  with_source=with_source, stripped=stripped)
    return report


def ours(name: str) -> bool:
    """Whether a path in the package is the project's or Zappa's, not a distribution's."""
    return name.split("/")[0] in PROJECT_TOP or name in (*ZAPPA_FILES, "__init__.py")


def left_out_because(name: str) -> str | None:
    """Why a file that the allow-list lets through stays out all the same (``LEFT_OUT``,
    ``PROJECT_LEFT_OUT``), or None."""
    if name in PROJECT_LEFT_OUT:
        return "deploy-time modules of the app"
    if ours(name):
        return None
    return next((why for why, pattern in LEFT_OUT.items() if re.fullmatch(pattern, name)), None)


def _count(tally: dict[str, list[int]], why: str, size: int) -> None:
    files_bytes = tally.setdefault(why, [0, 0])
    files_bytes[0] += 1
    files_bytes[1] += size


def _unused_libraries(compiled: dict[str, tuple]) -> list[str]:
    """The bundled libraries (``BUNDLED``) that no other compiled file in ``compiled`` (path:
    ``elf_needs``) needs, directly or through another bundled library."""
    bundled = {name.rsplit("/", 1)[1]: name for name in compiled if BUNDLED.fullmatch(name)}
    pending = [name for name in compiled if not BUNDLED.fullmatch(name)]
    needed: set[str] = set()
    while pending:
        for library in compiled[pending.pop()][1]:
            if library in bundled and bundled[library] not in needed:
                needed.add(bundled[library])
                pending.append(bundled[library])
    return sorted(set(bundled.values()) - needed)


def _sections(data: bytes) -> list[tuple] | None:
    """The section headers of a 64-bit little-endian ELF file, None for any other file."""
    if data[:6] != b"\x7fELF\x02\x01":
        return None
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    return [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
            for i in range(shnum)]


def _c_string(data: bytes, at: int) -> bytes:
    return data[at:data.index(b"\0", at)]


def elf_needs(data: bytes) -> tuple[tuple[int, int] | None, list[str]]:
    """What a compiled file (a 64-bit little-endian ELF extension or library) asks of the
    system it loads on: the newest ``GLIBC_x.y`` symbol version among its version needs (None
    when it asks for none, or is no ELF file), and the libraries it needs by name
    (``DT_NEEDED``)."""
    newest, libraries = None, []
    sections = _sections(data) or []
    for _, kind, _, _, offset, size, link, count, _, _ in sections:
        if kind == 6:  # SHT_DYNAMIC: (tag, value) pairs, DT_NEEDED = 1, until DT_NULL
            strings = sections[link][4]
            for at in range(offset, offset + size, 16):
                tag, value = struct.unpack_from("<qQ", data, at)
                if tag == 0:
                    break
                if tag == 1:
                    libraries.append(_c_string(data, strings + value).decode())
        elif kind == 0x6FFFFFFE:  # SHT_GNU_verneed
            strings = sections[link][4]
            for _ in range(count):
                _, aux_count, _, aux, following = struct.unpack_from("<HHIII", data, offset)
                at = offset + aux
                for _ in range(aux_count):
                    _, _, _, name, aux_next = struct.unpack_from("<IHHII", data, at)
                    found = re.fullmatch(rb"GLIBC_(\d+)\.(\d+)(?:\.\d+)?",
                                         _c_string(data, strings + name))
                    if found:
                        version = (int(found[1]), int(found[2]))
                        newest = max(newest or version, version)
                    at += aux_next
                offset += following
    return newest, libraries


def _too_new(runtime: str, compiled: dict[str, tuple]) -> dict[str, tuple[int, int]]:
    """The compiled files that ask for a newer glibc than the runtime's Amazon Linux has."""
    limit = RUNTIME_GLIBC.get(runtime)
    return {name: glibc for name, (glibc, _) in sorted(compiled.items())
            if limit and glibc and glibc > limit}


def _glibc_error(runtime: str, too_new: dict[str, tuple[int, int]], records: dict[str, str],
                 site_packages: Path) -> str:
    """Which files would not load on Lambda, and the command that installs their packages
    from wheels made for its C library."""
    owners = {file: _dist_name(record.split("/")[0]) for record, text in records.items()
              for file in _record_files(text)}
    limit = ".".join(map(str, RUNTIME_GLIBC[runtime]))
    lines = [(f"compiled files that need a newer C library than the {runtime} runtime's glibc "
              f"{limit}, and would not load on Lambda:")]
    for name, glibc in too_new.items():
        owner = owners.get(name, "built in the checkout: build it on an older Linux")
        lines.append(f"  {name} needs glibc {glibc[0]}.{glibc[1]} ({owner})")
    dists = " ".join(sorted({owners[name] for name in too_new if name in owners}))
    if dists:
        site = shlex.quote(str(site_packages))
        lines += [("Install them from manylinux2014 wheels (glibc 2.17) in the environment you "
                   "package from, then package again (docs/deploy.md, Compiled code):"),
                  f"  pip uninstall -y {dists}",
                  ("  pip install --no-deps --only-binary=:all: --platform manylinux2014_x86_64 "
                   f"--target {site} {dists}")]
    return "\n".join(lines)


def _strip(tree: Path, compiled: list[str]) -> int | str:
    """The compiled files without their debug information and the symbols nothing links to
    (binutils' ``strip --strip-unneeded``, as Linux distributions ship libraries): what they
    export and load by stays. The bytes it saved, or why it couldn't."""
    files = [tree / name for name in compiled if (tree / name).read_bytes()[:4] == b"\x7fELF"]
    strip = shutil.which("strip")
    if not strip:
        return "no strip command (binutils)"
    before = sum(path.stat().st_size for path in files)
    done = subprocess.run([strip, "--strip-unneeded", *map(str, files)], capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        return f"strip failed: {done.stderr.strip()[:500]}"
    return before - sum(path.stat().st_size for path in files)


def _compile(tree: Path) -> list[str]:
    """Bytecode for every module, beside it in ``__pycache__``, for this interpreter; the
    modules that don't compile (test data shipped as .py, say) are returned and left as they
    are: Python never compiles them unless they are imported."""
    sources = sorted(tree.rglob("*.py"))
    ok = compileall.compile_dir(tree, quiet=2, workers=1, ddir="",
                                invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    if ok:
        return []
    return [s.relative_to(tree).as_posix() for s in sources
            if not Path(cache_from_source(str(s))).exists()]


def _bytecode_alone(tree: Path) -> tuple[int, int]:
    """Each distribution's module as its bytecode alone, ``x.pyc`` in place of ``x.py`` (which
    Python imports as it is); the app's and Zappa's modules keep their source beside their
    ``__pycache__``: the engine's build is checked against it at start, and tracebacks show
    its lines. Returns how many modules are bytecode alone, how many keep their source."""
    alone = kept = 0
    for source in sorted(tree.rglob("*.py")):
        cached = Path(cache_from_source(str(source)))
        if ours(source.relative_to(tree).as_posix()) or not cached.exists():
            kept += 1
            continue
        cached.replace(source.with_suffix(".pyc"))
        source.unlink()
        alone += 1
    for folder in sorted(tree.rglob("__pycache__"), reverse=True):
        if not any(folder.iterdir()):
            folder.rmdir()
    return alone, kept


def _write(tree: Path, zip_path: Path) -> dict:
    """The folder as a zip, in a fixed order, every file readable on Lambda."""
    files = sorted(p for p in tree.rglob("*") if p.is_file())
    partial = zip_path.with_name(zip_path.name + ".partial")
    unzipped = modules = 0
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as new:
        for path in files:
            info = zipfile.ZipInfo(path.relative_to(tree).as_posix())  # 1980-01-01, like Zappa's
            info.create_system = 3
            info.external_attr = 0o755 << 16  # as Zappa sets them
            info.compress_type = zipfile.ZIP_DEFLATED
            data = path.read_bytes()
            new.writestr(info, data)
            unzipped += len(data)
            modules += path.suffix == ".pyc"
    os.replace(partial, zip_path)
    return {"files": len(files), "modules": modules, "unzipped_bytes": unzipped,
            "zip_bytes": zip_path.stat().st_size}


# -- reading a package ---------------------------------------------------------------------------


def contents(zip_path: Path) -> list[tuple[str, int, int, int]]:
    """Per top-level name: files, unzipped and zipped bytes, the largest first."""
    sums: dict[str, list[int]] = {}
    with zipfile.ZipFile(zip_path) as z:
        for info in z.infolist():
            s = sums.setdefault(info.filename.split("/")[0], [0, 0, 0])
            s[0] += 1
            s[1] += info.file_size
            s[2] += info.compress_size
    return sorted(((k, *v) for k, v in sums.items()), key=lambda row: -row[2])


# The first request of a cold start: the home page through API Gateway (a REST API), as
# tests/test_lambda.py sends it.
FIRST_REQUEST = {
    "resource": "/", "path": "/", "httpMethod": "GET",
    "headers": {"Host": "abc123defg.execute-api.us-east-1.amazonaws.com", "Accept": "text/html",
                "Accept-Language": "es-AR,es;q=0.9", "X-Forwarded-Proto": "https",
                "X-Forwarded-For": "203.0.113.9", "X-Forwarded-Port": "443"},
    "multiValueHeaders": {}, "queryStringParameters": None,
    "multiValueQueryStringParameters": None, "pathParameters": None, "stageVariables": None,
    "requestContext": {"resourcePath": "/", "httpMethod": "GET", "path": "/dev/", "stage": "dev",
                       "requestId": "cold-start", "identity": {"sourceIp": "203.0.113.9"}},
    "body": None, "isBase64Encoded": False,
}

_CHILD = r"""
import sys, time
start = time.perf_counter()
sys.path[:0] = PATHS
import json, os
import handler
imported = time.perf_counter()

class Context:
    function_name = "boardpass-dev"
    aws_request_id = "cold-start"
    def get_remaining_time_in_millis(self):
        return 29_000

answer = handler.lambda_handler(EVENT, Context())
answered = time.perf_counter()
ours = [m for m in list(sys.modules.values()) if getattr(m, "__file__", None)
        and m.__file__.startswith(PATHS[0]) and m.__file__.endswith((".py", ".pyc"))]
print(json.dumps({
    "import": imported - start, "first_answer": answered - start,
    "status": answer["statusCode"], "boto3": "boto3" in sys.modules,
    "modules": len(ours),
    "compiled_at_start": sum(not os.path.exists(getattr(m, "__cached__", None) or "")
                             for m in ours),
}))
"""

# The Lambda runtime's own libraries, for a package that imports boto3 at start.
RUNTIME_LIBRARIES = LAMBDA_PROVIDES + ("dateutil", "six")


def runtime_libraries(folder: Path) -> Path:
    """``folder`` made to hold this machine's boto3, botocore and what they need (links), to
    put after a package on ``sys.path`` as Lambda puts its runtime's."""
    import importlib.util

    folder.mkdir()
    for name in RUNTIME_LIBRARIES:
        spec = importlib.util.find_spec(name)
        if spec and spec.origin:
            origin = Path(spec.origin)
            source = origin.parent if origin.name == "__init__.py" else origin
            (folder / source.name).symlink_to(source)
    return folder


def cold_start(zip_path: Path, runs: int = 5, with_boto3: bool = False) -> dict:
    """Unzip the package and time fresh interpreters importing the handler and answering a
    first request. ``python -I -S -B``: no environment variables, no site-packages, no user
    folder, no bytecode written (Lambda's code folder is read-only: what the zip doesn't carry
    is compiled at every cold start). ``with_boto3`` adds this machine's boto3 and botocore
    after the package, as the runtime's are on Lambda."""
    with tempfile.TemporaryDirectory(prefix="boardpass-cold-") as temp:
        task = Path(temp) / "task"
        with zipfile.ZipFile(zip_path) as z:
            z.extractall(task)
        unzipped = sum(p.stat().st_size for p in task.rglob("*") if p.is_file())
        paths = [str(task)]
        if with_boto3:
            paths.append(str(runtime_libraries(Path(temp) / "runtime")))
        code = _CHILD.replace("PATHS", repr(paths)).replace("EVENT", repr(FIRST_REQUEST))
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": temp, "LANG": "C.UTF-8",
               "AWS_LAMBDA_FUNCTION_NAME": "boardpass-dev", "AWS_REGION": "us-east-1",
               "LAMBDA_TASK_ROOT": str(task),
               "SIGNING_KEYS": "cold-start-signing-key", "DICE_KEY": "cold-start-dice-key"}
        results = []
        for _ in range(runs):
            began = time.perf_counter()
            done = subprocess.run([sys.executable, "-I", "-S", "-B", "-c", code], cwd=temp,
                                  env=env, capture_output=True, text=True, timeout=120)
            wall = time.perf_counter() - began
            if done.returncode != 0:
                raise PackageError(f"the package's handler failed:\n{done.stderr[-3000:]}")
            result = json.loads(done.stdout.strip().splitlines()[-1])
            if result["status"] != 200:
                raise PackageError(f"the first request got {result['status']}:\n"
                                   f"{done.stderr[-3000:]}")
            result["process"] = wall
            results.append(result)
    first = results[0]
    return {
        "zip_bytes": zip_path.stat().st_size, "unzipped_bytes": unzipped, "runs": runs,
        "status": first["status"], "boto3_imported": first["boto3"],
        "modules": first["modules"], "compiled_at_start": first["compiled_at_start"],
        **{f"{key}_s": {"median": round(statistics.median(r[key] for r in results), 3),
                        "min": round(min(r[key] for r in results), 3),
                        "max": round(max(r[key] for r in results), 3)}
           for key in ("import", "first_answer", "process")},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.package",
                                     description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    cold = commands.add_parser("cold-start", help="time a cold start of the unzipped package")
    cold.add_argument("zip", type=Path)
    cold.add_argument("--runs", type=int, default=5)
    cold.add_argument("--with-boto3", action="store_true",
                      help="put this machine's boto3 after the package, as Lambda's runtime "
                           "does (for a package whose handler imports it at start)")
    cont = commands.add_parser("contents", help="a package's files by top-level name")
    cont.add_argument("zip", type=Path)
    args = parser.parse_args(argv)
    if args.command == "cold-start":
        print(json.dumps(cold_start(args.zip, args.runs, args.with_boto3), indent=1))
    else:
        rows = contents(args.zip)
        total = [sum(row[i] for row in rows) for i in (1, 2, 3)]
        print(f"{'':40} {'files':>6} {'unzipped':>10} {'zipped':>10}")
        for name, files, size, packed in [("(total)", *total), *rows]:
            print(f"{name[:40]:40} {files:6} {_mib(size):>10} {_mib(packed):>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
