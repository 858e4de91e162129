// Polydam's board page: draws the server's `state` as SVG and sends moves, searches and
// positions over the WebSocket at /ws (messages: docs/web.md). No framework, no build step.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

const FAMILY_NAMES = {
  diagonal: 'Diagonal (men and kings)',
  orthogonal: 'Orthogonal (Turkish and relatives)',
  stacks: 'Stacks (Seesaw Draughts)',
  hex: 'Hex (Seesaw)',
};

let ws = null;
let state = null;           // the last `state` message
let variants = [];
let flipped = false;
let selection = [];         // the cells clicked so far, start first
let waiting = false;        // a move was sent; clicks wait for the new state
let search = null;          // {id, mode} of the running search
let analysing = false;      // the analysis button is on
let lines = [];             // analysis lines of the current search
let loadingGame = false;    // a PDN game was sent to load: its state is for reading, not play

// Extensions (analysis.js, play.js) register functions here; board.js calls them.
//   state(msg), info(msg), done(msg): after board.js has handled the message;
//   board(svg, geo): after the board is drawn;  options(mode): extra fields of a go/analyse;
//   result(): a result the page decided (resign, draw, time), or null;
//   lines(list): draws the analysis lines instead of board.js.
const hooks = { state: [], info: [], done: [], board: [], options: [], result: [], lines: [] };
function runHooks(name, ...args) { for (const f of hooks[name]) f(...args); }
function searchOptions(mode) { return Object.assign({}, ...hooks.options.map((f) => f(mode))); }
function gameResult() {
  if (state && state.result) return state.result;
  for (const f of hooks.result) { const r = f(); if (r) return r; }
  return null;
}

// ---------------------------------------------------------------- connection

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  ws = new WebSocket(`${scheme}://${location.host}/ws`);
  ws.onmessage = (event) => {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch (e) {
      showMessage(`unreadable message from the server: ${e}`);
      return;
    }
    const handler = HANDLERS[msg.type];
    if (handler) handler(msg);
  };
  ws.onclose = () => {
    setStatus('disconnected from polydam serve: reload the page to reconnect');
    document.body.dataset.connected = 'false';
  };
  ws.onopen = () => { document.body.dataset.connected = 'true'; };
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

const HANDLERS = {
  variants: (msg) => { variants = msg.variants; fillVariants(); },
  state: onState,
  searching: (msg) => {
    search = { id: msg.search, mode: msg.mode };
    lines = [];
    if (msg.mode === 'analyse') renderLines();
    updateStatus();
  },
  info: (msg) => {
    if (!search || msg.search !== search.id) return;
    if (search.mode === 'analyse') {
      lines.unshift(msg);
      lines = lines.slice(0, 5);
      renderLines();
    }
    updateStatus(msg);
    runHooks('info', msg);
  },
  done: (msg) => {
    if (search && msg.search === search.id) search = null;
    // An analysis that ends by itself (it found the result, or the game is decided) leaves the
    // button on: the next position is analysed again. Only the button turns it off.
    updateStatus();
    runHooks('done', msg);
  },
  error: (msg) => {
    waiting = false;
    loadingGame = false;
    showMessage(msg.message);
    if (window.review) window.review.onError(msg);
  },
};

// ---------------------------------------------------------------- state

function onState(msg) {
  const variantChanged = !state || state.variant.name !== msg.variant.name;
  state = msg;
  selection = [];
  waiting = false;
  search = null; // a new position: the server has stopped any search
  lines = [];
  if (variantChanged) $('description').textContent = msg.variant.description;
  $('variant').value = msg.variant.name;
  $('fen').value = msg.fen;
  $('pdn').value = msg.pdn;
  document.body.dataset.ply = String(msg.history.length);
  document.body.dataset.side = msg.side;
  document.body.dataset.fen = msg.fen;
  document.body.dataset.variant = msg.variant.name;
  if (loadingGame) {
    // A loaded game is there to be read: nobody plays on until a person says so.
    loadingGame = false;
    $('white-player').value = 'human';
    $('black-player').value = 'human';
    showMessage('game loaded: both sides are now played by hand (choose "engine" to let it play on)');
  }
  $('pass').hidden = !msg.moves.some((m) => m.path.length === 0) || players(msg.side) !== 'human';
  renderBoard();
  renderHistory();
  if (window.review) window.review.onState(msg); // review.js: the game tree in the move list
  renderLines();
  runHooks('state', msg);
  updateStatus();
  next();
}

