// Fog-of-war initiative (F1) on the game page, for every rule set that offers it: the secret
// placement form (lay the cards out left to right, one die on each) and the panel of the
// cards placed and revealed so far. A card names a ship type in the air-fleet game and a
// class in War Fleet (`unit`); the rest is the same view shape (leviathans.fog.view).
import { el } from "/static/common.js";

// What a card names in each rule set: its word in the form and its short label in the panel.
export const FOG_UNITS = {
  airfleet: { name: "Type", short: "T", what: "ship type" },
  warfleet: { name: "class", short: "class ", what: "class" },
};

export function fogUnit(ruleset) {
  return FOG_UNITS[ruleset] || FOG_UNITS.airfleet;
}

// ctx: { data, pick, controls, button, send, concede, showError }; legal: the fog actions.
export function fogControls(ctx, legal, unit) {
  const { data, pick } = ctx;
  const me = data.to_move;
  const fog = data.view.fog;
  const cards = fog.sides[me].cards;
  const dice = fog.dice;
  if (!pick.fog || pick.fog.length !== cards.length) {
    pick.fog = cards.map((t, i) => ({ type: t, die: dice[i] }));
  }
  document.onkeydown = null;
  const choice = () => `fog ${me} ` + pick.fog.map((c) => `${c.type}:${c.die}`).join(" ");
  const rows = pick.fog.map((c, i) => el("div", { class: "fog-card" },
    el("strong", {}, `card ${i + 1}`),
    el("select", { "data-fog-type": i, onchange: (e) => { pick.fog[i].type = Number(e.target.value); } },
      cards.map((t) => el("option", t === c.type ? { value: t, selected: "" } : { value: t }, `${unit.name} ${t}`))),
    el("select", { "data-fog-die": i, onchange: (e) => { pick.fog[i].die = e.target.value; } },
      dice.map((d) => el("option", d === c.die ? { value: d, selected: "" } : { value: d }, `${d} die`)))));
  ctx.controls(`Initiative: ${me} places its cards and dice (secret)`,
    el("p", { class: "muted" }, `Cards are revealed from the left; on each pair the higher roll wins and the loser's ships of its ${unit.what} move first. Each ${unit.what} once, each die once.`),
    el("div", { id: "fog-choice" }, rows),
    el("div", { class: "buttons" }, ctx.button("place cards", () => {
      const action = choice();
      if (legal.includes(action)) ctx.send(action);
      else ctx.showError(`Put each ${unit.what} on one card and each die on one card.`);
    }, { id: "fog-place" })),
    ctx.concede());
}

// The cards of both sides: revealed ones with their die, roll and result; the seat's own
// hidden ones; the other side's only as a count face down.
export function fogSummary(fog, unit) {
  const lines = Object.entries(fog.sides).map(([side, s]) => {
    const shown = s.revealed.map((c) => `${unit.short}${c.type} ${c.die}${c.roll !== null ? ` ${c.roll}` : ""}${c.result ? ` (${c.result})` : ""}`);
    const hidden = s.placement
      ? s.placement.slice(s.revealed.length).map((c) => `${unit.short}${c.type} ${c.die} (hidden)`)
      : (s.chosen ? [`${s.cards.length - s.revealed.length} face down`] : ["not placed yet"]);
    return el("div", { "data-fog-side": side }, el("strong", {}, `${side}: `), [...shown, ...hidden].join(" · ") || "—");
  });
  return el("div", { class: "fog", id: "fog" }, el("h4", {}, "Fog-of-war cards"), lines);
}

// The banner's initiative while the fog-of-war cards decide it: nothing before a card is
// revealed (the placements are secret), then who won the latest roll (a side's latest roll,
// or its standing roll after a discard) and any card revealed since with no roll.
export function fogInitiative(fog, unit) {
  const sides = Object.entries(fog.sides);
  if (sides.every(([, s]) => !s.revealed.length)) return "initiative: cards face down";
  const rolled = sides.map(([side, s]) => [side, s.revealed.filter((c) => c.roll !== null).pop()]);
  let text = "initiative: no roll yet";
  if (rolled.every(([, c]) => c)) {
    const [[a, ca], [b, cb]] = rolled;
    const [win, lose] = ca.roll > cb.roll ? [[a, ca], [b, cb]] : [[b, cb], [a, ca]];
    text = `initiative: ${win[0]} won ${win[1].roll} to ${lose[1].roll} `
      + `(${unit.name} ${win[1].type} against ${unit.name} ${lose[1].type})`;
  }
  const unrolled = sides.map(([side, s]) => [side, s.revealed[s.revealed.length - 1]])
    .filter(([, c]) => c && c.roll === null);
  return text + unrolled.map(([side, c]) => `; ${side} ${unit.name} ${c.type}: no roll`).join("");
}
