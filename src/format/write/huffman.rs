//! Canonical Huffman codes as the format stores them: symbols numbered
//! from the longest code to the shortest, each length's codes consecutive,
//! so that a header needs only the first symbol of each length.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Readers refill a 64-bit window 32 bits at a time.
pub const MAX_LEN: u8 = 32;

#[derive(Debug, Clone)]
pub struct Code {
    /// Code length per symbol (0: symbol never coded).
    pub lengths: Vec<u8>,
    /// Symbol number in the file per symbol.
    pub number: Vec<u16>,
    /// Symbol per file number.
    pub symbol: Vec<u16>,
    pub min_len: u8,
    pub max_len: u8,
    /// Per length `min_len..=max_len`: the first file number of that length.
    pub first: Vec<u16>,
    /// Per length `0..=max_len`: the numeric code of its first symbol.
    pub base: Vec<u64>,
}

impl Code {
    /// (bits, length) of a symbol.
    pub fn code(&self, sym: u16) -> (u64, u8) {
        let s = usize::from(sym);
        let len = self.lengths[s];
        let first = self.first[usize::from(len - self.min_len)];
        (
            self.base[usize::from(len)] + u64::from(self.number[s] - first),
            len,
        )
    }

    /// Bits the data takes with this code.
    pub fn bits(&self, freq: &[u64]) -> u64 {
        freq.iter()
            .zip(&self.lengths)
            .map(|(&f, &l)| f * u64::from(l))
            .sum()
    }
}

/// Huffman code lengths of `freq`, at most [`MAX_LEN`]: when a code comes
/// out longer, the rarest frequencies are raised and the code rebuilt.
fn lengths(freq: &[u64]) -> Vec<u8> {
    let mut f: Vec<u64> = freq.to_vec();
    loop {
        let l = huffman_lengths(&f);
        if l.iter().all(|&x| x <= MAX_LEN) {
            return l;
        }
        for x in f.iter_mut().filter(|x| **x > 0) {
            *x = (*x >> 1) | 1;
        }
    }
}

fn huffman_lengths(freq: &[u64]) -> Vec<u8> {
    let n = freq.len();
    let mut lengths = vec![0u8; n];
    let used: Vec<usize> = (0..n).filter(|&i| freq[i] > 0).collect();
    if used.len() == 1 {
        lengths[used[0]] = 1;
        return lengths;
    }
    // Nodes: leaves 0..n, internal nodes after; ties by node number.
    let mut parent: Vec<usize> = vec![usize::MAX; n];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> =
        used.iter().map(|&i| Reverse((freq[i], i))).collect();
    while heap.len() > 1 {
        let Some(Reverse((fa, a))) = heap.pop() else {
            break;
        };
        let Some(Reverse((fb, b))) = heap.pop() else {
            break;
        };
        let id = parent.len();
        parent.push(usize::MAX);
        parent[a] = id;
        parent[b] = id;
        heap.push(Reverse((fa + fb, id)));
    }
    let mut depth = vec![0u8; parent.len()];
    for node in (0..parent.len()).rev() {
        if parent[node] != usize::MAX {
            depth[node] = depth[parent[node]].saturating_add(1);
        }
    }
    for &i in &used {
        lengths[i] = depth[i];
    }
    lengths
}

/// The canonical code of symbols with frequencies `freq`.
pub fn build(freq: &[u64]) -> Code {
    let lengths = lengths(freq);
    let n = freq.len();
    // Longest codes first, then rarer first; uncoded symbols last.
    let mut order: Vec<u16> = (0..n as u16).collect();
    order.sort_by_key(|&s| {
        let s = usize::from(s);
        (Reverse(lengths[s]), freq[s], s)
    });
    let mut number = vec![0u16; n];
    for (i, &s) in order.iter().enumerate() {
        number[usize::from(s)] = i as u16;
    }
    let max_len = lengths.iter().copied().max().unwrap_or(1).max(1);
    let min_len = lengths
        .iter()
        .copied()
        .filter(|&l| l > 0)
        .min()
        .unwrap_or(1);
    let mut count = vec![0u64; usize::from(max_len) + 2];
    for &l in &lengths {
        count[usize::from(l)] += 1;
    }
    // first[l]: symbols with longer codes come before.
    let mut first_all = vec![0u16; usize::from(max_len) + 2];
    let mut base = vec![0u64; usize::from(max_len) + 2];
    for l in (1..=usize::from(max_len)).rev() {
        let longer = if l == usize::from(max_len) {
            0
        } else {
            u64::from(first_all[l + 1]) + count[l + 1]
        };
        first_all[l] = longer as u16;
        base[l] = if l == usize::from(max_len) {
            0
        } else {
            (base[l + 1] + count[l + 1]) / 2
        };
    }
    let first = (min_len..=max_len)
        .map(|l| first_all[usize::from(l)])
        .collect();
    Code {
        lengths,
        number,
        symbol: order,
        min_len,
        max_len,
        first,
        base,
    }
}
