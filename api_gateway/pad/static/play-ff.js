// Foxglove Farm played along: the setup (the players and the variant each plays, a solo
// setup, the tiles drawn for the central board), then each action as the referee expects
// it. The legal actions come from its `/legal-moves` answer: those that leave no choice
// are a button each, the others a list whose chosen action can be edited before it is
// sent (so an illegal one can be entered, and is refused). The players name the tiles
// drawn from the stacks; in the fourth round the best-final-round planner is offered as
// a hint. The towns are drawn as the Foxglove Farm tab draws them (ff-town.js).

import { buildingName, drawTown } from './ff-town.js';
import { stepWords } from './ff.js';
import { t } from './i18n.js';
import { el, rebuild } from './ui.js';

export const SLUG = 'foxglove-farm';
export const VALIDATE = 'actions/validate';
export const MOVE = 'action'; // an action's field in a validate request
export const LOG = 'actions'; // the log's field in a replay request
export const PAGES = { setup: 'pff-setup', play: 'pff-play', start: 'pffsetup-start', problems: 'pffsetup-problems' };
const MAX_PLAYERS = 4;
const SOLO_SETUPS = 6;
const ROUNDS = 4;
const VARIANTS = ['standard', 'expert'];
const QUICK = new Set(['produce', 'pass', 'process', 'end_round']); // no choice left: one tap

const ui = {};
let shown = null; // what renderPlay last drew: {key, game, state, context}; key, the state's JSON
let legal = null; // the legal-moves answer for `shown.key`
let hint = null; // the planner's answer for `shown.key`, and for whom: {player, plan}
let asking = null; // the key of the state whose legal actions are being asked

export const isOver = (state) => state.phase === 'game_over';

/** A new game's setup, as the pad edits it: four seats (those left unnamed are left out). */
export function newSetup() {
  return { players: Array.from({ length: MAX_PLAYERS }, () => ({ name: '', variant: 'standard' })),
           start_player: 0, solo: null, a_tiles: [], c_tiles: [] };
}

/** The setup as the referee reads it (`/games`, and a replay's `setup`). */
export function setupBody(setup) {
  return {
    players: setup.players.filter((p) => p.name.trim()).map((p) => ({ name: p.name.trim(), variant: p.variant })),
    start_player: setup.start_player, a_tiles: setup.a_tiles, c_tiles: setup.c_tiles,
    ...(setup.solo ? { solo: setup.solo } : {}),
  };
}

/** A building typed by its printed name or its id, as the referee names it. */
const buildingId = (typed) => typed.trim().toLowerCase().replaceAll(/[\s-]+/g, '_');

/** Tiles named one by one (from the catalog's list, `#ff-catalog`), each removable. */
function tilesEntry(prefix, label, tiles, redraw) {
  const input = el('input', { type: 'text', id: `${prefix}-tile`, list: 'ff-catalog', autocomplete: 'off',
                              autocapitalize: 'none', spellcheck: 'false' });
  const add = () => {
    if (!buildingId(input.value)) return;
    tiles.push(buildingId(input.value));
    redraw();
    document.getElementById(`${prefix}-tile`)?.focus();
  };
  input.addEventListener('keydown', (event) => { if (event.key === 'Enter') { event.preventDefault(); add(); } });
  return el('div', { class: 'tiles-entry' },
    el('ol', { class: 'tile-list', id: `${prefix}-tiles` }, ...tiles.map((id, k) => el('li', {}, `${buildingName(id)} `,
      el('button', { type: 'button', class: 'quiet', text: '✕', 'aria-label': t('play.remove_tile', { n: k + 1 }),
                     onclick: () => { tiles.splice(k, 1); redraw(); } })))),
    el('p', {}, el('label', { for: `${prefix}-tile`, text: label }), input),
    el('button', { type: 'button', id: `${prefix}-add`, text: t('play.add_tile'), onclick: add }));
}

export function init() {
  for (const id of ['pffsetup-players', 'pffsetup-first', 'pffsetup-solo', 'pffsetup-a', 'pffsetup-c',
    'pff-turn', 'pff-quick', 'pff-draw', 'pff-choice', 'pff-action', 'pff-submit', 'pff-hint',
    'pff-hint-result', 'pff-board', 'pff-towns']) ui[id] = document.getElementById(id);
}

