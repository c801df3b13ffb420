//! Results as JSON, the one wire format of the CLI and the JS API, written
//! by hand to keep the wasm module small.

use std::fmt::Write;

use shakmaty::Color;

use crate::error::ProbeError;
use crate::probe::{
    Analysis, Category, LineStep, Mainline, MoveInfo, Outcome, PositionFacts, WdlAnalysis,
};

/// Appends `s` as a JSON string literal.
pub fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn field_str(out: &mut String, key: &str, v: &str) {
    string(out, key);
    out.push(':');
    string(out, v);
    out.push(',');
}

fn field(out: &mut String, key: &str, v: impl std::fmt::Display) {
    string(out, key);
    let _ = write!(out, ":{v},");
}

/// `dtm` as a number, or null where unknown.
fn field_dtm(out: &mut String, dtm: Option<i32>) {
    match dtm {
        Some(d) => field(out, "dtm", d),
        None => field(out, "dtm", "null"),
    }
}

fn close(out: &mut String, bracket: char) {
    if out.ends_with(',') {
        out.pop();
    }
    out.push(bracket);
}

/// One move of an analysis at a halfmove clock of `halfmoves`.
fn move_json(out: &mut String, m: &MoveInfo, halfmoves: u32) {
    out.push('{');
    field_str(out, "uci", &m.uci);
    field_str(out, "san", &m.san);
    // A move without a result says why instead of giving placeholder
    // values; where the missing table is one only its DTZ needs, with its
    // WDL as the WDL tables alone give it (see `wdl_analysis`).
    if let Some(e) = &m.error {
        if m.wdl_known {
            wdl_fields(out, m.wdl, m.wdl_category(halfmoves));
        }
        field_str(out, "error", &e.to_string());
        field_str(out, "code", e.code());
    } else {
        field(out, "wdl", m.wdl);
        field(out, "dtz", m.dtz);
        field(out, "precise", m.precise);
        field_str(out, "category", m.category.as_str());
        field_dtm(out, m.dtm);
    }
    move_facts(out, m.zeroing, &m.facts);
    close(out, '}');
}

/// What every move's object ends with: whether it zeroes, and what the
/// rules say of the position after it.
fn move_facts(out: &mut String, zeroing: bool, facts: &PositionFacts) {
    field(out, "zeroing", zeroing);
    field(out, "checkmate", facts.checkmate);
    field(out, "stalemate", facts.stalemate);
    field(out, "insufficientMaterial", facts.insufficient_material);
}

/// A result from the WDL alone: `wdl`, then `dtz`, `precise` and `dtm`
/// null, and `category` null where the halfmove clock leaves it to the DTZ.
fn wdl_fields(out: &mut String, wdl: i8, category: Option<Category>) {
    field(out, "wdl", wdl);
    field(out, "dtz", "null");
    field(out, "precise", "null");
    match category {
        Some(c) => field_str(out, "category", c.as_str()),
        None => field(out, "category", "null"),
    }
    field_dtm(out, None);
}

/// The CLI/JS answer for one FEN.
pub fn analysis(fen: &str, a: &Analysis) -> String {
    let mut out = String::with_capacity(256 + 160 * a.moves.len());
    out.push('{');
    field_str(&mut out, "fen", fen);
    field(&mut out, "wdl", a.wdl);
    field(&mut out, "dtz", a.dtz);
    field(&mut out, "precise", a.precise);
    field_str(&mut out, "category", a.category.as_str());
    field_dtm(&mut out, a.dtm);
    position_fields(&mut out, &a.facts, a.halfmoves, a.turn);
    string(&mut out, "moves");
    out.push_str(":[");
    for m in &a.moves {
        move_json(&mut out, m, a.halfmoves);
        out.push(',');
    }
    close(&mut out, ']');
    close(&mut out, '}');
    out
}

/// A position's outcome ahead of its DTZ: the shape of [`analysis`] with
/// `dtz`, `precise` and `dtm` null, `category` null where the halfmove
/// clock leaves it to the DTZ, and no moves yet.
pub fn outcome(fen: &str, o: &Outcome) -> String {
    let mut out = outcome_head(fen, o);
    out.push_str(":[]}");
    out
}

/// [`outcome`] up to its `"moves"` key.
fn outcome_head(fen: &str, o: &Outcome) -> String {
    let mut out = String::with_capacity(256);
    out.push('{');
    field_str(&mut out, "fen", fen);
    wdl_fields(&mut out, o.wdl, o.category);
    position_fields(&mut out, &o.facts, o.halfmoves, o.turn);
    string(&mut out, "moves");
    out
}

