// Downtown Farmers Market: each player's 4x4 grid and eight Challenge tiles, scored line
// by line by the referee, and the players ranked with the tie-breaks. What was entered is
// kept on this device, and what was asked of the referee is asked again on load (a phone
// that reloads the page at the table loses nothing); a player removed, or Challenge tiles
// copied over other players', can be put back.

import {
  LINES, SIZE, boardOf, challengesWords, leftOutBecause, lineName, missingChallenges, newPlayer,
  playerName, readingsOf, scoreWords, standingsCsv, standingsWords,
} from './dfm-board.js';
import {
  INGREDIENTS, brief, buildControls, chooseChallenge, describe, initChallengeDialog,
} from './dfm-challenges.js';
import { onLanguageChange, t } from './i18n.js';
import { shareActions } from './share.js';
import {
  call, chip, countedCells, el, loadSaved, playerTabs, rankingTable, rebuild, showProblems, tabKeys,
  uncertaintyView,
} from './ui.js';

const MAX_TILE = 3;
const MAX_PLAYERS = 4;
const MAX_READINGS = 4; // a doubtful space's candidate tiles, as the referee takes them
const SAVED = 'referee.pad.dfm';
const SEAT = /^\/players\/(\d+)(?:\/board)?(.*)$/; // a ranking's pointer: whose, and where in it

const fresh = () => ({
  mode: 'standard', players: [newPlayer()], current: 0, selected: { row: 0, col: 0 },
  ranked: false, // the table as it stands was sent to be ranked
});

let game = fresh();
let standings = null; // {answer: the referee's ranking or null, leftOut: the seats not sent}
let undoable = null; // the last removal or copy, while it can be undone: {words(), undo()}
let active = null; // the score line whose cells are highlighted: {lines, index}
let reading = 0; // which reading of the selected space the palette edits (0: the likeliest)
const ui = {};

const player = () => game.players[game.current];
const slotName = (lines, index) => t(lines === 'rows' ? 'dfm.row_challenge' : 'dfm.column_challenge',
  { n: index + 1 });
const spaceName = (row, col) => t('space.title', { row: row + 1, col: col + 1 });
const tileWords = (tile) => (tile.length ? tile.map((i) => t(`ingredient.${i}`)).join(', ') : t('empty'));

function save() {
  const players = game.players.map(({ name, grid, rows, columns, doubts, scored }) => ({
    name, grid, rows, columns, doubts, scored }));
  localStorage.setItem(SAVED, JSON.stringify({ ...game, players }));
}

/** After any edit of the table: the standings are out of date, and a removal or a copy
 * stands. */
function tableChanged() {
  standings = null;
  game.ranked = false;
  undoable = null;
}

/** After an edit of `p`'s board: its score is out of date, and so are the refusals of
 * what changed (`pointers` and what lies under them). */
function boardChanged(p, pointers) {
  p.result = null;
  p.scored = false;
  p.problems = p.problems.filter(({ pointer }) => !pointers.some(
    (prefix) => pointer === prefix || pointer.startsWith(`${prefix}/`)));
}

/** After an edit of the current player's board: it, and the standings, are out of date. */
function changed(...pointers) {
  boardChanged(player(), pointers);
  tableChanged();
  active = null;
  save();
  render();
}

function locate(pointer) {
  const [, head, a, b] = pointer.split('/');
  const at = (key) => ui.board.querySelector(`[data-key="${key}"]`);
  if (head === 'grid' && b !== undefined) {
    return { element: at(`cell-${a}-${b}`), place: spaceName(Number(a), Number(b)) };
  }
  const lines = Object.keys(LINES).find((key) => LINES[key] === head);
  if (lines && a !== undefined) return { element: at(`${lines}-challenge-${a}`), place: slotName(lines, Number(a)) };
  if (head === 'name') return { element: ui.name, place: t('dfm.name') };
  return { element: null, place: null };
}

function render() {
  renderTabs();
  renderBoard();
  renderPalette();
  renderResults();
  renderStandings();
  renderUndo();
  showProblems(ui.problems, player().problems, locate);
}

function choosePlayer(k) {
  game.current = k;
  active = null;
  save();
  render();
}

function renderTabs() {
  playerTabs({
    tablist: ui.tabs, panel: ui.panel, prefix: 'dfm', names: game.players.map(playerName),
    refused: game.players.map((p) => p.problems.length > 0), current: game.current, choose: choosePlayer,
  });
  if (document.activeElement !== ui.name) ui.name.value = player().name;
  ui.name.placeholder = t('dfm.player', { n: game.current + 1 });
  ui.remove.hidden = game.players.length === 1;
  renderCopy();
  ui.add.disabled = game.players.length >= MAX_PLAYERS;
  for (const radio of ui.modes) radio.checked = radio.value === game.mode;
}

