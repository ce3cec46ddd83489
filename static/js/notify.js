// "Notify me on this phone when it's my turn": the game page's switch for Web Push
// notifications (app/push.py, app/web/push_api.py). The browser's permission is asked only when
// the player taps it, never on opening the page. The service worker (/sw.js) shows them.
//
// The switch is for the player whose link the page is (its seat to move); this browser remembers
// which games' seats it switched on (`boardpass:push:SEED:SEAT`, the endpoint), to offer Stop.

import { _ } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const section = $("notify");
let on = false;
let busy = false;
let seed = null;
let seat = null;

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

async function send(method, body) {
  const response = await fetch(section.dataset.push, {
    method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error((answer.error && answer.error.message) || response.statusText);
  return answer;
}

// The browser's subscription for our key: the one it has, or a new one (a subscription made
// for another key, e.g. before the server's key changed, is replaced).
async function subscription() {
  await navigator.serviceWorker.register("/sw.js");
  const registration = await navigator.serviceWorker.ready;
  const key = keyBytes(section.dataset.key);
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
}

async function switchOn() {
  if (Notification.permission === "denied") {
    show(false, _("Notifications are blocked for this site: allow them in the browser's settings first."));
    return;
  }
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    show(false, _("Without your permission this phone can't be notified."));
    return;
  }
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
    $("notifymsg").textContent = error.message || String(error);
  } finally {
    busy = false;
    $("notifyme").disabled = false;
  }
}

// Offer the switch on the page of a player's own link (`view`: the game at the link), unless
// the page is read-only (`stale`), passed around one phone (`local`) or its creator's (`creating`).
export async function offerNotifications(view, { stale = false, local = false, creating = false } = {}) {
  if (!section || !supported() || stale || local || creating || view.phase === "over") return;
  const player = view.seats[view.turn];
  if (!player || player.bot) return;
  seed = view.seed;
  seat = view.turn;
  let state = false;
  const endpoint = localStorage.getItem(storeKey());
  if (endpoint) {
    const registration = await navigator.serviceWorker.getRegistration("/");
    const current = registration && await registration.pushManager.getSubscription();
    state = !!current && current.endpoint === endpoint;
    if (!state) localStorage.removeItem(storeKey());
  }
  show(state);
  $("notifyme").addEventListener("click", toggle);
  section.hidden = false;
}
