// What the game page and the room page share: every word they say about a game (translated:
// see i18n.js), the status line, the dice, the feed, and the replay of what was played.
// The page gives it its board once it is drawn (useBoard).

import { activate, sleep } from "./board.js";
import { N_, _ } from "./i18n.js";
import { play, reducedMotion } from "./motion.js";
import { markDecision } from "./review.js";

const $ = (id) => document.getElementById(id);
let board = null;

export function useBoard(drawn) {
  board = drawn;
  board.describe = pieceWords;
}

// -- every word, in one place ---------------------------------------------------------------------

const ORDINALS = [N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"), N_("6th")];
export const MEDALS = ["gold", "silver", "bronze"];  // class names, not words
// Colors' names (the API's color identifiers are English words: shown translated).
const COLOR_NAMES = [N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("purple"),
  N_("orange")];
// Another color's home slot, one message per color (Spanish: "la casa roja"), as the engine says it.
const OTHER_HOME_SLOT = {
  red: N_("slot %(n)s of the red home"), blue: N_("slot %(n)s of the blue home"),
  green: N_("slot %(n)s of the green home"), yellow: N_("slot %(n)s of the yellow home"),
  purple: N_("slot %(n)s of the purple home"), orange: N_("slot %(n)s of the orange home"),
};
export const TEXT = {
  // What a game calls its pieces and dice, in whole sentences (each language says them its way).
  yourTurn: {
    parcheesi: (who) => _("%(who)s, your turn: roll the dice.", { who }),
    "red-arse": (who) => _("%(who)s, your turn: roll the die.", { who }),
    ludo: (who) => _("%(who)s, your turn: roll the die.", { who }),
  },
  tap: {
    parcheesi: (who) => _("%(who)s: tap a pawn or a landing spot.", { who }),
    "red-arse": (who) => _("%(who)s: tap a marble or a landing spot.", { who }),
    ludo: (who) => _("%(who)s: tap a piece or a landing spot.", { who }),
  },
  showMoves: {
    parcheesi: (n) => _("Pawn %(n)s: show its moves", { n }),
    "red-arse": (n) => _("Marble %(n)s: show its moves", { n }),
    ludo: (n) => _("Piece %(n)s: show its moves", { n }),
  },
  // The board in words, for screen readers: each piece, whose it is and where it stands (in
  // the words its game's moves use), and a movable piece's button.
  pieceAt: {
    parcheesi: (who, color, n, where) => _("%(who)s (%(color)s): pawn %(n)s, %(where)s",
      { who, color, n, where }),
    "red-arse": (who, color, n, where) => _("%(who)s (%(color)s): marble %(n)s, %(where)s",
      { who, color, n, where }),
    ludo: (who, color, n, where) => _("%(who)s (%(color)s): piece %(n)s, %(where)s",
      { who, color, n, where }),
  },
  atBase: {
    parcheesi: () => _("in the nest"),
    "red-arse": () => _("in base"),
    ludo: () => _("at home"),
  },
  atHome: {  // where pieces finish (Red Arse's finish in their home slots)
    parcheesi: () => _("at Home"),
    ludo: () => _("in the goal"),
  },
  inCenter: () => _("in the center"),
  onSquare: (n) => _("on square %(n)s", { n }),
  inHole: (n) => _("in hole %(n)s", { n }),
  onPlace: (place) => _("on %(place)s", { place }),
  showMovesOf: (piece) => _("%(piece)s: show its moves", { piece }),
  sentBack: {
    parcheesi: (who, whom) => _("%(who)s sent %(whom)s's pawn back to the nest", { who, whom }),
    "red-arse": (who, whom) => _("%(who)s sent %(whom)s's marble back to base", { who, whom }),
    ludo: (who, whom) => _("%(who)s sent %(whom)s's piece home", { who, whom }),
  },
  ordinal: (n) => (ORDINALS[n - 1] ? _(ORDINALS[n - 1]) : String(n)),
  color: (name) => (COLOR_NAMES.includes(name) ? _(name) : name),
  raided: (who, whom) => _("%(who)s raided %(whom)s's home", { who, whom }),
  reachedGoal: (who) => _("%(who)s brought a piece to the goal", { who }),
  finished: (who, n) => _("%(who)s finished %(place)s", { who, n, place: TEXT.ordinal(n) }),
  lastPlace: (who, n) => _("%(who)s takes the last place (%(place)s)",
    { who, n, place: TEXT.ordinal(n) }),
  rolledFeed: (who, dice) => _("%(who)s rolled %(dice)s", { who, dice: dice.join("-") }),
  rolledNoMove: (who, dice) => _("%(who)s rolled %(dice)s: no move",
    { who, dice: dice.join("-") }),
  // The player's own dice, rolled for them before the link reached them.
  yourRoll: (who, dice) => (dice.length === 2
    ? _("%(who)s, you rolled %(a)s and %(b)s: your move.", { who, a: dice[0], b: dice[1] })
    : _("%(who)s, you rolled %(dice)s: your move.", { who, dice: dice.join(", ") })),
  // A step with nothing to decide (a roll, an only move), played for the player.
  forcedTag: () => _("automatic"),
  forcedWhy: () => _("Nothing to decide: played automatically"),
  rolled: (who, dice) => (dice.length === 2
    ? _("%(who)s rolled %(a)s and %(b)s", { who, a: dice[0], b: dice[1] })
    : _("%(who)s rolled %(dice)s", { who, dice: dice.join(", ") })),
  reroll: (who, claimed) => (claimed ? _("%(who)s: re-roll claimed", { who })
    : _("%(who)s: re-roll missed", { who })),
  firstRolls: (again, totals) => (again ? _("Tie, roll again: %(totals)s", { totals })
    : _("Who goes first: %(totals)s", { totals })),
  toPlay: (pool) => _("to play: %(values)s", { values: pool.join(", ") }),
  wins: (who) => _("%(who)s wins!", { who }),
  turnDone: (who, next) => _("%(who)s, your turn is done. Send it to %(next)s.", { who, next }),
  // Bots: the server plays their turns once a turn is sent.
  turnDoneBots: (who) => _("%(who)s, your turn is done: the bots play next.", { who }),
  turnDoneLocal: (who, next) => _("%(who)s, your turn is done: pass the phone to %(next)s.",
    { who, next }),
  endTurn: () => _("End turn"),
  botTag: () => _("bot"),
  againAfterBots: (who) => _("The bots have played. %(who)s, your turn again.", { who }),
  createdBots: (to) => _("Game created: %(to)s against the bots.", { to }),
  play: () => _("Play"),
  continue: () => _("Continue"),
  movedClaim: (who) => _("%(who)s moved.", { who }),
  doubles: (who) => _("Doubles! %(who)s, roll again.", { who }),
  rollAgain: (who) => _("%(who)s, roll again.", { who }),
  whichMove: () => _("Which move?"),
  sendTurn: () => _("Send turn"),
  finishGame: () => _("Finish the game"),
  gameOver: (who) => _("Game over: %(who)s wins.", { who }),
  texted: (to) => _("Texted the link to %(to)s.", { to }),
  sentWhatsApp: (to) => _("Sent the link to %(to)s by WhatsApp.", { to }),
  sendYourself: (error) => _("%(error)s Send it yourself:", { error }),
  created: (to) => _("Game created. %(to)s goes first: send them the link.", { to }),
  createdLocal: (to) => _("Game created. %(to)s goes first: pass them the phone.", { to }),
  passPhone: (to) => _("Pass the phone to %(to)s.", { to }),
  sendLink: (to) => _("Send the link to %(to)s:", { to }),
  playHere: () => _("Play the next turn here"),
  thatsMe: () => _("That's me: play now"),
  copied: () => _("Copied"),
  newGame: (to) => _("New game: %(to)s goes first.", { to }),
  sent: (to) => _("Sent. %(to)s is next.", { to }),
  isNext: (to) => _("%(to)s is next.", { to }),
  older: () => _("This is an older link for this game: you have already seen a newer one."),
  // An older link (the server knows the game has moved on): it shows the game, read-only.
  movedOn: (who) => _("This turn was already played: the game has moved on. It is %(who)s's "
    + "turn now, with the newest link.", { who }),
  movedOnYou: (who) => _("This turn was already played. %(who)s, if it is your turn again, "
    + "open your newest link.", { who }),
  movedOnOver: () => _("This turn was already played: the game has moved on, and it is over. "
    + "The newest link shows how it ended."),
  newest: () => _("Open the newest link"),
  // Ludo's table: results, medals, rematch, players joining.
  medals: [N_("Gold medal"), N_("Silver medal"), N_("Bronze medal")],
  resultsTo: (host) => _("Game over. Send the results to %(host)s, the host: the rematch is on "
    + "their page.", { host }),
  resultsHere: () => _("Game over. The final link:"),
  hostDecides: (host) => _("%(host)s, the host, can start a rematch from this page.", { host }),
  iAmHost: (host) => _("I'm %(host)s", { host }),
  rematching: () => _("Starting the rematch…"),
  adding: () => _("Adding…"),
  added: (name) => _("%(name)s joins the game.", { name }),
  chooseColor: () => _("Choose a color."),
  // Turn deadlines: the time left (from the server's deadline), then the turn played for them.
  timeLeft: (who, left) => _("%(who)s has %(left)s for this turn", { who, left }),
  hoursMinutes: (h, min) => (min ? _("%(h)s h %(min)s min", { h, min }) : _("%(h)s h", { h })),
  minutes: (min) => _("%(min)s min", { min }),
  timeUp: (who) => _("%(who)s's time for this turn is up: whoever has this link can have it "
    + "played for them.", { who }),
  timeStarts: (who) => _("%(who)s's time for this turn starts when the link reaches them.",
    { who }),
  playingFor: (who) => _("Playing %(who)s's turn…", { who }),
  playedFor: (who) => _("%(who)s's turn was played for them", { who }),
  // Players away (two turns missed in a row) and, in Ludo, disqualified.
  away: (who) => _("%(who)s missed two turns in a row: their turns are played for them.",
    { who }),
  imBack: (who) => _("I'm %(who)s: I'm back", { who }),
  backSaid: (who) => _("%(who)s is back and plays their own turns again.", { who }),
  disqualified: (who) => _("%(who)s was disqualified: three turns ran out in a row.", { who }),
};



// How fast the replay shows bots' moves (people's always go at the normal pace): a share of the
// normal pauses, 0 shows them at once. The choice is kept in this browser.
export const BOT_SPEEDS = { slow: 2, normal: 1, fast: 0.3, instant: 0 };
export const HOP_MS = 90;  // a piece's hop from one square to the next, at the normal pace
export const SPEED_KEY = "boardpass:botspeed";

export function botSpeed() {
  const chosen = localStorage.getItem(SPEED_KEY);
  return chosen in BOT_SPEEDS ? chosen : "normal";
}

// Where the replay reads the bot speed: this browser's choice (a link game), or the room's,
// which every phone in it shares (useSpeed).
let speedOf = botSpeed;
export function useSpeed(read) { speedOf = read; }

// -- the seats ------------------------------------------------------------------------------------

// A sentence of `TEXT` that each game says its own way (its pieces, its dice).
export function said(table) { return table[board.layout.game] || table.parcheesi; }
export function isLudo() { return board.layout.game === "ludo"; }

// Each seat's color as its index in the board layout.
export function colorOf(seat) {
  return board.layout.colors.findIndex((c) => c.name === seat.color);
}
export function seatsColors(v) { return v.seats.map(colorOf); }
export function seatsNames(v) { return v.seats.map((s) => s.name); }
export function nameOf(v, seat) { return v.seats[seat].name; }
export function isBot(v, seat) { return !!v.seats[seat].bot; }

// A piece in words: whose (`who`, of color index `c`), which (`k`, from 0) and where (`p`, its
// progress, or its place on a board of shared places); null when the board can't say where.
function pieceWords(who, c, k, p) {
  const where = whereIs(c, p);
  return where && said(TEXT.pieceAt)(who, TEXT.color(board.layout.colors[c].name), k + 1, where);
}

// Where a piece of color index `c` at `p` stands, as its game's move labels name places.
function whereIs(c, p) {
  const layout = board.layout;
  if (p < 0) return said(TEXT.atBase)();
  if (layout.places) {  // Red Arse: places are the same for every color
    if (p === layout.center) return TEXT.inCenter();
    const owner = layout.colors.findIndex((o) => o.homes && o.homes.includes(p));
    if (owner < 0) return layout.center === undefined ? null : TEXT.inHole(p + 1);
    const n = layout.colors[owner].homes.indexOf(p) + 1;
    return TEXT.onPlace(owner === c ? _("home slot %(n)s", { n })
      : _(OTHER_HOME_SLOT[layout.colors[owner].name], { n }));
  }
  const numbers = layout.colors[c].numbers;
  if (!numbers) return null;  // a layout from before the numbers (cached): no words
  if (p === layout.home_progress) return said(TEXT.atHome)();
  if (p < numbers.length) return TEXT.onSquare(numbers[p]);
  const n = p - numbers.length + 1;
  return TEXT.onPlace(isLudo() ? _("home column %(n)s", { n }) : _("home row %(n)s", { n }));
}

// -- the status line, the dice, the feed ----------------------------------------------------------

export function say(text, isError = false) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("error", isError);
}

