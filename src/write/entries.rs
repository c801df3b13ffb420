//! Every position's values, asked of the source once and kept in a compact
//! array indexed like one encoding of the material: the plainest, or one
//! that walks the source's own storage in order. Trying other piece
//! orders then costs an index decode and encode per position, never a
//! source lookup.

use super::source::{pieces, Source, Values};
use crate::format::encode::{encode, leading_file};
use crate::format::header::{Encoding, Geometry, PieceCode};
use crate::format::squares::Cursor;
use crate::format::write::order::Order;
use crate::format::FormatError;
use crate::material::Material;

/// A position's values packed in 32 bits: WDL + 2 in bits 0-2, the flags
/// below, DTZ (i16) in bits 16-31.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry(u32);

const ILLEGAL: u32 = 1 << 3;
/// A capture reaches the position's WDL: the WDL table may hold less.
const WDL_FREE: u32 = 1 << 4;
/// Drawn, or won with a zeroing move: the DTZ table is not consulted.
const DTZ_FREE: u32 = 1 << 5;

impl Entry {
    pub const ILLEGAL: Entry = Entry(ILLEGAL | 2);

    pub fn new(v: &Values) -> Entry {
        let wdl = v.wdl.clamp(-2, 2);
        let mut bits = (wdl + 2) as u32;
        if v.capture == Some(wdl) {
            bits |= WDL_FREE;
        }
        let zeroing = v.capture.max(v.pawn_move);
        if wdl == 0 || (wdl > 0 && zeroing == Some(wdl)) {
            bits |= DTZ_FREE;
        }
        let dtz = v.dtz.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        Entry(bits | (u32::from(dtz as u16) << 16))
    }
    /// The packed bits (for saving collected values).
    pub fn bits(self) -> u32 {
        self.0
    }
    pub fn from_bits(bits: u32) -> Entry {
        Entry(bits)
    }
    pub fn illegal(self) -> bool {
        self.0 & ILLEGAL != 0
    }
    pub fn wdl(self) -> i8 {
        (self.0 & 7) as i8 - 2
    }
    pub fn wdl_free(self) -> bool {
        self.0 & WDL_FREE != 0
    }
    pub fn dtz_free(self) -> bool {
        self.0 & DTZ_FREE != 0
    }
    pub fn dtz(self) -> i32 {
        i32::from((self.0 >> 16) as u16 as i16)
    }
}

/// Entry bits kept per position: the WDL and the flags.
const LOW: u32 = 0x3f;
/// A column's 10-bit DTZ that says "look aside".
const ASIDE: i16 = -512;

/// One leading-pawn file and side to move's entries, 2 bytes a position
/// (the writer's largest array: KRPvKR holds 350 MB a file this way, not
/// 700): the entry's low bits, then its DTZ in 10 bits; the rare DTZ
/// beyond +-511 plies (cursed results of 6 pieces) is kept aside.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Column {
    cells: Vec<u16>,
    /// (index, DTZ) of the entries whose DTZ does not fit, by index.
    aside: Vec<(u64, i16)>,
}

