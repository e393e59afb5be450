// Starship controls on the game page: every decision (the mulligan, the CMD dice, the hangars,
// movement, attacks, the re-roll pool, morale, a unit's new leader) with its one sentence of
// explanation, and moves planned on the table: the element's ghost dragged (or a spot of its
// reach clicked) to any end its move can reach, the steps kept as buttons for fine control, and
// nothing played until the move is confirmed. Every choice offered is one the engine listed
// (the legal actions, the server's hints, and the engine's check of a planned move).
import { el, pct } from "/static/common.js";
import { STAR, explain } from "/static/starrules.js";

const PLACE = /^(.+):(?:P|arrive)(-?[\d.]+),(-?[\d.]+)/;
const MOVE = /:(F[\d.]+|T-?[\d.]+|E|jump)$/;

// ctx: { data, board, pick, controls, button, send, sendMany, concede, showError, ask,
//        showWeapon, current, sending, focus(points, pad), plan(element, steps, extra) }
export function starControls(ctx) {
  const { data } = ctx;
  const legal = data.legal;
  const view = data.view;
  document.onkeydown = null;
  ctx.board.onDrag = null;
  if (legal.includes("mulligan")) return mulligan(ctx);
  const assigns = legal.filter((a) => a.startsWith("cmd "));
  if (assigns.length) return command(ctx, assigns);
  if (view.pending_roll && legal.includes("accept")) return roll(ctx, view.pending_roll, legal);
  const pushes = legal.filter((a) => a.startsWith("push "));
  if (pushes.length) return push(ctx, pushes);
  const leads = legal.filter((a) => a.startsWith("lead "));
  if (leads.length) return lead(ctx, leads);
  const hangar = legal.filter((a) => a.startsWith("launch ") || a.startsWith("embark ") || a === "hangar done");
  if (hangar.length) return hangars(ctx, hangar);
  const places = legal.map((a) => a.match(PLACE)).filter(Boolean);
  const moves = legal.filter((a) => MOVE.test(a));
  if (places.length || moves.length) return movement(ctx, moves, places);
  const rallies = legal.filter((a) => a.startsWith("rally "));
  if (rallies.length) return morale(ctx, rallies);
  const attacks = legal.filter((a) => a.includes(">"));
  if (attacks.length || legal.some((a) => a.endsWith(":done"))) return attack(ctx, attacks);
  ctx.controls(`${data.to_move} to act`, ctx.concede());
}

// A choice with its sentence beside it.
function choice(ctx, label, onclick, key, sentence, attrs = {}) {
  return el("div", { class: "choice" }, ctx.button(label, onclick, { title: sentence || STAR[key], ...attrs }),
    el("span", { class: "why", "data-explains": key }, sentence || STAR[key]));
}

// Table inches to the drawing's units (the drawing's scale and margin are on its root).
function tableXY(board, x, y) {
  const d = board.svg.dataset;
  return { x: Number(d.margin) + x * Number(d.pxPerInch), y: Number(d.margin) + y * Number(d.pxPerInch) };
}

function inches(board, p) {
  const d = board.svg.dataset;
  return { x: (p.x - Number(d.margin)) / Number(d.pxPerInch), y: (p.y - Number(d.margin)) / Number(d.pxPerInch) };
}

function elementView(ctx, name) { return ctx.data.view.elements.find((e) => e.name === name) || {}; }

// --- command --------------------------------------------------------------------------------

function mulligan(ctx) {
  ctx.controls("Command: a mulligan?", el("p", {}, "None of your CMD dice shows more than 3."),
    explain(el, "mulligan"),
    el("div", { class: "buttons" }, ctx.button("mulligan (re-roll all)", () => ctx.send("mulligan"), { id: "mulligan", title: STAR.mulligan }),
      ctx.button("keep", () => ctx.send("keep"), { id: "keep", class: "secondary", title: STAR.mulligan })),
    ctx.concede());
}