// The dice, as faces with pips; the pool left to play under two dice. Dice that were tumbling
// (rollDice) land on these faces.
export function showDice(dice, pool) {
  const landed = tumbling !== null;
  clearInterval(tumbling);
  tumbling = null;
  const box = $("dice");
  box.replaceChildren();
  for (const d of dice) box.appendChild(dieFace(d, landed ? "die landed" : "die"));
  if (landed && dice.length) play("dice");
  if (pool && pool.length && dice.length > 1) {  // one die: nothing more to say
    const left = document.createElement("span");
    left.className = "pool";
    left.textContent = TEXT.toPlay(pool);
    box.appendChild(left);
  }
}

// The dice tumble (and rattle) from the tap on Roll until their faces are known (showDice):
// nothing waits for them, and they wait for nothing. Under reduced motion they stay blank.
export function rollDice() {
  const n = board.layout.game === "parcheesi" ? 2 : 1;
  const box = $("dice");
  const still = reducedMotion();
  const faces = () => box.replaceChildren(...Array.from({ length: n }, () =>
    dieFace(still ? null : 1 + Math.floor(Math.random() * 6), "die rolling")));
  clearInterval(tumbling);
  faces();
  tumbling = still ? 0 : setInterval(faces, TUMBLE_MS);
  play("roll");
}

