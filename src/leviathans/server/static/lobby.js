// The lobby: start a game, resume yours, replay finished ones or an uploaded record.
import { api, heldTokens, holdTokens, el, outcomeText } from "/static/common.js";

let meta = null;

function fillSelect(select, values, labels = {}) {
  select.replaceChildren(...values.map((v) => el("option", { value: v }, labels[v] || v)));
}

function refreshForm() {
  const ruleset = document.getElementById("ruleset").value;
  const info = meta.rulesets[ruleset];
  fillSelect(document.getElementById("side"), info.players);
  fillSelect(document.getElementById("scenario"), Object.keys(info.scenarios), info.scenarios);
  const initiatives = info.initiatives || {};
  const initiative = document.getElementById("initiative");
  const chosen = initiative.value;
  fillSelect(initiative, Object.keys(initiatives), initiatives);
  if (chosen in initiatives) initiative.value = chosen;
  document.getElementById("initiative-label").hidden = !Object.keys(initiatives).length;
  const bot = document.getElementById("opponent").value === "bot";
  document.getElementById("bot-label").hidden = !bot;
  buildOptions(info.options || []);
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

// The default an option has given the others' current values (its declared defaults_by).
function effectiveDefault(o) {
  for (const [other, byValue] of Object.entries(o.defaults_by || {})) {
    const value = currentValue(other);
    if (value !== undefined && Object.prototype.hasOwnProperty.call(byValue, String(value))) {
      return byValue[String(value)];
    }
  }
  return o.default;
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
        el("a", { href: link, id: "invite-link" }, link),
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
    const url = `/game/${g.id}?` + g.tokens.map((t) => `token=${encodeURIComponent(t)}`).join("&");
    return el("tr", {},
      el("td", {}, el("a", { href: url }, g.title)),
      el("td", {}, g.ruleset),
      el("td", {}, g.status === "finished" ? outcomeText(g.outcome) : "in play"),
      el("td", { class: "muted" }, new Date(g.updated).toLocaleString()));
  }));
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
  document.getElementById("opponent").addEventListener("change", refreshForm);
  document.getElementById("new-game").addEventListener("submit", start);
  document.getElementById("record-file").addEventListener("change", upload);
  refreshForm();
  await Promise.all([listGames(), listFinished()]);
}

main().catch((e) => { document.getElementById("lobby-error").textContent = e.message; });