function command(ctx, assigns) {
  const { pick, data } = ctx;
  const me = data.perspective;
  const pool = data.view.pools[me];
  const hints = data.hints || {};
  const values = [...new Set(assigns.filter((a) => a !== "cmd done").map((a) => Number(a.split(/[ >]/)[1])))].sort((a, b) => b - a);
  if (!values.includes(pick.die)) pick.die = values[0];
  const targets = assigns.filter((a) => a.startsWith(`cmd ${pick.die}>`));
  const row = (a) => {
    const target = a.split(">")[1];
    if (target === "initiative") return choice(ctx, "initiative pool", () => ctx.send(a), "initiative", null, { "data-action": a });
    if (target === "reroll") return choice(ctx, "re-roll pool", () => ctx.send(a), "reroll", null, { "data-action": a });
    const h = hints[a] || {};
    const [element] = target.split(":");
    return choice(ctx, `${element}: ${h.system || target.split(":")[1]} (${h.activation || "?"}+)`, () => ctx.send(a), "system",
      h.summary ? `${h.system}: ${h.summary}` : STAR.system, { "data-action": a });
  };
  ctx.controls(`Command: assign ${me}'s CMD dice (secret)`,
    explain(el, "command"),
    el("p", {}, "Rolled: ", el("span", { class: "dice" }, pool.rolled.map((d) => el("span", { class: "die d6" }, d)))),
    el("p", { class: "muted" }, `Assigned: ${(pool.assigned || []).map(([d, t]) => `${d}→${t}`).join(", ") || "nothing yet"}`),
    el("div", { class: "buttons" }, values.map((v) => ctx.button(`die ${v}`, () => { pick.die = v; command(ctx, assigns); },
      { class: v === pick.die ? "active" : "secondary", "data-die": v, title: STAR.command }))),
    el("div", { class: "choices", id: "assign-targets" }, targets.map(row)),
    choice(ctx, "done (discard the rest)", () => ctx.send("cmd done"), "cmdDone", null, { id: "cmd-done", class: "secondary" }),
    ctx.concede());
}

// --- a roll waiting for the re-roll pools ------------------------------------------------------

function roll(ctx, pending, legal) {
  const { data } = ctx;
  const names = { attack: "attack roll", morale: "morale roll", initiative: "initiative roll-off", shields: "shields roll" };
  const whose = pending.roller === (data.perspective || data.to_move) ? "Your" : `${pending.roller}'s`;
  const atk = pending.kind === "attack" ? data.view.pending_attack : null;
  const hints = data.hints || {};
  const die = (v, i) => atk ? `${v}${atk.hits[i] ? "✓" : "✗"}` : pending.kind === "initiative" ? `${pending.owners[i]} ${v}` : `${v}`;
  const rerolls = legal.filter((a) => a.startsWith("reroll "));
  const effect = (a) => {
    const h = hints[a];
    return h ? `${h.measure} for ${h.for}: ${pct(h.now.probability)} now, ${pct(h.after.probability)} with this die rolled again` : "";
  };
  ctx.controls(`${whose} ${names[pending.kind] || "roll"}`,
    explain(el, "roll"),
    el("p", {}, atk ? `${atk.attacker} ${atk.weapon} → ${atk.target}: ` : pending.element ? `${pending.element}: ` : "",
      el("span", { class: "dice" }, pending.values.map((v, i) => el("span", { class: "die" }, die(v, i))))),
    el("div", { class: "choices", id: "rerolls" }, rerolls.map((a) => {
      const k = Number(a.split(" ")[1]);
      return el("div", { class: "choice" }, ctx.button(`roll die ${k} (${pending.values[k - 1]}) again`, () => ctx.send(a),
        { "data-action": a, title: STAR.roll }), el("span", { class: "odds" }, effect(a)));
    })),
    legal.includes("overcharge") ? choice(ctx, "overcharge", () => ctx.send("overcharge"), "overcharge", null, { "data-action": "overcharge" }) : null,
    choice(ctx, "let it stand", () => ctx.send("accept"), "accept", null, { "data-action": "accept", class: "secondary" }));
}

// --- hangars, pushes, leaders, morale --------------------------------------------------------------

function spotsOf(ctx, actions) {
  const hints = ctx.data.hints || {};
  return actions.filter((a) => hints[a]).map((a) => ({ ...tableXY(ctx.board, hints[a].x, hints[a].y), key: a }));
}

