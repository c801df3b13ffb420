//! Root analysis: every legal move with the result after it, ranked as the
//! lichess tablebase ranks them.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use super::category::{clock_after, Category};
use super::position::PositionFacts;
use super::search::{child_dtz, keep_going, probe_dtz, probe_wdl, Dtz};
use crate::engine::Ctx;
use crate::error::ProbeError;
use crate::small_sort::sort_small_by;

/// One legal move and the position after it, from the view of the side to move there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveInfo {
    pub uci: String,
    pub san: String,
    pub wdl: i8,
    pub dtz: i32,
    pub precise: bool,
    pub category: Category,
    /// A capture or pawn move: resets the 50-move counter.
    pub zeroing: bool,
    pub facts: PositionFacts,
    /// Plies to mate with best play after the move, signed like `dtz`
    /// (from the view of the side to move there); None where unknown
    /// (Syzygy tables hold no mate distances).
    pub dtm: Option<i32>,
    /// Why this move has no result (its table is missing); then `dtz` and
    /// `precise` are placeholders (0), and so is `wdl` unless `wdl_known`;
    /// `category` is the one a DTZ of 0 gives, which is the category where
    /// the WDL decides it ([`MoveInfo::wdl_category`]), else a placeholder.
    pub error: Option<ProbeError>,
    /// `wdl` is the move's: always without `error`, and with it where the
    /// missing table is one only the DTZ needs and the WDL tables answered
    /// (a host that serves WDL tables alone for some materials).
    pub wdl_known: bool,
}

impl MoveInfo {
    /// The category its WDL alone gives, at the clock after the move
    /// (played at `halfmoves`); None where that clock leaves it to the DTZ.
    /// For a move whose DTZ is unknown (`wdl_known` beside `error`).
    pub fn wdl_category(&self, halfmoves: u32) -> Option<Category> {
        let clock = clock_after(halfmoves, self.zeroing);
        Category::from_wdl(self.wdl, clock, self.facts.checkmate)
    }
}

/// A position's result and its ranked moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    pub wdl: i8,
    pub dtz: i32,
    pub precise: bool,
    pub category: Category,
    pub facts: PositionFacts,
    pub halfmoves: u32,
    pub turn: Color,
    /// Plies to mate with best play, signed like `dtz`; None where unknown.
    pub dtm: Option<i32>,
    /// Best first.
    pub moves: Vec<MoveInfo>,
}

/// The position's own result and, for every legal move, the result after it.
pub fn analyse(ctx: &Ctx<'_>, pos: &Chess) -> Result<Analysis, ProbeError> {
    let mut missing = false;
    let root = keep_going(probe_dtz(ctx, pos), &mut missing)?;
    let mut moves = Vec::new();
    for m in pos.legal_moves().iter() {
        let mut child = pos.clone();
        child.play_unchecked(*m);
        // A move whose table is absent gets its own error, with its WDL
        // where only a DTZ table is missing; the others are answered.
        let (wdl, dtz, error, wdl_known) = match child_dtz(ctx, &child) {
            Err(e @ ProbeError::MissingTable(_)) => (0, Dtz::DRAW, Some(e), false),
            r => match keep_going(r, &mut missing)? {
                Some((wdl, Ok(dtz))) => (wdl, dtz, None, true),
                Some((wdl, Err(e))) => (wdl, Dtz::DRAW, Some(e), true),
                None => continue,
            },
        };
        moves.push(MoveInfo {
            error,
            wdl_known,
            ..move_info(pos, m, &child, wdl, dtz)
        });
    }
    if missing {
        return Err(ProbeError::Missing);
    }
    let (wdl, dtz) = root.ok_or(ProbeError::Missing)?;
    sort(&mut moves);
    Ok(result(pos, wdl, dtz, None, moves))
}

/// The position's own result without its moves: what a page can show
/// first, as it needs a fraction of the tables and pages of [`analyse`].
pub fn verdict(ctx: &Ctx<'_>, pos: &Chess) -> Result<Analysis, ProbeError> {
    let (wdl, dtz) = probe_dtz(ctx, pos)?;
    Ok(result(pos, wdl, dtz, None, Vec::new()))
}

/// The position's WDL, ahead of its DTZ: fewer tables (no DTZ file, no
/// pawn moves searched) and fewer pages than [`verdict`], so a page can
/// show who wins while the DTZ is still on its way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub wdl: i8,
    /// None where the halfmove clock leaves the result to the DTZ.
    pub category: Option<Category>,
    pub facts: PositionFacts,
    pub halfmoves: u32,
    pub turn: Color,
}

/// The position's [`Outcome`].
pub fn outcome(ctx: &Ctx<'_>, pos: &Chess) -> Result<Outcome, ProbeError> {
    let wdl = probe_wdl(ctx, pos)?;
    let facts = PositionFacts::of(pos);
    Ok(Outcome {
        wdl,
        category: Category::from_wdl(wdl, pos.halfmoves(), facts.checkmate),
        facts,
        halfmoves: pos.halfmoves(),
        turn: pos.turn(),
    })
}

