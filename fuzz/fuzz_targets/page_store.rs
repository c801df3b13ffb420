//! Pages arriving in any order and size. The fuzz input decides, round by
//! round, how the requested bytes come back (whole, split, reordered,
//! truncated, dropped, with a changed or missing validator) and which
//! unrequested pages arrive with them. Once the input is used up every
//! request is answered whole, so the probe must end with exactly the answer
//! of a clean run over the files (`FsFetcher`), within a bounded number of
//! rounds.
//!
//! Input: byte 0 picks two positions and the query; byte 1 the page size,
//! the head size and the memory budget; byte 2 bit 0 the driver: the
//! library's `Tablebase` with a misbehaving `Fetcher`, or a loop over
//! `Engine::attempt` / `fetches` / `supply` that can also split, reorder
//! and add unrequested pages. The rest are the per-round decisions.
#![no_main]

use std::cell::RefCell;
use std::collections::HashMap;

use libfuzzer_sys::fuzz_target;
use shakmaty::Chess;
use syzygy_web::drivers::{Fetcher, FsFetcher, Request, Response, Tablebase};
use syzygy_web::engine::{Attempt, Engine, Supply};
use syzygy_web::format::header;
use syzygy_web::format::Kind;
use syzygy_web::probe::parse_fen;
use syzygy_web::store::Fetch;
use syzygy_web::{Config, ProbeError};
use syzygy_web_fuzz::{
    all_table_files, ask, material_of_name, real_file, tables_dir, Answer, Choices, Query,
};

/// Positions of several shapes: pawnless, pawnful, en passant, symmetric,
/// three identical pieces, and the largest files here (KRPvKR, KQPvKQ).
const FENS: [&str; 16] = [
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    "8/8/8/4k3/8/8/4P3/4K3 b - - 0 1",
    "8/8/8/8/3pP3/8/5K2/k7 b - e3 0 1",
    "7r/8/8/4k3/8/8/8/1Q2K3 w - - 0 1",
    "8/8/3k4/8/2r5/8/4P3/R3K3 w - - 0 1",
    "8/3k4/8/8/3q4/8/4P3/Q3K3 b - - 0 1",
    "8/8/8/4k3/8/8/8/2BBKB2 w - - 0 1",
    "7r/8/8/4k3/8/8/8/R2RK3 b - - 0 1",
    "7q/8/8/4k3/8/8/8/1QQ1K3 w - - 0 1",
    "8/8/8/4k3/8/8/8/1NB1K3 b - - 0 1",
    "8/8/8/4k3/8/8/3PP3/4K3 w - - 0 1",
    "8/8/8/4k3/3p4/8/8/1N2K3 b - - 0 1",
    "7k/8/8/2KQ4/8/8/3p4/8 w - - 0 1",
    "8/5k2/8/8/2P5/8/8/R3K3 w - - 0 1",
    "4k3/8/8/8/8/8/1r6/KR1R4 w - - 0 1",
    "8/8/8/8/8/8/6k1/4KR1r w - - 0 1",
];

/// Rounds the library driver allows (`MAX_ROUNDS` in drivers/run.rs).
const LIBRARY_ROUNDS: u64 = 256;

type Clean = (Result<Answer, ProbeError>, u64);

thread_local! {
    /// Clean answers and their rounds by position, query and every setting
    /// that changes the rounds (see [`clean_key`]).
    static CLEAN: RefCell<HashMap<(usize, Query, String), Clean>> = RefCell::new(HashMap::new());
    static FILES: Vec<String> = all_table_files();
}

/// The settings of a clean run: all of them, since heads with or without
/// the sparse index, joins and multiplexed reads each change its rounds
/// (keyed by page size and head alone, a clean run with the sparse index
/// in its heads once set the bound for a run without it).
fn clean_key(config: &Config) -> String {
    format!("{config:?}")
}

fn clean(i: usize, pos: &Chess, q: Query, config: Config) -> Clean {
    let key = (i, q, clean_key(&config));
    if let Some(c) = CLEAN.with(|c| c.borrow().get(&key).cloned()) {
        return c;
    }
    let mut tb = Tablebase::new(FsFetcher::new(vec![tables_dir()]), config);
    let r = tb.run(|ctx| syzygy_web_fuzz::ask(ctx, pos, q));
    let out = (r, tb.stats().rounds);
    assert!(out.0.is_ok(), "{}: clean run failed: {:?}", FENS[i], out.0);
    CLEAN.with(|c| c.borrow_mut().insert(key, out.clone()));
    out
}

