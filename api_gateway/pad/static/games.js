// The games the play-along pages follow, kept on this device by name (localStorage), so
// a game survives a reload, a closed tab or a phone gone to sleep, and several can be
// kept and resumed. A game holds its setup, the log of accepted moves with the state
// each reached (undo is a step back in it, no question to the referee), the moves
// undone (for redo) and the history of every ruling.

import { loadSaved } from './ui.js';

const KEY = 'referee.pad.play';

const store = loadSaved(KEY, { current: null, games: {} });

export function save() {
  localStorage.setItem(KEY, JSON.stringify(store));
}

export function names() {
  return Object.keys(store.games).sort();
}

/** The game being followed, or null. */
export function current() {
  return store.games[store.current] ?? null;
}

export function resume(name) {
  if (!(name in store.games)) return null;
  store.current = name;
  save();
  return store.games[name];
}

/** A new game of `kind` named `name` (null if that name is taken), made current. */
export function create(name, kind, setup) {
  if (name in store.games) return null;
  store.games[name] = {
    name, kind, setup, initial: null, log: [], undone: [], history: [], refusal: null,
    result: null,
  };
  return resume(name);
}

/** The state the game stands at: the last accepted move's, or the setup's. */
export function stateOf(game) {
  return game.log.at(-1)?.state ?? game.initial;
}

/** Record a ruling on `move` made in `state`: an accepted move joins the log (and ends
 * what could be redone), a refused one is kept to be shown. */
export function rule(game, state, move, verdict) {
  game.history.push({ round: state.round, move,
                      legal: verdict.legal, violations: verdict.violations ?? [] });
  if (verdict.legal) {
    game.log.push({ move, state: verdict.state });
    game.undone = [];
    game.refusal = null;
  } else {
    game.refusal = { state, move, violations: verdict.violations ?? [] };
  }
  game.result = null;
  save();
}

export function undo(game) {
  if (!game.log.length) return;
  game.undone.push(game.log.pop());
  game.refusal = null;
  game.result = null;
  save();
}

export function redo(game) {
  if (!game.undone.length) return;
  game.log.push(game.undone.pop());
  game.refusal = null;
  save();
}
