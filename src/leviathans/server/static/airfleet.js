// Air-fleet controls on the game page: deployment by pointing at the zone (the whole ship shown
// where it would lie), moves planned on the board (every reachable end as a ghost, the path
// and its cost previewed, steps taken back until confirmed), and the gunnery table. Every
// choice offered is one the engine listed (the legal actions, the server's hints, and the
// engine's check of a planned move): nothing here knows the rules.
import { el, pct } from "/static/common.js";
import { RULES } from "/static/rules.js";
import { commanderControls, drawScreens, drawTorpedoes, isCommander, moveExtras } from "/static/commander.js";
import { isNationsAction, isNationsChoice, isNationsStep, nationsChoice, nationsExtras, nationsMoveExtras, nationsStep } from "/static/nations.js";

export const FACINGS = ["N", "NE", "SE", "S", "SW", "NW"];
const DEPLOY = /^(.+)@(\d{4}):(\w+)$/;
const STEP = /^(.+):([FLREPS])$/;

// ctx: { data, board, pick, controls, button, send, sendMany, concede, drawOffer, showError,
//        ask, planUrl, ruler }
export function airControls(ctx) {
  const legal = ctx.data.legal;
  if (isNationsStep(ctx.data)) return nationsStep(ctx);  // the 8 Nations' declarations
  if (isNationsChoice(ctx.data)) return nationsChoice(ctx);
  if (isCommander(legal)) return commanderControls(ctx);
  const deploys = legal.map((a) => a.match(DEPLOY)).filter(Boolean);
  if (deploys.length) return airDeploy(ctx, deploys);
  // a nations action ("locked SHIP:F", "torque SHIP:L") is no step of a ship's own move
  const steps = legal.filter((a) => !isNationsAction(a)).map((a) => a.match(STEP)).filter(Boolean);
  if (steps.length) return airMove(ctx, steps);
  const fires = legal.filter((a) => a.includes(">") && !isNationsAction(a));
  if (fires.length || legal.includes("done")) return airFire(ctx, fires);
  ctx.controls(`${ctx.data.to_move} to act`, ctx.concede());
}

function shipView(ctx, name) { return ctx.data.view.ships.find((s) => s.name === name); }

function dice(colours) {
  return el("span", { class: "chips" }, colours.map((c) => el("span", { class: `chip ${c}`, title: `${c} die` }, c[0].toUpperCase())));
}

// A ship's hexes drawn as a ghost (bow first): its footprint, a line down its keel and an arrow
// at the bow.
function ghostShip(board, layer, hexes, facing, cls) {
  const g = board.draw(layer, "g", { class: `ghost-ship ${cls}` });
  for (const h of hexes) board.draw(g, "polygon", { class: "ghost-hex", points: board.hexPoints(h, 0.9) });
  const cs = hexes.map((h) => board.centre(h));
  if (cs.length > 1) {
    board.draw(g, "polyline", { class: "ghost-keel", points: cs.map((c) => `${c.x},${c.y}`).join(" ") });
  }
  const k = FACINGS.indexOf(facing);
  const a = (k * Math.PI) / 3, { x, y } = cs[0], r = board.geo.ppi;
  const tip = [x + Math.sin(a) * r * 0.45, y - Math.cos(a) * r * 0.45];
  const l = [x + Math.sin(a - 2.4) * r * 0.28, y - Math.cos(a - 2.4) * r * 0.28];
  const rr = [x + Math.sin(a + 2.4) * r * 0.28, y - Math.cos(a + 2.4) * r * 0.28];
  board.draw(g, "polygon", { class: "ghost-bow", points: [tip, l, rr].map((p) => p.join(",")).join(" ") });
  return g;
}

// --- deployment -------------------------------------------------------------------------------

