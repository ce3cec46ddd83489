// The room page: a game played live, every phone in the room polling it. Each roll and move is
// played on the server as it is tapped, and every phone replays what it hasn't seen yet.
// A phone plays the seat its credential names (kept in this browser); without one it watches
// and may take a free seat.

import { offerKeys, warnTime } from "./access.js";
import { call, etagOf } from "./api.js";
import { Board, sleep } from "./board.js";
import { _, lang } from "./i18n.js";
import { showGameReview } from "./review.js";
import { soundSwitch } from "./motion.js";
import {
  HOP_MS, TEXT, addFeed, colorOf, isBot, knock, nameOf, offerMoves, replay, rollDice, said, say,
  seatsColors, seatsNames, showDice, startMove, useBoard, useSpeed,
} from "./table.js";
import { armClaim, pills, showAway } from "./turn.js";

const ROOM = {
  you: () => _("you"),
  host: () => _("host"),
  free: () => _("free seat"),
  toMove: () => _("to move"),
  yourMove: () => _("your turn"),  // the same tag on this phone's own seat: "te toca"
  waitingFor: (who) => _("Waiting for someone to take %(who)s's seat.", { who }),
  theirTurn: (who) => _("%(who)s is playing.", { who }),
  watching: () => _("You are watching this game."),
  full: (code) => _("Room %(code)s is full: you can watch.", { code }),
  watchingFree: () => _("You are watching: take a free seat to play."),
  joinLater: () => _("New players join at the start of the host's turn: a seat will show here "
    + "then."),
  copied: () => _("Copied"),
  offline: () => _("No answer from the server: trying again…"),
  timeLeft: (who, seconds) => _("%(who)s has %(seconds)s s", { who, seconds }),
  timeUp: (who) => _("%(who)s's time is up: the turn is played for them.", { who }),
  offlineTag: () => _("disconnected"),
  leftRoom: (who) => _("%(who)s left the room", { who }),
  newHost: (who) => _("%(who)s is the host now", { who }),
  sureToLeave: () => _("Leave the room? Your seat becomes free, and the game plays your turns "
    + "until someone takes it."),
  youLeft: () => _("You left the room."),
  roomGone: () => _("The room is gone, but not the game: this phone kept its link. Go on with "
    + "it by passing the link, or open it as a new room from there."),
  goOn: () => _("Go on with the game"),
  rematch: () => _("Rematch"),
  wentOffline: (who) => _("%(who)s lost the connection", { who }),
  backOnline: (who) => _("%(who)s is back", { who }),
  waitsFor: (who, seconds) => _("%(who)s is disconnected: their turn waits %(seconds)s s for them",
    { who, seconds }),
  lobbyHost: () => _("Share the code, and tap \"Start the game\" when everyone is in: free seats "
    + "leave the game."),
  lobbyNeedsTwo: () => _("Share the code: the game starts from two players at the table."),
  lobbyWait: (who) => _("Waiting for %(who)s to start the game.", { who }),
  started: () => _("The game has started"),
  lastChance: (who) => _("%(who)s, your time ran out on your last turns: one more and you are out "
    + "of the game.", { who }),
};

const POLL_VISIBLE = 1000;   // ms between polls while the page is in view (docs/rooms.md)
const POLL_HIDDEN = 15000;   // and while it isn't
const POLL_OVER = 3000;      // a finished Ludo table, for its rematch
// A re-roll left unclaimed this long (ms) by a phone that went away is let go by any seated
// phone (the server allows it 8 s after the step that opened it).
const CLAIM_ABANDONED = 9000;

const app = document.getElementById("app");
const $ = (id) => document.getElementById(id);
const code = app.dataset.code;
const KEY = `boardpass:room:${code}`;

let board = null;
let view = null;      // the room and its game as last drawn
let etag = null;
let busy = false;     // a step of ours is on its way
let claim = null;     // this phone's ticket for the re-roll claim, while its window is open
let selected = null;  // the piece whose moves alone are shown
let next = null;      // the poll to come (a timer)
let offset = 0;       // the server's clock less this phone's, in ms (a phone's may be wrong)
let timeUpAsked = false;  // the count reached zero and the server was asked once
let polling = false;  // a poll is on its way
let awayShown = "";   // who the away notes were drawn for
let speedSent = false;  // a bot speed change is on its way
let credential = takeCredential();

// -- this phone's seat ----------------------------------------------------------------------------

