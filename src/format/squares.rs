//! Index to position: the inverse of [`super::encode`]. Every index of a
//! subtable names one placement of its pieces (in the table's colour frame,
//! squares in the order of `enc.pieces`); encoding that placement gives the
//! index back. The writer walks a table's indices with it, and a position can
//! be shared as a material plus an index.

use super::consts::{BINOMIAL, KK_IDX, LOWER, PAWN_IDX, PAWN_TWIST, TRIANGLE_ORDER};
use super::header::{Encoding, Geometry};
use super::FormatError;
use crate::small_sort::sort_small_by;

/// The two-king placements in index order: (first king, second king).
pub const KK_SQUARES: [(u8, u8); 462] = {
    let mut t = [(0u8, 0u8); 462];
    let mut i = 0;
    while i < 10 {
        let mut k2 = 0;
        while k2 < 64 {
            let n = KK_IDX[i][k2];
            if n >= 0 {
                t[n as usize] = (TRIANGLE_ORDER[i] as u8, k2 as u8);
            }
            k2 += 1;
        }
        i += 1;
    }
    t
};

/// Squares strictly below the a1-h8 diagonal by their [`LOWER`] number.
const LOWER_SQUARES: [u8; 28] = {
    let mut t = [0u8; 28];
    let mut sq = 0;
    while sq < 64 {
        if (sq >> 3) < (sq & 7) {
            t[LOWER[sq] as usize] = sq as u8;
        }
        sq += 1;
    }
    t
};

/// Pawn squares by their [`PAWN_TWIST`] number.
const TWIST_SQUARES: [u8; 48] = {
    let mut t = [0u8; 48];
    let mut sq = 8;
    while sq < 56 {
        t[PAWN_TWIST[sq] as usize] = sq as u8;
        sq += 1;
    }
    t
};

/// The square of the diagonal on file `f`.
const fn on_diag(f: u64) -> usize {
    (f as usize) * 9
}

/// Fills `out` (one square per piece of `enc.pieces`) with the placement
/// of `index`.
pub fn squares(
    index: u64,
    enc: &Encoding,
    geo: Geometry,
    out: &mut [usize],
) -> Result<(), FormatError> {
    Cursor::default().squares(index, enc, geo, out)
}

/// One group of an encoding: its first slot, its pieces, its kind (0 the
/// leading group, 1 the other pawns, 2 a group of pieces), how many
/// numbers it takes and its factor in the index.
#[derive(Debug, Clone, Copy, Default)]
struct Group {
    first: usize,
    pieces: usize,
    kind: u8,
    size: u64,
    factor: u64,
}

/// [`squares`] for a walk over many indices of one encoding into one
/// buffer: it keeps each group's number from the last call and decodes only
/// from the first group whose number changed. The next index is reached by
/// counting up (the groups are the digits of a mixed-radix number) rather
/// than by dividing, and consecutive indices mostly differ in one group, so
/// the writer's passes decode about one group an index instead of all.
#[derive(Debug, Clone, Default)]
pub struct Cursor {
    groups: [Group; 8],
    count: usize,
    /// Groups from the least significant to the most.
    by_factor: [usize; 8],
    /// Group numbers of the last placement decoded into the buffer.
    numbers: [u64; 8],
    /// Whether `numbers` describe the buffer, and the index they make.
    known: bool,
    last: u64,
}

impl Cursor {
    /// As [`squares`]; `enc`, `geo` and `out` must be the same on every
    /// call to one cursor.
    pub fn squares(
        &mut self,
        index: u64,
        enc: &Encoding,
        geo: Geometry,
        out: &mut [usize],
    ) -> Result<(), FormatError> {
        let n = enc.pieces.len();
        if index >= enc.positions || out.len() != n {
            self.known = false;
            return Err(FormatError::Corrupt("index beyond the table"));
        }
        if self.count == 0 {
            self.layout(enc, geo);
        }
        let count = self.count;
        let mut first = 0;
        if self.known && index == self.last.wrapping_add(1) {
            // Count up: the least significant group that does not wrap is
            // the last to change.
            first = count;
            for &g in &self.by_factor[..count] {
                first = first.min(g);
                self.numbers[g] += 1;
                if self.numbers[g] < self.groups[g].size {
                    break;
                }
                self.numbers[g] = 0;
            }
        } else {
            let mut fresh = [0u64; 8];
            for (f, g) in fresh.iter_mut().zip(&self.groups[..count]) {
                *f = (index / g.factor) % g.size;
            }
            if self.known {
                first = (0..count)
                    .find(|&g| self.numbers[g] != fresh[g])
                    .unwrap_or(count);
            }
            self.numbers = fresh;
        }
        // Squares the groups before the one being decoded take, kept up
        // as the groups are decoded.
        let mut taken = match self.groups[..count].get(first) {
            Some(g) => mask(&out[..g.first]),
            None => 0,
        };
        for g in first..count {
            let Group {
                first: k,
                pieces: m,
                kind,
                ..
            } = self.groups[g];
            let number = self.numbers[g];
            match kind {
                0 if geo.pawnful => leading_pawns(number, m, enc.file, out),
                0 if geo.kk => {
                    let (a, b) = KK_SQUARES[number as usize];
                    out[0] = usize::from(a);
                    out[1] = usize::from(b);
                }
                0 => three_unique(number, out),
                1 => group(number, k, m, 8, taken, out),
                _ => group(number, k, m, 0, taken, out),
            }
            taken |= mask(&out[k..k + m]);
        }
        self.known = true;
        self.last = index;
        Ok(())
    }

