// The game page: replay since your last turn, roll, move, undo, send the turn.
// The server holds nothing: this turn's steps live in the page's URL (#s=...), so a reload keeps
// them, and every step is checked by the server, which replays the link each time.

import { Board, activate, sleep } from "./board.js";

const app = document.getElementById("app");
const $ = (id) => document.getElementById(id);

let board = null;
let view = null;       // the game after this turn's steps, as the server last described it
let base = null;       // the game at the link, before this turn's steps
let steps = readSteps();
let selected = null;
let busy = false;
let claimTicket = null;  // the re-roll claim window being timed (see armClaim)

// What a game calls its pieces and dice.
const WORDS = {
  parcheesi: { piece: "pawn", base: "the nest", dice: "the dice" },
  "red-arse": { piece: "marble", base: "base", dice: "the die" },
};
function words() { return WORDS[board.layout.game] || WORDS.parcheesi; }

// Each seat's color as its index in the board layout.
function colorOf(seat) { return board.layout.colors.findIndex((c) => c.name === seat.color); }
function seatsColors(v) { return v.seats.map(colorOf); }
function nameOf(v, seat) { return v.seats[seat].name; }

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

async function call(url, body) {
  const response = await fetch(url, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: { message: "The server didn't answer." } }));
  if (!response.ok) {
    const error = new Error(data.error ? data.error.message : `Error ${response.status}`);
    error.code = data.error ? data.error.code : null;
    throw error;
  }
  return data;
}

// Play this turn's steps (all of them: the server keeps nothing) and draw the result.
// `restoring`: the steps come from the address, so a re-roll they leave open was missed.
async function submit(newSteps, restoring = false) {
  busy = true;
  let failure = null;
  try {
    const next = await call(app.dataset.moves, { seat: base.turn, steps: newSteps });
    steps = (next.turn_steps || newSteps).map(plainStep);
    view = next;
    selected = null;
  } catch (error) {
    failure = error;
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
  armClaim();
}

// -- the re-roll claim: Roll within the window claims it; otherwise the page lets it go --------

function armClaim() {
  const v = view;
  if (v.phase !== "claim" || !v.claim || v.turn !== base.turn || claimTicket === v.claim.ticket) {
    return;
  }
  const ticket = claimTicket = v.claim.ticket;
  const expire = () => {
    if (view.phase !== "claim" || !view.claim || view.claim.ticket !== ticket) return;
    if (busy) { setTimeout(expire, 200); return; }  // a tap on Roll is on its way
    submit([...steps, "miss"]);
  };
  setTimeout(expire, v.claim.seconds * 1000);
}

function rollStep() {
  if (view.phase === "claim" && view.claim) return [{ claim: view.claim.ticket }, "roll"];
  return ["roll"];
}

// -- drawing ----------------------------------------------------------------------------------

function say(text, isError = false) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("error", isError);
}

function showDice(dice, pool) {
  const box = $("dice");
  box.replaceChildren();
  for (const d of dice) {
    const face = document.createElement("span");
    face.className = "die";
    face.textContent = d;
    box.appendChild(face);
  }
  if (pool && pool.length && dice.length > 1) {  // one die: nothing more to say
    const left = document.createElement("span");
    left.className = "pool";
    left.textContent = `to play: ${pool.join(", ")}`;
    box.appendChild(left);
  }
}

function render() {
  const v = view;
  board.place(v.pieces, seatsColors(v));
  board.clearMoves();
  // The dice of this turn: while they are played, and once the turn is done.
  showDice(v.phase === "move" || steps.length ? v.last_roll : [], v.pool);
  const mover = nameOf(v, base.turn);
  // A re-roll to claim looks like any time to roll: nothing reminds the player.
  $("roll").hidden = !((v.phase === "roll" || v.phase === "claim") && v.turn === base.turn);
  $("undo").hidden = v.phase === "claim" || undoTo() < 0;
  $("send").hidden = !(steps.length && (v.turn !== base.turn || v.phase === "over"));
  $("choices").hidden = true;
  showTurnFeed();
  if (v.phase === "over") {
    say(`${nameOf(v, v.winner)} wins!`);
    if (v.secret) {
      $("secret").querySelector("code").textContent = v.secret;
      $("secret").hidden = false;
    }
  } else if (v.turn !== base.turn) {
    say(`${mover}, your turn is done. Send it to ${nameOf(v, v.turn)}.`);
  } else if (v.phase === "claim") {
    say(`${mover} moved.`);
  } else if (v.phase === "roll") {
    if (v.doubles) say(`Doubles! ${mover}, roll again.`);
    else if (steps.length) say(`${mover}, roll again.`);
    else say(`${mover}, your turn: roll ${words().dice}.`);
  } else {
    say(`${mover}: tap a ${words().piece} or a landing spot.`);
    board.showMoves(v.legal, colorOf(v.seats[v.turn]), pick, selected);
    for (const node of board.pieceNodes) {
      if (+node.dataset.seat !== v.turn) continue;
      const progress = +node.dataset.progress;
      if (v.legal.some((m) => m.from === progress)) {
        node.classList.add("movable");
        node.setAttribute("tabindex", "0");
        node.setAttribute("role", "button");
        const piece = words().piece;
        node.setAttribute("aria-label",
          `${piece[0].toUpperCase()}${piece.slice(1)} ${+node.dataset.piece + 1}: show its moves`);
        activate(node, () => { selected = selected === progress ? null : progress; render(); });
      }
    }
  }
}

