//! Don't-care values: positions whose stored value the prober never uses
//! as it is (a capture already decides them, or they cannot occur) may hold
//! any value up to a ceiling. Each takes a value that joins a run: the
//! smaller of its neighbours' values where both are allowed (the right one
//! only across a short gap), else the allowed one, else the most common
//! allowed value.

/// A cell that allows any value up to and including `v`.
pub const fn at_most(v: u16) -> u16 {
    AT_MOST | v
}
/// Flag of a ceiling cell; other cells hold their exact value.
pub const AT_MOST: u16 = 0x8000;
/// A cell that allows anything.
pub const ANY: u16 = 0xffff;

/// Gaps shorter than this may take their right neighbour's value.
const SHORT: usize = 32;

/// Replaces every ceiling cell by an allowed exact value.
pub fn resolve(cells: &mut [u16]) {
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
    let fallback = |ceiling: u16| -> u16 {
        let c = usize::from(ceiling & !AT_MOST);
        best_upto[c.min(best_upto.len() - 1)]
    };
    let mut prev: Option<u16> = None;
    let mut next_exact: Option<u16> = None;
    let mut next_at = 0usize;
    for i in 0..cells.len() {
        let c = cells[i];
        if c & AT_MOST == 0 {
            prev = Some(c);
            continue;
        }
        let ceiling = c & !AT_MOST;
        if next_at <= i {
            next_at = i + 1;
            while next_at < cells.len() && cells[next_at] & AT_MOST != 0 {
                next_at += 1;
            }
            next_exact = cells.get(next_at).copied();
        }
        // Both neighbours allowed: the smaller value (the more frequent
        // symbol where values are numbered by frequency), so that short
        // gaps join the commoner run.
        let left = prev.filter(|&p| p <= ceiling);
        let right = next_exact.filter(|&n| n <= ceiling && next_at - i < SHORT);
        let v = match (left, right) {
            (Some(l), Some(r)) => l.min(r),
            (Some(l), None) => l,
            (None, Some(r)) => r,
            (None, None) => match next_exact {
                Some(n) if n <= ceiling => n,
                _ => fallback(c),
            },
        };
        cells[i] = v;
        prev = Some(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_the_smaller_neighbour_within_ceilings() {
        let mut c = [ANY, 3, ANY, at_most(1), 1, at_most(4), 4, at_most(2), 3];
        resolve(&mut c);
        assert_eq!(c, [3, 3, 1, 1, 1, 1, 4, 1, 3]);
    }
}
