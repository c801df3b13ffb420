//! The command line's probing and text output, apart from argument parsing
//! so that tests can drive it.

use std::fmt::Write;
use std::path::PathBuf;

use crate::drivers::{FsFetcher, Tablebase};
use shakmaty::Position;

use crate::generate::{self, solved::Library};
use crate::probe::{self, generated, Analysis, Category, Mainline};
use crate::{report, Config, ProbeError};

#[derive(Debug, Default, Clone)]
pub struct Options {
    pub paths: Vec<PathBuf>,
    pub urls: Vec<String>,
    pub cache_dir: Option<PathBuf>,
    pub json: bool,
    /// After each answer, one JSON line of what it cost on standard error.
    pub stats: bool,
    /// Add the mainline (best play to the next zeroing move) to each answer.
    pub mainline: bool,
    /// Answer from tables generated here (up to 4 pieces, with mate distances).
    pub generate: bool,
}

/// FEN arguments as given, with a FEN typed without quotes put back
/// together: `probe 8/8/.. b - - 0 1` hands the shell's words to the
/// program one by one, and the board alone read as White to move. A board
/// takes the words after it while they read as the next FEN fields, the
/// side to move first.
pub fn joined_fens(args: Vec<String>) -> Vec<String> {
    let field = |i: usize, w: &str| match i {
        0 => w == "w" || w == "b",
        1 => w == "-" || w.chars().all(|c| "KQkqABCDEFGHabcdefgh".contains(c)),
        2 => w == "-" || (w.len() == 2 && matches!(w.as_bytes(), [b'a'..=b'h', b'1'..=b'8'])),
        _ => !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()),
    };
    let mut out: Vec<String> = Vec::new();
    let mut fields = None;
    for a in args {
        match (fields, out.last_mut()) {
            (Some(i), Some(fen)) if i < 5 && field(i, &a) => {
                fen.push(' ');
                fen.push_str(&a);
                fields = Some(i + 1);
            }
            _ => {
                fields = (a.contains('/') && !a.contains(char::is_whitespace)).then_some(0);
                out.push(a);
            }
        }
    }
    out
}

/// Local or remote tables behind one interface (each boxed: one lives
/// per run, and the variants differ in size by hundreds of bytes).
pub enum Prober {
    Local(Box<Tablebase<FsFetcher>>),
    #[cfg(not(target_arch = "wasm32"))]
    Remote(Box<Tablebase<crate::drivers::http::HttpFetcher>>),
    /// Tables generated on demand, kept for the next FENs.
    Generated(Box<Library>),
}

/// Generates what a position needs into `lib` (positions of up to 4 pieces).
fn generate_for(lib: &mut Library, pos: &shakmaty::Chess) -> Result<(), ProbeError> {
    if !generated::in_reach(pos) {
        return Err(ProbeError::TooManyPieces {
            pieces: pos.board().occupied().count(),
            limit: generated::REACH,
        });
    }
    let opts = generate::Options {
        threads: 2,
        dtm: true,
    };
    for key in generated::needed(pos, |k| lib.contains(k)) {
        // (`needed` lists sub-materials first, so none is missing here.)
        let t = generate::generate(key, lib, opts, &generate::Quiet)
            .map_err(ProbeError::MissingTable)?;
        lib.insert(t);
    }
    Ok(())
}

impl Prober {
    pub fn new(opts: &Options) -> Result<Prober, String> {
        if opts.generate {
            // Silently reading none of the tables named would surprise.
            if !opts.paths.is_empty() || !opts.urls.is_empty() || opts.cache_dir.is_some() {
                return Err("--generate answers from tables it makes: give it no --path, --url or --cache-dir".into());
            }
            return Ok(Prober::Generated(Box::default()));
        }
        if !opts.urls.is_empty() && !opts.paths.is_empty() {
            return Err(
                "give tables either as folders (--path) or as URLs (--url), not both".into(),
            );
        }
        if opts.cache_dir.is_some() && opts.urls.is_empty() {
            return Err("--cache-dir keeps pages fetched with --url: give --url too".into());
        }
        if let Some(p) = opts.paths.iter().find(|p| !p.is_dir()) {
            return Err(format!("--path {}: no such folder", p.display()));
        }
        if !opts.urls.is_empty() {
            #[cfg(not(target_arch = "wasm32"))]
            {
                let f = crate::drivers::http::HttpFetcher::new(
                    opts.urls.clone(),
                    opts.cache_dir.clone(),
                )?;
                return Ok(Prober::Remote(Box::new(Tablebase::new(
                    f,
                    Config::default(),
                ))));
            }
        }
        Ok(Prober::Local(Box::new(Tablebase::new(
            FsFetcher::new(opts.paths.clone()),
            Config::default(),
        ))))
    }

