//! Answers from generated tables (`probe::generated`), as the CLI's
//! `probe --generate` and the browser give them: the position's WDL and
//! DTZ and every move's, against the official tables read by
//! shakmaty-syzygy; mate distances checked without an oracle; the line of
//! best play to mate; the CLI's text and JSON.
//!
//! Seeded positions of every 3-4 piece material, both colourings (about a
//! tenth with en passant rights where there are pawns on both sides): 1,000
//! a material in CI, on the tables the test binary generates anyway;
//! SYZYGY_GENERATE_EXHAUSTIVE=1 takes 20,000 a material.

use shakmaty::{Chess, Position};
use syzygy_web::cli::{Options, Prober};
use syzygy_web::generate::{self, plan};
use syzygy_web::probe::{generated, Analysis, Category, Mainline};

use crate::common::*;

fn per_material() -> usize {
    if super::exhaustive() {
        20_000
    } else {
        1_000
    }
}

/// Every 3-4 piece material, as named with White first and with colours
/// swapped (KQvK and KvKQ).
fn materials() -> Vec<String> {
    let mut out = Vec::new();
    for key in plan::all_up_to(4) {
        let name = generate::layout::name_of(&key).0;
        let (w, b) = name.split_once('v').expect("table name");
        let swapped = format!("{b}v{w}");
        if swapped != name {
            out.push(swapped);
        }
        out.push(name);
    }
    out
}

/// Official DTZ n may be rounded (n or n + 1 plies, never n - 1), and a
/// loss one ply from such a win can read one short: see `check` in
/// generate.rs.
fn dtz_agrees(ours: i32, theirs: i32, precise: bool) -> bool {
    if ours == theirs {
        return true;
    }
    if precise && theirs > 0 {
        return false;
    }
    ours.signum() == theirs.signum() && ours.abs() == theirs.abs() + 1
}

/// The reference's (WDL, DTZ plies, precise) of a position.
fn official(
    theirs: &shakmaty_syzygy::Tablebase<Chess>,
    pos: &Chess,
) -> Result<(i8, i32, bool), String> {
    let w = theirs
        .probe_wdl_after_zeroing(pos)
        .map_err(|e| format!("{}: reference: {e}", fen(pos)))?;
    let (d, precise) = dtz_of(
        theirs
            .probe_dtz(pos)
            .map_err(|e| format!("{}: reference: {e}", fen(pos)))?,
    );
    Ok((wdl_of(w), d, precise))
}

/// The position and every move against the reference; moves compared.
fn compare(
    a: &Analysis,
    pos: &Chess,
    theirs: &shakmaty_syzygy::Tablebase<Chess>,
) -> Result<usize, String> {
    let f = fen(pos);
    let (w, d, precise) = official(theirs, pos)?;
    if a.wdl != w || !dtz_agrees(a.dtz, d, precise) || !a.precise {
        return Err(format!(
            "{f}: generated wdl {} dtz {} (precise {}), official {w} {d}",
            a.wdl, a.dtz, a.precise
        ));
    }
    let legal = pos.legal_moves();
    if a.moves.len() != legal.len() {
        return Err(format!("{f}: {} moves of {}", a.moves.len(), legal.len()));
    }
    for m in legal.iter() {
        let uci = m.to_uci(shakmaty::CastlingMode::Standard).to_string();
        let ours = a
            .moves
            .iter()
            .find(|x| x.uci == uci)
            .ok_or_else(|| format!("{f}: {uci} missing"))?;
        let mut child = pos.clone();
        child.play_unchecked(*m);
        let (cw, cd, cp) = official(theirs, &child)?;
        if ours.wdl != cw || !dtz_agrees(ours.dtz, cd, cp) || ours.error.is_some() {
            return Err(format!(
                "{f} {uci}: generated wdl {} dtz {}, official {cw} {cd}",
                ours.wdl, ours.dtz
            ));
        }
    }
    // Ranked best first: the first move is one of the best for the mover.
    if let Some(best) = a.moves.first() {
        if a.moves.iter().any(|m| m.wdl < best.wdl) {
            return Err(format!("{f}: best move {} is not the best", best.uci));
        }
    }
    Ok(a.moves.len())
}

