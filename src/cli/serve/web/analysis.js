// Polydam's analysis panel: several lines at once (multi-PV), scores from White's point of
// view in men, an evaluation bar, the best move as an arrow on the board, the engine's threads
// and table, and what the endgame tables say. Loaded after board.js, whose hooks it uses.
'use strict';

const analysis = {
  latest: null,   // the last analysis `info` of the current position
  geo: null,      // the board's geometry, from the last drawing
};

// ---------------------------------------------------------------- controls

function buildAnalysisControls() {
  const panel = $('analysis');
  const row = document.createElement('div');
  row.className = 'row analysis-options';
  const select = (id, label, options, value, title) => {
    const wrap = document.createElement('label');
    wrap.textContent = `${label} `;
    wrap.title = title;
    const s = document.createElement('select');
    s.id = id;
    for (const [v, name] of options) {
      const o = document.createElement('option');
      o.value = String(v);
      o.textContent = name;
      s.appendChild(o);
    }
    s.value = String(value);
    wrap.appendChild(s);
    row.appendChild(wrap);
    return s;
  };
  select('multipv', 'Lines', [1, 2, 3, 4, 5, 6, 8, 10].map((n) => [n, String(n)]), 3,
    'How many of the best moves the analysis shows, each with its line');
  const cores = Math.max(1, Math.min(64, navigator.hardwareConcurrency || 1));
  select('threads', 'Threads', Array.from({ length: cores }, (_, i) => [i + 1, String(i + 1)]), 1,
    'Search threads of the engine (at most this machine\'s cores)');
  select('hash', 'Hash', [16, 32, 64, 128, 256, 512, 1024].map((n) => [n, `${n} MiB`]), 32,
    'The engine\'s transposition table (changing it empties the table)');
  panel.insertBefore(row, $('lines'));
  // A change applies at once to a running analysis.
  for (const id of ['multipv', 'threads', 'hash']) {
    $(id).addEventListener('change', () => {
      if (analysing && state && !gameResult()) send({ type: 'analyse', ...searchOptions('analyse') });
    });
  }
  const summary = document.createElement('div');
  summary.id = 'analysis-summary';
  summary.setAttribute('aria-live', 'polite');
  panel.insertBefore(summary, $('lines'));

  const bar = document.createElement('div');
  bar.id = 'eval-bar';
  bar.title = 'Evaluation, White\'s point of view';
  bar.innerHTML = '<div class="white-part"></div><span class="eval-text"></span>';
  bar.hidden = true;
  $('board-area').insertBefore(bar, $('board-frame'));
}

// ---------------------------------------------------------------- scores

// A score of the side to move (`score` text, `centi`) from White's point of view:
// {text, centi, mate} where mate is 'white' / 'black' for a forced win.
function whiteScore(score, centi, side) {
  const sign = side === 'white' ? 1 : -1;
  const forced = /^(win|loss) (\d+)$/.exec(score);
  if (forced) {
    const moverWins = forced[1] === 'win';
    const winner = (moverWins === (side === 'white')) ? 'White' : 'Black';
    const plies = Number(forced[2]);
    return { text: `${winner} wins in ${plies} ${plies === 1 ? 'ply' : 'plies'}`, centi: winner === 'White' ? 10000 : -10000, mate: winner };
  }
  const c = sign * centi;
  const men = (c / 100).toFixed(2);
  return { text: `${c >= 0 ? '+' : ''}${men} men`, centi: c, mate: null };
}

// The share of the bar that is White's, from 0 to 1, for a score in hundredths of a man.
function whiteShare(centi) {
  if (centi >= 10000) return 1;
  if (centi <= -10000) return 0;
  return 1 / (1 + Math.exp(-centi / 150));
}

// The lines of an `info`: its `lines` (multi-PV), else its one line.
function infoLines(msg) {
  if (msg.lines && msg.lines.length) return msg.lines;
  return [{ score: msg.score, centi: msg.centi, pv: msg.pv }];
}

// The table verdict from White's point of view.
function tableText(verdict, side) {
  if (!verdict) return '';
  if (verdict === 'draw') return 'table: draw';
  const moverWins = verdict === 'win';
  const whiteWins = moverWins === (side === 'white');
  return `table: ${whiteWins ? 'win' : 'loss'} (White's view)`;
}

// ---------------------------------------------------------------- drawing

