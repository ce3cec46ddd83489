// Draws a board from the layout the API gives (/api/boards/<game>) and places pieces on it.
// Player text never reaches innerHTML: everything is built with DOM calls.

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
    this.home = layout.home_progress;
    svg.setAttribute("viewBox", `-0.2 -0.2 ${layout.size + 0.4} ${layout.size + 0.4}`);
    svg.replaceChildren();
    const defs = el("defs", {}, svg);
    const marker = el("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: "8", refY: "5",
      markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" }, marker);
    this.drawBoard();
    this.arrowLayer = el("g", { class: "arrows" }, svg);
    this.pieceLayer = el("g", { class: "pieces" }, svg);
    this.spotLayer = el("g", { class: "spots" }, svg);
  }

  drawBoard() {
    const g = el("g", { class: "board" }, this.svg);
    const size = this.layout.size;
    el("rect", { x: 0, y: 0, width: size, height: size, class: "felt" }, g);
    this.layout.colors.forEach((color, c) => {
      const [nx, ny] = color.nest[0];
      el("rect", { x: nx - 2.1, y: ny - 2.1, width: 7.2, height: 7.2, rx: 0.6,
        class: "nest", fill: color.fill }, g);
      color.path.slice(this.layout.home_path_start).forEach(([x, y]) =>
        el("rect", { x: x + 0.05, y: y + 0.05, width: 0.9, height: 0.9, class: "homepath",
          fill: color.fill }, g));
      const [hx, hy] = color.home;
      el("circle", { cx: hx + 0.5, cy: hy + 0.5, r: 0.9, class: "homespot", fill: color.fill }, g);
    });
    for (const sq of this.layout.squares) {
      const entry = sq.entry !== null ? ` entry-${this.layout.colors[sq.entry].name}` : "";
      el("rect", { x: sq.x + 0.05, y: sq.y + 0.05, width: 0.9, height: 0.9,
        class: `square${sq.safe ? " safe" : ""}${entry}` }, g);
      if (sq.safe) el("circle", { cx: sq.x + 0.5, cy: sq.y + 0.5, r: 0.32, class: "safering" }, g);
    }
  }

  // Where a piece of seat color `c` stands at `progress` (cell centre), before stacking.
  spot(c, progress, piece = 0) {
    const color = this.layout.colors[c];
    if (progress < 0) return color.nest[piece];
    if (progress >= this.home) {
      const [hx, hy] = color.home;
      return [hx + (piece % 2) * 0.5 - 0.25 + 0.5, hy + Math.floor(piece / 2) * 0.5 - 0.25 + 0.5];
    }
    const [x, y] = color.path[progress];
    return [x + 0.5, y + 0.5];
  }

  // Draw every piece; `seats` gives each seat's color index.
  place(pieces, seats) {
    this.pieceLayer.replaceChildren();
    this.pieceNodes = [];
    const stacks = new Map();
    pieces.forEach((list, s) => list.forEach((p, k) => {
      let [x, y] = this.spot(seats[s], p, k);
      if (p >= 0 && p < this.home) {
        const key = `${x},${y}`;
        const n = stacks.get(key) || 0;
        stacks.set(key, n + 1);
        if (n) { x += 0.2; y += 0.2; }
        else if (countAt(pieces, seats, this, x, y) > 1) { x -= 0.2; y -= 0.2; }
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
      const points = [];
      for (let p = m.from; p <= m.to; p++) {
        points.push(this.spot(c, p, m.piece));
      }
      if (m.from < 0) points[0] = this.spot(c, -1, m.piece);
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
        tabindex: "0", role: "button", "aria-label": spot.moves.map((m) => m.label).join(" or ") },
        this.spotLayer);
      activate(node, () => onSpot(spot.moves));
    }
  }

  // Slide a piece from one progress to another, one square at a time.
  async animate(s, k, c, from, to, ms = 90) {
    const node = this.pieceNodes.find((n) => +n.dataset.seat === s && +n.dataset.piece === k);
    if (!node) return;
    const steps = [];
    if (from < 0 || to < from) steps.push(this.spot(c, to, k));
    else for (let p = from + 1; p <= to; p++) steps.push(this.spot(c, p, k));
    for (const [x, y] of steps) {
      node.setAttribute("cx", x);
      node.setAttribute("cy", y);
      await sleep(ms);
    }
  }
}

function countAt(pieces, seats, board, x, y) {
  let n = 0;
  pieces.forEach((list, s) => list.forEach((p, k) => {
    if (p >= 0 && p < board.home) {
      const [px, py] = board.spot(seats[s], p, k);
      if (px === x && py === y) n++;
    }
  }));
  return n;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A tap, a click, or Enter / Space on a focused board element.
export function activate(node, action) {
  node.addEventListener("click", action);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); action(); }
  });
}
