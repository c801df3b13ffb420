// Small chess helpers on FEN strings. Legality and SAN come from the wasm
// package; this module only reads and writes FENs, applies a move that is
// already known to be legal, and answers "is the side to move in check".

export const ROLES = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];
const LETTER = { king: 'k', queen: 'q', rook: 'r', bishop: 'b', knight: 'n', pawn: 'p' };
const ROLE_OF = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const FILES = 'abcdefgh';

export const EMPTY_FEN = '8/8/8/8/8/8/8/8 w - - 0 1';

/** Square name ('e4') to [file 0-7, rank 0-7], or null. */
export function coords(sq) {
  if (!/^[a-h][1-8]$/.test(sq)) return null;
  return [sq.charCodeAt(0) - 97, sq.charCodeAt(1) - 49];
}

/** [file, rank] to square name. */
export function squareName(f, r) {
  return FILES[f] + (r + 1);
}

/**
 * Parses a FEN leniently: missing trailing fields get defaults. Returns
 * { pieces: Map(square -> {role, color}), turn, castling, ep, halfmove, fullmove }
 * or throws an Error with code 'invalid-fen'.
 */
export function parseFen(fen) {
  const parts = String(fen).trim().replace(/_/g, ' ').split(/\s+/);
  const fail = (why) => {
    const e = new Error(`Invalid FEN: ${why}`);
    e.code = 'invalid-fen';
    return e;
  };
  const rows = (parts[0] || '').split('/');
  if (rows.length !== 8) throw fail('the board needs 8 ranks separated by "/"');
  const pieces = new Map();
  rows.forEach((row, i) => {
    const rank = 7 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) file += Number(ch);
      else if (ROLE_OF[ch.toLowerCase()]) {
        if (file > 7) throw fail(`rank ${rank + 1} has more than 8 squares`);
        pieces.set(squareName(file, rank), {
          role: ROLE_OF[ch.toLowerCase()],
          color: ch === ch.toUpperCase() ? 'white' : 'black',
        });
        file++;
      } else throw fail(`unexpected character "${ch}"`);
    }
    if (file !== 8) throw fail(`rank ${rank + 1} has ${file} squares instead of 8`);
  });
  const turn = parts[1] === undefined || parts[1] === 'w' ? 'white' : parts[1] === 'b' ? 'black' : null;
  if (!turn) throw fail('side to move must be "w" or "b"');
  const castling = parts[2] && parts[2] !== '-' ? parts[2] : '-';
  const ep = parts[3] && parts[3] !== '-' ? parts[3] : '-';
  if (ep !== '-' && !coords(ep)) throw fail('bad en passant square');
  const halfmove = parts[4] === undefined ? 0 : Number(parts[4]);
  const fullmove = parts[5] === undefined ? 1 : Number(parts[5]);
  if (!Number.isInteger(halfmove) || halfmove < 0) throw fail('halfmove clock must be a number');
  if (!Number.isInteger(fullmove) || fullmove < 1) throw fail('move number must be a positive number');
  return { pieces, turn, castling, ep, halfmove, fullmove };
}

