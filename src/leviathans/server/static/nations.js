// The 8 Nations' special actions on the game page (issue 16.7): each offered at its moment as a
// control with its chance of success and one line of what success and failure do: the steps of
// declarations (after movement, before gunnery, reinforcement, after repair), the actions
// before or within a ship's move (Lock Formation, For Glory!, Tesla charges...), a lock moving
// as one. Every label, chance and outcome comes from the server's hints (nations_hints.py: the
// rules' own odds functions); nothing here knows the rules.
import { el, pct } from "/static/common.js";
import { RULES } from "/static/rules.js";

// the nations' action texts the move panel and the gunnery table must leave alone
const WORDS = ["lock ", "locked ", "charge ", "effas ", "torque ", "return ", "reinforce ", "flank ",
  "evade ", "concentrate ", "mine ", "bomb ", "bracket "];

export function isNationsAction(a) {
  return WORDS.some((w) => a.startsWith(w)) || a.includes(":GLORY>");
}

// A step of declarations is open (its "STEP done" is legal).
export function isNationsStep(data) {
  return Boolean((data.hints || {}).$step);
}

// A decision made of nations actions alone (a lock moving as one, a bomb's strike...).
export function isNationsChoice(data) {
  const hints = data.hints || {};
  return data.legal.length > 0 && data.legal.every((a) => isNationsAction(a) && hints[a]);
}

const short = (name) => String(name || "").replace(/ \(8 Nations\)$/, "").replace(/^HML /, "");

// The legal nations actions with hints, grouped by ship and rule: the actions of a group differ
// in their choice (a facing, a side, a number of charges...), the rule's header and what
// success and failure do are shown once.
function groups(data, keep) {
  const hints = data.hints || {};
  const out = new Map();
  for (const a of data.legal) {
    const h = hints[a];
    if (!h || !h.rule || !keep(a, h)) continue;
    const key = `${h.ship}|${h.rule}`;
    if (!out.has(key)) out.set(key, { ship: h.ship, rule: h.rule, nation: h.nation, first: h, actions: [] });
    out.get(key).actions.push([a, h]);
  }
  return [...out.values()];
}

function outcomes(h) {
  return el("ul", { class: "outcomes" },
    h.effect ? el("li", { class: "effect" }, el("strong", {}, "Effect: "), h.effect) : null,
    h.success ? el("li", { class: "success" }, el("strong", {}, h.chance ? "Success: " : "Effect: "), h.success) : null,
    h.failure ? el("li", { class: "failure" }, el("strong", {}, "Failure: "), h.failure) : null,
    h.critical ? el("li", { class: "critical" }, el("strong", {}, `Critical failure (${pct(h.critical.chance.probability)}): `), h.critical.text) : null);
}

// One rule of one ship: its name, roll and cost, a button per choice (with its chance), and
// what success and failure do.
function groupBox(ctx, g, opts = {}) {
  const h = g.first;
  const facts = [h.roll, h.cost ? `costs ${h.cost}` : null].filter(Boolean).join(" · ");
  return el("div", { class: `nation-rule nation-${g.nation}`, "data-rule": g.rule, "data-ship": g.ship },
    el("div", { class: "nation-head" }, el("strong", {}, g.rule), " ", el("span", { class: "muted" }, short(g.ship)),
      facts ? el("span", { class: "muted small" }, ` · ${facts}`) : null),
    choiceRows(g).map(([row, actions]) => el("div", { class: "buttons", "data-row": row || null },
      row ? el("span", { class: "muted small row-label" }, row) : null,
      actions.map(([a, x]) => ctx.button(
      x.chance ? `${x.label} · ${pct(x.chance.probability)}` : x.label,
      async () => {
        if (opts.disabled) return;
        if (opts.confirm && !(await ctx.ask(`${g.rule} (${short(g.ship)}): ${x.label}. `
          + `${x.chance ? `Chance ${pct(x.chance.probability)}. ` : ""}`
          + `${x.success ? `Success: ${x.success}. ` : ""}${x.failure ? `Failure: ${x.failure}.` : ""}`, "declare it", "not now"))) return;
        ctx.send(a);
      },
      { "data-action": a, class: x.chance ? "" : "secondary", disabled: Boolean(opts.disabled) || ctx.sending(),
        onmouseenter: () => pointAt(ctx.board, x), onmouseleave: () => ctx.board.clear("hover"),
        title: [x.roll, x.chance ? `exact chance ${x.chance.fraction}` : null, RULES.nations].filter(Boolean).join(" · ") })))),
    sameOutcomes(g) ? outcomes(h) : g.actions.map(([, x]) => el("div", { class: "choice-outcome" },
      el("span", { class: "muted small" }, `${x.label}:`), outcomes(x))));
}

// A group's choices in rows where the hints name one (e.g. Reinforce: a row per crew moving).
function choiceRows(g) {
  const rows = new Map();
  for (const pair of g.actions) {
    const row = pair[1].row || "";
    if (!rows.has(row)) rows.set(row, []);
    rows.get(row).push(pair);
  }
  return [...rows.entries()];
}

// Pointing at a choice shows where it acts: a hex (a mine), a target ship (a bomb, a ray).
function pointAt(board, x) {
  board.clear("hover");
  if (x.hex) {
    const c = board.centre(x.hex);
    board.draw("hover", "circle", { cx: c.x, cy: c.y, r: board.geo.ppi * 0.42, class: "ghost-focus" });
  }
  const target = x.target && board.svg.querySelector(`g.ship[data-ship="${CSS.escape(x.target)}"]`);
  if (target) {
    const b = target.getBBox();
    board.draw("hover", "rect", { x: b.x - 3, y: b.y - 3, width: b.width + 6, height: b.height + 6, rx: 4, class: "nation-target" });
  }
}