// The credential from the address (#c=, from making the room) moves to this browser's storage.
function takeCredential() {
  const m = location.hash.match(/[#&]c=([^&]+)/);
  if (m) {
    localStorage.setItem(KEY, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
  return localStorage.getItem(KEY);
}

// The color the credential plays (its signed payload says so; the server checks it).
function myColor() {
  if (!credential) return null;
  try {
    const payload = credential.split(".")[0].replace(/-/g, "+").replace(/_/g, "/");
    const [room, color] = JSON.parse(atob(payload + "===".slice((payload.length + 3) % 4)));
    return room === code ? color : null;
  } catch { return null; }
}

function mySeat(v) {
  const color = myColor();
  if (color === null) return null;
  const seat = v.seats.findIndex((s) => colorOf(s) === color);
  return seat >= 0 && v.room.members.includes(seat) ? seat : null;
}

function forget() {
  localStorage.removeItem(KEY);
  credential = null;
  if (view) render();
}

// -- talking to the server ------------------------------------------------------------------------

// The server's answer (api.js); a room's keeps its ETag for the next poll (not an older room's).
async function ask(url, body, headers = {}) {
  const answer = await call(url, body, headers);
  if (answer && answer.room && !older(answer)) etag = etagOf(answer) || etag;
  return answer;
}

// The query of a request about the room: the step this page has drawn (none before its first
// answer: the page comes with its seats and join form, which may be used at once).
const since = () => `?${view ? `since=${view.steps}&` : ""}lang=${encodeURIComponent(lang)}`;

// An answer about an older room than the one drawn: a poll overtaken by a step of this phone's
// (sent before it, answered after it). Drawn, it would take the page back, and the next poll
// would replay the step again.
const older = (next) => !!view && next.room.version < view.room.version;

// The server's clock, from one of its answers (a phone's own may be wrong).
function sync(answer) {
  offset = answer.room.now * 1000 - Date.now();
  timeUpAsked = false;
}

// The room's current link, kept in this browser at every step: a game lives in its link, so a
// room that is gone (expired, or its store lost) loses no game.
const LINK_KEY = `boardpass:roomlink:${code}`;
function keepLink(v) {
  try { localStorage.setItem(LINK_KEY, v.token); } catch { /* full: this page keeps it */ }
}

// The room is gone: offer the game's last link this phone saw, to go on with.
function offerLink() {
  const token = (view && view.token) || localStorage.getItem(LINK_KEY);
  if (!token || document.getElementById("goon")) return;
  const note = document.createElement("p");
  note.className = "notice";
  note.textContent = ROOM.roomGone();
  const go = document.createElement("a");
  go.id = "goon";
  go.className = "button primary";
  go.href = `/g/${encodeURIComponent(token)}`;
  go.textContent = ROOM.goOn();
  note.append(" ", go);
  $("status").after(note);
}

// What's new in the room, replayed from the last step this page drew, then drawn. This phone's
// own move, hopping since the tap (`hopping`), isn't shown a second time.
async function show(next) {
  if (older(next)) return;
  sync(next);
  const known = view;
  view = next;
  keepLink(next);
  if (known) comings(known, next);
  if (known && next.replay && next.replay.events.length && next.steps > known.steps) {
    await replay(next.replay, next, (step) => chances(next, step), true, ownHop);
  }
  render();
}

// Each player's chance to win at `step`, as link games show it (asked only once the game has
// started, and not once it is over).
function chances(v, step) {
  if (v.room.started && v.phase !== "over") pills(board, v, step);
}

// The flight of this phone's own move (`hopping`) when `event` is that move.
function ownHop(event) {
  const own = hopping;
  if (!own || event.kind !== "move" || event.seat !== own.seat || event.piece !== own.move.piece ||
    event.from !== own.move.from || event.to !== own.move.to) return null;
  hopping = null;
  return own.flight;
}

// Phones that went or came back, left, and a new host, since the room was last drawn: the feed.
function comings(before, after) {
  for (const seat of before.room.members) {
    if (!after.room.members.includes(seat) && after.seats[seat]) {
      addFeed(ROOM.leftRoom(nameOf(after, seat)), after.seats[seat].color);
    }
  }
  if (after.seed !== before.seed) addFeed(TEXT.newGame(nameOf(after, after.turn)));
  if (after.room.started && !before.room.started) {
    addFeed(ROOM.started());
    $("roomhead").open = false;  // the code folds into one line: the board comes first now
  }
  for (const s of after.seats) {
    if (s.out && before.seats[s.seat] && !before.seats[s.seat].out) {
      addFeed(TEXT.disqualified(s.name), s.color);
    }
  }
  if (after.room.host !== before.room.host && after.room.host !== null) {
    addFeed(ROOM.newHost(nameOf(after, after.room.host)));
  }
  const me = mySeat(after);  // this phone never hears of itself going or coming back
  for (const seat of after.room.offline) {
    if (seat !== me && !before.room.offline.includes(seat)) {
      addFeed(ROOM.wentOffline(nameOf(after, seat)), after.seats[seat].color);
    }
  }
  for (const seat of before.room.offline) {
    if (seat !== me && !after.room.offline.includes(seat)) {
      addFeed(ROOM.backOnline(nameOf(after, seat)), after.seats[seat].color);
    }
  }
}

// -- polling: about once a second in view, rarely out of it; 304 while nothing changed -----------
// A finished game changes no more: its page stops asking.

async function poll() {
  let wait = document.visibilityState === "visible" ? POLL_VISIBLE : POLL_HIDDEN;
  if (polling) return;  // one at a time: the one on its way schedules the next
  polling = true;
  if (!busy) {
    try {
      const answer = await ask(app.dataset.api + since(), undefined, pollHeaders());
      // A step this phone sent meanwhile draws the room with its own answer.
      if (answer && !busy) await show(answer);
      $("status").classList.remove("error");
      if (!answer && !busy) render();  // the same room, and the clock moved: an abandoned re-roll?
    } catch (error) {
      if (error.code === "NoRoom" || error.code === "RoomClosed") {
        say(error.message, true);
        if (error.code === "NoRoom") offerLink();
        polling = false;
        return;
      }
      say(error.retryAfter ? error.message : ROOM.offline(), true);
      wait = Math.max(wait, 1000 * (error.retryAfter || 0));
    }
  }
  polling = false;
  // A finished game changes no more, but a Ludo table's host may start a rematch.
  if (view && view.phase === "over" && board.layout.game !== "ludo") return;
  if (view && view.phase === "over") wait = Math.max(wait, POLL_OVER);
  clearTimeout(next);
  next = setTimeout(poll, wait);
}
// A visible page's poll says which seat this phone plays (it marks the seat seen:
// docs/rooms.md, presence); a hidden page's doesn't, so its seat stays disconnected.
function pollHeaders() {
  const headers = etag ? { "If-None-Match": etag } : {};
  if (credential && document.visibilityState === "visible") headers["X-Seat"] = credential;
  return headers;
}

// A page closed or hidden says so as it goes: the others see this phone disconnected at once,
// and its turn waits for it. Coming back into view, its poll brings it back.
function sayGone() {
  if (!credential || !navigator.sendBeacon) return;
  navigator.sendBeacon(app.dataset.gone,
    new Blob([JSON.stringify({ credential })], { type: "application/json" }));
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") sayGone();
  if (document.visibilityState === "visible" && view) { clearTimeout(next); poll(); }
});
window.addEventListener("pagehide", sayGone);

// -- playing -------------------------------------------------------------------------------------

// `again`: the steps are sent a second time (see below), never a third.
async function submit(steps, again = false) {
  if (busy) return;
  busy = true;
  const at = view.steps;
  let retry = null;
  try {
    const answer = await ask(app.dataset.steps + since(),
      { version: view.room.version, credential, steps });
    claim = answer.claim || null;
    selected = null;
    if (claim) {  // the player's own move, and a re-roll to claim now: no replay to wait for
      sync(answer);
      if (hopping) knock(hopping.flight, view.pieces, answer.pieces, hopping.seat);
      view = answer;
      render();
    } else {
      await show(answer);
    }
    claimWindow();
  } catch (error) {
    if (hopping) board.cancelFlights(hopping.flight);
    showDice(view.last_roll || [], view.pool);  // dice tumbling since the tap stop
    if (error.code === "NotYours") forget();
    if (error.room) await show(error.room);  // the room moved on: here it is, as it is now
    say(error.message, true);
    // Someone joined meanwhile but the game is where it was: the same tap, on the new version.
    if (error.code === "Stale" && error.room && error.room.steps === at && !again) retry = steps;
    if (error.code === "ClaimMissed") { claim = null; retry = ["miss"]; }  // too late
  } finally {
    busy = false;
    hopping = null;
  }
  if (retry) { submit(retry, true); return; }
  // A re-roll window this page has no ticket for (reloaded in it): let it go.
  const seat = mySeat(view);
  if (view.phase === "claim" && view.turn === seat && !claim) submit(["miss"]);
}

// The re-roll claim this phone's answer gave it: its window timed.
function claimWindow() {
  if (!claim) return;
  armClaim(claim, {
    open: (ticket) => !!claim && claim.ticket === ticket,
    busy: () => busy,
    letGo: () => submit(["miss"]),
  });
}

// Another player's re-roll left open long after its window (their page was closed): a seated
// phone lets it go, or the table would wait for ever. Armed once per room version.
let abandoned = null;
function watchClaim(v, seat) {
  if (v.phase !== "claim" || seat === null || v.turn === seat) return;
  if (abandoned && abandoned.version === v.room.version) return;
  const version = v.room.version;
  abandoned = { version };
  setTimeout(() => {
    if (view.room.version === version && view.phase === "claim" && !busy) submit(["miss"]);
  }, CLAIM_ABANDONED);
}

// The dice tumble and the piece hops from the tap; the server's answer lands them.
function roll() {
  if (busy) return;
  rollDice();
  submit(claim ? [{ claim: claim.ticket }, "roll"] : ["roll"]);
}

let hopping = null;  // this phone's move in the air: { seat, move, flight }

function play(m) {
  if (busy) return;
  $("choices").hidden = true;
  const seat = view.turn;
  hopping = { seat, move: m, flight: startMove(view, seat, m, HOP_MS) };
  submit([{ from: m.from, to: m.to, values: m.values }]);
}

// -- joining -------------------------------------------------------------------------------------

async function join(event) {
  event.preventDefault();
  const form = $("join");
  const message = $("joinmsg");
  message.hidden = true;
  try {
    const next = await ask(app.dataset.join + since(), {
      name: form.elements.name.value, color: form.elements.color.value || null, credential,
    });
    credential = next.you.credential;
    localStorage.setItem(KEY, credential);
    await show(next);
  } catch (error) {
    message.textContent = error.message;
    message.hidden = false;
    if (error.room) await show(error.room);
  }
}

// -- drawing -------------------------------------------------------------------------------------

function render() {
  const v = view;
  const seat = mySeat(v);
  const lobby = !v.room.started;
  board.place(v.pieces, seatsColors(v), seatsNames(v),
    v.phase === "over" || lobby ? null : v.turn);
  board.clearMoves();
  offerKeys(v, null, seat);
  showPeople(v, seat);
  showJoin(v, seat);
  $("start").hidden = !lobby || seat === null || seat !== v.room.host;
  $("leave").hidden = seat === null;
  if (lobby) {
    $("roll").hidden = true;
    $("choices").hidden = true;
    const atTable = v.seats.filter((s) => isBot(v, s.seat) || v.room.members.includes(s.seat));
    $("start").disabled = atTable.length < 2;
    if (seat === v.room.host) say(atTable.length < 2 ? ROOM.lobbyNeedsTwo() : ROOM.lobbyHost());
    else say(ROOM.lobbyWait(nameOf(v, v.room.host)));
    showTimer();
    return;
  }
  const mine = seat !== null && v.turn === seat && v.phase !== "over";
  chances(v, v.steps);
  showGameReview(v.phase === "over" ? v : null);  // as a link game's page shows it at the end
  showDice(v.last_roll || [], v.pool);
  $("roll").hidden = !(mine && (v.phase === "roll" || v.phase === "claim"));
  $("choices").hidden = true;
  const who = nameOf(v, v.turn);
  if (v.phase === "over") {
    say(TEXT.wins(nameOf(v, v.winner)));
  } else if (!mine) {
    const free = v.room.free.includes(v.turn);
    say(free ? ROOM.waitingFor(who) : ROOM.theirTurn(who));
  } else if (v.phase === "claim") {
    say(TEXT.movedClaim(who));
  } else if (v.phase === "roll") {
    say(v.doubles ? TEXT.doubles(who) : said(TEXT.yourTurn)(who));
  } else {
    say(said(TEXT.tap)(who));
    offerMoves(v, selected, play,
      (progress) => { selected = selected === progress ? null : progress; render(); });
    offerKeys(v, play);
  }
  watchClaim(v, seat);
  away(v, seat);
  showTimer();
  $("rematch").hidden = !(v.phase === "over" && board.layout.game === "ludo" && seat !== null
    && seat === v.room.host);
  if (speed && !speedSent) {
    speed.value = v.room.speed;
    speed.disabled = seat === null;
  }
}

// -- the turn timer: the server's deadline, counted on the server's clock ------------------------

function showTimer() {
  const box = $("timer");
  const v = view;
  const idle = !v || !v.room.due || v.phase === "over";
  box.classList.toggle("idle", idle);  // its place stays: nothing moves when it comes and goes
  if (idle) { box.textContent = ""; return; }
  const left = Math.ceil((v.room.due * 1000 - (Date.now() + offset)) / 1000);
  const who = nameOf(v, v.turn);
  // This phone, drawn from before it went, is here: it never shows itself gone.
  const gone = v.room.offline.includes(v.turn) && v.turn !== mySeat(v);
  // A player's time starts once the steps before it are shown: meanwhile it is all there.
  box.textContent = left <= 0 ? ROOM.timeUp(who)
    : gone ? ROOM.waitsFor(who, left) : ROOM.timeLeft(who, Math.min(left, v.room.timer));
  box.classList.toggle("urgent", left <= 5);
  if (v.turn === mySeat(v)) warnTime(v.room.due, left, v.room.timer);
  // Past the server's grace (a step on its way still counts), the next request plays the turn:
  // a visible page asks then, a moment apart from the others.
  if (left <= -1 && !busy && !timeUpAsked && document.visibilityState === "visible") {
    timeUpAsked = true;
    clearTimeout(next);
    next = setTimeout(poll, 100 + Math.random() * 300);
  }
}
setInterval(() => { if (view && !busy) showTimer(); }, 250);

// Who is being played for (two turns run out in a row) or disqualified; "I'm back" for this
// phone's own seat.
function away(v, seat) {
  const shown = JSON.stringify([seat, v.phase, v.seats.map((s) => [s.away, s.out, s.missed])]);
  if (shown === awayShown) return;  // a tap on "I'm back" isn't lost to a redraw
  awayShown = shown;
  const over = v.phase === "over";
  showAway(over ? [] : v.seats, (s) => s === seat, comeBack, over ? [] : lastChance(v, seat));
}

// Ludo: a line when this phone's player is one run-out turn from disqualification.
function lastChance(v, seat) {
  const limit = v.room.disqualify_after;
  if (seat === null || !limit || v.seats[seat].out || v.seats[seat].missed !== limit - 1) return [];
  const line = document.createElement("p");
  line.className = "warning";
  line.textContent = ROOM.lastChance(nameOf(v, seat));
  return [line];
}

// Leaving, after saying yes: the seat is free, this phone watches.
async function leaveRoom() {
  if (busy || !window.confirm(ROOM.sureToLeave())) return;
  busy = true;
  try {
    const answer = await ask(app.dataset.leave + since(), { credential });
    forget();
    if (answer.closed) {
      clearTimeout(next);
      say(ROOM.youLeft());
      $("leave").hidden = true;
    } else {
      await show(answer);
      say(ROOM.youLeft());
    }
  } catch (error) {
    say(error.message, true);
  } finally {
    busy = false;
  }
}

// A change this phone asks of the room ("I'm back", Start, a rematch): the room as it then is.
async function change(url) {
  if (busy) return;
  busy = true;
  try {
    await show(await ask(url + since(), { credential }));
  } catch (error) {
    if (error.room) await show(error.room);
    say(error.message, true);
  } finally {
    busy = false;
  }
}

const comeBack = () => change(app.dataset.back);

// Who is in the room: each seat's color and name, and who is you, the host, a bot, to move.
function showPeople(v, seat) {
  const list = $("people");
  list.replaceChildren();
  for (const s of v.seats) {
    const item = document.createElement("li");
    item.dataset.seat = s.seat;
    const swatch = document.createElement("span");
    swatch.className = `swatch ${s.color}`;
    swatch.setAttribute("role", "img");
    swatch.setAttribute("aria-label", TEXT.color(s.color));
    item.append(swatch, " ", s.name);
    const tags = [];
    if (s.seat === seat) tags.push(ROOM.you());
    if (s.seat === v.room.host) tags.push(ROOM.host());
    if (isBot(v, s.seat)) tags.push(TEXT.botTag());
    if (v.room.free.includes(s.seat)) tags.push(ROOM.free());
    if (v.room.offline.includes(s.seat) && s.seat !== seat) tags.push(ROOM.offlineTag());
    if (v.phase !== "over" && v.room.started && s.seat === v.turn) {
      tags.push(s.seat === seat ? ROOM.yourMove() : ROOM.toMove());
      item.classList.add("tomove");
    }
    for (const text of tags) {
      const tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = text;
      item.append(" ", tag);
    }
    list.append(item);
  }
}

// A phone without a seat watches, and may take a free one (a Ludo table: a new color too).
function showJoin(v, seat) {
  const form = $("join");
  const note = $("watching");
  const choices = v.room.free.map((s) => v.seats[s].color).concat(v.room.new_colors);
  // A seat is promised only where the table has one (a Ludo table's newcomers sit at the start
  // of the host's turn), never where its board has more colors than seats.
  const later = !choices.length && v.phase !== "over" && v.seats.length < v.room.capacity;
  form.hidden = seat !== null || !choices.length || v.phase === "over";
  note.hidden = seat !== null;
  note.textContent = v.phase === "over" ? ROOM.watching() : choices.length ? ROOM.watchingFree()
    : later ? ROOM.joinLater() : ROOM.full(code);
  if (form.hidden) return;
  const select = $("joincolor");
  const chosen = select.value;
  select.replaceChildren();
  for (const color of choices) {
    const option = document.createElement("option");
    option.value = color;
    const taken = v.seats.find((s) => s.color === color);
    const word = TEXT.color(color);
    const shown = word.charAt(0).toUpperCase() + word.slice(1);
    option.textContent = taken ? `${shown} (${taken.name})` : shown;
    select.append(option);
  }
  if (choices.includes(chosen)) select.value = chosen;
}

// -- sharing the room ----------------------------------------------------------------------------

function setUpSharing() {
  const url = $("roomlink").value;
  if (navigator.share) {
    $("share").hidden = false;
    $("share").addEventListener("click", () => navigator.share({ url }).catch(() => {}));
  }
  $("copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(url); } catch {
      $("roomlink").select();
      document.execCommand("copy");
    }
    $("copy").textContent = ROOM.copied();
  });
}

// -- start ---------------------------------------------------------------------------------------

// The room's first answer, asked again until it comes (a phone's network, a busy server).
async function start() {
  for (;;) {
    try {
      // Its seat is seen from this first answer on: a reloaded page's deadline is the one it had.
      const first = await ask(app.dataset.api + `?lang=${encodeURIComponent(lang)}`,
        undefined, pollHeaders());
      board = new Board($("board"), JSON.parse($("layout").textContent));  // sent with the page
      useBoard(board);
      view = first;
      keepLink(first);
      sync(first);
      break;
    } catch (error) {
      if (error.code === "NoRoom" || error.code === "RoomClosed") {
        say(error.message, true);
        if (error.code === "NoRoom") offerLink();
        return;
      }
      say(error.retryAfter ? error.message : ROOM.offline(), true);
      await sleep(1000 * (error.retryAfter || 3));
    }
  }
  render();
  const rematchable = board.layout.game === "ludo";  // a finished Ludo table may play again
  if (view.phase !== "over" || rematchable) next = setTimeout(poll, POLL_VISIBLE);
  const seat = mySeat(view);
  if (view.phase === "claim" && view.turn === seat) submit(["miss"]);
}

$("roll").addEventListener("click", roll);
soundSwitch($("sound"));
$("leave").addEventListener("click", leaveRoom);
$("rematch").addEventListener("click", async () => {
  await change(app.dataset.rematch);
  clearTimeout(next);
  next = setTimeout(poll, POLL_VISIBLE);
});
$("join").addEventListener("submit", join);
$("start").addEventListener("click", () => change(app.dataset.start));
// The bots' speed is the room's: every phone shows it, anyone seated changes it for all.
const speed = document.querySelector("#botspeed select");
useSpeed(() => (view ? view.room.speed : "normal"));
if (speed) {
  speed.addEventListener("change", async () => {
    speedSent = true;
    try {
      await show(await ask(app.dataset.speed + since(), { credential, speed: speed.value }));
    } catch (error) {
      if (error.room) await show(error.room);
      say(error.message, true);
    } finally {
      speedSent = false;
      render();
    }
  });
}
setUpSharing();
start();
