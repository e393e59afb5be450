// The board's SVG in a container: it opens framed on what matters (the ships in play), zooms
// with the wheel, the buttons or a pinch, pans by dragging, names the hex under the pointer
// and shows every hex's label once zoomed in close. The SVG itself comes from the server (the
// engine's drawing); pages draw their previews in its overlay layers. A drawing whose root says
// data-labels="float" (War Fleet) has its names and tags laid out again at each zoom, at a
// size that stays readable on screen (floatlabels.js).
import { layoutLabels } from "/static/floatlabels.js";

const NS = "http://www.w3.org/2000/svg";
// Hex labels are drawn 5.6 units tall: printed once they would be at least 8 pixels.
const LABELS_AT = 8 / 5.6;

export class Board {
  constructor(container, hoverLabel) {
    this.container = container;
    this.hover = hoverLabel;
    this.view = null;     // the viewBox the user chose (x, y, w, h), kept across redraws
    this.auto = null;     // the frame the page asks for while the user has not zoomed or panned
    this.full = null;
    this.geo = null;      // hex geometry from the drawing's root (see svg_airfleet.py)
    this.onHex = null;
    this.onShip = null;
    this.onElement = null;
    this.onSpot = null;
    this.onGhost = null;
    this.onDrag = null;   // (phase "start" | "move" | "end", point in the drawing's units): a ghost dragged
    this.onHover = null;  // (element under the pointer or null, hex label or null)
    this.onCard = null;   // (element under the pointer or null, event): the card shown
    this.onWheel = null;  // (event) => true when the page used the wheel (e.g. to rotate)
    this.describe = null; // (hex label) => extra words for the hover label (a ruler)
    this.pointers = new Map();
    this.gesture = null;
    this.hovered = null;
    container.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    container.addEventListener("pointerdown", (e) => this.down(e));
    container.addEventListener("pointermove", (e) => this.move(e));
    container.addEventListener("pointerup", (e) => this.up(e));
    container.addEventListener("pointercancel", (e) => this.cancel(e));
    container.addEventListener("pointerleave", (e) => { if (e.pointerType === "mouse") this.leave(); });
    new ResizeObserver(() => this.apply()).observe(container);
  }

  get svg() { return this.container.querySelector("svg"); }

  show(svgText) {
    this.container.innerHTML = svgText;
    const svg = this.svg;
    if (!svg) return;
    const box = svg.viewBox.baseVal;
    this.full = { x: box.x, y: box.y, w: box.width, h: box.height };
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    const d = svg.dataset;
    this.geo = d.pxPerInch ? { ppi: Number(d.pxPerInch), size: Number(d.hexSize), step: Number(d.columnStep),
      ox: Number(d.originX), oy: Number(d.originY) } : null;
    // under the ships (air fleet, War Fleet) or the elements (starship), then over them; the
    // drag layer on top holds what the pointer may pick up (a starship's ghost)
    for (const name of ["under", "over", "tags", "hover", "drag"]) {
      const g = document.createElementNS(NS, "g");
      g.setAttribute("class", `overlay overlay-${name}`);
      const ships = svg.querySelector("g.ships, g.elements");
      if (name === "under" && ships) ships.before(g); else svg.append(g);
    }
    this.hovered = null;
    this.laidAt = null;
    this.apply();
  }

  layer(name) { return this.svg && this.svg.querySelector(`g.overlay-${name}`); }

  clear(name) { const g = this.layer(name); if (g) g.replaceChildren(); }

  // The frame the page wants (user units); followed until the user zooms or pans.
  frame(box) {
    this.auto = box;
    if (!this.view) this.apply();
  }

  current() {
    if (this.view) return this.view;
    if (this.auto) return this.auto;
    return this.full;
  }

  // The view stretched to the container's shape, so one pixel is the same length both ways.
  shaped(v) {
    const cw = this.container.clientWidth || 1, ch = this.container.clientHeight || 1;
    const aspect = cw / ch;
    if (v.w / v.h > aspect) { const h = v.w / aspect; return { x: v.x, y: v.y - (h - v.h) / 2, w: v.w, h }; }
    const w = v.h * aspect;
    return { x: v.x - (w - v.w) / 2, y: v.y, w, h: v.h };
  }

