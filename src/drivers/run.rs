//! The synchronous driver loop shared by the native fetchers: attempt,
//! fetch the named batch in one round, supply, attempt again.

use std::collections::HashMap;

use shakmaty::Chess;

use crate::engine::{same_version, Attempt, Config, Ctx, Engine, Supply};
use crate::error::ProbeError;
use crate::probe::{self, Analysis, Mainline};
use crate::store::Fetch;

/// One range request of a round. `open` means the file's size is unknown:
/// the fetcher clips `end` to the file and reports the size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub name: String,
    pub start: u64,
    pub end: u64,
    pub open: bool,
    /// The version (size, validator) the engine holds of the file, once
    /// opened: a local copy of another version (a disk cache another
    /// process or mirror refilled) is not an answer.
    pub version: Option<(u64, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Response {
    /// The bytes of `[start, min(end, size))`; `validator` is an ETag or similar, or empty.
    Bytes {
        size: u64,
        validator: String,
        bytes: Vec<u8>,
    },
    /// No such file at any location.
    Absent,
    /// The request failed for good (after any retries).
    Failed(String),
}

/// Fetches one round of requests, in parallel where it can.
pub trait Fetcher {
    fn fetch(&mut self, batch: &[Request]) -> Vec<Response>;

    /// Requests it runs at once: a round of n requests waits for
    /// ceil(n / connections) answers in sequence (see [`NetStats::waves`]).
    fn connections(&self) -> u64 {
        u64::MAX
    }

    /// The answers since the last call whose server ignored Range and sent
    /// the file from byte 0 (200): then only the pages a probe needs are
    /// asked of that file, never speculative ones (each costs a stream).
    fn take_streamed(&mut self) -> Vec<Streamed> {
        Vec::new()
    }

    /// Requests past each one's first try (retries, another mirror asked)
    /// and bytes of answers not used (error pages, bodies cut short, a
    /// range's bytes before the one asked) since the last call: they
    /// crossed the network, and `--stats` counts them.
    fn take_retried(&mut self) -> (u64, u64) {
        (0, 0)
    }

    /// The files a server answered with a range (206) since the last call:
    /// a server that ignored Range once (a CDN's cache miss) honours it
    /// again, and speculative reads of those files resume.
    fn take_ranged(&mut self) -> Vec<String> {
        Vec::new()
    }

    /// An error with what the fetcher knows of its cause added (a missing
    /// table's URLs that answered 403, say).
    fn explain(&self, e: ProbeError) -> ProbeError {
        e
    }

    /// The error of a request that failed for good: a network's unless
    /// the fetcher reads local files.
    fn failure(&self, name: String, why: String) -> ProbeError {
        ProbeError::Network(name, why)
    }

    /// Requests and bytes of the batches since the last call that a local
    /// copy answered (a disk cache), not the network: `--stats` counts
    /// only what crossed the network.
    fn take_local(&mut self) -> (u64, u64) {
        (0, 0)
    }

    /// Requests of the batches since the last call that another request
    /// of their file carried (a server that ignores Range streams the
    /// file from byte 0 for each, so one a file is sent): not sent.
    fn take_joined(&mut self) -> u64 {
        0
    }
}

/// An answer that came as a stream of the whole file (Range ignored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Streamed {
    pub name: String,
    /// Bytes read that the answer does not carry (those before the range,
    /// between a joined request's ranges, and after the last where the
    /// stream's length was unknown): `--stats` counts them, as they
    /// crossed the network.
    pub unasked: u64,
}

/// Round trips and volume, counted by the driver loop.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NetStats {
    pub rounds: u64,
    pub requests: u64,
    pub bytes: u64,
    /// Sequential waves of requests: per round, ceil(requests / the
    /// fetcher's connections).
    pub waves: u64,
    /// Requests a local copy answered instead (the CLI's disk cache):
    /// not in `requests`, `bytes` or `waves`.
    pub local: u64,
    /// Answers of the version a change in their own round replaced, not
    /// supplied (see `Tablebase::round`).
    pub stale: u64,
}

/// A fetcher plus the engine: the native face of the library.
pub struct Tablebase<F: Fetcher> {
    engine: Engine,
    fetcher: F,
    stats: NetStats,
}

/// Attempts per probe before giving up: each productive round supplies at
/// least one page, and a probe's dependency chains are a few levels deep.
/// A mainline is a probe per step, so this bounds a step, not a line.
const MAX_ROUNDS: u32 = 256;

