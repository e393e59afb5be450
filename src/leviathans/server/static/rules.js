// One sentence per control, naming the rule it plays (our own words; the whole of each rule is
// on /static/rules.html, under the anchor in brackets).
export const RULES = {
  deployOrder: "Deployment: each side sets its ships down in its own zone, the side that deploys first placing one ship at a time [deployment].",
  facing: "Facing: a ship faces one of the six hexsides; its bow hex leads and the rest of the ship trails behind it [deployment].",
  order: "Movement order: the highest ship Type moves first, the side that lost the initiative before the winner [movement].",
  mp: "Movement points: each step costs 1 MP, unused MP are lost, and a ship must enter the hexes its card asks before each turn [movement].",
  forward: "Forward: the ship enters the hex ahead of its bow for 1 MP [movement].",
  turn: "Turn: one hexside to port or starboard for 1 MP, once per hex, after entering the hexes the card asks since the last turn [movement].",
  end: "End of move: the ship stops; a ship may pass through others but may not stop on one, and stopping on the half-hex ring loses it [movement].",
  arc: "Arcs: a gun fires only at a target with a hex in its location's arc, counted from the hex the guns of that location fire from [gunnery].",
  bands: "Range bands: up to the short range the gun rolls its short dice, beyond it and up to the long range its long dice [gunnery].",
  headline: "Odds: the exact chance that this shot destroys a slot of the location struck (the breach roll against the slot die's slot) [gunnery].",
  fire: "Breach roll: weapon, crew and location dice against the breach number of the slot the slot die picks; all fire is simultaneous [gunnery].",
  done: "Done firing: the guns left unfired stay silent this turn [gunnery].",
  concede: "Conceding ends the game at once: the other side wins [ending].",
  draw: "A draw offer: if the other side accepts it, the game ends as a draw agreed by both [ending].",
  dice: "Rolls: each breach roll of a player's gun is shown as dice landing by the target; the log keeps every die [gunnery].",
  undo: "Planning: take back the last planned step, since nothing is played until the move is confirmed [movement].",
  clear: "Planning: take back every planned step of this move [movement].",
  ship: "Movement order: the ships of the Type moving may go in any order, one whole move at a time [movement].",
  gun: "Arcs and range: point at a gun to see where it reaches; click the row to keep it shown [gunnery].",
};
