// <syzygy-board fen="FEN" tables="URL[,URL...]" view="compact|full" orientation="white|black">
//
// Renders a board and the tablebase verdict in its light DOM. The full page
// (index.html) is the same element with view="full" url-sync offline.
//
// Attributes: fen, tables (default ./tables/ relative to the page), view,
// orientation; url-sync: read/write #fen= and ?tables= of the page;
// offline: register the service worker that keeps the app shell (after the first complete result).
// Properties: fen (get/set), result (last probe result). The fen attribute
// follows the board: after a played move it holds the new position.
// Events (bubbling): syzygy-position {fen}, syzygy-result {fen, result, verdict}, syzygy-error {fen, error, code}
// (and `result`, the outcome or verdict shown, where the probe failed after it: the card keeps it).
import { createApp } from './app.js';
import { registerServiceWorker } from './offline.js';

export class SyzygyBoardElement extends HTMLElement {
  static get observedAttributes() {
    return ['fen', 'tables', 'orientation'];
  }

  connectedCallback() {
    if (this._app) return;
    // A property set before the element was defined shadows the class's
    // accessor on the instance: hand its value to the accessor.
    if (Object.prototype.hasOwnProperty.call(this, 'fen')) {
      const value = this.fen;
      delete this.fen;
      if (value) this.setAttribute('fen', value);
    }
    // `result` is read-only: a value set before then would hide the board's.
    if (Object.prototype.hasOwnProperty.call(this, 'result')) delete this.result;
    const urlSync = this.hasAttribute('url-sync');
    const queryTables = urlSync ? new URLSearchParams(location.search).get('tables') : null;
    this._app = createApp(this, {
      full: this.getAttribute('view') === 'full',
      fen: this.getAttribute('fen') || undefined,
      tables: queryTables || this.getAttribute('tables') || './tables/',
      orientation: this.getAttribute('orientation') || 'white',
      urlSync,
    });
    if (this.hasAttribute('offline')) registerServiceWorker(this);
    // Reflect the position into the attribute (without reloading it).
    this.addEventListener('syzygy-position', (e) => {
      if (e.target !== this || this.getAttribute('fen') === e.detail.fen) return;
      this._reflecting = true;
      this.setAttribute('fen', e.detail.fen);
      this._reflecting = false;
    });
  }

  disconnectedCallback() {
    // Moving the element within the page disconnects and reconnects it: wait a tick.
    queueMicrotask(() => {
      if (!this.isConnected && this._app) {
        this._app.destroy();
        this._app = null;
      }
    });
  }

  attributeChangedCallback(name, oldValue, value) {
    if (!this._app || oldValue === value || this._reflecting) return;
    if (name === 'fen' && value) this._app.load(value);
    if (name === 'orientation') this._app.setOrientation(value || 'white');
    if (name === 'tables' && !(this.hasAttribute('url-sync') && new URLSearchParams(location.search).get('tables'))) this._app.setTables(value || './tables/');
  }

  /** Current position as FEN. */
  get fen() {
    return this._app ? this._app.fen : this.getAttribute('fen');
  }

  set fen(value) {
    this.setAttribute('fen', value);
  }

  /** Last probe result of the current position, or null. */
  get result() {
    return this._app ? this._app.result : null;
  }
}

/** Defines the element once (safe when the script is included twice). */
export function define(name = 'syzygy-board') {
  if (!customElements.get(name)) customElements.define(name, SyzygyBoardElement);
}