function airDeploy(ctx, deploys) {
  const { pick, board, data } = ctx;
  const hints = data.hints || {};
  const ships = [...new Set(deploys.map((m) => m[1]))];
  if (!ships.includes(pick.ship)) pick.ship = ships[0];
  const mine = deploys.filter((m) => m[1] === pick.ship);
  const facings = FACINGS.filter((f) => mine.some((m) => m[3] === f));
  if (!facings.includes(pick.facing)) {
    // towards the enemy: the zone's side of the board decides
    const cols = mine.map((m) => Number(m[2].slice(0, 2)));
    const mid = Number(board.svg ? board.svg.dataset.columns : 40) / 2;
    const want = cols.reduce((a, b) => a + b, 0) / cols.length < mid ? ["NE", "SE"] : ["NW", "SW"];
    pick.facing = want.find((f) => facings.includes(f)) || facings[0];
  }
  const here = new Map(mine.filter((m) => m[3] === pick.facing).map((m) => [m[2], m[0]]));
  const anyFacing = new Set(mine.map((m) => m[2]));
  board.mark("polygon.hex", "hl", false);
  for (const h of here.keys()) board.mark(`polygon.hex[data-hex="${h}"]`, "hl", true);
  const ship = shipView(ctx, pick.ship);
  const rotate = (turn) => {
    const k = facings.indexOf(pick.facing);
    pick.facing = facings[(k + turn + facings.length) % facings.length];
    airDeploy(ctx, deploys);  // draws the ship under the pointer again, at its new facing
  };
  const status = el("p", { class: "muted", id: "deploy-help" });
  const preview = (hex) => {
    board.clear("over");
    pick.hoverHex = hex;
    if (!hex) { status.textContent = help; return; }
    const action = here.get(hex);
    if (action && hints[action]) {
      ghostShip(board, "over", hints[action].hexes, pick.facing, `side-${ship.side}`);
      status.textContent = `${pick.ship} at ${hints[action].hexes.join(", ")} facing ${pick.facing}: click to place.`;
    } else if (anyFacing.has(hex)) {
      status.textContent = `No room facing ${pick.facing} with the bow on ${hex}: rotate.`;
    } else {
      status.textContent = `${hex} is not in your deployment zone.`;
    }
  };
  const help = `Point at a hex of your zone: ${pick.ship} (Type ${ship.type}, ${ship.type === 1 ? 2 : ship.type === 4 ? 4 : 3} hexes) is shown with its bow there. Click to place it.`;
  status.textContent = help;
  board.onHover = (target, hex) => preview(hex);
  board.onHex = (hex) => { if (here.has(hex)) ctx.send(here.get(hex)); };
  board.onShip = null;
  board.onWheel = (e) => {
    if (!pick.hoverHex || !anyFacing.has(pick.hoverHex)) return false;
    rotate(e.deltaY > 0 ? 1 : -1);
    return true;
  };
  document.onkeydown = (e) => {
    if (e.target.closest && e.target.closest("input,select,textarea")) return;
    const turn = { q: -1, Q: -1, "[": -1, e: 1, E: 1, "]": 1, r: 1, R: 1 }[e.key];
    if (turn) { e.preventDefault(); rotate(turn); }
  };
  ctx.controls(`Deploy ${pick.ship}`,
    ships.length > 1 ? el("div", { class: "buttons", id: "deploy-ships" }, ships.map((s) => ctx.button(s,
      () => { pick.ship = s; airDeploy(ctx, deploys); }, { class: s === pick.ship ? "active" : "secondary", "data-ship": s, title: RULES.deployOrder }))) : null,
    status,
    el("div", { class: "buttons rotate", id: "facings" },
      ctx.button("⟲", () => rotate(-1), { class: "secondary", id: "rotate-left", "aria-label": "rotate to port", title: `Rotate to port (Q or [ or the wheel). ${RULES.facing}` }),
      facings.map((f) => ctx.button(f, () => { pick.facing = f; airDeploy(ctx, deploys); },
        { class: f === pick.facing ? "active" : "secondary", "data-facing": f, title: `Face ${f}. ${RULES.facing}` })),
      ctx.button("⟳", () => rotate(1), { class: "secondary", id: "rotate-right", "aria-label": "rotate to starboard", title: `Rotate to starboard (E or ] or the wheel). ${RULES.facing}` })),
    el("p", { class: "muted small" }, `Facing ${pick.facing}. Rotate with Q/E, the wheel over your zone or the buttons. `,
      el("a", { href: "/static/rules.html#deployment", target: "_blank" }, "deployment rules")),
    ctx.drawOffer(), ctx.concede());
  if (pick.hoverHex) preview(pick.hoverHex);
}

// --- movement ---------------------------------------------------------------------------------

