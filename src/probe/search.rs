//! WDL and DTZ of a position, resolving what the tables leave out.
//!
//! Tables assume no en passant rights and may hold any value where the best
//! move is a capture (WDL) or any zeroing move (DTZ); those cases are
//! resolved by searching the children. A child whose pages are missing does
//! not stop the search: its siblings are still explored so that their pages
//! are named in the same attempt.

use shakmaty::{Chess, Move, MoveList, Position};

use crate::engine::{dtz_table, wdl_table, Ctx};
use crate::error::ProbeError;
use crate::material::Material;
use crate::small_sort::sort_small_by;

use super::lone_king::majors_against_bare_king;

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
/// `eager` explores every branch at once (see [`probe_dtz`]).
fn search(
    ctx: &Ctx<'_>,
    pos: &Chess,
    zeroing_moves: bool,
    eager: bool,
) -> Result<(i8, bool), ProbeError> {
    // Only the two kings, or too little material for either side to mate
    // (a lone minor piece, bishops on one colour): a draw whatever the
    // tables hold, so none is fetched for it.
    if pos.board().occupied().count() == 2 || pos.is_insufficient_material() {
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
    if let Some(decided) = majors_against_bare_king(pos, &moves) {
        return Ok(decided);
    }
    let mut pending = Pending::default();
    let (best, searched, by_ep) =
        best_zeroing(ctx, pos, &moves, zeroing_moves, eager, &mut pending)?;
    if best == 2 {
        return Ok((2, true));
    }
    // When every legal move was searched (only captures, or only en passant
    // left), the table's value is not needed and may even be wrong.
    let all_searched = searched == moves.len();
    let table = if all_searched {
        None
    } else {
        // While a capture is unanswered the table's value may not be
        // needed (a winning capture decides): its pages are only maybe
        // wanted, so a driver that attempts again as answers arrive does
        // not fetch them before it knows.
        let mat = Material::of(&pos.board().material());
        let read = || wdl_table(ctx, pos, &mat);
        pending.take(if pending.unresolved() {
            ctx.speculate(read)
        } else {
            read()
        })?
    };
    // A win in the table is who wins whatever an unanswered capture holds
    // (a position a capture decides stores at most that capture's value);
    // only DTZ, which needs to know whether the best move zeroes, waits.
    if !zeroing_moves && table == Some(2) {
        return Ok((2, false));
    }
    // An unanswered capture could beat the table's value, or (for DTZ)
    // make the best move a zeroing one: undecided.
    if pending.unresolved() {
        return Err(pending.undecided());
    }
    match table {
        Some(v) if v > best => Ok((v, false)),
        // An en passant capture (tables store positions without the right)
        // beats the table's value: that zeroing move is the best, a blessed
        // loss included (DTZ -101, not the table's). Another capture's
        // value above the table's says nothing: a position some capture
        // decides may store any value up to it.
        Some(v) if v < best && by_ep => Ok((best, true)),
        _ => Ok((best, best > 0 || all_searched)),
    }
}

/// The best value for the side to move among its captures (and, with
/// `zeroing_moves`, pawn moves), 2 as soon as one wins, how many moves
/// were looked at, and whether only an en passant capture reaches that
/// value; what is still missing or absent goes into `pending`.
fn best_zeroing(
    ctx: &Ctx<'_>,
    pos: &Chess,
    moves: &MoveList,
    zeroing_moves: bool,
    eager: bool,
    pending: &mut Pending,
) -> Result<(i8, usize, bool), ProbeError> {
    let mut best: i8 = -3;
    let mut best_ep: i8 = -3;
    let mut searched = 0;
    // The queen promotion of a move whose answer is still being fetched.
    let mut queen_pending = None;
    for m in moves.iter() {
        if !(m.is_capture() || (zeroing_moves && m.role() == shakmaty::Role::Pawn)) {
            continue;
        }
        searched += 1;
        // Underpromotions follow their queen promotion (shakmaty's move
        // order) and rarely win where it does not: they are looked at
        // only once it is known, which saves a lookup into each of three
        // more tables wherever the queen wins, at a round where it does
        // not. Even for the verdict (`eager`): its requests go first, and
        // three more table heads in its first wave delay its answer more
        // than the round they might save (the rook promotion of issue 12
        // on the phone profile: its DTZ shows after 3.42 s with them,
        // 2.98 s without). Where the new queen stands attacked and
        // undefended, it often does not win: on a multiplexed host the
        // underpromotions then name their reads beside it, as maybe
        // needed, which saves that round (the rook promotion's last).
        let key = (m.from(), m.to());
        match m.promotion() {
            Some(shakmaty::Role::Queen) => queen_pending = None,
            Some(_) if queen_pending.is_some_and(|(k, _)| k == key) => {
                if queen_pending.is_some_and(|(_, hanging)| hanging) {
                    let _ = ctx.speculate(|| search(ctx, &after(pos, m), false, eager));
                }
                continue;
            }
            _ => {}
        }
        let was_missing = pending.missing;
        pending.missing = false;
        let child = after(pos, m);
        let r = pending.take(search(ctx, &child, false, eager))?;
        if pending.missing && m.promotion() == Some(shakmaty::Role::Queen) {
            queen_pending = Some((key, ctx.multiplexed() && hanging(&child, m.to())));
        }
        pending.missing |= was_missing;
        if let Some((v, _)) = r {
            if m.is_en_passant() {
                best_ep = best_ep.max(-v);
            } else {
                best = best.max(-v);
            }
            if best.max(best_ep) == 2 {
                break;
            }
        }
    }
    Ok((best.max(best_ep), searched, best_ep > best))
}

/// Whether the piece on `sq` is attacked by the side to move and not defended.
fn hanging(pos: &Chess, sq: shakmaty::Square) -> bool {
    let board = pos.board();
    board.attacks_to(sq, pos.turn(), board.occupied()).any()
        && board
            .attacks_to(sq, !pos.turn(), board.occupied())
            .is_empty()
}

/// Whether a zeroing move wins for the side to move, for a position known
/// to be won (its WDL table value is then not needed); None when every
/// move zeroes and none wins, which a won position cannot be.
fn zeroing_win(ctx: &Ctx<'_>, pos: &Chess) -> Result<Option<bool>, ProbeError> {
    let moves = pos.legal_moves();
    let mut pending = Pending::default();
    let (best, searched, _) = best_zeroing(ctx, pos, &moves, true, false, &mut pending)?;
    if best == 2 {
        return Ok(Some(true));
    }
    if pending.unresolved() {
        return Err(pending.undecided());
    }
    Ok((searched < moves.len()).then_some(false))
}

/// WDL from the side to move's view, -2 (loss) ..= 2 (win), ignoring the halfmove clock.
pub fn probe_wdl(ctx: &Ctx<'_>, pos: &Chess) -> Result<i8, ProbeError> {
    search(ctx, pos, false, true).map(|(v, _)| v)
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

/// WDL and DTZ50'' of a position, from one search: the position asked
/// about, whose answer comes first (its verdict), so while its WDL is
/// still unknown its DTZ (a 1-ply search over every child, where the table
/// stores the other side to move) names its reads too, as speculative
/// ones: they are fetched where they fill a wave of requests the WDL makes
/// anyway, and a drawn position never waits for them (see [`child_dtz`]).
pub fn probe_dtz(ctx: &Ctx<'_>, pos: &Chess) -> Result<(i8, Dtz), ProbeError> {
    dtz_at(ctx, pos, 0, true)
}

/// WDL and DTZ50'' of a position in a move list: a 1-ply search for its
/// DTZ waits for its WDL (a drawn position needs none) and, for a lost
/// position, probes few children (see `lost_by_bounds`). Dozens of
/// such searches per move list are what fans out into hundreds of
/// requests otherwise.
///
/// Where a table only the DTZ needs is missing (a host of WDL tables alone
/// for some materials), the WDL found on the way stands beside that error,
/// so the move keeps who wins.
pub fn child_dtz(ctx: &Ctx<'_>, pos: &Chess) -> Result<(i8, Result<Dtz, ProbeError>), ProbeError> {
    value_at(ctx, pos, 0, false)
}

fn dtz_at(ctx: &Ctx<'_>, pos: &Chess, depth: u32, eager: bool) -> Result<(i8, Dtz), ProbeError> {
    let (wdl, dtz) = value_at(ctx, pos, depth, eager)?;
    Ok((wdl, dtz?))
}

/// The WDL, and the DTZ or the missing table that keeps it unknown.
fn value_at(
    ctx: &Ctx<'_>,
    pos: &Chess,
    depth: u32,
    eager: bool,
) -> Result<(i8, Result<Dtz, ProbeError>), ProbeError> {
    match search(ctx, pos, true, eager) {
        Ok((0, _)) => Ok((0, Ok(Dtz::DRAW))),
        Ok((wdl, true)) => Ok((wdl, Ok(before_zeroing(wdl)))),
        Ok((wdl, false)) => match from_table(ctx, pos, Some(wdl), depth, eager) {
            Err(e @ ProbeError::MissingTable(_)) => Ok((wdl, Err(e))),
            r => Ok((wdl, Ok(r?))),
        },
        Err(ProbeError::Missing) => {
            // A drawn position needs no DTZ: what its DTZ would read is
            // fetched only where it rides along with what the WDL needs.
            if eager {
                let _ = ctx.speculate(|| from_table(ctx, pos, None, depth, eager));
            } else if ctx.multiplexed() && depth == 0 && no_escape_by_capture(pos) {
                // Where requests cost no waves, a move list's child names
                // its DTZ's reads beside its WDL's, as a loss (what the
                // children of a won position are but for blunders): the
                // table's, else the bounds'. Over HTTP/2, medians of 6 full
                // analyses: `8/2B5/4B3/4B3/1k6/8/K7/8 w` 519 to 425 ms (3
                // waves to 2), `RK6/Q7/4k3/4N3/8/8/8/8 w` 597 to 389 ms,
                // the promotions within their spread.
                let _ = ctx.speculate(|| from_table(ctx, pos, Some(-2), depth, eager));
            } else {
                let mat = Material::of(&pos.board().material());
                let _ =
                    ctx.speculate(|| ctx.header(&mat.name, crate::format::Kind::Dtz, &mat.shape));
            }
            Err(ProbeError::Missing)
        }
        Err(e) => Err(e),
    }
}

/// Whether the side to move has no capture but by its king: a capture by
/// another piece often escapes a loss (a king that takes a piece rarely
/// does: the winning side keeps the rest), so guessing a loss there reads
/// for nothing: `1r5R/1k6/R7/8/8/8/K7/8 w` read 853 KiB where 353. Over the
/// 266 positions of `tests/rounds.rs`, guessing for every child cost 12775
/// KiB more for 54 rounds fewer; guessing only here, 6455 KiB for 42.
fn no_escape_by_capture(pos: &Chess) -> bool {
    !pos.legal_moves()
        .iter()
        .any(|m| m.is_capture() && m.role() != shakmaty::Role::King)
}

/// DTZ from the table, or from a 1-ply search when the table stores the
/// other side to move. With `wdl` unknown this only names pages: the
/// table's, and the 1-ply search's only when `eager` (its children depend
/// on the WDL: a drawn position needs none of them).
fn from_table(
    ctx: &Ctx<'_>,
    pos: &Chess,
    wdl: Option<i8>,
    depth: u32,
    eager: bool,
) -> Result<Dtz, ProbeError> {
    let mat = Material::of(&pos.board().material());
    let stored = dtz_table(ctx, pos, &mat, wdl.unwrap_or(2))?;
    if stored.is_none() && depth == 0 && eager {
        return one_ply(ctx, pos, &mat, wdl, depth, true);
    }
    let wdl = wdl.ok_or(ProbeError::Missing)?;
    match stored {
        Some(stored) => {
            let offset = if wdl.abs() == 1 { 100 } else { 0 };
            let plies = (stored.plies as i32 + offset) * sign(wdl);
            let precise = stored.precise && offset == 0 || exact_one(plies, pos);
            Ok(Dtz { plies, precise })
        }
        None if depth > 0 => Err(ProbeError::CorruptTable(
            format!("{}.rtbz", mat.name),
            "neither side to move stored".into(),
        )),
        None => match lost_by_bounds(ctx, pos, wdl)? {
            Some(d) => Ok(d),
            None => one_ply(ctx, pos, &mat, Some(wdl), depth, false),
        },
    }
}

/// Whether a won position's DTZ of `plies` is exact though its table
/// stores it rounded: a rounded 1 is 1 or 2 plies, and with a mate in one
/// it is 1 (at a halfmove clock of 99 that makes it a win, not a
/// maybe-win).
fn exact_one(plies: i32, pos: &Chess) -> bool {
    plies == 1 && mates_in_one(pos)
}

/// Whether the side to move has a checkmating move.
fn mates_in_one(pos: &Chess) -> bool {
    pos.legal_moves()
        .iter()
        .any(|m| after(pos, m).is_checkmate())
}

fn sign(w: i8) -> i32 {
    if w > 0 {
        1
    } else {
        -1
    }
}

/// DTZ of a lost position whose side to move its table does not store:
/// the longest resistance, -(1 + the largest DTZ after a non-zeroing move;
/// zeroing moves lose at once). Every such child is won for the opponent,
/// and a won position's DTZ is at most its table value: the table holds an
/// arbitrary value exactly where a zeroing move wins, and the DTZ is then
/// 1, the least. So the children are probed in full in decreasing order of
/// their table values, and no further once the best found beats every
/// table value left: a few children's captures and promotions instead of
/// every child's. None when the bounds do not apply (a cursed loss, no
/// non-zeroing move, a child whose side is not stored, that is not won or
/// whose entry is past the map): the full 1-ply search answers then.
fn lost_by_bounds(ctx: &Ctx<'_>, pos: &Chess, wdl: i8) -> Result<Option<Dtz>, ProbeError> {
    if wdl != -2 {
        return Ok(None);
    }
    let mut missing = false;
    let mut bounds: Vec<(i32, usize, bool, Chess)> = Vec::new();
    for (i, m) in pos
        .legal_moves()
        .iter()
        .filter(|m| !m.is_zeroing())
        .enumerate()
    {
        let child = after(pos, m);
        let mat = Material::of(&child.board().material());
        let stored = match dtz_table(ctx, &child, &mat, 2) {
            // Where a zeroing move wins, the entry is free and may hold a
            // value past the map (`2q5/k7/7P/4K3/8/6Q1/8/8 b`, two plies on):
            // the full search finds that win before it reads the entry,
            // and reports the table corrupt where none wins.
            Err(ProbeError::CorruptTable(..)) => return Ok(None),
            r => r,
        };
        match keep_going(stored, &mut missing)? {
            Some(Some(stored)) => bounds.push((stored.plies as i32, i, stored.precise, child)),
            Some(None) => return Ok(None),
            // The child with the best bound will need the tables its
            // captures and promotions reach: their heads come with the
            // bounds, and on a multiplexed host their pages too.
            None => speculate_zeroing_win(ctx, &child),
        }
    }
    // Highest bound first; among equal bounds, move order (which the full
    // search uses to break ties).
    sort_small_by(&mut bounds, |a, b| (b.0, a.1) < (a.0, b.1));
    if missing {
        // Which child's bound is best is not known yet: on a multiplexed
        // host the two highest at hand name their pages too (the best, and
        // the next should a zeroing move win at the best). Naming every
        // child's: the queen promotion of issue 12 reads 1185 KiB instead
        // of 1037, and no position of `tests/rounds.rs` a round less.
        if ctx.multiplexed() && !ctx.speculating() {
            // (Not where the bounds are a guess: see speculate_zeroing_win.)
            for (.., child) in bounds.iter().take(2) {
                let _ = ctx.speculate(|| zeroing_win(ctx, child));
            }
        }
        return Err(ProbeError::Missing);
    }
    let mut best: Option<Dtz> = None;
    let mut waiting: Option<i32> = None;
    for &(bound, _, precise, ref child) in &bounds {
        // A child below the best found cannot beat it; one below a child
        // still being fetched may not be needed at all.
        if best.is_some_and(|b| bound < b.plies) || waiting.is_some_and(|w| bound < w) {
            break;
        }
        // Won (its parent is lost): its DTZ is the table's unless a
        // zeroing move wins, and then 1.
        let d = match keep_going(zeroing_win(ctx, child), &mut missing)? {
            None => {
                waiting = Some(bound);
                continue;
            }
            Some(None) => return Ok(None),
            Some(Some(true)) => before_zeroing(2),
            Some(Some(false)) => Dtz {
                plies: bound,
                precise: precise || exact_one(bound, child),
            },
        };
        best = Some(longest(best, d));
    }
    if missing {
        return Err(ProbeError::Missing);
    }
    Ok(best.map(|b| Dtz {
        plies: -(b.plies + 1),
        precise: b.precise,
    }))
}

/// The longer of two won children's DTZ, which a lost parent's defence
/// takes. A rounded n is n or n + 1 plies: tied with an exact n, the
/// longest is not known to the ply (8/8/2K5/8/6k1/5Q2/8/3Q4 b: Kh4 leads
/// to an exact 1, Kg5 to a rounded 1 whose truth is 2, so the parent's
/// -2 was said exact where it is -3).
fn longest(best: Option<Dtz>, d: Dtz) -> Dtz {
    match best {
        Some(b) if b.plies > d.plies => b,
        Some(b) if b.plies == d.plies => Dtz {
            plies: b.plies,
            precise: b.precise && d.precise,
        },
        _ => d,
    }
}

/// [`zeroing_win`] as maybe needed: in full where requests cost no waves
/// (the round the child with the best bound would take after the bounds
/// is saved), else only the heads it reaches; only the heads too where
/// the bounds themselves are a guess (see [`dtz_at`]): there every
/// child's would be named, which took the queen promotion of issue 12
/// from 1037 to 2149 KiB and its full analysis over HTTP/2 from 717 to
/// 874 ms (medians of 6).
fn speculate_zeroing_win(ctx: &Ctx<'_>, child: &Chess) {
    if ctx.multiplexed() && !ctx.speculating() {
        let _ = ctx.speculate(|| zeroing_win(ctx, child));
    } else {
        let _ = ctx.speculate_opens(|| zeroing_win(ctx, child));
    }
}

/// The better of two moves' DTZ that keep the position's result, signed
/// from the mover's view: a win the fewest plies, a loss the most. Tied
/// with a rounded value (n or n + 1 plies), an exact one settles a win's
/// shortest; a loss's longest is exact only if both are.
fn shortest(best: Option<Dtz>, d: Dtz) -> Dtz {
    match best {
        Some(b) if b.plies < d.plies => b,
        Some(b) if b.plies == d.plies => Dtz {
            plies: b.plies,
            precise: if b.plies > 0 {
                b.precise || d.precise
            } else {
                b.precise && d.precise
            },
        },
        _ => d,
    }
}

/// DTZ by a 1-ply search: the best child that keeps the result. With
/// `wdl` unknown this only names pages. `eager` as for [`search`].
fn one_ply(
    ctx: &Ctx<'_>,
    pos: &Chess,
    mat: &Material,
    wdl: Option<i8>,
    depth: u32,
    eager: bool,
) -> Result<Dtz, ProbeError> {
    let mut pending = Pending::default();
    let mut best: Option<Dtz> = None;
    let mut mate = false;
    for m in pos.legal_moves().iter() {
        let child = after(pos, m);
        let d = if m.is_zeroing() {
            pending
                .take(search(ctx, &child, false, eager))?
                .map(|(v, _)| {
                    let b = before_zeroing(v);
                    Dtz {
                        plies: -b.plies,
                        precise: true,
                    }
                })
        } else {
            pending
                .take(dtz_at(ctx, &child, depth + 1, eager))?
                .map(|(_, c)| {
                    let p = -c.plies;
                    Dtz {
                        plies: p + p.signum(),
                        precise: c.precise,
                    }
                })
        };
        let (Some(d), Some(wdl)) = (d, wdl) else {
            continue;
        };
        if !m.is_zeroing() && d.plies == 2 && child.is_checkmate() {
            mate = true;
        }
        if d.plies != 0 && d.plies.signum() == sign(wdl) {
            best = Some(shortest(best, d));
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
