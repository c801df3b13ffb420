//! What the writer needs to know about each position of a material. Two
//! sources fill it: the generator (exact values from retrograde analysis)
//! and, in tests, our prober reading the official tables.

use crate::format::header::PieceCode;
use crate::material::Material;

/// Exact values of one position, from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Values {
    /// -2 loss, -1 blessed loss, 0 draw, 1 cursed win, 2 win (as Syzygy).
    pub wdl: i8,
    /// DTZ50'' in plies, signed like `wdl`, with the 100 offset of cursed
    /// wins and blessed losses; 0 for draws. A mated side may give -1 or 0.
    pub dtz: i32,
    /// The best WDL the side to move reaches with a capture (as the value
    /// of the position after it, negated), `None` when it has no capture.
    pub capture: Option<i8>,
    /// The same over non-capturing pawn moves (promotions included).
    ///
    /// The writer only asks whether a capture reaches `wdl`, and whether a
    /// won position's captures or pawn moves do: a source may stop looking
    /// once one of these reaches `wdl` (no move does better), and may
    /// leave `pawn_move` out where `wdl` <= 0.
    pub pawn_move: Option<i8>,
}

/// A material's positions and their values.
///
/// Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63 and listed in the
/// order of [`pieces`]: the side named first in the table name (white in
/// the table's frame) then the other, each king first, then queens, rooks,
/// bishops, knights, pawns. Positions have no castling rights and no en
/// passant square. The writer asks about every index of every stored
/// subtable, once per side to move, so a lookup should cost little.
pub trait Source {
    /// The position's values, or `None` when it cannot occur (the side not
    /// to move is in check; pieces on the same square are never asked).
    fn values(&self, squares: &[u8], white_to_move: bool) -> Option<Values>;

    /// The source's own storage order, as piece codes from the most
    /// significant digit of its index to the least (pawns first). The
    /// writer then asks in an order that walks that storage near
    /// sequentially: asked in the plainest order, KRPvKR's generated
    /// values were a cache miss a lookup (the pawn varies fastest there).
    fn significance(&self) -> Option<Vec<PieceCode>> {
        None
    }
}

/// Piece codes (1..=6 white pawn..king, 9..=14 black) in the order a
/// [`Source`] receives squares.
pub fn pieces(mat: &Material) -> Vec<PieceCode> {
    let mut out = Vec::with_capacity(mat.pieces);
    for base in [0u8, 8] {
        for role in (1..=6u8).rev() {
            let code = base + role;
            for _ in 0..mat.shape.counts[usize::from(code)] {
                out.push(code);
            }
        }
    }
    out
}