function renderBoard() {
  const p = player();
  const young = game.mode === 'young_shopper';
  const score = p.result;
  const line = active && score?.[active.lines]?.[active.index];
  const counted = new Set(line ? countedCells(line).map(({ row, col }) => `${row}-${col}`) : []);
  const inLine = (row, col) => active && (active.lines === 'rows' ? row : col) === active.index;
  const checks = new Set(spacesToCheck(score).map(({ row, col }) => `${row}-${col}`));

  const slot = (lines, index) => {
    if (young) return el('div', { class: 'slot none', 'aria-hidden': 'true' });
    const challenge = p[lines][index];
    return el('button', {
      type: 'button', class: `slot ${lines}`, 'data-key': `${lines}-challenge-${index}`,
      'aria-label': `${slotName(lines, index)}: ${challenge ? describe(challenge) : t('dfm.choose')}`,
      onclick: () => editChallenge(lines, index),
    }, ...(challenge ? brief(challenge) : [el('span', { class: 'brief', text: t('dfm.choose') })]));
  };
  const cell = (row, col) => {
    const tile = p.grid[row][col];
    const others = readingsOf(p, row, col).length - 1;
    const selected = game.selected.row === row && game.selected.col === col;
    const classes = ['cell', inLine(row, col) && 'in-line', counted.has(`${row}-${col}`) && 'counted',
      others && 'doubtful', checks.has(`${row}-${col}`) && 'to-check'];
    const doubt = others ? `; ${t('dfm.doubtful', { count: others })}` : '';
    return el('button', {
      type: 'button', class: classes.filter(Boolean).join(' '), 'data-key': `cell-${row}-${col}`,
      'aria-pressed': String(selected), 'aria-label': `${spaceName(row, col)}: ${tileWords(tile)}${doubt}`,
      onclick: () => selectSpace(row, col),
    }, ...tile.map((i) => chip('ingredient', i)));
  };
  const badge = (lines, index) => {
    const scored = score?.[lines]?.[index];
    if (!scored) return el('div', { class: `badge none ${lines}` });
    const on = active?.lines === lines && active.index === index;
    return el('button', {
      type: 'button', class: `badge ${lines} ${scored.met ? 'met' : 'unmet'}`,
      'data-key': `${lines}-result-${index}`, 'data-line': `${lines}-${index}`,
      'aria-pressed': String(on), title: scored.explanation, text: String(scored.points),
      'aria-label': t('dfm.line', { line: lineName(lines, index), points: scored.points,
                                    met: t(scored.met ? 'met' : 'not_met') }),
      onclick: () => highlight(lines, index),
    });
  };

  const squares = [el('div', { class: 'corner' })];
  for (let col = 0; col < SIZE; col += 1) squares.push(slot('columns', col));
  squares.push(el('div', { class: 'corner' }));
  for (let row = 0; row < SIZE; row += 1) {
    squares.push(slot('rows', row));
    for (let col = 0; col < SIZE; col += 1) squares.push(cell(row, col));
    squares.push(badge('rows', row));
  }
  squares.push(el('div', { class: 'corner' }));
  for (let col = 0; col < SIZE; col += 1) squares.push(badge('columns', col));
  squares.push(score ? el('div', { class: 'total-badge', id: 'dfm-total', text: String(score.total),
                                   'aria-label': t('dfm.total', score) })
    : el('div', { class: 'corner' }));
  ui.board.classList.toggle('young', young);
  rebuild(ui.board, ...squares);
}

/** The spaces the referee says decide the total of a doubtful board: to check. */
const spacesToCheck = (score) => (score?.uncertainty?.spaces ?? []).filter((space) => space.decides);

function selectSpace(row, col) {
  game.selected = { row, col };
  reading = 0;
  save();
  render();
}

/** The readings of the selected space to choose from (the likeliest first), and the
 * controls that add another or take the one chosen away. */
