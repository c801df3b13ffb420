//! The generator's finished tables as the writer's input: a
//! [`write::Source`] over a generated material and the library of its
//! sub-materials. Values come from the generator's DTZ50'' codes; the best
//! WDL of captures and pawn moves from its move generator and one lookup
//! per zeroing move, so no shakmaty position is built per index.

use shakmaty::{Color, Role};

use crate::generate::layout::MAX_PIECES;
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
        })
    }
}

/// The writer's DTZ plies flags of a finished table (see
/// [`write::plies_of`]), from its codes rather than the writer's entries,
/// so that it can write a leading-pawn file at a time.
pub fn plies(table: &Solved, symmetric: bool, exact: bool) -> Vec<write::Plies> {
    let sides = if symmetric { 1 } else { 2 };
    let mut win100 = vec![false; sides];
    let mut loss100 = vec![false; sides];
    for s in 0..sides {
        for &code in &table.dtz[s] {
            if code != 0 && value::is_decided(code) && value::distance(code) == 100 {
                match value::wdl(code) {
                    2 => win100[s] = true,
                    -2 => loss100[s] = true,
                    _ => {}
                }
            }
        }
    }
    write::plies_of(&win100, &loss100, exact)
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
        let mut b = Board {
            layout,
            sq: [0u8; MAX_PIECES],
        };
        for (i, &s) in squares.iter().enumerate() {
            b.sq[*self.slot_of.get(i)?] = s;
        }
        if !b.legal(turn) {
            return None;
        }
        let n = layout.pieces();
        let (code, flags) = self.table.writer_values(b.sq, turn)?;
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
