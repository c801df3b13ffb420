//! Arbitrary bytes as a FEN. `parse_fen` must return a position or a typed
//! error; a position must then be analysed against the real tables (files
//! read by the `FsFetcher`) without panicking, and the answer must agree
//! with the reference prober (shakmaty-syzygy) for the position and for
//! every legal move wherever both answer.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use shakmaty::{Chess, Position};
use shakmaty_syzygy::{Dtz, MaybeRounded, Wdl};
use syzygy_web::drivers::{FsFetcher, Tablebase};
use syzygy_web::probe::parse_fen;
use syzygy_web::{Config, ProbeError};
use syzygy_web_fuzz::tables_dir;

thread_local! {
    // One warm engine for the whole run: answers must not depend on what
    // earlier inputs left in the page store.
    static OURS: RefCell<Tablebase<FsFetcher>> =
        RefCell::new(Tablebase::new(FsFetcher::new(vec![tables_dir()]), Config::default()));
    static THEIRS: shakmaty_syzygy::Tablebase<Chess> = {
        let mut tb = shakmaty_syzygy::Tablebase::new();
        tb.add_directory(tables_dir()).expect("tables");
        tb
    };
}

/// The reference's WDL (-2..=2) and DTZ plies, or None where it does not answer.
fn reference(tb: &shakmaty_syzygy::Tablebase<Chess>, pos: &Chess) -> Option<(i8, i32)> {
    let w = match tb.probe_wdl_after_zeroing(pos).ok()? {
        Wdl::Loss => -2,
        Wdl::BlessedLoss => -1,
        Wdl::Draw => 0,
        Wdl::CursedWin => 1,
        Wdl::Win => 2,
    };
    let d = match tb.probe_dtz(pos).ok()? {
        MaybeRounded::Precise(Dtz(v)) | MaybeRounded::Rounded(Dtz(v)) => v,
    };
    Some((w, d))
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(pos) = parse_fen(&text) else {
        return;
    };
    let ours = OURS.with(|tb| tb.borrow_mut().analyse(&pos));
    let a = match ours {
        Ok(a) => a,
        // Tables here cover some 5-piece materials only.
        Err(ProbeError::MissingTable(_)) => return,
        Err(e) => panic!("{text:?}: {e}"),
    };
    assert_eq!(a.moves.len(), pos.legal_moves().len(), "{text:?}");
    THEIRS.with(|tb| {
        if let Some(r) = reference(tb, &pos) {
            assert_eq!((a.wdl, a.dtz), r, "{text:?}: ours vs reference");
        }
        for m in pos.legal_moves() {
            let uci = m.to_uci(shakmaty::CastlingMode::Standard).to_string();
            let mut child = pos.clone();
            child.play_unchecked(m);
            let Some(mine) = a.moves.iter().find(|x| x.uci == uci) else {
                panic!("{text:?}: move {uci} missing from the analysis");
            };
            if let Some(e) = &mine.error {
                assert!(
                    matches!(e, ProbeError::MissingTable(_)),
                    "{text:?} after {uci}: {e}"
                );
                continue;
            }
            if let Some(r) = reference(tb, &child) {
                assert_eq!((mine.wdl, mine.dtz), r, "{text:?} after {uci}");
            }
        }
    });
});
