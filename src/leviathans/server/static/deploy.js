// The lobby's deployment choice: which side takes the west (left) edge, how deep the zones
// are (or the scenario's own), and a small map of the board with the zones as chosen.
import { el } from "/static/common.js";

const NS = "http://www.w3.org/2000/svg";
const COLOURS = { british: "#2f5d8a", french: "#b0413e" };

function svg(tag, attrs, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// The scenario's side on the west edge (its zone starts in the lowest column).
function westOf(facts) {
  return Object.entries(facts.zones).sort((a, b) => a[1].columns[0] - b[1].columns[0])[0][0];
}

export class DeployPicker {
  constructor(onChange) {
    this.facts = null;
    this.west = document.getElementById("deploy-west");
    this.depth = document.getElementById("deploy-depth");
    for (const n of [this.west, this.depth]) n.addEventListener("input", () => { this.draw(); onChange(); });
  }

  show(facts, sides) {
    this.facts = facts;
    this.sides = sides;
    const west = westOf(facts);
    this.west.replaceChildren(...sides.map((s) => el("option", { value: s }, `the ${s}`)));
    this.west.value = west;
    const depths = [];
    for (let d = facts.min_depth; d <= facts.max_depth; d++) depths.push(d);
    this.depth.replaceChildren(el("option", { value: "" }, "as the scenario sets them"),
      ...depths.map((d) => el("option", { value: String(d) }, `${d} hexes deep from each edge`)));
    this.depth.value = "";
    this.draw();
  }

  // The zones as chosen: {side: {columns, rows}}.
  zones() {
    const f = this.facts;
    const west = this.west.value;
    const east = this.sides.find((s) => s !== west);
    const oldWest = westOf(f);
    const oldEast = this.sides.find((s) => s !== oldWest);
    const depth = this.depth.value ? Number(this.depth.value) : null;
    if (depth === null) {
      return west === oldWest ? f.zones : { [west]: f.zones[oldWest], [east]: f.zones[oldEast] };
    }
    return { [west]: { columns: [1, depth], rows: f.zones[oldWest].rows },
             [east]: { columns: [f.columns - depth + 1, f.columns], rows: f.zones[oldEast].rows } };
  }

  // What to send: nothing if the scenario's zones are kept.
  choice() {
    if (!this.facts) return null;
    const depth = this.depth.value ? Number(this.depth.value) : null;
    if (depth === null && this.west.value === westOf(this.facts)) return null;
    return { west: this.west.value, depth };
  }

  draw() {
    const f = this.facts;
    const box = document.getElementById("deploy-map");
    const map = svg("svg", { viewBox: `-0.5 -0.5 ${f.columns + 1} ${f.rows + 1}`, role: "img",
                             "aria-label": "the board with each side's deployment zone" });
    map.append(svg("rect", { x: 0, y: 0, width: f.columns, height: f.rows, fill: "#dfe8ec", stroke: "#6b7280", "stroke-width": 0.15 }));
    if (f.half_hex_ring) {  // R2: ships ending on the outer ring are lost
      map.append(svg("rect", { x: 0.5, y: 0.5, width: f.columns - 1, height: f.rows - 1, fill: "none",
                               stroke: "#9aa4ad", "stroke-width": 0.1, "stroke-dasharray": "0.5 0.4" }));
    }
    for (const [side, z] of Object.entries(this.zones())) {
      const [c0, c1] = z.columns, [r0, r1] = z.rows;
      const colour = COLOURS[side] || "#c58b16";
      map.append(svg("rect", { x: c0 - 1, y: r0 - 1, width: c1 - c0 + 1, height: r1 - r0 + 1, fill: colour,
                               "fill-opacity": 0.35, stroke: colour, "stroke-width": 0.2, "data-zone": side }));
      const mid = (c0 + c1 - 1) / 2;
      map.append(svg("text", { x: mid, y: f.rows / 2, "font-size": Math.min(2.2, f.rows / 8), "text-anchor": "middle",
                               fill: colour, "font-weight": 700, transform: `rotate(-90 ${mid} ${f.rows / 2})` }, side));
    }
    box.replaceChildren(map, el("p", { class: "muted" },
      `${f.columns} × ${f.rows} hexes; `, ...Object.entries(this.zones()).map(([s, z], i) =>
        `${i ? "; " : ""}${s} columns ${z.columns.join("-")}${z.rows[0] > 1 || z.rows[1] < f.rows ? `, rows ${z.rows.join("-")}` : ""}`)));
  }
}
