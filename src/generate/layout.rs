//! Where each position of a material lives in the generator's arrays.
//!
//! The layout favours simple arithmetic over density: a piece is a 6-bit
//! square, a run of identical pieces the combinatorial number of its set of
//! squares (C(64, k) values: 4 knights take 635,376 instead of 64^4), and
//! an index is the mixed-radix number of those.
//! - Pawnless: all eight symmetries of the board apply. The two kings share
//!   one digit, the 462 placements of the Syzygy format (white king in the
//!   a1-d1-d4 triangle, the black king on or below the diagonal when the
//!   white king is on it, kings apart: `format::consts::KK_IDX`); then the
//!   other pieces, 64 squares each. A 5-piece table is 462 x 64^3 positions
//!   per side. With both kings on the diagonal, the stored form is the
//!   smaller of the position and its mirror image in that diagonal; a
//!   position that is its own mirror image has fewer images on the board,
//!   which the retrograde passes take into account ([`Layout::diag_symmetric`]).
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

use crate::format::consts::{flip_diag, off_diag, BINOMIAL, KK_COUNT, KK_IDX, TRIANGLE};
use crate::format::squares::{largest_below, KK_SQUARES};
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
    let pieces = |t: &str| {
        t.chars()
            .all(|ch| Role::from_char(ch.to_ascii_lowercase()).is_some())
    };
    if !pieces(w) || !pieces(b) {
        return Err(bad("pieces are K Q R B N P"));
    }
    // Counted in bytes below: a longer name cannot be a table of ours.
    if w.chars().count() + b.chars().count() > MAX_PIECES {
        return Err(bad("at most 7 pieces"));
    }
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
    let (_, swap) = name_of(&key);
    Ok(if swap { flip_key(&key) } else { key })
}

/// Squares by slot from a word holding one a byte, lowest slot lowest: a
/// position assembled in a register, then stored whole, so that reading
/// it back as an array does not wait on byte stores.
pub fn squares_of_word(word: u64) -> [u8; MAX_PIECES] {
    let b = word.to_le_bytes();
    std::array::from_fn(|i| b[i])
}