/** Show the game's setup for editing; `changed` saves it. */
export function renderSetup(game, changed) {
  const { setup } = game;
  const redraw = () => { changed(); renderSetup(game, changed); };
  rebuild(ui['pffsetup-players'], ...setup.players.map((p, seat) => el('fieldset', { class: 'setup-player' },
    el('legend', { text: t('play.player_name', { n: seat + 1 }) }),
    el('input', { type: 'text', id: `pffsetup-name-${seat}`, maxlength: 100, autocomplete: 'off', value: p.name,
                  'aria-label': t('play.player_name', { n: seat + 1 }),
                  onchange: (event) => { p.name = event.target.value; redraw(); } }),
    el('label', { for: `pffsetup-variant-${seat}`, text: ` ${t('ff.variant')} ` }),
    el('select', { id: `pffsetup-variant-${seat}`, onchange: (event) => { p.variant = event.target.value; changed(); } },
      ...VARIANTS.map((variant) => el('option', { value: variant, text: t(`ff.variant.${variant}`), selected: p.variant === variant }))))));
  const named = setup.players.filter((p) => p.name.trim());
  rebuild(ui['pffsetup-first'], ...named.map((p, k) => el('option', { value: k, text: p.name.trim() })));
  ui['pffsetup-first'].value = String(setup.start_player);
  ui['pffsetup-first'].onchange = () => { setup.start_player = Number(ui['pffsetup-first'].value); changed(); };
  rebuild(ui['pffsetup-solo'], el('option', { value: '', text: t('pff.not_solo') }),
    ...Array.from({ length: SOLO_SETUPS }, (_, k) => el('option', { value: k + 1, text: t('pff.solo_setup', { n: k + 1 }) })));
  ui['pffsetup-solo'].value = setup.solo ? String(setup.solo) : '';
  ui['pffsetup-solo'].onchange = () => { setup.solo = Number(ui['pffsetup-solo'].value) || null; changed(); };
  rebuild(ui['pffsetup-a'], tilesEntry('pffsetup-a', t('pff.a_tile'), setup.a_tiles, redraw));
  rebuild(ui['pffsetup-c'], tilesEntry('pffsetup-c', t('pff.c_tile'), setup.c_tiles, redraw));
}

/** Where a setup problem's pointer (into the `/games` body) is shown. */
export function setupPlace(pointer) {
  const seat = /^\/players\/(\d+)/.exec(pointer);
  if (seat) return { element: document.getElementById(`pffsetup-name-${seat[1]}`), place: t('dfm.player', { n: Number(seat[1]) + 1 }) };
  const field = { a_tiles: ['pffsetup-a', 'pff.a_tiles'], c_tiles: ['pffsetup-c', 'pff.c_tiles'],
                  solo: ['pffsetup-solo', 'pff.solo'], start_player: ['pffsetup-first', 'pff.start_player'] }[pointer.split('/')[1]];
  return field ? { element: ui[field[0]], place: t(field[1]) } : { element: null, place: null };
}

const at = (position) => (position ? t('space', position) : '?');
const goodsWords = (goods) => Object.entries(goods ?? {})
  .map(([good, count]) => `${count} ${t(`${count > 1 ? 'goods' : 'good'}.${good}`)}`).join(', ');

/** What an action did, in words. */
export function describeMove(state, move) {
  const name = state.players[move.player]?.name ?? '?';
  const paying = move.payment?.length ? ` ${t('pff.paying', { goods: move.payment.map((part) => goodsWords(part.goods)).join(', ') })}` : '';
  switch (move.action) {
    case 'build_building':
      return t('pff.did.build_building', { name, building: buildingName(move.building), at: at(move.position) }) + paying;
    case 'build_trails':
      return t('pff.did.build_trails', { name, at: (move.trails ?? []).map((trail) => at(trail.position)).join('; ') }) + paying;
    case 'transport':
      return t('pff.did.transport', { name, goods: goodsWords({ [move.good]: move.count ?? 1 }), from: at(move.from), to: at(move.to) });
    case 'haul':
      return t('pff.did.haul', { name, to: at(move.to) });
    case 'draw_tiles':
      return t('pff.did.draw_tiles', { tiles: (move.tiles ?? []).map(buildingName).join(', ') });
    default:
      return QUICK.has(move.action) ? t(`pff.did.${move.action}`, { name }) : String(move.action);
  }
}

/** The element a violation's pointer (into the validate body) names: the town square of
 * the position it leads to, the tiles drawn, or the action as entered. */
