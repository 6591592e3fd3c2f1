// The engine's view of the positions: scores in words from one fixed side, the evaluation
// bar, the best lines of an analysis (their moves clickable), the stored analysis of the
// position shown, its iterations' table and the score graph of the line shown.
//
// Key invariant: every score shown is from the first side's view (a score's `value` is; its
// `text` names the side it is for), so a sign means the same everywhere on the page.

import { el } from "./board.js";

// `+76`, `-12`, `0`, or `Blue wins in 19` for a decisive score (`sides`: the side names).
export function scoreText(score, sides) {
  if (!score) return "";
  if (score.decisive) {
    const winner = capitalised(score.value > 0 ? sides.first : sides.second);
    return score.plies == null ? `${winner} wins` : `${winner} wins in ${score.plies}`;
  }
  return score.value > 0 ? `+${score.value}` : `${score.value}`;
}

export function capitalised(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// The share of the bar the first side gets for a score: one half at 0, all of it for a win.
function firstShare(score) {
  if (!score) return 0.5;
  if (score.decisive) return score.value > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-score.value / 250));
}

// The evaluation bar beside the board: the side drawn at the bottom fills it from below.
export function drawEvalBar(bar, score, bottom, sides) {
  const share = firstShare(score);
  const fill = bar.querySelector(".fill");
  fill.style.height = `${(bottom === "first" ? share : 1 - share) * 100}%`;
  fill.className = `fill side-${bottom}`;
  bar.classList.toggle("side-second-top", bottom === "first");
  const label = bar.querySelector(".value");
  label.textContent = score ? shortScore(score) : "";
  bar.title = score ? `${scoreText(score, sides)} (from ${sides.first}'s view)` : "no analysis";
}

function shortScore(score) {
  if (score.decisive) return `${score.value > 0 ? "+" : "-"}W${score.plies ?? ""}`;
  return score.value > 0 ? `+${score.value}` : `${score.value}`;
}

// The best lines of the latest iteration: each its score and its moves, a move clicked plays
// the line up to it (`onPlay(moves)`).
export function drawLines(box, iteration, sides, onPlay) {
  const lines = iteration
    ? iteration.lines ?? [{ score: iteration.score, pv_moves: iteration.pv_moves }]
    : [];
  // Lines as they were are left as they are: a move being clicked is not replaced under the
  // pointer.
  const key = JSON.stringify([iteration?.node, lines.map((l) => [l.score, l.pv_moves]), sides]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  lines.forEach((line, index) => {
    const row = document.createElement("div");
    row.className = "pv-line";
    row.dataset.line = index + 1;
    const score = document.createElement("span");
    score.className = "pv-score";
    score.textContent = scoreText(line.score, sides);
    row.appendChild(score);
    const moves = line.pv_moves ?? [];
    moves.forEach((text, at) => {
      const move = document.createElement("button");
      move.type = "button";
      move.className = "pv-move";
      move.textContent = text;
      move.title = "play the line up to this move";
      move.addEventListener("click", () => onPlay(moves.slice(0, at + 1)));
      row.appendChild(move);
    });
    box.appendChild(row);
  });
}

// The stored analysis of the position shown (`stored` of the game, or null), in one line:
// its score, depth, searcher and date, and its line; empty and hidden when there is none.
export function drawStored(box, stored, sides) {
  box.hidden = !stored;
  if (!stored) {
    box.textContent = "";
    return;
  }
  const when = stored.written_text.replace(/:\d\d UTC$/, " UTC");
  box.textContent = `Stored: ${scoreText(stored.score, sides)} at depth ${stored.depth} ` +
    `(${stored.family}, ${when}): ${(stored.pv_moves ?? []).join(" ")}`;
  box.title = `the deepest analysis of this position in the store, by ${stored.engine} ${stored.version} ${stored.searcher}, ${stored.nodes.toLocaleString("en")} positions`;
}

// One row of the iterations' table, newest first.
export function addRow(table, data, sides) {
  const row = document.createElement("tr");
  const nps = Math.round(data.nps).toLocaleString("en");
  const pv = (data.pv_moves ?? []).join("  ") || data.pv;
  for (const text of [data.depth, scoreText(data.score, sides), nps, pv]) {
    const cell = document.createElement("td");
    cell.textContent = text;
    row.appendChild(cell);
  }
  table.tBodies[0].prepend(row);
}

// The graph's drawing area, in its own units (the SVG keeps its shape as it scales).
const W = 320;
const H = 130;
const LEFT = 34;
const RIGHT = 6;
const TOP = 8;
const BOTTOM = 18;

// The score of every position of the line shown, from the first side's view, with axes:
// plies along, the score up (a win at the edge); a click shows the position clicked
// (`onPick(ply)`).
export function drawGraph(svg, game, sides, onPick) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const plies = Math.max(game.scores.length - 1, 1);
  const values = game.scores.filter((s) => s && !s.decisive).map((s) => Math.abs(s.value));
  const range = niceRange(Math.max(100, ...values));
  const x = (ply) => LEFT + (ply / plies) * (W - LEFT - RIGHT);
  const y = (value) => TOP + (1 - (Math.max(-range, Math.min(range, value)) + range) / (2 * range)) * (H - TOP - BOTTOM);
  el("rect", { x: LEFT, y: TOP, width: W - LEFT - RIGHT, height: H - TOP - BOTTOM, class: "plot" }, svg);
  for (const [value, text] of [[range, `+${range}`], [0, "0"], [-range, `-${range}`]]) {
    el("line", { x1: LEFT, y1: y(value), x2: W - RIGHT, y2: y(value), class: value === 0 ? "zero" : "grid" }, svg);
    const label = el("text", { x: LEFT - 3, y: y(value), class: "axis y" }, svg);
    label.textContent = text;
  }
  const ticks = tickStep(plies);
  for (let ply = 0; ply <= plies; ply += ticks) {
    const label = el("text", { x: x(ply), y: H - 4, class: "axis x" }, svg);
    label.textContent = String(ply);
  }
  const title = el("text", { x: LEFT + 4, y: TOP + 9, class: "axis side" }, svg);
  title.textContent = `${capitalised(sides.first)} better`;
  const under = el("text", { x: LEFT + 4, y: H - BOTTOM - 3, class: "axis side" }, svg);
  under.textContent = `${capitalised(sides.second)} better`;
  const points = [];
  game.scores.forEach((score, i) => {
    if (score) {
      const value = score.decisive ? Math.sign(score.value) * range : score.value;
      points.push(`${x(i)},${y(value)}`);
      el("circle", { cx: x(i), cy: y(value), r: 1.6, class: "dot" }, svg);
    }
  });
  if (points.length > 1) el("polyline", { points: points.join(" ") }, svg);
  el("line", { x1: x(game.ply), y1: TOP, x2: x(game.ply), y2: H - BOTTOM, class: "now" }, svg);
  svg.onclick = (event) => {
    const matrix = svg.getScreenCTM();
    if (!matrix) return;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    const ply = Math.round(((point.x - LEFT) / (W - LEFT - RIGHT)) * plies);
    onPick(Math.max(0, Math.min(game.scores.length - 1, ply)));
  };
}

// A round number at least `value`: 100, 200, 500, 1000, ...
function niceRange(value) {
  let step = 100;
  for (;;) {
    for (const factor of [1, 2, 5]) {
      if (step * factor >= value) return step * factor;
    }
    step *= 10;
  }
}

// The plies between two labels of the x axis: at most about eight labels.
function tickStep(plies) {
  for (const step of [1, 2, 5, 10, 20, 50, 100, 200, 500]) {
    if (plies / step <= 8) return step;
  }
  return 1000;
}
