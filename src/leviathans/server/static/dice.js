// The table's pace: each breach roll of a player's gun shown for a moment as dice landing by
// the target, with what came of it. A click, a key or the next roll skips it; a bot's rolls
// are not shown (bots play fast: their rolls go straight to the log), nor anything when the
// player has turned the dice off (kept in this browser).
import { el } from "/static/common.js";

const KEY = "leviathans.dice";
const SHOWN_MS = 1600;

export function diceOn() { return localStorage.getItem(KEY) !== "off"; }

export function diceToggle(onChange) {
  const box = el("input", { type: "checkbox", id: "dice-toggle" });
  box.checked = diceOn();
  box.addEventListener("change", () => { localStorage.setItem(KEY, box.checked ? "on" : "off"); if (onChange) onChange(); });
  return el("label", { class: "dice-toggle", title: "Rolls: show each breach roll of a player's gun as dice landing by the target; the log keeps every die [gunnery]." },
    box, "show the dice");
}

let timer = null;

export function skipRoll() {
  clearTimeout(timer);
  document.querySelectorAll(".roll").forEach((n) => n.remove());
}

// Show `event` (an AttackResult) landing by its target's drawing on `board`, over `wrap`.
export function showRoll(board, wrap, event) {
  skipRoll();
  const svg = board.svg;
  const target = svg && svg.querySelector(`g.ship[data-ship="${CSS.escape(event.target)}"], g.wreck[data-ship="${CSS.escape(event.target)}"]`);
  if (!target) return null;
  const box = target.getBoundingClientRect();
  const area = wrap.getBoundingClientRect();
  // A4: a bracket's results that do not count faded, and each of saturation's slot dice
  const dropped = new Set(event.dropped || []);
  const slots = [event.slot_roll, ...(event.more_slots || [])];
  const dice = [...event.dice.map(([role, die, face], i) => el("span", { class: `rdie ${die}${dropped.has(i) ? " dropped" : ""}`,
    title: `${role}: ${die} die${dropped.has(i) ? ", not counted" : ""}` }, String(face))),
    ...slots.map((n) => el("span", { class: "rdie d6", title: "slot die" }, String(n)))];
  dice.forEach((d, k) => { d.style.animationDelay = `${k * 70}ms`; });
  const result = event.keel_broken ? "the keel breaks" : event.destroyed.length ? `${event.destroyed.join(", ")} destroyed`
    : (event.results[0] || "").includes("miss") ? "a miss" : "it holds";
  const node = el("div", { class: "roll", id: "roll", "data-target": event.target, role: "status" },
    el("div", { class: "roll-dice" }, dice),
    el("div", { class: "roll-text" }, `${event.ship} ${event.slot} → ${event.target}: ${event.total}, slot ${slots.join(", ")}: ${result}`));
  node.addEventListener("click", skipRoll);
  wrap.append(node);
  // beside the target, on the side with room
  const w = node.offsetWidth, h = node.offsetHeight;
  let x = box.right - area.left + 8;
  if (x + w > area.width) x = box.left - area.left - w - 8;
  let y = box.top - area.top + box.height / 2 - h / 2;
  x = Math.max(4, Math.min(area.width - w - 4, x));
  y = Math.max(4, Math.min(area.height - h - 4, y));
  node.style.left = `${x}px`;
  node.style.top = `${y}px`;
  timer = setTimeout(skipRoll, SHOWN_MS);
  return node;
}

window.addEventListener("keydown", (e) => { if (e.key === "Escape") skipRoll(); });
