// Replay: step forward and back through a finished game (or an uploaded record).
import { api, el, outcomeText, pageProblem } from "/static/common.js";
import { Board } from "/static/board.js";

const id = decodeURIComponent(location.pathname.split("/").pop());
const board = new Board(document.getElementById("board"), null);
const slider = document.getElementById("slider");
let steps = 0;
let current = -1;

async function show(step) {
  step = Math.max(0, Math.min(steps || step, step));
  const data = await api(`/api/games/${encodeURIComponent(id)}/replay?step=${step}`);
  steps = data.steps;
  current = step;
  slider.max = String(steps);
  slider.value = String(step);
  document.getElementById("step").textContent = `step ${step} of ${steps}`;
  document.getElementById("title").textContent = data.game.title;
  document.getElementById("result").textContent = outcomeText(data.game.outcome);
  document.getElementById("phase").textContent = `turn ${data.view.turn}, ${data.view.phase}`;
  board.show(data.svg);
  document.getElementById("log").replaceChildren(...data.events.map((e) => el("div", { class: "ev" }, e.text || e.event)));
  const download = document.getElementById("download");
  download.hidden = id.startsWith("r-");
  download.href = `/api/games/${encodeURIComponent(id)}/record`;
}

function go(step) {
  if (current < 0) return;  // the game could not be shown at all
  show(step).catch((e) => { document.getElementById("result").textContent = e.message; });
}

document.getElementById("first").onclick = () => go(0);
document.getElementById("back").onclick = () => go(current - 1);
document.getElementById("forward").onclick = () => go(current + 1);
document.getElementById("last").onclick = () => go(steps);
slider.oninput = () => go(Number(slider.value));
window.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") go(current + 1);
  else if (e.key === "ArrowLeft") go(current - 1);
});
show(0).catch((e) => pageProblem(id, e));  // no such game (or not over yet): say so
