"""A DynamoDB-compatible server for the tests: dynalite, from npm (``package.json`` pins it;
``npm ci`` at the repository root installs it), run with Node.js on 127.0.0.1 once per session,
with a fresh table for each test that asks for one. tests/conftest.py re-exports the fixtures."""

from __future__ import annotations

import select
import shutil
import socket
import subprocess
import uuid
from pathlib import Path

import pytest

from app.store import open_store

ROOT = Path(__file__).resolve().parents[1]
DYNALITE = ROOT / "node_modules" / ".bin" / "dynalite"
INSTALL = "run `npm ci` in the repository root (Node.js 20 or newer; package.json pins dynalite)"
START_SECONDS = 15


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def dynalite_endpoint():
    """The address of a dynalite server, in memory, for the whole session. Missing dynalite
    fails the tests that need it: a skipped store test would hide a broken backend."""
    node = shutil.which("node")
    if not node or not DYNALITE.exists():
        missing = "Node.js (node)" if not node else DYNALITE.relative_to(ROOT)
        pytest.fail(f"the DynamoDB store's tests need dynalite; {missing} is missing: {INSTALL}",
                    pytrace=False)
    port = _free_port()
    # Tables are ACTIVE at once, not after dynalite's default half second.
    server = subprocess.Popen(
        [node, str(DYNALITE), "--host", "127.0.0.1", "--port", str(port), "--createTableMs", "0",
         "--deleteTableMs", "0", "--updateTableMs", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        # It prints "Dynalite listening at: ..." once it answers, and nothing after that.
        ready, _, _ = select.select([server.stdout], [], [], START_SECONDS)
        said = server.stdout.readline() if ready else ""
        if "listening" not in said:
            server.kill()
            pytest.fail(f"dynalite did not start on port {port}: {said}{server.stdout.read()}",
                        pytrace=False)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=10)
        server.stdout.close()


@pytest.fixture
def dynamodb_url(dynalite_endpoint):
    """A store URL naming a new, empty table on the session's dynalite server."""
    url = f"dynamodb://test-{uuid.uuid4().hex}?region=us-east-1&endpoint={dynalite_endpoint}"
    store = open_store(url)
    store.create_table()
    store.close()
    return url


@pytest.fixture
def unreachable_dynamodb_url():
    """A store URL whose endpoint refuses connections: a port held bound, never listening."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield f"dynamodb://t?region=us-east-1&endpoint=http://127.0.0.1:{held.getsockname()[1]}"
