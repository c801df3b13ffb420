//! Where each position of a material lives in the generator's arrays.
//!
//! The layout favours simple arithmetic over density: a piece is a 6-bit
//! square, a run of identical pieces the combinatorial number of its set of
//! squares (C(64, k) values: 4 knights take 635,376 instead of 64^4), and
//! an index is the mixed-radix number of those.
//! - Pawnless: the white king is mapped into a1-d4 by mirroring files and
//!   ranks (the four symmetries act freely on its square, so each position
//!   has exactly one stored form); then the black king and the other pieces,
//!   64 squares each. A 5-piece table is 16 x 64^4 positions per side.
//! - Pawnful: pawns are fixed per *slice* (one pawn configuration), and the
//!   kings and pieces vary inside it, 64 squares each. Slices are solved from
//!   the most advanced pawns back, so a pawn push always lands in a finished
//!   slice; the left-right mirror is taken on the pawns: a configuration whose
//!   mirror image is smaller is never stored.
//!
//! Identical pieces are stored with ascending squares. Illegal indexes
//! (pieces sharing a square, the side not to move in check) cost memory,
//! not time: they are skipped.

use shakmaty::{ByColor, ByRole, Color, Role};

use crate::format::consts::BINOMIAL;
use crate::format::squares::largest_below;
use crate::material::Material;

/// Up to 7 pieces: 6 and 7 are laid out the same way (see mod.rs for what
/// they would cost).
pub const MAX_PIECES: usize = 7;

const ROLE_ORDER: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// A material as the generator lays it out, the table's first side as White.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Table name, e.g. `KRPvKR`.
    pub name: String,
    /// Pieces per colour and role, White then Black, roles K Q R B N P.
    pub key: [u8; 12],
    /// Colour and role of each slot: white king, black king, other white
    /// pieces, other black pieces, white pawns, black pawns.
    pub slots: Vec<(Color, Role)>,
    /// Slots `first_pawn..` are pawns, fixed per slice.
    pub first_pawn: usize,
    /// Runs of identical pieces (start, end), kept in ascending squares.
    pub groups: Vec<(usize, usize)>,
    /// Positions per slice and side.
    pub slice_size: usize,
    /// Digits of an index within a slice after the white king's: a piece
    /// (64 values) or a run of identical pieces (C(64, k)), in slot order.
    units: Vec<Unit>,
    /// Per slot, the weight of its digit in the index when the slot is a
    /// piece of its own (0 inside a run of identical pieces).
    pub weight: [usize; MAX_PIECES],
    /// Pawn squares of each slice, in solving order (most advanced first).
    pub slices: Vec<[u8; MAX_PIECES]>,
    /// Slice number by pawn configuration (base-48 digits), or u32::MAX.
    slice_of: Vec<u32>,
}

/// Why a material name is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaterialError(pub String);

impl std::fmt::Display for MaterialError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub const fn role_index(r: Role) -> usize {
    match r {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Pawn => 5,
    }
}

pub const fn key_index(c: Color, r: Role) -> usize {
    match c {
        Color::White => role_index(r),
        Color::Black => 6 + role_index(r),
    }
}

/// The key with colours exchanged.
pub fn flip_key(key: &[u8; 12]) -> [u8; 12] {
    let mut k = [0; 12];
    k[..6].copy_from_slice(&key[6..]);
    k[6..].copy_from_slice(&key[..6]);
    k
}

/// The table name of a key (strong side first), and whether the key's White
/// is the table's second side.
pub fn name_of(key: &[u8; 12]) -> (String, bool) {
    let mut m: ByColor<ByRole<u8>> = ByColor::default();
    for (i, role) in ROLE_ORDER.iter().enumerate() {
        *m.white.get_mut(*role) = key[i];
        *m.black.get_mut(*role) = key[6 + i];
    }
    let mat = Material::of(&m);
    (mat.name, mat.white_is_weak)
}

/// Parses `KRPvKR` (any order of letters per side; the stronger side may
/// come second) into a key with the table's first side as White.
pub fn parse_material(s: &str) -> Result<[u8; 12], MaterialError> {
    let bad = |why: &str| MaterialError(format!("bad material {s:?}: {why}"));
    let (w, b) = s
        .split_once(['v', 'V'])
        .ok_or_else(|| bad("expected e.g. KRPvKR"))?;
    let mut key = [0u8; 12];
    for (side, text) in [(0, w), (6, b)] {
        for ch in text.chars() {
            let role = Role::from_char(ch.to_ascii_lowercase())
                .ok_or_else(|| bad("pieces are K Q R B N P"))?;
            key[side + role_index(role)] += 1;
        }
        if key[side] != 1 {
            return Err(bad("each side has exactly one king"));
        }
    }
    let pieces: usize = key.iter().map(|&c| usize::from(c)).sum();
    if pieces > MAX_PIECES {
        return Err(bad("at most 7 pieces"));
    }
    let (_, swap) = name_of(&key);
    Ok(if swap { flip_key(&key) } else { key })
}

