// Playing without seeing the board: by keyboard alone, with a screen reader (docs/playing.md).
// One polite live region says what happens (the status line when it changes, each roll and
// move once); the legal moves are a row of buttons named by the server (a view's move "name")
// that arrow keys go through; where everyone stands (the view's "in_words") is the board's
// description, and P reads it out. Focus never falls to the page: a control that goes away
// hands it to the next one a player needs.

import { _ } from "./i18n.js";
import { TEXT, eventLines, nameOf, onPlayed } from "./table.js";

const $ = (id) => document.getElementById(id);
const SPOKEN_LINES = 12;  // the log keeps the last few: a screen reader reads only what's new
const heard = new Set();  // the events said already ("step:text"), never said twice
let lastSpoken = null;
let echo = null;  // the status line's words for the roll the replay just said ("Ana rolled 6")
let told = 0;  // how many of this turn's own steps were said (tellTurn)
let inWords = "";
let byPointer = false;  // the last thing the player did was a tap, not a key
let playMove = () => {};  // what Enter on a move does
let me = null;  // a room's seat on this phone, whose rolls the replay says as "You rolled"

// -- the live region ----------------------------------------------------------------------------

const spoken = document.createElement("div");
spoken.id = "spoken";
spoken.className = "visually-hidden";
spoken.setAttribute("role", "log");
spoken.setAttribute("aria-live", "polite");
document.body.append(spoken);

// Says `text` (appended to the log, which a screen reader reads as it grows).
function speak(text) {
  if (!text) return;
  const line = document.createElement("p");
  line.textContent = text;
  spoken.append(line);
  lastSpoken = text;
  while (spoken.childElementCount > SPOKEN_LINES) spoken.firstElementChild.remove();
}

// Says `text` once for `key` (a step of the game): a render drawing it again says nothing.
function hear(key, text) {
  if (heard.has(key)) return;
  heard.add(key);
  speak(text);
}

// The status line is what the page says to everyone: said when its words change, not each
// time a render writes the same words, nor just after the same words were said (it is shown,
// and no longer a live region itself).
const status = $("status");
status.removeAttribute("aria-live");
let lastStatus = status.textContent.trim();
new MutationObserver(() => {
  const text = status.textContent.trim();
  if (text && text !== lastStatus && text !== lastSpoken && text !== echo) speak(text);
  lastStatus = text;
}).observe(status, { childList: true, characterData: true, subtree: true });

// Each step the replay shows (the others', the bots', a room's own), said as it is shown
// (at the bots' instant speed too, when the status line has no time to show it).
onPlayed((v, event, step) => {
  echo = event.kind === "roll" ? TEXT.rolled(nameOf(v, event.seat), event.dice) : null;
  const text = !echo ? eventLines(v, event).join(". ")
    : event.seat === me ? youRolled(event.dice) : echo;
  hear(`${step}:${text}`, text);
});

// This page's own turn, as the server tells its steps (`events` from step `start`): the dice
// in the second person ("You rolled 6 and 3"), the moves as the feed says them; steps taken
// back (Undo) are said again when played again.
export function tellTurn(v, events, start) {
  if (events.length < told) speak(_("Taken back."));
  for (const key of [...heard]) if (+key.split(":")[0] >= start + events.length) heard.delete(key);
  told = events.length;
  events.forEach((event, i) => {
    const text = event.kind === "roll" ? youRolled(event.dice) : eventLines(v, event).join(". ");
    if (text) hear(`${start + i}:${text}`, text);
  });
}

function youRolled(dice) {
  return dice.length === 2 ? _("You rolled %(a)s and %(b)s", { a: dice[0], b: dice[1] })
    : _("You rolled %(die)s", { die: dice[0] });
}

// A room's turn timer on this phone's own turn: "10 seconds left", then "5 seconds left", once
// each per turn (`due`, the server's deadline), and only where the turn is longer than that.
export function warnTime(due, left, timer) {
  for (const mark of [10, 5]) {
    if (left <= mark && left > mark - 2 && timer > mark) {
      hear(`time:${due}:${mark}`, _("%(n)s seconds left", { n: mark }));
    }
  }
}

