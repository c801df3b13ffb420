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
/// Candidates that pass the screen.
const SCREENED: usize = 8;

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

/// Cells of indices `range` of a subtable in `order`, through `cell`,
/// appended to `out`.
pub fn cells_into(
    entries: &Entries,
    order: &Order,
    file: usize,
    side: usize,
    range: std::ops::Range<u64>,
    cell: &dyn Fn(Entry) -> u16,
    out: &mut Vec<u16>,
) {
    let geo: Geometry = entries.geo;
    let Ok(enc) = order.encoding(file, geo) else {
        return;
    };
    let mut view = entries.view(&enc, file, side);
    out.extend(
        range
            .filter(|&i| i < enc.positions)
            .map(|i| cell(view.get(i))),
    );
}

/// Estimated bytes of a subtable in `order`, from about `len` indices in
/// runs of `run_len`, each run's don't-cares filled by `fill` on its own.
#[allow(clippy::too_many_arguments)]
fn estimate_order(
    entries: &Entries,
    order: &Order,
    file: usize,
    side: usize,
    cell: &dyn Fn(Entry) -> u16,
    fill: fn(&mut [u16]),
    len: u64,
    run_len: u64,
) -> u64 {
    let positions = entries.reference[file].1.positions;
    let mut sample = Vec::with_capacity(len.min(positions) as usize);
    if positions <= len {
        cells_into(entries, order, file, side, 0..positions, cell, &mut sample);
    } else {
        let runs = (len / run_len).max(1);
        let stride = positions / runs;
        for r in 0..runs {
            let start = r * stride;
            let from = sample.len();
            cells_into(
                entries,
                order,
                file,
                side,
                start..start + run_len,
                cell,
                &mut sample,
            );
            fill(&mut sample[from..]);
        }
    }
    fill(&mut sample);
    estimate(sample)
}

/// The candidate orders with their estimates, best first (ties keep the
/// candidates' order, so the choice is deterministic).
pub fn ranked(
    entries: &Entries,
    candidates: &[Order],
    file: usize,
    side: usize,
    cell: &dyn Fn(Entry) -> u16,
    fill: fn(&mut [u16]),
) -> Vec<(Order, u64)> {
    let positions = entries.reference[file].1.positions;
    let estimate =
        |o: &Order, len, run| estimate_order(entries, o, file, side, cell, fill, len, run);
    let mut out: Vec<(Order, u64)> = candidates.iter().map(|o| (o.clone(), 0)).collect();
    let long = rank_len(positions);
    if positions > long && out.len() > SCREENED {
        let short = screen_len(positions, out.len());
        for c in out.iter_mut() {
            c.1 = estimate(&c.0, short, SCREEN_RUN);
        }
        out.sort_by_key(|x| x.1);
        out.truncate(SCREENED);
    }
    for c in out.iter_mut() {
        c.1 = estimate(&c.0, long, RANK_RUN);
    }
    out.sort_by_key(|x| x.1);
    if out.is_empty() {
        out.push((entries.reference[file].0.clone(), 0));
    }
    out
}
