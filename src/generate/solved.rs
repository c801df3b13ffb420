//! Finished tables and looking positions up in them.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use shakmaty::{Color, Role};

use super::free::{FlagArray, Flags};
use super::layout::{key_index, Layout, MAX_PIECES};
use super::value::{self, DRAW};

/// One side to move's codes, a slice at a time: a slice not held (not
/// solved yet, or written out and freed while a big table is generated)
/// is empty. Flat positions are `slice * slice_size + local`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Codes {
    slices: Vec<Vec<i16>>,
}

impl Codes {
    /// `slices` slices, none held.
    pub fn empty(slices: usize) -> Codes {
        Codes {
            slices: vec![Vec::new(); slices],
        }
    }

    /// One slice holding every position (a pawnless material).
    pub fn whole(codes: Vec<i16>) -> Codes {
        Codes {
            slices: vec![codes],
        }
    }

    /// The code at `local` of `slice`, if that slice is held.
    #[inline]
    pub fn get(&self, slice: usize, local: usize) -> Option<i16> {
        self.slices.get(slice)?.get(local).copied()
    }

    pub fn slice(&self, slice: usize) -> &[i16] {
        self.slices.get(slice).map_or(&[], |v| v)
    }

    pub fn holds(&self, slice: usize) -> bool {
        self.slices.get(slice).is_some_and(|v| !v.is_empty())
    }

    pub fn set(&mut self, slice: usize, codes: Vec<i16>) {
        if let Some(v) = self.slices.get_mut(slice) {
            *v = codes;
        }
    }

    /// Frees a slice.
    pub fn clear(&mut self, slice: usize) {
        self.take(slice);
    }

    /// A slice's codes, no longer held.
    pub fn take(&mut self, slice: usize) -> Vec<i16> {
        self.slices
            .get_mut(slice)
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Every held code, slice after slice.
    pub fn iter(&self) -> impl Iterator<Item = &i16> {
        self.slices.iter().flatten()
    }

    pub fn slices_mut(&mut self) -> impl Iterator<Item = &mut Vec<i16>> {
        self.slices.iter_mut()
    }

    /// No slice held.
    pub fn is_empty(&self) -> bool {
        self.slices.iter().all(Vec::is_empty)
    }
}

impl<'a> IntoIterator for &'a Codes {
    type Item = &'a i16;
    type IntoIter = std::iter::Flatten<std::slice::Iter<'a, Vec<i16>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.slices.iter().flatten()
    }
}

/// The values of every position of one material, both sides to move.
#[derive(Debug)]
pub struct Solved {
    pub layout: Layout,
    /// DTZ50'' codes by side to move (White, Black).
    pub dtz: [Codes; 2],
    /// Mate-distance codes, when asked for.
    pub dtm: Option<[Codes; 2]>,
    /// `dtz` holds `pack`ed codes and `dtm` is None: see [`Solved::packed`].
    pub packed: bool,
    /// What the writer needs of each position's zeroing moves, indexed as
    /// `dtz`: kept by [`super::generate`] for pawnful materials, never
    /// saved (a table read back has its moves generated again).
    pub free: Option<[FlagArray; 2]>,
}

/// Mate distances below this leave room for the flag of [`pack`].
const CURSED: i16 = 1 << 14;

/// One code for a sub-table lookup: the mate code, moved by [`CURSED`]
/// away from zero where the 50-move rule turns the result (a cursed win or
/// a blessed loss). Parents read only a child's WDL and mate distance.
fn pack(dtz: i16, mate: i16) -> i16 {
    if !value::is_decided(mate) {
        return mate;
    }
    match value::wdl(dtz) {
        1 => mate + CURSED,
        -1 => mate - CURSED,
        _ => mate,
    }
}

/// Whether every mate distance leaves room for the flag.
pub fn packable(mates: &[i16]) -> bool {
    mates
        .iter()
        .all(|&m| m == DRAW || !value::is_decided(m) || value::distance(m) < CURSED as u16 - 1)
}

