"""Chance to win and move review through the API: positions found in a link's game, a person's
choices reviewed (never a bot's), answers that are the same for anyone and cached for good."""

import time
from dataclasses import replace
from pathlib import Path

import pytest

from app import link, review
from workbench.games import play_random
from app.keys import Keys
from app.play import Game
from app.web.bookkeeping import store

KEYS = Keys.for_tests("review")


@pytest.fixture
def keys():
    """The keys this module's links are made with: its app's too."""
    return KEYS


@pytest.fixture
def fast(client):
    """Fewer playouts than the product's 300: these tests check the answers' shape and sense."""
    client.application.config.update(ANALYSIS_PLAYOUTS=40, REVIEW_PLAYOUTS=40, REVIEW_EXTRA=0)
    return client


@pytest.fixture(scope="module")
def finished() -> Game:
    return play_random("ludo", 3, "review-api", 0, KEYS)


def test_chances_to_win_add_up_and_are_cached_for_good(fast, finished):
    token = finished.token()
    answer = fast.get(f"/api/games/{token}/chances?step=60")
    assert answer.status_code == 200
    chances = answer.json["chances"]
    assert len(chances) == 3 and abs(sum(chances) - 1) < 1e-9
    assert answer.json["step"] == 60 and answer.json["playouts"] == 40
    assert "immutable" in answer.headers["Cache-Control"]
    assert fast.get(f"/api/games/{token}/chances?step=60").json == answer.json
    # At the end the winner's chance is certain.
    end = fast.get(f"/api/games/{token}/chances").json
    assert end["chances"][finished.state.placed[0]] == 1.0


def test_a_persons_choice_is_reviewed_with_every_option_graded(fast, finished):
    token = finished.token()
    view = fast.get(f"/api/games/{token}").json
    step, seat = view["decisions"][0]
    answer = fast.get(f"/api/games/{token}/review?step={step}")
    assert answer.status_code == 200, answer.json
    done = answer.json
    assert done["seat"] == seat and done["played"] == finished.match.steps[step][0]
    assert len(done["options"]) == finished.match.steps[step][1] >= 2
    best = done["options"][done["best"]]
    assert best["loss"] == 0 and best["grade"] == "good"
    for option in done["options"]:
        assert option["grade"] in ("good", "misstep", "blunder") and option["label"]
        assert 0 <= option["chance"] <= 1 and option["loss"] >= 0
    assert "immutable" in answer.headers["Cache-Control"]


def test_bots_and_turns_played_for_absent_players_are_not_graded(fast):
    seats = [link.Seat("Ana", 0), link.Seat("Bot", 1, bot=2), link.Seat("Cy", 2)]
    game = Game.new("ludo", seats, KEYS, seed=bytes(8), by_hand=True)
    game = Game(replace(game.header, deadline=60, since=1), game.match, KEYS)
    for _ in range(400):
        if game.over:
            break
        if game.match.turn == 2 and game.match.phase == "roll":
            game.play_for_absent(now=10**9 + len(game.match.steps) * 10**5)
        else:
            game.step(0)
    graded = {step for step, _ in review.decisions(game)}
    chosen = [(step, seat) for step, ((_, radix), (kind, seat, _))
              in enumerate(zip(game.match.steps, game.match.history))
              if kind == "move" and radix > 1]
    assert graded and graded == {step for step, seat in chosen if seat == 0}
    token = game.token()
    bot_step = next(step for step, seat in chosen if seat != 0)
    answer = fast.get(f"/api/games/{token}/review?step={bot_step}")
    assert answer.status_code == 422 and "choice" in answer.json["error"]["message"]


@pytest.mark.parametrize("step", ["-1", "x", "1.5", "9999999", "500000"])
def test_a_step_that_is_not_in_the_game_is_refused(fast, finished, step):
    answer = fast.get(f"/api/games/{finished.token()}/chances?step={step}")
    assert answer.status_code == 400 and "step" in answer.json["error"]["message"]