function hangars(ctx, actions) {
  const { pick, board } = ctx;
  const launches = actions.filter((a) => a.startsWith("launch "));
  const squadrons = [...new Set(launches.map((a) => a.slice(7).split(">")[0]))];
  if (!squadrons.includes(pick.squadron)) pick.squadron = squadrons[0];
  const mine = launches.filter((a) => a.startsWith(`launch ${pick.squadron}>`));
  board.spots(spotsOf(ctx, mine));
  board.onSpot = (a) => ctx.send(a);
  ctx.controls("Hangars", explain(el, "hangar"),
    squadrons.length > 1 ? el("div", { class: "buttons" }, squadrons.map((s) => ctx.button(s, () => { pick.squadron = s; hangars(ctx, actions); },
      { class: s === pick.squadron ? "active" : "secondary", "data-squadron": s }))) : null,
    mine.length ? el("p", { class: "muted" }, `Click a marked place to launch ${pick.squadron} there (${mine[0].split(">")[1].split("@")[0]}'s base), or a bearing:`) : null,
    el("div", { class: "buttons", id: "launches" }, mine.map((a) => ctx.button(`${a.split("@")[1]}°`, () => ctx.send(a),
      { class: "secondary", "data-action": a, title: STAR.hangar }))),
    el("div", { class: "buttons", id: "embarks" }, actions.filter((a) => a.startsWith("embark ")).map((a) => {
      const [sq, carrier] = a.slice(7).split(">");
      return ctx.button(`${sq} back aboard ${carrier}`, () => ctx.send(a), { "data-action": a, title: STAR.hangar });
    })),
    actions.includes("hangar done") ? ctx.button("done with the hangars", () => ctx.send("hangar done"),
      { id: "hangar-done", class: "secondary", title: STAR.hangar }) : null,
    ctx.concede());
}

function push(ctx, pushes) {
  const name = pushes[0].slice(5).split("@")[0];
  ctx.board.spots(spotsOf(ctx, pushes));
  ctx.board.onSpot = (a) => ctx.send(a);
  ctx.controls(`Push ${name} aside`, explain(el, "push"),
    el("p", { class: "muted" }, "Click a marked place, or a bearing from the ship:"),
    el("div", { class: "buttons", id: "pushes" }, pushes.map((a) => ctx.button(`${a.split("@")[1]}°`, () => ctx.send(a),
      { class: "secondary", "data-action": a, title: STAR.push }))),
    ctx.concede());
}

function lead(ctx, leads) {
  ctx.controls("A unit's new leader", explain(el, "lead"),
    el("div", { class: "buttons", id: "leaders" }, leads.map((a) => ctx.button(`${a.slice(5)} leads`, () => ctx.send(a),
      { "data-action": a, title: STAR.lead }))),
    ctx.concede());
}

function morale(ctx, rallies) {
  ctx.controls("Morale", explain(el, "morale"),
    el("div", { class: "buttons", id: "rallies" }, rallies.map((a) => {
      const name = a.slice(6);
      if (name === "none") return ctx.button("no rally", () => ctx.send(a), { class: "secondary", "data-action": a, title: STAR.morale });
      const e = elementView(ctx, name);
      return ctx.button(`rally ${name} (${e.disorder} disorder)`, () => ctx.send(a), { "data-action": a, title: STAR.morale });
    })),
    ctx.concede());
}

// --- attacks --------------------------------------------------------------------------------

