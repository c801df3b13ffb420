// The heads of the first position's own tables, asked for as the board starts,
// while the wasm module still downloads and compiles: on a slow link the
// module and the head then share the wire instead of taking turns. The
// package takes this response (the Tablebase option `early`) for the read
// that opens that file and asks the network only for what it lacks, so a
// wrong guess here costs bytes, never correctness.
import { parseFen } from './chess.js';
import { canonicalMaterial } from './materials.js';

const LETTER = { queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P' };

/**
 * The files the position's own result reads first, in order: the outcome
 * (who wins, shown first) its WDL table, the verdict its DTZ table. Where
 * the rules decide the WDL (rooks and queens against a bare king, see
 * src/probe/lone_king.rs) the outcome reads nothing and only the DTZ
 * table is named. The tables its moves reach come after the outcome: on a
 * slow link (a phone) they would share its bandwidth, and on a fast one
 * they cost the verdict a round at most. Captures are left to the probe.
 */
export function ownFiles(fen) {
  const { pieces } = parseFen(fen);
  const side = { white: '', black: '' };
  for (const p of pieces.values()) if (p.role !== 'king') side[p.color] += LETTER[p.role];
  const name = canonicalMaterial(side.white, side.black);
  const majorsOnly = /^[QR]+$/.test(side.white + side.black) && !(side.white && side.black);
  return majorsOnly ? [`${name}.rtbz`] : [`${name}.rtbw`, `${name}.rtbz`];
}

/**
 * Bytes the probe reads to open a file of `name` on a slow link (mirrors
 * head_len in src/engine/source.rs: the longest header, at least 32 KiB
 * past 4 pieces, at most 24 KiB up to 4), or 0 for tables it is not worth
 * guessing for. On a fast link the probe also wants the sparse index
 * behind the header (up to 4 pieces: a 64 KiB head, most of such a file)
 * and asks for the rest in the same round.
 */
function headBytes(file) {
  const [name, kind] = file.split('.');
  const pieces = name.length - 1;
  if (pieces <= 4) return 24 << 10;
  if (pieces > 5) return 0;
  if (!name.includes('P')) return 32 << 10;
  return kind === 'rtbw' ? 100 << 10 : 56 << 10;
}

// The package's page cache (src/web/page-db.js): its database, and the
// store whose keys are the URLs of files it holds pages of.
const DB_NAME = 'syzygy-web';
const FILES = 'files';
// Past this the heads are asked for anyway: a late answer would cost the
// cold visit more than a head costs a revisit.
const LOOKUP_MS = 250;
// Set once a probe of this board has stored pages: only then is the page
// cache looked in, which on a first visit would delay the heads for
// nothing (the phone profile's Lucena position, looking in it on every
// visit: result 2.67-2.70 s against 2.54 s, with DTZ 3.02-3.06 s against
// 2.88-2.92 s; two runs of 3 loads each).
const KEPT = 'syzygy-board:tables-kept';

/** Notes whether this origin's page cache holds table pages (see KEPT). */
export function noteKept(kept) {
  try {
    if (kept) localStorage.setItem(KEPT, '1');
    else localStorage.removeItem(KEPT);
  } catch {
    /* storage refused (a sandboxed frame): heads are asked for */
  }
}

function mayBeKept() {
  try {
    return localStorage.getItem(KEPT) === '1';
  } catch {
    return false;
  }
}

/**
 * Which of `urls` the page cache holds, without creating its database
 * (opened without a version, an upgrade means there is none: aborted, so
 * the package creates it with its stores). An empty set on any failure.
 */
export function storedUrls(urls) {
  return new Promise((resolve) => {
    const none = () => resolve(new Set());
    const timer = setTimeout(none, LOOKUP_MS);
    const done = (set) => {
      clearTimeout(timer);
      resolve(set);
    };
    let req;
    try {
      req = indexedDB.open(DB_NAME);
    } catch {
      done(new Set());
      return;
    }
    req.onupgradeneeded = () => req.transaction.abort();
    req.onerror = () => done(new Set());
    req.onblocked = () => done(new Set());
    req.onsuccess = () => {
      const db = req.result;
      const found = new Set();
      try {
        const store = db.transaction(FILES, 'readonly').objectStore(FILES);
        let left = urls.length;
        if (!left) done(found);
        for (const url of urls) {
          const get = store.getKey(url);
          get.onsuccess = () => {
            if (get.result !== undefined) found.add(url);
            if (--left === 0) done(found);
          };
          get.onerror = () => done(new Set());
        }
      } catch {
        done(new Set());
      } finally {
        // Closed at once (pending reads still finish): it must not block the package's upgrades.
        db.close();
      }
    };
  });
}

/**
 * Starts the head requests of `fen`'s own tables (see ownFiles) at the
 * first of `urls` (absolute base URLs ending in "/"): the first at once,
 * the second once that has arrived (so that it does not share the first
 * head's bandwidth, and is in before the outcome's pages are asked for).
 * A file the page cache already holds is not asked for: a revisit costs
 * no network (looked for only after a visit stored pages, see KEPT). Returns the `early` option of a Tablebase; an empty list
 * for a FEN it cannot read or no URL.
 */
export function earlyHeads(urls, fen) {
  if (!urls.length || typeof fetch !== 'function') return [];
  let files;
  try {
    files = ownFiles(fen);
  } catch {
    return [];
  }
  const out = [];
  let before = null;
  const wanted = files.filter(headBytes);
  const stored = typeof indexedDB !== 'undefined' && mayBeKept() ? storedUrls(wanted.map((f) => urls[0] + f)) : Promise.resolve(new Set());
  for (const file of wanted) {
    const end = headBytes(file);
    const url = urls[0] + file;
    const controller = new AbortController();
    const low = !!before;
    const get = () =>
      stored.then((known) => {
        if (known.has(url)) throw new Error(`${file} is in IndexedDB`);
        return fetch(url, {
          headers: { Range: `bytes=0-${end - 1}` },
          cache: 'no-store',
          signal: controller.signal,
          priority: low ? 'low' : 'high',
        });
      });
    // The second waits for the first's body (read from a clone: the
    // original stays whole for the package).
    const response = before ? before.then(get) : get();
    response.catch(() => {});
    if (!before) before = response.then((r) => r.clone().arrayBuffer()).then(() => {}, () => {});
    out.push({ url, start: 0, end, response, controller });
  }
  return out;
}
