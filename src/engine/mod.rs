//! The synchronous core that drivers run: table files and their states, the
//! page store, and one probe attempt at a time. An attempt either answers or
//! returns the complete batch of pages it found missing.

mod files;
pub mod fit;
mod lookup;
mod source;
mod version;

use std::cell::RefCell;
use std::sync::Arc;

pub use files::FileInfo;
pub use lookup::{dtz_table, wdl_table, DtzStored};
pub use version::{merged_version, same_version, validator_of};

use crate::error::ProbeError;
use crate::format::Kind;
use crate::small_sort::sort_small_by;
use crate::store::{Fetch, FileId, Marks, Maybe, PageStore, StoreStats, Wants};
use files::Files;

/// Largest gap of absent bytes between two requests for one file that is
/// fetched rather than paid for with another request. Measured on the
/// simulated network over the 5-piece tables (2 positions each plus the
/// promotion positions of issue 12): worst cold analysis 171 requests in 31
/// waves of 6 without bridging, 111 in 21 at 16 KiB, 99 in 18 at 32 KiB,
/// 82 in 16 at 64 KiB, for 1.5, 2.0, 2.2 and 3.0 MiB.
pub const BRIDGE_BYTES: u64 = 32 << 10;

/// Bytes `[start, end)` of a file that a probe read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadSpan {
    pub file: FileId,
    pub start: u64,
    pub end: u64,
}

/// Tunables shared by every driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// log2 of the page size (default 4 KiB).
    pub page_log2: u32,
    /// In-memory page budget in bytes.
    pub memory_budget: usize,
    /// Least bytes fetched when a table is first opened. The engine fetches
    /// more when the material's header can be longer, so that the header
    /// always arrives in one round; small tables then arrive whole.
    pub head_bytes: u64,
    /// Whether a 5-piece table's head also brings its sparse index, which
    /// follows the header: a lookup then needs one round less (see
    /// `head_len`), for up to 64 KiB more a table. Off on a slow link,
    /// where those bytes cost more time than the round.
    pub sparse_in_head: bool,
    /// With `sparse_in_head`, whether a pawnless 5-piece table's head also
    /// brings its block lengths, the rest of its index (within 96 KiB of
    /// file for 15 WDL files, 64 KiB for 16 DTZ files of the 18 pawnless
    /// 5-piece materials in `../shared`): each lookup then costs one
    /// request, for its data block, where one past the head's index asks
    /// for the block lengths' page beside a guessed block (a round more
    /// when the guess misses). Up to 48 and 32 KiB more a table; for a
    /// driver whose requests queue for connections (HTTP/1.1) on a link
    /// where those bytes take far less than a round trip.
    pub index_in_head: bool,
    /// Whether one request carries every range of a file (a server that
    /// answers several ranges in one multipart body): a round then costs a
    /// request per file, and no gap between ranges is worth fetching.
    pub several_ranges: bool,
    /// Whether gaps of at most [`BRIDGE_BYTES`] between ranges of a file
    /// are fetched with them. Off once a fetch failed: offline, what
    /// IndexedDB holds need not include the gaps.
    pub bridge_gaps: bool,
    /// Gap bytes a round may fetch so that its requests take fewer waves
    /// of the driver's connections (see [`Engine::fetches`]): what a round
    /// trip costs on the link, set by a driver that measures it; 0 (the
    /// default) joins only across [`BRIDGE_BYTES`].
    pub join_budget: u64,
    /// Whether the host runs every request at once (HTTP/2 or 3): a
    /// round's requests then cost no waves of connections, so the DTZ of a
    /// lost position names, as maybe needed, the pages of every reply's
    /// zeroing moves beside the bounds that pick the reply, saving the
    /// round that would follow them (see `probe::search::lost_by_bounds`),
    /// and a move list's child names its DTZ's reads before its WDL is in
    /// (see `probe::search::dtz_at`): more bytes for fewer rounds, which
    /// the browser driver asks for only on a link not measured slow.
    pub multiplexed: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            page_log2: 12,
            memory_budget: 64 << 20,
            head_bytes: 4 << 10,
            sparse_in_head: true,
            index_in_head: false,
            several_ranges: false,
            bridge_gaps: true,
            join_budget: 0,
            multiplexed: false,
        }
    }
}

