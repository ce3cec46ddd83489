"""The store in one SQLite file (WAL mode): the embedded default, nothing to install.

Every operation is one statement, so it is atomic without holding a transaction open. Each
operation borrows a connection from a small pool and gives it back (a connection is used by one
thread at a time; a server that starts a thread per request doesn't leave one open per thread).
Expired entries are skipped by every read and write, and deleted now and then.

The file this process opened is the store: if it is deleted or replaced under a running server
(a cleanup job, a redeploy that swapped the folder), every operation fails with
StoreUnavailable (503: plays are refused) rather than write on into a file no reader will see
or start afresh with no memory of which links are old. A restart opens what is there.
"""

from __future__ import annotations

import json
import os
import queue
import sqlite3
import threading
from pathlib import Path

from app.store import Entry, Store, StoreUnavailable

BUSY_SECONDS = 2.0  # how long a write waits for another process's write before giving up
PURGE_EVERY = 500  # writes between deletions of expired entries
POOL = 8  # idle connections kept; more threads at once open more, closed when given back

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    key TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    expires INTEGER NOT NULL
) WITHOUT ROWID
"""


class SQLiteStore(Store):
    def __init__(self, path: Path, clock=None):
        super().__init__(*(clock,) if clock else ())
        self.path = Path(path)
        self._writes = 0
        self._idle: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        self._file: tuple[int, int] | None = None  # (device, inode) of the file opened first
        # Connections are set up one at a time: a new file's switch to WAL and its table, made
        # by several threads at once, can fail at once ("database is locked") rather than wait.
        self._opening = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        with self._opening:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None,
                                 check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(_SCHEMA)
            if self._file is None:
                self._file = self._identity()
            return db

    def _identity(self) -> tuple[int, int] | None:
        try:
            stat = os.stat(self.path)
        except OSError:
            return None
        return stat.st_dev, stat.st_ino

    def _check_file(self) -> None:
        """StoreUnavailable when the file opened first is gone or another is in its place."""
        if self._file is not None and self._identity() != self._file:
            raise StoreUnavailable(f"SQLite store at {self.path}: the file this server opened "
                                   "is gone or was replaced; restart to use what is there")

    def _run(self, sql: str, args) -> tuple:
        """Run one statement: (the rows it returned, how many rows it changed)."""
        self._check_file()
        try:
            try:
                db = self._idle.get_nowait()
            except queue.Empty:
                db = self._connect()
            cursor = db.execute(sql, args)
            result = cursor.fetchall(), cursor.rowcount
        except (OSError, sqlite3.Error) as error:  # locked past BUSY_SECONDS, disk full...
            raise StoreUnavailable(f"SQLite store at {self.path}: {error}") from None
        if self._idle.qsize() < POOL:
            self._idle.put(db)
        else:
            db.close()
        return result

    def _now(self) -> int:
        return int(self.clock())

    def _wrote(self) -> None:
        self._writes += 1
        if self._writes % PURGE_EVERY == 0:
            self._run("DELETE FROM entries WHERE expires <= ?", (self._now(),))

    def get(self, key: str) -> Entry | None:
        rows, _ = self._run("SELECT data, version FROM entries WHERE key = ? AND expires > ?",
                            (key, self._now()))
        return Entry(json.loads(rows[0][0]), rows[0][1]) if rows else None

    def add(self, key: str, data: dict, expires: float) -> bool:
        _, changed = self._run(
            "INSERT INTO entries (key, version, data, expires) VALUES (?, 1, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET version = 1, data = excluded.data, "
            "expires = excluded.expires WHERE entries.expires <= ?",
            (key, json.dumps(data), int(expires), self._now()))
        self._wrote()
        return changed == 1

    def swap(self, key: str, version: int, data: dict, expires: float) -> bool:
        _, changed = self._run(
            "UPDATE entries SET version = version + 1, data = ?, expires = ? "
            "WHERE key = ? AND version = ? AND expires > ?",
            (json.dumps(data), int(expires), key, version, self._now()))
        self._wrote()
        return changed == 1

    def count(self, key: str, limit: int, expires: float) -> bool:
        if limit < 1:
            return False
        _, changed = self._run(
            "INSERT INTO entries (key, version, data, expires) VALUES (:key, 1, '{}', :expires) "
            "ON CONFLICT (key) DO UPDATE SET "
            "version = CASE WHEN entries.expires <= :now THEN 1 ELSE entries.version + 1 END, "
            "expires = CASE WHEN entries.expires <= :now THEN :expires ELSE entries.expires END "
            "WHERE entries.version < :limit OR entries.expires <= :now",
            {"key": key, "expires": int(expires), "now": self._now(), "limit": limit})
        self._wrote()
        return changed == 1

    def close(self) -> None:
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return
