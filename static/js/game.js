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

// Each seat's color as its index in the board layout.
function colorOf(seat) { return board.layout.colors.findIndex((c) => c.name === seat.color); }
function seatsColors(v) { return v.seats.map(colorOf); }
function nameOf(v, seat) { return v.seats[seat].name; }

// -- this turn's steps in the URL: r = roll, from-to-values (values joined by +) ---------------

function readSteps() {
  const m = location.hash.match(/[#&]s=([^&]*)/);
  if (!m || !m[1]) return [];
  const read = [];
  for (const part of m[1].split(",")) {  // a cut-short address keeps the steps it can read
    if (part === "r") { read.push("roll"); continue; }
    const [from, to, values] = part.split("_");
    const step = { from: +from, to: +to, values: (values || "").split("+").map(Number) };
    if (!values || [step.from, step.to, ...step.values].some(Number.isNaN)) break;
    read.push(step);
  }
  return read;
}

function writeSteps() {
  const text = steps.map((s) => (s === "roll" ? "r" : `${s.from}_${s.to}_${s.values.join("+")}`));
  const hash = text.length ? `#s=${text.join(",")}` : "";
  history.replaceState(null, "", location.pathname + location.search + hash);
}

// -- talking to the server --------------------------------------------------------------------

async function call(url, body) {
  const response = await fetch(url, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: { message: "The server didn't answer." } }));
  if (!response.ok) throw new Error(data.error ? data.error.message : `Error ${response.status}`);
  return data;
}

async function submit(newSteps) {
  busy = true;
  let failure = null;
  try {
    const next = await call(app.dataset.moves, { seat: base.turn, steps: newSteps });
    steps = newSteps;
    view = next;
    selected = null;
  } catch (error) {
    failure = error.message;
  } finally {
    busy = false;
    writeSteps();  // only steps the server accepted stay in the address
    render();
    if (failure) say(failure, true);
  }
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
  if (pool && pool.length) {
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
  $("roll").hidden = !(v.phase === "roll" && v.turn === base.turn);
  $("undo").hidden = !steps.some((s) => s !== "roll");
  $("send").hidden = !(steps.length && (v.turn !== base.turn || v.phase === "over"));
  $("choices").hidden = true;
  if (v.phase === "over") {
    say(`${nameOf(v, v.winner)} wins!`);
    if (v.secret) {
      $("secret").querySelector("code").textContent = v.secret;
      $("secret").hidden = false;
    }
  } else if (v.turn !== base.turn) {
    say(`${mover}, your turn is done. Send it to ${nameOf(v, v.turn)}.`);
  } else if (v.phase === "roll") {
    say(v.doubles ? `Doubles! ${mover}, roll again.` : `${mover}, your turn: roll the dice.`);
  } else {
    say(`${mover}: tap a pawn or a landing spot.`);
    board.showMoves(v.legal, colorOf(v.seats[v.turn]), pick, selected);
    for (const node of board.pieceNodes) {
      if (+node.dataset.seat !== v.turn) continue;
      const progress = +node.dataset.progress;
      if (v.legal.some((m) => m.from === progress)) {
        node.classList.add("movable");
        node.setAttribute("tabindex", "0");
        node.setAttribute("role", "button");
        node.setAttribute("aria-label", `Pawn ${+node.dataset.piece + 1}: show its moves`);
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
    addFeed(event.kind === "roll" ? `${who} rolled ${event.dice.join("-")}` : `${who}: ${event.label}`);
    if (event.kind === "roll") {
      showDice(event.dice);
      say(`${who} rolled ${event.dice.join(" and ")}`);
      await sleep(500);
    } else {
      await board.animate(event.seat, event.piece, colors[event.seat], event.from, event.to);
      board.place(event.pieces, colors);
      await sleep(200);
    }
  }
  $("skip").hidden = true;
}

function addFeed(text) {
  const item = document.createElement("li");
  item.textContent = text;
  $("feed").prepend(item);
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
  if (restored.length) await submit(restored);
  else render();
}

$("roll").addEventListener("click", () => { if (!busy) submit([...steps, "roll"]); });
$("undo").addEventListener("click", () => {
  if (busy) return;
  const last = steps.map((s) => s !== "roll").lastIndexOf(true);
  if (last >= 0) submit(steps.slice(0, last));
});
$("send").addEventListener("click", send);
start().catch((error) => say(error.message, true));