let tumbling = null;  // the dice's tumbling timer while they roll
const TUMBLE_MS = 80;  // a new face this often
// Where a face's pips stand on a 3 x 3 grid (1 top left ... 9 bottom right).
const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9],
  6: [1, 3, 4, 6, 7, 9] };

// A die showing `d` (null: blank), read out as its number; a tumbling one isn't read out.
function dieFace(d, className) {
  const face = document.createElement("span");
  face.className = className;
  if (d === null) return face;
  face.dataset.value = d;
  if (className.includes("rolling")) face.setAttribute("aria-hidden", "true");
  else {
    face.setAttribute("role", "img");
    face.setAttribute("aria-label", String(d));
  }
  for (const n of PIPS[d]) {
    const pip = document.createElement("i");
    pip.className = `pip p${n}`;
    face.appendChild(pip);
  }
  return face;
}

// A line at the top of the feed; `color`: the color name of the seat it is about (a swatch).
export function addFeed(text, color = null) {
  const item = document.createElement("li");
  item.textContent = text;
  if (color) item.dataset.color = color;
  $("feed").prepend(item);
  return item;
}

// Seats (other than `seat`) with more pieces back home after a move than before it.
export function sentBack(before, after, seat) {
  return [...new Set(taken(before, after, seat).map(([s]) => s))];
}

