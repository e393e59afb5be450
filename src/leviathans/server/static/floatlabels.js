// Labels that stay readable at every zoom (War Fleet's board): each ship's name and each tag
// (the odds on a target) keeps its size on screen, and is laid out again whenever the zoom
// changes so that no two overlap, nor cover a counter: a name that cannot sit next to its
// counter (a stack of ships in one hex, a crowded zone) goes further out, in a column beside
// the group, with a leader line back to its counter; a tag sits beside its ship's name. The
// same ring of candidate spots is searched as for the drawing's own layout (render/labels.py).

const NS = "http://www.w3.org/2000/svg";
const GAP = 1.5;          // pixels on screen between two labels
const NAME_PX = 11;       // a name's font size on screen
const TAG_PX = 12;        // a tag's
const RINGS = 40;

function hits(a, b, gap = 0) {
  return !(a.x + a.w + gap <= b.x || b.x + b.w + gap <= a.x || a.y + a.h + gap <= b.y || b.y + b.h + gap <= a.y);
}

function inside(box, area) {
  return box.x >= area.x && box.y >= area.y && box.x + box.w <= area.x + area.w && box.y + box.h <= area.y + area.h;
}

function boxOf(b) { return { x: b.x, y: b.y, w: b.width, h: b.height }; }

// The spots around an anchor box, nearest first: below, above, right, left (a tag: right,
// left, below, above), ring after ring, and a column down and up each side (as
// render/labels.py's candidates).
function* candidates(a, w, h, gap, sideways) {
  const cx = a.x + a.w / 2, cy = a.y + a.h / 2;
  for (let ring = 0; ring < RINGS; ring++) {
    const d = gap + ring * (h + gap);
    const below = { x: cx - w / 2, y: a.y + a.h + d, w, h }, above = { x: cx - w / 2, y: a.y - d - h, w, h };
    const right = { x: a.x + a.w + d, y: cy - h / 2, w, h }, left = { x: a.x - d - w, y: cy - h / 2, w, h };
    for (const box of sideways ? [right, left, below, above] : [below, above, right, left]) yield [box, ring > 0];
    for (let k = 1; k <= ring + 1; k++) {
      const step = k * (h + gap);
      for (const [x, y] of [[a.x + a.w + d, cy - h / 2 + step], [a.x - d - w, cy - h / 2 + step],
        [a.x + a.w + d, cy - h / 2 - step], [a.x - d - w, cy - h / 2 - step]]) yield [{ x, y, w, h }, true];
    }
  }
}

// The floating labels of the drawing: the names, then the tags (each beside its ship's name,
// or its own anchor); each with the box of what it labels and whether that is one of a stack
// (a leader line always: the name says which counter).
function names(svg, counter) {
  const out = [];
  for (const t of svg.querySelectorAll("text.ship-name[data-ship]")) {
    const g = counter(t.dataset.ship);
    if (!g) continue;
    const body = g.querySelector("circle.body") || g;
    out.push({ node: t, anchor: boxOf(body.getBBox()), px: NAME_PX, stacked: Number(g.dataset.stack) > 1 });
  }
  return out;
}

function tags(svg) {
  return [...svg.querySelectorAll("text[data-anchor]")].map((t) => {
    const [x, y, w, h] = t.dataset.anchor.split(" ").map(Number);
    return { node: t, anchor: { x, y, w, h }, px: TAG_PX, stacked: false, beside: t.dataset.target };
  });
}

export function layoutLabels(svg, scale, area) {
  const counter = (name) => svg.querySelector(`g.ship[data-ship="${CSS.escape(name)}"]`);
  const list = [...names(svg, counter), ...tags(svg)];
  if (!list.length) return;
  // what no label may cover: the counters (their class number is text too)
  const hard = [...svg.querySelectorAll("g.ship")].map((g) => boxOf(g.getBBox()));
  svg.querySelectorAll("line.leader").forEach((n) => n.remove());
  const leaders = svg.querySelector("g.names") || svg;
  const gap = GAP / scale;
  const placed = [];
  const nameBox = new Map();
  for (const item of list) {
    const node = item.node;
    const size = item.px / scale;
    node.style.fontSize = `${size}px`;
    node.style.strokeWidth = `${size * 0.3}px`;
    node.setAttribute("x", 0);
    node.setAttribute("y", 0);
    const own = node.getBBox();
    const w = own.width, h = own.height;
    const by = item.beside && nameBox.get(item.beside);
    const anchor = by || item.anchor;
    let spot = null, apart = false;
    for (const [box, far] of candidates(anchor, w, h, gap, !!by)) {
      if (area && !inside(box, area)) continue;
      if (placed.some((p) => hits(p, box, gap)) || hard.some((p) => hits(p, box))) continue;
      spot = box; apart = far;
      break;
    }
    if (!spot) { spot = { x: anchor.x + anchor.w / 2 - w / 2, y: anchor.y + anchor.h + gap, w, h }; }
    node.setAttribute("x", spot.x - own.x);
    node.setAttribute("y", spot.y - own.y);
    placed.push(spot);
    if (node.dataset.ship) nameBox.set(node.dataset.ship, spot);
    if (apart || item.stacked) leader(leaders, spot, anchor, scale, node);
  }
  cover(svg, placed);
}

// A dashed line from the label's nearest edge to the middle of what it labels.
function leader(layer, box, a, scale, node) {
  const ax = a.x + a.w / 2, ay = a.y + a.h / 2;
  const ex = Math.min(Math.max(ax, box.x), box.x + box.w);
  const ey = ay < box.y ? box.y : ay > box.y + box.h ? box.y + box.h : box.y + box.h / 2;
  const line = document.createElementNS(NS, "line");
  line.setAttribute("class", "leader");
  for (const [k, v] of Object.entries({ x1: ex, y1: ey, x2: ax, y2: ay })) line.setAttribute(k, v);
  line.style.strokeWidth = `${1 / scale}px`;
  line.dataset.for = node.dataset.ship || node.dataset.target || "";
  layer.insertBefore(line, layer.firstChild);
}

// The hex labels under a label give way (the hovered hex is still named below the board).
function cover(svg, placed) {
  for (const t of svg.querySelectorAll("text.hex-label")) {
    const x = Number(t.getAttribute("x")), y = Number(t.getAttribute("y"));
    const box = { x: x - 7.5, y: y - 5, w: 15, h: 6 };  // as the drawing lays them (svg_airfleet.py)
    t.classList.toggle("covered", placed.some((p) => hits(p, box)));
  }
}
