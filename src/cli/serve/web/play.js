// Playing against the engine: strength levels, clocks (minutes + increment), resign and draw
// offers, and the board turned when the person plays Black. Loaded after board.js, whose
// hooks it uses.
'use strict';

const LEVELS = [
  [0, 'full strength'], [1, '1 beginner'], [2, '2 novice'], [3, '3 casual'],
  [4, '4 club'], [5, '5 strong club'], [6, '6 expert'],
];

// The engine accepts a draw offer when at least this many plies were played and its last
// score is within this many hundredths of a man of 0 (docs/web.md).
const DRAW_MIN_PLIES = 20;
const DRAW_MARGIN = 25;

const playing = {
  result: null,       // a result decided here: {text, reason, winner}
  resultAt: null,     // {plies, start}: the game it was decided in (start FEN, plies played)
  clock: null,        // {white, black: ms left; running: side or null; since: ms timestamp}
  clockPly: 0,        // plies played when the clock last switched
  engineScore: null,  // the engine's last `go` score, from its own point of view: {text, centi}
  timer: null,
};

const otherSide = (side) => (side === 'white' ? 'black' : 'white');
const sideName = (side) => (side === 'white' ? 'White' : 'Black');

// ---------------------------------------------------------------- controls

function buildPlayControls() {
  const panel = $('players');
  const levelRow = document.createElement('div');
  levelRow.className = 'row';
  levelRow.innerHTML = '<label title="How well the engine plays: levels 1-6 search little and sometimes choose a weaker move on purpose">Level <select id="level"></select></label>'
    + '<label title="Minutes for each side (0: no clock)">Clock <input id="clock-minutes" type="number" min="0" max="600" step="any" value="0" aria-label="clock minutes"> min</label>'
    + '<label title="Seconds added after each move">+ <input id="clock-inc" type="number" min="0" max="600" step="any" value="0" aria-label="clock increment"> s</label>';
  panel.appendChild(levelRow);
  const select = levelRow.querySelector('#level');
  for (const [value, name] of LEVELS) {
    const o = document.createElement('option');
    o.value = String(value);
    o.textContent = name;
    select.appendChild(o);
  }
  const clocks = document.createElement('div');
  clocks.className = 'row clocks';
  clocks.innerHTML = '<span class="clock" id="clock-white" data-side="white">White –</span>'
    + '<span class="clock" id="clock-black" data-side="black">Black –</span>';
  clocks.hidden = true;
  panel.appendChild(clocks);
  const buttons = document.createElement('div');
  buttons.className = 'row';
  buttons.innerHTML = '<button id="resign" title="Give up the game">Resign</button>'
    + '<button id="offer-draw" title="Offer the engine a draw">Offer draw</button>';
  panel.appendChild(buttons);

  $('resign').addEventListener('click', resign);
  $('offer-draw').addEventListener('click', offerDraw);
  for (const id of ['clock-minutes', 'clock-inc']) {
    $(id).addEventListener('change', () => { resetClock(); renderClocks(); });
  }
  for (const id of ['white-player', 'black-player']) {
    $(id).addEventListener('change', autoFlip);
  }
  playing.timer = setInterval(tick, 100);
}

// The board is turned so that a person playing Black alone has Black at the bottom.
function autoFlip() {
  const white = players('white');
  const black = players('black');
  const want = white === 'engine' && black === 'human' ? true
    : white === 'human' && black === 'engine' ? false : flipped;
  if (want !== flipped) {
    flipped = want;
    renderBoard();
  }
}

// ---------------------------------------------------------------- clocks

function clockSettings() {
  const minutes = Number($('clock-minutes').value);
  const inc = Number($('clock-inc').value);
  return {
    base: Number.isFinite(minutes) && minutes > 0 ? Math.min(minutes, 600) * 60000 : 0,
    inc: Number.isFinite(inc) && inc > 0 ? Math.min(inc, 600) * 1000 : 0,
  };
}

// Sets both clocks to the chosen time (none when it is 0); they start with the next move.
function resetClock() {
  const { base } = clockSettings();
  playing.clock = base > 0 ? { white: base, black: base, running: null, since: 0 } : null;
  playing.clockPly = state ? state.history.length : 0;
  if (state && playing.clock && !gameResult()) startClock(state.side);
}

function startClock(side) {
  if (!playing.clock) return;
  playing.clock.running = side;
  playing.clock.since = performance.now();
}

// Charges the running side for the time since its clock started.
function chargeClock() {
  const c = playing.clock;
  if (!c || !c.running) return;
  const now = performance.now();
  c[c.running] -= now - c.since;
  c.since = now;
}

function stopClock() {
  chargeClock();
  if (playing.clock) playing.clock.running = null;
}

function formatClock(ms) {
  const total = Math.max(0, ms);
  const s = Math.floor(total / 1000);
  const m = Math.floor(s / 60);
  const tenths = Math.floor((total % 1000) / 100);
  const ss = String(s % 60).padStart(2, '0');
  return s < 20 ? `${m}:${ss}.${tenths}` : `${m}:${ss}`;
}

