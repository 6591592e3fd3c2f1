// The board and its panels: draws a position's picture (from the server, which knows the
// game) as SVG, marks the last move, what it changed and the clicks of the move being made,
// draws the engine's best move as an arrow, and turns clicks and drags into click targets.
//
// Key invariant: everything drawn comes from the picture; a click or a drop is reported as the
// `id` of the cell or panel item under the pointer, and nothing else (the caller decides what
// a click means).

const SVG = "http://www.w3.org/2000/svg";

export function el(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// The side drawn at the bottom: the first unless turned round.
export function bottomSide(flipped) {
  return flipped ? "second" : "first";
}

// What a drawing needs besides the game: `next` (ids clickable next), `chosen` (ids clicked
// so far), `flipped`, `best` (the best move's clicks, or empty), `onClick(id)`.
export function drawBoard(svg, game, view) {
  svg.replaceChildren();
  const picture = game.picture;
  if (!picture.width || !picture.height) {
    svg.setAttribute("hidden", "");
    return;
  }
  svg.removeAttribute("hidden");
  svg.setAttribute("viewBox", `0 0 ${picture.width} ${picture.height}`);
  svg.classList.toggle("flipped", view.flipped);
  // Turned round, every point of the picture goes to the opposite one.
  const fx = (x) => (view.flipped ? picture.width - x : x);
  const fy = (y) => (view.flipped ? picture.height - y : y);
  const last = new Set(game.last);
  const changed = new Set(game.changed ?? []);
  const flags = (node, id) => {
    if (view.next.has(id)) node.classList.add("target");
    if (view.chosen.has(id)) node.classList.add("selected");
    if (last.has(id)) node.classList.add("last");
    else if (changed.has(id)) node.classList.add("changed");
  };
  const centres = new Map();
  const colours = picture.cell_colours ?? {};
  const lines = el("g", { class: "lines" }, svg);
  for (const original of picture.cells) {
    const cell = { ...original, x: fx(original.x), y: fy(original.y) };
    centres.set(cell.id, cell);
    let shape;
    if (cell.shape === "square") {
      shape = el("rect", {
        x: cell.x - cell.size / 2, y: cell.y - cell.size / 2, width: cell.size, height: cell.size,
      }, svg);
    } else if (cell.shape === "circle") {
      shape = el("circle", { cx: cell.x, cy: cell.y, r: cell.size / 2 }, svg);
    } else {
      const dot = el("circle", { cx: cell.x, cy: cell.y, r: cell.size * 0.08, class: "cell point" }, svg);
      flags(dot, cell.id);
      shape = el("circle", { cx: cell.x, cy: cell.y, r: cell.size / 2 }, svg);
      shape.classList.add("hit");
    }
    if (cell.shape !== "point") {
      shape.classList.add("cell", `kind-${cell.kind}`);
      // The game's own colour for its kind, over the page's (the marks of a move still show).
      const colour = colours[cell.kind];
      if (colour) {
        shape.classList.add("coloured");
        shape.style.setProperty("--cell-colour", colour);
      }
    }
    shape.dataset.id = cell.id;
    flags(shape, cell.id);
  }
  for (const line of picture.lines) {
    el("line", {
      x1: fx(line.from[0]), y1: fy(line.from[1]), x2: fx(line.to[0]), y2: fy(line.to[1]), class: "line",
    }, lines);
  }
  svg.insertBefore(lines, svg.firstChild);
  for (const piece of picture.pieces) {
    const cell = centres.get(piece.cell);
    if (!cell) continue;
    const radius = cell.size * (piece.kind === "ring" ? 0.38 : 0.33);
    if (piece.kind === "ring") el("circle", { cx: cell.x, cy: cell.y, r: radius, class: "ring-outline" }, svg);
    el("circle", {
      cx: cell.x, cy: cell.y, r: radius, class: `piece kind-${piece.kind} side-${piece.side}`,
      "data-on": piece.cell,
    }, svg);
    if (piece.kind === "king" || piece.kind === "master") {
      el("circle", { cx: cell.x, cy: cell.y, r: radius * 0.4, class: "piece-mark" }, svg);
    }
  }
  for (const cell of centres.values()) {
    if (cell.text) {
      const text = el("text", { x: cell.x, y: cell.y, class: "cell-text" }, svg);
      text.style.fontSize = `${cell.size * 0.4}px`;
      text.textContent = cell.text;
    }
  }
  for (const label of picture.labels) {
    const text = el("text", { x: fx(label.x), y: fy(label.y), class: "label" }, svg);
    text.textContent = label.text;
  }
  svg.centres = centres;
  drawBest(svg, view.best);
  listenForDrags(svg, centres, view);
}

// Shows `best` (the best move's clicks) on the board and the panels as drawn, changing only
// the marks: nothing pressed is replaced while an analysis deepens.
export function showBest(svg, panels, best) {
  drawBest(svg, best);
  const ids = new Set(best ?? []);
  for (const box of panels) {
    for (const item of box.querySelectorAll(".item")) {
      item.classList.toggle("best", ids.has(item.dataset.id));
    }
  }
}

// The best move: an arrow from the first cell it clicks to the last, or the one cell marked
// (a pit, a point) where it clicks only one; panel items it clicks are marked by the panels.
function drawBest(svg, best) {
  for (const old of svg.querySelectorAll(".best")) old.remove();
  const centres = svg.centres ?? new Map();
  const cells = (best ?? []).map((id) => centres.get(id)).filter(Boolean);
  if (!cells.length) return;
  const from = cells[0];
  const to = cells[cells.length - 1];
  const size = Math.min(...cells.map((c) => c.size));
  const group = el("g", { class: "best", "aria-hidden": "true" }, svg);
  if (from === to) {
    el("circle", { cx: from.x, cy: from.y, r: from.size * 0.45, class: "best-ring" }, group);
    return;
  }
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy);
  const head = size * 0.32;
  const ux = dx / length;
  const uy = dy / length;
  const endX = to.x - ux * head;
  const endY = to.y - uy * head;
  el("line", {
    x1: from.x, y1: from.y, x2: endX, y2: endY, class: "best-shaft", "stroke-width": size * 0.14,
  }, group);
  const px = -uy * head * 0.6;
  const py = ux * head * 0.6;
  el("polygon", {
    points: `${to.x},${to.y} ${endX + px},${endY + py} ${endX - px},${endY - py}`, class: "best-head",
  }, group);
}

