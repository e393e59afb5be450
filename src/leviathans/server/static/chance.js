// What the chosen side may expect against the chosen opponent, when the simulator has played
// that very match-up: a built-in scenario as it comes (data/scenario_odds.json), or one ship
// against one of the rating's reference ships (data/ratings.json). Otherwise only the fleets'
// totals, which are a rough guide.
import { el } from "/static/common.js";

const pc = (x) => `${Math.round(x * 100)}%`;
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// The 95% Wilson score interval of k successes in n (as the simulator's reports give).
export function wilson(k, n) {
  if (!n) return [0, 1];
  const z = 1.959963984540054, p = k / n, z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [k === 0 ? 0 : Math.max(0, centre - half), k === n ? 1 : Math.min(1, centre + half)];
}

function known(side, text, rate, low, high, rest) {
  // A side that wins clearly less than half its battles is the harder one: say so plainly.
  const hard = high < 0.4 ? el("strong", { class: "warn" }, " The harder side: expect an uphill battle.")
    : low > 0.6 ? el("strong", {}, " The stronger side.") : null;
  return [el("strong", {}, `The ${cap(side)} win `),
    el("strong", { class: "chance-figure", "data-rate": rate.toFixed(4) }, pc(rate)),
    ` (95% interval ${pc(low)}–${pc(high)}) ${text}`, rest ? ` ${rest}` : "", hard];
}

// A scenario as it comes: its own simulated odds.
function scenarioChance(side, odds) {
  const mine = odds.wins[side];
  const others = Object.entries(odds.wins).filter(([s]) => s !== side)
    .map(([s, w]) => `${cap(s)} ${pc(w.rate)}`).join(", ");
  return known(side, `in ${odds.games} battles between greedy bots`, mine.rate, mine.low, mine.high,
    `(${others}, draws ${pc(odds.draws.rate)}; ${odds.initiative}${odds.turn_limit ? `, a draw after turn ${odds.turn_limit}` : ""}).`);
}

// One ship against one reference ship: the pairing's counts from the ratings.
function pairChance(side, mine, theirs, byName) {
  const a = byName.get(mine), b = byName.get(theirs);
  let wins, draws, games;
  if (a && a.rating && a.rating.against && a.rating.against[theirs]) {
    ({ wins, draws, games } = a.rating.against[theirs]);
  } else if (b && b.rating && b.rating.against && b.rating.against[mine]) {
    const p = b.rating.against[mine];
    ({ draws, games } = p);
    wins = games - p.wins - p.draws;
  } else {
    return null;
  }
  const [low, high] = wilson(wins, games);
  return known(side, `: ${mine} against ${theirs}, ${wins} wins and ${draws} draws in ${games} battles between greedy bots (the ratings' runs; a draw after turn 30).`,
    wins / games, low, high);
}

export function chanceText({ side, facts, fleets, picked, byName, deployment, initiativeChanged,
                             optionsChanged, totals }) {
  const plain = !deployment && !initiativeChanged && !optionsChanged;
  if (plain && !fleets && facts.odds && facts.odds.wins[side]) {
    return scenarioChance(side, facts.odds);
  }
  if (plain && fleets && picked) {
    const other = Object.keys(picked).find((s) => s !== side);
    if (picked[side].length === 1 && other && picked[other].length === 1) {
      const pair = pairChance(side, picked[side][0], picked[other][0], byName);
      if (pair) return pair;
    }
  }
  if (!totals) return facts.odds ? ["The simulated odds are for the scenario's own rules."] : [];
  return [el("strong", {}, "No simulation of this match-up. "),
    "Totals: ", Object.entries(totals).map(([s, t]) => `${cap(s)} ${t}`).join("; "),
    " (a rough guide: the simulator is the judge)."];
}
