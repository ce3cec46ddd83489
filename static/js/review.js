// Chance to win, move review and the game's stats, asked of the server by this page: one
// position (/chances) or one decision (/review) per request, never in the turn's answer nor
// carried in the link (docs/analysis.md, "Where the work runs"). The answers depend only on the
// position: the server keeps each for every phone (a sent turn's may be worked out before anyone
// asks), and this page keeps them too, in memory by URL, and reviews and the game's luck in
// this browser's localStorage by game and step, so nothing is asked twice. The luck is one
// request for the whole game (/luck: measured by a static evaluation, no playouts). The mover's page asks
// for the reviews of its moves as soon as the turn is sent (markDecision). Each answer has a
// budget on the server: a review may leave options it couldn't reach "not graded" (the move
// played is graded first), and a server whose analysis is full answers 202 ("being worked
// out") with Retry-After, which is waited out as long as it takes (a minute or two at most). The finished game's review draws the
// game's course (course.js: each player's chance to win turn by turn, from the luck's answer)
// and its stats, with numbers in the page's language: the page carries Babel's decimal symbol
// and percent pattern for its locale (game.html's #gamereview), since the figures are worked out
// here, from the reviews as they come in.

import { waitFor } from "./api.js";
import { N_, _, lang } from "./i18n.js";
import { Board, seatLabel } from "./board.js";

const GRADES = { good: N_("Good"), misstep: N_("Misstep"), blunder: N_("Blunder") };
const TEXT = {
  grade: (grade) => (grade ? _(GRADES[grade]) : _("Not graded")),
  reviewing: () => _("Reviewing…"),
  progress: (done, total) => _("Reviewing the game: %(done)s of %(total)s moves",
    { done, total }),
  failed: (error) => _("The review stopped: %(error)s", { error }),
  lost: (points) => _("%(points)s points lost", { points: decimal(points) }),
  better: (move) => _("Better: %(move)s", { move }),
  missed: (what) => _("Missed: %(what)s", { what }),
  and: (list, last) => _("%(list)s and %(last)s", { list, last }),
  points: (points) => _("%(points)s points", { points }),
  luck: (points) => _("%(points)s points a roll", { points }),
  board: () => _("The better move on the board, and faint the move played, where the pieces stood."),
  axis: () => _("Turns"),
  turn: (k, total) => _("Turn %(turn)s of %(total)s", { turn: k, total }),
  after: () => _("Chance to win after it:"),
  nochoice: () => _("No choice between moves in this turn."),
  bots: () => _("Bots' moves aren't graded."),
};

// Numbers as Babel writes them in the page's locale (data-decimal, data-percent on
// #gamereview; English's without it).
function numbers() {
  const box = document.getElementById("gamereview");
  return { decimal: (box && box.dataset.decimal) || ".",
    percent: (box && box.dataset.percent) || "%(n)s%" };
}
const decimal = (n) => n.toFixed(1).replace(".", numbers().decimal);
const percent = (n) => numbers().percent.replace("%(n)s", String(n));
const signed = (n) => (n > 0 ? `+${decimal(n)}` : n < 0 ? `−${decimal(-n)}` : decimal(0));

// Requests at once (reviews and the luck; the pills go on their own): as many as the server
// says (#gamereview's data-at-once: one client's share of its analysis places, or more on
// Lambda, where each request has an instance of its own), and over HTTP/1.1 four at most: the
// browser opens six connections to a host, and the player's own requests (a rematch, the
// pills) must never wait behind a review being worked out.
const HTTP1 = performance.getEntriesByType("navigation")[0]?.nextHopProtocol === "http/1.1";
const PARALLEL = Math.min(HTTP1 ? 4 : Infinity,
  Number(document.getElementById("gamereview")?.dataset.atOnce) || 2);
const $ = (id) => document.getElementById(id);

// `task()` once fewer than PARALLEL run, in the order asked.
let running = 0;
const waiting = [];
function limited(task) {
  return new Promise((resolve, reject) => {
    waiting.push(() => task().then(resolve, reject));
    pump();
  });
}
function pump() {
  while (running < PARALLEL && waiting.length) {
    running += 1;
    waiting.shift()().finally(() => { running -= 1; pump(); });
  }
}

function stored(key) {
  try { return JSON.parse(localStorage.getItem(key) || "null"); } catch { return null; }
}
function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* full: memory only */ }
}

// A game's steps are the same in all its links; a Ludo player joining changes the positions.
const gameKey = (v) => `${v.seed}:${v.seats.length}`;

