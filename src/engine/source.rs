//! Reading through the page store during an attempt: headers are parsed
//! from the file's prefix once it is present, other reads come page by page.

use std::borrow::Cow;
use std::cell::Cell;
use std::sync::Arc;

use super::files::State;
use super::Ctx;
use super::ReadSpan;
use crate::error::ProbeError;
use crate::format::decode::{Mark, Resume, Source};
use crate::format::header::{self, Header, Shape};
use crate::format::{FormatError, Kind};
use crate::store::{FileId, PageStore};

/// Hints never ask for more than this many pages at once.
const MAX_HINT_PAGES: u64 = 8;

/// Bytes to fetch when opening a file: the longest header its material
/// can have, so that the header arrives in one round, except for tables of
/// up to 4 pieces, whose headers stay far below that bound (the longest of
/// the official 3-4 piece set is 19 KiB, of a bound of 97 KiB): for them
/// [`SMALL_HEAD`], and a longer header costs one round more; with `sparse`
/// (a fast link) [`SMALL_HEAD_FAST`], most of such a file. Larger tables
/// get at least [`LARGE_HEAD`]: past a 12-25 KiB header (pawnless 5-piece
/// tables) it brings the start of the sparse index and block lengths,
/// which the first lookups then find at hand. With `sparse` (a fast link),
/// enough to hold the whole sparse index, which follows the header: its
/// entry is what a lookup reads first after the header; with `index`,
/// a pawnless table's block lengths too (see [`Config::index_in_head`]).
///
/// [`Config::index_in_head`]: super::Config::index_in_head
fn head_len(kind: Kind, shape: &Shape, sparse: bool, index: bool) -> u64 {
    let bound = header::max_len(kind, shape);
    if shape.pieces <= 4 {
        if sparse {
            SMALL_HEAD_FAST
        } else {
            bound.min(SMALL_HEAD)
        }
    } else if !sparse {
        bound.max(LARGE_HEAD)
    } else {
        let index = index && shape.pieces == 5;
        match (kind, shape.pawnful()) {
            (Kind::Wdl, false) if index => PAWNLESS_WDL_WITH_INDEX,
            (Kind::Dtz, false) if index => bound.max(PAWNLESS_DTZ_WITH_INDEX),
            (Kind::Wdl, false) => PAWNLESS_WDL_WITH_SPARSE,
            (Kind::Wdl, true) => bound + PAWNFUL_WDL_SPARSE,
            (Kind::Dtz, false) => bound.max(LARGE_HEAD),
            (Kind::Dtz, true) => bound + PAWNFUL_DTZ_SPARSE,
        }
    }
}