function airMove(ctx, steps) {
  const { pick, board, data } = ctx;
  const ships = [...new Set(steps.map((m) => m[1]))];
  const moving = data.view.moving;
  if (moving) pick.ship = moving.ship;
  else if (!ships.includes(pick.ship)) pick.ship = ships[0];
  if (!pick.plan || pick.plan.ship !== pick.ship || pick.plan.seq !== data.seq) {
    pick.plan = { ship: pick.ship, seq: data.seq, steps: "", result: null, end: null };
  }
  board.onShip = (name) => {
    if (!moving && ships.includes(name) && name !== pick.ship) { pick.ship = name; airMove(ctx, steps); }
  };
  board.onHex = null;
  board.onWheel = null;
  board.onGhost = (bow) => chooseEnd(ctx, steps, bow, null);
  board.onHover = (target) => {
    board.clear("hover");
    const bow = target && target.dataset && target.dataset.ghost;
    const plan = pick.plan;
    const from = plan.end && plan.branch ? plan.branch : plan.result;
    if (bow && from) {
      const end = bestEnd(from.ends.filter((e) => e.bow === bow), from.trail.at(-1).facing);
      if (end) previewEnd(board, from, end);
    }
  };
  document.onkeydown = (e) => {
    if (e.target.closest && e.target.closest("input,select,textarea")) return;
    const key = { ArrowUp: "F", w: "F", f: "F", F: "F", ArrowLeft: "L", a: "L", l: "L", L: "L",
      ArrowRight: "R", d: "R", r: "R", R: "R", Enter: "E", e: "E", E: "E", Backspace: "U", z: "U", u: "U",
      p: "P", P: "P", s: "S", S: "S" }[e.key];
    if (!key) return;
    e.preventDefault();
    if (key === "U") undo(ctx, steps);
    else if (key === "E") confirmMove(ctx);
    else addStep(ctx, steps, key);
  };
  drawMove(ctx, steps);
  if (!pick.plan.result || pick.plan.result.steps !== pick.plan.steps) checkPlan(ctx, steps);
}

async function checkPlan(ctx, steps) {
  const plan = ctx.pick.plan;
  const asked = plan.steps;
  try {
    const result = await ctx.plan(plan.ship, asked);
    // the page moved on (a newer state drawn, or a newer plan on its way): not this answer
    if (!ctx.current() || ctx.pick.plan !== plan || plan.steps !== asked) return;
    if (!plan.result && !plan.steps) {  // the first look at this move: frame it (phones)
      ctx.focus([...result.trail[0].hexes, ...result.ends.map((e) => e.bow)]);
    }
    plan.result = result;
    if (result.refused) { ctx.showError(`${result.refused.step}: ${result.refused.why}`); plan.steps = result.steps; }
    drawMove(ctx, steps);
  } catch (e) {
    // 403/409: the game moved on meanwhile (its new state is on its way); say anything else
    if (e.status !== 403 && e.status !== 409) ctx.showError(e.message);
  }
}

function addStep(ctx, steps, step) {
  const plan = ctx.pick.plan;
  if (ctx.sending() || !plan.result || plan.result.steps !== plan.steps || !plan.result.next.includes(step)) return;
  plan.steps += step;
  plan.end = null;
  drawMove(ctx, steps);
  checkPlan(ctx, steps);
}

function undo(ctx, steps) {
  const plan = ctx.pick.plan;
  if (ctx.sending() || !plan.steps) return;
  plan.steps = plan.steps.slice(0, -1);
  plan.end = null;
  ctx.showError("");
  drawMove(ctx, steps);
  checkPlan(ctx, steps);
}

function clearPlan(ctx, steps) {
  const plan = ctx.pick.plan;
  if (ctx.sending() || !plan.steps) return;
  plan.steps = "";
  plan.end = null;
  drawMove(ctx, steps);
  checkPlan(ctx, steps);
}

// The end to show for a bow hex: the facing asked for, else the one kept, else the cheapest.
function bestEnd(ends, facing) {
  if (!ends.length) return null;
  return ends.find((e) => e.facing === facing) || [...ends].sort((a, b) => a.steps.length - b.steps.length)[0];
}

