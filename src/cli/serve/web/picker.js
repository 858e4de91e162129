// The variant picker of Polydam's board page: every game by its proper name, grouped by
// family, filtered as you type (name, id, aliases, other names), driven by the keyboard (arrows,
// Enter, Escape) or the mouse; and the Rules link of the game on the board. It reads
// /variants.json and chooses a game through the page's own variant <select> (board.js asks
// before a game in progress is thrown away), so board.js needs no change. No framework.
'use strict';

(() => {
  const select = document.getElementById('variant');
  const label = document.querySelector('.variant-choice');
  if (!select || !label) return;

  let groups = [];          // [{id, title}] in order
  let games = [];           // [{name, title, group, aliases, known_as, description}]
  let shown = [];           // the games listed now, in list order
  let active = -1;          // index into `shown` of the highlighted option

  // ------------------------------------------------------------ building the widget

  const make = (tag, attrs, parent) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'text') node.textContent = v;
      else node.setAttribute(k, v);
    }
    if (parent) parent.appendChild(node);
    return node;
  };

  const root = make('div', { id: 'picker', class: 'picker' });
  label.after(root);
  label.classList.add('picker-replaced');
  // Out of the tab order and of the accessibility tree: the picker below replaces it.
  label.setAttribute('aria-hidden', 'true');
  select.tabIndex = -1;
  const button = make('button', {
    id: 'picker-button', type: 'button', 'aria-haspopup': 'listbox', 'aria-expanded': 'false',
    title: 'Choose the game (type to search)',
  }, root);
  const buttonTitle = make('span', { class: 'picker-current', text: 'Game' }, button);
  make('span', { class: 'picker-caret', 'aria-hidden': 'true', text: '▾' }, button);
  const rules = make('a', {
    id: 'rules-link', href: '/rules', target: '_blank', rel: 'noopener',
    title: 'The rules of this game (opens a new tab)', text: 'Rules',
  }, root);
  const panel = make('div', { id: 'picker-panel', class: 'picker-panel', hidden: '' }, root);
  const search = make('input', {
    id: 'picker-search', type: 'search', autocomplete: 'off', spellcheck: 'false',
    role: 'combobox', 'aria-controls': 'picker-list', 'aria-expanded': 'true',
    'aria-autocomplete': 'list', 'aria-label': 'search the games',
    placeholder: 'Search: name, id or alias',
  }, panel);
  const list = make('div', { id: 'picker-list', role: 'listbox', 'aria-label': 'games' }, panel);
  const count = make('div', { id: 'picker-count', class: 'picker-count', 'aria-live': 'polite' }, panel);

  // ------------------------------------------------------------ data

  function fromSelect() {
    // Without /variants.json: the names of the page's own list, grouped by family.
    const out = [];
    for (const og of select.querySelectorAll('optgroup')) {
      groups.push({ id: og.label, title: og.label });
      for (const o of og.querySelectorAll('option')) {
        out.push({ name: o.value, title: o.value, group: og.label, aliases: [], known_as: [], description: o.title });
      }
    }
    return out;
  }

  async function load() {
    try {
      const reply = await fetch('/variants.json', { cache: 'no-cache' });
      if (!reply.ok) throw new Error(`HTTP ${reply.status}`);
      const data = await reply.json();
      groups = data.groups;
      games = data.variants;
      // The proper names, for board.js's questions ("Start a new game of Dameo?").
      window.variantTitles = new Map(games.map((g) => [g.name, g.title]));
    } catch (e) {
      groups = [];
      games = fromSelect();
    }
    document.body.dataset.pickerGames = String(games.length);
    current();
  }

  // ------------------------------------------------------------ search

  const fold = (s) => String(s).toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  const words = (s) => fold(s).split(/[^a-z0-9!]+/).filter((w) => w);

  // How well `game` matches `query` (lower is better), or null when it does not.
  function rank(game, query) {
    const name = fold(game.name);
    const title = fold(game.title);
    const aliases = game.aliases.map(fold);
    const others = game.known_as.map(fold);
    if (name === query || aliases.includes(query) || title === query) return 0;
    if (name.startsWith(query)) return 1;
    if (title.startsWith(query) || aliases.some((a) => a.startsWith(query))) return 2;
    const allWords = [title, ...others, ...aliases].flatMap(words);
    if (others.some((o) => o.startsWith(query)) || allWords.some((w) => w.startsWith(query))) return 3;
    const names = [name, title, ...aliases, ...others];
    if (names.some((n) => n.includes(query))) return 4;
    const everything = [...names, fold(game.description)].join(' ');
    const terms = query.split(/\s+/).filter((t) => t);
    if (terms.every((t) => everything.includes(t))) return 5;
    return null;
  }

  function filter() {
    const query = fold(search.value.trim());
    if (!query) {
      // Every game, group by group.
      const order = groups.map((g) => g.id);
      shown = games.slice().sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group));
    } else {
      shown = games
        .map((g, i) => ({ g, i, r: rank(g, query) }))
        .filter((x) => x.r !== null)
        .sort((a, b) => a.r - b.r || a.i - b.i)
        .map((x) => x.g);
    }
    render(Boolean(query));
  }

  function groupTitle(id) {
    const g = groups.find((x) => x.id === id);
    return g ? g.title : id;
  }

  function render(filtered) {
    list.textContent = '';
    let heading = null;
    shown.forEach((game, i) => {
      if (!filtered && game.group !== heading) {
        heading = game.group;
        make('div', { class: 'picker-group', role: 'presentation', text: groupTitle(game.group) }, list);
      }
      const option = make('div', {
        id: `picker-option-${game.name.replace(/[^a-z0-9-]/g, '_')}`, role: 'option',
        class: 'picker-option', 'data-name': game.name, 'aria-selected': 'false',
      }, list);
      make('span', { class: 'picker-title', text: game.title }, option);
      const names = [game.name, ...game.aliases].join(', ');
      make('span', { class: 'picker-id', text: names }, option);
      if (filtered) make('span', { class: 'picker-group-tag', text: groupTitle(game.group) }, option);
      option.title = game.description;
      if (game.name === document.body.dataset.variant) option.classList.add('current');
      option.addEventListener('mousedown', (e) => e.preventDefault());
      option.addEventListener('click', () => choose(game.name));
      option.addEventListener('mousemove', () => { if (active !== i) highlight(i, false); });
    });
    if (shown.length === 0) make('div', { class: 'picker-none', text: 'No game matches.' }, list);
    count.textContent = shown.length === games.length
      ? `${games.length} games`
      : `${shown.length} of ${games.length} games`;
    const here = shown.findIndex((g) => g.name === document.body.dataset.variant);
    highlight(filtered || here < 0 ? (shown.length ? 0 : -1) : here, true);
  }

  function highlight(i, scroll) {
    const options = list.querySelectorAll('[role="option"]');
    options.forEach((o) => o.setAttribute('aria-selected', 'false'));
    active = i;
    if (i < 0 || i >= options.length) {
      search.removeAttribute('aria-activedescendant');
      return;
    }
    options[i].setAttribute('aria-selected', 'true');
    search.setAttribute('aria-activedescendant', options[i].id);
    if (scroll) options[i].scrollIntoView({ block: 'nearest' });
  }

  // ------------------------------------------------------------ opening, choosing

  function open() {
    if (!games.length) return;
    panel.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    search.value = '';
    filter();
    search.focus();
  }

  function close(refocus) {
    if (panel.hidden) return;
    panel.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    if (refocus) button.focus();
  }

  function choose(name) {
    close(true);
    if (name === document.body.dataset.variant) return;
    // Through the page's own list: board.js asks first when a game would be lost, and puts
    // the list back if the player says no.
    select.value = name;
    if (select.value !== name) return;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  }

  button.addEventListener('click', () => (panel.hidden ? open() : close(true)));
  search.addEventListener('input', filter);
  search.addEventListener('keydown', (e) => {
    const step = { ArrowDown: 1, ArrowUp: -1, PageDown: 8, PageUp: -8 }[e.key];
    if (step !== undefined) {
      e.preventDefault();
      if (shown.length) highlight(Math.max(0, Math.min(shown.length - 1, active + step)), true);
    } else if (e.key === 'Home' && e.ctrlKey) {
      e.preventDefault();
      if (shown.length) highlight(0, true);
    } else if (e.key === 'End' && e.ctrlKey) {
      e.preventDefault();
      if (shown.length) highlight(shown.length - 1, true);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (active >= 0 && active < shown.length) choose(shown[active].name);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'Tab') {
      close(false);
    }
  });
  // Keys other scripts listen for on the page (moves, review) are not for them while typing here.
  panel.addEventListener('keydown', (e) => e.stopPropagation());
  button.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' && panel.hidden) {
      e.preventDefault();
      open();
    }
  });
  document.addEventListener('mousedown', (e) => {
    if (!panel.hidden && !root.contains(e.target)) close(false);
  });

  // ------------------------------------------------------------ the game on the board

  function current() {
    const name = document.body.dataset.variant;
    if (!name) return;
    const game = games.find((g) => g.name === name);
    buttonTitle.textContent = game ? game.title : name;
    button.setAttribute('aria-label', `Game: ${game ? game.title : name} (choose another)`);
    rules.href = `/rules/${encodeURIComponent(name)}`;
    rules.setAttribute('aria-label', `Rules of ${game ? game.title : name}`);
  }

  new MutationObserver(current).observe(document.body, { attributes: true, attributeFilter: ['data-variant'] });
  load();
})();