    pub fn analyse(&mut self, fen: &str) -> Result<Analysis, ProbeError> {
        let pos = probe::parse_fen(fen)?;
        match self {
            Prober::Local(t) => t.analyse(&pos),
            #[cfg(not(target_arch = "wasm32"))]
            Prober::Remote(t) => t.analyse(&pos),
            Prober::Generated(lib) => {
                generate_for(lib, &pos)?;
                generated::analyse(lib, &pos)
            }
        }
    }

    /// The outcome and every move's WDL from the WDL tables alone.
    fn wdl_analysis(&mut self, fen: &str) -> Result<probe::WdlAnalysis, ProbeError> {
        let pos = probe::parse_fen(fen)?;
        match self {
            Prober::Local(t) => t.wdl_analysis(&pos),
            #[cfg(not(target_arch = "wasm32"))]
            Prober::Remote(t) => t.wdl_analysis(&pos),
            // Generated tables come in pairs: no DTZ table is ever missing alone.
            Prober::Generated(_) => Err(ProbeError::Missing),
        }
    }

    /// What the last answer cost: requests, bytes, waves, rounds and wall
    /// time, as one JSON object (the figures `stats().last` gives in the
    /// browser).
    pub fn stats_json(&self, fen: &str, elapsed: std::time::Duration) -> String {
        let s = match self {
            Prober::Local(t) => t.stats(),
            #[cfg(not(target_arch = "wasm32"))]
            Prober::Remote(t) => t.stats(),
            Prober::Generated(_) => Default::default(),
        };
        let mut out = String::from("{");
        report::string(&mut out, "fen");
        out.push(':');
        report::string(&mut out, fen.trim());
        out.push_str(&format!(
            ",\"requests\":{},\"bytes\":{},\"waves\":{},\"rounds\":{},\"fromDiskCache\":{},\"elapsedMs\":{}}}",
            s.requests,
            s.bytes,
            s.waves,
            s.rounds,
            s.local,
            elapsed.as_millis()
        ));
        out
    }

    fn reset_stats(&mut self) {
        match self {
            Prober::Local(t) => t.reset_stats(),
            #[cfg(not(target_arch = "wasm32"))]
            Prober::Remote(t) => t.reset_stats(),
            Prober::Generated(_) => {}
        }
    }

    pub fn mainline(&mut self, fen: &str) -> Result<Mainline, ProbeError> {
        let pos = probe::parse_fen(fen)?;
        match self {
            Prober::Local(t) => t.mainline(&pos),
            #[cfg(not(target_arch = "wasm32"))]
            Prober::Remote(t) => t.mainline(&pos),
            Prober::Generated(lib) => {
                generate_for(lib, &pos)?;
                let first = generated::mainline_step(lib, &pos)?;
                let mut line = Mainline::start(&first);
                let mut step = first;
                loop {
                    let next = step.best.as_ref().map(|b| b.fen.clone());
                    if !line.push(step) {
                        break;
                    }
                    let Some(fen) = next else { break };
                    step = generated::mainline_step(lib, &probe::parse_fen(&fen)?)?;
                }
                Ok(line)
            }
        }
    }

    /// The output line(s) for one FEN and whether it was answered; with
    /// `mainline`, the line of best play is part of the answer.
    pub fn answer(&mut self, fen: &str, json: bool, mainline: bool) -> (String, bool) {
        self.answer_or(fen, None, json, mainline)
    }