/// One digit of a slice index: slots `start..start + len`, `radix` values.
#[derive(Debug, Clone, Copy)]
struct Unit {
    start: usize,
    len: usize,
    radix: usize,
}

/// The combinatorial number of ascending squares: sum of C(s_i, i + 1).
fn rank(squares: &[u8]) -> usize {
    squares
        .iter()
        .enumerate()
        .map(|(i, &s)| BINOMIAL[usize::from(s)][i + 1] as usize)
        .sum()
}

/// The ascending squares of combinatorial number `g`.
fn unrank(mut g: usize, out: &mut [u8]) {
    for i in (1..=out.len()).rev() {
        let s = largest_below(g as u64, i);
        g -= BINOMIAL[s][i] as usize;
        out[i - 1] = s as u8;
    }
}

fn is_pawn_square(sq: u8) -> bool {
    (8..56).contains(&sq)
}

/// White pawns count their ranks, black pawns the ranks to go: every pawn
/// move raises it, so solving in falling order never waits on a later slice.
fn advancement(slots: &[(Color, Role)], pawns: &[u8]) -> u32 {
    slots
        .iter()
        .zip(pawns)
        .map(|((c, _), &sq)| match c {
            Color::White => u32::from(sq >> 3),
            Color::Black => 7 - u32::from(sq >> 3),
        })
        .sum()
}

impl Layout {
    pub fn new(key: [u8; 12]) -> Layout {
        let (name, _) = name_of(&key);
        let mut slots = vec![(Color::White, Role::King), (Color::Black, Role::King)];
        for color in [Color::White, Color::Black] {
            for role in &ROLE_ORDER[1..5] {
                for _ in 0..key[key_index(color, *role)] {
                    slots.push((color, *role));
                }
            }
        }
        let first_pawn = slots.len();
        for color in [Color::White, Color::Black] {
            for _ in 0..key[key_index(color, Role::Pawn)] {
                slots.push((color, Role::Pawn));
            }
        }
        let mut groups = Vec::new();
        let mut i = 2;
        while i < slots.len() {
            let mut j = i + 1;
            while j < slots.len() && slots[j] == slots[i] {
                j += 1;
            }
            if j - i > 1 {
                groups.push((i, j));
            }
            i = j;
        }
        let pawns = slots.len() - first_pawn;
        let king_squares = if pawns == 0 { 16 } else { 64 };
        let mut units = Vec::new();
        let mut slot = 1;
        while slot < first_pawn {
            let len = groups.iter().find(|g| g.0 == slot).map_or(1, |g| g.1 - g.0);
            units.push(Unit {
                start: slot,
                len,
                radix: BINOMIAL[64][len] as usize,
            });
            slot += len;
        }
        let mut weight = [0usize; MAX_PIECES];
        let mut w = 1;
        for u in units.iter().rev() {
            if u.len == 1 {
                weight[u.start] = w;
            }
            w *= u.radix;
        }
        weight[0] = w;
        let slice_size = king_squares * w;
        let mut layout = Layout {
            name,
            key,
            slots,
            first_pawn,
            groups,
            slice_size,
            units,
            weight,
            slices: Vec::new(),
            slice_of: Vec::new(),
        };
        layout.enumerate_slices();
        layout
    }

    pub fn pieces(&self) -> usize {
        self.slots.len()
    }

    pub fn pawnful(&self) -> bool {
        self.first_pawn < self.slots.len()
    }

    pub fn positions_per_side(&self) -> usize {
        self.slice_size * self.slices.len()
    }

    fn enumerate_slices(&mut self) {
        let p = self.pieces() - self.first_pawn;
        if p == 0 {
            self.slices = vec![[0; MAX_PIECES]];
            self.slice_of = vec![0];
            return;
        }
        let total = 48usize.pow(p as u32);
        let mut found: Vec<(u32, usize, [u8; MAX_PIECES])> = Vec::new();
        for digits in 0..total {
            let mut sq = [0u8; MAX_PIECES];
            let mut d = digits;
            for s in sq.iter_mut().take(p) {
                *s = (d % 48) as u8 + 8;
                d /= 48;
            }
            let mut canon = sq;
            if !self.canonical_pawns(&mut canon[..p]) || canon != sq {
                continue;
            }
            let adv = advancement(&self.slots[self.first_pawn..], &sq[..p]);
            found.push((adv, digits, sq));
        }
        found.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        self.slice_of = vec![u32::MAX; total];
        for (n, (_, digits, _)) in found.iter().enumerate() {
            self.slice_of[*digits] = n as u32;
        }
        self.slices = found.into_iter().map(|(_, _, sq)| sq).collect();
    }

