// War Fleet controls: placement, movement and combat declarations, offering only the legal
// actions the server sent; the ship stats panel; the end-of-game summary. The odds shown are
// the server's (exact, from the engine's dice: see server/hints.py).
import { el, pct } from "/static/common.js";

export const FACINGS = ["N", "NE", "SE", "S", "SW", "NW"];
const PLACE = /^(.+)@(\d{4}):(\w+)$/;
const STEP = /^(.+):([FLRE])$/;
const PIVOT = /^(.+):pivot:(\w+)$/;

// ctx: { data, board, pick, controls, button, send, concede, allLegal, showWeapon, stats }
export function warControls(ctx) {
  const legal = ctx.data.legal;
  ctx.board.onHex = null;
  ctx.board.onShip = null;
  document.onkeydown = null;
  if (legal.includes("engage none")) return warEngage(ctx, legal);
  const places = legal.map((a) => a.match(PLACE)).filter(Boolean);
  if (places.length) return warPlace(ctx, places);
  const steps = legal.map((a) => a.match(STEP) || a.match(PIVOT)).filter(Boolean);
  if (steps.length) return warMove(ctx, steps);
  if (legal.includes("done")) return warCombat(ctx, legal.filter((a) => a.includes(">")));
  ctx.controls(`${ctx.data.to_move} to act`, ctx.allLegal(legal), ctx.concede());
}

function shipView(ctx, name) {
  return ctx.data.view.ships.find((s) => s.name === name);
}

// --- W3: naming an engagement ---------------------------------------------------------------

function warEngage(ctx, legal) {
  const { pick, board, data } = ctx;
  const hints = data.hints || {};
  const hexes = new Set(legal.filter((a) => a !== "engage none").map((a) => a.slice(7)));
  if (!hexes.has(pick.engage)) pick.engage = null;
  board.mark("polygon.hex", "hl", false);
  board.mark("polygon.hex", "picked", false);
  board.mark("g.ship", "target", false);
  for (const h of hexes) board.mark(`polygon.hex[data-hex="${h}"]`, "hl", true);
  const joins = pick.engage ? ((hints[`engage ${pick.engage}`] || {}).joins || []) : [];
  if (pick.engage) {
    board.mark(`polygon.hex[data-hex="${pick.engage}"]`, "picked", true);
    for (const name of joins) board.mark(`g.ship[data-ship="${CSS.escape(name)}"]`, "target", true);
  }
  board.onHex = (hex) => { if (hexes.has(hex)) { pick.engage = hex; warEngage(ctx, legal); } };
  ctx.controls(`Engage: ${data.to_move} may name an engagement`,
    el("p", { class: "muted", id: "engage-help" }, pick.engage
      ? `An engagement at ${pick.engage}: every ship within 2 hexes fights it in detail on the air-fleet board this turn (ruling W3).`
      : "Click a highlighted hex to engage there: every ship within 2 hexes of it fights this turn in detail, on the air-fleet board."),
    pick.engage ? el("p", { id: "engage-joins" }, el("strong", {}, "Joining: "), joins.join(", ")) : null,
    el("div", { class: "buttons" },
      ctx.button(pick.engage ? `engage here (${pick.engage})` : "engage here", () => ctx.send(`engage ${pick.engage}`),
        { id: "engage-here", disabled: !pick.engage }),
      ctx.button("no engagement", () => ctx.send("engage none"), { id: "engage-none", class: "secondary" })),
    ctx.concede());
}

// --- placement --------------------------------------------------------------------------------

