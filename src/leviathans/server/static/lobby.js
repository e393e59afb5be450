// The lobby: start a game (fleets from the catalog, deployment zones, the odds when known),
// join an open game, resume yours, replay finished ones or an uploaded record.
import { api, heldTokens, holdTokens, el, outcomeText } from "/static/common.js";
import { FleetPicker } from "/static/fleets.js";
import { DeployPicker } from "/static/deploy.js";
import { chanceText } from "/static/chance.js";

let meta = null;
const fleets = new FleetPicker(() => showChance(), () => currentValue("nations") === true);
const deploy = new DeployPicker(() => showChance());

function fillSelect(select, values, labels = {}) {
  select.replaceChildren(...values.map((v) => el("option", { value: v }, labels[v] || v)));
}

function refreshForm() {
  const ruleset = document.getElementById("ruleset").value;
  const info = meta.rulesets[ruleset];
  const side = document.getElementById("side");
  const scenario = document.getElementById("scenario");
  const [was, wasScenario] = [side.value, scenario.value];
  fillSelect(side, info.players);
  if (info.players.includes(was)) side.value = was;
  fillSelect(scenario, Object.keys(info.scenarios), info.scenarios);
  if (wasScenario in info.scenarios) scenario.value = wasScenario;
  const initiatives = info.initiatives || {};
  const initiative = document.getElementById("initiative");
  const chosen = initiative.value;
  fillSelect(initiative, Object.keys(initiatives), initiatives);
  if (chosen in initiatives) initiative.value = chosen;
  document.getElementById("initiative-label").hidden = !Object.keys(initiatives).length;
  refreshOpponent();
  buildOptions(info.options || []);
  scenarioOptions();
  refreshScenario();
}

// The bot picker shows against a bot only (the fleets chosen stay as they are).
function refreshOpponent() {
  const bot = document.getElementById("opponent").value === "bot";
  document.getElementById("bot-label").hidden = !bot;
}

// The fleets and zones of the chosen scenario (air fleet and War Fleet), to change at will.
function refreshScenario() {
  const ruleset = document.getElementById("ruleset").value;
  const info = meta.rulesets[ruleset];
  const facts = (info.scenario_facts || {})[document.getElementById("scenario").value] || {};
  const custom = Boolean(facts.fleets);
  document.getElementById("fleets-box").hidden = !custom;
  document.getElementById("deploy-box").hidden = !custom;
  if (custom) {
    deploy.show(facts, info.players);
    fleets.show(ruleset, info.players, facts.fleets).then(showChance)
      .catch((e) => { document.getElementById("lobby-error").textContent = e.message; });
  }
  showChance();
}

function currentFacts() {
  const info = meta.rulesets[document.getElementById("ruleset").value];
  return (info.scenario_facts || {})[document.getElementById("scenario").value] || {};
}

// The fleets to send: none if they are the scenario's own.
function chosenFleets() {
  const facts = currentFacts();
  if (!facts.fleets || fleets.ruleset !== document.getElementById("ruleset").value) return null;
  const same = Object.keys(facts.fleets).every((s) =>
    JSON.stringify(facts.fleets[s]) === JSON.stringify(fleets.fleets[s] || []));
  return same ? null : fleets.fleets;
}

// What the chosen side may expect, when the simulator has played this very match-up.
function showChance() {
  const box = document.getElementById("chance");
  if (!meta) return;
  const form = document.getElementById("new-game");
  const initiative = document.getElementById("initiative");
  const info = meta.rulesets[form.ruleset.value];
  const facts = currentFacts();
  box.replaceChildren(...chanceText({
    side: form.side.value, facts, fleets: chosenFleets(), picked: fleets.fleets,
    byName: fleets.byName, deployment: deploy.facts === facts ? deploy.choice() : null,
    initiativeChanged: !document.getElementById("initiative-label").hidden
      && initiative.value !== Object.keys(info.initiatives || {})[0],
    optionsChanged: Object.keys(chosenOptions()).length > 0,
    totals: facts.fleets && fleets.ruleset === form.ruleset.value
      ? Object.fromEntries(info.players.map((s) => [s, fleets.totalText(s)])) : null,
  }));
}

// The rules options form, built from the options' declarations (/api/meta): a new option
// appears here with its help line as the tooltip, with no edit to this page.
function buildOptions(declared) {
  const shown = declared.filter((o) => o.lobby);
  const box = document.getElementById("options");
  document.getElementById("options-box").hidden = !shown.length;
  box.replaceChildren(...shown.map((o) => {
    const title = o.help;
    let input;
    if (o.type === "bool") {
      input = el("input", { type: "checkbox", "data-option": o.name });
      input.checked = o.default === true;
    } else if (o.type === "choice") {
      input = el("select", { "data-option": o.name },
        ...o.choices.map((c, k) => el("option", { value: String(k) }, String(c))));
      input.value = String(Math.max(0, o.choices.indexOf(o.default)));
    } else {
      input = el("input", { type: o.type === "int" ? "number" : "text", "data-option": o.name,
                            placeholder: o.optional ? "none" : "" });
      if (o.minimum !== null && o.minimum !== undefined) input.min = o.minimum;
      if (o.default !== null && o.default !== undefined) input.value = String(o.default);
    }
    input.id = `option-${o.name}`;
    const name = o.name.replaceAll("_", " ");
    const text = name[0].toUpperCase() + name.slice(1);
    return o.type === "bool" ? el("label", { title, class: "check" }, input, text)
                             : el("label", { title }, text, input);
  }));
  box.declared = shown;
  // An option whose default depends on another (quick-start destruction is off under the
  // Commander rules) follows that one's choice until the player changes it.
  for (const o of shown) {
    for (const other of Object.keys(o.defaults_by || {})) {
      const control = document.getElementById(`option-${other}`);
      if (control) control.addEventListener("change", () => showDefault(o));
    }
  }
}