def test_chances_after_the_moves_of_a_turn_in_progress(fast):
    import json
    from urllib.parse import quote

    game = Game.new("parcheesi", [link.Seat("Ana", 0), link.Seat("Ben", 2)], KEYS, seed=bytes(8), by_hand=True)
    token = game.token()
    after = fast.get(f"/api/games/{token}/chances?steps=" + quote(json.dumps(["roll"])))
    assert after.status_code == 200 and after.json["step"] == 1
    assert abs(sum(after.json["chances"]) - 1) < 1e-9
    illegal = fast.get(f"/api/games/{token}/chances?steps=" + quote(json.dumps(["roll"] * 2)))
    assert illegal.status_code == 422
    both = fast.get(f"/api/games/{token}/chances?step=0&steps=[]")
    assert both.status_code == 400
    assert fast.get(f"/api/games/{token}/chances?steps=nope").status_code == 400


# -- every answer within a budget, worked out apart from the turns, cached by the browser only ----

@pytest.fixture(scope="module")
def wide() -> tuple[Game, int]:
    """A game of random moves and its widest decision (Parcheesi: 9 to 12 options)."""
    best = None
    for number in range(40):
        played = play_random("parcheesi", 4, "review-api-wide", number, KEYS)
        for step, _ in review.decisions(played):
            if best is None or played.match.steps[step][1] > best[0]:
                best = (played.match.steps[step][1], played, step)
    assert best[0] >= 9
    return best[1], best[2]


def test_a_wide_decision_is_answered_within_the_budget_saying_what_it_did_not_grade(fast, wide):
    fast.application.config.update(ANALYSIS_BUDGET=15_000, REVIEW_EXTRA=40)
    played, step = wide
    answer = fast.get(f"/api/games/{played.token()}/review?step={step}&lang=en")
    assert answer.status_code == 200, answer.json
    done = answer.json
    options = done["options"]
    assert len(options) == played.match.steps[step][1]
    # The move played is graded first; what the budget didn't reach is listed, with no grade.
    assert options[done["played"]]["grade"] in ("good", "misstep", "blunder")
    assert done["not_graded"] and len(done["not_graded"]) < len(options) - 1
    for option in options:
        if option["index"] in done["not_graded"]:
            assert option["grade"] is option["chance"] is option["loss"] is None
            assert option["reasons"] == []
        else:
            assert option["playouts"] >= 20 and option["grade"] is not None
    assert done["best"] not in done["not_graded"]
    assert done["playouts"] == sum(o["playouts"] for o in options)
    assert fast.get(f"/api/games/{played.token()}/review?step={step}&lang=en").json == done


