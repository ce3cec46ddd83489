"""Web Push in Chromium (headless, Playwright): the game page's switch, the service worker at
/sw.js, a notification delivered through the DevTools protocol, and tapping it.

Headless Chromium has no push service of its own (its subscribe() would ask Google's), so the
page's PushManager is given, at that one boundary, a subscription the fake push service made
(tests/fake_push.py): the server then pushes to that service for real, and what it decrypted is
handed to the browser's service worker with ``ServiceWorker.deliverPushMessage``, as the push
service would. Everything else (permission, registration, the server's store, pywebpush,
the notification, the worker's click handler) is the real thing.
"""

from __future__ import annotations

import json
import os
import time

import pytest

from app import i18n, link
from app.play import Game
from app.push import public_key
from app.web.turns import with_lang
from browser_support import CHROMIUM, KEYS, PHONE, Monitor
from fake_push import FakePushService

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")

# The browser's push service, as the page sees it: the subscription the fake service made.
STUB_PUSH_JS = """
window.__permissionAsked = 0;
const ask = Notification.requestPermission.bind(Notification);
Notification.requestPermission = (...args) => { window.__permissionAsked += 1; return ask(...args); };
const made = JSON.parse(%s);
// Kept by the browser across pages, as a real subscription is.
const KEPT = "test:push-subscription-key";
const subscription = (key) => ({
  endpoint: made.endpoint, options: { applicationServerKey: key, userVisibleOnly: true },
  toJSON: () => made,
  unsubscribe: async () => { localStorage.removeItem(KEPT); current = null; return true; },
});
const saved = localStorage.getItem(KEPT);
let current = saved ? subscription(Uint8Array.from(atob(saved), (c) => c.charCodeAt(0)).buffer)
  : null;
PushManager.prototype.getSubscription = async function () { return current; };
PushManager.prototype.subscribe = async function (options) {
  const key = new Uint8Array(options.applicationServerKey);
  localStorage.setItem(KEPT, btoa(String.fromCharCode(...key)));
  current = subscription(key.buffer);
  return current;
};
"""


@pytest.fixture(scope="module")
def server_config():
    """Notifications pushed: a contact for the push services (the server's address is http:)."""
    return {"VAPID_SUBJECT": "mailto:ops@boardpass.example"}


@pytest.fixture
def live(server, fresh_store):
    """The module's server, its links (and pushes) naming it, with a store of this test's own:
    the tests replay their seeds, again and again when repeated (docs/testing.md)."""
    server.app.config["PUBLIC_URL"] = server.url
    return server


def api_turn(live, view) -> dict:
    """Play the seat to move's whole turn through the API (the first legal move each time)."""
    seat, steps = view["turn"], []
    while True:
        steps.append("roll" if view["phase"] == "roll" else
                     {k: view["legal"][0][k] for k in ("from", "to", "values")})
        after = live.position(view["token"], seat, steps)
        if after["turn_over"]:
            break
        view = dict(after, token=view["token"])
    status, answer = live.api(f"/api/games/{view['token']}/turn", {"seat": seat, "steps": steps})
    assert status == 200, answer
    return answer


def bens_link(live, seed: int, lang: str = "en") -> dict:
    """Ben to move, at a link of a game of Ana's and Ben's at a table in ``lang`` (each test its
    own seed: the module's server keeps one store)."""
    game = with_lang(Game.new("parcheesi", [link.Seat("Ana", 0), link.Seat("Ben", 2)], KEYS,
                              seed=bytes([seed] * 8), by_hand=True), lang)
    status, view = live.api(f"/api/games/{game.token()}")
    while view["turn"] != 1 or not view["steps"]:
        view = api_turn(live, view)
    return view