    /// The groups of `enc`, in encoding order and by significance.
    fn layout(&mut self, enc: &Encoding, geo: Geometry) {
        let n = enc.pieces.len();
        let lead = geo.lead();
        let mut push = |first: usize, pieces: usize, kind: u8, size: u64| {
            self.groups[self.count] = Group {
                first,
                pieces,
                kind,
                size: size.max(1),
                factor: enc.factor[first].max(1),
            };
            self.count += 1;
        };
        push(0, lead, 0, geo.lead_size(enc.file));
        let mut k = lead;
        if geo.pawnful && geo.other_pawns > 0 {
            let m = usize::from(geo.other_pawns);
            push(k, m, 1, BINOMIAL[48 - lead][m]);
            k += m;
        }
        while k < n {
            let m = usize::from(enc.norm[k]).max(1).min(n - k);
            push(k, m, 2, BINOMIAL[64 - k][m]);
            k += m;
        }
        let count = self.count;
        let mut order: Vec<usize> = (0..count).collect();
        sort_small_by(&mut order, |&a, &b| {
            self.groups[a].factor < self.groups[b].factor
        });
        self.by_factor[..count].copy_from_slice(&order);
    }
}

/// Largest `p` with `C(p, k) <= g` (`C(p, k)` grows with `p`: a binary
/// search, as the writer asks this for every piece of every index).
pub(crate) fn largest_below(g: u64, k: usize) -> usize {
    if k == 1 {
        // C(p, 1) = p: the number is the square count itself.
        return (g as usize).min(64);
    }
    let (mut lo, mut hi) = (k - 1, 64);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if BINOMIAL[mid][k] <= g {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// The squares of `sq` as a bit mask.
fn mask(sq: &[usize]) -> u64 {
    sq.iter().fold(0u64, |t, &s| t | 1 << (s & 63))
}

/// The group `out[k..k + m]` from its combinatorial number, on the squares
/// from `origin` on that `taken` (the squares of `out[..k]`) leaves free.
fn group(mut g: u64, k: usize, m: usize, origin: usize, taken: u64, out: &mut [usize]) {
    for i in (1..=m).rev() {
        let p = largest_below(g, i);
        g -= BINOMIAL[p][i];
        out[k + i - 1] = nth_free(taken, p + origin);
    }
}

/// The `n`-th square (from 0) not in `taken`: counting from `n`, each
/// taken square at or below the count pushes it one further. Taken squares
/// are few (the other pieces), so this walks their bits, lowest first,
/// rather than counting them (baseline x86-64 has no popcount
/// instruction: counting was a fifth of the writer's time).
fn nth_free(taken: u64, n: usize) -> usize {
    let mut s = n;
    let mut rest = taken;
    while rest != 0 && rest.trailing_zeros() as usize <= s {
        s += 1;
        rest &= rest - 1;
    }
    s
}

/// The leading pawns: the first on its slot of file `file`, the others by
/// their twist numbers, highest first.
fn leading_pawns(g: u64, lead: usize, file: usize, out: &mut [usize]) {
    let row = &PAWN_IDX[lead - 1];
    let mut slot = file * 6;
    while slot + 1 < file * 6 + 6 && row[slot + 1] <= g {
        slot += 1;
    }
    out[0] = (1 + slot % 6) * 8 + slot / 6;
    let mut rest = g - row[slot];
    for i in 1..lead {
        let t = largest_below(rest, lead - i);
        rest -= BINOMIAL[t][lead - i];
        out[i] = usize::from(TWIST_SQUARES[t]);
    }
}

/// Inverse of the three-unique-pieces numbering (see `encode`).
fn three_unique(g: u64, out: &mut [usize]) {
    const OFF: u64 = 6 * 63 * 62;
    const A_DIAG: u64 = OFF + 4 * 28 * 62;
    const AB_DIAG: u64 = A_DIAG + 4 * 7 * 28;
    // Skips the squares of `below` (ascending) that a count from 0 passes.
    let skip = |mut s: usize, below: &mut [usize]| {
        sort_small_by(below, |a, b| a < b);
        for &t in below.iter() {
            if t <= s {
                s += 1;
            }
        }
        s
    };
    let (a, b, c);
    if g < OFF {
        a = TRIANGLE_ORDER[(g / (63 * 62)) as usize];
        b = skip(((g / 62) % 63) as usize, &mut [a]);
        c = skip((g % 62) as usize, &mut [a, b]);
    } else if g < A_DIAG {
        let r = g - OFF;
        a = on_diag(r / (28 * 62));
        b = usize::from(LOWER_SQUARES[((r / 62) % 28) as usize]);
        c = skip((r % 62) as usize, &mut [a, b]);
    } else if g < AB_DIAG {
        let r = g - A_DIAG;
        let fa = r / (7 * 28);
        a = on_diag(fa);
        let fb = (r / 28) % 7;
        b = on_diag(fb + u64::from(fb >= fa));
        c = usize::from(LOWER_SQUARES[(r % 28) as usize]);
    } else {
        let r = g - AB_DIAG;
        let fa = r / 42;
        let mut files = [fa as usize];
        let fb = skip(((r / 6) % 7) as usize, &mut files);
        let fc = skip((r % 6) as usize, &mut [fa as usize, fb]);
        a = on_diag(fa);
        b = on_diag(fb as u64);
        c = on_diag(fc as u64);
    }
    out[0] = a;
    out[1] = b;
    out[2] = c;
}
