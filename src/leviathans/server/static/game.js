// The game page: a live view of one game over a websocket, and controls that offer only
// what the engine says is legal (the server sends the legal actions of the seat to move).
import { api, heldTokens, holdTokens, el, outcomeText, pageProblem } from "/static/common.js";
import { Board, hexDistance } from "/static/board.js";
import { airControls } from "/static/airfleet.js";
import { airSummary } from "/static/summary.js";
import { RULES } from "/static/rules.js";
import { diceOn, diceToggle, showRoll, skipRoll } from "/static/dice.js";
import { eventNode } from "/static/events.js";
import { warControls, warSummary } from "/static/warfleet.js";
import { fogControls, fogInitiative, fogSummary, fogUnit } from "/static/fog.js";
import { turnCue } from "/static/turncue.js";
import { starControls } from "/static/starship.js";

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
let warStats = null;   // War Fleet: every ship's stats, fetched again each turn (W3: an engagement
let warStatsTurn = null;  // folded back converts its damaged cards again)
let pending = 0;       // actions sent and not yet answered (a confirmed move is several)
let firstError = null; // the first refusal among them
let awaited = 0;       // the step the last answer reached: the page waits for that state
let generation = 0;    // counts the renders: an answer to an older one is dropped
let rolledUpTo = null; // the step whose rolls were last shown landing (none on the first load)
let ruler = null;      // { from: hex, what } : hovering a hex tells its distance from there
let botNames = ["random", "greedy", "search"];  // the bots a seat may be handed to (/api/meta)
let handBot = "greedy";  // the bot chosen for "Hand to bot" (kept across redraws)
api("/api/meta").then((m) => { botNames = m.bots; }).catch(() => {});

// --- connection ----------------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const query = tokens.map((t) => `token=${encodeURIComponent(t)}`).join("&");
  ws = new WebSocket(`${proto}//${location.host}/ws/games/${encodeURIComponent(gameId)}?${query}`);
  ws.onopen = () => { retry = 500; setConn("live"); };
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.type === "state") {
      // the state the page already shows (the push on connecting repeats the load's) is not
      // drawn again: a redraw would drop what the player has begun (a ship picked, a ruler)
      if (!sameState(msg)) {
        data = msg;
        if (!pending && data.seq >= awaited) render();
      }
      document.body.dataset.live = data.seq;  // the live state has come (tests wait for it)
    }
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

