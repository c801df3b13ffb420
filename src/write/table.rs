//! Both files of a material: values collected once, then per subtable the
//! piece order (and for DTZ the side to move) that compresses best.

use std::fmt;

use super::choose::{cells_into, ranked, CellKind};
use super::dtz::{self, Plies, Symbols};
use super::entries::{Column, Entries, Entry};
use super::source::Source;
use crate::format::header::{DTZ_LOSS_PLIES, DTZ_MAPPED, DTZ_STM, DTZ_WIDE, DTZ_WIN_PLIES};
use crate::format::write::dontcare::{at_most, resolve, resolve_commoner, ANY, AT_MOST};
use crate::format::write::file::{self, DtzMaps, FilePart, Layout, Part};
use crate::format::write::order::{candidates, Order};
use crate::format::write::subtable::header;
use crate::format::write::subtable::{compress, Compressed};
use crate::format::{FormatError, Kind};
use crate::material::Material;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// DTZ of wins and losses in plies, never halved (as the tables lichess
    /// serves): exact whenever |DTZ| <= 100. Official tables halve them
    /// unless a DTZ of exactly 100 occurs.
    pub exact_dtz: bool,
    /// DTZ value maps with 16-bit entries even where 8 bits suffice.
    pub wide_dtz: bool,
    /// Piece orders tried per subtable (1: the plainest only), estimated
    /// on samples; of a material with more, this many spread over all its
    /// leading groups (5-piece materials have up to 360: trying all of
    /// them made KQBvKQ and KQNvKQ larger, as the estimates are rough).
    pub orders: usize,
    /// Of those, the best estimated ones compressed in full; the smallest
    /// wins. (Two made the 3-4 piece files 0.9% smaller in a third more time.)
    pub finalists: usize,
    /// Subtables compressed at once (the bytes written do not depend on it).
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            exact_dtz: false,
            wide_dtz: false,
            orders: 64,
            finalists: 1,
            threads: 1,
        }
    }
}

/// The two files' bytes.
pub struct Written {
    pub wdl: Vec<u8>,
    pub dtz: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteError {
    /// Not a table name of two to seven pieces.
    Material(String),
    Format(FormatError),
    /// The values to write could not be had (a table read back from disk).
    Source(String),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Material(n) => write!(f, "not a table name: {n}"),
            WriteError::Format(e) => write!(f, "{e}"),
            WriteError::Source(why) => write!(f, "{why}"),
        }
    }
}

impl From<FormatError> for WriteError {
    fn from(e: FormatError) -> Self {
        WriteError::Format(e)
    }
}

fn wdl_cell(e: Entry) -> u16 {
    if e.illegal() {
        ANY
    } else if e.wdl_free() {
        at_most((e.wdl() + 2) as u16)
    } else {
        (e.wdl() + 2) as u16
    }
}

/// Writes the WDL and DTZ files of material `name` (strong side first,
/// e.g. `KRPvKR`) from `source`. `progress` hears the fraction of source
/// lookups done.
pub fn write_tables<S: Source + ?Sized>(
    name: &str,
    source: &S,
    opts: &Options,
    progress: &mut dyn FnMut(f64),
) -> Result<Written, WriteError> {
    let entries = collect(name, source, progress)?;
    Ok(write_files(&entries, opts))
}

/// Asks `source` about every position of material `name` once; the files
/// (in any variant) are then written from what it said.
pub fn collect<S: Source + ?Sized>(
    name: &str,
    source: &S,
    progress: &mut dyn FnMut(f64),
) -> Result<Entries, WriteError> {
    let mat = Material::from_name(name).ok_or_else(|| WriteError::Material(name.into()))?;
    Ok(Entries::collect(&mat, source, progress)?)
}