// `compute()` once per key: kept in memory, and in localStorage when `keep`.
const known = new Map();
function once(key, keep, compute) {
  if (!known.has(key)) {
    const kept = stored(key);
    const answer = keep(kept) ? Promise.resolve(kept) : limited(compute).then((value) => {
      store(key, value);
      return value;
    });
    known.set(key, answer.catch((error) => { known.delete(key); throw error; }));
  }
  return known.get(key);
}

// -- chance to win: the pills by each base ----------------------------------------------------

export const chancesAt = (token, step) => `/api/games/${token}/chances?step=${step}`;
export const chancesAfter = (token, steps) =>
  `/api/games/${token}/chances?steps=${encodeURIComponent(JSON.stringify(steps))}`;

// One request at a time: a newer position supersedes one still waiting, and an answer for a
// position no longer shown is kept but not drawn.
const chances = new Map();  // URL -> each seat's chance
let wanted = null;          // { url, draw } of the position shown
let asking = false;

// Draw each seat's chance at `url` on `board` (`colors`: each seat's color index); the pills
// dim while it is computed.
export function showChances(board, colors, url) {
  const draw = (list, pending) => board.showChances(colors, list, pending);
  if (chances.has(url)) {
    wanted = null;
    draw(chances.get(url), false);
    return;
  }
  wanted = { url, draw };
  draw(null, true);
  ask();
}

async function ask() {
  if (asking || !wanted) return;
  const { url } = wanted;
  asking = true;
  let list = null;
  try {
    list = (await waitFor(url, () => !wanted || wanted.url !== url)).chances;
    chances.set(url, list);
  } catch {
    // No pills rather than an error: the game goes on without them.
  } finally {
    asking = false;
  }
  if (wanted && wanted.url === url) {
    const { draw } = wanted;
    wanted = null;
    draw(list, false);
  }
  ask();
}

// -- move review ------------------------------------------------------------------------------

// The review of the person's decision at `step` of the game `v`, as the page keeps it: the move
// played (label, its feed line `said`, grade, points lost, what it missed next to the best),
// the best move's label, and where the pieces stood with both moves (the review's board).
// A move the server's budget didn't reach has a null grade and loss ("not graded"); the server
// grades the move played first, so that is rare.
export function reviewOf(v, step) {
  return once(`boardpass:review:${gameKey(v)}:${step}`,
    (kept) => kept && kept.lang === lang && kept.said && "pieces" in kept,
    async () => {
      const r = await waitFor(`/api/games/${v.token}/review?step=${step}&lang=${lang}`);
      const played = r.options.find((o) => o.index === r.played);
      const best = r.options.find((o) => o.index === r.best);
      return { lang, step: r.step, seat: r.seat, grade: played.grade, loss: played.loss,
        label: played.label, said: played.said, best: best.label, reasons: played.reasons,
        missed: played.missed || [], pieces: r.pieces || null,
        moves: { played: drawn(played), best: drawn(best) } };
    });
}

// What the board needs to draw an option's move.
const drawn = ({ piece, from, to, path }) => ({ piece, from, to, path });

// Each player's luck over the game `v` (its link), in points of chance to win, with the rolls
// it came from, and the game's course (each seat's chance to win where each turn began: the
// graph), from one answer.
function luckOf(v) {
  const steps = v.turns[v.turns.length - 1][0];
  return once(`boardpass:luck:${gameKey(v)}:${steps}`,
    (kept) => kept && Array.isArray(kept.luck) && Array.isArray(kept.rolls) &&
      Array.isArray(kept.course),
    async () => {
      const { luck, rolls, course } = await waitFor(`/api/games/${v.token}/luck`);
      return { luck, rolls, course: course || [] };
    });
}

// Luck per roll, to one decimal: on the graph's scale (points of chance to win), where a
// whole game's sum runs past 100 in a long game.
const perRoll = ({ luck, rolls }) =>
  luck.map((sum, seat) => (rolls[seat] ? Math.round((10 * sum) / rolls[seat]) / 10 : 0));

// Grade a feed line (a person's move at `step` of `v`): "Reviewing…", then Good, Misstep,
// Blunder or Not graded (a chip drawn by CSS from data-grade-label: the line's own text stays
// the move). `fill(review)` may complete the line once the review is in (its move's label).
export function markDecision(item, v, step, fill = null) {
  item.dataset.step = step;
  chip(item, "pending", TEXT.reviewing());
  reviewOf(v, step).then((r) => {
    if (fill) fill(r);
    chip(item, r.grade || "ungraded", TEXT.grade(r.grade));
  }, () => {
    delete item.dataset.grade;
    delete item.dataset.gradeLabel;
  });
}