function renderAnalysisLines() {
  const table = $('lines');
  const head = table.tHead.rows[0];
  if (head.dataset.multipv !== 'yes') {
    head.dataset.multipv = 'yes';
    head.innerHTML = '<th>#</th><th>score (White)</th><th>depth</th><th>line</th>';
  }
  const body = table.tBodies[0];
  body.textContent = '';
  const msg = analysis.latest;
  const summary = $('analysis-summary');
  const bar = $('eval-bar');
  if (!msg || !state) {
    summary.textContent = '';
    bar.hidden = true;
    return;
  }
  const side = state.side;
  // Several lines: one row each, best first. One line (one asked for, or a single legal
  // move): the last iterations, newest first, as board.js's `lines` keeps them.
  const several = infoLines(msg).length > 1;
  const rows = several
    ? infoLines(msg).map((line, i) => ({ rank: String(i + 1), depth: msg.depth, line }))
    : lines.map((info) => ({ rank: '1', depth: info.depth, line: infoLines(info)[0] }));
  rows.forEach(({ rank, depth, line }) => {
    const row = document.createElement('tr');
    const score = whiteScore(line.score, line.centi, side);
    for (const value of [rank, score.text, String(depth)]) {
      const cell = document.createElement('td');
      cell.textContent = value;
      row.appendChild(cell);
    }
    row.cells[1].className = 'score';
    // One unbreakable span per move: a line wraps between moves, never inside one.
    const cell = document.createElement('td');
    cell.className = 'pv';
    const pv = line.pv.split(' ').filter((m) => m);
    const shown = pv.length > 12 ? pv.slice(0, 12).concat(['…']) : pv;
    shown.forEach((move, k) => {
      if (k > 0) cell.appendChild(document.createTextNode(' '));
      const span = document.createElement('span');
      span.className = 'pv-move';
      span.textContent = move;
      cell.appendChild(span);
    });
    row.appendChild(cell);
    body.appendChild(row);
  });
  const best = whiteScore(msg.score, msg.centi, side);
  const table_ = tableText(msg.tables, side);
  summary.textContent = `depth ${msg.depth}, ${formatNodes(msg.nodes)} nodes, ${formatNodes(msg.nps)} nodes/s`
    + (msg.tbhits ? `, ${formatNodes(msg.tbhits)} table hits` : '')
    + (table_ ? ` — ${table_}` : '');
  document.body.dataset.tables = table_;
  bar.hidden = false;
  bar.querySelector('.white-part').style.width = `${(whiteShare(best.centi) * 100).toFixed(1)}%`;
  bar.querySelector('.eval-text').textContent = best.text;
  bar.dataset.centi = String(best.centi);
}

// The legal move whose text is `text`, in the current position.
function legalMoveByText(text) {
  return state.moves.find((m) => m.text === text) || null;
}

function drawArrow() {
  const svg = $('board');
  const old = svg.querySelector('g.best-arrow');
  if (old) old.remove();
  const msg = analysis.latest;
  const geo = analysis.geo;
  if (!msg || !geo || !state || gameResult()) return;
  const first = infoLines(msg)[0].pv.split(' ').filter((m) => m)[0];
  const move = first && legalMoveByText(first);
  if (!move || move.path.length === 0) return;
  const points = move.path.map((label) => {
    const cell = state.cells.find((c) => c.label === label);
    return cell ? geo.place(cell.row, cell.col) : null;
  }).filter((p) => p);
  if (points.length === 0) return;
  const g = el('g', { class: 'best-arrow', 'pointer-events': 'none' }, null);
  // Drawn before the result banner, if any, and above the pieces.
  const banner = svg.querySelector('g.result');
  svg.insertBefore(g, banner);
  g.dataset.move = first;
  const size = geo.hex ? geo.r : geo.s;
  const color = 'rgba(30,90,200,0.78)';
  if (points.length === 1) {
    el('circle', { cx: points[0].x, cy: points[0].y, r: size * 0.42, fill: 'none', stroke: color, 'stroke-width': size * 0.1 }, g);
    return;
  }
  // Stop short of the last centre so that the head sits on the landing square.
  const last = points[points.length - 1];
  const prev = points[points.length - 2];
  const dx = last.x - prev.x;
  const dy = last.y - prev.y;
  const len = Math.hypot(dx, dy) || 1;
  const head = size * 0.32;
  const tip = { x: last.x - (dx / len) * size * 0.12, y: last.y - (dy / len) * size * 0.12 };
  const base = { x: tip.x - (dx / len) * head, y: tip.y - (dy / len) * head };
  const body = points.slice(0, -1).concat([base]);
  el('polyline', {
    points: body.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' '),
    fill: 'none', stroke: color, 'stroke-width': size * 0.14, 'stroke-linecap': 'round', 'stroke-linejoin': 'round',
  }, g);
  const nx = -dy / len;
  const ny = dx / len;
  const w = size * 0.2;
  el('polygon', {
    points: [tip, { x: base.x + nx * w, y: base.y + ny * w }, { x: base.x - nx * w, y: base.y - ny * w }]
      .map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' '),
    fill: color,
  }, g);
}

// ---------------------------------------------------------------- hooks

// Every search gets the threads and table; only an analysis gets several lines (a move to
// play is found faster with one).
hooks.options.push((mode) => ({
  ...(mode === 'analyse' ? { multipv: Number($('multipv').value) || 1 } : {}),
  threads: Number($('threads').value) || 1,
  hash: Number($('hash').value) || 32,
}));
// A new position: its lines and arrow come with its own analysis.
hooks.state.push(() => { analysis.latest = null; renderAnalysisLines(); drawArrow(); });
hooks.info.push((msg) => {
  if (!search || search.mode !== 'analyse' || msg.search !== search.id) return;
  analysis.latest = msg;
  renderAnalysisLines();
  drawArrow();
});
hooks.lines.push(() => renderAnalysisLines());
hooks.board.push((svg, geo) => { analysis.geo = geo; drawArrow(); });

buildAnalysisControls();