function warPlace(ctx, places) {
  const { pick, board } = ctx;
  const ships = [...new Set(places.map((m) => m[1]))];
  if (!ships.includes(pick.ship)) { pick.ship = ships[0]; pick.hex = null; }
  const mine = places.filter((m) => m[1] === pick.ship);
  const hexes = new Set(mine.map((m) => m[2]));
  board.mark("polygon.hex", "hl", false);
  board.mark("polygon.hex", "picked", false);
  for (const h of hexes) board.mark(`polygon.hex[data-hex="${h}"]`, "hl", true);
  if (pick.hex) board.mark(`polygon.hex[data-hex="${pick.hex}"]`, "picked", true);
  board.onHex = (hex) => { if (hexes.has(hex)) { pick.hex = hex; warPlace(ctx, places); } };
  const facings = pick.hex ? mine.filter((m) => m[2] === pick.hex).map((m) => m[3]) : [];
  const ship = shipView(ctx, pick.ship);
  ctx.controls(`Placement: ${ctx.data.to_move} places a ship`,
    el("div", { class: "buttons", id: "place-ships" }, ships.map((s) => ctx.button(s,
      () => { pick.ship = s; pick.hex = null; warPlace(ctx, places); },
      { class: s === pick.ship ? "active" : "secondary", "data-ship": s }))),
    el("p", { class: "muted", id: "place-help" }, pick.hex
      ? `${pick.ship} (class ${ship.class}) on ${pick.hex}: choose its facing`
      : `Click a highlighted hex of your deployment zone for ${pick.ship} (class ${ship.class}; the highest class goes first).`),
    el("div", { class: "buttons", id: "facings" }, FACINGS.filter((f) => facings.includes(f)).map((f) =>
      ctx.button(f, () => ctx.send(`${pick.ship}@${pick.hex}:${f}`), { "data-facing": f }))),
    statsPanel(ctx, pick.ship), ctx.concede());
}

// --- movement ---------------------------------------------------------------------------------

function warMove(ctx, steps) {
  const { pick, board, data } = ctx;
  const ships = [...new Set(steps.map((m) => m[1]))];
  const moving = data.view.moving;
  pick.ship = moving ? moving.ship : (ships.includes(pick.ship) ? pick.ship : ships[0]);
  const mine = steps.filter((m) => m[1] === pick.ship);
  const can = new Set(mine.filter((m) => m[0].match(STEP)).map((m) => m[2]));
  const pivots = mine.filter((m) => m[0].match(PIVOT)).map((m) => m[2]);
  board.mark("g.ship", "moving", false);
  board.mark(`g.ship[data-ship="${CSS.escape(pick.ship)}"]`, "moving", true);
  board.onShip = (name) => { if (!moving && ships.includes(name)) { pick.ship = name; warMove(ctx, steps); } };
  const ship = shipView(ctx, pick.ship);
  const mpLeft = moving ? moving.mp_left : ship.mp;
  const act = (code) => { if (can.has(code)) ctx.send(`${pick.ship}:${code}`); };
  document.onkeydown = (e) => {
    if (e.target.closest && e.target.closest("input,select")) return;
    const key = { ArrowUp: "F", w: "F", f: "F", ArrowLeft: "L", a: "L", l: "L", ArrowRight: "R", d: "R", r: "R", Enter: "E", e: "E" }[e.key];
    if (key) { e.preventDefault(); act(key); }
  };
  ctx.controls(`Movement: ${data.to_move} class ${ship.class}`,
    ships.length > 1 && !moving ? el("div", { class: "buttons", id: "move-ships" }, ships.map((s) => ctx.button(s,
      () => { pick.ship = s; warMove(ctx, steps); }, { class: s === pick.ship ? "active" : "secondary", "data-ship": s }))) : null,
    el("p", { id: "mp" }, el("strong", {}, pick.ship), ` at ${ship.hex} facing ${ship.facing}: `,
      el("strong", { id: "mp-left" }, `${mpLeft} MP left`), moving ? ` (${moving.mp_spent} spent)` : ""),
    el("div", { class: "buttons" },
      ctx.button("⟲ port (L)", () => act("L"), { disabled: !can.has("L"), id: "turn-left" }),
      ctx.button("forward (F)", () => act("F"), { disabled: !can.has("F"), id: "forward" }),
      ctx.button("starboard (R) ⟳", () => act("R"), { disabled: !can.has("R"), id: "turn-right" }),
      ctx.button("end move (E)", () => act("E"), { disabled: !can.has("E"), id: "end-move" })),
    pivots.length ? el("div", { class: "buttons", id: "pivots" }, el("span", { class: "muted" }, "pivot (all MP) to:"),
      FACINGS.filter((f) => pivots.includes(f)).map((f) => ctx.button(f, () => ctx.send(`${pick.ship}:pivot:${f}`),
        { class: "secondary", "data-pivot": f }))) : null,
    el("p", { class: "muted" }, "Keys: ↑/F forward, ←/L port, →/R starboard, Enter/E end. A pivot is allowed before any MP is spent."),
    statsPanel(ctx, pick.ship), ctx.concede());
}