/// See [`head_len`]. Measured on the simulated network (24 positions of
/// the cold benchmark): with 16/28 KiB heads (the bound) 64 requests in
/// 15 waves at worst, 272 KiB median and 1003 KiB worst; with 32 KiB 59 in
/// 12, 272 and 1019 KiB; with 48 KiB 57 in 12, 280 and 1123 KiB.
const SMALL_HEAD: u64 = 24 << 10;
/// See [`head_len`]. Where captures reach a 4-piece table, it is often
/// read only a block or two past its header; most 3-4 piece files of
/// the official set are at most 64 KiB long (KRvKB.rtbw 32 KiB, and
/// KRvKN.rtbw's blocks read by the rook promotion of issue 12 lie within
/// 64 KiB), so one request brings header and data. On the simulated network
/// (266 positions of `tests/rounds.rs`): median 7 to 6 requests, worst 49
/// to 47, median 172 to 186 KiB; 96 and 128 KiB save no request more and
/// bring 192 and 214 KiB at the median. In Chromium over HTTP/1.1 at 100 ms
/// a request, the rook promotion's full analysis took 1.00-1.12 s (6 runs)
/// where it took 1.13-1.25 s with 24 KiB heads.
const SMALL_HEAD_FAST: u64 = 64 << 10;
/// See [`head_len`].
const LARGE_HEAD: u64 = 32 << 10;
/// Where the sparse indexes of the official 5-piece files end: at most
/// 45,666 bytes into a pawnless WDL file (KQBvKQ.rtbw; 22,938 for DTZ,
/// within [`LARGE_HEAD`]), and at most 62,832 bytes past the header bound
/// of a pawnful WDL file (KRPvKR.rtbw, KQPvKQ.rtbw), 6,730 of a pawnful
/// DTZ file (KRPvKR.rtbz). Over the 264 positions of `tests/rounds.rs`,
/// position WDLs that took 3 rounds went from 34 to 0.
const PAWNLESS_WDL_WITH_SPARSE: u64 = 48 << 10;
/// See [`PAWNLESS_WDL_WITH_SPARSE`].
const PAWNFUL_WDL_SPARSE: u64 = 64 << 10;
/// See [`PAWNLESS_WDL_WITH_SPARSE`].
const PAWNFUL_DTZ_SPARSE: u64 = 8 << 10;
/// Where the block lengths of the 18 pawnless 5-piece materials in
/// `../shared/syzygy` (official files) end: within 96 KiB for 15 WDL
/// files (KRBvKR.rtbw, 95,792 bytes; beyond it KQNvKQ, KQRvKQ and
/// KQBvKQ, 129-168 KiB), within 64 KiB for 16 DTZ files (KQRvKR.rtbz
/// 69,982 and KQRvKQ.rtbz 94,434 bytes beyond it). 6- and 7-piece
/// indexes lie far beyond. In Chromium over HTTP/1.1 at 100 ms a request
/// (24 positions of the cold benchmark, medians of 3 runs, against a run
/// of the code before in the same hour), the full analysis went from
/// 0.40 / 1.10 s (median / worst) to 0.39 / 0.98 s, the
/// rook promotion from 53 requests in 9 waves to 48 in 8, for 300 to 352
/// KiB at the median and 1221 to 1461 KiB at worst.
const PAWNLESS_WDL_WITH_INDEX: u64 = 96 << 10;
/// See [`PAWNLESS_WDL_WITH_INDEX`].
const PAWNLESS_DTZ_WITH_INDEX: u64 = 64 << 10;

impl<'e> Ctx<'e> {
    /// Counts a read (see [`super::Engine::last_reads`]) and logs its span
    /// if asked ([`super::Engine::log_reads`]).
    fn count_read(&self, file: FileId, start: u64, len: u64) {
        let (n, b) = self.reads.get();
        self.reads.set((n + 1, b + len));
        if let Some(log) = self.engine.read_log.borrow_mut().as_mut() {
            log.push(ReadSpan {
                file,
                start,
                end: start + len,
            });
        }
    }

    /// The parsed header of a table file, opening the file if needed.
    pub fn header(
        &self,
        name: &str,
        kind: Kind,
        shape: &Shape,
    ) -> Result<(FileId, Arc<Header>), ProbeError> {
        let c = &self.engine.config;
        let head = head_len(kind, shape, c.sparse_in_head, c.index_in_head);
        let id = self.engine.file_id(name, kind, head);
        let file_name = || format!("{name}.{}", kind.extension());
        if let Some(h) = self.engine.files.borrow().header(id) {
            self.count_read(id, 0, h.header_len);
            return Ok((id, h));
        }
        let state = self.engine.files.borrow().state(id);
        match state {
            State::Unknown => {
                let mut w = self.wants.borrow_mut();
                if self.speculating.get() > 0 {
                    w.maybe.insert(id, None);
                } else {
                    w.opens.insert(id);
                }
                Err(ProbeError::Missing)
            }
            State::Absent => Err(ProbeError::MissingTable(file_name())),
            State::Corrupt(what) => Err(ProbeError::CorruptTable(file_name(), what)),
            State::Open {
                header: Some(h), ..
            } => Ok((id, h)),
            State::Open {
                size,
                validator,
                header: None,
            } => {
                let prefix = self.prefix(id, size);
                let have = prefix.len() as u64;
                // What an open fetch brings: the whole header and, for
                // small tables, their indexes.
                let head = self.engine.files.borrow().head(id);
                let head = head.max(self.engine.config.head_bytes).min(size);
                match header::parse(&prefix, size, kind, shape) {
                    Ok(h) => {
                        if have < head {
                            // The head came short (a cut response, pages that
                            // arrived unasked) but holds the header: fetch the
                            // rest with whatever else this attempt misses, so
                            // that the indexes it holds cost no extra round.
                            self.want(id, have, head - have);
                        }
                        let h = Arc::new(h);
                        let state = State::Open {
                            size,
                            validator,
                            header: Some(h.clone()),
                        };
                        self.engine.files.borrow_mut().set_state(id, state);
                        Ok((id, h))
                    }
                    Err(FormatError::NeedMore(n)) if n <= size && n > have => {
                        // Ask generously: each shortfall costs a round. Ask
                        // at least for the head, so that a short or missing
                        // one costs one round.
                        let upto = n.max(4 * have).max(head).min(size);
                        self.want(id, have, upto - have);
                        Err(ProbeError::Missing)
                    }
                    Err(FormatError::NeedMore(_)) => {
                        let what = "header runs past the end of the file".to_string();
                        self.engine
                            .files
                            .borrow_mut()
                            .set_state(id, State::Corrupt(what.clone()));
                        Err(ProbeError::CorruptTable(file_name(), what))
                    }
                    Err(FormatError::Corrupt(what)) => {
                        self.engine
                            .files
                            .borrow_mut()
                            .set_state(id, State::Corrupt(what.to_string()));
                        Err(ProbeError::CorruptTable(file_name(), what.to_string()))
                    }
                }
            }
        }
    }

