// Values for the moves of a position the tables do not answer (more pieces
// than the host covers, or its own table missing) that leave its material:
// a capture, or a promotion, into an ending the host has. The error card
// says "capture down to a covered material"; the list then says which
// captures win, draw or lose, as syzygy-tables.info's does for any move.
import { applyUci } from './chess.js';
import { safeMaterial } from './materials.js';

/** A position's verdict (with DTZ), its move list's tables not asked for; null where it fails. */
function verdictOf(tb, fen) {
  return tb.probe(fen, { moves: false }).catch(() => null);
}

/**
 * The moves of `fen` (`legal`: {uci, san}) with values where a move leaves
 * the position's material and the tables answer the position it reaches,
 * ranked as the tables rank moves (the opponent's result after it, best
 * for the mover first: a mate, wins fastest first, draws, losses longest
 * first); the others after them, without values. Resolves {moves (null
 * where none answers), failed: the probes that failed (a table missing, a
 * network error: asked again next time)}.
 */
export async function reachedMoves(tb, fen, legal) {
  const own = safeMaterial(fen);
  const children = legal.map((m) => {
    try {
      const child = applyUci(fen, m.uci);
      return safeMaterial(child) !== own ? child : null;
    } catch {
      return null;
    }
  });
  const answers = await Promise.all(children.map((child) => (child ? verdictOf(tb, child) : null)));
  const valued = [];
  const rest = [];
  let failed = 0;
  legal.forEach((m, i) => {
    const a = answers[i];
    if (!a || a.error || !Number.isInteger(a.wdl) || !Number.isInteger(a.dtz)) {
      if (children[i]) failed++;
      rest.push({ uci: m.uci, san: m.san });
      return;
    }
    const { wdl, dtz, precise, category, checkmate, stalemate, insufficientMaterial } = a;
    valued.push({ uci: m.uci, san: m.san, wdl, dtz, precise, category, dtm: Number.isInteger(a.dtm) ? a.dtm : null, zeroing: true, checkmate, stalemate, insufficientMaterial });
  });
  if (!valued.length) return { moves: null, failed };
  // The opponent's WDL after the move, lower first; then plies to zeroing
  // (fewer where the mover wins, more where it loses); ties by UCI.
  const key = (v) => [v.checkmate ? -3 : v.wdl, v.wdl < 0 ? Math.abs(v.dtz) : v.wdl > 0 ? -Math.abs(v.dtz) : 0];
  valued.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || (a.uci < b.uci ? -1 : 1);
  });
  return { moves: [...valued, ...rest], failed };
}