/// Version changes of one file within one probe past which the probe
/// fails: a file updated while it runs changes once, while servers that
/// answer with two versions by turns (mirrors or CDN nodes whose copies
/// differ in ETag) would change it every round, each change dropping what
/// was read, for hundreds of requests and no answer.
const MAX_VERSION_CHANGES: usize = 3;

/// The error of a file that kept changing version: the versions it took.
fn flapping(versions: &[String]) -> String {
    format!(
        "the file changed version {} times during one probe (to {}): the server, or the servers \
         behind this URL, answer with different versions of it by turns; serve one copy, with the \
         same ETag from every server",
        versions.len(),
        versions.join(", then ")
    )
}

impl<F: Fetcher> Tablebase<F> {
    pub fn new(fetcher: F, config: Config) -> Self {
        Tablebase {
            engine: Engine::new(config),
            fetcher,
            stats: NetStats::default(),
        }
    }

    pub fn stats(&self) -> NetStats {
        self.stats
    }

    pub fn reset_stats(&mut self) {
        self.stats = NetStats::default();
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    pub fn fetcher_mut(&mut self) -> &mut F {
        &mut self.fetcher
    }

    /// Runs `f` until it answers, fetching what each attempt names.
    pub fn run<T>(
        &mut self,
        f: impl Fn(&Ctx<'_>) -> Result<T, ProbeError>,
    ) -> Result<T, ProbeError> {
        let tick = self.engine.begin();
        let out = self.run_pinned(&f);
        self.engine.end(tick);
        out.map_err(|e| self.fetcher.explain(e))
    }

    fn run_pinned<T>(
        &mut self,
        f: &impl Fn(&Ctx<'_>) -> Result<T, ProbeError>,
    ) -> Result<T, ProbeError> {
        // Per file changed during this probe: the validators it took.
        let mut versions: HashMap<String, Vec<String>> = HashMap::new();
        // Requests that failed for good in this probe, with their errors: it
        // fails only once an attempt needs what one was to bring (a
        // speculative read of a table the answer never needs may fail).
        let mut failed: Vec<(Fetch, ProbeError)> = Vec::new();
        for _ in 0..MAX_ROUNDS {
            let wants = match self.engine.attempt(f) {
                Ok(v) => return Ok(v),
                Err(Attempt::Failed(e)) => return Err(e),
                Err(Attempt::Need(w)) => w,
            };
            let log2 = self.engine.config().page_log2;
            if let Some((_, e)) = failed.iter().find(|(f, _)| wants.needs(f, log2)) {
                return Err(e.clone());
            }
            // After a failure, no speculative reads: they may be what failed.
            let connections = if failed.is_empty() {
                self.fetcher.connections()
            } else {
                1
            };
            let fetches = self.engine.fetches(&wants, connections);
            for (name, validator) in self.round(&fetches, &mut failed)? {
                let seen = versions.entry(name.clone()).or_default();
                seen.push(validator);
                if seen.len() >= MAX_VERSION_CHANGES {
                    return Err(ProbeError::Network(name, flapping(seen)));
                }
            }
        }
        Err(ProbeError::Network(
            "tables".into(),
            "probe did not converge".into(),
        ))
    }

    /// Fetches a round and supplies it: the files whose version changed,
    /// each with its new validator. Failed requests go to `failed`.
    fn round(
        &mut self,
        fetches: &[Fetch],
        failed: &mut Vec<(Fetch, ProbeError)>,
    ) -> Result<Vec<(String, String)>, ProbeError> {
        let batch: Vec<Request> = fetches
            .iter()
            .map(|f| Request {
                name: self.engine.file_name(f.file),
                start: f.start,
                end: f.end,
                open: f.open,
                version: self
                    .engine
                    .file_info(f.file)
                    .and_then(|i| Some((i.size?, i.validator.unwrap_or_default()))),
            })
            .collect();
        let responses = self.fetcher.fetch(&batch);
        let (local, local_bytes) = self.fetcher.take_local();
        let streamed = self.fetcher.take_streamed();
        let ranged = self.fetcher.take_ranged();
        for (f, req) in fetches.iter().zip(&batch) {
            if streamed.iter().any(|s| s.name == req.name) {
                self.engine.set_streamed(f.file, true);
            } else if ranged.contains(&req.name) {
                self.engine.set_streamed(f.file, false);
            }
        }
        let unasked: u64 = streamed.iter().map(|s| s.unasked).sum();
        let (retried, retried_bytes) = self.fetcher.take_retried();
        let joined = self.fetcher.take_joined();
        let network = (batch.len() as u64).saturating_sub(local + joined);
        // (A round the disk cache answered whole waited for no network.)
        if network > 0 {
            self.stats.rounds += 1;
        }
        self.stats.requests += network + retried;
        self.stats.local += local;
        self.stats.waves += network.div_ceil(self.fetcher.connections().max(1));
        // Counted before any answer fails the round: those bytes came too.
        let bytes_in: u64 = responses
            .iter()
            .map(|r| match r {
                Response::Bytes { bytes, .. } => bytes.len() as u64,
                _ => 0,
            })
            .sum();
        self.stats.bytes += bytes_in.saturating_sub(local_bytes) + unasked + retried_bytes;
        let mut changed = Vec::new();
        // Per file that changed version in this round: the version before.
        let mut replaced: HashMap<&str, (u64, String)> = HashMap::new();
        for (fetch, (req, resp)) in fetches.iter().zip(batch.iter().zip(responses)) {
            match resp {
                Response::Bytes {
                    size,
                    validator,
                    bytes,
                } => {
                    // The version a change of this round replaced, in an
                    // answer asked for before that change: the file was
                    // replaced while the round was out, not changed back.
                    // Not supplied, its pages are asked for again.
                    let old = replaced.get(req.name.as_str());
                    if old.is_some_and(|(s, v)| *s == size && same_version(v, &validator)) {
                        self.stats.stale += 1;
                        continue;
                    }
                    // (The version before, though a 404 earlier in this
                    // round found the file absent meanwhile.)
                    let before = self.engine.last_version(fetch.file);
                    let supply = Supply::Bytes {
                        size,
                        validator: &validator,
                        bytes: &bytes,
                    };
                    if self.engine.supply(fetch, supply) {
                        changed.push((req.name.clone(), format!("{validator} ({size} bytes)")));
                        if let Some(old) = before {
                            replaced.insert(&req.name, old);
                        }
                    }
                }
                Response::Absent => {
                    self.engine.supply(fetch, Supply::Absent);
                }
                Response::Failed(why) => {
                    failed.push((fetch.clone(), self.fetcher.failure(req.name.clone(), why)))
                }
            }
        }
        Ok(changed)
    }

    /// WDL and DTZ of a position and of every legal move, ranked.
    pub fn analyse(&mut self, pos: &Chess) -> Result<Analysis, ProbeError> {
        let mut a = self.run(|ctx| probe::analyse(ctx, pos))?;
        for m in &mut a.moves {
            m.error = m.error.take().map(|e| self.fetcher.explain(e));
        }
        Ok(a)
    }

    /// The position's outcome and its moves' WDL, from the WDL tables alone
    /// (where [`Self::analyse`] fails for a missing DTZ table).
    pub fn wdl_analysis(&mut self, pos: &Chess) -> Result<probe::WdlAnalysis, ProbeError> {
        let mut a = self.run(|ctx| probe::wdl_analysis(ctx, pos))?;
        for m in &mut a.moves {
            m.error = m.error.take().map(|e| self.fetcher.explain(e));
        }
        Ok(a)
    }

    /// WDL only.
    pub fn probe_wdl(&mut self, pos: &Chess) -> Result<i8, ProbeError> {
        self.run(|ctx| probe::probe_wdl(ctx, pos))
    }

    /// WDL and DTZ of the position only.
    pub fn probe_dtz(&mut self, pos: &Chess) -> Result<(i8, probe::Dtz), ProbeError> {
        self.run(|ctx| probe::probe_dtz(ctx, pos))
    }

    /// Best play to the next zeroing move or mate. Each step is a probe of
    /// its own, with its own round bound: a line may take hundreds of plies.
    pub fn mainline(&mut self, pos: &Chess) -> Result<Mainline, ProbeError> {
        let mut step = self.run(|ctx| probe::mainline_step(ctx, pos))?;
        let mut line = Mainline::start(&step);
        loop {
            let next = step.best.as_ref().map(|b| b.fen.clone());
            if !line.push(step) {
                return Ok(line);
            }
            let at = probe::parse_fen(&next.unwrap_or_default())?;
            step = self.run(|ctx| probe::mainline_step(ctx, &at))?;
        }
    }
}