/// Plies to mate for the mover through a move: positive when it mates,
/// negative when it is mated, 0 for a draw.
fn through(m: &syzygy_web::probe::MoveInfo) -> Result<i32, String> {
    let d = m.dtm.ok_or_else(|| format!("{}: no dtm", m.uci))?;
    Ok(if m.facts.checkmate {
        1
    } else if d < 0 {
        -d + 1
    } else if d > 0 {
        -(d + 1)
    } else {
        0
    })
}

/// Oracle-free: a mate is 0 plies; a won position's distance is one more
/// than its best move's, a lost one's one more than its longest-resisting
/// move's; a draw has a drawing move and none that wins; the sign agrees
/// with WDL (both ignore the halfmove clock); moves of equal WDL come
/// fastest mate first, longest resistance first.
fn dtm_consistent(a: &Analysis) -> Result<(), String> {
    let d = a.dtm.ok_or("no dtm")?;
    if a.moves.is_empty() {
        return if d == 0 {
            Ok(())
        } else {
            Err(format!("no moves, dtm {d}"))
        };
    }
    let values = a.moves.iter().map(through).collect::<Result<Vec<_>, _>>()?;
    let want = if let Some(w) = values.iter().filter(|&&v| v > 0).min() {
        *w
    } else if values.contains(&0) {
        0
    } else {
        *values.iter().min().expect("moves")
    };
    if d != want {
        return Err(format!("dtm {d}, through its moves {want}"));
    }
    if d.signum() != i32::from(a.wdl.signum()) {
        return Err(format!("dtm {d} against wdl {}", a.wdl));
    }
    for (m, v) in a.moves.iter().zip(&values) {
        if !m.facts.checkmate && v.signum() != -i32::from(m.wdl.signum()) {
            return Err(format!("{}: dtm {:?} against wdl {}", m.uci, m.dtm, m.wdl));
        }
    }
    // How the mover likes a move: mates soonest first, then draws, then
    // losses, longest first.
    let key = |v: i32| {
        if v > 0 {
            (2, -v)
        } else {
            (i32::from(v == 0), -v)
        }
    };
    for (pair, v) in a.moves.windows(2).zip(values.windows(2)) {
        if pair[0].wdl == pair[1].wdl && key(v[0]) < key(v[1]) {
            return Err(format!(
                "{} ranked before {} against mate distance",
                pair[0].uci, pair[1].uci
            ));
        }
    }
    Ok(())
}

/// Follows the line of best play from a decided position: it takes exactly
/// |dtm| plies, ends in checkmate, and each step's dtm is one ply nearer.
fn line_to_mate(pos: &Chess) -> Result<usize, String> {
    let lib = super::library();
    let first = generated::mainline_step(lib, pos).map_err(|e| e.to_string())?;
    let dtm = first.dtm.ok_or("no dtm")?;
    let mut at = pos.clone();
    let mut step = first;
    let mut plies = 0usize;
    while let Some(best) = step.best.clone() {
        plies += 1;
        let remaining = dtm.abs() - plies as i32;
        if best.dtm.map(i32::abs) != Some(remaining) {
            return Err(format!("ply {plies}: dtm {:?}, {remaining} left", best.dtm));
        }
        at = syzygy_web::probe::parse_fen(&best.fen).map_err(|e| e.to_string())?;
        if step.last {
            break;
        }
        step = generated::mainline_step(lib, &at).map_err(|e| e.to_string())?;
    }
    if plies as i32 != dtm.abs() || !at.is_checkmate() {
        return Err(format!(
            "line of {plies} plies for dtm {dtm}, mate at the end: {}",
            at.is_checkmate()
        ));
    }
    Ok(plies)
}

