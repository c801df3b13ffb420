// Where a host's best line gives a piece away: past a capture into a
// 4-piece ending, DTZ play goes for the next capture or pawn move, and the
// winner's quickest one may be to let a piece be taken (a queen in KQRvK).
// mate.js says so under the line. No DOM here.
import { parseFen, pieceCount, turnOf } from './chess.js';
import { safeMaterial } from './materials.js';
import { otherColor } from './verdict.js';

/** The most pieces of a position whose tables the browser makes (the package's limit). */
export const MADE_HERE = 4;

/**
 * Where the best `line` of a position of 4 pieces or more gives a piece
 * away in a 4-piece ending: DTZ counts plies to the next capture or pawn move,
 * so the winner of, say, KQRvK gives the queen away (a capture sooner
 * than mate). The winner's move is played in the 4-piece ending (not a
 * trade into it) and the loser's reply takes a piece (a pawn may fall
 * on the way to mate as well). Returns {at: the index of the winner's
 * move, piece: the role given away, material} or null.
 */
export function giveaway(line) {
  if (!line || !Array.isArray(line.moves) || !line.wdl) return null;
  try {
    if (pieceCount(line.fen) < MADE_HERE) return null;
    const loser = line.wdl > 0 ? otherColor(turnOf(line.fen)) : turnOf(line.fen);
    const fens = [line.fen, ...line.moves.map((m) => m.fen)];
    for (let i = 1; i < line.moves.length; i++) {
      const [before, prev, after] = [fens[i - 1], fens[i], fens[i + 1]];
      if (pieceCount(prev) < MADE_HERE) return null;
      if (pieceCount(before) !== MADE_HERE || pieceCount(after) >= MADE_HERE || turnOf(prev) !== loser) continue;
      const taken = parseFen(prev).pieces.get(line.moves[i].uci.slice(2, 4));
      if (taken && taken.role !== 'pawn') return { at: i - 1, piece: taken.role, material: safeMaterial(before) };
    }
  } catch {
    /* a line the rules cannot read: no note */
  }
  return null;
}