/// [`collect`] on `threads` threads, for sources that can be shared.
pub fn collect_parallel<S: Source + Sync + ?Sized>(
    name: &str,
    source: &S,
    threads: usize,
    progress: &mut dyn FnMut(f64),
) -> Result<Entries, WriteError> {
    let mat = Material::from_name(name).ok_or_else(|| WriteError::Material(name.into()))?;
    Ok(Entries::collect_parallel(&mat, source, threads, progress)?)
}

fn layout(mat: &Material, kind: Kind) -> Layout {
    let (w, b) = mat.shape.pawns();
    Layout {
        kind,
        pieces: mat.pieces,
        pawnful: mat.shape.pawnful(),
        both_pawns: w > 0 && b > 0,
        symmetric: mat.symmetric,
    }
}

/// Indices a thread decodes at a time while a whole subtable's cells are
/// built.
const FULL_RUN: usize = 1 << 20;

/// Cells of a whole subtable in `order`, built in place on `threads`
/// threads (the last subtable of a file is otherwise built alone while
/// the other core waits); don't-cares not filled yet.
fn full<T: Copy + Default + Send>(
    entries: &Entries,
    order: &Order,
    (file, side): (usize, usize),
    cell: &(dyn Fn(Entry) -> T + Sync),
    threads: usize,
) -> Vec<T> {
    let positions = entries.reference[file].1.positions as usize;
    let mut v = vec![T::default(); positions];
    let runs: Vec<(u64, &mut [T])> = v
        .chunks_mut(FULL_RUN)
        .enumerate()
        .map(|(k, run)| ((k * FULL_RUN) as u64, run))
        .collect();
    crate::par::map_owned(runs, threads, |(start, run)| {
        cells_into(entries, order, (file, side), start, cell, run)
    });
    v
}

/// A subtable's cells before their don't-cares are filled: WDL cells fit
/// a byte ([`narrow`]), so a big table's are built at half the size while
/// its entries are still held (KRPvKR: 86 MB less at the writer's peak).
enum Built {
    Wide(Vec<u16>),
    Narrow(Vec<u8>),
}

/// A WDL cell in a byte: values 0-4 as they are, a ceiling as 0x80 and
/// its value, anything as 0xff.
fn narrow(cell: u16) -> u8 {
    match cell {
        ANY => 0xff,
        c if c & AT_MOST != 0 => 0x80 | (c & 0x7f) as u8,
        c => c as u8,
    }
}

fn widen(b: u8) -> u16 {
    match b {
        0xff => ANY,
        b if b & 0x80 != 0 => AT_MOST | u16::from(b & 0x7f),
        b => u16::from(b),
    }
}

impl Built {
    /// The cells at 2 bytes each, don't-cares filled by `fill`.
    fn filled(self, fill: fn(&mut [u16])) -> Vec<u16> {
        let mut v = match self {
            Built::Wide(v) => v,
            Built::Narrow(b) => b.into_iter().map(widen).collect(),
        };
        fill(&mut v);
        v
    }
}

/// One subtable: a side to move of a leading-pawn file, of the WDL or the
/// DTZ file.
#[derive(Clone, Copy)]
struct Job {
    dtz: bool,
    file: usize,
    side: usize,
}

/// What a subtable's cells are made of: WDL values, or DTZ symbols through
/// the side's value maps.
enum Cells {
    Wdl,
    Dtz(Plies, DtzMaps, Symbols),
}

impl Cells {
    fn dtz(p: Plies, maps: DtzMaps) -> Cells {
        let symbols = Symbols::new(&maps);
        Cells::Dtz(p, maps, symbols)
    }

    fn cell(&self, e: Entry) -> u16 {
        match self {
            Cells::Wdl => wdl_cell(e),
            Cells::Dtz(p, _, symbols) => symbols.cell(e, *p),
        }
    }

    /// The don't-care fill of these cells.
    fn fill(&self) -> fn(&mut [u16]) {
        match self {
            Cells::Wdl => resolve,
            Cells::Dtz(..) => resolve_commoner,
        }
    }
}

