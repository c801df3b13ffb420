// "Offline and cache": a collapsed section with the network figures (what
// the last probe cost, totals, cache size), the progress of a download for
// offline use, and the cache buttons.
import { h, icon, ICONS, formatBytes } from './dom.js';

/** callbacks: clear(), prefetch() */
export function createNetworkPanel(callbacks) {
  const bar = h('div.sb-progress', { role: 'progressbar', 'aria-label': 'Table pages loading', 'aria-busy': 'false' }, h('div.sb-progress-fill'));
  // Not a live region: it changes with every request, and the verdict's own
  // announcement is what a move should be heard by.
  const status = h('p.sb-net-status', {}, 'Idle');
  const cell = (label) => {
    const value = h('dd', '–');
    return { value, node: h('div.sb-stat', h('dt', label), value) };
  };
  const last = cell('Last probe');
  const totals = cell('Session');
  const pages = cell('Pages from');
  const cache = cell('Cache');
  const clearBtn = h('button.sb-btn', { type: 'button', onclick: () => callbacks.clear() }, icon(ICONS.trash), 'Clear cache');
  const prefetchBtn = h('button.sb-btn', { type: 'button', onclick: () => callbacks.prefetch() }, icon(ICONS.download), h('span.sb-prefetch-label', 'Save for offline'));
  const prefetchStatus = h('p.sb-net-status.sb-prefetch-status', { 'aria-live': 'polite' });

  const el = h(
    'details.sb-card.sb-network',
    { 'aria-label': 'Offline and cache' },
    h('summary.sb-card-title', 'Offline and cache'),
    bar,
    status,
    h('dl.sb-stats', last.node, totals.node, pages.node, cache.node),
    h('div.sb-row.sb-net-actions', clearBtn, prefetchBtn),
    prefetchStatus,
  );

  let busy = false;
  let saving = null;
  // The question ask() has open, if any: answered false when another takes its place.
  let asking = null;
  return {
    el,
    /** Progress report from the Tablebase (p = {requestsInFlight, requests, bytes, rounds}). */
    progress(p) {
      const inFlight = p && p.requestsInFlight > 0;
      busy = inFlight;
      el.classList.toggle('sb-busy', inFlight);
      bar.setAttribute('aria-busy', String(inFlight));
      if (saving) status.textContent = saving;
      else if (inFlight) status.textContent = `Fetching table pages: ${p.requestsInFlight} request${p.requestsInFlight === 1 ? '' : 's'} in flight`;
      else if (p) status.textContent = 'Idle';
    },
    /** A probe is running (true) or done (false). */
    working(on) {
      if (!on && !busy && !saving) el.classList.remove('sb-busy');
      if (on && !saving) status.textContent = 'Probing…';
    },
    /** A download for offline use is running (text) or over (null): the status line says so meanwhile. */
    saving(text) {
      saving = text;
      el.classList.toggle('sb-busy', !!text || busy);
      bar.setAttribute('aria-busy', String(!!text || busy));
      if (text) status.textContent = text;
      else if (!busy) status.textContent = 'Idle';
    },
    /**
     * What the probe of `fen` cost: its Trace among stats().recent, one
     * newer than `before` knew (a difference of the totals would count a
     * best line or a previous position's probe finishing meanwhile; `last`
     * may be such a line already), else no network.
     */
    cost(fen, before, after) {
      if (!before || !after) return;
      const since = before.last ? before.last.id : -Infinity;
      const mine = (after.recent || []).filter((l) => l.method === 'probe' && l.fen === fen.trim() && l.id > since);
      const { requests, bytes, rounds } = mine.length ? mine[mine.length - 1] : { requests: 0, bytes: 0, rounds: 0 };
      last.value.textContent = requests
        ? `${requests} request${requests === 1 ? '' : 's'}, ${formatBytes(bytes)}, ${rounds} round${rounds === 1 ? '' : 's'}`
        : 'no network (cached)';
      if (!busy && !saving) status.textContent = requests ? 'Idle' : 'Idle: answered from cache';
    },
    /** Totals from tb.stats(). */
    stats(s) {
      if (!s) return;
      totals.value.textContent = `${s.requests} request${s.requests === 1 ? '' : 's'}, ${formatBytes(s.bytes)}`;
      pages.value.textContent = `memory ${s.pagesFromMemory}, IndexedDB ${s.pagesFromIndexedDb}, network ${s.pagesFromNetwork}`;
      cache.value.textContent =
        s.indexedDb === 'memory-only'
          ? `${formatBytes(s.memoryBytes)} in memory (IndexedDB unavailable)`
          : `${formatBytes(s.cacheBytes)} stored, ${formatBytes(s.memoryBytes)} in memory`;
    },
    /** Shows the material that "Save for offline" would fetch. */
    setMaterial(key, enabled) {
      prefetchBtn.querySelector('.sb-prefetch-label').textContent = key ? `Save ${key} for offline` : 'Save for offline';
      prefetchBtn.disabled = !enabled;
    },
    /** Opens the section (e.g. when a download starts from elsewhere). */
    open() {
      el.open = true;
    },
    prefetchProgress(text) {
      prefetchStatus.textContent = text || '';
    },
    /**
     * Asks `text` under the cache buttons, with a `yes` and a `no` button
     * (focused: the safe answer); resolves true for yes, false for no,
     * Escape, or another question in its place.
     */
    ask(text, yes, no) {
      asking?.(false);
      // Where the focus goes back to once answered (the button that asked).
      const from = document.activeElement;
      return new Promise((resolve) => {
        const answer = (v) => {
          if (asking !== answer) return;
          asking = null;
          const had = box.contains(document.activeElement);
          box.remove();
          if (had) (from && from.isConnected && from !== document.body ? from : clearBtn).focus({ preventScroll: true });
          resolve(v);
        };
        const noBtn = h('button.sb-btn', { type: 'button', onclick: () => answer(false) }, no);
        const box = h(
          'div.sb-ask',
          { role: 'alertdialog', 'aria-label': 'Clear cache' },
          h('p', text),
          h('div.sb-row', h('button.sb-btn.sb-danger', { type: 'button', onclick: () => answer(true) }, yes), noBtn),
        );
        box.addEventListener('keydown', (e) => {
          if (e.key !== 'Escape') return;
          e.stopPropagation();
          answer(false);
        });
        asking = answer;
        prefetchStatus.before(box);
        el.open = true;
        noBtn.focus();
      });
    },
    error(text) {
      if (saving) return;
      status.textContent = text;
      el.classList.remove('sb-busy');
    },
    setEnabled(on) {
      clearBtn.disabled = !on;
    },
  };
}