  apply() {
    const svg = this.svg;
    const v0 = this.current();
    if (!svg || !v0) return;
    const v = this.shaped(v0);
    if (!this.view && this.auto) {  // the page's frame stays on the map where the map is big enough
      const f = this.full;
      v.x = v.w <= f.w ? Math.min(Math.max(v.x, f.x), f.x + f.w - v.w) : f.x + (f.w - v.w) / 2;
      v.y = v.h <= f.h ? Math.min(Math.max(v.y, f.y), f.y + f.h - v.h) : f.y + (f.h - v.h) / 2;
    }
    svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
    const scale = (this.container.clientWidth || 1) / v.w;
    this.container.classList.toggle("close", scale >= LABELS_AT);
    this.container.dataset.scale = scale.toFixed(3);
    if (svg.dataset.labels === "float" && this.laidAt !== scale) this.relabel();
  }

  // Pixels on screen per unit of the drawing.
  scale() {
    const v = this.shaped(this.current());
    return (this.container.clientWidth || 1) / v.w;
  }

  // Lay the floating labels out for the current zoom (after tags were added, or a zoom).
  relabel() {
    if (!this.svg || this.svg.dataset.labels !== "float" || !this.container.clientWidth) return;
    this.laidAt = this.scale();
    layoutLabels(this.svg, this.laidAt, this.full);
  }

  zoom(factor, cx = null, cy = null) {
    if (!this.full) return;
    const v = this.shaped(this.current());
    const w = Math.min(this.full.w * 1.5, Math.max(this.full.w / 16, v.w * factor));
    const f = w / v.w;
    const px = cx === null ? v.x + v.w / 2 : cx;
    const py = cy === null ? v.y + v.h / 2 : cy;
    this.view = { x: px - (px - v.x) * f, y: py - (py - v.y) * f, w, h: v.h * f };
    this.apply();
  }

  // Back to the page's frame (the ships in play).
  fit() { this.view = null; this.apply(); }

  whole() { if (this.full) { this.view = { ...this.full }; this.apply(); } }

  point(clientX, clientY) {
    const svg = this.svg;
    const p = svg.createSVGPoint();
    p.x = clientX; p.y = clientY;
    const m = svg.getScreenCTM();
    return m ? p.matrixTransform(m.inverse()) : { x: 0, y: 0 };
  }

