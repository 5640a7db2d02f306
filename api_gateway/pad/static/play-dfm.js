// Downtown Farmers Market played along: the setup (players, mode, each one's Challenge
// tiles as dealt, the tiles turned over), then each turn as the referee expects it:
// tap a market tile and a space of the player's grid (or discard it), say which tiles
// came up from the pile, and the referee rules on it (play.js shows the ruling).

import { INGREDIENTS, brief, chooseChallenge, describe } from './dfm-challenges.js';
import { t } from './i18n.js';
import { chip, el, rebuild } from './ui.js';

export const SLUG = 'downtown-farmers-market';
export const VALIDATE = 'moves/validate';
export const MOVE = 'move'; // a move's field in a validate request
export const LOG = 'moves'; // the log's field in a replay request
export const PAGES = { setup: 'pdfm-setup', play: 'pdfm-play', start: 'psetup-start', problems: 'psetup-problems' };
const SIZE = 4;
const MAX_PLAYERS = 4;
const MAX_TILE = 3;
const FACE_UP = { standard: 5, young_shopper: 3 };
const REVEAL = { standard: 4, young_shopper: 1 };
const LINES = { rows: 'row_challenges', columns: 'column_challenges' };

const ui = {};
let selected = null; // the index of the market tile tapped, in the current state
let legal = []; // the spaces the last legal-moves answer allows the selected tile

/** A control's name in words (its chips are hidden from screen readers). */
const hiddenWords = (text) => el('span', { class: 'visually-hidden', text });
const tileWords = (tile) => tile.map((i) => t(`ingredient.${i}`)).join(', ');
const sameTile = (a, b) => [...a].sort().join() === [...b].sort().join();

/** A new game's setup, as the pad edits it: four seats (those left unnamed are left out). */
export function newSetup() {
  const seat = () => ({ name: '', row_challenges: Array(SIZE).fill(null),
                        column_challenges: Array(SIZE).fill(null) });
  return { mode: 'standard', players: Array.from({ length: MAX_PLAYERS }, seat), first_player: 0,
           face_up: [], draft: [] };
}

/** The setup as the referee reads it (`/games`, and a replay's `setup`). */
export function setupBody(setup) {
  const young = setup.mode === 'young_shopper';
  return {
    mode: setup.mode,
    players: setup.players.filter((p) => p.name.trim()).map((p) => ({
      name: p.name.trim(),
      board: young ? { mode: setup.mode } : {
        mode: setup.mode,
        row_challenges: p.row_challenges.filter(Boolean),
        column_challenges: p.column_challenges.filter(Boolean),
      },
    })),
    first_player: setup.first_player,
    face_up: setup.face_up,
  };
}

/** A tile being entered: its ingredients so far, a button per ingredient, and "add". */
function tileEntry(prefix, draft, onAdd, redraw) {
  return el('div', { class: 'tile-entry', role: 'group', 'aria-label': t('play.tile_draft') },
    el('div', { class: 'tile-preview', id: `${prefix}-draft` },
      ...draft.map((i) => chip('ingredient', i)),
      el('span', { class: 'words', text: tileWords(draft) })),
    el('div', { class: 'ingredient-buttons', id: `${prefix}-ingredients` },
      ...INGREDIENTS.map((i) => el('button', {
        type: 'button', class: 'ingredient', 'data-ingredient': i,
        'aria-label': t('play.add_ingredient', { ingredient: t(`ingredient.${i}`) }),
        disabled: draft.length >= MAX_TILE,
        onclick: () => { draft.push(i); redraw(); },
      }, chip('ingredient', i), ` ${t(`ingredient.${i}`)}`))),
    el('button', { type: 'button', id: `${prefix}-add`, disabled: !draft.length,
                   text: t('play.add_tile'), onclick: () => onAdd([...draft]) }));
}

function tileList(prefix, tiles, onRemove) {
  return el('ol', { class: 'tile-list', id: `${prefix}-tiles` }, ...tiles.map((tile, k) => el('li', {},
    ...tile.map((i) => chip('ingredient', i)), ` ${tileWords(tile)} `,
    el('button', { type: 'button', class: 'quiet', text: '✕', 'aria-label': t('play.remove_tile', { n: k + 1 }),
                   onclick: () => onRemove(k) }))));
}

export function init() {
  for (const id of ['psetup-players', 'psetup-first', 'psetup-face-up',
    'psetup-start', 'psetup-problems', 'play-turn', 'play-face-up', 'play-reveal', 'play-discard',
    'play-legal', 'play-boards']) ui[id] = document.getElementById(id);
}

