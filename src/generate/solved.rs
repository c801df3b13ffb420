//! Finished tables and looking positions up in them.

use std::collections::HashMap;

use shakmaty::{Color, Role};

use super::layout::{flip_key, key_index, Layout, MAX_PIECES};
use super::value::{self, DRAW};

/// The values of every position of one material, both sides to move.
#[derive(Debug)]
pub struct Solved {
    pub layout: Layout,
    /// DTZ50'' codes by side to move (White, Black), indexed
    /// `slice * slice_size + local`.
    pub dtz: [Vec<i16>; 2],
    /// Mate-distance codes, when asked for.
    pub dtm: Option<[Vec<i16>; 2]>,
}

/// (DTZ50'' codes, mate codes) by side to move, of a slice or a table.
pub type Values = ([Vec<i16>; 2], Option<[Vec<i16>; 2]>);

/// A piece for lookups: colour, role, square.
pub type Piece = (Color, Role, u8);

pub const fn side(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Solved {
    /// The stored index of a position of this material, with colours as the
    /// layout has them. None if the pieces do not fit the material.
    pub fn locate(&self, pieces: &[Piece]) -> Option<usize> {
        let l = &self.layout;
        let n = l.pieces();
        let mut sq = self.slot_squares(pieces)?;
        l.canonicalize(&mut sq[..n]);
        let (slice, local) = l.index(&sq)?;
        Some(slice * l.slice_size + local)
    }

    /// The squares of `pieces` by slot of this layout (not canonical).
    pub fn slot_squares(&self, pieces: &[Piece]) -> Option<[u8; MAX_PIECES]> {
        let l = &self.layout;
        let n = l.pieces();
        if pieces.len() != n {
            return None;
        }
        let mut sq = [0u8; MAX_PIECES];
        let mut used = [false; MAX_PIECES];
        for (slot, &(c, r)) in l.slots.iter().enumerate() {
            let j = (0..n).find(|&j| !used[j] && pieces[j].0 == c && pieces[j].1 == r)?;
            used[j] = true;
            sq[slot] = pieces[j].2;
        }
        Some(sq)
    }

    /// (DTZ50'' code, mate code) of a position given with colours as the
    /// layout has them.
    pub fn get(&self, pieces: &[Piece], turn: Color) -> Option<(i16, i16)> {
        let i = self.locate(pieces)?;
        let s = side(turn);
        let dtz = self.dtz[s][i];
        let dtm = self.dtm.as_ref().map_or(value::UNKNOWN, |d| d[s][i]);
        Some((dtz, dtm))
    }
}

/// Finished tables by material, looked up from any position.
#[derive(Debug, Default)]
pub struct Library {
    tables: HashMap<[u8; 12], Solved>,
}

/// The key of a list of pieces.
pub fn key_of(pieces: &[Piece]) -> [u8; 12] {
    let mut k = [0u8; 12];
    for &(c, r, _) in pieces {
        k[key_index(c, r)] += 1;
    }
    k
}

/// Only kings, or kings and one minor piece: no mate is possible.
fn trivially_drawn(key: &[u8; 12]) -> bool {
    let total: u8 = key.iter().sum();
    let minors = key[key_index(Color::White, Role::Bishop)]
        + key[key_index(Color::White, Role::Knight)]
        + key[key_index(Color::Black, Role::Bishop)]
        + key[key_index(Color::Black, Role::Knight)];
    total == 2 || (total == 3 && minors == 1)
}

impl Library {
    pub fn insert(&mut self, s: Solved) {
        self.tables.insert(s.layout.key, s);
    }

    pub fn get(&self, key: &[u8; 12]) -> Option<&Solved> {
        self.tables.get(key)
    }

    pub fn contains(&self, key: &[u8; 12]) -> bool {
        trivially_drawn(key) || self.tables.contains_key(key)
    }

    pub fn remove(&mut self, key: &[u8; 12]) -> Option<Solved> {
        self.tables.remove(key)
    }

    pub fn len(&self) -> usize {
        self.tables.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// (DTZ50'' code, mate code) of any position whose material is here
    /// (either colour assignment); None when it is not.
    pub fn probe(&self, pieces: &[Piece], turn: Color) -> Option<(i16, i16)> {
        let key = key_of(pieces);
        if trivially_drawn(&key) {
            return Some((DRAW, DRAW));
        }
        if let Some(t) = self.tables.get(&key) {
            return t.get(pieces, turn);
        }
        let t = self.tables.get(&flip_key(&key))?;
        let mut flipped = [(Color::White, Role::King, 0u8); MAX_PIECES];
        for (f, &(c, r, s)) in flipped.iter_mut().zip(pieces) {
            *f = (!c, r, s ^ 56);
        }
        t.get(&flipped[..pieces.len()], !turn)
    }
}
