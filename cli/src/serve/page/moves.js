// The move list: the game's tree of moves as players read it, the main line in order with each
// variation in brackets after the move it replaces; every move says who played it (a side may
// move twice running, as in Kalah) and is clicked to show the position after it.
//
// Key invariant: one element per move of the tree (`.move`, with `data-node`, `data-ply` and
// `data-move`); the moves of the line shown carry `on-line`, the position shown `current`.

// Draws `game.tree` into `box`; `onPick(node)` is called with the node clicked.
export function drawMoves(box, game, onPick) {
  box.replaceChildren();
  const nodes = new Map(game.tree.map((node) => [node.node, node]));
  const onLine = new Set(game.line.map((step) => step.node));
  const root = game.tree[0];
  if (!root || !root.children.length) {
    const empty = document.createElement("p");
    empty.className = "small muted";
    empty.textContent = "No moves yet.";
    box.appendChild(empty);
    return;
  }
  const moveItem = (node, numbered) => {
    const item = document.createElement("span");
    item.className = `move side-${node.mover}`;
    item.dataset.node = node.node;
    item.dataset.ply = node.ply;
    item.dataset.move = node.move;
    item.title = `move ${node.ply}, ${node.mover_name}`;
    if (onLine.has(node.node)) item.classList.add("on-line");
    if (node.node === game.node) {
      item.classList.add("current");
      item.setAttribute("aria-current", "step");
    }
    if (numbered) {
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = `${node.ply}.`;
      item.appendChild(number);
    }
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = node.mover_name;
    item.appendChild(who);
    item.append(` ${node.move}`);
    item.addEventListener("click", () => onPick(node.node));
    return item;
  };
  // The line from `first` on along first children, with every other child's line after the
  // move it replaces (in brackets, one level deeper).
  const drawLine = (parent, first, depth) => {
    let node = first;
    let numbered = true;
    while (node) {
      parent.appendChild(moveItem(node, numbered));
      numbered = depth === 0;
      const before = nodes.get(node.parent);
      const others = before && before.children[0] === node.node ? before.children.slice(1) : [];
      for (const other of others) {
        const variation = document.createElement("div");
        variation.className = "variation";
        variation.style.setProperty("--depth", depth + 1);
        drawLine(variation, nodes.get(other), depth + 1);
        parent.appendChild(variation);
        numbered = true;
      }
      node = node.children.length ? nodes.get(node.children[0]) : null;
    }
  };
  const main = document.createElement("div");
  main.className = "mainline";
  drawLine(main, nodes.get(root.children[0]), 0);
  box.appendChild(main);
  const current = box.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

// Whether `node` is on the main line (the start followed along first children).
export function onMainLine(game, node) {
  const nodes = new Map(game.tree.map((n) => [n.node, n]));
  let at = nodes.get(node);
  while (at && at.parent !== null) {
    const parent = nodes.get(at.parent);
    if (!parent || parent.children[0] !== at.node) return false;
    at = parent;
  }
  return true;
}
