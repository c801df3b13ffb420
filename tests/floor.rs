//! The floor under a cold analysis's requests and bytes (see
//! `common::floor`): what the decoder reads, as logged by the engine, and
//! how few single-range requests could carry it.

mod common;

use common::floor::{cold_then_warm, Floor};
use common::*;
use shakmaty::Chess;
use syzygy_web::drivers::{FsFetcher, SimFetcher, Tablebase};
use syzygy_web::engine::ReadSpan;
use syzygy_web::Config;

fn span(file: u32, start: u64, end: u64) -> ReadSpan {
    ReadSpan { file, start, end }
}

#[test]
fn the_floor_joins_the_smallest_gaps_first() {
    // File 0: runs [0,10) and [12,20) (gap 2), then [120,130) (gap 100); file 1: [0,5).
    let f = Floor::of(&[
        span(0, 0, 10),
        span(0, 5, 8),
        span(0, 12, 20),
        span(0, 120, 130),
        span(1, 0, 5),
    ]);
    assert_eq!((f.files, f.runs, f.bytes), (2, 4, 33));
    assert_eq!(f.bytes_for(4), Some(33));
    assert_eq!(f.bytes_for(3), Some(35));
    assert_eq!(f.bytes_for(2), Some(135));
    assert_eq!(f.bytes_for(1), None);
    assert_eq!(f.requests_within(34), Some(4));
    assert_eq!(f.requests_within(35), Some(3));
    assert_eq!(f.requests_within(1000), Some(2));
    assert_eq!(f.requests_within(10), None);
}

/// [`cold_then_warm`] on the simulated network: the ranges fetched, by
/// file name, the spans the warm analysis read, by file name, and those
/// spans.
type Named = Vec<(String, u64, u64)>;
fn fetched_and_read(p: &Chess) -> (Named, Named, Vec<ReadSpan>) {
    let mut t = Tablebase::new(
        SimFetcher::new(FsFetcher::new(vec![syzygy_path()]), 50),
        Config::default(),
    );
    let (log, spans) = cold_then_warm(&mut t, p);
    let fetched = log.per_round.into_iter().flatten();
    let fetched = fetched.map(|r| (r.name, r.start, r.end)).collect();
    let read = spans
        .iter()
        .map(|s| (t.engine().file_name(s.file), s.start, s.end))
        .collect();
    (fetched, read, spans)
}

/// Oracle-free: every byte a warm analysis reads was fetched by the cold
/// one, and a cold analysis fetches at least the floor's bytes.
#[test]
fn warm_reads_lie_within_what_the_cold_analysis_fetched() {
    let mut set: Vec<Chess> = ["KRPvKR", "KQvKR", "KBNvK"]
        .iter()
        .flat_map(|n| sample(n, 3, 7))
        .collect();
    set.push(parse("8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1"));
    for p in &set {
        let (fetched, read, spans) = fetched_and_read(p);
        assert!(!read.is_empty(), "{}: a warm analysis reads", fen(p));
        for (name, start, end) in &read {
            // Fetched ranges of one file, in order: they must cover the span.
            let mut ranges: Vec<(u64, u64)> = fetched
                .iter()
                .filter(|(n, ..)| n == name)
                .map(|&(_, a, b)| (a, b))
                .collect();
            ranges.sort_unstable();
            let mut at = *start;
            for (a, b) in ranges {
                if a <= at && at < b {
                    at = b;
                }
            }
            assert!(
                at >= *end,
                "{}: {name} {start}..{end} read but not fetched",
                fen(p)
            );
        }
        let fetched_bytes: u64 = fetched.iter().map(|(_, a, b)| b - a).sum();
        assert!(Floor::of(&spans).bytes <= fetched_bytes, "{}", fen(p));
    }
}

/// Issue 12 asks for at most 40 requests and 800 KiB per cold analysis.
/// For this rook promotion no driver that fetches one range per request
/// meets both: forty requests cannot carry what its analysis reads in
/// less than 818 KiB, even knowing every offset in advance, and 800 KiB
/// take at least 41. (Measured here, 2026-11-25: 13 files, 202 runs,
/// 310 KiB read; 48 requests need at least 591 KiB, 54 at least 520.
/// Before rooks and queens against a bare king were decided by the rules:
/// 16 files, 210 runs, 311 KiB, and 951 KiB for 40 requests.)
#[test]
fn forty_requests_cannot_carry_the_rook_promotion_in_800_kib() {
    let (_, _, spans) = fetched_and_read(&parse("8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1"));
    let floor = Floor::of(&spans);
    println!(
        "{} files, {} runs, {} KiB read; 40, 48, 54 requests: {:?} KiB; within 800 KiB: {:?} requests",
        floor.files,
        floor.runs,
        floor.bytes >> 10,
        [40, 48, 54].map(|n| floor.bytes_for(n).map(|b| b >> 10)),
        floor.requests_within(800 << 10)
    );
    assert!(floor.bytes_for(40).is_some_and(|b| b > 800 << 10));
    assert!(floor.requests_within(800 << 10).is_some_and(|r| r > 40));
}
