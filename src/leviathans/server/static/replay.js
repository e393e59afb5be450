// Replay: step through a game by action, by ship's move and by turn, or jump to any turn;
// every step shows its events with their dice (and, once the game is over, the action and
// every roll it caused). The same page shows a finished game, an uploaded record and a live
// game's history so far, as this browser's seat (or a spectator) saw it: it follows the game
// while it goes on.
import { api, el, heldTokens, outcomeText, pageProblem } from "/static/common.js";
import { Board } from "/static/board.js";
import { eventNode, rollsNode } from "/static/events.js";

const id = decodeURIComponent(location.pathname.split("/").pop());
const params = new URLSearchParams(location.search);
const tokens = params.getAll("token").length ? params.getAll("token") : (heldTokens()[id] || []);
const query = tokens.map((t) => `&token=${encodeURIComponent(t)}`).join("");
const board = new Board(document.getElementById("board"), null);
const slider = document.getElementById("slider");
let outline = [];   // every step: {step, turn, phase, stop, text}
let current = -1;
let live = false;
let asked = 0;      // the latest step asked for: an older answer arriving late is dropped

const last = () => outline.length - 1;

async function loadOutline() {
  const data = await api(`/api/games/${encodeURIComponent(id)}/replay/outline?${query.slice(1)}`);
  outline = data.outline;
  live = data.live;
  slider.max = String(last());
  document.getElementById("title").textContent = data.game.title;
  document.body.dataset.ruleset = data.game.ruleset;  // hex labels only zoomed in close, as in a game
  document.title = `Leviathans: replay of ${data.game.title}`;
  document.getElementById("result").textContent = outcomeText(data.game.outcome);
  document.getElementById("live").textContent = live
    ? ` · in play: the steps so far, as ${tokens.length ? "your seat" : "a spectator"} saw them` : "";
  const download = document.getElementById("download");
  download.hidden = id.startsWith("r-") || live;
  download.href = `/api/games/${encodeURIComponent(id)}/record`;
  fillTurns();
  fillOutline();
  return data;
}

// The first step of each turn (where the turn number changes).
function turnStarts() {
  const starts = [];
  outline.forEach((s, i) => { if (i === 0 || s.turn !== outline[i - 1].turn) starts.push(s); });
  return starts;
}

function fillTurns() {
  const select = document.getElementById("turn");
  select.replaceChildren(...turnStarts().map((s) => el("option", { value: String(s.step) },
    s.turn ? `turn ${s.turn}` : "the opening")));
}

function fillOutline() {
  const list = document.getElementById("outline");
  list.replaceChildren(...outline.flatMap((s, i) => {
    const head = i === 0 || s.turn !== outline[i - 1].turn
      ? [el("li", { class: "turn" }, s.turn ? `Turn ${s.turn}` : "Opening")] : [];
    return [...head, el("li", { "data-step": s.step, onclick: () => go(s.step) },
      `${s.step}. ${s.phase}: ${s.text || "…"}`)];
  }));
}

async function show(step) {
  step = Math.max(0, Math.min(last(), step));
  asked = step;
  const data = await api(`/api/games/${encodeURIComponent(id)}/replay?step=${step}${query}`);
  if (asked !== step) return;
  current = step;
  slider.value = String(step);
  const s = outline[step] || {};
  document.getElementById("step").textContent = `step ${step} of ${last()}`;
  document.body.dataset.step = String(step);
  document.body.dataset.turn = String(data.view.turn);
  document.getElementById("phase").textContent = `Turn ${data.view.turn}, ${data.view.phase}`;
  document.getElementById("action").replaceChildren(
    el("div", {}, data.action ? el("strong", {}, data.action) : (s.text || (step ? "" : "the opening"))),
    ...(data.rolls ? [rollsNode(data.rolls)] : []));
  const select = document.getElementById("turn");
  const start = turnStarts().filter((t) => t.step <= step).pop();
  if (start) select.value = String(start.step);
  board.show(data.svg);
  const events = data.events.filter((e) => e.event !== "move-start");
  document.getElementById("log").replaceChildren(...(events.length ? events.map(eventNode)
    : [el("div", { class: "ev muted" }, "no event at this step")]));
  for (const li of document.querySelectorAll("#outline li.now")) li.classList.remove("now");
  const mine = document.querySelector(`#outline li[data-step="${step}"]`);
  if (mine) mine.classList.add("now");
}

