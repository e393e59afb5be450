// The Commander rules' decisions on the air-fleet game page (issue 15.6): torpedo launches aimed
// on the board with their odds (A5), the launching side's strike choices, the location of a
// ram's strike (A6), each crew's repair with its chance (A9), and the movement extras offered
// in the move panel (rams, hugs, sideslips: see airfleet.js). Every figure comes from the
// server's hints (the engine's own odds); nothing here knows the rules.
import { el, pct } from "/static/common.js";
import { RULES } from "/static/rules.js";
import { nationsExtras } from "/static/nations.js";

const LAUNCH = /^launch (.+):(\w+\.\d+)@(\d{4})$/;

export function isCommander(legal) {
  return legal.some((a) => a.startsWith("launch ") || a.startsWith("torpedo ") || a.startsWith("repair ")
    || a.includes(":RAM>"));
}

export function commanderControls(ctx) {
  const legal = ctx.data.legal;
  if (legal.some((a) => a.startsWith("launch "))) return airLaunch(ctx);
  if (legal.some((a) => a.startsWith("torpedo "))) return torpedoChoice(ctx);
  if (legal.some((a) => a.includes(":RAM>"))) return ramStrike(ctx);
  return airRepair(ctx);
}

function resetBoard(ctx) {
  const { board } = ctx;
  board.onHex = null; board.onShip = null; board.onHover = null; board.onWheel = null; board.onGhost = null;
  document.onkeydown = null;
  board.clear("under"); board.clear("over"); board.clear("hover");
  board.mark("g.ship", "target", false);
  board.mark("g.ship", "moving", false);
  board.mark("polygon.hex", "hl", false);
}

// The turn's torpedo tokens already placed: a dashed line from each launch hex to its target.
export function drawTorpedoes(ctx) {
  const { board, data } = ctx;
  for (const t of data.view.torpedoes || []) {
    if (t.resolved) continue;
    line(board, "under", t.launch, t.target, `torpedo-line placed side-${t.side}`, { "data-torpedo": String(t.number) });
  }
}

