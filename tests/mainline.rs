//! Mainlines: a long cursed line from a cold start within the round bound
//! of each step (not of the whole line), and the CLI's `--mainline`.

mod common;

use std::process::Command;

use common::*;
use syzygy_web::drivers::{Fetcher, FsFetcher, Request, Response, SimFetcher, Tablebase};
use syzygy_web::probe::{parse_fen, Mainline};
use syzygy_web::Config;

/// The longest cursed win in the test tables (found by sampling KRBvKR):
/// DTZ 110 by the reference (checked below), a line of over a hundred plies.
const CURSED: &str = "1k6/8/r7/2KB4/6R1/8/8/8 w - - 0 1";

/// A server that answers at most 512 bytes per request (a short 206 is
/// legal), with 512-byte pages: every page costs a round, so a line needs
/// many rounds.
struct OnePage {
    inner: SimFetcher,
}

impl Fetcher for OnePage {
    fn fetch(&mut self, batch: &[Request]) -> Vec<Response> {
        let mut out = self.inner.fetch(batch);
        for r in &mut out {
            if let Response::Bytes { bytes, .. } = r {
                bytes.truncate(512);
            }
        }
        out
    }
}

/// DTZ steps one ply towards zero along the line, which ends with a
/// zeroing move or mate.
fn check_line(l: &Mainline) {
    assert!(!l.moves.is_empty());
    let mut d = l.dtz.abs();
    for (i, m) in l.moves.iter().enumerate() {
        let last = i + 1 == l.moves.len();
        if m.zeroing || last {
            assert!(last, "the line stops at the first zeroing move");
            break;
        }
        // Rounded values may be one ply off.
        assert!(
            (m.dtz.abs() - (d - 1)).abs() <= 1,
            "ply {i}: dtz {} after {d}",
            m.dtz
        );
        d = m.dtz.abs();
    }
}

#[test]
fn a_long_cursed_line_from_cold_is_bounded_per_step() {
    let pos = parse_fen(CURSED).expect("fen");
    let warm = ours().mainline(&pos).expect("local mainline");
    // Sampling only chose the position; its values are the reference's,
    // read here: a cursed win whose zeroing move is more than 100 plies off.
    let them = theirs();
    let p = parse(CURSED);
    let wdl = wdl_of(them.probe_wdl_after_zeroing(&p).expect("reference wdl"));
    let (dtz, precise) = dtz_of(them.probe_dtz(&p).expect("reference dtz"));
    assert_eq!((i32::from(wdl), i32::from(warm.wdl)), (1, 1));
    assert!(
        warm.dtz == dtz || (!precise && (warm.dtz - dtz).abs() == 1),
        "ours {}, reference {dtz} (precise {precise})",
        warm.dtz
    );
    assert!(warm.dtz > 100, "{}", warm.dtz);
    check_line(&warm);
    let mut cold = Tablebase::new(
        OnePage {
            inner: SimFetcher::new(FsFetcher::new(vec![syzygy_path()]), 0),
        },
        Config {
            page_log2: 9,
            ..Config::default()
        },
    );
    let line = cold
        .mainline(&pos)
        .expect("cold mainline over a short-answering server");
    assert_eq!(line, warm);
    let log = &cold.fetcher_mut().inner.log;
    println!(
        "cursed line of {} plies, cold, 512 bytes per response: {} rounds, {} requests, {} bytes",
        line.moves.len(),
        log.rounds,
        log.requests,
        log.bytes
    );
    // More rounds than a whole line was allowed before; each step stays
    // within its own bound.
    assert!(log.rounds > 256, "{} rounds", log.rounds);
}

#[test]
fn cli_json_mainline_lists_the_line_in_uci() {
    let out = Command::new(env!("CARGO_BIN_EXE_syzygy-web"))
        .args(["probe", "--json", "--mainline", "--path"])
        .arg(syzygy_path())
        .arg(CURSED)
        .output()
        .expect("run the CLI");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let want = ours()
        .mainline(&parse_fen(CURSED).expect("fen"))
        .expect("mainline");
    let ucis: Vec<String> = want
        .moves
        .iter()
        .map(|m| format!("\"{}\"", m.uci))
        .collect();
    let field = format!("\"mainline\":[{}]", ucis.join(","));
    assert!(text.contains(&field), "{text}");
    assert!(text.contains("\"category\":\"cursed-win\""), "{text}");
    // A drawn position's line is empty.
    let out = Command::new(env!("CARGO_BIN_EXE_syzygy-web"))
        .args(["probe", "--json", "--mainline", "--path"])
        .arg(syzygy_path())
        .arg("8/8/8/4k3/8/8/8/3BK3 w - - 0 1")
        .output()
        .expect("run the CLI");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.contains("\"mainline\":[]"), "{text}");
}