function chooseEnd(ctx, steps, bow, facing) {
  const plan = ctx.pick.plan;
  // another ghost after one was chosen: chosen again from where the plan branched off
  const again = plan.end && plan.branch && plan.branch.steps === plan.end.base;
  const result = again ? plan.branch : plan.result;
  if (ctx.sending() || !result) return;
  const ends = result.ends.filter((e) => e.bow === bow);
  const end = bestEnd(ends, facing || result.trail.at(-1).facing);
  if (!end) return;
  const base = again ? plan.end.base : plan.steps;
  plan.end = { bow, facing: end.facing, base };
  plan.branch = result;  // the ends seen from where the plan branches off, for the facings
  plan.steps = base + end.steps;
  drawMove(ctx, steps);
  checkPlan(ctx, steps);
}

function previewEnd(board, result, end) {
  // a quick look while pointing: the ghost at that end (its hexes come with the plan check)
  const g = board.draw("hover", "g", { class: "end-preview" });
  const c = board.centre(end.bow);
  board.draw(g, "circle", { cx: c.x, cy: c.y, r: board.geo.ppi * 0.42, class: "ghost-focus" });
  board.draw(g, "text", { x: c.x, y: c.y + board.geo.ppi * 0.8, class: "ghost-cost" }, `${end.steps.length} MP`);
}

