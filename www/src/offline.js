// Registers the service worker that lives next to syzygy-board.js (app page only).
/* global __webpack_public_path__ */

// A board that shows no complete result this long after the page loaded registers anyway.
const FALLBACK_MS = 10000;

/**
 * Registers the service worker once the page has loaded and `host` shows
 * its first complete result (or an error): the worker's install downloads
 * the app shell, which on a first visit over a slow link would otherwise
 * share the wire with the first position's tables (on the phone profile
 * the whole shell again, at load, before the result was on screen).
 */
/** The URL of the service worker beside the script, or null where it cannot serve this page's origin. */
export function workerUrl() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return null;
  const url = new URL('sw.js', __webpack_public_path__ || document.baseURI);
  return url.origin === location.origin ? url.href : null;
}

export function registerServiceWorker(host) {
  const href = workerUrl();
  if (!href) return;
  const url = new URL(href);
  const loaded = new Promise((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', resolve, { once: true });
  });
  const stop = new AbortController();
  let timer = null;
  const shown = new Promise((resolve) => {
    host.addEventListener('syzygy-result', resolve, { signal: stop.signal });
    host.addEventListener('syzygy-error', resolve, { signal: stop.signal });
    loaded.then(() => (timer = setTimeout(resolve, FALLBACK_MS)));
  });
  Promise.all([loaded, shown]).then(() => {
    stop.abort();
    clearTimeout(timer);
    navigator.serviceWorker.register(url.href).catch((err) => console.warn('service worker not registered:', err));
  });
}
