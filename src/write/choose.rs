//! Choosing a subtable's piece order: cells of each candidate order are
//! built for evenly spread samples of the index range and compressed
//! roughly; the smallest wins. Every candidate is screened on a small
//! sample first, and only the most promising are estimated on the large one.

use super::entries::{Entries, Entry};
use crate::format::header::Geometry;
use crate::format::write::order::Order;
use crate::format::write::subtable::estimate;

/// Samples: this many runs of this many consecutive indices.
const RUNS: u64 = 64;
const RUN_LEN: u64 = 2048;
/// The screening sample: as many runs, this many times shorter; and how
/// many candidates pass the screen.
const SCREEN_SHORTER: u64 = 8;
const SCREENED: usize = 8;

/// Cells of indices `range` of a subtable in `order`, through `cell`.
pub fn cells(
    entries: &Entries,
    order: &Order,
    file: usize,
    side: usize,
    range: std::ops::Range<u64>,
    cell: &dyn Fn(Entry) -> u16,
) -> Vec<u16> {
    let geo: Geometry = entries.geo;
    let Ok(enc) = order.encoding(file, geo) else {
        return Vec::new();
    };
    let mut view = entries.view(&enc, file, side);
    range
        .filter(|&i| i < enc.positions)
        .map(|i| cell(view.get(i)))
        .collect()
}

/// Estimated bytes of a subtable in `order`, from runs of `run_len` indices,
/// don't-cares filled by `fill`.
pub fn estimate_order(
    entries: &Entries,
    order: &Order,
    file: usize,
    side: usize,
    cell: &dyn Fn(Entry) -> u16,
    fill: fn(&mut [u16]),
    run_len: u64,
) -> u64 {
    let positions = entries.reference[file].1.positions;
    let mut sample = Vec::new();
    if positions <= RUNS * run_len {
        sample = cells(entries, order, file, side, 0..positions, cell);
    } else {
        let stride = positions / RUNS;
        for r in 0..RUNS {
            let start = r * stride;
            let mut part = cells(entries, order, file, side, start..start + run_len, cell);
            fill(&mut part);
            sample.extend(part);
        }
    }
    fill(&mut sample);
    estimate(&sample)
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
    let estimate = |o: &Order, len| estimate_order(entries, o, file, side, cell, fill, len);
    let mut out: Vec<(Order, u64)> = candidates.iter().map(|o| (o.clone(), 0)).collect();
    if positions > RUNS * RUN_LEN && out.len() > SCREENED {
        for c in out.iter_mut() {
            c.1 = estimate(&c.0, RUN_LEN / SCREEN_SHORTER);
        }
        out.sort_by_key(|x| x.1);
        out.truncate(SCREENED);
    }
    for c in out.iter_mut() {
        c.1 = estimate(&c.0, RUN_LEN);
    }
    out.sort_by_key(|x| x.1);
    if out.is_empty() {
        out.push((entries.reference[file].0.clone(), 0));
    }
    out
}
