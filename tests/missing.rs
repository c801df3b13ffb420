//! Answers that do not need a missing table: with one table file taken
//! away, every value we still give must equal the full set's, and the
//! values decided without it (a winning capture, a mate) must be given.

mod common;

use std::path::PathBuf;

use common::*;
use shakmaty::{CastlingMode, Position};
use syzygy_web::drivers::{FsFetcher, Tablebase};
use syzygy_web::probe::{parse_fen, Analysis, MainlineStep, MoveInfo};
use syzygy_web::{Config, ProbeError};

/// A folder of links to every official table except `without`'s files
/// (a material's two, or one file named with its extension).
fn tables_without(without: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "syzygy-web-without-{without}-{}-{n}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = std::fs::canonicalize(syzygy_path()).expect("tables");
    for e in std::fs::read_dir(&src).expect("tables").flatten() {
        let name = e.file_name().into_string().expect("name");
        if name == without || name.starts_with(&format!("{without}.")) {
            continue;
        }
        std::os::unix::fs::symlink(e.path(), dir.join(&name)).expect("link");
    }
    dir
}

fn prober(dir: PathBuf) -> Tablebase<FsFetcher> {
    Tablebase::new(FsFetcher::new(vec![dir]), Config::default())
}

fn missing(e: &Option<ProbeError>, name: &str) -> bool {
    matches!(e, Some(ProbeError::MissingTable(n)) if n.starts_with(name))
}

