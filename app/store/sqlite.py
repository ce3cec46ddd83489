"""The store in one SQLite file (WAL mode): the embedded default, nothing to install.

Every operation is one statement, so it is atomic without holding a transaction open. Each
operation borrows a connection from a small pool and gives it back (a connection is used by one
thread at a time; a server that starts a thread per request doesn't leave one open per thread).
Expired entries are skipped by every read and write, and deleted now and then.

The file is the store only when it carries the mark ``create_table`` puts in it: a random id
and a generation that every write moves on (a trigger sets it to the time in milliseconds, or
one more). Before each operation the mark is read: a file without it (deleted under a running
server and made again empty by someone else, or never made) is StoreUnavailable, so an empty
file is never taken for the store and its older links never play again.

The highest generation written is kept outside the file too, where putting an older copy of the
file in its place doesn't take it back: a small file beside it (``boardpass.db.seen``: the id
and that generation), moved on after every write. Every operation reads it before the mark: a
mark with another id, or a generation below it (an older copy restored in place), is
StoreUnavailable in every process, those started after the restore included, until ``accept``
moves the file's generation past it. Each process also remembers the id it first read and the
highest generation it has seen (the same answer, should the file beside it go). A marked store
found without that file (made by an older release) is taken as it is, and the file written.
The file this process opened must stay the one in place (its device and inode): one deleted or
replaced under it is StoreUnavailable until a restart.

A file is made implicitly (``create=True``) only at the process's first operation, never after:
the development server and the tests; a production server's store is made by ``python -m app
store create-table`` (docs/store.md).
"""

from __future__ import annotations

import fcntl
import json
import os
import queue
import sqlite3
import threading
import uuid
import zlib
from pathlib import Path

from app.store import Entry, Store, StoreUnavailable

BUSY_SECONDS = 2.0  # how long a write waits for another process's write before giving up
PURGE_EVERY = 500  # writes between deletions of expired entries
POOL = 8  # idle connections kept; more threads at once open more, closed when given back

SEEN = ".seen"  # the high-water mark's file: the store's path with this after it

