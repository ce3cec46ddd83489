// The game page: replay since your last turn, roll, move, undo, send the turn.
// The server holds nothing: this turn's steps live in the page's URL (#s=...), so a reload keeps
// them, and every step is checked by the server, which replays the link each time.

import { offerKeys, tellTurn } from "./access.js";
import { call } from "./api.js";
import { Board, seatLabel } from "./board.js";
import { _ } from "./i18n.js";
import { chancesAfter, markDecision, showChances, showGameReview } from "./review.js";
import { soundSwitch } from "./motion.js";
import { offerNotifications } from "./notify.js";
import {
  HOP_MS, MEDALS, SPEED_KEY, TEXT, addFeed, botSpeed, eventLines, finishReplay, isBot, isLudo,
  knock, lastTurn, nameOf, offerMoves, replay, rollDice, said, say, seatsColors, seatsNames,
  showDice, startMove, useBoard,
} from "./table.js";
import { armClaim, pills, showAway } from "./turn.js";

const app = document.getElementById("app");
const $ = (id) => document.getElementById(id);

let board = null;
let view = null;       // the game after this turn's steps, as the server last described it
let base = null;       // the game at the link, before this turn's steps
let steps = readSteps();
let forced = new Set();  // which of `steps` the server played for the player (nothing to decide)
let selected = null;
let busy = false;
let claimTicket = null;  // the re-roll claim window being timed (see claimWindow)

const params = new URLSearchParams(location.search);
let turnEvents = [];    // this turn's steps as the server tells them (rolls, moves, re-rolls)
let finalView = null;   // a finished game's last link, once there is one (Ludo's rematch)
let turnSent = false;   // this page's turn is sent: the page is done
let movedOn = null;     // the server says the game has moved on from this link: read-only
let hostHere = false;   // the page is the host's, the server says (a finished game's rematch)
let sender = null;      // the seat whose turn this page sent: the next link may be theirs again
let hostAsked = false;  // "I'm Ana" was tapped here, not the host's page: it asks for their link
let sizeChosen = false;  // the host picked the rematch's table size: kept as the results redraw

// The one person at a table of bots (null when several people play).
function soloHuman(v) {
  const people = v.seats.filter((s) => !s.bot);
  return people.length === 1 ? people[0].seat : null;
}

// -- this turn's steps in the URL: r = roll, m = let a re-roll go, c<receipt> = a re-roll
// claimed, from_to_values (values joined by +) = a move --------------------------------------