// The default an option has given the others' current values (its declared defaults_by),
// else the scenario's own value (a Commander rules scenario sets the rules level), else the
// declared default.
function effectiveDefault(o) {
  for (const [other, byValue] of Object.entries(o.defaults_by || {})) {
    const value = currentValue(other);
    if (value !== undefined && Object.prototype.hasOwnProperty.call(byValue, String(value))) {
      return byValue[String(value)];
    }
  }
  const own = currentFacts().options;
  if (own && Object.prototype.hasOwnProperty.call(own, o.name)) return own[o.name];
  return o.default;
}

// A scenario chosen: the options form shows its own options (then the ones following them).
function scenarioOptions() {
  const box = document.getElementById("options");
  const shown = box.declared || [];
  for (const o of shown) if (!Object.keys(o.defaults_by || {}).length) showDefault(o);
  for (const o of shown) if (Object.keys(o.defaults_by || {}).length) showDefault(o);
}

function showDefault(o) {
  const input = document.getElementById(`option-${o.name}`);
  const value = effectiveDefault(o);
  if (o.type === "bool") input.checked = value === true;
  else if (o.type === "choice") input.value = String(Math.max(0, o.choices.indexOf(value)));
  else input.value = value === null || value === undefined ? "" : String(value);
}

function currentValue(name) {
  const box = document.getElementById("options");
  const o = (box.declared || []).find((d) => d.name === name);
  const input = document.getElementById(`option-${name}`);
  if (!o || !input) return undefined;
  if (o.type === "bool") return input.checked;
  if (o.type === "choice") return o.choices[Number(input.value)];
  if (o.type === "int") return input.value === "" ? null : Number(input.value);
  return input.value === "" && o.optional ? null : input.value;
}

// The options whose value differs from their default (given the others), typed as declared.
function chosenOptions() {
  const box = document.getElementById("options");
  const out = {};
  for (const o of box.declared || []) {
    const value = currentValue(o.name);
    if (value !== effectiveDefault(o)) out[o.name] = value;
  }
  return out;
}

async function start(event) {
  event.preventDefault();
  const form = new FormData(event.target);
  const body = {
    ruleset: form.get("ruleset"), side: form.get("side"), opponent: form.get("opponent"),
    bot: form.get("bot") || "greedy", scenario: form.get("scenario") || null,
  };
  if (!document.getElementById("initiative-label").hidden && form.get("initiative")) {
    body.initiative = form.get("initiative");
  }
  const limit = form.get("turn_limit");
  if (limit) body.turn_limit = Number(limit);
  const options = chosenOptions();
  if (Object.keys(options).length) body.options = options;
  if (!document.getElementById("fleets-box").hidden) {
    const chosen = chosenFleets();
    if (chosen) body.fleets = chosen;
    const zones = deploy.choice();
    if (zones) body.deployment = zones;
  }
  const error = document.getElementById("lobby-error");
  error.textContent = "";
  try {
    const game = await api("/api/games", { method: "POST", body: JSON.stringify(body) });
    const tokens = Object.values(game.tokens);
    holdTokens(game.id, tokens);
    const url = `/game/${game.id}?` + tokens.map((t) => `token=${encodeURIComponent(t)}`).join("&");
    if (game.invite) {
      const link = new URL(game.invite.url, location.href).href;
      localStorage.setItem(`leviathans.invite.${game.id}`, link);
      const box = document.getElementById("invite");
      box.hidden = false;
      box.replaceChildren(
        el("p", {}, `Send this link to your friend (they play ${game.invite.side}):`),
        el("div", { class: "invite-row" }, el("a", { href: link, id: "invite-link" }, link),
          copyButton(link)),
        el("p", {}, el("a", { href: url, id: "go" }, "Go to the game")));
      await listGames();  // the new game is one of "Your games" now (the page stays open)
      return;
    }
    location.href = url;
  } catch (e) {
    error.textContent = e.message;
  }
}

