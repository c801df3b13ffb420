//! Where earlier walks of a block's Huffman stream passed: a value's code is
//! found by walking every code before it in its block (about 50 on
//! average), so a warm probe spends most of its time there; resuming from
//! the last mark before the value cuts that to a few. Marks are facts about
//! a block's bytes, so they live as long as the file's identity does.

use crate::format::decode::{Mark, Resume};

use super::{FastMap, FileId};

/// Blocks with marks held at most; past it the set starts over (a slot
/// takes about 80 bytes, so this bounds them near 5 MiB, plus the marks of
/// long DTZ blocks past the inline ones).
const MAX_BLOCKS: usize = 1 << 16;

/// Marks held past the inline ones, in all blocks, at most; past it the set
/// starts over. Real tables' long DTZ blocks spill a few each; a hostile
/// header (1-bit codes: up to 1,024 marks a block) would otherwise hold
/// 4 KiB a block, 256 MiB over MAX_BLOCKS.
const MAX_SPILLED: usize = 1 << 22;

/// Marks held in the map's own slot, without a separate allocation: a WDL
/// block of 64 bytes has about 50 codes, 6 marks. (A vector per block cost
/// a cache miss more per lookup: warm WDL 1.02x the memory-mapped
/// reference instead of 0.89x, BENCHMARKS.md.)
const INLINE: usize = 6;

/// One block's marks, each packed as bit << 16 | values (both below
/// 65,536: blocks are at most 1 KiB and hold at most 65,536 values).
#[derive(Default)]
struct Held {
    len: u32,
    inline: [u32; INLINE],
    more: Vec<u32>,
}

impl Held {
    fn get(&self, i: usize) -> Option<Mark> {
        let packed = if i < INLINE {
            *self.inline.get(i).filter(|_| i < self.len as usize)?
        } else {
            *self.more.get(i - INLINE)?
        };
        Some(Mark {
            bit: packed >> 16,
            values: packed & 0xffff,
        })
    }

    /// How many marks have at most `lit` values before them.
    fn before(&self, lit: u64) -> usize {
        let at_most = |p: &u32| u64::from(p & 0xffff) <= lit;
        let n = (self.len as usize).min(INLINE);
        let inline = self.inline[..n].iter().take_while(|p| at_most(p)).count();
        if inline < INLINE {
            inline
        } else {
            INLINE + self.more.partition_point(at_most)
        }
    }

    fn push(&mut self, m: Mark) -> bool {
        if m.bit > 0xffff || m.values > 0xffff {
            return false;
        }
        let packed = m.bit << 16 | m.values;
        match self.inline.get_mut(self.len as usize) {
            Some(slot) => *slot = packed,
            None => self.more.push(packed),
        }
        self.len += 1;
        true
    }
}

#[derive(Default)]
pub struct Marks {
    blocks: FastMap<(FileId, u64), Held>,
    /// Marks in the blocks' `more` vectors (see MAX_SPILLED).
    spilled: usize,
}

impl Marks {
    /// The last mark of block `block` (its byte offset) at or before its
    /// `lit`-th value.
    pub fn resume(&self, file: FileId, block: u64, lit: u64) -> Resume {
        let Some(held) = self.blocks.get(&(file, block)) else {
            return Resume::default();
        };
        let known = held.len;
        let before = held.before(lit);
        match before.checked_sub(1).and_then(|i| held.get(i)) {
            Some(at) => Resume {
                at,
                index: before as u32,
                known,
            },
            None => Resume {
                known,
                ..Resume::default()
            },
        }
    }

    /// Appends marks numbered from `first` (1 for a block's first mark);
    /// marks that do not follow on from those held are ignored.
    pub fn add(&mut self, file: FileId, block: u64, first: u32, marks: &[Mark]) {
        if (!self.blocks.contains_key(&(file, block)) && self.blocks.len() >= MAX_BLOCKS)
            || self.spilled + marks.len() > MAX_SPILLED
        {
            self.clear();
        }
        let held = self.blocks.entry((file, block)).or_default();
        if u64::from(held.len) + 1 == u64::from(first) {
            let before = held.more.len();
            for &m in marks {
                if !held.push(m) {
                    break;
                }
            }
            self.spilled += held.more.len() - before;
        }
    }

    /// Forgets a file's marks (its bytes changed).
    pub fn drop_file(&mut self, file: FileId) {
        self.blocks.retain(|(f, _), _| *f != file);
        self.spilled = self.blocks.values().map(|h| h.more.len()).sum();
    }

    pub fn clear(&mut self) {
        self.blocks.clear();
        self.spilled = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spilled marks past MAX_SPILLED start the set over, as blocks do.
    #[test]
    fn spilled_marks_are_bounded() {
        let mut m = Marks::default();
        let marks: Vec<Mark> = (1..=1024)
            .map(|k| Mark {
                bit: 8 * k,
                values: k,
            })
            .collect();
        let per_block = marks.len() - INLINE;
        for block in 0..(MAX_SPILLED / per_block + 2) as u64 {
            m.add(0, block * 1024, 1, &marks);
            assert!(m.spilled <= MAX_SPILLED);
        }
        assert!(m.blocks.len() < MAX_SPILLED / per_block);
        m.drop_file(0);
        assert_eq!((m.blocks.len(), m.spilled), (0, 0));
    }

    #[test]
    fn marks_past_the_inline_ones_resume_in_order() {
        let mut m = Marks::default();
        let marks: Vec<Mark> = (1..=20)
            .map(|k| Mark {
                bit: 40 * k,
                values: 100 * k,
            })
            .collect();
        m.add(0, 64, 1, &marks[..4]);
        m.add(0, 64, 5, &marks[4..]);
        m.add(0, 64, 3, &marks[..2]); // does not follow on: ignored
        assert_eq!(
            m.resume(0, 64, 99),
            Resume {
                known: 20,
                ..Resume::default()
            }
        );
        for k in 1..=20u32 {
            for lit in [100 * k, 100 * k + 99] {
                let r = m.resume(0, 64, u64::from(lit));
                assert_eq!((r.index, r.at, r.known), (k, marks[k as usize - 1], 20));
            }
        }
        assert_eq!(m.resume(1, 64, 500), Resume::default());
    }
}