function attack(ctx, attacks) {
  const { pick, data } = ctx;
  const weapons = [...new Set(attacks.map((a) => a.split(">")[0]))];
  if (!weapons.includes(pick.weapon)) pick.weapon = weapons[0];
  if (pick.weapon) ctx.showWeapon(pick.weapon);
  const hints = data.hints || {};
  const stands = data.legal.filter((a) => a.endsWith(":done"));
  ctx.controls(`Attack: ${data.to_move}`,
    explain(el, "attack"),
    el("div", { class: "buttons" }, weapons.map((w) => ctx.button(w, () => { pick.weapon = w; attack(ctx, attacks); },
      { class: w === pick.weapon ? "active" : "secondary", "data-weapon": w, title: STAR.attack }))),
    el("div", { id: "targets" }, attacks.filter((a) => a.startsWith(`${pick.weapon}>`)).map((a) => {
      const target = a.split(">")[1];
      const torpedo = target.startsWith("launch@");
      const h = hints[a] || {};
      const hit = (h.hit || []).map((x) => pct(x.probability)).join(", ");
      return el("div", { class: "target" }, el("strong", {}, torpedo ? `a torpedo, heading ${target.slice(7)}°` : target),
        h.dice ? el("span", { class: "odds" }, `${h.dice}: hit ${hit}; expected ${h.expected.toFixed(2)}; destroy ${pct(h.destroy.probability)}`) : null,
        ctx.button(torpedo ? "launch it" : `fire at ${target}`, () => ctx.send(a), { "data-action": a, title: STAR.attack }));
    })),
    stands.length ? el("div", { class: "choices", id: "holds" }, stands.map((a) =>
      choice(ctx, `${a.split(":")[0]} holds fire`, () => ctx.send(a), "hold", null, { class: "secondary", "data-action": a }))) : null,
    ctx.concede());
}

// --- movement -------------------------------------------------------------------------------

function movement(ctx, moves, places) {
  const { pick, board, data } = ctx;
  const names = [...new Set([...moves.map((a) => a.split(":")[0]), ...places.map((m) => m[1])])];
  const moving = data.view.moving;
  pick.element = moving || (names.includes(pick.element) ? pick.element : names[0]);
  board.mark("g.element", "moving", false);
  board.mark(`g.element[data-element="${CSS.escape(pick.element)}"]`, "moving", true);
  board.onElement = (name) => {
    if (!moving && names.includes(name) && name !== pick.element && !(pick.plan && pick.plan.steps.length)) {
      pick.element = name;
      movement(ctx, moves, places);
    }
  };
  const chooser = !moving && names.length > 1 ? el("div", { class: "buttons", id: "move-elements" }, names.map((n) =>
    ctx.button(n, () => { pick.element = n; pick.plan = null; movement(ctx, moves, places); },
      { class: n === pick.element ? "active" : "secondary", "data-element": n }))) : null;
  const mine = moves.filter((a) => a.startsWith(`${pick.element}:`));
  const spots = places.filter((m) => m[1] === pick.element);
  board.spots([]);
  board.clear("under"); board.clear("over"); board.clear("drag"); board.clear("hover");
  if (spots.length) return placeSquadron(ctx, pick.element, spots, mine, chooser);
  return shipPlan(ctx, pick.element, mine, chooser);
}

// A squadron is set down, an element out of play arrives: at a marked place.
function placeSquadron(ctx, name, spots, mine, chooser) {
  const { board } = ctx;
  const arriving = spots.some((m) => m[0].includes(":arrive"));
  board.spots(spots.map((m) => ({ ...tableXY(board, Number(m[2]), Number(m[3])), key: m[0] })));
  board.onSpot = (action) => ctx.send(action);
  const stay = mine.find((a) => a.endsWith(":E"));
  const jump = mine.find((a) => a.endsWith(":jump"));
  ctx.controls(`Move ${name}`, chooser, explain(el, arriving ? "arrive" : "squadron"),
    el("p", { class: "muted" }, `Click one of the ${spots.length} marked places.`),
    stay ? ctx.button("stay out of play", () => ctx.send(stay), { class: "secondary", "data-action": stay, title: STAR.arrive }) : null,
    jump ? choice(ctx, "jump to hyperspace", () => ctx.send(jump), "jump", null, { class: "secondary", "data-action": jump }) : null,
    ctx.concede());
}

