// Boardpass's service worker: it shows a player's "your turn" notification (Web Push,
// app/push.py) and, when it is tapped, opens the game's newest link that reached this phone.
// Served at /sw.js (scope: the whole site). It caches nothing: every page comes from the server.
//
// A push carries JSON: {title, body, url, tag, lang}. One notification per game (its tag): a
// newer turn's replaces the one before, so the notification always holds the newest link.

"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// Only our own pages are opened: a link on this site, never another address.
function ourLink(url) {
  try {
    const link = new URL(url, self.location.origin);
    return link.origin === self.location.origin ? link.href : null;
  } catch {
    return null;
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const text = (value, fallback) => (typeof value === "string" && value ? value : fallback);
  const url = ourLink(data.url) || self.location.origin + "/";
  event.waitUntil(self.registration.showNotification(text(data.title, "Boardpass"), {
    body: text(data.body, ""),
    tag: text(data.tag, "boardpass"),
    renotify: true,
    lang: text(data.lang, ""),
    icon: "/icon-192.png",
    badge: "/badge.png",  // one colour: Android draws the shape alone
    data: { url },
  }));
});

// The page of this link, if a window has it open, comes to the front; else a window this
// site controls goes to it; else a new one opens.
async function open(url) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const same = windows.find((client) => client.url === url);
  if (same) return same.focus();
  const ours = windows.find((client) => "navigate" in client && client.url.startsWith(
    self.location.origin + "/"));
  if (ours) {
    const went = await ours.navigate(url).catch(() => null);
    if (went) return went.focus().catch(() => went);
  }
  return self.clients.openWindow(url);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = ourLink(event.notification.data && event.notification.data.url);
  if (url) event.waitUntil(open(url));
});