function drawMove(ctx, steps) {
  const { pick, board, data } = ctx;
  const plan = pick.plan;
  const result = plan.result && plan.result.steps === plan.steps ? plan.result : null;
  const ship = shipView(ctx, pick.ship);
  board.mark("g.ship", "moving", false);
  board.mark(`g.ship[data-ship="${CSS.escape(pick.ship)}"]`, "moving", true);
  board.clear("under");
  board.clear("over");
  board.clear("hover");
  // every end still in reach, one marker per bow hex (facings are chosen in the panel); once
  // a ghost is chosen, the others stay on offer
  const offered = plan.end && plan.branch && plan.branch.steps === plan.end.base ? plan.branch : result;
  if (offered) {
    const bows = new Map();
    for (const e of offered.ends) { if (!bows.has(e.bow) || e.steps.length < bows.get(e.bow).steps.length) bows.set(e.bow, e); }
    const layer = board.draw("under", "g", { class: "ghosts" });
    for (const [bow, e] of bows) {
      const edge = offered.ends.filter((x) => x.bow === bow).every((x) => x.edge);
      const chosen = plan.end && plan.end.bow === bow ? " chosen" : "";
      board.draw(layer, "polygon", { class: `ghost${edge ? " edge" : ""}${chosen}`, points: board.hexPoints(bow, 0.55),
        "data-ghost": bow, "data-cost": String(e.steps.length) });
    }
  }
  if (result) {
    // the planned path: the bow's way through the hexes, and the ship where it would stop
    const trail = result.trail;
    if (trail.length > 1) {
      const pts = trail.map((t) => board.centre(t.hexes[0]));
      board.draw("over", "polyline", { class: "plan-path", points: pts.map((p) => `${p.x},${p.y}`).join(" ") });
      ghostShip(board, "over", trail.at(-1).hexes, trail.at(-1).facing, `side-${ship.side} planned${result.edge ? " edge" : ""}`);
    }
  }
  const spent = plan.steps.length;
  const mpLeft = result ? result.mp_left : null;
  const before = result ? result.before_turn : null;
  const next = result ? result.next : [];
  const busy = ctx.sending() || !result;
  const choices = plan.end ? facingChoices(ctx, steps) : null;
  const commander = data.game.rules === "commander";
  drawTorpedoes(ctx);
  const title = ctx.data.view.moving ? `Move ${pick.ship} (moving)` : `Move ${pick.ship}`;
  const finalEdge = result && result.edge;
  ctx.controls(title,
    ships(ctx, steps),
    el("p", { id: "mp", title: RULES.mp },
      el("span", { class: "big" }, "MP left ", el("strong", { id: "mp-left" }, mpLeft === null ? "…" : String(mpLeft)),
        ` of ${ship.mp}`),
      el("span", { class: "big" }, " · hexes before a turn ", el("strong", { id: "before-turn" }, before === null ? "…" : String(before))),
      spent ? el("span", { class: "muted" }, ` · planned ${spent} ${spent === 1 ? "step" : "steps"} (${plan.steps})`) : null),
    finalEdge ? el("p", { class: "warn", id: "edge-warning" }, "This move ends on the half-hex ring at the map's edge: the ship would be lost.") : null,
    el("p", { class: "muted small", id: "move-help" }, !result ? "Checking the move…"
      : plan.end ? `Ends at ${plan.end.bow} for ${plan.steps.length - plan.end.base.length} MP: confirm, pick its facing, or click another ghost.`
        : result.ends.length ? "Click a ghost on the board for the whole move, or step with the buttons or keys."
          : "No move left: confirm to end it."),
    choices,
    el("div", { class: "buttons", id: "steps" },
      ctx.button("⟲ port (L)", () => addStep(ctx, steps, "L"), { disabled: busy || !next.includes("L"), id: "turn-left", title: RULES.turn }),
      ctx.button("forward (F)", () => addStep(ctx, steps, "F"), { disabled: busy || !next.includes("F"), id: "forward", title: RULES.forward }),
      ctx.button("starboard (R) ⟳", () => addStep(ctx, steps, "R"), { disabled: busy || !next.includes("R"), id: "turn-right", title: commander ? `${RULES.turn} ${RULES.turnInPlace}` : RULES.turn })),
    commander ? el("div", { class: "buttons", id: "slips" },
      ctx.button("⇖ sideslip to port (P)", () => addStep(ctx, steps, "P"), { disabled: busy || !next.includes("P"), id: "slip-port", title: RULES.sideslip }),
      ctx.button("sideslip to starboard (S) ⇗", () => addStep(ctx, steps, "S"), { disabled: busy || !next.includes("S"), id: "slip-starboard", title: RULES.sideslip }),
      el("span", { class: "muted small", title: RULES.broach }, "broach turns: forced only")) : null,
    moveExtras(ctx, pick.ship, plan.steps),
    nationsMoveExtras(ctx, pick.ship, plan.steps),
    el("div", { class: "buttons" },
      ctx.button("undo step (⌫)", () => undo(ctx, steps), { class: "secondary", disabled: busy || !plan.steps, id: "undo", title: RULES.undo }),
      ctx.button("clear plan", () => clearPlan(ctx, steps), { class: "secondary", disabled: busy || !plan.steps, id: "clear-plan", title: RULES.clear }),
      ctx.button(plan.steps ? "confirm move (E)" : "end move here (E)", () => confirmMove(ctx),
        { disabled: busy || !(result && (result.finished || result.next.includes("E"))), id: "end-move", title: RULES.end }),
      commander && plan.steps && result && !result.finished ? ctx.button("make these steps, keep moving", () => makeSteps(ctx),
        { class: "secondary", disabled: busy, id: "make-steps", title: RULES.keepMoving }) : null),
    el("p", { class: "muted small" }, "Keys: ↑/F forward, ←/L port, →/R starboard, ⌫/Z undo, Enter/E confirm. ",
      el("a", { href: "/static/rules.html#movement", target: "_blank" }, "movement rules")),
    ctx.drawOffer(), ctx.concede());
}

function facingChoices(ctx, steps) {
  const plan = ctx.pick.plan;
  const base = plan.end.base;
  // the ends at the chosen bow hex, as seen from where the plan branched off
  if (!plan.branch || plan.branch.steps !== base) return null;
  const ends = plan.branch.ends.filter((e) => e.bow === plan.end.bow);
  return el("div", { class: "buttons", id: "end-facings" }, el("span", { class: "muted" }, `end at ${plan.end.bow} facing:`),
    FACINGS.filter((f) => ends.some((e) => e.facing === f)).map((f) => {
      const e = ends.find((x) => x.facing === f);
      return ctx.button(`${f} (${e.steps.length} MP)`, () => {
        plan.steps = base + e.steps;
        plan.end = { bow: plan.end.bow, facing: f, base };
        drawMove(ctx, steps);
        checkPlan(ctx, steps);
      }, { class: f === plan.end.facing ? "active" : "secondary", "data-facing": f, title: RULES.facing });
    }));
}

