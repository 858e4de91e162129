// Polydam's board page, review and reading: the game as a tree in the move list (click a move,
// arrow keys, Home/End), variations and comments, download as .pdn, links that reopen a game,
// a text box for typed moves, square names for screen readers, and the board's notation
// (edge numbers, numbers under pieces, numeric or algebraic moves). Loaded after board.js,
// whose globals (state, send, $, showMessage, loadingGame, players, ...) it uses; board.js
// calls window.review's hooks (onState, onError, decorateBoard, reviewing). See docs/web.md.
'use strict';

(function () {
  const review = {};
  window.review = review;

  let pendingLink = readLink();  // a game or position to open once connected
  let pendingPly = null;         // then the ply to show in it (links of the main line)
  let pendingPath = null;        // or the moves from the start to the move to show
  let typed = null;              // a move typed in the box, waiting for its answer
  let playingOn = false;         // "Play on from here": the engine may play inside the game
  let numbersOnPieces = null;    // null: the board's default (on for 12x12)
  let numeric = false;           // moves with numbers where the variant writes algebraic
  let target = null;             // the node asked for, until the server shows it

  // ------------------------------------------------------------ the game tree

  function nodes() { return state.nodes; }

  // Move number and whether the move at `ply` (1 = the first move) is the first player's.
  function numbering(ply) {
    const offset = state.first_side !== state.start_side ? 1 : 0;
    const p = ply - 1 + offset;
    return { number: Math.floor(p / 2) + 1, first: p % 2 === 0 };
  }

  // Whether the page shows an earlier position of the game (the engine does not play there
  // unless asked to play on).
  review.reviewing = function () {
    if (!state || !state.nodes || playingOn) return false;
    return state.nodes[state.node].children.length > 0;
  };

  // The node shown, or the one asked for last (keys pressed quickly step on from there).
  function here() {
    return target !== null && target < state.nodes.length ? target : state.node;
  }

  function goto(id) {
    if (!state || id === here() || id < 0 || id >= state.nodes.length) return;
    playingOn = false;
    target = id;
    send({ type: 'goto', node: id });
  }

  function lineEnd(id) {
    let at = id;
    while (nodes()[at].children.length) at = nodes()[at].children[0];
    return at;
  }

  review.first = () => state && goto(0);
  review.previous = () => state && nodes()[here()].parent !== null && goto(nodes()[here()].parent);
  review.next = () => state && nodes()[here()].children.length && goto(nodes()[here()].children[0]);
  review.last = () => state && goto(lineEnd(here()));

  // Annotation glyphs as annotators print them: numeric glyphs with a common sign shown as it,
  // the others as written ($N); the meaning in the tooltip.
  const GLYPHS = {
    '!': ['!', 'good move'], '?': ['?', 'mistake'], '!!': ['!!', 'brilliant move'],
    '??': ['??', 'blunder'], '!?': ['!?', 'interesting move'], '?!': ['?!', 'dubious move'],
    $1: ['!', 'good move'], $2: ['?', 'mistake'], $3: ['!!', 'brilliant move'],
    $4: ['??', 'blunder'], $5: ['!?', 'interesting move'], $6: ['?!', 'dubious move'],
    $7: ['□', 'only move'], $10: ['=', 'equal position'], $13: ['∞', 'unclear position'],
    // ⩲ and ⩱ are missing from common fonts: written as in print without them.
    $14: ['+=', 'White is slightly better'], $15: ['=+', 'Black is slightly better'],
    $16: ['±', 'White is better'], $17: ['∓', 'Black is better'],
    $18: ['+−', 'White is winning'], $19: ['−+', 'Black is winning'],
  };

  function markSpan(marks) {
    const span = document.createElement('span');
    span.className = 'mark';
    const signs = marks.map((m) => (GLYPHS[m] ? GLYPHS[m][0] : m));
    // Move marks glued to the move, signs of the position after a thin space, as printed.
    span.textContent = signs.map((t) => (/^[!?□]+$/.test(t) ? t : `\u2009${t}`)).join('');
    span.title = marks.map((m) => (GLYPHS[m] ? GLYPHS[m][1] : `annotation ${m}`)).join(', ');
    return span;
  }

  function moveSpan(id) {
    const span = document.createElement('span');
    span.className = 'move';
    span.dataset.node = String(id);
    span.textContent = shown(nodes()[id].move);
    const marks = nodes()[id].marks || [];
    if (marks.length) span.append(markSpan(marks));
    span.setAttribute('role', 'button');
    if (id === state.node) {
      span.classList.add('current', 'last');
      span.setAttribute('aria-current', 'step');
    }
    return span;
  }

  function commentSpan(text) {
    const span = document.createElement('span');
    span.className = 'comment';
    span.textContent = text;
    return span;
  }

  function numberSpan(text) {
    const span = document.createElement('span');
    span.className = 'number';
    span.textContent = text;
    return span;
  }

  // A variation beginning with node `start`, in brackets, its own variations nested.
  function variationSpan(start) {
    const parts = [];
    let id = start;
    let numbered = false;
    let firstInLine = true;
    while (id !== undefined) {
      const node = nodes()[id];
      const { number, first } = numbering(node.ply);
      if (first) parts.push(numberSpan(`${number}.`));
      else if (!numbered) parts.push(numberSpan(`${number}…`));
      parts.push(moveSpan(id));
      numbered = true;
      if (node.comment) { parts.push(commentSpan(node.comment)); numbered = false; }
      if (!firstInLine) {
        for (const k of nodes()[node.parent].children.slice(1)) { parts.push(variationSpan(k)); numbered = false; }
      }
      firstInLine = false;
      id = node.children[0];
    }
    const span = document.createElement('span');
    span.className = 'variation';
    // Spaces between the parts: the text reads as PDN does, also to a screen reader.
    span.append('(');
    parts.forEach((part, i) => span.append(...(i ? [' ', part] : [part])));
    span.append(')');
    return span;
  }

  // The move list: the main line by move numbers, each variation in brackets below the move it
  // replaces, comments after their moves.
  function renderTree() {
    const list = $('history');
    list.textContent = '';
    const all = nodes();
    if (all[0].comment) {
      const li = document.createElement('li');
      li.className = 'note';
      li.append(commentSpan(all[0].comment));
      list.append(li);
    }
    let item = null;
    let parent = 0;
    while (all[parent].children.length) {
      const id = all[parent].children[0];
      const node = all[id];
      const { number, first } = numbering(node.ply);
      if (first || item === null) {
        item = document.createElement('li');
        item.value = number;
        if (!first) {
          const gap = document.createElement('span');
          gap.className = 'move gap';
          gap.textContent = '…';
          item.append(gap);
        }
        list.append(item);
      }
      if (item.childNodes.length) item.append(' ');
      item.append(moveSpan(id));
      let broken = false;
      if (node.comment) { item.append(' ', commentSpan(node.comment)); broken = true; }
      const variations = all[parent].children.slice(1);
      if (variations.length) {
        const li = document.createElement('li');
        li.className = 'note';
        variations.forEach((k, i) => li.append(...(i ? [' ', variationSpan(k)] : [variationSpan(k)])));
        list.append(li);
        broken = true;
      }
      if (broken) item = null;
      parent = id;
    }
    const current = list.querySelector('.move.current');
    if (current) {
      const box = list.getBoundingClientRect();
      const at = current.getBoundingClientRect();
      if (at.top < box.top || at.bottom > box.bottom) list.scrollTop += at.top - box.top - box.height / 2;
    } else {
      list.scrollTop = 0;
    }
  }

  function renderWhere() {
    const node = nodes()[state.node];
    const mainEnd = lineEnd(0);
    let onMain = true;
    for (let at = state.node; at !== null; at = nodes()[at].parent) {
      const parent = nodes()[at].parent;
      if (parent !== null && nodes()[parent].children[0] !== at) onMain = false;
    }
    const total = nodes()[mainEnd].ply;
    let text;
    if (node.ply === 0) text = `start (${total} ${total === 1 ? 'ply' : 'plies'} in the game)`;
    else {
      const { number, first } = numbering(node.ply);
      text = `${number}${first ? '.' : '…'} ${shown(node.move)}${onMain ? '' : ' (variation)'}`;
    }
    $('review-where').textContent = text;
    $('review-tags').textContent = gameTitle();
    $('review-comment').value = node.comment || '';
    $('play-on').hidden = !review.reviewing();
    document.body.dataset.node = String(state.node);
  }

  // ------------------------------------------------------------ hooks from board.js

  review.onState = function (msg) {
    if (!msg.nodes) return;
    if (target === msg.node) target = null;
    renderTree();
    renderWhere();
    if (typed !== null) {
      typed = null;
      $('move-input').value = '';
      setMoveError('');
    }
    if (pendingLink) {
      const link = pendingLink;
      pendingLink = null;
      openLink(link);
    } else if (pendingPath !== null) {
      const path = pendingPath;
      pendingPath = null;
      // Follows the moves through the tree; a move the game does not hold stops there.
      let at = 0;
      for (const mv of path) {
        const next = nodes()[at].children.find((k) => nodes()[k].move === mv);
        if (next === undefined) break;
        at = next;
      }
      goto(at);
    } else if (pendingPly !== null) {
      const ply = pendingPly;
      pendingPly = null;
      let at = 0;
      for (let i = 0; i < ply && nodes()[at].children.length; i++) at = nodes()[at].children[0];
      goto(at);
    }
  };

  review.onError = function (msg) {
    if (typed !== null && msg.request === 'move') {
      setMoveError(`${typed}: ${msg.message}`);
      typed = null;
    }
    pendingPly = null;
    pendingPath = null;
    target = null;
  };

  // ------------------------------------------------------------ download and links

  // The game's players, event, date and result, from its PDN tags (empty for a game of ours).
  function gameTitle() {
    const tag = (name) => { const v = tagOf(state.pdn, name); return v && v !== '?' ? v : ''; };
    const names = [tag('White'), tag('Black')];
    const parts = [];
    if (names[0] || names[1]) parts.push(`${names[0] || '?'} – ${names[1] || '?'}`);
    const event = tag('Event');
    if (event && event !== 'polydam serve') parts.push(event);
    // A game of ours has only its date to say: no title.
    if (!parts.length) return '';
    for (const name of ['Site', 'Date']) if (tag(name)) parts.push(tag(name));
    if (parts.length && tag('Result') && tag('Result') !== '*') parts.push(tag('Result'));
    return parts.join(', ');
  }

  function tagOf(pdn, name) {
    const m = pdn.match(new RegExp(`^\\[${name} "((?:[^"\\\\]|\\\\.)*)"\\]`, 'm'));
    return m ? m[1].replace(/\\(.)/g, '$1') : '';
  }

  function fileName() {
    const white = tagOf(state.pdn, 'White');
    const black = tagOf(state.pdn, 'Black');
    const date = tagOf(state.pdn, 'Date').replace(/\?/g, '');
    const known = (s) => s && s !== '?';
    const parts = known(white) || known(black)
      ? [white || '?', black || '?', date] : ['polydam', state.variant.name, date];
    const base = parts.filter((s) => s).join('-').replace(/[^A-Za-z0-9._-]+/g, '_');
    return `${base || 'game'}.pdn`;
  }

  review.download = function () {
    if (!state) return;
    const blob = new Blob([state.pdn], { type: 'application/octet-stream' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = fileName();
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 30000);
    showMessage(`saved ${a.download}`);
  };

  // The page's address with the game in its fragment: the variant, the whole game as PDN (its
  // tags, variations, comments and marks) and the moves from the start to the move shown.
  review.link = function () {
    const all = nodes();
    const path = [];
    for (let at = state.node; all[at].parent !== null; at = all[at].parent) path.unshift(all[at].move);
    const params = new URLSearchParams();
    params.set('variant', state.variant.name);
    params.set('pdn', state.pdn);
    if (path.length) params.set('at', path.join(' '));
    return `${location.origin}${location.pathname}#${params.toString()}`;
  };

  // A link's game: a whole PDN (`pdn`, shown at the moves `at`), or, as earlier links wrote
  // it, a first position (`fen`), the moves of one line (`moves`) and the ply shown (`ply`).
  function readLink() {
    if (!location.hash || location.hash.length < 2) return null;
    const params = new URLSearchParams(location.hash.slice(1));
    const variant = params.get('variant');
    if (!variant) return null;
    const ply = Number(params.get('ply'));
    const at = params.get('at');
    return {
      variant,
      pdn: params.get('pdn'),
      at: at ? at.split(' ').filter((m) => m) : [],
      fen: params.get('fen'),
      moves: params.get('moves') || '',
      ply: Number.isInteger(ply) && ply >= 0 && params.has('ply') ? ply : null,
    };
  }

  function quoted(text) {
    return `"${String(text).replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  }

  function openLink(link) {
    if (link.pdn) {
      pendingPath = link.at;
      loadingGame = true;
      send({ type: 'load', pdn: link.pdn });
      return;
    }
    const tags = [`[Variant ${quoted(link.variant)}]`];
    if (link.fen) tags.push(`[FEN ${quoted(link.fen)}]`);
    pendingPly = link.ply;
    loadingGame = true;
    send({ type: 'load', pdn: `${tags.join('\n')}\n\n${link.moves} *\n` });
  }

  // ------------------------------------------------------------ typed moves

  function setMoveError(text) {
    const box = $('move-error');
    box.textContent = text;
    box.hidden = !text;
    document.body.dataset.moveError = text;
  }

  function playTyped() {
    const input = $('move-input');
    const text = input.value.trim();
    if (!text || !state) return;
    if (state.result) { setMoveError('the game is over: take back, load or start a new game'); return; }
    if (players(state.side) !== 'human') { setMoveError(`it is the engine's move (${state.side})`); return; }
    typed = text;
    // Numbers where the variant writes algebraic are read by the server as they are.
    send({ type: 'move', text });
  }

  // ------------------------------------------------------------ notation

  // A move in the notation chosen: numbers for an algebraic variant's squares when asked.
  function shown(text) {
    if (!numeric || !algebraic()) return text;
    const numbers = squareNumbers();
    return text.replace(/[a-z][0-9]{1,2}/g, (sq) => numbers.get(sq) || sq).replace(/:/g, 'x');
  }

  function algebraic() {
    return state && state.variant.family === 'diagonal' && state.col_labels.length > 0;
  }

  // The squares' numbers of a diagonal board: its playable squares counted row by row from the
  // top left as White sees it (a3 = 21 in Russian, as the engine's Hub form writes it).
  function squareNumbers() {
    const cells = state.cells.filter((c) => c.playable)
      .sort((a, b) => a.row - b.row || a.col - b.col);
    return new Map(cells.map((c, i) => [c.label, String(i + 1)]));
  }

  function numberedBoard() {
    return state.variant.family === 'diagonal' && state.label_empty && state.row_labels.length === 0;
  }

  function pieceName(piece) {
    if (!piece) return 'empty';
    const kind = piece.size ? `stack of ${piece.size}` : (piece.king ? 'king' : 'man');
    return `${piece.owner} ${kind}${piece.size && piece.king ? ' with a king on top' : ''}`;
  }

  // Called at the end of board.js's renderBoard: square names for screen readers, the numbers
  // of the edge squares beside a numbered board, and numbers on occupied squares.
  review.decorateBoard = function (svg, geo) {
    if (!state) return;
    svg.setAttribute('role', 'group');
    svg.setAttribute('aria-label', `board, ${state.side} to move`);
    const byLabel = new Map(state.cells.filter((c) => c.playable).map((c) => [c.label, c]));
    for (const g of svg.querySelectorAll('.cells .cell[data-label]')) {
      const cell = byLabel.get(g.getAttribute('data-label'));
      if (!cell) continue;
      g.setAttribute('role', 'img');
      g.setAttribute('aria-label', `${cell.label}: ${pieceName(cell.piece)}`);
    }
    for (const layer of svg.querySelectorAll('.pieces, .coordinates')) layer.setAttribute('aria-hidden', 'true');
    if (geo.hex || !numberedBoard()) return;
    // The numbers of each row's first and last squares, left and right of the board.
    const side = 30;
    svg.setAttribute('viewBox', `${-side} 0 ${(geo.width + 2 * side).toFixed(1)} ${geo.height.toFixed(1)}`);
    document.documentElement.style.setProperty('--aspect', ((geo.width + 2 * side) / geo.height).toFixed(3));
    const frame = el('rect', { x: -side, y: 0, width: geo.width + 2 * side, height: geo.height, rx: 6, fill: 'url(#frame)' });
    const defsNode = svg.querySelector('defs');
    svg.insertBefore(frame, defsNode ? defsNode.nextSibling : svg.firstChild);
    const edges = el('g', { class: 'edge-numbers', 'aria-hidden': 'true' }, svg);
    const rows = new Map();
    for (const cell of state.cells) {
      if (!cell.playable) continue;
      const p = geo.place(cell.row, cell.col);
      const row = rows.get(cell.row) || [];
      row.push({ x: p.x, y: p.y, label: cell.label });
      rows.set(cell.row, row);
    }
    const style = { 'font-size': 14, fill: '#f3e2c0', 'text-anchor': 'middle', 'font-weight': '600' };
    for (const row of rows.values()) {
      row.sort((a, b) => a.x - b.x);
      const y = row[0].y + 5;
      text(row[0].label, { ...style, x: -side / 2 + 4, y }, edges);
      text(row[row.length - 1].label, { ...style, x: geo.width + side / 2 - 4, y }, edges);
    }
    const onPieces = numbersOnPieces === null ? state.rows >= 12 : numbersOnPieces;
    if (!onPieces) return;
    const names = el('g', { class: 'piece-numbers', 'aria-hidden': 'true' }, svg);
    for (const cell of state.cells) {
      if (!cell.playable || !cell.piece) continue;
      const { x, y } = geo.place(cell.row, cell.col);
      text(cell.label, {
        x: x - geo.s / 2 + 3, y: y - geo.s / 2 + 13, 'font-size': 12, 'font-weight': '700',
        fill: '#fff6e0', stroke: '#3b2412', 'stroke-width': 3, 'paint-order': 'stroke', class: 'name',
      }, names);
    }
  };

  // ------------------------------------------------------------ controls

  function button(id, label, title, onClick) {
    const b = document.createElement('button');
    b.id = id;
    b.type = 'button';
    b.textContent = label;
    b.title = title;
    b.setAttribute('aria-label', title);
    b.addEventListener('click', onClick);
    return b;
  }

  function build() {
    // The move box, first among the board's controls.
    const form = document.createElement('form');
    form.id = 'move-form';
    form.innerHTML = '<label for="move-input">Move</label> '
      + '<input id="move-input" autocomplete="off" spellcheck="false" placeholder="32-28, 32x23"'
      + ' aria-describedby="move-error" aria-label="type a move, then Enter">'
      + '<span id="move-error" role="status" aria-live="assertive" hidden></span>';
    form.addEventListener('submit', (e) => { e.preventDefault(); playTyped(); });
    const buttons = document.querySelector('#board-area .buttons');
    buttons.parentNode.insertBefore(form, buttons);
    $('move-input').addEventListener('input', () => setMoveError(''));

    // Review controls under the move list.
    const history = $('history');
    const bar = document.createElement('div');
    bar.id = 'review-bar';
    bar.className = 'row';
    bar.append(
      button('review-first', '«', 'first position (Home)', () => review.first()),
      button('review-previous', '‹', 'previous move (left arrow)', () => review.previous()),
      button('review-next', '›', 'next move (right arrow)', () => review.next()),
      button('review-last', '»', 'last move of the line (End)', () => review.last()),
    );
    const tags = document.createElement('div');
    tags.id = 'review-tags';
    history.parentNode.insertBefore(tags, history);
    const where = document.createElement('span');
    where.id = 'review-where';
    where.setAttribute('aria-live', 'polite');
    bar.append(where);
    history.parentNode.insertBefore(bar, history);
    const tools = document.createElement('div');
    tools.id = 'review-tools';
    tools.innerHTML = '<div class="row"><input id="review-comment" aria-label="comment on the move shown"'
      + ' placeholder="comment on this move (Enter)"></div>'
      + '<div class="row"><input id="review-link" readonly aria-label="link to this game"></div>';
    const result = $('result');
    result.parentNode.insertBefore(tools, result.nextSibling);
    const row = document.createElement('div');
    row.className = 'row';
    row.append(
      button('play-on', 'Play on from here', 'let the engine answer from the position shown', () => {
        playingOn = true;
        const other = state.side === 'white' ? 'black' : 'white';
        $(`${state.side}-player`).value = 'human';
        $(`${other}-player`).value = 'engine';
        renderWhere();
        updateStatus();
      }),
      button('download-pdn', 'Download .pdn', 'save the game (moves, variations, comments, tags) as a PDN file', () => review.download()),
      button('copy-link', 'Copy link', 'copy a link that reopens this game at this move', () => {
        const link = review.link();
        $('review-link').value = link;
        copy(link);
      }),
    );
    tools.prepend(row);
    $('review-comment').addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && state) send({ type: 'comment', text: $('review-comment').value });
    });

    // Notation choices.
    const notation = document.createElement('div');
    notation.id = 'notation';
    notation.className = 'row';
    notation.innerHTML = '<label><input type="checkbox" id="numbers-on-pieces"> numbers on pieces</label>'
      + '<label>moves <select id="move-notation"><option value="algebraic">algebraic</option>'
      + '<option value="numeric">numeric</option></select></label>';
    buttons.parentNode.insertBefore(notation, buttons.nextSibling);
    $('numbers-on-pieces').addEventListener('change', () => {
      numbersOnPieces = $('numbers-on-pieces').checked;
      renderBoard();
    });
    $('move-notation').addEventListener('change', () => {
      numeric = $('move-notation').value === 'numeric';
      if (state) { renderTree(); renderWhere(); }
    });

    document.addEventListener('keydown', (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || !state) return;
      const t = e.target;
      if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
      const act = { ArrowLeft: review.previous, ArrowRight: review.next, Home: review.first, End: review.last }[e.key];
      if (act) { e.preventDefault(); act(); }
    });
    history.addEventListener('click', (e) => {
      const target = e.target.closest('[data-node]');
      if (target) goto(Number(target.dataset.node));
    });
  }

  // The notation controls that make sense for the variant shown.
  function updateNotationControls() {
    const box = $('numbers-on-pieces');
    box.parentNode.hidden = !numberedBoard();
    box.checked = numbersOnPieces === null ? state.rows >= 12 : numbersOnPieces;
    $('move-notation').parentNode.hidden = !algebraic();
    $('notation').hidden = !numberedBoard() && !algebraic();
  }

  // The move box's example: moves of the game shown, in its own notation.
  function updateMoveExample() {
    const examples = state.moves.slice(0, 2).map((m) => m.text);
    $('move-input').placeholder = examples.length ? examples.join(', ') : 'no move to play';
  }

  const previousOnState = review.onState;
  review.onState = function (msg) {
    updateNotationControls();
    updateMoveExample();
    previousOnState(msg);
  };

  build();
}());
