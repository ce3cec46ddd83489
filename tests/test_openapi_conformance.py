"""The API does what static/openapi.json says, checked by schemathesis against the app itself:
every operation with generated requests (valid and invalid), and sequences of calls that follow
the document's links (a new game's link, then reading it, playing on it...). The document is
what clients build on: an answer it doesn't describe, or a request it calls invalid that the
server takes, fails here.

A request the schema allows may still be refused: whether a link is signed, a move legal or a
seat the host's, no schema can say; nor whether a room's code names a live room. So the valid
requests' check accepts those refusals (400 a link that isn't a game, 403, 404 a room that isn't
there, 409, 410, 422); everything else is checked in full."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.keys import Keys
from app.web import create_app
from api_support import play_until_turn_over

KEYS = Keys.for_tests("openapi")

CONFIG = schemathesis.Config.from_dict({
    "checks": {
        "positive_data_acceptance": {
            "expected-statuses": ["2xx", "304", 400, 403, 404, 409, 410, 422]},
        # 414: a link longer than any game's is refused as the address it is part of.
        "negative_data_rejection": {
            "expected-statuses": [400, 404, 405, 406, 409, 413, 414, 415, 422]},
    },
})


def _app(tmp_path_factory):
    store = tmp_path_factory.mktemp("openapi-store") / "store.db"
    return create_app({"KEYS": KEYS, "TESTING": True, "PUBLIC_URL": "https://play.test",
                       "STORE_URL": f"sqlite:///{store}", "ANALYSIS_PLAYOUTS": 8,
                       "REVIEW_PLAYOUTS": 8, "REVIEW_EXTRA": 0,
                       # the answers as the document has them: schemathesis's WSGI client
                       # reads a gzipped body as text (compression: tests/test_static.py)
                       "COMPRESS": False,
                       # generated requests come from one client (with no address at all:
                       # one shared client under every limit, the /48 one included), which
                       # the limits (tests/test_rooms.py) would turn into 429s
                       "GAMES_PER_ADDRESS": "100000 per hour",
                       "ROOMS_PER_ADDRESS": "100000 per hour",
                       "ROOM_JOINS_PER_ADDRESS": "100000 per hour",
                       "ROOM_MISSES_PER_ADDRESS": "100000 per minute",
                       "ROOM_MISSES_PER_NETWORK": "100000 per minute",
                       "ROOM_MISSES_IN_ALL": "100000 per minute",
                       "PUSH_CHANGES_PER_ADDRESS": "100000 per hour"})


@pytest.fixture(scope="module")
def openapi(tmp_path_factory):
    """The app, as static/openapi.json describes it."""
    return schemathesis.openapi.from_wsgi("/api/openapi.json", _app(tmp_path_factory),
                                          config=CONFIG)


schema = schemathesis.pytest.from_fixture("openapi")


@schema.parametrize()
@settings(max_examples=25, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case):
    case.call_and_validate()


@pytest.fixture(scope="module")
def games(openapi):
    """Real games, made as a client would: createGame, then (the document's link) its first turn
    finished, so that every operation on a game is tried on links that play, too."""
    client = openapi.app.test_client()
    made = []
    for body in GAMES:
        view = client.post("/api/games", json=body).json
        steps, _ = play_until_turn_over(client, view)  # the first player's turn
        made += [view["token"], client.post(f"/api/games/{view['token']}/turn", json={
            "seat": view["turn"], "steps": steps}).json["token"]]
    return made


GAMES = [
    {"game": "parcheesi", "players": [{"name": "Ana", "color": "yellow"},
                                      {"name": "Ben", "color": "red", "bot": "easy"}],
     "deadline_hours": 1},
    {"game": "red-arse", "settings": {"board": 6, "off": ["claim"]},
     "players": [{"name": "Ana", "color": "red"}, {"name": "Ben", "color": "blue"}]},
    {"game": "ludo", "settings": {"capacity": 4},
     "players": [{"name": "Ana", "color": "red"}, {"name": "Ben", "color": "green"}]},
]


@pytest.mark.parametrize("operation", ["readGame", "playSteps", "finishTurn", "playForAbsent",
                                       "comeBack", "addPlayer", "startRematch", "chances",
                                       "review"])
def test_every_operation_on_real_links_answers_as_documented(openapi, games, operation):
    op = openapi.find_operation_by_id(operation)
    links = st.sampled_from(games)

    @given(data=st.data())
    @settings(max_examples=20, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    def check(data):
        token = data.draw(links)
        case = data.draw(op.as_strategy(path_parameters={"token": token}))
        case.call_and_validate()

    check()


def test_sequences_of_calls_following_the_documents_links_answer_as_documented(openapi):
    """schemathesis's stateful run: from createGame (its documented example makes real games)
    along the document's links to every operation on the new game's link."""
    openapi.as_state_machine().run(settings=settings(
        max_examples=20, stateful_step_count=6, deadline=None, database=None, derandomize=True,
        suppress_health_check=list(HealthCheck)))