    /// As [`Prober::answer`], or `refused` as the line's answer without a
    /// probe (a line the reader had to cut).
    pub fn answer_or(
        &mut self,
        fen: &str,
        refused: Option<ProbeError>,
        json: bool,
        mainline: bool,
    ) -> (String, bool) {
        let fen = fen.trim();
        self.reset_stats();
        // A line that fails (a table it needs is missing) leaves the
        // analysis standing, with the line's error beside it.
        let answer = match refused {
            Some(e) => Err(e),
            None => self
                .analyse(fen)
                .map(|a| (a, mainline.then(|| self.mainline(fen)))),
        };
        // A DTZ table missing (a host of WDL tables alone, as most 6- and
        // 7-piece mirrors are): who wins, and every move's WDL, still come
        // from the WDL tables; the line says which table is missing.
        if let Err(e) = &answer {
            if e.is_dtz_table() {
                if let Ok(w) = self.wdl_analysis(fen) {
                    // No line without the DTZ: said as for any line a table is missing for.
                    let out = match (json, mainline) {
                        (true, true) => {
                            report::with_mainline_error(report::wdl_analysis(fen, &w, Some(e)), e)
                        }
                        (true, false) => report::wdl_analysis(fen, &w, Some(e)),
                        (false, true) => {
                            format!("{}  mainline: error: {e}\n", text_wdl(fen, &w, e))
                        }
                        (false, false) => text_wdl(fen, &w, e),
                    };
                    return (out, false);
                }
            }
        }
        match (answer, json) {
            (Ok((a, line)), true) => {
                let out = report::analysis(fen, &a);
                match line {
                    Some(Ok(l)) => (report::with_mainline(out, &l), true),
                    Some(Err(e)) => (report::with_mainline_error(out, &e), false),
                    None => (out, true),
                }
            }
            (Ok((a, line)), false) => {
                let mut out = text(fen, &a);
                let answered = match line {
                    Some(Ok(l)) => {
                        let ucis: Vec<&str> = l.moves.iter().map(|m| m.uci.as_str()).collect();
                        let _ = writeln!(out, "  mainline: {}", ucis.join(" "));
                        true
                    }
                    Some(Err(e)) => {
                        let _ = writeln!(out, "  mainline: error: {e}");
                        false
                    }
                    None => true,
                };
                (out, answered)
            }
            (Err(e), true) => (report::error(fen, &e), false),
            (Err(e), false) => (format!("{fen}\n  error: {e}\n"), false),
        }
    }
}

/// "mate in N" / "mated in N" for plies to mate signed like DTZ (moves as
/// players count them: the mating side's moves), or None for a draw.
/// Unless the mate `holds` under the 50-move rule (see
/// `Category::mate_holds`), the distance is one without that rule, and
/// says so.
fn mate_in(dtm: i32, holds: bool) -> Option<String> {
    let moves = dtm.unsigned_abs().div_ceil(2);
    let rule = if holds {
        ""
    } else {
        " without the 50-move rule"
    };
    match dtm.signum() {
        1 => Some(format!("mate in {moves}{rule}")),
        -1 => Some(format!("mated in {moves}{rule}")),
        _ => None,
    }
}

/// What a move leads to in mate distance, for the side that plays it:
/// plies to mate after the move are the opponent's, one ply later, at the
/// clock after the move.
fn move_mate_in(m: &crate::probe::MoveInfo, halfmoves: u32) -> Option<String> {
    let clock = if m.zeroing { 0 } else { halfmoves + 1 };
    match m.dtm {
        Some(d) if !m.facts.checkmate && d != 0 => {
            mate_in(-(d + d.signum()), m.category.mate_holds(d, clock))
        }
        _ => None,
    }
}

fn verdict(a: &Analysis) -> String {
    let mate = a
        .dtm
        .and_then(|d| mate_in(d, a.category.mate_holds(d, a.halfmoves)))
        .map(|m| format!(", {m}"))
        .unwrap_or_default();
    format!("{}{mate}", outcome(a))
}

/// Who wins, by the category: the halfmove clock can turn a table's win
/// into a cursed one, which the WDL alone does not say.
fn outcome(a: &Analysis) -> String {
    let side = if a.turn == shakmaty::Color::White {
        ("White", "Black")
    } else {
        ("Black", "White")
    };
    if a.facts.checkmate {
        return format!("{} is checkmated", side.0);
    }
    if a.facts.stalemate {
        return "Stalemate".into();
    }
    if a.facts.insufficient_material {
        return "Draw by insufficient material".into();
    }
    let approx = if a.precise {
        ""
    } else {
        " (may be off by one)"
    };
    let dtz = a.dtz;
    match a.category {
        Category::Win => format!("{} wins, DTZ {dtz}{approx}", side.0),
        Category::MaybeWin => format!(
            "{} wins unless the 50-move rule comes first (too close to tell), DTZ {dtz}{approx}",
            side.0
        ),
        Category::CursedWin => format!(
            "{} has a cursed win (drawn by the 50-move rule), DTZ {dtz}{approx}",
            side.0
        ),
        Category::Draw => "Draw".into(),
        Category::BlessedLoss => format!(
            "{} wins but the 50-move rule saves {} (blessed loss), DTZ {dtz}{approx}",
            side.1, side.0
        ),
        Category::MaybeLoss => format!(
            "{} wins unless the 50-move rule saves {} (too close to tell), DTZ {dtz}{approx}",
            side.1, side.0
        ),
        Category::Loss => format!("{} wins, DTZ {dtz}{approx}", side.1),
    }
}

