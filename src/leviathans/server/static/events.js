// One game event as a log line, its dice drawn as coloured chips: the one copy, used by the
// game page's log and the replay's.
import { el } from "/static/common.js";

const TEXTS = {
  TurnStarted: (e) => `== Turn ${e.turn} ==`,
  InitiativeRolled: (e) => `Initiative → ${e.winner}`,
  Deployed: (e) => `${e.ship} deploys at ${e.bow} facing ${e.facing}`,
  MoveEnded: (e) => e.mp_spent ? `${e.ship} moves ${e.start} → ${e.bow} facing ${e.facing} (${e.mp_spent} of ${e.mp} MP)` : `${e.ship} stays at ${e.bow} facing ${e.facing}`,
  ShipLost: (e) => `${e.ship} is destroyed: ${e.reason}`,
  TurnEnded: (e) => `End of turn ${e.turn}`,
  GameEnded: (e) => `Game over: ${e.winner ? `${e.winner} wins` : "draw"}: ${e.reason}`,
};

function plain(ev) {
  if (ev.text) return ev.text;
  if (TEXTS[ev.event]) return TEXTS[ev.event](ev);
  const copy = { ...ev }; delete copy.event;
  return `${ev.event}: ${JSON.stringify(copy)}`;
}

export function eventNode(ev) {
  const kind = ev.event || "";
  const node = el("div", { class: `ev ${kind === "TurnStarted" || kind === "turn" ? "turn" : ""}`, "data-event": kind });
  if (kind === "AttackRolled") {  // War Fleet: one roll against a resilience
    node.classList.add("roll", ev.hit ? "hit" : "miss");
    node.append(el("span", {}, `${ev.ship} ${ev.saturation ? "saturation" : ev.guns.join("+")} (${ev.weapon}) → ${ev.target} ${ev.location} (range ${ev.range}) `),
      el("span", { class: "dice" }, ev.dice.map((d, i) => el("span", { class: `die ${d}`, title: `${d} die` }, ev.faces[i]))),
      el("span", {}, ` = ${ev.total} vs ${ev.resilience}${ev.dialed.length ? ` (dialed up: ${ev.dialed.join(", ")})` : ""}: `),
      el("strong", {}, ev.hit ? "hit" : "miss"));
    return node;
  }
  if (kind === "AttackResult") {  // air fleet: the location dice, the gun's dice, the slot die
    // A4: a bracket's results that do not count are struck through (the kept ones stand), and
    // a saturating attack shows each of its slot dice
    node.classList.add("roll");
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
  node.textContent = plain(ev);
  return node;
}

// The rolls a step caused, as stored with it (label, die, face): a finished game's record.
export function rollsNode(rolls) {
  return el("div", { class: "rolls" }, "dice: ", rolls.length ? rolls.map(([label, die, face]) =>
    el("span", { class: "roll-of", title: label }, `${label} `, el("span", { class: `die ${die}` }, face), " "))
    : "none");
}
