//! The generator's finished tables as the writer's input: a
//! [`write::Source`] over a generated material and the library of its
//! sub-materials. Values come from the generator's DTZ50'' codes; the best
//! WDL of captures and pawn moves from its move generator and one lookup
//! per zeroing move, so no shakmaty position is built per index.

use std::sync::atomic::{AtomicUsize, Ordering};

use shakmaty::{Color, Role};

use crate::generate::layout::{squares_of_word, Layout, MAX_PIECES};
use crate::generate::moves::{en_passant_possible, for_each_zeroing_move, Board, NONE};
use crate::generate::solved::{Library, Piece, Solved};
use crate::generate::value;
use crate::material::Material;
use crate::write::{self, Source, Values};

pub struct Generated<'a> {
    table: &'a Solved,
    lib: &'a Library,
    /// Layout slot of each piece in the writer's order.
    slot_of: Vec<usize>,
    /// The first slice asked for that the table does not hold (usize::MAX
    /// if none): entries collected then are wrong, see [`Generated::absent`].
    absent: AtomicUsize,
}

impl<'a> Generated<'a> {
    /// `None` when the table's layout does not hold the material's pieces.
    pub fn new(table: &'a Solved, lib: &'a Library) -> Option<Generated<'a>> {
        let mat = Material::from_name(&table.layout.name)?;
        let slots = &table.layout.slots;
        let mut used = vec![false; slots.len()];
        let mut slot_of = Vec::new();
        for code in write::pieces(&mat) {
            let color = if code < 8 { Color::White } else { Color::Black };
            let role = Role::try_from(u32::from(code & 7)).ok()?;
            let j = (0..slots.len()).find(|&j| !used[j] && slots[j] == (color, role))?;
            used[j] = true;
            slot_of.push(j);
        }
        Some(Generated {
            table,
            lib,
            slot_of,
            absent: AtomicUsize::new(usize::MAX),
        })
    }

    /// A slice the writer needed that the table did not hold: a table
    /// loaded a leading-pawn file at a time missed one, and what was
    /// collected must not be written.
    pub fn absent(&self) -> Option<usize> {
        Some(self.absent.load(Ordering::Relaxed)).filter(|&s| s != usize::MAX)
    }
}

/// The writer's DTZ plies flags of a finished table (see
/// [`write::plies_of`]), from whether each side to move has a win, then a
/// loss, exactly 100 plies from zeroing ([`crate::generate::summary::Tally::hundred`]) rather than
/// from the writer's entries, so that it can write a leading-pawn file at
/// a time.
pub fn plies(hundred: [[bool; 2]; 2], symmetric: bool, exact: bool) -> Vec<write::Plies> {
    let sides = if symmetric { 1 } else { 2 };
    let win100: Vec<bool> = hundred[..sides].iter().map(|h| h[0]).collect();
    let loss100: Vec<bool> = hundred[..sides].iter().map(|h| h[1]).collect();
    write::plies_of(&win100, &loss100, exact)
}

/// The slices whose positions a leading-pawn file (0 to 3, files a to d
/// with their mirror images) can hold: those with a pawn on that file.
/// The leading pawn is one of a position's pawns, so no position of the
/// file lies elsewhere ([`Generated::absent`] checks it).
pub fn file_slices(l: &Layout, file: usize) -> Vec<usize> {
    let p = l.pieces() - l.first_pawn;
    (0..l.slices.len())
        .filter(|&s| {
            l.slices[s][..p].iter().any(|&q| {
                let f = usize::from(q & 7);
                f.min(7 - f) == file
            })
        })
        .collect()
}

/// Per side to move, whether a win, then a loss, is exactly 100 plies
/// from zeroing, over a table's held codes.
pub fn hundred(table: &Solved) -> [[bool; 2]; 2] {
    let mut out = [[false; 2]; 2];
    for (side, codes) in table.dtz.iter().enumerate() {
        for &code in codes {
            if code == value::win(100) {
                out[side][0] = true;
            } else if code == value::loss(100) {
                out[side][1] = true;
            }
        }
    }
    out
}

