//! Answers from generated tables (see `generate`): the same [`Analysis`] as
//! from Syzygy files, with exact DTZ50'' everywhere and the distance to
//! mate on the position and on every move. Generated tables store no en
//! passant rights, so a position with them is valued through its moves, as
//! the Syzygy search does.

use shakmaty::{Chess, EnPassantMode, Position};

use super::mainline::{step_from, LineStep};
use super::root::{move_info, result, sort, Analysis, MoveInfo};
use super::search::Dtz;
use crate::error::ProbeError;
use crate::generate::plan;
use crate::generate::solved::{key_of, Library, Piece};
use crate::generate::value;
use crate::material::Material;

fn pieces(pos: &Chess) -> Vec<Piece> {
    let b = pos.board();
    b.occupied()
        .into_iter()
        .filter_map(|sq| b.piece_at(sq).map(|p| (p.color, p.role, sq as u8)))
        .collect()
}

/// The material key of a position (as `generate` numbers it).
pub fn material_key(pos: &Chess) -> [u8; 12] {
    key_of(&pieces(pos))
}

/// The generated materials a full answer for `pos` needs (its own and every
/// one its captures and promotions reach), dependencies first, leaving out
/// those `have` already.
pub fn needed(pos: &Chess, have: impl Fn(&[u8; 12]) -> bool) -> Vec<[u8; 12]> {
    let key = material_key(pos);
    if plan::trivial(&key) {
        return Vec::new();
    }
    plan::order(&[key], &have)
        .into_iter()
        .filter(|k| !have(k))
        .collect()
}

/// The generated materials an answer for `pos` reads: its own and those one
/// capture or promotion away (trivially drawn ones have no table). A
/// table's other dependencies serve only to generate it.
pub fn reads(pos: &Chess) -> Vec<[u8; 12]> {
    let key = material_key(pos);
    let own = (!plan::trivial(&key)).then_some(key);
    own.into_iter().chain(plan::tabled_children(&key)).collect()
}

/// (DTZ50'' code, mate code) of a position for its side to move.
fn codes(lib: &Library, pos: &Chess) -> Result<(i16, i16), ProbeError> {
    if pos.ep_square(EnPassantMode::Legal).is_some() {
        return through_moves(lib, pos);
    }
    lib.probe(&pieces(pos), pos.turn())
        .filter(|(z, _)| value::is_decided(*z))
        .ok_or_else(|| ProbeError::MissingTable(Material::of(&pos.board().material()).name))
}

/// The best the side to move reaches through its moves: a zeroing move
/// starts a new phase, so only its child's WDL counts for DTZ50''.
fn through_moves(lib: &Library, pos: &Chess) -> Result<(i16, i16), ProbeError> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Ok(if pos.is_check() {
            (value::MATED, value::MATED)
        } else {
            (value::DRAW, value::DRAW)
        });
    }
    let (mut dtz, mut dtm) = (value::UNKNOWN, value::UNKNOWN);
    for m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(*m);
        let (cz, cm) = codes(lib, &child)?;
        let z = if m.is_zeroing() {
            value::zeroing(cz)
        } else {
            value::through(cz)
        };
        if value::rank(z) > value::rank(dtz) {
            dtz = z;
        }
        let t = if value::is_decided(cm) {
            value::through(cm)
        } else {
            value::UNKNOWN
        };
        if value::rank(t) > value::rank(dtm) {
            dtm = t;
        }
    }
    Ok((dtz, dtm))
}

/// WDL and DTZ as the Syzygy prober reports them: a checkmated side has
/// DTZ -1 there.
fn wdl_dtz(code: i16, checkmated: bool) -> (i8, Dtz) {
    let plies = if checkmated {
        -1
    } else {
        value::dtz_plies(code)
    };
    (
        value::wdl(code),
        Dtz {
            plies,
            precise: true,
        },
    )
}

/// Plies to mate signed like DTZ (0 for a draw and for a checkmated side);
/// None when the table has no mate distances.
pub fn dtm_plies(code: i16) -> Option<i32> {
    value::is_decided(code).then(|| value::dtz_plies(code))
}

/// The position's result and every legal move ranked best first, from
/// generated tables; `MissingTable` names the first material not there.
pub fn analyse(lib: &Library, pos: &Chess) -> Result<Analysis, ProbeError> {
    let (z, m) = codes(lib, pos)?;
    let (wdl, dtz) = wdl_dtz(z, pos.is_checkmate());
    let mut moves: Vec<MoveInfo> = Vec::new();
    for mv in &pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(*mv);
        let (cz, cm) = codes(lib, &child)?;
        let (cw, cd) = wdl_dtz(cz, child.is_checkmate());
        moves.push(MoveInfo {
            dtm: dtm_plies(cm),
            ..move_info(pos, mv, &child, cw, cd)
        });
    }
    sort(&mut moves);
    Ok(result(pos, wdl, dtz, dtm_plies(m), moves))
}

/// The position's own result without its moves.
pub fn verdict(lib: &Library, pos: &Chess) -> Result<Analysis, ProbeError> {
    let (z, m) = codes(lib, pos)?;
    let (wdl, dtz) = wdl_dtz(z, pos.is_checkmate());
    Ok(result(pos, wdl, dtz, dtm_plies(m), Vec::new()))
}

/// One step of the line of best play. With mate distances the line goes on
/// through zeroing moves to mate; without, it ends at the next zeroing move
/// as a Syzygy line does.
pub fn mainline_step(lib: &Library, pos: &Chess) -> Result<LineStep, ProbeError> {
    let a = analyse(lib, pos)?;
    let to_mate = a.dtm.is_some();
    Ok(step_from(pos, &a, to_mate))
}

/// Most pieces of a position generated tables answer: 4-piece materials
/// take seconds, 5-piece ones far longer.
pub const REACH: usize = 4;

/// Whether generated tables can answer a position of this many pieces.
pub fn in_reach(pos: &Chess) -> bool {
    pos.board().occupied().count() <= REACH
}
