//! Differential tests against shakmaty-syzygy on the official tables:
//! every legal position of every 3-piece table, seeded samples of every
//! 4- and 5-piece table (with en passant positions), and full move lists.

mod common;

use common::*;
use shakmaty::Position;

#[test]
fn three_piece_tables_exhaustive() {
    let (mut us, them) = (ours(), theirs());
    let mut total = 0;
    for name in table_names().into_iter().filter(|n| n.len() == 4) {
        let mut bad = Vec::new();
        let n = all_positions(&name, |p| {
            if let Err(e) = compare(&mut us, &them, p) {
                if bad.len() < 5 {
                    bad.push(e);
                }
            }
        });
        assert!(bad.is_empty(), "{name}: {bad:#?}");
        total += n;
    }
    println!("3-piece positions compared: {total}");
    assert!(total > 1_000_000);
}

/// A number from the environment: `SYZYGY_DIFF_SEED` and
/// `SYZYGY_DIFF_SAMPLES` (positions per table) draw other or more positions
/// than CI's for a longer run by hand.
fn setting(key: &str) -> Option<u64> {
    std::env::var(key).ok().and_then(|v| v.parse().ok())
}

/// `per_table` positions of each table of `pieces` pieces, seed 2026 (see [`setting`]).
fn sampled(pieces: usize, per_table: usize) {
    let seed = setting("SYZYGY_DIFF_SEED").unwrap_or(2026);
    let per_table = setting("SYZYGY_DIFF_SAMPLES").map_or(per_table, |n| n as usize);
    let (mut us, them) = (ours(), theirs());
    let mut total = 0;
    let mut failures = Vec::new();
    for name in table_names().into_iter().filter(|n| n.len() == pieces + 1) {
        for p in sample(&name, per_table, seed) {
            total += 1;
            if let Err(e) = compare(&mut us, &them, &p) {
                failures.push(e);
            }
        }
    }
    println!("{pieces}-piece positions compared: {total} (seed {seed})");
    if total == 0 {
        required(&format!("{pieces}-piece tables at SYZYGY_PATH"));
    }
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(8)]
    );
}

#[test]
fn four_piece_tables_sampled() {
    sampled(4, 20_000);
}

#[test]
fn five_piece_tables_sampled() {
    sampled(5, 10_000);
}

#[test]
fn move_lists_match_reference() {
    // A hundredth of `SYZYGY_DIFF_SAMPLES`: a move list is dozens of probes.
    let seed = setting("SYZYGY_DIFF_SEED").unwrap_or(7);
    let per_table = setting("SYZYGY_DIFF_SAMPLES").map_or(150, |n| n as usize / 100);
    let (mut us, them) = (ours(), theirs());
    let mut moves = 0;
    for name in table_names().into_iter().filter(|n| n.len() >= 5) {
        for p in sample(&name, per_table, seed) {
            moves += check_move_list(&mut us, &them, &p);
        }
    }
    println!("moves compared: {moves}");
    if moves == 0 {
        required("4-5 piece tables at SYZYGY_PATH");
    }
}

/// Issue 12's positions, whose move lists take many children's DTZ from
/// their own children's table values (a pawn about to promote, lost
/// children whose side the DTZ table does not store), and the move list
/// of every position one move on.
#[test]
fn promotion_move_lists_match_reference() {
    let (mut us, them) = (ours(), theirs());
    let mut moves = 0;
    for f in [
        "8/4P2K/8/8/5Q2/q7/6k1/8 w - - 0 1",
        "8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1",
        "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    ] {
        let p = syzygy_web::probe::parse_fen(f).expect("FEN");
        moves += check_move_list(&mut us, &them, &p);
        for m in p.legal_moves() {
            let mut child = p.clone();
            child.play_unchecked(m);
            if child.board().occupied().count() > 2 {
                moves += check_move_list(&mut us, &them, &child);
            }
        }
    }
    println!("moves compared: {moves}");
}

/// A lost position's DTZ from its children's table values: where a
/// zeroing move wins, a child's entry is free and may decode past the
/// DTZ map. `2q5/k7/7P/4K3/8/6Q1/8/8 b` (found among 3000 random KQPvKQ
/// positions by the CLI, which answered "corrupt table" until 2026-12-02)
/// meets one two plies on; its move list, and a sample of KQPvKQ with
/// black to move, against the reference.
#[test]
fn a_free_entry_past_the_dtz_map_is_no_corruption() {
    let (mut us, them) = (ours(), theirs());
    let p = syzygy_web::probe::parse_fen("2q5/k7/7P/4K3/8/6Q1/8/8 b - - 0 1").expect("FEN");
    let mut moves = check_move_list(&mut us, &them, &p);
    for p in sample("KQPvKQ", 3000, 63)
        .into_iter()
        .filter(|p| p.turn() == shakmaty::Color::Black)
    {
        moves += check_move_list(&mut us, &them, &p);
    }
    println!("moves compared: {moves}");
}