// The pushed payload is the one shown: same step, and the same in every field but its type.
function sameState(msg) {
  if (!data || data.seq !== msg.seq) return false;
  const { type, ...payload } = msg;
  const { type: shownType, ...shown } = data;
  return JSON.stringify(payload) === JSON.stringify(shown);
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
  // "torpedo launch"; an 8 Nations step of declarations "before gunnery (8 Nations)"
  document.getElementById("phase").textContent = String(view.phase).replace(/^nations_(.+)$/, "$1 (8 Nations)").replaceAll("_", " ");
  document.getElementById("turn").textContent = `turn ${view.turn}`;
  const tm = document.getElementById("to-move");
  tm.textContent = data.to_move ? `${data.to_move} to move` : "game over";
  tm.className = `to-move ${data.to_move || ""}`;
  document.getElementById("initiative").textContent = initiativeText(view);
  moveOrder(view);
  document.getElementById("seat").textContent = data.you.length
    ? `you: ${data.you.map((side) => (botOf(side) ? `${side} (the ${botOf(side)} bot plays it)` : side)).join(" & ")}`
    : "spectating";
  weaponShown = null;
  for (const k of ["onHex", "onShip", "onElement", "onSpot", "onGhost", "onHover", "onWheel", "onDrag"]) board[k] = null;
  ruler = null;
  board.describe = (hex) => (ruler ? `${hexDistance(ruler.from, hex)} hexes from ${ruler.what}` : null);
  board.show(data.svg);
  board.onCard = showCard;
  document.getElementById("controls").classList.remove("busy");
  if (data.game.ruleset === "airfleet") { frameBoard(); wreckTags(); }
  else if (data.game.ruleset === "warfleet") {
    frameBoard();
    if (warStatsTurn !== view.turn) {
      warStatsTurn = view.turn;
      api(`/api/games/${encodeURIComponent(gameId)}/stats`).then((s) => { warStats = s.ships; renderControls(); })
        .catch(() => { warStatsTurn = null; });
    }
  }
  else frameTable(data.view.elements.filter((e) => e.x !== null), 4);
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

// The 8 Nations' Initiative Crews (N3): the ships still to move this turn, one by one in the
// engine's order (the nations' view), each with its initiative.
function moveOrder(view) {
  const box = document.getElementById("move-order");
  const order = (view.nations && view.nations.move_order) || [];
  box.hidden = !order.length;
  box.replaceChildren(...(order.length ? [el("span", { class: "muted" }, "move order (Initiative Crews): "),
    ...order.map((o, i) => el("span", { class: `order-ship ${o.side}`, "data-ship": o.ship,
      title: `${o.ship}: initiative ${o.initiative}` }, `${i ? "→ " : ""}${o.ship.replace(/ \(8 Nations\)$/, "")} ${o.initiative}`))] : []));
}

// The panel: a decision's controls, then what stays under every decision (a War Fleet game's
// engagements, an engagement's way back to its fleet map, "Hand to bot", the fog-of-war
// cards). A control that redraws the panel itself (the move planner, once its plan comes)
// comes here too, so these stay.
function controls(title, ...children) {
  const box = document.getElementById("controls");
  box.replaceChildren(el("h3", {}, title), ...children.flat().filter((c) => c !== null && c !== undefined && c !== false),
                      ...panelExtras(), el("p", { class: "error", id: "error" }));
  const fog = data.view.fog && fogSummary(data.view.fog, fogUnit(data.game.ruleset));
  // Above War Fleet's (long) ship stats panel, so the revealed cards stay in sight.
  if (fog) box.insertBefore(fog, box.querySelector("#ship-stats") || document.getElementById("error"));
}

function panelExtras() {
  const parent = gameId.match(/^(.+)\.e(\d+)$/);  // a War Fleet engagement's own game (W3)
  return [
    data.game.ruleset === "warfleet" ? engagementList(data) : null,
    parent ? el("p", { class: "fleet-map" }, `War Fleet engagement ${parent[2]}: `,
      el("a", { href: `/game/${encodeURIComponent(parent[1])}`, id: "fleet-map-link" },
        data.view.outcome ? "back to the fleet map (the result is folded back)" : "the fleet map")) : null,
    leaveToBot(!!parent),
  ].filter((c) => c);
}

function button(label, onclick, attrs = {}) {
  return el("button", { ...attrs, onclick: (e) => { e.preventDefault(); onclick(); } }, label);
}

function allLegal(legal) {
  if (!legal.length) return null;
  return el("details", { class: "all" }, el("summary", {}, `all ${legal.length} legal actions`),
    el("div", { class: "buttons" }, legal.slice(0, 400).map((a) => button(a, () => send(a), { class: "secondary", "data-action": a }))));
}

// The seat this browser acts for at any moment (concede, draw): the one it looks from, else
// another it holds; never one handed to a bot (the server would refuse it).
function handSide() {
  const mine = data.you.filter((side) => !botOf(side));
  return mine.includes(data.perspective) ? data.perspective : (mine[0] || null);
}

function concede() {
  const side = handSide();
  if (!side || data.view.outcome) return null;
  return button(`concede (${side})`, () => { if (confirm(`Concede for ${side}?`)) send(`concede ${side}`); },
                { class: "secondary", id: "concede", title: RULES.concede });
}

// The draw offer (air-fleet games): offer one, or answer the other side's, at any moment.
function drawOffer() {
  if (data.game.ruleset !== "airfleet" || !handSide() || data.view.outcome) return null;
  const offer = data.view.draw_offer;
  if (offer) {
    const answerer = data.you.find((side) => side !== offer && !botOf(side));
    if (!answerer) return el("p", { class: "muted", id: "draw-pending" }, "Your draw offer waits for an answer.");
    return el("div", { class: "draw-offer", id: "draw-offer" },
      el("span", {}, `${offer} offers a draw.`),
      button("accept the draw", () => send(`draw accept ${answerer}`), { id: "accept-draw", title: RULES.draw }),
      button("decline", () => send(`draw decline ${answerer}`), { id: "decline-draw", class: "secondary", title: RULES.draw }));
  }
  const side = handSide();
  return button(`offer a draw (${side})`, async () => {
    if (await ask(`Offer the other side a draw? If they accept, the game ends as a draw.`, "offer a draw", "keep playing")) send(`draw offer ${side}`);
  }, { class: "secondary", id: "offer-draw", title: RULES.draw });
}

function renderControls() {
  showControls();
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
    const bot = botOf(data.to_move);
    controls(data.you.length ? `Waiting for ${data.to_move}${bot ? ` (the ${bot} bot)` : ""}…` : `Spectating: ${data.to_move} to move`,
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
  else starControls(starContext());
}

// W3: the engagements of a War Fleet game, each an air-fleet game of its own: a link to play it
// (this browser's seats), to watch it, and to its replay.
function engagementList(d) {
  const list = d.engagements || [];
  if (!list.length) return null;
  return el("div", { id: "engagements", class: "engagements" }, el("h4", {}, "Engagements (fought in detail)"),
    el("ul", {}, list.map((e) => {
      const mine = Object.values(e.tokens || {});
      const query = mine.map((t) => `token=${encodeURIComponent(t)}`).join("&");
      const playing = Object.keys(e.tokens || {}).filter((side) => !(e.bots || {})[side]);  // not handed to a bot
      return el("li", { "data-engagement": e.number },
        `Engagement ${e.number}: ${e.fighting ? "being fought" : "folded back"} · `,
        el("a", { href: `/game/${encodeURIComponent(e.game)}${query ? `?${query}` : ""}`, class: "engagement-link",
          "data-engagement": e.number }, e.fighting ? (playing.length ? "fight it" : "watch it") : "see it"),
        " · ", el("a", { href: `/replay/${encodeURIComponent(e.game)}`, class: "engagement-replay" }, "replay"),
        engagementBots(e));
    })),
    damageList(d),
    el("p", {}, el("a", { href: `/campaign/${encodeURIComponent(gameId)}`, id: "campaign-link" }, "the campaign: every engagement")));
}

// Who plays an engagement's seats: the bots, and for this browser's seats still its own, a
// "Hand to bot" button with a bot chooser (issue 17: fight one engagement, let bots fight the
// others).
function engagementBots(e) {
  const bots = e.bots || {};
  const played = Object.entries(bots).map(([side, bot]) => `${side}: the ${bot} bot`);
  const mine = e.fighting ? Object.keys(e.tokens || {}).filter((side) => !bots[side]) : [];
  if (!played.length && !mine.length) return null;
  return el("div", { class: "engagement-seats" },
    played.length ? el("span", { class: "muted engagement-bots" }, `played by ${played.join(", ")}`) : null,
    ...mine.map((side) => handControl(e.game, e.tokens[side], side, mine.length > 1,
      { "data-engagement": e.number })));
}

// A bot chooser and the button handing ``side``'s seat of ``game`` (held by ``token``) to it.
function handControl(game, token, side, named, attrs = {}) {
  const chooser = el("select", { class: "hand-bot-choice", "aria-label": `the bot to play ${side}`, "data-side": side,
    onchange: (ev) => { handBot = ev.target.value; } },
  ...botNames.map((b) => el("option", { value: b, selected: b === handBot }, b)));
  return el("span", { class: "hand-bot" }, chooser,
    button(named ? `Hand ${side} to bot` : "Hand to bot", () => handToBot(game, token, side, chooser.value),
      { ...attrs, class: "secondary hand-to-bot", "data-side": side,
        title: RULES.bot }));
}

async function handToBot(game, token, side, bot) {
  if (!await ask(`Hand ${side} to the ${bot} bot? It plays ${side} from now on, at once; you can no longer play it (you still watch).`,
    "hand it to the bot", "keep playing")) return;
  try {
    await api(`/api/games/${encodeURIComponent(game)}/bot`, { method: "POST", body: JSON.stringify({ token, bot }) });
  } catch (err) {
    showError(err.message);
  }
}

// The bot playing a seat of this game, if a bot plays it.
function botOf(side) {
  const seat = (data.game.seats || []).find((s) => s.side === side);
  return seat && seat.kind === "bot" ? seat.bot : null;
}

// This browser's seats still played by hand, each with "Hand to bot" (open at once on an
// engagement's own page: let a bot fight it; folded away elsewhere).
function leaveToBot(engagement) {
  if (data.view.outcome) return null;
  const mine = data.you.filter((side) => !botOf(side));
  if (!mine.length) return null;
  return el("details", { id: "leave-to-bot", class: "leave-to-bot", open: engagement },
    el("summary", { title: RULES.bot }, engagement ? "Let a bot fight this engagement" : "Leave this seat to a bot"),
    ...mine.map((side) => handControl(gameId, tokenFor(side), side, mine.length > 1)));
}

// The damage the ships carry back from their engagements: card slots (and the locations that
// lost every slot, destroyed at fleet scale), or lost.
function damageList(d) {
  const hurt = d.view.ships.filter((s) => (s.card_damage || []).length);
  if (!hurt.length) return null;
  return el("div", { id: "fleet-damage" }, el("strong", {}, "Damage carried from the engagements:"),
    el("ul", {}, hurt.map((s) => {
      const lost = Object.entries(s.locations).filter(([, l]) => l.destroyed).map(([n]) => n);
      return el("li", { "data-ship": s.name }, `${s.name} (${s.status}): ${s.card_damage.length} card slots destroyed`
        + (lost.length ? `; locations destroyed: ${lost.join(", ")}` : ""));
    })));
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
// The air-fleet and War Fleet maps share their hex geometry.
function frameBoard() {
  const svg = board.svg;
  // an air-fleet ship covers several hexes (bow first), a War Fleet counter one
  const shipHexes = (g) => (g.dataset.hexes || g.dataset.hex || "").split(" ").filter(Boolean);
  let hexes = [...svg.querySelectorAll("g.ship")].flatMap(shipHexes);
  // the 8 Nations: a fled ship's token, where it may come back (issue 16.7)
  hexes = hexes.concat([...svg.querySelectorAll("g.fled-token")].map((g) => g.dataset.hex));
  // at the end, where the lost ships went down too
  if (data.view.outcome) hexes = hexes.concat([...svg.querySelectorAll("g.wreck")].flatMap(shipHexes));
  const side = data.perspective || data.to_move;
  if (data.view.phase === "deployment" || data.view.phase === "placement") {
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

// The starship table opens on the elements in play (a few inches around them, never closer than
// a third of the table across); the user's own zoom and pan are kept until "fit".
function frameTable(points, pad) {
  const svg = board.svg;
  if (!svg || !points.length) { board.frame(null); return; }
  const ppi = Number(svg.dataset.pxPerInch), margin = Number(svg.dataset.margin);
  const xs = points.map((p) => margin + p.x * ppi), ys = points.map((p) => margin + p.y * ppi);
  const box = { x: Math.min(...xs) - pad * ppi, y: Math.min(...ys) - pad * ppi };
  box.w = Math.max(...xs) + pad * ppi - box.x;
  box.h = Math.max(...ys) + pad * ppi - box.y;
  const least = Number(svg.dataset.width) * ppi / 3;
  if (box.w < least) { box.x -= (least - box.w) / 2; box.w = least; }
  if (box.h < least * 0.6) { box.y -= (least * 0.6 - box.h) / 2; box.h = least * 0.6; }
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

function starContext() {
  const drawn = generation;
  return {
    current: () => drawn === generation,
    data, board, pick, controls, button, send, sendMany, concede, showError, ask, showWeapon,
    sending: () => pending > 0,
    focus: (points, pad) => { if (narrow()) frameTable(points, pad); },  // on a phone, frame the move
    plan: (element, steps, extra = "") => api(`/api/games/${encodeURIComponent(gameId)}/plan?ship=${encodeURIComponent(element)}`
      + `&steps=${encodeURIComponent(steps)}${extra}&${tokenQuery()}`),
  };
}

// --- log and cards -------------------------------------------------------------------------

function renderLog() {
  const box = document.getElementById("log");
  const nodes = [];
  for (const step of data.log) {
    for (const ev of step.events) {
      if (ev.event === "move-start") continue;
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