function chip(item, grade, text) {
  item.dataset.grade = grade;
  item.dataset.gradeLabel = text;
}

// -- the finished game: its review, stats and the all-time count ------------------------------

let shown = null;  // the finished game's link whose review is on the page
let graphs = null;  // course.js, loaded once a game is over (a game in play never needs it)

// The end of the game `v` (its final link), or nothing (`v` null): every person's missteps and
// blunders, the stats table, and the all-time wins of its players in this browser.
export function showGameReview(v) {
  const box = $("gamereview");
  box.hidden = !v;
  if (!v || shown === v.token) return;
  shown = v.token;
  selected = null;
  focus = null;
  Promise.all([import("./alltime.js"), import("./course.js")]).then(([alltime, course]) => {
    graphs = course;
    const names = v.seats.map((s) => s.name);
    alltime.countGame(v.seed, names, names[v.placed.length ? v.placed[0] : v.winner]);
    alltime.fillTable($("alltime").querySelector("tbody"), alltime.allTime(names));
    reviewGame(v);
  });
}

let selected = null;  // the point of the graph picked (a turn), or null
let focus = null;  // the step of the misstep or blunder tapped in the list, or null

async function reviewGame(v) {
  const reviews = new Map();   // step -> the review of the decision there
  let luck = null;             // each seat's luck, once in
  let course = null;           // the game's course (the graph's points), once in
  let failure = null;
  let queued = false;
  // Drawn once a frame, however many answers came in it: a game's hundred-odd reviews, each
  // drawing the whole review, kept a phone's main thread busy for seconds.
  const draw = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      drawStats(v, reviews, luck);
      drawMissteps(v, reviews, course);
      drawProgress(v, reviews, failure);
      drawGraph(v, reviews, course);
      drawTurn(v, reviews, course);
    });
  };
  const graph = $("course");
  if (graph && !graph.dataset.listening) {
    graph.dataset.listening = "1";
    graphs.listen(graph, {
      count: () => Number(graph.dataset.points || 0),
      current: () => selected,
      select: (k) => { selected = k; focus = null; if (redraw) redraw(); },
    });
  }
  redraw = draw;
  draw();
  // The luck first (one quick answer: the graph with it), then the reviews.
  const jobs = [
    luckOf(v).then((answer) => { luck = perRoll(answer); course = answer.course; }),
    ...v.decisions.map(([step]) => reviewOf(v, step).then((r) => reviews.set(step, r))),
  ].map((job) => job.then(draw));
  const results = await Promise.allSettled(jobs);
  const failed = results.find((r) => r.status === "rejected");
  if (failed) {
    failure = failed.reason.message;
    draw();
  }
}

let redraw = null;  // draws the review on the page again (a point picked on the graph)
let tabled = null;  // the course the graph's table was drawn from

function drawProgress(v, reviews, failure) {
  const line = $("reviewprogress");
  line.classList.toggle("error", !!failure);
  if (failure) line.textContent = TEXT.failed(failure);
  else line.textContent = TEXT.progress(reviews.size, v.decisions.length);
  // It lies over the graph, which keeps its room: nothing below it moves when it goes.
  line.classList.toggle("idle", !failure && reviews.size === v.decisions.length);
}

// One row per player: [accuracy, points lost per move, missteps, blunders, captures missed,
// luck], each null while unknown (still being reviewed). Accuracy is the share of the player's
// graded moves that were Good; the points lost per move, the mean over them of the points of
// chance to win each gave up (docs/analysis.md, "The finished game's review"). Bots' moves
// aren't graded ("—"), but the dice are theirs as much as anyone's: their luck is shown.
const COLUMNS = [
  { best: Math.max, text: (n) => percent(n) },
  { best: Math.min, text: (n) => TEXT.points(decimal(n)) },
  { best: Math.min }, { best: Math.min }, { best: Math.min },
  { best: Math.max, text: (n) => TEXT.luck(signed(n)) },
];

function playerStats(v, reviews, luck, seat) {
  const lucky = luck ? luck[seat] : null;
  if (v.seats[seat].bot) return [...COLUMNS.slice(1).map(() => "—"), lucky];
  const steps = v.decisions.filter(([, s]) => s === seat).map(([step]) => step);
  const mine = steps.map((step) => reviews.get(step));
  if (mine.some((r) => !r)) return [...COLUMNS.slice(1).map(() => null), lucky];
  const count = (test) => mine.filter(test).length;
  const graded = count((r) => r.grade);  // moves not graded count in no column
  const lost = mine.reduce((sum, r) => sum + (r.loss || 0), 0);
  return [
    graded ? Math.round((100 * count((r) => r.grade === "good")) / graded) : "—",
    graded ? Math.round((10 * lost) / graded) / 10 : "—",
    count((r) => r.grade === "misstep"),
    count((r) => r.grade === "blunder"),
    count((r) => r.missed.includes("capture")),
    lucky,
  ];
}

