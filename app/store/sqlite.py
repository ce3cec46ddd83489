"""The store in one SQLite file (WAL mode): the embedded default, nothing to install.

Every operation is one statement, so it is atomic without holding a transaction open; each
thread has its own connection (sqlite3 connections aren't shared between threads). Expired
entries are skipped by every read and write, and deleted now and then.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

from app.store import Entry, Store, StoreUnavailable

BUSY_SECONDS = 2.0  # how long a write waits for another process's write before giving up
PURGE_EVERY = 500  # writes between deletions of expired entries

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
        self._local = threading.local()
        self._writes = 0
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None,
                                     check_same_thread=False)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute(_SCHEMA)
            except (OSError, sqlite3.Error) as error:
                raise StoreUnavailable(f"SQLite store at {self.path}: {error}") from None
            self._local.db = db
            with self._lock:
                self._all.append(db)
        return db

    def _run(self, sql: str, args) -> sqlite3.Cursor:
        try:
            return self._db().execute(sql, args)
        except sqlite3.Error as error:  # locked past BUSY_SECONDS, disk full, file gone...
            raise StoreUnavailable(f"SQLite store at {self.path}: {error}") from None

    def _now(self) -> int:
        return int(self.clock())

    def _wrote(self) -> None:
        self._writes += 1
        if self._writes % PURGE_EVERY == 0:
            self._run("DELETE FROM entries WHERE expires <= ?", (self._now(),))

    def get(self, key: str) -> Entry | None:
        row = self._run("SELECT data, version FROM entries WHERE key = ? AND expires > ?",
                        (key, self._now())).fetchone()
        return Entry(json.loads(row[0]), row[1]) if row else None

    def add(self, key: str, data: dict, expires: float) -> bool:
        cursor = self._run(
            "INSERT INTO entries (key, version, data, expires) VALUES (?, 1, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET version = 1, data = excluded.data, "
            "expires = excluded.expires WHERE entries.expires <= ?",
            (key, json.dumps(data), int(expires), self._now()))
        self._wrote()
        return cursor.rowcount == 1

    def swap(self, key: str, version: int, data: dict, expires: float) -> bool:
        cursor = self._run(
            "UPDATE entries SET version = version + 1, data = ?, expires = ? "
            "WHERE key = ? AND version = ? AND expires > ?",
            (json.dumps(data), int(expires), key, version, self._now()))
        self._wrote()
        return cursor.rowcount == 1

    def count(self, key: str, limit: int, expires: float) -> bool:
        if limit < 1:
            return False
        cursor = self._run(
            "INSERT INTO entries (key, version, data, expires) VALUES (:key, 1, '{}', :expires) "
            "ON CONFLICT (key) DO UPDATE SET "
            "version = CASE WHEN entries.expires <= :now THEN 1 ELSE entries.version + 1 END, "
            "expires = CASE WHEN entries.expires <= :now THEN :expires ELSE entries.expires END "
            "WHERE entries.version < :limit OR entries.expires <= :now",
            {"key": key, "expires": int(expires), "now": self._now(), "limit": limit})
        self._wrote()
        return cursor.rowcount == 1

    def close(self) -> None:
        with self._lock:
            for db in self._all:
                db.close()
            self._all.clear()
        self._local = threading.local()
