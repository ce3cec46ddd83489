"""Web Push notifications of a player's turn (app/push.py, app/web/push_api.py), sent for real
through pywebpush to a fake push service on 127.0.0.1 (tests/fake_push.py) that checks the
VAPID signature and decrypts each notification with the subscription's keys made here."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from dataclasses import replace

import pytest

from app import link
from app.keys import Keys
from app.play import Game
from api_support import whole_turn
from app.push import (KEEP_DAYS, SERVICES, BadSubscription, Pusher, Subscription, Subscriptions,
                      endpoint_refused, notice, parse_subscription, public_key, topic)
from app.wording import Handoff
from app.store import open_store
from app.web import create_app
from fake_push import FakePushService

KEYS = Keys.for_tests("push")
BEN_PHONE = "+5491123456789"


@pytest.fixture
def service():
    with FakePushService(public_key(KEYS.vapid)) as fake:
        yield fake


@pytest.fixture
def app(tmp_path, monkeypatch, service):
    """The app, posting to the fake push service (the browsers' own stand-in) alone."""
    for name in ("TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM", "TWILIO_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    return create_app({"KEYS": KEYS, "TESTING": True, "PUBLIC_URL": "https://play.test",
                       "STORE_URL": f"sqlite:///{tmp_path}/store.db",
                       "PUSH_SERVICES": [service.url]})


def phones(app):
    """Ana's and Ben's browsers: each its own device cookie."""
    ana, ben = app.test_client(), app.test_client()
    ana.set_cookie("device", "anas-phone")
    ben.set_cookie("device", "bens-phone")
    return ana, ben


def turn(client, view) -> dict:
    answer = client.post(f"/api/games/{view['token']}/turn",
                         json={"seat": view["turn"], "steps": whole_turn(client, view)})
    assert answer.status_code == 200, answer.json
    return answer.json


def ben_to_move(app, ben_phone=None, lang="en", seed=bytes(8)):
    """A Parcheesi game of Ana's and Ben's, Ben to move at a link Ana's phone sent him."""
    ana, ben = phones(app)
    game = Game.new("parcheesi", [link.Seat("Ana", 0), link.Seat("Ben", 2, phone=ben_phone)],
                    KEYS, seed=seed, by_hand=True)
    game = Game(replace(game.header, lang=lang), game.match, KEYS)
    view = ana.get(f"/api/games/{game.token()}").json
    played = False  # Ben's link is one Ana's phone made and sent him
    while view["turn"] != 1 or not played:
        played = view["turn"] == 0
        view = turn(ana if view["turn"] == 0 else ben, view)
    return ana, ben, view


def subscribe(client, view, subscription, **extra):
    return client.post(f"/api/games/{view['token']}/push",
                       json={"subscription": subscription, **extra})


def ben_subscribed(app, service, **extra):
    """Ben asked for notifications on his link, played his turn: Ana to move."""
    ana, ben, view = ben_to_move(app, **extra.pop("game", {}))
    answer = subscribe(ben, view, service.subscribe("ben"), **extra)
    assert answer.status_code == 201, answer.json
    assert answer.json["seat"] == 1 and answer.json["name"] == "Ben" and answer.json["on"]
    return ana, ben, turn(ben, view)


# -- a turn handed to a subscribed player ---------------------------------------------------------

def test_the_turn_is_pushed_signed_and_encrypted_with_the_turn_s_answer(app, service):
    ana, ben, view = ben_subscribed(app, service)
    assert service.received == []  # Ana has none: nothing was pushed for her turn
    after = turn(ana, view)
    (got,) = service.received  # pushed before the turn was answered, not some time after
    assert got.refused is None, got.refused
    # The fake push service checked the VAPID JWT's signature against our public key, and
    # decrypted the payload with the subscription's private key and secret.
    assert got.claims["sub"] == "https://play.test" and got.claims["aud"] == service.url
    assert got.payload == {"title": "Ben, your turn · Parcheesi", "body": "Ana moved.",
                           "url": after["url"], "tag": "boardpass-0000000000000000",
                           "lang": "en"}
    assert int(got.headers["ttl"]) > 0 and got.headers["urgency"] == "high"
    message = after["message"]
    assert message["status"] == "sent" and message["channel"] == "push" and message["pushed"]