function drawStats(v, reviews, luck) {
  const rows = v.seats.map((_seat, seat) => playerStats(v, reviews, luck, seat));
  // Gold leads a column once all of it is known, and only where players differ.
  const leads = COLUMNS.map((column, c) => {
    const values = rows.map((row) => row[c]);
    const numbers = values.filter((n) => typeof n === "number");
    if (values.includes(null) || new Set(numbers).size < 2) return null;
    return column.best(...numbers);
  });
  const body = $("stats").querySelector("tbody");
  body.replaceChildren();
  // Each figure's name on its cell too: on a phone the rows are cards, without the header.
  const labels = [...$("stats").querySelectorAll("thead th")].slice(1).map((th) => th.textContent);
  rows.forEach((row, seat) => {
    const tr = document.createElement("tr");
    tr.dataset.seat = seat;
    tr.appendChild(nameCell(v, seat));
    row.forEach((value, c) => {
      const cell = document.createElement("td");
      cell.dataset.label = labels[c];
      const text = COLUMNS[c].text || String;
      cell.textContent = value === null ? "…" : typeof value === "number" ? text(value) : value;
      if (typeof value === "number" && value === leads[c]) cell.classList.add("lead");
      tr.appendChild(cell);
    });
    body.appendChild(tr);
  });
}

function nameCell(v, seat) {
  const cell = document.createElement("th");
  cell.scope = "row";
  cell.append(...seatLabel(v.seats[seat]));
  return cell;
}

// Every misstep and blunder, in the order played: who, the move, its grade and cost, the better
// play and what the move missed next to it. A tap on one goes to its turn on the graph (once
// the game's `course` is in), where the board shows the better move.
function drawMissteps(v, reviews, course) {
  const list = $("mistakes");
  list.replaceChildren();
  for (const [step, seat] of v.decisions) {
    const r = reviews.get(step);
    if (!r || !r.grade || r.grade === "good") continue;
    const item = document.createElement("li");
    item.dataset.step = step;
    item.dataset.grade = r.grade;
    const go = document.createElement("button");
    go.type = "button";
    go.addEventListener("click", () => { if (course && course.length > 1) goTo(step, course); });
    const what = document.createElement("span");
    const grade = document.createElement("span");
    grade.className = `grade ${r.grade}`;
    grade.textContent = TEXT.grade(r.grade);
    const lost = document.createElement("span");
    lost.className = "lost";
    lost.textContent = TEXT.lost(r.loss);
    what.append(...seatLabel(v.seats[seat]), `: ${r.label} `, grade, " ", lost);
    go.append(what, betterLine(r, "span"));
    item.append(go);
    list.appendChild(item);
  }
  const done = reviews.size === v.decisions.length;
  $("nomistakes").hidden = !(done && !list.childElementCount);
}

// The turn of the decision at `step` picked on the graph, its review shown with the board.
function goTo(step, course) {
  focus = step;
  selected = pointAfter(course, step);
  if (redraw) redraw();
  $("course").closest("figure").scrollIntoView({ block: "start" });
}

// "Better: the best move · Missed: what this one missed next to it", in a `tag` element.
function betterLine(r, tag = "p") {
  const better = document.createElement(tag);
  better.className = "better";
  better.textContent = TEXT.better(r.best);
  if (r.reasons.length) better.append(" · ", TEXT.missed(inWords(r.reasons)));
  return better;
}

// -- the graph, and the review of the turn picked on it --------------------------------------

// Which point of the course follows the decision at `step`: the first turn to begin after it.
function pointAfter(course, step) {
  const k = course.findIndex(([start]) => start > step);
  return k < 0 ? course.length - 1 : k;
}