// The pieces (other than `seat`'s) back home after a move that weren't before it: [seat, piece].
function taken(before, after, seat) {
  const back = [];
  after.forEach((list, s) => list.forEach((p, k) => {
    if (s !== seat && p === -1 && before[s] && before[s][k] !== -1) back.push([s, k]);
  }));
  return back;
}

// The feed's lines for what a move by `seat` to `to` did: pieces it sent back, and in Ludo the
// goal and the placings it brought. `v` is the game after the move (its placings).
export function outcomeLines(v, seat, to, kills, mine = null) {
  const who = nameOf(v, seat);
  const lines = kills.map((whom) => said(TEXT.sentBack)(who, nameOf(v, whom)));
  if (!isLudo() || to !== board.home) return lines;
  lines.push(TEXT.reachedGoal(who));
  const place = v.placed.indexOf(seat) + 1;
  const before = mine ? mine.every((p) => p === board.home) : false;
  if (place && !before && v.pieces[seat].every((p) => p === board.home)) {
    lines.push(TEXT.finished(who, place));
    if (v.phase === "over" && place === v.placed.length - 1) {
      const last = v.placed[v.placed.length - 1];
      lines.push(TEXT.lastPlace(nameOf(v, last), v.placed.length));
    }
  }
  return lines;
}

// -- a move shown: the piece hops, what it takes bursts, a piece home gets a star ---------------