function line(board, layer, from, to, cls, attrs = {}) {
  const a = board.centre(from), b = board.centre(to);
  const g = board.draw(layer, "g", { class: cls, ...attrs });
  board.draw(g, "line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y });
  board.draw(g, "circle", { cx: a.x, cy: a.y, r: board.geo.ppi * 0.16, class: "launch-token" });
  board.draw(g, "polygon", { points: board.hexPoints(to, 0.45), class: "target-token" });
  return g;
}

// The ships a torpedo line meets first, outlined and tagged with the best odds.
function markMet(ctx, meeting) {
  const { board } = ctx;
  for (const name of meeting.meets) {
    const g = board.svg.querySelector(`g.ship[data-ship="${CSS.escape(name)}"]`);
    if (!g) continue;
    g.classList.add("target");
    const best = Math.max(0, ...meeting.attacks.filter((a) => a.ship === name).map((a) => a.any.probability));
    const b = g.getBBox();
    board.tag("over", { x: b.x, y: b.y, w: b.width, h: b.height }, pct(best), "odds-tag", { "data-target": name });
  }
}

function meetingText(meeting) {
  if (!meeting.meets.length) return "Its line meets no ship: the torpedo would be lost (if nothing moves into it).";
  const parts = meeting.attacks.map((a) => `${a.ship}'s ${a.location}: ${pct(a.any.probability)} to destroy a slot, keel ${pct(a.keel.probability)}`);
  const who = meeting.meets.length > 1 ? `${meeting.meets.join(" and ")} (at one point: your choice)` : meeting.meets[0];
  return `Its line meets ${who} first. ${parts.join("; ")}. Ships still move before it resolves.`;
}

// --- torpedo launch (A5) -------------------------------------------------------------------------

function airLaunch(ctx) {
  const { pick, board, data } = ctx;
  resetBoard(ctx);
  drawTorpedoes(ctx);
  const slots = (data.hints || {}).$launch || [];
  const key = (s) => `${s.ship}:${s.slot}`;
  if (!slots.some((s) => key(s) === pick.tslot)) { pick.tslot = slots.length ? key(slots[0]) : null; pick.aim = null; }
  const slot = slots.find((s) => key(s) === pick.tslot);
  const targets = new Set(slot ? slot.targets : []);
  for (const h of targets) board.mark(`polygon.hex[data-hex="${h}"]`, "hl", true);
  if (slot) {
    const from = board.centre(slot.from);
    board.draw("over", "circle", { cx: from.x, cy: from.y, r: board.geo.ppi * 0.2, class: "gun-origin launch-origin" });
    board.mark(`g.ship[data-ship="${CSS.escape(slot.ship)}"]`, "moving", true);
    ctx.ruler(slot.from, `${slot.ship} ${slot.slot}`);
  }
  if (!pick.framedLaunch && slot) { pick.framedLaunch = true; ctx.focus([slot.from, ...slot.targets]); }
  const status = el("p", { id: "launch-odds", class: "odds-line" });
  const aimAt = async (hex) => {
    if (!slot || !targets.has(hex) || ctx.sending()) return;
    pick.aim = { slot: key(slot), hex, odds: null };
    showAim();
    try {
      const odds = await ctx.aim(slot.ship, slot.slot, hex);
      if (!ctx.current() || !pick.aim || pick.aim.hex !== hex) return;
      pick.aim.odds = odds;
      showAim();
    } catch (e) {
      if (e.status !== 403 && e.status !== 409) ctx.showError(e.message);
    }
  };
  const launchButton = ctx.button("launch this torpedo", () => {
    if (pick.aim && pick.aim.odds) ctx.send(pick.aim.odds.action);
  }, { id: "launch", disabled: true, title: RULES.launch });
  const showAim = () => {
    board.clear("over");
    board.mark("g.ship", "target", false);
    if (slot) {
      const from = board.centre(slot.from);
      board.draw("over", "circle", { cx: from.x, cy: from.y, r: board.geo.ppi * 0.2, class: "gun-origin launch-origin" });
    }
    const aim = pick.aim && pick.aim.slot === pick.tslot ? pick.aim : null;
    launchButton.disabled = !(aim && aim.odds) || ctx.sending();
    if (!aim) { status.textContent = slot ? `Click a highlighted hex (up to ${slot.range} hexes in its arc) for the target token.` : ""; return; }
    line(board, "over", slot.from, aim.hex, "torpedo-line aimed");
    if (!aim.odds) { status.textContent = `Target ${aim.hex}: checking its line…`; return; }
    markMet(ctx, aim.odds);
    status.textContent = `Target ${aim.hex}. ${meetingText(aim.odds)}`;
  };
  board.onHex = (hex) => aimAt(hex);
  // a click on a ship aims at the hex under the pointer (the board keeps it as hovered)
  board.onShip = () => { if (board.hovered) aimAt(board.hovered); };
  ctx.controls(`Torpedo launch: ${data.to_move}`,
    el("p", { class: "muted small", id: "launch-help" }, slots.length ? "Place a launch: pick a torpedo, then click its target hex on the board. "
      + "The line runs from the launch hex to the target and strikes the first ship it meets when torpedoes resolve, after movement."
      : "No torpedo of yours may launch now: the 8 Nations' launches are below."),
    el("div", { class: "buttons", id: "torpedo-slots" }, slots.map((s) => ctx.button(
      `${s.ship.replace(/^HML /, "")} ${s.slot} · ${s.range} hexes, ${s.dice.length} ${s.dice[0] || ""}`,
      () => { pick.tslot = key(s); pick.aim = null; airLaunch(ctx); },
      { class: key(s) === pick.tslot ? "active" : "secondary", "data-slot": key(s), title: `${RULES.launch} ${s.location} arc from ${s.from}.` }))),
    status,
    nationsExtras(ctx, "nations-launch"),
    el("div", { class: "buttons" }, slots.length ? launchButton : null,
      ctx.button("end of launches", () => ctx.send("launch done"), { id: "launch-done", class: "secondary", title: RULES.launchDone })),
    el("p", { class: "muted small" }, el("a", { href: "/static/rules.html#commander", target: "_blank" }, "Commander rules")),
    ctx.drawOffer(), ctx.concede());
  if (pick.aim && pick.aim.slot === pick.tslot && !pick.aim.odds) aimAt(pick.aim.hex);
  else showAim();
}

// --- the launching side's strike choice (A5) ---------------------------------------------------

function torpedoChoice(ctx) {
  const { board, data } = ctx;
  resetBoard(ctx);
  const hints = data.hints || {};
  const torp = hints.$torpedo;
  const choices = data.legal.filter((a) => a.startsWith("torpedo "));
  if (torp) {
    line(board, "over", torp.from, torp.target, "torpedo-line aimed");
    markMet(ctx, torp);
    ctx.focus([torp.from, torp.target, ...Object.values(torp.meets_hexes).flat()]);
  }
  const why = torp && torp.meets.length > 1
    ? `Torpedo ${torp.number}'s line meets ${torp.meets.join(" and ")} at one point: you choose which it strikes.`
    : `Torpedo ${torp ? torp.number : ""}'s launch hex lies on a line between two of the struck ship's arcs: you choose the location.`;
  ctx.controls(`Torpedo ${torp ? torp.number : ""}: ${data.to_move} chooses`,
    el("p", { id: "torpedo-why" }, why, " The struck location is the ship's arc holding the launch hex."),
    el("div", { class: "buttons", id: "torpedo-choices" }, choices.map((a) => {
      const [, rest] = a.split(">");
      const [ship, loc] = rest.split(":");
      const h = hints[a] || {};
      const any = h.any ? h.any.probability : 0;
      return ctx.button(`strike ${ship} in its ${loc} · ${pct(any)}`, () => ctx.send(a),
        { "data-action": a, title: `${RULES.torpedoStrike} Keel ${pct(h.keel ? h.keel.probability : 0)}.` });
    })),
    ctx.drawOffer(), ctx.concede());
}

// --- where a ram strikes (A6) ------------------------------------------------------------------

function ramStrike(ctx) {
  const { data } = ctx;
  resetBoard(ctx);
  const hints = data.hints || {};
  const choices = data.legal.filter((a) => a.includes(":RAM>"));
  const first = hints[choices[0]] || {};
  ctx.controls(`Ram: ${data.to_move} chooses where it strikes`,
    el("p", { id: "ram-why" }, `${first.ship || "The ship"} is struck by ${first.by || "the ram"} where several of its locations qualify: you choose which location takes its ${first.attacks || ""} attack${first.attacks === 1 ? "" : "s"} (two red dice and the location's dice each).`),
    el("div", { class: "buttons", id: "ram-strikes" }, choices.map((a) => {
      const h = hints[a] || {};
      const loc = a.split(":").at(-1);
      return ctx.button(`${loc} · ${(h.expected || 0).toFixed(2)} slots expected`, () => ctx.send(a),
        { "data-action": a, title: `${RULES.ramStrike} Keel ${pct(h.keel || 0)} an attack.` });
    })),
    ctx.drawOffer(), ctx.concede());
}

// --- repair (A9) --------------------------------------------------------------------------------

function airRepair(ctx) {
  const { board, data } = ctx;
  resetBoard(ctx);
  const hints = data.hints || {};
  const crews = new Map();
  for (const a of data.legal.filter((x) => x.startsWith("repair "))) {
    const [who, slot] = a.slice(7).split(">");
    const [ship, crew] = [who.slice(0, who.lastIndexOf(":")), who.slice(who.lastIndexOf(":") + 1)];
    const k = `${ship}:${crew}`;
    if (!crews.has(k)) crews.set(k, { ship, crew, tries: [] });
    crews.get(k).tries.push({ action: a, slot, chance: hints[a] ? hints[a].chance.probability : 0 });
  }
  for (const c of crews.values()) board.mark(`g.ship[data-ship="${CSS.escape(c.ship)}"]`, "moving", true);
  const rows = [...crews.values()].map((c) => el("tr", { class: "crew", "data-crew": `${c.ship}:${c.crew}` },
    el("td", {}, el("strong", {}, c.ship.replace(/^HML /, "")), el("div", { class: "muted" }, `crew ${c.crew}`)),
    el("td", {}, c.tries.map((t) => t.slot === "none"
      ? ctx.button("no repair", () => ctx.send(t.action), { class: "secondary", "data-action": t.action, title: RULES.repairNone })
      : ctx.button(`${t.slot} · ${pct(t.chance)}`, () => ctx.send(t.action), { "data-action": t.action, title: RULES.repair })))));
  ctx.controls(`Repair: ${data.to_move}`,
    el("p", { class: "muted small", id: "repair-help" }, "Each crew may try once a turn to mend one slot destroyed in an earlier turn: click a slot to roll (its chance shown), or no repair."),
    el("table", { class: "gun-table", id: "repair-table" },
      el("thead", {}, el("tr", {}, el("th", {}, "crew"), el("th", { title: RULES.repair }, "slot to repair · chance"))),
      el("tbody", {}, rows)),
    el("p", { class: "muted small" }, el("a", { href: "/static/rules.html#commander", target: "_blank" }, "Commander rules")),
    ctx.drawOffer(), ctx.concede());
}

// --- movement extras (A6, A7, A8): buttons for the move panel -----------------------------------

// The ram and hug decisions open to the moving ship where it stands now (its steps played).
export function moveExtras(ctx, ship, planned) {
  const { data } = ctx;
  const hints = data.hints || {};
  const ram = data.legal.find((a) => a === `${ship}:RAM`);
  const hugs = data.legal.filter((a) => a.startsWith(`hug ${ship}>`));
  if (!ram && !hugs.length) return null;
  const parts = [];
  if (ram) {
    const h = hints[ram] || {};
    const check = h.check ? h.check.probability : 0;
    const dmg = Object.entries(h.expected || {}).map(([s, v]) => `${s} ${v.toFixed(2)}`).join(", ");
    const pushes = (h.pushes || []).map((p) => `${p.ship} ${p.from}→${p.to}${p.lost ? " (lost)" : ""}`).join(", ");
    const text = `Ram ${h.target}: the check succeeds ${pct(check)}. If it does, pushed: ${pushes || "none"}; slots each side may expect to lose: ${dmg || "none"}. If it fails, ${ship} stops short and its move ends.`;
    parts.push(el("p", { id: "ram-outlook", class: "odds-line" }, text),
      ctx.button(`ram ${h.target} · check ${pct(check)}`, async () => {
        if (planned) return;
        if (await ctx.ask(`${text} Ram?`, "ram", "keep moving")) ctx.send(ram);
      }, { id: "ram", disabled: Boolean(planned) || ctx.sending(), title: RULES.ram }));
  }
  for (const a of hugs) {
    const [, rest] = a.split(">");
    const [other, kind] = rest.split(":");
    const mp = (hints[a] || {}).mp;
    parts.push(ctx.button(`hug ${other} (${kind}, ${mp} MP)`, () => ctx.send(a),
      { class: "secondary", "data-action": a, disabled: Boolean(planned) || ctx.sending(), title: RULES.hug }));
  }
  return el("div", { class: "buttons", id: "move-extras" },
    planned ? el("p", { class: "muted small" }, "Make or clear the planned steps first: a ram or a hug is made from where the ship stands.") : null,
    parts);
}

// Gunnery under a hug (A7): the lines of fire a hug blocks, drawn from the gun to the target.
export function drawScreens(ctx, gun, actions, hints) {
  const { board } = ctx;
  if (!gun) return;
  for (const a of actions) {
    const s = (hints[a] || {}).screened;
    if (!s) continue;
    const g = board.draw("over", "g", { class: "screened", "data-screened": a.split(">")[1].split(":")[0] });
    for (const h of s.screen) board.draw(g, "polygon", { class: "screen-hex", points: board.hexPoints(h, 0.95) });
    const from = board.centre(gun.from);
    for (const h of s.blocked) {
      const c = board.centre(h);
      board.draw(g, "line", { class: "blocked-line", x1: from.x, y1: from.y, x2: c.x, y2: c.y });
    }
    if (s.to) {
      const c = board.centre(s.to);
      board.draw(g, "line", { class: "open-line", x1: from.x, y1: from.y, x2: c.x, y2: c.y });
    }
  }
}
