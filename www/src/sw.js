// Service worker: keeps the app shell (page, script, wasm, icons) so the app
// opens offline. Table pages are not handled here: the wasm package stores
// them in IndexedDB. The build replaces __SHELL_MANIFEST__ with
// {version, files, immutable} (see webpack.config.js).
/* global __SHELL_MANIFEST__ */
const MANIFEST = __SHELL_MANIFEST__;
const PREFIX = 'syzygy-shell-';
const CACHE = PREFIX + MANIFEST.version;
const SCRIPT = 'syzygy-board.js';
const scope = () => self.registration.scope;
const shellUrls = () => MANIFEST.files.map((f) => new URL(f, scope()).href);

// Files named by their content's hash (MANIFEST.immutable) come from the
// HTTP cache where the page's load left them (a revalidation at most):
// only the others are fetched anew, so that installing after a first
// visit costs the files the page did not load (the generator's module),
// not a second download of the decoder and the script.
self.addEventListener('install', (event) => {
  const immutable = new Set(MANIFEST.immutable.map((f) => new URL(f, scope()).href));
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(shellUrls().map((u) => new Request(u, { cache: immutable.has(u) ? 'default' : 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || req.headers.has('range')) return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || !url.href.startsWith(scope())) return;

  if (req.mode === 'navigate') {
    // Network first so that a new version shows up; the cached page offline
    // (with any query: ?tables=, ?fen=). Another page of the scope is not
    // the app: offline it fails as it would without this worker.
    event.respondWith(
      fetch(req).catch(async () => {
        const cache = await caches.open(CACHE);
        const page = url.pathname === new URL(scope()).pathname ? new URL('./', scope()).href : req;
        return (await cache.match(page, { ignoreSearch: true })) || Response.error();
      }),
    );
    return;
  }

  // The script without its hash, as a page of the scope that embeds the
  // element names it: the network's copy first, the kept one offline.
  const kept = MANIFEST.files.find((f) => f.startsWith(`./${SCRIPT}?`));
  if (kept && url.href.split('?')[0] === new URL(SCRIPT, scope()).href && !url.search) {
    event.respondWith(fetch(req).catch(async () => (await (await caches.open(CACHE)).match(new URL(kept, scope()).href)) || Response.error()));
    return;
  }

  // The query counts: the page asks for its script by content hash, so a
  // page of a newer deploy is never given the script kept here.
  const clean = url.origin + url.pathname + url.search;
  if (shellUrls().includes(clean)) {
    event.respondWith(
      caches.open(CACHE).then(async (cache) => {
        const hit = await cache.match(clean);
        if (hit) return hit;
        const res = await fetch(req);
        if (res.ok) cache.put(clean, res.clone());
        return res;
      }),
    );
  }
});
