// The play-along tab: the games kept on this device, the ruling on each move (in a live
// region, and on the tile or space it names), undo and redo, the history, the final
// standings, and a game exported as its replay request (a file, text or a link) or
// imported and replayed. The referee rules on every move; when it cannot be reached the
// banner says so and what was entered stays as it was. Each game's own page is its module
// (play-dfm.js, play-ff.js): its setup, its turns, its words for a move and its standings.

import './play-strings.js';
import * as dfm from './play-dfm.js';
import * as ff from './play-ff.js';
import * as games from './games.js';
import { onLanguageChange, t } from './i18n.js';
import { call, el, rebuild, showProblems } from './ui.js';

const ui = {};
const KINDS = { dfm, ff };
const LINK = '#replay=';

/** The page of `game`'s kind. */
const pageOf = (game) => KINDS[game.kind];

/** Ask the referee while `button` shows it is busy: the answer, or null (a banner or the
 * problems already shown). */
async function ask(button, path, body, problems = null, locate = null) {
  const outcome = await call(button, path, body);
  if (outcome?.problems && problems) showProblems(problems, outcome.problems, locate);
  return outcome?.answer ?? null;
}

function replayBody(game) {
  const page = pageOf(game);
  return { setup: page.setupBody(game.setup), [page.LOG]: game.log.map((entry) => entry.move) };
}

/** The body of `/games/replay` as a link's fragment (base64url of its UTF-8 JSON). */
function linkOf(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const encoded = btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
  return `${window.location.origin}/pad${LINK}${encoded}`;
}