/// A job's candidate orders, ranked by estimate, and its cells.
struct Ranked {
    job: Job,
    orders: Vec<(Order, u64)>,
    cells: Cells,
}

/// Both files, their subtables compressed on `opts.threads` threads.
pub fn write_files(entries: &Entries, opts: &Options) -> Written {
    let (wdl, dtz) = write_kinds(entries, opts, true, true);
    Written { wdl, dtz }
}

/// The WDL file.
pub fn write_wdl(entries: &Entries, opts: &Options) -> Vec<u8> {
    write_kinds(entries, opts, true, false).0
}

/// The DTZ file.
pub fn write_dtz(entries: &Entries, opts: &Options) -> Vec<u8> {
    write_kinds(entries, opts, false, true).1
}

/// Both files, written a leading-pawn file and a side to move at a time:
/// `entries_of(f, s)` holds the values of file `f` with side `s` to move
/// (see [`Entries::collect_side_parallel`]), and only one side's entries
/// are held at once (KRPvKR: 172 MB, not 344). The first side's DTZ is
/// compressed beside its WDL, on the core that would otherwise wait, and
/// the second's only if estimated smaller: the side `file_parts`
/// chooses, so the bytes are those of [`write_files`]. `plies` is what
/// [`plies_of`] makes of the whole material's DTZ values of 100.
pub fn write_by_file(
    name: &str,
    plies: &[Plies],
    opts: &Options,
    entries_of: &mut dyn FnMut(usize, usize) -> Result<Entries, WriteError>,
) -> Result<Written, WriteError> {
    let mat = Material::from_name(name).ok_or_else(|| WriteError::Material(name.into()))?;
    let files = if mat.shape.pawnful() { 4 } else { 1 };
    let sides = if mat.symmetric { 1 } else { 2 };
    let cands = candidates(&mat.shape, opts.orders.max(1));
    let mut wdl = Vec::new();
    let mut dtz = Vec::new();
    for f in 0..files {
        let mut wdl_part = FilePart {
            sides: Vec::new(),
            maps: None,
        };
        // (estimate, part) of the DTZ side estimated smaller so far.
        let mut dtz_part: Option<(u64, Option<FilePart>)> = None;
        for side in 0..sides {
            let entries = entries_of(f, side)?;
            let both = (true, true);
            let mut ranked =
                rank_kinds(&entries, &cands, opts, plies, (f, side), both, opts.threads);
            // A DTZ side estimated no smaller than one already compressed
            // is not compressed.
            ranked.retain(|r| {
                let est = r.orders.first().map_or(0, |o| o.1);
                !r.job.dtz || dtz_part.as_ref().is_none_or(|b| est < b.0)
            });
            let parts = compressed(entries, &ranked, opts);
            for (r, part) in ranked.iter().zip(parts) {
                match &r.cells {
                    Cells::Wdl => wdl_part.sides.extend(part),
                    Cells::Dtz(_, maps, _) => {
                        let est = r.orders.first().map_or(0, |o| o.1);
                        let part = part.map(|p| FilePart {
                            sides: vec![p],
                            maps: Some(maps.clone()),
                        });
                        dtz_part = Some((est, part));
                    }
                }
            }
        }
        wdl.push(wdl_part);
        dtz.extend(dtz_part.and_then(|b| b.1));
    }
    Ok(Written {
        wdl: file::write(&layout(&mat, Kind::Wdl), &wdl),
        dtz: file::write(&layout(&mat, Kind::Dtz), &dtz),
    })
}