const VALIDATOR: &str = "real";

/// How one response misbehaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    Whole,
    /// Only the first `n`/256 of the bytes.
    Short(u8),
    /// No bytes at all (the size still comes back).
    Empty,
    /// Whole, but with a validator different from the file's.
    Changed,
    /// Whole, without a validator.
    Unvalidated,
    /// Whole plus this many following pages nobody asked for.
    Overshoot(u8),
    /// Cut into pieces at page boundaries.
    SplitAligned(u8),
    /// Cut into pieces anywhere (unaligned pieces are of no use).
    SplitAnywhere(u8),
    /// Not answered at all.
    Dropped,
}

impl Fault {
    fn read(c: &mut Choices<'_>) -> Fault {
        let Some(b) = c.byte() else {
            return Fault::Whole;
        };
        let arg = c.byte().unwrap_or(0);
        match b % 16 {
            0..=5 => Fault::Whole,
            6 => Fault::Short(arg),
            7 => Fault::Empty,
            8 => Fault::Changed,
            9 => Fault::Unvalidated,
            10 | 11 => Fault::Overshoot(arg % 32),
            12 | 13 => Fault::SplitAligned(arg % 8 + 2),
            14 => Fault::SplitAnywhere(arg % 8 + 2),
            _ => Fault::Dropped,
        }
    }

    /// Whether the request may not have been answered whole.
    fn degrades(self) -> bool {
        !matches!(
            self,
            Fault::Whole | Fault::Unvalidated | Fault::Overshoot(_) | Fault::SplitAligned(_)
        )
    }
}

/// The library's driver with a fetcher that misbehaves per response; a
/// response missing from the end of a round's list is a dropped request.
struct Chaos<'a> {
    choices: Choices<'a>,
    page: u64,
    degraded: u64,
    changed: u64,
}

impl Fetcher for Chaos<'_> {
    fn fetch(&mut self, batch: &[Request]) -> Vec<Response> {
        let mut out = Vec::new();
        let mut degraded = false;
        for req in batch {
            let bytes = real_file(&req.name).expect("real table");
            let size = bytes.len() as u64;
            let fault = Fault::read(&mut self.choices);
            if std::env::var_os("PAGE_STORE_DEBUG").is_some() {
                eprintln!(
                    "{} {}..{} open {}: {fault:?}",
                    req.name, req.start, req.end, req.open
                );
            }
            degraded |= fault.degrades();
            let (start, end) = (req.start.min(size), req.end.min(size));
            let (end, validator) = match fault {
                Fault::Dropped => {
                    // This and the rest of the round go unanswered.
                    degraded = true;
                    break;
                }
                Fault::Short(n) => (start + (end - start) * u64::from(n) / 256, VALIDATOR),
                Fault::Empty => (start, VALIDATOR),
                Fault::Changed => {
                    self.changed += 1;
                    (end, "changed")
                }
                Fault::Unvalidated => (end, ""),
                Fault::Overshoot(n) => ((end + u64::from(n) * self.page).min(size), VALIDATOR),
                _ => (end, VALIDATOR),
            };
            out.push(Response::Bytes {
                size,
                validator: validator.to_string(),
                bytes: bytes[start as usize..end as usize].to_vec(),
            });
        }
        self.degraded += u64::from(degraded);
        out
    }
}

/// One piece of a file handed to the engine.
struct Piece {
    fetch: Fetch,
    validator: &'static str,
}