export function refusedElement(pointer, move) {
  if (pointer.startsWith('/action/tiles')) return ui['pff-draw'];
  let part = { action: move };
  let position = null;
  for (const step of pointer.split('/').slice(1)) {
    part = part?.[step];
    if (Number.isInteger(part?.row) && Number.isInteger(part?.col)) position = part;
  }
  const square = position && document.querySelector(`#pff-town-${move.player} [data-key="sq-${position.row},${position.col}"]`);
  return square ?? ui['pff-action'];
}

function expectedWords(state, answer) {
  if (isOver(state)) return t('play.turn.over');
  if (!answer) return t('pff.turn.asking');
  const { expected, player } = answer.turn;
  const names = [...new Set(answer.moves.map((move) => move.player))].map((seat) => state.players[seat].name).join(', ');
  return t(`pff.turn.${expected}`, { name: state.players[player]?.name ?? '', names });
}

/** Show the game in play at `state`; `judge(action)` asks the referee for a ruling,
 * `ask(button, path, body)` answers a question that changes nothing. */
export function renderPlay(game, state, context) {
  const key = JSON.stringify(state);
  if (shown?.key !== key) {
    legal = null;
    hint = null;
    ui['pff-action'].value = '';
  }
  shown = { key, game, state, context };
  if (!legal && asking !== key) askLegal(key, state, context.ask);
  const { judge } = context;
  const expected = isOver(state) ? null : legal?.turn.expected;
  ui['pff-turn'].replaceChildren(
    el('span', { class: 'round', text: `${t('pff.round_of', { round: state.round, rounds: ROUNDS })} · ${t(`pff.phase.${state.phase}`)} · ` }),
    el('strong', { text: expectedWords(state, legal) }));
  const moves = (legal?.moves ?? []).map((move, index) => ({ move, index }));
  rebuild(ui['pff-quick'], ...moves.filter(({ move }) => QUICK.has(move.action)).map(({ move, index }) => el('button', {
    type: 'button', 'data-move': index, text: describeMove(state, move), onclick: () => judge(move) })));
  const listed = moves.filter(({ move }) => !QUICK.has(move.action));
  const kinds = [...new Set(listed.map(({ move }) => move.action))];
  rebuild(ui['pff-choice'], el('option', { value: '', text: t(listed.length ? 'pff.choose' : 'pff.choose_none', { count: listed.length }) }),
    ...kinds.map((kind) => el('optgroup', { label: t(`pff.kind.${kind}`) }, ...listed.filter(({ move }) => move.action === kind)
      .map(({ move, index }) => el('option', { value: index, text: describeMove(state, move) })))));
  ui['pff-choice'].onchange = () => {
    const chosen = legal?.moves[Number(ui['pff-choice'].value)];
    if (ui['pff-choice'].value && chosen) ui['pff-action'].value = JSON.stringify(chosen, null, 1);
  };
  ui['pff-submit'].onclick = () => {
    let action;
    try {
      action = JSON.parse(ui['pff-action'].value);
    } catch {
      ui['pff-turn'].append(el('span', { class: 'hint', text: ` ${t('pff.bad_action')}` }));
      return;
    }
    judge(action);
  };
  renderDraw(game, state, expected === 'draw_tiles', judge);
  renderHint(state, expected === 'transport' && state.round === ROUNDS, context.ask);
  renderBoard(state.board);
  rebuild(ui['pff-towns'], ...state.players.map((p, seat) => {
    const town = el('div', { class: 'town', id: `pff-town-${seat}` });
    drawTown(town, p.town);
    return el('section', { class: 'play-town', 'aria-label': t('pff.town', { name: p.name }) },
      el('h3', { text: t('pff.town_title', { name: p.name, variant: t(`ff.variant.${p.town.variant}`), track: p.town.score_track }) }),
      el('div', { class: 'town-scroll' }, town));
  }));
}

/** Ask the referee what may be done in the state keyed `key`; drawn again when it answers. */
async function askLegal(key, state, ask) {
  if (isOver(state)) return;
  asking = key;
  const answer = await ask(ui['pff-choice'], `/v1/${SLUG}/legal-moves`, { state });
  asking = null;
  if (!answer || shown?.key !== key) return;
  legal = answer;
  renderPlay(shown.game, shown.state, shown.context);
}