/// Each of `ranked` (subtables of one side) compressed in full in its
/// finalist orders, the smallest kept. Every finalist's cells are built
/// first and the entries dropped: the compressions, the longest step, run
/// beside cells only (KRPvKR: 172 MB less at the writer's peak).
fn compressed(entries: Entries, ranked: &[Ranked], opts: &Options) -> Vec<Option<Part>> {
    let threads = compress_threads(&entries, opts);
    let mut built = Vec::new();
    for (i, r) in ranked.iter().enumerate() {
        for order in finalists(&r.orders, opts) {
            built.push((i, built_in(&entries, r, &order, opts.threads), order));
        }
    }
    drop(entries);
    let jobs: Vec<_> = built
        .into_iter()
        .map(|(i, b, order)| (i, order, b.filled(ranked[i].cells.fill())))
        .collect();
    let packed = crate::par::map_owned(jobs, threads, |(i, order, cells)| {
        (i, pack(&ranked[i], order, cells))
    });
    let mut of_job: Vec<Vec<Part>> = ranked.iter().map(|_| Vec::new()).collect();
    for (i, p) in packed {
        of_job[i].push(p);
    }
    of_job
        .into_iter()
        .map(|p| smallest(p.into_iter()))
        .collect()
}

fn write_kinds(entries: &Entries, opts: &Options, wdl: bool, dtz: bool) -> (Vec<u8>, Vec<u8>) {
    let mat = &entries.material;
    let plies = plies(entries, opts.exact_dtz);
    let (wdl_files, dtz_files) = file_parts(entries, opts, &plies, wdl, dtz);
    let wdl_bytes = if wdl {
        file::write(&layout(mat, Kind::Wdl), &wdl_files)
    } else {
        Vec::new()
    };
    let dtz_bytes = if dtz {
        file::write(&layout(mat, Kind::Dtz), &dtz_files)
    } else {
        Vec::new()
    };
    (wdl_bytes, dtz_bytes)
}

/// The WDL and DTZ parts of every leading-pawn file `entries` holds values
/// of, in file order. Orders are ranked for every subtable first; then
/// each WDL subtable, and of each file's two DTZ sides the one estimated
/// smaller, is compressed in full in its best orders. (On KQRvK, KQvKB,
/// KQvKR and KPPvK the estimates chose the side that full compression of
/// both finds smaller.)
fn file_parts(
    entries: &Entries,
    opts: &Options,
    plies: &[Plies],
    wdl: bool,
    dtz: bool,
) -> (Vec<FilePart>, Vec<FilePart>) {
    let mat = &entries.material;
    let cands = candidates(&mat.shape, opts.orders.max(1));
    let mut sides = Vec::new();
    for (file, per_side) in entries.values.iter().enumerate() {
        for side in 0..per_side.len() {
            sides.push((file, side));
        }
    }
    // A side's WDL and DTZ are ranked together, sharing samples.
    let ranked: Vec<Ranked> = crate::par::map(&sides, opts.threads, |&(file, side)| {
        let kinds = (dtz, wdl);
        rank_kinds(entries, &cands, opts, plies, (file, side), kinds, 1)
    })
    .into_iter()
    .flatten()
    .collect();
    // Of each file's DTZ sides, the one estimated smaller.
    let files = entries.values.len();
    let mut dtz_side: Vec<Option<(usize, u64)>> = vec![None; files];
    for r in ranked.iter().filter(|r| r.job.dtz) {
        let est = r.orders.first().map_or(0, |o| o.1);
        let best = &mut dtz_side[r.job.file];
        if best.is_none_or(|b| est < b.1) {
            *best = Some((r.job.side, est));
        }
    }
    let finals: Vec<&Ranked> = ranked
        .iter()
        .filter(|r| !r.job.dtz || dtz_side[r.job.file].map(|b| b.0) == Some(r.job.side))
        .collect();
    let parts = crate::par::map(&finals, compress_threads(entries, opts), |r| {
        best_part(entries, r, opts)
    });
    let mut wdl_files: Vec<FilePart> = (0..files)
        .filter(|&f| !entries.values[f].is_empty())
        .map(|_| FilePart {
            sides: Vec::new(),
            maps: None,
        })
        .collect();
    // Index of a file's part among the files held.
    let slot = |f: usize| entries.values[..f].iter().filter(|v| !v.is_empty()).count();
    let mut dtz_files = Vec::new();
    for (r, part) in finals.iter().zip(parts) {
        let Some(part) = part else { continue };
        match &r.cells {
            Cells::Wdl => wdl_files[slot(r.job.file)].sides.push(part),
            Cells::Dtz(_, maps, _) => dtz_files.push(FilePart {
                sides: vec![part],
                maps: Some(maps.clone()),
            }),
        }
    }
    if !wdl {
        wdl_files.clear();
    }
    (wdl_files, dtz_files)
}

