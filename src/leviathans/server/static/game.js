// The game page: a live view of one game over a websocket, and controls that offer only
// what the engine says is legal (the server sends the legal actions of the seat to move).
import { api, heldTokens, holdTokens, el, pct, outcomeText, pageProblem } from "/static/common.js";
import { Board } from "/static/board.js";
import { warControls, warSummary } from "/static/warfleet.js";
import { fogControls, fogInitiative, fogSummary, fogUnit } from "/static/fog.js";
import { turnCue } from "/static/turncue.js";

const gameId = decodeURIComponent(location.pathname.split("/").pop());
const params = new URLSearchParams(location.search);
let tokens = params.getAll("token");
if (tokens.length) holdTokens(gameId, tokens);
else tokens = heldTokens()[gameId] || [];

const board = new Board(document.getElementById("board"), document.getElementById("hover"));
let data = null;       // the last payload
let ws = null;
let retry = 500;
const pick = {};       // what the player has selected in the controls
let weaponShown = null;
let warStats = null;   // War Fleet: every ship's stats (fixed for the game), fetched once

// --- connection ----------------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const query = tokens.map((t) => `token=${encodeURIComponent(t)}`).join("&");
  ws = new WebSocket(`${proto}//${location.host}/ws/games/${encodeURIComponent(gameId)}?${query}`);
  ws.onopen = () => { retry = 500; setConn("live"); };
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.type === "state") { data = msg; render(); }
    else if (msg.type === "error") showError(msg.error);
    else if (msg.type === "ack") showError("");
  };
  ws.onclose = (e) => {
    if (e.code === 4403 || e.code === 4404) { setConn(e.reason || "refused"); return; }
    setConn("reconnecting…");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function setConn(text) { document.getElementById("conn").textContent = text; }
function showError(text) { const e = document.getElementById("error"); if (e) e.textContent = text || ""; }

function tokenFor(side) {
  const i = data.you.indexOf(side);
  return i >= 0 ? tokens[i] : tokens[0];
}

function send(action) {
  if (!data || !ws || ws.readyState !== WebSocket.OPEN) return;
  const side = action.startsWith("concede ") ? action.slice(8) : data.to_move;
  ws.send(JSON.stringify({ token: tokenFor(side), action, expect: data.seq + 1 }));
  for (const k of Object.keys(pick)) delete pick[k];
}

// --- rendering -----------------------------------------------------------------------------

function render() {
  const view = data.view;
  document.getElementById("title").textContent = data.game.title;
  document.title = `Leviathans: ${data.game.title}`;
  document.body.dataset.ruleset = data.game.ruleset;
  document.body.dataset.seq = data.seq;
  document.getElementById("phase").textContent = view.phase;
  document.getElementById("turn").textContent = `turn ${view.turn}`;
  const tm = document.getElementById("to-move");
  tm.textContent = data.to_move ? `${data.to_move} to move` : "game over";
  tm.className = `to-move ${data.to_move || ""}`;
  document.getElementById("initiative").textContent = initiativeText(view);
  document.getElementById("seat").textContent = data.you.length
    ? `you: ${data.you.join(" & ")}` : "spectating";
  weaponShown = null;
  board.show(data.svg);
  renderControls();
  renderLog();
  if (!document.getElementById("cards").hidden) renderCards();
  turnCue(data);  // the tab's title (and a tone) when the turn comes to this seat
}

function initiativeText(view) {
  // Fog of war: the cards decide the initiative as they are revealed in the movement phase.
  if (view.fog && (view.phase === "initiative" || view.phase === "movement")) {
    return fogInitiative(view.fog, fogUnit(data.game.ruleset));
  }
  const init = Array.isArray(view.initiative) ? view.initiative.join(" > ") : view.initiative;
  return init ? `${view.phase === "placement" ? "placement roll" : "initiative"}: ${init}` : "";
}

function controls(title, ...children) {
  const box = document.getElementById("controls");
  box.replaceChildren(el("h3", {}, title), ...children.flat().filter((c) => c !== null && c !== undefined && c !== false),
                      el("p", { class: "error", id: "error" }));
}

function button(label, onclick, attrs = {}) {
  return el("button", { ...attrs, onclick: (e) => { e.preventDefault(); onclick(); } }, label);
}

function allLegal(legal) {
  if (!legal.length) return null;
  return el("details", { class: "all" }, el("summary", {}, `all ${legal.length} legal actions`),
    el("div", { class: "buttons" }, legal.slice(0, 400).map((a) => button(a, () => send(a), { class: "secondary", "data-action": a }))));
}

function concede() {
  if (!data.you.length || data.view.outcome) return null;
  const side = data.perspective || data.you[0];
  return button(`concede (${side})`, () => { if (confirm(`Concede for ${side}?`)) send(`concede ${side}`); },
                { class: "secondary", id: "concede" });
}

function renderControls() {
  showControls();
  const fog = data.view.fog && fogSummary(data.view.fog, fogUnit(data.game.ruleset));
  if (fog) {
    const box = document.getElementById("controls");
    // Above War Fleet's (long) ship stats panel, so the revealed cards stay in sight.
    const before = box.querySelector("#ship-stats") || document.getElementById("error");
    box.insertBefore(fog, before);
  }
}

function showControls() {
  const view = data.view;
  if (view.outcome) {
    controls("Game over",
      el("div", { class: "over", id: "outcome" }, outcomeText(view.outcome)),
      data.game.ruleset === "warfleet" ? warSummary(data) : null,
      el("p", {}, el("a", { href: `/replay/${gameId}`, id: "replay-link" }, "replay this game"), " · ",
        el("a", { href: `/api/games/${gameId}/record`, id: "record-link" }, "download the record")));
    return;
  }
  if (!data.legal.length) {
    const invite = localStorage.getItem(`leviathans.invite.${gameId}`);
    controls(data.you.length ? `Waiting for ${data.to_move}…` : `Spectating: ${data.to_move} to move`,
      invite ? el("div", { class: "invite" }, "Invite link: ", el("a", { href: invite }, invite)) : null,
      concede());
    return;
  }
  if (data.game.ruleset === "airfleet") airControls();
  else if (data.game.ruleset === "warfleet") {
    const fog = data.legal.filter((a) => a.startsWith("fog "));
    if (fog.length) fogControls(fogContext(), fog, fogUnit("warfleet"));
    else warControls({ data, board, pick, controls, button, send, concede, allLegal, showWeapon, stats: warStats });
  }
  else starControls();
}

function fogContext() {
  return { data, pick, controls, button, send, concede, showError };
}

// --- air fleet -----------------------------------------------------------------------------

const FACINGS = ["N", "NE", "SE", "S", "SW", "NW"];

function airControls() {
  const legal = data.legal;
  const deploys = legal.map((a) => a.match(/^(.+)@(\d{4}):(\w+)$/)).filter(Boolean);
  const steps = legal.map((a) => a.match(/^(.+):([FLRE])$/)).filter(Boolean);
  const fires = legal.filter((a) => a.includes(">"));
  const fog = legal.filter((a) => a.startsWith("fog "));
  if (fog.length) return fogControls(fogContext(), fog, fogUnit("airfleet"));
  if (deploys.length) return airDeploy(deploys);
  if (steps.length) return airMove(steps);
  if (fires.length || legal.includes("done")) return airFire(fires);
  controls(`${data.to_move} to act`, allLegal(legal), concede());
}

function airDeploy(deploys) {
  const ships = [...new Set(deploys.map((m) => m[1]))];
  pick.ship = ships.includes(pick.ship) ? pick.ship : ships[0];
  const mine = deploys.filter((m) => m[1] === pick.ship);
  const hexes = new Set(mine.map((m) => m[2]));
  board.mark("polygon.hex", "hl", false);
  for (const h of hexes) board.mark(`polygon.hex[data-hex="${h}"]`, "hl", true);
  board.onHex = (hex) => { if (hexes.has(hex)) { pick.hex = hex; airDeploy(deploys); } };
  const facings = pick.hex ? mine.filter((m) => m[2] === pick.hex).map((m) => m[3]) : [];
  controls(`Deploy ${pick.ship}`,
    el("div", { class: "buttons" }, ships.map((s) => button(s, () => { pick.ship = s; pick.hex = null; airDeploy(deploys); },
      { class: s === pick.ship ? "active" : "secondary", "data-ship": s }))),
    el("p", { class: "muted" }, pick.hex ? `Bow on ${pick.hex}: choose a facing` : "Click a highlighted hex of your zone for the bow."),
    el("div", { class: "buttons", id: "facings" }, FACINGS.filter((f) => facings.includes(f)).map((f) =>
      button(f, () => send(`${pick.ship}@${pick.hex}:${f}`), { "data-facing": f }))),
    allLegal(data.legal), concede());
}

function airMove(steps) {
  const ships = [...new Set(steps.map((m) => m[1]))];
  const moving = data.view.moving;
  pick.ship = moving ? moving.ship : (ships.includes(pick.ship) ? pick.ship : ships[0]);
  const can = new Set(steps.filter((m) => m[1] === pick.ship).map((m) => m[2]));
  board.mark(`g.ship[data-ship="${CSS.escape(pick.ship)}"]`, "moving", true);
  board.onShip = (name) => { if (!moving && ships.includes(name)) { pick.ship = name; airMove(steps); } };
  const ship = data.view.ships.find((s) => s.name === pick.ship);
  const info = moving
    ? `MP left ${moving.mp_left}; ${beforeTurn(moving.hexes_before_turn)}`
    : `MP ${ship.mp}; ${beforeTurn(ship.enter_before_turn)}`;
  const act = (code) => { if (can.has(code)) send(`${pick.ship}:${code}`); };
  document.onkeydown = (e) => {
    const key = { ArrowUp: "F", w: "F", f: "F", ArrowLeft: "L", a: "L", l: "L", ArrowRight: "R", d: "R", r: "R", Enter: "E", e: "E" }[e.key];
    if (key && !e.target.closest("input")) { e.preventDefault(); act(key); }
  };
  controls(`Move ${pick.ship}`,
    ships.length > 1 && !moving ? el("div", { class: "buttons" }, ships.map((s) => button(s, () => { pick.ship = s; airMove(steps); },
      { class: s === pick.ship ? "active" : "secondary" }))) : null,
    el("p", { class: "muted", id: "mp" }, info),
    el("div", { class: "buttons" },
      button("⟲ port (L)", () => act("L"), { disabled: !can.has("L"), id: "turn-left" }),
      button("forward (F)", () => act("F"), { disabled: !can.has("F"), id: "forward" }),
      button("starboard (R) ⟳", () => act("R"), { disabled: !can.has("R"), id: "turn-right" }),
      button("end move (E)", () => act("E"), { disabled: !can.has("E"), id: "end-move" })),
    el("p", { class: "muted" }, "Keys: ↑/F forward, ←/L port, →/R starboard, Enter/E end."),
    concede());
}

// How many hexes the ship must still enter before it may change facing (R3).
function beforeTurn(hexes) {
  if (!hexes) return "no hex to enter before turning";
  return `must enter ${hexes} ${hexes === 1 ? "hex" : "hexes"} before turning`;
}

async function showWeapon(weapon) {
  if (weaponShown === weapon) return;
  weaponShown = weapon;
  const query = tokens.map((t) => `token=${encodeURIComponent(t)}`).join("&");
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/svg?weapon=${encodeURIComponent(weapon)}&${query}`);
  if (response.ok) board.show(await response.text());
}

function airFire(fires) {
  const guns = [...new Set(fires.map((a) => a.split(">")[0]))];
  if (!guns.includes(pick.gun)) pick.gun = guns[0];
  const hints = data.hints || {};
  const targets = fires.filter((a) => a.startsWith(`${pick.gun}>`));
  if (pick.gun) showWeapon(pick.gun).then(() => {
    for (const a of targets) board.mark(`g.ship[data-ship="${CSS.escape(a.split(">")[1].split(":")[0])}"]`, "target", true);
  });
  document.onkeydown = null;
  controls(`Gunnery: ${data.to_move}`,
    el("div", { class: "buttons" }, guns.map((g) => button(g, () => { pick.gun = g; airFire(fires); },
      { class: g === pick.gun ? "active" : "secondary", "data-gun": g }))),
    el("div", { id: "targets" }, targets.map((a) => {
      const h = hints[a] || {};
      const [target, loc] = a.split(">")[1].split(":");
      const best = Object.entries(h.destroy || {}).sort((x, y) => y[1].probability - x[1].probability);
      return el("div", { class: "target" },
        el("strong", {}, `${target} · ${loc}`),
        el("span", { class: "odds" }, `range ${h.range}, ${(h.dice || []).join("+")}; expected ${(h.expected || 0).toFixed(2)} slots; keel ${pct(h.keel ? h.keel.probability : 0)}`),
        el("span", { class: "odds" }, best.map(([ref, p]) => `${ref} ${pct(p.probability)}`).join(" · ")),
        button(`fire at ${target} ${loc}`, () => send(a), { "data-action": a }));
    })),
    el("div", { class: "buttons" }, data.legal.includes("done") ? button("done firing", () => send("done"), { id: "done", class: "secondary" }) : null),
    concede());
}

// --- starship ------------------------------------------------------------------------------

function tableXY(x, y) {
  // The table drawing's scale and margin are on its root element (see svg_starship.py).
  const svg = board.svg;
  const ppi = Number(svg.dataset.pxPerInch);
  const margin = Number(svg.dataset.margin);
  return { x: margin + x * ppi, y: margin + y * ppi };
}

function preview(pose, radius) {
  // A ghost of the element where a step would leave it (the server computed the pose).
  const svg = board.svg;
  svg.querySelectorAll(".preview").forEach((n) => n.remove());
  if (!pose) return;
  const ns = "http://www.w3.org/2000/svg";
  const { x, y } = tableXY(pose.x, pose.y);
  const r = Math.max(4, radius * Number(svg.dataset.pxPerInch));
  const g = document.createElementNS(ns, "g");
  g.setAttribute("class", "preview");
  g.setAttribute("pointer-events", "none");
  const c = document.createElementNS(ns, "circle");
  c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", r);
  c.setAttribute("fill", "rgba(197,139,22,.35)"); c.setAttribute("stroke", "#c58b16");
  c.setAttribute("stroke-dasharray", "4 3");
  const rad = (pose.heading * Math.PI) / 180;
  const l = document.createElementNS(ns, "line");
  l.setAttribute("x1", x); l.setAttribute("y1", y);
  l.setAttribute("x2", x + Math.sin(rad) * r * 1.6); l.setAttribute("y2", y - Math.cos(rad) * r * 1.6);
  l.setAttribute("stroke", "#c58b16"); l.setAttribute("stroke-width", 2);
  g.append(c, l);
  svg.append(g);
}

function starControls() {
  const legal = data.legal;
  const view = data.view;
  document.onkeydown = null;
  if (legal.includes("mulligan")) {
    return controls("Command: a mulligan?", el("p", {}, "None of your CMD dice shows more than 3."),
      el("div", { class: "buttons" }, button("mulligan (re-roll all)", () => send("mulligan"), { id: "mulligan" }),
        button("keep", () => send("keep"), { id: "keep", class: "secondary" })));
  }
  const assigns = legal.filter((a) => a.startsWith("cmd "));
  if (assigns.length) return starCommand(assigns);
  if (view.pending_roll && legal.includes("accept")) return starRoll(view.pending_roll, legal);
  const places = legal.map((a) => a.match(/^(.+):(?:P|arrive)(-?[\d.]+),(-?[\d.]+)/)).filter(Boolean);
  const moves = legal.filter((a) => /:(F[\d.]+|T-?[\d.]+|E|jump)$/.test(a));
  if (places.length || moves.length) return starMove(moves, places);
  const attacks = legal.filter((a) => a.includes(">") && !a.startsWith("launch ") && !a.startsWith("embark "));
  if (attacks.length || legal.some((a) => a.endsWith(":done"))) return starAttack(attacks);
  const titles = { hangar: "Hangars", morale: "Morale", movement: "Movement" };
  controls(titles[view.phase] || `${data.to_move} to act`,
    el("div", { class: "buttons" }, legal.slice(0, 60).map((a) => button(a, () => send(a), { "data-action": a }))),
    concede());
}

function starRoll(roll, legal) {
  // A roll waiting for the re-roll pools: its dice, and each re-roll with its exact effect.
  const names = { attack: "attack roll", morale: "morale roll", initiative: "initiative roll-off", shields: "shields roll" };
  const whose = roll.roller === (data.perspective || data.to_move) ? "Your" : `${roll.roller}'s`;
  const attack = roll.kind === "attack" ? data.view.pending_attack : null;
  const hints = data.hints || {};
  const die = (v, i) => attack ? `${v}${attack.hits[i] ? "✓" : "✗"}` : roll.kind === "initiative" ? `${roll.owners[i]} ${v}` : `${v}`;
  const label = (a) => {
    const h = hints[a];
    return h ? `${a} (${h.measure} for ${h.for}: ${h.now.probability.toFixed(2)} → ${h.after.probability.toFixed(2)})` : a;
  };
  return controls(`${whose} ${names[roll.kind] || "roll"}`,
    el("p", {}, attack ? `${attack.attacker} ${attack.weapon} → ${attack.target}: ` : roll.element ? `${roll.element}: ` : "",
      el("span", { class: "dice" }, roll.values.map((v, i) => el("span", { class: "die" }, die(v, i))))),
    el("div", { class: "buttons" }, legal.map((a) => button(label(a), () => send(a), { "data-action": a }))));
}

function starCommand(assigns) {
  const me = data.perspective;
  const pool = data.view.pools[me];
  const values = [...new Set(assigns.filter((a) => a !== "cmd done").map((a) => Number(a.split(/[ >]/)[1])))].sort((a, b) => b - a);
  if (!values.includes(pick.die)) pick.die = values[0];
  const targets = assigns.filter((a) => a.startsWith(`cmd ${pick.die}>`));
  controls(`Command: assign ${me}'s CMD dice (secret)`,
    el("p", {}, "Rolled: ", el("span", { class: "dice" }, pool.rolled.map((d) => el("span", { class: "die d6" }, d)))),
    el("p", { class: "muted" }, `Assigned: ${(pool.assigned || []).map(([d, t]) => `${d}→${t}`).join(", ") || "nothing yet"}`),
    el("div", { class: "buttons" }, values.map((v) => button(`die ${v}`, () => { pick.die = v; starCommand(assigns); },
      { class: v === pick.die ? "active" : "secondary", "data-die": v }))),
    el("div", { class: "buttons", id: "assign-targets" }, targets.map((a) => button(a.split(">")[1], () => send(a), { "data-action": a }))),
    el("div", { class: "buttons" }, button("done (discard the rest)", () => send("cmd done"), { id: "cmd-done", class: "secondary" })),
    concede());
}

function starMove(moves, places) {
  const names = [...new Set([...moves.map((a) => a.split(":")[0]), ...places.map((m) => m[1])])];
  const moving = data.view.moving;
  pick.element = moving || (names.includes(pick.element) ? pick.element : names[0]);
  board.mark(`g.element[data-element="${CSS.escape(pick.element)}"]`, "moving", true);
  board.onElement = (name) => { if (!moving && names.includes(name)) { pick.element = name; starMove(moves, places); } };
  const mine = moves.filter((a) => a.startsWith(`${pick.element}:`));
  const spots = places.filter((m) => m[1] === pick.element);
  if (spots.length) {
    board.spots(spots.map((m) => ({ ...tableXY(Number(m[2]), Number(m[3])), key: m[0] })));
    board.onSpot = (action) => send(action);
  }
  controls(`Move ${pick.element}`,
    !moving && names.length > 1 ? el("div", { class: "buttons" }, names.map((n) => button(n, () => { pick.element = n; starMove(moves, places); },
      { class: n === pick.element ? "active" : "secondary" }))) : null,
    spots.length ? el("p", { class: "muted" }, `Click one of the ${spots.length} marked places.`) : null,
    el("div", { class: "buttons", id: "moves" }, mine.map((a) => {
      const b = button(a.split(":").pop(), () => send(a), { "data-action": a });
      const pose = (data.hints || {})[a];
      const radius = (data.view.elements.find((e) => e.name === pick.element) || {}).radius || 0.5;
      b.addEventListener("mouseenter", () => preview(pose, radius));
      b.addEventListener("mouseleave", () => preview(null));
      return b;
    })),
    el("p", { class: "muted" }, "Point at a step to see where it leaves the element."),
    concede());
}

function starAttack(attacks) {
  const weapons = [...new Set(attacks.map((a) => a.split(">")[0]))];
  if (!weapons.includes(pick.weapon)) pick.weapon = weapons[0];
  if (pick.weapon) showWeapon(pick.weapon);
  const hints = data.hints || {};
  const stands = data.legal.filter((a) => a.endsWith(":done"));
  controls(`Attack: ${data.to_move}`,
    el("div", { class: "buttons" }, weapons.map((w) => button(w, () => { pick.weapon = w; starAttack(attacks); },
      { class: w === pick.weapon ? "active" : "secondary", "data-weapon": w }))),
    el("div", { id: "targets" }, attacks.filter((a) => a.startsWith(`${pick.weapon}>`)).map((a) => {
      const h = hints[a] || {};
      const hit = (h.hit || []).map((x) => pct(x.probability)).join(", ");
      return el("div", { class: "target" }, el("strong", {}, a.split(">")[1]),
        h.dice ? el("span", { class: "odds" }, `${h.dice}: hit ${hit}; expected ${h.expected.toFixed(2)}; destroy ${pct(h.destroy.probability)}`) : null,
        button(`fire at ${a.split(">")[1]}`, () => send(a), { "data-action": a }));
    })),
    el("div", { class: "buttons" }, stands.map((a) => button(`${a.split(":")[0]} holds fire`, () => send(a), { class: "secondary", "data-action": a }))),
    concede());
}

// --- log and cards -------------------------------------------------------------------------

function eventNode(ev) {
  const kind = ev.event || "";
  const node = el("div", { class: `ev ${kind === "TurnStarted" || kind === "turn" ? "turn" : ""}` });
  if (kind === "AttackRolled") {
    node.classList.add("roll", ev.hit ? "hit" : "miss");
    node.append(el("span", {}, `${ev.ship} ${ev.saturation ? "saturation" : ev.guns.join("+")} (${ev.weapon}) → ${ev.target} ${ev.location} (range ${ev.range}) `),
      el("span", { class: "dice" }, ev.dice.map((d, i) => el("span", { class: `die ${d}`, title: `${d} die` }, ev.faces[i]))),
      el("span", {}, ` = ${ev.total} vs ${ev.resilience}${ev.dialed.length ? ` (dialed up: ${ev.dialed.join(", ")})` : ""}: `),
      el("strong", {}, ev.hit ? "hit" : "miss"));
    return node;
  }
  if (kind === "AttackResult") {
    node.append(el("span", {}, `${ev.ship} ${ev.slot} → ${ev.target} ${ev.location} (range ${ev.range}) `),
      el("span", { class: "dice" }, ev.dice.map(([role, die, face]) => el("span", { class: `die ${die}`, title: `${role} ${die}` }, face)),
        el("span", { class: "die d6", title: "slot die" }, ev.slot_roll)),
      el("span", {}, ` = ${ev.total}: ${ev.results.join("; ")}`));
    return node;
  }
  node.textContent = ev.text || kindText(ev);
  return node;
}

function kindText(ev) {
  const copy = { ...ev }; delete copy.event;
  return `${ev.event}: ${JSON.stringify(copy)}`;
}

const TEXTS = {
  TurnStarted: (e) => `== Turn ${e.turn} ==`,
  InitiativeRolled: (e) => `Initiative → ${e.winner}`,
  Deployed: (e) => `${e.ship} deploys at ${e.bow} facing ${e.facing}`,
  MoveEnded: (e) => e.mp_spent ? `${e.ship} moves ${e.start} → ${e.bow} facing ${e.facing} (${e.mp_spent} of ${e.mp} MP)` : `${e.ship} stays at ${e.bow} facing ${e.facing}`,
  ShipLost: (e) => `${e.ship} is destroyed: ${e.reason}`,
  TurnEnded: (e) => `End of turn ${e.turn}`,
  GameEnded: (e) => `Game over: ${e.winner ? `${e.winner} wins` : "draw"}: ${e.reason}`,
};

function renderLog() {
  const box = document.getElementById("log");
  const nodes = [];
  for (const step of data.log) {
    for (const ev of step.events) {
      if (ev.event === "move-start") continue;
      if (!ev.text && TEXTS[ev.event]) ev.text = TEXTS[ev.event](ev);
      nodes.push(eventNode(ev));
    }
  }
  // What the server tells about the game itself (a bot that failed), last so it is in view.
  for (const text of data.notices || []) nodes.push(el("div", { class: "ev notice" }, text));
  box.replaceChildren(...nodes);
  const pane = document.getElementById("pane");
  pane.scrollTop = pane.scrollHeight;
}

function renderCards() {
  const box = document.getElementById("cards");
  const names = data.game.ruleset !== "starship"
    ? data.view.ships.map((s) => s.name)
    : data.view.elements.filter((e) => e.kind !== "torpedo").map((e) => e.name);
  box.replaceChildren(...names.map((n) => el("img", {
    src: `/api/games/${encodeURIComponent(gameId)}/card/${encodeURIComponent(n)}?v=${data.seq}`,
    alt: `card of ${n}`, "data-card": n })));
}

function tab(which) {
  document.getElementById("tab-log").classList.toggle("on", which === "log");
  document.getElementById("tab-cards").classList.toggle("on", which === "cards");
  document.getElementById("log").hidden = which !== "log";
  document.getElementById("cards").hidden = which !== "cards";
  if (which === "cards" && data) renderCards();
}

document.getElementById("tab-log").onclick = () => tab("log");
document.getElementById("tab-cards").onclick = () => tab("cards");
document.getElementById("zoom-in").onclick = () => board.zoom(1 / 1.25);
document.getElementById("zoom-out").onclick = () => board.zoom(1.25);
document.getElementById("zoom-fit").onclick = () => board.fit();
window.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("input")) return;
  if (e.key === "+" || e.key === "=") board.zoom(1 / 1.25);
  else if (e.key === "-") board.zoom(1.25);
  else if (e.key === "0") board.fit();
});

async function load() {
  let payload;
  try {
    payload = await api(`/api/games/${encodeURIComponent(gameId)}?` + tokens.map((t) => `token=${encodeURIComponent(t)}`).join("&"));
    if (payload.game.ruleset === "warfleet") warStats = (await api(`/api/games/${encodeURIComponent(gameId)}/stats`)).ships;
  } catch (e) {
    pageProblem(gameId, e);  // no such game (or no seat in it): say so, not "..." placeholders
    return;
  }
  data = payload; render(); connect();
}

load().catch((e) => { setConn(e.message); });
