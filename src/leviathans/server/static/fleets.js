// The lobby's fleet builder: each side's ships picked from the card catalog (search by name,
// nation and Type), with Type, SI, MP and the simulated strength rating (air fleet) or the
// converted War Fleet stats, and each side's total.
import { api, el } from "/static/common.js";

const catalogs = {};  // by rule set: the request of /api/catalog/RULESET (one per rule set)

export async function catalogOf(ruleset) {
  if (!catalogs[ruleset]) {
    catalogs[ruleset] = api(`/api/catalog/${ruleset}`);
    catalogs[ruleset].catch(() => { delete catalogs[ruleset]; });  // a failed one: ask again
  }
  return catalogs[ruleset];
}

const cap = (s) => s.split(/([ -])/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");

// The rating as a short text: "57 (52–62)".
export function ratingText(r) {
  return r ? `${Math.round(r.rating)} (${Math.round(r.low)}–${Math.round(r.high)})` : "–";
}

export class FleetPicker {
  // `variantsOn()`: whether the 8 Nations are on (their variant cards are offered then only).
  constructor(onChange, variantsOn = () => false) {
    this.onChange = onChange;
    this.variantsOn = variantsOn;
    this.ruleset = null;
    this.sides = [];
    this.fleets = {};
    this.byName = new Map();
    this.sort = { key: "name", down: false };
    for (const id of ["cat-search", "cat-nation", "cat-type"]) {
      document.getElementById(id).addEventListener("input", () => this.renderCatalog());
    }
  }

  // Show the catalog of `ruleset` with these fleets ({side: [card names]}).
  async show(ruleset, sides, fleets) {
    // The latest call wins: a scenario chosen while an earlier one's catalog was on its way
    // must not have that earlier scenario's fleets put back over its own (and sent as chosen)
    const call = (this.calls = (this.calls || 0) + 1);
    const data = await catalogOf(ruleset);
    if (call !== this.calls) return;
    const changed = this.ruleset !== ruleset;
    this.ruleset = ruleset;
    this.data = data;
    this.sides = sides;
    this.byName = new Map(data.cards.map((c) => [c.name, c]));
    this.fleets = Object.fromEntries(sides.map((s) => [s, [...(fleets[s] || [])]]));
    if (changed) this.fillFilters();
    this.renderSides();
    this.renderCatalog();
    this.renderNations();
    const note = document.getElementById("rating-note");
    note.replaceChildren(...ratingNote(data.rating));
  }

  fillFilters() {
    const nations = [...new Set(this.data.cards.map((c) => c.nation))].sort();
    const types = [...new Set(this.data.cards.map((c) => c.type))].sort();
    const nation = document.getElementById("cat-nation");
    nation.replaceChildren(el("option", { value: "" }, "every nation"),
      ...nations.map((n) => el("option", { value: n }, cap(n))));
    const type = document.getElementById("cat-type");
    type.replaceChildren(el("option", { value: "" }, "every Type"),
      ...types.map((t) => el("option", { value: String(t) }, `Type ${t}`)));
  }

  // The 8 Nations free-for-all (when the option is on): a nation per side, whose variant
  // fleet fills that side.
  renderNations() {
    const box = document.getElementById("fleet-nations");
    const nations = (this.data && this.data.nations) || {};
    const on = this.ruleset === "airfleet" && this.variantsOn() && Object.keys(nations).length > 0;
    box.hidden = !on;
    if (!on) return;
    box.replaceChildren(el("span", { class: "muted" }, "8 Nations free-for-all: "),
      ...this.sides.map((side) => {
        const select = el("select", { id: `nation-${side}`, "data-nation": side },
          el("option", { value: "" }, "choose a nation"),
          ...Object.entries(nations).map(([key, n]) => el("option", { value: key }, n.title)));
        const fleet = JSON.stringify(this.fleets[side] || []);
        const match = Object.entries(nations).find(([, n]) => JSON.stringify(n.fleet) === fleet);
        select.value = match ? match[0] : "";
        select.addEventListener("change", () => {
          const n = nations[select.value];
          if (!n) return;
          this.fleets[side] = [...n.fleet];
          this.renderSides();
          this.onChange();
        });
        return el("label", { title: `the ${side} seat flies this nation's variant cards` },
          `${cap(side)} seat`, select);
      }));
  }

  add(side, name) {
    this.fleets[side].push(name);
    this.renderSides();
    this.onChange();
  }

  remove(side, index) {
    this.fleets[side].splice(index, 1);
    this.renderSides();
    this.onChange();
  }

  // Each side's ships and total.
  renderSides() {
    const box = document.getElementById("fleet-sides");
    box.replaceChildren(...this.sides.map((side) => {
      const ships = this.fleets[side];
      return el("div", { class: `fleet ${side}`, "data-side": side },
        el("h3", {}, `${cap(side)} fleet `, el("span", { class: "total", "data-total": side }, this.totalText(side))),
        ships.length ? el("ol", {}, ships.map((name, i) => {
          const c = this.byName.get(name) || {};
          return el("li", { "data-ship": name }, el("div", { class: "row" },
            el("span", { class: "ship-name" }, name),
            el("span", { class: "muted" }, this.ruleset === "airfleet"
              ? ` Type ${c.type}, SI ${c.si}, MP ${c.mp}, rating ${ratingText(c.rating)}`
              : ` class ${c.class}, SI ${c.si}, MP ${c.mp}, ${c.attacks} attacks`),
            el("button", { type: "button", class: "secondary remove", title: `remove ${name}`,
                           "aria-label": `remove ${name} from the ${side} fleet`,
                           onclick: () => this.remove(side, i) }, "×")));
        })) : el("p", { class: "error" }, "no ships: add some from the catalog below"));
    }));
  }

  total(side) {
    const ships = this.fleets[side].map((n) => this.byName.get(n)).filter(Boolean);
    const sum = (key) => ships.reduce((t, c) => t + (key(c) || 0), 0);
    return { ships: ships.length, rating: sum((c) => c.rating && c.rating.rating),
             rated: ships.filter((c) => c.rating).length,
             si: sum((c) => c.si), attacks: sum((c) => c.attacks) };
  }

  totalText(side) {
    const t = this.total(side);
    const n = `${t.ships} ${t.ships === 1 ? "ship" : "ships"}`;
    if (this.ruleset !== "airfleet") return `${n}, SI ${t.si}, ${t.attacks} attacks`;
    // the 8 Nations variant cards have no rating: a total of none of them says nothing
    return t.ships && !t.rated ? `${n}, not rated` : `${n}, rating total ${Math.round(t.rating)}`;
  }

  columns() {
    const air = this.ruleset === "airfleet";
    return [
      ["name", "Ship", (c) => c.name],
      ["nation", "Nation", (c) => cap(c.nation)],
      air ? ["type", "Type", (c) => c.type] : ["class", "Class", (c) => c.class],
      ["si", "SI", (c) => c.si],
      ["mp", "MP", (c) => c.mp],
      air ? ["rating", "Rating", (c) => c.rating ? c.rating.rating : -1]
          : ["attacks", "Attacks", (c) => c.attacks],
    ];
  }

  shown() {
    const text = document.getElementById("cat-search").value.trim().toLowerCase();
    const nation = document.getElementById("cat-nation").value;
    const type = document.getElementById("cat-type").value;
    const key = this.columns().find(([k]) => k === this.sort.key)[2];
    const variants = this.variantsOn();
    return this.data.cards
      .filter((c) => Boolean(c.variant) === false || variants)
      .filter((c) => (!text || c.name.toLowerCase().includes(text))
        && (!nation || c.nation === nation) && (!type || String(c.type) === type))
      .sort((a, b) => {
        const x = key(a), y = key(b);
        const order = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
        return this.sort.down ? -order : order;
      });
  }

  renderCatalog() {
    if (!this.data) return;
    const table = document.getElementById("catalog");
    const cols = this.columns();
    table.tHead.replaceChildren(el("tr", {},
      cols.map(([key, label]) => el("th", {},
        el("button", { type: "button", class: `sort${this.sort.key === key ? " on" : ""}`,
                       "data-sort": key, title: `sort by ${label.toLowerCase()}`,
                       onclick: () => {
                         this.sort = { key, down: this.sort.key === key ? !this.sort.down : key === "rating" };
                         this.renderCatalog();
                       } }, label))),
      el("th", {}, "Add to")));
    const rows = this.shown();
    table.tBodies[0].replaceChildren(...rows.map((c) => el("tr", { "data-card": c.name },
      el("td", {}, c.name, c.guns === 0 ? el("span", { class: "muted", title: "no gun battery the rules fire (torpedoes are not modelled): it cannot win" }, " (no guns)") : null),
      el("td", {}, cap(c.nation)),
      el("td", {}, this.ruleset === "airfleet" ? c.type : c.class),
      el("td", {}, c.si), el("td", {}, c.mp),
      this.ruleset === "airfleet" ? el("td", { class: "rating" }, ratingCell(c.rating)) : el("td", {}, c.attacks),
      el("td", { class: "add" }, this.sides.map((side) => el("button", {
        type: "button", class: `secondary add ${side}`, "data-add": side,
        title: `add ${c.name} to the ${side} fleet`,
        onclick: () => this.add(side, c.name) }, `+ ${cap(side)}`))))));
    if (!rows.length) table.tBodies[0].append(el("tr", {}, el("td", { colspan: 7, class: "muted" }, "no card matches")));
  }
}

function ratingCell(r) {
  if (!r) return "–";
  return el("span", { class: "rating-bar", title: `score ${r.rating}% against the reference ships (95% interval ${r.low}–${r.high}%, ${r.games} games)` },
    el("span", { class: "bar", style: `width:${Math.max(2, r.rating)}%` }),
    el("span", { class: "num" }, ratingText(r)));
}

function ratingNote(rating) {
  if (!rating) return ["War Fleet stats are the cards converted by ruling W2; no strength rating has been simulated for them."];
  const m = rating.method;
  return [`Rating: no official points exist for these cards, so each card's strength was measured by the simulator: `,
    `${m.games_per_pairing} battles, one against one, greedy bot against greedy bot, against each of ${m.references.join(", ")}; `,
    `the rating is its score in percent (a win 1, a draw ½; 50 = as strong as those four on average), in brackets its 95% interval. `,
    `${m.games} battles in ${Math.round(m.seconds / 60)} minutes on ${m.workers} cores (${m.tool}). A fleet's total is a rough guide only.`];
}
