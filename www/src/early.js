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

// The files whose heads a probe of this board stored (URLs, newest last):
// the next visit leaves their early heads out. A list here rather than a
// look in IndexedDB: on a phone that look answered 0.5-0.6 s after the
// heads would have left, its callbacks queued behind the board's start (a
// link to the Lucena position after a visit: 2.67-2.83 s to the result
// looking, 2.00-2.28 s not). A stale entry costs a head its head start,
// never an answer.
const KEPT = 'syzygy-board:heads-kept';
const KEPT_MAX = 512;

function keptList() {
  try {
    const list = JSON.parse(localStorage.getItem(KEPT) ?? '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/**
 * Notes the files a probe stored in the page cache (`urls`), or, given
 * null, that the cache was cleared.
 */
export function noteKept(urls) {
  try {
    if (!urls) {
      localStorage.removeItem(KEPT);
      return;
    }
    if (!urls.length) return;
    const kept = keptList();
    // Already the newest entries (probes of one material in a row): the
    // list would be written as it is.
    if (urls.every((u, i) => kept[kept.length - urls.length + i] === u)) return;
    const list = kept.filter((u) => !urls.includes(u));
    list.push(...urls);
    localStorage.setItem(KEPT, JSON.stringify(list.slice(-KEPT_MAX)));
  } catch {
    /* storage refused (a sandboxed frame): heads are asked for */
  }
}

/**
 * The own files (see ownFiles) at `base` that the probe answering `result`
 * for `fen` read: none for a mate or stalemate, and the DTZ table only
 * where the result is not a draw (a draw's DTZ is 0 without it).
 */
export function filesRead(base, fen, result) {
  if (!result || !Array.isArray(result.moves) || !result.moves.length) return [];
  try {
    return ownFiles(fen)
      .filter((f) => f.endsWith('.rtbw') || (result.wdl !== 0 && result.dtz != null))
      .map((f) => base + f);
  } catch {
    return [];
  }
}

/**
 * The entries a probe of `fen` at `base` that answered `result` and
 * stored what it read leaves in KEPT: its own files read (filesRead), and
 * the position itself, whose next visit then asks for no early head at
 * all (a draw reads no DTZ table, a mate no table: their heads were
 * guesses the visit before did not need).
 */
export function keptAfter(base, fen, result) {
  const position = positionEntry(base, fen);
  return position ? [...filesRead(base, fen, result), position] : [];
}

/** KEPT's entry for a position at `base` (its placement, side, castling and en passant), or null. */
function positionEntry(base, fen) {
  const fields = typeof fen === 'string' ? fen.trim().split(/\s+/).slice(0, 4) : [];
  return fields.length === 4 ? `${base}#${fields.join(' ')}` : null;
}

/**
 * Starts the head requests of `fen`'s own tables (see ownFiles) at the
 * first of `urls` (absolute base URLs ending in "/"): the first at once,
 * the second once that has arrived (so that it does not share the first
 * head's bandwidth, and is in before the outcome's pages are asked for).
 * A file a probe stored (see KEPT) is not asked for, nor anything for a
 * position a probe answered and stored (see keptAfter): a revisit costs
 * no network. Returns the `early` option of a Tablebase; an empty list for a
 * FEN it cannot read or no URL.
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
  const kept = new Set(keptList());
  if (kept.has(positionEntry(urls[0], fen))) return [];
  const wanted = files.filter((f) => headBytes(f) && !kept.has(urls[0] + f));
  for (const file of wanted) {
    const end = headBytes(file);
    const url = urls[0] + file;
    const controller = new AbortController();
    const low = !!before;
    const get = () =>
      fetch(url, {
        headers: { Range: `bytes=0-${end - 1}` },
        cache: 'no-store',
        signal: controller.signal,
        priority: low ? 'low' : 'high',
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
