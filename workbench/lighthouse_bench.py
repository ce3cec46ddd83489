"""Lighthouse's view of Boardpass's pages: ``python -m app bench lighthouse``.

``bench pages`` times the paints this machine's Chromium sees; Lighthouse is the yardstick
everyone else uses (a tool nobody on the project wrote), with its own idea of a phone on a slow
network: its mobile defaults, simulated throttling. It comes from the npm registry, pinned in
package.json (``npm ci``), and runs Debian's Chromium, each run with a profile of its own so
that no run finds another's cache. Five pages, each ``runs`` times against a server the bench
starts: the reference server (Gunicorn, workbench/reference_server.py) or the quick-start one
(``flask run``, as the README starts it); each figure is its median over the runs.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from contextlib import ExitStack
from pathlib import Path

from app.keys import Keys
from workbench.games import after_first_turn, play_random, table_options
from workbench.phone_browser import CHROMIUM
from workbench.reference_server import serving

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
# Headless, and none of Chromium's own connections (updates, sync, field trials): the machine's
# network refuses them, and they would only add noise to the measured load.
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --disable-sync --no-first-run")
RUN_SECONDS = 600  # a run takes 15 to 60 s: far longer is a hung Chromium
KEYS_LABEL = "lighthouse"
# The table's columns: heading, and where a Lighthouse report keeps the figure.
COLUMNS = (("Performance", "performance"), ("Accessibility", "accessibility"),
           ("Best Practices", "best-practices"), ("SEO", "seo"),
           ("largest contentful paint", "largest-contentful-paint"),
           ("cumulative layout shift", "cumulative-layout-shift"),
           ("total blocking time", "total-blocking-time"), ("bytes", "total-byte-weight"))


class LighthouseError(Exception):
    """What stopped the bench, said in a line (no traceback): a missing tool, a server that
    didn't start, a run that failed."""


def lighthouse_bench(server: str = "reference", runs: int = 3):
    """Yields the table of the pages' median figures over ``runs`` Lighthouse runs each,
    against the ``server`` the bench starts; progress goes to stderr."""
    if runs < 1:
        raise ValueError("--runs must be at least 1")
    if not LIGHTHOUSE.exists():
        raise LighthouseError(f"{LIGHTHOUSE} is missing: run npm ci")
    if not os.path.exists(CHROMIUM):
        raise LighthouseError(f"{CHROMIUM} is missing: apt-get install chromium")
    with ExitStack() as stack:
        try:
            port, keys = stack.enter_context(serving(server, KEYS_LABEL))
        except RuntimeError as error:
            raise LighthouseError(f"the {server} server: {error}") from None
        base = f"http://127.0.0.1:{port}"
        rows = []
        for name, paths in pages(base, keys, runs):
            measured = []
            for run, path in enumerate(paths, 1):
                print(f"lighthouse: {name}, run {run} of {runs}", file=sys.stderr, flush=True)
                report = run_lighthouse(base + path)
                measured.append(figures(report))
            rows.append((name, medians(measured)))
    yield (f"Lighthouse {report['lighthouseVersion']}, mobile (simulated throttling), median "
           f"of {runs} run{'s' if runs > 1 else ''}, {server} server\n\n{table(rows)}")


def pages(base: str, keys: Keys, runs: int) -> list[tuple[str, list[str]]]:
    """The pages measured, by name, with a path for each run: the home page, a 4-player Ludo
    game after its first turn (the next player's page, which replays it), a finished one (its
    page reviews it), a room as a guest opens it from its code (a seat still free) and Ludo's
    rules. The games and rooms are new in each run: no run finds the chances or the review an
    earlier one had the server work out and keep."""
    options = table_options("ludo", 4)
    finished = [play_random("ludo", 4, KEYS_LABEL, run, keys, options) for run in range(runs)]
    return [("home", ["/"] * runs),
            ("game, after a turn",
             [f"/g/{after_first_turn('ludo', 4, keys, run.to_bytes(8, 'big')).token()}"
              for run in range(runs)]),
            ("finished game, review", [f"/g/{game.token()}" for game in finished]),
            ("room, a guest's", [f"/r/{_new_room(base)}" for _ in range(runs)]),
            ("rules, Ludo", ["/rules/ludo"] * runs)]


def _new_room(base: str) -> str:
    """A Red Arse room Ana made for herself and Ben: its code."""
    body = {"game": "red-arse", "me": 0, "players": [{"name": "Ana", "color": "red"},
                                                     {"name": "Ben", "color": "blue"}]}
    request = urllib.request.Request(base + "/api/rooms", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)["room"]["code"]
    except OSError as error:  # urllib's errors, an HTTP status among them
        raise LighthouseError(f"making a room: {error}") from None


def run_lighthouse(url: str) -> dict:
    """One Lighthouse run on ``url`` in a new Chromium profile: its JSON report."""
    with tempfile.TemporaryDirectory(prefix="lighthouse-profile-") as profile:
        try:
            done = subprocess.run(
                [str(LIGHTHOUSE), url, "--output=json", "--quiet",
                 f"--chrome-flags={CHROME_FLAGS} --user-data-dir={profile}"],
                capture_output=True, text=True, env={**os.environ, "CHROME_PATH": CHROMIUM},
                timeout=RUN_SECONDS)
        except subprocess.TimeoutExpired:
            raise LighthouseError(f"lighthouse on {url}: no report in {RUN_SECONDS} s") from None
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()[-3:] or [f"exit status {done.returncode}"]
        raise LighthouseError(f"lighthouse on {url}: " + " / ".join(said))
    report = json.loads(done.stdout)
    if report.get("runtimeError"):
        raise LighthouseError(f"lighthouse on {url}: {report['runtimeError']['message']}")
    return report


def figures(report: dict) -> dict:
    """The table's figures in a Lighthouse report: scores out of 100 (None where Lighthouse
    gave none), the metrics in their units (ms, a fraction, bytes)."""
    found = {}
    for _, key in COLUMNS:
        if key in report["categories"]:
            score = report["categories"][key]["score"]
            found[key] = None if score is None else round(score * 100)
        else:
            found[key] = report["audits"][key].get("numericValue")
    return found


def medians(reports: list[dict]) -> dict:
    """Each figure's median over the runs that gave it."""
    return {key: _median([report[key] for report in reports]) for _, key in COLUMNS}


def _median(values):
    given = [value for value in values if value is not None]
    return statistics.median(given) if given else None


def table(rows: list[tuple[str, dict]]) -> str:
    """The figures as a Markdown table, a page a row: the largest paint in seconds, the
    blocking time in ms, the bytes in KiB."""
    formats = {"largest-contentful-paint": lambda ms: f"{ms / 1000:.2f} s",
               "cumulative-layout-shift": lambda shift: f"{shift:.3f}",
               "total-blocking-time": lambda ms: f"{ms:.0f} ms",
               "total-byte-weight": lambda size: f"{size / 1024:.0f} KiB"}
    lines = ["| page | " + " | ".join(heading for heading, _ in COLUMNS) + " |",
             "|" + "---|" * (len(COLUMNS) + 1)]
    for name, found in rows:
        cells = ["–" if found[key] is None else formats.get(key, "{:.0f}".format)(found[key])
                 for _, key in COLUMNS]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
