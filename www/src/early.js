// The heads of the first position's tables, asked for as the board starts,
// while the wasm module still downloads and compiles: on a slow link the
// module and the heads then share the wire instead of taking turns. The
// package takes these responses (the Tablebase option `early`) for the
// reads that open those files and asks the network only for what they lack,
// so a wrong guess here costs bytes, never correctness.
import { parseFen } from './chess.js';
import { canonicalMaterial } from './materials.js';

const LETTER = { queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P' };

/**
 * The files a verdict reads first: the position's own WDL and DTZ tables
 * and, when the side to move can push a pawn to promotion, the WDL tables
 * of the materials it reaches (a winning DTZ looks at the pawn moves).
 * Captures are left to the probe.
 */
export function verdictFiles(fen) {
  const { pieces, turn } = parseFen(fen);
  const side = { white: '', black: '' };
  for (const p of pieces.values()) if (p.role !== 'king') side[p.color] += LETTER[p.role];
  const other = turn === 'white' ? 'black' : 'white';
  const own = canonicalMaterial(side.white, side.black);
  const out = [`${own}.rtbw`, `${own}.rtbz`];
  const [from, to] = turn === 'white' ? ['7', '8'] : ['2', '1'];
  for (const [sq, p] of pieces) {
    if (p.role !== 'pawn' || p.color !== turn || sq[1] !== from || pieces.has(sq[0] + to)) continue;
    for (const r of 'QRBN') out.push(`${canonicalMaterial(side[turn].replace('P', r), side[other])}.rtbw`);
  }
  return [...new Set(out)];
}

/**
 * Bytes the probe reads to open a file of `name` (mirrors head_len in
 * src/engine/source.rs: the longest header, at least 32 KiB past 4 pieces,
 * at most 24 KiB up to 4), or 0 for tables it is not worth guessing for.
 */
function headBytes(file) {
  const [name, kind] = file.split('.');
  const pieces = name.length - 1;
  if (pieces <= 4) return 24 << 10;
  if (pieces > 5) return 0;
  if (!name.includes('P')) return 32 << 10;
  return kind === 'rtbw' ? 100 << 10 : 56 << 10;
}

/**
 * Starts the head requests of `fen`'s verdict tables at the first of
 * `urls` (absolute base URLs ending in "/"). Returns the `early` option of
 * a Tablebase; an empty list for a FEN it cannot read or no URL.
 */
export function earlyHeads(urls, fen) {
  if (!urls.length || typeof fetch !== 'function') return [];
  let files;
  try {
    files = verdictFiles(fen);
  } catch {
    return [];
  }
  const out = [];
  for (const file of files) {
    const end = headBytes(file);
    if (!end) continue;
    const url = urls[0] + file;
    const controller = new AbortController();
    const response = fetch(url, {
      headers: { Range: `bytes=0-${end - 1}` },
      cache: 'no-store',
      signal: controller.signal,
      priority: 'high',
    });
    response.catch(() => {});
    out.push({ url, start: 0, end, response, controller });
  }
  return out;
}
