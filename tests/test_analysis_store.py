"""Analysis answers kept in the store, on both backends: worked out once for every phone and
every game that reaches the position, ready after a turn before anyone asks, still given when
the store is down, and never a way around a link's signature."""

from __future__ import annotations

import time

import pytest

from app import answers, link, review
from app.engine.core import ROLL
from app.keys import Keys
from app.play import Game
from app.store import open_store
from app.web import create_app

KEYS = Keys.for_tests("analysis-store")
SEATS = [link.Seat("Ana", 0), link.Seat("Ben", 2)]
FAST = {"ANALYSIS_PLAYOUTS": 30, "REVIEW_PLAYOUTS": 30, "REVIEW_EXTRA": 0}


def phone(store_url: str, **config):
    """A server on the store at ``store_url`` (each call another one: another machine, or
    another Lambda instance), with few playouts, working analysis out in the request."""
    app = create_app({"KEYS": KEYS, "TESTING": True, "PUBLIC_URL": "https://play.test",
                      "STORE_URL": store_url, "ANALYSIS_WORKERS": 0, **FAST, **config})
    return app.test_client()


@pytest.fixture
def worked(monkeypatch) -> list:
    """Every question worked out by the engine in this process (the analysis runs in the
    request's thread: ``ANALYSIS_WORKERS`` 0)."""
    asked = []
    work = answers.work
    monkeypatch.setattr(answers, "work", lambda question: asked.append(question) or work(question))
    return asked


def turn_with_a_choice(number: int = 0):
    """A Parcheesi link at a turn's start, and that turn's steps (as the API takes them) with
    the steps where its player chose between moves: the game at the turn's end."""
    game = Game.new("parcheesi", SEATS, KEYS, seed=number.to_bytes(8, "big"))
    while True:
        token, seat, steps, choices = game.token(), game.match.turn, [], []
        while not game.over and game.match.turn == seat:
            if game.match.phase == ROLL:
                steps.append("roll")
                game.step()
                continue
            if len(game.rules.legal_moves(game.state)) > 1:
                choices.append(len(game.match.steps))
            move = game.step(0)
            steps.append({"from": move.src, "to": move.dst, "values": list(move.values)})
        if choices:
            return token, seat, steps, choices


def games_at_one_position() -> tuple[Game, Game]:
    """Two games (their own seeds, dice and links) whose first positions are the same."""
    first = Game.new("parcheesi", SEATS, KEYS, seed=bytes(8))
    for number in range(1, 50):
        other = Game.new("parcheesi", SEATS, KEYS, seed=number.to_bytes(8, "big"))
        if other.position() == first.position():
            return first, other
    raise AssertionError("no two games start alike")


