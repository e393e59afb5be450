// A War Fleet campaign: the War Fleet game and every engagement of it fought in detail (W3),
// each an air-fleet game of its own, with links to watch it and to replay it.
import { api, el, heldTokens, outcomeText } from "/static/common.js";

const gameId = decodeURIComponent(location.pathname.split("/").pop());

async function load() {
  const tokens = heldTokens()[gameId] || [];
  const query = tokens.map((t) => `token=${encodeURIComponent(t)}`).join("&");
  const war = await api(`/api/games/${encodeURIComponent(gameId)}?lite=1${query ? `&${query}` : ""}`);
  document.getElementById("title").textContent = war.game.title;
  document.getElementById("fleet").replaceChildren(
    el("a", { href: `/game/${encodeURIComponent(gameId)}`, id: "fleet-game" }, "the War Fleet game"),
    ` (turn ${war.view.turn}, ${war.game.outcome ? outcomeText(war.game.outcome) : war.view.phase}) · `,
    el("a", { href: `/replay/${encodeURIComponent(gameId)}`, id: "fleet-replay" }, "its replay"));
  const rows = [];
  for (const e of war.engagements || []) {
    const child = await api(`/api/games/${encodeURIComponent(e.game)}?lite=1`);
    rows.push(el("li", { "data-engagement": e.number },
      el("strong", {}, child.game.title), " · ",
      child.game.outcome ? outcomeText(child.game.outcome) : `being fought (turn ${child.view.turn})`, " · ",
      el("a", { href: `/game/${encodeURIComponent(e.game)}` }, "watch"), " · ",
      el("a", { href: `/replay/${encodeURIComponent(e.game)}`, class: "engagement-replay" }, "replay")));
  }
  document.getElementById("campaign-list").replaceChildren(
    ...(rows.length ? rows : [el("li", { class: "muted" }, "no engagement yet")]));
}

load().catch((e) => { document.getElementById("error").textContent = e.message; });
