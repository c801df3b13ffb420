//! Choosing a subtable's piece order: cells of each candidate order are
//! built for runs of indices spread evenly over the subtable and compressed
//! roughly; the smallest wins. Every candidate is screened on a short
//! sample first, and only the most promising are estimated on a long one.
//!
//! Samples grow with the subtable, within bounds: a fixed 131,072 indices
//! were 0.1% of a 5-piece subtable, too few to rank its orders (KRBvKR came
//! out 25% larger than the official file), and more than a whole pass over
//! a 4-piece one, where the ranking cost more than the compression.

use super::entries::{Entries, Entry};
use crate::format::header::Geometry;
use crate::format::write::order::Order;
use crate::format::write::subtable::estimate;

/// Consecutive indices per run of a sample: the screen's, the ranking's.
const SCREEN_RUN: u64 = 256;
const RANK_RUN: u64 = 2048;
/// Candidates that pass the screen: 8 of a small subtable, 4 of a larger
/// one. Ranking 8 on long samples was most of writing KRPvKR (96-101 s
/// against 87.8 s with 4, the files 0.1% smaller, KRBvKR's the same); on
/// the 3-4 piece set 4 wrote 1.0% larger files.
fn screened(positions: u64) -> usize {
    if positions < SMALL {
        8
    } else {
        4
    }
}

/// Indices the screen gives each of `candidates` orders: together a
/// quarter of the subtable, and at least 16,384 each.
fn screen_len(positions: u64, candidates: usize) -> u64 {
    (positions / 4 / candidates.max(1) as u64).clamp(16 * 1024, 1 << 20)
}

/// Subtables below this size (every 3-4 piece one) are ranked on a 32nd.
const SMALL: u64 = 1 << 23;

/// Indices the ranking gives each screened order: a 32nd of a small
/// subtable, a 16th of a larger one. On the 3-4 piece set the 32nd wrote
/// 18% faster (39.0 s against 47.5 s) and no larger (1.015 of the official
/// size against 1.017, the largest table 1.089 against 1.131); the 5-piece
/// sizes (KRBvKR at 1.094, near the 1.10 bound) were measured with the 16th.
fn rank_len(positions: u64) -> u64 {
    let part = if positions < SMALL { 32 } else { 16 };
    (positions / part).clamp(32 * 1024, 1 << 23)
}

/// Cells of indices `start..` of a subtable in `order`, through `cell`,
/// into `out` (one a cell).
pub fn cells_into<T>(
    entries: &Entries,
    order: &Order,
    (file, side): (usize, usize),
    start: u64,
    cell: &dyn Fn(Entry) -> T,
    out: &mut [T],
) {
    let geo: Geometry = entries.geo;
    let Ok(enc) = order.encoding(file, geo) else {
        return;
    };
    let mut view = entries.view(&enc, file, side);
    for (i, c) in (start..).zip(out.iter_mut()) {
        *c = cell(view.get(i));
    }
}

/// How one file kind makes cells of entries: the cell of an entry, and
/// the don't-care fill.
pub struct CellKind<'a> {
    pub cell: &'a (dyn Fn(Entry) -> u16 + Sync),
    pub fill: fn(&mut [u16]),
}

/// The entries of about `len` indices of a subtable in `order`, in runs of
/// `run_len` spread evenly (all of it when it is that small), and where
/// each run ends in the sample (none for a whole subtable).
fn sample(
    entries: &Entries,
    order: &Order,
    file: usize,
    side: usize,
    len: u64,
    run_len: u64,
) -> (Vec<Entry>, Vec<usize>) {
    let positions = entries.reference[file].1.positions;
    let mut out = Vec::with_capacity(len.min(positions) as usize);
    let mut ends = Vec::new();
    let Ok(enc) = order.encoding(file, entries.geo) else {
        return (out, ends);
    };
    let mut view = entries.view(&enc, file, side);
    let mut take = |range: std::ops::Range<u64>, out: &mut Vec<Entry>| {
        out.extend(range.filter(|&i| i < enc.positions).map(|i| view.get(i)))
    };
    if positions <= len {
        take(0..positions, &mut out);
    } else {
        let runs = (len / run_len).max(1);
        let stride = positions / runs;
        for r in 0..runs {
            let start = r * stride;
            take(start..start + run_len, &mut out);
            ends.push(out.len());
        }
    }
    (out, ends)
}

/// Estimated bytes of a sample's cells of `kind`, each run's don't-cares
/// filled on its own, then the whole.
fn estimate_sample(sample: &[Entry], ends: &[usize], kind: &CellKind) -> u64 {
    let mut cells: Vec<u16> = sample.iter().map(|&e| (kind.cell)(e)).collect();
    let mut from = 0;
    for &end in ends {
        (kind.fill)(&mut cells[from..end]);
        from = end;
    }
    (kind.fill)(&mut cells);
    estimate(cells)
}

/// Per kind, the candidate orders with their estimates, best first (ties
/// keep the candidates' order, so the choice is deterministic). The kinds
/// (a side's WDL and DTZ) share each order's sample: decoding the indices
/// of every candidate was most of the ranking. Candidates are estimated on
/// `threads` threads (the estimates do not depend on it).
pub fn ranked(
    entries: &Entries,
    candidates: &[Order],
    file: usize,
    side: usize,
    kinds: &[CellKind],
    threads: usize,
) -> Vec<Vec<(Order, u64)>> {
    let positions = entries.reference[file].1.positions;
    // Per kind, (candidate, estimate).
    let mut out: Vec<Vec<(usize, u64)>> = kinds
        .iter()
        .map(|_| (0..candidates.len()).map(|c| (c, 0)).collect())
        .collect();
    // Estimates every kind's listed candidates on samples of `len`.
    let estimate_all = |out: &mut Vec<Vec<(usize, u64)>>, len: u64, run: u64| {
        let mut wanted: Vec<usize> = out.iter().flatten().map(|c| c.0).collect();
        wanted.sort_unstable();
        wanted.dedup();
        // Per candidate, the kinds that still list it.
        let jobs: Vec<(usize, Vec<bool>)> = wanted
            .iter()
            .map(|&c| (c, out.iter().map(|l| l.iter().any(|x| x.0 == c)).collect()))
            .collect();
        let estimates = crate::par::map(&jobs, threads, |(c, listed)| {
            let (s, ends) = sample(entries, &candidates[*c], file, side, len, run);
            kinds
                .iter()
                .zip(listed)
                .map(|(kind, &l)| l.then(|| estimate_sample(&s, &ends, kind)))
                .collect::<Vec<Option<u64>>>()
        });
        for ((c, _), per_kind) in jobs.iter().zip(estimates) {
            for (e, list) in per_kind.into_iter().zip(out.iter_mut()) {
                if let (Some(e), Some(x)) = (e, list.iter_mut().find(|x| x.0 == *c)) {
                    x.1 = e;
                }
            }
        }
        for list in out.iter_mut() {
            list.sort_by_key(|x| x.1);
        }
    };
    let long = rank_len(positions);
    let keep = screened(positions);
    if positions > long && candidates.len() > keep {
        let short = screen_len(positions, candidates.len());
        estimate_all(&mut out, short, SCREEN_RUN);
        for list in out.iter_mut() {
            list.truncate(keep);
        }
    }
    estimate_all(&mut out, long, RANK_RUN);
    out.into_iter()
        .map(|list| {
            let mut r: Vec<(Order, u64)> = list
                .into_iter()
                .map(|(c, e)| (candidates[c].clone(), e))
                .collect();
            if r.is_empty() {
                r.push((entries.reference[file].0.clone(), 0));
            }
            r
        })
        .collect()
}