/// A round's fetches, and the gaps (file, start, end) joined into them
/// only to save requests, which nothing needs: a driver that finds the
/// pages on both sides of one at hand or on their way (IndexedDB, another
/// request) fetches none of it alone.
pub type Fitted = (Vec<Fetch>, Vec<(FileId, u64, u64)>);

/// What came back for one [`Fetch`].
pub enum Supply<'a> {
    /// Bytes from `fetch.start`; `size` is the whole file's size and
    /// `validator` an opaque version tag (ETag, mtime) or empty.
    Bytes {
        size: u64,
        validator: &'a str,
        bytes: &'a [u8],
    },
    /// The file does not exist anywhere the driver looked.
    Absent,
}

pub struct Engine {
    /// Reads (count, bytes) made by the last attempt: what a synchronous
    /// prober without a page store would request one by one.
    last_reads: std::cell::Cell<(u64, u64)>,
    /// With [`Engine::log_reads`] on, the byte span of every read since.
    read_log: RefCell<Option<Vec<ReadSpan>>>,
    config: Config,
    store: PageStore,
    /// Where walks of blocks' code streams passed, for the next lookup.
    marks: RefCell<Marks>,
    files: RefCell<Files>,
}

/// What an attempt that missed pages names, as an [`Attempt`].
fn missing(mut wants: Wants) -> Attempt {
    if wants.is_empty() {
        // Only speculative inputs named: they are needed after all.
        (wants.opens, wants.pages) = std::mem::take(&mut wants.maybe).into_needed();
    }
    if wants.is_empty() {
        // A missing page always names itself; treat anything else as a bug in the
        // table's bytes rather than loop forever.
        Attempt::Failed(ProbeError::CorruptTable("?".into(), "probe stalled".into()))
    } else {
        Attempt::Need(wants)
    }
}

/// One probe attempt's view: reads answer from the store or name what is missing.
pub struct Ctx<'a> {
    engine: &'a Engine,
    wants: RefCell<Wants>,
    reads: std::cell::Cell<(u64, u64)>,
    /// Above 0 while what is read is only maybe needed (see [`Ctx::speculate`]).
    speculating: std::cell::Cell<u32>,
    /// Above 0 while only opens are named (see [`Ctx::speculate_opens`]).
    opens_only: std::cell::Cell<u32>,
}