// Clicks and drags on the board: a press on a cell clicks it; a release over another cell
// clicks that one too (drag and drop), while the piece pressed follows the pointer.
function listenForDrags(svg, centres, view) {
  svg.onpointerdown = (event) => {
    const id = idAt(event.clientX, event.clientY, svg);
    if (id === null || event.button > 0) return;
    event.preventDefault();
    const piece = svg.querySelector(`.piece[data-on="${CSS.escape(id)}"]`);
    const from = centres.get(id);
    view.onClick(id);
    if (!piece || !from) return;
    // The page is drawn again by the click: the ghost goes on the new drawing.
    const ghost = el("circle", {
      cx: from.x, cy: from.y, r: piece.getAttribute("r"), class: `${piece.getAttribute("class")} ghost`,
    });
    let dragging = false;
    const move = (moved) => {
      const matrix = svg.getScreenCTM();
      if (!matrix) return;
      const point = new DOMPoint(moved.clientX, moved.clientY).matrixTransform(matrix.inverse());
      if (!dragging && Math.hypot(point.x - from.x, point.y - from.y) < from.size * 0.2) return;
      if (!dragging) {
        dragging = true;
        svg.appendChild(ghost);
      }
      ghost.setAttribute("cx", point.x);
      ghost.setAttribute("cy", point.y);
    };
    const up = (released) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      ghost.remove();
      if (!dragging || released.type === "pointercancel") return;
      const target = idAt(released.clientX, released.clientY, svg);
      if (target !== null && target !== id) view.onClick(target);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  };
}

// The id of the board's cell under a point of the window, or null.
function idAt(x, y, svg) {
  for (const node of document.elementsFromPoint(x, y)) {
    if (!svg.contains(node)) continue;
    if (node.dataset && node.dataset.id !== undefined) return node.dataset.id;
  }
  return null;
}

function drawGrid(grid, turned) {
  const svg = el("svg", { viewBox: `0 0 ${grid.size} ${grid.size}`, "aria-hidden": "true" });
  const half = (grid.size - 1) / 2;
  for (let y = 0; y < grid.size; y++) {
    for (let x = 0; x < grid.size; x++) {
      el("rect", { x, y, width: 1, height: 1, class: "grid-cell" }, svg);
    }
  }
  el("rect", { x: half + 0.15, y: half + 0.15, width: 0.7, height: 0.7, class: "grid-centre" }, svg);
  // A grid is seen from its holder's side (up: away from them); a holder at the top of the
  // board sees it turned round.
  const sign = turned ? -1 : 1;
  for (const [dx, dy] of grid.marks) {
    el("rect", {
      x: half + sign * dx + 0.15, y: half - sign * dy + 0.15, width: 0.7, height: 0.7, class: "grid-mark",
    }, svg);
  }
  if (turned) svg.classList.add("turned");
  return svg;
}

// The panels, split: `top` gets those of the side drawn at the top, `bottom` the others. An
// item's grid is drawn from its holder's side (an item of no side's panel: from the side to
// move, who takes it next).
export function drawPanels(top, bottom, game, view) {
  top.replaceChildren();
  bottom.replaceChildren();
  const last = new Set(game.last);
  const changed = new Set(game.changed ?? []);
  const best = new Set(view.best ?? []);
  const down = bottomSide(view.flipped);
  for (const panel of game.picture.panels) {
    const node = document.createElement("div");
    node.className = "panel";
    if (panel.side) node.classList.add(`side-${panel.side}`);
    const title = document.createElement("h3");
    title.textContent = panel.title;
    node.appendChild(title);
    const items = document.createElement("div");
    items.className = "items";
    const holder = panel.side ?? game.to_move;
    for (const item of panel.items) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "item";
      button.dataset.id = item.id;
      if (item.grid) button.appendChild(drawGrid(item.grid, holder !== down));
      const caption = document.createElement("div");
      caption.textContent = item.text;
      button.appendChild(caption);
      if (view.next.has(item.id)) button.classList.add("target");
      if (view.chosen.has(item.id)) button.classList.add("selected");
      if (last.has(item.id)) button.classList.add("last");
      else if (changed.has(item.id)) button.classList.add("changed");
      if (best.has(item.id)) button.classList.add("best");
      button.addEventListener("click", () => view.onClick(item.id));
      items.appendChild(button);
    }
    node.appendChild(items);
    (panel.side && panel.side !== down ? top : bottom).appendChild(node);
  }
}
