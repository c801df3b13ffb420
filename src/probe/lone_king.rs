//! Rooks and queens against a bare king: the WDL follows from the rules,
//! so no WDL table is fetched for it (on a cold analysis that fans out
//! into such endings, a request each). With the rooks and queens to move,
//! a win: they always have a move, and a lone king cannot win a piece
//! that is free to move away. With the bare king to move, a loss, except
//! that it may take the last piece (two kings: a draw) or be stalemated.
//! The mates take a few dozen plies at most (KRvK, the slowest, 16
//! moves), so no such win is cursed. `tests/differential.rs` compares
//! every such 3-piece position, and samples of 4- and 5-piece ones, with
//! the official tables.

use shakmaty::{Bitboard, Chess, MoveList, Position};

/// WDL for the side to move and whether every legal move zeroes (see
/// `search`), where one side has a bare king and the other only rooks and
/// queens; `None` for any other material. `moves` are the legal moves,
/// at least one (mate and stalemate are decided before).
pub fn majors_against_bare_king(pos: &Chess, moves: &MoveList) -> Option<(i8, bool)> {
    let board = pos.board();
    let us = board.by_color(pos.turn());
    let them = board.by_color(!pos.turn());
    let majors = board.rooks() | board.queens();
    // A king and at least one other piece, every one of them a rook or queen.
    let strong = |side: Bitboard| side.count() > 1 && (side & !(board.kings() | majors)).is_empty();
    if them.count() == 1 && strong(us) {
        // Only a king to take: no move of ours zeroes.
        return Some((2, false));
    }
    if us.count() == 1 && strong(them) {
        let takes_last = them.count() == 2 && moves.iter().any(|m| m.is_capture());
        let all_zero = moves.iter().all(|m| m.is_capture());
        return Some((if takes_last { 0 } else { -2 }, all_zero));
    }
    None
}
