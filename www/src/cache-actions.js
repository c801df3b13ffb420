// The cache buttons: clear the stored pages, save a material (and what its
// captures and promotions reach) for offline use. Both take the app context
// (see analysis.js).
import { asError } from './tablebase.js';
import { refreshStats } from './analysis.js';
import { formatBytes } from './dom.js';
import { shortReason } from './verdict.js';
import { noteKept } from './early.js';
import { workerUrl } from './offline.js';
import { offlineBytes, reachableMaterials, scanHost, tableOf } from './materials.js';

/**
 * Whether the board's service worker keeps this page for offline use: it
 * controls the page, or is installing for it (a first visit registers it
 * after the first result; waited for up to 30 s, or until its install
 * fails). No worker of ours (plain http on a LAN, a private window, a page
 * embedding the board, or the site's own worker): the tables are kept, the
 * page is not.
 */
async function shellKept() {
  const ours = workerUrl();
  if (!ours) return false;
  const sw = navigator.serviceWorker;
  if (sw.controller) return sw.controller.scriptURL === ours;
  const reg = await sw.getRegistration().catch(() => null);
  const worker = reg && (reg.installing || reg.waiting || reg.active);
  if (!worker || worker.scriptURL !== ours) return false;
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(() => resolve(false), 30000)));
  // An install that fails (a file of the shell the host would not give)
  // leaves its worker redundant and `ready` pending: said then, not 30 s on.
  const failed = new Promise((resolve) => {
    const watch = (w) => {
      // Failed already (between the lookup and here): said at once.
      if (w.state === 'redundant') return resolve(false);
      w.addEventListener('statechange', () => {
        if (w.state !== 'redundant') return;
        const next = reg.installing || reg.waiting || reg.active;
        if (next && next !== w && next.scriptURL === ours) watch(next);
        else resolve(false);
      });
    };
    watch(worker);
  });
  const ready = await Promise.race([sw.ready.then(() => true), failed, late]);
  clearTimeout(timer);
  return ready;
}

/** "KQvK, KRvKN": the materials of the files named, at most `max` shown ("and 3 more"). */
function materialsOf(files, max = 6) {
  const list = [...new Set(files.map((f) => f.replace(/\.rtb[wz]$/, '')))];
  const shown = list.slice(0, max).join(', ');
  return list.length > max ? `${shown} and ${list.length - max} more` : shown;
}

/**
 * Drops every stored page and the answers cached in the page; tables
 * saved for offline use go too, so it asks first where there are any.
 */
export async function clearCache(ctx) {
  const { s, view } = ctx;
  if (!s.handle) return;
  const saved = await s.handle.tb.saved().catch(() => null);
  if (saved && saved.files.length) {
    const sure = await view.network.ask(
      `This also removes the tables saved for offline use: ${materialsOf(saved.files)} (${formatBytes(saved.bytes)}). Positions that need them will need the network again.`,
      'Clear them too',
      'Keep everything',
    );
    if (!sure) return;
  }
  view.network.prefetchProgress('Clearing…');
  // A save still under way learns of it (see prefetch).
  s.clears++;
  try {
    await s.handle.tb.clearCache();
    noteKept(null);
    s.results.clear();
    s.mainlines.clear();
    s.zeroingLines.clear();
    s.reached.clear();
    view.network.prefetchProgress('Cache cleared.');
  } catch (err) {
    view.network.prefetchProgress(`Could not clear the cache: ${asError(err).message}`);
  }
  refreshStats(ctx);
}

/**
 * Downloads the tables of `fen`'s material and of every material its
 * captures and promotions reach. The package reports bytes so far and the
 * size of the file in progress; the total comes from HEAD requests for those
 * files first, so the percentage only grows and ends at 100.
 */
export async function prefetch(ctx, fen) {
  const { s, view } = ctx;
  if (!s.handle) return;
  const key = tableOf(fen);
  if (s.saving) {
    view.network.open();
    view.network.prefetchProgress(`Another save is under way: save ${key} once it is done.`);
    return;
  }
  s.saving = true;
  const clears = s.clears;
  view.network.open();
  const say = (text) => {
    view.network.prefetchProgress(text);
    view.network.saving(text);
  };
  say(`Saving ${key} for offline: measuring…`);
  // Asked for here, on the user's own request: storage the browser may
  // not evict under pressure (nor, in Safari, after a week unvisited).
  navigator.storage?.persist?.().catch(() => {});
  try {
    const sizes = await scanHost(s.handle.urls, { names: reachableMaterials(key) });
    const total = offlineBytes(key, sizes);
    // Storage the browser will not give: said before anything is downloaded
    // (a write refused midway makes room by dropping older pages, saves
    // included). Files saved already take no more room (a material saved
    // before, saved again on a nearly full origin).
    const before = await s.handle.tb.saved().catch(() => null);
    const adds = offlineBytes(key, sizes, new Set(before ? before.urls : []));
    const room = await navigator.storage?.estimate?.().catch(() => null);
    if (room && Number.isFinite(room.quota) && adds > room.quota - (room.usage || 0)) {
      view.network.saving(null);
      view.network.prefetchProgress(`Could not save ${key}: it needs ${formatBytes(adds)} more, and this browser allows this site ${formatBytes(Math.max(0, room.quota - (room.usage || 0)))} more.`);
      return;
    }
    let shown = 0;
    const res = await s.handle.tb.prefetch(fen, (p) => {
      const done = p && Number.isFinite(p.bytes) ? p.bytes : 0;
      const pct = total ? Math.min(100, Math.floor((100 * done) / total)) : null;
      if (pct !== null && pct < shown) return;
      shown = pct ?? shown;
      say(`Saving ${key} for offline: ${pct !== null ? `${pct} %, ` : ''}${formatBytes(done)}${total ? ` of ${formatBytes(total)}` : ''}`);
      refreshStats(ctx);
    });
    const missing = (res && res.missing) || [];
    const saved = (res && res.files) || [];
    say(`Saving ${key} for offline: checking that the page is kept too…`);
    const shell = await shellKept();
    view.network.saving(null);
    if (s.clears !== clears) {
      // Cleared while the page was checked: what was saved went with it.
      view.network.prefetchProgress(`${key} was not kept: the cache was cleared meanwhile.`);
    } else if (!saved.length) {
      view.network.prefetchProgress(`Could not save ${key}: the host has none of its tables.`);
    } else {
      const where = shell ? 'is available offline' : 'is kept in this browser (this page itself is not kept for offline use here: it needs the network to open)';
      const lacking = missing.length ? ` The host lacks ${missing.join(', ')}: positions that need ${missing.length === 1 ? 'it' : 'them'} stay online-only.` : '';
      view.network.prefetchProgress(`${key} ${where} (${formatBytes(res.bytes)}).${lacking}`);
    }
  } catch (err) {
    view.network.saving(null);
    view.network.prefetchProgress(`Could not save ${key}: ${shortReason(asError(err))}.`);
  } finally {
    s.saving = false;
  }
  refreshStats(ctx);
}
