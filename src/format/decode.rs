//! Index to value: sparse index entry, block-length scan, then the block's
//! Huffman stream and pair expansion. Reads go through [`Source`], which may
//! report a missing page; `hint` lets the walk name bytes it will probably
//! need next so that they arrive in the same round, and `resume` and
//! `add_marks` let it keep where walks of a block passed, so that the next
//! lookup in that block starts near its value.

use std::borrow::Cow;

use super::pairs::{Body, Huffman, Pairs, START_BITS};
use super::FormatError;

/// Random access to one file's bytes.
pub trait Source {
    type Error: From<FormatError>;
    /// Bytes `[offset, offset + len)`, or an error (such as a missing page).
    fn read(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, Self::Error>;
    /// Bytes likely to be read soon; a paging source may fetch them now.
    fn hint(&self, _offset: u64, _len: u64) {}
    /// Bytes that may be read soon, a guess: a paging source may fetch
    /// them now where that costs no more round trips.
    fn guess(&self, _offset: u64, _len: u64) {}
    /// Bytes `[offset, offset + len)` if already at hand, naming nothing.
    fn peek(&self, _offset: u64, _len: usize) -> Option<Cow<'_, [u8]>> {
        None
    }
    /// Where to start walking the block at byte `block` for its `lit`-th
    /// value: the last mark at or before it that an earlier walk left (see
    /// [`Self::add_marks`]). A source that keeps none starts at the block's
    /// first code.
    fn resume(&self, _block: u64, _lit: u64) -> Resume {
        Resume::default()
    }
    /// Marks a walk of the block at byte `block` passed, numbered from
    /// `first` (mark `k` sits before code `k * MARK_EVERY`): always the
    /// ones right after those [`Self::resume`] said were known.
    fn add_marks(&self, _block: u64, _first: u32, _marks: &[Mark]) {}
}

/// A walk records a mark before every this many codes. Blocks hold about
/// 100 codes (the official 4- and 5-piece tables: 98 on average), so a
/// resumed walk decodes 4 codes on average instead of about 50, for 4
/// bytes of marks per 8 codes.
pub const MARK_EVERY: u32 = 8;

/// A place in a block's code stream: the bit where a code starts and how
/// many values the codes before it hold.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mark {
    pub bit: u32,
    pub values: u32,
}

/// Where a walk starts: mark number `index` (0: the block's start), and
/// how many marks the source already holds for the block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Resume {
    pub at: Mark,
    pub index: u32,
    pub known: u32,
}

/// The stored value at `index` (a WDL class 0..=4 or a raw DTZ symbol).
pub fn value<S: Source>(pairs: &Pairs, index: u64, src: &S) -> Result<u16, S::Error> {
    let h = match &pairs.body {
        Body::Single(v) => return Ok(*v),
        Body::Huffman(h) => h,
    };
    let span_log2 = u32::from(h.span_log2);
    let entry = index >> span_log2;
    if entry >= h.sparse_entries {
        return Err(FormatError::Corrupt("index beyond the sparse index").into());
    }
    let raw = src.read(h.sparse_offset + 6 * entry, 6)?;
    let mut block = entry_block(&raw);
    let offset_in_block = i64::from(u16::from_le_bytes([raw[4], raw[5]]));
    let within = (index & ((1u64 << span_log2) - 1)) as i64 - (1i64 << (span_log2 - 1));
    let mut lit = within + offset_in_block;

    // Hints cost a look-up per page they name: give them only when a block
    // length is missing, the case they are for (not on the warm path).
    let (start_block, start_lit) = (block, lit);
    let length = |b: u64| -> Result<i64, S::Error> {
        if b >= h.length_entries {
            return Err(FormatError::Corrupt("block-length scan left the table").into());
        }
        match src.read(h.lengths_offset + 2 * b, 2) {
            Ok(r) => Ok(i64::from(u16::from_le_bytes([r[0], r[1]])) + 1),
            Err(e) => {
                hint_neighbourhood(h, entry, start_block, start_lit, src);
                Err(e)
            }
        }
    };
    // Each step moves by one block and the scan fails once it leaves the
    // block-length table, so it ends after at most `length_entries` steps
    // even with a corrupt index. How far it goes in a valid table is set by
    // the table (its sparse index span and how many values its blocks
    // hold), not by the format, so no shorter limit is imposed.
    while lit < 0 {
        if block == 0 {
            return Err(FormatError::Corrupt("block-length scan left the table").into());
        }
        block -= 1;
        lit += length(block)?;
    }
    loop {
        let len = length(block)?;
        if lit < len {
            break;
        }
        lit -= len;
        block += 1;
    }
    if block >= u64::from(h.real_blocks) {
        return Err(FormatError::Corrupt("block number beyond the data").into());
    }
    let at = h.data_offset + (block << h.block_log2);
    let bytes = src.read(at, h.block_bytes())?;
    let lit = lit as u64;
    let from = src.resume(at, lit);
    let mut marks = Vec::new();
    let v = walk(h, &bytes, lit, from, &mut marks)?;
    if !marks.is_empty() {
        src.add_marks(at, from.known + 1, &marks);
    }
    Ok(v)
}

