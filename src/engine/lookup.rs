//! Position to stored value: pick the table and subtable, move the pieces
//! into the table's colour frame, encode, decode, interpret.

use shakmaty::{Bitboard, Chess, Color, Piece, Position, Role};

use super::Ctx;
use crate::error::ProbeError;
use crate::format::consts::MAX_PIECES;
use crate::format::header::{Header, Subtable, DTZ_LOSS_PLIES, DTZ_MAPPED, DTZ_STM, DTZ_WIN_PLIES};
use crate::format::{decode, encode, Kind};
use crate::material::Material;

/// A DTZ table's answer for the side it stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DtzStored {
    /// Plies to the next zeroing move, before the sign and the 100 offset.
    pub plies: u32,
    /// False when the table stores moves, so the ply count may be one more.
    pub precise: bool,
}

/// The frame change between the position and the table: `flip` swaps the
/// colours (and mirrors ranks); `side` is the table's side to move.
struct Frame {
    flip: bool,
    side: usize,
}

fn frame(pos: &Chess, mat: &Material) -> Frame {
    if mat.symmetric {
        Frame {
            flip: pos.turn() == Color::Black,
            side: 0,
        }
    } else {
        let flip = mat.white_is_weak;
        Frame {
            flip,
            side: usize::from((pos.turn() == Color::White) == flip),
        }
    }
}

fn piece_of(code: u8, flip: bool) -> Option<Piece> {
    let role = Role::try_from(u32::from(code & 7)).ok()?;
    let white_in_table = code < 8;
    let color = if white_in_table != flip {
        Color::White
    } else {
        Color::Black
    };
    Some(Piece { color, role })
}

fn squares(bb: Bitboard, flip: bool, out: &mut Vec<usize>) {
    for sq in bb {
        out.push(sq.to_usize() ^ if flip { 0x38 } else { 0 });
    }
}

/// Fills squares for `pieces[from..]`, group by group.
fn fill(
    pos: &Chess,
    pieces: &[u8],
    from: usize,
    flip: bool,
    out: &mut Vec<usize>,
) -> Result<(), &'static str> {
    let mut i = from;
    while i < pieces.len() {
        let code = pieces[i];
        let piece = piece_of(code, flip).ok_or("unknown piece code")?;
        squares(pos.board().by_piece(piece), flip, out);
        while i < pieces.len() && pieces[i] == code {
            i += 1;
        }
    }
    if out.len() == pieces.len() {
        Ok(())
    } else {
        Err("piece list disagrees with the position")
    }
}