def test_once_per_step_whatever_is_sent_again(app, service):
    ana, ben, view = ben_subscribed(app, service)
    steps = whole_turn(ana, view)
    body = {"seat": 0, "steps": steps}
    first = ana.post(f"/api/games/{view['token']}/turn", json=body)
    again = ana.post(f"/api/games/{view['token']}/turn", json=body)  # a double tap
    assert first.status_code == again.status_code == 200
    assert again.json["token"] == first.json["token"]
    assert len(service.wait(1)) == 1


def test_a_phone_that_was_off_gets_only_its_newest_turn_of_a_game(app, service):
    """Each push has a Topic of the game and seat (RFC 8030): the push service keeps only the
    newest for a phone that is off. Another seat, or another game, has its own."""
    ana, ben, view = ben_subscribed(app, service)
    view = turn(ana, view)
    view = turn(ben, view)
    turn(ana, view)
    first, second = service.wait(2)
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", first.headers["topic"])
    assert first.headers["topic"] == second.headers["topic"]
    other = Game.new("parcheesi", [link.Seat("Ana", 0), link.Seat("Ben", 2)], KEYS,
                     seed=b"another!")
    assert topic(other.header.seed, 1) != first.headers["topic"] != topic(bytes(8), 0)


def test_the_contact_push_services_may_write_to_is_said_once_and_checked_at_start(
        tmp_path, monkeypatch, caplog):
    """VAPID_SUBJECT, or else an https: PUBLIC_URL; with neither nothing is pushed, and a
    deployment with a key says so when it starts; a subject of another kind stops it."""
    from app.web.bookkeeping import pusher

    def made(**config):
        return create_app({"KEYS": KEYS, "TESTING": True,
                           "STORE_URL": f"sqlite:///{tmp_path}/store.db", **config})

    with made(PUBLIC_URL="https://play.test").app_context():
        assert pusher().subject == "https://play.test"
    with made(PUBLIC_URL="http://192.168.1.20:5000",
              VAPID_SUBJECT="mailto:ops@play.test").app_context():
        assert pusher().subject == "mailto:ops@play.test"
    monkeypatch.setenv("VAPID_PRIVATE_KEY", KEYS.vapid)
    with caplog.at_level("WARNING"):
        app = made(PUBLIC_URL="http://192.168.1.20:5000")
    assert "no notification will be sent" in caplog.text
    with app.app_context():
        assert pusher() is None
    with pytest.raises(ValueError, match="VAPID_SUBJECT"):
        made(VAPID_SUBJECT="ops@play.test")


def test_the_table_s_language(app, service):
    ana, ben, view = ben_subscribed(app, service, game={"lang": "es"})
    turn(ana, view)
    (got,) = service.wait(1)
    assert got.payload["title"] == "Ben, te toca · Parchís"
    assert got.payload["body"] == "Ana hizo su jugada." and got.payload["lang"] == "es"


def test_what_was_played_since_in_the_text_s_words():
    said = notice("Ana", "Dev", "Ludo", "https://b.example/g/x", "t",
                  news=Handoff(no_move=["Ben"], only_move=["Cy"], rolled=(6, 3)))
    assert said["title"] == "Dev, your turn · Ludo"
    assert said["body"] == ("Ana moved. Ben had no move. Cy had one move only, played for "
                            "them. You rolled 6 and 3.")


# -- texts, and a subscription the push service dropped -------------------------------------------

def test_no_text_when_pushed_unless_the_player_wants_both(app, service, twilio):
    ana, ben, view = ben_subscribed(app, service, game={"ben_phone": BEN_PHONE})
    before = len(twilio.requests)
    after = turn(ana, view)
    assert after["message"]["channel"] == "push" and len(twilio.requests) == before
    assert len(service.wait(1)) == 1


