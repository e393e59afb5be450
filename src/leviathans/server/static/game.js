// The game page: a live view of one game over a websocket, and controls that offer only
// what the engine says is legal (the server sends the legal actions of the seat to move).
import { api, heldTokens, holdTokens, el, pct, outcomeText, pageProblem } from "/static/common.js";
import { Board, hexDistance } from "/static/board.js";
import { airControls } from "/static/airfleet.js";
import { airSummary } from "/static/summary.js";
import { RULES } from "/static/rules.js";
import { diceOn, diceToggle, showRoll, skipRoll } from "/static/dice.js";
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
let pending = 0;       // actions sent and not yet answered (a confirmed move is several)
let firstError = null; // the first refusal among them
let awaited = 0;       // the step the last answer reached: the page waits for that state
let generation = 0;    // counts the renders: an answer to an older one is dropped
let rolledUpTo = null; // the step whose rolls were last shown landing (none on the first load)
let ruler = null;      // { from: hex, what } : hovering a hex tells its distance from there

// --- connection ----------------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const query = tokens.map((t) => `token=${encodeURIComponent(t)}`).join("&");
  ws = new WebSocket(`${proto}//${location.host}/ws/games/${encodeURIComponent(gameId)}?${query}`);
  ws.onopen = () => { retry = 500; setConn("live"); };
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.type === "state") { data = msg; if (!pending && data.seq >= awaited) render(); }
    else if (msg.type === "error") { firstError = firstError || msg.error; answered(); }
    else if (msg.type === "ack") { awaited = Math.max(awaited, msg.seq); answered(); }
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
  sendMany([action]);
}

// Several actions in a row (a confirmed move's steps): each expects the step after the one
// before, so none is played on a game that moved meanwhile; the page waits for the answers.
function sendMany(actions) {
  if (!data || !ws || ws.readyState !== WebSocket.OPEN || pending) return;
  const anyTime = (a) => /^(concede|draw (offer|accept|decline)) /.test(a);
  actions.forEach((action, k) => {
    const side = anyTime(action) ? action.split(" ").pop() : data.to_move;
    ws.send(JSON.stringify({ token: tokenFor(side), action, expect: data.seq + 1 + k }));
  });
  pending = actions.length;
  for (const k of Object.keys(pick)) delete pick[k];
  const box = document.getElementById("controls");
  if (box) box.classList.add("busy");
}

// An answer to what was sent: once all are in, the page shows the game as it now stands and
// the first refusal, if any (the ones after it only say the game did not get that far).
function answered() {
  if (pending) pending -= 1;
  if (pending) return;
  const error = firstError;
  firstError = null;
  if (data && data.seq >= awaited) render();  // else the state it reached is on its way
  showError(error || "");
}

// --- rendering -----------------------------------------------------------------------------

function render() {
  generation += 1;
  const view = data.view;
  document.getElementById("title").textContent = data.game.title;
  document.title = `Leviathans: ${data.game.title}`;
  document.body.dataset.ruleset = data.game.ruleset;
  document.getElementById("rules-link").hidden = data.game.ruleset !== "airfleet";  // our page covers the air-fleet game
  document.body.dataset.seq = data.seq;
  document.getElementById("phase").textContent = String(view.phase).replaceAll("_", " ");  // "torpedo launch"
  document.getElementById("turn").textContent = `turn ${view.turn}`;
  const tm = document.getElementById("to-move");
  tm.textContent = data.to_move ? `${data.to_move} to move` : "game over";
  tm.className = `to-move ${data.to_move || ""}`;
  document.getElementById("initiative").textContent = initiativeText(view);
  document.getElementById("seat").textContent = data.you.length
    ? `you: ${data.you.join(" & ")}` : "spectating";
  weaponShown = null;
  for (const k of ["onHex", "onShip", "onElement", "onSpot", "onGhost", "onHover", "onWheel"]) board[k] = null;
  ruler = null;
  board.describe = (hex) => (ruler ? `${hexDistance(ruler.from, hex)} hexes from ${ruler.what}` : null);
  board.show(data.svg);
  board.onCard = showCard;
  document.getElementById("controls").classList.remove("busy");
  if (data.game.ruleset === "airfleet") { frameAir(); wreckTags(); }
  renderControls();
  if (data.game.ruleset === "airfleet") landRolls();
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
                { class: "secondary", id: "concede", title: RULES.concede });
}

