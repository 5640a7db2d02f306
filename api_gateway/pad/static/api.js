// The referee's JSON API, as any app calls it: a 200's answer, a 422's problems (each
// with the JSON Pointer of what it refuses), or a NoAnswer for everything the players
// cannot fix on the board (the referee busy, down, slow, unreachable).

import { currentLanguage } from './i18n.js';

const KEY = 'referee.pad.api-key';
const KINDS = { 401: 'key', 429: 'busy', 503: 'down', 504: 'slow' };

/** A request the referee did not answer: its kind (offline, key, busy, down, slow, other),
 * the seconds its Retry-After asks to wait, its status and the problem's title. */
export class NoAnswer extends Error {
  constructor(kind, { seconds = null, status = null, title = '' } = {}) {
    super(`no answer: ${kind}`);
    this.kind = kind;
    this.seconds = seconds;
    this.status = status;
    this.title = title;
  }
}

/** POST `body` to `path` (GET without a body): `{answer}` for a 200, `{problems}` (each
 * `{pointer, detail}`) for a 422; any other outcome throws a NoAnswer. Explanations and
 * problems come in the pad's language (Accept-Language). */
export async function ask(path, body) {
  const headers = { Accept: 'application/json', 'Accept-Language': currentLanguage() };
  const key = localStorage.getItem(KEY);
  if (key) headers['X-API-Key'] = key;
  const init = { method: 'GET', headers };
  if (body !== undefined) {
    Object.assign(init, { method: 'POST', body: JSON.stringify(body), cache: 'no-store' });
    headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new NoAnswer('offline');
  }
  const payload = await response.json().catch(() => ({}));
  if (response.ok) return { answer: payload };
  if (response.status === 422) {
    const problems = payload.errors?.length ? payload.errors : [{ pointer: '', detail: payload.detail }];
    return { problems };
  }
  throw new NoAnswer(KINDS[response.status] ?? 'other', {
    seconds: Number(response.headers.get('Retry-After')) || null,
    status: response.status,
    title: payload.title ?? '',
  });
}

/** Send `key` in the X-API-Key header from now on (kept on this device). */
export function useApiKey(key) {
  if (key) localStorage.setItem(KEY, key);
  else localStorage.removeItem(KEY);
}
