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
    /// The data as symbols (emptied once a subtable is packed into blocks).
    pub stream: Vec<u16>,
}

/// Counts of adjacent pairs, kept up to date as pairs are replaced, with a
/// list of the pairs frequent enough to be candidates: a pass then costs a
/// sequential scan and the changed neighbourhoods, never a full recount.
struct Counts {
    stride: usize,
    count: Vec<u32>,
    min_freq: u32,
    /// Pair numbers whose count reached `min_freq` (some may have fallen back).
    hot: Vec<u32>,
    in_hot: Vec<u64>,
}

impl Counts {
    fn new(stride: usize, min_freq: u32) -> Counts {
        Counts {
            stride,
            count: vec![0; stride * stride],
            min_freq,
            hot: Vec::new(),
            in_hot: vec![0; (stride * stride).div_ceil(64)],
        }
    }

    fn add(&mut self, a: u16, b: u16) {
        let at = usize::from(a) * self.stride + usize::from(b);
        let c = &mut self.count[at];
        *c += 1;
        if *c >= self.min_freq && self.in_hot[at >> 6] & (1 << (at & 63)) == 0 {
            self.in_hot[at >> 6] |= 1 << (at & 63);
            self.hot.push(at as u32);
        }
    }

    fn remove(&mut self, a: u16, b: u16) {
        let at = usize::from(a) * self.stride + usize::from(b);
        self.count[at] = self.count[at].saturating_sub(1);
    }

    /// (count, a, b) of every pair at or above `min_freq`; the others leave
    /// the hot list.
    fn frequent(&mut self) -> Vec<(u32, u16, u16)> {
        let mut out = Vec::new();
        let (count, in_hot, stride, min) =
            (&self.count, &mut self.in_hot, self.stride, self.min_freq);
        self.hot.retain(|&at| {
            let at = at as usize;
            let c = count[at];
            if c < min {
                in_hot[at >> 6] &= !(1 << (at & 63));
                return false;
            }
            out.push((c, (at / stride) as u16, (at % stride) as u16));
            true
        });
        out
    }
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
    let stride = max_symbols.max(symbols.len());
    let mut counts = Counts::new(stride, min_freq.max(1));
    if symbols.len() < max_symbols {
        for w in data.windows(2) {
            counts.add(w[0], w[1]);
        }
    }
    // This pass's new pairs by first symbol: (second, new symbol). A
    // pass takes at most PAIRS_PER_PASS, so a list is short, where a
    // table of every pair took 32 MB a compression.
    let mut chosen_by_first: Vec<Vec<(u16, u16)>> = vec![Vec::new(); stride];
    let mut starts_chosen = vec![false; stride];
    while symbols.len() < max_symbols && data.len() > 1 {
        let n = symbols.len();
        let mut cands: Vec<(u32, u16, u16)> = counts
            .frequent()
            .into_iter()
            .filter(|&(_, a, b)| {
                let (a, b) = (usize::from(a), usize::from(b));
                runs[a] + runs[b] <= MAX_RUN && height[a].max(height[b]) < MAX_HEIGHT
            })
            .collect();
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
            chosen_by_first[usize::from(a)].push((b, s));
            starts_chosen[usize::from(a)] = true;
            symbols.push(Symbol::Pair(a, b));
            runs.push(runs[usize::from(a)] + runs[usize::from(b)]);
            height.push(height[usize::from(a)].max(height[usize::from(b)]) + 1);
        }
        let pair = |d: &[u16], i: usize| -> u16 {
            if i + 1 < d.len() && starts_chosen[usize::from(d[i])] {
                let second = d[i + 1];
                chosen_by_first[usize::from(d[i])]
                    .iter()
                    .find(|p| p.0 == second)
                    .map_or(u16::MAX, |p| p.1)
            } else {
                u16::MAX
            }
        };
        // One pass replaces pairs left to right, taking the old pairs that
        // touch a replaced symbol out of the counts; a second adds the pairs
        // around each new symbol (numbered n and up). Neither keeps a list
        // of positions: on a 6-piece subtable such lists took 8 bytes a
        // value where the data takes 2.
        let (mut out, mut i) = (0, 0);
        let mut removed = None;
        while i < data.len() {
            let p = pair(&data, i);
            if p == u16::MAX {
                data[out] = data[i];
                i += 1;
            } else {
                // data[i - 1..] still holds old symbols: out < i, or
                // out == i after copies only.
                for k in i.saturating_sub(1)..=i + 1 {
                    if k + 1 < data.len() && removed.is_none_or(|l| k > l) {
                        counts.remove(data[k], data[k + 1]);
                        removed = Some(k);
                    }
                }
                data[out] = p;
                i += 2;
            }
            out += 1;
        }
        data.truncate(out);
        // A pass may shrink the stream several times over: its memory goes
        // back as it does (a 5-piece subtable starts at 172 MB).
        if data.len() < data.capacity() / 2 {
            data.shrink_to_fit();
        }
        let new_symbol = n as u16;
        let mut added = None;
        for o in 0..data.len() {
            if data[o] < new_symbol {
                continue;
            }
            for k in o.saturating_sub(1)..=o {
                if k + 1 < data.len() && added.is_none_or(|l| k > l) {
                    counts.add(data[k], data[k + 1]);
                    added = Some(k);
                }
            }
        }
        for &(a, _) in &chosen {
            chosen_by_first[usize::from(a)].clear();
            starts_chosen[usize::from(a)] = false;
        }
    }
    Grammar {
        symbols,
        runs,
        stream: data,
    }
}