#[test]
fn answers_equal_the_official_tables() {
    if !official_tables() {
        eprintln!("skipped: needs the official tables (SYZYGY_PATH or ../shared/syzygy)");
        return;
    }
    let lib = super::library();
    let theirs = theirs();
    let t = std::time::Instant::now();
    let (mut positions, mut moves) = (0usize, 0usize);
    let mut bad = Vec::new();
    let names = materials();
    for name in &names {
        for pos in sample(name, per_material(), 17) {
            let r = generated::analyse(lib, &pos)
                .map_err(|e| format!("{}: {e}", fen(&pos)))
                .and_then(|a| compare(&a, &pos, &theirs));
            match r {
                Ok(n) => {
                    positions += 1;
                    moves += n;
                }
                Err(e) if bad.len() < 20 => bad.push(format!("{name}: {e}")),
                Err(_) => {}
            }
        }
    }
    eprintln!(
        "compared {positions} positions and {moves} moves over {} materials in {:.1} s",
        names.len(),
        t.elapsed().as_secs_f64()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(positions >= names.len() * per_material() * 9 / 10);
}

#[test]
fn mate_distances_agree_with_their_moves() {
    let lib = super::library();
    let t = std::time::Instant::now();
    let (mut positions, mut lines, mut plies) = (0usize, 0usize, 0usize);
    let mut bad = Vec::new();
    let names = materials();
    for name in &names {
        for (i, pos) in sample(name, per_material(), 23).iter().enumerate() {
            positions += 1;
            let mut r = generated::analyse(lib, pos)
                .map_err(|e| e.to_string())
                .and_then(|a| dtm_consistent(&a).map(|_| a));
            // The line to mate of the first few decided positions.
            if let Ok(a) = &r {
                if i < 8 && a.dtm.is_some_and(|d| d != 0) {
                    r = line_to_mate(pos).map(|n| {
                        lines += 1;
                        plies += n;
                        a.clone()
                    });
                }
            }
            if let Err(e) = r {
                if bad.len() < 20 {
                    bad.push(format!("{name} {}: {e}", fen(pos)));
                }
            }
        }
    }
    eprintln!(
        "mate distances consistent on {positions} positions; {lines} lines to mate, {plies} plies; {:.1} s",
        t.elapsed().as_secs_f64()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(lines > names.len());
}

/// `pos` with its halfmove clock at `clock`, or None where the FEN rules forbid it.
fn at_clock(pos: &Chess, clock: u32) -> Option<Chess> {
    let text = fen(pos);
    let mut fields: Vec<&str> = text.split(' ').collect();
    let clock = clock.to_string();
    fields[4] = &clock;
    syzygy_web::probe::parse_fen(&fields.join(" ")).ok()
}

/// With a running halfmove clock the first move is one whose category is
/// best: the fastest mate may need more plies without a capture or pawn
/// move than the clock leaves, where another move keeps the win (or, for
/// the losing side, one reaches the 50-move draw). Counts the positions
/// where the fastest mate was not first, so the check is seen to bite.
#[test]
fn the_clock_ranks_moves_before_mate_distance() {
    let lib = super::library();
    let (mut positions, mut overruled) = (0usize, 0usize);
    let mut bad = Vec::new();
    for name in materials() {
        for (i, pos) in sample(&name, per_material() / 4, 29).iter().enumerate() {
            let Some(at) = at_clock(pos, [40, 70, 85, 92, 97][i % 5]) else {
                continue;
            };
            let Ok(a) = generated::analyse(lib, &at) else {
                continue;
            };
            positions += 1;
            let rated: Vec<_> = a.moves.iter().filter(|m| m.error.is_none()).collect();
            let Some(first) = rated.first() else { continue };
            if let Some(better) = rated.iter().find(|m| m.category < first.category) {
                if bad.len() < 10 {
                    bad.push(format!(
                        "{}: {} ({}) first, {} ({}) is better",
                        fen(&at),
                        first.uci,
                        first.category,
                        better.uci,
                        better.category
                    ));
                }
            }
            let fastest = rated
                .iter()
                .filter(|m| m.wdl == first.wdl && m.wdl != 0)
                .min_by_key(|m| {
                    let d = i64::from(m.dtm.unwrap_or(0)).abs();
                    if m.wdl < 0 {
                        d
                    } else {
                        -d
                    }
                });
            if fastest.is_some_and(|m| m.category > first.category) {
                overruled += 1;
            }
        }
    }
    eprintln!("{positions} positions with a running clock; the clock overruled the mate distance in {overruled}");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(
        overruled > 0,
        "no position where the clock changes the best move"
    );
}

/// The line `probe --generate --mainline` prints: steps pushed into a
/// [`Mainline`] as src/cli.rs does, and the position it ends on.
fn cli_line(pos: &Chess) -> Result<(Mainline, Chess), String> {
    let lib = super::library();
    let mut step = generated::mainline_step(lib, pos).map_err(|e| e.to_string())?;
    let mut line = Mainline::start(&step);
    let mut at = pos.clone();
    loop {
        let next = step.best.as_ref().map(|b| b.fen.clone());
        if let Some(f) = &next {
            at = syzygy_web::probe::parse_fen(f).map_err(|e| e.to_string())?;
        }
        if !line.push(step) {
            return Ok((line, at));
        }
        step = generated::mainline_step(lib, &at).map_err(|e| e.to_string())?;
    }
}

/// With a running clock the best line may capture (or push a pawn) to
/// keep a win the fastest mate would lose to the 50-move rule, and then
/// take more plies than the position's mate distance: each phase (to the
/// next zeroing move) is bounded by its own distances, not the first
/// one's. At clock 99 the CLI cut such lines after |dtm| + 1 plies, short
/// of mate. Counts the lines longer than the first phase's bound, so the
/// check is seen to bite.
#[test]
fn lines_with_a_running_clock_reach_mate() {
    let lib = super::library();
    let (mut lines, mut longer) = (0usize, 0usize);
    let mut bad = Vec::new();
    for name in materials().into_iter().filter(|n| n.len() == 5) {
        for (i, pos) in sample(&name, 200, 31).iter().enumerate() {
            let Some(at) = at_clock(pos, [92, 97, 99][i % 3]) else {
                continue;
            };
            let Ok(a) = generated::analyse(lib, &at) else {
                continue;
            };
            if !matches!(a.category, Category::Win | Category::Loss) || a.facts.checkmate {
                continue;
            }
            lines += 1;
            match cli_line(&at) {
                Ok((line, end)) => {
                    let first = line
                        .dtz
                        .unsigned_abs()
                        .max(line.dtm.map_or(0, i32::unsigned_abs))
                        as usize
                        + 1;
                    longer += usize::from(line.moves.len() > first);
                    if !end.is_checkmate() && bad.len() < 10 {
                        bad.push(format!("{}: {} plies, no mate", fen(&at), line.moves.len()));
                    }
                }
                Err(e) if bad.len() < 10 => bad.push(format!("{}: {e}", fen(&at))),
                Err(_) => {}
            }
        }
    }
    eprintln!("{lines} lines with a running clock; {longer} longer than their first phase's bound");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(longer > 0, "no line goes past its first phase's bound");
}

#[test]
fn cli_prints_mate_distances() {
    let mut p = Prober::new(&Options {
        generate: true,
        ..Options::default()
    })
    .expect("prober");
    // KRvK, rook on a1: the text says "mate in N" for the position and its
    // moves, N = ceil(plies / 2), and the JSON's dtm gives the plies.
    let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
    let (json, ok) = p.answer(fen, true, false);
    assert!(ok, "{json}");
    let dtm = number_after(&json, "\"dtm\":");
    let dtz = number_after(&json, "\"dtz\":");
    assert!(dtm > 0, "{json}");
    let (text, ok) = p.answer(fen, false, false);
    assert!(ok, "{text}");
    let first = text.lines().nth(1).expect("verdict line");
    assert!(
        first.contains(&format!("White wins, DTZ {dtz}, mate in {}", (dtm + 1) / 2)),
        "{text}"
    );
    let a = p.analyse(fen).expect("analysis");
    let best = &a.moves[0];
    let best_dtm = best.dtm.expect("dtm");
    assert_eq!(
        best_dtm,
        -(dtm - 1),
        "the best move's dtm is one ply nearer"
    );
    let line = move_line(&text, &best.uci);
    assert!(
        line.contains(&format!("mate in {}", (dtm + 1) / 2)),
        "{line}"
    );
    // The losing side's view.
    let (text, _) = p.answer("8/8/8/4k3/8/8/8/R3K3 b - - 0 1", false, false);
    assert!(
        text.lines().nth(1).expect("verdict").contains("mated in"),
        "{text}"
    );
}

/// DTM counts plies to mate without the 50-move rule: the text says "mate
/// in N" only where the mate lands by the clock's 100th ply, and words the
/// verdict by the category (a table's win the clock spoils is a cursed
/// win, not "White wins").
#[test]
fn cli_mate_distances_under_the_clock() {
    let mut p = Prober::new(&Options {
        generate: true,
        ..Options::default()
    })
    .expect("prober");
    let board = "8/8/8/4k3/8/8/8/R3K3 w - -";
    let (json, _) = p.answer(&format!("{board} 0 1"), true, false);
    let dtm = number_after(&json, "\"dtm\":");
    let n = (dtm + 1) / 2;
    let verdict = |p: &mut Prober, clock: i32| {
        let (text, ok) = p.answer(&format!("{board} {clock} 1"), false, false);
        assert!(ok, "{text}");
        text.lines().nth(1).expect("verdict").to_string()
    };
    let last = verdict(&mut p, 100 - dtm);
    assert!(
        last.contains(&format!("mate in {n} ["))
            && last.contains("White wins")
            && last.contains("[win;"),
        "{last}"
    );
    let over = verdict(&mut p, 101 - dtm);
    assert!(
        over.contains(&format!("mate in {n} without the 50-move rule")),
        "{over}"
    );
    let spoiled = verdict(&mut p, 80);
    assert!(
        spoiled.contains("cursed win") && !spoiled.contains("White wins"),
        "{spoiled}"
    );
    assert!(spoiled.contains("without the 50-move rule"), "{spoiled}");
    // The moves: the clock after a quiet move is one more.
    let (text, _) = p.answer(&format!("{board} {} 1", 100 - dtm), false, false);
    let a = p
        .analyse(&format!("{board} {} 1", 100 - dtm))
        .expect("analysis");
    let best = &a.moves[0];
    assert!(!best.zeroing);
    let line = move_line(&text, &best.uci);
    assert!(
        line.contains(&format!("mate in {n}")) && !line.contains("without"),
        "{line}"
    );
    // A move that mates later passes the clock's 100th ply: its mate is
    // one without the rule (the clock after it counted, one ply on).
    let slower = a
        .moves
        .iter()
        .find(|m| {
            !m.zeroing
                && m.dtm
                    .is_some_and(|d| d.unsigned_abs() + 1 > dtm.unsigned_abs())
        })
        .expect("a slower quiet move");
    let line = move_line(&text, &slower.uci);
    assert!(line.contains("without the 50-move rule"), "{line}");
}

/// The CLI text's line of the move `uci` (its second column).
fn move_line<'a>(text: &'a str, uci: &str) -> &'a str {
    text.lines()
        .find(|l| l.split_whitespace().nth(1) == Some(uci))
        .expect("the move's line")
}

fn number_after(json: &str, key: &str) -> i32 {
    let at = json.find(key).expect("key") + key.len();
    let digits: String = json[at..]
        .chars()
        .take_while(|c| *c == '-' || c.is_ascii_digit())
        .collect();
    digits.parse().expect("number")
}