impl Column {
    pub fn with_capacity(n: usize) -> Column {
        Column {
            cells: Vec::with_capacity(n),
            aside: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    pub fn push(&mut self, e: Entry) {
        let dtz = e.dtz() as i16;
        let fits = dtz > ASIDE && dtz < -ASIDE;
        let tenbits = if fits { dtz } else { ASIDE };
        if !fits {
            self.aside.push((self.cells.len() as u64, dtz));
        }
        self.cells
            .push((e.0 & LOW) as u16 | ((tenbits as u16) << 6));
    }

    pub fn get(&self, i: usize) -> Option<Entry> {
        let c = *self.cells.get(i)?;
        let mut dtz = (c as i16) >> 6;
        if dtz == ASIDE {
            let at = self.aside.binary_search_by_key(&(i as u64), |a| a.0).ok()?;
            dtz = self.aside[at].1;
        }
        Some(Entry(u32::from(c) & LOW | (u32::from(dtz as u16) << 16)))
    }

    pub fn iter(&self) -> impl Iterator<Item = Entry> + '_ {
        (0..self.cells.len()).filter_map(|i| self.get(i))
    }
}

impl FromIterator<Entry> for Column {
    fn from_iter<I: IntoIterator<Item = Entry>>(it: I) -> Column {
        let mut c = Column::default();
        for e in it {
            c.push(e);
        }
        c
    }
}

/// The values of a material, per leading-pawn file and side to move.
pub struct Entries {
    pub material: Material,
    pub geo: Geometry,
    /// Per file: the reference order and its encoding.
    pub reference: Vec<(Order, Encoding)>,
    /// Per file, per side to move (white first; one side when symmetric).
    pub values: Vec<Vec<Column>>,
    /// Slot in the source's piece list of each reference slot.
    to_source: Vec<usize>,
}

/// For each slot of `from`, a slot of `to` with the same piece, each used once.
pub fn slot_map(from: &[PieceCode], to: &[PieceCode]) -> Vec<usize> {
    let mut used = vec![false; to.len()];
    from.iter()
        .map(|p| {
            let j = (0..to.len())
                .find(|&j| !used[j] && to[j] == *p)
                .unwrap_or(0);
            used[j] = true;
            j
        })
        .collect()
}

fn kings_touch(pieces: &[PieceCode], sq: &[usize]) -> bool {
    let mut kings = pieces
        .iter()
        .zip(sq)
        .filter(|(p, _)| **p & 7 == 6)
        .map(|(_, s)| *s);
    match (kings.next(), kings.next()) {
        (Some(a), Some(b)) => (a & 7).abs_diff(b & 7) <= 1 && (a >> 3).abs_diff(b >> 3) <= 1,
        _ => false,
    }
}

/// Indices asked of the source per job, and jobs between progress reports.
const RUN: u64 = 1 << 16;
const BATCH: usize = 64;

/// A run's entries, or why its indices could not be decoded.
type Looked = Result<Vec<Entry>, FormatError>;

/// Consecutive indices of one file and side.
struct Run {
    file: usize,
    side: usize,
    range: std::ops::Range<u64>,
}

/// What every run's lookups share.
struct Plan<'a> {
    geo: Geometry,
    reference: &'a [(Order, Encoding)],
    to_source: &'a [usize],
}

impl Plan<'_> {
    /// The entries of one run, asked of `source`.
    fn lookups<S: Source + ?Sized>(&self, source: &S, r: &Run) -> Looked {
        let enc = &self.reference[r.file].1;
        let n = enc.pieces.len();
        let mut sq = vec![0usize; n];
        let mut named = vec![0u8; n];
        let mut out = Vec::with_capacity((r.range.end - r.range.start) as usize);
        let mut cursor = Cursor::default();
        for i in r.range.clone() {
            cursor.squares(i, enc, self.geo, &mut sq)?;
            out.push(if kings_touch(&enc.pieces, &sq) {
                Entry::ILLEGAL
            } else {
                for (slot, &s) in sq.iter().enumerate() {
                    named[self.to_source[slot]] = s as u8;
                }
                source
                    .values(&named, r.side == 0)
                    .map_or(Entry::ILLEGAL, |v| Entry::new(&v))
            });
        }
        Ok(out)
    }
}

impl Entries {
    /// The number of entries per file and side, in the reference order.
    pub fn shape(mat: &Material) -> Result<Vec<Vec<u64>>, FormatError> {
        let geo = Geometry::of(&mat.shape);
        let plain = super::plain_order(mat);
        let files = if geo.pawnful { 4 } else { 1 };
        let sides = if mat.symmetric { 1 } else { 2 };
        (0..files)
            .map(|f| Ok(vec![plain.encoding(f, geo)?.positions; sides]))
            .collect()
    }

    /// Entries saved before (per file and side, as [`Self::shape`] says).
    pub fn from_values(
        mat: &Material,
        values: Vec<Vec<Vec<Entry>>>,
    ) -> Result<Entries, FormatError> {
        let geo = Geometry::of(&mat.shape);
        let plain = super::plain_order(mat);
        let shape = Self::shape(mat)?;
        let fits = shape.len() == values.len()
            && shape.iter().zip(&values).all(|(s, v)| {
                s.len() == v.len() && s.iter().zip(v).all(|(n, e)| *n == e.len() as u64)
            });
        if !fits {
            return Err(FormatError::Corrupt(
                "saved entries do not fit the material",
            ));
        }
        let reference = (0..values.len())
            .map(|f| Ok((plain.clone(), plain.encoding(f, geo)?)))
            .collect::<Result<_, FormatError>>()?;
        let values = values
            .into_iter()
            .map(|sides| sides.into_iter().map(Column::from_iter).collect())
            .collect();
        Ok(Entries {
            material: mat.clone(),
            geo,
            reference,
            values,
            to_source: slot_map(&plain.pieces, &pieces(mat)),
        })
    }

    /// Asks `source` about every position; `progress` hears the fraction done.
    pub fn collect<S: Source + ?Sized>(
        mat: &Material,
        source: &S,
        progress: &mut dyn FnMut(f64),
    ) -> Result<Entries, FormatError> {
        let order = super::reference_order(mat, source.significance().as_deref());
        Self::gather(mat, order, None, progress, &mut |jobs, plan| {
            jobs.iter().map(|j| plan.lookups(source, j)).collect()
        })
    }