  wheel(event) {
    if (!this.svg) return;
    event.preventDefault();
    if (!event.ctrlKey && this.onWheel && this.onWheel(event)) return;
    const p = this.point(event.clientX, event.clientY);
    this.zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, p.x, p.y);
  }

  down(event) {
    if (!this.svg || (event.pointerType === "mouse" && event.button !== 0)) return;
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      const mid = this.point((a.x + b.x) / 2, (a.y + b.y) / 2);
      this.gesture = { pinch: true, dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, view: this.shaped(this.current()), mid, moved: true };
    } else if (this.pointers.size === 1) {
      const target = this.targetAt(event.clientX, event.clientY);
      // something the page lets the pointer pick up: dragged, not the board panned
      const drag = this.onDrag && target && target.closest("[data-drag]") ? target.closest("[data-drag]") : null;
      this.gesture = { pinch: false, drag, x: event.clientX, y: event.clientY, moved: false, view: this.shaped(this.current()) };
      if (drag) this.onDrag("start", this.point(event.clientX, event.clientY));
    }
  }

  move(event) {
    if (this.pointers.has(event.pointerId)) this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const g = this.gesture;
    if (g && g.pinch && this.pointers.size >= 2) {
      const [a, b] = [...this.pointers.values()];
      const f = g.dist / (Math.hypot(a.x - b.x, a.y - b.y) || 1);
      const w = Math.min(this.full.w * 1.5, Math.max(this.full.w / 16, g.view.w * f));
      const k = w / g.view.w;
      this.view = { x: g.mid.x - (g.mid.x - g.view.x) * k, y: g.mid.y - (g.mid.y - g.view.y) * k, w, h: g.view.h * k };
      this.apply();
      return;
    }
    if (g && g.drag && this.pointers.has(event.pointerId)) {
      if (Math.abs(event.clientX - g.x) + Math.abs(event.clientY - g.y) > 4) g.moved = true;
      if (g.moved && this.onDrag) this.onDrag("move", this.point(event.clientX, event.clientY));
      return;
    }
    if (g && !g.pinch && this.pointers.has(event.pointerId)) {
      const dx = event.clientX - g.x, dy = event.clientY - g.y;
      if (Math.abs(dx) + Math.abs(dy) > 6) g.moved = true;
      if (g.moved) {
        const scale = g.view.w / (this.container.clientWidth || 1);
        this.view = { ...g.view, x: g.view.x - dx * scale, y: g.view.y - dy * scale };
        this.apply();
        return;
      }
    }
    if (event.pointerType === "mouse" || !g) this.hoverAt(event.clientX, event.clientY);
  }

  up(event) {
    const g = this.gesture;
    this.pointers.delete(event.pointerId);
    if (this.pointers.size) return;  // the rest of a pinch
    this.gesture = null;
    if (g && g.drag && this.onDrag) {
      this.onDrag(g.moved ? "end" : "cancel", this.point(event.clientX, event.clientY));
      if (g.moved) return;
    }
    if (!g || g.moved || g.pinch) return;
    const target = this.targetAt(event.clientX, event.clientY);
    if (event.pointerType !== "mouse") this.hoverAt(event.clientX, event.clientY);  // a tap shows what a hover would
    if (!target) return;
    const d = target.dataset;
    if (d.drag !== undefined) return;  // a tap on what may be dragged: nothing to choose
    if (d.ghost !== undefined && this.onGhost) this.onGhost(d.ghost, target);
    else if (d.spot && this.onSpot) this.onSpot(d.spot);
    else if (d.ship && this.onShip) this.onShip(d.ship, target);
    else if (d.hex && this.onHex) this.onHex(d.hex);
    else if (d.element && this.onElement) this.onElement(d.element);
  }

  cancel(event) { this.pointers.delete(event.pointerId); if (!this.pointers.size) this.gesture = null; }

  leave() {
    if (this.gesture && this.gesture.drag && this.onDrag) this.onDrag("cancel", null);
    this.gesture = null;
    this.pointers.clear();
    if (this.hover) this.hover.hidden = true;
    this.setHovered(null);
    if (this.onHover) this.onHover(null, null);
    if (this.onCard) this.onCard(null, null);
  }

  // What a click at this point means: a preview ghost, a ship, a hex... (overlays that only
  // show let the pointer through).
  targetAt(x, y) {
    const node = document.elementFromPoint(x, y);
    return node && node.closest ? node.closest("[data-drag],[data-ghost],[data-spot],[data-ship],[data-hex],[data-element]") : null;
  }

  hexAt(x, y) {
    // The hex under the point: the hex polygon there, beneath ships and overlays.
    for (const node of document.elementsFromPoint(x, y)) {
      if (node.matches && node.matches("polygon.hex[data-hex]")) return node.dataset.hex;
    }
    return null;
  }

  hoverAt(x, y) {
    if (!this.svg) return;
    const target = this.targetAt(x, y);
    const hex = this.hexAt(x, y);
    this.setHovered(hex);
    if (this.hover) {
      const d = target ? target.dataset : {};
      const parts = [];
      if (d.ship) parts.push(d.ship);
      else if (d.element) parts.push(d.element);
      if (hex) parts.push(hex);
      const extra = hex && this.describe ? this.describe(hex) : null;
      if (extra) parts.push(extra);
      this.hover.hidden = !parts.length;
      this.hover.textContent = parts.join(" · ");
    }
    if (this.onHover) this.onHover(target, hex);
    if (this.onCard) this.onCard(target ? target.closest("[data-card]") : null, { clientX: x, clientY: y });
  }

  setHovered(hex) {
    if (hex === this.hovered) return;
    const svg = this.svg;
    if (!svg) return;
    svg.querySelectorAll("polygon.hex.hover").forEach((n) => n.classList.remove("hover"));
    this.hovered = hex;
    if (hex) { const p = svg.querySelector(`polygon.hex[data-hex="${hex}"]`); if (p) p.classList.add("hover"); }
  }

  mark(selector, cls, on = true) {
    const svg = this.svg;
    if (!svg) return;
    for (const node of svg.querySelectorAll(selector)) node.classList.toggle(cls, on);
  }

  // --- hex geometry (the drawing's, from its root's data attributes) ---------------------------

  centre(label) {
    const g = this.geo;
    const c = Number(label.slice(0, 2)) - 1, r = Number(label.slice(2)) - 1;
    return { x: g.ox + g.step * c, y: g.oy + g.ppi * r + (c % 2 ? g.ppi / 2 : 0) };
  }

  hexPoints(label, scale = 1) {
    const { x, y } = this.centre(label);
    const s = this.geo.size * scale;
    return [0, 1, 2, 3, 4, 5].map((k) => `${(x + s * Math.cos(k * Math.PI / 3)).toFixed(2)},${(y + s * Math.sin(k * Math.PI / 3)).toFixed(2)}`).join(" ");
  }

  // The box (user units) around some hexes, with `pad` hexes more on every side.
  around(labels, pad = 0) {
    if (!labels.length || !this.geo) return null;
    const cs = labels.map((l) => this.centre(l));
    const m = this.geo.ppi * (pad + 0.6);
    const x0 = Math.min(...cs.map((c) => c.x)) - m, x1 = Math.max(...cs.map((c) => c.x)) + m;
    const y0 = Math.min(...cs.map((c) => c.y)) - m, y1 = Math.max(...cs.map((c) => c.y)) + m;
    return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  }

  // Draw an element in an overlay layer: el(layer, tag, attrs, text).
  draw(layer, tag, attrs = {}, label = null) {
    const g = typeof layer === "string" ? this.layer(layer) : layer;
    if (!g) return null;
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k.startsWith("data-")) node.dataset[k.slice(5).replace(/-(\w)/g, (_, c) => c.toUpperCase())] = v;
      else node.setAttribute(k, v);
    }
    if (label !== null) node.textContent = label;
    g.append(node);
    return node;
  }

  // A text tag near an anchor box (user units), at the first spot around it that overlaps no
  // text already shown (the ships' names, other tags): below, above, right, left, then further
  // out. The hex labels under it give way (the hovered hex is still named below the board).
  // Returns the text element.
  tag(layer, anchor, label, cls, attrs = {}) {
    const node = this.draw(layer, "text", { class: cls, ...attrs }, label);
    if (!node) return null;
    // what it tags, for a drawing that lays its labels out again at each zoom
    node.dataset.anchor = [anchor.x, anchor.y, anchor.w, anchor.h].join(" ");
    const taken = this.textBoxes(node, "text:not(.hex-label)");
    node.setAttribute("x", 0); node.setAttribute("y", 0);
    const own = node.getBBox();
    const w = own.width, h = own.height, gap = 1.5;
    const cx = anchor.x + anchor.w / 2, cy = anchor.y + anchor.h / 2;
    let spot = null;
    for (let ring = 0; ring < 14 && !spot; ring++) {
      const d = gap + ring * (h + gap);
      for (const [x, y] of [[cx - w / 2, anchor.y + anchor.h + d], [cx - w / 2, anchor.y - d - h],
        [anchor.x + anchor.w + d, cy - h / 2], [anchor.x - d - w, cy - h / 2]]) {
        const box = { x, y, w, h };
        if (!taken.some((t) => overlaps(t, box, gap))) { spot = box; break; }
      }
    }
    spot = spot || { x: cx - w / 2, y: anchor.y + anchor.h + gap, w, h };
    // place the text so that its measured box lands on the spot
    node.setAttribute("x", spot.x - own.x);
    node.setAttribute("y", spot.y - own.y);
    for (const t of this.svg.querySelectorAll("text.hex-label")) {
      const b = t.getBBox();
      if (overlaps({ x: b.x, y: b.y, w: b.width, h: b.height }, spot)) t.classList.add("covered");
    }
    return node;
  }

  // The boxes (user units) of the text shown on the board (`selector`), but `except`.
  textBoxes(except = null, selector = "text") {
    const svg = this.svg;
    const out = [];
    for (const t of svg.querySelectorAll(selector)) {
      if (t === except || !t.getClientRects().length) continue;
      const b = t.getBBox();
      if (b.width && b.height) out.push({ x: b.x, y: b.y, w: b.width, h: b.height });
    }
    return out;
  }

  // --- table positions (starship placements) ----------------------------------------------------

  // Clickable dots at table positions (starship placements), in SVG user units.
  spots(points) {
    const svg = this.svg;
    if (!svg) return;
    svg.querySelectorAll(".spot").forEach((n) => n.remove());
    for (const { x, y, key, r } of points) {
      const c = document.createElementNS(NS, "circle");
      c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", r || 6);
      c.setAttribute("class", "spot"); c.dataset.spot = key;
      c.setAttribute("fill", "rgba(197,139,22,.55)"); c.setAttribute("stroke", "#7a5200");
      c.style.cursor = "pointer";
      svg.append(c);
    }
  }
}

export function overlaps(a, b, gap = 0) {
  return !(a.x + a.w + gap <= b.x || b.x + b.w + gap <= a.x || a.y + a.h + gap <= b.y || b.y + b.h + gap <= a.y);
}

// Hex distance between two CCRR labels (the grid's geometry, as hexgrid.py counts it: even
// columns sit half a hex lower).
export function hexDistance(a, b) {
  const axial = (label) => {
    const x = Number(label.slice(0, 2)) - 1, row = Number(label.slice(2)) - 1;
    return [x, row - (x - (x & 1)) / 2];
  };
  const [q1, r1] = axial(a), [q2, r2] = axial(b);
  const dq = q1 - q2, dr = r1 - r2;
  return Math.max(Math.abs(dq), Math.abs(dr), Math.abs(dq + dr));
}
