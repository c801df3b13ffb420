// Materials: every Syzygy material name up to a piece count, what the
// configured host offers (one HEAD request per file, whose Content-Length is
// the offline download size), the materials a position's captures and
// promotions reach, and random legal positions of a material.
import { boardFen, checkers, inCheck, makeFen, materialKey, squareName } from './chess.js';

const ORDER = 'QRBNP';
const ROLE = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };

/** Sorts a side's pieces strongest first: "PRQ" -> "QRP". */
const sortSide = (s) => [...s].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)).join('');

/** True when side `a` (without its king) is named first against `b`: more pieces, then stronger ones. */
function strongerFirst(a, b) {
  if (a.length !== b.length) return a.length > b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return ORDER.indexOf(a[i]) < ORDER.indexOf(b[i]);
  return true;
}

/** The Syzygy file name of a material given as two sides without kings ("RP", "R" -> "KRPvKR"). */
export function canonicalMaterial(white, black) {
  const [a, b] = [sortSide(white), sortSide(black)];
  return strongerFirst(a, b) ? `K${a}vK${b}` : `K${b}vK${a}`;
}

/** The Syzygy table of a position's material: KQvK for a black queen too (materialKey says KvKQ). */
export function tableOf(fen) {
  const [white, black] = materialKey(fen).split('v');
  return canonicalMaterial(white.slice(1), black.slice(1));
}

/** The table name of `fen`'s material, or '' for a FEN it cannot read (see tableOf). */
export function safeMaterial(fen) {
  try {
    return tableOf(fen);
  } catch {
    return '';
  }
}

/** Piece count of a material name ("KRPvKR" -> 5). */
export const materialPieces = (name) => name.replace('v', '').length;

/** Every material with 3 to `max` pieces, by piece count then name order of the tables' sets. */
export function allMaterials(max = 5) {
  const multisets = (n) => {
    const out = [];
    const rec = (prefix, from, left) => {
      if (!left) return out.push(prefix);
      for (let i = from; i < ORDER.length; i++) rec(prefix + ORDER[i], i, left - 1);
    };
    rec('', 0, n);
    return out;
  };
  const names = new Set();
  for (let extra = 1; extra <= max - 2; extra++)
    for (let w = 0; w <= extra; w++) for (const a of multisets(w)) for (const b of multisets(extra - w)) names.add(canonicalMaterial(a, b));
  return [...names].sort((x, y) => materialPieces(x) - materialPieces(y) || rank(x) - rank(y) || (x < y ? -1 : 1));
}

// Orders materials of one size: the stronger side's pieces first.
const rank = (name) => [...name.replace(/K/g, '')].reduce((acc, c) => acc * 6 + (c === 'v' ? 5 : ORDER.indexOf(c)), 0);

/**
 * Materials reached from `name` by captures and promotions (itself included),
 * the set "Save for offline" stores. Kings alone (KvK) are left out.
 */
export function reachableMaterials(name) {
  const seen = new Set();
  const walk = (white, black) => {
    const key = canonicalMaterial(white, black);
    if (seen.has(key) || white.length + black.length === 0) return;
    seen.add(key);
    for (const [side, other, flip] of [
      [white, black, false],
      [black, white, true],
    ]) {
      for (let i = 0; i < side.length; i++) {
        const rest = side.slice(0, i) + side.slice(i + 1);
        // Capture of side[i] by the other side.
        if (flip) walk(other, rest);
        else walk(rest, other);
        if (side[i] === 'P')
          for (const promo of 'QRBN') {
            const promoted = rest + promo;
            if (flip) walk(other, promoted);
            else walk(promoted, other);
          }
      }
    }
  };
  const [w, b] = name.split('v').map((s) => s.slice(1));
  walk(w, b);
  return [...seen];
}

/** Whether the browser says it is offline (then an empty scan says nothing about the host). */
export const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * Asks the host which materials it has: Map name -> {base, wdl, dtz} with the
 * file sizes in bytes, for every material of 3 to `max` pieces (or `names`). One HEAD per
 * file, at most `parallel` at a time; a material counts when both files exist.
 * The map's `answered` is true where some HEAD got an HTTP answer (a host
 * that lacks a table says so, one down or refused by CORS says nothing).
 */