/// The subtables of file and side `at` of the kinds asked, (DTZ, WDL),
/// DTZ first: candidate orders ranked on samples the kinds share,
/// estimated on `threads` threads.
fn rank_kinds(
    entries: &Entries,
    cands: &[Order],
    opts: &Options,
    plies: &[Plies],
    (file, side): (usize, usize),
    (dtz, wdl): (bool, bool),
    threads: usize,
) -> Vec<Ranked> {
    let mut all = Vec::new();
    if dtz {
        let p = plies[side];
        all.push((true, Cells::dtz(p, dtz_maps(entries, opts, p, file, side))));
    }
    if wdl {
        all.push((false, Cells::Wdl));
    }
    let cell_fns: Vec<_> = all.iter().map(|(_, c)| move |e| c.cell(e)).collect();
    let kinds: Vec<CellKind> = all
        .iter()
        .zip(&cell_fns)
        .map(|((_, c), cell)| CellKind {
            cell,
            fill: c.fill(),
        })
        .collect();
    let orders = ranked(entries, cands, file, side, &kinds, threads);
    all.into_iter()
        .zip(orders)
        .map(|((is_dtz, cells), orders)| Ranked {
            job: Job {
                dtz: is_dtz,
                file,
                side,
            },
            orders,
            cells,
        })
        .collect()
}

/// Subtables compressed at once: a full compression holds 2 bytes a
/// position beside the entries' 2 a position; past 2^28 positions (KNNNvKN
/// peaked at 16.5 GB this way), one at a time.
fn compress_threads(entries: &Entries, opts: &Options) -> usize {
    let largest = entries
        .values
        .iter()
        .flatten()
        .map(Column::len)
        .max()
        .unwrap_or(0);
    if largest > 1 << 28 {
        1
    } else {
        opts.threads
    }
}

/// A ranked subtable compressed in full in its finalist orders: the
/// smallest.
fn best_part(entries: &Entries, r: &Ranked, opts: &Options) -> Option<Part> {
    let orders = finalists(&r.orders, opts);
    smallest(
        orders
            .into_iter()
            .map(|o| part(entries, r, o, opts.threads)),
    )
}

/// The orders to compress in full: the best estimates.
fn finalists(ranked: &[(Order, u64)], opts: &Options) -> Vec<Order> {
    ranked
        .iter()
        .take(opts.finalists.max(1))
        .map(|r| r.0.clone())
        .collect()
}

/// A subtable compressed in full in `order`.
fn part(entries: &Entries, r: &Ranked, order: Order, threads: usize) -> Part {
    let values = built_in(entries, r, &order, threads).filled(r.cells.fill());
    pack(r, order, values)
}

/// A subtable's cells in `order`, WDL ones in a byte.
fn built_in(entries: &Entries, r: &Ranked, order: &Order, threads: usize) -> Built {
    let at = (r.job.file, r.job.side);
    match &r.cells {
        Cells::Wdl => Built::Narrow(full(entries, order, at, &|e| narrow(wdl_cell(e)), threads)),
        cells => Built::Wide(full(entries, order, at, &|e| cells.cell(e), threads)),
    }
}