/// The answer where a DTZ table is missing: the position's outcome and
/// every move's WDL ([`crate::probe::WdlAnalysis`]), in [`analysis`]'s
/// shape with `dtz`, `precise` and `dtm` null (`category` too where the
/// halfmove clock leaves it to the DTZ), and `error` and `code` saying
/// which table is missing, as the error alone said before (the JS API
/// puts this answer on its error instead: `missing` None).
pub fn wdl_analysis(fen: &str, a: &WdlAnalysis, missing: Option<&ProbeError>) -> String {
    let mut out = outcome_head(fen, &a.outcome);
    out.push_str(":[");
    for m in &a.moves {
        out.push('{');
        field_str(&mut out, "uci", &m.uci);
        field_str(&mut out, "san", &m.san);
        if let Some(e) = &m.error {
            field_str(&mut out, "error", &e.to_string());
            field_str(&mut out, "code", e.code());
        } else {
            wdl_fields(&mut out, m.wdl, m.category);
        }
        move_facts(&mut out, m.zeroing, &m.facts);
        close(&mut out, '}');
        out.push(',');
    }
    close(&mut out, ']');
    out.push(',');
    if let Some(e) = missing {
        field_str(&mut out, "error", &e.to_string());
        field_str(&mut out, "code", e.code());
    }
    close(&mut out, '}');
    out
}

/// What the rules say of the position itself, and whose move it is.
fn position_fields(out: &mut String, facts: &PositionFacts, halfmoves: u32, turn: Color) {
    field(out, "checkmate", facts.checkmate);
    field(out, "stalemate", facts.stalemate);
    field(out, "insufficientMaterial", facts.insufficient_material);
    field(out, "halfmoveClock", halfmoves);
    let side = if turn == Color::White {
        "white"
    } else {
        "black"
    };
    field_str(out, "turn", side);
}

/// One step of a mainline for the browser driver, which strings the steps
/// into a line: `{"wdl", "dtz", "precise", "last", "step": {uci, san, fen,
/// wdl, dtz, precise, zeroing} | null}`.
pub fn line_step(l: &LineStep) -> String {
    let mut out = String::from("{");
    field(&mut out, "wdl", l.wdl);
    field(&mut out, "dtz", l.dtz);
    field(&mut out, "precise", l.precise);
    field_dtm(&mut out, l.dtm);
    field(&mut out, "last", l.last);
    string(&mut out, "step");
    out.push(':');
    match &l.best {
        None => out.push_str("null"),
        Some(m) => {
            out.push('{');
            field_str(&mut out, "uci", &m.uci);
            field_str(&mut out, "san", &m.san);
            field_str(&mut out, "fen", &m.fen);
            field(&mut out, "wdl", m.wdl);
            field(&mut out, "dtz", m.dtz);
            field(&mut out, "precise", m.precise);
            field(&mut out, "zeroing", m.zeroing);
            field_dtm(&mut out, m.dtm);
            close(&mut out, '}');
        }
    }
    out.push('}');
    out
}

/// An analysis answer with `"mainline": [uci, ...]` added (the CLI's `--mainline`).
pub fn with_mainline(json: String, l: &Mainline) -> String {
    extended(json, |out| {
        string(out, "mainline");
        out.push_str(":[");
        for m in &l.moves {
            string(out, &m.uci);
            out.push(',');
        }
        close(out, ']');
        out.push(',');
    })
}

/// An analysis whose line of best play failed: `mainline` null, and the
/// failure as `mainlineError` and `mainlineCode` (the analysis stands).
pub fn with_mainline_error(json: String, e: &ProbeError) -> String {
    extended(json, |out| {
        string(out, "mainline");
        out.push_str(":null,");
        field_str(out, "mainlineError", &e.to_string());
        field_str(out, "mainlineCode", e.code());
    })
}

/// A JSON object with fields added at its end by `add` (each field
/// followed by a comma, as `field_str` writes them).
fn extended(mut json: String, add: impl FnOnce(&mut String)) -> String {
    if json.ends_with('}') {
        json.pop();
        json.push(',');
        add(&mut json);
        close(&mut json, '}');
    }
    json
}

/// An error line: `{"fen": ..., "error": ..., "code": ...}`.
pub fn error(fen: &str, e: &ProbeError) -> String {
    let mut out = String::from("{");
    field_str(&mut out, "fen", fen);
    field_str(&mut out, "error", &e.to_string());
    field_str(&mut out, "code", e.code());
    close(&mut out, '}');
    out
}