/** Show the game's setup for editing; `changed` saves it. */
export function renderSetup(game, changed) {
  const { setup } = game;
  const redraw = () => { changed(); renderSetup(game, changed); };
  for (const radio of document.querySelectorAll('input[name="psetup-mode"]')) {
    radio.checked = radio.value === setup.mode;
    radio.onchange = () => { setup.mode = radio.value; redraw(); };
  }
  const young = setup.mode === 'young_shopper';
  rebuild(ui['psetup-players'], ...setup.players.map((p, seat) => el('fieldset', { class: 'setup-player' },
    el('legend', { text: t('play.player_name', { n: seat + 1 }) }),
    el('input', { type: 'text', id: `psetup-name-${seat}`, maxlength: 100, autocomplete: 'off', value: p.name,
                  'aria-label': t('play.player_name', { n: seat + 1 }),
                  onchange: (event) => { p.name = event.target.value; redraw(); } }),
    young ? null : el('div', { class: 'setup-challenges' }, ...Object.entries(LINES).flatMap(([lines, field]) =>
      p[field].map((challenge, index) => {
        const title = `${p.name || t('dfm.player', { n: seat + 1 })} · ${t(
          lines === 'rows' ? 'dfm.row_challenge' : 'dfm.column_challenge', { n: index + 1 })}`;
        return el('button', {
          type: 'button', class: 'slot', 'data-key': `psetup-${seat}-${lines}-${index}`,
          title: challenge ? describe(challenge) : null,
          onclick: async () => {
            const chosen = await chooseChallenge(title, challenge);
            if (chosen === undefined) return;
            p[field][index] = chosen;
            redraw();
          },
        }, el('span', { class: 'visually-hidden', text: `${title}: ` }),
        ...(challenge ? brief(challenge) : [el('span', { class: 'brief', text: t('dfm.choose') })]));
      }))))));
  const named = setup.players.map((p, seat) => [p.name.trim(), seat]).filter(([name]) => name);
  rebuild(ui['psetup-first'], ...named.map(([name], k) => el('option', { value: k, text: name })));
  ui['psetup-first'].value = String(setup.first_player);
  ui['psetup-first'].onchange = () => { setup.first_player = Number(ui['psetup-first'].value); changed(); };
  rebuild(ui['psetup-face-up'],
    tileList('psetup', setup.face_up, (k) => { setup.face_up.splice(k, 1); redraw(); }),
    setup.face_up.length < FACE_UP[setup.mode]
      ? tileEntry('psetup', setup.draft, (tile) => { setup.face_up.push(tile); setup.draft = []; redraw(); }, redraw)
      : null);
}

/** Where a setup problem's pointer (into the `/games` body) is shown. */
export function setupPlace(pointer) {
  const seat = /^\/players\/(\d+)/.exec(pointer);
  if (seat) return { element: document.getElementById(`psetup-name-${seat[1]}`), place: t('dfm.player', { n: Number(seat[1]) + 1 }) };
  if (pointer.startsWith('/face_up')) return { element: ui['psetup-face-up'], place: t('play.face_up_setup') };
  return { element: null, place: null };
}

/** What a move did, in words. */
export function describeMove(state, move) {
  const name = state.players[move.player]?.name;
  if (move.action === 'take') return t('play.took', { name, tile: tileWords(move.tile), row: move.row + 1, col: move.col + 1 });
  if (move.action === 'discard') return t('play.discarded', { name, tile: tileWords(move.tile) });
  return t('play.revealed', { tiles: move.tiles.map(tileWords).join(' · ') });
}

/** The element a violation's pointer (into the validate body) names. */
export function refusedElement(pointer, move, state) {
  if (move.action === 'reveal') return ui['play-reveal'];
  if (/^\/move\/(row|col)/.test(pointer) || (move.action === 'take' && !pointer.startsWith('/move/tile'))) {
    return document.querySelector(`[data-key="space-${move.row}-${move.col}"]`);
  }
  const shown = state.face_up.findIndex((tile) => sameTile(tile, move.tile));
  return shown < 0 ? ui['play-face-up'] : document.querySelector(`[data-key="face-${shown}"]`);
}

/** Show the game in play at `state`; `judge(move)` asks the referee, `ask(path, body)`
 * answers a question that changes nothing. */