impl Source for Generated<'_> {
    /// Pawns (the slice), then kings and pieces as the layout numbers them.
    fn significance(&self) -> Option<Vec<crate::format::header::PieceCode>> {
        let l = &self.table.layout;
        let code = |&(c, r): &(Color, Role)| r as u8 + if c == Color::White { 0 } else { 8 };
        let (pieces, pawns) = l.slots.split_at(l.first_pawn);
        Some(pawns.iter().chain(pieces).map(code).collect())
    }

    fn values(&self, squares: &[u8], white_to_move: bool) -> Option<Values> {
        let layout = &self.table.layout;
        let turn = if white_to_move {
            Color::White
        } else {
            Color::Black
        };
        // Gathered in a word: bytes stored one by one and then read as
        // one array stalled store forwarding (two fifths of this lookup).
        let mut word = 0u64;
        for (i, &s) in squares.iter().enumerate() {
            let slot = *self.slot_of.get(i)?;
            word |= u64::from(s) << (8 * (slot % 8));
        }
        let b = Board {
            layout,
            sq: squares_of_word(word),
        };
        // An illegal position (the side not to move in check) is stored
        // INVALID, which is not decided: no legality test is needed here.
        let n = layout.pieces();
        let (code, flags) = match self.table.writer_values(b.sq, turn) {
            Ok(found) => found?,
            Err(slice) => {
                self.absent.fetch_min(slice, Ordering::Relaxed);
                return None;
            }
        };
        if !value::is_decided(code) {
            return None;
        }
        let dtz = if code == 0 {
            0
        } else {
            i32::from(value::distance(code)) * i32::from(code.signum())
        };
        let wdl = value::wdl(code);
        if let Some(f) = flags {
            // The forward pass kept what the moves below would find.
            return Some(Values {
                wdl,
                dtz,
                capture: f.wdl_free.then_some(wdl),
                pawn_move: (f.dtz_free && wdl > 0).then_some(wdl),
            });
        }
        let (mut capture, mut pawn_move) = (None::<i8>, None::<i8>);
        let mut child: [Piece; MAX_PIECES] = [(Color::White, Role::King, 0); MAX_PIECES];
        for_each_zeroing_move(&b, turn, |m| {
            if !m.zeroing(layout) || (m.double_push && en_passant_possible(&b, m.slot, m.to, turn))
            {
                return;
            }
            // Lookups the entry cannot use (see `Values`): a capture already
            // reaches the position's WDL, or a pawn move could only matter
            // to a won position that no pawn move has won yet. Promotions
            // into four large sub-tables were most of the writer's misses.
            let is_capture = m.capture != NONE;
            if capture == Some(wdl) || (!is_capture && (wdl <= 0 || pawn_move == Some(wdl))) {
                return;
            }
            let found = if !is_capture && m.promotion.is_none() {
                // A pawn push: the same material, squares by slot.
                let mut sq = b.sq;
                sq[m.slot] = m.to;
                self.table.get_by_slot(sq, !turn)
            } else {
                let mut len = 0;
                for j in (0..n).filter(|&j| j != m.capture) {
                    let (c, r) = layout.slots[j];
                    child[len] = if j == m.slot {
                        (c, m.promotion.unwrap_or(r), m.to)
                    } else {
                        (c, r, b.sq[j])
                    };
                    len += 1;
                }
                self.lib.probe(&child[..len], !turn)
            };
            let Some((c, _)) = found.filter(|(c, _)| value::is_decided(*c)) else {
                return;
            };
            let v = -value::wdl(c);
            let best = if is_capture {
                &mut capture
            } else {
                &mut pawn_move
            };
            *best = Some(best.map_or(v, |x| x.max(v)));
        });
        Some(Values {
            wdl,
            dtz,
            capture,
            pawn_move,
        })
    }
}
