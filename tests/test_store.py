"""The store's contract, run against both backends for real: SQLite on a temporary file, and
DynamoDB on a DynamoDB-compatible server (dynalite) started on 127.0.0.1 (tests/dynalite.py)."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing

import pytest

from app.store import StoreUnavailable, open_store

NOW = 1_800_000_000


class Clock:
    """The server's time, moved by the test."""

    def __init__(self, now: float = NOW):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(store_url, clock):
    opened = open_store(store_url, clock, create=True)
    yield opened
    opened.close()


def test_an_entry_is_created_once_and_read_back_whole(store):
    assert store.get("game#1") is None
    data = {"newest": "abc", "step": 12, "backs": [1, 3], "opened": None, "name": "Ana \u2764"}
    assert store.add("game#1", data, NOW + 60)
    entry = store.get("game#1")
    assert entry.data == data and entry.version == 1
    assert not store.add("game#1", {"newest": "other"}, NOW + 60)  # a live entry stays
    assert store.get("game#1").data == data


def test_of_two_swaps_from_one_version_only_the_first_wins(store):
    store.add("k", {"n": 0}, NOW + 60)
    assert store.swap("k", 1, {"n": 1}, NOW + 60)
    assert not store.swap("k", 1, {"n": 2}, NOW + 60)
    entry = store.get("k")
    assert entry.data == {"n": 1} and entry.version == 2
    assert not store.swap("missing", 1, {"n": 1}, NOW + 60)


def test_an_expired_entry_is_gone_and_can_be_made_again(store, clock):
    store.add("k", {"old": True}, NOW + 60)
    clock.now = NOW + 61
    assert store.get("k") is None
    assert not store.swap("k", 1, {"late": True}, NOW + 120)  # nothing live to replace
    assert store.add("k", {"new": True}, NOW + 120)
    entry = store.get("k")
    assert entry.data == {"new": True} and entry.version == 1


def test_a_swap_can_extend_an_entrys_life(store, clock):
    store.add("k", {"n": 0}, NOW + 60)
    assert store.swap("k", 1, {"n": 1}, NOW + 600)
    clock.now = NOW + 300
    assert store.get("k").data == {"n": 1}


def test_a_counter_counts_to_its_limit_and_starts_again_once_expired(store, clock):
    assert [store.count("texts#+15551234567#h1", 3, NOW + 3600) for _ in range(5)] == \
        [True, True, True, False, False]
    assert store.get("texts#+15551234567#h1").version == 3
    assert store.count("texts#+15551234567#h2", 3, NOW + 3600)  # another window
    clock.now = NOW + 3601
    assert store.count("texts#+15551234567#h1", 3, NOW + 7200)
    assert store.get("texts#+15551234567#h1").version == 1
    assert not store.count("never", 0, NOW + 60)


def test_another_connection_to_the_same_store_sees_the_same_entries(store, store_url, clock):
    store.add("shared", {"step": 4}, NOW + 60)
    other = open_store(store_url, clock)
    try:
        assert other.get("shared").data == {"step": 4}
        assert other.swap("shared", 1, {"step": 5}, NOW + 60)
        assert store.get("shared").data == {"step": 5}
    finally:
        other.close()