// -- the position in words --------------------------------------------------------------------

const described = document.createElement("p");
described.id = "inwords";
described.className = "hint";
described.hidden = true;
const svg = $("board");
svg.parentElement.after(described);
svg.setAttribute("aria-describedby", "inwords");

const reader = document.createElement("button");
reader.id = "readout";
reader.type = "button";
reader.className = "keysonly";
reader.textContent = _("Where everyone stands");
reader.setAttribute("aria-keyshortcuts", "P");
reader.addEventListener("click", () => {  // shown too, for a keyboard without a screen reader
  described.hidden = false;
  speak(inWords);
});
document.querySelector(".controls").after(reader);

// -- the moves, as a row of buttons ---------------------------------------------------------------

const moves = document.createElement("div");
moves.id = "moves";
moves.className = "keysonly";
moves.setAttribute("role", "toolbar");
moves.setAttribute("aria-label", _("Your moves"));
moves.hidden = true;
reader.before(moves);

// Where everyone stands in `v` (the server's words) becomes the board's description; with
// `play`, `v`'s legal moves are buttons, each named for what it does: Enter plays one
// (`play(move)`), the arrows go from one to the next (one tab stop for them all). `seat`: a
// room's seat on this phone (its rolls are "You rolled").
export function offerKeys(v, play = null, seat = me) {
  me = seat;
  inWords = v.in_words || "";
  described.textContent = inWords;
  if (!play || !v.legal.length) {
    moves.replaceChildren();
    moves.hidden = true;
    return;
  }
  playMove = play;
  const focused = moves.contains(document.activeElement) ? [...moves.children]
    .indexOf(document.activeElement) : 0;
  moves.replaceChildren(...v.legal.map((m, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = m.name;
    button.tabIndex = i === Math.min(focused, v.legal.length - 1) ? 0 : -1;
    button.addEventListener("click", () => playMove(m));
    return button;
  }));
  moves.hidden = false;
}

moves.addEventListener("keydown", (event) => {
  const buttons = [...moves.children];
  const at = buttons.indexOf(document.activeElement);
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  let to = null;
  if (step) to = (at + step + buttons.length) % buttons.length;
  else if (event.key === "Home") to = 0;
  else if (event.key === "End") to = buttons.length - 1;
  if (to === null || at < 0) return;
  event.preventDefault();
  buttons[at].tabIndex = -1;
  buttons[to].tabIndex = 0;
  buttons[to].focus();
});

// P reads where everyone stands, while the board, the moves or the turn's buttons have the
// focus (a letter typed anywhere else is the player's own).
document.addEventListener("keydown", (event) => {
  byPointer = false;
  if (event.key !== "p" && event.key !== "P") return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const at = document.activeElement;
  if (!at || !at.closest("#board, #moves, .controls, #readout")) return;
  event.preventDefault();
  speak(inWords);
});
document.addEventListener("pointerdown", () => { byPointer = true; }, { capture: true });

// -- focus never lost ------------------------------------------------------------------------------

// Where focus goes when the control that had it is gone (a move played, Roll after the roll,
// the replay's Skip when it ends, Send once sent): the first of these on show.
const NEXT = ["#moves [tabindex='0']", "#roll", "#start", "#send", "#next", "#undo",
  "#sendbox .primary", "#copy", "#rematch"];

const shown = (node) => node.isConnected && node.getClientRects().length > 0;

// Whenever the page changes: focus that fell to the page goes to what comes next. After a tap
// nothing moves the focus (the buttons for keys stay out of sight).
function keepFocus() {
  checking = false;
  const at = document.activeElement;
  if (byPointer || (at && at !== document.body && shown(at))) return;
  for (const selector of NEXT) {
    const node = document.querySelector(selector);
    if (node && shown(node)) { node.focus({ preventScroll: true }); return; }
  }
}
let checking = false;
new MutationObserver(() => {
  if (!checking) { checking = true; setTimeout(keepFocus, 0); }
}).observe($("app"), { childList: true, subtree: true, attributes: true,
  attributeFilter: ["hidden"] });