    /// The longest run of present pages from the start of the file.
    fn prefix(&self, id: FileId, size: u64) -> Vec<u8> {
        let store = &self.engine.store;
        let mut out = Vec::new();
        let mut page = 0;
        while (out.len() as u64) < size {
            match store.get(id, page) {
                Some(bytes) => out.extend_from_slice(bytes),
                None => break,
            }
            page += 1;
        }
        out
    }

    fn want(&self, id: FileId, offset: u64, len: u64) {
        if self.opens_only.get() > 0 {
            return;
        }
        let log2 = self.engine.store.page_log2();
        let store = &self.engine.store;
        let mut w = self.wants.borrow_mut();
        let spec = self.speculating.get() > 0;
        let last = (offset + len.max(1) - 1) >> log2;
        for page in offset >> log2..=last {
            if !store.contains(id, page) {
                if spec {
                    w.maybe.insert(id, Some(page));
                } else {
                    w.pages.insert((id, page));
                }
            }
        }
    }

    /// See [`crate::engine::Config::multiplexed`].
    pub fn multiplexed(&self) -> bool {
        self.engine.config.multiplexed
    }

    /// Whether what is read now is only maybe needed (see [`Self::speculate`]).
    pub fn speculating(&self) -> bool {
        self.speculating.get() > 0
    }

    /// Runs `f` with what it reads named as only maybe needed
    /// ([`crate::store::Wants::maybe`]): reads that would name pages for a
    /// result not known to be wanted yet.
    pub fn speculate<T>(&self, f: impl FnOnce() -> T) -> T {
        self.speculating.set(self.speculating.get() + 1);
        let out = f();
        self.speculating.set(self.speculating.get() - 1);
        out
    }

    /// As [`Self::speculate`], naming only the files `f` would open: the
    /// heads of the tables a search reaches are small and shared by many
    /// of its positions, its pages are neither.
    pub fn speculate_opens<T>(&self, f: impl FnOnce() -> T) -> T {
        self.opens_only.set(self.opens_only.get() + 1);
        let out = self.speculate(f);
        self.opens_only.set(self.opens_only.get() - 1);
        out
    }

    /// A byte source over one opened file of table `table` (e.g. `KQvK`);
    /// the names are for errors.
    pub fn source<'c>(&'c self, id: FileId, table: &'c str, kind: Kind) -> FileSource<'c, 'e> {
        let size = self.engine.files.borrow().size(id).unwrap_or(0);
        FileSource {
            ctx: self,
            id,
            size,
            table,
            kind,
            last: Cell::new(None),
        }
    }
}

/// Borrows its table's name and spells the file's only for an error:
/// sources are made per table lookup, on the warm path.
pub struct FileSource<'c, 'e> {
    ctx: &'c Ctx<'e>,
    id: FileId,
    size: u64,
    table: &'c str,
    kind: Kind,
    /// The page read last, by number: a lookup reads its block lengths
    /// two bytes at a time, mostly from one page, and a store look-up
    /// costs a hash each.
    last: Cell<Option<(u64, &'e [u8])>>,
}

impl<'e> FileSource<'_, 'e> {
    fn name(&self) -> String {
        format!("{}.{}", self.table, self.kind.extension())
    }