/// Packs the mate codes `mates` into the DTZ50'' codes `codes`, in place.
pub fn pack_into(codes: &mut [i16], mates: &[i16]) {
    for (c, &m) in codes.iter_mut().zip(mates) {
        *c = pack(*c, m);
    }
}

/// (a DTZ50'' code of the same WDL, mate code) from a [`pack`]ed code.
fn unpack(p: i16) -> (i16, i16) {
    if !value::is_decided(p) {
        (p, p)
    } else if p >= CURSED {
        (value::win(101), p - CURSED)
    } else if p < -CURSED {
        (value::loss(101), p + CURSED)
    } else if p > 0 {
        (value::win(1), p)
    } else if p < 0 {
        (value::loss(1), p)
    } else {
        (DRAW, DRAW)
    }
}

/// A piece for lookups: colour, role, square.
pub type Piece = (Color, Role, u8);

pub const fn side(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Solved {
    /// The table as a sub-table of later materials: with mate distances,
    /// one code a position instead of two (half the memory), and lookups
    /// give a DTZ50'' code of the right WDL rather than the exact one.
    /// Unchanged without mate distances or with distances too long to flag.
    pub fn packed(mut self) -> Solved {
        self.free = None;
        let Some(dtm) = self.dtm.take() else {
            return self;
        };
        if !dtm.iter().all(|d| d.slices.iter().all(|m| packable(m))) {
            self.dtm = Some(dtm);
            return self;
        }
        // In place: no second copy of the table at any moment.
        for (codes, mates) in self.dtz.iter_mut().zip(&dtm) {
            for (c, m) in codes.slices.iter_mut().zip(&mates.slices) {
                pack_into(c, m);
            }
        }
        self.packed = true;
        self
    }

    /// The stored index of a position of this material, with colours as the
    /// layout has them. None if the pieces do not fit the material.
    pub fn locate(&self, pieces: &[Piece]) -> Option<usize> {
        let (slice, local) = self.index_by_slot(self.slot_squares(pieces)?)?;
        Some(slice * self.layout.slice_size + local)
    }

    /// The (slice, local) index of squares given by slot of this layout.
    fn index_by_slot(&self, mut sq: [u8; MAX_PIECES]) -> Option<(usize, usize)> {
        let l = &self.layout;
        l.canonicalize(&mut sq[..l.pieces()]);
        l.index(&sq)
    }

    /// The squares of `pieces` by slot of this layout (not canonical).
    pub fn slot_squares(&self, pieces: &[Piece]) -> Option<[u8; MAX_PIECES]> {
        let l = &self.layout;
        let n = l.pieces();
        if pieces.len() != n {
            return None;
        }
        let mut sq = [0u8; MAX_PIECES];
        let mut used = [false; MAX_PIECES];
        for (slot, &(c, r)) in l.slots.iter().enumerate() {
            let j = (0..n).find(|&j| !used[j] && pieces[j].0 == c && pieces[j].1 == r)?;
            used[j] = true;
            sq[slot] = pieces[j].2;
        }
        Some(sq)
    }

    /// (DTZ50'' code, mate code) of a position given with colours as the
    /// layout has them.
    pub fn get(&self, pieces: &[Piece], turn: Color) -> Option<(i16, i16)> {
        self.get_by_slot(self.slot_squares(pieces)?, turn)
    }

    /// (DTZ50'' code, mate code) of a position of this material in either
    /// colour assignment; None for a position of another material.
    pub fn probe(&self, pieces: &[Piece], turn: Color) -> Option<(i16, i16)> {
        let key = packed_key_of(pieces);
        let own = packed_key(&self.layout.key);
        if key == own {
            return self.get(pieces, turn);
        }
        if flip_packed(key) != own {
            return None;
        }
        let mut flipped = [(Color::White, Role::King, 0u8); MAX_PIECES];
        for (f, &(c, r, s)) in flipped.iter_mut().zip(pieces) {
            *f = (!c, r, s ^ 56);
        }
        self.get(&flipped[..pieces.len()], !turn)
    }

    /// As [`Solved::get`], for squares already by slot of this layout (not
    /// canonical): the writer's lookups, which skip matching pieces to slots.
    pub fn get_by_slot(&self, sq: [u8; MAX_PIECES], turn: Color) -> Option<(i16, i16)> {
        self.get_at(self.index_by_slot(sq)?, turn)
    }

    /// The DTZ50'' code and the writer's flags (when kept) of squares by
    /// slot of this layout; `Err` names a slice of the material that is
    /// not held (a table whose slices are loaded a file at a time).
    pub fn writer_values(
        &self,
        sq: [u8; MAX_PIECES],
        turn: Color,
    ) -> Result<Option<(i16, Option<Flags>)>, usize> {
        let Some((slice, local)) = self.index_by_slot(sq) else {
            return Ok(None);
        };
        let Some((code, _)) = self.get_at((slice, local), turn) else {
            return Err(slice);
        };
        let flags = self
            .free
            .as_ref()
            .and_then(|f| f[side(turn)].get(slice, local));
        Ok(Some((code, flags)))
    }

    fn get_at(&self, (slice, local): (usize, usize), turn: Color) -> Option<(i16, i16)> {
        let s = side(turn);
        let dtz = self.dtz[s].get(slice, local)?;
        if self.packed {
            return Some(unpack(dtz));
        }
        let dtm = self.dtm.as_ref().map_or(value::UNKNOWN, |d| {
            d[s].get(slice, local).unwrap_or(value::UNKNOWN)
        });
        Some((dtz, dtm))
    }
}

/// Finished tables by material, looked up from any position.
#[derive(Debug, Default)]
pub struct Library {
    tables: HashMap<u64, Solved, BuildHasherDefault<KeyHasher>>,
}

/// A material key as one number, four bits a piece count: the forward pass
/// and the writer look a table up for every zeroing move, and hashing and
/// comparing twelve bytes cost them a fifth of the writer's lookups.
fn packed_key(key: &[u8; 12]) -> u64 {
    key.iter()
        .enumerate()
        .fold(0, |k, (i, &n)| k | (u64::from(n & 15) << (4 * i)))
}

/// The packed key of a list of pieces.
fn packed_key_of(pieces: &[Piece]) -> u64 {
    pieces
        .iter()
        .fold(0, |k, &(c, r, _)| k + (1 << (4 * key_index(c, r))))
}

/// The piece counts of a packed key.
fn unpacked_key(k: u64) -> [u8; 12] {
    std::array::from_fn(|i| ((k >> (4 * i)) & 15) as u8)
}

/// [`super::layout::flip_key`] of a packed key: the colours' halves swapped.
fn flip_packed(k: u64) -> u64 {
    (k >> 24) | ((k & 0xff_ffff) << 24)
}

/// Hashes a packed material key: one multiply, as a dozen piece counts
/// need no collision-resistant hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        let h = (self.0 ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 32);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The key of a list of pieces.
pub fn key_of(pieces: &[Piece]) -> [u8; 12] {
    let mut k = [0u8; 12];
    for &(c, r, _) in pieces {
        k[key_index(c, r)] += 1;
    }
    k
}

/// Only kings, or kings and one minor piece: no mate is possible.
fn trivially_drawn(key: &[u8; 12]) -> bool {
    let total: u8 = key.iter().sum();
    let minors = key[key_index(Color::White, Role::Bishop)]
        + key[key_index(Color::White, Role::Knight)]
        + key[key_index(Color::Black, Role::Bishop)]
        + key[key_index(Color::Black, Role::Knight)];
    total == 2 || (total == 3 && minors == 1)
}

/// Where [`Library::probe`] reads positions of one material.
#[derive(Debug, Clone, Copy)]
pub enum Holder<'a> {
    /// Only kings, or kings and a minor piece: drawn, no table needed.
    Drawn,
    /// This table, with the colours exchanged when the flag is set.
    Table(&'a Solved, bool),
}

impl Library {
    /// The holder of the material `key`: its table, else a trivial draw,
    /// else its table with colours exchanged.
    pub fn find(&self, key: &[u8; 12]) -> Option<Holder<'_>> {
        self.find_packed(packed_key(key))
    }

    fn find_packed(&self, k: u64) -> Option<Holder<'_>> {
        if let Some(t) = self.tables.get(&k) {
            return Some(Holder::Table(t, false));
        }
        if trivially_drawn(&unpacked_key(k)) {
            return Some(Holder::Drawn);
        }
        let t = self.tables.get(&flip_packed(k))?;
        Some(Holder::Table(t, true))
    }

    pub fn insert(&mut self, s: Solved) {
        self.tables.insert(packed_key(&s.layout.key), s);
    }

    pub fn get(&self, key: &[u8; 12]) -> Option<&Solved> {
        self.tables.get(&packed_key(key))
    }

    /// Whether positions of the material `key` are answered here, as
    /// [`Library::probe`] finds them: by its table, a trivial draw, or the
    /// table of the material with colours exchanged.
    pub fn contains(&self, key: &[u8; 12]) -> bool {
        self.find(key).is_some()
    }

    pub fn remove(&mut self, key: &[u8; 12]) -> Option<Solved> {
        self.tables.remove(&packed_key(key))
    }

    /// Keeps only the tables whose material `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&[u8; 12]) -> bool) {
        self.tables.retain(|_, t| keep(&t.layout.key));
    }

    pub fn len(&self) -> usize {
        self.tables.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// (DTZ50'' code, mate code) of any position whose material is here
    /// (either colour assignment); None when it is not.
    pub fn probe(&self, pieces: &[Piece], turn: Color) -> Option<(i16, i16)> {
        match self.find_packed(packed_key_of(pieces))? {
            Holder::Drawn => Some((DRAW, DRAW)),
            Holder::Table(t, false) => t.get(pieces, turn),
            Holder::Table(t, true) => t.probe(pieces, turn),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, layout::parse_material, plan, Options, Quiet};

    #[test]
    fn packed_codes_keep_wdl_and_mate() {
        let opts = Options {
            threads: 1,
            dtm: true,
        };
        let mut lib = Library::default();
        let mut checked = 0;
        for key in plan::order(&[parse_material("KPvK").unwrap()], |_| false) {
            let t = generate(key, &lib, opts, &Quiet).unwrap();
            let dtm = t.dtm.as_ref().unwrap();
            for (codes, mates) in t.dtz.iter().zip(dtm) {
                for (&d, &m) in codes.iter().zip(mates) {
                    let (pd, pm) = unpack(pack(d, m));
                    assert_eq!(pm, m);
                    assert_eq!(value::is_decided(pd), value::is_decided(d));
                    if value::is_decided(d) {
                        assert_eq!(value::wdl(pd), value::wdl(d), "{d} {m}");
                    }
                    checked += 1;
                }
            }
            let t = t.packed();
            assert!(t.packed);
            lib.insert(t);
        }
        assert!(checked > 100_000);
    }

    #[test]
    fn packed_codes_keep_the_fifty_move_rule() {
        use value::{loss, win, INVALID, MATED, UNKNOWN};
        for (dtz, mate) in [
            (win(101), win(61)),
            (win(130), win(999)),
            (loss(101), loss(60)),
            (loss(150), loss(1)),
            (win(100), win(100)),
            (MATED, MATED),
            (DRAW, DRAW),
            (UNKNOWN, UNKNOWN),
            (INVALID, INVALID),
        ] {
            let (d, m) = unpack(pack(dtz, mate));
            assert_eq!((value::wdl(d), m), (value::wdl(dtz), mate));
        }
    }
}