// The draw offer (air-fleet games): offer one, or answer the other side's, at any moment.
function drawOffer() {
  if (data.game.ruleset !== "airfleet" || !data.you.length || data.view.outcome) return null;
  const offer = data.view.draw_offer;
  if (offer) {
    const answerer = data.you.find((side) => side !== offer);
    if (!answerer) return el("p", { class: "muted", id: "draw-pending" }, "Your draw offer waits for an answer.");
    return el("div", { class: "draw-offer", id: "draw-offer" },
      el("span", {}, `${offer} offers a draw.`),
      button("accept the draw", () => send(`draw accept ${answerer}`), { id: "accept-draw", title: RULES.draw }),
      button("decline", () => send(`draw decline ${answerer}`), { id: "decline-draw", class: "secondary", title: RULES.draw }));
  }
  const side = data.perspective || data.you[0];
  return button(`offer a draw (${side})`, async () => {
    if (await ask(`Offer the other side a draw? If they accept, the game ends as a draw.`, "offer a draw", "keep playing")) send(`draw offer ${side}`);
  }, { class: "secondary", id: "offer-draw", title: RULES.draw });
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
      data.game.ruleset === "airfleet" ? airSummary({ gameId, data, button, showError }) : null,
      el("p", {}, el("a", { href: `/replay/${gameId}`, id: "replay-link" }, "replay this game"), " · ",
        el("a", { href: `/api/games/${gameId}/record`, id: "record-link" }, "download the record")));
    return;
  }
  if (!data.legal.length) {
    const invite = localStorage.getItem(`leviathans.invite.${gameId}`);
    controls(data.you.length ? `Waiting for ${data.to_move}…` : `Spectating: ${data.to_move} to move`,
      invite ? el("div", { class: "invite" }, "Invite link: ", el("a", { href: invite }, invite)) : null,
      drawOffer(), concede());
    return;
  }
  if (data.game.ruleset === "airfleet") {
    const banner = document.getElementById("banner");
    if (!banner.querySelector(".dice-toggle")) banner.append(diceToggle(skipRoll));
    const fog = data.legal.filter((a) => a.startsWith("fog "));
    if (fog.length) fogControls(fogContext(), fog, fogUnit("airfleet"));
    else airControls(airContext());
  }
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

function airContext() {
  const drawn = generation;
  return {
    current: () => drawn === generation,  // false once the page has drawn a newer state
    focus: (hexes) => { if (narrow()) frameOn(hexes); },  // on a phone, frame the decision
    data, board, pick, controls, button, send, sendMany, concede, showError,
    drawOffer,
    sending: () => pending > 0,
    ask,
    ruler: (from, what) => { ruler = from ? { from, what } : null; },
    aim: (ship, slot, target) => api(`/api/games/${encodeURIComponent(gameId)}/torpedo?ship=${encodeURIComponent(ship)}`
      + `&slot=${encodeURIComponent(slot)}&target=${encodeURIComponent(target)}&${tokenQuery()}`),
    plan: (ship, steps) => api(`/api/games/${encodeURIComponent(gameId)}/plan?ship=${encodeURIComponent(ship)}`
      + `&steps=${encodeURIComponent(steps)}&${tokenQuery()}`),
  };
}

