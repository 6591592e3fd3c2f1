// The plies page: the game (a tree of moves) held by the server, drawn from the picture the
// server sends; clicks and drags become moves through the legal moves' click paths; the
// engine plays its side; the analysis, while on, follows the position shown. It knows no
// game: everything game-specific arrives as data.
//
// Key invariant: `game` is the server's last answer and everything drawn is drawn from it;
// the address always names the game shown (its start, its tree of moves, the line and the
// move shown), so a reload or a shared link opens it again.

import { bottomSide, drawBoard, drawPanels, showBest } from "./board.js";
import { drawMoves, onMainLine } from "./moves.js";
import { addRow, capitalised, drawEvalBar, drawGraph, drawLines, drawStored } from "./analysis.js";

const $ = (id) => document.getElementById(id);

let info = null; // GET /api/info
let game = null; // the game as the server last sent it
let clicks = []; // the clicks of the move being made
let events = null; // the game's event stream
let paused = false; // engine against engine paused
let busy = false; // an engine move is being asked for
let flipped = false; // the board drawn turned round (the second side at the bottom)
let released = false; // the game was let go as the page was hidden (closed, reloaded)
let steps = Promise.resolve(); // the moves through the line asked for, one after another

// The analysis: on or off; the search asked for last (its id and node), its latest iteration
// and whether it is over.
const analysis = { on: false, search: null, node: null, latest: null, done: false, timer: null };

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

function sides() {
  return info ? info.sides : { first: "first", second: "second" };
}

function engineThinking() {
  return busy || game.searching === "engine";
}

function humanMoves() {
  if (!game || game.outcome) return false;
  if (game.ply !== game.moves.length) return true; // exploring a side line by hand
  const mode = settings().mode;
  return mode === "humans" || mode === game.to_move;
}

// Every click path of a legal move: its own, then its alternatives.
function pathsOf(move) {
  return [move.clicks, ...(move.alternatives ?? [])];
}

// Whether `path` begins with `start` (or is it).
function begins(path, start) {
  return path.length >= start.length && start.every((c, i) => path[i] === c);
}

function targetsNow() {
  const next = new Set();
  if (!humanMoves() || engineThinking()) return next;
  for (const move of game.legal) {
    for (const path of pathsOf(move)) {
      if (path.length > clicks.length && begins(path, clicks)) next.add(path[clicks.length]);
    }
  }
  return next;
}

// The best move of the analysis to draw: the first line's first move, while it is of the
// position shown.
function bestClicks() {
  const shown = analysisShown();
  if (!analysis.on || !shown) return [];
  return shown.clicks ?? [];
}

// The analysis of the position shown: the running one's latest iteration, or the stored
// analysis while the running one is not as deep (`fromStore` set), or null.
function analysisShown() {
  const latest = analysis.latest && analysis.latest.node === game.node ? analysis.latest : null;
  const stored = game.stored;
  if (stored && (!latest || latest.depth < stored.depth)) {
    return { node: game.node, depth: stored.depth, score: stored.score, pv_moves: stored.pv_moves, clicks: stored.clicks, fromStore: true };
  }
  return latest;
}

// ---- the address ----

const MODES = ["first", "second", "engines", "humans"];

// The address of the game shown: its start, its tree of moves, the line shown when it is not
// the main line, the move shown and the mode, so that a reload, a bookmark or a shared link
// opens the same game at the same move (the page sets it up again through the API, on this
// server or on another one).
function address() {
  const params = new URLSearchParams();
  params.set("position", game.start);
  if (game.tree_text) params.set("moves", game.tree_text);
  if (game.line_text) params.set("line", game.line_text);
  if (game.moves.length) params.set("ply", String(game.ply));
  const mode = settings().mode;
  if (mode !== "first") params.set("mode", mode);
  return `${location.pathname}?${params}`;
}

