// Draws a board from the layout the API gives (/api/boards/<game>) and places pieces on it.
// Player text never reaches innerHTML: everything is built with DOM calls.

import { _ } from "./i18n.js";
import { play, reducedMotion } from "./motion.js";

const SVG = "http://www.w3.org/2000/svg";

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export class Board {
  // `taps`: the page's board, where taps go (tapTarget); a picture of a position (the review's)
  // takes none.
  constructor(svg, layout, { taps = true } = {}) {
    this.svg = svg;
    this.layout = layout;
    this.home = layout.home_progress;  // null when pieces never share a Home spot (Red Arse)
    svg.setAttribute("viewBox", layout.view.join(" "));
    svg.classList.toggle("holes", !!layout.places);
    svg.dataset.game = layout.game;
    svg.replaceChildren();
    const defs = el("defs", {}, svg);
    // The arrows' lines are hidden inside the landing rings (a black circle per ring, drawn
    // by showMoves), so a ring's middle shows what is there, not a line end.
    const [vx, vy, vw, vh] = layout.view;
    this.maskId = taps ? "spotmask" : `spotmask-${svg.id}`;  // one id per page
    this.mask = el("mask", { id: this.maskId, maskUnits: "userSpaceOnUse", x: vx, y: vy,
      width: vw, height: vh }, defs);
    this.drawBoard();
    this.arrowLayer = el("g", { class: "arrows" }, svg);
    this.pieceLayer = el("g", { class: "pieces" }, svg);
    this.spotLayer = el("g", { class: "spots" }, svg);
    this.nameLayer = el("g", { class: "names", "aria-hidden": "true" }, svg);
    this.chanceLayer = el("g", { class: "chances" }, svg);
    this.fxLayer = el("g", { class: "fx", "aria-hidden": "true" }, svg);
    this.chances = null;  // the chances drawn last, kept dimmed while newer ones come
    this.names = null;  // each seat's player's name, as place() was last given them
    this.turn = null;  // the seat to move (its name by its nest is highlighted)
    this.flights = new Map();  // "seat:piece" -> a piece in the air (fly)
    this.plates = new Map();  // where each color's name and pill go, by name width (plate)
    this.describe = null;  // (name, color index, piece, progress) -> a piece in words, or null
    this.clearMoves();
    if (taps) current = this;  // the board taps go to (tapTarget)
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

  // Draw every piece; `seats` gives each seat's color index and `names` its player's name.
  // Pieces sharing a spot are drawn side by side (Ludo lets any number share a square). Each
  // piece is named for screen readers, whose it is and where (the page's `describe`).
  // A piece in the air (fly) stays hidden where it is drawn until it lands.
  place(pieces, seats, names = this.names, turn = this.turn) {
    this.pieceLayer.replaceChildren();
    this.pieceNodes = [];
    const renamed = JSON.stringify(names) !== JSON.stringify(this.names) || turn !== this.turn;
    this.names = names;
    this.turn = turn;
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
      const label = names && this.describe ? this.describe(names[s], seats[s], k, p) : null;
      if (label) {
        node.setAttribute("role", "img");
        node.setAttribute("aria-label", label);
      }
      // A piece in the air stays hidden; drawn where its flight goes, it shows once it lands.
      const flight = this.flights.get(`${s}:${k}`);
      if (flight && flight.to === p) flight.placed = true;
      if (flight && !(flight.landed && flight.placed)) node.classList.add("aloft");
      this.pieceNodes.push(node);
    }));
    for (const flight of [...this.flights.values()]) {
      if (flight.landed && flight.placed) this.ground(flight);
    }
    if (renamed || !this.nameLayer.firstChild) this.showNames(seats);
  }

  // The name of `turn` (to move) lit by its nest; `seats` gives each seat's color index.
  light(turn, seats) {
    if (turn === this.turn) return;
    this.turn = turn;
    this.showNames(seats);
  }

  nodeOf(s, k) {
    return (this.pieceNodes || []).find((n) => +n.dataset.seat === s && +n.dataset.piece === k);
  }

  // Each player's name by their nest, the player to move's filled with their color.
  showNames(seats) {
    this.nameLayer.replaceChildren();
    if (!this.names) return;
    seats.forEach((c, s) => {
      if (c < 0 || this.names[s] === undefined) return;
      const [x, y] = this.plate(c, this.names[s]).name;
      const color = this.layout.colors[c].fill;
      // The player to move's name on their color, in white or, on a light color, in ink.
      const cls = s !== this.turn ? "nestname" : light(color) ? "nestname tomove ink" : "nestname tomove";
      const g = el("g", { class: cls, "data-seat": s }, this.nameLayer);
      const rect = el("rect", { y: y - NAME_H / 2, height: NAME_H, rx: NAME_H / 2,
        stroke: color, ...(s === this.turn ? { fill: color } : {}) }, g);
      const text = el("text", { x, y, "text-anchor": "middle",
        "dominant-baseline": "central" }, g);
      text.textContent = shortName(this.names[s]);
      // Measured once drawn; a board not shown yet (no layout) gets an estimate.
      const w = 0.5 + (text.getComputedTextLength() || NAME_EM * text.textContent.length);
      rect.setAttribute("x", x - w / 2);
      rect.setAttribute("width", w);
    });
  }

  // -- motion: pieces that hop, a burst where one is taken or comes home (motion.js) -------------

  // Moves piece `k` of seat `s` (color index `c`) along `points` (board coordinates) to
  // progress `to`, a hop a square, `ms` each: a copy of it hops above the board, and the piece
  // itself stays hidden, wherever place() draws it meanwhile, until the copy has landed and
  // place() has drawn the piece at `to`. Returns the flight, whose `done` resolves on landing;
  // null without motion (the piece is simply drawn where it goes).
  fly(s, k, c, points, to, ms) {
    if (reducedMotion() || !ms || points.length < 2) return null;
    this.ground(this.flights.get(`${s}:${k}`));  // the same piece still in the air lands now
    const node = this.nodeOf(s, k);
    const [x0, y0] = node ? [+node.getAttribute("cx"), +node.getAttribute("cy")] : points[0];
    const ghost = el("circle", { cx: x0, cy: y0, r: 0.36, class: "ghost",
      fill: this.layout.colors[c].fill, "data-seat": s, "data-piece": k }, this.fxLayer);
    if (node) node.classList.add("aloft");
    const flight = { s, k, to, ghost, landed: false, placed: false, onLand: [] };
    this.flights.set(`${s}:${k}`, flight);
    flight.done = (async () => {
      try {
        for (const [x, y] of points.slice(1)) {
          if (flight.landed) return;
          ghost.setAttribute("cx", x);
          ghost.setAttribute("cy", y);
          ghost.animate([{ transform: "scale(1)" }, { transform: "scale(1.35)", offset: 0.4 },
            { transform: "scale(1)" }], { duration: ms, easing: "ease-out" });
          play("hop");
          await sleep(ms);
        }
      } finally {
        this.land(flight);
      }
    })();
    return flight;
  }

  // A flight lands: what waited for it happens (a capture, a piece home); once place() has drawn
  // the piece where it went, the piece shows and its copy goes.
  land(flight) {
    if (!flight || flight.landed) return;
    flight.landed = true;
    for (const then of flight.onLand) then();
    if (flight.placed) this.ground(flight);
  }

  // A flight ends: its copy goes and the piece shows where place() drew it (unless a newer
  // flight of the same piece has taken over).
  ground(flight) {
    if (!flight) return;
    if (!flight.landed) this.land(flight);
    flight.ghost.remove();
    const key = `${flight.s}:${flight.k}`;
    if (this.flights.get(key) !== flight) return;
    this.flights.delete(key);
    const node = this.nodeOf(flight.s, flight.k);
    if (node) node.classList.remove("aloft");
  }

  // The server refused the move whose piece is in the air (`flight`): its copy goes, nothing it
  // would have done happens, and the piece shows where place() draws it. Without a flight:
  // every one (undo).
  cancelFlights(flight = null) {
    for (const f of flight ? [flight] : [...this.flights.values()]) {
      f.onLand = [];
      f.landed = true;  // landed with nothing to do: ground() only ends it
      this.ground(f);
    }
  }

  // When `flight` lands, the pieces it takes (`taken`: [seat, piece] pairs, still drawn where
  // they stood) burst there, and reappear where place() then draws them (their base).
  knock(flight, taken) {
    if (!flight) return;
    for (const [s, k] of taken) {
      const node = this.nodeOf(s, k);
      if (!node) continue;
      const [x, y] = [+node.getAttribute("cx"), +node.getAttribute("cy")];
      const fill = node.getAttribute("fill");
      const copy = el("circle", { cx: x, cy: y, r: 0.36, class: "ghost taken", fill }, this.fxLayer);
      const stand = { s, k, to: -1, ghost: copy, landed: false, placed: false, onLand: [] };
      node.classList.add("aloft");
      this.flights.set(`${s}:${k}`, stand);
      afterLanding(flight, () => {
        this.burst(x, y, fill, "capture");
        copy.classList.add("popped");
        play("capture");
        setTimeout(() => this.ground(stand), POP_MS);
      });
    }
  }

  // When `flight` lands on the piece's last place (Home, the goal, a home slot): a star bursts.
  cheer(flight, color) {
    if (!flight) return;
    afterLanding(flight, () => {
      const [x, y] = [+flight.ghost.getAttribute("cx"), +flight.ghost.getAttribute("cy")];
      this.burst(x, y, this.layout.colors[color].fill, "home");
      play("home");
    });
  }

  // A ring (capture) or a star (home) at (x, y) that grows and fades, then goes.
  burst(x, y, fill, kind) {
    const node = kind === "home"
      ? el("polygon", { points: star(x, y, 0.9, 0.4), class: "burst home", fill }, this.fxLayer)
      : el("circle", { cx: x, cy: y, r: 0.45, class: "burst capture", stroke: fill },
        this.fxLayer);
    setTimeout(() => node.remove(), BURST_MS);
  }

  clearMoves() {
    this.arrowLayer.replaceChildren();
    this.spotLayer.replaceChildren();
    const [vx, vy, vw, vh] = this.layout.view;
    this.mask.replaceChildren();
    el("rect", { x: vx, y: vy, width: vw, height: vh, fill: "white" }, this.mask);
  }

  // Dotted arrows along the path of each legal move, and a tappable landing spot where it ends.
  // A spot is a hollow ring with a crosshair (nothing like a piece, a filled disc), no wider
  // than leaves room for an arrowhead between it and the next spot; lines stop at its edge and
  // arrowheads just outside it. Taps near a spot reach it too (tapTarget).
  showMoves(moves, c, onSpot, selected = null) {
    this.clearMoves();
    const spots = new Map();
    const arrows = [];
    for (const m of moves) {
      const points = this.pathPoints(m, c);
      const dim = selected !== null && selected !== m.from;
      const [x, y] = points[points.length - 1];
      const key = `${x},${y}`;
      arrows.push({ points, dim, key });
      if (!dim) {
        if (!spots.has(key)) spots.set(key, { x, y, moves: [] });
        spots.get(key).moves.push(m);
      }
    }
    // A piece of the mover's that can move and stands where a spot is (another piece can join
    // it) steps aside, as a second piece there would: both then get the taps nearer to them.
    const fill = this.layout.colors[c].fill;
    const from = new Set(moves.map((m) => String(m.from)));
    for (const node of this.pieceNodes || []) {
      if (node.getAttribute("fill") !== fill || !from.has(node.dataset.progress)) continue;
      const [x, y] = [+node.getAttribute("cx"), +node.getAttribute("cy")];
      if (!spots.has(`${x},${y}`)) continue;
      node.setAttribute("cx", x - 0.2);  // where place() draws the first of two pieces
      node.setAttribute("cy", y - 0.2);
    }
    const list = [...spots.values()];
    for (const spot of list) {
      // Parcheesi's Home spots stand half a square apart: theirs are smaller.
      const gap = Math.min(...list.filter((o) => o !== spot)
        .map((o) => Math.hypot(o.x - spot.x, o.y - spot.y)));
      spot.r = Math.max(0.1, Math.min(SPOT_R, gap / 2 - SPOT_CLEAR));
      el("circle", { cx: spot.x, cy: spot.y, r: spot.r + SPOT_CLEAR, fill: "black" }, this.mask);
    }
    for (const { points, dim, key } of arrows) {
      const cls = dim ? " dim" : "";
      el("polyline", { points: points.map((pt) => pt.join(",")).join(" "), class: `arrow${cls}`,
        mask: `url(#${this.maskId})` }, this.arrowLayer);
      const back = (spots.has(key) ? spots.get(key).r : SPOT_R) + SPOT_CLEAR;
      el("polygon", { points: arrowhead(points, back), class: `arrowhead${cls}` },
        this.arrowLayer);
    }
    for (const spot of list) {
      const { x, y, r } = spot;
      el("circle", { cx: x, cy: y, r, class: "halo" }, this.spotLayer);
      const node = el("circle", { cx: x, cy: y, r, class: "landing",
        tabindex: "0", role: "button", "aria-label": spot.moves.map((m) => m.label)
          .reduce((a, b) => _("%(a)s or %(b)s", { a, b })) },
        this.spotLayer);
      const t = r * 0.55;  // the crosshair's ticks, from the ring halfway in
      const d = `M${x - r},${y}h${t}M${x + r},${y}h${-t}M${x},${y - r}v${t}M${x},${y + r}v${-t}`;
      el("path", { d, class: "reticle" }, this.spotLayer);
      activate(node, () => onSpot(spot.moves));
    }
  }

  // Moves drawn, not offered: each `{ move, kind }` an arrow along its path to a ring where it
  // ends, classed by `kind` (the review's "better" move and the one "played"), for color `c`.
  showPlay(moves, c) {
    this.clearMoves();
    for (const { move, kind } of moves) {
      const points = this.pathPoints(move, c);
      const [x, y] = points[points.length - 1];
      el("circle", { cx: x, cy: y, r: SPOT_R, class: `target ${kind}` }, this.spotLayer);
      el("polyline", { points: points.map((pt) => pt.join(",")).join(" "),
        class: `arrow ${kind}` }, this.arrowLayer);
      el("polygon", { points: arrowhead(points, SPOT_R + SPOT_CLEAR),
        class: `arrowhead ${kind}` }, this.arrowLayer);
    }
  }

  // Each seat's chance to win (0..1) as a pill by its base, under its name; `seats` gives each
  // seat's color index. `pending`: newer chances are on their way, and the last ones drawn dim
  // ("…" for none); no chances and nothing pending: no pills.
  showChances(seats, chances, pending = false) {
    this.chanceLayer.replaceChildren();
    if (chances) this.chances = chances;
    const shown = chances || (pending && this.chances && this.chances.length === seats.length
      ? this.chances : null);
    if (!shown && !pending) return;
    seats.forEach((c, s) => {
      if (c < 0) return;
      const text = shown && typeof shown[s] === "number" ? `${Math.round(shown[s] * 100)}%` : "…";
      const [x, y] = this.plate(c, this.names ? this.names[s] : null).pill;
      const w = 0.5 + 0.36 * text.length;
      const g = el("g", { class: pending ? "chance pending" : "chance", "data-seat": s }, this.chanceLayer);
      if (this.names && this.names[s] !== undefined) {  // read out whole, not as a bare "33%"
        g.setAttribute("role", "img");
        g.setAttribute("aria-label", _("%(who)s's chance to win: %(chance)s",
          { who: this.names[s], chance: text }));
      }
      el("rect", { x: x - w / 2, y: y - PILL_H / 2, width: w, height: PILL_H, rx: PILL_H / 2,
        stroke: this.layout.colors[c].fill }, g);
      el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central" }, g)
        .textContent = text;
    });
  }

  // Where color `c`'s name and pill go: { name: centre, pill: centre }. Name over pill amid
  // its base's spots when they leave room (the square nests), else beside the base where they
  // stand clearest of every hole, square and base spot; where nothing beside it is clear (a
  // small nest hemmed in by the track), side by side between its rows of spots.
  plate(c, name = null) {
    const nameHalf = name ? (0.5 + NAME_EM * [...shortName(name)].length) / 2 : PILL_HALF_W;
    const key = `${c}:${nameHalf}`;
    if (this.plates.has(key)) return this.plates.get(key);
    const base = this.layout.colors[c].base;
    const cx = base.reduce((sum, p) => sum + p[0], 0) / base.length;
    const cy = base.reduce((sum, p) => sum + p[1], 0) / base.length;
    // Spots, not areas: a nest's panel may lie under the name.
    const taken = this.layout.cells.filter((cell) => typeof cell.x === "number" &&
      !["panel", "disc", "polygon"].includes(cell.shape)).map((cell) => [cell.x, cell.y])
      .concat(this.layout.colors.flatMap((color) => color.base));
    const [vx, vy, vw, vh] = this.layout.view;
    // How far a box (left, right, top, bottom) stays from the nearest spot's centre; -Infinity
    // when it leaves the board.
    const clearance = (x0, x1, y0, y1) => (x0 < vx || x1 > vx + vw || y0 < vy || y1 > vy + vh
      ? -Infinity : Math.min(...taken.map(([px, py]) =>
        Math.max(x0 - px, px - x1, y0 - py, py - y1))));
    const halfW = Math.max(nameHalf, PILL_HALF_W);
    const stacked = (x, y) => clearance(x - halfW, x + halfW, y - PLATE_HALF_H, y + PLATE_HALF_H);
    let spot = [cx, cy];
    let clearest = stacked(cx, cy);
    if (clearest < SPOT_CLEARANCE) {
      for (const r of [1, 1.5, 1.9, 2.3, 2.7, 3.1, 3.5]) {
        for (let k = 0; k < 36; k++) {
          const x = cx + r * Math.cos((k * Math.PI) / 18);
          const y = cy + r * Math.sin((k * Math.PI) / 18);
          const clear = stacked(x, y);
          if (clear > clearest + 0.05) { clearest = clear; spot = [x, y]; }
        }
        if (clearest >= SPOT_CLEARANCE) break;  // the nearest ring with room will do
      }
    }
    let placed = { name: [spot[0], spot[1] - NAME_DY], pill: [spot[0], spot[1] + PILL_DY] };
    const row = clearance(cx - ROW_GAP / 2 - 2 * nameHalf, cx + ROW_GAP / 2 + 2 * PILL_HALF_W,
      cy - PILL_H / 2, cy + PILL_H / 2);
    if (clearest < SPOT_CLEARANCE && row > clearest) {
      placed = { name: [cx - ROW_GAP / 2 - nameHalf, cy], pill: [cx + ROW_GAP / 2 + PILL_HALF_W, cy] };
    }
    this.plates.set(key, placed);
    return placed;
  }
}