    /// [`Self::collect`] with the lookups shared among `threads` threads.
    pub fn collect_parallel<S: Source + Sync + ?Sized>(
        mat: &Material,
        source: &S,
        threads: usize,
        progress: &mut dyn FnMut(f64),
    ) -> Result<Entries, FormatError> {
        Self::collect_files_parallel(mat, source, None, threads, progress)
    }

    /// [`Self::collect_parallel`] of one leading-pawn file and side to
    /// move only (the other files and sides hold empty columns): a pawnful
    /// material written a file and a side at a time needs an eighth of the
    /// entries at once, and the source only that side's values of the file.
    pub fn collect_side_parallel<S: Source + Sync + ?Sized>(
        mat: &Material,
        source: &S,
        file: usize,
        side: usize,
        threads: usize,
        progress: &mut dyn FnMut(f64),
    ) -> Result<Entries, FormatError> {
        Self::collect_files_parallel(mat, source, Some((file, side)), threads, progress)
    }

    fn collect_files_parallel<S: Source + Sync + ?Sized>(
        mat: &Material,
        source: &S,
        only: Option<(usize, usize)>,
        threads: usize,
        progress: &mut dyn FnMut(f64),
    ) -> Result<Entries, FormatError> {
        let order = super::reference_order(mat, source.significance().as_deref());
        Self::gather(mat, order, only, progress, &mut |jobs, plan| {
            crate::par::map(jobs, threads, |j| plan.lookups(source, j))
        })
    }

    /// Cuts every (file, side) of `order`'s index space (or only the one
    /// `only` names) into runs of indices and has `run`
    /// look them up, a batch at a time, reporting progress between batches.
    fn gather(
        mat: &Material,
        order: Order,
        only: Option<(usize, usize)>,
        progress: &mut dyn FnMut(f64),
        run: &mut dyn FnMut(&[Run], &Plan) -> Vec<Looked>,
    ) -> Result<Entries, FormatError> {
        let geo = Geometry::of(&mat.shape);
        let files = if geo.pawnful { 4 } else { 1 };
        let sides = if mat.symmetric { 1 } else { 2 };
        let sides_of = |file: usize| {
            if only.is_none_or(|(f, _)| f == file) {
                sides
            } else {
                0
            }
        };
        let reference: Vec<(Order, Encoding)> = (0..files)
            .map(|f| Ok((order.clone(), order.encoding(f, geo)?)))
            .collect::<Result<_, FormatError>>()?;
        let to_source = slot_map(&order.pieces, &pieces(mat));
        let wanted = |side: usize| only.is_none_or(|(_, s)| s == side);
        let mut runs = Vec::new();
        for (file, (_, enc)) in reference.iter().enumerate() {
            for side in (0..sides_of(file)).filter(|&s| wanted(s)) {
                let mut start = 0;
                while start < enc.positions {
                    let end = (start + RUN).min(enc.positions);
                    runs.push(Run {
                        file,
                        side,
                        range: start..end,
                    });
                    start = end;
                }
            }
        }
        let total = runs.len().max(1);
        let plan = Plan {
            geo,
            reference: &reference,
            to_source: &to_source,
        };
        let mut values: Vec<Vec<Column>> = reference
            .iter()
            .enumerate()
            .map(|(file, (_, enc))| {
                (0..sides_of(file))
                    .map(|side| {
                        Column::with_capacity(if wanted(side) {
                            enc.positions as usize
                        } else {
                            0
                        })
                    })
                    .collect()
            })
            .collect();
        let mut done = 0;
        for batch in runs.chunks(BATCH) {
            for (r, out) in batch.iter().zip(run(batch, &plan)) {
                let column = &mut values[r.file][r.side];
                for e in out? {
                    column.push(e);
                }
            }
            done += batch.len();
            progress(done as f64 / total as f64);
        }
        Ok(Entries {
            material: mat.clone(),
            geo,
            reference,
            values,
            to_source,
        })
    }

    /// A reader of the entries in another piece order: maps that order's
    /// squares onto the reference encoding.
    pub fn view<'a>(&'a self, enc: &'a Encoding, file: usize, side: usize) -> View<'a> {
        let reference = &self.reference[file].1;
        let geo = self.geo;
        let n = reference.pieces.len();
        View {
            entries: self,
            enc,
            reference,
            values: &self.values[file][side],
            to_ref: slot_map(&enc.pieces, &reference.pieces),
            sq: vec![0; enc.pieces.len()],
            cursor: Cursor::default(),
            ref_sq: vec![0; n],
            stepwise: geo.pawnful
                && geo.lead_pawns == 1
                && geo.other_pawns == 0
                && reference.norm[1..n].iter().all(|&m| m <= 1),
            last: None,
        }
    }

