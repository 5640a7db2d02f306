// What both games' pages share: building elements, the banner for answers the players
// cannot act on, refusals placed where their pointers say, and keyboard-usable tabs.

import { NoAnswer, ask, useApiKey } from './api.js';
import { t } from './i18n.js';

/** A `tag` element: `attributes` set as attributes (`text`: its text, `on<event>`:
 * listeners, false or null: left out), `children` appended. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

/** Replace `container`'s children (null ones left out), keeping the focus on the element
 * of the same `data-key` if it had it (so redrawing never throws a keyboard user back to
 * the top). */
export function rebuild(container, ...children) {
  const focused = container.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  container.replaceChildren(...children.filter((child) => child !== null && child !== undefined));
  if (focused) container.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
}

/** A coloured chip for an ingredient or a good (`kind`: ingredient or good). */
export function chip(kind, name, count = null) {
  const label = t(`short.${name}`);
  return el('span', { class: `chip ${kind}-${name}`, 'aria-hidden': 'true',
                      text: count === null ? label : `${count} ${label}` });
}

const banner = {};

export function initBanner() {
  for (const id of ['banner', 'banner-text', 'key-form', 'api-key', 'banner-close']) {
    banner[id] = document.getElementById(id);
  }
  banner['banner-close'].addEventListener('click', hideBanner);
  banner['key-form'].addEventListener('submit', (event) => {
    event.preventDefault();
    useApiKey(banner['api-key'].value.trim());
    banner['api-key'].value = '';
    hideBanner();
  });
}

function showBanner(error) {
  const messages = {
    offline: 'banner.offline', key: 'banner.key', busy: 'banner.busy', down: 'banner.down',
    slow: 'banner.slow', other: 'banner.other',
  };
  banner['banner-text'].textContent = t(messages[error.kind], {
    seconds: error.seconds ?? 5, status: error.status, title: error.title,
  });
  banner['key-form'].hidden = error.kind !== 'key';
  banner.banner.hidden = false;
}

function hideBanner() {
  banner.banner.hidden = true;
}

/** Ask the referee (see api.ask) while `button` shows it is working: the outcome, or null
 * after showing the banner when the referee did not answer. */
export async function call(button, path, body) {
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  try {
    const outcome = await ask(path, body);
    hideBanner();
    return outcome;
  } catch (error) {
    if (!(error instanceof NoAnswer)) throw error;
    showBanner(error);
    return null;
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
  }
}

const marked = new Map(); // per list: the elements its problems marked

/** Show `problems` (`{pointer, detail}`) in `list`, each named by its place, and mark the
 * element each names: `locate(pointer)` gives `{element, place}` (element null: the
 * request as a whole). A marked element is described by its problems' text; the marks
 * of the list's last problems are taken off first. */
export function showProblems(list, problems, locate) {
  const prefix = `${list.id}-`;
  for (const element of marked.get(list) ?? []) {
    element.classList.remove('refused');
    element.removeAttribute('aria-invalid');
    const ids = (element.getAttribute('aria-describedby') ?? '').split(' ')
      .filter((id) => id && !id.startsWith(prefix));
    if (ids.length) element.setAttribute('aria-describedby', ids.join(' '));
    else element.removeAttribute('aria-describedby');
  }
  const elements = [];
  const items = problems.map((problem, index) => {
    const { element, place } = locate(problem.pointer ?? '');
    const id = `${prefix}${index}`;
    if (element) {
      elements.push(element);
      element.classList.add('refused');
      element.setAttribute('aria-invalid', 'true');
      const described = element.getAttribute('aria-describedby');
      element.setAttribute('aria-describedby', described ? `${described} ${id}` : id);
    }
    return el('li', { id, 'data-pointer': problem.pointer ?? '' },
      el('strong', { text: `${place ?? t('problems.request')}: ` }), problem.detail ?? '');
  });
  marked.set(list, elements);
  rebuild(list, ...(items.length ? [el('p', { text: t('problems.title') }), el('ul', {}, ...items)] : []));
}

