"""The store in one SQLite file (WAL mode): the embedded default, nothing to install.

Every operation is one statement, so it is atomic without holding a transaction open. Each
operation borrows a connection from a small pool and gives it back (a connection is used by one
thread at a time; a server that starts a thread per request doesn't leave one open per thread).
Expired entries are skipped by every read and write, and deleted now and then.

The file is the store only when it carries the mark ``create_table`` puts in it: a random id
and a generation that every write moves on (a trigger sets it to the time in milliseconds, or
one more). Before each operation the mark is read: a file without it (deleted under a running
server and made again empty by someone else, or never made) is StoreUnavailable, so an empty
file is never taken for the store and its older links never play again. Each process remembers
the id it first read and the highest generation it has seen: another id, or a generation gone
back (an older copy restored in place), is StoreUnavailable too, until ``accept`` moves the
generation past every one seen. The file this process opened must stay the one in place (its
device and inode): one deleted or replaced under it is StoreUnavailable until a restart.

A file is made implicitly (``create=True``) only at the process's first operation, never after:
the development server and the tests; a production server's store is made by ``python -m app
store create-table`` (docs/store.md).
"""

from __future__ import annotations

import json
import os
import queue
import sqlite3
import threading
import uuid
from pathlib import Path

from app.store import Entry, Store, StoreUnavailable

BUSY_SECONDS = 2.0  # how long a write waits for another process's write before giving up
PURGE_EVERY = 500  # writes between deletions of expired entries
POOL = 8  # idle connections kept; more threads at once open more, closed when given back

_NOW_MS = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
_MOVE_ON = f"UPDATE mark SET generation = max(generation + 1, {_NOW_MS})"
_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS entries (
        key TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        data TEXT NOT NULL,
        expires INTEGER NOT NULL
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS mark (
        one INTEGER PRIMARY KEY CHECK (one = 1),
        id TEXT NOT NULL,
        generation INTEGER NOT NULL
    )""",
    f"CREATE TRIGGER IF NOT EXISTS added AFTER INSERT ON entries BEGIN {_MOVE_ON}; END",
    f"CREATE TRIGGER IF NOT EXISTS changed AFTER UPDATE ON entries BEGIN {_MOVE_ON}; END",
)


class SQLiteStore(Store):
    def __init__(self, path: Path, clock=None, create: bool = False):
        super().__init__(*(clock,) if clock else ())
        self.path = Path(path)
        self._create = create  # make and mark the file at the first operation if unmarked
        self._writes = 0
        self._idle: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        self._file: tuple[int, int] | None = None  # (device, inode) of the file opened first
        self._mark: str | None = None  # the store's id, as first read
        self._seen = 0  # the highest generation read
        # Connections are set up one at a time: a new file's switch to WAL and its table, made
        # by several threads at once, can fail at once ("database is locked") rather than wait.
        self._opening = threading.Lock()

    def _connect(self, create: bool = False) -> sqlite3.Connection:
        """A connection to the file; only ``create`` makes a file that isn't there."""
        with self._opening:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            elif not self.path.exists():
                raise StoreUnavailable(f"SQLite store at {self.path}: there is none; python -m "
                                       "app store create-table makes it")
            uri = self.path.resolve().as_uri() + ("?mode=rwc" if create else "?mode=rw")
            db = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS, isolation_level=None,
                                 check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
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

    def _check_mark(self, db: sqlite3.Connection) -> None:
        """StoreUnavailable unless the file carries the store's mark, the one first read, at a
        generation no older than any read before (see the module's docstring)."""
        known = self._seen  # before the read: a generation read later can't be older
        try:
            rows = db.execute("SELECT id, generation FROM mark").fetchall()
        except sqlite3.OperationalError:  # no such table: a file not made as the store
            rows = []
        if not rows and self._create and self._mark is None:
            self._make(db)
            rows = db.execute("SELECT id, generation FROM mark").fetchall()
        if not rows:
            raise StoreUnavailable(f"SQLite store at {self.path}: it isn't marked as the store "
                                   "(deleted and made again?); python -m app store create-table "
                                   "marks it, to go on with it as it is")
        mark, generation = rows[0]
        with self._opening:
            self._mark = self._mark or mark
            if mark != self._mark:
                raise StoreUnavailable(f"SQLite store at {self.path}: it was made again under "
                                       "this server; restart to use what is there")
            if generation < known:
                raise StoreUnavailable(f"SQLite store at {self.path}: an older copy of it was "
                                       "put in its place; python -m app store accept goes on "
                                       "with it as it is")
        self._saw(generation)

    def _saw(self, generation: int) -> None:
        with self._opening:
            self._seen = max(self._seen, generation)

    def _run(self, sql: str, args) -> tuple:
        """Run one statement: (the rows it returned, how many rows it changed)."""
        self._check_file()
        try:
            try:
                db = self._idle.get_nowait()
            except queue.Empty:
                db = self._connect(self._create and self._mark is None)
            try:
                self._check_mark(db)
                cursor = db.execute(sql, args)
                result = cursor.fetchall(), cursor.rowcount
                if cursor.rowcount > 0:  # written: the generation this process moved on to
                    self._saw(db.execute("SELECT generation FROM mark").fetchone()[0])
            finally:
                if self._idle.qsize() < POOL:
                    self._idle.put(db)
                else:
                    db.close()
        except (OSError, sqlite3.Error) as error:  # locked past BUSY_SECONDS, disk full...
            raise StoreUnavailable(f"SQLite store at {self.path}: {error}") from None
        return result

    @staticmethod
    def _make(db: sqlite3.Connection) -> bool:
        """Give the file the store's table and mark, unless it has a mark: whether it had
        none. One transaction, so that of two processes making it at once one mark stands."""
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA:
                db.execute(statement)
            made = db.execute(f"INSERT OR IGNORE INTO mark VALUES (1, ?, {_NOW_MS})",
                              (uuid.uuid4().hex,)).rowcount == 1
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return made

    def create_table(self) -> list[str]:
        """Make the file, its table and its mark; what was done. A file already marked is
        left as it is; one without the mark (an older release's) is marked as it is."""
        try:
            db = self._connect(create=True)
            try:
                made = self._make(db)
            finally:
                db.close()
        except (OSError, sqlite3.Error) as error:
            raise StoreUnavailable(f"SQLite store at {self.path}: {error}") from None
        if made:
            return [f"marked {self.path} as Boardpass's store"]
        return [f"{self.path} already marked as Boardpass's store"]

    def accept(self) -> list[str]:
        """Go on with the file as it is (an older copy put in place): its generation moves
        past every one a running server has seen (the time now, in milliseconds)."""
        try:
            db = self._connect()
            try:
                moved = db.execute(_MOVE_ON).rowcount
            finally:
                db.close()
        except (OSError, sqlite3.Error) as error:
            raise StoreUnavailable(f"SQLite store at {self.path}: {error}") from None
        if not moved:
            raise StoreUnavailable(f"SQLite store at {self.path}: it isn't marked as the store; "
                                   "python -m app store create-table marks it")
        return [f"{self.path} accepted as it is: running servers go on with it"]

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