/** Board part of a FEN from a Map of pieces. */
export function boardFen(pieces) {
  const rows = [];
  for (let r = 7; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = pieces.get(squareName(f, r));
      if (!p) empty++;
      else {
        if (empty) row += empty;
        empty = 0;
        const l = LETTER[p.role];
        row += p.color === 'white' ? l.toUpperCase() : l;
      }
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return rows.join('/');
}

/** Full FEN from a parsed position. */
export function makeFen(pos) {
  return [
    boardFen(pos.pieces),
    pos.turn === 'white' ? 'w' : 'b',
    pos.castling || '-',
    pos.ep || '-',
    pos.halfmove,
    pos.fullmove,
  ].join(' ');
}

/** Normalises a FEN (fills defaults, canonical spacing); throws on invalid input. */
export function normalizeFen(fen) {
  return makeFen(parseFen(fen));
}

/** The FEN with a different side to move (en passant square dropped). */
export function withTurn(fen, turn) {
  const pos = parseFen(fen);
  return makeFen({ ...pos, turn, ep: '-' });
}

/**
 * A halfmove clock as typed: a whole number from 0 to 9999 (the field's
 * "-3", "2.7" and "1e400" are 0, 2 and 9999, not a FEN that fails).
 */
export function clockOf(value) {
  const n = Math.floor(Number(value));
  return Number.isNaN(n) ? 0 : Math.min(9999, Math.max(0, n));
}

/**
 * The FEN with a different halfmove clock; a running clock drops the en
 * passant square (a pawn's double step sets the clock to 0: the tables'
 * prober refuses the two together).
 */
export function withHalfmove(fen, halfmove) {
  const pos = parseFen(fen);
  const n = clockOf(halfmove);
  return makeFen({ ...pos, halfmove: n, ep: n > 0 ? '-' : pos.ep });
}

/**
 * A linked FEN with both an en passant square and a running clock, as the
 * board's editor wrote them before 2026-11-30 (the prober refuses the two
 * together), made as the editor now makes it: the square dropped. Any
 * other FEN, invalid ones included, comes back as it is.
 */
export function repairLinkedFen(fen) {
  try {
    const pos = parseFen(fen);
    return pos.ep !== '-' && pos.halfmove > 0 ? withHalfmove(fen, pos.halfmove) : fen;
  } catch {
    return fen;
  }
}

/** Material key such as "KRPvKR" (white first). */
export function materialKey(fen) {
  const { pieces } = parseFen(fen);
  const order = 'KQRBNP';
  const side = (color) =>
    [...pieces.values()]
      .filter((p) => p.color === color)
      .map((p) => LETTER[p.role].toUpperCase())
      .sort((a, b) => order.indexOf(a) - order.indexOf(b))
      .join('');
  return `${side('white')}v${side('black')}`;
}

/** Number of pieces on the board (kings included). */
export function pieceCount(fen) {
  return parseFen(fen).pieces.size;
}

/**
 * Applies a legal move in UCI notation and returns the new FEN. Handles
 * captures, en passant, promotion, castling (e1g1 or king-takes-rook e1h1),
 * castling rights and the clocks. The en passant square is only written when
 * an enemy pawn stands next to the pawn that made a double step.
 */
export function applyUci(fen, uci) {
  const pos = parseFen(fen);
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const promo = uci[4];
  const piece = pos.pieces.get(from);
  if (!piece) throw new Error(`no piece on ${from}`);
  const [ff, fr] = coords(from);
  const [tf, tr] = coords(to);
  const target = pos.pieces.get(to);
  const pieces = new Map(pos.pieces);
  let capture = !!target && target.color !== piece.color;
  let castling = pos.castling;

  const isCastle =
    piece.role === 'king' &&
    ((target && target.color === piece.color && target.role === 'rook') || Math.abs(tf - ff) === 2);
  if (isCastle) {
    const kingSide = tf > ff;
    const rookFrom = target && target.role === 'rook' ? to : findCastlingRook(pos.pieces, piece.color, fr, ff, kingSide);
    pieces.delete(from);
    if (rookFrom) pieces.delete(rookFrom);
    pieces.set(squareName(kingSide ? 6 : 2, fr), piece);
    pieces.set(squareName(kingSide ? 5 : 3, fr), { role: 'rook', color: piece.color });
    capture = false;
  } else {
    pieces.delete(from);
    if (piece.role === 'pawn' && ff !== tf && !target) {
      pieces.delete(squareName(tf, fr)); // en passant
      capture = true;
    }
    pieces.set(to, promo ? { role: ROLE_OF[promo], color: piece.color } : piece);
  }

  // Castling rights: a king move loses both, a rook leaving or being taken on its corner loses one.
  if (castling !== '-') {
    const drop = (chars) => {
      castling = [...castling].filter((c) => !chars.includes(c)).join('') || '-';
    };
    if (piece.role === 'king') drop(piece.color === 'white' ? 'KQABCDEFGH' : 'kqabcdefgh');
    for (const sq of [from, to]) {
      if (sq === 'a1') drop('Q');
      if (sq === 'h1') drop('K');
      if (sq === 'a8') drop('q');
      if (sq === 'h8') drop('k');
    }
  }

  // Named only where the capture is legal, as the package and lichess
  // write it: a pinned taker left the same position two FENs.
  let ep = '-';
  if (piece.role === 'pawn' && Math.abs(tr - fr) === 2) {
    const enemy = piece.color === 'white' ? 'black' : 'white';
    if (epTakers(pieces, enemy, tf, tr).length) ep = squareName(ff, (fr + tr) / 2);
  }

  return makeFen({
    pieces,
    turn: pos.turn === 'white' ? 'black' : 'white',
    castling,
    ep,
    halfmove: capture || piece.role === 'pawn' ? 0 : pos.halfmove + 1,
    fullmove: pos.turn === 'black' ? pos.fullmove + 1 : pos.fullmove,
  });
}

function findCastlingRook(pieces, color, rank, kingFile, kingSide) {
  const step = kingSide ? 1 : -1;
  for (let f = kingFile + step; f >= 0 && f < 8; f += step) {
    const p = pieces.get(squareName(f, rank));
    if (p && p.role === 'rook' && p.color === color) return squareName(f, rank);
  }
  return null;
}

/** How many pieces give check to the side to move. */
export function checkers(fen) {
  const pos = parseFen(fen);
  const us = pos.turn;
  const them = us === 'white' ? 'black' : 'white';
  let king = null;
  for (const [sq, p] of pos.pieces) if (p.role === 'king' && p.color === us) king = sq;
  if (!king) return 0;
  let count = 0;
  const [kf, kr] = coords(king);
  const at = (f, r) => (f >= 0 && f < 8 && r >= 0 && r < 8 ? pos.pieces.get(squareName(f, r)) : undefined);
  const is = (p, ...roles) => p && p.color === them && roles.includes(p.role);
  const dir = us === 'white' ? 1 : -1;
  for (const df of [-1, 1]) if (is(at(kf + df, kr + dir), 'pawn')) count++;
  for (const [df, dr] of [[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]])
    if (is(at(kf + df, kr + dr), 'knight')) count++;
  for (let df = -1; df <= 1; df++)
    for (let dr = -1; dr <= 1; dr++) if ((df || dr) && is(at(kf + df, kr + dr), 'king')) count++;
  const rays = [
    [[1, 0], [-1, 0], [0, 1], [0, -1]],
    [[1, 1], [1, -1], [-1, 1], [-1, -1]],
  ];
  for (const [i, dirs] of rays.entries()) {
    const slider = i === 0 ? 'rook' : 'bishop';
    for (const [df, dr] of dirs) {
      for (let step = 1; step < 8; step++) {
        const f = kf + df * step;
        const r = kr + dr * step;
        if (f < 0 || f > 7 || r < 0 || r > 7) break;
        const p = at(f, r);
        if (!p) continue;
        if (is(p, slider, 'queen')) count++;
        break;
      }
    }
  }
  return count;
}

/** True when the side to move is in check. */
export function inCheck(fen) {
  return checkers(fen) > 0;
}

/** Side to move of a FEN ('white' | 'black'). */
export function turnOf(fen) {
  return parseFen(fen).turn;
}

/** Move number prefix for the ply that starts from this FEN: "12." or "12…". */
export function moveNumber(fen, forceBlackDots = false) {
  const pos = parseFen(fen);
  if (pos.turn === 'white') return `${pos.fullmove}.`;
  return forceBlackDots ? `${pos.fullmove}…` : '';
}

/**
 * The same position with the colours exchanged: every piece changes colour
 * and rank (a2 becomes a7), the other side moves. Results carry over with
 * the colours exchanged.
 */
export function swapColors(fen) {
  const pos = parseFen(fen);
  const pieces = new Map();
  for (const [sq, p] of pos.pieces) {
    const [f, r] = coords(sq);
    pieces.set(squareName(f, 7 - r), { role: p.role, color: p.color === 'white' ? 'black' : 'white' });
  }
  const ep = pos.ep === '-' ? '-' : squareName(coords(pos.ep)[0], 7 - coords(pos.ep)[1]);
  const castling = pos.castling === '-' ? '-' : [...pos.castling].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  return makeFen({ ...pos, pieces, turn: pos.turn === 'white' ? 'black' : 'white', ep, castling });
}

/** The position mirrored from left to right (a-file <-> h-file); castling rights are dropped. */
export function mirrorFiles(fen) {
  const pos = parseFen(fen);
  const pieces = new Map();
  for (const [sq, p] of pos.pieces) {
    const [f, r] = coords(sq);
    pieces.set(squareName(7 - f, r), p);
  }
  const ep = pos.ep === '-' ? '-' : squareName(7 - coords(pos.ep)[0], coords(pos.ep)[1]);
  return makeFen({ ...pos, pieces, ep, castling: '-' });
}

/**
 * The en passant squares a position could name: behind an enemy pawn that
 * may just have moved two squares (the square it passed and the one it
 * came from empty) and beside a pawn of the side to move that could take
 * it. Only those change what the tables answer; legality is the package's.
 */
export function enPassantSquares(pos) {
  const white = pos.turn === 'white';
  const rank = white ? 4 : 3; // where the pawn that moved stands (0-based)
  const dir = white ? 1 : -1;
  const them = white ? 'black' : 'white';
  const out = [];
  for (let f = 0; f < 8; f++) {
    const moved = pos.pieces.get(squareName(f, rank));
    if (!moved || moved.role !== 'pawn' || moved.color !== them) continue;
    if (pos.pieces.has(squareName(f, rank + dir)) || pos.pieces.has(squareName(f, rank + 2 * dir))) continue;
    if (epTakers(pos.pieces, pos.turn, f, rank).length) out.push(squareName(f, rank + dir));
  }
  return out;
}

/**
 * Files of `color`'s pawns that may take en passant the pawn on file `f`,
 * rank `rank` (0-based), which has just moved two squares: beside it, and
 * leaving their own king out of check once the capture is made (a taker
 * pinned, or both pawns leaving a rank between king and rook).
 */
function epTakers(pieces, color, f, rank) {
  const to = squareName(f, rank + (color === 'white' ? 1 : -1));
  return [f - 1, f + 1].filter((g) => {
    if (g < 0 || g > 7) return false;
    const from = squareName(g, rank);
    const p = pieces.get(from);
    if (!p || p.role !== 'pawn' || p.color !== color) return false;
    const after = new Map(pieces);
    after.delete(from);
    after.delete(squareName(f, rank));
    after.set(to, p);
    return !inCheck(makeFen({ pieces: after, turn: color, castling: '-', ep: '-', halfmove: 0, fullmove: 1 }));
  });
}