function drawGraph(v, reviews, course) {
  const svg = $("course");
  if (!svg) return;
  const box = svg.closest("figure");
  if (box) box.classList.toggle("empty", !course || course.length < 2);
  if (!course || course.length < 2) return;
  const marks = [];
  for (const [step, seat] of v.decisions) {
    const r = reviews.get(step);
    if (r && (r.grade === "misstep" || r.grade === "blunder")) {
      marks.push([pointAfter(course, step), seat, r.grade]);
    }
  }
  graphs.drawCourse(svg, { course, seats: v.seats, marks, selected,
    text: { percent, axis: TEXT.axis } });
  if (tabled !== course) {  // the table is the course's alone: drawn once it is in
    tabled = course;
    graphs.drawCourseTable($("coursetable"), { course, seats: v.seats,
      text: { percent, turnHead: () => _("Turn"), playerHead: () => _("Played by") } });
  }
  const legend = $("courselegend");
  if (legend && !legend.childElementCount) {
    legend.append(...v.seats.map((seat) => {
      const item = document.createElement("li");
      item.append(...seatLabel(seat));
      return item;
    }));
  }
  if (selected !== null) {
    svg.setAttribute("aria-valuetext", `${TEXT.turn(selected, course.length - 1)}: ${
      v.seats.map((seat, s) => `${seat.name} ${percent(course[selected][2][s])}`).join(", ")}`);
  }
}

// The turn picked on the graph: who played it, everyone's chance to win after it, and the
// review of each choice its player made (grade, points lost, the better move and what this one
// missed), or why there is none.
function drawTurn(v, reviews, course) {
  const panel = $("turnreview");
  if (!panel || selected === null || !course || selected >= course.length) return;
  const [start, seat] = course[selected - 1];
  const end = course[selected][0];
  const head = document.createElement("p");
  head.className = "turnhead";
  const title = document.createElement("strong");
  title.textContent = TEXT.turn(selected, course.length - 1);
  head.append(title, " · ", ...seatLabel(v.seats[seat]));
  const odds = document.createElement("p");
  odds.className = "turnodds";
  odds.append(TEXT.after());
  v.seats.forEach((other, s) => {
    const each = document.createElement("span");
    each.append(...seatLabel(other), ` ${percent(course[selected][2][s])}`);
    odds.append(" ", each);
  });
  const moves = document.createElement("ul");
  moves.className = "turnmoves";
  const here = v.decisions.filter(([d]) => d >= start && d < end).map(([d]) => d);
  const wrong = here.filter((d) => ["misstep", "blunder"].includes((reviews.get(d) || {}).grade));
  const pictured = wrong.includes(focus) ? focus : wrong[0];
  for (const step of here) {
    const item = document.createElement("li");
    item.dataset.step = step;
    const r = reviews.get(step);
    const what = document.createElement("p");
    if (!r) {
      what.textContent = TEXT.reviewing();
    } else {
      const grade = document.createElement("span");
      grade.className = `grade ${r.grade || "ungraded"}`;
      grade.textContent = TEXT.grade(r.grade);
      what.append(`${r.label} `, grade);
      if (r.grade && r.grade !== "good") {
        const lost = document.createElement("span");
        lost.className = "lost";
        lost.textContent = TEXT.lost(r.loss);
        what.append(" ", lost);
      }
    }
    item.append(what);
    if (r && r.grade && r.grade !== "good") item.append(betterLine(r));
    if (step === pictured) item.append(...betterBoard(v, r));
    moves.appendChild(item);
  }
  const parts = [head, odds];
  if (moves.childElementCount) parts.push(moves);
  else {
    const none = document.createElement("p");
    none.className = "hint";
    none.textContent = v.seats[seat].bot ? TEXT.bots() : TEXT.nochoice();
    parts.push(none);
  }
  panel.dataset.point = selected;
  panel.replaceChildren(...parts);
}

// The review's board: a picture of a position (no taps), made once, with its caption.
let picture = null;

// The position before the decision `r` on the review's board, with the better move drawn and
// the one played faint (nothing when the answer has no position: one kept from before).
function betterBoard(v, r) {
  const sent = $("layout");
  if (!sent || !r.pieces || !r.moves) return [];
  if (!picture) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.id = "reviewboard";
    svg.setAttribute("role", "img");
    const figure = document.createElement("figure");
    figure.className = "reviewboard";
    const caption = document.createElement("figcaption");
    caption.className = "hint";
    caption.textContent = TEXT.board();
    figure.append(svg, caption);
    picture = { figure, board: new Board(svg, JSON.parse(sent.textContent), { taps: false }) };
  }
  const { board } = picture;
  const colors = v.seats.map((seat) => board.layout.colors.findIndex((c) => c.name === seat.color));
  board.place(r.pieces, colors, v.seats.map((seat) => seat.name), r.seat);
  board.showPlay([{ move: r.moves.played, kind: "played" }, { move: r.moves.best, kind: "better" }],
    colors[r.seat]);
  board.svg.setAttribute("aria-label", TEXT.better(r.best));
  return [picture.figure];
}

function inWords(list) {
  if (list.length < 2) return list.join("");
  return TEXT.and(list.slice(0, -1).join(", "), list[list.length - 1]);
}