function readSteps() {
  const m = location.hash.match(/[#&]s=([^&]*)/);
  if (!m || !m[1]) return [];
  const read = [];
  for (const part of m[1].split(",")) {  // a cut-short address keeps the steps it can read
    if (part === "r") { read.push("roll"); continue; }
    if (part === "m") { read.push("miss"); continue; }
    if (part[0] === "c" && part.length > 1) {
      try { read.push({ claimed: decodeURIComponent(part.slice(1)) }); continue; }
      catch { break; }
    }
    const [from, to, values] = part.split("_");
    const step = { from: +from, to: +to, values: (values || "").split("+").map(Number) };
    if (!values || [step.from, step.to, ...step.values].some(Number.isNaN)) break;
    read.push(step);
  }
  return read;
}

function writeSteps() {
  const text = steps.map(stepText);
  const hash = text.length ? `#s=${text.join(",")}` : "";
  history.replaceState(null, "", location.pathname + location.search + hash);
}

function stepText(s) {
  if (s === "roll") return "r";
  if (s === "miss") return "m";
  if (s.claimed !== undefined) return `c${encodeURIComponent(s.claimed)}`;
  return `${s.from}_${s.to}_${s.values.join("+")}`;
}

// Only plain steps are kept: a claim ticket never goes in the address (the server swaps it for
// its receipt in turn_steps).
function plainStep(s) {
  if (typeof s === "string" || s.claimed !== undefined) return s;
  return { from: s.from, to: s.to, values: s.values };
}

// -- talking to the server --------------------------------------------------------------------

// Play this turn's steps (all of them: the link is the game, and the server keeps only those a
// roll shown has fixed) and draw the result.
// `restoring`: the steps come from the address, so a re-roll they leave open was missed.
// `flight`: the piece of the move just tapped, hopping since the tap (startMove).
async function submit(newSteps, restoring = false, flight = null) {
  busy = true;
  let failure = null;
  try {
    const next = await call(app.dataset.moves, { seat: base.turn, steps: newSteps });
    knock(flight, view.pieces, next.pieces, base.turn);
    steps = (next.turn_steps || newSteps).map(plainStep);
    forced = new Set(next.turn_forced || []);
    turnEvents = next.turn_events || [];
    tellTurn(next, turnEvents, base.steps);
    view = next;
    selected = null;
  } catch (error) {
    failure = error;
    board.cancelFlights(flight);
  } finally {
    busy = false;
    writeSteps();  // only steps the server accepted stay in the address
    render();
    if (failure) say(failure.message, true);
  }
  if (failure && failure.code === "ClaimMissed") return submit([...steps, "miss"]);
  if (view.phase === "claim" && view.turn === base.turn && (restoring || !view.claim)) {
    return submit([...steps, "miss"]);  // the page was closed (or reloaded) during the window
  }
  claimWindow();
}

// -- the re-roll claim: Roll within the window claims it; otherwise the page lets it go --------

// The re-roll this page's player may claim now: its window timed, once per ticket.
function claimWindow() {
  const v = view;
  if (v.phase !== "claim" || !v.claim || v.turn !== base.turn || claimTicket === v.claim.ticket) {
    return;
  }
  claimTicket = v.claim.ticket;
  armClaim(v.claim, {
    open: (ticket) => view.phase === "claim" && !!view.claim && view.claim.ticket === ticket,
    busy: () => busy,
    letGo: () => submit([...steps, "miss"]),
  });
}

function rollStep() {
  if (view.phase === "claim" && view.claim) return [{ claim: view.claim.ticket }, "roll"];
  return ["roll"];
}

// -- drawing ----------------------------------------------------------------------------------

function render() {
  const v = view;
  board.place(v.pieces, seatsColors(v), seatsNames(v), v.phase === "over" ? null : v.turn);
  board.clearMoves();
  offerKeys(v);
  if (movedOn) { renderMovedOn(v); return; }
  // The dice of this turn: while they are played, and once the turn is done.
  showDice(v.phase === "move" || steps.length ? v.last_roll : [], v.pool);
  const mover = nameOf(v, base.turn);
  // A re-roll to claim looks like any time to roll: nothing reminds the player.
  $("roll").hidden = !((v.phase === "roll" || v.phase === "claim") && v.turn === base.turn);
  $("undo").hidden = v.phase === "claim" || undoTo() < 0;
  $("send").hidden = !(steps.length && (v.turn !== base.turn || v.phase === "over"));
  $("send").textContent = v.phase === "over" ? TEXT.finishGame()
    : soloHuman(v) !== null || isLocal(v) ? TEXT.endTurn() : TEXT.sendTurn();
  $("choices").hidden = true;
  $("toroom").hidden = !(v.phase !== "over" && v.turn === base.turn && !steps.length &&
    !turnSent && !isLocal(base));
  showTurnFeed();
  showAddPlayer();
  showResults(v);
  showGameReview(finalLink());
  // The chances after this turn's last move (the dice rolled since change them only once they
  // are played: the pills wait for the move, and the server works out one answer less).
  const moved = steps.slice(0, 1 + steps.findLastIndex((s) => s.from !== undefined));
  if (moved.length) showChances(board, seatsColors(v), chancesAfter(base.token, moved));
  else pills(board, base, base.steps);
  showDeadline();
  away();
  if (v.phase === "over") {
    say(TEXT.wins(nameOf(v, v.winner)));
    if (v.secret) {
      $("secret").querySelector("code").textContent = v.secret;
      $("secret").hidden = false;
    }
  } else if (v.turn !== base.turn) {
    const next = nameOf(v, v.turn);
    say(why(v, isBot(v, v.turn) ? TEXT.turnDoneBots(mover)
      : isLocal(v) ? TEXT.turnDoneLocal(mover, next) : TEXT.turnDone(mover, next)));
  } else if (v.phase === "claim") {
    say(TEXT.movedClaim(mover));
  } else if (v.phase === "roll") {
    if (v.doubles) say(TEXT.doubles(mover));
    else if (steps.length) say(why(v, TEXT.rollAgain(mover)));
    else say(said(TEXT.yourTurn)(mover));
  } else {
    // Dice rolled for the player before the link reached them: said first, then the pieces.
    say(steps.length ? said(TEXT.tap)(mover) : TEXT.yourRoll(mover, v.last_roll));
    offerMoves(v, selected, (m) => { if (!busy) play(m); },
      (progress) => { selected = selected === progress ? null : progress; render(); });
    offerKeys(v, (m) => { if (!busy) play(m); });
  }
}

// `text`, after why this player's last roll had no move (the server says: a piece comes out
// only on a 5, say), when it had none: not just "your turn is done".
function why(v, text) {
  return v.no_move && v.no_move.seat === base.turn && steps.length ? `${v.no_move.why} ${text}`
    : text;
}

// An older link: the game as it was, nothing to play; the newest link went to whoever is to move.
function renderMovedOn(v) {
  for (const id of ["roll", "undo", "send", "choices", "deadline", "toroom"]) $(id).hidden = true;
  showDice([], []);
  showResults(v);
  pills(board, base, base.steps);
  away();
  const note = $("newer");
  note.replaceChildren();
  const meantFor = nameOf(v, v.turn);
  note.append(movedOn.over ? TEXT.movedOnOver()
    : movedOn.turn === v.turn ? TEXT.movedOnYou(meantFor) : TEXT.movedOn(nameOf(v, movedOn.turn)));
  const seen = JSON.parse(localStorage.getItem(`boardpass:game:${v.seed}`) || "null");
  if (seen && seen.url && newer(seen, { steps: v.steps, seats: v.seats.length })) {
    const a = document.createElement("a");
    a.href = new URL(seen.url).pathname;
    a.textContent = TEXT.newest();
    note.append(" ", a);
  }
  note.hidden = false;
  say(note.firstChild.textContent);
}

// The piece hops at once; the server's answer, whenever it comes, draws the game after it.
function play(m) {
  const flight = startMove(view, base.turn, m, HOP_MS);
  return submit([...steps, { from: m.from, to: m.to, values: m.values }], false, flight);
}

// The last move that can be taken back: never one before a re-roll claimed or let go (the
// window is gone), and rolls only go with the moves before them (the dice stay the same).
function undoTo() {
  // Only the moves since the last roll: the dice are fixed by roll number, so undoing a move
  // after seeing the roll it earned would let a player choose it knowing what comes next.
  // A move played for the player (their only one) goes with the choice before it.
  let last = -1;
  steps.forEach((s, i) => {
    if (s === "roll" || s === "miss" || s.claimed !== undefined) last = -1;
    else if (!forced.has(i)) last = i;
  });
  return last;
}

// This turn's steps at the top of the feed, in the server's words as every phone's replay
// tells them: rolls, moves and what they did (pieces sent home, the goal), re-rolls, the steps
// played for the player marked automatic. Once the turn is `sent` (the new link), its lines
// stay, and the person's choices among its moves are reviewed.
function showTurnFeed(sent = null) {
  for (const node of document.querySelectorAll("#feed li.now")) node.remove();
  const decided = new Set(sent ? sent.decisions.map(([step]) => step) : []);
  turnEvents.forEach((event, i) => {
    const items = eventLines(view, event).map((text) => {
      const item = addFeed(text, base.seats[base.turn].color);
      if (!sent) item.classList.add("now");
      if (event.forced) {
        item.classList.add("forced");
        item.dataset.tag = TEXT.forcedTag();
        item.title = TEXT.forcedWhy();
      }
      return item;
    });
    const step = base.steps + i;  // in the game
    if (event.kind === "move" && decided.has(step)) markDecision(items[0], sent, step);
  });
}

// -- turn deadlines: the time left, then "Play it for them" ------------------------------------

// The client's clock only decides what to show; the server decides whether the turn may be
// played for them (it answers 409 before the deadline).
function showDeadline() {
  const box = $("deadline");
  const d = base && base.deadline;
  box.hidden = !d || (d.due_at === null && !d.waiting) || turnSent || steps.length > 0 ||
    base.phase === "over";
  if (box.hidden) return;
  const who = nameOf(base, base.turn);
  if (d.waiting) {  // the link hasn't reached its player: no clock runs yet
    $("absent").hidden = true;
    $("timeleft").textContent = TEXT.timeStarts(who);
    return;
  }
  const left = d.due_at * 1000 - Date.now();
  $("absent").hidden = left > 0;
  if (left > 0) {
    const minutes = Math.ceil(left / 60000);
    const h = Math.floor(minutes / 60);
    const m = minutes % 60;
    $("timeleft").textContent = TEXT.timeLeft(who, h ? TEXT.hoursMinutes(h, m) : TEXT.minutes(m));
  } else {
    $("timeleft").textContent = TEXT.timeUp(who);
  }
}
setInterval(() => { if (base && !busy) showDeadline(); }, 60000);

// Who is away or disqualified, while the turn is this page's to play: any of them may say
// they're back here.
function away() {
  showAway(base && base.phase !== "over" && !turnSent ? base.seats : [], () => true, comeBack);
}

// The player is back: the server remembers it, and the game's newest link, wherever it is
// opened, gives them their turns again (this page's link too, when it is the newest).
async function comeBack(seat) {
  if (busy) return;
  busy = true;
  try {
    const next = await call(`${app.dataset.api}/back`, { seat });
    base.seats = next.seats;
    if (!next.moved_on && !steps.length) view = next;
    render();
    say(TEXT.backSaid(nameOf(next, seat)));
  } catch (error) {
    say(error.message, true);
  } finally {
    busy = false;
  }
}

async function playForAbsent() {
  if (busy) return;
  busy = true;
  $("absent").disabled = true;
  const who = nameOf(base, base.turn);
  say(TEXT.playingFor(who));
  let next = null;
  try {
    next = await call(`${app.dataset.api}/absent`, {});
    wentOn(next, ["deadline", "roll", "undo", "send"]);
    if (next.phase === "over") finalView = next;
  } catch (error) {
    say(error.message, true);
  } finally {
    busy = false;
    $("absent").disabled = false;
  }
  if (next) await showPlayed(next, []);  // played: the replay only shows it (as after send)
}

// The game went on to a new link (a turn sent, played for someone, or a player back): keep it,
// hide this link's turn controls (``hide``), and drop the turn's steps from the address.
function wentOn(next, hide) {
  remember(next);
  turnSent = true;
  for (const id of hide) $(id).hidden = true;
  // Back to this page's player (nobody else had a decision): a reload opens their new link,
  // not the one just played on (older now, read-only).
  const mine = comesBack(next);
  history.replaceState(null, "", (mine ? new URL(next.url).pathname : location.pathname)
    + location.search);
}

// Whether the next link is this page's sender's again: nobody else had a decision (the others
// are bots, or their turns played themselves), so nobody is sent it.
function comesBack(next) {
  return sender !== null && next.turn === sender && next.phase !== "over";
}

// What the server played once a turn was sent (the bots' turns, or a turn played for an absent
// player): replayed (not a whole ending the bots played out alone: the results say so), then
// where the link goes. The dice left are `ours` (the sender's last roll): never the roll the
// next player's link opens with.
async function showPlayed(next, ours) {
  if (next.replay && next.replay.events.length) {
    const shown = (step) => pills(board, next, step);
    if (!next.simulated) await tapEnds(replay(next.replay, next, shown));
    board.place(next.pieces, seatsColors(next), seatsNames(next),
      next.phase === "over" ? null : next.turn);
    showDice(ours);
  }
  pills(board, next, next.steps);
  showSend(next);
  for (const id of ["roll", "send", "undo", "toroom"]) $(id).hidden = true;
  showAddPlayer();
  if (finalView) showResults(finalView);
  showGameReview(finalLink());
}

// A replay that a tap anywhere ends at once: the player's own tap (a move, Rematch) never waits
// for it, and reaches the page after it, with the pieces where they end up.
async function tapEnds(replaying) {
  const tap = () => finishReplay();
  document.addEventListener("pointerdown", tap, { capture: true });
  try {
    await replaying;
  } finally {
    document.removeEventListener("pointerdown", tap, { capture: true });
  }
}

// -- the finished game's review (review.js) ---------------------------------------------------

// The finished game's final link, once there is one (this page's when it opened a finished game).
function finalLink() {
  return finalView || (steps.length ? null : base.phase === "over" ? base : null);
}

// -- sending ------------------------------------------------------------------------------------

async function send() {
  if (busy) return;
  busy = true;
  $("send").disabled = true;
  let next = null;
  const ours = view.last_roll;
  try {
    next = await call(app.dataset.turn, { seat: base.turn, steps, seats: seatChanges() });
    showTurnFeed(next);
    steps = [];
    forced = new Set();
    turnEvents = [];
    sender = base.turn;
    wentOn(next, ["send", "undo"]);
    if (next.phase === "over") {
      finalView = next;
      hostHere = hostHere || base.turn === next.host || isLocal(next);
    }
  } catch (error) {
    say(error.message, true);
  } finally {
    busy = false;
    $("send").disabled = false;
  }
  // The turn is sent: what the bots played after it only shows, and a tap on a button (the
  // results' Rematch) ends that replay and does what it says.
  if (next) await showPlayed(next, ours);
}

// The turn comes back to this page's player (the others are bots, whose moves were just shown):
// play on here, on the new link, as in a game against the computer.
function goOn(next) {
  if (busy) return;
  useLink(next);
  base = next;
  view = next;
  lockSeats(next);
  steps = [];
  forced = new Set();
  turnEvents = [];
  selected = null;
  turnSent = false;
  sender = null;
  $("sendbox").hidden = true;
  if (next.phase === "claim") submit([]);  // the re-roll's window opens now
  else render();
}

// Only the player to move edits their own name and number under "Players" (the host, on the
// game's first turn, anyone's): the server refuses the rest, so the page doesn't offer it.
function lockSeats(v) {
  const first = v.replay && v.replay.start === 0 &&
    v.replay.events.every((e) => isBot(v, e.seat) || e.forced);
  for (const fields of document.querySelectorAll("#seats fieldset")) {
    fields.disabled = +fields.dataset.seat !== v.turn && !(first && v.turn === v.host);
  }
}

// Names and numbers edited under "Players": a blank number keeps the current one.
function seatChanges() {
  return [...document.querySelectorAll("#seats fieldset")].map((fields) => {
    const change = { name: fields.querySelector("[name=name]").value };
    const number = fields.querySelector("[name=phone]");  // bots have none
    const phone = number ? number.value.trim() : "";
    const stop = fields.querySelector("[name=nophone]");
    if (phone) change.phone = phone;
    else if (stop && stop.checked) change.phone = null;
    const whatsapp = fields.querySelector("[name=whatsapp]");  // it goes with a number
    if (whatsapp) change.whatsapp = whatsapp.checked;
    return change;
  });
}

function isLocal(v) { return localStorage.getItem(`boardpass:local:${v.seed}`) === "1"; }

// `creating`: the new game's first link, for its creator to send.
function showSend(next, creating = false) {
  const msg = next.message;
  // The next person is this one again: nobody else had a decision (no one to send the link
  // to, and the server sent it nowhere); a new game's creator against the bots plays first.
  const solo = soloHuman(next);
  const again = msg.status !== "game-over" && msg.status !== "sent" &&
    (creating ? solo !== null && next.turn === solo : comesBack(next));
  const box = $("sendbox");
  box.hidden = false;
  $("nextlink").value = next.url;
  const local = isLocal(next);
  // A finished Ludo game: nobody is texted, so the host gets the final link (their rematch).
  const results = msg.status === "game-over" && msg.text;
  if (results && hostHere) {
    $("sendmsg").textContent = TEXT.resultsHere();
  } else if (results) {
    $("sendmsg").textContent = TEXT.resultsTo(msg.to);
    $("nextlink").value = msg.url;  // the host's link
  } else if (msg.status === "game-over") {
    $("sendmsg").textContent = TEXT.gameOver(nameOf(next, next.winner));
  } else if (msg.status === "sent") {
    $("sendmsg").textContent = msg.channel === "whatsapp" ? TEXT.sentWhatsApp(msg.to)
      : msg.channel === "push" ? _("%(to)s's phone was notified of their turn.", { to: msg.to })
        : TEXT.texted(msg.to);
  } else if (msg.status === "failed") {
    $("sendmsg").textContent = TEXT.sendYourself(msg.error);
  } else if (again) {
    $("sendmsg").textContent = creating ? TEXT.createdBots(msg.to)
      : solo !== null ? TEXT.againAfterBots(msg.to)
        : _("Nobody else had a move to choose. %(who)s, your turn again.", { who: msg.to });
  } else if (creating) {
    $("sendmsg").textContent = local ? TEXT.createdLocal(msg.to) : TEXT.created(msg.to);
  } else if (local) {
    $("sendmsg").textContent = TEXT.passPhone(msg.to);
  } else {
    $("sendmsg").textContent = TEXT.sendLink(msg.to);
  }
  const offer = msg.sms_href && msg.status !== "sent" && !local && !(results && hostHere) &&
    !again;
  $("sms").hidden = !offer;
  $("whatsapp").hidden = !(offer && msg.whatsapp_href);
  $("share").hidden = true;
  if (offer) {
    $("sms").href = msg.sms_href;
    if (msg.whatsapp_href) $("whatsapp").href = msg.whatsapp_href;
  }
  // WhatsApp first at Spanish tables (their players message by WhatsApp) and for a player who
  // chose it; the first way is the primary one.
  const whatsappFirst = next.lang === "es" || !!msg.whatsapp;
  if (whatsappFirst) $("sms").before($("whatsapp"));
  else $("whatsapp").before($("sms"));
  $("whatsapp").classList.toggle("primary", whatsappFirst);
  $("sms").classList.toggle("primary", !whatsappFirst);
  if (navigator.share && msg.text && !(results && hostHere) && !again) {
    $("share").hidden = false;
    $("share").onclick = () => navigator.share({ text: msg.text }).catch(() => {});
  }
  // Back to this player: there is no link to pass on.
  $("copy").hidden = again;
  $("nextlink").hidden = again;
  $("copy").onclick = async () => {
    $("nextlink").select();
    try {
      await navigator.clipboard.writeText($("nextlink").value);
      $("copy").textContent = TEXT.copied();
    } catch { document.execCommand("copy"); }
  };
  // Going on here: after a turn the bots' moves were just shown, so the next page doesn't replay
  // them again (#seen=1); a new game's first page does (bots to move first have played).
  const path = new URL(next.url).pathname;
  // A new game whose first turn is its creator's (the host's): play it here at once.
  const mine = creating && !local && !again && next.turn === next.host;
  $("next").href = again && !creating ? `${path}#seen=1` : path;
  $("next").textContent = mine ? TEXT.thatsMe() : !again ? TEXT.playHere()
    : creating ? TEXT.play() : TEXT.continue();
  $("next").hidden = !(local || again || mine) || msg.status === "game-over";
  // Passing the phone, playing on here is the way: first, and the primary one.
  $("next").classList.toggle("primary", again || local);
  if (local) $("sendmsg").after($("next"));
  else $("copy").after($("next"));
  $("next").onclick = again && !creating ? (event) => { event.preventDefault(); goOn(next); } : null;
  if (msg.status === "game-over") say(TEXT.wins(nameOf(next, next.winner)));
  else if (again) say($("sendmsg").textContent);
  else if (creating) say(TEXT.newGame(msg.to));
  else say(msg.status === "sent" ? TEXT.sent(msg.to) : TEXT.isNext(msg.to));
}

// -- Ludo's table: the results, the rematch, a player joining ---------------------------------

// The results of a finished Ludo game: places, this game's medals (never for the last place)
// and the table's medal count; the host's Rematch once the final link exists.
function showResults(v) {
  const box = $("results");
  box.hidden = !(isLudo() && v.phase === "over");
  if (box.hidden) return;
  const list = $("placings");
  list.replaceChildren();
  $("simulated").hidden = !v.simulated;
  v.placed.forEach((seat, i) => {
    const item = document.createElement("li");
    item.dataset.seat = seat;
    const place = document.createElement("span");
    place.className = "place";
    place.textContent = TEXT.ordinal(i + 1);
    item.append(place, " ", ...seatLabel(v.seats[seat]));
    const medal = v.seats[seat].won.findIndex((n) => n > 0);
    if (medal >= 0) item.append(" ", medalIcon(medal));
    list.appendChild(item);
  });
  const rows = $("medaltable").querySelector("tbody");
  rows.replaceChildren();
  for (const seat of v.seats) {
    const row = document.createElement("tr");
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = seat.name;
    row.appendChild(name);
    seat.medals.forEach((earlier, k) => {
      const cell = document.createElement("td");
      cell.textContent = earlier + seat.won[k];
      cell.dataset.medal = MEDALS[k];
      row.appendChild(cell);
    });
    rows.appendChild(row);
  }
  // The rematch is made from the final link: this page's when it opened a finished game.
  const final = finalLink();
  const host = nameOf(v, v.host);
  $("rematch").hidden = !(final && hostHere);
  // The rematch's table: any size that seats everyone here (medals count across sizes).
  $("rematchsize").hidden = $("rematch").hidden;
  if (final) {
    // Purple and orange sit only at tables of 5 or 6 (the 78-square board).
    const big = final.seats.some((s) => s.color === "purple" || s.color === "orange");
    for (const option of $("rematchcapacity").options) {
      option.disabled = +option.value < final.seats.length || (big && +option.value < 5);
      if (!sizeChosen) option.selected = +option.value === final.settings.capacity;
    }
  }
  // Sent with the page, they wait for the script (and this game) to work.
  $("rematch").disabled = !final;
  $("rematchcapacity").disabled = !final;
  $("iamhost").disabled = false;
  $("rematchnote").hidden = !final || hostHere;
  $("rematchnote").textContent = hostAsked ? askHostLink(host) : TEXT.hostDecides(host);
  $("iamhost").hidden = $("rematchnote").hidden || hostAsked;
  $("iamhost").textContent = TEXT.iAmHost(host);
}

// "I'm Ana" on a phone that isn't the host's: the rematch is on their link, or on the phone
// that made the game, so the page asks for that.
function askForHostLink() {
  hostAsked = true;
  showResults(finalView || view);
  say($("rematchnote").textContent);
}

function askHostLink(host) {
  return _("%(host)s, open the link with the results that was sent to you, or this page on "
    + "the phone you made the game on: the rematch is there.", { host });
}

function medalIcon(k) {
  const icon = document.createElement("span");
  icon.className = `medal ${MEDALS[k]}`;
  icon.setAttribute("role", "img");
  icon.setAttribute("aria-label", _(TEXT.medals[k]));
  icon.textContent = k + 1;
  return icon;
}

async function rematch() {
  const final = finalView || base;
  if (busy || final.phase !== "over") return;
  busy = true;
  $("rematch").disabled = true;
  say(TEXT.rematching());
  try {
    const capacity = +$("rematchcapacity").value;
    const next = await call(`/api/games/${final.token}/rematch`,
      { seat: final.host, capacity, host_key: hostKey() });
    const local = isLocal(final) ? "&local=1" : "";
    location.assign(`${new URL(next.url).pathname}?new=1${local}`);
  } catch (error) {
    say(error.message, true);
    $("rematch").disabled = false;
  } finally {
    busy = false;
  }
}

// The host's key, when this page has it: in its address (the host's link), or in the results
// link it made by finishing the game. Without it the server asks for the phone that made it.
function hostKey() {
  const made = finalView && finalView.message && finalView.message.url;
  return params.get("host") || (made ? new URL(made).searchParams.get("host") : null);
}

// The host adds a player while seats are free: on the host's turn, or as the game is created.
// Not once the game's very first roll is made: a newcomer then rolls for who starts too.
function showAddPlayer() {
  const box = $("addplayer");
  const creating = params.get("new") && !base.decisions.length;
  const hostsTurn = base.turn === base.host && !turnSent && (base.steps > 0 || !steps.length);
  const free = board.layout.colors.filter((c) => !base.seats.some((s) => s.color === c.name));
  const room = base.seats.length < (base.settings.capacity || board.layout.colors.length);
  box.hidden = !(isLudo() && view.phase !== "over" && free.length && room &&
                 (creating || hostsTurn));
  if (box.hidden) return;
  const colors = $("addcolors");
  const chosen = colors.querySelector("input:checked");
  for (const node of colors.querySelectorAll("label")) node.remove();
  for (const color of free) {
    const label = document.createElement("label");
    label.className = "check";
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "color";
    input.value = color.name;
    input.checked = chosen ? chosen.value === color.name : color === free[0];
    const swatch = document.createElement("span");
    swatch.className = `swatch ${color.name}`;
    const name = TEXT.color(color.name);
    label.append(input, " ", swatch, " ", name[0].toUpperCase() + name.slice(1));
    colors.appendChild(label);
  }
}

async function addPlayer(event) {
  event.preventDefault();
  if (busy) return;
  const form = $("addform");
  const color = form.querySelector("input[name=color]:checked");
  const problem = $("addmsg");
  problem.hidden = true;
  if (!color) { problem.textContent = TEXT.chooseColor(); problem.hidden = false; return; }
  const player = { name: form.elements.name.value, color: color.value };
  if (form.elements.phone.value.trim()) {
    player.phone = form.elements.phone.value.trim();
    player.whatsapp = form.elements.whatsapp.checked;
  }
  busy = true;
  form.querySelector("button").disabled = true;
  say(TEXT.adding());
  try {
    const next = await call(`${app.dataset.api}/players`, { seat: base.host, player, steps });
    remember(next);
    say(TEXT.added(next.seats.find((s) => s.color === color.value).name));
    // The same game with the new seat: the turn in progress goes on there (the address), and
    // the turns before it, already watched here, aren't replayed again.
    const hash = location.hash ? `${location.hash}&seen=1` : "#seen=1";
    location.assign(new URL(next.url).pathname + location.search + hash);
  } catch (error) {
    problem.textContent = error.message;
    problem.hidden = false;
    say(error.message, true);
    form.querySelector("button").disabled = false;
  } finally {
    busy = false;
  }
}

// -- links seen in this browser: never lose a newer one ------------------------------------------

// A link is newer with more steps, or as many steps and more seats (a player added).
function newer(a, b) {
  return a.steps > b.steps || (a.steps === b.steps && (a.seats || 0) > (b.seats || 0));
}

function remember(v) {
  const key = `boardpass:game:${v.seed}`;
  const seen = JSON.parse(localStorage.getItem(key) || "null");
  const now = { steps: v.steps, seats: v.seats.length, url: v.url };
  if (!seen || newer(now, seen)) localStorage.setItem(key, JSON.stringify(now));
  return seen;
}

function warnIfStale(v) {
  const seen = JSON.parse(localStorage.getItem(`boardpass:game:${v.seed}`) || "null");
  if (seen && newer(seen, { steps: v.steps, seats: v.seats.length })) {
    const note = $("newer");
    note.replaceChildren();
    note.append(TEXT.older(), " ");
    const a = document.createElement("a");
    a.href = new URL(seen.url).pathname;
    a.textContent = TEXT.newest();
    note.append(a);
    note.hidden = false;
    return true;
  }
  remember(v);
  return false;
}

// -- start --------------------------------------------------------------------------------------

// The new game's link in another language (the creator switched it before sending the link):
// this page goes on with it.
function useLink(v) {
  const old = app.dataset.token;
  for (const key of ["token", "api", "moves", "turn", "room"]) {
    app.dataset[key] = app.dataset[key].replace(old, v.token);
  }
  history.replaceState(null, "", new URL(v.url).pathname + location.search + location.hash);
}

// The game goes on live in a room: this phone keeps the seat of the link's player there.
async function toRoom() {
  if (busy) return;
  busy = true;
  try {
    const made = await call(app.dataset.room, { seat: base.turn });
    localStorage.setItem(`boardpass:room:${made.room.code}`, made.you.credential);
    location.assign(new URL(made.room.url).pathname);
  } catch (error) {
    say(error.message, true);
  } finally {
    busy = false;
  }
}

// What the page was sent with (game.html): the game as the API reads it, the board's layout.
const sent = (id) => JSON.parse($(id).textContent);

async function start() {
  // A reload mid-turn (its steps in the address, which the server never sees): the page came
  // with the turn's opening line, and the steps are checked again before anything is said.
  if (steps.length) say(_("Loading the game…"));
  const first = sent("view");
  board = new Board($("board"), sent("layout"));
  useBoard(board);
  if (first.token !== app.dataset.token) useLink(first);
  base = first;
  view = first;
  lockSeats(first);
  if (params.get("local")) localStorage.setItem(`boardpass:local:${first.seed}`, "1");
  hostHere = !!first.host_here;  // the host's link, or the browser that made the game
  movedOn = first.moved_on;
  const stale = warnIfStale(first) || !!movedOn;
  offerNotifications(first, { stale, local: isLocal(first), creating: !!params.get("new") })
    .catch(() => {});
  if (first.message && params.get("new")) {
    showSend(first, true);
    board.place(first.pieces, seatsColors(first), seatsNames(first));
    pills(board, first, first.steps);
    showAddPlayer();
    return;
  }
  // Who goes first, until a person has played (bots to move first play at once, and so do
  // the steps with nothing to decide).
  if (first.replay.start === 0 &&
      first.replay.events.every((e) => isBot(first, e.seat) || e.forced)) {
    first.first_rolls.forEach((round, i) => addFeed(TEXT.firstRolls(i > 0,
      round.map(([seat, total]) => `${nameOf(first, seat)} ${total}`).join(", "))));
  }
  // A finished game replays its last turn only (its winner's own last turn may be long past);
  // its results, sent with the page, work from now on (the rematch), not after the replay.
  if (first.phase === "over") showResults(first);
  const seen = /[#&]seen=1/.test(location.hash);  // just added a player: watched already
  // Back mid-turn (a reload: the turn's steps are in the address), what the others did since
  // is in the feed again, without being shown again.
  if (!stale && !seen) {
    await tapEnds(replay(first.phase === "over" ? lastTurn(first.replay) : first.replay, first,
      (step) => pills(board, first, step), !steps.length));
  }
  // This turn's steps from the address, checked again; or, when the address doesn't have the
  // steps a roll shown has fixed (another tab, a phone that lost it), those: they stand.
  let restored = movedOn ? [] : steps;
  const fixed = (first.fixed_steps || []).map(stepText);
  if (fixed.some((text, i) => !restored[i] || stepText(restored[i]) !== text)) {
    restored = first.fixed_steps.map(plainStep);
  }
  steps = [];
  if (restored.length) await submit(restored, true);
  else if (first.phase === "claim" && !stale) await submit([]);  // its window opens now
  else render();
}

$("roll").addEventListener("click", () => {
  if (busy) return;
  rollDice();
  submit([...steps, ...rollStep()]);
});
soundSwitch($("sound"));
$("undo").addEventListener("click", () => {
  if (busy || view.phase === "claim") return;
  const last = undoTo();
  if (last < 0) return;
  board.cancelFlights();  // a move still hopping is taken back with the rest
  submit(steps.slice(0, last));
});
$("send").addEventListener("click", send);
$("toroom").addEventListener("click", toRoom);
$("absent").addEventListener("click", playForAbsent);
const speed = document.querySelector("#botspeed select");
if (speed) {
  speed.value = botSpeed();
  speed.addEventListener("change", () => localStorage.setItem(SPEED_KEY, speed.value));
}
$("rematch").addEventListener("click", rematch);
$("rematchcapacity").addEventListener("change", () => { sizeChosen = true; });
$("iamhost").addEventListener("click", askForHostLink);
$("addform").addEventListener("submit", addPlayer);
start().catch((error) => say(error.message, true));
