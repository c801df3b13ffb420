//! The per-subtable compression header: canonical-Huffman code lengths and
//! the pair grammar that expands each symbol into a run of values.

use super::cursor::Cursor;
use super::FormatError;

const SINGLE_VALUE: u8 = 0x80;
/// Symbols are 12-bit numbers.
const MAX_SYMBOLS: usize = 4096;
/// The decoder reads 64 bits from any bit (at least 57 of them the
/// stream's), so no code may be longer than 32 bits.
const MAX_CODE_LEN: u8 = 32;
/// Bits of a code's prefix that [`Huffman::starts`] is indexed by.
pub const START_BITS: u32 = 10;

/// A decoded compression header and where its three regions sit in the file.
#[derive(Debug, Clone)]
pub struct Pairs {
    /// Raw flag byte (for DTZ it also carries the DTZ flags).
    pub flags: u8,
    pub body: Body,
}

#[derive(Debug, Clone)]
pub enum Body {
    /// Every position of the subtable has this value.
    Single(u16),
    Huffman(Huffman),
}

#[derive(Debug, Clone)]
pub struct Huffman {
    /// log2 of the block size in bytes.
    pub block_log2: u8,
    /// log2 of the number of values between sparse-index entries.
    pub span_log2: u8,
    /// Data blocks actually stored.
    pub real_blocks: u32,
    /// Entries in the block-length table (may exceed `real_blocks`).
    pub length_entries: u64,
    pub sparse_entries: u64,
    pub min_len: u8,
    /// Left-aligned smallest code of each length, from `min_len` up.
    pub base: Vec<u64>,
    /// Per value of a code's first [`START_BITS`] bits: the index into
    /// `base` where the length search may start (every smaller index is
    /// above any code with that prefix). Codes are mostly 8 to 14 bits
    /// long, so the search mostly starts at the answer or next to it. An
    /// empty table means start at 0.
    pub starts: Vec<u8>,
    /// First symbol of each code length, from `min_len` up.
    pub first_symbol: Vec<u16>,
    /// Per symbol: left child, right child (0xfff right child = leaf).
    pub grammar: Vec<(u16, u16)>,
    /// Per symbol: number of values it expands to, minus one.
    pub run: Vec<u32>,
    /// Filled in by the header once the region layout is known.
    pub sparse_offset: u64,
    pub lengths_offset: u64,
    pub data_offset: u64,
}

impl Huffman {
    pub fn sparse_bytes(&self) -> u64 {
        self.sparse_entries * 6
    }
    pub fn lengths_bytes(&self) -> u64 {
        self.length_entries * 2
    }
    pub fn data_bytes(&self) -> u64 {
        u64::from(self.real_blocks) << self.block_log2
    }
    pub fn block_bytes(&self) -> usize {
        1usize << self.block_log2
    }
    pub fn leaf_value(&self, sym: usize) -> u16 {
        self.grammar.get(sym).map_or(0, |g| g.0)
    }
}

/// Parses one compression header for a subtable of `positions` positions.
pub fn parse(c: &mut Cursor<'_>, positions: u64, is_wdl: bool) -> Result<Pairs, FormatError> {
    let flags = c.u8()?;
    if flags & SINGLE_VALUE != 0 {
        let v = c.u8()?;
        let value = if is_wdl { u16::from(v) } else { 0 };
        return Ok(Pairs {
            flags,
            body: Body::Single(value),
        });
    }
    let block_log2 = c.u8()?;
    let span_log2 = c.u8()?;
    let extra_blocks = c.u8()?;
    let real_blocks = c.u32()?;
    let max_len = c.u8()?;
    let min_len = c.u8()?;
    if !(5..=10).contains(&block_log2) {
        return Err(FormatError::Corrupt("block size out of range"));
    }
    if !(1..=40).contains(&span_log2) {
        return Err(FormatError::Corrupt("sparse index span out of range"));
    }
    if min_len == 0 || max_len < min_len || max_len > MAX_CODE_LEN {
        return Err(FormatError::Corrupt("Huffman code lengths out of range"));
    }
    let lens = usize::from(max_len - min_len) + 1;
    let mut first_symbol = Vec::with_capacity(lens);
    for _ in 0..lens {
        first_symbol.push(c.u16()?);
    }
    let symbols = usize::from(c.u16()?);
    if symbols == 0 || symbols > MAX_SYMBOLS {
        return Err(FormatError::Corrupt("symbol count out of range"));
    }
    let raw = c.take(3 * symbols)?;
    if symbols & 1 == 1 {
        c.take(1)?;
    }
    let grammar: Vec<(u16, u16)> = raw
        .chunks_exact(3)
        .map(|w| {
            let left = u16::from(w[0]) | (u16::from(w[1] & 0x0f) << 8);
            let right = (u16::from(w[2]) << 4) | u16::from(w[1] >> 4);
            (left, right)
        })
        .collect();
    let run = runs(&grammar)?;

    // Canonical Huffman: codes of one length are consecutive; derive each
    // length's smallest code from the symbol counts, longest length first.
    let mut base = vec![0u64; lens];
    for i in (0..lens - 1).rev() {
        let count = u64::from(first_symbol[i]).wrapping_sub(u64::from(first_symbol[i + 1]));
        base[i] = base[i + 1].wrapping_add(count) / 2;
    }
    for (i, b) in base.iter_mut().enumerate() {
        let len = u32::from(min_len) + i as u32;
        *b = b.checked_shl(64 - len).unwrap_or(0);
    }

    let starts = starts(&base);
    let span = 1u64 << span_log2;
    let sparse_entries = positions.div_ceil(span);
    let length_entries = u64::from(real_blocks) + u64::from(extra_blocks);
    Ok(Pairs {
        flags,
        body: Body::Huffman(Huffman {
            block_log2,
            span_log2,
            real_blocks,
            length_entries,
            sparse_entries,
            min_len,
            base,
            starts,
            first_symbol,
            grammar,
            run,
            sparse_offset: 0,
            lengths_offset: 0,
            data_offset: 0,
        }),
    })
}

