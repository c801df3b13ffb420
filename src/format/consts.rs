//! Index-space geometry of the Syzygy encoding, derived from first principles
//! (board symmetries and binomial coefficients) rather than pasted tables.
//!
//! Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63.

/// Most pieces a table can hold.
pub const MAX_PIECES: usize = 7;

const fn file(sq: usize) -> usize {
    sq & 7
}
const fn rank(sq: usize) -> usize {
    sq >> 3
}

/// Reflects a square in the a1-h8 diagonal.
pub const fn flip_diag(sq: usize) -> usize {
    (file(sq) << 3) | rank(sq)
}

/// Which side of the a1-h8 diagonal a square is on: +1 above (rank > file),
/// -1 below, 0 on it.
pub const fn off_diag(sq: usize) -> i8 {
    if rank(sq) > file(sq) {
        1
    } else if rank(sq) < file(sq) {
        -1
    } else {
        0
    }
}

/// n choose k for the small k a table needs; 0 when k > n.
pub const fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut num = 1u64;
    let mut den = 1u64;
    let mut i = 0;
    while i < k {
        num *= n - i;
        den *= i + 1;
        i += 1;
    }
    num / den
}

/// `BINOMIAL[n][k]` = [`binomial`]`(n, k)` for the group sizes an index can
/// hold: the encoder and its inverse look these up for every piece.
pub const BINOMIAL: [[u64; 8]; 65] = {
    let mut t = [[0u64; 8]; 65];
    let mut n = 0;
    while n < 65 {
        let mut k = 0;
        while k < 8 {
            t[n][k] = binomial(n as u64, k as u64);
            k += 1;
        }
        n += 1;
    }
    t
};

/// The ten squares of the a1-d1-d4 triangle in encoding order: first the six
/// off the diagonal, then the four on it.
pub const TRIANGLE_ORDER: [usize; 10] = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];

/// Position of a square's image in the a1-d1-d4 triangle, after the
/// board symmetries (file, rank and diagonal reflections) are applied.
pub const TRIANGLE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut f = file(sq);
        let mut r = rank(sq);
        if f > 3 {
            f = 7 - f;
        }
        if r > 3 {
            r = 7 - r;
        }
        if r > f {
            let x = f;
            f = r;
            r = x;
        }
        let image = r * 8 + f;
        let mut i = 0;
        while i < 10 {
            if TRIANGLE_ORDER[i] == image {
                t[sq] = i as u8;
            }
            i += 1;
        }
        sq += 1;
    }
    t
};

/// Index of a square strictly below the a1-h8 diagonal (rank < file), counted
/// rank by rank; squares above use their reflection.
pub const LOWER: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut n = 0u8;
    let mut r = 0;
    while r < 8 {
        let mut f = r + 1;
        while f < 8 {
            t[r * 8 + f] = n;
            t[f * 8 + r] = n;
            n += 1;
            f += 1;
        }
        r += 1;
    }
    t
};

/// Index of a square along the a1-h8 diagonal (its file).
pub const fn diag(sq: usize) -> u64 {
    file(sq) as u64
}

const fn kings_adjacent_or_equal(a: usize, b: usize) -> bool {
    let df = file(a).abs_diff(file(b));
    let dr = rank(a).abs_diff(rank(b));
    df <= 1 && dr <= 1
}

/// Number of legal two-king placements once symmetry is removed.
pub const KK_COUNT: u64 = 462;

/// Encoding of the two kings when they are the only unique pieces: the first
/// king in the triangle, the second anywhere legal, enumerated in square
/// order. When the first king is on the diagonal the second must be on or
/// below it; the placements with both kings on the diagonal come last.
/// -1 marks placements that cannot occur.
pub const KK_IDX: [[i16; 64]; 10] = {
    let mut t = [[-1i16; 64]; 10];
    let mut n = 0i16;
    let mut both_on_diagonal = 0;
    while both_on_diagonal < 2 {
        let mut i = 0;
        while i < 10 {
            let k1 = TRIANGLE_ORDER[i];
            let mut k2 = 0;
            while k2 < 64 {
                let wanted = if off_diag(k1) != 0 {
                    both_on_diagonal == 0
                } else if both_on_diagonal == 0 {
                    off_diag(k2) < 0
                } else {
                    off_diag(k2) == 0
                };
                if wanted && !kings_adjacent_or_equal(k1, k2) {
                    t[i][k2] = n;
                    n += 1;
                }
                k2 += 1;
            }
            i += 1;
        }
        both_on_diagonal += 1;
    }
    t
};

/// Leading-pawn placements when three unique pieces open the encoding.
pub const PIECE3_COUNT: u64 = 31332;

/// Pawn squares ordered so that the pawns the encoding enumerates first
/// (central files, advanced ranks) get the smallest numbers; a2 is 47.
pub const PAWN_TWIST: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 8;
    while sq < 56 {
        let f = file(sq);
        let edge = if f < 4 { f } else { 7 - f };
        let queenside = if f < 4 { 1 } else { 0 };
        t[sq] = (12 * (3 - edge) + 12 - 2 * rank(sq) + queenside) as u8;
        sq += 1;
    }
    t
};

/// Leading-pawn slot: six ranks per file, files mirrored onto a-d.
pub const FLAP: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 8;
    while sq < 56 {
        let f = file(sq);
        let edge = if f < 4 { f } else { 7 - f };
        t[sq] = (edge * 6 + rank(sq) - 1) as u8;
        sq += 1;
    }
    t
};

/// For `n` leading pawns (index n-1) and a leading-pawn slot: the index of
/// the first placement where that pawn leads, counted within its file.
pub const PAWN_IDX: [[u64; 24]; 6] = pawn_tables().0;
/// For `n` leading pawns and a leading file (a-d): the placements it has.
pub const PAWN_FACTOR: [[u64; 4]; 6] = pawn_tables().1;

const fn pawn_tables() -> ([[u64; 24]; 6], [[u64; 4]; 6]) {
    let mut idx = [[0u64; 24]; 6];
    let mut factor = [[0u64; 4]; 6];
    let mut others = 0;
    while others < 6 {
        let mut s = 0u64;
        let mut slot = 0;
        while slot < 24 {
            idx[others][slot] = s;
            let sq = (1 + slot % 6) * 8 + slot / 6;
            s += binomial(PAWN_TWIST[sq] as u64, others as u64);
            if (slot + 1) % 6 == 0 {
                factor[others][slot / 6] = s;
                s = 0;
            }
            slot += 1;
        }
        others += 1;
    }
    (idx, factor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kk_enumeration_has_462_placements() {
        let max = KK_IDX.iter().flatten().copied().max().unwrap_or(-1);
        assert_eq!(max as u64 + 1, KK_COUNT);
        // 3*58 + 3*55 placements with the first king off the diagonal and
        // 27 + 3*25 with it on and the second below: kings on a1 and c3
        // open the diagonal-diagonal block.
        assert_eq!(KK_IDX[6][18], 441);
    }

    #[test]
    fn triangle_covers_ten_classes() {
        let mut seen = [false; 10];
        for &t in TRIANGLE.iter() {
            seen[t as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn twist_is_a_permutation_of_pawn_squares() {
        let mut seen = [false; 48];
        for sq in 8..56 {
            seen[PAWN_TWIST[sq] as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn lower_numbers_28_squares() {
        let max = (0..64).filter(|&s| off_diag(s) < 0).map(|s| LOWER[s]).max();
        assert_eq!(max, Some(27));
    }
}
