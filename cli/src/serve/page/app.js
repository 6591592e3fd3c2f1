// The plies page: draws the position the server sends (its picture), turns clicks into moves
// through the legal moves' click paths, runs the engine and the analysis. It knows no game:
// everything game-specific arrives as data.

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

let info = null; // GET /api/info
let game = null; // the game as the server last sent it
let clicks = []; // the clicks of the move being made
let events = null; // the game's event stream
let paused = false; // engine against engine paused
let busy = false; // an engine move is being asked for
let lines = []; // analysis rows
let analysesDone = 0; // `done` events of analyses seen
let flipped = false; // the board drawn turned round (the second side at the bottom)
let released = false; // the game was let go as the page was hidden (closed, reloaded)
let steps = Promise.resolve(); // the moves through the line asked for, one after another

// Every request that changes something says its body is JSON, an empty one too: the server
// refuses a POST without `Content-Type: application/json` (so that other sites' forms cannot
// send one).
async function api(method, path, body) {
  const options = { method, headers: {} };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
  }
  if (body !== undefined) {
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  let data = {};
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = { error: text };
  }
  if (!response.ok) {
    throw new Error(data.error || response.statusText);
  }
  return data;
}

function say(text, isError = false) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("error", isError);
}

// Runs `action`, showing its error as the status instead of throwing.
async function guarded(action) {
  try {
    await action();
  } catch (error) {
    say(error.message, true);
  }
}

function settings() {
  return {
    mode: $("mode").value,
    searcher: $("searcher").value,
    time: Number($("time").value) || 1000,
  };
}

function humanMoves() {
  if (!game || game.outcome) return false;
  if (game.ply !== game.moves.length) return true; // exploring a side line by hand
  const mode = settings().mode;
  return mode === "humans" || mode === game.to_move;
}

// ---- drawing ----