const PILL_H = 0.84;  // a chance pill's height, in board units
// A name by its nest: its height, how far above the middle of name and pill it stands, the
// width of a letter (about); the pill stands below, half as wide as "100%" at most. The two
// stand clear of every spot by a piece's radius and more.
const NAME_H = 0.7, NAME_DY = 0.4, NAME_EM = 0.3, PILL_DY = 0.45, PILL_HALF_W = 0.97;
const PLATE_HALF_H = PILL_DY + PILL_H / 2, SPOT_CLEARANCE = 0.45;
const ROW_GAP = 0.15;  // between name and pill side by side
const POP_MS = 350, BURST_MS = 700;  // a taken piece's pop, a burst's life (app.css)
// A landing ring's radius, and how far beyond it arrows stop (its white halo and a hair): two
// rings a square apart leave 1 - 2 * (0.3 + 0.11) = 0.18 for the arrowhead between them.
const SPOT_R = 0.3, SPOT_CLEAR = 0.11;
const HEAD_L = 0.17, HEAD_W = 0.24;  // an arrowhead's length and width

// -- taps ---------------------------------------------------------------------------------------
// Pieces and spots are drawn 10 to 20 CSS px wide on a phone, too small for a thumb. So a tap
// anywhere within HIT_PX / 2 of a target's centre (a HIT_PX square, in CSS px whatever the
// board's scale) reaches it, and where two targets' squares overlap the nearer one gets it.
// Listeners on the document do this (a tap beside a piece at the board's edge falls outside the
// svg); a target's own node only answers the keyboard (activate).