pub(super) fn result(
    pos: &Chess,
    wdl: i8,
    dtz: Dtz,
    dtm: Option<i32>,
    moves: Vec<MoveInfo>,
) -> Analysis {
    let halfmoves = pos.halfmoves();
    let facts = PositionFacts::of(pos);
    Analysis {
        wdl,
        dtz: dtz.plies,
        precise: dtz.precise,
        category: Category::new(wdl, dtz.plies, dtz.precise, halfmoves, facts.checkmate),
        facts,
        halfmoves,
        turn: pos.turn(),
        dtm,
        moves,
    }
}

/// SAN with its check or mate suffix, from the facts already known about
/// the position after the move (rather than playing it and generating its
/// moves again).
pub(super) fn san(pos: &Chess, m: &Move, child: &Chess, facts: &PositionFacts) -> String {
    let suffix = if facts.checkmate {
        Some(Suffix::Checkmate)
    } else if child.is_check() {
        Some(Suffix::Check)
    } else {
        None
    };
    SanPlus {
        san: San::from_move(pos, *m),
        suffix,
    }
    .to_string()
}

pub(super) fn move_info(pos: &Chess, m: &Move, child: &Chess, wdl: i8, dtz: Dtz) -> MoveInfo {
    let zeroing = m.is_zeroing();
    let clock = clock_after(pos.halfmoves(), zeroing);
    let facts = PositionFacts::of(child);
    MoveInfo {
        uci: m.to_uci(CastlingMode::Standard).to_string(),
        san: san(pos, m, child, &facts),
        wdl,
        dtz: dtz.plies,
        precise: dtz.precise,
        category: Category::new(wdl, dtz.plies, dtz.precise, clock, facts.checkmate),
        zeroing,
        facts,
        dtm: None,
        error: None,
        wdl_known: true,
    }
}

/// Ranks moves best first (see [`rank`]), ties by UCI.
pub(super) fn sort(moves: &mut [MoveInfo]) {
    sort_small_by(moves, |a, b| (rank(a), &a.uci) < (rank(b), &b.uci));
}

/// Sort key, best first: the move's WDL (the opponent's after it: lower is
/// better), then within it the move's category under the halfmove clock
/// (a win the clock keeps before one it may spoil, a loss it spoils before
/// one it keeps: with mate distances, the fastest mate may walk past the
/// 50-move limit where a capture wins); then mates; wins by fewest plies to
/// zeroing (a zeroing move counts as one ply), zeroing moves first among
/// equals; cursed wins likewise; draws; blessed losses and losses by most
/// plies to zeroing. Where mate distances are known they come next within
/// a WDL: fastest mate when winning, longest resistance when losing. The
/// category never ranks a worse WDL first, so leading with the WDL changes
/// no order among answered moves.
///
/// A move whose DTZ is unknown but whose WDL is known (a missing table)
/// ranks as if its DTZ were the worst its WDL allows: where the WDL
/// decides its category (a zeroing move, a cursed, blessed or drawn
/// result), among the answered moves of that category, after those it
/// ties; elsewhere (the clock may spoil it) after the answered moves of
/// its WDL, before those of a worse one (all of them quiet moves).
/// Moves without even a WDL come last.
fn rank(m: &MoveInfo) -> (i8, bool, u8, u8, i64, i64, bool, i64, bool) {
    let unknown = m.error.is_some();
    if unknown && !m.wdl_known {
        return (i8::MAX, true, 0, 0, 0, 0, false, 0, true);
    }
    if unknown && !m.zeroing && m.wdl.abs() == 2 {
        return (m.wdl, true, 0, 0, 0, 0, false, 0, true);
    }
    // The category is the opponent's after the move: lower is better here.
    let clock = m.category as u8;
    let (class, mate, ours, later, child) = if m.facts.checkmate {
        (0, 0, 0, false, 0)
    } else {
        // Unknown plies rank as the most a win can take, the fewest a
        // loss can hold (a blessed one holds more than 100).
        let child = (!unknown).then(|| i64::from(m.dtz).abs());
        let ours = if m.zeroing {
            Some(1)
        } else {
            child.map(|c| c + 1)
        };
        let mate = m.dtm.map_or(0, |d| i64::from(d).abs());
        let (win_ours, win_child) = (ours.unwrap_or(i64::MAX), child.unwrap_or(i64::MAX));
        let fewest = if m.wdl.abs() == 1 { 101 } else { 1 };
        let (loss_ours, loss_child) = (ours.unwrap_or(fewest + 1), child.unwrap_or(fewest));
        match m.wdl {
            -2 => (1, mate, win_ours, !m.zeroing, win_child),
            -1 => (2, mate, win_ours, !m.zeroing, win_child),
            0 => (3, 0, 0, false, 0),
            1 => (4, -mate, -loss_ours, m.zeroing, -loss_child),
            _ => (5, -mate, -loss_ours, m.zeroing, -loss_child),
        }
    };
    (
        m.wdl, false, clock, class, mate, ours, later, child, unknown,
    )
}
