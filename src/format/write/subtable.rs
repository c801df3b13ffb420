//! One subtable (a side to move of a leading-pawn file) compressed: values
//! numbered as leaves, paired, Huffman coded and cut into blocks.

use super::blocks::{self, Blocks};
use super::huffman::{self, Code};
use super::pairs::{self, Grammar, Symbol};

/// Pairs rarer than this do not pay for their header bytes.
const MIN_FREQ: u32 = 8;

#[derive(Debug, Clone)]
pub enum Compressed {
    /// Every position holds this value.
    Single(u16),
    Huffman(Box<Coded>),
}

#[derive(Debug, Clone)]
pub struct Coded {
    pub grammar: Grammar,
    pub code: Code,
    pub blocks: Blocks,
}

/// Leaves for the distinct values of `values` (ascending); `values` become
/// leaf numbers in place (a 6-piece subtable has over 2^30 of them).
fn leaves(values: &mut [u16]) -> Vec<u16> {
    let max = values.iter().copied().max().unwrap_or(0);
    let mut leaf_of = vec![u16::MAX; usize::from(max) + 1];
    for &v in values.iter() {
        leaf_of[usize::from(v)] = 0;
    }
    let mut leaves = Vec::new();
    for (v, l) in leaf_of.iter_mut().enumerate() {
        if *l == 0 {
            *l = leaves.len() as u16;
            leaves.push(v as u16);
        }
    }
    for v in values.iter_mut() {
        *v = leaf_of[usize::from(*v)];
    }
    leaves
}

fn frequencies(g: &Grammar) -> Vec<u64> {
    let mut freq = vec![0u64; g.symbols.len()];
    for &s in &g.stream {
        freq[usize::from(s)] += 1;
    }
    freq
}

/// Compresses resolved values (no ceilings left). `single` allows the
/// one-value form when only one value occurs.
pub fn compress(mut values: Vec<u16>, single: bool, max_block_log2: u8) -> Compressed {
    let size = values.len() as u64;
    let leaves = leaves(&mut values);
    if single && leaves.len() == 1 {
        return Compressed::Single(leaves[0]);
    }
    let mut grammar = pairs::build(values, &leaves, MIN_FREQ, pairs::MAX_SYMBOLS);
    let code = huffman::build(&frequencies(&grammar));
    let blocks = blocks::pack(&grammar, &code, size, max_block_log2);
    // The blocks hold the data now; the stream (built in the values'
    // array, 2 bytes a position) would stay with the part until the file
    // is written: 0.5 GB a leading-pawn file of KRPvKR.
    grammar.stream = Vec::new();
    Compressed::Huffman(Box::new(Coded {
        grammar,
        code,
        blocks,
    }))
}

/// Approximate compressed bytes of a sample, for comparing piece orders:
/// a small grammar, as the official generator estimates.
pub fn estimate(mut values: Vec<u16>) -> u64 {
    let leaves = leaves(&mut values);
    if leaves.len() == 1 {
        return 0;
    }
    let grammar = pairs::build(values, &leaves, 20, leaves.len() + 100);
    let freq = frequencies(&grammar);
    let code = huffman::build(&freq);
    code.bits(&freq).div_ceil(8) + 3 * grammar.symbols.len() as u64
}

/// The compression header of a subtable: `flags` first, then either the
/// single value or the block geometry, code lengths and symbol table.
pub fn header(flags: u8, c: &Compressed) -> Vec<u8> {
    let mut out = Vec::new();
    match c {
        Compressed::Single(v) => {
            out.push(flags | 0x80);
            out.push(*v as u8);
        }
        Compressed::Huffman(h) => {
            let (b, code, g) = (&h.blocks, &h.code, &h.grammar);
            out.push(flags);
            out.push(b.block_log2);
            out.push(b.span_log2);
            out.push(b.extra_blocks);
            out.extend_from_slice(&b.real_blocks.to_le_bytes());
            out.push(code.max_len);
            out.push(code.min_len);
            for &f in &code.first {
                out.extend_from_slice(&f.to_le_bytes());
            }
            out.extend_from_slice(&(g.symbols.len() as u16).to_le_bytes());
            for &s in &code.symbol {
                let (left, right) = match g.symbols[usize::from(s)] {
                    Symbol::Leaf(v) => (v, 0xfff),
                    Symbol::Pair(a, b) => {
                        (code.number[usize::from(a)], code.number[usize::from(b)])
                    }
                };
                out.push(left as u8);
                out.push(((left >> 8) as u8 & 0x0f) | ((right << 4) as u8));
                out.push((right >> 4) as u8);
            }
            if g.symbols.len() % 2 == 1 {
                out.push(0);
            }
        }
    }
    out
}