// Starts showing `seat`'s move `m` on the board (`ms` a square; 0, or reduced motion: none):
// the flight (board.fly), or null. What it takes is only known with the game after it: knock.
export function startMove(v, seat, m, ms) {
  const c = colorOf(v.seats[seat]);
  const flight = board.fly(seat, m.piece, c, board.pathPoints(m, c), m.to, ms);
  const homes = board.layout.colors[c].homes;
  if (m.to === board.home || (homes && homes.includes(m.to))) board.cheer(flight, c);
  return flight;
}

// The pieces `flight`'s move took, from the pieces before it and after it: they burst where
// they stood when it lands (call before drawing `after`).
export function knock(flight, before, after, seat) {
  board.knock(flight, taken(before, after, seat));
}

// -- the moves on offer ---------------------------------------------------------------------------

// The legal moves of the seat to move, on the board: a landing spot plays its move (`play`;
// where several land on one spot, the player chooses among them), and a piece shows its moves
// alone (`select(progress)`; `selected`, the piece shown so).
export function offerMoves(v, selected, play, select) {
  const pick = (moves) => (moves.length === 1 ? play(moves[0]) : whichMove(moves, play));
  board.showMoves(v.legal, colorOf(v.seats[v.turn]), pick, selected);
  for (const node of board.pieceNodes) {
    if (+node.dataset.seat !== v.turn) continue;
    const progress = +node.dataset.progress;
    if (v.legal.some((m) => m.from === progress)) {
      node.classList.add("movable");
      node.setAttribute("tabindex", "0");
      const piece = +node.dataset.piece;
      const words = pieceWords(nameOf(v, v.turn), colorOf(v.seats[v.turn]), piece, progress);
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", words ? TEXT.showMovesOf(words)
        : said(TEXT.showMoves)(piece + 1));
      node.setAttribute("aria-pressed", String(selected === progress));
      activate(node, () => select(progress));
    }
  }
}

// Several moves land on one spot: a button for each, in words.
function whichMove(moves, play) {
  const box = $("choices");
  box.replaceChildren();
  const label = document.createElement("p");
  label.textContent = TEXT.whichMove();
  box.appendChild(label);
  for (const m of moves) {
    const button = document.createElement("button");
    button.textContent = m.label;
    button.addEventListener("click", () => play(m));
    box.appendChild(button);
  }
  box.hidden = false;
}

// -- replay -----------------------------------------------------------------------------------