def test_a_full_analysis_pool_answers_202_being_worked_out_with_retry_after(fast, finished):
    """No place free: not an error (a 503 is one in every browser's console), but 202 and when
    to ask again; without workers nothing is queued, and nothing is counted."""
    fast.application.config.update(ANALYSIS_WORKERS=0, ANALYSIS_WAITING=0)  # one place
    pool = review.analysts(fast.application.config)
    assert pool.places == 1
    token = finished.token()
    step = fast.get(f"/api/games/{token}").json["decisions"][-1][0]
    assert pool._admitted.acquire(blocking=False)  # a request being worked on
    try:
        for url in (f"/api/games/{token}/review?step={step}", f"/api/games/{token}/chances"):
            pending = fast.get(url)
            assert pending.status_code == 202 and "pending" in pending.json
            assert pending.headers["Retry-After"] == str(review.RETRY_AFTER)
            assert pending.headers["Cache-Control"] == "no-store"
        with fast.application.app_context():  # a request not worked out spent none of the
            hour = int(time.time() // 3600)  # game's hourly analysis count
            assert store().get(f"analysis#{finished.header.seed.hex()}#{hour}") is None
    finally:
        pool._admitted.release()
    assert fast.get(f"/api/games/{token}/review?step={step}").status_code == 200


def test_an_answer_asked_when_the_workers_are_full_is_worked_out_in_the_background(
        fast, finished):
    """Every place taken: the 202's question is queued, worked out and kept, and asked again
    it is there (200), without a place."""
    fast.application.config.update(ANALYSIS_WORKERS=1, ANALYSIS_WAITING=0)  # one place
    pool = review.analysts(fast.application.config)
    token = finished.token()
    url = f"/api/games/{token}/chances?step=3"
    assert pool._admitted.acquire(blocking=False)  # a request being worked on
    try:
        assert fast.get(url).status_code == 202
        key = review.chances_question(finished, review.state_at(finished, 3),
                                      fast.application.config).key
        eventually(lambda: not pool.queued(key), "the queued answer", 120)
        kept = fast.get(url)  # the place is still taken: this one is the kept answer
        assert kept.status_code == 200 and len(kept.json["chances"]) == len(finished.header.seats)
    finally:
        pool._admitted.release()


def test_one_answer_asked_by_several_phones_at_once_is_worked_out_once(tmp_path):
    """Two phones of one table ask the same position's chances together: one job, one answer
    for both."""
    import threading

    pool = review.Analysts(1, waiting=3)
    try:
        pool.run(nothing)
        folder, answers = str(tmp_path), []
        phones = [threading.Thread(target=lambda: answers.append(pool.run(
            logged, "chances", folder, True, key="the position", who="table")))
            for _ in range(2)]
        phones[0].start()
        until_exists(tmp_path / "started")  # the first phone's job is being worked on...
        phones[1].start()
        held_until(pool, "table", 2)  # ...when the second asks
        (tmp_path / "go").touch()
        for phone in phones:
            phone.join(60)
        assert answers == ["chances", "chances"]
        assert (tmp_path / "order").read_text() == "chances\n"  # worked out once
    finally:
        pool.close()


def test_a_table_s_phones_share_its_places_and_an_address_holds_half_at_most():
    """Places go by table: a second table behind the same address still has one while the
    first holds its share; and one address can't hold more than half, whatever its tables."""
    pool = review.Analysts(0, waiting=3)  # four places, a share of two
    for _ in range(2):
        pool._held["table 1"] = pool._held.get("table 1", 0) + 1
    assert not pool.has_place("table 1", "10.0.0.1")  # its table's share is taken
    assert pool.has_place("table 2", "10.0.0.1")  # another table, same Wi-Fi
    pool._held["10.0.0.1"] = 2
    assert not pool.has_place("table 3", "10.0.0.1")  # but the address's half is taken
    assert pool.has_place("table 3", "10.0.0.2")


def test_one_client_holds_half_the_analysis_places_at_most():
    """A burst from one address takes half the places; the next of its requests is Busy at
    once, and another client still finds a place."""
    import threading

    pool = review.Analysts(0, waiting=3)  # four places, worked out one at a time
    assert (pool.places, pool.share) == (4, 2)
    release, started = threading.Event(), threading.Semaphore(0)

    def slow():
        started.release()
        release.wait(10)
        return "done"

    answers = []
    burst = [threading.Thread(target=lambda: answers.append(pool.run(slow, who="10.0.0.1")))
             for _ in range(2)]
    for thread in burst:
        thread.start()
    assert started.acquire(timeout=10)  # one is worked on...
    held_until(pool, "10.0.0.1", 2)  # ...the other holds a place waiting
    with pytest.raises(review.Busy):
        pool.run(slow, who="10.0.0.1")  # a third from the same address
    other = threading.Thread(target=lambda: answers.append(pool.run(lambda: "theirs",
                                                                     who="10.0.0.2")))
    other.start()
    release.set()
    for thread in burst + [other]:
        thread.join(10)
    assert sorted(answers) == ["done", "done", "theirs"]
    assert pool._held == {}  # every place given back


def eventually(check, what: str, seconds: float = 60) -> None:
    """Wait until ``check()`` holds: an event, with a bound (a spawned worker's start, on a
    busy machine) only so that a broken pool fails instead of hanging."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"{what} never came"
        time.sleep(0.01)


def held_until(pool, who: str, places: int) -> None:
    """Wait until ``who`` holds ``places`` of the pool's places (its requests admitted)."""
    eventually(lambda: pool._held.get(who, 0) >= places, f"{who} holding {places} places")


def queued_until(pool, who: str, places: int) -> None:
    """Wait until ``who`` has ``places`` requests in the pool's hands: admitted and queued for
    a worker, or with one (so the next request comes after them)."""
    def asked():
        with pool._ready:
            return len(pool._asked.get(who, ())) + pool._given.get(who, 0)

    eventually(lambda: asked() >= places, f"{who} with {places} requests queued")


def until_exists(path) -> None:
    eventually(path.exists, path.name)


def logged(name: str, folder: str, gated: bool = False) -> str:
    """A worker's job (in a process of its own): when ``gated``, it says it has started and
    waits to be let go (files in ``folder``); then it writes its name in the order the jobs
    end."""
    folder = Path(folder)
    if gated:
        (folder / "started").touch()
        until_exists(folder / "go")
    with open(folder / "order", "a", encoding="utf-8") as order:
        order.write(name + "\n")
    return name


def nothing() -> None:
    """A worker's job that does nothing: run once, the worker has started."""


def test_a_burst_from_one_client_waits_behind_another_tables_request(tmp_path):
    """One worker: the burst's first job is worked on, its second waits; another table's
    request, coming after both, is worked on next: the clients waiting take turns."""
    import threading

    pool = review.Analysts(1, waiting=3)
    try:
        pool.run(nothing)  # the worker started
        folder = str(tmp_path)
        threads, held = [], {}
        for name, who in (("burst 1", "10.0.0.1"), ("burst 2", "10.0.0.1"),
                          ("other table", "10.0.0.2")):
            # The first is worked on until let go: the others come while it runs.
            threads.append(threading.Thread(target=pool.run, args=(
                logged, name, folder, name == "burst 1"), kwargs={"who": who}))
            threads[-1].start()
            held[who] = held.get(who, 0) + 1
            queued_until(pool, who, held[who])  # asked, in this order
        (tmp_path / "go").touch()
        for thread in threads:
            thread.join(60)
        order = (tmp_path / "order").read_text().split("\n")[:-1]
        assert order == ["burst 1", "other table", "burst 2"]
    finally:
        pool.close()


def test_work_ahead_yields_to_a_pages_request(tmp_path):
    """A turn's answers worked out ahead wait while a page's request goes first: the page
    waits for the one job its worker is on, not for the backlog."""
    import threading

    pool = review.Analysts(1, waiting=2)
    try:
        pool.run(nothing)
        folder = str(tmp_path)
        pool.submit("ahead 0", logged, "ahead 0", folder, True)  # the worker is on it...
        for n in (1, 2):
            pool.submit(f"ahead {n}", logged, f"ahead {n}", folder)
        until_exists(tmp_path / "started")
        page = threading.Thread(target=lambda: pool.run(logged, "page", folder,
                                                        who="10.0.0.1"))
        page.start()
        queued_until(pool, "10.0.0.1", 1)  # ...when the page asks
        (tmp_path / "go").touch()
        page.join(60)
        while pool.queued("ahead 2"):
            time.sleep(0.05)
        order = (tmp_path / "order").read_text().split("\n")[:-1]
        assert order == ["ahead 0", "page", "ahead 1", "ahead 2"]
    finally:
        pool.close()


def test_a_request_for_an_answer_in_the_backlog_takes_it_over(tmp_path):
    import threading

    pool = review.Analysts(1, waiting=2)
    try:
        pool.run(nothing)
        folder = str(tmp_path)
        pool.submit("ahead 0", logged, "ahead 0", folder, True)  # worked on until let go
        pool.submit("ahead 1", logged, "ahead 1", folder)
        until_exists(tmp_path / "started")
        answers = []
        page = threading.Thread(target=lambda: answers.append(
            pool.run(logged, "page's own", folder, key="ahead 1")))
        page.start()
        eventually(lambda: "ahead 1" not in pool._backlog,  # taken over while it waits
                   "the request taking the job over")
        (tmp_path / "go").touch()
        page.join(60)
        assert answers == ["ahead 1"]  # the background's job, worked out once
        assert not pool.queued("ahead 1")
    finally:
        pool.close()


def test_analysis_runs_in_worker_processes_with_the_same_answers(fast, finished, tmp_path):
    token = finished.token()
    step = fast.get(f"/api/games/{token}").json["decisions"][-2][0]
    answers = []
    for workers in (1, 0):
        # A store of its own each time: worked out, not found kept.
        fast.application.config.update(ANALYSIS_WORKERS=workers,
                                       STORE_URL=f"sqlite:///{tmp_path}/{workers}.db")
        fast.application.extensions.pop("boardpass.store").close()
        answers.append((fast.get(f"/api/games/{token}/review?step={step}").json,
                        fast.get(f"/api/games/{token}/chances?step={step}").json))
    assert answers[0] == answers[1]
    assert review.analysts({**fast.application.config, "ANALYSIS_WORKERS": 1})._executor  # started


def test_answers_are_cached_by_the_browser_only_and_their_language_is_in_the_url(fast, finished):
    token = finished.token()
    step = fast.get(f"/api/games/{token}").json["decisions"][-1][0]
    plain = fast.get(f"/api/games/{token}/review?step={step}")
    for answer in (plain, fast.get(f"/api/games/{token}/chances?step={step}")):
        cache = answer.headers["Cache-Control"]
        # The URL holds the game's link, a key: no shared cache may keep it.
        assert "private" in cache and "public" not in cache
        assert "immutable" in cache and "max-age=31536000" in cache
        # Nothing of the person in the key: at most the compression (app/web/compression.py).
        assert answer.headers.get("Vary", "Accept-Encoding") == "Accept-Encoding"
    # Words in ?lang=, or else the table's language: never the cookie's or the browser's, so
    # one URL is one answer.
    fast.set_cookie("lang", "es")
    spanish_browser = fast.get(f"/api/games/{token}/review?step={step}",
                               headers={"Accept-Language": "es-AR,es;q=0.9"})
    assert spanish_browser.json == plain.json
    spanish = fast.get(f"/api/games/{token}/review?step={step}&lang=es").json
    assert [o["label"] for o in spanish["options"]] != [o["label"] for o in plain.json["options"]]


def test_a_games_luck_is_one_answer_that_matches_its_replay_and_is_kept(fast, finished):
    from app import answers
    from app.luck import game_luck
    from app.web import bookkeeping

    token = finished.token()
    answer = fast.get(f"/api/games/{token}/luck")
    assert answer.status_code == 200
    assert "immutable" in answer.headers["Cache-Control"]
    expected = game_luck(finished)
    assert answer.json == dict(expected, step=len(finished.match.steps))
    assert sum(answer.json["rolls"]) > 50 and len(answer.json["luck"]) == 3
    with fast.application.app_context():
        kept = answers.kept(bookkeeping.store(), answers.luck_question(finished))
    assert kept == expected  # kept for every phone, nothing of the link in it
    assert token not in str(kept)


def test_luck_so_far_changes_as_the_game_goes_on(fast, finished):
    steps = len(finished.match.steps)
    short = link.encode(finished.header, finished.match.steps[:steps // 2], KEYS)
    half = fast.get(f"/api/games/{short}/luck").json
    full = fast.get(f"/api/games/{finished.token()}/luck").json
    assert half["step"] == steps // 2 < full["step"] == steps
    assert sum(half["rolls"]) < sum(full["rolls"])


def test_a_finished_games_page_asks_for_as_many_reviews_at_once_as_one_client_may_hold(fast,
                                                                                      finished):
    """On a server with analysis workers, the page asks one client's share of a process's
    places at once (one table alone is never refused); without (Lambda), more: each request
    has an instance of its own."""
    import re

    config = fast.application.config
    page = fast.get(f"/g/{finished.token()}").get_data(as_text=True)
    at_once = int(re.search(r'data-at-once="(\d+)"', page).group(1))
    assert at_once == review.at_once(config)
    assert review.at_once({**config, "ANALYSIS_WORKERS": 1, "ANALYSIS_WAITING": 2}) == \
        review.Analysts(1, 2).share == 2
    assert review.at_once({**config, "ANALYSIS_WORKERS": 0}) == review.AT_ONCE_WITHOUT_WORKERS


def test_no_analysis_process_outlives_its_server_killed_while_the_pool_starts():
    """A server (the process that owns the pool) killed just after its pool's processes were
    spawned, before they finished starting: every one of them ends too, none left an orphan
    waiting for work for ever."""
    import os
    import subprocess
    import sys
    import uuid

    mark = uuid.uuid4().hex  # in the environment of the server and every process it starts
    owner = subprocess.run(
        [sys.executable, "-c", "import os, signal; from app import review; "
         "review.Analysts(1, waiting=0, niceness=0).submit('job', os.getpid); "
         "os.kill(os.getpid(), signal.SIGKILL)"],
        env=dict(os.environ, ANALYSIS_TEST_SERVER=mark), timeout=120)
    assert owner.returncode == -9

    def started() -> list[int]:
        """The processes the server started that are still running (a zombie has ended)."""
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                environ = Path(f"/proc/{pid}/environ").read_bytes()
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if f"ANALYSIS_TEST_SERVER={mark}".encode() in environ and state != "Z":
                found.append(int(pid))
        return found

    deadline = time.monotonic() + 120  # their start, on a busy machine
    while started() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert started() == []