def test_eight_threads_swapping_from_one_version_make_exactly_one_winner(store):
    store.add("race", {"winner": None}, NOW + 60)
    start, results = threading.Barrier(8), []

    def swap(n):
        start.wait()
        results.append((n, store.swap("race", 1, {"winner": n}, NOW + 60)))

    threads = [threading.Thread(target=swap, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [n for n, won in results if won]
    assert len(results) == 8 and len(winners) == 1
    assert store.get("race").data == {"winner": winners[0]}


def test_eight_threads_counting_to_five_count_exactly_five(store):
    start, results = threading.Barrier(8), []

    def count():
        start.wait()
        results.append(store.count("limit", 5, NOW + 60))

    threads = [threading.Thread(target=count) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False] * 3 + [True] * 5
    assert store.get("limit").version == 5


def test_a_store_that_cant_be_reached_says_so(tmp_path, unreachable_dynamodb_url, clock):
    (tmp_path / "a-directory.db").mkdir()
    for url in (f"sqlite:///{tmp_path}/a-directory.db", unreachable_dynamodb_url):
        store = open_store(url, clock)
        with pytest.raises(StoreUnavailable):
            store.get("k")
        with pytest.raises(StoreUnavailable):
            store.add("k", {}, NOW + 60)


@pytest.mark.parametrize("url", ["postgres://x", "sqlite://", "sqlite:///", "dynamodb://",
                                 "dynamodb://t?colour=red"])
def test_a_store_url_it_cant_read_is_refused(url):
    with pytest.raises(ValueError, match="STORE_URL"):
        open_store(url)


def test_sqlite_keeps_a_few_connections_however_many_threads_come_and_go(tmp_path, clock):
    import os

    from app.store.sqlite import POOL

    store = open_store(f"sqlite:///{tmp_path}/store.db", clock, create=True)
    store.add("k", {}, NOW + 60)
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(100):  # a server that starts a thread per request
        thread = threading.Thread(target=store.get, args=("k",))
        thread.start()
        thread.join()
    assert len(os.listdir("/proc/self/fd")) - before <= POOL * 3  # a database file, WAL, shm
    store.close()


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_sqlite_file_deleted_or_replaced_under_a_running_server_stops_every_play(tmp_path,
                                                                                   how):
    """The store's file deleted (or another put in its place) while the server runs: every
    play is 503 (the game still shows, read from its link), and nothing is written where no reader would see it; the
    link itself is not lost (it holds the game) and plays again once a server opens a store."""
    import os

    from app.keys import Keys
    from app.web import create_app

    path = tmp_path / "store.db"
    app = create_app({"KEYS": Keys.for_tests("store"), "TESTING": True,
                      "STORE_URL": f"sqlite:///{path}"})
    client = app.test_client()
    made = client.post("/api/games", json={"autoplay": False, "game": "parcheesi", "players": [
        {"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]})
    assert made.status_code == 201
    token, seat = made.json["token"], made.json["turn"]
    for name in ("store.db", "store.db-wal", "store.db-shm"):
        if (tmp_path / name).exists():
            os.remove(tmp_path / name)
    if how == "replaced":
        other = open_store(f"sqlite:///{path}", create=True)
        other.add("someone-else", {}, 2 ** 40)
        other.close()
    moved = client.post(f"/api/games/{token}/moves", json={"seat": seat, "steps": ["roll"]})
    assert moved.status_code == 503
    assert client.post(f"/api/games/{token}/turn",
                       json={"seat": seat, "steps": ["roll"]}).status_code == 503
    assert path.exists() == (how == "replaced")  # no new file made for the refused plays
    if how == "replaced":  # and nothing of theirs written into the one put in its place
        with sqlite3.connect(path) as other:
            assert other.execute("SELECT key FROM entries").fetchall() == [("someone-else",)]
    again = create_app({"KEYS": Keys.for_tests("store"), "TESTING": True,
                        "STORE_URL": f"sqlite:///{path}"}).test_client()
    assert again.get(f"/api/games/{token}").status_code == 200  # a restart: the link plays


def test_a_dynamodb_table_made_again_under_a_running_server_stops_every_play(dynamodb_url,
                                                                             monkeypatch):
    """The table deleted and made again (empty) while the server runs: every play is 503, as
    for a SQLite file, never an empty store taken for the old one; the link plays again once
    the operator marks the new table (store create-table) and the server restarts."""
    import boto3

    from app.keys import Keys
    from app.store import dynamodb
    from app.web import create_app

    monkeypatch.setattr(dynamodb, "CHECK_SECONDS", 0)  # every request reads the mark
    # No analysis worked out ahead: its processes read the mark on their own clock (a second)
    app = create_app({"KEYS": Keys.for_tests("store"), "TESTING": True,
                      "STORE_URL": dynamodb_url, "ANALYSIS_WORKERS": 0})
    client = app.test_client()
    made = client.post("/api/games", json={"autoplay": False, "game": "parcheesi", "players": [
        {"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]})
    assert made.status_code == 201
    token, seat = made.json["token"], made.json["turn"]
    store = open_store(dynamodb_url)
    table = store.table
    aws = boto3.client("dynamodb", region_name="us-east-1", endpoint_url=store.endpoint,
                       aws_access_key_id="test", aws_secret_access_key="test")
    aws.delete_table(TableName=table)
    aws.get_waiter("table_not_exists").wait(TableName=table,
                                            WaiterConfig={"Delay": 0.1, "MaxAttempts": 100})
    aws.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    moved = client.post(f"/api/games/{token}/moves", json={"seat": seat, "steps": ["roll"]})
    assert moved.status_code == 503
    assert client.post(f"/api/games/{token}/turn",
                       json={"seat": seat, "steps": ["roll"]}).status_code == 503
    assert aws.scan(TableName=table)["Items"] == []  # nothing written in the new table
    # A new instance refuses the unmarked table too, until the operator marks it.
    with pytest.raises(StoreUnavailable, match="create-table"):
        store.get("anything")
    assert any("marked" in line for line in store.create_table())
    store.close()
    again = create_app({"KEYS": Keys.for_tests("store"), "TESTING": True,
                        "STORE_URL": dynamodb_url}).test_client()
    assert again.get(f"/api/games/{token}").status_code == 200
    assert again.post(f"/api/games/{token}/moves",
                      json={"seat": seat, "steps": ["roll"]}).status_code == 200


def test_making_the_store_again_leaves_it_as_it_is(store, clock):
    store.add("k", {"n": 1}, NOW + 60)
    assert any("already marked" in line for line in store.create_table())
    assert store.get("k").data == {"n": 1}


# -- a SQLite store with an identity: never made again under a server, never rolled back ---------

def _production(path):
    """A client of a production server's app on the store at ``path``, as app.web.wsgi makes
    it: it never makes its store."""
    from app.keys import Keys
    from app.web import create_app

    return create_app({"KEYS": Keys.for_tests("store"), "TESTING": True,
                       "STORE_URL": f"sqlite:///{path}", "STORE_CREATE": False,
                       "ANALYSIS_WORKERS": 0}).test_client()


def _new_game(client):
    made = client.post("/api/games", json={"autoplay": False, "game": "parcheesi", "players": [
        {"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]})
    assert made.status_code == 201, made.json
    return made.json


def _turn(client, view):
    from api_support import whole_turn

    return {"seat": view["turn"], "steps": whole_turn(client, view)}


def test_a_sqlite_store_deleted_under_a_server_is_not_made_again_by_a_restarted_worker(tmp_path):
    """The files deleted, then a worker restarts: it finds no store and makes none, so the
    older link it is sent doesn't play (the store forgot how far the game got): 503, until the
    operator makes the store again."""
    import os

    from app.cli import main

    path = tmp_path / "store.db"
    assert main(["store", "create-table", "--url", f"sqlite:///{path}"]) == 0
    worker = _production(path)
    view = _new_game(worker)
    turn = _turn(worker, view)
    assert worker.post(f"/api/games/{view['token']}/turn", json=turn).status_code == 200
    for name in ("store.db", "store.db-wal", "store.db-shm"):
        if (tmp_path / name).exists():
            os.remove(tmp_path / name)
    restarted = _production(path)
    for client in (restarted, worker):
        refused = client.post(f"/api/games/{view['token']}/turn", json=turn)
        assert refused.status_code == 503, refused.json
        assert refused.json["error"]["code"] == "StoreUnavailable"
        assert client.get(f"/api/games/{view['token']}").status_code == 200  # it still shows
    assert not path.exists()  # no new store made for the refused play
    assert main(["store", "create-table", "--url", f"sqlite:///{path}"]) == 0  # the operator's
    assert restarted.post(f"/api/games/{view['token']}/turn", json=turn).status_code == 200


def test_an_older_copy_of_a_sqlite_store_restored_in_place_plays_no_older_link(tmp_path):
    """``cp backup.db store.db`` under a running server (same file, older contents): the older
    link the copy takes for the newest doesn't play (503) until the operator accepts the copy
    (python -m app store accept)."""
    import shutil

    from app.cli import main

    path = tmp_path / "store.db"

    def checkpoint():  # the WAL written into the file, as SQLite does every 1000 pages
        with sqlite3.connect(path) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    assert main(["store", "create-table", "--url", f"sqlite:///{path}"]) == 0
    server = _production(path)
    view = _new_game(server)
    checkpoint()
    shutil.copyfile(path, tmp_path / "backup.db")
    turn = _turn(server, view)
    assert server.post(f"/api/games/{view['token']}/turn", json=turn).status_code == 200
    checkpoint()
    inode = path.stat().st_ino
    shutil.copyfile(tmp_path / "backup.db", path)
    assert path.stat().st_ino == inode
    refused = server.post(f"/api/games/{view['token']}/turn", json=turn)
    assert refused.status_code == 503, refused.json
    assert server.post(f"/api/games/{view['token']}/moves",
                       json={"seat": view["turn"], "steps": ["roll"]}).status_code == 503
    assert main(["store", "accept", "--url", f"sqlite:///{path}"]) == 0
    assert server.post(f"/api/games/{view['token']}/turn", json=turn).status_code == 200


def _restore_older_copy(path):
    """What ``cp backup.db store.db`` does under a running server, after one more turn: a
    function that puts the copy taken now back in place (the same file, older contents)."""
    import shutil

    def checkpoint():  # the WAL written into the file, as SQLite does every 1000 pages
        with closing(sqlite3.connect(path)) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    checkpoint()
    backup = path.with_name("backup.db")
    shutil.copyfile(path, backup)

    def restore():
        checkpoint()
        inode = path.stat().st_ino
        shutil.copyfile(backup, path)
        assert path.stat().st_ino == inode

    return restore


def _contents(path):
    with closing(sqlite3.connect(path)) as db:
        return (db.execute("SELECT * FROM mark").fetchall(),
                db.execute("SELECT * FROM entries ORDER BY key").fetchall())


def test_an_older_copy_restored_in_place_plays_no_older_link_on_a_worker_started_after(
        tmp_path):
    """Gunicorn recycles a worker after ``cp backup.db store.db``: the new worker has seen
    nothing, yet refuses the older copy too (the high-water mark beside the file), and writes
    nothing in it, so the worker that was running goes on refusing it; until the operator
    accepts the copy, and then both play."""
    from app.cli import main

    path = tmp_path / "store.db"
    assert main(["store", "create-table", "--url", f"sqlite:///{path}"]) == 0
    worker = _production(path)
    view = _new_game(worker)
    restore = _restore_older_copy(path)
    turn = _turn(worker, view)
    assert worker.post(f"/api/games/{view['token']}/turn", json=turn).status_code == 200
    restore()
    restored = _contents(path)
    recycled = _production(path)
    assert recycled.get(f"/api/games/{view['token']}").status_code == 200  # it still shows
    for client in (recycled, worker):
        refused = client.post(f"/api/games/{view['token']}/turn", json=turn)
        assert refused.status_code == 503, refused.json
        assert refused.json["error"]["code"] == "StoreUnavailable"
        assert client.post(f"/api/games/{view['token']}/moves",
                           json={"seat": view["turn"], "steps": ["roll"]}).status_code == 503
        assert _contents(path) == restored  # nothing written in the copy
    assert main(["store", "accept", "--url", f"sqlite:///{path}"]) == 0
    assert recycled.post(f"/api/games/{view['token']}/moves",
                         json={"seat": view["turn"], "steps": ["roll"]}).status_code == 200
    assert worker.post(f"/api/games/{view['token']}/turn", json=turn).status_code == 200


def test_a_sqlite_store_made_at_first_use_keeps_its_high_water_mark_too(tmp_path):
    """The development server (and the tests) make their store at first use: the mark beside
    it is written then, so an older copy restored in place is refused by a server started
    after it as well."""
    from app.keys import Keys
    from app.web import create_app

    path = tmp_path / "store.db"

    def development():
        return create_app({"KEYS": Keys.for_tests("store"), "TESTING": True,
                           "STORE_URL": f"sqlite:///{path}", "ANALYSIS_WORKERS": 0}).test_client()

    server = development()
    view = _new_game(server)
    assert path.with_name("store.db.seen").exists()
    restore = _restore_older_copy(path)
    turn = _turn(server, view)
    assert server.post(f"/api/games/{view['token']}/turn", json=turn).status_code == 200
    restore()
    refused = development().post(f"/api/games/{view['token']}/turn", json=turn)
    assert refused.status_code == 503, refused.json


def test_a_sqlite_store_without_its_high_water_mark_is_taken_as_it_is_and_given_one(tmp_path,
                                                                                     clock):
    """A marked store found with no file beside it (made by an older release) is taken as it
    is, and the file written; one that can't be read is refused until ``store accept``."""
    from app.cli import main

    path = tmp_path / "store.db"
    beside = tmp_path / "store.db.seen"
    assert main(["store", "create-table", "--url", f"sqlite:///{path}"]) == 0
    beside.unlink()
    store = open_store(f"sqlite:///{path}", clock)
    try:
        assert store.add("k", {"n": 1}, NOW + 60)
        [(_, mark, generation)] = _contents(path)[0]
        assert beside.read_text().split()[:2] == [mark, f"{generation:020d}"]
    finally:
        store.close()
    beside.write_text("not a mark\n")
    store = open_store(f"sqlite:///{path}", clock)
    try:
        with pytest.raises(StoreUnavailable, match="store accept"):
            store.get("k")
        assert main(["store", "accept", "--url", f"sqlite:///{path}"]) == 0
        assert store.get("k").data == {"n": 1}
    finally:
        store.close()