// --- combat -----------------------------------------------------------------------------------

function warCombat(ctx, declares) {
  const { pick, board, data } = ctx;
  const hints = data.hints || {};
  const parsed = declares.map((a) => {
    const [left, right] = a.split(">");
    const i = left.lastIndexOf(":");
    const j = right.lastIndexOf(":");
    return { action: a, ship: left.slice(0, i), guns: left.slice(i + 1), target: right.slice(0, j), location: right.slice(j + 1) };
  });
  const ships = [...new Set(parsed.map((p) => p.ship))];
  if (!ships.includes(pick.ship)) pick.ship = ships[0];
  const mine = parsed.filter((p) => p.ship === pick.ship);
  const groups = [...new Set(mine.map((p) => p.guns))];
  if (!groups.includes(pick.guns)) pick.guns = groups[0];
  const targets = mine.filter((p) => p.guns === pick.guns);
  board.onShip = (name) => { if (ships.includes(name)) { pick.ship = name; warCombat(ctx, declares); } };
  if (pick.ship && pick.guns) {
    ctx.showWeapon(`${pick.ship}:${pick.guns.split("+")[0]}`).then(() => {
      for (const t of targets) board.mark(`g.ship[data-ship="${CSS.escape(t.target)}"]`, "target", true);
      board.mark(`g.ship[data-ship="${CSS.escape(pick.ship)}"]`, "moving", true);
      oddsTags(board, targets, hints);
    });
  }
  const declared = data.view.declared;
  ctx.controls(`Combat: ${data.to_move} declares attacks`,
    ships.length ? el("div", { class: "buttons", id: "fire-ships" }, ships.map((s) => ctx.button(s,
      () => { pick.ship = s; warCombat(ctx, declares); }, { class: s === pick.ship ? "active" : "secondary", "data-ship": s }))) : null,
    groups.length ? el("div", { class: "buttons", id: "guns" }, groups.map((g) => ctx.button(g.includes("+") ? `${g} (bracket)` : g,
      () => { pick.guns = g; warCombat(ctx, declares); }, { class: g === pick.guns ? "active" : "secondary", "data-guns": g }))) : null,
    pick.guns ? el("p", { class: "muted" }, "Arc and range of the first gun: short band orange, long band yellow.") : null,
    el("div", { id: "targets" }, targets.map((t) => {
      const h = hints[t.action] || {};
      const hit = h.hit ? h.hit.probability : 0;
      const odds = h.dice
        ? `range ${h.range} (${h.band}): ${h.dice.join("+")}${h.dialed.length ? ` dialed up (${h.dialed.join(", ")})` : ""} vs resilience ${h.resilience}`
        : "";
      const chance = !h.hit ? ""
        : hit === 0 ? "hit 0.0%: these dice cannot reach the resilience"
          : `hit ${pct(hit)} (${h.hit.fraction})` + (h.rolls > 1 ? `; ${h.rolls} rolls (saturation), at least one hit ${pct(h.any.probability)}` : "");
      return el("div", { class: "target", "data-target": t.target, "data-location": t.location },
        el("strong", {}, `${t.target} · ${t.location}${h.location_destroyed ? " (destroyed: a hit forces a doubled SI test)" : ""}`),
        el("span", { class: "odds" }, odds),
        el("span", { class: "odds hit-chance" }, chance),
        ctx.button(`declare at ${t.target} ${t.location}`, () => ctx.send(t.action), { "data-action": t.action }));
    })),
    declared.length ? el("div", { id: "declared" }, el("h4", {}, "Declared this turn (rolled when every side is done)"),
      declared.map((d) => el("div", { class: "odds" }, d))) : null,
    el("div", { class: "buttons" }, ctx.button("done declaring", () => ctx.send("done"), { id: "done", class: "secondary" })),
    statsPanel(ctx, pick.ship), ctx.concede());
}