/// [`text`] from the WDL tables alone: no DTZ, and why.
fn text_wdl(fen: &str, w: &probe::WdlAnalysis, missing: &ProbeError) -> String {
    let o = &w.outcome;
    let side = if o.turn == shakmaty::Color::White {
        ("White", "Black")
    } else {
        ("Black", "White")
    };
    let who = if o.facts.checkmate {
        format!("{} is checkmated", side.0)
    } else if o.facts.stalemate {
        "Stalemate".into()
    } else if o.facts.insufficient_material {
        "Draw by insufficient material".into()
    } else {
        use probe::Category::*;
        let (winner, loser) = if o.wdl > 0 { side } else { (side.1, side.0) };
        match o.category {
            // A running clock: whether the win comes in time takes the DTZ.
            None | Some(MaybeWin | MaybeLoss) => {
                format!("Win for {winner} or 50-move draw (the DTZ would tell)")
            }
            Some(Win | Loss) => format!("{winner} wins"),
            Some(Draw) => "Draw".into(),
            Some(CursedWin | BlessedLoss) => {
                format!("{winner} wins but the 50-move rule saves {loser}")
            }
        }
    };
    let category = o.category.map_or("unknown", |c| c.as_str());
    let mut s = String::new();
    let _ = writeln!(s, "{fen}");
    let _ = writeln!(
        s,
        "  {who} [{category}; halfmove clock {}]; no DTZ: {missing}",
        o.halfmoves
    );
    for m in &w.moves {
        if let Some(e) = &m.error {
            let _ = writeln!(s, "  {:<8} {:<8} error: {e}", m.san, m.uci);
            continue;
        }
        let mark = mark(&m.facts, m.zeroing);
        let category = wdl_category_of(m.wdl, m.category);
        let line = format!(
            "  {:<8} {:<8} {:<13} wdl {:>2} {mark}",
            m.san, m.uci, category, m.wdl
        );
        let _ = writeln!(s, "{}", line.trim_end());
    }
    s
}

/// A move's category from the WDL tables: where the clock leaves it to the
/// DTZ, the WDL's own, marked unsure.
fn wdl_category_of(wdl: i8, category: Option<probe::Category>) -> String {
    category.map_or_else(
        || {
            let c = probe::Category::from_wdl(wdl, 0, false);
            format!("{}?", c.map_or("", |c| c.as_str()))
        },
        |c| c.as_str().to_string(),
    )
}

/// A move's note in the text output: it mates, or it restarts the count.
fn mark(facts: &probe::PositionFacts, zeroing: bool) -> &'static str {
    if facts.checkmate {
        "mate"
    } else if zeroing {
        "zeroing"
    } else {
        ""
    }
}

fn text(fen: &str, a: &Analysis) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{fen}");
    let _ = writeln!(
        s,
        "  {} [{}; halfmove clock {}]",
        verdict(a),
        a.category,
        a.halfmoves
    );
    for m in &a.moves {
        let mark = mark(&m.facts, m.zeroing);
        match &m.error {
            // Only its DTZ table missing: the WDL tables' answer, as `text_wdl` gives it.
            Some(e) if m.wdl_known => {
                let category = wdl_category_of(m.wdl, m.wdl_category(a.halfmoves));
                let line = format!(
                    "  {:<8} {:<8} {:<13} wdl {:>2} {mark}",
                    m.san, m.uci, category, m.wdl
                );
                let _ = writeln!(s, "{}; no DTZ: {e}", line.trim_end());
                continue;
            }
            Some(e) => {
                let _ = writeln!(s, "  {:<8} {:<8} error: {e}", m.san, m.uci);
                continue;
            }
            None => {}
        }
        let approx = if m.precise { "" } else { "~" };
        let mate = move_mate_in(m, a.halfmoves)
            .map(|t| format!(" {t:<13}"))
            .unwrap_or_default();
        let line = format!(
            "  {:<8} {:<8} {:<13} dtz {:>5}{:<1}{mate} {}",
            m.san,
            m.uci,
            m.category.as_str(),
            m.dtz,
            approx,
            mark
        );
        let _ = writeln!(s, "{}", line.trim_end());
    }
    s
}
