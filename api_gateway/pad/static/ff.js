// Foxglove Farm: a town laid out square by square (buildings with their goods, trails with
// their open sides), its score track and variant; the referee's score with each end-game
// effect, and the best final round step by step; several players' towns in tabs, and their
// standings. Kept on this device like the other game, what was asked of the referee asked
// again on load.

import { ask } from './api.js';
import { onLanguageChange, t } from './i18n.js';
import {
  GOODS, SIDES, buildingName, drawSquares, goodName, keyOf, kindOf, names, position, spaceName,
  squareContent, squareWords, townOf,
} from './ff-town.js';
import { shareActions } from './share.js';
import {
  call, chip, countedCells, el, loadSaved, playerTabs, rankingTable, rebuild, showProblems, tabKeys,
  uncertaintyView,
} from './ui.js';

const SAVED = 'referee.pad.ff';
const MAX_GOODS = 99;
const MAX_PLAYERS = 4;
const SEAT = /^\/players\/(\d+)(?:\/town)?(.*)$/; // a ranking's pointer: whose, and where in it

const newTown = () => ({
  name: '', track: 0, selected: null,
  tiles: { '0,0': { building: 'forest', goods: {} }, '0,1': { building: 'mine', goods: {} } },
  asked: [], // what the referee was asked of the town as it stands: 'score', 'plan'
  result: null, plan: null, // what the referee said: not kept
  problems: [], // each {pointer, detail, key}: key, the square of the tile it names
  sent: [], // the squares of the last request's tiles, in its order
  sentTown: null, // the last request's town, as sent
});
const fresh = () => ({
  variant: 'standard', towns: [newTown()], current: 0,
  ranked: false, // the towns as they stand were sent to be ranked
});

let game = fresh();
let standings = null; // the referee's ranking of the towns as they stand
let active = null; // what is highlighted: {kind: 'entry' | 'step', index}
const ui = {};

const town = () => game.towns[game.current];
const playerName = (kept, k) => kept.name.trim() || t('dfm.player', { n: k + 1 });

function save() {
  const towns = game.towns.map(({ name, track, selected, tiles, asked }) => ({ name, track, selected, tiles, asked }));
  localStorage.setItem(SAVED, JSON.stringify({ ...game, towns }));
}

/** The table this device kept; a record from before the pad held several towns (the
 * town's own fields at its top) is a one-town table. */
function restored(saved) {
  const towns = saved.towns ?? (saved.tiles ? [saved] : [{}]);
  return {
    ...fresh(), variant: saved.variant ?? 'standard', ranked: saved.ranked ?? false,
    current: Math.min(saved.current ?? 0, towns.length - 1),
    towns: towns.map(({ name, track, selected, tiles, asked }) => ({
      ...newTown(), ...Object.fromEntries(Object.entries({ name, track, selected, tiles, asked })
        .filter(([, value]) => value !== undefined)) })),
  };
}

/** The tiles an end-game entry's effects counted (`effects[].tiles`, each `{row, col}`),
 * and the trail tiles of the way each reached building was reached by (`via`, `[row, col]`
 * pairs); none when the referee does not list them. */
function countedTiles(entry) {
  return (entry.effects ?? []).flatMap((effect) => (effect.tiles ?? []).flatMap(
    (tile) => [tile, ...(tile.via ?? []).map(([row, col]) => ({ row, col }))]));
}

/** The squares the highlighted entry or plan step is about, and a plan step's path. */
function highlighted() {
  const cells = new Set();
  const add = ({ row, col }) => cells.add(keyOf(row, col));
  if (active?.kind === 'entry') {
    const entry = town().result?.end_game?.[active.index];
    if (entry) [entry, ...countedCells(entry), ...countedTiles(entry)].forEach(add);
  }
  if (active?.kind === 'step') {
    const step = town().plan?.steps?.[active.index];
    for (const [row, col] of step?.path ?? []) add({ row, col });
    for (const part of [step?.from, step?.to, ...(step?.picks ?? []).map((pick) => pick.from),
      ...(step?.choices ?? [])]) if (part) add(part);
  }
  return cells;
}

