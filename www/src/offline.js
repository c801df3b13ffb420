// Registers the service worker that lives next to syzygy-board.js (app page only).
/* global __webpack_public_path__ */

export function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const url = new URL('sw.js', __webpack_public_path__ || document.baseURI);
  if (url.origin !== location.origin) return;
  const register = () => navigator.serviceWorker.register(url.href).catch((err) => console.warn('service worker not registered:', err));
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
