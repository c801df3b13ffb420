//! Inputs the fuzz targets (fuzz/, see RELIABILITY.md) found failing, kept
//! as small tests. Each names the target and the input that found it.

mod common;

use common::*;
use syzygy_web::drivers::{Fetcher, FsFetcher, Request, Response, Tablebase};
use syzygy_web::engine::{Attempt, Engine, Supply};
use syzygy_web::format::{header, Kind};
use syzygy_web::material::Material;
use syzygy_web::probe::{self, parse_fen, Analysis};
use syzygy_web::store::Fetch;
use syzygy_web::Config;

/// Serves the tables, but in the first round cuts the responses at the
/// given batch positions to the given fraction (in 256ths; 0 leaves no bytes,
/// only the size): cut bodies.
struct CutFirstRound {
    inner: FsFetcher,
    cuts: &'static [(usize, u64)],
    done: bool,
}

impl Fetcher for CutFirstRound {
    fn fetch(&mut self, batch: &[Request]) -> Vec<Response> {
        let mut out = self.inner.fetch(batch);
        if !std::mem::replace(&mut self.done, true) {
            for &(at, frac) in self.cuts {
                if let Some(Response::Bytes { bytes, .. }) = out.get_mut(at) {
                    bytes.truncate(bytes.len() * frac as usize / 256);
                }
            }
        }
        out
    }
}

fn clean(fen: &str, config: Config) -> (Analysis, u64) {
    let mut tb = Tablebase::new(FsFetcher::new(vec![syzygy_path()]), config);
    let a = tb.analyse(&parse_fen(fen).unwrap()).expect("clean answer");
    (a, tb.stats().rounds)
}

/// The first round's responses cut as `cuts` says: the same answer, at
/// most one round more than a clean probe.
fn first_round_cut(fen: &str, config: Config, cuts: &'static [(usize, u64)]) {
    let (want, clean_rounds) = clean(fen, config);
    let fetcher = CutFirstRound {
        inner: FsFetcher::new(vec![syzygy_path()]),
        cuts,
        done: false,
    };
    let mut tb = Tablebase::new(fetcher, config);
    let got = tb.analyse(&parse_fen(fen).unwrap()).expect("answer");
    assert_eq!(got, want, "{fen}");
    let rounds = tb.stats().rounds;
    assert!(
        rounds <= clean_rounds + 1,
        "{fen}: {rounds} rounds after a cut round, clean {clean_rounds}"
    );
}

/// page_store, input `4d 00 ff a6`: the head of KRPvK.rtbw came back empty
/// with 512-byte pages; the header was then fetched 512 B, 2 KiB, 8 KiB at
/// a time (4 rounds where a clean probe takes 1). A short head now costs one
/// round: the engine asks again for the whole head.
#[test]
fn empty_head_costs_one_round_small_pages() {
    let config = Config {
        page_log2: 9,
        head_bytes: 0,
        ..Config::default()
    };
    first_round_cut("8/5k2/8/8/2P5/8/8/R3K3 w - - 0 1", config, &[(0, 0)]);
}

/// page_store, input `67 b8 64 26 0f`: as above with a 64 KiB configured
/// head; the repeated request fetched only the header's bound, not the
/// configured head, and the indexes the head holds cost another round.
#[test]
fn empty_head_costs_one_round_large_head() {
    let config = Config {
        page_log2: 9,
        head_bytes: 64 << 10,
        memory_budget: 128 << 10,
        sparse_in_head: false,
        index_in_head: false,
        several_ranges: false,
        bridge_gaps: true,
        join_budget: 0,
        multiplexed: false,
    };
    first_round_cut("7r/8/8/4k3/8/8/8/R2RK3 b - - 0 1", config, &[(0, 0)]);
}

/// page_store, input `62 31 62 03 64 36 65 36 00 34 a0 03 64 36 65 36 00 03`:
/// the head of KPvKP.rtbw came back with 40 % of its bytes, enough for the
/// header but not for the indexes behind it, which then came one dependency
/// level at a time (sparse index, then block lengths): 4 rounds where a
/// clean probe takes 2. The rest of a short head now comes with the next
/// round's pages.
#[test]
fn short_head_holding_the_header_costs_one_round() {
    let config = Config {
        page_log2: 10,
        head_bytes: 4 << 10,
        memory_budget: 128 << 10,
        sparse_in_head: false,
        index_in_head: false,
        several_ranges: false,
        bridge_gaps: true,
        join_budget: 0,
        multiplexed: false,
    };
    first_round_cut(
        "8/8/8/8/3pP3/8/5K2/k7 b - e3 0 1",
        config,
        &[(1, 101), (2, 0)],
    );
}

/// page_store (own driver): a page nobody asked for, far from the start of
/// a file not yet opened, makes the file known without its head; the header
/// must still arrive in the round that would have opened the file (it took
/// three more for this pawnful header, fetched 512 B, 2 KiB, 8 KiB at a time).
#[test]
fn unasked_page_of_an_unopened_file_costs_no_round() {
    let fen = "8/8/3k4/8/2r5/8/4P3/R3K3 w - - 0 1";
    // The file is registered below with the header's bound as its head,
    // as the engine does without the sparse index in heads.
    let config = Config {
        page_log2: 9,
        sparse_in_head: false,
        index_in_head: false,
        several_ranges: false,
        bridge_gaps: true,
        ..Config::default()
    };
    let (want, clean_rounds) = clean(fen, config);
    let pos = parse_fen(fen).unwrap();
    let mut engine = Engine::new(config);
    let mut files = FsFetcher::new(vec![syzygy_path()]);
    let mat = Material::of(&shakmaty::Position::board(&pos).material());
    let id = engine.file_id(&mat.name, Kind::Wdl, header::max_len(Kind::Wdl, &mat.shape));
    let name = engine.file_name(id);
    let size = std::fs::metadata(syzygy_path().join(&name)).unwrap().len();
    let page = 512;
    let start = (size / 2) / page * page;
    let fetch = Fetch {
        file: id,
        start,
        end: start + page,
        open: false,
    };
    supply(&mut engine, &mut files, &name, &fetch);

    let tick = engine.begin();
    let mut rounds = 0;
    let got = loop {
        let wants = match engine.attempt(|ctx| probe::analyse(ctx, &pos)) {
            Ok(a) => break a,
            Err(Attempt::Failed(e)) => panic!("{e}"),
            Err(Attempt::Need(w)) => w,
        };
        rounds += 1;
        assert!(rounds <= 16, "no answer");
        for f in engine.fetches(&wants, u64::MAX) {
            let name = engine.file_name(f.file);
            supply(&mut engine, &mut files, &name, &f);
        }
    };
    engine.end(tick);
    assert_eq!(got, want);
    assert!(
        rounds <= clean_rounds,
        "{rounds} rounds, clean {clean_rounds}"
    );
}

fn supply(engine: &mut Engine, files: &mut FsFetcher, name: &str, f: &Fetch) {
    let req = Request {
        name: name.to_string(),
        start: f.start,
        end: f.end,
        open: f.open,
        version: None,
    };
    match files.fetch(&[req]).remove(0) {
        Response::Bytes {
            size,
            validator,
            bytes,
        } => engine.supply(
            f,
            Supply::Bytes {
                size,
                validator: &validator,
                bytes: &bytes,
            },
        ),
        Response::Absent => engine.supply(f, Supply::Absent),
        Response::Failed(why) => panic!("{name}: {why}"),
    };
}