function shipPlan(ctx, name, mine, chooser) {
  const { pick, board, data } = ctx;
  if (!pick.plan || pick.plan.element !== name || pick.plan.seq !== data.seq) {
    pick.plan = { element: name, seq: data.seq, steps: [], result: null, reach: null, cell: null, heading: null };
  }
  pick.chooser = chooser;
  pick.mine = mine;
  board.onDrag = (phase, p) => drag(ctx, phase, p);
  board.onGhost = (k) => { const cell = pick.plan.reach && pick.plan.reach[Number(k)]; if (cell) dropAt(ctx, cell, null); };
  board.onHover = (target) => {
    board.clear("hover");
    const k = target && target.dataset && target.dataset.ghost;
    const cell = k !== undefined && pick.plan.reach ? pick.plan.reach[Number(k)] : null;
    if (cell) ghost(ctx, board.layer("hover"), cell.x, cell.y, travel(ctx, cell), "ghost-peek");
  };
  document.onkeydown = (e) => {
    if (e.target.closest && e.target.closest("input,select,textarea")) return;
    const r = pick.plan.result;
    if (e.key === "Backspace") { e.preventDefault(); undo(ctx); } else if (e.key === "Enter") { e.preventDefault(); confirmMove(ctx); } else if (r) {
      const want = { ArrowUp: "F", ArrowLeft: "T-", ArrowRight: "T" }[e.key];
      if (!want) return;
      // the longest step forward, the widest pivot that way
      const steps = r.next.map((n) => n.step).filter((s) => (want === "T" ? /^T\d/.test(s) : s.startsWith(want)));
      if (steps.length) { e.preventDefault(); addStep(ctx, steps.sort((a, b) => Math.abs(parseFloat(b.slice(1))) - Math.abs(parseFloat(a.slice(1))))[0]); }
    }
  };
  drawPlan(ctx);
  const plan = pick.plan;
  if (!plan.result || plan.result.steps.join(",") !== plan.steps.join(",") || !plan.reach) checkPlan(ctx);
}

async function checkPlan(ctx) {
  const plan = ctx.pick.plan;
  const asked = plan.steps.join(",");
  try {
    const result = await ctx.plan(plan.element, asked, plan.reach ? "" : "&reach=true");
    if (!ctx.current() || ctx.pick.plan !== plan || plan.steps.join(",") !== asked) return;
    if (result.reach) {  // the first look at this move: frame it (phones)
      plan.reach = result.reach;
      ctx.focus([...result.reach, result.trail[0]], elementView(ctx, plan.element).radius || 1);
    }
    plan.result = result;
    if (result.refused) { ctx.showError(`${result.refused.step}: ${result.refused.why}`); plan.steps = result.steps; }
    drawPlan(ctx);
  } catch (e) {
    // 403/409: the game moved on meanwhile (its new state is on its way); say anything else
    if (e.status !== 403 && e.status !== 409) ctx.showError(e.message);
  }
}

// The heading for an end in this cell: the one asked for, else the one the plan has now, else
// the one nearest the way the element travelled to get there.
function travel(ctx, cell, asked = null) {
  const plan = ctx.pick.plan;
  const hs = cell.headings;
  if (asked !== null && hs.includes(asked)) return asked;
  const start = plan.result ? plan.result.trail[0] : null;
  if (!start) return hs[0];
  const dx = cell.x - start.x, dy = cell.y - start.y;
  const way = Math.hypot(dx, dy) < 0.3 ? start.heading : ((Math.atan2(dx, -dy) * 180) / Math.PI + 360) % 360;
  const off = (h) => { const d = Math.abs(h - way) % 360; return Math.min(d, 360 - d); };
  return [...hs].sort((a, b) => off(a) - off(b))[0];
}

function nearestCell(reach, t) {
  let best = null, gap = Infinity;
  for (const cell of reach) {
    const d = Math.hypot(cell.x - t.x, cell.y - t.y);
    if (d < gap) { gap = d; best = cell; }
  }
  return best;
}

function drag(ctx, phase, p) {
  const plan = ctx.pick.plan;
  if (!plan.reach || ctx.sending()) return;
  if (phase === "start") { plan.dragging = true; return; }
  if (phase === "cancel") { plan.dragging = false; drawPlan(ctx); return; }
  const cell = nearestCell(plan.reach, inches(ctx.board, p));
  if (!cell) return;
  if (phase === "move") {
    ctx.board.clear("drag");
    ghost(ctx, ctx.board.layer("drag"), cell.x, cell.y, travel(ctx, cell), "dragging", true);
    const s = plan.result ? plan.result.trail[0] : null;
    ctx.board.clear("hover");
    if (s) {
      const a = tableXY(ctx.board, s.x, s.y), b = tableXY(ctx.board, cell.x, cell.y);
      ctx.board.draw("hover", "line", { class: "drag-line", x1: a.x, y1: a.y, x2: b.x, y2: b.y });
    }
    return;
  }
  plan.dragging = false;  // "end": the move to the end in this cell
  dropAt(ctx, cell, null);
}