_NOW_MS = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
_MOVE_ON = f"UPDATE mark SET generation = max(generation + 1, {_NOW_MS})"
_ACCEPT = f"UPDATE mark SET generation = max(generation + 1, {_NOW_MS}, ?)"
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
        self.seen_path = self.path.with_name(self.path.name + SEEN)
        self._seen_fd: int | None = None  # the high-water mark's file, opened once per process
        self._seen_pid = 0  # ... by this process (a forked one opens its own: flock is per open)
        self._seen_lock = threading.Lock()  # its descriptor, used by one thread at a time
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
        generation no older than any read before, nor than the one beside it (see the module's
        docstring)."""
        known = self._seen  # before the read: a generation read later can't be older
        # The high-water mark before the file's: it is only moved on once the file's write is
        # committed, so read first it is never ahead of a file that didn't go back.
        beside = self._read_seen()
        rows = self._read_mark(db)
        if not rows and self._create and self._mark is None:
            self._make(db)
            beside, rows = self._read_seen(), self._read_mark(db)
        if not rows:
            raise StoreUnavailable(f"SQLite store at {self.path}: it isn't marked as the store "
                                   "(deleted and made again?); python -m app store create-table "
                                   "marks it, to go on with it as it is")
        mark, generation = rows[0]
        if beside and (beside[0] != mark or beside[1] > generation):
            # Another process marking the store, or accepting it, writes the file beside it
            # just before it commits: once more, in the same order, to tell that from a copy.
            beside, rows = self._read_seen(), self._read_mark(db)
            mark, generation = rows[0] if rows else (None, 0)
            if beside and beside[0] != mark:
                raise StoreUnavailable(f"SQLite store at {self.path}: it isn't the store "
                                       f"{self.seen_path.name} beside it was written for (another "
                                       "store's file put in its place?); python -m app store "
                                       "accept goes on with it as it is")
            if beside and beside[1] > generation:
                raise StoreUnavailable(f"SQLite store at {self.path}: an older copy of it was "
                                       f"put in its place (written up to {beside[1]}, it is at "
                                       f"{generation}); python -m app store accept goes on "
                                       "with it as it is")
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
        if beside is None or beside[1] < generation:  # none yet (an older release's store),
            self._write_seen(mark, generation)  # or a writer that stopped before moving it on

    @staticmethod
    def _read_mark(db: sqlite3.Connection) -> list:
        try:
            return db.execute("SELECT id, generation FROM mark").fetchall()
        except sqlite3.OperationalError:  # no such table: a file not made as the store
            return []

    # -- the high-water mark beside the file ----------------------------------------------------
    # One fixed-width line, "<id> <generation, 20 digits> <CRC-32 of the two>", rewritten in place
    # with one pwrite to a descriptor opened once. A write moves it on once SQLite has committed
    # (never ahead of the file, so no reader takes a write in flight for a copy, and a process
    # killed between the two leaves it behind, not ahead), under an flock: writers in several
    # processes, each moving it only forward. Read without the lock: a line caught half written
    # fails its CRC and is read again under it. Never fsynced, as the file's own commits aren't
    # (synchronous=NORMAL): a process that dies has its pwrite in the page cache all the same; a
    # machine that crashes may lose the line's last moves (it is behind the file, which is then
    # taken as it is) or the file's last commits (the store did go back: refused, rightly, until
    # store accept).

    def _seen_file(self) -> int:
        """The descriptor of the file beside the store (made empty if missing), opened once per
        process; opened again if the one opened was deleted or replaced. Under _seen_lock."""
        fd = self._seen_fd
        if fd is not None:
            if self._seen_pid == os.getpid() and os.fstat(fd).st_nlink:
                return fd
            os.close(fd)
            self._seen_fd = None
        self._seen_fd = os.open(self.seen_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        self._seen_pid = os.getpid()
        return self._seen_fd

    @staticmethod
    def _line(mark: str, generation: int) -> bytes:
        body = f"{mark} {generation:020d}"
        return f"{body} {zlib.crc32(body.encode()):08x}\n".encode()

    @staticmethod
    def _parse(raw: bytes) -> tuple[str, int] | None | bool:
        """(id, generation), None for an empty file, False for a line that doesn't check."""
        if not raw:
            return None
        try:
            mark, generation, check = raw.decode("ascii").split()
            if int(check, 16) == zlib.crc32(f"{mark} {generation}".encode()):
                return mark, int(generation)
        except ValueError:
            pass
        return False

    def _read_seen(self, strict: bool = True) -> tuple[str, int] | None:
        """The id and generation beside the store, None if there are none yet."""
        with self._seen_lock:
            fd = self._seen_file()
            seen = self._parse(os.pread(fd, 128, 0))
            if seen is False:  # caught half written, or damaged: read again under the lock
                fcntl.flock(fd, fcntl.LOCK_SH)
                try:
                    seen = self._parse(os.pread(fd, 128, 0))
                finally:
                    fcntl.flock(fd, fcntl.LOCK_UN)
        if seen is False:
            if not strict:
                return None
            raise StoreUnavailable(f"SQLite store at {self.path}: {self.seen_path.name} beside "
                                   "it can't be read; python -m app store accept writes it "
                                   "again, going on with the store as it is")
        return seen

    def _write_seen(self, mark: str, generation: int, anew: bool = False) -> None:
        """Move the generation beside the store on to ``generation`` (never back, never for
        another id), or with ``anew`` write the store's id and generation whatever is there."""
        line = self._line(mark, generation)
        with self._seen_lock:
            fd = self._seen_file()
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                if not anew:
                    seen = self._parse(os.pread(fd, 128, 0))
                    if seen is False or (seen and (seen[0] != mark or seen[1] >= generation)):
                        return  # ahead already, or not this store's: the check says so
                os.pwrite(fd, line, 0)
                if anew:
                    os.ftruncate(fd, len(line))
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)

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
                    mark, generation = db.execute("SELECT id, generation FROM mark").fetchone()
                    self._saw(generation)
                    self._write_seen(mark, generation)
            finally:
                if self._idle.qsize() < POOL:
                    self._idle.put(db)
                else:
                    db.close()
        except (OSError, sqlite3.Error) as error:  # locked past BUSY_SECONDS, disk full...
            raise StoreUnavailable(f"SQLite store at {self.path}: {error}") from None
        return result

    def _make(self, db: sqlite3.Connection) -> bool:
        """Give the file the store's table and mark, unless it has a mark: whether it had
        none. One transaction, so that of two processes making it at once one mark stands; a
        mark made is written beside the file (whatever was there: a store deleted, and this one
        made in its place) before the commit, so no process reads the new mark without it."""
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA:
                db.execute(statement)
            made = db.execute(f"INSERT OR IGNORE INTO mark VALUES (1, ?, {_NOW_MS})",
                              (uuid.uuid4().hex,)).rowcount == 1
            if made:
                self._write_seen(*db.execute("SELECT id, generation FROM mark").fetchone(),
                                 anew=True)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return made

    def create_table(self) -> list[str]:
        """Make the file, its table and its mark; what was done. A file already marked is
        left as it is (with its high-water mark written, if there was none); one without the
        mark (an older release's) is marked as it is."""
        try:
            db = self._connect(create=True)
            try:
                made = self._make(db)
                if not made and self._read_seen(strict=False) is None:
                    self._write_seen(*db.execute("SELECT id, generation FROM mark").fetchone())
            finally:
                db.close()
        except (OSError, sqlite3.Error) as error:
            raise StoreUnavailable(f"SQLite store at {self.path}: {error}") from None
        if made:
            return [f"marked {self.path} as Boardpass's store"]
        return [f"{self.path} already marked as Boardpass's store"]

    def accept(self) -> list[str]:
        """Go on with the file as it is (an older copy put in place): its generation moves
        past every one a running server has seen (the time now, in milliseconds, and past the
        one beside it), and is written beside it, with its id."""
        try:
            db = self._connect()
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    beside = self._read_seen(strict=False)
                    moved = db.execute(_ACCEPT, (beside[1] + 1 if beside else 0,)).rowcount
                    if moved:
                        self._write_seen(*db.execute("SELECT id, generation FROM mark")
                                         .fetchone(), anew=True)
                    db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                    raise
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
        with self._seen_lock:
            if self._seen_fd is not None:
                os.close(self._seen_fd)
            self._seen_fd = None
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return