function pick(moves) {
  if (busy) return;
  if (moves.length === 1) return play(moves[0]);
  const box = $("choices");
  box.replaceChildren();
  const label = document.createElement("p");
  label.textContent = "Which move?";
  box.appendChild(label);
  for (const m of moves) {
    const button = document.createElement("button");
    button.textContent = m.label;
    button.addEventListener("click", () => play(m));
    box.appendChild(button);
  }
  box.hidden = false;
}

function play(m) {
  return submit([...steps, { from: m.from, to: m.to, values: m.values }]);
}

// The last move that can be taken back: never one before a re-roll claimed or let go (the
// window is gone), and rolls only go with the moves before them (the dice stay the same).
function undoTo() {
  let last = -1;
  steps.forEach((s, i) => {
    if (s === "miss" || s.claimed !== undefined) last = -1;
    else if (s !== "roll") last = i;
  });
  return last;
}

// This turn's own re-rolls, claimed or let go, at the top of the feed.
function showTurnFeed() {
  for (const node of document.querySelectorAll("#feed li.now")) node.remove();
  const who = nameOf(base, base.turn);
  for (const s of steps) {
    if (s === "miss" || s.claimed !== undefined) {
      addFeed(`${who}: re-roll ${s === "miss" ? "missed" : "claimed"}`).classList.add("now");
    }
  }
}

// -- replay on arrival --------------------------------------------------------------------------

async function replay(r) {
  if (!r || !r.events.length) return;
  let skipped = false;
  $("skip").hidden = false;
  $("skip").onclick = () => { skipped = true; };
  const colors = seatsColors(base);
  board.place(r.pieces, colors);
  for (const event of r.events) {
    if (skipped) break;
    const who = nameOf(base, event.seat);
    for (const line of eventLines(base, event)) addFeed(line);
    if (event.kind === "roll") {
      showDice(event.dice);
      say(`${who} rolled ${event.dice.join(" and ")}`);
      await sleep(500);
    } else if (event.kind === "move") {
      await board.animate(event.seat, event.piece, colors[event.seat], event);
      board.place(event.pieces, colors);
      await sleep(200);
    } else {
      say(`${who}: re-roll ${event.kind === "claim" ? "claimed" : "missed"}`);
      await sleep(300);
    }
  }
  $("skip").hidden = true;
}

// The feed's lines for one event of the replay: the roll or move, then whom it sent back and
// whose home it raided.
function eventLines(v, event) {
  const who = nameOf(v, event.seat);
  if (event.kind === "roll") return [`${who} rolled ${event.dice.join("-")}`];
  if (event.kind === "claim") return [`${who}: re-roll claimed`];
  if (event.kind === "miss") return [`${who}: re-roll missed`];
  if (event.kind !== "move") return [];
  const lines = [`${who}: ${event.label}`];
  const owner = raided(v, event);
  if (owner !== null) lines.push(`${who} raided ${nameOf(v, owner)}'s home`);
  for (const seat of event.kills || []) {
    lines.push(`${who} sent ${nameOf(v, seat)}'s ${words().piece} back to ${words().base}`);
  }
  return lines;
}

// The seat whose home column a move turned into, when it isn't the mover's own.
function raided(v, event) {
  const cell = board.homeCell(event.to);
  if (!cell || board.homeCell(event.from) === cell) return null;
  if (cell.color === v.seats[event.seat].color) return null;
  const owner = v.seats.findIndex((s) => s.color === cell.color);
  return owner >= 0 ? owner : null;
}

function addFeed(text) {
  const item = document.createElement("li");
  item.textContent = text;
  $("feed").prepend(item);
  return item;
}

// -- sending ------------------------------------------------------------------------------------

async function send() {
  if (busy) return;
  busy = true;
  $("send").disabled = true;
  try {
    const next = await call(app.dataset.turn, { seat: base.turn, steps, seats: seatChanges() });
    remember(next);
    steps = [];
    history.replaceState(null, "", location.pathname + location.search);
    showSend(next);
    $("send").hidden = true;
    $("undo").hidden = true;
  } catch (error) {
    say(error.message, true);
  } finally {
    busy = false;
    $("send").disabled = false;
  }
}

