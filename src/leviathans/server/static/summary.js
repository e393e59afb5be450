// The end of an air-fleet game: what each side lost, what its guns destroyed against what was
// to be expected (the `luck` command's report, computed by the server), the rarest rolls, and
// a rematch with the sides swapped or a new game.
import { api, el, holdTokens, pct } from "/static/common.js";

export function airSummary(ctx) {
  const { gameId, data } = ctx;
  const box = el("div", { id: "summary", class: "summary end-summary" }, el("p", { class: "muted" }, "Summing up…"));
  const me = data.you.length === 1 ? data.you[0] : null;
  const sides = [...new Set(data.view.ships.map((s) => s.side))];
  const rematch = ctx.button("rematch, sides swapped", async () => {
    try {
      const body = { ...box.rematch, side: me ? sides.find((x) => x !== me) : (data.you[0] || sides[0]) };
      if (body.turn_limit === null) delete body.turn_limit;
      const game = await api("/api/games", { method: "POST", body: JSON.stringify(body) });
      const tokens = Object.values(game.tokens);
      holdTokens(game.id, tokens);
      if (game.invite) localStorage.setItem(`leviathans.invite.${game.id}`, new URL(game.invite.url, location.href).href);
      location.href = `/game/${game.id}?` + tokens.map((t) => `token=${encodeURIComponent(t)}`).join("&");
    } catch (e) { ctx.showError(e.message); }
  }, { id: "rematch", disabled: true, title: "A new game of the same battle and options, each side played by the other." });
  fill(box, gameId, rematch).catch((e) => { box.replaceChildren(el("p", { class: "error" }, e.message)); });
  return el("div", { class: "end" }, box,
    el("div", { class: "buttons" }, rematch,
      el("a", { href: "/", id: "new-game", class: "button secondary", title: "Back to the lobby to start another game" }, "new game")));
}

async function fill(box, gameId, rematch) {
  const s = await api(`/api/games/${encodeURIComponent(gameId)}/summary`);
  box.rematch = s.rematch;
  rematch.disabled = false;
  const sides = Object.keys(s.sides);
  const row = (label, cells, id) => el("tr", { "data-row": id }, el("th", {}, label), cells.map((c) => el("td", {}, c)));
  const luck = (side) => {
    const x = s.sides[side];
    const diff = x.slots_destroyed - x.expected_slots;
    const word = Math.abs(diff) < 0.5 ? "as expected" : diff > 0 ? "luckier than expected" : "unluckier than expected";
    return `${word} (${diff >= 0 ? "+" : ""}${diff.toFixed(1)})`;
  };
  box.replaceChildren(
    el("table", { class: "summary-table", id: "summary-table" },
      el("thead", {}, el("tr", {}, el("th", {}, `${s.turns} ${s.turns === 1 ? "turn" : "turns"}`), sides.map((side) => el("th", { class: side }, side)))),
      el("tbody", {},
        row("ships lost", sides.map((side) => {
          const lost = s.sides[side].lost;
          return lost.length ? el("span", {}, `${lost.length} of ${s.sides[side].ships}: `,
            lost.map((l) => `${l.ship} (turn ${l.turn}: ${l.reason})`).join("; ")) : `none of ${s.sides[side].ships}`;
        }), "lost"),
        row("slots destroyed by its guns", sides.map((side) => `${s.sides[side].slots_destroyed} (expected ${s.sides[side].expected_slots.toFixed(2)})`), "slots"),
        row("keels broken by its guns", sides.map((side) => `${s.sides[side].keels_broken} (expected ${s.sides[side].expected_keels.toFixed(3)})`), "keels"),
        row("luck of its guns", sides.map(luck), "luck"))),
    s.rarest.length ? el("details", { class: "rarest", id: "rarest" }, el("summary", {}, "the rarest results"),
      el("ol", {}, s.rarest.map((r) => el("li", {}, `${pct(r.probability)}, step ${r.step}: ${r.what}`)))) : null);
}