/** After a ruling the hint is out of date (the action entered stays, to be corrected). */
export function forget() {
  hint = null;
}

function renderDraw(game, state, wanted, judge) {
  ui['pff-draw'].hidden = !wanted;
  if (!wanted) return;
  game.reveal ??= { tiles: [] };
  const entered = game.reveal;
  const empty = [...state.board.offer, ...state.board.c_spaces].filter((space) => !space).length;
  const redraw = () => renderDraw(game, state, wanted, judge);
  rebuild(ui['pff-draw'],
    el('h3', { text: t('pff.draw_title') }),
    el('p', { class: 'hint', text: t('pff.draw_hint', { count: empty }) }),
    tilesEntry('pff-draw', t('pff.drawn_tile'), entered.tiles, redraw),
    el('button', { type: 'button', class: 'primary', id: 'pff-draw-done', text: t('pff.draw_done'),
                   onclick: () => judge({ action: 'draw_tiles', tiles: entered.tiles }) }));
}

function renderHint(state, offered, ask) {
  const player = legal?.turn.player;
  ui['pff-hint'].hidden = !offered;
  ui['pff-hint'].onclick = async () => {
    const key = shown.key;
    const town = { ...state.players[player].town, ...(state.catalog ? { catalog: state.catalog } : {}) };
    const plan = await ask(ui['pff-hint'], `/v1/${SLUG}/final-round/plan`, town);
    if (!plan || shown.key !== key) return;
    hint = { player, plan };
    renderHint(state, offered, ask);
  };
  if (!offered || !hint) { rebuild(ui['pff-hint-result']); return; }
  rebuild(ui['pff-hint-result'],
    el('p', { class: 'total', text: t('pff.hint_total', { name: state.players[hint.player].name, total: hint.plan.total }) }),
    hint.plan.steps.length ? el('ol', { class: 'steps' }, ...hint.plan.steps.map((step) => el('li', { text: stepWords(step) })))
      : el('p', { text: t('ff.no_steps') }));
}

function renderBoard(board) {
  const spaces = (list) => list.map((space) => (space ? `${buildingName(space.building)}${space.count > 1 ? ` ×${space.count}` : ''}` : t('empty')))
    .join(' · ');
  rebuild(ui['pff-board'],
    el('p', {}, el('strong', { text: `${t('pff.offer')}: ` }), spaces(board.offer)),
    el('p', {}, el('strong', { text: `${t('pff.c_spaces')}: ` }), spaces(board.c_spaces)),
    el('p', { class: 'hint', text: t('pff.stacks', board.stacks) }));
}

/** The final scores, effect by effect, and the standings with their tie-breaks. */
export function renderEnd(container, result) {
  const names = result.state.players.map((p) => p.name);
  const { solo } = result;
  rebuild(container,
    el('h2', { text: t('play.standings') }),
    el('table', { id: 'play-standings' },
      el('thead', {}, el('tr', {}, ...['play.place', 'play.player', 'play.points', 'pff.goods_left', 'pff.tiles']
        .map((key) => el('th', { scope: 'col', text: t(key) })))),
      el('tbody', {}, ...result.standings.map((s) => el('tr', {},
        el('td', { text: String(s.place) }), el('th', { scope: 'row', text: s.name }), el('td', { text: String(s.total) }),
        el('td', { text: String(s.goods_remaining) }), el('td', { text: String(s.tile_count) }))))),
    el('p', { class: 'winners', text: t('play.winners', { names: result.winners.join(', ') }) }),
    solo ? el('p', { class: 'solo', text: t('pff.solo_outcome', { name: solo.name, thresholds: solo.thresholds.join(', '),
                                                                   reached: solo.reached.join(', ') || '—' }) }) : null,
    el('h3', { text: t('play.scores') }),
    ...result.scores.map((score, seat) => el('div', { class: 'play-score', 'data-seat': seat },
      el('p', { class: 'total', text: t('play.total', { name: names[seat], total: score.total }) }),
      el('p', { text: t('ff.breakdown', { track: score.score_track, end: score.end_game_points,
                                          goods: score.goods_remaining, tiles: score.tile_count }) }),
      el('ol', { class: 'lines' }, ...score.end_game.map((entry) => el('li', { class: 'line' },
        el('strong', { text: `${buildingName(entry.building)} (${t('space', entry)}): ${t('points', entry)} ` }),
        el('span', { class: 'explanation', text: entry.explanation })))))));
}
