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

/// The best of the first `limit` candidate orders and its estimate.
pub fn best_order(
    entries: &Entries,
    candidates: &[Order],
    file: usize,
    side: usize,
    cell: &dyn Fn(Entry) -> u16,
) -> (Order, u64) {
    let mut best: Option<(Order, u64)> = None;
    for o in candidates {
        let e = estimate_order(entries, o, file, side, cell);
        if best.as_ref().is_none_or(|b| e < b.1) {
            best = Some((o.clone(), e));
        }
    }
    best.unwrap_or_else(|| (entries.reference[file].0.clone(), 0))
}
