//! Position to index: reduce by the board's symmetries, then number the
//! placement as a mixed-radix combination of piece groups.

use super::consts::{
    diag, flip_diag, off_diag, BINOMIAL, FLAP, KK_IDX, LOWER, PAWN_IDX, PAWN_TWIST, TRIANGLE,
};
use super::header::{Encoding, Geometry};
use crate::small_sort::sort_small_by;

/// Leading-pawn file (0..4) of a pawnful position, moving the leading pawn
/// (the one with the smallest slot) to the front. `squares[..lead]` are the
/// leading colour's pawns.
pub fn leading_file(squares: &mut [usize], lead: usize) -> usize {
    for i in 1..lead {
        if FLAP[squares[i]] < FLAP[squares[0]] {
            squares.swap(0, i);
        }
    }
    let f = squares[0] & 7;
    if f < 4 {
        f
    } else {
        7 - f
    }
}

/// Index of a placement. `sq` lists squares in the order of `enc.pieces`,
/// already in the table's colour frame; it is reordered in place.
pub fn encode(sq: &mut [usize], enc: &Encoding, header: Geometry) -> u64 {
    let n = sq.len();
    if sq[0] & 4 != 0 {
        for s in sq.iter_mut() {
            *s ^= 7;
        }
    }
    let mut k;
    let mut idx;
    if !header.pawnful {
        if sq[0] & 0x20 != 0 {
            for s in sq.iter_mut() {
                *s ^= 0x38;
            }
        }
        let lead = if header.kk { 2 } else { 3 };
        for i in 0..n {
            let d = off_diag(sq[i]);
            if d != 0 {
                if d > 0 && i < lead {
                    for s in sq.iter_mut() {
                        *s = flip_diag(*s);
                    }
                }
                break;
            }
        }
        if header.kk {
            idx = KK_IDX[usize::from(TRIANGLE[sq[0]])][sq[1]].max(0) as u64;
            k = 2;
        } else {
            idx = three_unique(sq[0], sq[1], sq[2]);
            k = 3;
        }
        idx *= enc.factor[0];
    } else {
        let lead = usize::from(header.lead_pawns);
        // Other leading pawns, most central and advanced first.
        sort_small_by(&mut sq[1..lead], |a, b| PAWN_TWIST[*a] > PAWN_TWIST[*b]);
        idx = PAWN_IDX[lead - 1][usize::from(FLAP[sq[0]])];
        for i in 1..lead {
            idx += BINOMIAL[usize::from(PAWN_TWIST[sq[i]])][(lead - i).min(7)];
        }
        idx *= enc.factor[0];
        k = lead;
        if header.other_pawns > 0 {
            let t = k + usize::from(enc.norm[k]);
            idx += group_index(sq, k, t, 8) * enc.factor[k];
            k = t;
        }
    }
    while k < n {
        let t = k + usize::from(enc.norm[k]).max(1);
        idx += group_index(sq, k, t.min(n), 0) * enc.factor[k];
        k = t;
    }
    idx
}

/// Combinatorial number of the group `sq[k..t]` of identical pieces, on the
/// squares left free by `sq[..k]`, counted from square `origin`.
fn group_index(sq: &mut [usize], k: usize, t: usize, origin: usize) -> u64 {
    if t - k > 1 {
        sort_small_by(&mut sq[k..t], |a, b| a < b);
    }
    let mut s = 0;
    for i in k..t {
        // Squares of `sq[..k]` below this one, compared one by one
        // (baseline x86-64 has no popcount instruction).
        let below = sq[..k].iter().filter(|&&p| p < sq[i]).count();
        let pos = sq[i].saturating_sub(below + origin);
        s += BINOMIAL[pos.min(64)][(i - k + 1).min(7)];
    }
    s
}

/// The three unique leading pieces of a pawnless table, the first in the
/// a1-d1-d4 triangle and the first off-diagonal one below the diagonal.
fn three_unique(a: usize, b: usize, c: usize) -> u64 {
    let s1 = u64::from(b > a);
    let s2 = u64::from(c > a) + u64::from(c > b);
    let (b64, c64) = (b as u64, c as u64);
    if off_diag(a) != 0 {
        u64::from(TRIANGLE[a]) * 63 * 62 + (b64 - s1) * 62 + (c64 - s2)
    } else if off_diag(b) != 0 {
        6 * 63 * 62 + diag(a) * 28 * 62 + u64::from(LOWER[b]) * 62 + c64 - s2
    } else if off_diag(c) != 0 {
        6 * 63 * 62 + 4 * 28 * 62 + diag(a) * 7 * 28 + (diag(b) - s1) * 28 + u64::from(LOWER[c])
    } else {
        6 * 63 * 62
            + 4 * 28 * 62
            + 4 * 7 * 28
            + diag(a) * 7 * 6
            + (diag(b) - s1) * 6
            + (diag(c) - s2)
    }
}
