// The "your turn" cue of the game page: the tab's title says so while the seat to move is
// yours (so a player in another tab sees it), and, if the player turns it on, a short tone
// sounds when the turn comes to them. The tone is made here (Web Audio): nothing is fetched.
// A hotseat screen holds every seat, so it is always "your turn" there: no cue.
import { el } from "/static/common.js";

const KEY = "leviathans.turn-sound";
let wasMine = null;
let audio = null;

function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

function tone() {
  if (!audio) audio = new AudioContext();
  const osc = audio.createOscillator(), gain = audio.createGain();
  osc.type = "triangle";
  osc.frequency.setValueAtTime(660, audio.currentTime);
  osc.frequency.setValueAtTime(880, audio.currentTime + 0.12);
  gain.gain.setValueAtTime(0.0001, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.25, audio.currentTime + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + 0.4);
  document.body.dataset.tones = String(Number(document.body.dataset.tones || 0) + 1);
}

// The switch in the page's header (added once).
function soundSwitch() {
  if (document.getElementById("turn-sound")) return;
  const box = el("input", { type: "checkbox", id: "turn-sound", style: "width:auto;margin:0" });
  box.checked = soundOn();
  box.addEventListener("change", () => {
    localStorage.setItem(KEY, box.checked ? "on" : "off");
    // Browsers let a page make sound once the player has touched it: this click is that.
    if (box.checked) { if (!audio) audio = new AudioContext(); audio.resume(); }
  });
  const label = el("label", { class: "turn-sound", title: "play a short tone when it becomes your turn",
                              style: "display:flex;align-items:center;gap:.3rem;color:#f4f1e8;font-size:.8rem" },
    box, "sound on my turn");
  const conn = document.getElementById("conn");
  if (conn) conn.before(label);
}

// Call after each payload is shown.
export function turnCue(data) {
  if (!data.you.length) return;  // a spectator has no turn
  soundSwitch();
  const mine = data.you.length === 1 && data.legal.length > 0 && !data.view.outcome;
  document.body.dataset.yourTurn = mine ? "yes" : "no";
  const title = `Leviathans: ${data.game.title}`;
  document.title = mine ? `Your turn! ${title}` : title;
  if (mine && wasMine === false && soundOn()) tone();
  wasMine = mine;
}
