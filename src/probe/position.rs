//! FEN in, a position the tables can answer (or a typed error) out.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use crate::error::ProbeError;
use crate::format::consts::MAX_PIECES;

/// Longest FEN accepted; a real one is under 100 bytes.
const MAX_FEN_LEN: usize = 256;

/// Parses and validates a FEN for probing: a legal position without
/// castling rights and with at most as many pieces as tables cover.
pub fn parse_fen(fen: &str) -> Result<Chess, ProbeError> {
    let pos = parse_position(fen)?;
    // Pieces first: a full game's FEN has castling rights too, and removing
    // them would not bring it into the tables.
    let n = pos.board().occupied().count();
    if n > MAX_PIECES {
        return Err(ProbeError::TooManyPieces {
            pieces: n,
            limit: MAX_PIECES,
        });
    }
    if pos.castles().any() {
        return Err(ProbeError::Castling);
    }
    // The clock counts from the last capture or pawn move: one that a pawn
    // may be taken en passant after was that move. The 50-move categories
    // would read an impossible clock as the truth.
    if let (Some(ep), n @ 1..) = (pos.ep_square(EnPassantMode::Legal), pos.halfmoves()) {
        return Err(ProbeError::IllegalPosition(format!(
            "en passant on {ep} with a halfmove clock of {n}: the pawn's double step just played set it to 0"
        )));
    }
    Ok(pos)
}

/// Parses a FEN into any legal position (castling rights and many pieces
/// allowed), e.g. to list its moves.
pub fn parse_position(fen: &str) -> Result<Chess, ProbeError> {
    let fen = fen.trim();
    if fen.len() > MAX_FEN_LEN {
        return Err(ProbeError::InvalidFen(format!(
            "longer than {MAX_FEN_LEN} bytes"
        )));
    }
    if fen.is_empty() {
        return Err(ProbeError::InvalidFen("empty".into()));
    }
    let fen = standard(fen)?;
    let parsed: Fen = fen
        .parse()
        .map_err(|e| ProbeError::InvalidFen(format!("{e}")))?;
    let pos: Chess = parsed.into_position(CastlingMode::Standard).map_err(|e| {
        // shakmaty's message already starts with "illegal position".
        let why = e.to_string();
        ProbeError::IllegalPosition(why.trim_start_matches("illegal position: ").to_string())
    })?;
    Ok(pos)
}

/// Game-state facts of a position that need no table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PositionFacts {
    pub checkmate: bool,
    pub stalemate: bool,
    pub insufficient_material: bool,
}

impl PositionFacts {
    /// Generates the legal moves once for both mate and stalemate (a move
    /// list asks this of every child).
    pub fn of(pos: &Chess) -> Self {
        let stuck = pos.legal_moves().is_empty();
        let check = pos.is_check();
        PositionFacts {
            checkmate: stuck && check,
            stalemate: stuck && !check,
            insufficient_material: pos.is_insufficient_material(),
        }
    }
}

/// A FEN of standard chess, its fields joined by single spaces, or what is
/// wrong with it. The parser underneath also reads variants' FENs (a
/// Crazyhouse pocket, promoted-piece marks, Three-check counters), which it
/// would answer as standard chess, and names a ninth rank "an invalid
/// pocket": those are refused here, in a player's words.
fn standard(fen: &str) -> Result<String, ProbeError> {
    let bad = |why: String| Err(ProbeError::InvalidFen(why));
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    if fields.len() > 6 {
        return bad(format!("{} fields, at most 6", fields.len()));
    }
    let Some(board) = fields.first() else {
        return bad("empty".into());
    };
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return bad(format!("the board needs 8 ranks, found {}", ranks.len()));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let number = 8 - i;
        let (mut squares, mut digit_before) = (0u32, false);
        for c in rank.chars() {
            match c {
                '1'..='8' if digit_before => {
                    return bad(format!("two digits in a row in rank {number}"));
                }
                '1'..='8' => {
                    squares += c as u32 - '0' as u32;
                    digit_before = true;
                }
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                    squares += 1;
                    digit_before = false;
                }
                _ => {
                    return bad(format!(
                        "'{c}' in rank {number} is not a piece or a count of empty squares"
                    ))
                }
            }
        }
        if squares != 8 {
            return bad(format!("rank {number} has {squares} squares, not 8"));
        }
    }
    for (field, what) in fields
        .iter()
        .zip(["", "", "", "", "halfmove clock", "move number"])
        .skip(4)
    {
        if !field.bytes().all(|b| b.is_ascii_digit()) {
            return bad(format!("the {what} '{field}' is not a whole number"));
        }
        if field.parse::<u32>().is_err() {
            return bad(format!("the {what} {field} is too large"));
        }
    }
    Ok(fields.join(" "))
}
