// "Notify me on this phone when it's my turn": the game page's switch for Web Push
// notifications (app/push.py, app/web/push_api.py). The browser's permission is asked only when
// the player taps it, never on opening the page. The service worker (/sw.js) shows them.
//
// The switch is for the player whose link the page is (its seat to move); this browser remembers
// which games' seats it switched on (`boardpass:push:SEED:SEAT`, the endpoint), to offer Stop.
//
// A failure says what happened and what to do, in the page's (the table's) words: never the
// browser's own message, which is in the browser's language and written for developers
// ("Registration failed - permission denied"). The server answers in the page's language too
// (?lang=), and its own messages (a link that moved on, too many tries) are shown as they are.

import { N_, _, lang } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const section = $("notify");
let on = false;
let busy = false;
let seed = null;
let seat = null;

// Each way switching notifications on or off can fail.
const FAILURES = {
  unsupported: N_("This browser can't show notifications. On an iPhone or iPad, add Boardpass to the Home Screen (Share, then Add to Home Screen) and open the game from there; elsewhere, open the link in Chrome, Firefox, Edge or Safari."),
  blocked: N_("Notifications are blocked for this site. Allow them in the browser's settings for this site (the icon by the address), then tap the button again."),
  dismissed: N_("Notifications weren't allowed. Tap the button again and choose Allow."),
  phone: N_("The phone doesn't let this browser show notifications. Turn them on for the browser in the phone's settings, then tap the button again."),
  worker: N_("This browser can't run notifications in this window (a private window can't). Open the link in a normal window, then tap the button again."),
  service: N_("The browser's notification service didn't answer. Tap the button again in a moment."),
  offline: N_("This phone is offline. Tap the button again once it's connected."),
  server: N_("Boardpass couldn't switch notifications just now. Tap the button again in a moment; your turns still come by link meanwhile."),
  refused: N_("Boardpass can't send notifications through this browser. Open the link in Chrome, Firefox, Edge or Safari to be notified."),
};

// A failure of ours: in the words for `kind` (a key of FAILURES), or in the server's own.
class Failure extends Error {
  constructor(kind, words = null) {
    super(words || _(FAILURES[kind]));
  }
}

// What went wrong at `step` (a key of FAILURES: the step's own failure), as one of ours. A
// phone offline fails at any step; the phone's own settings refuse a subscription by name.
function failure(error, step) {
  if (error instanceof Failure) return error;
  if (!navigator.onLine) return new Failure("offline");
  if (step === "service" && error && error.name === "NotAllowedError") return new Failure("phone");
  return new Failure(step);
}

// `action()`, its failures (the browser's errors) made ours for `step`.
async function at(step, action) {
  try {
    return await action();
  } catch (error) {
    throw failure(error, step);
  }
}

function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function storeKey() { return `boardpass:push:${seed}:${seat}`; }

function show(state, text = "") {
  on = state;
  $("notifyme").textContent = on ? _("Stop notifying this phone")
    : _("Notify me on this phone when it's my turn");
  $("notifyme").setAttribute("aria-pressed", on ? "true" : "false");
  if ($("notifytexts")) $("notifytexts").hidden = on;
  $("notifymsg").textContent = text;
}

// The VAPID public key (base64url) as the bytes PushManager.subscribe takes.
function keyBytes(key) {
  const text = atob(key.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - key.length % 4) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

// The server's answer, in the page's language. A subscription it refuses is the browser's
// push service (not one it posts to); any other refusal is in its own words, or ours.
async function send(method, body) {
  const response = await at("server", () => fetch(`${section.dataset.push}?lang=${lang}`, {
    method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  }));
  const answer = await response.json().catch(() => ({}));
  if (response.ok) return answer;
  const error = answer.error || {};
  throw error.code === "BadSubscription" ? new Failure("refused")
    : new Failure("server", error.message);
}

// The browser's subscription for our key: the one it has, or a new one (a subscription made
// for another key, e.g. before the server's key changed, is replaced).
async function subscription() {
  const registration = await at("worker", async () => {
    await navigator.serviceWorker.register("/sw.js");
    return navigator.serviceWorker.ready;
  });
  const key = keyBytes(section.dataset.key);
  return at("service", async () => {
    let current = await registration.pushManager.getSubscription();
    if (current && current.options && current.options.applicationServerKey) {
      const had = new Uint8Array(current.options.applicationServerKey);
      if (had.length !== key.length || had.some((b, i) => b !== key[i])) {
        await current.unsubscribe();
        current = null;
      }
    }
    return current || registration.pushManager.subscribe({ userVisibleOnly: true,
      applicationServerKey: key });
  });
}

async function switchOn() {
  if (!supported()) throw new Failure("unsupported");
  if (Notification.permission === "denied") throw new Failure("blocked");
  const permission = await Notification.requestPermission();
  if (permission === "denied") throw new Failure("blocked");
  if (permission !== "granted") throw new Failure("dismissed");
  const made = await subscription();
  const texts = !!($("alsotexts") && $("alsotexts").checked);
  const answer = await send("POST", { subscription: made.toJSON(), texts });
  localStorage.setItem(storeKey(), made.endpoint);
  show(true, _("This phone will be notified when it's %(name)s's turn.", { name: answer.name }));
}

async function switchOff() {
  const endpoint = localStorage.getItem(storeKey());
  if (endpoint) await send("DELETE", { seat, endpoint });
  localStorage.removeItem(storeKey());
  show(false, _("This phone won't be notified of this game's turns."));
}

async function toggle() {
  if (busy) return;
  busy = true;
  $("notifyme").disabled = true;
  try {
    if (on) await switchOff();
    else await switchOn();
  } catch (error) {
    show(on, failure(error, "server").message);
  } finally {
    busy = false;
    $("notifyme").disabled = false;
  }
}

// Offer the switch on the page of a player's own link (`view`: the game at the link), unless
// the page is read-only (`stale`), passed around one phone (`local`) or its creator's
// (`creating`). A browser that can't show notifications is offered it too: a tap says how to
// get them (an iPhone's Home Screen, another browser).
export async function offerNotifications(view, { stale = false, local = false, creating = false } = {}) {
  if (!section || stale || local || creating || view.phase === "over") return;
  const player = view.seats[view.turn];
  if (!player || player.bot) return;
  seed = view.seed;
  seat = view.turn;
  let state = false;
  const endpoint = localStorage.getItem(storeKey());
  if (endpoint && supported()) {
    const registration = await navigator.serviceWorker.getRegistration("/");
    const current = registration && await registration.pushManager.getSubscription();
    state = !!current && current.endpoint === endpoint;
    if (!state) localStorage.removeItem(storeKey());
  }
  show(state);
  $("notifyme").addEventListener("click", toggle);
  section.hidden = false;
}
