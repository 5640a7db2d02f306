// Downtown Farmers Market's Challenge tiles: how a chosen one reads on the board, and the
// dialog that picks one of the seven types with its parameters and its points. A
// challenge is kept exactly as the contract's JSON, so the board is sent as it stands.

import { t } from './i18n.js';
import { chip, el, rebuild } from './ui.js';

export const INGREDIENTS = ['bread', 'carrot', 'corn', 'cheese', 'milk', 'egg'];
export const TYPES = ['exact_count', 'exact_count_any', 'exact_total', 'one_of_each',
  'majority', 'forbidden', 'per_set'];
const MAX_SET = 12;

const name = (ingredient) => t(`ingredient.${ingredient}`);
const names = (ingredients) => ingredients.map(name).join(', ');

/** What a challenge's slot shows: a brief wording, its ingredients as chips, its points. */
export function brief(challenge) {
  const parts = [el('span', { class: 'brief', text: t(`brief.${challenge.type}`, challenge) })];
  const chips = (ingredients) => ingredients.map((ingredient) => chip('ingredient', ingredient));
  switch (challenge.type) {
    case 'exact_count':
      for (const [ingredient, count] of Object.entries(challenge.counts)) {
        parts.push(chip('ingredient', ingredient, count));
      }
      break;
    case 'majority':
      parts.push(...chips([challenge.ingredient]));
      break;
    case 'forbidden':
      parts.push(...chips(challenge.ingredients));
      break;
    case 'per_set':
      challenge.sets.forEach((set, k) => {
        if (k) parts.push(el('span', { class: 'sep', 'aria-hidden': 'true', text: '|' }));
        parts.push(...chips(set));
      });
      break;
    default:
  }
  parts.push(el('span', { class: 'crate', text: t('points', challenge) }));
  return parts;
}

/** The same in words, for a screen reader. */
export function describe(challenge) {
  const detail = {
    exact_count: () => Object.entries(challenge.counts).map(([i, n]) => `${n} ${name(i)}`).join(', '),
    exact_count_any: () => `n = ${challenge.count}`,
    exact_total: () => `n = ${challenge.count}`,
    one_of_each: () => '',
    majority: () => name(challenge.ingredient),
    forbidden: () => names(challenge.ingredients),
    per_set: () => challenge.sets.map(names).join(' | '),
  }[challenge.type]();
  return [t(`challenge.${challenge.type}`), detail, t('points.long', challenge)]
    .filter(Boolean).join(', ');
}

const ui = {};
let editing = { sets: [], draft: [] };
let settle = null;

/** Wire the dialog (index.html's #challenge-dialog) once. */
export function initChallengeDialog() {
  for (const [key, id] of Object.entries({
    dialog: 'challenge-dialog', form: 'challenge-form', title: 'challenge-title',
    type: 'challenge-type', points: 'challenge-points', count: 'challenge-count',
    ingredient: 'challenge-ingredient', counts: 'challenge-counts',
    forbidden: 'challenge-forbidden', sets: 'challenge-sets', draft: 'challenge-draft',
    setIngredients: 'challenge-set-ingredients', addSet: 'challenge-add-set',
    remove: 'challenge-remove', cancel: 'challenge-cancel',
  })) ui[key] = document.getElementById(id);
  ui.params = [...ui.form.querySelectorAll('.param')];
  ui.type.addEventListener('change', showParameters);
  ui.form.addEventListener('submit', (event) => {
    event.preventDefault();
    finish(read());
  });
  ui.remove.addEventListener('click', () => finish(null));
  ui.cancel.addEventListener('click', () => ui.dialog.close());
  ui.dialog.addEventListener('close', () => finish(undefined));
  ui.addSet.addEventListener('click', () => {
    if (!editing.draft.length) return;
    editing.sets.push(editing.draft);
    editing.draft = [];
    drawSets();
  });
  buildControls();
}