// The best hit chance of the chosen guns at each target, next to its counter on the board
// (a tag laid out with the names: never over another text, a leader line to a stacked counter).
function oddsTags(board, targets, hints) {
  const svg = board.svg;
  if (!svg) return;
  board.clear("tags");
  const best = new Map();
  for (const t of targets) {
    const h = hints[t.action];
    if (h && h.hit && (!best.has(t.target) || h.hit.probability > best.get(t.target))) best.set(t.target, h.hit.probability);
  }
  for (const [name, p] of best) {
    const body = svg.querySelector(`g.ship[data-ship="${CSS.escape(name)}"] circle.body`);
    if (!body) continue;
    const b = body.getBBox();
    board.tag("tags", { x: b.x, y: b.y, w: b.width, h: b.height }, pct(p), "odds-tag", { "data-target": name });
  }
  board.relabel();
}

// --- stats and summary --------------------------------------------------------------------------

export function statsPanel(ctx, name) {
  const stats = ctx.stats && ctx.stats[name];
  const ship = shipView(ctx, name);
  if (!stats || !ship) return null;
  const rows = stats.locations.map((loc) => {
    const now = ship.locations[loc.name] || {};
    const attacks = loc.attacks.map((a, k) => `${loc.name}.${k + 1} ${a.weapon} ${a.short.dice.join("+")}/${a.short.range} ${a.long.dice.join("+")}/${a.long.range}${a.traits.length ? ` [${a.traits.join(", ")}]` : ""}`);
    return el("tr", { class: now.destroyed ? "lost" : "", "data-location": loc.name },
      el("td", {}, loc.name), el("td", { class: "res" }, String(now.resilience ?? loc.resilience)),
      el("td", {}, `${loc.destroyed.resilience} / +${loc.destroyed.si_modifier}`),
      el("td", {}, now.destroyed ? "destroyed" : (attacks.join("; ") || "—")));
  });
  const damage = ship.card_damage || [];
  return el("div", { class: "ship-stats", id: "ship-stats", "data-ship": name },
    el("h4", {}, `${name} (${stats.side}) · ${stats.design} · class ${stats.class} · SI ${stats.si} · MP ${ship.mp}${ship.mp !== stats.mp ? " (stern destroyed)" : ""}`),
    damage.length ? el("p", { class: "card-damage", id: "card-damage" },
      `Card slots destroyed in detailed engagements (${damage.length}): ${damage.join(", ")}`) : null,
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "location"), el("th", {}, "resil."),
      el("th", {}, "destroyed res./SI"), el("th", {}, "attacks (short/long)"))), el("tbody", {}, rows)));
}

export function warSummary(data) {
  const sides = data.view.sides;
  return el("div", { id: "summary", class: "summary" }, sides.map((side) => {
    const ships = data.view.ships.filter((s) => s.side === side);
    const afloat = ships.filter((s) => s.status === "afloat");
    return el("div", { "data-side": side }, el("strong", {}, `${side}: `),
      `${afloat.length} of ${ships.length} ships afloat`,
      ships.filter((s) => s.status !== "afloat").length
        ? ` (lost: ${ships.filter((s) => s.status !== "afloat").map((s) => `${s.name}, ${s.status}`).join("; ")})` : "");
  }));
}
