"""The product's command line: ``python -m app inspect | verify | store create-table | store
accept | i18n | build-native | vapid-key``, what people who run Boardpass need.

The tools that measure and show the product (``simulate``, ``bench``, ``calibrate``,
``screenshots`` and the rest) live in the ``workbench`` package beside ``app``; a command this
line doesn't know is handed on to it, so ``python -m app bench`` works wherever the workbench
is installed (a checkout), and says so where it isn't (the Lambda package).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time

from app import link
from app.audit import inspect, verify
from app.engine.core import IllegalMove

WORKBENCH = "workbench.cli"  # named, not imported: app never depends on its tools


def parser() -> tuple[argparse.ArgumentParser, set[str]]:
    """The product's commands and their options, and the commands' names."""
    parser = argparse.ArgumentParser(
        prog="python -m app", description=__doc__.splitlines()[0],
        epilog="From a checkout, the workbench's tools run here too (simulate, tournament, bench, "
               "analysis-bench, calibrate, fit-evaluation, repeat, previews, screenshots): "
               "python -m workbench --help.")
    commands = parser.add_subparsers(dest="command", required=True)
    ins = commands.add_parser("inspect", help="print the game a link holds")
    ins.add_argument("link")
    ver = commands.add_parser("verify", help="check a finished game's dice against its secret")
    ver.add_argument("link")
    ver.add_argument("--secret", help="the revealed dice secret (hex)")
    ver.add_argument("--commitment", help="the commitment shown when the game started")
    commands.add_parser("build-native", help="compile the engine's busiest modules with mypyc "
                        "(needs pip install -e '.[native]' and a C compiler); see app/native.py")
    lang = commands.add_parser("i18n", help="translation catalogs: update, compile, check")
    lang.add_argument("action", choices=["update", "compile", "check"],
                      help="update: extract the messages and merge them into each language's "
                           "catalog; compile: build the .mo files; check: list what lacks a "
                           "translation")
    store = commands.add_parser("store", help="make the store, or go on with a restored copy")
    store_commands = store.add_subparsers(dest="action", required=True)
    table = store_commands.add_parser("create-table", help="make the store a store URL names "
                                      "and mark it as Boardpass's: a SQLite file, or a DynamoDB "
                                      "table with TTL on its ttl attribute (safe to run again)")
    accept = store_commands.add_parser("accept", help="go on with an older copy of a SQLite "
                                       "store put in its place (running servers refuse it)")
    for action in (table, accept):
        action.add_argument("--url", help="sqlite:///PATH or dynamodb://TABLE?region=REGION "
                            "(default: STORE_URL, else instance/boardpass.db)")
    commands.add_parser("vapid-key", help="make a new VAPID key for Web Push notifications: "
                        "prints VAPID_PRIVATE_KEY (a secret) and its public key")
    return parser, set(commands.choices)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    commands, known = parser()
    tools = _workbench() if argv and argv[0] not in known else None
    if tools and argv[0] in tools.parser()[1]:
        return tools.main(argv, prog="python -m app")
    args = commands.parse_args(argv)
    try:
        if args.command == "inspect":
            print(inspect(_token(args.link)))
        elif args.command == "verify":
            ok, text = verify(_token(args.link), args.secret, args.commitment)
            print(text)
            print("VERIFIED" if ok else "NOT VERIFIED")
            return 0 if ok else 1
        elif args.command == "i18n":
            return _i18n(args.action)
        elif args.command == "build-native":
            return _build_native()
        elif args.command == "vapid-key":
            from app.keys import new_vapid_key
            from app.push import public_key

            private = new_vapid_key()
            print(f"VAPID_PRIVATE_KEY={private}")
            print(f"# public key (the browsers' applicationServerKey): {public_key(private)}")
        else:
            return _store(args.action, args.url or os.environ.get("STORE_URL"))
    except (link.LinkError, ValueError, IllegalMove) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def _workbench():
    """The workbench's command line, or None where it isn't installed (the Lambda package)."""
    try:
        return importlib.import_module(WORKBENCH)
    except ModuleNotFoundError:
        return None


def _build_native() -> int:
    import subprocess

    from app import native

    start = time.perf_counter()
    try:
        built = native.build()
    except subprocess.CalledProcessError as error:
        print((error.stdout + error.stderr)[-4000:], file=sys.stderr)
        print("error: the build failed; it needs pip install -e '.[native]' and a C compiler",
              file=sys.stderr)
        return 1
    print(f"compiled {', '.join(built)} in {time.perf_counter() - start:.0f} s")
    return 0


def _store(action: str, url: str | None) -> int:
    """Make the store (once per deployment, before the first start: a production server never
    makes its own), or accept an older SQLite copy restored in place."""
    from app.store import StoreUnavailable, open_store
    from app.store.sqlite import SQLiteStore

    store = open_store(url)
    if action == "accept" and not isinstance(store, SQLiteStore):
        raise ValueError(f"{url} is not a SQLite store: a DynamoDB backup is restored into a new "
                         f"table, which store create-table marks")
    try:
        print("\n".join(store.create_table() if action == "create-table" else store.accept()))
    except StoreUnavailable as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        store.close()
    return 0


def _i18n(action: str) -> int:
    from app import i18n

    if action == "update":
        print(lines(i18n.update()))
    elif action == "compile":
        written = i18n.compile_catalogs(force=True)
        print("\n".join(str(path.relative_to(i18n.ROOT)) for path in written))
    else:
        missing = {lang: i18n.untranslated(lang) for lang in i18n.LANGUAGES[1:]}
        for lang, messages in missing.items():
            print(f"{lang}: {len(messages)} untranslated")
            print("".join(f"  {m!r}\n" for m in messages), end="")
        return 1 if any(missing.values()) else 0
    return 0


def _token(text: str) -> str:
    """Accept a whole link (even one copied from the address bar, with ``?new=1`` or a turn
    in progress after ``#``) as well as a bare token: the token is the last path segment."""
    path = text.strip().split("#", 1)[0].split("?", 1)[0]
    return path.rstrip("/").rsplit("/", 1)[-1]


def lines(report: dict, indent: str = "") -> str:
    """A report's figures, one per line, nested reports indented."""
    out = []
    for key, value in report.items():
        label = key.replace("_", " ")
        if isinstance(value, dict):
            out.append(f"{indent}{label}:")
            out.append(lines(value, indent + "  "))
        else:
            out.append(f"{indent}{label}: {value}")
    return "\n".join(out)