/** The controls whose words come from code (rebuilt when the language changes). */
export function buildControls() {
  const options = (values, prefix) => values.map((value) => el('option', { value, text: t(`${prefix}.${value}`) }));
  const type = ui.type.value;
  const ingredient = ui.ingredient.value;
  rebuild(ui.type, ...options(TYPES, 'challenge'));
  rebuild(ui.ingredient, ...options(INGREDIENTS, 'ingredient'));
  ui.type.value = type || TYPES[0];
  ui.ingredient.value = ingredient || INGREDIENTS[0];
  rebuild(ui.counts, ...INGREDIENTS.map((i) => el('label', { class: 'count' }, chip('ingredient', i), ` ${name(i)} `,
    el('input', { type: 'number', min: 0, max: MAX_SET, step: 1, inputmode: 'numeric', value: 0, 'data-ingredient': i }))));
  rebuild(ui.forbidden, ...INGREDIENTS.map((i) => el('label', { class: 'check' },
    el('input', { type: 'checkbox', value: i }), chip('ingredient', i), ` ${name(i)}`)));
  rebuild(ui.setIngredients, ...INGREDIENTS.map((i) => el('button', {
    type: 'button', class: 'ingredient', 'data-ingredient': i,
    'aria-label': t('dfm.add', { ingredient: name(i) }),
    onclick: () => {
      if (editing.draft.length < MAX_SET) editing.draft.push(i);
      drawSets();
    },
  }, chip('ingredient', i), ` ${name(i)}`)));
  drawSets();
}

function showParameters() {
  for (const param of ui.params) {
    const shown = param.dataset.for.split(' ').includes(ui.type.value);
    param.hidden = !shown;
    for (const input of param.querySelectorAll('#challenge-count')) input.required = shown;
  }
}

function drawSets() {
  rebuild(ui.sets, ...editing.sets.map((set, k) => el('li', {},
    ...set.map((i) => chip('ingredient', i)), ` ${names(set)} `,
    el('button', { type: 'button', class: 'quiet', text: '✕',
                   'aria-label': t('challenge.remove_set', { n: k + 1 }),
                   onclick: () => { editing.sets.splice(k, 1); drawSets(); } }))));
  rebuild(ui.draft, ...editing.draft.map((i) => chip('ingredient', i)),
    el('span', { class: 'visually-hidden', text: names(editing.draft) }));
}

/** Open the dialog titled `title` on `challenge` (null: none yet). Resolves to the
 * challenge chosen, null for "no challenge", or undefined when cancelled. */
export function chooseChallenge(title, challenge) {
  const chosen = challenge ?? { type: ui.type.value || TYPES[0], points: '' };
  ui.title.textContent = title;
  ui.type.value = chosen.type;
  ui.points.value = chosen.points;
  ui.count.value = chosen.count ?? '';
  ui.ingredient.value = chosen.ingredient ?? INGREDIENTS[0];
  for (const input of ui.counts.querySelectorAll('input')) {
    input.value = chosen.counts?.[input.dataset.ingredient] ?? 0;
  }
  for (const box of ui.forbidden.querySelectorAll('input')) {
    box.checked = chosen.ingredients?.includes(box.value) ?? false;
  }
  editing = { sets: (chosen.sets ?? []).map((set) => [...set]), draft: [] };
  drawSets();
  showParameters();
  ui.dialog.showModal();
  ui.type.focus();
  return new Promise((resolve) => { settle = resolve; });
}

function finish(outcome) {
  const resolve = settle;
  settle = null;
  if (ui.dialog.open) ui.dialog.close();
  resolve?.(outcome);
}

/** The challenge as the dialog now says, in the contract's JSON. */
function read() {
  const type = ui.type.value;
  const params = {
    exact_count: () => ({ counts: Object.fromEntries([...ui.counts.querySelectorAll('input')]
      .filter((input) => Number(input.value) > 0)
      .map((input) => [input.dataset.ingredient, Number(input.value)])) }),
    exact_count_any: () => ({ count: Number(ui.count.value) }),
    exact_total: () => ({ count: Number(ui.count.value) }),
    one_of_each: () => ({}),
    majority: () => ({ ingredient: ui.ingredient.value }),
    forbidden: () => ({ ingredients: [...ui.forbidden.querySelectorAll('input:checked')].map((box) => box.value) }),
    per_set: () => ({ sets: editing.draft.length ? [...editing.sets, editing.draft] : editing.sets }),
  }[type]();
  return { type, ...params, points: Number(ui.points.value) };
}
