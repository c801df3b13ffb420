// Service worker: keeps the app shell (page, script, wasm, icons) so the app
// opens offline. Table pages are not handled here: the wasm package stores
// them in IndexedDB. The build replaces __SHELL_MANIFEST__ with
// {version, files, immutable} (see webpack.config.js).
/* global __SHELL_MANIFEST__ */
const MANIFEST = __SHELL_MANIFEST__;
const PREFIX = 'syzygy-shell-';
const SCRIPT = 'syzygy-board.js';
// A navigation's answer waited for before the kept page is shown instead
// (a captive portal or a dying link can take minutes to fail).
const NAVIGATION_MS = 4000;
const scope = () => self.registration.scope;
// Caches are named by scope as well as version: two deployments on one
// origin (/a/ and /b/) keep and clear only their own.
const OURS = () => `${PREFIX}${scope()} `;
const CACHE = () => OURS() + MANIFEST.version;
const shellUrls = () => MANIFEST.files.map((f) => new URL(f, scope()).href);
const here = (f) => new URL(f, scope()).href;
// When a version's cache became the active one, kept in that cache: the
// version before is the one most recently active (a rollback re-opens an
// older cache, so the order caches were made in does not tell).
const ACTIVATED = () => here('./__syzygy-shell-activated');

// Files named by their content's hash (MANIFEST.immutable) come from the
// HTTP cache where the page's load left them (a revalidation at most):
// only the others are fetched anew, so that installing after a first
// visit costs the files the page did not load (the generator's module),
// not a second download of the decoder and the script. The scope's own
// URL is kept when the host serves the page there (a bucket's REST
// endpoint answers it with a listing or an error, or a redirect):
// `index.html` is kept either way. A failed install leaves no cache.
self.addEventListener('install', (event) => {
  const immutable = new Set(MANIFEST.immutable.map(here));
  const request = (u) => new Request(u, { cache: immutable.has(u) ? 'default' : 'reload' });
  event.waitUntil(
    (async () => {
      try {
        const cache = await caches.open(CACHE());
        await cache.addAll(shellUrls().filter((u) => u !== here('./')).map(request));
        const root = await fetch(request(here('./'))).catch(() => null);
        if (root && root.ok && !root.redirected && /text\/html/.test(root.headers.get('Content-Type') || '')) await cache.put(here('./'), root);
      } catch (e) {
        await caches.delete(CACHE());
        throw e;
      }
      await self.skipWaiting();
    })(),
  );
});

/** When the cache `name` became the active one (0: never). */
async function activatedAt(name) {
  const r = await (await caches.open(name)).match(ACTIVATED());
  return r ? Number(await r.text()) || 0 : 0;
}

// The version active before this one is kept too: a tab still running it
// asks for its own hashed chunks (the generator's module, the wasm) that
// the host may no longer have. Older ones go, and so do names from before
// caches carried their scope where they hold this scope's page.
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keys = await caches.keys();
      const mine = keys.filter((k) => k.startsWith(OURS()) && k !== CACHE());
      const times = await Promise.all(mine.map(activatedAt));
      const previous = mine[times.indexOf(Math.max(...times))];
      const legacy = [];
      for (const k of keys.filter((k) => /^syzygy-shell-[0-9a-f]{12}$/.test(k))) {
        if (await (await caches.open(k)).match(here('./index.html'))) legacy.push(k);
      }
      await Promise.all([...mine.filter((k) => k !== previous), ...legacy].map((k) => caches.delete(k)));
      await (await caches.open(CACHE())).put(ACTIVATED(), new Response(String(Date.now())));
      await self.clients.claim();
    })(),
  );
});

/** A URL as this version keeps it, else as the version before does. */
async function kept(url, options) {
  const others = (await caches.keys()).filter((k) => k.startsWith(OURS()) && k !== CACHE());
  for (const k of [CACHE(), ...others]) {
    const hit = await (await caches.open(k)).match(url, options);
    if (hit) return hit;
  }
  return null;
}

/** The kept page for a navigation: the app for the scope's own URL, else that page if kept. */
async function keptPage(url) {
  if (url.pathname === new URL(scope()).pathname) {
    return (await kept(here('./'), { ignoreSearch: true })) || kept(here('./index.html'), { ignoreSearch: true });
  }
  return kept(url.href, { ignoreSearch: true });
}

/**
 * Network first so that a new version shows up; the kept page (with any
 * query: ?tables=, ?fen=) when the network fails, answers a server error,
 * or has not answered within NAVIGATION_MS. Another page of the scope is
 * not the app: offline it fails as it would without this worker.
 */
async function navigate(req, url) {
  const net = fetch(req);
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(() => resolve('late'), NAVIGATION_MS)));
  const res = await Promise.race([net.catch(() => null), late]);
  clearTimeout(timer);
  if (res && res !== 'late' && res.status < 500) return res;
  const page = await keptPage(url);
  if (page) return page;
  if (res === 'late') return net.catch(() => Response.error());
  return res || Response.error();
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || req.headers.has('range')) return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || !url.href.startsWith(scope())) return;

  if (req.mode === 'navigate') {
    event.respondWith(navigate(req, url));
    return;
  }

  // The script without its hash, as a page of the scope that embeds the
  // element names it: the network's copy first, the kept one offline.
  const script = MANIFEST.files.find((f) => f.startsWith(`./${SCRIPT}?`));
  if (script && url.href.split('?')[0] === here(SCRIPT) && !url.search) {
    event.respondWith(fetch(req).catch(async () => (await kept(here(script))) || Response.error()));
    return;
  }

  // The query counts: the page asks for its script by content hash, so a
  // page of a newer deploy is never given the script kept here. A file
  // named by its content's hash that this version does not list is an
  // older version's (a tab opened before the deploy): kept, or asked for.
  const clean = url.origin + url.pathname + url.search;
  const hashed = url.search.startsWith('?v=') || /\.[0-9a-f]{10}\.(js|wasm)$/.test(url.pathname);
  if (shellUrls().includes(clean) || hashed) {
    event.respondWith(
      (async () => {
        const hit = await kept(clean);
        if (hit) return hit;
        const res = await fetch(req);
        if (res.ok && shellUrls().includes(clean)) (await caches.open(CACHE())).put(clean, res.clone());
        return res;
      })(),
    );
  }
});
