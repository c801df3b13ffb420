//! WDL and DTZ of a position, resolving what the tables leave out.
//!
//! Tables assume no en passant rights and may hold any value where the best
//! move is a capture (WDL) or any zeroing move (DTZ); those cases are
//! resolved by searching the children. A child whose pages are missing does
//! not stop the search: its siblings are still explored so that their pages
//! are named in the same attempt.

use shakmaty::{Chess, Move, Position};

use crate::engine::{dtz_table, wdl_table, Ctx};
use crate::error::ProbeError;
use crate::material::Material;

/// DTZ50'' in plies, signed for the side to move, with the 100 offset for
/// cursed wins and blessed losses; 0 for draws, -1 when checkmated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dtz {
    pub plies: i32,
    /// False when the table stores moves, so the true value may be one further from zero.
    pub precise: bool,
}

impl Dtz {
    /// The DTZ of a draw.
    pub const DRAW: Dtz = Dtz {
        plies: 0,
        precise: true,
    };
}

/// Records a child's error: missing pages are remembered and the search
/// continues; anything else ends it.
pub(super) fn keep_going<T>(
    r: Result<T, ProbeError>,
    missing: &mut bool,
) -> Result<Option<T>, ProbeError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(ProbeError::Missing) => {
            *missing = true;
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// What the children of a search could not answer yet: pages still to
/// fetch, or a table that is absent. An absent table ends the search only
/// if the value is not decided without it (a winning capture decides).
#[derive(Default)]
struct Pending {
    missing: bool,
    absent: Option<ProbeError>,
}

impl Pending {
    fn take<T>(&mut self, r: Result<T, ProbeError>) -> Result<Option<T>, ProbeError> {
        match r {
            Err(e @ ProbeError::MissingTable(_)) => {
                self.absent.get_or_insert(e);
                Ok(None)
            }
            r => keep_going(r, &mut self.missing),
        }
    }

    /// The value is not decided: fetch what is missing, else name the absent table.
    fn undecided(self) -> ProbeError {
        if self.missing {
            ProbeError::Missing
        } else {
            self.absent.unwrap_or(ProbeError::Missing)
        }
    }

    fn unresolved(&self) -> bool {
        self.missing || self.absent.is_some()
    }
}

fn after(pos: &Chess, m: &Move) -> Chess {
    let mut p = pos.clone();
    p.play_unchecked(*m);
    p
}

/// WDL and whether the best move is zeroing (then the DTZ table is not
/// consulted). `zeroing_moves` also searches pawn moves, as DTZ needs.
fn search(ctx: &Ctx<'_>, pos: &Chess, zeroing_moves: bool) -> Result<(i8, bool), ProbeError> {
    // Only the two kings: a draw no table stores.
    if pos.board().occupied().count() == 2 {
        return Ok((0, false));
    }
    let moves = pos.legal_moves();
    // Mate and stalemate are decided by the rules, whatever the tables hold.
    if moves.is_empty() {
        return Ok(if pos.is_check() {
            (-2, true)
        } else {
            (0, false)
        });
    }
    let mut best: i8 = -3;
    let mut searched = 0;
    let mut pending = Pending::default();
    for m in moves.iter() {
        if !(m.is_capture() || (zeroing_moves && m.role() == shakmaty::Role::Pawn)) {
            continue;
        }
        searched += 1;
        if let Some((v, _)) = pending.take(search(ctx, &after(pos, m), false))? {
            let v = -v;
            if v > best {
                best = v;
                if v == 2 {
                    return Ok((2, true));
                }
            }
        }
    }
    // When every legal move was searched (only captures, or only en passant
    // left), the table's value is not needed and may even be wrong.
    let all_searched = searched == moves.len();
    let table = if all_searched {
        None
    } else {
        let mat = Material::of(&pos.board().material());
        pending.take(wdl_table(ctx, pos, &mat))?
    };
    // An unanswered capture could beat the table's value, or (for DTZ)
    // make the best move a zeroing one: undecided.
    if pending.unresolved() {
        return Err(pending.undecided());
    }
    match table {
        Some(v) if v > best => Ok((v, false)),
        _ => Ok((best, best > 0 || all_searched)),
    }
}

/// WDL from the side to move's view, -2 (loss) ..= 2 (win), ignoring the halfmove clock.
pub fn probe_wdl(ctx: &Ctx<'_>, pos: &Chess) -> Result<i8, ProbeError> {
    search(ctx, pos, false).map(|(v, _)| v)
}

fn before_zeroing(wdl: i8) -> Dtz {
    let plies = match wdl {
        2 => 1,
        1 => 101,
        -1 => -101,
        -2 => -1,
        _ => 0,
    };
    Dtz {
        plies,
        precise: true,
    }
}

/// WDL and DTZ50'' of a position, from one search.
pub fn probe_dtz(ctx: &Ctx<'_>, pos: &Chess) -> Result<(i8, Dtz), ProbeError> {
    dtz_at(ctx, pos, 0)
}

fn dtz_at(ctx: &Ctx<'_>, pos: &Chess, depth: u32) -> Result<(i8, Dtz), ProbeError> {
    match search(ctx, pos, true) {
        Ok((0, _)) => Ok((0, Dtz::DRAW)),
        Ok((wdl, true)) => Ok((wdl, before_zeroing(wdl))),
        Ok((wdl, false)) => from_table(ctx, pos, Some(wdl), depth).map(|d| (wdl, d)),
        Err(ProbeError::Missing) => {
            // Name the DTZ pages now too: they do not depend on the WDL.
            let _ = from_table(ctx, pos, None, depth);
            Err(ProbeError::Missing)
        }
        Err(e) => Err(e),
    }
}

/// DTZ from the table, or from a 1-ply search when the table stores the
/// other side to move. With `wdl` unknown this only names pages.
fn from_table(ctx: &Ctx<'_>, pos: &Chess, wdl: Option<i8>, depth: u32) -> Result<Dtz, ProbeError> {
    let mat = Material::of(&pos.board().material());
    let sign = |w: i8| if w > 0 { 1 } else { -1 };
    match dtz_table(ctx, pos, &mat, wdl.unwrap_or(2))? {
        Some(stored) => {
            let wdl = wdl.ok_or(ProbeError::Missing)?;
            let offset = if wdl.abs() == 1 { 100 } else { 0 };
            Ok(Dtz {
                plies: (stored.plies as i32 + offset) * sign(wdl),
                precise: stored.precise && offset == 0,
            })
        }
        None => {
            if depth > 0 {
                return Err(ProbeError::CorruptTable(
                    format!("{}.rtbz", mat.name),
                    "neither side to move stored".into(),
                ));
            }
            let mut pending = Pending::default();
            let mut best: Option<Dtz> = None;
            let mut mate = false;
            for m in pos.legal_moves().iter() {
                let child = after(pos, m);
                let d = if m.is_zeroing() {
                    pending.take(search(ctx, &child, false))?.map(|(v, _)| {
                        let b = before_zeroing(v);
                        Dtz {
                            plies: -b.plies,
                            precise: true,
                        }
                    })
                } else {
                    pending.take(dtz_at(ctx, &child, depth + 1))?.map(|(_, c)| {
                        let p = -c.plies;
                        Dtz {
                            plies: p + p.signum(),
                            precise: c.precise,
                        }
                    })
                };
                let (Some(d), Some(w)) = (d, wdl) else {
                    continue;
                };
                if !m.is_zeroing() && d.plies == 2 && child.is_checkmate() {
                    mate = true;
                }
                if d.plies != 0
                    && d.plies.signum() == sign(w)
                    && best.is_none_or(|b| d.plies < b.plies)
                {
                    best = Some(d);
                }
            }
            if pending.missing || wdl.is_none() {
                return Err(ProbeError::Missing);
            }
            // A mate in one is the shortest win, whatever the unanswered moves hold.
            if mate {
                return Ok(Dtz {
                    plies: 1,
                    precise: true,
                });
            }
            if pending.unresolved() {
                return Err(pending.undecided());
            }
            // A position has moves here (mates are answered by the search),
            // and with consistent tables one of them keeps its result.
            best.ok_or_else(|| {
                ProbeError::CorruptTable(
                    format!("{}.rtbz", mat.name),
                    "no move keeps the position's result (tables disagree)".into(),
                )
            })
        }
    }
}
