"""Shared fixtures. They build on each other: ``keys``, then ``app``, then ``client``, then
``api``. A module whose tests make links themselves defines its own ``keys`` fixture, so that the
app signs and rolls with the keys its links were made with; one that needs another app defines
its own ``app``."""

from __future__ import annotations

import os

import pytest
from api_support import Api
from dynalite import dynalite_endpoint, dynamodb_url, unreachable_dynamodb_url  # noqa: F401

from app.keys import Keys
from app.web import create_app

# The analysis workers run at the suite's own priority, not below it: beside other busy
# processes (docs/testing.md), workers at a lower priority would get no time at all, and every
# test waiting for a chance to win or a review would wait for the machine to be idle.
os.environ["ANALYSIS_NICENESS"] = "0"


@pytest.fixture
def keys():
    """The keys the test's app signs links with and rolls dice from."""
    return Keys.for_tests()


@pytest.fixture
def app(keys, monkeypatch, tmp_path):
    """The app with the test's keys, a public address, a store of its own (SQLite in the
    test's folder), and no Twilio account: nothing is ever texted from a test unless it sets
    up the fake Twilio itself."""
    for name in list(os.environ):
        if name.startswith("TWILIO_"):
            monkeypatch.delenv(name)
    return create_app({"KEYS": keys, "TESTING": True, "PUBLIC_URL": "https://play.test",
                       "STORE_URL": f"sqlite:///{tmp_path}/store.db"})


@pytest.fixture
def client(app):
    """A phone's browser on the test's app: its own cookies."""
    return app.test_client()


@pytest.fixture
def api(client):
    """The test's games made and played through the API, on ``client``."""
    return Api(client)


@pytest.fixture
def twilio(monkeypatch):
    """A fake Twilio API on a local port (tests/fake_twilio.py), set up as the app's account."""
    from fake_twilio import FakeTwilio

    with FakeTwilio("AC" + "1" * 32, "secret-token") as fake:
        monkeypatch.setenv("TWILIO_ACCOUNT_SID", fake.account_sid)
        monkeypatch.setenv("TWILIO_AUTH_TOKEN", fake.auth_token)
        monkeypatch.setenv("TWILIO_FROM", "+15005550006")
        monkeypatch.setenv("TWILIO_API_BASE", fake.url)
        yield fake


@pytest.fixture(params=["sqlite", "dynamodb"])
def store_url(request, tmp_path):
    """Each store backend in turn: a new SQLite file, and a table on dynalite."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/store.db"
    return request.getfixturevalue("dynamodb_url")


# -- the browser tests: one server and one Chromium per module --------------------------------

@pytest.fixture(scope="module")
def server_config():
    """What a module's browser tests set in their server's config beyond ``server``'s own
    (a module overrides this fixture)."""
    return {}


@pytest.fixture(scope="module")
def server(tmp_path_factory, server_config):
    """The app served from a thread on 127.0.0.1 for a module's browser tests, with a store
    of its own and no Twilio account nor public address. Few playouts, and none extra for close
    calls: the chance-to-win pills and move reviews come fast (their sense is tested in
    test_review_api.py and the engine's tests; here, the page), and room for a whole game's
    review at once (a full pool's 202 and the page asking again have tests of their own; here
    they would only make the reviews slower)."""
    from browser_support import KEYS, LiveServer

    store = tmp_path_factory.mktemp("store") / "store.db"
    with pytest.MonkeyPatch.context() as mp:
        for name in list(os.environ):
            if name.startswith("TWILIO_") or name == "PUBLIC_URL":
                mp.delenv(name)
        with LiveServer(create_app({"KEYS": KEYS, "ANALYSIS_PLAYOUTS": 30,
                                    "REVIEW_PLAYOUTS": 30, "REVIEW_EXTRA": 0,
                                    "ANALYSIS_WAITING": 40,
                                    # a module's games and rooms all come from 127.0.0.1
                                    "GAMES_PER_ADDRESS": "100000 per hour",
                                    "ROOMS_PER_ADDRESS": "100000 per hour",
                                    "STORE_URL": f"sqlite:///{store}",
                                    **server_config})) as live:
            yield live


@pytest.fixture
def fresh_store(server, tmp_path):
    """The module's server with a store of its own for this test: tests replay the same seeds,
    and a game the store has seen move on would be an older link to the next test. It waits
    for the requests the last test's pages sent to be answered: one still being answered would
    write to this test's store."""
    server.wait_idle()
    app = server.app
    old = app.extensions.pop("boardpass.store", None)
    if old:
        old.close()
    app.config["STORE_URL"] = f"sqlite:///{tmp_path}/store.db"


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, driven by Playwright. An ``expect`` waits up to 30 s for what the page
    should show: the suite must pass beside other busy processes (docs/testing.md), and a
    check that passes returns as soon as the page shows it, so the bound costs nothing."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)

    from browser_support import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
