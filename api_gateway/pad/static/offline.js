// Installable and usable offline: the service worker keeps the pad's own files (sw.js).

export function init() {
  navigator.serviceWorker?.register('/pad/static/sw.js', { scope: '/' }).catch(() => {});
}