def test_a_turn_s_notification_shown_and_tapped(live, browser):
    view = bens_link(live, 7)
    with FakePushService(public_key(KEYS.vapid)) as service:
        live.app.config["PUSH_SERVICES"] = [service.url]  # the browsers' own stand-in
        made = service.subscribe("ben")
        context = browser.new_context(viewport=PHONE, has_touch=True)
        context.grant_permissions(["notifications"], origin=live.url)
        context.add_init_script(STUB_PUSH_JS % json.dumps(json.dumps(made)))
        page = context.new_page()
        monitor = Monitor()
        monitor.attach(page)
        page.goto(live.game_url(view["token"]))
        button = page.locator("#notifyme")
        button.wait_for(state="visible")
        page.locator("#roll").wait_for(state="visible")  # the replay is over: nothing moves
        assert page.evaluate("window.__permissionAsked") == 0  # not on opening the page
        assert button.text_content() == "Notify me on this phone when it's my turn"
        button.click()
        page.locator("#notifymsg").get_by_text(
            "This phone will be notified when it's Ben's turn.").wait_for()
        assert page.evaluate("window.__permissionAsked") == 1
        assert button.text_content() == "Stop notifying this phone"
        worker = context.service_workers[0] if context.service_workers else \
            context.wait_for_event("serviceworker")
        assert worker.url == f"{live.url}/sw.js"

        # Ben plays; Ana plays: the server pushes Ben's turn to the push service.
        view = api_turn(live, view)
        view = api_turn(live, view)
        (got,) = service.received  # pushed before the turn was answered
        assert got.refused is None
        assert got.payload["title"] == "Ben, your turn · Parcheesi"
        assert got.payload["url"] == view["url"]

        # The push service hands it to the browser: the service worker shows it.
        cdp = context.new_cdp_session(page)
        registrations = []
        cdp.on("ServiceWorker.workerRegistrationUpdated",
               lambda event: registrations.extend(event["registrations"]))
        cdp.send("ServiceWorker.enable")
        deadline = time.monotonic() + 60  # the enable command's events, in answer to it
        while not registrations:
            assert time.monotonic() < deadline, "no service worker registration reported"
            page.wait_for_timeout(50)
        (registration,) = [r for r in registrations if r["scopeURL"] == live.url + "/"]
        cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": live.url, "registrationId": registration["registrationId"],
            "data": json.dumps(got.payload)})
        shown = []
        while not shown:  # the worker's push event shows it
            assert time.monotonic() < deadline, "no notification shown"
            page.wait_for_timeout(50)
            shown = page.evaluate("""async () => (await (await navigator.serviceWorker.ready)
                .getNotifications()).map((n) => ({title: n.title, body: n.body, tag: n.tag,
                url: n.data.url}))""")
        assert shown == [{"title": "Ben, your turn · Parcheesi", "body": "Ana moved.",
                          "tag": got.payload["tag"], "url": view["url"]}]

        # Tapped: the worker's notificationclick (DevTools has no command that clicks a
        # notification, so the event is dispatched in the worker with the notification it
        # showed) closes it and brings this site's window to the newest link.
        worker.evaluate("""async () => {
            const [shown] = await self.registration.getNotifications();
            try {
              self.dispatchEvent(new NotificationEvent("notificationclick", {notification: shown}));
            } catch (error) {}  // waitUntil refuses an event the browser didn't make
        }""")
        page.wait_for_url(view["url"])
        assert page.evaluate("""async () => (await (await navigator.serviceWorker.ready)
            .getNotifications()).length""") == 0
        # Ben's new link's page: the switch says it is on, and switches off.
        button = page.locator("#notifyme")
        button.wait_for(state="visible")
        page.locator("#roll").wait_for(state="visible")
        assert button.text_content() == "Stop notifying this phone"
        button.click()
        page.locator("#notifymsg").get_by_text(
            "This phone won't be notified of this game's turns.").wait_for()
        view = api_turn(live, api_turn(live, view))  # Ben's turn, Ana's: Ben's not pushed
        assert len(service.received) == 1
        monitor.check()
        context.close()


