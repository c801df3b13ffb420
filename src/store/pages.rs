//! In-memory pages with an LRU byte budget. Reads stamp pages with the
//! current probe's tick through a `Cell`, so warm reads need no `&mut`;
//! eviction never removes a page stamped at or after the oldest probe still
//! running, so a probe's working set survives its own rounds.

use std::cell::Cell;
use std::sync::Arc;

use super::{FastMap, FileId};

struct Page {
    bytes: Arc<[u8]>,
    stamp: Cell<u64>,
}

/// Counters a driver can report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StoreStats {
    pub pages: usize,
    pub bytes: usize,
    pub evicted_pages: u64,
}

pub struct PageStore {
    page_log2: u32,
    budget: usize,
    pages: FastMap<(FileId, u64), Page>,
    bytes: usize,
    clock: Cell<u64>,
    /// Start ticks of probes in progress, with multiplicity: a few at most
    /// (a vector keeps its buffer, so a warm probe allocates nothing here).
    active: Vec<u64>,
    evicted: u64,
}

impl PageStore {
    /// `page_log2` is clamped to 9..=20 (512 B to 1 MiB pages).
    pub fn new(page_log2: u32, budget: usize) -> Self {
        PageStore {
            page_log2: page_log2.clamp(9, 20),
            budget,
            pages: FastMap::default(),
            bytes: 0,
            clock: Cell::new(1),
            active: Vec::new(),
            evicted: 0,
        }
    }

    pub fn page_size(&self) -> u64 {
        1 << self.page_log2
    }

    pub fn page_log2(&self) -> u32 {
        self.page_log2
    }

    pub fn stats(&self) -> StoreStats {
        StoreStats {
            pages: self.pages.len(),
            bytes: self.bytes,
            evicted_pages: self.evicted,
        }
    }

    /// Marks the start of a probe; its pages stay until [`Self::end_probe`].
    pub fn begin_probe(&mut self) -> u64 {
        let t = self.clock.get() + 1;
        self.clock.set(t);
        self.active.push(t);
        t
    }

    pub fn end_probe(&mut self, tick: u64) {
        if let Some(i) = self.active.iter().position(|&t| t == tick) {
            self.active.swap_remove(i);
        }
        self.evict();
    }

    pub fn contains(&self, file: FileId, page: u64) -> bool {
        self.pages.contains_key(&(file, page))
    }

    /// The page's bytes (shorter than a page only at the end of the file).
    pub fn get(&self, file: FileId, page: u64) -> Option<&[u8]> {
        let p = self.pages.get(&(file, page))?;
        p.stamp.set(self.clock.get());
        Some(&p.bytes)
    }

    /// Inserts a page; `bytes` must be the page's full extent (clipped at the end of file).
    pub fn insert(&mut self, file: FileId, page: u64, bytes: Arc<[u8]>) {
        let len = bytes.len();
        let stamp = Cell::new(self.clock.get());
        if let Some(old) = self.pages.insert((file, page), Page { bytes, stamp }) {
            self.bytes -= old.bytes.len();
        }
        self.bytes += len;
        self.evict();
    }

    /// Drops every page of a file (its identity changed or it proved corrupt).
    pub fn drop_file(&mut self, file: FileId) {
        let before = self.pages.len();
        let mut freed = 0;
        self.pages.retain(|(f, _), p| {
            let keep = *f != file;
            if !keep {
                freed += p.bytes.len();
            }
            keep
        });
        self.bytes -= freed;
        self.evicted += (before - self.pages.len()) as u64;
    }

    pub fn clear(&mut self) {
        self.pages.clear();
        self.bytes = 0;
    }

    /// Evicts least recently used unpinned pages down to 7/8 of the budget,
    /// so that eviction work is amortised over many inserts.
    fn evict(&mut self) {
        if self.bytes <= self.budget {
            return;
        }
        let pinned_from = self.active.iter().copied().min().unwrap_or(u64::MAX);
        let mut victims: Vec<(u64, (FileId, u64))> = self
            .pages
            .iter()
            .filter(|(_, p)| p.stamp.get() < pinned_from)
            .map(|(k, p)| (p.stamp.get(), *k))
            .collect();
        victims.sort_unstable();
        let target = self.budget - self.budget / 8;
        for (_, key) in victims {
            if self.bytes <= target {
                break;
            }
            if let Some(p) = self.pages.remove(&key) {
                self.bytes -= p.bytes.len();
                self.evicted += 1;
            }
        }
    }
}
