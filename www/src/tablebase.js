// Loads the wasm package once and hands out one shared Tablebase per set of
// table URLs, so that several boards on a page share pages and progress.
import init, { Tablebase } from 'syzygy-web-pkg/syzygy_web.js';

let ready = null;

/**
 * Resolves when the wasm module is instantiated. The glue finds the .wasm
 * next to itself (new URL(..., import.meta.url)), which bundlers turn into an
 * asset: this works for the site build and for projects bundling the package.
 */
export function loadWasm() {
  if (!ready) {
    ready = init().catch((err) => {
      ready = null;
      const e = new Error(`Could not load the tablebase module: ${err && err.message ? err.message : err}`);
      // Not the tables' server: nothing works until the module loads.
      e.code = 'module';
      throw e;
    });
  }
  return ready;
}

let rules = null;

/**
 * A Tablebase for legal moves alone (they need no table), where the
 * board's own could not be opened (a tables address that is not one): the
 * board stays playable beside the error. It needs the module loaded, and
 * then asks nothing of the network and keeps nothing in IndexedDB; it is
 * never probed, so it makes no table.
 */
export function movesOnly() {
  if (!rules) {
    rules = loadWasm().then(() => new Tablebase({ urls: [], idbBudget: 0 }));
    rules.catch(() => (rules = null));
  }
  return rules;
}

/** Parses "URL[,URL...]" into absolute base URLs ending in "/". */
export function parseTableUrls(spec, base = document.baseURI) {
  const list = String(spec || './tables/')
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return (list.length ? list : ['./tables/']).map((u) => {
    let abs;
    try {
      abs = new URL(u, base).href;
    } catch {
      // A typed error the board words (a link's ?tables=http:// left a blank page).
      throw Object.assign(new Error(`"${u.slice(0, 80)}" is not a table address`), { code: 'options' });
    }
    return abs.endsWith('/') ? abs : abs + '/';
  });
}

const shared = new Map();
// A Tablebase no board has listened to for this long is closed (its
// worker, IndexedDB connection and pages let go): boards whose tables were
// replaced (setTables) or that left the page. A board back within it
// finds its pages still in memory.
const UNUSED_MS = 60_000;

/**
 * A shared handle: { tb, urls, subscribe(fn) -> unsubscribe,
 * subscribeGenerate(fn) -> unsubscribe }. `fn` receives every progress
 * report {requestsInFlight, requests, bytes, rounds} (or, for the second,
 * of tables generated in the browser). Each board subscribes once while it
 * uses the handle: when none does for UNUSED_MS, the Tablebase is closed.
 */
export async function openTablebase(urls, early = []) {
  const key = urls.join(' ');
  let entry = shared.get(key);
  // Requests started early for a Tablebase that already exists would only be read by a new one.
  if (entry) for (const e of early) e.controller.abort();
  if (!entry) {
    entry = (async () => {
      await loadWasm();
      const listeners = new Set();
      const generating = new Set();
      const tb = new Tablebase({
        urls,
        // Positions of up to 4 pieces whose tables no URL has are solved in a worker.
        generate: 'auto',
        early,
        onGenerate: (p) => {
          for (const fn of generating) {
            try {
              fn(p);
            } catch (err) {
              console.error(err);
            }
          }
        },
        onProgress: (p) => {
          for (const fn of listeners) {
            try {
              fn(p);
            } catch (err) {
              console.error(err);
            }
          }
        },
      });
      // Counted from its making too: a board gone (or given other tables)
      // before it subscribed never leaves.
      let unused = null;
      const closeUnused = () => {
        clearTimeout(unused);
        unused = setTimeout(() => {
          if (listeners.size || shared.get(key) !== entry) return;
          shared.delete(key);
          tb.close().catch(() => {});
        }, UNUSED_MS);
      };
      closeUnused();
      const leave = (fn) => {
        listeners.delete(fn);
        if (!listeners.size) closeUnused();
      };
      return {
        tb,
        urls,
        /** This Tablebase stopped (its module failed): the next board or reconnect makes a new one. */
        forget() {
          if (shared.get(key) === entry) shared.delete(key);
        },
        subscribe(fn) {
          clearTimeout(unused);
          listeners.add(fn);
          return () => leave(fn);
        },
        /** `fn` receives every generation progress report (see GenerateProgress). */
        subscribeGenerate(fn) {
          generating.add(fn);
          return () => generating.delete(fn);
        },
      };
    })();
    entry.catch(() => shared.delete(key));
    shared.set(key, entry);
  }
  return entry;
}

/** Normalises anything thrown by the package into an Error with a `code`. */
export function asError(err) {
  if (err instanceof Error) {
    if (!err.code && /fetch|network|Failed to fetch|NetworkError/i.test(err.message)) err.code = 'network';
    return err;
  }
  const e = new Error(err && err.message ? err.message : String(err));
  if (err && err.code) e.code = err.code;
  return e;
}
