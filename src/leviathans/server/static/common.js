// Shared helpers of the pages: the API, this browser's seat tokens, small DOM helpers.

export async function api(path, options = {}) {
  const response = await fetch(path, {
    headers: { "Content-Type": "application/json" },
    ...options,
  });
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const message = (data && data.error) || `${response.status} ${response.statusText}`;
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return data;
}

// Seat tokens this browser holds, by game id (a hotseat game holds two).
const KEY = "leviathans.tokens";

export function heldTokens() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch (e) { return {}; }
}

export function holdTokens(gameId, tokens) {
  const all = heldTokens();
  const mine = new Set(all[gameId] || []);
  for (const t of tokens) mine.add(t);
  all[gameId] = [...mine];
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function pct(p) {
  return `${(p * 100).toFixed(1)}%`;
}

export function outcomeText(outcome) {
  if (!outcome) return "";
  return outcome.winner ? `${outcome.winner} wins: ${outcome.reason}` : `draw: ${outcome.reason}`;
}

// When a game or replay page cannot show its game (an unknown id, a token that holds no
// seat...): everything under the header gives way to what went wrong and the way back.
export function pageProblem(id, error) {
  const missing = error.status === 404;
  const box = el("main", { class: "lobby", id: "problem" },
    el("section", { class: "card" },
      el("h2", {}, missing ? "No such game" : "This game cannot be shown"),
      el("p", {}, missing ? `There is no game "${id}" on this server: the link may be mistyped or cut short.`
        : `${id}: ${error.message}`),
      el("p", {}, el("a", { href: "/", id: "to-lobby" }, "Back to the lobby"))));
  const header = document.querySelector("header.top");
  while (header.nextSibling) header.nextSibling.remove();
  header.after(box);
  for (const id of ["conn", "download"]) { const n = document.getElementById(id); if (n) n.hidden = true; }
  document.title = missing ? "Leviathans: no such game" : "Leviathans";
}