function renderReadings() {
  const { row, col } = game.selected;
  const readings = readingsOf(player(), row, col);
  const choices = readings.length > 1 ? readings.map((tile, k) => el('button', {
    type: 'button', 'data-key': `reading-${k}`, 'aria-pressed': String(reading === k),
    'aria-label': `${t('dfm.reading', { n: k + 1 })}: ${tileWords(tile)}`, text: t('dfm.reading', { n: k + 1 }),
    onclick: () => { reading = k; render(); },
  })) : [];
  rebuild(ui.readings, ...choices,
    readings.length < MAX_READINGS ? el('button', {
      type: 'button', 'data-key': 'add-reading', text: t(readings.length > 1 ? 'dfm.another_reading' : 'dfm.doubt'),
      onclick: () => editReadings((others) => { others.push([]); reading = others.length; }),
    }) : null,
    reading ? el('button', {
      type: 'button', class: 'quiet', 'data-key': 'remove-reading', text: t('dfm.remove_reading'),
      onclick: () => editReadings((others) => { others.splice(reading - 1, 1); reading = 0; }),
    }) : null);
}

/** Edit the selected space's other readings (a space left with none is no longer doubtful). */
function editReadings(edit) {
  const { row, col } = game.selected;
  const key = `${row}-${col}`;
  const others = player().doubts[key] ?? [];
  edit(others);
  if (others.length) player().doubts[key] = others;
  else delete player().doubts[key];
  changed(`/grid/${row}/${col}`);
}

function renderPalette() {
  const { row, col } = game.selected;
  const readings = readingsOf(player(), row, col);
  reading = Math.min(reading, readings.length - 1); // another player's space may have fewer
  const tile = readings[reading];
  ui.paletteTitle.textContent = t('dfm.palette', { row: row + 1, col: col + 1 });
  renderReadings();
  rebuild(ui.paletteTile, ...tile.map((i) => chip('ingredient', i)),
    el('span', { class: 'words', text: tileWords(tile) }));
  for (const button of ui.ingredients.querySelectorAll('button')) button.disabled = tile.length >= MAX_TILE;
  ui.undo.disabled = !tile.length;
  ui.clear.disabled = !tile.length;
}

function renderResults() {
  const p = player();
  const score = p.result;
  if (!score) {
    rebuild(ui.summary);
    rebuild(ui.lines);
    return;
  }
  rebuild(ui.summary,
    el('p', { class: 'total', text: t('dfm.total', score) }),
    score.mode === 'standard' ? el('p', { text: challengesWords(score) }) : null,
    score.complete ? null : el('p', { class: 'note', text: t('dfm.incomplete') }),
    score.uncertainty ? uncertaintyView({
      id: 'dfm-uncertainty', uncertainty: score.uncertainty, checks: spacesToCheck(score),
      name: ({ row, col }) => spaceName(row, col), choose: ({ row, col }) => selectSpace(row, col),
    }) : null,
    shareActions({
      key: 'board', title: t('dfm.title'), text: scoreWords(score, playerName(p, game.current)),
      shareLabel: t('dfm.share_board'),
      file: 'downtown-farmers-market-score.json', type: 'application/json', downloadLabel: t('share.json'),
      content: JSON.stringify({ name: playerName(p, game.current), board: boardOf(p, game.mode), score }, null, 2),
    }));
  const items = Object.keys(LINES).flatMap((lines) => score[lines].map((scored, index) => el('li', {},
    el('button', {
      type: 'button', class: `line ${scored.met ? 'met' : 'unmet'}`, 'data-key': `${lines}-line-${index}`,
      'aria-pressed': String(active?.lines === lines && active.index === index),
      onclick: () => highlight(lines, index),
    },
    el('strong', { text: lineName(lines, index) }),
    el('span', { class: 'pts', text: t('points', scored) }),
    el('span', { class: 'explanation', text: scored.explanation }),
    el('span', { class: 'rule', text: scored.rule })))));
  rebuild(ui.lines, ...items);
}

function renderStandings() {
  if (!standings) {
    rebuild(ui.standings);
    return;
  }
  const leftOut = standings.leftOut.map((k) => el('li', {}, el('button', {
    type: 'button', 'data-key': `left-out-${k}`, text: leftOutBecause(game.players[k], k, game.mode),
    onclick: () => choosePlayer(k),
  })));
  const { answer } = standings;
  const standard = game.mode === 'standard';
  const columns = [['total', 'dfm.total_short'],
    ...(standard ? [['challenges_met', 'dfm.challenges_met'], ['best_challenge_points', 'dfm.best']] : [])];
  const note = t(standard ? 'dfm.tie_breaks' : 'dfm.tie_breaks_young');
  rebuild(ui.standings, ...(answer ? rankingTable(answer, columns, note) : []),
    leftOut.length ? el('ul', { class: 'left-out' }, ...leftOut) : null,
    answer ? shareActions({
      key: 'standings', title: t('dfm.title'),
      text: standingsWords(answer, game.players, standings.leftOut, game.mode),
      shareLabel: t('dfm.share_standings'), file: 'downtown-farmers-market-standings.csv',
      type: 'text/csv', content: standingsCsv(answer, game.mode), downloadLabel: t('share.csv'),
    }) : null);
}