function textOfLink(fragment) {
  const binary = atob(fragment.replaceAll('-', '+').replaceAll('_', '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** Show the pages of `game`'s kind and step (its setup, or the game in play), hide the rest. */
function showPages(game) {
  for (const [kind, page] of Object.entries(KINDS)) {
    const ours = kind === game?.kind;
    document.getElementById(page.PAGES.setup).hidden = !(ours && !game.initial);
    document.getElementById(page.PAGES.play).hidden = !(ours && game.initial);
  }
  ui.game.hidden = !game?.initial;
}

function render() {
  const game = games.current();
  rebuild(ui.saved, ...(games.names().length
    ? games.names().map((name) => el('option', { value: name, text: name, selected: name === game?.name }))
    : [el('option', { value: '', text: t('play.none_saved') })]));
  ui.open.disabled = !games.names().length;
  ui.empty.hidden = Boolean(game);
  ui.exportPart.hidden = !game?.initial;
  showPages(game);
  if (!game) return;
  const page = pageOf(game);
  if (!game.initial) {
    page.renderSetup(game, games.save);
    return;
  }
  const state = games.stateOf(game);
  page.renderPlay(game, state, { judge: (move) => judge(game, state, move), ask });
  ui.undo.disabled = !game.log.length;
  ui.redo.disabled = !game.undone.length;
  renderRuling(game);
  renderHistory(game);
  renderExport(game);
  const over = page.isOver(state);
  if (over && game.result) page.renderEnd(ui.end, game.result);
  else rebuild(ui.end);
  if (over && !game.result) finish(game);
}

function renderRuling(game) {
  const page = pageOf(game);
  const last = game.history.at(-1);
  for (const marked of document.querySelectorAll('#play .refused')) marked.classList.remove('refused');
  if (!last) { rebuild(ui.ruling); return; }
  if (game.refusal) {
    const { move, violations } = game.refusal;
    for (const violation of violations) page.refusedElement(violation.pointer, move, game.refusal.state)?.classList.add('refused');
    rebuild(ui.ruling, ...violations.map((violation) => el('p', { class: 'refusal', 'data-rule': violation.rule,
      text: t('play.refused', { reason: violation.message, rule: violation.rule }) })));
  } else if (last.legal && game.log.length) {
    const entry = game.log.at(-1);
    const before = game.log.at(-2)?.state ?? game.initial;
    rebuild(ui.ruling, el('p', { class: 'accepted', text: t('play.accepted', { what: page.describeMove(before, entry.move) }) }));
  } else {
    rebuild(ui.ruling);
  }
}

function renderHistory(game) {
  const rounds = new Map();
  const players = game.initial.players;
  for (const entry of game.history) {
    if (!rounds.has(entry.round)) rounds.set(entry.round, []);
    const who = entry.move.player === undefined ? '' : `${players[entry.move.player]?.name ?? ''} · `;
    rounds.get(entry.round).push(el('li', { class: entry.legal ? 'legal' : 'illegal' },
      `${who}${pageOf(game).describeMove(game.initial, entry.move)} — ${t(entry.legal ? 'play.ruling.legal' : 'play.ruling.illegal')}`,
      ...entry.violations.map((v) => el('span', { class: 'reason', text: ` (${v.rule}: ${v.message})` }))));
  }
  rebuild(ui.history, ...[...rounds].flatMap(([round, items]) => [el('h4', { text: t('play.round', { n: round }) }), el('ol', {}, ...items)]));
}

function renderExport(game) {
  const text = JSON.stringify(replayBody(game));
  ui.export.value = text;
  if (ui.download.href) URL.revokeObjectURL(ui.download.href);
  ui.download.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  ui.download.download = `${game.name}.json`;
}

async function judge(game, state, move) {
  const page = pageOf(game);
  const answer = await ask(ui.ruling, `/v1/${page.SLUG}/${page.VALIDATE}`, { state, [page.MOVE]: move });
  if (!answer) return; // the banner says why; the move stays entered
  games.rule(game, state, move, answer);
  page.forget();
  if (answer.legal) { game.reveal = null; games.save(); }
  render();
  ui.ruling.focus?.();
}

/** The game over: its standings and scores, as `/games/replay` gives them for its log. */
async function finish(game) {
  const answer = await ask(ui.end, `/v1/${pageOf(game).SLUG}/games/replay`, replayBody(game));
  if (!answer || games.current() !== game) return;
  game.result = answer;
  games.save();
  pageOf(game).renderEnd(ui.end, answer);
}

async function start(game, button) {
  const page = pageOf(game);
  const problems = document.getElementById(page.PAGES.problems);
  const answer = await ask(button, `/v1/${page.SLUG}/games`, page.setupBody(game.setup), problems, page.setupPlace);
  if (!answer) return;
  showProblems(problems, [], page.setupPlace);
  game.initial = answer;
  games.save();
  render();
}

/** A refusal or the standings asked again in the new language (the referee words them). */
async function retranslate() {
  const game = games.current();
  if (!game?.initial) return;
  if (game.refusal) {
    const page = pageOf(game);
    const { state, move } = game.refusal;
    const answer = await ask(ui.ruling, `/v1/${page.SLUG}/${page.VALIDATE}`, { state, [page.MOVE]: move });
    if (answer && !answer.legal) game.refusal.violations = answer.violations;
  }
  if (game.result) game.result = null; // finish() asks again
  games.save();
  render();
}

async function replayImported() {
  let body;
  try {
    body = JSON.parse(ui.import.value);
  } catch {
    rebuild(ui.importResult, el('p', { text: t('play.import_bad') }));
    return;
  }
  const page = Object.values(KINDS).find((kind) => Array.isArray(body?.[kind.LOG]));
  if (!page) {
    rebuild(ui.importResult, el('p', { text: t('play.import_bad') }));
    return;
  }
  const answer = await ask(ui.importGo, `/v1/${page.SLUG}/games/replay`, body, ui.importResult, () => ({ element: null, place: null }));
  if (!answer) return;
  rebuild(ui.importResult, el('p', { class: answer.legal ? 'accepted' : 'refusal', text: answer.legal
    ? t('play.import_legal', { count: body[page.LOG].length })
    : t('play.import_illegal', { n: answer.illegal_index + 1, reason: answer.violations.map((v) => `${v.message} (${v.rule})`).join(' ') }) }));
}

export function init() {
  // the Challenge tile dialog serves the score pad and this setup alike: out of either tab
  document.body.append(document.getElementById('challenge-dialog'));
  Object.assign(ui, Object.fromEntries(Object.entries({
    saved: 'play-saved', open: 'play-open', newName: 'play-new-name', empty: 'play-empty', game: 'play-game',
    ruling: 'play-ruling', undo: 'play-undo', redo: 'play-redo', end: 'play-end', history: 'play-history',
    exchange: 'play-exchange', exportPart: 'play-export-part', export: 'play-export', download: 'play-download',
    copy: 'play-copy', copyLink: 'play-copy-link', copied: 'play-copied',
    import: 'play-import', importGo: 'play-import-go', importResult: 'play-import-result',
  }).map(([key, id]) => [key, document.getElementById(id)])));
  ui.ruling.tabIndex = -1;
  const forget = () => { for (const page of Object.values(KINDS)) page.forget(); };
  ui.open.addEventListener('click', () => { games.resume(ui.saved.value); forget(); render(); });
  for (const [kind, page] of Object.entries(KINDS)) {
    page.init();
    document.getElementById(`play-new-${kind}`).addEventListener('click', () => {
      const name = ui.newName.value.trim() || new Date().toLocaleString();
      if (!games.create(name, kind, page.newSetup())) {
        ui.empty.textContent = t('play.name_taken', { name });
        ui.empty.hidden = false;
        return;
      }
      ui.newName.value = '';
      games.save();
      forget();
      render();
    });
    const button = document.getElementById(page.PAGES.start);
    button.addEventListener('click', () => start(games.current(), button));
  }
  ui.undo.addEventListener('click', () => { games.undo(games.current()); forget(); render(); });
  ui.redo.addEventListener('click', () => { games.redo(games.current()); forget(); render(); });
  const copy = async (text) => {
    const copied = await navigator.clipboard?.writeText(text).then(() => true, () => false);
    ui.copied.textContent = copied ? t('play.copied') : '';
    ui.export.select();
  };
  ui.copy.addEventListener('click', () => copy(ui.export.value));
  ui.copyLink.addEventListener('click', () => copy(linkOf(ui.export.value)));
  ui.importGo.addEventListener('click', replayImported);
  onLanguageChange(retranslate);
  render();
  const followLink = () => {
    if (window.location.hash.startsWith(LINK)) openLink(window.location.hash.slice(LINK.length));
  };
  window.addEventListener('hashchange', followLink); // a link opened on the pad already open
  followLink();
}

/** A game shared as a link: its replay request put in the import, and replayed. */
function openLink(fragment) {
  let text;
  try {
    text = textOfLink(fragment);
  } catch {
    text = '';
  }
  document.getElementById('tab-play').click();
  ui.exchange.open = true;
  ui.import.value = text;
  window.history.replaceState(null, '', '#play');
  replayImported();
}