def test_the_switch_fits_a_360_px_phone(live, browser):
    view = bens_link(live, 8)
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    page = context.new_page()
    page.goto(live.game_url(view["token"]))
    button = page.locator("#notifyme")
    button.wait_for(state="visible")
    box = button.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360 and box["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


# Each way switching notifications on fails, as the page meets it: the browser's own failure
# (stubbed at that one boundary, with the message Chromium gives), and the words the player
# reads instead, in the table's language.
FAILING = {
    "phone": ("""
        PushManager.prototype.subscribe = async () => {
          throw new DOMException("Registration failed - permission denied", "NotAllowedError");
        };""", "The phone doesn't let this browser show notifications. Turn them on for the "
        "browser in the phone's settings, then tap the button again."),
    "service": ("""
        PushManager.prototype.subscribe = async () => {
          throw new DOMException("Registration failed - push service error", "AbortError");
        };""", "The browser's notification service didn't answer. Tap the button again in a "
        "moment."),
    "worker": ("""
        ServiceWorkerContainer.prototype.register = async () => {
          throw new DOMException("Failed to register a ServiceWorker: The operation is "
                                 + "insecure.", "SecurityError");
        };""", "This browser can't run notifications in this window (a private window can't). "
        "Open the link in a normal window, then tap the button again."),
    "unsupported": ("delete window.PushManager;", "This browser can't show notifications. On "
        "an iPhone or iPad, add Boardpass to the Home Screen (Share, then Add to Home Screen) "
        "and open the game from there; elsewhere, open the link in Chrome, Firefox, Edge or "
        "Safari."),
    "blocked": ("""
        Object.defineProperty(Notification, "permission", { get: () => "denied" });""",
        "Notifications are blocked for this site. Allow them in the browser's settings for "
        "this site (the icon by the address), then tap the button again."),
    "dismissed": ("""
        Notification.requestPermission = async () => "default";""",
        "Notifications weren't allowed. Tap the button again and choose Allow."),
}


def switch_page(live, browser, lang: str, seed: int, init_script: str):
    """Ben's page of a game at a table in ``lang``, on a 360 px phone that allows notifications,
    with ``init_script`` run first; and its context."""
    view = bens_link(live, seed + (50 if lang == "es" else 0), lang)  # a game per language
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True,
                                  locale="en-US")  # the browser's language isn't the table's
    context.grant_permissions(["notifications"], origin=live.url)
    context.add_init_script(init_script)
    page = context.new_page()
    page.goto(live.game_url(view["token"]))
    page.locator("#notifyme").wait_for(state="visible")
    page.locator("#roll").wait_for(state="visible")  # the replay is over: a tap is the switch's
    assert page.locator("html").get_attribute("lang") == lang
    return page, context


def said_after_tap(page, lang: str, english: str) -> str:
    """Tap the switch: its message, once it says ``english`` in ``lang``; the switch stays off
    and fits the phone."""
    words = i18n.translate(english, lang)
    assert lang == "en" or words != english, "not in Spanish yet: " + english
    page.locator("#notifyme").click()
    page.locator("#notifymsg").get_by_text(words, exact=True).wait_for()
    button = page.locator("#notifyme")
    assert button.get_attribute("aria-pressed") == "false"
    assert button.text_content() == i18n.translate("Notify me on this phone when it's my turn", lang)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    box = page.locator("#notifymsg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    return page.locator("#notifymsg").text_content()


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("kind", list(FAILING))
def test_a_failed_switch_says_what_happened_and_what_to_do_in_the_table_s_language(
        live, browser, lang, kind):
    script, english = FAILING[kind]
    page, context = switch_page(live, browser, lang, 20 + list(FAILING).index(kind), script)
    said = said_after_tap(page, lang, english)
    assert "Registration failed" not in said and "ServiceWorker" not in said
    context.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_switch_tapped_offline_says_so(live, browser, lang):
    page, context = switch_page(live, browser, lang, 30, STUB_PUSH_JS % json.dumps(
        json.dumps({"endpoint": "https://push.example/x", "keys": {"p256dh": "x", "auth": "x"}})))
    context.set_offline(True)
    said_after_tap(page, lang, "This phone is offline. Tap the button again once it's connected.")
    context.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_subscription_the_server_refuses_is_said_in_the_player_s_words(live, browser, lang):
    # A push service the server doesn't post to (its PUSH_SERVICES): 422, BadSubscription.
    made = {"endpoint": "https://push.nowhere.example/send/x",
            "keys": {"p256dh": "BOr5c0cl2yKnA3ChHJ_uNMZ4gfddvpmGhZ5Q4p9ltlqkwXp7Mwq56XhHgvgd40o6"
                     "pP8thJ9Ou_nbBdAu9UGy-N0", "auth": "7H4PR2BSJ-cz-fPQu2VJ7g"}}
    page, context = switch_page(live, browser, lang, 31, STUB_PUSH_JS % json.dumps(
        json.dumps(made)))
    with page.expect_response(lambda r: "/push?lang=" in r.url) as answer:
        said = said_after_tap(page, lang, "Boardpass can't send notifications through this "
                              "browser. Open the link in Chrome, Firefox, Edge or Safari to be "
                              "notified.")
    assert answer.value.status == 422
    assert answer.value.json()["error"]["code"] == "BadSubscription"
    assert "subscription" not in said
    context.close()