function renderClocks() {
  const box = document.querySelector('#players .clocks');
  const c = playing.clock;
  box.hidden = !c;
  if (!c) return;
  for (const side of ['white', 'black']) {
    const span = $(`clock-${side}`);
    let left = c[side];
    if (c.running === side) left -= performance.now() - c.since;
    span.textContent = `${sideName(side)} ${formatClock(left)}`;
    span.classList.toggle('running', c.running === side);
    span.classList.toggle('low', left < 10000);
    span.dataset.ms = String(Math.round(left));
  }
}

function tick() {
  const c = playing.clock;
  if (!c || !c.running) return;
  renderClocks();
  if (gameResult()) { stopClock(); return; }
  const left = c[c.running] - (performance.now() - c.since);
  if (left <= 0) {
    const loser = c.running;
    chargeClock();
    c[loser] = 0;
    c.running = null;
    decide(otherSide(loser), `${sideName(loser)}'s time ran out`);
  }
}

// ---------------------------------------------------------------- results decided here

function decide(winner, reason) {
  playing.result = {
    winner,
    text: winner ? `${winner} wins` : 'draw',  // as the server words results
    reason,
  };
  playing.resultAt = state ? { plies: state.history.length, start: state.start_fen } : null;
  stopClock();
  if (search) send({ type: 'stop' });
  // The server keeps the result for the game's PDN (a draw has no winner field).
  send({ type: 'result', winner: winner || undefined, reason });
  document.body.dataset.result = playing.result.text;
  renderBoard();
  renderHistory();
  renderClocks();
  updateStatus();
}

// The side a person plays: the one human side, or the side to move when both are human.
function humanSide() {
  const humans = ['white', 'black'].filter((s) => players(s) === 'human');
  if (humans.length === 1) return humans[0];
  return state ? state.side : null;
}

function resign() {
  if (!state || gameResult()) return;
  const side = humanSide();
  if (!side) { showMessage('no person plays in this game: nobody can resign'); return; }
  if (!window.confirm(`Resign the game as ${sideName(side)}?`)) return;
  decide(otherSide(side), `${sideName(side)} resigned`);
}

// The engine's answer to a draw offer: accepted after DRAW_MIN_PLIES plies when its last score
// is within DRAW_MARGIN of 0.
function offerDraw() {
  if (!state || gameResult()) return;
  const engines = ['white', 'black'].filter((s) => players(s) === 'engine');
  if (engines.length !== 1) {
    showMessage('a draw is offered to the engine: play one side against it');
    return;
  }
  const plies = state.history.length;
  const score = playing.engineScore;
  let answer;
  if (plies < DRAW_MIN_PLIES) {
    answer = `the engine declines: it accepts draws from move ${DRAW_MIN_PLIES / 2 + 1} on`;
  } else if (!score) {
    answer = 'the engine declines: it has not searched this game yet';
  } else if (score.forced || Math.abs(score.centi) > DRAW_MARGIN) {
    answer = `the engine declines: it thinks it stands ${score.text}`;
  } else {
    decide(null, 'draw agreed');
    showMessage(`the engine accepts the draw (its score: ${score.text})`);
    return;
  }
  document.body.dataset.drawAnswer = answer;
  showMessage(answer);
}

// ---------------------------------------------------------------- hooks

hooks.options.push((mode) => {
  if (mode !== 'go') return {};
  const options = { level: Number($('level').value) || 0 };
  const c = playing.clock;
  if (c && state) {
    chargeClock();
    const { inc } = clockSettings();
    options.time = Math.max(0, c[state.side]) / 1000;
    options.inc = inc / 1000;
    // With a clock, the engine's time comes from it, not from "seconds a move" (an undefined
    // field is left out of the message).
    options.movetime = undefined;
    options.depth = undefined;
  }
  return options;
});

hooks.result.push(() => {
  if (!playing.result) return null;
  const at = playing.resultAt;
  if (state && at && (state.history.length < at.plies || state.start_fen !== at.start)) {
    // A take-back or another game: the decision no longer stands. (A move the engine was
    // already making when the game was decided changes nothing.)
    playing.result = null;
    delete document.body.dataset.result;
    return null;
  }
  return playing.result;
});

hooks.state.push((msg) => {
  const plies = msg.history.length;
  // A new game (not one decided at its first position: the server then reports the result).
  if (plies === 0 && !msg.result) {
    playing.result = null;
    delete document.body.dataset.result;
    resetClock();
  } else if (!playing.clock) {
    // No clock in this game.
  } else if (msg.result || gameResult()) {
    stopClock();
  } else if (plies !== playing.clockPly) {
    // A move was played (or taken back): the clock changes sides; a move earns the increment.
    chargeClock();
    const mover = otherSide(msg.side);
    if (plies > playing.clockPly && playing.clock.running === mover) playing.clock[mover] += clockSettings().inc;
    playing.clockPly = plies;
    if (!gameResult()) startClock(msg.side);
  }
  renderClocks();
});

hooks.done.push((msg) => {
  if (msg.mode !== 'go' || !msg.score) return;
  const forced = /^(win|loss) /.test(msg.score);
  const centi = forced ? 0 : Math.round(Number(msg.score) * 100);
  playing.engineScore = { text: forced ? msg.score : `${centi >= 0 ? '+' : ''}${(centi / 100).toFixed(2)} men`, centi, forced };
});

buildPlayControls();
autoFlip();
