//! Moves forward (to classify and count them) and backward (to find the
//! predecessors of a decided position) on the generator's squares-by-slot
//! positions. Only what tables need: no castling, no en passant rights in
//! stored positions (a double push's en passant reply is handled where the
//! push is valued).

use shakmaty::{attacks, Bitboard, Color, Role, Square};

use super::layout::{Layout, MAX_PIECES};

/// No slot.
pub const NONE: usize = usize::MAX;

fn square(s: u8) -> Square {
    Square::new(u32::from(s & 63))
}

/// Squares a piece attacks.
#[inline]
pub fn attack_set(color: Color, role: Role, from: u8, occ: u64) -> u64 {
    let sq = square(from);
    let occ = Bitboard(occ);
    match role {
        Role::King => attacks::king_attacks(sq).0,
        Role::Knight => attacks::knight_attacks(sq).0,
        Role::Bishop => attacks::bishop_attacks(sq, occ).0,
        Role::Rook => attacks::rook_attacks(sq, occ).0,
        Role::Queen => attacks::queen_attacks(sq, occ).0,
        Role::Pawn => attacks::pawn_attacks(color, sq).0,
    }
}

/// A position under construction: squares by slot, with slots removed by a
/// capture marked by `gone`.
pub struct Board<'a> {
    pub layout: &'a Layout,
    pub sq: [u8; MAX_PIECES],
}

impl<'a> Board<'a> {
    pub fn occupancy(&self) -> u64 {
        self.sq[..self.layout.pieces()]
            .iter()
            .fold(0, |o, &s| o | 1 << s)
    }

    /// Whether `target` is attacked by `by`'s pieces, `skip` (a captured
    /// slot) left out, with the given occupancy.
    pub fn attacked(&self, target: u8, by: Color, occ: u64, skip: usize) -> bool {
        let l = self.layout;
        for (i, &(c, r)) in l.slots.iter().enumerate() {
            if c != by || i == skip {
                continue;
            }
            let from = self.sq[i];
            // Cheap rejections before the slider lookups.
            let hit = match r {
                Role::Bishop | Role::Rook | Role::Queen => {
                    let (df, dr) = (
                        (from & 7) as i8 - (target & 7) as i8,
                        (from >> 3) as i8 - (target >> 3) as i8,
                    );
                    let line = df == 0 || dr == 0;
                    let diag = df == dr || df == -dr;
                    let possible = match r {
                        Role::Bishop => diag,
                        Role::Rook => line,
                        _ => line || diag,
                    };
                    possible && attack_set(c, r, from, occ) & (1 << target) != 0
                }
                _ => attack_set(c, r, from, occ) & (1 << target) != 0,
            };
            if hit {
                return true;
            }
        }
        false
    }

    pub fn king(&self, color: Color) -> u8 {
        match color {
            Color::White => self.sq[0],
            Color::Black => self.sq[1],
        }
    }

    /// The side not to move is not in check.
    pub fn legal(&self, turn: Color) -> bool {
        !self.attacked(self.king(!turn), turn, self.occupancy(), NONE)
    }

    pub fn in_check(&self, turn: Color) -> bool {
        self.attacked(self.king(turn), !turn, self.occupancy(), NONE)
    }
}

/// A double push of `slot` to `to` lands beside an enemy pawn, so that an
/// en passant reply may follow: the writer does not count such a push as a
/// zeroing move (the child's stored value does not see the reply).
pub fn en_passant_possible(b: &Board, slot: usize, to: u8, turn: Color) -> bool {
    let l = b.layout;
    (l.first_pawn..l.pieces()).any(|j| {
        j != slot
            && l.slots[j].0 != turn
            && b.sq[j] >> 3 == to >> 3
            && (b.sq[j] & 7).abs_diff(to & 7) == 1
    })
}

/// One legal move.
#[derive(Debug, Clone, Copy)]
pub struct Move {
    pub slot: usize,
    pub to: u8,
    /// The captured slot, or NONE.
    pub capture: usize,
    pub promotion: Option<Role>,
    pub double_push: bool,
}

impl Move {
    /// Captures and pawn moves start a new phase of the 50-move rule.
    pub fn zeroing(&self, layout: &Layout) -> bool {
        self.capture != NONE || self.slot >= layout.first_pawn
    }
}

/// Same rank, file or diagonal.
fn aligned(a: u8, b: u8) -> bool {
    let (df, dr) = (
        (a & 7) as i8 - (b & 7) as i8,
        (a >> 3) as i8 - (b >> 3) as i8,
    );
    df == 0 || dr == 0 || df == dr || df == -dr
}