def spent(store_url: str, game: Game) -> int:
    """Answers worked out for ``game`` this hour, by the store's count."""
    hour = int(time.time() // 3600)
    entry = open_store(store_url).get(f"analysis#{game.header.seed.hex()}#{hour}")
    return entry.version if entry else 0


def test_a_position_two_games_reach_is_worked_out_once_for_every_phone(store_url, worked):
    one, other = games_at_one_position()
    assert one.token() != other.token()
    mine = phone(store_url).get(f"/api/games/{one.token()}/chances?step=0")
    assert mine.status_code == 200 and len(worked) == 1
    # Another phone on another server, another game: this game's hour of analysis is spent
    # on a position of its own, yet the one both games reached comes, worked out already.
    theirs = phone(store_url, ANALYSIS_PER_GAME_HOUR=1)
    assert theirs.get(f"/api/games/{other.token()}/chances?steps=%5B%22roll%22%5D"
                      ).status_code == 200
    kept = theirs.get(f"/api/games/{other.token()}/chances?step=0")
    assert kept.status_code == 200 and kept.json == mine.json and len(worked) == 2
    assert "immutable" in kept.headers["Cache-Control"]
    assert (spent(store_url, one), spent(store_url, other)) == (1, 1)
    later = Game.from_token(other.token(), KEYS)
    for _ in range(3):
        later.step(0)
    refused = theirs.get(f"/api/games/{later.token()}/chances")  # a new position: past the hour
    assert refused.status_code == 429 and len(worked) == 2


def test_a_review_is_worked_out_once_whichever_link_and_language_asks(store_url, worked):
    token, seat, steps, choices = turn_with_a_choice()
    sender = phone(store_url)
    sent = sender.post(f"/api/games/{token}/turn", json={"seat": seat, "steps": steps}).json
    step = choices[0]
    mine = sender.get(f"/api/games/{sent['token']}/review?step={step}&lang=en")
    # Much later, on another phone, from a newer link of the game, in Spanish.
    newer = Game.from_token(sent["token"], KEYS)
    while len(newer.match.steps) < step + 12:
        newer.step(0)
    theirs = phone(store_url).get(f"/api/games/{newer.token()}/review?step={step}&lang=es")
    assert mine.status_code == theirs.status_code == 200, theirs.json
    assert len(worked) == 1
    figures = ("index", "chance", "loss", "grade", "playouts", "missed")
    assert [{k: o[k] for k in figures} for o in theirs.json["options"]] == \
        [{k: o[k] for k in figures} for o in mine.json["options"]]
    assert {k: theirs.json[k] for k in ("seat", "played", "best", "not_graded")} == \
        {k: mine.json[k] for k in ("seat", "played", "best", "not_graded")}
    assert [o["label"] for o in theirs.json["options"]] != \
        [o["label"] for o in mine.json["options"]]  # the words are the asker's


def test_a_turn_s_reviews_and_chances_are_kept_before_anyone_asks(store_url, worked):
    """Where the server has analysis workers, a sent turn's decisions are reviewed (and the
    chances where the next turn begins worked out) in the background: the finished game's
    review and the next player's pills then find them kept."""
    token, seat, steps, choices = turn_with_a_choice(1)
    sender = phone(store_url, ANALYSIS_WORKERS=1, ANALYSIS_AHEAD=True)
    # Buffered: the test client closes the answer once read, as a server does once it is sent.
    sent = sender.post(f"/api/games/{token}/turn", json={"seat": seat, "steps": steps},
                       buffered=True)
    assert sent.status_code == 200
    game = Game.from_token(sent.json["token"], KEYS)
    config = sender.application.config
    wanted = [review.review_question(game, step, review.state_at(game, step), config)
              for step in choices]
    wanted += [review.chances_question(game, review.state_at(game, step), config)
               for step in (len(game.match.steps),)]
    store = open_store(store_url)
    deadline = time.monotonic() + 60  # a worker's start and a few small answers: seconds
    while any(store.get(q.key) is None for q in wanted) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(store.get(q.key) is not None for q in wanted)
    # Asked later from another phone: answered from the store, nothing worked out.
    later = phone(store_url)
    for step in choices:
        assert later.get(f"/api/games/{sent.json['token']}/review?step={step}").status_code == 200
    assert later.get(f"/api/games/{sent.json['token']}/chances").status_code == 200
    assert worked == [] and spent(store_url, game) == len(wanted)


def test_without_analysis_workers_a_turn_queues_nothing_and_the_page_asks(store_url, worked):
    """On Lambda (no workers) the turn's answer is all a turn does; the mover's page asks for
    its reviews, worked out in its own request."""
    token, seat, steps, choices = turn_with_a_choice(2)
    sender = phone(store_url, ANALYSIS_AHEAD=True)
    sent = sender.post(f"/api/games/{token}/turn", json={"seat": seat, "steps": steps},
                       buffered=True).json
    game = Game.from_token(sent["token"], KEYS)
    asked = review.review_question(game, choices[0], review.state_at(game, choices[0]),
                                   sender.application.config)
    assert open_store(store_url).get(asked.key) is None and worked == []
    assert sender.get(f"/api/games/{sent['token']}/review?step={choices[0]}").status_code == 200
    assert len(worked) == 1 and open_store(store_url).get(asked.key) is not None


@pytest.fixture(params=["sqlite", "dynamodb"])
def down_url(request, tmp_path):
    """A store on each backend that can't be reached: a folder where SQLite's file should be,
    and a DynamoDB endpoint that refuses connections."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}"
    return request.getfixturevalue("unreachable_dynamodb_url")


def test_with_the_store_down_analysis_still_answers(down_url, worked):
    token, seat, steps, choices = turn_with_a_choice(3)
    game = Game.from_token(token, KEYS)
    game.play_turn(seat, steps)
    down = phone(down_url)
    url = f"/api/games/{game.token()}/review?step={choices[0]}"
    first, again = down.get(url), down.get(url)
    assert first.status_code == again.status_code == 200 and first.json == again.json
    assert "immutable" in first.headers["Cache-Control"]
    assert down.get(f"/api/games/{game.token()}/chances?step=1").status_code == 200
    assert len(worked) == 3  # worked out each time: nothing could be kept


def test_a_kept_answer_is_no_way_around_a_tampered_link_or_step(store_url):
    token, seat, steps, choices = turn_with_a_choice(4)
    client = phone(store_url)
    sent = client.post(f"/api/games/{token}/turn", json={"seat": seat, "steps": steps}).json
    good, roll = sent["token"], len(Game.from_token(token, KEYS).match.steps)
    assert client.get(f"/api/games/{good}/review?step={choices[0]}").status_code == 200
    bad = good[:20] + ("A" if good[20] != "A" else "B") + good[21:]
    for url in (f"/api/games/{bad}/review?step={choices[0]}", f"/api/games/{bad}/chances",
                f"/api/games/{bad}/luck", f"/api/games/{good[:-30]}/luck",
                f"/api/games/{good}/review?step={roll}",  # a roll: no choice to review
                f"/api/games/{good}/review?step=99999", f"/api/games/{good}/chances?step=-1"):
        answer = client.get(url)
        assert 400 <= answer.status_code < 500 and answer.json["error"]["message"], url


def test_past_the_backlog_a_turn_queues_nothing_and_the_page_still_gets_its_review(
        store_url, monkeypatch):
    """The background's backlog is bounded (here full from the start): a turn past it queues
    nothing, and the page asking works the review out as it would with no workers at all."""
    monkeypatch.setattr(review, "BACKLOG", 0)
    token, seat, steps, choices = turn_with_a_choice(5)
    sender = phone(store_url, ANALYSIS_WORKERS=1, ANALYSIS_AHEAD=True)
    sent = sender.post(f"/api/games/{token}/turn", json={"seat": seat, "steps": steps},
                       buffered=True).json
    workers = review.analysts(sender.application.config)
    assert not workers._queued  # nothing queued, nor being worked out
    game = Game.from_token(sent["token"], KEYS)
    assert spent(store_url, game) == 0  # nothing worked out ahead
    answer = sender.get(f"/api/games/{sent['token']}/review?step={choices[0]}")
    assert answer.status_code == 200 and spent(store_url, game) == 1


def test_a_games_luck_asked_a_thousand_times_is_worked_out_once(store_url, worked):
    """Luck is about a whole game, not a position: kept under the game (its dice secret's
    digest and its steps), counted like any answer, so asking again costs one read."""
    token, seat, steps, _ = turn_with_a_choice(6)
    game = Game.from_token(token, KEYS)
    game.play_turn(seat, steps)
    client = phone(store_url)
    answers_seen = {client.get(f"/api/games/{game.token()}/luck").get_data()
                    for _ in range(1000)}
    assert len(answers_seen) == 1 and len(worked) == 1 and spent(store_url, game) == 1
    kept = open_store(store_url).get(answers.luck_question(game).key)
    assert kept is not None and game.token() not in str(kept.data)
    # The same game one step further is another answer, counted: past the hour, refused.
    game.step(0)
    refused = phone(store_url, ANALYSIS_PER_GAME_HOUR=1).get(f"/api/games/{game.token()}/luck")
    assert refused.status_code == 429 and len(worked) == 1