/// Chooses the subtable (leading-pawn file, side) and the encoded index.
fn locate<'h>(
    pos: &Chess,
    h: &'h Header,
    fr: &Frame,
    side: usize,
) -> Result<(usize, &'h Subtable, u64), &'static str> {
    let first = h
        .files
        .first()
        .and_then(|f| f.get(side))
        .ok_or("side not stored")?;
    let mut sq = Vec::with_capacity(MAX_PIECES);
    let (file, sub) = if h.pawnful {
        let lead = usize::from(h.lead_pawns);
        let code = first.encoding.pieces[0];
        squares(
            pos.board()
                .by_piece(piece_of(code, fr.flip).ok_or("unknown piece code")?),
            fr.flip,
            &mut sq,
        );
        if sq.len() != lead {
            return Err("leading pawns disagree with the position");
        }
        let t = encode::leading_file(&mut sq, lead);
        let sub = h
            .files
            .get(t)
            .and_then(|f| f.get(side))
            .ok_or("side not stored")?;
        fill(pos, &sub.encoding.pieces, lead, fr.flip, &mut sq)?;
        (t, sub)
    } else {
        fill(pos, &first.encoding.pieces, 0, fr.flip, &mut sq)?;
        (0, first)
    };
    let idx = encode::encode(&mut sq, &sub.encoding, h.geometry());
    if idx >= sub.encoding.positions {
        return Err("index beyond the table");
    }
    Ok((file, sub, idx))
}

/// Puts the file's name on a decoding error (only spelled out on an error:
/// lookups are the warm path).
fn named(e: ProbeError, table: &str, kind: Kind) -> ProbeError {
    match e {
        ProbeError::CorruptTable(n, what) if n == "?" => {
            ProbeError::CorruptTable(file_name(table, kind), what)
        }
        e => e,
    }
}

fn file_name(table: &str, kind: Kind) -> String {
    format!("{table}.{}", kind.extension())
}

/// The WDL table's value for a position without en passant rights, from the
/// side to move's view (-2..=2). Captures are not resolved here.
pub fn wdl_table(ctx: &Ctx<'_>, pos: &Chess, mat: &Material) -> Result<i8, ProbeError> {
    let (id, h) = ctx.header(&mat.name, Kind::Wdl, &mat.shape)?;
    let corrupt = |w: &str| ProbeError::CorruptTable(file_name(&mat.name, Kind::Wdl), w.into());
    let fr = frame(pos, mat);
    let (_, sub, idx) = locate(pos, &h, &fr, fr.side).map_err(corrupt)?;
    let v = decode::value(&sub.pairs, idx, &ctx.source(id, &mat.name, Kind::Wdl))
        .map_err(|e| named(e, &mat.name, Kind::Wdl))?;
    if v > 4 {
        return Err(corrupt("WDL value out of range"));
    }
    Ok(v as i8 - 2)
}

/// The DTZ table's value, or `None` when the table stores only the other
/// side to move. `wdl` selects the value map; pass a guess to name pages.
pub fn dtz_table(
    ctx: &Ctx<'_>,
    pos: &Chess,
    mat: &Material,
    wdl: i8,
) -> Result<Option<DtzStored>, ProbeError> {
    let (id, h) = ctx.header(&mat.name, Kind::Dtz, &mat.shape)?;
    let fr = frame(pos, mat);
    let corrupt = |w: &str| ProbeError::CorruptTable(file_name(&mat.name, Kind::Dtz), w.into());
    // The stored side can differ per leading-pawn file, so locate first.
    let (mut t, mut sub, mut idx) = locate(pos, &h, &fr, 0).map_err(corrupt)?;
    // Symmetric pawnless tables store one orientation whatever the flag says.
    let honour = !mat.symmetric || h.pawnful;
    if honour && usize::from(sub.pairs.flags & DTZ_STM) != fr.side {
        if !mat.symmetric {
            return Ok(None);
        }
        // A symmetric material reads the same with the colours swapped,
        // which puts the other side to move and, with pawns, maybe another
        // leading file: use that orientation if its subtable stores it,
        // else the 1-ply search.
        let swapped = Frame {
            flip: !fr.flip,
            side: 1,
        };
        (t, sub, idx) = locate(pos, &h, &swapped, 0).map_err(corrupt)?;
        if sub.pairs.flags & DTZ_STM == 0 {
            return Ok(None);
        }
    }
    let flags = sub.pairs.flags;
    let raw = decode::value(&sub.pairs, idx, &ctx.source(id, &mat.name, Kind::Dtz))
        .map_err(|e| named(e, &mat.name, Kind::Dtz))?;
    let mut v = u32::from(raw);
    if flags & DTZ_MAPPED != 0 {
        let class = match wdl {
            2 => 0,
            -2 => 1,
            1 => 2,
            _ => 3,
        };
        let map = h
            .dtz_maps
            .get(t)
            .map(|m| &m.maps[class])
            .ok_or_else(|| corrupt("missing DTZ map"))?;
        v = u32::from(
            *map.get(raw as usize)
                .ok_or_else(|| corrupt("DTZ map index out of range"))?,
        );
    }
    let plies =
        (wdl == 2 && flags & DTZ_WIN_PLIES != 0) || (wdl == -2 && flags & DTZ_LOSS_PLIES != 0);
    if !plies {
        v *= 2;
    }
    Ok(Some(DtzStored {
        plies: v + 1,
        precise: plies,
    }))
}
