// Short share codes: a position as material + side to move + one number.
//
//   KRPvKRw3kQx           pieces and side to move (clocks 0 and 1, no en passant)
//   KRPvKRb3kQx.12.40.e3  with halfmove clock, move number, en passant square
//
// The number is mixed radix over the pieces in a fixed order (pawns first,
// then the other pieces; white before black; K Q R B N P), the first piece
// least significant: each piece's digit is the index of its square among the
// squares still free for it, so the radix shrinks as pieces are placed; pawns
// only count ranks 2 to 7, and of several identical pieces each later one only
// counts squares above the one before, so their order cannot make two codes
// for one position. The number is written in base64url, most significant
// character first. Castling rights
// have no code (tables hold no such positions): those positions keep the FEN.
import { parseFen, makeFen, materialKey, squareName } from './chess.js';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LETTER_ROLE = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };
const SQUARES = Array.from({ length: 64 }, (_, i) => squareName(i % 8, Math.floor(i / 8)));
const CODE = /^(K[QRBNP]*vK[QRBNP]*)([wb])([A-Za-z0-9_-]+)((?:\.[a-h0-9]+)*)$/;

/** The pieces of a material in code order: [{color, role}], pawns first. */
function slots(material) {
  const [w, b] = material.split('v');
  const list = [];
  for (const pawns of [true, false])
    for (const [letters, color] of [
      [w, 'white'],
      [b, 'black'],
    ])
      for (const c of letters) if ((c === 'P') === pawns) list.push({ color, role: LETTER_ROLE[c] });
  return list;
}

/** Squares a piece may take: free, ranks 2-7 for pawns, above the previous identical piece. */
function candidates(slot, used, prev) {
  return SQUARES.filter((sq, i) => {
    if (used.has(sq)) return false;
    if (slot.role === 'pawn' && (i < 8 || i >= 56)) return false;
    return prev === undefined || i > prev;
  });
}

const sameKind = (a, b) => a && b && a.color === b.color && a.role === b.role;

/** The share code of a FEN, or null when it has none (castling rights, unusual material). */
export function encodePosition(fen) {
  const pos = parseFen(fen);
  if (pos.castling !== '-') return null;
  // A code carries an en passant square of rank 3 or 6 only (where one can
  // be): another is left to a FEN link, which says what is wrong with it.
  if (pos.ep !== '-' && !/^[a-h][36]$/.test(pos.ep)) return null;
  const material = materialKey(fen);
  if (!/^K[QRBNP]*vK[QRBNP]*$/.test(material)) return null;
  const order = slots(material);
  // Squares of each kind, ascending: identical pieces take them in that order.
  const byKind = new Map();
  for (const i of SQUARES.keys()) {
    const p = pos.pieces.get(SQUARES[i]);
    if (!p) continue;
    const key = `${p.color}-${p.role}`;
    if (!byKind.has(key)) byKind.set(key, []);
    byKind.get(key).push(i);
  }
  const digitsAndRadices = [];
  const used = new Set();
  let prev;
  for (const [k, slot] of order.entries()) {
    if (!sameKind(slot, order[k - 1])) prev = undefined;
    const sq = byKind.get(`${slot.color}-${slot.role}`).shift();
    const cands = candidates(slot, used, prev);
    const digit = cands.indexOf(SQUARES[sq]);
    if (digit < 0) return null; // a pawn on the first or last rank
    digitsAndRadices.push([digit, cands.length]);
    used.add(SQUARES[sq]);
    prev = sq;
  }
  // The first piece is the least significant digit: a radix depends on the
  // squares before it, so the decoder must meet the digits in this order.
  let n = 0n;
  for (const [digit, radix] of digitsAndRadices.reverse()) n = n * BigInt(radix) + BigInt(digit);
  let digits = '';
  do {
    digits = B64[Number(n % 64n)] + digits;
    n /= 64n;
  } while (n > 0n);
  let code = `${material}${pos.turn === 'white' ? 'w' : 'b'}${digits}`;
  if (pos.halfmove !== 0 || pos.fullmove !== 1) code += `.${pos.halfmove}.${pos.fullmove}`;
  if (pos.ep !== '-') code += `.${pos.ep}`;
  return code;
}

/** The FEN of a share code; throws an Error with code 'invalid-fen' when it is not one. */
export function decodePosition(code) {
  const fail = (why) => Object.assign(new Error(`Invalid share code: ${why}`), { code: 'invalid-fen' });
  const m = CODE.exec(String(code).trim());
  if (!m) throw fail('expected material, side to move and a number, e.g. KRvKw3kQ');
  const [, material, side, digits, rest] = m;
  const order = slots(material);
  let n = 0n;
  for (const c of digits) n = n * 64n + BigInt(B64.indexOf(c));
  const pieces = new Map();
  const used = new Set();
  let prev;
  for (const [k, slot] of order.entries()) {
    if (!sameKind(slot, order[k - 1])) prev = undefined;
    const cands = candidates(slot, used, prev);
    if (!cands.length) throw fail('the number does not fit the material');
    const radix = BigInt(cands.length);
    const sq = cands[Number(n % radix)];
    n /= radix;
    used.add(sq);
    pieces.set(sq, { color: slot.color, role: slot.role });
    prev = SQUARES.indexOf(sq);
  }
  if (n !== 0n) throw fail('the number is too large for the material');
  const pos = { pieces, turn: side === 'w' ? 'white' : 'black', castling: '-', ep: '-', halfmove: 0, fullmove: 1 };
  const fields = rest ? rest.slice(1).split('.') : [];
  const nums = fields.filter((f) => /^\d+$/.test(f)).map(Number);
  const ep = fields.find((f) => /^[a-h][36]$/.test(f));
  if (fields.length !== nums.length + (ep ? 1 : 0) || nums.length === 1 || nums.length > 2) throw fail('unexpected extra fields');
  if (nums.length === 2) [pos.halfmove, pos.fullmove] = nums;
  if (ep) pos.ep = ep;
  // The FEN's own checks too (a move number of 0, an en passant square
  // no pawn stands behind): what the board then parses must parse.
  return makeFen(parseFen(makeFen(pos)));
}

/** True when the text looks like a share code rather than a FEN. */
export const isShareCode = (text) => CODE.test(String(text).trim());
