// The board's SVG in a container: zoom with the wheel or the buttons, pan by dragging,
// hex labels on hover. The SVG itself comes from the server (the engine's drawing).

export class Board {
  constructor(container, hoverLabel) {
    this.container = container;
    this.hover = hoverLabel;
    this.view = null; // the viewBox the user chose (x, y, w, h), kept across redraws
    this.full = null;
    this.onHex = null;
    this.onElement = null;
    this.drag = null;
    container.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    container.addEventListener("pointerdown", (e) => this.down(e));
    container.addEventListener("pointermove", (e) => this.move(e));
    container.addEventListener("pointerup", (e) => this.up(e));
    container.addEventListener("pointerleave", () => { this.drag = null; if (this.hover) this.hover.hidden = true; });
  }

  get svg() { return this.container.querySelector("svg"); }

  show(svgText) {
    this.container.innerHTML = svgText;
    const svg = this.svg;
    if (!svg) return;
    const box = svg.viewBox.baseVal;
    this.full = { x: box.x, y: box.y, w: box.width, h: box.height };
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    if (this.view) this.apply();
  }

  apply() {
    const svg = this.svg;
    if (!svg || !this.view) return;
    const v = this.view;
    svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
  }

  zoom(factor, cx = null, cy = null) {
    if (!this.full) return;
    const v = this.view || { ...this.full };
    const w = Math.min(this.full.w * 1.5, Math.max(this.full.w / 12, v.w * factor));
    const h = w * (v.h / v.w);
    const px = cx === null ? v.x + v.w / 2 : cx;
    const py = cy === null ? v.y + v.h / 2 : cy;
    this.view = { x: px - (px - v.x) * (w / v.w), y: py - (py - v.y) * (h / v.h), w, h };
    this.apply();
  }

  fit() { this.view = null; if (this.full) { const f = this.full; this.svg.setAttribute("viewBox", `${f.x} ${f.y} ${f.w} ${f.h}`); } }

  point(event) {
    const svg = this.svg;
    const p = svg.createSVGPoint();
    p.x = event.clientX; p.y = event.clientY;
    const m = svg.getScreenCTM();
    return m ? p.matrixTransform(m.inverse()) : { x: 0, y: 0 };
  }

  wheel(event) {
    if (!this.svg) return;
    event.preventDefault();
    const p = this.point(event);
    this.zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, p.x, p.y);
  }

  down(event) {
    if (!this.svg || event.button !== 0) return;
    this.drag = { x: event.clientX, y: event.clientY, moved: false, view: this.view || { ...this.full } };
  }

  move(event) {
    const target = event.target.closest ? event.target.closest("[data-hex],[data-element],[data-ship]") : null;
    if (this.hover) {
      const d = target ? target.dataset : {};
      const label = target && (d.ship ? (d.hex ? `${d.ship} · ${d.hex}` : d.ship) : (d.hex || d.element));
      this.hover.hidden = !label;
      if (label) this.hover.textContent = label;
    }
    if (!this.drag) return;
    const dx = event.clientX - this.drag.x, dy = event.clientY - this.drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) this.drag.moved = true;
    if (!this.drag.moved) return;
    const svg = this.svg;
    const scale = this.drag.view.w / svg.clientWidth;
    this.view = { ...this.drag.view, x: this.drag.view.x - dx * scale, y: this.drag.view.y - dy * scale };
    this.apply();
  }

  up(event) {
    const drag = this.drag;
    this.drag = null;
    if (drag && drag.moved) return;
    const target = event.target.closest ? event.target.closest("[data-hex],[data-element],[data-ship],[data-spot]") : null;
    if (!target) return;
    if (target.dataset.spot && this.onSpot) this.onSpot(target.dataset.spot);
    else if (target.dataset.ship && this.onShip) this.onShip(target.dataset.ship);
    else if (target.dataset.hex && this.onHex) this.onHex(target.dataset.hex);
    else if (target.dataset.element && this.onElement) this.onElement(target.dataset.element);
  }

  mark(selector, cls, on = true) {
    const svg = this.svg;
    if (!svg) return;
    for (const node of svg.querySelectorAll(selector)) node.classList.toggle(cls, on);
  }

  // Clickable dots at table positions (starship placements), in SVG user units.
  spots(points) {
    const svg = this.svg;
    if (!svg) return;
    svg.querySelectorAll(".spot").forEach((n) => n.remove());
    const ns = "http://www.w3.org/2000/svg";
    for (const { x, y, key, r } of points) {
      const c = document.createElementNS(ns, "circle");
      c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", r || 6);
      c.setAttribute("class", "spot"); c.dataset.spot = key;
      c.setAttribute("fill", "rgba(197,139,22,.55)"); c.setAttribute("stroke", "#7a5200");
      c.style.cursor = "pointer";
      svg.append(c);
    }
  }
}
