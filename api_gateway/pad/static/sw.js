// The score pad's service worker: the page and its own files from the network when the
// gateway answers (so an update shows at once), from the copy kept here when it does not,
// so the pad opens offline once loaded. The referee's answers (/v1/) are never kept:
// a ruling needs the referee, and the pad says so when it cannot reach it.

const CACHE = 'referee-pad-v1';
const FILES = ['/', '/pad', '/pad/static/pad.webmanifest', '/pad/static/icon.svg',
  ...['pad.css', 'play.css'].map((name) => `/pad/static/${name}`),
  ...['pad.js', 'api.js', 'ui.js', 'i18n.js', 'share.js', 'offline.js', 'games.js', 'dfm.js',
    'dfm-board.js', 'dfm-challenges.js', 'ff.js', 'ff-town.js', 'play.js', 'play-dfm.js',
    'play-ff.js', 'play-strings.js'].map((name) => `/pad/static/${name}`)];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/v1/')) return;
  event.respondWith(fetch(event.request).then((answer) => {
    if (answer.ok) {
      const kept = answer.clone();
      event.waitUntil(caches.open(CACHE).then((cache) => cache.put(event.request, kept)));
    }
    return answer;
  }).catch(() => caches.match(event.request, { ignoreSearch: true })
    .then((kept) => kept ?? Response.error())));
});