    /// Advancement of a slice: slices of equal advancement do not depend on
    /// each other and may be solved at the same time.
    pub fn slice_advancement(&self, slice: usize) -> u32 {
        let p = self.pieces() - self.first_pawn;
        advancement(&self.slots[self.first_pawn..], &self.slices[slice][..p])
    }

    /// The slice's pawns are their own mirror image: its positions and
    /// their mirror images are both stored.
    pub fn slice_symmetric(&self, slice: usize) -> bool {
        let p = self.pieces() - self.first_pawn;
        let mut m = [0u8; MAX_PIECES];
        for (m, &s) in m.iter_mut().zip(&self.slices[slice][..p]) {
            *m = s ^ 7;
        }
        self.sort_groups_from(&mut m[..p], self.first_pawn);
        m[..p] == self.slices[slice][..p]
    }

    /// Sorts pawn groups, mirrors when the mirror image is smaller; false
    /// when two pawns share a square or a pawn stands on a back rank.
    fn canonical_pawns(&self, pawns: &mut [u8]) -> bool {
        if !pawns.iter().all(|&s| is_pawn_square(s)) {
            return false;
        }
        let mut seen = 0u64;
        for &s in pawns.iter() {
            if seen & (1 << s) != 0 {
                return false;
            }
            seen |= 1 << s;
        }
        self.sort_groups_from(pawns, self.first_pawn);
        let mut mirrored = [0u8; MAX_PIECES];
        for (m, &s) in mirrored.iter_mut().zip(pawns.iter()) {
            *m = s ^ 7;
        }
        let mirrored = &mut mirrored[..pawns.len()];
        self.sort_groups_from(mirrored, self.first_pawn);
        if mirrored < pawns {
            pawns.copy_from_slice(mirrored);
        }
        true
    }

    /// Sorts the identical-piece runs of `sq`, whose first entry is slot
    /// `offset`.
    fn sort_groups_from(&self, sq: &mut [u8], offset: usize) {
        for &(a, b) in &self.groups {
            if a >= offset && b <= offset + sq.len() {
                sq[a - offset..b - offset].sort_unstable();
            }
        }
    }

    /// Brings a position (squares by slot) to its stored form: the symmetry
    /// that the layout keeps, then identical pieces in ascending order.
    pub fn canonicalize(&self, sq: &mut [u8]) {
        let n = self.pieces();
        if self.pawnful() {
            let fp = self.first_pawn;
            let mut pawns = [0u8; MAX_PIECES];
            pawns[..n - fp].copy_from_slice(&sq[fp..n]);
            self.sort_groups_from(&mut pawns[..n - fp], fp);
            let mut mirrored = [0u8; MAX_PIECES];
            for (m, &s) in mirrored.iter_mut().zip(pawns[..n - fp].iter()) {
                *m = s ^ 7;
            }
            self.sort_groups_from(&mut mirrored[..n - fp], fp);
            if mirrored[..n - fp] < pawns[..n - fp] {
                for s in sq[..n].iter_mut() {
                    *s ^= 7;
                }
            }
        } else {
            let flip = (if sq[0] & 7 >= 4 { 7 } else { 0 }) | (if sq[0] >= 32 { 56 } else { 0 });
            if flip != 0 {
                for s in sq[..n].iter_mut() {
                    *s ^= flip;
                }
            }
        }
        for &(a, b) in &self.groups {
            sq[a..b].sort_unstable();
        }
    }

    /// [`Layout::canonicalize`] after one non-pawn piece (`slot`) of a
    /// stored position moved within its slice: only the white king can
    /// change the symmetry, only the mover's group its order.
    pub fn canonicalize_after(&self, sq: &mut [u8], slot: usize) {
        let n = self.pieces();
        if slot == 0 && !self.pawnful() {
            let flip = (if sq[0] & 7 >= 4 { 7 } else { 0 }) | (if sq[0] >= 32 { 56 } else { 0 });
            if flip != 0 {
                for s in sq[..n].iter_mut() {
                    *s ^= flip;
                }
                for &(a, b) in &self.groups {
                    sq[a..b].sort_unstable();
                }
            }
            return;
        }
        if let Some(&(a, b)) = self.groups.iter().find(|g| g.0 <= slot && slot < g.1) {
            sq[a..b].sort_unstable();
        }
    }