function locate(pointer) {
  const [, head, index] = pointer.split('/');
  const { sent } = town();
  if (head === 'tiles' && sent[index] !== undefined) {
    const [row, col] = position(sent[index]);
    return { element: ui.town.querySelector(`[data-key="sq-${sent[index]}"]`),
             place: t('space.title', { row, col }) };
  }
  if (head === 'score_track') return { element: ui.track, place: t('ff.score_track') };
  if (head === 'name') return { element: ui.name, place: t('dfm.name') };
  if (head === 'variant') return { element: ui.variant, place: t('ff.variant') };
  return { element: null, place: null };
}

function render() {
  ui.variant.value = game.variant;
  renderTabs();
  if (document.activeElement !== ui.track) ui.track.value = town().track;
  renderTown();
  renderEditor();
  renderScore();
  renderPlan();
  renderStandings();
  showProblems(ui.problems, town().problems, locate);
}

function choosePlayer(k) {
  game.current = k;
  active = null;
  save();
  render();
}

function renderTabs() {
  playerTabs({
    tablist: ui.tabs, panel: ui.panel, prefix: 'ff', names: game.towns.map(playerName),
    refused: game.towns.map((kept) => kept.problems.length > 0), current: game.current, choose: choosePlayer,
  });
  if (document.activeElement !== ui.name) ui.name.value = town().name;
  ui.name.placeholder = t('dfm.player', { n: game.current + 1 });
  ui.remove.hidden = game.towns.length === 1;
  ui.add.disabled = game.towns.length >= MAX_PLAYERS;
}

function renderStandings() {
  rebuild(ui.standings, ...(standings ? rankingTable(standings, [
    ['total', 'dfm.total_short'], ['goods_remaining', 'ff.goods_left'], ['tile_count', 'ff.tiles']],
  t('ff.tie_breaks')) : []));
}

function renderTown() {
  const lit = highlighted();
  const { tiles, selected } = town();
  drawSquares(ui.town, [...Object.keys(tiles), ...(selected ? [selected] : [])],
              (row, col) => square(row, col, lit));
}

/** The goods counts the referee says decide the total of a doubtful town: to check. */
const countsToCheck = (score) => (score?.uncertainty?.counts ?? []).filter((count) => count.decides);

function square(row, col, lit) {
  const key = keyOf(row, col);
  const tile = town().tiles[key];
  const entries = (town().result?.end_game ?? []).filter((entry) => entry.row === row && entry.col === col);
  const points = entries.reduce((sum, entry) => sum + entry.points, 0);
  const kind = kindOf(tile);
  const content = squareContent(tile);
  const words = squareWords(row, col, tile) + (entries.length ? `; ${t('points.long', { points })}` : '');
  const doubtful = Object.values(tile?.doubts ?? {}).some((others) => others.length);
  const toCheck = countsToCheck(town().result).some((count) => keyOf(count.row, count.col) === key);
  return el('button', {
    type: 'button',
    class: ['square', kind, lit.has(key) && 'lit', doubtful && 'doubtful', toCheck && 'to-check']
      .filter(Boolean).join(' '),
    'data-key': `sq-${key}`, 'data-row': row, 'data-col': col,
    'aria-pressed': String(town().selected === key),
    'aria-label': `${t('space.title', { row, col })}: ${words}`,
    onclick: () => {
      town().selected = key;
      save();
      render();
    },
  }, ...content, entries.length ? el('span', { class: 'earned', 'aria-hidden': 'true', text: `+${points}` }) : null);
}

function renderEditor() {
  const { selected: key, tiles, problems } = town();
  ui.editor.hidden = key === null;
  if (key === null) return;
  const [row, col] = position(key);
  const tile = tiles[key];
  const kind = kindOf(tile);
  ui.editorTitle.textContent = t('ff.editor', { row, col });
  for (const radio of ui.kinds) radio.checked = radio.value === kind;
  ui.buildingFields.hidden = kind !== 'building';
  ui.trailFields.hidden = kind !== 'trail';
  if (kind === 'building') {
    if (document.activeElement !== ui.building) ui.building.value = tile.building;
    for (const input of ui.goods.querySelectorAll('input[data-good]')) {
      if (document.activeElement !== input) input.value = tile.goods[input.dataset.good] ?? 0;
    }
    for (const input of ui.goods.querySelectorAll('input[data-doubt]')) {
      if (document.activeElement !== input) input.value = (tile.doubts?.[input.dataset.doubt] ?? []).join(' ');
    }
  }
  for (const button of ui.sides.querySelectorAll('button')) {
    button.setAttribute('aria-pressed', String(kind === 'trail' && tile.trail.includes(button.dataset.side)));
  }
  rebuild(ui.editorProblems, ...problems.filter((problem) => problem.key === key)
    .map((problem) => el('p', { class: 'refusal', text: problem.detail })));
}