def test_texts_too_when_asked(app, service, twilio):
    ana, ben, view = ben_subscribed(app, service, texts=True, game={"ben_phone": BEN_PHONE})
    before = len(twilio.requests)
    after = turn(ana, view)
    assert after["message"]["channel"] == "sms" and after["message"]["pushed"]
    assert len(twilio.requests) == before + 1 and len(service.wait(1)) == 1


@pytest.mark.parametrize("status", [404, 410])
def test_a_gone_subscription_is_forgotten_and_the_player_texted(app, service, twilio, status):
    ana, ben, view = ben_subscribed(app, service, game={"ben_phone": BEN_PHONE})
    service.answer("ben", status)
    before = len(twilio.requests)
    after = turn(ana, view)
    assert service.wait(1)[0].headers  # the push was tried
    assert after["message"]["channel"] == "sms" and not after["message"]["pushed"]
    assert len(twilio.requests) == before + 1
    # Forgotten: Ben's next turns are texted, and nothing is pushed any more.
    after = turn(ana, turn(ben, after))
    assert len(service.received) == 1 and after["message"]["channel"] == "sms"


def test_a_push_service_failure_is_not_a_text(app, service, twilio):
    ana, ben, view = ben_subscribed(app, service, game={"ben_phone": BEN_PHONE})
    service.answer("ben", 503)
    before = len(twilio.requests)
    after = turn(ana, view)
    assert after["message"]["status"] == "failed" and "yourself" in after["message"]["error"]
    assert len(twilio.requests) == before
    assert after["message"]["sms_href"]  # Ana can send it by hand


def test_pushes_have_the_texts_caps(tmp_path, service):
    app = create_app({"KEYS": KEYS, "TESTING": True, "PUBLIC_URL": "https://play.test",
                      "STORE_URL": f"sqlite:///{tmp_path}/store.db",
                      "PUSH_SERVICES": [service.url],
                      "TEXTS_PER_NUMBER_HOUR": 1})
    ana, ben, view = ben_subscribed(app, service)
    first = turn(ana, view)
    assert first["message"]["pushed"]
    limited = turn(ana, turn(ben, first))["message"]
    assert limited["status"] == "limited" and "in an hour" in limited["error"]
    assert not limited["pushed"] and len(service.received) == 1


def test_a_service_the_deployment_stopped_listing_is_never_posted_to(app, service, twilio):
    """A subscription kept while its push service was listed, the deployment's list changed
    since: nothing is posted there, the player gets the text, and the subscription is
    forgotten as a gone one is."""
    ana, ben, view = ben_subscribed(app, service, game={"ben_phone": BEN_PHONE})
    app.config["PUSH_SERVICES"] = list(SERVICES)  # the browsers' own services only
    before = len(twilio.requests)
    after = turn(ana, view)
    assert after["message"]["channel"] == "sms" and not after["message"]["pushed"]
    assert len(twilio.requests) == before + 1 and not service.received
    app.config["PUSH_SERVICES"] = [service.url]  # listed again: forgotten all the same
    after = turn(ana, turn(ben, after))
    assert after["message"]["channel"] == "sms" and not service.received


# -- switching on and off -------------------------------------------------------------------------

def test_switched_off_from_the_same_place(app, service):
    ana, ben, view = ben_to_move(app)
    subscription = service.subscribe("ben")
    assert subscribe(ben, view, subscription).status_code == 201
    wrong = ben.delete(f"/api/games/{view['token']}/push",
                       json={"seat": 1, "endpoint": service.url + "/push/someone"})
    assert wrong.status_code == 200 and wrong.json == {"on": False, "seat": 1}
    view = turn(ben, view)
    view = turn(ben, turn(ana, view))  # still on: Ben notified
    assert len(service.wait(1)) == 1
    # From any link of the game, the browser that knows the endpoint switches it off.
    off = ben.delete(f"/api/games/{view['token']}/push",
                     json={"seat": 1, "endpoint": subscription["endpoint"]})
    assert off.status_code == 200 and off.json["on"] is False
    turn(ana, view)
    assert len(service.received) == 1


