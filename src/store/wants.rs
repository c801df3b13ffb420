//! What a probe found missing, and the coalesced fetches that supply it.

use std::collections::BTreeSet;

use super::FileId;

/// Missing inputs named by one probe attempt.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Wants {
    /// Files never opened: their existence, size and head are unknown.
    pub opens: BTreeSet<FileId>,
    /// Missing pages of opened files.
    pub pages: BTreeSet<(FileId, u64)>,
}

/// One range request: bytes `[start, end)` of a file. `open` means the
/// file's size is still unknown (the driver learns it from this response).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetch {
    pub file: FileId,
    pub start: u64,
    pub end: u64,
    pub open: bool,
}

impl Wants {
    pub fn is_empty(&self) -> bool {
        self.opens.is_empty() && self.pages.is_empty()
    }

    pub fn merge(&mut self, other: Wants) {
        self.opens.extend(other.opens);
        self.pages.extend(other.pages);
    }

    /// Adjacent pages of a file become one request; a file being opened gets
    /// one request for its head of `head_bytes` instead.
    pub fn fetches(&self, page_log2: u32, head_bytes: u64) -> Vec<Fetch> {
        let mut out: Vec<Fetch> = self
            .opens
            .iter()
            .map(|&file| Fetch {
                file,
                start: 0,
                end: head_bytes,
                open: true,
            })
            .collect();
        for &(file, page) in &self.pages {
            if self.opens.contains(&file) {
                continue;
            }
            let start = page << page_log2;
            let end = start + (1 << page_log2);
            match out.last_mut() {
                Some(last) if !last.open && last.file == file && last.end == start => {
                    last.end = end
                }
                _ => out.push(Fetch {
                    file,
                    start,
                    end,
                    open: false,
                }),
            }
        }
        out
    }
}
