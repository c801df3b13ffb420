//! Pair compression (Re-Pair): the most frequent adjacent pair of symbols
//! becomes a new symbol, again and again, so that long runs and repeated
//! patterns of values shrink to a few symbols before Huffman coding.

/// Symbols are 12-bit numbers and 0xfff marks a leaf: at most 4095.
pub const MAX_SYMBOLS: usize = 4095;
/// A symbol expands to at most 256 values (readers keep the run in a byte).
const MAX_RUN: u32 = 256;
/// Readers walk the grammar recursively with a bounded depth.
const MAX_HEIGHT: u8 = 15;
/// New pairs per pass over the data: fewer passes, slightly less greedy.
const PAIRS_PER_PASS: usize = 250;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symbol {
    Leaf(u16),
    Pair(u16, u16),
}

#[derive(Debug, Clone)]
pub struct Grammar {
    pub symbols: Vec<Symbol>,
    /// Values each symbol expands to.
    pub runs: Vec<u32>,
    /// The data as symbols.
    pub stream: Vec<u16>,
}

/// Builds the grammar of `data` (leaf numbers `0..leaves.len()`, whose
/// values `leaves` gives). Pairs rarer than `min_freq` are not worth their
/// three header bytes; `max_symbols` bounds the grammar (estimates use a
/// small one).
pub fn build(mut data: Vec<u16>, leaves: &[u16], min_freq: u32, max_symbols: usize) -> Grammar {
    let mut symbols: Vec<Symbol> = leaves.iter().map(|&v| Symbol::Leaf(v)).collect();
    let mut runs = vec![1u32; symbols.len()];
    let mut height = vec![0u8; symbols.len()];
    let max_symbols = max_symbols.min(MAX_SYMBOLS);
    // Pair counts by a * n + b (n symbols so far), sized for the largest
    // grammar once; only the pairs that occur are visited and cleared, so a
    // pass costs the data's length, not the square of the alphabet.
    let mut counts: Vec<u32> = vec![0; max_symbols * max_symbols];
    let mut seen: Vec<u32> = Vec::new();
    let mut pair_of: Vec<u16> = vec![u16::MAX; max_symbols * max_symbols];
    while symbols.len() < max_symbols && data.len() > 1 {
        let n = symbols.len();
        seen.clear();
        for w in data.windows(2) {
            let at = usize::from(w[0]) * n + usize::from(w[1]);
            let c = &mut counts[at];
            if *c == 0 {
                seen.push(at as u32);
            }
            *c = c.saturating_add(1);
        }
        let mut cands: Vec<(u32, u16, u16)> = Vec::new();
        for &at in &seen {
            let at = at as usize;
            let c = std::mem::take(&mut counts[at]);
            let (a, b) = (at / n, at % n);
            if c >= min_freq
                && runs[a] + runs[b] <= MAX_RUN
                && height[a].max(height[b]) < MAX_HEIGHT
            {
                cands.push((c, a as u16, b as u16));
            }
        }
        if cands.is_empty() {
            break;
        }
        // Most frequent first; ties by symbol numbers, so output is deterministic.
        cands.sort_unstable_by(|x, y| y.0.cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
        // A pair is taken only if it cannot overlap a more frequent one:
        // its first symbol ends no taken pair and its second starts none.
        let budget = (max_symbols - n).min(PAIRS_PER_PASS);
        let mut ends = vec![false; n];
        let mut starts = vec![false; n];
        let mut chosen = Vec::new();
        for &(_, a, b) in &cands {
            if chosen.len() == budget {
                break;
            }
            let (ua, ub) = (usize::from(a), usize::from(b));
            if !ends[ua] && !starts[ub] {
                chosen.push((a, b));
            }
            ends[ub] = true;
            starts[ua] = true;
        }
        for &(a, b) in &chosen {
            let s = symbols.len() as u16;
            pair_of[usize::from(a) * n + usize::from(b)] = s;
            symbols.push(Symbol::Pair(a, b));
            runs.push(runs[usize::from(a)] + runs[usize::from(b)]);
            height.push(height[usize::from(a)].max(height[usize::from(b)]) + 1);
        }
        let mut out = 0;
        let mut i = 0;
        while i < data.len() {
            let s = if i + 1 < data.len() {
                pair_of[usize::from(data[i]) * n + usize::from(data[i + 1])]
            } else {
                u16::MAX
            };
            if s != u16::MAX {
                data[out] = s;
                i += 2;
            } else {
                data[out] = data[i];
                i += 1;
            }
            out += 1;
        }
        data.truncate(out);
        for &(a, b) in &chosen {
            pair_of[usize::from(a) * n + usize::from(b)] = u16::MAX;
        }
    }
    Grammar {
        symbols,
        runs,
        stream: data,
    }
}
