//! The mainline of best play, one step at a time. A line can be hundreds of
//! plies long and each cold step costs rounds of its own, so drivers run
//! every step as a probe of its own (its own round bound), never the whole
//! line as one probe that would replay every earlier step at each attempt.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use super::root::{analyse, Analysis, MoveInfo};
use super::search::{keep_going, probe_dtz};
use crate::engine::Ctx;
use crate::error::ProbeError;

/// One move of the mainline, with the result of the position after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MainlineStep {
    pub uci: String,
    pub san: String,
    /// FEN after the move.
    pub fen: String,
    pub wdl: i8,
    pub dtz: i32,
    pub precise: bool,
    pub zeroing: bool,
    /// Plies to mate after the move, signed like `dtz`; None where unknown.
    pub dtm: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mainline {
    pub wdl: i8,
    pub dtz: i32,
    pub precise: bool,
    /// Plies to mate, signed like `dtz`; None where unknown.
    pub dtm: Option<i32>,
    pub moves: Vec<MainlineStep>,
}

/// A position's result and its best move, if the line goes on from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineStep {
    pub wdl: i8,
    pub dtz: i32,
    pub precise: bool,
    /// Plies to mate, signed like `dtz`; None where unknown.
    pub dtm: Option<i32>,
    /// None for a draw or a position without moves.
    pub best: Option<MainlineStep>,
    /// The line ends after `best`: it zeroes, mates or draws.
    pub last: bool,
}

/// The step of the mainline from `pos`. A drawn position has no line, so
/// its moves are not needed; they are still explored while the position's
/// own pages are missing, so that a won position costs no extra round.
pub fn mainline_step(ctx: &Ctx<'_>, pos: &Chess) -> Result<LineStep, ProbeError> {
    let mut missing = false;
    if let Some((0, dtz)) = keep_going(probe_dtz(ctx, pos), &mut missing)? {
        return Ok(LineStep {
            wdl: 0,
            dtz: dtz.plies,
            precise: dtz.precise,
            dtm: None,
            best: None,
            last: true,
        });
    }
    let a = keep_going(analyse(ctx, pos), &mut missing)?;
    let a = match a {
        Some(a) if !missing => a,
        _ => return Err(ProbeError::Missing),
    };
    // A move without a result (a table it or a reply needs is missing)
    // might be the best: the line goes on only past a first move that none
    // of them can beat.
    // (A known WDL worse for the mover than the first move's cannot rank
    // above it: the ranking leads with the WDL.)
    let first = a.moves.first().filter(|b| b.error.is_none());
    let best = first.is_some_and(|b| surely_best(&a, b));
    let beaten = |m: &MoveInfo| best || first.is_some_and(|b| m.wdl_known && m.wdl > b.wdl);
    if let Some(e) = a
        .moves
        .iter()
        .filter(|m| !beaten(m))
        .find_map(|m| m.error.as_ref())
    {
        return Err(e.clone());
    }
    Ok(step_from(pos, &a, false))
}

/// Whether `b` is a best move whatever the moves without a result hold:
/// it mates; or it zeroes keeping a win (one ply to the zeroing move, the
/// least there is); or it keeps a win or loss in exactly the position's
/// own DTZ, which is the best over all moves, those without a result
/// included (both exact, so that a rounded value does not pass for it).
fn surely_best(a: &Analysis, b: &MoveInfo) -> bool {
    if b.error.is_some() {
        return false;
    }
    let keeps = a.wdl != 0 && b.wdl == -a.wdl;
    let plies = if b.zeroing {
        1
    } else {
        b.dtz.unsigned_abs() + 1
    };
    b.facts.checkmate
        || (keeps && a.wdl > 0 && b.zeroing)
        || (keeps && a.wdl.abs() == 2 && a.precise && b.precise && plies == a.dtz.unsigned_abs())
}

/// The step from a position's analysis: its best move (the first ranked)
/// unless the position is drawn, and whether the line ends after it. It
/// ends at mate or a draw, and at a zeroing move unless `through_zeroing`
/// (mate distances lead on through zeroing moves to mate; DTZ only to the
/// next zeroing move).
pub(super) fn step_from(pos: &Chess, a: &Analysis, through_zeroing: bool) -> LineStep {
    let best = (a.wdl != 0).then(|| a.moves.first()).flatten();
    let step = best.and_then(|b| {
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to_uci(CastlingMode::Standard).to_string() == b.uci)?;
        let mut after = pos.clone();
        after.play_unchecked(m);
        let last = b.facts.checkmate || b.wdl == 0 || (b.zeroing && !through_zeroing);
        Some((
            MainlineStep {
                uci: b.uci.clone(),
                san: b.san.clone(),
                fen: Fen::from_position(&after, EnPassantMode::Legal).to_string(),
                wdl: b.wdl,
                dtz: b.dtz,
                precise: b.precise,
                zeroing: b.zeroing,
                dtm: b.dtm,
            },
            last,
        ))
    });
    LineStep {
        wdl: a.wdl,
        dtz: a.dtz,
        precise: a.precise,
        dtm: a.dtm,
        last: step.as_ref().is_none_or(|s| s.1),
        best: step.map(|s| s.0),
    }
}

impl Mainline {
    /// A line starting from a position's step.
    pub fn start(first: &LineStep) -> Mainline {
        Mainline {
            wdl: first.wdl,
            dtz: first.dtz,
            precise: first.precise,
            dtm: first.dtm,
            moves: Vec::new(),
        }
    }

    /// Whether the phase the line is in (from its start, or from its last
    /// zeroing move) has plies left: the DTZ (or mate distance) at the
    /// phase's start counts them, one more when rounded, so only
    /// inconsistent tables could make a phase longer. A line through
    /// zeroing moves gives each phase its own bound: one that captures to
    /// keep a win from the 50-move rule is longer than the first's.
    fn phase_has_room(&self) -> bool {
        let (done, dtz, dtm) = match self.moves.iter().rposition(|m| m.zeroing) {
            Some(i) => (
                self.moves.len() - i - 1,
                self.moves[i].dtz,
                self.moves[i].dtm,
            ),
            None => (self.moves.len(), self.dtz, self.dtm),
        };
        done < dtz.unsigned_abs().max(dtm.map_or(0, i32::unsigned_abs)) as usize + 1
    }

    /// Adds a step's move; false when the line is complete.
    pub fn push(&mut self, step: LineStep) -> bool {
        let Some(best) = step.best else {
            return false;
        };
        self.moves.push(best);
        !step.last && self.phase_has_room()
    }
}