/// The roles a pawn may promote to.
pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Calls `f` for every legal zeroing move of `turn` (captures and pawn
/// moves) and returns the number of its legal quiet moves: the forward
/// pass's question. Quiet moves are not passed one by one: those of a piece
/// that cannot expose its king are counted at once (a closure call per
/// quiet move was a tenth of generating).
pub fn count_quiet_moves(b: &Board, turn: Color, f: impl FnMut(Move)) -> u32 {
    moves(b, turn, true, f)
}

/// Calls `f` for every legal zeroing move of `turn` (captures and pawn
/// moves): the writer's question, without walking the quiet moves.
pub fn for_each_zeroing_move(b: &Board, turn: Color, f: impl FnMut(Move)) {
    moves(b, turn, false, f);
}

/// Zeroing moves to `f`; quiet moves counted (`count_quiet`) or skipped.
fn moves(b: &Board, turn: Color, count_quiet: bool, mut f: impl FnMut(Move)) -> u32 {
    let l = b.layout;
    let n = l.pieces();
    let occ = b.occupancy();
    let mut own = 0u64;
    let mut slot_at = [NONE; 64];
    for i in 0..n {
        slot_at[usize::from(b.sq[i])] = i;
        if l.slots[i].0 == turn {
            own |= 1 << b.sq[i];
        }
    }
    let king_slot = if turn == Color::White { 0 } else { 1 };
    let own_king = b.sq[king_slot];
    let in_check = b.attacked(own_king, !turn, occ, NONE);
    // Squares the king may not step to: every enemy attack, seen through
    // the king's own square (a piece never attacks its own square, so a
    // capture is judged by the other defenders).
    let mut danger = 0u64;
    if !in_check {
        let without_king = occ & !(1 << own_king);
        for j in 0..n {
            let (c, r) = l.slots[j];
            if c != turn {
                danger |= attack_set(c, r, b.sq[j], without_king);
            }
        }
    }
    // Out of check, a piece whose removal does not expose its king can go
    // anywhere: one test per piece instead of one per move.
    let mut free = [false; MAX_PIECES];
    if !in_check {
        for (j, f) in free.iter_mut().enumerate().take(n) {
            let from = b.sq[j];
            *f = l.slots[j].0 == turn
                && j != king_slot
                && (!aligned(from, own_king)
                    || !b.attacked(own_king, !turn, occ & !(1 << from), NONE));
        }
    }
    let (mut quiet, mut bulk) = (0u32, 0u32);
    let mut try_move = |slot: usize, to: u8, promotion: Option<Role>, double_push: bool| {
        let from = b.sq[slot];
        let capture = slot_at[usize::from(to)];
        let legal = if free[slot] {
            true
        } else if slot == king_slot && !in_check {
            danger & (1 << to) == 0
        } else {
            let after = (occ & !(1 << from)) | (1 << to);
            let king = if slot == king_slot { to } else { own_king };
            // The moved piece's own square changes only for the king test.
            let mut moved = Board {
                layout: l,
                sq: b.sq,
            };
            moved.sq[slot] = to;
            !moved.attacked(king, !turn, after, capture)
        };
        if !legal {
            return;
        }
        let m = Move {
            slot,
            to,
            capture,
            promotion,
            double_push,
        };
        if m.zeroing(l) {
            f(m);
        } else {
            quiet += 1;
        }
    };
    for (i, &(c, r)) in l.slots.iter().enumerate().take(n) {
        if c != turn {
            continue;
        }
        let from = b.sq[i];
        if r != Role::Pawn {
            let mut targets = attack_set(c, r, from, occ) & !own;
            let quiet_targets = targets & !occ;
            if !count_quiet {
                targets &= occ;
            } else if free[i] {
                bulk += quiet_targets.count_ones();
                targets &= occ;
            } else if i == king_slot && !in_check {
                bulk += (quiet_targets & !danger).count_ones();
                targets &= occ;
            }
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                try_move(i, to, None, false);
            }
            continue;
        }
        let (step, start, last): (i8, u8, u8) = match c {
            Color::White => (8, 1, 7),
            Color::Black => (-8, 6, 0),
        };
        let mut targets = attack_set(c, r, from, occ) & occ & !own;
        let one = (from as i8 + step) as u8;
        if occ & (1 << one) == 0 {
            targets |= 1 << one;
            let two = (one as i8 + step) as u8;
            if from >> 3 == start && occ & (1 << two) == 0 {
                try_move(i, two, None, true);
            }
        }
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            if to >> 3 == last {
                for p in PROMOTIONS {
                    try_move(i, to, Some(p), false);
                }
            } else {
                try_move(i, to, None, false);
            }
        }
    }
    quiet + bulk
}

/// Calls `f` with every predecessor of the position (its side to move is
/// `turn`) by a move of the other side that is neither a capture nor a
/// pawn move, i.e. one that stays in this slice. Predecessors are legal
/// (the side to move here is not in check there) and not yet canonical;
/// `f` also gets the slot that moved.
pub fn for_each_unmove(b: &Board, turn: Color, mut f: impl FnMut(&[u8; MAX_PIECES], usize)) {
    let l = b.layout;
    let mover = !turn;
    let occ = b.occupancy();
    let target = b.king(turn);
    // The predecessor is illegal when a piece of the mover attacks this
    // king there. Unless the king is in check here or a line to it runs
    // through the moved piece's square, only the moved piece can.
    let in_check = b.attacked(target, mover, occ, NONE);
    for i in 0..l.first_pawn {
        let (c, r) = l.slots[i];
        if c != mover {
            continue;
        }
        let to = b.sq[i];
        let mut origins = attack_set(c, r, to, occ) & !occ;
        if origins == 0 {
            continue;
        }
        let vacated = occ & !(1 << to);
        // Out of check, leaving `to` can only open a line through it.
        let full_check = in_check || (aligned(to, target) && b.attacked(target, mover, vacated, i));
        if !full_check {
            // Only the moved piece can attack the king, and (non-pawn
            // attacks being symmetric) it does from exactly the squares the
            // same piece on the king's square would reach: one lookup for
            // all origins.
            origins &= !attack_set(c, r, target, vacated);
        }
        let mut prev = Board {
            layout: l,
            sq: b.sq,
        };
        while origins != 0 {
            let from = origins.trailing_zeros() as u8;
            origins &= origins - 1;
            prev.sq[i] = from;
            if !full_check || !prev.attacked(target, mover, vacated | (1 << from), NONE) {
                f(&prev.sq, i);
            }
        }
    }
}
