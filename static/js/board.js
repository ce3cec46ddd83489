// Draws a board from the layout the API gives (/api/boards/<game>) and places pieces on it.
// Player text never reaches innerHTML: everything is built with DOM calls.

import { _ } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export class Board {
  constructor(svg, layout) {
    this.svg = svg;
    this.layout = layout;
    this.home = layout.home_progress;  // null when pieces never share a Home spot (Red Arse)
    svg.setAttribute("viewBox", layout.view.join(" "));
    svg.classList.toggle("holes", !!layout.places);
    svg.dataset.game = layout.game;
    svg.replaceChildren();
    const defs = el("defs", {}, svg);
    const marker = el("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: "8", refY: "5",
      markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" }, marker);
    this.drawBoard();
    this.arrowLayer = el("g", { class: "arrows" }, svg);
    this.pieceLayer = el("g", { class: "pieces" }, svg);
    this.spotLayer = el("g", { class: "spots" }, svg);
    this.chanceLayer = el("g", { class: "chances" }, svg);
    this.chances = null;  // the chances drawn last, kept dimmed while newer ones come
  }

  fillOf(name) {
    const color = this.layout.colors.find((c) => c.name === name);
    return color ? color : { fill: "none", tint: "none" };
  }

  drawBoard() {
    const g = el("g", { class: "board" }, this.svg);
    const [vx, vy, vw, vh] = this.layout.view;
    el("rect", { x: vx, y: vy, width: vw, height: vh, class: "felt" }, g);
    if (this.layout.outline) {
      el("polygon", { points: this.layout.outline.map((p) => p.join(",")).join(" "),
        class: "outline" }, g);
    }
    for (const cell of this.layout.cells) this.drawCell(g, cell);
  }

  drawCell(g, cell) {
    const { x, y, kind } = cell;
    const color = this.fillOf(cell.color);
    const place = cell.place === null || cell.place === undefined ? {} : { "data-place": cell.place };
    if (cell.shape === "panel") {
      el("rect", { x: x - cell.w / 2, y: y - cell.h / 2, width: cell.w, height: cell.h, rx: 0.6,
        class: kind, fill: color.fill }, g);
    } else if (cell.shape === "disc") {
      el("circle", { cx: x, cy: y, r: cell.r, class: kind, fill: color.fill }, g);
    } else if (cell.shape === "polygon") {
      el("polygon", { points: cell.points.map((p) => p.join(",")).join(" "), class: kind,
        fill: color.fill, ...place }, g);
    } else if (cell.shape === "square") {
      const cls = kind === "home" ? "homepath" : `square${cell.safe ? " safe" : ""}${
        kind === "entry" ? ` entry-${cell.color}` : ""}`;
      // Squares of a slanted arm (the six-arm Ludo board) turn about their centre.
      const turn = cell.angle ? { transform: `rotate(${cell.angle} ${x} ${y})` } : {};
      el("rect", { x: x - 0.45, y: y - 0.45, width: 0.9, height: 0.9, class: cls, ...turn,
        ...(kind === "home" ? { fill: color.fill } : {}), ...place }, g);
      if (cell.star) el("polygon", { points: star(x, y, 0.4, 0.17), class: "safestar" }, g);
      else if (cell.safe) el("circle", { cx: x, cy: y, r: 0.32, class: "safering" }, g);
    } else if (kind === "inside") {
      el("polygon", { points: star(x, y, 0.56, 0.26), class: "star", ...place }, g);
      el("circle", { cx: x, cy: y, r: 0.24, class: "hole inside", ...place }, g);
    } else if (kind === "outside") {
      el("polygon", { points: [[x, y - 0.5], [x + 0.5, y], [x, y + 0.5], [x - 0.5, y]]
        .map((p) => p.join(",")).join(" "), class: "corner", ...place }, g);
      el("circle", { cx: x, cy: y, r: 0.28, class: "hole outside", ...place }, g);
    } else if (kind === "start") {
      el("polygon", { points: [[x, y - 0.5], [x + 0.5, y], [x, y + 0.5], [x - 0.5, y]]
        .map((p) => p.join(",")).join(" "), class: "corner", ...place }, g);
      el("circle", { cx: x, cy: y, r: 0.45, class: "startring", stroke: color.fill }, g);
      el("circle", { cx: x, cy: y, r: 0.24, class: "hole start", ...place }, g);
    } else {
      const r = kind === "center" ? 0.42 : 0.28;
      const attrs = { cx: x, cy: y, r, class: `hole ${kind}`, ...place };
      if (kind === "home" || kind === "base") { attrs.fill = color.tint; attrs.stroke = color.fill; }
      if (kind === "entry") attrs.stroke = color.fill;
      el("circle", attrs, g);
    }
  }

  // Where a piece of seat color `c` stands at position `p` (its centre), before stacking.
  spot(c, p, piece = 0) {
    const color = this.layout.colors[c];
    if (p < 0) return color.base[piece];
    if (this.layout.places) return this.layout.places[p];
    if (p >= this.home) {
      const [hx, hy] = color.home;
      return [hx + (piece % 2) * 0.5 - 0.25, hy + Math.floor(piece / 2) * 0.5 - 0.25];
    }
    return color.path[p];
  }

  // The home-column cell at a shared place (Red Arse), or null.
  homeCell(p) {
    if (!this.layout.places) return null;
    if (!this.homes) {
      this.homes = new Map(this.layout.cells.filter((c) => c.kind === "home")
        .map((c) => [c.place, c]));
    }
    return this.homes.get(p) || null;
  }

  // Pieces that can share a spot with others (and are then drawn side by side).
  shared(p) { return p >= 0 && (this.home === null || p < this.home); }

  // The points a move goes through: its `path` when the server gives one, else every step.
  pathPoints(m, c) {
    const path = m.path && m.path.length ? m.path : fallbackPath(m.from, m.to);
    return path.map((p) => this.spot(c, p, m.piece));
  }

  // Draw every piece; `seats` gives each seat's color index. Pieces sharing a spot are drawn
  // side by side (Ludo lets any number share a square).
  place(pieces, seats) {
    this.pieceLayer.replaceChildren();
    this.pieceNodes = [];
    const stacks = new Map();
    pieces.forEach((list, s) => list.forEach((p, k) => {
      let [x, y] = this.spot(seats[s], p, k);
      if (this.shared(p)) {
        const key = `${x},${y}`;
        const n = stacks.get(key) || 0;
        stacks.set(key, n + 1);
        if (n) {
          const [dx, dy] = STACK[(n - 1) % STACK.length];
          x += dx; y += dy;
        } else if (countAt(pieces, seats, this, x, y) > 1) { x -= 0.2; y -= 0.2; }
      }
      const node = el("circle", { cx: x, cy: y, r: 0.36, class: "piece",
        fill: this.layout.colors[seats[s]].fill, "data-seat": s, "data-piece": k,
        "data-progress": p }, this.pieceLayer);
      this.pieceNodes.push(node);
    }));
  }

  clearMoves() {
    this.arrowLayer.replaceChildren();
    this.spotLayer.replaceChildren();
  }

  // Dotted arrows along the path of each legal move, and a tappable spot where it lands.
  showMoves(moves, c, onSpot, selected = null) {
    this.clearMoves();
    const spots = new Map();
    for (const m of moves) {
      const points = this.pathPoints(m, c);
      const dim = selected !== null && selected !== m.from;
      el("polyline", { points: points.map((pt) => pt.join(",")).join(" "),
        class: dim ? "arrow dim" : "arrow", "marker-end": "url(#arrowhead)" }, this.arrowLayer);
      if (!dim) {
        const [x, y] = points[points.length - 1];
        const key = `${x},${y}`;
        if (!spots.has(key)) spots.set(key, { x, y, moves: [] });
        spots.get(key).moves.push(m);
      }
    }
    for (const spot of spots.values()) {
      const node = el("circle", { cx: spot.x, cy: spot.y, r: 0.48, class: "landing",
        tabindex: "0", role: "button", "aria-label": spot.moves.map((m) => m.label)
          .reduce((a, b) => _("%(a)s or %(b)s", { a, b })) },
        this.spotLayer);
      activate(node, () => onSpot(spot.moves));
    }
  }

  // Each seat's chance to win (0..1) as a pill by its base; `seats` gives each seat's color
  // index. `pending`: newer chances are on their way, and the last ones drawn dim ("…" for none);
  // no chances and nothing pending: no pills.
  showChances(seats, chances, pending = false) {
    this.chanceLayer.replaceChildren();
    if (chances) this.chances = chances;
    const shown = chances || (pending && this.chances && this.chances.length === seats.length
      ? this.chances : null);
    if (!shown && !pending) return;
    seats.forEach((c, s) => {
      if (c < 0) return;
      const text = shown && typeof shown[s] === "number" ? `${Math.round(shown[s] * 100)}%` : "…";
      const [x, y] = this.pillSpot(c);
      const w = 0.5 + 0.36 * text.length;
      const g = el("g", { class: pending ? "chance pending" : "chance", "data-seat": s }, this.chanceLayer);
      el("rect", { x: x - w / 2, y: y - PILL_H / 2, width: w, height: PILL_H, rx: PILL_H / 2,
        stroke: this.layout.colors[c].fill }, g);
      el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central" }, g)
        .textContent = text;
    });
  }

  // Where color `c`'s pill goes: amid its base's spots when they leave room (the square nests),
  // else beside the base, where it stands clearest of every hole, square and base spot.
  pillSpot(c) {
    this.pillSpots = this.pillSpots || new Map();
    if (this.pillSpots.has(c)) return this.pillSpots.get(c);
    const base = this.layout.colors[c].base;
    const cx = base.reduce((sum, p) => sum + p[0], 0) / base.length;
    const cy = base.reduce((sum, p) => sum + p[1], 0) / base.length;
    const gap = Math.min(...base.flatMap((p, i) => base.slice(i + 1)
      .map((q) => Math.hypot(p[0] - q[0], p[1] - q[1]))));
    let spot = [cx, cy];
    if (gap < 1.5) {
      const taken = this.layout.cells.filter((cell) => typeof cell.x === "number")
        .map((cell) => [cell.x, cell.y])
        .concat(this.layout.colors.flatMap((color) => color.base));
      const [vx, vy, vw, vh] = this.layout.view;
      let clearest = -Infinity;
      for (const r of [1.5, 1.9, 2.3]) {
        for (let k = 0; k < 24; k++) {
          const x = cx + r * Math.cos((k * Math.PI) / 12);
          const y = cy + r * Math.sin((k * Math.PI) / 12);
          if (x - 1 < vx || x + 1 > vx + vw || y - PILL_H < vy || y + PILL_H > vy + vh) continue;
          // How far the pill's box (about 2 x PILL_H) stays from the nearest spot.
          const clear = Math.min(...taken.map(([px, py]) =>
            Math.max(Math.abs(px - x) - 1, Math.abs(py - y) - PILL_H / 2)));
          if (clear > clearest + 0.05) { clearest = clear; spot = [x, y]; }
        }
      }
    }
    this.pillSpots.set(c, spot);
    return spot;
  }

  // Slide a piece along a move's path (or from one progress to another, a square at a time).
  async animate(s, k, c, move, ms = 90) {
    const node = this.pieceNodes.find((n) => +n.dataset.seat === s && +n.dataset.piece === k);
    if (!node) return;
    const steps = this.pathPoints({ ...move, piece: k }, c).slice(1);
    for (const [x, y] of steps) {
      node.setAttribute("cx", x);
      node.setAttribute("cy", y);
      await sleep(ms);
    }
  }
}

const PILL_H = 0.9;  // a chance pill's height, in board units

// Where the second, third... piece on a spot goes, from its centre (the first goes up-left).
const STACK = [[0.2, 0.2], [0.2, -0.2], [-0.2, 0.2], [0, 0]];

function countAt(pieces, seats, board, x, y) {
  let n = 0;
  pieces.forEach((list, s) => list.forEach((p, k) => {
    if (board.shared(p)) {
      const [px, py] = board.spot(seats[s], p, k);
      if (px === x && py === y) n++;
    }
  }));
  return n;
}

// Parcheesi's moves before paths were given: every progress from..to; entering and going back
// (a piece sent home) are one jump.
function fallbackPath(from, to) {
  if (from < 0 || to < from) return [from, to];
  const path = [];
  for (let p = from; p <= to; p++) path.push(p);
  return path;
}

// A five-pointed star's points around (x, y).
function star(x, y, outer, inner) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? inner : outer;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push(`${(x + r * Math.cos(a)).toFixed(3)},${(y + r * Math.sin(a)).toFixed(3)}`);
  }
  return points.join(" ");
}

// A seat as the page names it: its color's swatch and its name (as typed: text, never markup).
export function seatLabel(seat) {
  const swatch = document.createElement("span");
  swatch.className = `swatch ${seat.color}`;
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = seat.name;
  return [swatch, " ", name];
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A tap, a click, or Enter / Space on a focused board element.
export function activate(node, action) {
  node.addEventListener("click", action);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); action(); }
  });
}