export async function scanHost(urls, { max = 5, names = allMaterials(max), parallel = 6, fetchImpl = fetch } = {}) {
  const found = new Map();
  let answered = false;
  const size = async (url) => {
    try {
      const res = await fetchImpl(url, { method: 'HEAD', cache: 'no-store' });
      answered = true;
      if (!res.ok) return null;
      const n = Number(res.headers.get('Content-Length'));
      return Number.isFinite(n) && n > 0 ? n : null;
    } catch {
      return null;
    }
  };
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++];
      for (const base of urls) {
        const wdl = await size(`${base}${name}.rtbw`);
        if (!wdl) continue;
        const dtz = await size(`${base}${name}.rtbz`);
        if (dtz) {
          found.set(name, { base, wdl, dtz });
          break;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return Object.assign(new Map(names.filter((n) => found.has(n)).map((n) => [n, found.get(n)])), { answered });
}

// Common materials by piece count, the most played first: what a host
// that has tables of that many pieces is likely to have. See hostReach.
export const COMMON = {
  3: ['KRvK', 'KQvK', 'KPvK'],
  4: ['KRvKP', 'KQvKR', 'KPvKP', 'KRvKR'],
  5: ['KRPvKR', 'KQPvKQ', 'KBPvKR', 'KRRvKR'],
  6: ['KRPPvKR', 'KRPvKRP', 'KQPvKQP', 'KRRPvKR'],
  7: ['KRPPvKRP', 'KRPPPvKR', 'KQPPvKQP', 'KRRPvKRP'],
};

/**
 * How many pieces the host's tables reach, for an error's words, from a
 * few HEAD requests where scanHost makes hundreds (a 404 logged in the
 * console for each material a host lacks): the common materials of each
 * piece count in turn, until a count has none. Resolves {maxPieces,
 * materials: null} (0: none found), or null where no HEAD got an answer.
 */
export async function hostReach(urls, { fetchImpl = fetch } = {}) {
  let answered = false;
  const has = async (name) => {
    for (const base of urls) {
      try {
        const res = await fetchImpl(`${base}${name}.rtbw`, { method: 'HEAD', cache: 'no-store' });
        answered = true;
        if (res.ok) return true;
      } catch {
        /* this base is down or refuses: the next */
      }
    }
    return false;
  };
  let maxPieces = 0;
  for (let n = 3; n <= 7; n++) {
    let found = false;
    for (const name of COMMON[n]) if ((found = await has(name))) break;
    if (!found) break;
    maxPieces = n;
  }
  return answered ? { maxPieces, materials: null } : null;
}

/** What a scan says about coverage: {maxPieces, materials}. */
export function coverageOf(offered) {
  let maxPieces = 0;
  for (const name of offered.keys()) maxPieces = Math.max(maxPieces, materialPieces(name));
  return { maxPieces, materials: offered.size };
}

/**
 * Bytes that "Save for offline" fetches for `name`: its files and those of
 * what it reaches, as far as the host has them; with `held` (URLs saved
 * already), what it adds to what the browser stores.
 */
export function offlineBytes(name, offered, held = new Set()) {
  let total = 0;
  for (const m of reachableMaterials(name)) {
    const f = offered.get(m);
    if (!f) continue;
    if (!held.has(`${f.base}${m}.rtbw`)) total += f.wdl;
    if (!held.has(`${f.base}${m}.rtbz`)) total += f.dtz;
  }
  return total;
}

/**
 * A random legal position of a material (white = the first side), the side
 * to move given or random: kings apart, the side not to move not in check,
 * the side to move checked by one piece at most, no pawn on the first or
 * last rank. `random` returns numbers in [0, 1).
 */
export function randomPosition(name, random = Math.random, turn = null) {
  const [w, b] = name.split('v');
  for (let attempt = 0; attempt < 1000; attempt++) {
    const pieces = new Map();
    const side = turn || (random() < 0.5 ? 'white' : 'black');
    let ok = true;
    for (const [letters, color] of [
      [w, 'white'],
      [b, 'black'],
    ]) {
      for (const c of letters) {
        const pawn = c === 'P';
        let sq;
        for (let tries = 0; tries < 64 && !sq; tries++) {
          const f = Math.floor(random() * 8);
          const r = pawn ? 1 + Math.floor(random() * 6) : Math.floor(random() * 8);
          const name = squareName(f, r);
          if (!pieces.has(name)) sq = name;
        }
        if (!sq) ok = false;
        else pieces.set(sq, { role: ROLE[c], color });
      }
    }
    if (!ok) continue;
    const kings = [...pieces].filter(([, p]) => p.role === 'king').map(([sq]) => sq);
    const [a, c] = kings.map((sq) => [sq.charCodeAt(0), sq.charCodeAt(1)]);
    if (Math.abs(a[0] - c[0]) <= 1 && Math.abs(a[1] - c[1]) <= 1) continue;
    const other = side === 'white' ? 'black' : 'white';
    const fen = makeFen({ pieces, turn: side, castling: '-', ep: '-', halfmove: 0, fullmove: 1 });
    if (inCheck(makeFen({ pieces, turn: other, castling: '-', ep: '-', halfmove: 0, fullmove: 1 }))) continue;
    // Two checkers: no single move gives most of those (two knights, a
    // knight and a pawn), and the package refuses them as illegal.
    if (checkers(fen) > 1) continue;
    if (boardFen(pieces)) return fen;
  }
  throw new Error(`no legal position found for ${name}`);
}