// Names and numbers edited under "Players": a blank number keeps the current one.
function seatChanges() {
  return [...document.querySelectorAll("#seats fieldset")].map((fields) => {
    const change = { name: fields.querySelector("[name=name]").value };
    const phone = fields.querySelector("[name=phone]").value.trim();
    const stop = fields.querySelector("[name=nophone]");
    if (phone) change.phone = phone;
    else if (stop && stop.checked) change.phone = null;
    return change;
  });
}

function showSend(next) {
  const msg = next.message;
  const box = $("sendbox");
  box.hidden = false;
  $("nextlink").value = next.url;
  const local = localStorage.getItem(`boardpass:local:${next.seed}`) === "1";
  if (msg.status === "game-over") {
    $("sendmsg").textContent = `Game over: ${nameOf(next, next.winner)} wins.`;
  } else if (msg.status === "sent") {
    $("sendmsg").textContent = `Texted the link to ${msg.to}.`;
  } else if (msg.status === "failed") {
    $("sendmsg").textContent = `${msg.error} Send it yourself:`;
  } else if (next.steps === 0) {
    $("sendmsg").textContent = local ? `Game created. ${msg.to} goes first: pass them the phone.`
      : `Game created. ${msg.to} goes first: send them the link.`;
  } else if (local) {
    $("sendmsg").textContent = `Pass the phone to ${msg.to}.`;
  } else {
    $("sendmsg").textContent = `Send the link to ${msg.to}:`;
  }
  if (msg.sms_href && msg.status !== "sent" && !local) {
    $("sms").href = msg.sms_href;
    $("sms").hidden = false;
    $("sms").textContent = `Send to ${msg.to}`;
  }
  if (navigator.share && msg.text) {
    $("share").hidden = false;
    $("share").onclick = () => navigator.share({ text: msg.text }).catch(() => {});
  }
  $("copy").onclick = async () => {
    $("nextlink").select();
    try { await navigator.clipboard.writeText(next.url); $("copy").textContent = "Copied"; }
    catch { document.execCommand("copy"); }
  };
  $("next").href = new URL(next.url).pathname;
  $("next").hidden = !local;
  if (msg.status === "game-over") say(`${nameOf(next, next.winner)} wins!`);
  else if (next.steps === 0) say(`New game: ${msg.to} goes first.`);
  else say(msg.status === "sent" ? `Sent. ${msg.to} is next.` : `${msg.to} is next.`);
}

// -- links seen in this browser: never lose a newer one ------------------------------------------

function remember(v) {
  const key = `boardpass:game:${v.seed}`;
  const seen = JSON.parse(localStorage.getItem(key) || "null");
  if (!seen || seen.steps < v.steps) {
    localStorage.setItem(key, JSON.stringify({ steps: v.steps, url: v.url }));
  }
  return seen;
}

function warnIfStale(v) {
  const seen = JSON.parse(localStorage.getItem(`boardpass:game:${v.seed}`) || "null");
  if (seen && seen.steps > v.steps) {
    const note = $("newer");
    note.replaceChildren();
    note.append("This is an older link for this game: you have already seen a newer one. ");
    const a = document.createElement("a");
    a.href = new URL(seen.url).pathname;
    a.textContent = "Open the newest link";
    note.append(a);
    note.hidden = false;
    return true;
  }
  remember(v);
  return false;
}

// -- start --------------------------------------------------------------------------------------

async function start() {
  const params = new URLSearchParams(location.search);
  const [layout, first] = await Promise.all([
    call(app.dataset.board),
    call(app.dataset.api + (params.get("new") ? "?invite=1" : "")),
  ]);
  board = new Board($("board"), layout);
  base = first;
  view = first;
  if (params.get("local")) localStorage.setItem(`boardpass:local:${first.seed}`, "1");
  const stale = warnIfStale(first);
  if (first.message && params.get("new")) {
    showSend(first);
    board.place(first.pieces, seatsColors(first));
    return;
  }
  if (first.steps === 0) {
    first.first_rolls.forEach((round, i) => addFeed(`${i ? "Tie, roll again: " : "Who goes first: "}${
      round.map(([seat, total]) => `${nameOf(first, seat)} ${total}`).join(", ")}`));
  }
  if (!stale && !steps.length) await replay(first.replay);
  const restored = steps;  // this turn's steps from the address, checked again by the server
  steps = [];
  if (restored.length) await submit(restored, true);
  else render();
}

$("roll").addEventListener("click", () => { if (!busy) submit([...steps, ...rollStep()]); });
$("undo").addEventListener("click", () => {
  if (busy || view.phase === "claim") return;
  const last = undoTo();
  if (last >= 0) submit(steps.slice(0, last));
});
$("send").addEventListener("click", send);
start().catch((error) => say(error.message, true));