function el(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function targetsNow() {
  const next = new Set();
  if (!humanMoves() || busy || game.searching) return next;
  for (const move of game.legal) {
    if (move.clicks.length > clicks.length && clicks.every((c, i) => move.clicks[i] === c)) {
      next.add(move.clicks[clicks.length]);
    }
  }
  return next;
}

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  const picture = game.picture;
  if (!picture.width || !picture.height) {
    svg.setAttribute("hidden", "");
    return;
  }
  svg.removeAttribute("hidden");
  svg.setAttribute("viewBox", `0 0 ${picture.width} ${picture.height}`);
  svg.classList.toggle("flipped", flipped);
  // Turned round, every point of the picture goes to the opposite one.
  const fx = (x) => (flipped ? picture.width - x : x);
  const fy = (y) => (flipped ? picture.height - y : y);
  const next = targetsNow();
  const chosen = new Set(clicks);
  const last = new Set(game.last);
  const flags = (node, id) => {
    if (next.has(id)) node.classList.add("target");
    if (chosen.has(id)) node.classList.add("selected");
    if (last.has(id)) node.classList.add("last");
  };
  const centres = new Map();
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
      el("circle", { cx: cell.x, cy: cell.y, r: cell.size * 0.08, class: "cell point" }, svg);
      shape = el("circle", { cx: cell.x, cy: cell.y, r: cell.size / 2 }, svg);
      shape.classList.add("hit");
    }
    if (cell.shape !== "point") shape.classList.add("cell", `kind-${cell.kind}`);
    shape.dataset.id = cell.id;
    flags(shape, cell.id);
    shape.addEventListener("click", () => clicked(cell.id));
  }
  for (const line of picture.lines) {
    const node = el("line", {
      x1: fx(line.from[0]), y1: fy(line.from[1]), x2: fx(line.to[0]), y2: fy(line.to[1]), class: "line",
    });
    svg.insertBefore(node, svg.firstChild);
  }
  for (const piece of picture.pieces) {
    const cell = centres.get(piece.cell);
    if (!cell) continue;
    const radius = cell.size * (piece.kind === "ring" ? 0.38 : 0.33);
    el("circle", {
      cx: cell.x, cy: cell.y, r: radius, class: `piece kind-${piece.kind} side-${piece.side}`,
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
}

function drawGrid(grid) {
  const svg = el("svg", { viewBox: `0 0 ${grid.size} ${grid.size}` });
  const half = (grid.size - 1) / 2;
  for (let y = 0; y < grid.size; y++) {
    for (let x = 0; x < grid.size; x++) {
      el("rect", { x, y, width: 1, height: 1, class: "grid-cell" }, svg);
    }
  }
  el("rect", { x: half + 0.15, y: half + 0.15, width: 0.7, height: 0.7, class: "grid-centre" }, svg);
  for (const [dx, dy] of grid.marks) {
    el("rect", { x: half + dx + 0.15, y: half - dy + 0.15, width: 0.7, height: 0.7, class: "grid-mark" }, svg);
  }
  return svg;
}

function drawPanels() {
  const box = $("panels");
  box.replaceChildren();
  const next = targetsNow();
  const chosen = new Set(clicks);
  const last = new Set(game.last);
  for (const panel of game.picture.panels) {
    const node = document.createElement("div");
    node.className = "panel";
    if (panel.side) node.classList.add(`side-${panel.side}`);
    const title = document.createElement("h3");
    title.textContent = panel.title;
    node.appendChild(title);
    const items = document.createElement("div");
    items.className = "items";
    for (const item of panel.items) {
      const button = document.createElement("div");
      button.className = "item";
      button.dataset.id = item.id;
      if (item.grid) button.appendChild(drawGrid(item.grid));
      const caption = document.createElement("div");
      caption.textContent = item.text;
      button.appendChild(caption);
      if (next.has(item.id)) button.classList.add("target");
      if (chosen.has(item.id)) button.classList.add("selected");
      if (last.has(item.id)) button.classList.add("last");
      button.addEventListener("click", () => clicked(item.id));
      items.appendChild(button);
    }
    node.appendChild(items);
    box.appendChild(node);
  }
}

function drawMoves() {
  const list = $("moves");
  list.replaceChildren();
  game.moves.forEach((text, i) => {
    const item = document.createElement("li");
    item.textContent = text;
    item.dataset.ply = i + 1;
    if (i + 1 === game.ply) item.classList.add("current");
    item.addEventListener("click", () => guarded(() => goto(i + 1)));
    list.appendChild(item);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function drawGraph() {
  const svg = $("graph");
  svg.replaceChildren();
  const n = Math.max(game.scores.length - 1, 1);
  const y = (value) => 50 - Math.max(-1000, Math.min(1000, value)) / 20;
  el("line", { x1: 0, y1: 50, x2: 300, y2: 50, class: "zero" }, svg);
  const points = [];
  game.scores.forEach((score, i) => {
    if (score) {
      const value = score.decisive ? Math.sign(score.value) * 1000 : score.value;
      points.push(`${(i / n) * 300},${y(value)}`);
    }
  });
  if (points.length) el("polyline", { points: points.join(" ") }, svg);
  const x = (game.ply / n) * 300;
  el("line", { x1: x, y1: 0, x2: x, y2: 100, class: "now" }, svg);
}

// ---- the address ----

const MODES = ["first", "second", "engines", "humans"];

// The address of the game shown: its start position, its moves, the move shown and the mode,
// so that a reload, a bookmark or a shared link opens the same game at the same move (the page
// sets it up again through the API, on this server or on another one).
function address() {
  const params = new URLSearchParams();
  params.set("position", game.start);
  if (game.moves.length) {
    params.set("moves", game.moves.join(" "));
    params.set("ply", String(game.ply));
  }
  const mode = settings().mode;
  if (mode !== "first") params.set("mode", mode);
  return `${location.pathname}?${params}`;
}

// The game the address asks for: `{body, ply}` for `newGame`, or null for a new game.
function fromAddress() {
  const params = new URLSearchParams(location.search);
  const mode = params.get("mode");
  if (MODES.includes(mode)) $("mode").value = mode;
  flipped = settings().mode === "second";
  if (!params.has("position") && !params.has("moves")) return null;
  const body = { position: params.get("position") ?? "", moves: params.get("moves") ?? "" };
  const ply = params.has("ply") ? Number(params.get("ply")) : null;
  return { body, ply: Number.isInteger(ply) && ply >= 0 ? ply : null };
}

// Opens the game of the address, or a new one when it has none; a game the address names
// wrongly gives a new game and says what was wrong.
async function openAddress() {
  const wanted = fromAddress();
  if (!wanted) {
    await newGame();
    return;
  }
  try {
    await newGame(wanted.body, wanted.ply);
  } catch (error) {
    await newGame();
    say(`the address's game: ${error.message}`, true);
  }
}

// The page goes (closed, reloaded, another address): its game and any search on it are let go
// at once, with a request that outlives the page.
function release() {
  if (!game || released) return;
  released = true;
  if (events) {
    events.close();
    events = null;
  }
  fetch(`/api/games/${game.id}`, {
    method: "DELETE",
    headers: { "Content-Type": "application/json" },
    keepalive: true,
  }).catch(() => {});
}

function render() {
  // The game's id on the body, for tests driving the page (tests/browser.rs reads the game
  // from the API with it).
  document.body.dataset.game = game.id;
  document.body.dataset.ply = String(game.ply);
  const url = address();
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, "", url);
  $("position").textContent = game.position;
  if (!$("position-text").hidden) $("position-text").value = game.position;
  const banner = $("banner");
  if (game.outcome) {
    banner.textContent = `Game over: ${game.outcome}`;
    banner.removeAttribute("hidden");
  } else {
    banner.setAttribute("hidden", "");
  }
  drawBoard();
  drawPanels();
  drawMoves();
  drawGraph();
  if (!game.outcome) {
    const who = game.to_move_name;
    const where = game.ply === game.moves.length ? "" : ` (position after move ${game.ply} of ${game.moves.length})`;
    const thinking = game.searching === "engine" || busy ? ", the engine is thinking" : "";
    say(`${who} to move${where}${thinking}`);
  } else {
    say(game.outcome);
  }
}

// ---- moves ----

function clicked(id) {
  if (!humanMoves() || busy || game.searching) return;
  const next = targetsNow();
  if (next.has(id)) {
    clicks.push(id);
  } else if (game.legal.some((m) => m.clicks[0] === id)) {
    clicks = [id];
  } else {
    clicks = [];
  }
  const done = game.legal.find((m) => m.clicks.length === clicks.length && m.clicks.every((c, i) => c === clicks[i]));
  if (done) {
    clicks = [];
    guarded(() => play(done.move));
  } else {
    render();
  }
}

async function play(move) {
  game = await api("POST", `/api/games/${game.id}/move`, { move });
  render();
  await engineTurn();
}

async function goto(ply) {
  clicks = [];
  game = await api("POST", `/api/games/${game.id}/goto`, { ply });
  render();
}

// Steps through the line: `where(game)` is the ply to show, asked when the steps before it are
// done (keys held down queue up); the end of the line lets the engine move if it is its turn.
function step(where) {
  steps = steps.then(() => guarded(async () => {
    if (!game || busy || game.searching) return;
    const ply = Math.max(0, Math.min(game.moves.length, where(game)));
    if (ply !== game.ply) await goto(ply);
    if (ply === game.moves.length) await engineTurn();
  }));
}

// Puts the position's text in a read-only box, selected, and on the clipboard where the
// browser lets the page write it (a page not focused or not allowed: the box is there).
function copyPosition() {
  const box = $("position-text");
  box.value = game.position;
  box.removeAttribute("hidden");
  box.focus();
  box.select();
  if (navigator.clipboard) {
    navigator.clipboard.writeText(game.position).then(
      () => say("position copied"),
      () => say("position selected: copy it from the box"),
    );
  }
}

function flip() {
  flipped = !flipped;
  if (game) render();
}

// Arrow keys, Home and End step through the moves, `f` flips the board; not while typing.
function keyed(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
  if (event.target instanceof Element && event.target.closest("input, textarea, select, [contenteditable]")) return;
  const moves = {
    ArrowLeft: (g) => g.ply - 1,
    ArrowRight: (g) => g.ply + 1,
    Home: () => 0,
    End: (g) => g.moves.length,
  };
  if (moves[event.key]) {
    event.preventDefault();
    step(moves[event.key]);
  } else if (event.key === "f" || event.key === "F") {
    event.preventDefault();
    flip();
  }
}

// Asks the engine to move while it is its turn (one move at a time, so pausing works).
async function engineTurn() {
  while (game && !game.outcome && !humanMoves() && !paused && game.ply === game.moves.length) {
    const { searcher, time } = settings();
    const id = game.id;
    busy = true;
    render();
    let answer;
    try {
      answer = await api("POST", `/api/games/${id}/engine`, { searcher, time_ms: time });
    } catch (error) {
      if (game.id !== id) return; // the game was let go meanwhile: its error is no news
      throw error;
    } finally {
      if (game.id === id) busy = false;
    }
    // A new game (New game, Set up) while the engine thought: it is the one shown, not this.
    if (game.id !== id) return;
    game = answer;
    render();
  }
}

async function undo() {
  clicks = [];
  game = await api("POST", `/api/games/${game.id}/undo`);
  const mode = settings().mode;
  if (mode === "first" || mode === "second") {
    while (game.moves.length > 0 && game.to_move !== mode) {
      game = await api("POST", `/api/games/${game.id}/undo`);
    }
  }
  render();
}

// ---- analysis ----

function listen() {
  if (events) events.close();
  events = new EventSource(`/api/games/${game.id}/events`);
  events.addEventListener("iteration", (event) => {
    const data = JSON.parse(event.data);
    lines.unshift(data);
    const row = document.createElement("tr");
    for (const text of [data.depth, data.score.text, Math.round(data.nps).toLocaleString(), data.pv]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.appendChild(cell);
    }
    $("analysis").tBodies[0].prepend(row);
  });
  events.addEventListener("done", (event) => {
    const data = JSON.parse(event.data);
    if (data.kind === "analysis") {
      analysesDone += 1;
      guarded(async () => {
        game = await api("GET", `/api/games/${game.id}`);
        render();
        say(`analysis done: best ${data.best ?? "(none)"}, ${data.score}, depth ${data.depth}`);
      });
    }
  });
  events.onerror = () => {}; // the browser reconnects by itself
}

async function analyze() {
  $("analysis").tBodies[0].replaceChildren();
  lines = [];
  const time = Number($("analysis-time").value) || 10000;
  const before = analysesDone;
  say("analysing...");
  await api("POST", `/api/games/${game.id}/analyze`, { searcher: settings().searcher, time_ms: time });
  const shown = await api("GET", `/api/games/${game.id}`);
  // An analysis that ended meanwhile (proven at once) refreshed the page on its `done` event:
  // this older copy would show it still running.
  if (analysesDone !== before) return;
  game = shown;
  render();
  say("analysing...");
}

// The answer is not taken: it still shows the search running, and could come after the
// `done` event's fresh copy of the game (which the page then would not see).
async function stop() {
  await api("POST", `/api/games/${game.id}/stop`);
}

// ---- games ----

// A new game: `body` is empty (the start), `{position, moves}` or `{record}`; `ply` the move
// to show (the end of the line when null).
async function newGame(body = {}, ply = null) {
  clicks = [];
  paused = false;
  $("pause").textContent = "Pause engines";
  let created = await api("POST", "/api/games", body);
  if (ply !== null && ply < created.moves.length) {
    created = await api("POST", `/api/games/${created.id}/goto`, { ply });
  }
  if (game && !released) api("DELETE", `/api/games/${game.id}`).catch(() => {});
  released = false;
  game = created;
  busy = false; // an engine still thinking about the old game is not waited for
  $("analysis").tBodies[0].replaceChildren();
  listen();
  render();
  await engineTurn();
}

// Sets up the text of the box: a record in the game's format or the plain one (a position
// and moves); the server reads both.
function loadRecord() {
  return guarded(() => newGame({ record: $("record").value }));
}

async function showRecord() {
  const record = await api("GET", `/api/games/${game.id}/record`);
  $("record").value = record.text;
  return record;
}

// Saves the record as a file (the browser's download).
async function saveFile() {
  const record = await showRecord();
  const blob = new Blob([record.text], { type: "text/plain" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `${info.game}.${record.format.extension}`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// Opens a record file chosen by the user.
async function openFile() {
  const file = $("file").files[0];
  if (!file) return;
  const text = await file.text();
  $("file").value = "";
  $("record").value = text;
  await newGame({ record: text });
}

async function start() {
  info = await api("GET", "/api/info");
  document.title = `plies: ${info.game}`;
  $("title").textContent = `plies: ${info.game}`;
  for (const name of info.searchers) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    $("searcher").appendChild(option);
  }
  $("mode").options[0].textContent = `You play ${info.sides.first}`;
  $("mode").options[1].textContent = `You play ${info.sides.second}`;
  $("new").addEventListener("click", () => guarded(() => newGame()));
  $("undo").addEventListener("click", () => guarded(undo));
  $("first").addEventListener("click", () => guarded(() => goto(0)));
  $("back").addEventListener("click", () => guarded(() => goto(Math.max(0, game.ply - 1))));
  $("forward").addEventListener("click", () => guarded(() => goto(Math.min(game.moves.length, game.ply + 1))));
  $("last").addEventListener("click", () => guarded(async () => { await goto(game.moves.length); await engineTurn(); }));
  $("pause").addEventListener("click", () => {
    paused = !paused;
    $("pause").textContent = paused ? "Resume engines" : "Pause engines";
    if (!paused) guarded(engineTurn);
  });
  $("analyze").addEventListener("click", () => guarded(analyze));
  $("stop").addEventListener("click", () => guarded(stop));
  $("load").addEventListener("click", loadRecord);
  $("save").addEventListener("click", () => guarded(showRecord));
  $("download").addEventListener("click", () => guarded(saveFile));
  $("open").addEventListener("click", () => $("file").click());
  $("file").addEventListener("change", () => guarded(openFile));
  $("record").placeholder = `a game record (${info.record.name}), or a position followed by a line of moves`;
  $("mode").addEventListener("change", () => {
    flipped = settings().mode === "second";
    render();
    guarded(engineTurn);
  });
  $("flip").addEventListener("click", flip);
  $("copy").addEventListener("click", copyPosition);
  document.addEventListener("keydown", keyed);
  window.addEventListener("pagehide", release);
  // Back from the browser's page cache after `release`: the address's game again.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && released) guarded(openAddress);
  });
  await openAddress();
}

guarded(start);