/// See [`Huffman::starts`]: the first index whose smallest code is at or
/// below the largest code with the prefix.
fn starts(base: &[u64]) -> Vec<u8> {
    let last = base.len().saturating_sub(1);
    (0..1u64 << START_BITS)
        .map(|prefix| {
            let largest = (prefix << (64 - START_BITS)) | (u64::MAX >> START_BITS);
            let i = base[..last].iter().take_while(|&&b| largest < b).count();
            i.min(usize::from(u8::MAX)) as u8
        })
        .collect()
}

/// Run length (values minus one) of every symbol, rejecting grammars that
/// refer to missing symbols or to themselves.
fn runs(grammar: &[(u16, u16)]) -> Result<Vec<u32>, FormatError> {
    const UNSEEN: u32 = u32::MAX;
    const VISITING: u32 = u32::MAX - 1;
    let mut run = vec![UNSEEN; grammar.len()];
    let mut stack: Vec<usize> = Vec::new();
    for start in 0..grammar.len() {
        if run[start] != UNSEEN {
            continue;
        }
        stack.push(start);
        while let Some(&s) = stack.last() {
            let (l, r) = grammar[s];
            if r == 0xfff {
                run[s] = 0;
                stack.pop();
                continue;
            }
            let (l, r) = (usize::from(l), usize::from(r));
            let (Some(&rl), Some(&rr)) = (run.get(l), run.get(r)) else {
                return Err(FormatError::Corrupt("pair grammar names a missing symbol"));
            };
            if rl == VISITING || rr == VISITING {
                return Err(FormatError::Corrupt("pair grammar is cyclic"));
            }
            if rl == UNSEEN {
                run[s] = VISITING;
                stack.push(l);
            } else if rr == UNSEEN {
                run[s] = VISITING;
                stack.push(r);
            } else {
                let total = rl + rr + 1;
                if total > 1 << 20 {
                    return Err(FormatError::Corrupt("pair grammar expands too far"));
                }
                run[s] = total;
                stack.pop();
            }
        }
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The length search as the decoder runs it, from index `i`.
    fn search(base: &[u64], code: u64, mut i: usize) -> usize {
        while i + 1 < base.len() && code < base[i] {
            i += 1;
        }
        i
    }

    #[test]
    fn starting_the_length_search_at_the_prefix_start_finds_the_same_length() {
        // Any base array, ordered as parsing makes them or not (a corrupt
        // header), and codes spread over every prefix.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in 1..=32usize {
            for _ in 0..20 {
                let mut base: Vec<u64> = (0..n).map(|_| next()).collect();
                if n % 2 == 0 {
                    base.sort_unstable_by(|a, b| b.cmp(a));
                }
                let starts = starts(&base);
                let edges = (0..1u64 << START_BITS).flat_map(|p| {
                    let low = p << (64 - START_BITS);
                    [low, low | (u64::MAX >> START_BITS)]
                });
                let random: Vec<u64> = (0..2000).map(|_| next()).collect();
                for code in edges.chain(random) {
                    let prefix = (code >> (64 - START_BITS)) as usize;
                    let from = usize::from(starts[prefix]);
                    assert_eq!(search(&base, code, from), search(&base, code, 0));
                }
            }
        }
    }
}