// The move to the end in a cell of the reach (a drop, a click): the engine gives its steps.
async function dropAt(ctx, cell, heading) {
  const plan = ctx.pick.plan;
  if (ctx.sending()) return;
  const want = travel(ctx, cell, heading);
  plan.cell = cell;
  plan.heading = want;
  try {
    const r = await ctx.plan(plan.element, "", `&to=${cell.x},${cell.y},${want}`);
    if (!ctx.current() || ctx.pick.plan !== plan || plan.cell !== cell || plan.heading !== want) return;
    if (!r.best) return;
    plan.steps = r.best.steps;
    plan.result = null;
    ctx.showError("");
    drawPlan(ctx);
    checkPlan(ctx);
  } catch (e) {
    if (e.status !== 403 && e.status !== 409) ctx.showError(e.message);
  }
}

function addStep(ctx, step) {
  const plan = ctx.pick.plan;
  const r = plan.result;
  if (ctx.sending() || !r || r.steps.join(",") !== plan.steps.join(",") || !r.next.some((n) => n.step === step)) return;
  plan.steps = [...plan.steps, step];
  plan.cell = null;
  drawPlan(ctx);
  checkPlan(ctx);
}

function undo(ctx) {
  const plan = ctx.pick.plan;
  if (ctx.sending() || !plan.steps.length) return;
  plan.steps = plan.steps.slice(0, -1);
  plan.cell = null;
  ctx.showError("");
  drawPlan(ctx);
  checkPlan(ctx);
}

function clearPlan(ctx) {
  const plan = ctx.pick.plan;
  if (ctx.sending() || !plan.steps.length) return;
  plan.steps = [];
  plan.cell = null;
  drawPlan(ctx);
  checkPlan(ctx);
}

async function confirmMove(ctx) {
  const plan = ctx.pick.plan;
  const r = plan.result;
  if (ctx.sending() || !r || r.steps.join(",") !== plan.steps.join(",")) return;
  if (!r.finished && !r.can_end) return;
  if (r.off && !(await ctx.ask(`${plan.element} would leave the table on this move. ${STAR.off} Make this move?`, "make the move", "keep planning"))) return;
  const actions = plan.steps.map((s) => `${plan.element}:${s}`);
  if (!r.finished) actions.push(`${plan.element}:E`);
  ctx.sendMany(actions);
}

// A step as the panel says it: 2″ forward, a pivot of +45° (clockwise) or −30°.
function stepText(step) {
  const v = Number(step.slice(1));
  return step.startsWith("F") ? `${v}″` : `${v > 0 ? "+" : "−"}${Math.abs(v)}°`;
}

// An element drawn as a ghost: its base and heading, at a table position.
function ghost(ctx, layer, x, y, heading, cls, draggable = false) {
  const { board } = ctx;
  const e = elementView(ctx, ctx.pick.plan.element);
  const ppi = Number(board.svg.dataset.pxPerInch);
  const c = tableXY(board, x, y);
  const r = Math.max(5, (e.radius || 0.5) * ppi);
  const g = board.draw(layer, "g", { class: `star-ghost side-${e.side} ${cls}`, "data-x": x, "data-y": y, "data-heading": heading });
  if (draggable) g.dataset.drag = ctx.pick.plan.element;
  board.draw(g, "circle", { cx: c.x, cy: c.y, r, class: "ghost-base" });
  const a = (heading * Math.PI) / 180;
  board.draw(g, "line", { x1: c.x, y1: c.y, x2: c.x + Math.sin(a) * (r + 7), y2: c.y - Math.cos(a) * (r + 7), class: "ghost-heading" });
  return g;
}