/// Up to eight squares as one number that orders as the squares do,
/// compared one by one: lookups compared short slices through a `memcmp`
/// call (3% of writing KRPvKR). Only slices of equal length compare.
fn lex(s: &[u8]) -> u64 {
    // Shifted in registers: bytes copied to a buffer and read back as one
    // word stalled store forwarding (most of `canonicalize`'s time).
    s.iter()
        .take(8)
        .enumerate()
        .fold(0, |k, (i, &b)| k | u64::from(b) << (56 - 8 * i))
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
        let (king_squares, mut slot) = if pawns == 0 {
            (KK_COUNT as usize, 2)
        } else {
            (64, 1)
        };
        let mut units = Vec::new();
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

    /// A pawn of the slice stands one step from promoting: only such
    /// slices reach the materials of promotions.
    pub fn slice_promotes(&self, slice: usize) -> bool {
        self.promotes(slice, Color::White) || self.promotes(slice, Color::Black)
    }

    /// A pawn of `turn` stands one step from promoting in `slice`.
    pub fn promotes(&self, slice: usize, turn: Color) -> bool {
        let p = self.pieces() - self.first_pawn;
        let last = if turn == Color::White { 6 } else { 1 };
        self.slots[self.first_pawn..]
            .iter()
            .zip(&self.slices[slice][..p])
            .any(|(&(c, _), &sq)| c == turn && sq >> 3 == last)
    }

    /// The slice of a pawn configuration (pawns by slot), canonicalized;
    /// None when it is not one.
    pub fn pawn_slice(&self, pawns: &[u8]) -> Option<usize> {
        let mut canon = [0u8; MAX_PIECES];
        let canon = &mut canon[..pawns.len()];
        canon.copy_from_slice(pawns);
        if !self.canonical_pawns(canon) {
            return None;
        }
        let digits = canon
            .iter()
            .rev()
            .fold(0usize, |d, &s| d * 48 + usize::from(s - 8));
        let slice = *self.slice_of.get(digits)?;
        (slice != u32::MAX).then_some(slice as usize)
    }

    /// The slices whose pawn moves can reach `slice` with `turn` to move
    /// (they read that half of it), in index order, without repeats. Only
    /// the other side's pawns lead there, so a material with White's
    /// pawns alone (KRPvKR) never reads a slice with White to move.
    /// Conservative: a double push is counted even if another pawn blocks
    /// it.
    pub fn readers(&self, slice: usize, turn: Color) -> Vec<usize> {
        let p = self.pieces() - self.first_pawn;
        let pawns = &self.slices[slice][..p];
        let mut out = Vec::new();
        for (j, &(c, _)) in self.slots[self.first_pawn..].iter().enumerate() {
            if c == turn {
                continue;
            }
            let q = i32::from(pawns[j]);
            // Back one square, and two from the fourth rank (own side's).
            let (step, double_rank) = match c {
                Color::White => (-8, 3),
                Color::Black => (8, 4),
            };
            let mut froms = vec![q + step];
            if q >> 3 == double_rank {
                froms.push(q + 2 * step);
            }
            for from in froms.into_iter().filter(|f| (8..56).contains(f)) {
                let mut before = [0u8; MAX_PIECES];
                before[..p].copy_from_slice(pawns);
                before[j] = from as u8;
                out.extend(self.pawn_slice(&before[..p]));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// An order to solve the slices in one at a time that holds few of
    /// them for their readers: the slices with a pawn about to promote
    /// first (the promotions valued ahead go with them), then each of the
    /// others right after the slices it reads, depth first from the least
    /// advanced. KRPvKR then finishes a pawn's file before starting the
    /// next, holding at most 5 halves for pawn pushes, not 8.
    pub fn lean_order(&self) -> Vec<usize> {
        let count = self.slices.len();
        // The slices each slice reads (its pawn moves' children).
        let mut reads = vec![Vec::new(); count];
        for s in 0..count {
            for turn in [Color::White, Color::Black] {
                for r in self.readers(s, turn) {
                    reads[r].push(s);
                }
            }
        }
        let mut placed = vec![false; count];
        let mut entered = vec![false; count];
        let mut order = Vec::with_capacity(count);
        let promoting = (0..count).filter(|&s| self.slice_promotes(s));
        for root in promoting.chain((0..count).rev()) {
            // Depth first, iteratively: a slice is placed once every slice
            // it reads is.
            let mut stack = vec![(root, 0usize)];
            while let Some((s, next)) = stack.pop() {
                if placed[s] {
                    continue;
                }
                entered[s] = true;
                match reads[s].get(next) {
                    Some(&c) => {
                        stack.push((s, next + 1));
                        // (Pushes only advance pawns: `entered` would
                        // end a cycle if there were one.)
                        if !entered[c] {
                            stack.push((c, 0));
                        }
                    }
                    None => {
                        placed[s] = true;
                        order.push(s);
                    }
                }
            }
        }
        order
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

    /// Positions on the board that the stored position at `local` of
    /// `slice` stands for (its images under the symmetries the layout keeps).
    pub fn stands_for(&self, slice: usize, local: usize) -> u64 {
        if self.pawnful() {
            return if self.slice_symmetric(slice) { 1 } else { 2 };
        }
        let (wk, bk) = KK_SQUARES[(local / self.weight[0]).min(KK_SQUARES.len() - 1)];
        if off_diag(usize::from(wk)) != 0 || off_diag(usize::from(bk)) != 0 {
            return 8;
        }
        let mut sq = [0u8; MAX_PIECES];
        self.squares(slice, local, &mut sq);
        if self.diag_symmetric(&sq) {
            4
        } else {
            8
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
            if lex(&mirrored[..n - fp]) < lex(&pawns[..n - fp]) {
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
            let above = match off_diag(usize::from(sq[0])) {
                0 => off_diag(usize::from(sq[1])),
                side => side,
            };
            if above > 0 {
                for s in sq[..n].iter_mut() {
                    *s = flip_diag(usize::from(*s)) as u8;
                }
            } else if above == 0 {
                self.sort_all(sq);
                let m = self.diag_mirror(sq);
                if lex(&m[2..n]) < lex(&sq[2..n]) {
                    sq[..n].copy_from_slice(&m[..n]);
                }
                return;
            }
        }
        self.sort_all(sq);
    }

    fn sort_all(&self, sq: &mut [u8]) {
        for &(a, b) in &self.groups {
            sq[a..b].sort_unstable();
        }
    }

    /// Both kings of a pawnless position on the a1-h8 diagonal: its mirror
    /// image in the diagonal has the same kings.
    pub fn kings_on_diag(&self, sq: &[u8]) -> bool {
        !self.pawnful() && sq[0] >> 3 == sq[0] & 7 && sq[1] >> 3 == sq[1] & 7
    }

    /// The mirror image in the a1-h8 diagonal, identical pieces sorted.
    fn diag_mirror(&self, sq: &[u8]) -> [u8; MAX_PIECES] {
        let n = self.pieces();
        let mut m = [0u8; MAX_PIECES];
        for (m, &s) in m.iter_mut().zip(&sq[..n]) {
            *m = flip_diag(usize::from(s)) as u8;
        }
        self.sort_all(&mut m[..n]);
        m
    }

    /// A stored (canonical) pawnless position that is its own mirror image
    /// in the a1-h8 diagonal: it stands for 4 positions on the board, not 8,
    /// and a move to a position that is not symmetric has a twin (its mirror
    /// image) leading to the same stored position.
    pub fn diag_symmetric(&self, sq: &[u8]) -> bool {
        let n = self.pieces();
        self.kings_on_diag(sq) && lex(&self.diag_mirror(sq)[..n]) == lex(&sq[..n])
    }

    /// Of a position and its mirror image in the diagonal (identical pieces
    /// sorted, different from each other), whether this one is the smaller:
    /// true for exactly one of the two.
    pub fn below_its_mirror(&self, sq: &[u8]) -> bool {
        let n = self.pieces();
        let mut s = [0u8; MAX_PIECES];
        s[..n].copy_from_slice(&sq[..n]);
        self.sort_all(&mut s[..n]);
        lex(&s[..n]) < lex(&self.diag_mirror(&s[..n])[..n])
    }

    /// [`Layout::canonicalize`] after one non-pawn piece (`slot`) of a
    /// stored position moved within its slice: only a king can change the
    /// symmetry (or any piece, while both kings are on the diagonal), only
    /// the mover's group its order.
    pub fn canonicalize_after(&self, sq: &mut [u8], slot: usize) {
        if !self.pawnful() && (slot < 2 || self.kings_on_diag(sq)) {
            self.canonicalize(sq);
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

    /// Index within a slice: the white king (both kings when pawnless),
    /// then each piece's square and each run of identical pieces' number.
    /// The position must be in stored form, kings apart.
    pub fn local_index(&self, sq: &[u8]) -> usize {
        let mut idx = if self.pawnful() {
            usize::from(sq[0])
        } else {
            let kk =
                KK_IDX[usize::from(TRIANGLE[usize::from(sq[0] & 63)])][usize::from(sq[1] & 63)];
            debug_assert!(kk >= 0, "kings of a stored position");
            kk.max(0) as usize
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
        if self.pawnful() {
            sq[0] = rest as u8;
        } else {
            (sq[0], sq[1]) = KK_SQUARES[rest.min(KK_SQUARES.len() - 1)];
        }
        let n = self.pieces();
        sq[fp..n].copy_from_slice(&self.slices[slice][..n - fp]);
    }

    /// True when the squares are all different, identical pieces are in
    /// ascending order and a position with both kings on the diagonal is not
    /// above its mirror image: the index names a stored position (legality
    /// of checks aside).
    pub fn well_formed(&self, sq: &[u8]) -> bool {
        // Two pieces on one square, found as they are added: a population
        // count is a dozen instructions on baseline x86-64.
        let mut occ = 0u64;
        for &s in &sq[..self.pieces()] {
            let bit = 1u64 << (s & 63);
            if s >= 64 || occ & bit != 0 {
                return false;
            }
            occ |= bit;
        }
        self.groups
            .iter()
            .all(|&(a, b)| sq[a..b].windows(2).all(|w| w[0] < w[1]))
            && (!self.kings_on_diag(sq)
                || lex(&sq[..self.pieces()]) <= lex(&self.diag_mirror(sq)[..self.pieces()]))
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
        assert_eq!(l.positions_per_side(), 462 * 64);
        // Runs of identical pieces take C(64, k) numbers.
        let l = Layout::new(parse_material("KNNNNvK").unwrap());
        assert_eq!(l.positions_per_side(), 462 * 635_376);
        let l = Layout::new(parse_material("KPPvK").unwrap());
        // Unordered pairs of pawn squares, up to the mirror.
        assert!(l.slices.len() > 48 * 47 / 4 && l.slices.len() < 48 * 47 / 2);
        assert!(parse_material("KKvK").is_err());
        assert!(parse_material("KQRBNPvKQ").is_err());
    }

    /// The lean order solves every slice once, each after the slices it
    /// reads, the promoting ones first; KRPvKR holds at most 5 halves for
    /// pawn pushes at once (8 in index order).
    #[test]
    fn lean_order_is_a_solving_order() {
        for m in ["KRPvKR", "KPvKP", "KPPvK", "KPPvKP", "KQvKR"] {
            let l = Layout::new(parse_material(m).unwrap());
            let order = l.lean_order();
            let mut at = vec![usize::MAX; l.slices.len()];
            for (i, &s) in order.iter().enumerate() {
                assert_eq!(at[s], usize::MAX, "{m}: slice {s} twice");
                at[s] = i;
            }
            assert!(at.iter().all(|&i| i != usize::MAX), "{m}: a slice left out");
            let promoting = order.iter().take_while(|&&s| l.slice_promotes(s)).count();
            assert!(
                order[promoting..].iter().all(|&s| !l.slice_promotes(s)),
                "{m}"
            );
            // (first solved after, last reader) of each half read.
            let mut spans = Vec::new();
            for s in 0..l.slices.len() {
                for turn in [Color::White, Color::Black] {
                    let readers = l.readers(s, turn);
                    for &r in &readers {
                        assert!(at[s] < at[r], "{m}: slice {r} before {s}, which it reads");
                    }
                    if let Some(last) = readers.iter().map(|&r| at[r]).max() {
                        spans.push((at[s] + 1, last));
                    }
                }
            }
            let held_most = (0..order.len())
                .map(|i| spans.iter().filter(|&&(a, b)| a <= i && i <= b).count())
                .max()
                .unwrap_or(0);
            if m == "KRPvKR" {
                assert_eq!(held_most, 5, "{m}");
            }
        }
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

    /// The eight symmetries of the board on one square.
    fn symmetry(g: usize, s: u8) -> u8 {
        let s = if g & 4 != 0 {
            flip_diag(usize::from(s)) as u8
        } else {
            s
        };
        s ^ [0, 7, 56, 63][g & 3]
    }

    #[test]
    fn every_image_of_a_pawnless_position_has_one_stored_form() {
        for m in ["KQvKR", "KBBvK", "KRRvKNN", "KNNNvKN"] {
            let l = Layout::new(parse_material(m).unwrap());
            let n = l.pieces();
            let (mut stored, mut symmetric) = (0, 0);
            let step = if m == "KBBvK" { 1 } else { 997 };
            for local in (0..l.slice_size).step_by(step) {
                let mut sq = [0u8; MAX_PIECES];
                l.squares(0, local, &mut sq);
                if !l.well_formed(&sq) {
                    continue;
                }
                stored += 1;
                let mut images = std::collections::BTreeSet::new();
                for g in 0..8 {
                    let mut img = sq;
                    for s in img[..n].iter_mut() {
                        *s = symmetry(g, *s);
                    }
                    let mut sorted = img;
                    l.sort_all(&mut sorted[..n]);
                    images.insert(sorted);
                    l.canonicalize(&mut img[..n]);
                    assert_eq!(img, sq, "{m}: image {g} of a stored form");
                    assert_eq!(l.index(&img), Some((0, local)));
                }
                assert_eq!(images.len() as u64, l.stands_for(0, local), "{m}");
                symmetric += usize::from(l.diag_symmetric(&sq));
            }
            assert!(stored > 100, "{m}");
            if m == "KBBvK" {
                assert!(symmetric > 0, "some KBBvK positions are their own mirror");
            }
        }
    }
}