function players(side) {
  return $(`${side}-player`).value;
}

// What happens after a new state: the engine plays its side, or the analysis goes on.
function next() {
  if (!state || gameResult()) return;
  // While an earlier position of the game is shown (review.js), the engine does not play on.
  if (players(state.side) === 'engine' && !(window.review && window.review.reviewing())) {
    send({ type: 'go', ...limit(), ...searchOptions('go') });
  } else if (analysing) {
    send({ type: 'analyse', ...searchOptions('analyse') });
  }
}

function limit() {
  const value = Number($('limit-value').value);
  if ($('limit-kind').value === 'depth') {
    return { depth: Math.max(1, Math.min(60, Math.round(value) || 1)) };
  }
  return { movetime: value > 0 ? Math.min(600, value) : 1 };
}

function humanToMove() {
  return state && !gameResult() && !waiting && players(state.side) === 'human';
}

// ---------------------------------------------------------------- move selection

function startsWith(path, prefix) {
  return prefix.every((cell, i) => path[i] === cell);
}

function candidates(prefix) {
  return state.moves.filter((m) => m.path.length >= prefix.length && startsWith(m.path, prefix));
}

function onCellClick(label) {
  if (!humanToMove()) return;
  if (selection.length > 0) {
    const last = selection[selection.length - 1];
    // Clicking the current end again finishes a capture that may also go on.
    if (label === last && selection.length > 1) {
      const done = state.moves.find((m) => m.path.length === selection.length && startsWith(m.path, selection));
      if (done) { play(done); return; }
    }
    if (candidates(selection.concat([label])).length > 0) {
      selection.push(label);
      advance();
      return;
    }
    // A cell further along: jump there if the routes to it agree so far.
    const far = candidates(selection).filter((m) => m.path.indexOf(label, selection.length) >= 0);
    if (far.length > 0) {
      const routes = far.map((m) => m.path.slice(0, m.path.indexOf(label, selection.length) + 1));
      let common = routes[0];
      for (const r of routes) {
        let i = 0;
        while (i < common.length && i < r.length && common[i] === r[i]) i++;
        common = common.slice(0, i);
      }
      if (common.length > selection.length) {
        selection = common;
        advance();
      } else {
        showMessage('several routes lead there: click the next square of the capture');
      }
      return;
    }
  }
  // A new start (or a deploy cell).
  if (candidates([label]).length > 0) {
    selection = [label];
    advance();
  } else {
    selection = [];
    renderBoard();
    explainRefusal(label);
  }
}

// A click on one's own piece that has no move: say why when a capture elsewhere is compulsory.
function explainRefusal(label) {
  const cell = state.cells.find((c) => c.label === label);
  if (!cell || !cell.piece || cell.piece.owner !== state.side) return;
  const capturing = [...new Set(state.moves.filter((m) => m.capture).map((m) => m.path[0]))];
  if (capturing.length > 0 && state.moves.every((m) => m.capture)) {
    showMessage(`capturing is compulsory: this piece cannot capture; capture with ${capturing.join(', ')} (ringed in red)`);
  }
}

// After a click: play the move if the cells clicked name exactly one, else show where to go.
function advance() {
  const left = candidates(selection);
  const exact = left.filter((m) => m.path.length === selection.length);
  if (left.length === 1 && (exact.length === 1 || selection.length > 1)) {
    play(left[0]);
    return;
  }
  renderBoard();
}

function play(move) {
  selection = [];
  waiting = true;
  send({ type: 'move', path: move.path });
  renderBoard();
}

// ---------------------------------------------------------------- drawing

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function text(content, attrs, parent) {
  const node = el('text', attrs, parent);
  node.textContent = content;
  return node;
}