impl Engine {
    pub fn new(config: Config) -> Engine {
        let head = config.head_bytes.max(1 << config.page_log2);
        let config = Config {
            head_bytes: head,
            ..config
        };
        Engine {
            last_reads: std::cell::Cell::new((0, 0)),
            read_log: RefCell::new(None),
            store: PageStore::new(config.page_log2, config.memory_budget),
            marks: RefCell::new(Marks::default()),
            files: RefCell::new(Files::default()),
            config,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// See [`Config::sparse_in_head`]; applies to tables not heard of yet.
    pub fn set_sparse_in_head(&mut self, on: bool) {
        self.config.sparse_in_head = on;
    }

    /// See [`Config::index_in_head`]; applies to tables not heard of yet.
    pub fn set_index_in_head(&mut self, on: bool) {
        self.config.index_in_head = on;
    }

    /// See [`Config::several_ranges`].
    pub fn set_several_ranges(&mut self, on: bool) {
        self.config.several_ranges = on;
    }

    /// See [`Config::bridge_gaps`].
    pub fn set_bridge_gaps(&mut self, on: bool) {
        self.config.bridge_gaps = on;
    }

    /// See [`Config::join_budget`].
    pub fn set_join_budget(&mut self, bytes: u64) {
        self.config.join_budget = bytes;
    }

    /// See [`Config::multiplexed`].
    pub fn set_multiplexed(&mut self, on: bool) {
        self.config.multiplexed = on;
    }

    /// Starts a probe; pages it touches are pinned until [`Self::end`].
    pub fn begin(&mut self) -> u64 {
        self.store.begin_probe()
    }

    pub fn end(&mut self, tick: u64) {
        self.store.end_probe(tick)
    }

    /// Runs `f` once against the pages at hand.
    pub fn attempt<T>(
        &self,
        f: impl FnOnce(&Ctx<'_>) -> Result<T, ProbeError>,
    ) -> Result<T, Attempt> {
        self.run(f, None).0
    }

    /// [`Self::attempt`], and where it misses pages, those wants with what
    /// `rider` names beside them as speculative inputs: reads another probe
    /// needs next, which may ride in the same requests (see [`Self::fetches`]).
    pub fn attempt_with_rider<T>(
        &self,
        f: impl FnOnce(&Ctx<'_>) -> Result<T, ProbeError>,
        rider: &dyn Fn(&Ctx<'_>),
    ) -> (Result<T, Attempt>, Option<Wants>) {
        self.run(f, Some(rider))
    }

    fn run<T>(
        &self,
        f: impl FnOnce(&Ctx<'_>) -> Result<T, ProbeError>,
        rider: Option<&dyn Fn(&Ctx<'_>)>,
    ) -> (Result<T, Attempt>, Option<Wants>) {
        let ctx = Ctx {
            engine: self,
            wants: RefCell::new(Wants::default()),
            reads: std::cell::Cell::new((0, 0)),
            speculating: std::cell::Cell::new(0),
            opens_only: std::cell::Cell::new(0),
        };
        let result = f(&ctx);
        self.last_reads.set(ctx.reads.get());
        match result {
            Ok(v) => (Ok(v), None),
            Err(ProbeError::Missing) => {
                let Some(rider) = rider else {
                    return (Err(missing(ctx.wants.into_inner())), None);
                };
                let own = missing(ctx.wants.borrow().clone());
                let Attempt::Need(needed) = &own else {
                    return (Err(own), None);
                };
                ctx.speculate(|| rider(&ctx));
                // The rider's reads stay speculative, whatever `missing` made of the probe's.
                let mut with = ctx.wants.into_inner();
                with.opens.clone_from(&needed.opens);
                with.pages.clone_from(&needed.pages);
                (Err(own), Some(with))
            }
            Err(e) => (Err(Attempt::Failed(e)), None),
        }
    }

    /// The range requests that supply `wants`, coalesced, for a driver
    /// that runs `connections` requests at once (and, with
    /// [`Config::several_ranges`], asks for a file's ranges in one). Speculative inputs
    /// ([`Wants::maybe`]) are added unit by unit, in the order they were
    /// named, while the round needs no more waves of `connections`
    /// requests than without them: they fill connections that would
    /// otherwise stay idle, and never make a round wait longer. Pages of a
    /// file whose server ignores Range are never speculative: each costs
    /// streaming the file up to it. With a [`Config::join_budget`], ranges
    /// of a file are joined across gaps of up to that many bytes in all
    /// where that takes a wave less, or lets a speculative input in.
    pub fn fetches(&self, wants: &Wants, connections: u64) -> Vec<Fetch> {
        self.planned(wants, connections).0
    }

    /// [`Self::fetches`], and their gaps (see [`Fitted`]): for a driver
    /// that can tell pages it already has from pages still to fetch.
    pub fn fetches_and_gaps(&self, wants: &Wants, connections: u64) -> Fitted {
        let (out, need) = self.planned(wants, connections);
        let gaps = self.gaps(&out, &need);
        (out, gaps)
    }

    /// The fetches of [`Self::fetches`], and the wants they carry (the
    /// needed ones and the speculative ones taken).
    fn planned(&self, wants: &Wants, connections: u64) -> (Vec<Fetch>, Wants) {
        let connections = connections.max(1);
        let mut need = Wants {
            maybe: Maybe::default(),
            ..wants.clone()
        };
        let mut out = self.plan(&need);
        let mut cap = self
            .requests(&out)
            .div_ceil(connections)
            .max(1)
            .saturating_mul(connections);
        while cap > connections {
            match self.fit(&out, cap - connections) {
                Some(fewer) => (out, cap) = (fewer, cap - connections),
                None => break,
            }
        }
        for unit in wants.speculative() {
            if unit
                .pages
                .iter()
                .any(|&(f, _)| self.files.borrow().streamed(f))
            {
                continue;
            }
            let mut tried = need.clone();
            tried.merge(unit);
            let plan = self.plan(&tried);
            if self.requests(&plan) <= cap {
                (need, out) = (tried, plan);
            } else if let Some(joined) = self.fit(&plan, cap) {
                (need, out) = (tried, joined);
            }
        }
        (out, need)
    }

    /// The runs of pages `plan` carries that nothing in `need` names and
    /// the store does not hold: gaps joined only to save a request.
    fn gaps(&self, plan: &[Fetch], need: &Wants) -> Vec<(FileId, u64, u64)> {
        let log2 = self.config.page_log2;
        let mut out: Vec<(FileId, u64, u64)> = Vec::new();
        for f in plan.iter().filter(|f| !f.open) {
            for page in f.start >> log2..f.end.div_ceil(1 << log2) {
                if need.pages.contains(&(f.file, page)) || self.store.contains(f.file, page) {
                    continue;
                }
                let (start, end) = (page << log2, ((page + 1) << log2).min(f.end));
                match out.last_mut() {
                    Some((file, _, e)) if *file == f.file && *e == start => *e = end,
                    _ => out.push((f.file, start, end)),
                }
            }
        }
        out
    }

    /// `plan` joined into `cap` requests within the join budget (see
    /// [`fit::fit`]), across gaps of pages not held; None without a budget,
    /// or when a file's ranges are carried by one request anyway.
    fn fit(&self, plan: &[Fetch], cap: u64) -> Option<Vec<Fetch>> {
        let budget = self.config.join_budget;
        if budget == 0 || !self.fetches_gaps() {
            return None;
        }
        let log2 = self.config.page_log2;
        let absent = |file, start: u64, end: u64| {
            (start >> log2..end >> log2).all(|p| !self.store.contains(file, p))
        };
        fit::fit(plan, cap, budget, absent)
    }

    /// Whether a gap between two ranges of a file is ever worth fetching:
    /// not where one request carries every range of a file, nor once a
    /// fetch failed (see [`Config::bridge_gaps`]).
    fn fetches_gaps(&self) -> bool {
        self.config.bridge_gaps && !self.config.several_ranges
    }

    /// Requests that carry `plan`: one a fetch, or with
    /// [`Config::several_ranges`] one an open and one a file for the rest.
    pub fn requests(&self, plan: &[Fetch]) -> u64 {
        if !self.config.several_ranges {
            return plan.len() as u64;
        }
        let mut files: Vec<FileId> = plan.iter().filter(|f| !f.open).map(|f| f.file).collect();
        sort_small_by(&mut files, |a, b| a < b);
        files.dedup();
        (files.len() + plan.iter().filter(|f| f.open).count()) as u64
    }

    fn plan(&self, wants: &Wants) -> Vec<Fetch> {
        let mut out = wants.fetches(self.config.page_log2, self.config.head_bytes);
        let files = self.files.borrow();
        let page = 1u64 << self.config.page_log2;
        for f in out.iter_mut() {
            if f.open {
                f.end = f.end.max(files.head(f.file)).div_ceil(page) * page;
            }
            if let Some(size) = files.size(f.file) {
                f.end = f.end.min(size);
            }
        }
        out.retain(|f| f.open || f.start < f.end);
        self.bridge(out)
    }

    /// Joins requests for one file whose gap is at most [`BRIDGE_BYTES`] of
    /// pages not held: a round of many small requests costs waves of
    /// waiting (a browser runs 6 at a time per host), a few KiB more does
    /// not. Held pages are never fetched again. Ranges one request carries
    /// together join only where they touch.
    fn bridge(&self, fetches: Vec<Fetch>) -> Vec<Fetch> {
        let log2 = self.config.page_log2;
        let bridge = if self.fetches_gaps() { BRIDGE_BYTES } else { 0 };
        let mut out: Vec<Fetch> = Vec::with_capacity(fetches.len());
        for f in fetches {
            if let Some(last) = out.last_mut() {
                let joinable = !f.open
                    && !last.open
                    && last.file == f.file
                    && f.start >= last.end
                    && f.start - last.end <= bridge
                    && (last.end >> log2..f.start >> log2).all(|p| !self.store.contains(f.file, p));
                if joinable {
                    last.end = f.end;
                    continue;
                }
            }
            out.push(f);
        }
        out
    }

    /// Whether `file`'s server ignores Range (see [`Self::fetches`]).
    pub fn set_streamed(&mut self, file: FileId, on: bool) {
        self.files.get_mut().set_streamed(file, on);
    }

    /// File name (e.g. `KQvK.rtbw`) of a file id.
    pub fn file_name(&self, file: FileId) -> String {
        self.files.borrow().name(file)
    }

    pub fn file_info(&self, file: FileId) -> Option<FileInfo> {
        self.files.borrow().info(file)
    }

    /// The version (size, validator) of the last answer for `file`, though
    /// it was found absent or corrupt since: the version its pages are.
    pub fn last_version(&self, file: FileId) -> Option<(u64, String)> {
        self.files.borrow().seen(file)
    }

    /// Stores what a fetch returned. A size or validator different from
    /// the one known before means the file changed: its pages and header
    /// are dropped, and this returns true.
    pub fn supply(&mut self, fetch: &Fetch, supply: Supply<'_>) -> bool {
        // (Not a file of this engine: one named before a clear, say.)
        if !self.files.get_mut().known(fetch.file) {
            return false;
        }
        match supply {
            Supply::Absent => {
                self.files.get_mut().set_absent(fetch.file);
                false
            }
            Supply::Bytes {
                size,
                validator,
                bytes,
            } => {
                let changed = self.identify(fetch.file, size, validator);
                self.insert_bytes(fetch.file, fetch.start, size, bytes);
                changed
            }
        }
    }

    /// Declares a file's identity (size plus an opaque validator such as an
    /// ETag); a change from what was seen before drops its cached pages.
    pub fn identify(&mut self, file: FileId, size: u64, validator: &str) -> bool {
        let changed = self.files.get_mut().set_identity(file, size, validator);
        if changed {
            self.store.drop_file(file);
            self.marks.get_mut().drop_file(file);
        }
        changed
    }

    /// Inserts whole pages from `bytes` starting at byte `start` (page aligned).
    pub fn insert_bytes(&mut self, file: FileId, start: u64, size: u64, bytes: &[u8]) {
        let page = self.store.page_size();
        if !start.is_multiple_of(page) {
            return;
        }
        let mut at = 0usize;
        while at < bytes.len() {
            let off = start + at as u64;
            let full = (page.min(size.saturating_sub(off))) as usize;
            if full == 0 || at + full > bytes.len() {
                break; // a partial page that does not reach the end of the file
            }
            self.store
                .insert(file, off / page, Arc::from(&bytes[at..at + full]));
            at += full;
        }
    }

    /// Forgets every file state and page (for "clear cache").
    pub fn clear(&mut self) {
        self.store.clear();
        self.marks.get_mut().clear();
        *self.files.get_mut() = Files::default();
    }

    /// Forgets where walks of blocks passed; answers stay the same, first
    /// lookups into each block walk from its start again (the warm
    /// benchmark times both).
    pub fn forget_marks(&self) {
        self.marks.borrow_mut().clear();
    }

    /// Reads (count, bytes) of the last attempt.
    pub fn last_reads(&self) -> (u64, u64) {
        self.last_reads.get()
    }

    /// Starts (or stops) logging the byte span of every read, headers
    /// included: what the decoder needed, to weigh how few requests could
    /// have carried it.
    pub fn log_reads(&self, on: bool) {
        *self.read_log.borrow_mut() = on.then(Vec::new);
    }

    /// The spans read since [`Self::log_reads`] or the last call.
    pub fn take_read_log(&self) -> Vec<ReadSpan> {
        self.read_log
            .borrow_mut()
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    pub fn store_stats(&self) -> StoreStats {
        self.store.stats()
    }

    pub fn page_store(&self) -> &PageStore {
        &self.store
    }

    /// Registers (or finds) the file of a table name and kind; `head` is
    /// how many bytes to fetch when opening it.
    pub fn file_id(&self, name: &str, kind: Kind, head: u64) -> FileId {
        self.files.borrow_mut().id(name, kind, head)
    }
}

/// Why an attempt did not answer.
#[derive(Debug)]
pub enum Attempt {
    Need(Wants),
    Failed(ProbeError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streamed_file_gets_no_speculative_pages() {
        let mut engine = Engine::new(Config::default());
        let id = engine.file_id("KRPvKR", Kind::Wdl, 4096);
        engine.identify(id, 1 << 24, "v");
        let mut wants = Wants::default();
        wants.pages.insert((id, 1));
        wants.maybe.insert(id, Some(3));
        let pages = |engine: &Engine| {
            engine
                .fetches(&wants, 6)
                .iter()
                .map(|f| (f.start, f.end))
                .collect::<Vec<_>>()
        };
        // Idle connections take the guess: one bridged request.
        assert_eq!(pages(&engine), vec![(4096, 16384)]);
        engine.set_streamed(id, true);
        assert_eq!(pages(&engine), vec![(4096, 8192)]);
    }
}
