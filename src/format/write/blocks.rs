//! Fixed-size blocks of Huffman codes, the table of values per block, and
//! the sparse index that names the block holding every `span`-th value.

use super::huffman::Code;
use super::pairs::Grammar;

/// A block holds at most this many values (its length is stored in a u16).
const MAX_BLOCK_VALUES: u32 = 65536;

#[derive(Debug, Clone)]
pub struct Blocks {
    pub block_log2: u8,
    pub span_log2: u8,
    /// Blocks with data.
    pub real_blocks: u32,
    /// Block-length entries past the data, so that the last sparse entry
    /// names a block.
    pub extra_blocks: u8,
    /// Values per block minus one, padding entries included.
    pub lengths: Vec<u16>,
    /// Six bytes per entry: block (u32), offset in it (u16).
    pub sparse: Vec<u8>,
    pub data: Vec<u8>,
}

impl Blocks {
    /// Bytes in the file, data padded to 64.
    pub fn size(&self) -> u64 {
        self.sparse.len() as u64
            + 2 * self.lengths.len() as u64
            + (self.data.len() as u64).div_ceil(64) * 64
    }
}

/// Values per block when the stream is cut into blocks of `2^log2` bytes.
fn cut(g: &Grammar, code: &Code, log2: u8) -> Vec<u32> {
    let max_bits = 8u64 << log2;
    let mut out = Vec::new();
    let (mut bits, mut values) = (0u64, 0u32);
    for &s in &g.stream {
        let len = u64::from(code.lengths[usize::from(s)]);
        let run = g.runs[usize::from(s)];
        if bits + len > max_bits || values + run > MAX_BLOCK_VALUES {
            out.push(values);
            bits = 0;
            values = 0;
        }
        bits += len;
        values += run;
    }
    if values > 0 {
        out.push(values);
    }
    out
}

/// log2 of the sparse-index span: about sixteen blocks' worth of values.
fn span_log2(size: u64, blocks: u64) -> u8 {
    let avg = size / blocks.max(1);
    let mut log2 = (64 - avg.leading_zeros()) as u8 + 4;
    while log2 > 1 && (1u64 << (log2 - 1)) > size {
        log2 -= 1;
    }
    log2
}

/// The bytes a choice of block size costs: data, lengths, sparse index.
fn cost(per_block: &[u32], size: u64, log2: u8) -> u64 {
    let blocks = per_block.len() as u64;
    let span = span_log2(size, blocks);
    let entries = size.div_ceil(1 << span);
    ((blocks << log2).div_ceil(64) * 64) + 2 * (blocks + 2) + 6 * entries
}

/// Packs the stream into blocks of the size (between `2^5` and
/// `2^max_log2` bytes) that makes the file smallest.
pub fn pack(g: &Grammar, code: &Code, size: u64, max_log2: u8) -> Blocks {
    let top = max_log2.max(5);
    let first = cut(g, code, top);
    let mut best = (cost(&first, size, top), top, first);
    for log2 in (5..top).rev() {
        let per_block = cut(g, code, log2);
        let c = cost(&per_block, size, log2);
        if c < best.0 {
            best = (c, log2, per_block);
        }
    }
    let (_, log2, per_block) = best;
    let data = write_blocks(g, code, log2, per_block.len());
    let span = span_log2(size, per_block.len() as u64);
    let (lengths, sparse, extra) = index(&per_block, size, span);
    Blocks {
        block_log2: log2,
        span_log2: span,
        real_blocks: per_block.len() as u32,
        extra_blocks: extra,
        lengths,
        sparse,
        data,
    }
}

/// Block lengths and sparse index: entry `i` names the block holding value
/// `i * span + span / 2` and that value's offset in it.
fn index(per_block: &[u32], size: u64, span_log2: u8) -> (Vec<u16>, Vec<u8>, u8) {
    let mut lengths: Vec<u16> = per_block.iter().map(|&v| (v - 1) as u16).collect();
    let span = 1u64 << span_log2;
    let entries = size.div_ceil(span);
    let mut sparse = Vec::with_capacity(6 * entries as usize);
    let (mut block, mut start) = (0usize, 0u64);
    for i in 0..entries {
        let mid = i * span + span / 2;
        loop {
            if block == lengths.len() {
                lengths.push(u16::MAX);
            }
            let len = u64::from(lengths[block]) + 1;
            if mid < start + len {
                break;
            }
            start += len;
            block += 1;
        }
        sparse.extend_from_slice(&(block as u32).to_le_bytes());
        sparse.extend_from_slice(&((mid - start) as u16).to_le_bytes());
    }
    let extra = (lengths.len() - per_block.len()) as u8;
    (lengths, sparse, extra)
}

/// The Huffman codes of the stream, MSB first, each of its `blocks`
/// zero-padded (reserved at once: grown by doubling, a subtable's data
/// kept up to twice its size until the file was written).
fn write_blocks(g: &Grammar, code: &Code, log2: u8, blocks: usize) -> Vec<u8> {
    let block_bytes = 1usize << log2;
    let max_bits = 8u64 << log2;
    let mut out: Vec<u8> = Vec::with_capacity(blocks * block_bytes);
    let mut acc = 0u64; // pending bits, left-aligned count in `pending`
    let mut pending = 0u32;
    let mut block_start = 0usize;
    let (mut bits, mut values) = (0u64, 0u32);
    let flush_block = |out: &mut Vec<u8>, acc: &mut u64, pending: &mut u32, start: &mut usize| {
        while *pending > 0 {
            out.push((*acc >> 56) as u8);
            *acc <<= 8;
            *pending = pending.saturating_sub(8);
        }
        out.resize(*start + block_bytes, 0);
        *start = out.len();
    };
    for &s in &g.stream {
        let (c, len) = code.code(s);
        let run = g.runs[usize::from(s)];
        if bits + u64::from(len) > max_bits || values + run > MAX_BLOCK_VALUES {
            flush_block(&mut out, &mut acc, &mut pending, &mut block_start);
            bits = 0;
            values = 0;
        }
        // Append `len` bits of `c` to the accumulator.
        let len32 = u32::from(len);
        if pending + len32 > 64 {
            while pending >= 8 {
                out.push((acc >> 56) as u8);
                acc <<= 8;
                pending -= 8;
            }
        }
        acc |= (c << (64 - len32)) >> pending;
        pending += len32;
        while pending >= 8 {
            out.push((acc >> 56) as u8);
            acc <<= 8;
            pending -= 8;
        }
        bits += u64::from(len);
        values += run;
    }
    if values > 0 {
        flush_block(&mut out, &mut acc, &mut pending, &mut block_start);
    }
    out
}
