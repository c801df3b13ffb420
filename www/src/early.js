// The head of the first position's WDL table, asked for as the board starts,
// while the wasm module still downloads and compiles: on a slow link the
// module and the head then share the wire instead of taking turns. The
// package takes this response (the Tablebase option `early`) for the read
// that opens that file and asks the network only for what it lacks, so a
// wrong guess here costs bytes, never correctness.
import { parseFen } from './chess.js';
import { canonicalMaterial } from './materials.js';

const LETTER = { queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P' };

/**
 * The file the position's outcome (who wins, shown first) reads first: its
 * own WDL table. Its DTZ table and the tables its moves reach come after
 * the outcome: on a slow link (a phone) they would share its bandwidth,
 * and on a fast one they cost the verdict a round at most. Captures are
 * left to the probe.
 */
export function outcomeFile(fen) {
  const { pieces } = parseFen(fen);
  const side = { white: '', black: '' };
  for (const p of pieces.values()) if (p.role !== 'king') side[p.color] += LETTER[p.role];
  return `${canonicalMaterial(side.white, side.black)}.rtbw`;
}

/**
 * Bytes the probe reads to open a WDL file of `name` (mirrors head_len in
 * src/engine/source.rs: the longest header, at least 32 KiB past 4 pieces,
 * at most 24 KiB up to 4), or 0 for tables it is not worth guessing for.
 */
function headBytes(file) {
  const pieces = file.split('.')[0].length - 1;
  if (pieces <= 4) return 24 << 10;
  if (pieces > 5) return 0;
  return file.includes('P') ? 100 << 10 : 32 << 10;
}

/**
 * Starts the head request of `fen`'s WDL table at the first of `urls`
 * (absolute base URLs ending in "/"). Returns the `early` option of a
 * Tablebase; an empty list for a FEN it cannot read or no URL.
 */
export function earlyHeads(urls, fen) {
  if (!urls.length || typeof fetch !== 'function') return [];
  let file;
  try {
    file = outcomeFile(fen);
  } catch {
    return [];
  }
  const end = headBytes(file);
  if (!end) return [];
  const url = urls[0] + file;
  const controller = new AbortController();
  const response = fetch(url, {
    headers: { Range: `bytes=0-${end - 1}` },
    cache: 'no-store',
    signal: controller.signal,
    priority: 'high',
  });
  response.catch(() => {});
  return [{ url, start: 0, end, response, controller }];
}