// The board's geometry: where each grid position is drawn and how big a cell is.
function geometry() {
  const hex = state.variant.family === 'hex';
  const rows = state.rows;
  const cols = state.cols;
  const margin = { left: 8, top: 8, right: 8, bottom: 8 };
  if (!hex && state.row_labels.length) margin.left = 30;
  if (!hex && state.col_labels.length) margin.bottom = 30;
  if (hex) {
    const r = 34;
    const h = (Math.sqrt(3) / 2) * r;
    margin.bottom = 34;
    const place = (row, col) => {
      const [dr, dc] = flipped ? [rows - 1 - row, cols - 1 - col] : [row, col];
      return { x: margin.left + r + dc * 1.5 * r, y: margin.top + h + dr * h };
    };
    return {
      hex, r, h, place,
      width: margin.left + margin.right + 2 * r + (cols - 1) * 1.5 * r,
      height: margin.top + margin.bottom + 2 * h + (rows - 1) * h,
      margin,
    };
  }
  const s = 64;
  const place = (row, col) => {
    const [dr, dc] = flipped ? [rows - 1 - row, cols - 1 - col] : [row, col];
    return { x: margin.left + dc * s + s / 2, y: margin.top + dr * s + s / 2 };
  };
  return {
    hex, s, r: s / 2, place,
    width: margin.left + margin.right + cols * s,
    height: margin.top + margin.bottom + rows * s,
    margin,
  };
}