def test_after_sending_the_turn_the_same_phone_may_switch_on(app, service):
    ana, ben, view = ben_to_move(app)
    after = turn(ben, view)  # Ben sent his turn: his page now shows Ana's link
    answer = subscribe(ben, view, service.subscribe("ben"))  # from his own, older, link
    assert answer.status_code == 201 and answer.json["seat"] == 1
    # Ana's phone can't, from Ben's link (it didn't play it), nor from hers (Ben's made it).
    assert subscribe(ana, view, service.subscribe("ana")).status_code == 409
    assert subscribe(ben, after, service.subscribe("x")).status_code == 403
    turn(ana, after)
    assert service.wait(1)[0].name == "ben"


def test_the_phone_that_sent_a_link_can_t_take_its_player_s_notifications(app, service):
    ana, ben, view = ben_to_move(app)
    refused = subscribe(ana, view, service.subscribe("ana"))  # Ana's phone made Ben's link
    assert refused.status_code == 403 and "sent it" in refused.json["error"]["message"]


def test_a_new_game_s_host_switches_on_from_the_first_link(app, service):
    ana, _ = phones(app)
    made = ana.post("/api/games", json={"game": "ludo", "players": [
        {"name": "Ana", "color": "yellow"}, {"name": "Bot", "color": "red", "bot": "easy"}],
        "host": 0})
    view = made.json
    assert made.status_code == 201 and view["turn"] == view["host"]  # the bot played first
    assert subscribe(ana, view, service.subscribe("ana")).status_code == 201


def test_from_an_older_link_nobody_switches_on(app, service):
    ana, ben, view = ben_to_move(app)
    turn(ana, turn(ben, view))
    stranger = app.test_client()
    stranger.set_cookie("device", "someone-else")
    refused = subscribe(stranger, view, service.subscribe("x"))
    assert refused.status_code == 409 and refused.json["error"]["code"] == "MovedOn"


@pytest.mark.parametrize("body, status, code", [
    ("{not json", 400, "BadRequest"),
    ("[1, 2]", 400, "BadRequest"),
    ('{"subscription": "https://push.example.com/x"}', 422, "BadSubscription"),
    ('{"subscription": {"endpoint": 7, "keys": {}}}', 422, "BadSubscription"),
    ('{"subscription": {"endpoint": "ftp://push.example.com/x", "keys": {"p256dh": "x", '
     '"auth": "y"}}}', 422, "BadSubscription"),
    ('[' * 5000 + ']' * 5000, 413, "RequestEntityTooLarge"),
    ('{"subscription": {}, "pad": "' + "x" * 70_000 + '"}', 413, "RequestEntityTooLarge"),
])
def test_bad_requests_are_clear_4xx(app, body, status, code):
    _, ben, view = ben_to_move(app)
    answer = ben.post(f"/api/games/{view['token']}/push", data=body,
                      content_type="application/json")
    assert answer.status_code == status, answer.json
    assert answer.json["error"]["code"] == code and answer.json["error"]["message"]


def test_bad_subscriptions_say_why(app, service):
    _, ben, view = ben_to_move(app)
    good = service.subscribe("ben")
    cases = {
        "https://10.1.2.3/push": "push service",
        "https://[fd00::1]/push": "push service",
        "https://router.lan/push": "push service",
        "https://fcm.googleapis.com/fcm/send/x": "push service",  # not this deployment's
        service.url.replace("http:", "https:") + "/push/ben": "push service",
        service.url.rsplit(":", 1)[0] + ":1/push/ben": "push service",
        "http://u:p@" + service.url.split("//")[1] + "/push/ben": "user name",
        service.url + "/" + "x" * 2000: "too long",
    }
    for endpoint, why in cases.items():
        answer = subscribe(ben, view, {**good, "endpoint": endpoint})
        assert answer.status_code == 422 and why in answer.json["error"]["message"], endpoint
    not_a_point = {**good, "keys": {**good["keys"], "p256dh": "BA" + "A" * 85}}
    assert subscribe(ben, view, not_a_point).status_code == 422
    short_auth = {**good, "keys": {**good["keys"], "auth": "AAAA"}}
    assert subscribe(ben, view, short_auth).status_code == 422
    assert subscribe(ben, view, good, texts="yes").status_code == 422


