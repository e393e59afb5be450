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
