// Talking to the server: the game and room pages' requests to the games' and rooms' API, and
// the analysis answers review.js waits for (notify.js's switch has its own, with the browser's
// push service in between). A refusal is thrown as an Error in the server's words for the player
// (`message`), with its `code`, the room it sends back with a refusal (`room`) and how many
// seconds it asks to be left alone (`retryAfter`, its Retry-After: a limit reached, a server
// busy or restarting).

import { _, lang } from "./i18n.js";

const NO_ANSWER = () => _("The server didn't answer.");
const HTTP_ERROR = (status) => _("Error %(status)s", { status });

// The error a refusal (`response`, with its JSON `data`, null when it had none) is thrown as.
function refusal(response, data) {
  const error = new Error(!data ? NO_ANSWER()
    : data.error ? data.error.message : HTTP_ERROR(response.status));
  error.code = data && data.error ? data.error.code : null;
  error.room = (data && data.room) || null;
  error.retryAfter = Number(response.headers.get("Retry-After")) || null;
  return error;
}

const etags = new WeakMap();  // an answer -> the ETag it came with

// The answer at `url`: a GET when there is no `body` (with `headers`: a room's poll sends
// If-None-Match), else a POST of `body` as JSON, with `lang` in it: the server answers in the
// table's language, or in the one this page's switcher chose (the table's from the next link
// on). Never from the browser's cache; a 304 (nothing new since the ETag sent) is null.
export async function call(url, body, headers = {}) {
  const response = await fetch(url, body === undefined ? { headers, cache: "no-store" } : {
    method: "POST", cache: "no-store",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ ...body, lang }),
  });
  if (response.status === 304) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok || !data) throw refusal(response, data);
  etags.set(data, response.headers.get("ETag"));
  return data;
}

// The ETag an answer of `call` came with (null without one): what a poll sends next.
export const etagOf = (answer) => etags.get(answer) || null;

const RETRIES = 4;   // 503s (a server down or restarting) waited out before giving up
const PENDING = 40;  // 202s ("being worked out") asked again, a few seconds apart, at most
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// The answer at `url` (a GET the browser may cache), however long it takes to be worked out:
// a 202 (being worked out) or a 503 is asked again after its Retry-After (and a random share
// more, so pages don't all come back at once), unless `stale()` says it is no longer wanted.
export async function waitFor(url, stale = () => false) {
  for (let attempt = 0, pending = 0; ; attempt += 1) {
    const response = await fetch(url);
    const data = await response.json().catch(() => null);
    const again = response.status === 202 ? (pending += 1) <= PENDING
      : response.status === 503 && attempt - pending < RETRIES;
    if (again && !stale()) {
      await sleep(1000 * (Number(response.headers.get("Retry-After")) || 3) * (1 + Math.random()));
      if (!stale()) continue;
    }
    if (response.status === 202) throw new Error(data ? data.pending.message : "202");
    if (!response.ok || !data) throw refusal(response, data);
    return data;
  }
}