function ships(ctx, steps) {
  const { pick, data } = ctx;
  const names = [...new Set(steps.map((m) => m[1]))];
  if (names.length < 2 || data.view.moving) return null;
  return el("div", { class: "buttons", id: "move-ships" }, names.map((s) => ctx.button(s,
    () => { pick.ship = s; airMove(ctx, steps); }, { class: s === pick.ship ? "active" : "secondary", "data-ship": s, title: RULES.ship })));
}

async function confirmMove(ctx) {
  const plan = ctx.pick.plan;
  const result = plan.result;
  if (ctx.sending() || !result || result.steps !== plan.steps) return;
  if (!result.finished && !result.next.includes("E")) return;
  if (result.edge && !(await ctx.ask(`${plan.ship} would end this move on the half-hex ring at the map's edge, and a ship that ends a move there is lost. Make this move?`, "make the move", "keep planning"))) return;
  const actions = [...plan.steps].map((s) => `${plan.ship}:${s}`);
  if (!result.finished) actions.push(`${plan.ship}:E`);
  ctx.sendMany(actions);
}

// The planned steps played, the move left open (to ram or hug from there: Commander rules).
function makeSteps(ctx) {
  const plan = ctx.pick.plan;
  if (ctx.sending() || !plan.steps || !plan.result || plan.result.steps !== plan.steps) return;
  ctx.sendMany([...plan.steps].map((s) => `${plan.ship}:${s}`));
}

// --- gunnery ----------------------------------------------------------------------------------

function airFire(ctx, fires) {
  const { pick, board, data } = ctx;
  const hints = data.hints || {};
  const byGun = new Map();
  for (const a of fires) {
    const gun = a.split(">")[0];
    if (!byGun.has(gun)) byGun.set(gun, []);
    byGun.get(gun).push(a);
  }
  const guns = hints.$guns || [...byGun.keys()].filter((g) => !g.includes("+")).map((g) => ({ gun: g, ship: g.split(":")[0], slot: g.split(":")[1], weapon: "", location: g.split(":")[1].split(".")[0], bands: [], arcs: {} }));
  const brackets = bracketGroups(guns, byGun, hints);
  const live = [...guns.filter((g) => byGun.has(g.gun)), ...brackets];
  if (!live.some((g) => g.gun === pick.gun)) pick.gun = live.length ? live[0].gun : null;
  board.onHex = null;
  board.onWheel = null;
  board.onShip = null;
  board.onHover = null;
  document.onkeydown = null;
  const show = (gun) => showGun(ctx, [...guns, ...brackets].find((g) => g.gun === gun), byGun.get(gun) || [], hints);
  const rows = guns.map((g) => {
    const actions = byGun.get(g.gun) || [];
    const why = g.destroyed ? "destroyed" : g.fired ? "fired this turn" : actions.length ? null : "no target in arc and range";
    const row = el("tr", { class: `gun${why ? " idle" : ""}${g.gun === pick.gun ? " picked" : ""}`, "data-gun": g.gun,
      title: why ? `${g.ship} ${g.slot}: ${why}. ${RULES.arc}` : RULES.gun },
      el("td", {}, el("strong", {}, g.weapon || g.slot), el("div", { class: "muted" }, `${g.ship.replace(/^HML /, "")} ${g.slot}`)),
      el("td", {}, g.location),
      el("td", { class: "bands", title: RULES.bands }, g.bands.map((b) => el("div", {}, `${b.band} ≤${b.range} `, dice(b.dice)))),
      el("td", { class: "shots" }, why ? el("span", { class: "muted" }, why) : actions.map((a) => shotCell(ctx, a, hints[a] || {}))));
    row.addEventListener("mouseenter", () => show(g.gun));
    row.addEventListener("mouseleave", () => show(pick.gun));
    row.addEventListener("click", (e) => { if (!e.target.closest("button,summary,details")) { pick.gun = g.gun; airFire(ctx, fires); } });
    return row;
  });
  for (const b of brackets) {  // A4: each bracket group a row of its own, below its guns
    const row = el("tr", { class: `gun bracket${b.gun === pick.gun ? " picked" : ""}`, "data-gun": b.gun, title: RULES.bracket },
      el("td", {}, el("strong", {}, `${b.weapon} bracket`), el("div", { class: "muted" }, `${b.ship.replace(/^HML /, "")} ${b.refs.join(" + ")}`)),
      el("td", {}, b.location),
      el("td", { class: "bands", title: RULES.bracket }, `${b.refs.length} guns as one: best ${b.kept} count`),
      el("td", { class: "shots" }, byGun.get(b.gun).map((a) => bracketCell(ctx, a, hints[a] || {}))));
    row.addEventListener("mouseenter", () => show(b.gun));
    row.addEventListener("mouseleave", () => show(pick.gun));
    row.addEventListener("click", (e) => { if (!e.target.closest("button,summary,details")) { pick.gun = b.gun; airFire(ctx, fires); } });
    rows.push(row);
  }
  if (!pick.framed) {  // phones: the guns' ships and their targets
    pick.framed = true;
    const names = new Set([...guns.map((g) => g.ship), ...fires.map((a) => a.split(">")[1].split(":")[0])]);
    ctx.focus([...board.svg.querySelectorAll("g.ship")].filter((g) => names.has(g.dataset.ship)).flatMap((g) => g.dataset.hexes.split(" ")));
  }
  ctx.controls(`Gunnery: ${data.to_move}`,
    el("div", { id: "targets", class: "gun-table-wrap" },
      el("table", { class: "gun-table", id: "gun-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "gun"), el("th", {}, "loc."), el("th", { title: RULES.bands }, "bands"),
          el("th", { title: RULES.headline }, "targets · chance to destroy a slot"))),
        el("tbody", {}, rows))),
    nationsExtras(ctx, "nations-gunnery"),
    el("div", { class: "buttons" }, data.legal.includes("done") ? ctx.button("done firing", () => ctx.send("done"),
      { id: "done", class: "secondary", title: RULES.done }) : null),
    el("p", { class: "muted small" }, "Point at a gun for its arc (short band orange, long yellow) and its targets' odds on the board. ",
      el("a", { href: "/static/rules.html#gunnery", target: "_blank" }, "gunnery rules")),
    ctx.drawOffer(), ctx.concede());
  show(pick.gun);
}

