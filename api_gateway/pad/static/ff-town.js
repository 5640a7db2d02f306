// A Foxglove Farm town drawn square by square, as the score pad edits it and the
// play-along pages show it, and its parts in words; buildings by their printed names once
// the catalog is known.

import { t } from './i18n.js';
import { chip, el, rebuild } from './ui.js';

export const GOODS = ['wood', 'stone', 'wheat', 'coal', 'sheep'];
export const SIDES = ['N', 'E', 'S', 'W'];

export const names = new Map(); // building id -> its printed name, from the catalog
export const keyOf = (row, col) => `${row},${col}`;
export const position = (key) => key.split(',').map(Number);
export const spaceName = (row, col) => t('space', { row, col });
export const goodName = (good, count = 1) => t(`${count > 1 ? 'goods' : 'good'}.${good}`);
export const buildingName = (id) => names.get(id) ?? (id ? id[0].toUpperCase() + id.slice(1).replaceAll('_', ' ') : '?');
const sidesWords = (sides) => sides.map((side) => t(`side.${side}`)).join(', ');

function byPosition(a, b) {
  const [ra, ca] = position(a);
  const [rb, cb] = position(b);
  return ra - rb || ca - cb;
}

/** A building's goods counts in the contract's JSON: a count read in doubt (its tile's
 * `doubts`, other possible counts) as its candidates when `doubts` (only /score takes
 * them), else at its likeliest. */
function goodsOf(tile, doubts) {
  const others = (good) => (doubts ? tile.doubts?.[good] ?? [] : []);
  return Object.fromEntries(GOODS.filter((good) => tile.goods[good] > 0 || others(good).length)
    .map((good) => [good, others(good).length
      ? { candidates: [tile.goods[good] ?? 0, ...others(good)] } : tile.goods[good]]));
}

/** The town `kept` (as the score pad keeps it) in `variant`, in the contract's JSON (tiles
 * by position; its `sent` remembers their order); its doubtful goods counts as candidates
 * when `doubts`. */
export function townOf(kept, variant, doubts = true) {
  kept.sent = Object.keys(kept.tiles).sort(byPosition);
  const tiles = kept.sent.map((key) => {
    const [row, col] = position(key);
    const tile = kept.tiles[key];
    if (tile.trail) return { row, col, trail: SIDES.filter((side) => tile.trail.includes(side)) };
    const goods = goodsOf(tile, doubts);
    return { row, col, building: tile.building.trim(), ...(Object.keys(goods).length ? { goods } : {}) };
  });
  return { variant, score_track: Number(kept.track) || 0, tiles };
}

/** The squares to draw: every tile's in `keys`, and one more on every side. */
function bounds(keys) {
  const at = keys.length ? keys.map(position) : [[0, 0]];
  const rows = at.map(([row]) => row);
  const cols = at.map(([, col]) => col);
  return { top: Math.min(...rows) - 1, bottom: Math.max(...rows) + 1,
           left: Math.min(...cols) - 1, right: Math.max(...cols) + 1 };
}

export function squareWords(row, col, tile) {
  if (!tile) return t('ff.place');
  if (tile.trail) return tile.trail.length ? t('ff.trail', { sides: sidesWords(tile.trail) }) : t('ff.trail_closed');
  const goods = GOODS.filter((good) => tile.goods[good] > 0)
    .map((good) => `${tile.goods[good]} ${goodName(good, tile.goods[good])}`);
  return [buildingName(tile.building), ...goods].join(', ');
}

/** Draw in `container` the squares around `keys`, with their axes: `square(row, col)`
 * makes each. */
export function drawSquares(container, keys, square) {
  const { top, bottom, left, right } = bounds(keys);
  const squares = [el('div', { class: 'axis corner' })];
  for (let col = left; col <= right; col += 1) squares.push(el('div', { class: 'axis', text: String(col), 'aria-hidden': 'true' }));
  for (let row = top; row <= bottom; row += 1) {
    squares.push(el('div', { class: 'axis', text: String(row), 'aria-hidden': 'true' }));
    for (let col = left; col <= right; col += 1) squares.push(square(row, col));
  }
  container.style.setProperty('--columns', right - left + 2);
  rebuild(container, ...squares);
}

export const kindOf = (tile) => (tile ? (tile.trail ? 'trail' : 'building') : 'empty');

/** What a square shows of its tile (kept as this page edits it). */
export function squareContent(tile) {
  return {
    empty: () => [el('span', { class: 'plus', 'aria-hidden': 'true', text: '+' })],
    trail: () => [el('span', { class: 'trail-drawing', 'aria-hidden': 'true' },
      el('span', { class: 'hub' }), ...tile.trail.map((side) => el('span', { class: `arm ${side}` })))],
    building: () => [el('span', { class: 'name', text: buildingName(tile.building) }),
      el('span', { class: 'goods' }, ...GOODS.filter((good) => tile.goods[good] > 0)
        .map((good) => chip('good', good, tile.goods[good])))],
  }[kindOf(tile)]();
}

/** A town in the contract's JSON drawn as this page draws its own, to be looked at (the
 * play-along pages); `lit` the squares (`row,col`) to highlight. */
export function drawTown(container, town, lit = new Set()) {
  const tiles = new Map(town.tiles.map((tile) => [keyOf(tile.row, tile.col),
    tile.building ? { building: tile.building, goods: tile.goods ?? {} } : { trail: tile.trail ?? [] }]));
  drawSquares(container, [...tiles.keys()], (row, col) => {
    const key = keyOf(row, col);
    const tile = tiles.get(key);
    return el('div', {
      class: ['square', kindOf(tile), lit.has(key) && 'lit'].filter(Boolean).join(' '),
      'data-key': `sq-${key}`, role: 'img',
      'aria-label': `${t('space.title', { row, col })}: ${squareWords(row, col, tile)}`,
    }, ...(tile ? squareContent(tile) : []));
  });
}