def test_only_the_browsers_push_services():
    for endpoint in ("https://fcm.googleapis.com/fcm/send/x", "https://web.push.apple.com/QGx",
                     "https://wns2-by3p.notify.windows.com/w/?token=x",
                     "https://updates.push.services.mozilla.com/wpush/v2/x"):
        assert endpoint_refused(endpoint) is None, endpoint
    for endpoint in ("http://fcm.googleapis.com/fcm/send/x", "https://fcm.googleapis.com:444/x",
                     "https://fcm.googleapis.com.attacker.example/x",
                     "https://attacker.example/fcm.googleapis.com", "https://push.apple.com/x",
                     "https://evilpush.apple.com/x", "https://10.0.0.1/x",
                     "https://127.0.0.1/push", "http://127.0.0.1:9/push",
                     # urlsplit keeps a backslash in the host name; requests ends it there
                     "https://127.0.0.1\\.push.apple.com/x",
                     "https://10.0.0.1\\.notify.windows.com/x",
                     "https://a.push.apple.com./x", "https://[::1]/x"):
        assert "push service" in endpoint_refused(endpoint), endpoint
    # A deployment's own list (a test's fake service): that origin alone, port and all.
    assert endpoint_refused("http://127.0.0.1:9/push", ["http://127.0.0.1:9"]) is None
    assert endpoint_refused("http://127.0.0.1:10/push", ["http://127.0.0.1:9"]) is not None
    assert endpoint_refused("https://fcm.googleapis.com/x", ["http://127.0.0.1:9"]) is not None


def test_the_deployment_s_push_services_from_the_environment(monkeypatch):
    monkeypatch.setenv("PUSH_SERVICES", "https://push.example.net, https://*.Push.Example.org")
    config = create_app({"KEYS": KEYS, "TESTING": True}).config
    assert config["PUSH_SERVICES"] == ["https://push.example.net", "https://*.push.example.org"]
    assert endpoint_refused("https://a.push.example.org/x", config["PUSH_SERVICES"]) is None
    monkeypatch.setenv("PUSH_SERVICES", "push.example.net")  # a typo: refused at start
    with pytest.raises(ValueError, match="isn't an origin"):
        create_app({"KEYS": KEYS, "TESTING": True})
    monkeypatch.delenv("PUSH_SERVICES")
    assert create_app({"KEYS": KEYS, "TESTING": True}).config["PUSH_SERVICES"] == list(SERVICES)


def test_switching_is_counted_per_address(tmp_path, service):
    app = create_app({"KEYS": KEYS, "TESTING": True, "PUBLIC_URL": "https://play.test",
                      "STORE_URL": f"sqlite:///{tmp_path}/store.db",
                      "PUSH_SERVICES": [service.url],
                      "PUSH_CHANGES_PER_ADDRESS": "3 per hour"})
    _, ben, view = ben_to_move(app)
    statuses = [subscribe(ben, view, service.subscribe(f"b{i}")).status_code for i in range(4)]
    assert statuses == [201, 201, 201, 429]
    off = ben.delete(f"/api/games/{view['token']}/push", json={"seat": 1, "endpoint": "x"})
    assert off.status_code == 429 and off.headers["Retry-After"]


def test_without_a_vapid_key_nothing_is_offered(tmp_path, service):
    keys = Keys(signing=KEYS.signing, dice=KEYS.dice, phone=KEYS.phone)
    app = create_app({"KEYS": keys, "TESTING": True, "PUBLIC_URL": "https://play.test",
                      "STORE_URL": f"sqlite:///{tmp_path}/store.db",
                      "PUSH_SERVICES": [service.url]})
    _, ben, view = ben_to_move(app)
    answer = subscribe(ben, view, service.subscribe("ben"))
    assert answer.status_code == 404 and answer.json["error"]["code"] == "NotOffered"
    page = ben.get(f"/g/{view['token']}")
    assert b'id="notify"' not in page.data


