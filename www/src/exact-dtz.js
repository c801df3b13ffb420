// A rounded DTZ made exact where more is known. Syzygy DTZ tables may
// store n for n or n + 1 plies (`precise: false`); the answer's own moves,
// or its mate distance, often settle which. No DOM here.

/**
 * `x` (an answer or a move) with a rounded DTZ made exact by its mate
 * distance: a rounded DTZ of n stands for n or n + 1 plies, and the winner
 * who mates in d plies zeroes (or mates) within d, so a DTZ is never above
 * the DTM: a mate in n plies makes it n. (Wins and losses the clock leaves
 * alone only: a cursed one's DTZ passes 100.)
 */
export function exactByMate(x) {
  const known = Number.isInteger(x.dtm) && Number.isInteger(x.dtz);
  if (x.precise !== false || !known || Math.abs(x.wdl) !== 2 || Math.abs(x.dtm) !== Math.abs(x.dtz)) return x;
  // "Maybe" was the rounding's doubt at the clock's 100th ply (n or n + 1
  // plies to go): n it is, in time.
  const category = { 'maybe-win': 'win', 'maybe-loss': 'loss' }[x.category] || x.category;
  return { ...x, precise: true, category };
}

/**
 * `r` (a probe's answer with its moves) with a rounded DTZ made exact by
 * its moves: a win's DTZ is its best winning move's, 1 for a zeroing one
 * (a capture, a pawn move, a mate) and 1 + the DTZ after it otherwise; a
 * loss's the longest of its moves'. Exact where the best is exact and no
 * rounded move could beat it, and it is one of the two the rounding left
 * open; `r` unchanged otherwise.
 */
export function exactByMoves(r) {
  if (!r || r.error || r.precise !== false || Math.abs(r.wdl) !== 2 || !Number.isInteger(r.dtz) || !Array.isArray(r.moves)) return r;
  const win = r.wdl > 0;
  let best = null;
  const rounded = [];
  for (const m of r.moves) {
    if (m.error) return r;
    // A win is kept by the moves into a loss for the opponent; a loss has no other.
    if (win && !(m.checkmate || m.wdl === -2)) continue;
    if (!win && m.wdl !== 2) return r;
    let plies;
    if (m.checkmate || m.zeroing) plies = 1;
    else if (Number.isInteger(m.dtz)) plies = 1 + Math.abs(m.dtz);
    else return r;
    if (m.precise === false && !m.checkmate && !m.zeroing) rounded.push(plies);
    else if (best === null || (win ? plies < best : plies > best)) best = plies;
  }
  if (best === null) return r;
  // A rounded n may be n + 1: it must not beat the best either way.
  if (rounded.some((n) => (win ? n < best : n + 1 > best))) return r;
  const n = Math.abs(r.dtz);
  if (best !== n && best !== n + 1) return r;
  const category = best + (r.halfmoveClock || 0) <= 100 ? { 'maybe-win': 'win', 'maybe-loss': 'loss' }[r.category] || r.category : r.category;
  return { ...r, dtz: win ? best : -best, precise: true, category };
}
