'use strict';
// The game's evaluation as a graph under the move list: the score (White's view) of every
// position of the main line that a search has looked at, and "Evaluate game" to search the
// rest at a small depth. Loaded after board.js and analysis.js, whose hooks and whiteScore it uses.

const graph = {
  scores: new Map(), // node id -> score in hundredths of a man, White's view
  queue: null,       // node ids still to evaluate, or null
  depth: 6,          // depth of "Evaluate game"
};

// The main line's node ids, from the start position.
function graphMainLine() {
  if (!state || !state.nodes || !state.nodes.length) return [];
  const out = [];
  let id = state.nodes.findIndex((n) => n.parent === null);
  while (id >= 0) {
    out.push(id);
    const children = state.nodes[id].children;
    id = children.length ? children[0] : -1;
  }
  return out;
}

function buildGraphPanel() {
  const moves = $('history').closest('section');
  const panel = document.createElement('section');
  panel.className = 'panel';
  panel.id = 'graph-panel';
  panel.innerHTML = '<h2>Evaluation <button id="evaluate-game" title="Search every position of the main line">Evaluate game</button></h2>'
    + '<svg id="graph" viewBox="0 0 300 100" preserveAspectRatio="none" role="img" aria-label="evaluation graph" data-points="0"></svg>';
  moves.after(panel);
  $('evaluate-game').addEventListener('click', evaluateGame);
}

function renderGraph() {
  const svg = $('graph');
  if (!svg) return;
  const ns = 'http://www.w3.org/2000/svg';
  svg.replaceChildren();
  const line = graphMainLine();
  const span = Math.max(line.length - 1, 1);
  const x = (i) => (i / span) * 300;
  const y = (c) => 50 - Math.max(-400, Math.min(400, c)) / 8;
  const axis = document.createElementNS(ns, 'line');
  Object.entries({ x1: 0, y1: 50, x2: 300, y2: 50, class: 'graph-axis' }).forEach(([k, v]) => axis.setAttribute(k, v));
  svg.append(axis);
  const points = [];
  line.forEach((id, i) => {
    if (graph.scores.has(id)) points.push([i, id, graph.scores.get(id)]);
  });
  const poly = document.createElementNS(ns, 'polyline');
  poly.setAttribute('points', points.map(([i, , c]) => `${x(i).toFixed(1)},${y(c).toFixed(1)}`).join(' '));
  poly.setAttribute('class', 'graph-line');
  svg.append(poly);
  for (const [i, id, c] of points) {
    const dot = document.createElementNS(ns, 'circle');
    Object.entries({ cx: x(i), cy: y(c), r: id === state.node ? 3 : 1.6, class: 'graph-dot' }).forEach(([k, v]) => dot.setAttribute(k, v));
    dot.dataset.node = String(id);
    const title = document.createElementNS(ns, 'title');
    title.textContent = `ply ${state.nodes[id].ply}: ${(c / 100).toFixed(2)} men (White)`;
    dot.append(title);
    dot.addEventListener('click', () => send({ type: 'goto', node: id }));
    svg.append(dot);
  }
  const at = line.indexOf(state.node);
  if (at >= 0) {
    const mark = document.createElementNS(ns, 'line');
    Object.entries({ x1: x(at), y1: 0, x2: x(at), y2: 100, class: 'graph-now' }).forEach(([k, v]) => mark.setAttribute(k, v));
    svg.append(mark);
  }
  svg.dataset.points = String(points.length);
  $('evaluate-game').textContent = graph.queue ? `Evaluating… ${graph.queue.length} left` : 'Evaluate game';
}

// Searches each main-line position without a score, one after the other.
function evaluateGame() {
  if (graph.queue) { graph.queue = null; renderGraph(); return; } // a second click stops
  graph.queue = graphMainLine().filter((id) => !graph.scores.has(id));
  evaluateNext();
}

function evaluateNext() {
  if (!graph.queue) return;
  if (!graph.queue.length) { graph.queue = null; renderGraph(); return; }
  const id = graph.queue[0];
  if (state.node !== id) send({ type: 'goto', node: id });
  else send({ type: 'analyse', depth: graph.depth });
  renderGraph();
}

hooks.state.push(() => {
  // A new game or a changed tree: scores of nodes that no longer exist are dropped.
  for (const id of [...graph.scores.keys()]) if (!state.nodes || id >= state.nodes.length) graph.scores.delete(id);
  if (graph.queue && state.node === graph.queue[0] && !search) send({ type: 'analyse', depth: graph.depth });
  renderGraph();
});
hooks.info.push((msg) => {
  const best = infoLines(msg)[0];
  if (!best || best.centi === undefined || !state) return;
  graph.scores.set(state.node, whiteScore(best.score, best.centi, state.side).centi);
  renderGraph();
});
hooks.done.push(() => {
  if (graph.queue && graph.queue[0] === state.node) {
    graph.queue.shift();
    evaluateNext();
  }
});

buildGraphPanel();
