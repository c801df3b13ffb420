//! Oracle-free self-consistency: a position's WDL is the best its moves
//! reach (with the 50-move rule applied to non-zeroing moves), the move
//! list comes best first (by the category it leaves the opponent) with a
//! move that reaches it at its head, and DTZ steps one ply towards zero
//! along the mainline until a zeroing move that keeps the result.

mod common;

use common::*;
use syzygy_web::probe::{Analysis, Category};

/// The mover's result through one move, from the child's (wdl, dtz).
fn through(m: &syzygy_web::probe::MoveInfo) -> Option<i8> {
    if m.zeroing {
        return Some(-m.wdl);
    }
    let d = m.dtz.abs() + 1;
    // Rounded values near the 100-ply boundary are ambiguous: skip them.
    if !m.precise && (99..=102).contains(&d) {
        return None;
    }
    Some(match m.wdl {
        -2 if d <= 100 => 2,
        -2 => 1,
        2 if d <= 100 => -2,
        2 => -1,
        w => -w,
    })
}

/// Best first: by the category left to the opponent, lowest first, each
/// the category of the move's values at the clock after it.
fn best_first(fen: &str, a: &Analysis, clock: u32) -> Result<(), String> {
    let moves: Vec<_> = a.moves.iter().filter(|m| m.error.is_none()).collect();
    for m in &moves {
        let after = if m.zeroing { 0 } else { clock + 1 };
        let want = Category::new(m.wdl, m.dtz, m.precise, after, m.facts.checkmate);
        if m.category != want {
            return Err(format!(
                "{fen}: {} {:?}, its values at clock {after} say {want:?}",
                m.uci, m.category
            ));
        }
    }
    match moves.windows(2).find(|w| w[0].category > w[1].category) {
        Some(w) => Err(format!(
            "{fen}: {} ({:?}) listed before {} ({:?})",
            w[0].uci, w[0].category, w[1].uci, w[1].category
        )),
        None => Ok(()),
    }
}

fn check_best_of_children(fen: &str, a: &Analysis) -> Result<(), String> {
    if a.moves.is_empty() {
        let want = if a.facts.checkmate { -2 } else { 0 };
        return if a.wdl == want {
            Ok(())
        } else {
            Err(format!("{fen}: no moves but wdl {}", a.wdl))
        };
    }
    best_first(fen, a, 0)?;
    let mut best = -3;
    for m in &a.moves {
        match through(m) {
            Some(v) => best = best.max(v),
            None => return Ok(()),
        }
    }
    if best != a.wdl {
        return Err(format!("{fen}: wdl {} but best child gives {best}", a.wdl));
    }
    if through(&a.moves[0]) != Some(best) {
        return Err(format!(
            "{fen}: the first move {} does not reach wdl {best}",
            a.moves[0].uci
        ));
    }
    Ok(())
}

#[test]
fn wdl_is_the_best_over_the_moves() {
    let mut tb = ours();
    let mut checked = 0;
    let mut failures = Vec::new();
    for name in table_names() {
        for p in sample(&name, 60, 31) {
            let a = tb.analyse(&p).expect("answer");
            if let Err(e) = check_best_of_children(&fen(&p), &a) {
                failures.push(e);
            }
            checked += 1;
            // With the clock running, the categories (and the order) change.
            for clock in [50, 90] {
                let q = with_clock(&p, clock).expect("a clock any sampled position takes");
                let a = tb.analyse(&q).expect("answer");
                if let Err(e) = best_first(&fen(&q), &a, clock) {
                    failures.push(e);
                }
            }
        }
    }
    println!("positions checked: {checked}");
    assert!(
        failures.is_empty(),
        "{} failures: {:#?}",
        failures.len(),
        &failures[..failures.len().min(8)]
    );
}

#[test]
fn dtz_steps_towards_zero_along_the_mainline() {
    let mut tb = ours();
    let mut lines = 0;
    let mut plies = 0;
    for name in table_names() {
        for p in sample(&name, 8, 77) {
            let line = tb.mainline(&p).expect("mainline");
            if line.wdl == 0 {
                assert!(line.moves.is_empty());
                continue;
            }
            if line.moves.is_empty() {
                use shakmaty::Position;
                assert!(p.is_checkmate(), "{}: decisive but no mainline", fen(&p));
                continue;
            }
            let mut prev = line.dtz;
            let mut prev_precise = line.precise;
            for (i, step) in line.moves.iter().enumerate() {
                let last = i + 1 == line.moves.len();
                if step.zeroing {
                    assert!(
                        last,
                        "{}: zeroing move {} before the end",
                        fen(&p),
                        step.uci
                    );
                    break;
                }
                // One ply closer, from the other side's view. A win at
                // DTZ 1 may also be a quiet move that forces the loser to
                // zero (capture) at once: the loser then has DTZ -1.
                let expected = if prev.abs() == 1 {
                    -prev
                } else {
                    -(prev - prev.signum())
                };
                let slack = if prev_precise && step.precise { 0 } else { 1 };
                assert!(
                    (step.dtz - expected).abs() <= slack && step.dtz.signum() == expected.signum(),
                    "{}: after {} dtz {} expected {expected} (prev {prev})",
                    fen(&p),
                    step.uci,
                    step.dtz
                );
                prev = step.dtz;
                prev_precise = step.precise;
                plies += 1;
            }
            let end = line.moves.last().expect("a decisive position has a line");
            assert!(
                end.zeroing || end.wdl == -2,
                "{}: line ends without zeroing or mate",
                fen(&p)
            );
            // The side that plays the last move keeps its result: its
            // opponent is left on the losing side.
            let mover = if line.moves.len() % 2 == 1 {
                line.wdl.signum()
            } else {
                -line.wdl.signum()
            };
            assert_eq!(
                end.wdl.signum(),
                -mover,
                "{}: the line's last move {} leaves wdl {}",
                fen(&p),
                end.uci,
                end.wdl
            );
            lines += 1;
        }
    }
    println!("mainlines checked: {lines}, plies: {plies}");
}