/// When the block lengths are not yet at hand, name the window of lengths
/// the scan may walk and the data blocks it may end in. The value lies
/// between the blocks of two neighbouring sparse entries (those of `entry`
/// and the next one, or the one before where `lit` is negative): where
/// that entry is at hand and the blocks between span at most
/// [`MAX_BRACKET`] bytes, they are all named, so that the lookup needs no
/// further round once the lengths arrive. Otherwise the likeliest blocks
/// are guessed.
fn hint_neighbourhood<S: Source>(h: &Huffman, entry: u64, block: u64, lit: i64, src: &S) {
    let blocks = u64::from(h.real_blocks.max(1)) as i64;
    let positions = h.sparse_entries.saturating_mul(1u64 << h.span_log2);
    let avg = (positions / blocks as u64).clamp(1, 1 << 40) as i64;
    // Blocks hold varying numbers of values: allow twice the average
    // distance for the length scan, and centre the data guess on it.
    let delta = lit.div_euclid(avg).clamp(-256, 256);
    let last_len = h.length_entries.saturating_sub(1) as i64;
    let lo = (block as i64 + 2 * delta.min(0) - 2).clamp(0, last_len);
    let hi = (block as i64 + 2 * delta.max(0) + 2).clamp(0, last_len);
    src.hint(h.lengths_offset + 2 * lo as u64, 2 * (hi - lo + 1) as u64);
    let last_block = (blocks - 1) as u64;
    let neighbour = if lit < 0 {
        match entry.checked_sub(1) {
            Some(e) => sparse_block(h, e, src),
            None => Some(0),
        }
    } else if entry + 1 < h.sparse_entries {
        sparse_block(h, entry + 1, src)
    } else {
        Some(last_block)
    };
    if let Some(other) = neighbour {
        let (b_lo, b_hi) = (block.min(other), block.max(other).min(last_block));
        let len = (b_hi.saturating_sub(b_lo) + 1) << h.block_log2;
        if b_lo <= b_hi && len <= MAX_BRACKET {
            src.hint(h.data_offset + (b_lo << h.block_log2), len);
            return;
        }
    }
    let spread = (delta.abs() / 2 + 1).min((4096 >> h.block_log2).max(1));
    let guess = block as i64 + delta;
    let b_lo = (guess - spread).clamp(0, blocks - 1) as u64;
    let b_hi = (guess + spread).clamp(0, blocks - 1) as u64;
    src.guess(
        h.data_offset + (b_lo << h.block_log2),
        (b_hi - b_lo + 1) << h.block_log2,
    );
}

/// Most data bytes [`hint_neighbourhood`] names between two sparse
/// entries. Over the official 5-piece tables a span holds about 1-4 KiB
/// of WDL blocks and 4-17 KiB of DTZ blocks.
const MAX_BRACKET: u64 = 32 << 10;

/// The block of sparse entry `entry`, if its bytes are at hand.
fn sparse_block<S: Source>(h: &Huffman, entry: u64, src: &S) -> Option<u64> {
    Some(entry_block(&src.peek(h.sparse_offset + 6 * entry, 4)?))
}

/// The block a sparse entry's bytes (at least 4) name.
fn entry_block(raw: &[u8]) -> u64 {
    u64::from(u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]))
}

/// Decodes the `lit`-th value of a block, walking its codes from `from`
/// and pushing onto `marks` the marks numbered after `from.known`.
fn walk(
    h: &Huffman,
    block: &[u8],
    mut lit: u64,
    from: Resume,
    marks: &mut Vec<Mark>,
) -> Result<u16, FormatError> {
    let bits = |at: usize| bits_at(block, at);
    let end = block.len() * 8;
    let mut at = from.at.bit as usize;
    let before = u64::from(from.at.values);
    if before > lit {
        return Err(FormatError::Corrupt("block mark past the value"));
    }
    lit -= before;
    let mut values = before;
    let mut n = u64::from(from.index) * u64::from(MARK_EVERY);
    let every = u64::from(MARK_EVERY);
    let known = u64::from(from.known);
    let min = u32::from(h.min_len);
    // The stream from bit `at`, of which the top `have` bits (at least 33)
    // are loaded; reloaded every few codes rather than per code (a byte
    // swap is a dozen instructions in wasm).
    let mut code = bits(at);
    let mut have = 64 - (at % 8) as u32;
    let sym = loop {
        if at >= end {
            return Err(FormatError::Corrupt("block ended before the value"));
        }
        if n % every == 0 && n / every > known {
            if let (Ok(bit), Ok(values)) = (u32::try_from(at), u32::try_from(values)) {
                marks.push(Mark { bit, values });
            }
        }
        let (sym, len, run) = symbol(h, code, min)?;
        if at + len as usize > end {
            return Err(FormatError::Corrupt("a code runs past its block"));
        }
        if lit < run {
            break sym;
        }
        lit -= run;
        values += run;
        at += len as usize;
        n += 1;
        if have.saturating_sub(len) < 33 {
            code = bits(at);
            have = 64 - (at % 8) as u32;
        } else {
            code <<= len;
            have -= len;
        }
    };
    // Walk down the pair grammar to the leaf holding the value.
    let mut sym = sym;
    while h.run[sym] != 0 {
        let (left, right) = h.grammar[sym];
        let left_run = u64::from(h.run[usize::from(left)]) + 1;
        if lit < left_run {
            sym = usize::from(left);
        } else {
            lit -= left_run;
            sym = usize::from(right);
        }
    }
    Ok(h.leaf_value(sym))
}