function hexPoints(x, y, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    pts.push(`${(x + r * Math.cos(a)).toFixed(2)},${(y + r * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(' ');
}

function defs(svg) {
  const d = el('defs', {}, svg);
  const gradient = (id, stops) => {
    const g = el('radialGradient', { id, cx: '38%', cy: '32%', r: '75%' }, d);
    for (const [offset, color] of stops) el('stop', { offset, 'stop-color': color }, g);
  };
  gradient('piece-white', [['0%', '#ffffff'], ['55%', '#f3ead6'], ['100%', '#cbb892']]);
  gradient('piece-black', [['0%', '#6a6560'], ['45%', '#302c29'], ['100%', '#0e0c0b']]);
  const wood = el('linearGradient', { id: 'frame', x1: '0', y1: '0', x2: '1', y2: '1' }, d);
  el('stop', { offset: '0%', 'stop-color': '#7a4e2a' }, wood);
  el('stop', { offset: '100%', 'stop-color': '#4d2f17' }, wood);
}

const CROWN = 'M -0.55 0.32 L -0.62 -0.28 L -0.3 0.02 L 0 -0.42 L 0.3 0.02 L 0.62 -0.28 L 0.55 0.32 Z';

function drawPiece(g, x, y, radius, piece) {
  const white = piece.owner === 'white';
  const fill = white ? 'url(#piece-white)' : 'url(#piece-black)';
  const edge = white ? '#7d6b4f' : '#000000';
  const layers = piece.size ? Math.min(piece.size, 4) : 1;
  const lift = radius * 0.16;
  // A stack shows its lower discs as rims below the top one.
  for (let i = layers - 1; i >= 1; i--) {
    el('circle', { cx: x, cy: y + i * lift, r: radius, fill, stroke: edge, 'stroke-width': 1.5 }, g);
  }
  const top = y;
  el('circle', { cx: x + 1.5, cy: top + 2.5, r: radius, fill: 'rgba(0,0,0,0.25)' }, g).setAttribute('class', 'shadow');
  el('circle', { cx: x, cy: top, r: radius, fill, stroke: edge, 'stroke-width': 1.5 }, g);
  el('circle', {
    cx: x, cy: top, r: radius * 0.72, fill: 'none',
    stroke: white ? 'rgba(125,107,79,0.55)' : 'rgba(255,255,255,0.16)', 'stroke-width': 1.5,
  }, g);
  if (piece.king) {
    const k = radius * (piece.size ? 0.5 : 0.85);
    const dy = piece.size ? -radius * 0.38 : 0;
    el('path', {
      d: CROWN,
      transform: `translate(${x} ${top + dy}) scale(${k})`,
      fill: '#d9a520', stroke: white ? '#6b4e12' : '#f7dc7a', 'stroke-width': 0.08,
      class: 'crown',
    }, g);
  }
  if (piece.size) {
    const fontSize = radius * (piece.king ? 0.7 : 0.95);
    text(String(piece.size), {
      x, y: top + (piece.king ? radius * 0.5 : fontSize * 0.36),
      'font-size': fontSize.toFixed(1), 'text-anchor': 'middle', 'font-weight': '700',
      fill: white ? '#3b2a14' : '#f4ecd8', class: 'size',
    }, g);
  }
}

function renderBoard() {
  const svg = $('board');
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  if (!state) return;
  const geo = geometry();
  svg.setAttribute('viewBox', `0 0 ${geo.width.toFixed(1)} ${geo.height.toFixed(1)}`);
  // The board's width follows its shape, so that a tall (hex) board fits the window too.
  document.documentElement.style.setProperty('--aspect', (geo.width / geo.height).toFixed(3));
  svg.dataset.family = state.variant.family;
  defs(svg);
  if (!geo.hex) {
    el('rect', { x: 0, y: 0, width: geo.width, height: geo.height, rx: 6, fill: 'url(#frame)' }, svg);
  }
  const lastCells = new Set(state.last_path);
  const left = selection.length ? candidates(selection) : [];
  const nextCells = new Set(left.filter((m) => m.path.length > selection.length).map((m) => m.path[selection.length]));
  const endCells = new Set(left.filter((m) => m.path.length > selection.length + 1).map((m) => m.path[m.path.length - 1]));
  const canEndHere = selection.length > 1 && left.some((m) => m.path.length === selection.length);
  const mustCapture = state.moves.length > 0 && state.moves.every((m) => m.capture) && humanToMove();
  const starts = new Set(selection.length === 0 && humanToMove() ? state.moves.map((m) => m.path[0]) : []);
  const deploys = new Set(selection.length === 0 && humanToMove()
    ? state.moves.filter((m) => m.path.length === 1).map((m) => m.path[0]) : []);
  const cellLayer = el('g', { class: 'cells' }, svg);
  const pieceLayer = el('g', { class: 'pieces' }, svg);
  for (const cell of state.cells) {
    const { x, y } = geo.place(cell.row, cell.col);
    const g = el('g', { class: 'cell' }, cellLayer);
    if (geo.hex) {
      const fill = cell.tile === 'white' ? '#f1e3c2' : cell.tile === 'black' ? '#5e3d22' : '#c89b64';
      el('polygon', { points: hexPoints(x, y, geo.r - 1), fill, stroke: '#4d2f17', 'stroke-width': 2 }, g);
    } else {
      const dark = !cell.playable ? false : (state.variant.family === 'orthogonal' ? (cell.row + cell.col) % 2 === 1 : true);
      const fill = !cell.playable ? '#ecd6ad' : dark ? '#a8703f' : '#d6b07c';
      el('rect', { x: x - geo.s / 2, y: y - geo.s / 2, width: geo.s, height: geo.s, fill }, g);
    }
    if (!cell.playable) continue;
    g.dataset.label = cell.label;
    g.setAttribute('data-label', cell.label);
    const shape = (attrs) => geo.hex
      ? el('polygon', { points: hexPoints(x, y, geo.r - 3), ...attrs }, g)
      : el('rect', { x: x - geo.s / 2, y: y - geo.s / 2, width: geo.s, height: geo.s, ...attrs }, g);
    if (lastCells.has(cell.label) || cell.marked) shape({ fill: 'rgba(155,199,0,0.42)', class: 'last' });
    if (selection.includes(cell.label)) shape({ fill: 'rgba(20,110,60,0.55)', class: 'selected' });
    if (mustCapture && starts.has(cell.label) && cell.piece) {
      shape({ fill: 'none', stroke: 'rgba(200,40,30,0.8)', 'stroke-width': 4, class: 'must' });
    }
    const showLabel = state.label_empty && (!cell.piece);
    if (showLabel) {
      const name = geo.hex ? cell.short : cell.label;
      const onDark = geo.hex ? cell.tile === 'black' : true;
      text(name, {
        x: geo.hex ? x : x - geo.s / 2 + 4, y: geo.hex ? y + 5 : y - geo.s / 2 + 14,
        'font-size': geo.hex ? 13 : 12, 'text-anchor': geo.hex ? 'middle' : 'start',
        fill: onDark ? 'rgba(255,240,210,0.75)' : 'rgba(80,50,20,0.6)', class: 'name',
      }, g);
    }
    if (cell.piece) {
      const radius = (geo.hex ? geo.r * 0.62 : geo.s * 0.4);
      const lift = cell.piece.size ? Math.min(cell.piece.size, 4) - 1 : 0;
      const pg = el('g', { class: `piece ${cell.piece.owner}${cell.piece.king ? ' king' : ''}` }, pieceLayer);
      pg.setAttribute('data-label', cell.label);
      drawPiece(pg, x, y - lift * radius * 0.08, radius, cell.piece);
    }
    if (nextCells.has(cell.label)) {
      const target = cell.piece
        ? { cx: x, cy: y, r: (geo.hex ? geo.r : geo.s / 2) * 0.8, fill: 'none', stroke: 'rgba(20,110,60,0.75)', 'stroke-width': 5 }
        : { cx: x, cy: y, r: (geo.hex ? geo.r : geo.s / 2) * 0.28, fill: 'rgba(20,110,60,0.6)' };
      const mark = el('circle', { ...target, class: 'target' }, pieceLayer);
      mark.setAttribute('data-label', cell.label);
    } else if (endCells.has(cell.label)) {
      const mark = el('circle', { cx: x, cy: y, r: (geo.hex ? geo.r : geo.s / 2) * 0.2, fill: 'rgba(20,110,60,0.3)', class: 'end' }, pieceLayer);
      mark.setAttribute('data-label', cell.label);
    } else if (deploys.has(cell.label)) {
      const mark = el('circle', { cx: x, cy: y, r: geo.r * 0.16, fill: 'rgba(20,110,60,0.35)', class: 'deploy' }, pieceLayer);
      mark.setAttribute('data-label', cell.label);
    }
    if (canEndHere && cell.label === selection[selection.length - 1]) {
      const mark = el('circle', { cx: x, cy: y, r: (geo.hex ? geo.r : geo.s / 2) * 0.85, fill: 'none', stroke: 'rgba(230,170,20,0.9)', 'stroke-width': 4, 'stroke-dasharray': '6 4', class: 'end-here' }, pieceLayer);
      mark.setAttribute('data-label', cell.label);
    }
  }
  drawCoordinates(svg, geo);
  runHooks('board', svg, geo);
  drawResult(svg, geo);
  if (window.review) window.review.decorateBoard(svg, geo); // review.js: labels, edge numbers
}

function drawCoordinates(svg, geo) {
  const g = el('g', { class: 'coordinates' }, svg);
  const style = { 'font-size': 15, fill: '#f3e2c0', 'text-anchor': 'middle', 'font-weight': '600' };
  if (geo.hex) {
    // Each column's letter below its lowest cell.
    const lowest = new Map();
    for (const cell of state.cells) {
      const p = geo.place(cell.row, cell.col);
      const col = Math.round(p.x);
      if (!lowest.has(col) || lowest.get(col).y < p.y) lowest.set(col, { y: p.y, col: cell.col });
    }
    for (const [x, { y, col }] of lowest) {
      const name = state.col_labels[col];
      if (name) text(name, { ...style, x, y: y + geo.h + 20, fill: '#5b3a1e' }, g);
    }
    return;
  }
  state.row_labels.forEach((name, row) => {
    const { y } = geo.place(row, 0);
    text(name, { ...style, x: geo.margin.left / 2, y: y + 5 }, g);
  });
  state.col_labels.forEach((name, col) => {
    const { x } = geo.place(0, col);
    text(name, { ...style, x, y: geo.height - geo.margin.bottom / 2 + 5 }, g);
  });
}

function drawResult(svg, geo) {
  const result = gameResult();
  if (!result) return;
  const g = el('g', { class: 'result' }, svg);
  const w = Math.min(geo.width * 0.8, 420);
  el('rect', { x: (geo.width - w) / 2, y: geo.height / 2 - 38, width: w, height: 76, rx: 10, fill: 'rgba(30,20,10,0.82)' }, g);
  text(result.text, { x: geo.width / 2, y: geo.height / 2 - 4, 'font-size': 26, 'font-weight': 700, fill: '#f7e7c4', 'text-anchor': 'middle' }, g);
  text(result.reason, { x: geo.width / 2, y: geo.height / 2 + 24, 'font-size': 15, fill: '#e6d3ad', 'text-anchor': 'middle' }, g);
}

// ---------------------------------------------------------------- panels

function fillVariants() {
  const select = $('variant');
  select.textContent = '';
  const groups = new Map();
  for (const v of variants) {
    if (!groups.has(v.family)) {
      const og = document.createElement('optgroup');
      og.label = FAMILY_NAMES[v.family] || v.family;
      groups.set(v.family, og);
      select.appendChild(og);
    }
    const option = document.createElement('option');
    option.value = v.name;
    option.textContent = v.aliases.length ? `${v.name} (${v.aliases.join(', ')})` : v.name;
    option.title = v.description;
    groups.get(v.family).appendChild(option);
  }
  if (state) select.value = state.variant.name;
}

function renderHistory() {
  const list = $('history');
  list.textContent = '';
  // Move 1 begins with the variant's first player (Black in English checkers): only a game set
  // up with the other side to move starts with `1. …`.
  const offset = state.first_side !== state.start_side ? 1 : 0;
  let item = null;
  state.history.forEach((move, i) => {
    const ply = i + offset;
    if (ply % 2 === 0 || item === null) {
      item = document.createElement('li');
      item.value = Math.floor(ply / 2) + 1;
      if (ply % 2 === 1) {
        const gap = document.createElement('span');
        gap.className = 'move';
        gap.textContent = '…';
        item.appendChild(gap);
      }
      list.appendChild(item);
    }
    const span = document.createElement('span');
    span.className = 'move';
    span.textContent = move;
    if (i === state.history.length - 1) span.classList.add('last');
    item.appendChild(span);
  });
  list.scrollTop = list.scrollHeight;
  const result = gameResult();
  $('result').textContent = result ? `${result.text} (${result.reason})` : '';
}

function renderLines() {
  if (hooks.lines.length) { runHooks('lines', lines); return; }
  const body = $('lines').tBodies[0];
  body.textContent = '';
  for (const line of lines) {
    const row = document.createElement('tr');
    const pv = line.pv.split(' ').filter((m) => m);
    for (const value of [line.depth, line.score, formatNodes(line.nodes)]) {
      const cell = document.createElement('td');
      cell.textContent = String(value);
      row.appendChild(cell);
    }
    // One unbreakable span per move: a line wraps between moves, never inside one (`1-` / `7`).
    const cell = document.createElement('td');
    cell.className = 'pv';
    const shown = pv.length > 12 ? pv.slice(0, 12).concat(['…']) : pv;
    shown.forEach((move, i) => {
      if (i > 0) cell.appendChild(document.createTextNode(' '));
      const span = document.createElement('span');
      span.className = 'pv-move';
      span.textContent = move;
      cell.appendChild(span);
    });
    row.appendChild(cell);
    body.appendChild(row);
  }
}

function formatNodes(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)}k`;
  return String(n);
}

function setStatus(message) {
  $('status').textContent = message;
}

function updateStatus(info) {
  document.body.dataset.searching = search ? search.mode : '';
  if (!state) return;
  const result = gameResult();
  if (result) {
    setStatus(`Game over: ${result.text} (${result.reason})`);
    return;
  }
  const side = state.side === 'white' ? 'White' : 'Black';
  if (search && search.mode === 'go') {
    const extra = info ? ` (depth ${info.depth}, ${info.score})` : '';
    setStatus(`${side} to move: the engine is thinking…${extra}`);
  } else {
    const who = players(state.side) === 'engine' ? 'engine' : 'you';
    setStatus(`${side} to move (${who})`);
  }
}

function updateAnalyseButton() {
  const button = $('analyse');
  button.textContent = analysing ? 'Stop' : 'Start';
  button.setAttribute('aria-pressed', String(analysing));
}

let messageTimer = null;
function showMessage(message) {
  const box = $('message');
  box.textContent = message;
  box.hidden = false;
  document.body.dataset.lastError = message;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

async function copy(value) {
  try {
    await navigator.clipboard.writeText(value);
    showMessage('copied');
  } catch (e) {
    // Clipboard access needs a secure context; fall back to selecting the text.
    const area = document.createElement('textarea');
    area.value = value;
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand && document.execCommand('copy');
    area.remove();
    showMessage(ok ? 'copied' : 'select the text and copy it by hand');
  }
}

// How many plies a take-back removes: back to the last position a person had to move in.
function undoPlies() {
  const n = state.history.length;
  if (n === 0) return 1;
  const sideBefore = (k) => (k % 2 === 0 ? state.side : (state.side === 'white' ? 'black' : 'white'));
  for (let k = 1; k <= Math.min(n, 2); k++) {
    if (players(sideBefore(k)) === 'human') return k;
  }
  return 1;
}

// Whether the board holds a game with moves that would be lost by starting another.
function gameUnderWay() {
  return Boolean(state && state.history.length > 0);
}

// Asks before a game with moves is thrown away: true when there is none or the person agrees.
function keepGame(question) {
  if (!gameUnderWay()) return true;
  const n = state.history.length;
  return window.confirm(`${question} The current game (${n} ${n === 1 ? 'move' : 'moves'}) will be lost.`);
}

function wire() {
  $('board').addEventListener('click', (event) => {
    const target = event.target.closest('[data-label]');
    if (target) onCellClick(target.getAttribute('data-label'));
  });
  // A drag from one cell to another is a click on each (a press and release on the same cell
  // is an ordinary click, handled above).
  let dragFrom = null;
  // The cell under the pointer, not the event's target: a touch keeps the pressed cell as the
  // target of its whole gesture.
  const labelAt = (event) => {
    const under = document.elementFromPoint(event.clientX, event.clientY) || event.target;
    const target = under.closest && under.closest('[data-label]');
    return target ? target.getAttribute('data-label') : null;
  };
  $('board').addEventListener('pointerdown', (event) => { dragFrom = labelAt(event); });
  $('board').addEventListener('pointerup', (event) => {
    const to = labelAt(event);
    if (dragFrom && to && to !== dragFrom) {
      if (selection[selection.length - 1] !== dragFrom) onCellClick(dragFrom);
      if (selection.length > 0) onCellClick(to);
    }
    dragFrom = null;
  });
  $('variant').addEventListener('change', () => {
    const wanted = $('variant').value;
    const title = (window.variantTitles && window.variantTitles.get(wanted)) || wanted;
    if (!keepGame(`Start a new game of ${title}?`)) {
      $('variant').value = state.variant.name;
      return;
    }
    send({ type: 'new', variant: wanted });
  });
  // Leaving or reloading the page throws the game away: the browser asks first.
  window.addEventListener('beforeunload', (event) => {
    if (!gameUnderWay()) return;
    event.preventDefault();
    event.returnValue = '';
  });
  $('new').addEventListener('click', () => state && send({ type: 'new', variant: state.variant.name }));
  $('undo').addEventListener('click', () => state && send({ type: 'undo', plies: undoPlies() }));
  $('flip').addEventListener('click', () => { flipped = !flipped; renderBoard(); });
  $('pass').addEventListener('click', () => {
    const pass = state && state.moves.find((m) => m.path.length === 0);
    if (pass) play(pass);
  });
  for (const id of ['white-player', 'black-player']) {
    $(id).addEventListener('change', () => {
      if (state && !search) next();
      if (state) { $('pass').hidden = !state.moves.some((m) => m.path.length === 0) || players(state.side) !== 'human'; }
      updateStatus();
    });
  }
  $('limit-kind').addEventListener('change', () => {
    const depth = $('limit-kind').value === 'depth';
    $('limit-value').value = depth ? '8' : '1';
    $('limit-value').step = depth ? '1' : '0.1';
    $('limit-value').min = depth ? '1' : '0.1';
  });
  $('engine-move').addEventListener('click', () => state && !gameResult() && send({ type: 'go', ...limit(), ...searchOptions('go') }));
  $('analyse').addEventListener('click', () => {
    analysing = !analysing;
    updateAnalyseButton();
    if (analysing) {
      if (state && !gameResult()) send({ type: 'analyse', ...searchOptions('analyse') });
    } else {
      send({ type: 'stop' });
    }
  });
  $('load-fen').addEventListener('click', () => send({ type: 'load', fen: $('fen').value.trim() }));
  $('fen').addEventListener('keydown', (e) => { if (e.key === 'Enter') send({ type: 'load', fen: $('fen').value.trim() }); });
  $('copy-fen').addEventListener('click', () => state && copy(state.fen));
  $('load-pdn').addEventListener('click', () => {
    loadingGame = true;
    send({ type: 'load', pdn: $('pdn').value });
  });
  $('copy-pdn').addEventListener('click', () => state && copy(state.pdn));
}

wire();
// analysis.js and play.js register their hooks before the first message can arrive.
window.addEventListener('load', connect);