function sameOutcomes(g) {
  const line = (x) => [x.success, x.failure, x.critical ? x.critical.text : ""].join("|");
  return g.actions.every(([, x]) => line(x) === line(g.first));
}

// --- a step of declarations ----------------------------------------------------------------------

export function nationsStep(ctx) {
  const { data, board } = ctx;
  resetBoard(board);
  const step = data.hints.$step;
  const list = groups(data, () => true);
  for (const g of list) board.mark(`g.ship[data-ship="${CSS.escape(g.ship)}"]`, "moving", true);
  // a fled ship that may roll to return: its token's hex (issue 16.7, N5)
  const rolling = new Set(list.map((g) => g.ship));
  for (const f of (data.view.nations || {}).fled || []) {
    if (rolling.has(f.ship)) board.mark(`polygon.hex[data-hex="${f.token}"]`, "hl", true);
  }
  const known = new Set(list.flatMap((g) => g.actions.map(([a]) => a)));
  // an action of a rule the hints do not describe yet: still offered, by its notation
  const other = data.legal.filter((a) => a !== step.done && !known.has(a));
  const title = step.title.charAt(0).toUpperCase() + step.title.slice(1);
  ctx.controls(`${title}: ${data.to_move}`,
    el("p", { class: "muted small", id: "nations-help" },
      "Your ships may declare their nation's special action now, one at a time: each takes effect (or is rolled) at once. ",
      "Then end your declarations."),
    el("div", { id: "nations-step", "data-step": step.step }, list.map((g) => groupBox(ctx, g))),
    other.length ? el("div", { class: "buttons", id: "nations-other" }, other.map((a) => ctx.button(a, () => ctx.send(a),
      { class: "secondary", "data-action": a }))) : null,
    el("div", { class: "buttons" }, ctx.button(`no more declarations (${step.step.replaceAll("-", " ")})`, () => ctx.send(step.done),
      { id: "nations-done", class: "secondary", "data-action": step.done, title: RULES.nationsDone })),
    el("p", { class: "muted small" }, el("a", { href: "/static/rules.html#nations", target: "_blank" }, "the 8 Nations' rules")),
    ctx.drawOffer(), ctx.concede());
}

function resetBoard(board) {
  board.onHex = null; board.onShip = null; board.onHover = null; board.onWheel = null; board.onGhost = null;
  document.onkeydown = null;
  board.clear("under"); board.clear("over"); board.clear("hover");
  board.mark("g.ship", "target", false);
  board.mark("g.ship", "moving", false);
  board.mark("polygon.hex", "hl", false);
}

// --- before or within a move ----------------------------------------------------------------------

// The nations' actions open to ``ship`` in the move panel (made from where it stands: planned
// steps are made or cleared first, as for a ram).
export function nationsMoveExtras(ctx, ship, planned) {
  const { data } = ctx;
  const list = groups(data, (a, h) => h.ship === ship);
  if (!list.length) return null;
  return el("div", { id: "nations-move" },
    planned ? el("p", { class: "muted small" }, "Make or clear the planned steps first: a special action is made from where the ship stands.") : null,
    list.map((g) => groupBox(ctx, g, {
      disabled: Boolean(planned),
      // a roll that may end the move (Lock Formation, For Glory!) is confirmed first
      confirm: g.first.chance !== null && g.first.chance !== undefined,
    })));
}

// --- a decision of nations actions alone ------------------------------------------------------------

export function nationsChoice(ctx) {
  const { data, board } = ctx;
  if (data.legal.every((a) => a.startsWith("locked "))) return lockMove(ctx);
  resetBoard(board);
  const list = groups(data, () => true);
  for (const g of list) if (g.ship) board.mark(`g.ship[data-ship="${CSS.escape(g.ship)}"]`, "target", true);
  ctx.controls(`${list.map((g) => g.rule).filter((r, i, all) => all.indexOf(r) === i).join(", ")}: ${data.to_move} chooses`,
    list.map((g) => groupBox(ctx, g)),
    ctx.drawOffer(), ctx.concede());
}

// The nations' actions of the torpedo launch phase (Bomba Mines, Bomber Levs), below the
// torpedoes; and of gunnery (Concentrated Fire brackets), below the gun table.
export function nationsExtras(ctx, id) {
  const list = groups(ctx.data, () => true);
  if (!list.length) return null;
  return el("div", { id }, list.map((g) => groupBox(ctx, g)));
}

// --- a lock moving as one (N4) --------------------------------------------------------------------

function lockMove(ctx) {
  const { data, board } = ctx;
  resetBoard(board);
  const moving = (data.view.nations || {}).lock_moving;
  const locks = (data.view.nations || {}).locks || [];
  const lead = moving ? moving.lead : (data.hints[data.legal[0]] || {}).ship;
  const lock = locks.find((m) => m.includes(lead)) || [lead];
  for (const s of lock) board.mark(`g.ship[data-ship="${CSS.escape(s)}"]`, "moving", true);
  const list = groups(data, () => true);
  ctx.controls(`Move the lock as one: ${lock.map(short).join(" + ")}`,
    moving ? el("p", { id: "lock-mp", class: "big" }, "MP left ", el("strong", {}, String(moving.mp_left)),
      " · hexes before a turn ", el("strong", {}, String(moving.hexes_before_turn))) : null,
    el("p", { class: "muted small", id: "lock-help" },
      "The locked ships move and turn together with the lowest MP among them; a turn is about one member's pivot and costs 1 MP per member; a sideslip (once a move, 1 MP) needs every member's steering gear or slip shaft on that side."),
    list.map((g) => groupBox(ctx, g)),
    ctx.drawOffer(), ctx.concede());
}
