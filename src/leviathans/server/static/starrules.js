// The starship game's decisions, each explained in one sentence where it is offered (our own
// words; the numbers are the game's data: rulesets/starship/data/rules.toml).
export const STAR = {
  mulligan: "Mulligan: when none of your CMD dice shows more than 3 you may roll them all again, once this turn, and must then keep the new roll.",
  command: "Command dice: in secret, give each die to the initiative pool, to the re-roll pool, or to one system of one of your ships that the die's value is high enough to switch on; dice you leave are lost.",
  initiative: "Initiative pool: the admiral with the larger total here moves and attacks first this turn (a tie is settled by a die each).",
  reroll: "Re-roll pool: a die kept here may be spent later this turn to roll any one die again, one of yours or one of your opponent's.",
  system: "System: the die switches this system on for the turn if its value reaches the system's number.",
  cmdDone: "Done: the dice not given anywhere stay unused this turn.",
  hangar: "Hangars: a carrier whose Hangar Bays are on may put one squadron out touching its base, or take back aboard squadrons that are close enough.",
  move: "Movement: each engine point carries the ship straight ahead up to 2 inches or pivots it up to 45 degrees, a pivot only after as many inches straight ahead as its CMD; it may cross other bases but must not stop on one.",
  step: "Steps: each button spends one engine point, to move the distance shown straight ahead or to pivot by the angle shown.",
  off: "The table's edge: a ship or torpedo whose centre goes past the edge of the table is lost at once.",
  squadron: "Squadron: it is simply set down anywhere within 2 inches per engine point of where it was (3 with Full Thrust), keeping its heading, clear of every other base.",
  arrive: "Return from hyperspace: an element out of play may come back anywhere more than 6 inches from every enemy, or stay away this turn.",
  jump: "Hyperspace jump: with its drive switched on, the element leaves the table and may return in a later movement phase.",
  push: "Pushed aside: a ship stopped on your squadron, so set the squadron down touching that ship wherever there is room.",
  attack: "Attack: each weapon fires once a turn at one target inside its arc and range, measured between the edges of the bases; a torpedo launcher sends a torpedo off instead.",
  hold: "Hold fire: the element's weapons that have not fired stay silent for the rest of the turn.",
  roll: "Re-roll pool: before this roll counts, each admiral may spend a pool die to roll any one of its dice again, or let it stand.",
  overcharge: "Overcharge: spend the Divert Power To Weapons die kept from last turn to roll every missed die of this attack again.",
  accept: "Let it stand: the roll counts as it is, unless the other admiral still changes it.",
  morale: "Morale: choose one of your elements carrying disorder to roll as many dice as its CMD, each die of 5 or more taking away one disorder token, or roll for none.",
  lead: "New leader: the unit lost its leader, so name one of its surviving members to take its CMD dice from now on.",
};

// A decision's sentence as shown in its panel.
export function explain(el, key) {
  return el("p", { class: "explain", "data-explains": key }, STAR[key]);
}