/// The 64 bits of `block` from bit `at`, zero past the end: at least 56
/// are the stream's, and no code is longer than 32.
fn bits_at(block: &[u8], at: usize) -> u64 {
    let byte = at / 8;
    let mut w = [0u8; 8];
    match block.get(byte..byte + 8) {
        Some(b) => w.copy_from_slice(b),
        None => {
            let rest = block.get(byte..).unwrap_or(&[]);
            let n = rest.len().min(8);
            w[..n].copy_from_slice(&rest[..n]);
        }
    }
    u64::from_be_bytes(w) << (at % 8)
}

/// The symbol whose code tops `code`, the code's length in bits, and how
/// many values the symbol expands to.
fn symbol(h: &Huffman, code: u64, min: u32) -> Result<(usize, u32, u64), FormatError> {
    let prefix = (code >> (64 - START_BITS)) as usize;
    let mut i = usize::from(h.starts.get(prefix).copied().unwrap_or(0));
    while i + 1 < h.base.len() && code < h.base[i] {
        i += 1;
    }
    let len = min + i as u32;
    let (Some(&first), Some(&base)) = (h.first_symbol.get(i), h.base.get(i)) else {
        return Err(FormatError::Corrupt("Huffman code longer than any length"));
    };
    // (In u64, then checked: wasm32's usize would drop the high bits.)
    let sym = usize::try_from(u64::from(first) + ((code - base.min(code)) >> (64 - len)))
        .unwrap_or(usize::MAX);
    let Some(&run) = h.run.get(sym) else {
        return Err(FormatError::Corrupt("Huffman code names a missing symbol"));
    };
    Ok((sym, len, u64::from(run) + 1))
}

/// Every stored value of a subtable of `positions` positions, in index
/// order, from the whole file's `bytes`: `f` hears them a block at a time.
/// Checking or converting a whole table walks each block once this way,
/// where [`value`] per index would walk it once per value.
pub fn each_block(
    pairs: &Pairs,
    positions: u64,
    bytes: &[u8],
    f: &mut dyn FnMut(&[u16]),
) -> Result<(), FormatError> {
    let h = match &pairs.body {
        Body::Single(v) => {
            let run = vec![*v; positions.min(1 << 16) as usize];
            let mut left = positions;
            while left > 0 {
                let n = left.min(run.len() as u64);
                f(&run[..n as usize]);
                left -= n;
            }
            return Ok(());
        }
        Body::Huffman(h) => h,
    };
    let corrupt = FormatError::Corrupt;
    let region = |at: u64, len: u64| {
        usize::try_from(at)
            .ok()
            .zip(usize::try_from(at.saturating_add(len)).ok())
            .and_then(|(a, b)| bytes.get(a..b))
            .ok_or(corrupt("table shorter than its header says"))
    };
    let lengths = region(h.lengths_offset, h.lengths_bytes())?;
    let data = region(h.data_offset, h.data_bytes())?;
    let min = u32::from(h.min_len);
    let mut left = positions;
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for b in 0..h.real_blocks as usize {
        if left == 0 {
            break;
        }
        let count = match lengths.get(2 * b..2 * b + 2) {
            Some(l) => u64::from(u16::from_le_bytes([l[0], l[1]])) + 1,
            None => return Err(corrupt("block-length table shorter than the data")),
        };
        let block = data
            .get(b << h.block_log2..(b + 1) << h.block_log2)
            .ok_or(corrupt("block beyond the data"))?;
        out.clear();
        let mut at = 0usize;
        while (out.len() as u64) < count {
            if at >= block.len() * 8 {
                return Err(corrupt("block ended before its values"));
            }
            let (sym, len, _) = symbol(h, bits_at(block, at), min)?;
            at += len as usize;
            if at > block.len() * 8 {
                return Err(corrupt("a code runs past its block"));
            }
            // Expand the symbol's pair grammar, left child first. The last
            // symbol may run past the block's count: expand only that far.
            stack.clear();
            stack.push(sym);
            while let Some(s) = stack.pop() {
                if out.len() as u64 == count {
                    break;
                }
                match h.run.get(s) {
                    Some(0) => out.push(h.leaf_value(s)),
                    Some(_) => {
                        let (l, r) = h.grammar.get(s).copied().unwrap_or_default();
                        stack.push(usize::from(r));
                        stack.push(usize::from(l));
                    }
                    None => return Err(corrupt("pair grammar names a missing symbol")),
                }
            }
        }
        let count = count.min(left);
        f(&out[..count as usize]);
        left -= count;
    }
    if left > 0 {
        return Err(corrupt("blocks hold fewer values than the table"));
    }
    Ok(())
}