const breakdownWords = (score) => t('ff.breakdown', {
  track: score.score_track, end: score.end_game_points, goods: score.goods_remaining, tiles: score.tile_count });
const entryTitle = (entry) => `${buildingName(entry.building)} (${spaceName(entry.row, entry.col)})`;

/** The town's score in words, to be shared: its total, then each end-game effect. */
function scoreWords(score) {
  return [t('ff.title'), t('ff.total', score), breakdownWords(score), ...score.end_game.map(
    (entry) => `${entryTitle(entry)}: ${t('points', entry)} · ${entry.explanation}`)].join('\n');
}

function renderScore() {
  const { result, sentTown } = town();
  if (!result) {
    rebuild(ui.summary);
    rebuild(ui.lines);
    return;
  }
  rebuild(ui.summary,
    el('p', { class: 'total', id: 'ff-total', text: t('ff.total', result) }),
    el('p', { text: breakdownWords(result) }),
    result.uncertainty ? uncertaintyView({
      id: 'ff-uncertainty', uncertainty: result.uncertainty, checks: countsToCheck(result),
      name: ({ row, col, good }) => `${t('space.title', { row, col })} · ${goodName(good, 2)}`,
      choose: ({ row, col }) => { town().selected = keyOf(row, col); save(); render(); },
    }) : null,
    shareActions({
      key: 'town', title: t('ff.title'), text: scoreWords(result), shareLabel: t('ff.share'),
      file: 'foxglove-farm-score.json', type: 'application/json', downloadLabel: t('share.json'),
      content: JSON.stringify({ town: sentTown, score: result }, null, 2),
    }));
  rebuild(ui.lines, ...result.end_game.map((entry, index) => el('li', {},
    el('button', {
      type: 'button', class: 'line', 'data-key': `entry-${index}`,
      'aria-pressed': String(active?.kind === 'entry' && active.index === index),
      onclick: () => highlight('entry', index),
    },
    el('strong', { text: entryTitle(entry) }),
    el('span', { class: 'pts', text: t('points', entry) }),
    el('span', { class: 'explanation', text: entry.explanation }),
    el('span', { class: 'rule', text: entry.rule })))));
}

export function stepWords(step) {
  const where = (at) => spaceName(at.row, at.col);
  switch (step.action) {
    case 'move':
      return t('step.move', { count: step.count, good: goodName(step.good, step.count),
                              from: where(step.from), to: where(step.to) });
    case 'haul':
      return t('step.haul', { to: where(step.to), picks: step.picks.map((pick) => t('step.pick', {
        count: pick.count, good: goodName(pick.good, pick.count), from: where(pick.from) })).join(', ') });
    case 'process':
      return [t('step.process', step), ...(step.choices ?? []).map((choice) => t('step.keeps', {
        space: where(choice),
        goods: GOODS.filter((good) => choice.goods?.[good]).map((good) => `${choice.goods[good]} ${goodName(good, choice.goods[good])}`).join(', '),
      }))].join(' ');
    default:
      return step.action;
  }
}

function renderPlan() {
  const { plan, track } = town();
  if (!plan) {
    rebuild(ui.plan);
    return;
  }
  const steps = plan.steps.map((step, index) => el('li', {}, el('button', {
    type: 'button', class: `step ${step.action}`, 'data-key': `step-${index}`,
    'aria-pressed': String(active?.kind === 'step' && active.index === index),
    onclick: () => highlight('step', index), text: stepWords(step),
  })));
  rebuild(ui.plan,
    el('p', { class: 'total', id: 'ff-plan-total', text: t('ff.plan_total', plan) }),
    el('p', { text: t('ff.plan_breakdown', { track, processing: plan.processing_points,
                                             end: plan.end_game_points, goods: plan.goods_remaining }) }),
    el('p', { class: 'note', text: plan.optimal === false ? t('ff.bound', { bound: plan.upper_bound }) : t('ff.optimal') }),
    el('h3', { text: t('ff.steps') }),
    steps.length ? el('ol', { class: 'steps' }, ...steps) : el('p', { text: t('ff.no_steps') }));
}

