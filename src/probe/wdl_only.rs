//! A position's result and its ranked moves from the WDL tables alone: what
//! a host that serves no DTZ tables (most 6- and 7-piece mirrors) can
//! still answer, where the full analysis fails for want of a DTZ file.

use shakmaty::{CastlingMode, Chess, Position};

use super::category::{clock_after, Category};
use super::position::PositionFacts;
use super::root::{outcome, san, Outcome};
use super::search::{keep_going, probe_wdl};
use crate::engine::Ctx;
use crate::error::ProbeError;
use crate::small_sort::sort_small_by;

/// One legal move and the WDL after it, from the view of the side to move
/// there (as [`super::MoveInfo`] has it); no DTZ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveOutcome {
    pub uci: String,
    pub san: String,
    pub wdl: i8,
    /// None where the halfmove clock leaves the result to the DTZ.
    pub category: Option<Category>,
    pub zeroing: bool,
    pub facts: PositionFacts,
    /// Why this move has no result (its WDL table is missing too); then
    /// `wdl` and `category` are placeholders.
    pub error: Option<ProbeError>,
}

/// [`Outcome`] of a position and of every legal move, best first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WdlAnalysis {
    pub outcome: Outcome,
    pub moves: Vec<MoveOutcome>,
}

/// The position's outcome and every move's WDL, ranked: mates first, then
/// by the WDL after the move; among winning moves zeroing ones first (a
/// capture or pawn move: progress the tables can vouch for), among losing
/// ones last (they restart the 50-move count the defender plays for);
/// ties by UCI.
pub fn wdl_analysis(ctx: &Ctx<'_>, pos: &Chess) -> Result<WdlAnalysis, ProbeError> {
    let mut missing = false;
    let root = keep_going(outcome(ctx, pos), &mut missing)?;
    let mut moves = Vec::new();
    for m in pos.legal_moves().iter() {
        let mut child = pos.clone();
        child.play_unchecked(*m);
        let (wdl, error) = match probe_wdl(ctx, &child) {
            Err(e @ ProbeError::MissingTable(_)) => (0, Some(e)),
            r => match keep_going(r, &mut missing)? {
                Some(wdl) => (wdl, None),
                None => continue,
            },
        };
        let zeroing = m.is_zeroing();
        let clock = clock_after(pos.halfmoves(), zeroing);
        let facts = PositionFacts::of(&child);
        moves.push(MoveOutcome {
            uci: m.to_uci(CastlingMode::Standard).to_string(),
            san: san(pos, m, &child, &facts),
            wdl,
            category: Category::from_wdl(wdl, clock, facts.checkmate),
            zeroing,
            facts,
            error,
        });
    }
    if missing {
        return Err(ProbeError::Missing);
    }
    let mut outcome = root.ok_or(ProbeError::Missing)?;
    if outcome.category.is_none() {
        outcome.category = decided_by_moves(&outcome, &moves);
    }
    sort_small_by(&mut moves, |a, b| (rank(a), &a.uci) < (rank(b), &b.uci));
    Ok(WdlAnalysis { outcome, moves })
}

/// The category a running clock left to the DTZ, where the moves or the
/// clock decide it without one: a win on this very ply (a mate, or a
/// zeroing move that keeps the win) holds below a clock of 150; past 100
/// any other win comes too late, and any loss is saved.
fn decided_by_moves(o: &Outcome, moves: &[MoveOutcome]) -> Option<Category> {
    let h = o.halfmoves;
    let now = moves
        .iter()
        .any(|m| m.error.is_none() && (m.facts.checkmate || (m.zeroing && m.wdl == -2)));
    match o.wdl {
        2 if now && h < 150 => Some(Category::new(2, 1, true, h, false)),
        2 if h >= 100 => Some(Category::new(2, 2, true, h, false)),
        -2 if h >= 100 => Some(Category::new(-2, -1, true, h, false)),
        _ => None,
    }
}

/// Sort key, best first: the WDL after the move is the opponent's, so lower
/// is better; mates before other wins; zeroing moves first when winning,
/// last when losing.
fn rank(m: &MoveOutcome) -> (bool, bool, i8, bool) {
    let zeroing_later = match m.wdl {
        w if w < 0 => !m.zeroing,
        w if w > 0 => m.zeroing,
        _ => false,
    };
    (m.error.is_some(), !m.facts.checkmate, m.wdl, zeroing_later)
}
