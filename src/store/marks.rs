//! Where earlier walks of a block's Huffman stream passed: a value's code is
//! found by walking every code before it in its block (about 50 on
//! average), so a warm probe spends most of its time there; resuming from
//! the last mark before the value cuts that to a few. Marks are facts about
//! a block's bytes, so they live as long as the file's identity does.

use crate::format::decode::{Mark, Resume};

use super::{FastMap, FileId};

/// Blocks with marks held at most; past it the set starts over (a block's
/// marks take about 100 bytes, so this bounds them near 7 MiB).
const MAX_BLOCKS: usize = 1 << 16;

#[derive(Default)]
pub struct Marks {
    blocks: FastMap<(FileId, u64), Vec<Mark>>,
}

impl Marks {
    /// The last mark of block `block` (its byte offset) at or before its
    /// `lit`-th value.
    pub fn resume(&self, file: FileId, block: u64, lit: u64) -> Resume {
        let Some(marks) = self.blocks.get(&(file, block)) else {
            return Resume::default();
        };
        let known = marks.len() as u32;
        let before = marks.partition_point(|m| u64::from(m.values) <= lit);
        match before.checked_sub(1).and_then(|i| marks.get(i)) {
            Some(&at) => Resume {
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
        if !self.blocks.contains_key(&(file, block)) && self.blocks.len() >= MAX_BLOCKS {
            self.blocks.clear();
        }
        let held = self.blocks.entry((file, block)).or_default();
        if held.len() as u64 + 1 == u64::from(first) {
            held.extend_from_slice(marks);
        }
    }

    /// Forgets a file's marks (its bytes changed).
    pub fn drop_file(&mut self, file: FileId) {
        self.blocks.retain(|(f, _), _| *f != file);
    }

    pub fn clear(&mut self) {
        self.blocks.clear();
    }
}