function highlight(kind, index) {
  active = active?.kind === kind && active.index === index ? null : { kind, index };
  render();
}

/** After any edit of the table: the standings are out of date. */
function tableChanged() {
  standings = null;
  game.ranked = false;
}

/** After an edit of the current town (`every`: of every town, the variant): its answers
 * are out of date, and so are the refusals of what changed (the tile at `key`, or the
 * field `pointer`), and the standings. */
function changed({ key = null, pointer = null, every = false }) {
  for (const kept of every ? game.towns : [town()]) {
    Object.assign(kept, { result: null, plan: null, asked: [] });
    kept.problems = kept.problems.filter((problem) => (key === null || problem.key !== key)
      && (pointer === null || problem.pointer !== pointer));
  }
  tableChanged();
  active = null;
  save();
  render();
}

function editTile(edit) {
  const kept = town();
  const key = kept.selected;
  const tile = edit(kept.tiles[key]);
  if (tile) kept.tiles[key] = tile;
  else delete kept.tiles[key];
  changed({ key });
}

/** Ask the referee for the town's `question` ('score' or 'plan'), and keep that it was
 * asked (to ask again on load). */
function askAbout(question, kept = town()) {
  if (!kept.asked.includes(question)) kept.asked.push(question);
  save();
  return question === 'score'
    ? send(kept, ui.score, '/v1/foxglove-farm/score', (answer) => { kept.result = answer; })
    : send(kept, ui.planButton, '/v1/foxglove-farm/final-round/plan', (answer) => { kept.plan = answer; });
}

/** Keep `problems` as the refusals of `kept`'s town (pointers into it), each on the
 * square of the tile it names; the first such square is chosen. */
function refuse(kept, problems) {
  kept.problems = problems.map((problem) => {
    const [, head, index] = (problem.pointer ?? '').split('/');
    return { ...problem, key: head === 'tiles' ? kept.sent[index] ?? null : null };
  });
  const refused = kept.problems.find((problem) => problem.key);
  if (refused) kept.selected = refused.key;
}

async function send(kept, button, path, show) {
  kept.sentTown = townOf(kept, game.variant);
  const outcome = await call(button, path, kept.sentTown);
  if (!outcome) return;
  active = null;
  refuse(kept, outcome.problems ?? []);
  show(outcome.answer ?? null);
  render();
}

/** Rank the players' towns; a refusal is shown on the town (and tile) it names. */
async function rank() {
  game.ranked = true;
  save();
  const players = game.towns.map((kept, k) => ({ name: playerName(kept, k), town: townOf(kept, game.variant, false) }));
  const outcome = await call(ui.rank, '/v1/foxglove-farm/rank', { players });
  if (!outcome) return;
  const refusals = game.towns.map(() => []);
  for (const { pointer = '', detail } of outcome.problems ?? []) {
    const [, seat, inside] = SEAT.exec(pointer) ?? [];
    refusals[seat in refusals ? seat : game.current].push({ pointer: seat in refusals ? inside : pointer, detail });
  }
  game.towns.forEach((kept, k) => refuse(kept, refusals[k]));
  standings = outcome.answer ?? null;
  render();
}

function buildControls() {
  rebuild(ui.goods, ...GOODS.map((good) => el('label', { class: 'count' }, chip('good', good), ` ${goodName(good)} `,
    el('input', {
      type: 'number', min: 0, max: MAX_GOODS, step: 1, inputmode: 'numeric', 'data-good': good,
      'data-key': `good-${good}`,
      oninput: (event) => editTile((tile) => {
        const count = Number(event.target.value);
        if (count > 0) tile.goods[good] = count;
        else delete tile.goods[good];
        return tile;
      }),
    }),
    el('input', {
      type: 'text', inputmode: 'numeric', class: 'doubt', 'data-doubt': good, 'data-key': `doubt-${good}`,
      placeholder: '?', 'aria-label': t('ff.doubt', { good: goodName(good, 2) }), autocomplete: 'off',
      oninput: (event) => editTile((tile) => {
        const others = event.target.value.split(/[\s,;]+/).filter(Boolean).map(Number).filter(Number.isInteger);
        return { ...tile, doubts: { ...tile.doubts, [good]: others } };
      }),
    }))));
  rebuild(ui.sides, ...SIDES.map((side) => el('button', {
    type: 'button', class: `side ${side}`, 'data-side': side, 'data-key': `side-${side}`,
    'aria-label': t(`compass.${side}`), 'aria-pressed': 'false', text: t(`compass_short.${side}`),
    onclick: () => editTile((tile) => {
      const sides = new Set(tile.trail);
      if (!sides.delete(side)) sides.add(side);
      return { trail: SIDES.filter((s) => sides.has(s)) };
    }),
  })));
}

