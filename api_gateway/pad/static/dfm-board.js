// A Downtown Farmers Market board as the score pad keeps it (each space's likeliest tile,
// a doubtful space's other readings, the eight Challenge tiles), in the contract's JSON,
// what keeps it from being ranked, and its score and the standings as they are shared.

import { t } from './i18n.js';
import { csv } from './share.js';
import { winnersWords } from './ui.js';

export const SIZE = 4;
export const LINES = { rows: 'row_challenges', columns: 'column_challenges' };

export const emptyGrid = () => Array.from({ length: SIZE }, () => Array.from({ length: SIZE }, () => []));
export const newPlayer = () => ({
  name: '', grid: emptyGrid(), rows: Array(SIZE).fill(null), columns: Array(SIZE).fill(null),
  doubts: {}, // a doubtful space ("row-col") -> its other readings, after the grid's likeliest
  scored: false, // the board was sent to be scored as it stands
  result: null, problems: [], // what the referee said: not kept
});

export const playerName = (p, k) => p.name.trim() || t('dfm.player', { n: k + 1 });
export const lineName = (lines, index) => t(lines === 'rows' ? 'dfm.row' : 'dfm.column', { n: index + 1 });
export const challengesWords = (score) => t('dfm.challenges', { met: score.challenges_met, best: score.best_challenge_points });

/** The readings of `p`'s space: the likeliest, then the others marked doubtful. */
export const readingsOf = (p, row, col) => [p.grid[row][col], ...(p.doubts[`${row}-${col}`] ?? [])];

/** The board of `p` in `mode`, in the contract's JSON; a doubtful space as its candidates
 * (`doubts`, only /score takes them), else at its likeliest reading. */
export function boardOf(p, mode, doubts = true) {
  const board = { mode };
  if (mode === 'standard') {
    board.row_challenges = p.rows;
    board.column_challenges = p.columns;
  }
  const sent = (tile) => (tile.length ? [...tile] : null);
  board.grid = p.grid.map((tiles, row) => tiles.map((tile, col) => {
    const readings = readingsOf(p, row, col);
    return doubts && readings.length > 1 ? { candidates: readings.map(sent) } : sent(tile);
  }));
  return board;
}

/** The challenges still to choose, as problems where the referee would point. */
export function missingChallenges(p, mode) {
  if (mode !== 'standard') return [];
  return Object.entries(LINES).flatMap(([lines, field]) => p[lines]
    .map((challenge, index) => (challenge ? null : { pointer: `/${field}/${index}`, detail: t('dfm.missing') }))
    .filter(Boolean));
}

/** Why `p`'s board cannot be ranked yet (its Challenge tiles not all chosen, or nothing
 * entered), in words; null when it can. */
export function leftOutBecause(p, k, mode) {
  const name = playerName(p, k);
  const missing = missingChallenges(p, mode).length;
  if (missing) return t('dfm.left_out_challenges', { name, count: missing });
  if (p.grid.every((row) => row.every((tile) => !tile.length))) return t('dfm.left_out_empty', { name });
  return null;
}

/** The board `name` scored in words, to be shared: whose, its total, each line. */
export function scoreWords(score, name) {
  return [`${t('dfm.title')} · ${name}`, t('dfm.total', score),
    ...(score.mode === 'standard' ? [challengesWords(score)] : []),
    ...Object.keys(LINES).flatMap((lines) => score[lines].map((scored, index) => (
      `${lineName(lines, index)}: ${t('points', scored)} · ${scored.explanation}`)))].join('\n');
}

/** The standings in words, to be shared: each place, the winners, who was left out (the
 * seats `leftOut` of `players`, playing `mode`). */
export function standingsWords({ standings: ranked, winners }, players, leftOut, mode) {
  return [`${t('dfm.title')} · ${t('dfm.standings')}`,
    ...ranked.map((s) => `${s.place}. ${s.name}: ${t('points.long', { points: s.total })}`),
    winnersWords(winners), ...leftOut.map((k) => leftOutBecause(players[k], k, mode))].join('\n');
}

/** The standings of a game in `mode` as a spreadsheet's CSV, its columns named as in the
 * referee's answer. */
export function standingsCsv({ standings: ranked }, mode) {
  const fields = ['place', 'name', 'total',
    ...(mode === 'standard' ? ['challenges_met', 'best_challenge_points'] : [])];
  return csv([fields, ...ranked.map((s) => fields.map((field) => s[field]))]);
}