/// The issue's example. The test tables lack KBPvKP, as the reference
/// prober sees them too: bxa6 e.p. wins at once, so the position has a
/// value (the reference's), and so has every move that does not lead into
/// KBPvKP; the others carry their own missing-table error.
#[test]
fn a_winning_en_passant_capture_needs_no_table() {
    assert!(!syzygy_path().join("KBPvKP.rtbw").exists());
    let pos = parse_fen("1kB5/3K4/8/pP6/8/8/8/8 w - a6 0 1").expect("fen");
    let a = ours().analyse(&pos).expect("answered without KBPvKP");
    let them = theirs();
    let reference = |p: &shakmaty::Chess| {
        Some((
            wdl_of(them.probe_wdl_after_zeroing(p).ok()?),
            dtz_of(them.probe_dtz(p).ok()?),
        ))
    };
    let (tw, (td, tp)) = reference(&pos).expect("the reference answers");
    assert_eq!((a.wdl, a.dtz, a.precise), (tw, td, tp));
    assert_eq!((a.wdl, a.dtz), (2, 1));
    assert_eq!(a.moves.len(), pos.legal_moves().len());
    assert_eq!(a.moves[0].uci, "b5a6");
    let mut errors = 0;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let uci = m.to_uci(CastlingMode::Standard).to_string();
        let ours_m = a.moves.iter().find(|x| x.uci == uci).expect("listed");
        match reference(&child) {
            Some((w, (d, _))) => assert_eq!((ours_m.wdl, ours_m.dtz, &ours_m.error), (w, d, &None)),
            None => {
                assert!(
                    missing(&ours_m.error, "KBPvKP"),
                    "{uci}: {:?}",
                    ours_m.error
                );
                errors += 1;
            }
        }
    }
    assert!(errors > 0, "moves into KBPvKP say what is missing");
    let json = syzygy_web::report::analysis("x", &a);
    assert!(json.contains(r#""code":"missing-table""#), "{json}");
    // Errors sort after every answered move.
    let first_error = a.moves.iter().position(|m| m.error.is_some()).expect("one");
    assert!(a.moves[first_error..].iter().all(|m| m.error.is_some()));
}

/// A mate or a stalemate is decided by the rules alone.
#[test]
fn mate_and_stalemate_need_no_table() {
    let mut all = ours();
    let empty = std::env::temp_dir().join(format!("syzygy-web-no-tables-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("temp dir");
    let mut empty = prober(empty);
    for (fen, wdl, dtz) in [
        ("Q6k/8/6K1/8/8/8/8/8 b - - 0 1", -2, -1),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0, 0),
    ] {
        let pos = parse_fen(fen).expect("fen");
        let a = empty.analyse(&pos).expect("answered with no tables");
        let full = all.analyse(&pos).expect("answer");
        assert_eq!((a.wdl, a.dtz), (wdl, dtz), "{fen}");
        assert_eq!(a, full, "{fen}");
    }
}

/// Whether a move's category is known: answered, or decided by its WDL
/// alone (a zeroing move starts the clock again; a cursed, blessed or
/// drawn result needs no DTZ).
fn decided(m: &MoveInfo) -> bool {
    m.error.is_none() || (m.wdl_known && (m.zeroing || m.wdl.abs() != 2))
}

/// Moves ranked by WDL first (lower: better for the mover), those without
/// even a WDL last; within a WDL, known categories best first, then the
/// moves whose category the clock leaves to an unknown DTZ. A move without
/// its DTZ is never listed above an answered move the full set (`f`)
/// ranks above it: it ranks as the worst its WDL allows.
fn assert_ranked(a: &Analysis, f: &Analysis, fen: &str) {
    let at = |uci: &str| f.moves.iter().position(|x| x.uci == uci);
    for (i, m) in a.moves.iter().enumerate() {
        if m.error.is_none() {
            continue;
        }
        for x in a.moves[i + 1..].iter().filter(|x| x.error.is_none()) {
            assert!(at(&m.uci) < at(&x.uci), "{fen}: {} above {}", m.uci, x.uci);
        }
    }
    for w in a.moves.windows(2) {
        let (x, y) = (&w[0], &w[1]);
        assert!(x.wdl_known || !y.wdl_known, "{fen}: {} {}", x.uci, y.uci);
        if !y.wdl_known {
            continue;
        }
        assert!(x.wdl <= y.wdl, "{fen}: {} {}", x.uci, y.uci);
        if x.wdl == y.wdl {
            assert!(decided(x) || !decided(y), "{fen}: {} {}", x.uci, y.uci);
            if decided(x) && decided(y) {
                assert!(x.category <= y.category, "{fen}: {} {}", x.uci, y.uci);
            }
        }
    }
}

/// Whatever is answered without a table equals the full set's answer: a
/// move without a result has at most its WDL, equal to the full set's,
/// and has it wherever only a DTZ file is missing.
fn compare_without(without: &str, materials: &[&str], per: usize) -> (u64, u64, u64, u64) {
    let mut part = prober(tables_without(without));
    let mut full = ours();
    let (mut roots, mut answered, mut moves, mut move_errors) = (0, 0, 0, 0);
    for name in materials {
        for p in sample(name, per, 13) {
            roots += 1;
            let f: Analysis = full.analyse(&p).expect("full answer");
            let a = match part.analyse(&p) {
                Ok(a) => a,
                Err(ProbeError::MissingTable(n)) if n.starts_with(without) => continue,
                Err(e) => panic!("{}: {e}", fen(&p)),
            };
            answered += 1;
            assert_eq!(
                (a.wdl, a.dtz, a.precise, a.category),
                (f.wdl, f.dtz, f.precise, f.category),
                "{}",
                fen(&p)
            );
            assert_eq!(a.moves.len(), f.moves.len());
            assert_ranked(&a, &f, &fen(&p));
            // The answered moves keep the full set's order among themselves.
            let order = |moves: &[MoveInfo]| -> Vec<String> {
                let known: Vec<&str> = a
                    .moves
                    .iter()
                    .filter(|m| m.error.is_none())
                    .map(|m| m.uci.as_str())
                    .collect();
                moves
                    .iter()
                    .filter(|m| known.contains(&m.uci.as_str()))
                    .map(|m| m.uci.clone())
                    .collect()
            };
            assert_eq!(order(&a.moves), order(&f.moves), "{}", fen(&p));
            for m in &a.moves {
                moves += 1;
                let fm = f.moves.iter().find(|x| x.uci == m.uci).expect("listed");
                if m.error.is_some() {
                    assert!(missing(&m.error, without), "{} {}", fen(&p), m.uci);
                    // (Without both files the rules may still decide the
                    // WDL: rooks and queens against a bare king.)
                    assert!(m.wdl_known || !without.ends_with(".rtbz"), "{}", fen(&p));
                    if m.wdl_known {
                        assert_eq!(m.wdl, fm.wdl, "{} {}", fen(&p), m.uci);
                    }
                    move_errors += 1;
                } else {
                    assert_eq!(m, fm, "{}", fen(&p));
                }
            }
        }
    }
    (roots, answered, moves, move_errors)
}

#[test]
fn answers_without_a_table_equal_the_full_sets() {
    let (roots, answered, moves, errors) = compare_without("KPvK", &["KPvKP", "KPPvK"], 1500);
    println!(
        "without KPvK: {roots} positions, {answered} answered, {moves} moves listed, {errors} with a per-move error"
    );
    assert!(answered > 100 && errors > 100);
    let (roots, answered, moves, errors) =
        compare_without("KQvK", &["KQvKP", "KQvKR", "KPvK"], 500);
    println!(
        "without KQvK: {roots} positions, {answered} answered, {moves} moves listed, {errors} with a per-move error"
    );
    assert!(answered > 100 && errors > 0);
}

/// The first sampled position of `material` with a move that keeps its
/// WDL without a result and passes `pick`, and that move.
fn move_with_its_wdl_alone(
    dir: &std::path::Path,
    material: &str,
    n: usize,
    seed: u64,
    pick: impl Fn(&MoveInfo) -> bool,
) -> Option<(shakmaty::Chess, MoveInfo)> {
    let mut part = prober(dir.to_path_buf());
    sample(material, n, seed).into_iter().find_map(|p| {
        let a = part.analyse(&p).ok()?;
        let m = a
            .moves
            .into_iter()
            .find(|m| m.wdl_known && m.error.is_some() && pick(m))?;
        Some((p, m))
    })
}

/// The CLI's `probe` output for `fen` over the tables in `dir`, exit status 0.
fn cli_probe(dir: &std::path::Path, args: &[&str], fen: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_syzygy-web"))
        .arg("probe")
        .args(args)
        .arg("--path")
        .arg(dir)
        .arg(fen)
        .output()
        .expect("run the CLI");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(out.status.code(), Some(0), "{fen}: {text}");
    text
}

/// A host with a material's WDL file but not its DTZ file (as mirrors
/// that serve 6- and 7-piece WDL tables alone are for the moves into
/// them): a move into it still has its WDL, equal to the full set's, and
/// the CLI gives it beside the missing table's error.
#[test]
fn a_move_without_its_dtz_table_keeps_its_wdl() {
    for (without, materials) in [
        ("KPvK.rtbz", &["KPvKP", "KPPvK"][..]),
        ("KQvK.rtbz", &["KQvKP", "KQvKR", "KPvK"][..]),
    ] {
        let (roots, answered, moves, errors) = compare_without(without, materials, 500);
        println!(
            "without {without}: {roots} positions, {answered} answered, {moves} moves listed, {errors} with their WDL alone"
        );
        assert!(answered > 100 && errors > 0, "{without}");
    }
    let dir = tables_without("KQvK.rtbz");
    let (p, m) = move_with_its_wdl_alone(&dir, "KPvK", 500, 13, |_| true)
        .expect("a KPvK position promoting into KQvK");
    let text = cli_probe(&dir, &["--json"], &fen(&p));
    let object = format!(
        "{{\"uci\":\"{}\",\"san\":\"{}\",\"wdl\":{},\"dtz\":null,\"precise\":null,",
        m.uci, m.san, m.wdl
    );
    assert!(text.contains(&object), "{object} in {text}");
    assert!(
        text.contains("\"dtm\":null,\"error\":\"missing table: KQvK.rtbz\",\"code\":\"missing-table\",\"zeroing\":true"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// At a running clock the category decides the ranking first: a move
/// whose WDL alone is known, where that WDL decides its category (a
/// capture or pawn move starts the clock again), ranks by that category,
/// above answered moves of its WDL that the clock spoils; one whose
/// category the clock leaves to the DTZ comes after every move of its WDL.
/// Each such category equals the full set's, and the answered moves keep
/// the full set's order.
#[test]
fn moves_with_their_wdl_alone_rank_by_the_category_it_decides() {
    let dir = tables_without("KPvK.rtbz");
    let mut part = prober(dir.clone());
    let mut full = ours();
    let (mut positions, mut by_category, mut lifted) = (0, 0, 0);
    for name in ["KPvKP", "KPPvK"] {
        for p in sample(name, 600, 29) {
            // At clock 98 (a position with an en passant square cannot be).
            let at_zero = fen(&p);
            let Some((head, _)) = at_zero.rsplit_once(" 0 ") else {
                continue;
            };
            let Ok(p) = parse_fen(&format!("{head} 98 1")) else {
                continue;
            };
            let (Ok(a), Ok(f)) = (part.analyse(&p), full.analyse(&p)) else {
                continue;
            };
            positions += 1;
            assert_ranked(&a, &f, &fen(&p));
            for (i, m) in a.moves.iter().enumerate() {
                if m.error.is_none() || !m.wdl_known || !decided(m) {
                    continue;
                }
                let fm = f.moves.iter().find(|x| x.uci == m.uci).expect("listed");
                assert_eq!(m.category, fm.category, "{} {}", fen(&p), m.uci);
                by_category += 1;
                // Above an answered win (or loss) the clock spoils.
                if a.moves[i + 1..]
                    .iter()
                    .any(|x| x.error.is_none() && x.wdl == m.wdl && x.category > m.category)
                {
                    lifted += 1;
                }
            }
            let answered = |moves: &[MoveInfo]| -> Vec<String> {
                moves
                    .iter()
                    .filter(|m| a.moves.iter().any(|x| x.uci == m.uci && x.error.is_none()))
                    .map(|m| m.uci.clone())
                    .collect()
            };
            assert_eq!(answered(&a.moves), answered(&f.moves), "{}", fen(&p));
        }
    }
    println!(
        "at clock 98 without KPvK.rtbz: {positions} positions, {by_category} moves with their WDL alone ranked by the category it decides, {lifted} of them above an answered move of their WDL that the clock spoils"
    );
    assert!(by_category > 0 && lifted > 0, "{by_category} {lifted}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A quiet move whose DTZ needs a missing table (a reply of the position
/// after it captures into KRvKR) keeps its WDL; the clock runs after it,
/// so its category is left to the DTZ (null in the JSON, the WDL's own
/// marked unsure in the text), from a clock of 0 as from 30.
#[test]
fn a_quiet_move_with_its_wdl_alone_at_a_running_clock() {
    let dir = tables_without("KRvKR");
    let (p, m) =
        move_with_its_wdl_alone(&dir, "KRPvKR", 400, 7, |m| !m.zeroing && m.wdl.abs() == 2)
            .expect("a KRPvKR move whose DTZ needs KRvKR");
    let error = m.error.as_ref().expect("an error").to_string();
    let at_zero = fen(&p);
    let (head, _) = at_zero.rsplit_once(" 0 ").expect("a FEN at clock 0");
    let running = format!("{head} 30 1");
    // After a quiet move the clock runs, even from 0: whether the 50-move
    // rule comes first is the DTZ's to say. The text gives the WDL's own
    // category (the opponent's after the move) marked unsure.
    assert_eq!(m.wdl_category(0), None);
    let by_wdl = if m.wdl < 0 { "loss?" } else { "win?" };
    for fen in [&at_zero, &running] {
        let json = cli_probe(&dir, &["--json"], fen);
        let object = format!(
            "{{\"uci\":\"{}\",\"san\":\"{}\",\"wdl\":{},\"dtz\":null,\"precise\":null,\"category\":null,\"dtm\":null,\"error\":\"{error}\",\"code\":\"missing-table\",\"zeroing\":false",
            m.uci, m.san, m.wdl
        );
        assert!(json.contains(&object), "{object} in {json}");
        let text = cli_probe(&dir, &[], fen);
        let line = format!(
            "  {:<8} {:<8} {:<13} wdl {:>2}; no DTZ: {error}\n",
            m.san, m.uci, by_wdl, m.wdl
        );
        assert!(text.contains(&line), "{line:?} in {text}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Every legal move is listed even when its table is absent.
#[test]
fn every_move_is_listed() {
    let mut part = prober(tables_without("KPvK"));
    for p in sample("KPvKP", 300, 5) {
        if let Ok(a) = part.analyse(&p) {
            let listed: Vec<&str> = a.moves.iter().map(|m| m.uci.as_str()).collect();
            for m in p.legal_moves() {
                let uci = m.to_uci(CastlingMode::Standard).to_string();
                assert!(listed.contains(&uci.as_str()), "{} {uci}", fen(&p));
            }
        }
    }
}

/// A move without a result ranks after the answered moves of its WDL (or
/// last, without one), so the first ranked move may not be the best: a
/// line either stops with the missing table's error or starts with a move
/// as good as the full set's best (same WDL and DTZ after it). Without
/// KQvK, KQvKN's captures of the knight lack a result; without KRvKR, so
/// do KRPvKR's quiet moves that let the rook take the pawn (the reply's
/// table is the missing one). Without KPvK.rtbz, KPvKP's pawn captures keep
/// their WDL, and a line goes on past those worse than its first move.
#[test]
fn a_mainline_never_follows_a_lesser_move_past_a_missing_table() {
    let mut full = ours();
    for (material, without_table) in [
        ("KQvKN", "KQvK"),
        ("KRPvKR", "KRvKR"),
        ("KPvKP", "KPvK.rtbz"),
    ] {
        let mut without = prober(tables_without(without_table));
        let (mut stopped, mut followed, mut past_wdl) = (0, 0, 0);
        // The line from a running clock too, where a move with its WDL
        // alone may rank by the category its WDL decides.
        let at_ninety = sample(material, 200, 8).into_iter().filter_map(|p| {
            let at_zero = fen(&p);
            let (head, _) = at_zero.rsplit_once(" 0 ")?;
            parse_fen(&format!("{head} 90 1")).ok()
        });
        for pos in sample(material, 400, 7).into_iter().chain(at_ninety) {
            let Ok(want) = full.mainline(&pos) else {
                continue;
            };
            match without.mainline(&pos) {
                Err(e) => {
                    assert!(missing(&Some(e.clone()), without_table), "{e}");
                    stopped += 1;
                }
                Ok(got) => {
                    let a = without.analyse(&pos).expect("analysis beside a line");
                    if a.moves.iter().any(|m| m.error.is_some() && m.wdl_known) {
                        past_wdl += 1;
                    }
                    // As good: the same WDL after it, and as few plies to
                    // the next zeroing move (one for a zeroing move,
                    // whatever the DTZ after it: among winning zeroing
                    // moves that ties, and only a tie-break unknown
                    // without the table would tell them apart).
                    let plies = |m: &MainlineStep| {
                        if m.zeroing {
                            1
                        } else {
                            m.dtz.unsigned_abs() + 1
                        }
                    };
                    if let (Some(g), Some(w)) = (got.moves.first(), want.moves.first()) {
                        assert_eq!(
                            (g.wdl, plies(g)),
                            (w.wdl, plies(w)),
                            "{material}: {} vs {}",
                            g.uci,
                            w.uci
                        );
                    }
                    followed += 1;
                }
            }
        }
        println!("{material} without {without_table}: {stopped} lines stopped, {followed} followed, {past_wdl} of them beside a move with its WDL alone");
        assert!(
            stopped > 0 && followed > 0,
            "{material}: stopped {stopped}, followed {followed}"
        );
        if without_table.ends_with(".rtbz") {
            assert!(
                past_wdl > 0,
                "{material}: no line past a move with its WDL alone"
            );
        }
    }
    let dir = tables_without("KQvK");
    // The CLI keeps the analysis when the line fails: the line's error beside it.
    let fen = "4k3/8/8/8/8/8/4n3/Q3K3 w - - 0 1";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_syzygy-web"))
        .args(["probe", "--json", "--mainline", "--path"])
        .arg(&dir)
        .arg(fen)
        .output()
        .expect("run the CLI");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.starts_with(&format!("{{\"fen\":\"{fen}\",\"wdl\":2,\"dtz\":1,")),
        "{text}"
    );
    assert!(text.contains("\"mainline\":null,\"mainlineError\":\"missing table: KQvK.rtbz\",\"mainlineCode\":\"missing-table\""), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Who wins, where the position's own table says its side wins: no
/// capture can do better, so a capture into a missing table does not
/// leave it undecided (until 2026-11-30 it was a `missing-table` error,
/// and the board lost its early "who wins"). Without KRPvK, KRPvKR's
/// captures of the black rook are unanswered; every won position's WDL is
/// still given, and equals the full set's.
#[test]
fn a_win_in_the_table_needs_no_capture_answered() {
    let mut part = prober(tables_without("KRPvK"));
    let mut full = ours();
    let (mut won, mut with_capture, mut errors) = (0, 0, 0);
    for p in sample("KRPvKR", 1500, 21) {
        let f = full.probe_wdl(&p).expect("full answer");
        let a = part.probe_wdl(&p);
        match &a {
            Ok(v) => assert_eq!(*v, f, "{}", fen(&p)),
            Err(ProbeError::MissingTable(n)) if n.starts_with("KRPvK") => errors += 1,
            Err(e) => panic!("{}: {e}", fen(&p)),
        }
        let takes_rook = p.turn() == shakmaty::Color::White
            && p.legal_moves()
                .iter()
                .any(|m| m.capture() == Some(shakmaty::Role::Rook));
        if f == 2 && takes_rook {
            with_capture += 1;
            if a.is_ok() {
                won += 1;
            }
        }
    }
    println!(
        "without KRPvK: {with_capture} won positions that can take the rook, {won} answered; {errors} undecided in all"
    );
    assert!(with_capture > 20, "{with_capture}");
    assert!(won > with_capture / 2, "{won} of {with_capture}");
}

/// A folder of links to the official WDL tables alone, as most 6- and
/// 7-piece mirrors serve them.
fn wdl_tables_only() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("syzygy-web-wdl-only-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = std::fs::canonicalize(syzygy_path()).expect("tables");
    for e in std::fs::read_dir(&src).expect("tables").flatten() {
        let name = e.file_name().into_string().expect("name");
        if name.ends_with(".rtbw") {
            std::os::unix::fs::symlink(e.path(), dir.join(&name)).expect("link");
        }
    }
    dir
}

/// Without DTZ tables the full analysis fails for the missing file, and
/// the WDL tables alone still give the position's WDL and every move's,
/// each equal to shakmaty-syzygy's on the full set, ranked mates first,
/// then by the WDL after the move, zeroing moves first among winning ones
/// and last among losing ones.
#[test]
fn wdl_tables_alone_rank_every_move_by_its_wdl() {
    if !official_tables() {
        return;
    }
    let dir = wdl_tables_only();
    let mut t = prober(dir.clone());
    let them = theirs();
    let mut full = ours();
    let (mut checked, mut decided) = (0, 0);
    for (material, seed) in [
        ("KRPvKR", 3),
        ("KQvKR", 4),
        ("KPvKP", 5),
        ("KBNvK", 6),
        ("KRvKP", 7),
    ] {
        for pos in sample(material, 40, seed) {
            let dtz_file = format!("{material}.rtbz");
            // (A draw, or a win by a zeroing move, needs no DTZ table.)
            match t.analyse(&pos) {
                Ok(_) => {}
                Err(ProbeError::MissingTable(name)) => assert!(name.ends_with(".rtbz"), "{name}"),
                Err(e) => panic!("{}: {e}", fen(&pos)),
            }
            let w = t
                .wdl_analysis(&pos)
                .unwrap_or_else(|e| panic!("{}: {e}", fen(&pos)));
            let want = wdl_of(them.probe_wdl_after_zeroing(&pos).expect("theirs"));
            assert_eq!(w.outcome.wdl, want, "{} ({dtz_file} missing)", fen(&pos));
            let legal: Vec<String> = pos
                .legal_moves()
                .iter()
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect();
            assert_eq!(w.moves.len(), legal.len(), "{}", fen(&pos));
            let mut last = None;
            for m in &w.moves {
                assert!(m.error.is_none(), "{} {}: {:?}", fen(&pos), m.uci, m.error);
                let mv = pos
                    .legal_moves()
                    .into_iter()
                    .find(|x| x.to_uci(CastlingMode::Standard).to_string() == m.uci)
                    .expect("a legal move");
                let mut child = pos.clone();
                child.play_unchecked(mv);
                let want = if child.is_checkmate() {
                    -2
                } else {
                    wdl_of(them.probe_wdl_after_zeroing(&child).expect("theirs"))
                };
                assert_eq!(m.wdl, want, "{} {}", fen(&pos), m.uci);
                // Zeroing moves first when winning, last when losing.
                let later = if m.wdl < 0 {
                    !m.zeroing
                } else {
                    m.wdl > 0 && m.zeroing
                };
                let key = (!m.facts.checkmate, m.wdl, later);
                assert!(
                    last.is_none_or(|k| k <= key),
                    "{}: ranked out of order at {}",
                    fen(&pos),
                    m.uci
                );
                last = Some(key);
            }
            // Under a running clock the category is given only where the
            // WDL tables decide it (a win on this ply, a clock past 100):
            // then it is the full set's.
            for clock in [40, 100, 120] {
                let Some(p) = with_clock(&pos, clock) else {
                    continue;
                };
                let w = t.wdl_analysis(&p).expect("WDL analysis");
                if let Some(c) = w.outcome.category {
                    let want = full.analyse(&p).expect("full set").category;
                    assert_eq!(c, want, "{}", fen(&p));
                    decided += 1;
                }
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 200);
    assert!(decided > 50, "{decided} categories decided under a clock");

    // The command line answers the same, saying which table is missing.
    let lucena = "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1";
    let args = ["probe", "--json", "--path"].map(std::ffi::OsStr::new);
    let mut args = args.to_vec();
    args.push(dir.as_os_str());
    args.push(std::ffi::OsStr::new(lucena));
    let out = common::cli::run_cli(&args, b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let w = t.wdl_analysis(&parse(lucena)).expect("WDL analysis");
    assert!(
        text.starts_with(&format!(
            "{{\"fen\":\"{lucena}\",\"wdl\":{},\"dtz\":null,",
            w.outcome.wdl
        )),
        "{text}"
    );
    assert!(
        text.trim_end()
            .ends_with(r#""error":"missing table: KRPvKR.rtbz","code":"missing-table"}"#),
        "{text}"
    );
    for m in &w.moves {
        assert!(
            text.contains(&format!(
                "{{\"uci\":\"{}\",\"san\":\"{}\",\"wdl\":{},\"dtz\":null,",
                m.uci, m.san, m.wdl
            )),
            "{}: {text}",
            m.uci
        );
    }
    // With --mainline: no line without the DTZ, said as for any missing table.
    args.insert(1, std::ffi::OsStr::new("--mainline"));
    let out = common::cli::run_cli(&args, b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.trim_end().ends_with(r#""mainline":null,"mainlineError":"missing table: KRPvKR.rtbz","mainlineCode":"missing-table"}"#),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
