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
    /// What the probe may need once what it needs has arrived (the DTZ of
    /// a position whose WDL is still unknown, the data block a block-length
    /// scan is likely to end in): fetched only where it rides along in a
    /// wave of requests the round makes anyway.
    pub maybe: Maybe,
}

/// Speculative inputs (see [`Wants::maybe`]), in the order they were
/// named: a search names what is nearer its root first.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Maybe {
    named: BTreeSet<(FileId, Option<u64>)>,
    order: Vec<(FileId, Option<u64>)>,
}

impl Maybe {
    /// A file to open (`None`) or a page of an opened one.
    pub fn insert(&mut self, file: FileId, page: Option<u64>) {
        if self.named.insert((file, page)) {
            self.order.push((file, page));
        }
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// As needed inputs: opens and pages.
    pub fn into_needed(self) -> (BTreeSet<FileId>, BTreeSet<(FileId, u64)>) {
        let mut opens = BTreeSet::new();
        let mut pages = BTreeSet::new();
        for (f, p) in self.order {
            match p {
                None => opens.insert(f),
                Some(p) => pages.insert((f, p)),
            };
        }
        (opens, pages)
    }
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
    /// Nothing needed (speculative inputs aside).
    pub fn is_empty(&self) -> bool {
        self.opens.is_empty() && self.pages.is_empty()
    }

    /// Whether the needed inputs (not the speculative ones) include what
    /// `f` was to bring, with pages of `1 << page_log2` bytes.
    pub fn needs(&self, f: &Fetch, page_log2: u32) -> bool {
        if f.open {
            return self.opens.contains(&f.file);
        }
        self.pages.iter().any(|&(file, p)| {
            let start = p.saturating_mul(1 << page_log2);
            file == f.file && start < f.end && f.start < start.saturating_add(1 << page_log2)
        })
    }

    pub fn merge(&mut self, other: Wants) {
        self.opens.extend(other.opens);
        self.pages.extend(other.pages);
        for (f, p) in other.maybe.order {
            self.maybe.insert(f, p);
        }
    }

    /// Speculative inputs not already needed, in units worth taking or
    /// leaving whole (an open; a run of adjacent pages named together), in
    /// the order they were named.
    pub fn speculative(&self) -> Vec<Wants> {
        let mut out: Vec<Wants> = Vec::new();
        let mut last: Option<(FileId, u64)> = None;
        for &(file, page) in &self.maybe.order {
            if self.opens.contains(&file) {
                continue;
            }
            let Some(page) = page else {
                out.push(Wants {
                    opens: BTreeSet::from([file]),
                    ..Wants::default()
                });
                last = None;
                continue;
            };
            if self.pages.contains(&(file, page)) || self.maybe.named.contains(&(file, None)) {
                continue;
            }
            match (last, out.last_mut()) {
                (Some((f, p)), Some(unit)) if f == file && p + 1 == page => {
                    unit.pages.insert((file, page));
                }
                _ => out.push(Wants {
                    pages: BTreeSet::from([(file, page)]),
                    ..Wants::default()
                }),
            }
            last = Some((file, page));
        }
        out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speculative_units_keep_their_order_and_skip_what_is_needed() {
        let mut w = Wants::default();
        w.pages.insert((1, 7));
        w.opens.insert(4);
        for (f, p) in [
            (2, Some(9)),
            (2, Some(10)),
            (3, None),
            (1, Some(7)),
            (1, Some(8)),
        ] {
            w.maybe.insert(f, p);
        }
        w.maybe.insert(4, None);
        w.maybe.insert(2, Some(9));
        let units = w.speculative();
        let pages: Vec<Vec<(FileId, u64)>> = units
            .iter()
            .map(|u| u.pages.iter().copied().collect())
            .collect();
        let opens: Vec<Vec<FileId>> = units
            .iter()
            .map(|u| u.opens.iter().copied().collect())
            .collect();
        // File 2's run first, then the open of 3; page 7 of file 1 and the
        // open of 4 are needed already.
        assert_eq!(pages, vec![vec![(2, 9), (2, 10)], vec![], vec![(1, 8)]]);
        assert_eq!(opens, vec![vec![], vec![3], vec![]]);
    }
}