/// Our move list of `p` against the reference's WDL and DTZ after each
/// move; the number of moves compared.
fn check_move_list(
    us: &mut syzygy_web::drivers::Tablebase<syzygy_web::drivers::FsFetcher>,
    them: &shakmaty_syzygy::Tablebase<shakmaty::Chess>,
    p: &shakmaty::Chess,
) -> usize {
    let a = us.analyse(p).unwrap_or_else(|e| panic!("{}: {e}", fen(p)));
    assert_eq!(a.moves.len(), p.legal_moves().len());
    for m in p.legal_moves() {
        let mut child = p.clone();
        child.play_unchecked(m);
        let uci = m.to_uci(shakmaty::CastlingMode::Standard).to_string();
        let ours_m = a.moves.iter().find(|x| x.uci == uci).expect("move listed");
        let tw = wdl_of(them.probe_wdl_after_zeroing(&child).expect("reference"));
        let td = dtz_of(them.probe_dtz(&child).expect("reference"));
        assert_eq!(
            (ours_m.wdl, ours_m.dtz),
            (tw, td.0),
            "{} after {uci}",
            fen(p)
        );
        let exact_here = forced_zeroing_near(&child);
        // Where the reference says exact of a defence tied with a rounded one, ours says rounded.
        let tied = !ours_m.precise && td.1 && ties_a_rounded_defence(them, &child);
        assert!(
            ours_m.precise == td.1 || (ours_m.precise && exact_here) || tied,
            "{} after {uci}: precise",
            fen(p)
        );
    }
    a.moves.len()
}

/// Every legal position of 4-piece tables up to board symmetry, WDL and
/// DTZ (DTZ often needs a 1-ply search on both sides): several CPU-minutes
/// per table, so it runs only with SYZYGY_EXHAUSTIVE=1 (all) or
/// SYZYGY_EXHAUSTIVE=KPvKP,KBBvK (some).
#[test]
fn four_piece_tables_exhaustive() {
    let which = std::env::var("SYZYGY_EXHAUSTIVE").unwrap_or_default();
    if which.is_empty() || which == "0" {
        println!("skipped: set SYZYGY_EXHAUSTIVE=1 or a comma-separated list of 4-piece tables");
        return;
    }
    let chosen: Vec<&str> = which.split(',').collect();
    let (mut us, them) = (ours(), theirs());
    let mut total = 0;
    for name in table_names().into_iter().filter(|n| n.len() == 5) {
        if which != "1" && !chosen.contains(&name.as_str()) {
            continue;
        }
        let mut bad = Vec::new();
        let started = std::time::Instant::now();
        let n = positions_up_to_symmetry(&name, |p| {
            if let Err(e) = compare(&mut us, &them, p) {
                if bad.len() < 5 {
                    bad.push(e);
                }
            }
        });
        assert!(bad.is_empty(), "{name}: {bad:#?}");
        total += n;
        println!(
            "{name}: {n} positions agree ({:.0} s)",
            started.elapsed().as_secs_f64()
        );
    }
    println!("4-piece positions compared: {total}");
}

/// Positions whose only legal move is an en passant capture (stalemate
/// without it, and mate without it), which random samples almost never
/// reach: the table's value of the position is not its value, the
/// capture's is. No table here holds these 5-piece positions and none is
/// needed: the answer must be the reference's value of the position after
/// the capture, reached by a zeroing move (1 or 101 plies).
#[test]
fn only_move_en_passant_takes_the_captures_value() {
    let (mut us, them) = (ours(), theirs());
    for f in [
        // Stalemate without exd6: the queen takes g8, g7 and h7.
        "7K/8/4k1q1/3pP3/8/8/8/8 w - d6 0 1",
        // Mate without exd6: d7-d5 gave check, the king's squares are taken.
        "8/8/8/3pP3/2k1K3/8/5q2/8 w - d6 0 1",
    ] {
        let p = parse(f);
        let moves = p.legal_moves();
        assert!(
            moves.len() == 1 && moves[0].is_en_passant(),
            "{f}: {moves:?}"
        );
        let mut child = p.clone();
        child.play_unchecked(moves[0]);
        let after = wdl_of(them.probe_wdl_after_zeroing(&child).expect("reference"));
        let a = us.analyse(&p).unwrap_or_else(|e| panic!("{f}: {e}"));
        let dtz = match -after {
            2 => 1,
            1 => 101,
            0 => 0,
            -1 => -101,
            _ => -1,
        };
        assert_eq!((a.wdl, a.dtz), (-after, dtz), "{f}");
        assert_eq!(a.moves.len(), 1, "{f}");
    }
}
