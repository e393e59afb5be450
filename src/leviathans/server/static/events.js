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
    node.classList.add("roll");
    node.append(el("span", {}, `${ev.ship} ${ev.slot} → ${ev.target} ${ev.location} (range ${ev.range}) `),
      el("span", { class: "dice" }, ev.dice.map(([role, die, face]) => el("span", { class: `die ${die}`, title: `${role} ${die}` }, face)),
        el("span", { class: "die d6", title: "slot die" }, ev.slot_roll)),
      el("span", {}, ` = ${ev.total}: ${ev.results.join("; ")}`));
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