# -- the page and the service worker ------------------------------------------------------------

def test_the_game_page_offers_the_switch(app):
    _, ben, view = ben_to_move(app)
    page = ben.get(f"/g/{view['token']}").get_data(as_text=True)
    assert f'data-key="{public_key(KEYS.vapid)}"' in page
    assert "Notify me on this phone when it's my turn" in page
    assert f'data-push="/api/games/{view["token"]}/push"' in page


def test_the_service_worker_is_served_at_the_root(app):
    answer = app.test_client().get("/sw.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in answer.headers["Cache-Control"]
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
    assert b"showNotification" in answer.data and b"innerHTML" not in answer.data


# -- the store: encrypted, with an expiry, on both backends --------------------------------------

def test_subscriptions_in_the_store(store_url, service):
    clock = [1_800_000_000.0]
    store = open_store(store_url, lambda: clock[0])
    store.create_table()
    kept = Subscriptions(store, KEYS.phone)
    seed = bytes(range(8))
    mine = parse_subscription(service.subscribe("ana"), texts=True, services=[service.url])
    expires = kept.keep(seed, 2, mine)
    assert expires == clock[0] + KEEP_DAYS * 86400
    assert kept.get(seed, 2) == mine and kept.get(seed, 1) is None
    entry = store.get(Subscriptions.key(seed, 2))
    assert mine.endpoint not in json.dumps(entry.data) and mine.auth not in json.dumps(entry.data)
    # An entry moved to another seat doesn't open (the key is its associated data).
    store.add(Subscriptions.key(seed, 3), entry.data, clock[0] + 60)
    assert kept.get(seed, 3) is None
    # Only its own endpoint switches it off; then it is gone, its data overwritten.
    assert not kept.forget(seed, 2, "https://push.example.com/other")
    assert kept.forget(seed, 2, mine.endpoint) and kept.get(seed, 2) is None
    kept.keep(seed, 2, mine)
    clock[0] += KEEP_DAYS * 86400 - 10
    kept.renew(seed, 2, mine)  # used: kept 30 days more
    clock[0] += 20
    assert kept.get(seed, 2) == mine
    clock[0] += KEEP_DAYS * 86400
    assert kept.get(seed, 2) is None  # expired
    store.close()


def test_the_size_a_subscription_adds_to_the_store(tmp_path, service):
    """What one kept subscription costs in the store (docs/benchmarks.md): a Chrome endpoint
    (FCM's, 188 characters) and Firefox's (Mozilla's, about 250)."""
    store = open_store(f"sqlite:///{tmp_path}/store.db", create=True)
    kept = Subscriptions(store, KEYS.phone)
    keys = service.subscribe("x")["keys"]
    chrome = "https://fcm.googleapis.com/fcm/send/" + "c" * 11 + ":APA91b" + "F" * 134
    firefox = "https://updates.push.services.mozilla.com/wpush/v2/gAAAAAB" + "m" * 190
    sizes = {}
    for name, endpoint in {"chrome": chrome, "firefox": firefox}.items():
        kept.keep(bytes(8), 0, Subscription(endpoint, keys["p256dh"], keys["auth"]))
        with sqlite3.connect(tmp_path / "store.db") as db:
            key, data = db.execute("SELECT key, data FROM entries WHERE key LIKE 'pushsub#%'"
                                   ).fetchone()
        # DynamoDB's item size: attribute names and values (pk, v, d, ttl; numbers ~ 21 bytes)
        sizes[name] = len("pk") + len(key) + len("d") + len(data.encode()) + 2 * 21 + 4
    print(f"\nsubscription item: {sizes}")
    assert all(size < 1024 for size in sizes.values())  # one DynamoDB write unit each
    store.close()


# -- keys ---------------------------------------------------------------------------------------

def test_vapid_keys_from_the_environment_or_development(tmp_path):
    from app.push import valid_key

    dev = Keys.from_env({}, instance_dir=tmp_path)
    assert valid_key(dev.vapid) and Keys.from_env({}, instance_dir=tmp_path).vapid == dev.vapid
    given = Keys.from_env({"VAPID_PRIVATE_KEY": KEYS.vapid}, instance_dir=tmp_path)
    assert given.vapid == KEYS.vapid
    deployed = Keys.from_env({"SIGNING_KEYS": "s", "DICE_KEY": "d"}, instance_dir=tmp_path)
    assert deployed.vapid == ""  # a deployment without VAPID_PRIVATE_KEY pushes nothing
    assert "vapid" not in repr(dev) and dev.vapid not in repr(dev)


def test_every_process_on_one_development_keys_file_has_the_same_vapid_key(tmp_path):
    """Derived from the file's dice key, never written: two server processes starting at once
    can't each write a key of their own (a page's subscription would then be signed for by
    another key)."""
    from app.push import valid_key

    written = json.dumps({"signing": "s" * 20, "dice": "d" * 20})
    (tmp_path / "dev-keys.json").write_text(written)
    keys = Keys.from_env({}, instance_dir=tmp_path)
    assert keys.signing == (b"s" * 20,) and valid_key(keys.vapid)
    assert Keys.from_env({}, instance_dir=tmp_path).vapid == keys.vapid
    assert (tmp_path / "dev-keys.json").read_text() == written  # nothing written


def test_pushes_to_a_dead_port_fail_quietly(service):
    subscription = parse_subscription(service.subscribe("x"), services=[service.url])
    service.stop()
    pusher = Pusher(KEYS.vapid, "mailto:ops@example.com", [service.url])
    assert pusher.send(subscription, {"title": "t"}).status == "failed"


def test_parse_subscription_refuses_what_isn_t_one():
    for bad in (None, [], {"endpoint": "https://push.example.com/x"}, {"keys": {}}):
        with pytest.raises(BadSubscription):
            parse_subscription(bad)


def test_the_figures(app, service):
    """docs/benchmarks.md's figures: over ten hand-offs to a subscribed player, how long from
    the turn's request to the push service receiving the notification, and what sending one
    costs the server (``Pusher.send``: a new key pair, the encryption, the VAPID signature and
    the request, to a push service on 127.0.0.1)."""
    import statistics

    app.config.update(TEXTS_PER_NUMBER_HOUR=20)  # ten pushes to Ben's phone within the hour
    ana, ben, view = ben_subscribed(app, service)
    delays = []
    for n in range(10):
        started = time.time()
        view = turn(ana, view)
        assert len(service.received) == n + 1  # with the turn's answer
        delays.append(service.received[-1].at - started)
        view = turn(ben, view)
    subscription = parse_subscription(service.subscribe("bench"), services=[service.url])
    pusher = Pusher(KEYS.vapid, "mailto:ops@example.com", [service.url])
    sends = []
    for _ in range(20):
        started = time.perf_counter()
        assert pusher.send(subscription, {"title": "Ben, your turn · Ludo"}).status == "sent"
        sends.append(time.perf_counter() - started)
    print(f"\nturn request to push received: median {statistics.median(delays) * 1000:.0f} ms, "
          f"worst {max(delays) * 1000:.0f} ms of {len(delays)}; Pusher.send: median "
          f"{statistics.median(sends) * 1000:.1f} ms, worst {max(sends) * 1000:.1f} ms of 20")


def test_a_deployment_s_key_from_the_command_line(capsys):
    from app.cli import main
    from app.push import valid_key

    assert main(["vapid-key"]) == 0
    private_line, public_line = capsys.readouterr().out.splitlines()
    private = private_line.removeprefix("VAPID_PRIVATE_KEY=")
    assert valid_key(private) and public_key(private) in public_line
    assert Keys.from_env({"SIGNING_KEYS": "s", "DICE_KEY": "d", "VAPID_PRIVATE_KEY": private}
                         ).vapid == private
