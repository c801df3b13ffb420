//! Choosing a subtable's piece order: cells of each candidate order are
//! built for evenly spread samples of the index range and compressed
//! roughly; the smallest wins.

use super::entries::{Entries, Entry};
use crate::format::header::Geometry;
use crate::format::write::dontcare::resolve;
use crate::format::write::order::Order;
use crate::format::write::subtable::estimate;

/// Samples: this many runs of this many consecutive indices.
const RUNS: u64 = 64;
const RUN_LEN: u64 = 2048;

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

/// Estimated bytes of a subtable in `order`.
pub fn estimate_order(
    entries: &Entries,
    order: &Order,
    file: usize,
    side: usize,
    cell: &dyn Fn(Entry) -> u16,
) -> u64 {
    let positions = entries.reference[file].1.positions;
    let mut sample = Vec::new();
    if positions <= RUNS * RUN_LEN {
        sample = cells(entries, order, file, side, 0..positions, cell);
    } else {
        let stride = positions / RUNS;
        for r in 0..RUNS {
            let start = r * stride;
            let mut part = cells(entries, order, file, side, start..start + RUN_LEN, cell);
            resolve(&mut part);
            sample.extend(part);
        }
    }
    resolve(&mut sample);
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
) -> Vec<(Order, u64)> {
    let mut out: Vec<(Order, u64)> = candidates
        .iter()
        .map(|o| (o.clone(), estimate_order(entries, o, file, side, cell)))
        .collect();
    out.sort_by_key(|x| x.1);
    if out.is_empty() {
        out.push((entries.reference[file].0.clone(), 0));
    }
    out
}