// A4: the bracket groups among the legal attacks (their texts join the guns with "+"), each
// drawn on the board as the union of its guns' arcs, from its first gun's hex.
function bracketGroups(guns, byGun, hints) {
  const out = [];
  for (const [key, actions] of byGun) {
    if (!key.includes("+")) continue;
    const h = hints[actions[0]] || {};
    const ship = key.slice(0, key.lastIndexOf(":"));
    const refs = key.slice(key.lastIndexOf(":") + 1).split("+");
    const members = refs.map((r) => guns.find((g) => g.gun === `${ship}:${r}`)).filter(Boolean);
    const arcs = { short: new Set(), long: new Set() };
    for (const m of members) for (const band of ["short", "long"]) for (const x of (m.arcs || {})[band] || []) arcs[band].add(x);
    for (const x of arcs.short) arcs.long.delete(x);
    out.push({ gun: key, ship, slot: refs.join("+"), refs, weapon: h.weapon || (members[0] || {}).weapon || "",
      location: [...new Set(members.map((m) => m.location))].join(", "), kept: h.kept || 2,
      from: members.length ? members[0].from : null, arcs: { short: [...arcs.short], long: [...arcs.long] }, bands: [] });
  }
  // the biggest group first within each ship and weapon
  return out.sort((a, b) => a.ship.localeCompare(b.ship) || a.weapon.localeCompare(b.weapon) || b.refs.length - a.refs.length);
}

// A4 saturation: an attack rolling more than one slot die says so.
function slotDice(n) {
  if (!n || n < 2) return null;
  return el("span", { class: "saturation", title: RULES.saturation }, `■ ${n} slot dice`);
}

function oddsDetail(h, dicePart) {
  const slots = Object.entries(h.destroy || {}).sort((a, b) => b[1].probability - a[1].probability);
  return el("details", { class: "odds-detail" }, el("summary", { title: "Odds: each slot's chance to be destroyed, and the keel's to break [damage]." }, "odds"),
    dicePart,
    el("table", { class: "slot-odds" }, slots.map(([ref, p]) => el("tr", {}, el("td", {}, ref), el("td", {}, pct(p.probability))))),
    el("div", { class: "odds" }, `critical ${pct(h.critical ? h.critical.probability : 0)} · keel ${pct(h.keel ? h.keel.probability : 0)}`));
}

