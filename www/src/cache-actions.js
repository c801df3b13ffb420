// The cache buttons of the network card: clear the stored pages, save a
// whole material for offline use. Both take the app context (see analysis.js).
import { asError } from './tablebase.js';
import { refreshStats, safeMaterial } from './analysis.js';
import { currentFen } from './state.js';

/** Drops every stored page and the answers cached in the page. */
export async function clearCache(ctx) {
  const { s, view } = ctx;
  if (!s.handle) return;
  view.network.prefetchProgress('Clearing…');
  try {
    await s.handle.tb.clearCache();
    s.results.clear();
    s.mainlines.clear();
    view.network.prefetchProgress('Cache cleared.');
  } catch (err) {
    view.network.prefetchProgress(`Could not clear the cache: ${asError(err).message}`);
  }
  refreshStats(ctx);
}

/** Downloads the tables of the current position's material into the cache. */
export async function prefetch(ctx) {
  const { s, view } = ctx;
  if (!s.handle) return;
  const fen = currentFen(s);
  const key = safeMaterial(fen);
  view.network.prefetchProgress(`Saving ${key}…`);
  try {
    const res = await s.handle.tb.prefetch(fen, (p) => {
      const done = p && (p.bytes ?? p.loaded ?? 0);
      const total = p && (p.totalBytes ?? p.total ?? 0);
      view.network.prefetchProgress(total ? `Saving ${key}: ${Math.round((100 * done) / total)} %` : `Saving ${key}: ${formatKB(done)}`);
      refreshStats(ctx);
    });
    view.network.prefetchProgress(`${key} is available offline (${formatKB(res && res.bytes)}).`);
  } catch (err) {
    view.network.prefetchProgress(`Could not save ${key}: ${asError(err).message}`);
  }
  refreshStats(ctx);
}

const formatKB = (n) => (Number.isFinite(n) ? `${Math.round(n / 1024).toLocaleString('en')} KB` : '');