// The game the address asks for (the body of `POST /api/games`), or null for a new game.
function fromAddress() {
  const params = new URLSearchParams(location.search);
  const mode = params.get("mode");
  if (MODES.includes(mode)) $("mode").value = mode;
  flipped = settings().mode === "second";
  if (!params.has("position") && !params.has("moves")) return null;
  const body = { position: params.get("position") ?? "", moves: params.get("moves") ?? "" };
  if (params.has("line")) body.line = params.get("line");
  const ply = Number(params.get("ply"));
  if (params.has("ply") && Number.isInteger(ply) && ply >= 0) body.ply = ply;
  return body;
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
    await newGame(wanted);
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

// ---- drawing ----

function view() {
  return {
    next: targetsNow(),
    chosen: new Set(clicks),
    flipped,
    best: bestClicks(),
    onClick: clicked,
  };
}

function drawAll() {
  const shown = view();
  drawBoard($("board"), game, shown);
  drawPanels($("panels-top"), $("panels"), game, shown);
  fitBoard();
}

// The board as large as the window lets it be with the header and the panels above and
// below it in view (the cards of Onitama, clicked first in every move, are never below the
// fold).
function fitBoard() {
  const around = ["banner", "panels-top", "panels"].reduce((sum, id) => sum + $(id).offsetHeight, 0);
  const header = document.querySelector("header").offsetHeight;
  const room = window.innerHeight - header - around - 48;
  document.documentElement.style.setProperty("--board-max", `${Math.max(240, room)}px`);
}

function render() {
  // The game's id on the body, for tests driving the page (tests/browser.rs reads the game
  // from the API with it).
  document.body.dataset.game = game.id;
  document.body.dataset.ply = String(game.ply);
  document.body.dataset.node = String(game.node);
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
  drawAll();
  drawMoves($("moves"), game, (node) => guarded(() => gotoNode(node)));
  drawGraph($("graph"), game, sides(), (ply) => step(() => ply));
  const inVariation = !onMainLine(game, game.node);
  $("promote").disabled = !inVariation || engineThinking();
  $("delete").disabled = game.node === 0 || engineThinking();
  drawAnalysis();
  drawExplorer();
  if (!game.outcome) {
    const who = capitalised(game.to_move_name);
    const where = game.ply === game.moves.length ? "" : ` (position after move ${game.ply} of ${game.moves.length})`;
    const line = inVariation ? ", in a variation" : "";
    const thinking = engineThinking() ? ", the engine is thinking" : "";
    say(`${who} to move${where}${line}${thinking}`);
  } else {
    say(game.outcome);
  }
  follow();
}

// ---- moves ----

function clicked(id) {
  if (!humanMoves() || engineThinking()) return;
  const next = targetsNow();
  if (next.has(id)) {
    clicks.push(id);
  } else if (game.legal.some((m) => pathsOf(m).some((path) => path[0] === id))) {
    clicks = [id];
  } else {
    clicks = [];
  }
  const done = game.legal.find((m) => pathsOf(m).some((path) => path.length === clicks.length && begins(path, clicks)));
  if (done) {
    clicks = [];
    guarded(() => play({ move: done.move }));
  } else {
    drawAll();
  }
}

// Plays `{move}` or `{moves}` at the position shown: the next move of the tree if it is
// there, a new variation otherwise.
async function play(body) {
  game = await api("POST", `/api/games/${game.id}/move`, body);
  render();
  await engineTurn();
}

// The opening explorer of the position shown (`GET /api/explore`): the moves recorded games
// played here, the most played first, with wins, draws and losses of the side that played
// each; a move clicked is played. Asked once per position shown; an answer for a position no
// longer shown is dropped.
const explorer = { position: null };

async function drawExplorer() {
  if (!game || explorer.position === game.position) return;
  const position = game.position;
  explorer.position = position;
  const table = $("explorer");
  const state = $("explorer-state");
  if (info && !info.store) {
    table.hidden = true;
    state.textContent = "No position store: the explorer shows the games a store holds (serve --store PATH).";
    return;
  }
  let answer;
  try {
    answer = await api("GET", `/api/explore?position=${encodeURIComponent(position)}`);
  } catch (error) {
    if (explorer.position !== position) return;
    table.hidden = true;
    state.textContent = error.message;
    return;
  }
  if (explorer.position !== position) return;
  const rows = answer.moves.map((entry) => {
    const row = document.createElement("tr");
    row.className = "explorer-move";
    row.dataset.move = entry.move;
    row.title = `play ${entry.move}`;
    const cells = [entry.move, String(entry.games), `${entry.wins} / ${entry.draws} / ${entry.losses}`, `${Math.round(100 * entry.score)}%`];
    for (const text of cells) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    row.addEventListener("click", () => guarded(() => play({ move: entry.move })));
    return row;
  });
  table.querySelector("tbody").replaceChildren(...rows);
  table.hidden = rows.length === 0;
  state.textContent = rows.length === 0
    ? "No recorded game went on from this position."
    : `${answer.games} recorded games went on from here (results of the side that played the move).`;
}

async function goto(ply) {
  clicks = [];
  game = await api("POST", `/api/games/${game.id}/goto`, { ply });
  render();
}

async function gotoNode(node) {
  if (engineThinking()) return;
  clicks = [];
  game = await api("POST", `/api/games/${game.id}/goto`, { node });
  render();
}

// Steps through the line: `where(game)` is the ply to show, asked when the steps before it are
// done (keys held down queue up); the end of the line lets the engine move if it is its turn.
function step(where) {
  steps = steps.then(() => guarded(async () => {
    if (!game || engineThinking()) return;
    const ply = Math.max(0, Math.min(game.moves.length, where(game)));
    if (ply !== game.ply) await goto(ply);
    if (ply === game.moves.length) await engineTurn();
  }));
}

async function promote() {
  game = await api("POST", `/api/games/${game.id}/promote`, { node: game.node });
  render();
  say("this line is now the main line");
}

async function remove() {
  game = await api("POST", `/api/games/${game.id}/delete`, { node: game.node });
  render();
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
      busy = false;
      render();
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

// Whether an event is of the analysis asked for last. Its events can come before the answer
// that names its search (one proven at once is over by then): an analysis's event of the node
// asked for is taken as its own until that answer comes.
function ours(data) {
  if (!analysis.on || data.kind === "engine") return false;
  if (analysis.search === null && data.node === analysis.node) analysis.search = data.search;
  return data.search === analysis.search;
}

function listen() {
  if (events) events.close();
  events = new EventSource(`/api/games/${game.id}/events`);
  events.addEventListener("iteration", (event) => {
    const data = JSON.parse(event.data);
    if (!ours(data)) return; // the engine's, or an old one
    // An iteration cut short by the time limit reports its first line only: the other lines
    // of the one before stay shown below it.
    const before = analysis.latest;
    if (!data.lines && before && before.search === data.search && before.lines) {
      const first = { score: data.score, pv_moves: data.pv_moves, clicks: data.clicks };
      data.lines = [first, ...before.lines.slice(1)];
    }
    analysis.latest = data;
    addRow($("analysis"), data, sides());
    drawAnalysis();
    // Only the best move's marks change: a click on the board or a card is not lost to a
    // drawing that replaced what was pressed.
    showBest($("board"), [$("panels-top"), $("panels")], bestClicks());
  });
  events.addEventListener("done", (event) => {
    const data = JSON.parse(event.data);
    if (data.kind !== "analysis" || !ours(data)) return;
    analysis.done = true;
    guarded(async () => {
      const id = game.id;
      const fresh = await api("GET", `/api/games/${id}`);
      // Moved on meanwhile (a move, a step): that answer is newer than this one.
      if (game.id !== id || fresh.node !== game.node || engineThinking()) return;
      game = fresh;
      render();
    });
  });
  events.onerror = () => {}; // the browser reconnects by itself
}

// The analysis's part of the page: the toggle, the lines, the bar.
function drawAnalysis() {
  const toggle = $("analyze");
  toggle.setAttribute("aria-pressed", analysis.on ? "true" : "false");
  toggle.textContent = analysis.on ? "Analysis on" : "Analysis off";
  const latest = analysis.latest && analysis.latest.node === game.node ? analysis.latest : null;
  const shown = analysisShown();
  $("evalbar").hidden = !analysis.on;
  drawEvalBar($("evalbar"), shown ? shown.score : null, bottomSide(flipped), sides());
  drawLines($("lines"), analysis.on ? shown : null, sides(), (moves) => guarded(() => playLine(shown, moves)));
  drawStored($("stored"), game.stored, sides());
  const state = $("analysis-state");
  if (!analysis.on) {
    state.textContent = "";
  } else if (game.outcome) {
    state.textContent = "the game is over here";
  } else if (!latest) {
    state.textContent = shown ? "from the store; analysing..." : "analysing...";
  } else {
    const done = analysis.done ? "done" : "analysing";
    const store = shown && shown.fromStore ? `from the store until deeper; ` : "";
    state.textContent = `${store}${done}: depth ${latest.depth}, ${Math.round(latest.nodes).toLocaleString("en")} positions`;
  }
}

// A line of the analysis played out on the board, up to the move clicked.
async function playLine(latest, moves) {
  if (!latest || latest.node !== game.node || engineThinking()) return;
  clicks = [];
  game = await api("POST", `/api/games/${game.id}/move`, { moves });
  render();
}

// While the analysis is on it searches the position shown: a new position restarts it (a
// moment later, so that keys held down do not start a search per step).
function follow() {
  if (!analysis.on || engineThinking() || analysis.node === game.node) return;
  clearTimeout(analysis.timer);
  analysis.timer = setTimeout(() => guarded(startAnalysis), 120);
}

async function startAnalysis() {
  if (!analysis.on || !game || engineThinking() || analysis.node === game.node) return;
  const node = game.node;
  analysis.node = node;
  analysis.search = null;
  analysis.latest = null;
  analysis.done = false;
  $("analysis").tBodies[0].replaceChildren();
  if (game.outcome) {
    analysis.search = null;
    drawAnalysis();
    if (game.searching === "analysis") await api("POST", `/api/games/${game.id}/stop`);
    return;
  }
  drawAnalysis();
  const time = Number($("analysis-time").value) || 30000;
  const lines = Number($("lines-count").value) || 1;
  const body = { searcher: settings().searcher, time_ms: time };
  if (lines > 1) body.lines = lines;
  // A search refused is not asked for again until the position or the settings change.
  const started = await api("POST", `/api/games/${game.id}/analyze`, body);
  if (analysis.node === node && analysis.search !== started.search) {
    // Events of an older search were taken for this one's.
    analysis.search = started.search;
    analysis.latest = null;
    analysis.done = false;
    $("analysis").tBodies[0].replaceChildren();
    drawAnalysis();
  }
}

// The toggle: on, the position shown is analysed (and every one shown after it); off, the
// analysis stops.
async function toggleAnalysis() {
  analysis.on = !analysis.on;
  analysis.search = null;
  analysis.node = null;
  analysis.latest = null;
  if (analysis.on) {
    render();
    return;
  }
  clearTimeout(analysis.timer);
  drawAnalysis();
  drawAll();
  if (game.searching === "analysis") {
    await api("POST", `/api/games/${game.id}/stop`);
  }
}

// A new number of lines or another engine: the analysis starts again.
function restartAnalysis() {
  if (!analysis.on) return;
  analysis.search = null;
  analysis.node = null;
  follow();
}

// ---- games ----

// A new game: `body` is empty (the start), `{position, moves, line?, ply?}` or `{record}`.
async function newGame(body = {}) {
  clicks = [];
  paused = false;
  $("pause").textContent = "Pause engines";
  const created = await api("POST", "/api/games", body);
  if (game && !released) api("DELETE", `/api/games/${game.id}`).catch(() => {});
  released = false;
  game = created;
  busy = false; // an engine still thinking about the old game is not waited for
  analysis.search = null;
  analysis.node = null;
  analysis.latest = null;
  $("analysis").tBodies[0].replaceChildren();
  showVariant();
  listen();
  render();
  await engineTurn();
}

// The variant the game's start is, in the picker (games with variants only).
function showVariant() {
  const variants = info.variants ?? [];
  if (!variants.length) return;
  const index = variants.findIndex((v) => v.name === game.variant);
  $("variant").value = index >= 0 ? String(index) : "";
  const chosen = variants[index];
  $("variant-about").hidden = !chosen;
  if (chosen) {
    $("variant-summary").textContent = `${chosen.name}: ${chosen.description}`;
    $("variant-rules").textContent = chosen.rules;
  }
}

// Sets up the text of the box: a record in the game's format or the plain one (a position
// and moves, on one line or several); the server reads both.
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

// Side names that are colours (Yinsh's white and black) colour the pieces so (the style sheet
// has a shade for each such name); others keep the page's two colours.
function sideColours() {
  for (const side of ["first", "second"]) {
    const name = info.sides[side];
    if (name && /^[a-z]+$/.test(name) && CSS.supports("color", name)) {
      document.body.classList.add(`named-${side}-${name}`);
    }
  }
}

function fillVariants() {
  const variants = info.variants ?? [];
  if (!variants.length) return;
  $("variant-label").hidden = false;
  const select = $("variant");
  const custom = document.createElement("option");
  custom.value = "";
  custom.textContent = "(set up)";
  select.appendChild(custom);
  variants.forEach((variant, index) => {
    const option = document.createElement("option");
    option.value = String(index);
    option.textContent = variant.name;
    option.title = variant.description;
    select.appendChild(option);
  });
  select.addEventListener("change", () => {
    const variant = variants[Number(select.value)];
    if (select.value !== "" && variant) guarded(() => newGame({ position: variant.position }));
  });
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
  sideColours();
  fillVariants();
  const names = sides();
  $("mode").options[0].textContent = `You play ${names.first}`;
  $("mode").options[1].textContent = `You play ${names.second}`;
  const whose = names.first.endsWith("s") ? `${names.first}'` : `${names.first}'s`;
  $("score-unit").textContent = `Scores are from ${whose} side: + is better for ${names.first}, `
    + `- for ${names.second}, in the engine's evaluation points; "wins in N" counts plies `
    + "(one side's move each) to the end with best play.";
  $("new").addEventListener("click", () => guarded(() => newGame()));
  $("undo").addEventListener("click", () => guarded(undo));
  $("first").addEventListener("click", () => step(() => 0));
  $("back").addEventListener("click", () => step((g) => g.ply - 1));
  $("forward").addEventListener("click", () => step((g) => g.ply + 1));
  $("last").addEventListener("click", () => step((g) => g.moves.length));
  $("promote").addEventListener("click", () => guarded(promote));
  $("delete").addEventListener("click", () => guarded(remove));
  $("pause").addEventListener("click", () => {
    paused = !paused;
    $("pause").textContent = paused ? "Resume engines" : "Pause engines";
    if (!paused) guarded(engineTurn);
  });
  $("analyze").addEventListener("click", () => guarded(toggleAnalysis));
  $("lines-count").addEventListener("change", restartAnalysis);
  $("searcher").addEventListener("change", restartAnalysis);
  $("load").addEventListener("click", loadRecord);
  $("save").addEventListener("click", () => guarded(showRecord));
  $("download").addEventListener("click", () => guarded(saveFile));
  $("open").addEventListener("click", () => $("file").click());
  $("file").addEventListener("change", () => guarded(openFile));
  $("record").placeholder = `a game record (${info.record.name}), or a position and moves, on one line or several`;
  $("mode").addEventListener("change", () => {
    flipped = settings().mode === "second";
    render();
    guarded(engineTurn);
  });
  $("flip").addEventListener("click", flip);
  $("copy").addEventListener("click", copyPosition);
  document.addEventListener("keydown", keyed);
  window.addEventListener("resize", fitBoard);
  window.addEventListener("pagehide", release);
  // Back from the browser's page cache after `release`: the address's game again.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && released) guarded(openAddress);
  });
  await openAddress();
}

guarded(start);

