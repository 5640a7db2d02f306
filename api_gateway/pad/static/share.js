// A result taken away from the pad: shared as text (the phone's share sheet where there
// is one, else the clipboard), or downloaded as a file for another app or a spreadsheet.

import { t } from './i18n.js';
import { el } from './ui.js';

/** Share `text` titled `title`: what became of it, in words for the player. */
async function share(title, text) {
  if (navigator.share) {
    try {
      await navigator.share({ title, text });
      return t('share.shared');
    } catch (error) {
      if (error.name === 'AbortError') return ''; // the player closed the share sheet
    }
  }
  const copied = await navigator.clipboard?.writeText(text).then(() => true, () => false);
  return t(copied ? 'share.copied' : 'share.not_copied');
}

/** The actions on a result (its `key` names them): share it as `text` (`title`, `shareLabel`),
 * and download it as the file `file` of `type` holding `content` (`downloadLabel`). */
export function shareActions({ key, title, text, shareLabel, file, type, content, downloadLabel }) {
  const status = el('span', { class: 'hint', 'data-key': `${key}-shared`, 'aria-live': 'polite' });
  return el('p', { class: 'actions share' },
    el('button', {
      type: 'button', 'data-key': `${key}-share`, text: shareLabel,
      onclick: async () => { status.textContent = await share(title, text); },
    }),
    el('a', {
      class: 'button', 'data-key': `${key}-download`, download: file, text: downloadLabel,
      href: `data:${type};charset=utf-8,${encodeURIComponent(content)}`,
    }),
    status);
}

/** A field of a CSV file: quoted when it must be, and never read as a formula by a
 * spreadsheet (a name starting with = + - or @). */
function csvField(value) {
  const text = String(value);
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** `rows` (arrays of fields) as a CSV file's text (RFC 4180). */
export function csv(rows) {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n').concat('\r\n');
}
