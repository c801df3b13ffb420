//! Both files of a material: values collected once, then per subtable the
//! piece order (and for DTZ the side to move) that compresses best.

use std::fmt;

use super::choose::{cells, ranked};
use super::dtz::{self, Plies, Symbols};
use super::entries::{Entries, Entry};
use super::source::Source;
use crate::format::header::{DTZ_LOSS_PLIES, DTZ_MAPPED, DTZ_STM, DTZ_WIDE, DTZ_WIN_PLIES};
use crate::format::write::dontcare::{at_most, resolve, resolve_commoner, ANY};
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
    /// Of those, the best estimated ones compressed in full; the smallest wins.
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
            finalists: 2,
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
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Material(n) => write!(f, "not a table name: {n}"),
            WriteError::Format(e) => write!(f, "{e}"),
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

/// Cells of a whole subtable in `order`, don't-cares filled by `fill`.
fn full(
    entries: &Entries,
    order: &crate::format::write::order::Order,
    file: usize,
    side: usize,
    cell: &dyn Fn(Entry) -> u16,
    fill: fn(&mut [u16]),
) -> Vec<u16> {
    let positions = entries.reference[file].1.positions;
    let mut v = cells(entries, order, file, side, 0..positions, cell);
    fill(&mut v);
    v
}

/// One subtable to compress: a side to move of a leading-pawn file, for
/// the WDL or the DTZ file.
#[derive(Clone, Copy)]
struct Job {
    dtz: bool,
    file: usize,
    side: usize,
}

/// A job's result: the WDL part, or the DTZ candidates with their maps.
enum Done {
    Wdl(Option<Part>),
    Dtz(Vec<(Part, DtzMaps)>),
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

fn write_kinds(entries: &Entries, opts: &Options, wdl: bool, dtz: bool) -> (Vec<u8>, Vec<u8>) {
    let mat = &entries.material;
    let cands = candidates(&mat.shape, opts.orders.max(1));
    let plies = plies(entries, opts.exact_dtz);
    let mut jobs = Vec::new();
    for (kind, wanted) in [(true, dtz), (false, wdl)] {
        for (file, per_side) in entries.values.iter().enumerate() {
            for side in 0..per_side.len() {
                if wanted {
                    jobs.push(Job {
                        dtz: kind,
                        file,
                        side,
                    });
                }
            }
        }
    }
    // DTZ jobs first: they are the longest.
    let done = super::par::map(&jobs, opts.threads, |j| {
        if j.dtz {
            Done::Dtz(dtz_parts(
                entries,
                opts,
                &cands,
                plies[j.side],
                j.file,
                j.side,
            ))
        } else {
            Done::Wdl(wdl_part(entries, opts, &cands, j.file, j.side))
        }
    });
    let files = entries.values.len();
    let mut wdl_files: Vec<FilePart> = (0..files)
        .map(|_| FilePart {
            sides: Vec::new(),
            maps: None,
        })
        .collect();
    let mut dtz_best: Vec<Option<(Part, DtzMaps)>> = (0..files).map(|_| None).collect();
    for (j, d) in jobs.iter().zip(done) {
        match d {
            Done::Wdl(part) => wdl_files[j.file].sides.extend(part),
            Done::Dtz(parts) => {
                // The side to store: the smaller in full.
                for (part, maps) in parts {
                    let best = &mut dtz_best[j.file];
                    if best
                        .as_ref()
                        .is_none_or(|b| part_size(&part) < part_size(&b.0))
                    {
                        *best = Some((part, maps));
                    }
                }
            }
        }
    }
    let wdl_bytes = if wdl {
        file::write(&layout(mat, Kind::Wdl), &wdl_files)
    } else {
        Vec::new()
    };
    let dtz_bytes = if dtz {
        let parts: Vec<FilePart> = dtz_best
            .into_iter()
            .flatten()
            .map(|(part, maps)| FilePart {
                sides: vec![part],
                maps: Some(maps),
            })
            .collect();
        file::write(&layout(mat, Kind::Dtz), &parts)
    } else {
        Vec::new()
    };
    (wdl_bytes, dtz_bytes)
}

/// The orders to compress in full: the best estimates (the estimate is
/// rough: the runner-up often compresses better in full).
fn finalists(ranked: Vec<(Order, u64)>, opts: &Options) -> Vec<Order> {
    ranked
        .into_iter()
        .take(opts.finalists.max(1))
        .map(|r| r.0)
        .collect()
}

/// A WDL subtable in the best of its finalist orders.
fn wdl_part(
    entries: &Entries,
    opts: &Options,
    cands: &[Order],
    file: usize,
    side: usize,
) -> Option<Part> {
    let parts = finalists(ranked(entries, cands, file, side, &wdl_cell, resolve), opts)
        .into_iter()
        .map(|order| {
            let values = full(entries, &order, file, side, &wdl_cell, resolve);
            Part {
                order,
                flags: 0,
                data: compress(&values, true, 6),
            }
        });
    smallest(parts)
}

/// Plies flags per side to move, as the official generator sets them: a
/// colour's wins (and the other colour's losses) are stored in plies when a
/// DTZ of exactly 100 occurs among them, where halving would be ambiguous.
fn plies(entries: &Entries, exact: bool) -> Vec<Plies> {
    let sides = entries.values[0].len();
    if exact {
        return vec![
            Plies {
                win: true,
                loss: true
            };
            sides
        ];
    }
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

/// A side's DTZ subtable in each of its finalist orders.
fn dtz_parts(
    entries: &Entries,
    opts: &Options,
    cands: &[Order],
    p: Plies,
    file: usize,
    side: usize,
) -> Vec<(Part, DtzMaps)> {
    let values = &entries.values[file][side];
    let mut freq: [Vec<u64>; 4] = Default::default();
    for &e in values {
        if let Some((c, v)) = dtz::stored(e, p) {
            let f = &mut freq[c];
            if f.len() <= usize::from(v) {
                f.resize(usize::from(v) + 1, 0);
            }
            f[usize::from(v)] += 1;
        }
    }
    let maps = dtz::maps(&freq, opts.wide_dtz);
    let symbols = Symbols::new(&maps);
    let cell = |e: Entry| symbols.cell(e, p);
    let zero_only = maps.maps.iter().all(|m| m.iter().all(|&v| v == 0));
    finalists(
        ranked(entries, cands, file, side, &cell, resolve_commoner),
        opts,
    )
    .into_iter()
    .map(|order| {
        let values = full(entries, &order, file, side, &cell, resolve_commoner);
        let data = compress(&values, zero_only, 10);
        let mut flags = (side as u8 * DTZ_STM)
            | (u8::from(p.win) * DTZ_WIN_PLIES)
            | (u8::from(p.loss) * DTZ_LOSS_PLIES);
        if matches!(data, Compressed::Huffman(_)) {
            flags |= DTZ_MAPPED | (u8::from(maps.wide) * DTZ_WIDE);
        }
        (Part { order, flags, data }, maps.clone())
    })
    .collect()
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