function drawPlan(ctx) {
  const { pick, board } = ctx;
  const plan = pick.plan;
  const name = plan.element;
  const r = plan.result && plan.result.steps.join(",") === plan.steps.join(",") ? plan.result : null;
  board.clear("under"); board.clear("over"); board.clear("drag"); board.clear("hover");
  // the reach: one spot per half-inch cell the move can end in (off the table: red)
  if (plan.reach) {
    const layer = board.draw("under", "g", { class: "reach" });
    plan.reach.forEach((cell, k) => {
      const c = tableXY(board, cell.x, cell.y);
      board.draw(layer, "circle", { cx: c.x, cy: c.y, r: 3, class: `reach-dot${cell.off ? " off" : ""}${plan.cell === cell ? " chosen" : ""}`,
        "data-ghost": String(k) });
    });
  }
  if (r) {
    if (r.trail.length > 1) {
      board.draw("over", "polyline", { class: "plan-path", points: r.trail.map((t) => { const c = tableXY(board, t.x, t.y); return `${c.x},${c.y}`; }).join(" ") });
    }
    const end = r.trail.at(-1);
    ghost(ctx, board.layer("drag"), end.x, end.y, end.heading, `planned${r.off ? " off" : ""}`, true);
  }
  const total = r ? r.ep : "…";
  const busy = ctx.sending() || !r;
  const next = r ? r.next : [];
  const forward = next.filter((n) => n.step.startsWith("F"));
  const pivots = next.filter((n) => n.step.startsWith("T"));
  const stepButton = (n) => {
    const b = ctx.button(stepText(n.step), () => addStep(ctx, n.step), { class: "secondary", "data-step": n.step, disabled: busy, title: STAR.step });
    b.addEventListener("mouseenter", () => { board.clear("hover"); ghost(ctx, board.layer("hover"), n.x, n.y, n.heading, "ghost-peek"); });
    b.addEventListener("mouseleave", () => board.clear("hover"));
    return b;
  };
  const headings = plan.cell && plan.cell.headings.length > 1 ? el("div", { class: "buttons", id: "end-headings" },
    el("span", { class: "muted" }, "end heading:"),
    [...plan.cell.headings].sort((a, b) => a - b).map((h) => ctx.button(`${h}°`, () => dropAt(ctx, plan.cell, h),
      { class: h === plan.heading ? "active" : "secondary", "data-heading": h, title: STAR.move }))) : null;
  const jump = pick.mine.find((a) => a.endsWith(":jump"));
  const spent = plan.steps.length;
  ctx.controls(ctx.data.view.moving ? `Move ${name} (moving)` : `Move ${name}`,
    pick.chooser,
    explain(el, "move"),
    el("p", { id: "ep", "data-steps": plan.steps.join(",") }, el("span", { class: "big" }, "EP left ", el("strong", { id: "ep-left" }, r ? String(r.ep_left) : "…"), ` of ${total}`),
      r && r.pivot_after && r.ep_left ? el("span", { class: "muted", id: "pivot-after" }, ` · a pivot after ${r.pivot_after}″ more straight ahead`) : null,
      spent ? el("span", { class: "muted" }, ` · planned ${spent} ${spent === 1 ? "step" : "steps"}: ${plan.steps.map(stepText).join(", ")}`) : null),
    r && r.off ? el("p", { class: "warn", id: "off-warning" }, `This move takes ${name} off the table: ${STAR.off}`) : null,
    el("p", { class: "muted small", id: "move-help" }, !r ? "Checking the move…"
      : "Drag the ghost (or click a spot) to where the move should end, or plan it step by step with the buttons."),
    headings,
    forward.length ? el("div", { class: "buttons", id: "forward-steps" }, el("span", { class: "muted" }, "forward"), forward.map(stepButton)) : null,
    pivots.length ? el("div", { class: "buttons", id: "pivot-steps" }, el("span", { class: "muted" }, "pivot"), pivots.map(stepButton)) : null,
    el("div", { class: "buttons" },
      ctx.button("undo step (⌫)", () => undo(ctx), { class: "secondary", disabled: busy || !spent, id: "undo" }),
      ctx.button("clear plan", () => clearPlan(ctx), { class: "secondary", disabled: busy || !spent, id: "clear-plan" }),
      ctx.button(spent ? "confirm move (Enter)" : "end move here (Enter)", () => confirmMove(ctx),
        { disabled: busy || !(r && (r.finished || r.can_end)), id: "end-move", title: STAR.move })),
    jump && !spent ? choice(ctx, "jump to hyperspace", () => ctx.send(jump), "jump", null, { class: "secondary", "data-action": jump }) : null,
    ctx.concede());
}