function go(step) {
  if (current < 0) return;  // the game could not be shown at all
  show(step).catch((e) => { document.getElementById("result").textContent = e.message; });
}

// By ship's move: to the next (previous) step that leaves no ship in the middle of a move.
function nextStop() {
  const s = outline.find((x) => x.step > current && x.stop);
  return s ? s.step : last();
}

function previousStop() {
  const s = outline.filter((x) => x.step < current && x.stop).pop();
  return s ? s.step : 0;
}

// By turn: the first step of the next turn; back, the start of this turn (or the last one's).
function nextTurn() {
  const s = turnStarts().find((x) => x.step > current);
  return s ? s.step : last();
}

function previousTurn() {
  const s = turnStarts().filter((x) => x.step < current).pop();
  return s ? s.step : 0;
}

document.getElementById("first").onclick = () => go(0);
document.getElementById("back-turn").onclick = () => go(previousTurn());
document.getElementById("back-move").onclick = () => go(previousStop());
document.getElementById("back").onclick = () => go(current - 1);
document.getElementById("forward").onclick = () => go(current + 1);
document.getElementById("forward-move").onclick = () => go(nextStop());
document.getElementById("forward-turn").onclick = () => go(nextTurn());
document.getElementById("last").onclick = () => go(last());
document.getElementById("turn").onchange = (e) => go(Number(e.target.value));
slider.oninput = () => go(Number(slider.value));
document.getElementById("zoom-in").onclick = () => board.zoom(1 / 1.25);
document.getElementById("zoom-out").onclick = () => board.zoom(1.25);
document.getElementById("zoom-fit").onclick = () => board.fit();

function tab(which) {
  document.getElementById("tab-events").classList.toggle("on", which === "events");
  document.getElementById("tab-steps").classList.toggle("on", which === "steps");
  document.getElementById("log").hidden = which !== "events";
  document.getElementById("outline").hidden = which !== "steps";
  const now = document.querySelector("#outline li.now");
  if (which === "steps" && now) now.scrollIntoView({ block: "center" });
}
document.getElementById("tab-events").onclick = () => tab("events");
document.getElementById("tab-steps").onclick = () => tab("steps");

window.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("input, select")) return;
  const to = { ArrowRight: e.shiftKey ? nextStop : () => current + 1,
               ArrowLeft: e.shiftKey ? previousStop : () => current - 1,
               PageDown: nextTurn, PageUp: previousTurn, Home: () => 0, End: last }[e.key];
  if (to) { e.preventDefault(); go(to()); }
});

// A live game: the outline grows as the game goes on (the game's own websocket says when);
// a viewer at the last step follows it.
function follow() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/games/${encodeURIComponent(id)}?lite=1${query}`);
  // One look at a time, and one more if news came during it: looks running side by side saw
  // an outline grown by another look and took the viewer for one who had stepped back.
  // Following is judged by the step last asked for, not the one shown (that comes later).
  let busy = false;
  let again = false;
  const refresh = async () => {
    if (busy) { again = true; return; }
    busy = true;
    try {
      do {
        again = false;
        const atEnd = asked === last();
        const data = await loadOutline();
        if (atEnd && asked !== last()) await show(last());
        if (!data.live) ws.close();
      } while (again);
    } catch (e) {
      document.getElementById("result").textContent = e.message;
    } finally {
      busy = false;
    }
  };
  ws.onmessage = refresh;
  // Steps played between the outline's loading and the socket's opening: look again once open
  ws.onopen = async () => { await refresh(); document.body.dataset.following = "1"; };
  ws.onclose = (e) => { if (live && e.code !== 4403 && e.code !== 4404) setTimeout(follow, 2000); };
}

async function main() {
  await loadOutline();
  await show(live ? last() : 0);
  if (live) follow();
}

main().catch((e) => pageProblem(id, e));  // no such game, or a token that holds no seat: say so