    /// Slot in the source's piece list of each reference slot.
    pub fn source_slots(&self) -> &[usize] {
        &self.to_source
    }
}

/// Entries of one subtable in a chosen piece order.
pub struct View<'a> {
    entries: &'a Entries,
    enc: &'a Encoding,
    reference: &'a Encoding,
    values: &'a Column,
    to_ref: Vec<usize>,
    sq: Vec<usize>,
    cursor: Cursor,
    /// The reference squares of `last`.
    ref_sq: Vec<usize>,
    /// The reference encoding is one pawn, then pieces of one each: moving
    /// one piece changes its index by a few terms (see [`View::step`]).
    stepwise: bool,
    /// The reference index of the last placement looked up.
    last: Option<u64>,
}

impl View<'_> {
    /// The entry at index `i` of the chosen encoding.
    pub fn get(&mut self, i: u64) -> Entry {
        let geo = self.entries.geo;
        if self.cursor.squares(i, self.enc, geo, &mut self.sq).is_err()
            || kings_touch(&self.enc.pieces, &self.sq)
        {
            return Entry::ILLEGAL;
        }
        let n = self.sq.len();
        let mut now = [0usize; 8];
        for (slot, &s) in self.sq.iter().enumerate() {
            now[self.to_ref[slot]] = s;
        }
        let idx = match self.step(&now[..n]) {
            Some(idx) => idx,
            None => {
                self.ref_sq.copy_from_slice(&now[..n]);
                if geo.pawnful {
                    leading_file(&mut self.ref_sq, usize::from(geo.lead_pawns));
                }
                // Encoding may reorder squares; only a placement kept as
                // it was can be stepped from.
                let mut sq = [0usize; 8];
                sq[..n].copy_from_slice(&self.ref_sq);
                let idx = encode(&mut sq[..n], self.reference, geo);
                self.last = (self.stepwise && sq[..n] == self.ref_sq[..]).then_some(idx);
                idx
            }
        };
        self.values.get(idx as usize).unwrap_or(Entry::ILLEGAL)
    }

    /// The reference index of `now` from the last one, when they differ in
    /// one piece other than the pawn. With one pawn first and pieces of one
    /// each, the index is the pawn's term plus, per piece `q`, its factor
    /// times its square less the squares of the pieces before it that lie
    /// below it. A piece moving up from `a` to `b` adds `b - a` less the
    /// earlier pieces between them to its own number, and one to the
    /// number of each later piece between them (the reverse going down).
    fn step(&mut self, now: &[usize]) -> Option<u64> {
        let last = self.last?;
        let mut moved = None;
        for (r, (&a, &b)) in self.ref_sq.iter().zip(now).enumerate() {
            if a != b {
                if moved.is_some() {
                    return None;
                }
                moved = Some(r);
            }
        }
        let r = moved.filter(|&r| r > 0)?;
        let (a, b) = (self.ref_sq[r], now[r]);
        let (lo, hi) = (a.min(b), a.max(b));
        let f = &self.reference.factor;
        let mut delta = (hi - lo) as u64 * f[r];
        let mut back = 0u64;
        for (q, &s) in now.iter().enumerate() {
            if q != r && lo < s && s < hi {
                if q < r {
                    back += f[r];
                } else {
                    delta += f[q];
                }
            }
        }
        let idx = if a < b {
            (last + delta).checked_sub(back)?
        } else {
            (last + back).checked_sub(delta)?
        };
        self.ref_sq[r] = b;
        self.last = Some(idx);
        Some(idx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every WDL, flag and DTZ an entry can hold comes back out of a
    /// column, those past 10 bits through the aside list.
    #[test]
    fn columns_keep_every_entry() {
        let mut all = vec![Entry::ILLEGAL];
        for wdl in -2i8..=2 {
            for dtz in [
                0,
                1,
                -1,
                100,
                -100,
                511,
                -511,
                512,
                -512,
                1033,
                i32::from(i16::MIN),
            ] {
                for capture in [None, Some(wdl), Some(-2)] {
                    for pawn_move in [None, Some(wdl)] {
                        all.push(Entry::new(&Values {
                            wdl,
                            dtz,
                            capture,
                            pawn_move,
                        }));
                    }
                }
            }
        }
        let column: Column = all.iter().copied().collect();
        assert_eq!(column.len(), all.len());
        assert!(column.iter().eq(all.iter().copied()));
        assert!(column.aside.len() < all.len() / 2);
        assert_eq!(column.get(all.len()), None);
    }
}