export function renderPlay(game, state, { judge, ask }) {
  const player = state.players[state.current_player];
  const expected = state.game_over ? 'over' : state.expected;
  if (selected !== null && !state.face_up[selected]) selected = null;
  ui['play-turn'].replaceChildren(
    el('span', { class: 'round', text: `${t('play.round_of', state)} · ` }),
    el('strong', { text: t(`play.turn.${expected}`, { name: player.name, count: REVEAL[state.mode] }) }));
  rebuild(ui['play-face-up'], ...state.face_up.map((tile, k) => el('button', {
    type: 'button', class: 'market-tile', 'data-key': `face-${k}`, 'aria-pressed': String(selected === k),
    disabled: expected !== 'take' && expected !== 'discard',
    onclick: () => { selected = selected === k ? null : k; legal = []; renderPlay(game, state, { judge, ask }); },
  }, ...tile.map((i) => chip('ingredient', i)), hiddenWords(t('play.tile', { n: k + 1, tile: tileWords(tile) })))));
  const tile = selected === null ? null : state.face_up[selected];
  ui['play-discard'].disabled = expected !== 'discard' || tile === null;
  ui['play-discard'].onclick = () => judge({ action: 'discard', player: state.current_player, tile });
  ui['play-legal'].disabled = expected !== 'take';
  ui['play-legal'].onclick = async () => {
    if (tile === null) { ui['play-turn'].append(el('span', { class: 'hint', text: ` ${t('play.choose_tile')}` })); return; }
    const answer = await ask(ui['play-legal'], `/v1/${SLUG}/legal-moves`, { state });
    if (!answer) return;
    legal = answer.moves.filter((move) => move.action === 'take' && sameTile(move.tile, tile));
    renderPlay(game, state, { judge, ask });
  };
  renderReveal(game, state, expected === 'reveal', judge);
  rebuild(ui['play-boards'], ...state.players.map((p, seat) => {
    const own = seat === state.current_player && expected === 'take';
    return el('div', { class: `play-board${seat === state.current_player ? ' current' : ''}` },
      el('h3', { text: t('play.grid', { name: p.name }) }),
      el('div', { class: 'play-grid', role: 'group', 'aria-label': t('play.grid', { name: p.name }) },
        ...p.board.grid.flatMap((row, r) => row.map((space, c) => {
          const words = t('play.space', { name: p.name, row: r + 1, col: c + 1, tile: space ? tileWords(space) : t('empty') });
          const content = (space ?? []).map((i) => chip('ingredient', i));
          if (!own) return el('span', { class: 'play-space' }, ...content, hiddenWords(words));
          return el('button', {
            type: 'button', class: `play-space${legal.some((m) => m.row === r && m.col === c) ? ' legal' : ''}`,
            'data-key': `space-${r}-${c}`,
            onclick: () => {
              if (tile === null) { ui['play-turn'].append(el('span', { class: 'hint', text: ` ${t('play.choose_tile')}` })); return; }
              judge({ action: 'take', player: seat, tile, row: r, col: c });
            },
          }, ...content, hiddenWords(words));
        }))));
  }));
  if (legal.length) {
    ui['play-turn'].append(el('span', { class: 'hint', text: ` ${t('play.legal_shown', { tile: tileWords(tile), count: legal.length })}` }));
  }
}

export const isOver = (state) => state.game_over;

/** After a ruling the tile tapped is put down, accepted or not. */
export function forget() {
  selected = null;
  legal = [];
}

function renderReveal(game, state, shown, judge) {
  ui['play-reveal'].hidden = !shown;
  if (!shown) return;
  game.reveal ??= { tiles: [], draft: [] };
  const entered = game.reveal;
  const redraw = () => renderReveal(game, state, shown, judge);
  rebuild(ui['play-reveal'],
    el('h3', { text: t('play.reveal_title') }),
    tileList('play-reveal', entered.tiles, (k) => { entered.tiles.splice(k, 1); redraw(); }),
    entered.tiles.length < REVEAL[state.mode]
      ? tileEntry('play-reveal', entered.draft, (tile) => { entered.tiles.push(tile); entered.draft = []; redraw(); }, redraw)
      : null,
    el('button', { type: 'button', class: 'primary', id: 'play-reveal-done', disabled: !entered.tiles.length,
                   text: t('play.reveal_done'),
                   onclick: () => judge({ action: 'reveal', tiles: entered.tiles }) }));
}

/** The final scores, line by line, and the standings with their tie-breaks. */
export function renderEnd(container, result) {
  const names = result.state.players.map((p) => p.name);
  rebuild(container,
    el('h2', { text: t('play.standings') }),
    el('table', { id: 'play-standings' },
      el('thead', {}, el('tr', {}, ...['play.place', 'play.player', 'play.points', 'play.challenges_met', 'play.best']
        .map((key) => el('th', { scope: 'col', text: t(key) })))),
      el('tbody', {}, ...result.standings.map((s) => el('tr', {},
        el('td', { text: String(s.place) }), el('th', { scope: 'row', text: s.name }), el('td', { text: String(s.total) }),
        el('td', { text: String(s.challenges_met) }), el('td', { text: String(s.best_challenge_points) }))))),
    el('p', { class: 'winners', text: t('play.winners', { names: result.winners.join(', ') }) }),
    el('h3', { text: t('play.scores') }),
    ...result.scores.map((score, seat) => el('div', { class: 'play-score', 'data-seat': seat },
      el('p', { class: 'total', text: t('play.total', { name: names[seat], total: score.total }) }),
      el('ol', { class: 'lines' }, ...['rows', 'columns'].flatMap((lines) => score[lines].map((line) => el('li', { class: 'line' },
        el('strong', { text: `${t(lines === 'rows' ? 'dfm.row' : 'dfm.column', { n: line.index + 1 })}: ${t('points', line)} ` }),
        el('span', { class: 'explanation', text: line.explanation }))))))));
}