function renderUndo() {
  rebuild(ui.undoOffer, ...(undoable ? [
    el('p', { text: undoable.words() }),
    el('button', { type: 'button', 'data-key': 'undo', text: t('dfm.undo_remove'), onclick: undo }),
  ] : []));
}

/** Offer to undo what was just done (`words`: what, `undoIt`: how it is put back). */
function offerUndo(words, undoIt) {
  undoable = { words, undo: undoIt };
  save();
  render();
  ui.undoOffer.querySelector('button').focus(); // where it can be undone
}

function undo() {
  const { undo: undoIt } = undoable;
  tableChanged();
  undoIt();
  save();
  render();
  ui.tabs.querySelector(`[data-key="player-${game.current}"]`).focus();
}

function removePlayer() {
  const seat = game.current;
  const [gone] = game.players.splice(seat, 1);
  tableChanged();
  game.current = Math.max(0, seat - 1);
  offerUndo(() => t('dfm.removed', { name: playerName(gone, seat) }), () => {
    game.players.splice(seat, 0, gone);
    game.current = seat;
  });
}

/** The copy control: to every other player, or to one; only where there are challenges
 * to copy and someone to copy them to. */
function renderCopy() {
  const others = [...game.players.keys()].filter((k) => k !== game.current);
  const to = ui.copyTo.value;
  ui.copy.hidden = game.mode !== 'standard' || !others.length;
  rebuild(ui.copyTo, el('option', { value: 'all', text: t('dfm.copy_all') }),
    ...others.map((k) => el('option', { value: String(k), text: playerName(game.players[k], k) })));
  ui.copyTo.value = [...ui.copyTo.options].some((option) => option.value === to) ? to : 'all';
  ui.copyButton.disabled = Object.keys(LINES).every((lines) => player()[lines].every((c) => !c));
}

/** Give the chosen players the current player's eight Challenge tiles (a starting point:
 * each player has their own), offering to put theirs back. */
function copyChallenges() {
  const from = player();
  const to = ui.copyTo.value;
  const seats = [...game.players.keys()].filter((k) => k !== game.current && (to === 'all' || String(k) === to));
  const before = seats.map((k) => ({ ...game.players[k] }));
  for (const k of seats) {
    const p = game.players[k];
    for (const lines of Object.keys(LINES)) p[lines] = from[lines].map((c) => structuredClone(c));
    boardChanged(p, Object.values(LINES).map((field) => `/${field}`));
  }
  tableChanged();
  const seat = game.current;
  const toWords = () => (to === 'all' ? t('dfm.copy_all') : playerName(game.players[to], Number(to)));
  offerUndo(() => t('dfm.copied', { name: playerName(from, seat), to: toWords() }), () => {
    seats.forEach((k, i) => { game.players[k] = before[i]; });
  });
}

function highlight(lines, index) {
  active = active?.lines === lines && active.index === index ? null : { lines, index };
  render();
}

async function editChallenge(lines, index) {
  const p = player();
  const chosen = await chooseChallenge(slotName(lines, index), p[lines][index]);
  if (chosen !== undefined) {
    p[lines][index] = chosen;
    changed(`/${LINES[lines]}/${index}`);
  }
  ui.board.querySelector(`[data-key="${lines}-challenge-${index}"]`)?.focus();
}

function editTile(edit) {
  const { row, col } = game.selected;
  edit(readingsOf(player(), row, col)[reading]);
  changed(`/grid/${row}/${col}`);
}

function moveOn() {
  const next = (game.selected.row * SIZE + game.selected.col + 1) % (SIZE * SIZE);
  selectSpace(Math.floor(next / SIZE), next % SIZE);
}

async function score(p = player()) {
  const missing = missingChallenges(p, game.mode);
  p.scored = true;
  save();
  const outcome = missing.length ? { problems: missing }
    : await call(ui.score, '/v1/downtown-farmers-market/score', boardOf(p, game.mode));
  if (!outcome) return;
  p.result = outcome.answer ?? null;
  p.problems = outcome.problems ?? [];
  active = null;
  render();
}