async function listGames() {
  const held = heldTokens();
  const tokens = Object.values(held).flat();
  const table = document.querySelector("#my-games tbody");
  if (!tokens.length) return;
  const data = await api(`/api/games?tokens=${encodeURIComponent(tokens.join(","))}`);
  const byGame = new Map();
  for (const g of data.games) {
    if (!byGame.has(g.id)) byGame.set(g.id, { ...g, tokens: [] });
    byGame.get(g.id).tokens.push(g.token);
  }
  if (!byGame.size) return;
  table.replaceChildren(...[...byGame.values()].map((g) => {
    const query = g.tokens.map((t) => `token=${encodeURIComponent(t)}`).join("&");
    return el("tr", {},
      el("td", {}, el("a", { href: `/game/${g.id}?${query}` }, g.title)),
      el("td", {}, g.ruleset),
      el("td", {}, g.status === "finished" ? outcomeText(g.outcome) : "in play"),
      // the steps so far (or all of them), as this seat saw them
      el("td", {}, el("a", { href: `/replay/${g.id}?${query}`, class: "replay-link",
                             title: "step through the game so far" }, "replay")),
      el("td", { class: "muted" }, new Date(g.updated).toLocaleString()));
  }));
}

// A button that copies `text` to the clipboard, and says so.
function copyButton(text) {
  const button = el("button", { type: "button", class: "secondary", id: "copy-invite",
                                title: "copy the invite link" }, "Copy link");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch (e) {  // no clipboard API (a page not served over https or localhost): select it
      const range = document.createRange();
      range.selectNodeContents(document.getElementById("invite-link"));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      document.execCommand("copy");
    }
    button.textContent = "Copied";
    setTimeout(() => { button.textContent = "Copy link"; }, 2000);
  });
  return button;
}

// Games waiting for a second player: join one to take its free seat (once: the server
// gives the seat to the first who asks).
async function listOpen() {
  const data = await api("/api/open");
  const table = document.querySelector("#open-games tbody");
  const mine = heldTokens();
  const games = data.games.filter((g) => !mine[g.id]);  // not your own
  if (!games.length) {
    table.replaceChildren(el("tr", {}, el("td", { class: "muted" }, "none waiting")));
    return;
  }
  const names = { airfleet: "air fleet", warfleet: "War Fleet", starship: "starship" };
  table.replaceChildren(...games.map((g) => el("tr", { "data-game": g.id },
    el("td", {}, el("div", { class: "open-title" }, g.title),
      el("div", { class: "muted small" }, `${names[g.ruleset] || g.ruleset}, since `,
        new Date(g.created).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }))),
    el("td", { class: "join-cell" }, el("button", { type: "button", class: "join", "data-join": g.id,
                                onclick: () => join(g.id) }, `Join as ${g.side}`)))));
}

async function join(id) {
  const error = document.getElementById("lobby-error");
  try {
    const seat = await api(`/api/games/${encodeURIComponent(id)}/join`, { method: "POST" });
    holdTokens(id, [seat.token]);
    location.href = seat.url;
  } catch (e) {
    error.textContent = e.message;
    await listOpen();
  }
}

async function listFinished() {
  const data = await api("/api/finished");
  const table = document.querySelector("#finished tbody");
  if (!data.games.length) return;
  table.replaceChildren(...data.games.map((g) => el("tr", {},
    el("td", {}, el("a", { href: `/replay/${g.id}` }, g.title)),
    el("td", {}, g.ruleset),
    el("td", {}, outcomeText(g.outcome)))));
}

async function upload(event) {
  const file = event.target.files[0];
  if (!file) return;
  const error = document.getElementById("lobby-error");
  try {
    const text = await file.text();
    const result = await api("/api/records", { method: "POST", body: text });
    location.href = result.url;
  } catch (e) {
    error.textContent = `${file.name}: ${e.message}`;
  }
}

async function main() {
  meta = await api("/api/meta");
  fillSelect(document.getElementById("ruleset"), Object.keys(meta.rulesets),
             { airfleet: "Air fleet 1910 (quick-start)", starship: "Starship (v0.5)", warfleet: "War Fleet (fleet scale)" });
  fillSelect(document.getElementById("bot"), meta.bots);
  document.getElementById("bot").value = meta.bots.includes("greedy") ? "greedy" : meta.bots[0];
  document.getElementById("ruleset").addEventListener("change", refreshForm);
  document.getElementById("opponent").addEventListener("change", refreshOpponent);
  document.getElementById("scenario").addEventListener("change", () => { scenarioOptions(); refreshScenario(); });
  for (const id of ["side", "initiative", "options"]) {
    document.getElementById(id).addEventListener("change", showChance);
  }
  // the 8 Nations on or off: their variant cards and the nations' fleets shown or not
  document.getElementById("options").addEventListener("change", () => {
    fleets.renderCatalog();
    fleets.renderNations();
  });
  document.getElementById("fleet-reset").addEventListener("click", refreshScenario);
  document.getElementById("new-game").addEventListener("submit", start);
  document.getElementById("record-file").addEventListener("change", upload);
  refreshForm();
  await Promise.all([listGames(), listOpen(), listFinished()]);
  setInterval(() => listOpen().catch(() => {}), 10000);  // new open games show up
}

main().catch((e) => { document.getElementById("lobby-error").textContent = e.message; });
