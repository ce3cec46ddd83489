// The finished game's graph: each player's chance to win where each turn began, one line per
// player in their color, drawn in SVG with DOM methods only (names are never markup). Point k
// is the position after turn k (point 0: the game's start); the Missteps and Blunders of a turn
// are marked on its player's line at the point after it. A tap (or the arrow keys: the graph is
// a slider) picks a turn, and `onSelect(k)` shows its review (review.js).

const NS = "http://www.w3.org/2000/svg";
// The viewBox (static/css/app.css sizes the graph by its width: 320 units is about a 360 px
// phone's width, so a unit is about a CSS pixel there).
export const WIDTH = 320;
export const HEIGHT = 150;
const LEFT = 40;  // room for "100 %" (Spanish writes a space before the sign)
const RIGHT = 8;
const TOP = 8;
const BOTTOM = 20;
const PLOT_W = WIDTH - LEFT - RIGHT;
const PLOT_H = HEIGHT - TOP - BOTTOM;

function svgEl(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

const round1 = (n) => Math.round(n * 10) / 10;

// The graph in `svg`: `course` ([step, seat, chances in percents] per point), `seats` (each
// with its color name), `marks` ([point, seat, grade] of each Misstep and Blunder), `selected`
// (a point or null), `text` (the words: percent(n), turn(k, total), axis()).
export function drawCourse(svg, { course, seats, marks, selected, text }) {
  const n = course.length;
  const x = (k) => round1(LEFT + (n > 1 ? (PLOT_W * k) / (n - 1) : 0));
  const y = (p) => round1(TOP + (PLOT_H * (100 - p)) / 100);
  svg.replaceChildren();
  const grid = svgEl("g", { class: "grid", "aria-hidden": "true" }, svg);
  for (const p of [0, 25, 50, 75, 100]) {
    svgEl("line", { x1: LEFT, x2: WIDTH - RIGHT, y1: y(p), y2: y(p),
      class: p === 0 ? "axis" : "rule" }, grid);
    if (p % 50 === 0) {
      const label = svgEl("text", { x: LEFT - 4, y: y(p) + 3.5, class: "ylabel" }, grid);
      label.textContent = text.percent(p);
    }
  }
  const first = svgEl("text", { x: LEFT, y: HEIGHT - 5, class: "xlabel start" }, grid);
  first.textContent = "0";
  const middle = svgEl("text", { x: LEFT + PLOT_W / 2, y: HEIGHT - 5, class: "xlabel mid" }, grid);
  middle.textContent = text.axis();
  const last = svgEl("text", { x: WIDTH - RIGHT, y: HEIGHT - 5, class: "xlabel end" }, grid);
  last.textContent = String(Math.max(1, n - 1));

  const lines = svgEl("g", { class: "lines" }, svg);
  seats.forEach((seat, s) => {
    const points = course.map(([, , chances], k) => `${x(k)},${y(chances[s])}`).join(" ");
    svgEl("polyline", { points, class: "halo" }, lines);
    svgEl("polyline", { points, class: `line ${seat.color}`, "data-seat": s }, lines);
  });
  const flags = svgEl("g", { class: "marks" }, svg);
  for (const [k, seat, grade] of marks) {
    if (k < n) svgEl("circle", { cx: x(k), cy: y(course[k][2][seat]), r: 3.6,
      class: `mark ${grade}`, "data-point": k }, flags);
  }
  if (selected !== null && selected < n) {
    const cursor = svgEl("g", { class: "cursor" }, svg);
    svgEl("line", { x1: x(selected), x2: x(selected), y1: TOP, y2: TOP + PLOT_H }, cursor);
    seats.forEach((seat, s) => {
      svgEl("circle", { cx: x(selected), cy: y(course[selected][2][s]), r: 3,
        class: `dot ${seat.color}` }, cursor);
    });
  }
  svg.setAttribute("aria-valuemin", n > 1 ? 1 : 0);
  svg.setAttribute("aria-valuemax", Math.max(0, n - 1));
  svg.setAttribute("aria-valuenow", selected === null ? 0 : selected);
  svg.dataset.points = n;
}

// The point nearest a tap at `clientX` on `svg` with `n` points (never the start: a point is
// the turn that led to it).
export function pointAt(svg, clientX, n) {
  const box = svg.getBoundingClientRect();
  const unit = ((clientX - box.left) / box.width) * WIDTH;
  const k = Math.round(((unit - LEFT) / PLOT_W) * (n - 1));
  return Math.min(n - 1, Math.max(1, k));
}

// Taps and keys on the graph `svg`: `select(k)` with the point picked; `count()` the points
// drawn, `current()` the point selected (or null).
export function listen(svg, { count, current, select }) {
  svg.addEventListener("click", (event) => {
    if (count() > 1) select(pointAt(svg, event.clientX, count()));
  });
  svg.addEventListener("keydown", (event) => {
    const n = count();
    if (n < 2) return;
    const at = current() ?? 0;
    const next = { ArrowRight: at + 1, ArrowUp: at + 1, ArrowLeft: at - 1, ArrowDown: at - 1,
      Home: 1, End: n - 1, PageUp: at + 10, PageDown: at - 10 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(Math.min(n - 1, Math.max(1, next)));
  });
}

// The graph as a table a screen reader walks row by row: for each turn (point k), who played it
// and everyone's chance to win after it. `table` has a thead and a tbody; `text` as drawCourse's,
// with `turnHead()` and `playerHead()` (the first columns' headers).
export function drawCourseTable(table, { course, seats, text }) {
  if (!table) return;
  const cell = (tag, content, scope = null) => {
    const node = document.createElement(tag);
    node.textContent = content;
    if (scope) node.scope = scope;
    return node;
  };
  const head = document.createElement("tr");
  head.append(cell("th", text.turnHead(), "col"), cell("th", text.playerHead(), "col"),
    ...seats.map((seat) => cell("th", seat.name, "col")));
  table.tHead.replaceChildren(head);
  table.tBodies[0].replaceChildren(...course.slice(1).map(([, , chances], i) => {
    const row = document.createElement("tr");
    row.append(cell("th", String(i + 1), "row"), cell("td", seats[course[i][1]].name),
      ...chances.map((p) => cell("td", text.percent(p))));
    return row;
  }));
}