/// A driver loop over the engine that can also split and reorder what
/// arrives and add pages of any table. Returns the answer, rounds, degraded
/// rounds and validator changes.
fn own_driver(
    engine: &mut Engine,
    pos: &Chess,
    q: Query,
    c: &mut Choices<'_>,
    cap: u64,
) -> (Option<Result<Answer, ProbeError>>, u64, u64, u64) {
    let page = 1u64 << engine.config().page_log2;
    let (mut rounds, mut degraded, mut changed) = (0, 0, 0);
    let tick = engine.begin();
    let answer = loop {
        if rounds > cap {
            break None;
        }
        if std::env::var_os("PAGE_STORE_DEBUG").is_some() {
            eprintln!("-- round {}", rounds + 1);
        }
        let wants = match engine.attempt(|ctx| ask(ctx, pos, q)) {
            Ok(a) => break Some(Ok(a)),
            Err(Attempt::Failed(e)) => break Some(Err(e)),
            Err(Attempt::Need(w)) => w,
        };
        rounds += 1;
        let mut pieces: Vec<Piece> = Vec::new();
        let mut bad = false;
        for f in engine.fetches(&wants, u64::MAX) {
            let size = real_file(&engine.file_name(f.file)).map_or(0, |b| b.len() as u64);
            let (start, end) = (f.start.min(size), f.end.min(size));
            let fault = Fault::read(c);
            if std::env::var_os("PAGE_STORE_DEBUG").is_some() {
                let name = engine.file_name(f.file);
                eprintln!("{name} {}..{} open {}: {fault:?}", f.start, f.end, f.open);
            }
            bad |= fault.degrades();
            let mut piece = |s: u64, e: u64, validator| {
                pieces.push(Piece {
                    fetch: Fetch {
                        start: s,
                        end: e,
                        ..f.clone()
                    },
                    validator,
                })
            };
            match fault {
                Fault::Dropped => {}
                Fault::Short(n) => {
                    piece(start, start + (end - start) * u64::from(n) / 256, VALIDATOR)
                }
                Fault::Empty => piece(start, start, VALIDATOR),
                Fault::Changed => {
                    changed += 1;
                    piece(start, end, "changed")
                }
                Fault::Unvalidated => piece(start, end, ""),
                Fault::Overshoot(n) => {
                    piece(start, (end + u64::from(n) * page).min(size), VALIDATOR)
                }
                Fault::SplitAligned(k) | Fault::SplitAnywhere(k) => {
                    let aligned = matches!(fault, Fault::SplitAligned(_));
                    let mut cuts: Vec<u64> = (0..k)
                        .map(|_| {
                            let at = start + c.below(end - start + 1).unwrap_or(0);
                            if aligned {
                                (at / page * page).max(start)
                            } else {
                                at
                            }
                        })
                        .collect();
                    cuts.push(start);
                    cuts.push(end);
                    cuts.sort_unstable();
                    for w in cuts.windows(2) {
                        piece(w[0], w[1], VALIDATOR);
                    }
                }
                Fault::Whole => piece(start, end, VALIDATOR),
            }
        }
        // Pages nobody asked for, of tables probed or not.
        for _ in 0..c.byte().map_or(0, |b| b % 4) {
            let files = FILES.with(|f| f.clone());
            let name = &files[c.below(files.len() as u64).unwrap_or(0) as usize];
            let (table, ext) = name.split_once('.').expect("extension");
            let kind = if ext == "rtbw" { Kind::Wdl } else { Kind::Dtz };
            let shape = material_of_name(table).shape;
            let file = engine.file_id(table, kind, header::max_len(kind, &shape));
            let size = real_file(name).map_or(0, |b| b.len() as u64);
            let start = c.below(size.div_ceil(page)).unwrap_or(0) * page;
            let end = (start + (1 + c.below(16).unwrap_or(0)) * page).min(size);
            pieces.push(Piece {
                fetch: Fetch {
                    file,
                    start,
                    end,
                    open: false,
                },
                validator: VALIDATOR,
            });
        }
        // Any order.
        for i in (1..pieces.len()).rev() {
            if let Some(j) = c.below(i as u64 + 1) {
                pieces.swap(i, j as usize);
            }
        }
        for p in &pieces {
            let bytes = real_file(&engine.file_name(p.fetch.file)).expect("real table");
            let size = bytes.len() as u64;
            engine.supply(
                &p.fetch,
                Supply::Bytes {
                    size,
                    validator: p.validator,
                    bytes: &bytes[p.fetch.start as usize..p.fetch.end as usize],
                },
            );
        }
        degraded += u64::from(bad);
    };
    engine.end(tick);
    (answer, rounds, degraded, changed)
}

