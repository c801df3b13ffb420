//! Where a zeroing move leads. The table a capture or promotion lands in,
//! and which of the mover's slots fills each of that table's slots, depend
//! only on the captured slot and the promotion: they are found once per
//! forward pass, not once per move (matching pieces to slots and finding
//! the table by material were a fifth of KRPvKR's forward pass).

use shakmaty::{Color, Role};

use super::layout::{squares_of_word, MAX_PIECES};
use super::moves::{Board, Move, NONE, PROMOTIONS};
use super::slice::Tables;
use super::solved::{key_of, Holder, Piece, Solved};

/// The lookups of one kind of move.
#[derive(Clone, Copy)]
enum Target<'a> {
    /// No table holds the material (a promotion valued ahead, or a gap).
    Missing,
    Drawn,
    /// The table, whether colours are exchanged, and per slot of the
    /// table the mover's slot whose square it takes.
    Table(&'a Solved, bool, [u8; MAX_PIECES]),
}

/// The targets of every kind of zeroing move from one material.
pub struct Children<'a> {
    pieces: usize,
    /// By captured slot (`pieces` for none), then 0 for no promotion or
    /// 1 + 4 x promoting slot + the role's place in [`PROMOTIONS`].
    targets: Vec<Target<'a>>,
}

impl<'a> Children<'a> {
    pub fn new(t: &Tables<'a>) -> Children<'a> {
        let this = t.this;
        let l = &this.layout;
        let n = l.pieces();
        let mut targets = Vec::with_capacity((n + 1) * (1 + 4 * n));
        for capture in 0..=n {
            targets.push(target(t, capture, None));
            for slot in 0..n {
                for role in PROMOTIONS {
                    targets.push(target(t, capture, Some((slot, role))));
                }
            }
        }
        Children { pieces: n, targets }
    }

    /// (DTZ50'' code, mate code) of the position after `m` (the side to
    /// move there is `!turn`), None when no table at hand holds it.
    pub fn probe(&self, b: &Board, m: &Move, turn: Color) -> Option<(i16, i16)> {
        let n = self.pieces;
        let capture = if m.capture == NONE { n } else { m.capture };
        let promotion = match m.promotion {
            None => 0,
            Some(r) => 1 + 4 * m.slot + PROMOTIONS.iter().position(|&p| p == r)?,
        };
        match *self.targets.get(capture * (1 + 4 * n) + promotion)? {
            Target::Missing => None,
            Target::Drawn => Some((super::value::DRAW, super::value::DRAW)),
            Target::Table(table, flip, from) => {
                // Gathered in a word (see `squares_of_word`).
                let mirror = if flip { 56 } else { 0 };
                let mut word = 0u64;
                for (j, &f) in from[..table.layout.pieces()].iter().enumerate() {
                    let f = usize::from(f);
                    let s = if f == m.slot { m.to } else { b.sq[f] } ^ mirror;
                    word |= u64::from(s) << (8 * j);
                }
                table.get_by_slot(squares_of_word(word), if flip { turn } else { !turn })
            }
        }
    }
}

/// The target of a move capturing `capture` (none if out of range) and
/// promoting `promotion`'s slot to its role.
fn target<'a>(t: &Tables<'a>, capture: usize, promotion: Option<(usize, Role)>) -> Target<'a> {
    let l = &t.this.layout;
    let n = l.pieces();
    if promotion.is_some_and(|(s, _)| s == capture || s < l.first_pawn) {
        return Target::Missing;
    }
    // The pieces after the move, each with the mover's slot in place of
    // its square: matched to the target's slots as lookups match squares.
    let mut after: Vec<Piece> = Vec::with_capacity(n);
    for (s, &(c, r)) in l.slots.iter().enumerate() {
        if s == capture {
            continue;
        }
        let r = match promotion {
            Some((p, role)) if p == s => role,
            _ => r,
        };
        after.push((c, r, s as u8));
    }
    let key = key_of(&after);
    let holder = if after.len() == n && key == l.key {
        Holder::Table(t.this, false)
    } else {
        match t.library.find(&key) {
            Some(h) => h,
            None => return Target::Missing,
        }
    };
    let Holder::Table(table, flip) = holder else {
        return Target::Drawn;
    };
    if flip {
        for p in after.iter_mut() {
            p.0 = !p.0;
        }
    }
    let Some(from) = table.slot_squares(&after) else {
        return Target::Missing;
    };
    Target::Table(table, flip, from)
}
