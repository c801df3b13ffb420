//! DTZ as the tables store it: per WDL class (win, loss, cursed win,
//! blessed loss) a value counted from the zeroing move, halved where the
//! table says "moves" rather than "plies", then numbered by frequency in
//! that class so that the classes share the most common symbols.

use super::entries::Entry;
use crate::format::write::dontcare::ANY;
use crate::format::write::file::DtzMaps;

/// Class of a WDL (0 win, 1 loss, 2 cursed win, 3 blessed loss).
pub fn class(wdl: i8) -> usize {
    match wdl {
        2 => 0,
        -2 => 1,
        1 => 2,
        _ => 3,
    }
}

/// Whether wins and losses of a subtable are stored in plies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Plies {
    pub win: bool,
    pub loss: bool,
}

/// The stored value of an entry the DTZ table must hold, or `None`.
pub fn stored(e: Entry, plies: Plies) -> Option<(usize, u16)> {
    if e.illegal() || e.dtz_free() {
        return None;
    }
    let w = e.wdl();
    let p = match w {
        2 | -2 => e.dtz().unsigned_abs().max(1),
        _ => e.dtz().unsigned_abs().saturating_sub(100).max(1),
    };
    let exact = (w == 2 && plies.win) || (w == -2 && plies.loss);
    let v = if exact { p - 1 } else { (p - 1) / 2 };
    Some((class(w), v.min(u32::from(u16::MAX)) as u16))
}

/// Value maps from the stored values' frequencies, most frequent first.
pub fn maps(freq: &[Vec<u64>; 4], force_wide: bool) -> DtzMaps {
    let mut maps: [Vec<u16>; 4] = Default::default();
    for (c, f) in freq.iter().enumerate() {
        let mut vals: Vec<u16> = (0..f.len() as u16)
            .filter(|&v| f[usize::from(v)] > 0)
            .collect();
        vals.sort_by_key(|&v| (std::cmp::Reverse(f[usize::from(v)]), v));
        maps[c] = vals;
    }
    let wide = force_wide
        || maps
            .iter()
            .any(|m| m.len() > 255 || m.iter().any(|&v| v > 255));
    DtzMaps { maps, wide }
}

/// Symbol numbers per class and value: the inverse of the maps.
pub struct Symbols(Vec<Vec<u16>>);

impl Symbols {
    pub fn new(m: &DtzMaps) -> Symbols {
        Symbols(
            m.maps
                .iter()
                .map(|map| {
                    let mut inv = vec![0u16; map.iter().copied().max().map_or(0, usize::from) + 1];
                    for (i, &v) in map.iter().enumerate() {
                        inv[usize::from(v)] = i as u16;
                    }
                    inv
                })
                .collect(),
        )
    }

    /// The cell of an entry: its symbol, or a don't-care.
    pub fn cell(&self, e: Entry, plies: Plies) -> u16 {
        match stored(e, plies) {
            Some((c, v)) => self.0[c].get(usize::from(v)).copied().unwrap_or(0),
            None => ANY,
        }
    }
}