    /// Page `page` of the file, if present.
    fn page(&self, page: u64) -> Option<&'e [u8]> {
        if let Some((n, bytes)) = self.last.get() {
            if n == page {
                return Some(bytes);
            }
        }
        let store: &'e PageStore = &self.ctx.engine.store;
        let bytes = store.get(self.id, page)?;
        self.last.set(Some((page, bytes)));
        Some(bytes)
    }

    /// Bytes `[offset, end)` (`len` of them, at least one, within the
    /// file) from the pages held, naming nothing: borrowed from one page,
    /// copied across several.
    #[inline]
    fn held(&self, offset: u64, len: usize, end: u64) -> Result<Cow<'e, [u8]>, Gap> {
        let store = &self.ctx.engine.store;
        let log2 = store.page_log2();
        let (first, last) = (offset >> log2, (end - 1) >> log2);
        let at = (offset - (first << log2)) as usize;
        if first == last {
            return match self.page(first) {
                Some(p) if p.len() >= at + len => Ok(Cow::Borrowed(&p[at..at + len])),
                _ => Err(Gap::Missing),
            };
        }
        if (first..=last).any(|p| !store.contains(self.id, p)) {
            return Err(Gap::Missing);
        }
        let mut out = Vec::with_capacity(len);
        for p in first..=last {
            out.extend_from_slice(store.get(self.id, p).unwrap_or(&[]));
        }
        match out.get(at..at + len) {
            Some(s) => Ok(Cow::Owned(s.to_vec())),
            None => Err(Gap::Short),
        }
    }
}

/// Why [`FileSource::held`] has no bytes.
enum Gap {
    /// A page is not in the store.
    Missing,
    /// The pages held end before the range does.
    Short,
}

impl Source for FileSource<'_, '_> {
    type Error = ProbeError;

    fn read(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, ProbeError> {
        let end = offset.checked_add(len as u64).filter(|&e| e <= self.size);
        let Some(end) = end else {
            return Err(ProbeError::CorruptTable(
                self.name(),
                "read past the end of the file".into(),
            ));
        };
        if len == 0 {
            return Ok(Cow::Borrowed(&[]));
        }
        self.ctx.count_read(self.id, offset, len as u64);
        match self.held(offset, len, end) {
            Ok(bytes) => Ok(bytes),
            Err(Gap::Missing) => {
                self.ctx.want(self.id, offset, len as u64);
                Err(ProbeError::Missing)
            }
            Err(Gap::Short) => Err(ProbeError::CorruptTable(self.name(), "short page".into())),
        }
    }

    fn peek(&self, offset: u64, len: usize) -> Option<Cow<'_, [u8]>> {
        let end = offset
            .checked_add(len as u64)
            .filter(|&e| e <= self.size && len > 0)?;
        self.held(offset, len, end).ok()
    }

    fn resume(&self, block: u64, lit: u64) -> Resume {
        self.ctx.engine.marks.borrow().resume(self.id, block, lit)
    }

    fn add_marks(&self, block: u64, first: u32, marks: &[Mark]) {
        self.ctx
            .engine
            .marks
            .borrow_mut()
            .add(self.id, block, first, marks);
    }

    fn hint(&self, offset: u64, len: u64) {
        let log2 = self.ctx.engine.store.page_log2();
        let len = len.min(MAX_HINT_PAGES << log2);
        if offset < self.size {
            self.ctx.want(self.id, offset, len.min(self.size - offset));
        }
    }

    fn guess(&self, offset: u64, len: u64) {
        self.ctx.speculate(|| self.hint(offset, len));
    }
}

impl From<FormatError> for ProbeError {
    fn from(e: FormatError) -> Self {
        match e {
            FormatError::NeedMore(_) => {
                ProbeError::CorruptTable("?".into(), "unexpected end of data".into())
            }
            FormatError::Corrupt(what) => ProbeError::CorruptTable("?".into(), what.to_string()),
        }
    }
}