// `v` names the seats (the game the replay belongs to). Bots' moves go at the chosen bot speed
// (read at each step, so a change applies at once); "instant" places them without animation.
// `after(step)` is called once the move that step played is shown (the chances that follow it;
// a roll's are the next move's to show). Skipped, or not to
// `watch` (a reload mid-turn), every event still gets its feed lines. A move hopping already
// (the player's own, since the tap) is the flight `shown(event)` gives: it isn't shown twice.
export async function replay(r, v, after = () => {}, watch = true, shown = () => null) {
  if (!r || !r.events.length) return;
  let skipped = !watch;  // skipped: every event's feed lines all the same, nothing shown
  const waiting = new Set();  // the pauses under way: a skip ends them at once
  const pause = (ms) => (skipped ? Promise.resolve() : new Promise((resolve) => {
    const done = () => { clearTimeout(timer); waiting.delete(done); resolve(); };
    const timer = setTimeout(done, ms);
    waiting.add(done);
  }));
  let wake;
  const woken = new Promise((resolve) => { wake = resolve; });  // a flight isn't waited for
  finishReplay = () => {
    skipped = true;
    for (const done of [...waiting]) done();
    board.cancelFlights();
    wake();
  };
  $("skip").hidden = skipped;
  $("skip").onclick = () => finishReplay();
  const colors = seatsColors(v);
  const names = seatsNames(v);
  if (watch) board.place(r.pieces, colors, names);
  let drawn = r.pieces;  // the pieces as the replay has drawn them
  const decided = new Set(v.decisions.map(([step]) => step));
  let previous = null;
  const ownFrom = lastTurnStart(r.events, v.turn);
  for (const [i, event] of r.events.entries()) {
    const step = r.start + i;  // in the game
    const who = nameOf(v, event.seat);
    const bot = isBot(v, event.seat);
    // A turn played for an absent player (after its deadline): said once, at its start.
    if (event.auto && !(previous && previous.auto && previous.seat === event.seat)) {
      addFeed(TEXT.playedFor(who), v.seats[event.seat].color).classList.add("auto");
    }
    previous = event;
    const items = eventLines(v, event).map((line) => {
      const item = addFeed(line, v.seats[event.seat].color);
      if (bot) { item.classList.add("bot"); item.dataset.tag = TEXT.botTag(); }
      if (event.auto) item.classList.add("auto");
      if (event.forced) {
        item.classList.add("forced");
        item.dataset.tag = TEXT.forcedTag();
        item.title = TEXT.forcedWhy();
      }
      return item;
    });
    if (event.kind === "move" && decided.has(step)) markDecision(items[0], v, step);
    if (skipped) continue;
    played(v, event, step);
    // What nobody chose goes at the bots' pace; the viewer's own roll tumbles as if tapped.
    const own = i >= ownFrom;
    const pace = bot || event.auto || (event.forced && !own) ? BOT_SPEEDS[speedOf()] : 1;
    if (event.kind === "roll") {
      board.light(event.seat, colors);  // the name of who rolls
      if (pace) {
        if (tumbling === null) rollDice();  // this phone's own roll tumbles since the tap
        await pause(250 * pace);
      }
      showDice(event.dice);
      say(TEXT.rolled(who, event.dice));
      if (pace) await pause(250 * pace);
    } else if (event.kind === "move") {
      const flight = shown(event) || (pace ? startMove(v, event.seat, event, HOP_MS * pace) : null);
      knock(flight, drawn, event.pieces, event.seat);
      board.place(event.pieces, colors, names, event.seat);
      if (flight) await Promise.race([flight.done, woken]);
      else if (pace) {  // no motion (reduced): the same pause, the piece already there
        await pause(HOP_MS * pace * Math.max(1, board.pathPoints(event, colors[event.seat]).length - 1));
      }
      if (pace) await pause(200 * pace);
    } else {
      say(TEXT.reroll(who, event.kind === "claim"));
      if (pace) await pause(300 * pace);
    }
    if (event.pieces) drawn = event.pieces;
    if (event.kind === "move") after(step + 1);
  }
  $("skip").hidden = true;
  finishReplay = () => {};
}

// Who else hears of each step the replay shows (access.js says it): `hear(v, event, step)`.
let played = () => {};
export function onPlayed(hear) { played = hear; }

// Ends the replay under way at once (every feed line written, the pieces where they end up):
// a tap anywhere does, so that the player's own move never waits for it.
export let finishReplay = () => {};

// Where the events of `seat`'s turn in progress begin (their number: the events' length when
// the last event isn't theirs).
function lastTurnStart(events, seat) {
  let i = events.length;
  while (i && events[i - 1].seat === seat) i--;
  return i;
}

// The replay cut to its last turn: the events of the last seat to play, from where they began.
export function lastTurn(r) {
  const events = r.events;
  let i = events.length;
  while (i && events[i - 1].seat === events[events.length - 1].seat) i--;
  return { ...r, start: r.start + i, pieces: i ? events[i - 1].pieces : r.pieces,
    events: events.slice(i) };
}

// The feed's lines for one event of the replay: the roll or move, then whom it sent back and
// whose home it raided.
export function eventLines(v, event) {
  const who = nameOf(v, event.seat);
  if (event.kind === "roll") {
    return [event.no_move ? TEXT.rolledNoMove(who, event.dice) : TEXT.rolledFeed(who, event.dice)];
  }
  if (event.kind === "claim" || event.kind === "miss") {
    return [TEXT.reroll(who, event.kind === "claim")];
  }
  if (event.kind !== "move") return [];
  const lines = [event.said];
  const owner = raided(v, event);
  if (owner !== null) lines.push(TEXT.raided(who, nameOf(v, owner)));
  // The placings a finishing move brought are the link's (v); the pieces are the event's.
  return lines.concat(outcomeLines({ ...v, pieces: event.pieces }, event.seat, event.to,
    event.kills || []));
}

// The seat whose home column a move turned into, when it isn't the mover's own.
function raided(v, event) {
  const cell = board.homeCell(event.to);
  if (!cell || board.homeCell(event.from) === cell) return null;
  if (cell.color === v.seats[event.seat].color) return null;
  const owner = v.seats.findIndex((s) => s.color === cell.color);
  return owner >= 0 ? owner : null;
}