const HIT_PX = 48;  // Material's 48 dp; above Apple's 44 pt minimum
const SLOP_PX = 10;  // a pointer that moved further between down and up scrolled: no tap
const ACTIONS = new WeakMap();  // target node -> what tapping it does
const CONTROLS = "a, button, input, select, textarea, summary, label";
let current = null;  // the page's board

// The target (a landing spot or a movable piece's node) a tap at client point (x, y) reaches,
// given the element under it; null when none. Exported so the tests measure what taps do.
export function tapTarget(x, y, element) {
  if (!current || !element || element.closest(CONTROLS)) return null;
  const ctm = current.svg.getScreenCTM();
  if (!ctm) return null;  // the board isn't shown
  let best = null, nearest = Infinity;
  // Document order puts spots after pieces: on a tie (a spot on a piece) the spot wins.
  for (const node of current.svg.querySelectorAll(".piece.movable, .landing")) {
    if (!ACTIONS.has(node)) continue;
    const c = new DOMPoint(+node.getAttribute("cx"), +node.getAttribute("cy")).matrixTransform(ctm);
    const dx = Math.abs(x - c.x), dy = Math.abs(y - c.y);
    if (dx > HIT_PX / 2 || dy > HIT_PX / 2) continue;
    const d = Math.hypot(dx, dy);
    if (d <= nearest) { best = node; nearest = d; }
  }
  return best;
}

