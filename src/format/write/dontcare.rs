//! Don't-care values: positions whose stored value the prober never uses
//! as it is (a capture already decides them, or they cannot occur) may hold
//! any value up to a ceiling. Each run of them takes one value, chosen from
//! its neighbours' (where allowed) so that it joins a run already there;
//! a run allowing neither takes the most common allowed value.

/// A cell that allows any value up to and including `v`.
pub const fn at_most(v: u16) -> u16 {
    AT_MOST | v
}
/// Flag of a ceiling cell; other cells hold their exact value.
pub const AT_MOST: u16 = 0x8000;
/// A cell that allows anything.
pub const ANY: u16 = 0xffff;

/// Whether `cell` may hold `v`.
fn allows(cell: u16, v: u16) -> bool {
    if cell & AT_MOST == 0 {
        cell == v
    } else {
        v <= cell & !AT_MOST
    }
}

/// What a run of don't-cares sees around it.
struct Run {
    /// The value before the run, if the run allows it.
    left: Option<u16>,
    /// The value after the run, if the run allows it.
    right: Option<u16>,
    /// The value before the run is not the end of a longer run.
    left_alone: bool,
    /// The cell after `right` allows `right` too.
    right_goes_on: bool,
}

/// WDL: the left neighbour's value, so that runs grow rightwards the same
/// way throughout the table and their patterns repeat for the pair
/// compression; the right one where the left stands alone and the right
/// one goes on. The official generator fills its WDL files by this rule:
/// with it our compressor makes exactly the official KQvKQ and KRvKR
/// subtables (with the smaller neighbour instead, 8-9% more).
pub fn resolve(cells: &mut [u16]) {
    fill_runs(cells, |r| match (r.left, r.right) {
        (Some(_), Some(v)) if r.left_alone && r.right_goes_on => Some(v),
        (Some(l), _) => Some(l),
        (None, right) => right,
    })
}

/// DTZ, whose symbols are numbered by frequency: the smaller (commoner)
/// of the neighbours' values. On the official 3-4 piece DTZ streams this
/// beats [`resolve`] by 1% and the official generator's own rule (short
/// runs so, long runs the commonest pair) by 0.2%.
pub fn resolve_commoner(cells: &mut [u16]) {
    fill_runs(cells, |r| match (r.left, r.right) {
        (Some(l), Some(v)) => Some(l.min(v)),
        (left, right) => left.or(right),
    })
}

/// Fills every run of ceiling cells with the value `pick` chooses, or
/// the most frequent allowed value.
fn fill_runs(cells: &mut [u16], pick: fn(&Run) -> Option<u16>) {
    let mut freq = vec![0u64; 1];
    for &c in cells.iter() {
        if c & AT_MOST == 0 {
            let v = usize::from(c);
            if v >= freq.len() {
                freq.resize(v + 1, 0);
            }
            freq[v] += 1;
        }
    }
    // Most frequent value at most v, for every v that values reach.
    let mut best_upto = Vec::with_capacity(freq.len());
    let mut best = 0u16;
    for (v, &f) in freq.iter().enumerate() {
        if f > freq[usize::from(best)] {
            best = v as u16;
        }
        best_upto.push(best);
    }
    let fallback = |ceiling: u16| best_upto[usize::from(ceiling).min(best_upto.len() - 1)];
    let mut i = 0;
    while i < cells.len() {
        if cells[i] & AT_MOST == 0 {
            i += 1;
            continue;
        }
        let mut end = i;
        let mut ceiling = !AT_MOST;
        while end < cells.len() && cells[end] & AT_MOST != 0 {
            ceiling = ceiling.min(cells[end] & !AT_MOST);
            end += 1;
        }
        let right = cells.get(end).copied().filter(|&r| r <= ceiling);
        let run = Run {
            left: i.checked_sub(1).map(|l| cells[l]).filter(|&l| l <= ceiling),
            right,
            left_alone: i < 2 || cells[i - 2] != cells[i - 1],
            right_goes_on: right.is_some_and(|r| cells.get(end + 1).is_some_and(|&c| allows(c, r))),
        };
        let v = pick(&run).unwrap_or_else(|| fallback(ceiling));
        cells[i..end].fill(v);
        i = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_take_an_allowed_neighbour() {
        let mut c = [ANY, 3, ANY, at_most(1), 1, at_most(4), 4, at_most(2), 3];
        resolve(&mut c);
        assert_eq!(c, [3, 3, 1, 1, 1, 1, 4, 1, 3]);
    }

    #[test]
    fn a_lone_left_value_yields_to_a_right_run() {
        let mut c = [2, 0, ANY, ANY, 2, ANY, 0, 0, ANY, 2, 2];
        resolve(&mut c);
        assert_eq!(c, [2, 0, 2, 2, 2, 2, 0, 0, 0, 2, 2]);
    }

    #[test]
    fn runs_join_the_commoner_symbol() {
        let mut c = [ANY, 3, ANY, ANY, 1, ANY, 4, 2, ANY, ANY];
        resolve_commoner(&mut c);
        assert_eq!(c, [3, 3, 1, 1, 1, 1, 4, 2, 2, 2]);
    }
}
