"""The store: a little shared memory about links, never a second copy of a game.

A stateless server can't tell a turn sent twice from once, an old link from the newest, or when
a link reached its player. These few facts live here (``app/ledger.py`` and ``app/outbox.py``
say which), behind one contract with two backends:

- SQLite (``sqlite.py``), the embedded default: one file under ``instance/``, WAL mode;
- DynamoDB (``dynamodb.py``) on AWS Lambda, where instances share nothing.

An entry is a small JSON object under a string key, with a version that goes up by one with
every write (compare-and-swap works on it) and a time after which it is gone. A counter is an
entry whose version is its count. Nothing is ever updated in place without its version.

Chosen by ``STORE_URL``: ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db`` or
``dynamodb://TABLE?region=REGION`` (``&endpoint=URL`` for a DynamoDB-compatible server); unset,
``instance/boardpass.db``. Any failure to reach the store raises ``StoreUnavailable``: callers
answer 503 for what needs it and go on without it for what doesn't.

A store is made, and marked as Boardpass's, by ``create_table`` (``python -m app store
create-table``); a store without the mark, or with another than the one first read, is
StoreUnavailable, so that an empty store is never taken for the old one. Only ``create=True``
(the development server and the tests: ``create_app``'s ``STORE_CREATE``) makes a SQLite store
at first use; a production server never does (docs/store.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qs, urlsplit

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "instance" / "boardpass.db"


class StoreUnavailable(RuntimeError):
    """The store could not be reached or answered too slowly: nothing was decided."""


@dataclass(frozen=True)
class Entry:
    data: dict
    version: int  # 1 when created, one more with every write; a counter's count


class Store:
    """The contract both backends keep. ``expires`` are seconds since 1970; ``clock`` is the
    server's time (tests move it), which decides what has expired."""

    def __init__(self, clock: Callable[[], float] = time.time):
        self.clock = clock

    def get(self, key: str) -> Entry | None:
        """The live entry under ``key``, or None (never written, or expired)."""
        raise NotImplementedError

    def add(self, key: str, data: dict, expires: float) -> bool:
        """Create the entry at version 1, unless a live one is there: whether it was created."""
        raise NotImplementedError

    def swap(self, key: str, version: int, data: dict, expires: float) -> bool:
        """Replace the live entry if it is still at ``version`` (it becomes ``version + 1``):
        whether it was replaced. Of several swaps from one version, exactly one wins."""
        raise NotImplementedError

    def count(self, key: str, limit: int, expires: float) -> bool:
        """Count one more under ``key`` unless ``limit`` is reached: whether it was counted.
        The key names its own window ("texts to N in hour H"): ``expires`` is set when the
        counter is created and never moves."""
        raise NotImplementedError

    def create_table(self) -> list[str]:
        """Make the store and mark it as Boardpass's (a store already marked stays as it is):
        what was done, one line each."""
        raise NotImplementedError

    def close(self) -> None:
        """Let go of connections (tests; a process that ends needn't)."""


def open_store(url: str | None, clock: Callable[[], float] = time.time,
               create: bool = False) -> Store:
    """The store ``url`` names (see the module's docstring); ValueError for one it can't read.
    ``create``: a SQLite store not made yet is made at first use (never a DynamoDB table)."""
    url = (url or "").strip()
    if not url:
        from app.store.sqlite import SQLiteStore

        return SQLiteStore(DEFAULT_PATH, clock, create)
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else ""
        if not path:
            raise ValueError("STORE_URL: sqlite:///relative/path.db or "
                             "sqlite:////absolute/path.db")
        from app.store.sqlite import SQLiteStore

        return SQLiteStore(Path(path), clock, create)
    if parts.scheme == "dynamodb":
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        unknown = set(query) - {"region", "endpoint"}
        if not parts.netloc or unknown:
            raise ValueError("STORE_URL: dynamodb://TABLE?region=REGION[&endpoint=URL]")
        from app.store.dynamodb import DynamoStore

        return DynamoStore(parts.netloc, query.get("region"), query.get("endpoint"), clock)
    raise ValueError(f"STORE_URL: no store of kind {parts.scheme!r} (sqlite or dynamodb)")


__all__ = ["Entry", "Store", "StoreUnavailable", "open_store"]