// Taps are read from pointer events, not clicks: a phone's browser moves a tap's click onto an
// element it guesses was meant (Chrome's touch adjustment), not always the target nearest the
// finger. The click that follows a tap played here is swallowed, so nothing plays it twice.
let down = null;  // where the primary pointer went down
let pointed = false;  // a pointer went down since the last click
let played = false;  // a tap was played since: its click is not for anyone else
document.addEventListener("pointerdown", (event) => {
  down = event.isPrimary ? [event.clientX, event.clientY] : null;
  pointed = true;
  played = false;
});
document.addEventListener("pointercancel", () => { down = null; pointed = false; });
document.addEventListener("pointerup", (event) => {
  if (!down || !event.isPrimary || event.button !== 0) return;
  const [x, y] = [event.clientX, event.clientY];
  const moved = Math.hypot(x - down[0], y - down[1]) > SLOP_PX;
  down = null;
  const node = moved ? null : tapTarget(x, y, document.elementFromPoint(x, y));
  if (!node) return;
  played = true;
  ACTIONS.get(node)();
});
document.addEventListener("click", (event) => {
  const byPointer = pointed;
  pointed = false;
  if (played && event.detail !== 0) {  // detail 0: made by the keyboard, never a tap's click
    played = false;
    event.preventDefault();
    event.stopPropagation();
  } else if (!byPointer && ACTIONS.has(event.target)) {
    // A click no pointer made, on a target: a screen reader activating it.
    ACTIONS.get(event.target)();
  }
}, true);

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