async function loadCatalog() {
  try {
    const { answer } = await ask('/v1/foxglove-farm/catalog');
    for (const building of answer?.buildings ?? []) names.set(building.id, building.name);
    rebuild(ui.catalog, ...[...names].map(([id, name]) => el('option', { value: id, label: name })));
    render();
  } catch {
    // A referee without the catalog endpoint: any id may be typed, and the referee
    // refuses one it does not know on its tile.
  }
}

/** What the referee was asked before the page was (re)loaded, asked again: each town's
 * questions, then the standings. */
async function askAgain() {
  await Promise.all(game.towns.flatMap((kept) => kept.asked.map((question) => askAbout(question, kept))));
  if (game.ranked) await rank();
}

export function init() {
  for (const [key, id] of Object.entries({
    town: 'ff-town', editor: 'ff-editor', editorTitle: 'ff-editor-title',
    editorProblems: 'ff-editor-problems', building: 'ff-building', catalog: 'ff-catalog',
    buildingFields: 'ff-building-fields', trailFields: 'ff-trail-fields', goods: 'ff-goods',
    sides: 'ff-sides', variant: 'ff-variant', track: 'ff-track', score: 'ff-score',
    planButton: 'ff-plan', problems: 'ff-problems', summary: 'ff-summary', lines: 'ff-lines',
    plan: 'ff-plan-result', reset: 'ff-reset', tabs: 'ff-tabs', panel: 'ff-panel',
    add: 'ff-add-player', remove: 'ff-remove-player', name: 'ff-name', rank: 'ff-rank',
    standings: 'ff-standings',
  })) ui[key] = document.getElementById(id);
  ui.kinds = [...document.querySelectorAll('input[name="ff-kind"]')];
  game = restored(loadSaved(SAVED, {}));

  buildControls();
  for (const radio of ui.kinds) {
    radio.addEventListener('change', () => editTile((tile) => ({
      empty: () => null,
      building: () => ({ building: tile?.building ?? '', goods: tile?.goods ?? {} }),
      trail: () => ({ trail: tile?.trail ?? [] }),
    }[radio.value]())));
  }
  ui.building.addEventListener('input', () => editTile((tile) => ({ ...tile, building: ui.building.value })));
  ui.variant.addEventListener('change', () => {
    game.variant = ui.variant.value;
    changed({ pointer: '/variant', every: true });
  });
  ui.track.addEventListener('input', () => {
    town().track = ui.track.value;
    changed({ pointer: '/score_track' });
  });
  ui.name.addEventListener('input', () => {
    town().name = ui.name.value;
    tableChanged();
    save();
    render();
  });
  tabKeys(ui.tabs);
  ui.add.addEventListener('click', () => {
    game.towns.push(newTown());
    game.current = game.towns.length - 1;
    tableChanged();
    save();
    render();
    ui.name.focus();
  });
  ui.remove.addEventListener('click', () => {
    if (!window.confirm(t('ff.confirm_remove', { name: playerName(town(), game.current) }))) return;
    game.towns.splice(game.current, 1);
    game.current = Math.max(0, game.current - 1);
    tableChanged();
    save();
    render();
  });
  ui.score.addEventListener('click', () => askAbout('score'));
  ui.planButton.addEventListener('click', () => askAbout('plan'));
  ui.rank.addEventListener('click', rank);
  ui.reset.addEventListener('click', () => {
    if (!window.confirm(t('action.confirm_new'))) return;
    game = fresh();
    changed({});
  });
  onLanguageChange(() => {
    buildControls();
    render();
  });
  render();
  loadCatalog();
  askAgain();
}