fuzz_target!(|data: &[u8]| {
    let mut c = Choices::new(data);
    let (Some(b0), Some(b1), Some(b2)) = (c.byte(), c.byte(), c.byte()) else {
        return;
    };
    let queries = [Query::Analyse, Query::Analyse, Query::Dtz, Query::Wdl];
    let q = queries[usize::from(b0 >> 6)];
    let picks = [
        usize::from(b0 & 15),
        usize::from((b0 >> 4) & 3) * 4 + usize::from(b2 >> 6),
    ];
    let config = Config {
        page_log2: 9 + u32::from(b1 & 7),
        head_bytes: [0, 512, 4 << 10, 64 << 10][usize::from((b1 >> 3) & 3)],
        // A small budget makes the second probe evict the first one's pages.
        memory_budget: if b1 & 0x20 != 0 { 128 << 10 } else { 64 << 20 },
        sparse_in_head: b1 & 0x40 != 0,
        index_in_head: b2 & 4 != 0,
        // Rounds joined to fit the connections, across gaps of held pages never.
        join_budget: if b1 & 0x80 != 0 { 256 << 10 } else { 0 },
        // Searches name what lies a step past their answers.
        multiplexed: b2 & 2 != 0,
        ..Config::default()
    };
    let use_library = b2 & 1 == 0;
    let mut tb = Tablebase::new(
        Chaos {
            choices: Choices::new(&[]),
            page: 1 << config.page_log2,
            degraded: 0,
            changed: 0,
        },
        config,
    );
    let mut engine = Engine::new(config);
    for (n, &i) in picks.iter().enumerate() {
        let pos = parse_fen(FENS[i]).expect("fixed FEN");
        let (want, clean_rounds) = clean(i, &pos, q, config);
        // A cold probe's rounds bound a probe's that knows more (pages held
        // from the probe before, or pages an overshooting answer brought
        // unasked) but for one, as long as nothing was evicted. The one:
        // while a cold probe's own WDL is unknown, the 1-ply search for its
        // DTZ names its children's DTZ pages as speculative reads, and those
        // serve the move list too; a probe whose WDL what it holds decides
        // (a winning capture) skips that search, and its children's DTZ
        // lookups, which wait for their WDL, then reach a DTZ sparse index
        // outside the head a round later (`8/3k4/8/8/3q4/8/4P3/Q3K3 b` with
        // KQvKP.rtbw at hand, heads without the sparse index: one round
        // more than cold). Evicted: a cold open brings a large head (for
        // small tables, the whole file) at once, while the header of an
        // evicted table stays parsed and its pages return one dependency
        // level at a time, so each level may cost one more round. Each
        // degraded round may cost a round, and each validator change (which
        // drops the file's pages and header) the whole probe again.
        let evicting = n > 0 && config.memory_budget < 1 << 20;
        let base = if evicting {
            2 * clean_rounds + 1
        } else {
            clean_rounds + 1
        };
        let bound = |degraded: u64, changed: u64| base * (1 + changed) + degraded + changed;
        if use_library {
            let rest = &data[3..];
            let chaos = tb.fetcher_mut();
            chaos.choices = Choices::new(if n == 0 {
                &rest[..rest.len() / 2]
            } else {
                &rest[rest.len() / 2..]
            });
            chaos.degraded = 0;
            chaos.changed = 0;
            tb.reset_stats();
            let got = tb.run(|ctx| ask(ctx, &pos, q));
            let rounds = tb.stats().rounds;
            let chaos = tb.fetcher_mut();
            let (degraded, changed) = (chaos.degraded, chaos.changed);
            match got {
                Err(ProbeError::Network(ref what, ref why))
                    if what == "tables" && why == "probe did not converge" =>
                {
                    assert!(
                        bound(degraded, changed) >= LIBRARY_ROUNDS,
                        "{}: gave up after {rounds} rounds with only {degraded} degraded, {changed} changes (clean {clean_rounds})",
                        FENS[i]
                    );
                }
                // Answers of two versions by turns: the library gives up
                // with a typed error after a few changes (see
                // drivers::run::MAX_VERSION_CHANGES), by design.
                Err(ProbeError::Network(_, ref why))
                    if changed > 0 && why.starts_with("the file changed version") => {}
                got => {
                    assert_eq!(got, want, "{}", FENS[i]);
                    assert!(
                        rounds <= bound(degraded, changed),
                        "{}: {rounds} rounds, {degraded} degraded, {changed} changes (clean {clean_rounds})",
                        FENS[i]
                    );
                }
            }
        } else {
            let cap = 4 * (data.len() as u64 + clean_rounds + 4);
            let (got, rounds, degraded, changed) = own_driver(&mut engine, &pos, q, &mut c, cap);
            let got = got.unwrap_or_else(|| panic!("{}: no answer after {rounds} rounds", FENS[i]));
            assert_eq!(got, want, "{}", FENS[i]);
            assert!(
                rounds <= bound(degraded, changed),
                "{}: {rounds} rounds, {degraded} degraded, {changed} changes (clean {clean_rounds})",
                FENS[i]
            );
        }
    }
});