// A move's arrowhead: its tip `back` short of the path's end (along the path), pointing on.
function arrowhead(points, back) {
  let [x, y] = points[points.length - 1];
  let [ux, uy] = [0, 1];  // a path of no length: pointing down onto the spot
  for (let i = points.length - 2; i >= 0; i--) {
    const [px, py] = points[i];
    const len = Math.hypot(x - px, y - py);
    if (!len) continue;
    [ux, uy] = [(x - px) / len, (y - py) / len];
    if (len >= back) { x -= ux * back; y -= uy * back; break; }
    back -= len;
    [x, y] = [px, py];
  }
  const [bx, by] = [x - ux * HEAD_L, y - uy * HEAD_L];
  const [nx, ny] = [-uy * HEAD_W / 2, ux * HEAD_W / 2];
  return [[x, y], [bx + nx, by + ny], [bx - nx, by - ny]]
    .map(([px, py]) => `${px.toFixed(3)},${py.toFixed(3)}`).join(" ");
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

// `then` once `flight` has landed: now, if it has.
function afterLanding(flight, then) {
  if (flight.landed) then(); else flight.onLand.push(then);
}

// Whether ink reads better than white on the color `hex` ("#rrggbb"): WCAG's contrast ratios.
function light(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (luminance + 0.05) / 0.062 > 1.05 / (luminance + 0.05);  // ink's luminance: 0.012
}

// A name short enough to stand by a nest: a long one ends in "…".
function shortName(name) {
  const chars = [...name];
  return chars.length > 9 ? `${chars.slice(0, 8).join("")}…` : name;
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

// Makes a board element a target: a tap on or near it (tapTarget), or Enter / Space when it
// has the focus.
export function activate(node, action) {
  ACTIONS.set(node, action);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); action(); }
  });
}