/// A subtable compressed from its cells in `order`.
fn pack(r: &Ranked, order: Order, values: Vec<u16>) -> Part {
    match &r.cells {
        Cells::Wdl => Part {
            order,
            flags: 0,
            data: compress(values, true, 6),
        },
        Cells::Dtz(p, maps, _) => {
            let zero_only = maps.maps.iter().all(|m| m.iter().all(|&v| v == 0));
            let data = compress(values, zero_only, 10);
            let mut flags = (r.job.side as u8 * DTZ_STM)
                | (u8::from(p.win) * DTZ_WIN_PLIES)
                | (u8::from(p.loss) * DTZ_LOSS_PLIES);
            if matches!(data, Compressed::Huffman(_)) {
                flags |= DTZ_MAPPED | (u8::from(maps.wide) * DTZ_WIDE);
            }
            Part { order, flags, data }
        }
    }
}

/// Plies flags per side to move, from the entries' DTZ values of 100.
fn plies(entries: &Entries, exact: bool) -> Vec<Plies> {
    let sides = entries.values[0].len();
    let mut win100 = vec![false; sides];
    let mut loss100 = vec![false; sides];
    for per_side in &entries.values {
        for (s, v) in per_side.iter().enumerate() {
            for e in v.iter().filter(|e| !e.illegal() && !e.dtz_free()) {
                if e.dtz().abs() == 100 {
                    if e.wdl() == 2 {
                        win100[s] = true;
                    } else if e.wdl() == -2 {
                        loss100[s] = true;
                    }
                }
            }
        }
    }
    plies_of(&win100, &loss100, exact)
}

/// Plies flags per side to move, as the official generator sets them: a
/// colour's wins (and the other colour's losses) are stored in plies when a
/// DTZ of exactly 100 occurs among them, where halving would be ambiguous.
/// `win100[s]` and `loss100[s]`: whether a win or a loss with a DTZ of 100
/// occurs with side `s` to move (one side for a symmetric material).
pub fn plies_of(win100: &[bool], loss100: &[bool], exact: bool) -> Vec<Plies> {
    let sides = win100.len();
    if exact {
        return vec![
            Plies {
                win: true,
                loss: true
            };
            sides
        ];
    }
    if sides == 1 {
        let p = win100[0] || loss100[0];
        return vec![Plies { win: p, loss: p }];
    }
    let white = win100[0] || loss100[1];
    let black = win100[1] || loss100[0];
    vec![
        Plies {
            win: white,
            loss: black,
        },
        Plies {
            win: black,
            loss: white,
        },
    ]
}

/// A side's DTZ value maps, from its stored values' frequencies.
fn dtz_maps(entries: &Entries, opts: &Options, p: Plies, file: usize, side: usize) -> DtzMaps {
    let mut freq: [Vec<u64>; 4] = Default::default();
    for e in entries.values[file][side].iter() {
        if let Some((c, v)) = dtz::stored(e, p) {
            let f = &mut freq[c];
            if f.len() <= usize::from(v) {
                f.resize(usize::from(v) + 1, 0);
            }
            f[usize::from(v)] += 1;
        }
    }
    dtz::maps(&freq, opts.wide_dtz)
}

/// Bytes a subtable takes in its file (header, indexes, padded data).
fn part_size(p: &Part) -> u64 {
    let h = header(p.flags, &p.data).len() as u64;
    match &p.data {
        Compressed::Single(_) => h,
        Compressed::Huffman(c) => h + c.blocks.size(),
    }
}

/// The smallest of some parts (the first on a tie).
fn smallest(parts: impl Iterator<Item = Part>) -> Option<Part> {
    let mut best: Option<Part> = None;
    for p in parts {
        if best.as_ref().is_none_or(|b| part_size(&p) < part_size(b)) {
            best = Some(p);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every WDL cell survives its byte form.
    #[test]
    fn wdl_cells_fit_a_byte() {
        let mut cells = vec![ANY];
        for v in 0..=4 {
            cells.extend([v, at_most(v)]);
        }
        for c in cells {
            assert_eq!(widen(narrow(c)), c, "{c:#x}");
        }
    }
}