// The board with a weapon's arc and range drawn (War Fleet and starship attacks).
async function showWeapon(weapon) {
  if (weaponShown === weapon) return;
  weaponShown = weapon;
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/svg?weapon=${encodeURIComponent(weapon)}&${tokenQuery()}`);
  if (response.ok) board.show(await response.text());
}

function tokenQuery() { return tokens.map((t) => `token=${encodeURIComponent(t)}`).join("&"); }

// The board opens on what matters: the ships in play (and, while deploying, the hexes where
// the ship may go), a few hexes around them; the user's own zoom and pan are kept until "fit".
function frameAir() {
  const svg = board.svg;
  const shipHexes = (g) => g.dataset.hexes.split(" ");
  let hexes = [...svg.querySelectorAll("g.ship")].flatMap(shipHexes);
  // at the end, where the lost ships went down too
  if (data.view.outcome) hexes = hexes.concat([...svg.querySelectorAll("g.wreck")].flatMap(shipHexes));
  const side = data.perspective || data.to_move;
  if (data.view.phase === "deployment") {
    const zone = data.legal.map((a) => a.match(/@(\d{4}):/)).filter(Boolean).map((m) => m[1]);
    const own = zone.length ? zone : [...svg.querySelectorAll(`polygon.hex.zone-${side}`)].map((p) => p.dataset.hex);
    // a small screen shows the zone being deployed in, a large one the enemy's ships too
    hexes = narrow() ? own : hexes.concat(own);
  }
  frameOn(hexes);
}

// A phone's board is too small for the whole field: it frames on the decision at hand.
function narrow() { return document.getElementById("board").clientWidth < 600; }

function frameOn(hexes, least = narrow() ? 9 : 18) {
  if (!hexes.length) { board.frame(null); return; }
  const box = board.around(hexes, narrow() ? 1 : 2);
  const min = board.geo.step * least;  // never closer than so many columns across
  if (box.w < min) { box.x -= (min - box.w) / 2; box.w = min; }
  if (box.h < min * 0.6) { box.y -= (min * 0.6 - box.h) / 2; box.h = min * 0.6; }
  board.frame(box);
}

// Each wreck named with the turn it went (the position has the wreck, the log the turn).
function wreckTags() {
  const lost = new Map();
  let turn = 0;
  for (const step of data.log || []) {
    for (const ev of step.events) {
      if (ev.event === "TurnStarted") turn = ev.turn;
      else if (ev.event === "ShipLost") lost.set(ev.ship, turn);
    }
  }
  for (const g of board.svg.querySelectorAll("g.wreck")) {
    const b = g.getBBox();
    const when = lost.has(g.dataset.ship) ? `, turn ${lost.get(g.dataset.ship)}` : "";
    board.tag("tags", { x: b.x, y: b.y, w: b.width, h: b.height }, `${g.dataset.ship} lost${when}`, "wreck-tag", { "data-wreck": g.dataset.ship });
  }
}

// The latest breach roll of a player's gun since the last state shown, landing by its target
// (not on the first load, not a bot's, not when the player turned the dice off).
function landRolls() {
  const since = rolledUpTo;
  rolledUpTo = data.seq;
  if (since === null || !diceOn()) return;
  const humans = new Set(data.game.seats.filter((s) => s.kind !== "bot").map((s) => s.side));
  const sideOf = new Map(data.view.ships.map((s) => [s.name, s.side]));
  const rolls = (data.log || []).filter((step) => step.seq > since)
    .flatMap((step) => step.events).filter((ev) => ev.event === "AttackResult" && humans.has(sideOf.get(ev.ship)));
  if (rolls.length) showRoll(board, document.querySelector(".board-wrap"), rolls[rolls.length - 1]);
}

// The card of the ship under the pointer (or tapped), large, with its damage marked; on the
// side of the board away from the pointer.
let cardShown = null;
let cardTimer = null;
function showCard(target, event) {
  const pop = document.getElementById("card-pop");
  const name = target && target.dataset && target.dataset.card ? target.dataset.ship : null;
  clearTimeout(cardTimer);
  if (!name) {
    cardTimer = setTimeout(() => { pop.hidden = true; cardShown = null; }, 150);
    return;
  }
  if (name === cardShown && !pop.hidden) return;
  cardTimer = setTimeout(() => {
    cardShown = name;
    const wrap = document.querySelector(".board-wrap").getBoundingClientRect();
    const left = event && event.clientX < wrap.left + wrap.width / 2;
    pop.classList.toggle("right", left);
    pop.replaceChildren(el("img", { src: `/api/games/${encodeURIComponent(gameId)}/card/${encodeURIComponent(name)}?v=${data.seq}`,
      alt: `card of ${name}`, "data-card": name }));
    pop.hidden = false;
  }, 120);
}

// A question in the page (not the browser's dialog): resolves true for `yes`.
function ask(question, yes = "yes", no = "no") {
  const box = document.getElementById("ask");
  return new Promise((resolve) => {
    const done = (answer) => { box.hidden = true; resolve(answer); };
    box.replaceChildren(el("div", { class: "ask-box", role: "dialog", "aria-modal": "true" },
      el("p", { id: "ask-text" }, question),
      el("div", { class: "buttons" }, button(yes, () => done(true), { id: "ask-yes" }),
        button(no, () => done(false), { id: "ask-no", class: "secondary" }))));
    box.hidden = false;
    box.querySelector("#ask-no").focus();
  });
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
    // A4: a bracket's results that do not count are struck through (the kept ones stand), and
    // a saturating attack shows each of its slot dice
    const dropped = new Set(ev.dropped || []);
    const ranges = ev.ranges && ev.ranges.length ? `ranges ${ev.ranges.join(", ")}` : `range ${ev.range}`;
    const slots = [ev.slot_roll, ...(ev.more_slots || [])];
    if (dropped.size) node.classList.add("bracket");
    node.append(el("span", {}, `${ev.ship} ${ev.slot} → ${ev.target} ${ev.location} (${ranges}) `),
      el("span", { class: "dice" }, ev.dice.map(([role, die, face], i) => dropped.has(i)
        ? el("span", { class: `die ${die} dropped`, title: `${role} ${die}: not counted` }, face)
        : el("span", { class: `die ${die}`, title: `${role} ${die}` }, face)),
        slots.map((n, i) => el("span", { class: "die d6 slot-die", title: `slot die${slots.length > 1 ? ` ${i + 1} of ${slots.length}` : ""}` }, n))),
      el("span", {}, ` = ${ev.total}${dropped.size ? ` (kept: ${ev.dice.filter((_, i) => !dropped.has(i)).map(([role, , face]) => `${role} ${face}`).join(", ")})` : ""}: ${ev.results.join("; ")}`));
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
  const narrow = data.game.ruleset === "airfleet" ? "&narrow=true" : "";  // one column: readable in the tab
  box.replaceChildren(...names.map((n) => el("img", {
    src: `/api/games/${encodeURIComponent(gameId)}/card/${encodeURIComponent(n)}?v=${data.seq}${narrow}`,
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
document.getElementById("zoom-map").onclick = () => board.whole();
document.getElementById("card-pop").onclick = () => { document.getElementById("card-pop").hidden = true; };
window.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("input")) return;
  if (e.key === "+" || e.key === "=") board.zoom(1 / 1.25);
  else if (e.key === "-") board.zoom(1.25);
  else if (e.key === "0") board.fit();
  else if (e.key === "m" || e.key === "M") board.whole();
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