function bracketCell(ctx, action, h) {
  const [target, loc] = action.split(">")[1].split(":");
  const any = h.any ? h.any.probability : 0;
  const guns = (h.guns || []).join(" + ");
  const alone = (h.alone || []).map((a) => `${a.gun} ${pct(a.any.probability)}`).join(", ");
  const ranges = (h.ranges || []).join(", ");
  return el("div", { class: "shot bracket-shot" },
    ctx.button(`${target} ${loc} · ${pct(any)}`, () => ctx.send(action), { "data-action": action,
      title: `Fire ${guns} together at ${target}, striking its ${loc} (ranges ${ranges}): ${pct(any)} to destroy a slot; alone: ${alone || "none"}. ${RULES.bracket}` }),
    el("span", { class: "alone", title: `Each gun's own attack at ${target}'s ${loc}: ${alone || "none"}` }, `alone best ${pct(h.best_alone || 0)}`),
    el("div", { class: "bracket-dice" },
      (h.weapon_dice || []).map((d, i) => el("span", { class: "gun-dice", title: `${(h.guns || [])[i]}: weapon dice at range ${(h.ranges || [])[i]}` }, dice(d))),
      el("span", { class: "muted" }, ` best ${h.kept || 2} kept · crew `), dice(h.crews || []),
      el("span", { class: "muted" }, (h.crews || []).length > 1 ? " best kept · loc. " : " · loc. "), dice(h.location_dice || []),
      h.modifier ? el("span", { class: "muted" }, ` ${h.modifier > 0 ? "+" : ""}${h.modifier}`) : null,
      slotDice(h.slot_dice) || el("span", { class: "muted" }, " · 1 slot die")),
    oddsDetail(h, el("div", { class: "odds" }, `ranges ${ranges}`)));
}

function shotCell(ctx, action, h) {
  const [target, loc] = action.split(">")[1].split(":");
  const any = h.any ? h.any.probability : (h.expected || 0);
  return el("div", { class: "shot" },
    ctx.button(`${target} ${loc} · ${pct(any)}`, () => ctx.send(action), { "data-action": action,
      title: `Fire at ${target}, striking its ${loc} (range ${h.range}): ${pct(any)} to destroy a slot. ${RULES.fire}` }),
    h.screened ? el("span", { class: "screened-mark", "data-screened": target, title: RULES.screened },
      `screened: range ${h.range} to ${h.screened.to}`) : null,
    slotDice(h.slot_dice),
    oddsDetail(h, el("div", { class: "odds" }, `range ${h.range}, dice `, dice(h.dice || []))));
}

// The gun's arc and range bands on the board, its targets outlined with their best odds.
function showGun(ctx, gun, actions, hints) {
  const { board } = ctx;
  board.clear("under");
  board.clear("over");
  board.mark("g.ship", "target", false);
  board.mark("g.ship", "moving", false);
  ctx.ruler(gun ? gun.from : null, gun ? `${gun.ship} ${gun.slot}` : null);
  if (!gun) return;
  const layer = board.draw("under", "g", { class: "gun-arcs" });
  for (const band of ["long", "short"]) {
    for (const h of (gun.arcs || {})[band] || []) board.draw(layer, "polygon", { class: `arc arc-${band}`, points: board.hexPoints(h), "data-hex": h });
  }
  const from = board.centre(gun.from);
  board.draw("over", "circle", { cx: from.x, cy: from.y, r: board.geo.ppi * 0.18, class: "gun-origin" });
  board.mark(`g.ship[data-ship="${CSS.escape(gun.ship)}"]`, "moving", true);
  const best = new Map();
  for (const a of actions) {
    const target = a.split(">")[1].split(":")[0];
    const h = hints[a] || {};
    const p = h.any ? h.any.probability : 0;
    if (!best.has(target) || p > best.get(target)) best.set(target, p);
  }
  for (const [target, p] of best) {
    const g = board.svg.querySelector(`g.ship[data-ship="${CSS.escape(target)}"]`);
    if (!g) continue;
    g.classList.add("target");
    const b = g.getBBox();
    board.tag("over", { x: b.x, y: b.y, w: b.width, h: b.height }, pct(p), "odds-tag", { "data-target": target });
  }
  drawScreens(ctx, gun, actions, hints);
}