    /// Slice and index within it of a position already in stored form;
    /// None when its pawns are not a stored configuration.
    pub fn index(&self, sq: &[u8]) -> Option<(usize, usize)> {
        let fp = self.first_pawn;
        let mut digits = 0usize;
        for &s in sq[fp..self.pieces()].iter().rev() {
            if !is_pawn_square(s) {
                return None;
            }
            digits = digits * 48 + usize::from(s - 8);
        }
        let slice = *self.slice_of.get(digits)?;
        if slice == u32::MAX {
            return None;
        }
        Some((slice as usize, self.local_index(sq)))
    }

    /// Index within a slice: the white king (a1-d4 only when pawnless),
    /// then each piece's square and each run of identical pieces' number.
    /// Runs must be in ascending order (stored form).
    pub fn local_index(&self, sq: &[u8]) -> usize {
        let mut idx = if self.pawnful() {
            usize::from(sq[0])
        } else {
            usize::from((sq[0] >> 3) * 4 + (sq[0] & 7))
        };
        for u in &self.units {
            idx = if u.len == 1 {
                (idx << 6) | usize::from(sq[u.start])
            } else {
                idx * u.radix + rank(&sq[u.start..u.start + u.len])
            };
        }
        idx
    }

    /// The position at `local` of `slice`: squares by slot.
    pub fn squares(&self, slice: usize, local: usize, sq: &mut [u8; MAX_PIECES]) {
        let fp = self.first_pawn;
        let mut rest = local;
        for u in self.units.iter().rev() {
            if u.len == 1 {
                sq[u.start] = (rest & 63) as u8;
                rest >>= 6;
            } else {
                unrank(rest % u.radix, &mut sq[u.start..u.start + u.len]);
                rest /= u.radix;
            }
        }
        sq[0] = if self.pawnful() {
            rest as u8
        } else {
            ((rest / 4) * 8 + rest % 4) as u8
        };
        let n = self.pieces();
        sq[fp..n].copy_from_slice(&self.slices[slice][..n - fp]);
    }

    /// True when the squares are all different and identical pieces are in
    /// ascending order: the index names a stored position (legality of
    /// checks aside).
    pub fn well_formed(&self, sq: &[u8]) -> bool {
        let mut occ = 0u64;
        for &s in &sq[..self.pieces()] {
            occ |= 1 << s;
        }
        if occ.count_ones() as usize != self.pieces() {
            return false;
        }
        self.groups
            .iter()
            .all(|&(a, b)| sq[a..b].windows(2).all(|w| w[0] < w[1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_slices() {
        let key = parse_material("KRvKRP").unwrap();
        let l = Layout::new(key);
        assert_eq!(l.name, "KRPvKR");
        assert_eq!(l.slices.len(), 24);
        assert_eq!(l.slice_size, 64 * 64 * 64 * 64);
        let l = Layout::new(parse_material("KQvK").unwrap());
        assert_eq!(l.positions_per_side(), 16 * 64 * 64);
        // Runs of identical pieces take C(64, k) numbers.
        let l = Layout::new(parse_material("KNNNNvK").unwrap());
        assert_eq!(l.positions_per_side(), 16 * 64 * 635_376);
        let l = Layout::new(parse_material("KPPvK").unwrap());
        // Unordered pairs of pawn squares, up to the mirror.
        assert!(l.slices.len() > 48 * 47 / 4 && l.slices.len() < 48 * 47 / 2);
        assert!(parse_material("KKvK").is_err());
        assert!(parse_material("KQRBNPvKQ").is_err());
    }

    #[test]
    fn index_round_trips() {
        for m in ["KQvKR", "KPvKP", "KRRvK", "KPPvKR", "KRRvKNN", "KBBBvKP"] {
            let l = Layout::new(parse_material(m).unwrap());
            for slice in (0..l.slices.len()).step_by(7) {
                for local in (0..l.slice_size).step_by(9973) {
                    let mut sq = [0u8; MAX_PIECES];
                    l.squares(slice, local, &mut sq);
                    if !l.well_formed(&sq) {
                        continue;
                    }
                    let mut c = sq;
                    l.canonicalize(&mut c[..l.pieces()]);
                    assert_eq!(c, sq, "{m} stored forms are canonical");
                    assert_eq!(l.index(&sq), Some((slice, local)));
                }
            }
        }
    }
}