/** Rank the players whose boards can be ranked; the others are named with why. */
async function rank() {
  const seats = [...game.players.keys()];
  const sent = seats.filter((k) => !leftOutBecause(game.players[k], k, game.mode));
  const leftOut = seats.filter((k) => !sent.includes(k));
  game.ranked = true;
  save();
  if (!sent.length) {
    standings = { answer: null, leftOut };
    render();
    return;
  }
  const players = sent.map((k) => ({ name: playerName(game.players[k], k), board: boardOf(game.players[k], game.mode, false) }));
  const outcome = await call(ui.rank, '/v1/downtown-farmers-market/rank', { players });
  if (!outcome) return;
  for (const k of sent) game.players[k].problems = [];
  for (const { pointer = '', detail } of outcome.problems ?? []) {
    const [, index, inside] = SEAT.exec(pointer) ?? [];
    const owner = game.players[sent[index]];
    (owner ?? player()).problems.push({ pointer: owner ? inside : pointer, detail });
  }
  standings = { answer: outcome.answer ?? null, leftOut };
  render();
}

/** What the referee was asked before the page was (re)loaded, asked again: the boards
 * scored, then the standings. */
async function askAgain() {
  for (const p of game.players.filter(({ scored }) => scored)) await score(p);
  if (game.ranked) await rank();
}

function buildIngredientButtons() {
  rebuild(ui.ingredients, ...INGREDIENTS.map((ingredient) => el('button', {
    type: 'button', class: 'ingredient', 'data-key': `add-${ingredient}`, 'data-ingredient': ingredient,
    'aria-label': t('dfm.add', { ingredient: t(`ingredient.${ingredient}`) }),
    onclick: () => editTile((tile) => { if (tile.length < MAX_TILE) tile.push(ingredient); }),
  }, chip('ingredient', ingredient), ` ${t(`ingredient.${ingredient}`)}`)));
}

export function init() {
  for (const [key, id] of Object.entries({
    board: 'dfm-board', tabs: 'dfm-tabs', panel: 'dfm-panel', add: 'dfm-add-player',
    remove: 'dfm-remove-player', name: 'dfm-name', paletteTitle: 'dfm-palette-title',
    paletteTile: 'dfm-palette-tile', ingredients: 'dfm-ingredients', undo: 'dfm-undo',
    clear: 'dfm-clear', next: 'dfm-next', score: 'dfm-score', rank: 'dfm-rank',
    problems: 'dfm-problems', summary: 'dfm-summary', lines: 'dfm-lines', readings: 'dfm-readings',
    standings: 'dfm-standings', reset: 'dfm-reset', undoOffer: 'dfm-removed',
    copy: 'dfm-copy', copyTo: 'dfm-copy-to', copyButton: 'dfm-copy-challenges',
  })) ui[key] = document.getElementById(id);
  ui.modes = [...document.querySelectorAll('input[name="dfm-mode"]')];
  game = { ...fresh(), ...loadSaved(SAVED, {}) };
  game.players = game.players.map((p) => ({ ...newPlayer(), ...p }));

  initChallengeDialog();
  buildIngredientButtons();
  tabKeys(ui.tabs);
  ui.add.addEventListener('click', () => {
    game.players.push(newPlayer());
    game.current = game.players.length - 1;
    tableChanged();
    save();
    render();
    ui.name.focus();
  });
  ui.remove.addEventListener('click', removePlayer);
  ui.copyButton.addEventListener('click', copyChallenges);
  ui.name.addEventListener('input', () => {
    const p = player();
    p.name = ui.name.value;
    p.problems = p.problems.filter(({ pointer }) => pointer !== '/name');
    tableChanged();
    save();
    render();
  });
  for (const radio of ui.modes) {
    radio.addEventListener('change', () => {
      game.mode = radio.value;
      for (const p of game.players) Object.assign(p, { result: null, problems: [], scored: false });
      changed('');
    });
  }
  ui.undo.addEventListener('click', () => editTile((tile) => tile.pop()));
  ui.clear.addEventListener('click', () => editTile((tile) => tile.splice(0)));
  ui.next.addEventListener('click', moveOn);
  ui.score.addEventListener('click', () => score());
  ui.rank.addEventListener('click', rank);
  ui.reset.addEventListener('click', () => {
    if (!window.confirm(t('action.confirm_new'))) return;
    game = fresh();
    tableChanged();
    active = null;
    save();
    render();
  });
  onLanguageChange(() => {
    buildControls();
    buildIngredientButtons();
    render();
  });
  render();
  askAgain();
}