/** Arrow keys, Home and End move between the tabs of `tablist` (and choose them), as in
 * the WAI-ARIA tabs pattern; only the chosen tab is in the Tab order. */
export function tabKeys(tablist) {
  tablist.addEventListener('keydown', (event) => {
    const tabs = [...tablist.querySelectorAll('[role="tab"]')];
    const at = tabs.indexOf(document.activeElement);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const tab = tabs[(to + tabs.length) % tabs.length];
    tab.focus();
    tab.click();
  });
}

/** Make `tabs` (role=tab) show the chosen one as selected, the rest out of the Tab order. */
export function selectTab(tabs, chosen) {
  for (const tab of tabs) {
    tab.setAttribute('aria-selected', String(tab === chosen));
    tab.tabIndex = tab === chosen ? 0 : -1;
  }
}

/** The cells a score line or end-game entry says counted (its `cells`, each `{row, col}`
 * or `[row, col]`), none when the referee does not list them. */
export function countedCells(line) {
  const cells = Array.isArray(line.cells) ? line.cells : [];
  return cells.map((cell) => (Array.isArray(cell) ? { row: cell[0], col: cell[1] } : cell));
}

/** Read a persisted value of `key`, or `fallback` (also when it cannot be read). */
export function loadSaved(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

/** Draw in `tablist` a tab per player of `names` (ids `<prefix>-player-<k>`; those of
 * `refused` marked), the `current` one selected and naming `panel`; `choose(k)` on a tap. */
export function playerTabs({ tablist, panel, prefix, names, refused, current, choose }) {
  const tabs = names.map((name, k) => el('button', {
    type: 'button', role: 'tab', id: `${prefix}-player-${k}`, 'aria-controls': panel.id,
    'data-key': `player-${k}`, class: refused[k] ? 'refused' : null, text: name,
    onclick: () => choose(k),
  }));
  rebuild(tablist, ...tabs);
  selectTab(tabs, tabs[current]);
  panel.setAttribute('aria-labelledby', `${prefix}-player-${current}`);
}

export const winnersWords = (winners) => t(winners.length > 1 ? 'dfm.winners_many' : 'dfm.winners',
  { names: winners.join(', ') });

/** The referee's ranking as a table: each place and name, then `columns` (each `[field,
 * heading's key]`) as the referee answered; its winners, and `note` (the tie-breaks). */
export function rankingTable({ standings, winners }, columns, note) {
  const head = ['dfm.place', 'dfm.player_name', ...columns.map(([, key]) => key)];
  const rows = standings.map((s) => el('tr', {},
    el('td', { text: String(s.place) }), el('th', { scope: 'row', text: s.name }),
    ...columns.map(([field]) => el('td', { text: String(s[field]) }))));
  return [
    el('table', {},
      el('caption', { text: t('dfm.standings') }),
      el('thead', {}, el('tr', {}, ...head.map((key) => el('th', { scope: 'col', text: t(key) })))),
      el('tbody', {}, ...rows)),
    el('p', { class: 'winners', text: winnersWords(winners) }),
    el('p', { class: 'note', text: note })];
}

/** A doubtful reading's answer (`uncertainty`): its range of totals, and `checks`, the
 * places it says decide the total (spaces or goods counts), each named by `name(place)`
 * with its totals reading by reading, and chosen by `choose(place)`. */
export function uncertaintyView({ id, uncertainty, checks, name, choose }) {
  return el('div', { class: 'uncertainty', id },
    el('p', { class: 'range', text: t('doubt.range', {
      lowest: uncertainty.lowest_total, highest: uncertainty.highest_total,
      likely: uncertainty.likely_total, readings: uncertainty.readings }) }),
    el('p', { text: t(checks.length ? 'doubt.check' : 'doubt.check_none') }),
    checks.length ? el('ul', { class: 'checks-list' }, ...checks.map((place) => el('li', {},
      el('button', {
        type: 'button', 'data-key': `check-${place.pointer}`, onclick: () => choose(place),
        text: `${name(place)}: ${t('doubt.totals', { totals: place.totals.join(', ') })}`,
      })))) : null);
}
