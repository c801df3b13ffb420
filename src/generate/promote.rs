//! Promotions valued ahead of the slices that make them, one sub-table at
//! a time. The sub-tables that only promotions reach are the biggest a
//! pawnful material reads (KRPvKR's four 5-piece ones: 0.95 GB held
//! together), and only slices with a pawn one step from promoting read
//! them. So the tables a generation is not given are fetched, read for
//! every promotion into them and dropped, in turn, before any slice is
//! solved; the forward pass then takes each position's best promotion into
//! them from here: 3 bytes a position and side with mate distances, 1
//! without, and only for the side that can promote.

use shakmaty::{Color, Role};

use super::free::Best;
use super::layout::{flip_key, key_index, Layout, MAX_PIECES};
use super::moves::{Board, Move, NONE, PROMOTIONS};
use super::slice::after;
use super::solved::{side, Solved};
use super::value::{self, UNKNOWN};
use super::Meter;

/// What promotions into fetched tables are worth, by slice and side to
/// move; empty where that side has no pawn one step from promoting.
#[derive(Default)]
pub struct Ahead {
    /// The mover's best WDL of such a promotion, as [`Best`] bits (a
    /// capturing promotion counts as a capture).
    best: Vec<[Vec<u8>; 2]>,
    /// The mover's best mate code through one (with mate distances).
    mate: Vec<[Vec<i16>; 2]>,
}

impl Ahead {
    /// Room for every side of a slice that can promote, nothing found yet.
    pub fn new(l: &Layout, dtm: bool) -> Ahead {
        let size = l.slice_size;
        let mut a = Ahead::default();
        for s in 0..l.slices.len() {
            let mut best: [Vec<u8>; 2] = Default::default();
            let mut mate: [Vec<i16>; 2] = Default::default();
            for turn in [Color::White, Color::Black] {
                if l.promotes(s, turn) {
                    best[side(turn)] = vec![Best::NONE.bits(); size];
                    if dtm {
                        mate[side(turn)] = vec![UNKNOWN; size];
                    }
                }
            }
            a.best.push(best);
            a.mate.push(mate);
        }
        a
    }

    /// Positions a pass over one fetched table reads.
    pub fn positions(&self) -> u64 {
        self.best.iter().flatten().map(|v| v.len() as u64).sum()
    }

    /// Values every promotion into `table` of the slices held here.
    pub fn add(&mut self, l: &Layout, table: &Solved, dtm: bool, threads: usize, meter: &Meter) {
        for (s, (best, mate)) in self.best.iter_mut().zip(&mut self.mate).enumerate() {
            for turn in [Color::White, Color::Black] {
                let (b, m) = (&mut best[side(turn)], &mut mate[side(turn)]);
                if b.is_empty() {
                    continue;
                }
                let chunk = b.len().div_ceil(threads.max(1)).max(1);
                let mates = m
                    .chunks_mut(chunk)
                    .map(Some)
                    .chain(std::iter::repeat_with(|| None));
                let parts: Vec<_> = b.chunks_mut(chunk).zip(mates).enumerate().collect();
                crate::par::map_owned(parts, threads, |(i, (b, m))| {
                    add_range(l, table, s, turn, i * chunk, b, m, dtm, meter)
                });
            }
        }
    }

    /// `slice`'s values for `side` to move, if it can promote: [`Best`]
    /// bits, and mate codes (empty without mate distances).
    pub fn get(&self, slice: usize, side: usize) -> Option<(&[u8], &[i16])> {
        let b = self.best.get(slice)?.get(side)?;
        let m = self.mate.get(slice)?.get(side)?;
        (!b.is_empty()).then_some((b, m))
    }

    /// Frees a solved slice's values.
    pub fn free(&mut self, slice: usize) {
        if let (Some(b), Some(m)) = (self.best.get_mut(slice), self.mate.get_mut(slice)) {
            *b = Default::default();
            *m = Default::default();
        }
    }
}

/// For a material's promotions by `turn`: the roles whose promotion lands
/// in `table`, by what is captured (index 0 nothing, then [`PROMOTIONS`]).
fn into_table(l: &Layout, table: &Solved, turn: Color) -> [Vec<Role>; 5] {
    let mut out: [Vec<Role>; 5] = Default::default();
    let t = table.layout.key;
    for (c, list) in out.iter_mut().enumerate() {
        for role in PROMOTIONS {
            let mut k = l.key;
            let pawn = key_index(turn, Role::Pawn);
            let Some(left) = k[pawn].checked_sub(1) else {
                continue;
            };
            k[pawn] = left;
            k[key_index(turn, role)] += 1;
            if c > 0 {
                let v = key_index(!turn, PROMOTIONS[c - 1]);
                let Some(left) = k[v].checked_sub(1) else {
                    continue;
                };
                k[v] = left;
            }
            if k == t || flip_key(&k) == t {
                list.push(role);
            }
        }
    }
    out
}

/// [`Ahead::add`] over positions `start..` of one side of a slice. Only
/// the moves that land in `table` are made: a pawn of the slice one step
/// from promoting (pawns stand still within a slice) to a square that is
/// empty, or holds the enemy piece such a promotion captures.
#[allow(clippy::too_many_arguments)]
fn add_range(
    l: &Layout,
    table: &Solved,
    slice: usize,
    turn: Color,
    start: usize,
    best: &mut [u8],
    mut mate: Option<&mut [i16]>,
    dtm: bool,
    meter: &Meter,
) {
    let n = l.pieces();
    let roles = into_table(l, table, turn);
    let (step, last): (i8, u8) = if turn == Color::White {
        (8, 6)
    } else {
        (-8, 1)
    };
    // (slot, square reached, captures) of every promotion of the slice.
    let mut targets = Vec::new();
    for j in l.first_pawn..n {
        let from = l.slices[slice][j - l.first_pawn];
        if l.slots[j].0 != turn || from >> 3 != last {
            continue;
        }
        let to = (from as i8 + step) as u8;
        targets.push((j, to, false));
        if to & 7 > 0 {
            targets.push((j, to - 1, true));
        }
        if to & 7 < 7 {
            targets.push((j, to + 1, true));
        }
    }
    let mut b = Board {
        layout: l,
        sq: [0; MAX_PIECES],
    };
    let king = if turn == Color::White { 0 } else { 1 };
    let mut pieces = [(Color::White, Role::King, 0u8); MAX_PIECES];
    for k in 0..best.len() {
        if k % 65_536 == 65_535 {
            meter.add(65_536);
        }
        l.squares(slice, start + k, &mut b.sq);
        let occ = b.occupancy();
        let mut found = Best::from_bits(best[k]);
        let mut code = mate.as_deref().map_or(UNKNOWN, |m| m[k]);
        let mut legal = None;
        for &(j, to, captures) in &targets {
            let (capture, into) = if captures {
                let Some(c) = (2..n).find(|&c| b.sq[c] == to && l.slots[c].0 != turn) else {
                    continue;
                };
                let Some(r) = PROMOTIONS.iter().position(|&r| r == l.slots[c].1) else {
                    continue;
                };
                (c, &roles[r + 1])
            } else if occ & (1 << to) != 0 {
                continue;
            } else {
                (NONE, &roles[0])
            };
            if into.is_empty() {
                continue;
            }
            if !*legal.get_or_insert_with(|| l.well_formed(&b.sq) && b.legal(turn)) {
                break;
            }
            let from = b.sq[j];
            let mut moved = Board {
                layout: l,
                sq: b.sq,
            };
            moved.sq[j] = to;
            if moved.attacked(b.sq[king], !turn, (occ & !(1 << from)) | (1 << to), capture) {
                continue;
            }
            for &role in into {
                let m = Move {
                    slot: j,
                    to,
                    capture,
                    promotion: Some(role),
                    double_push: false,
                };
                let n = after(&b, &m, &mut pieces);
                let Some((child, child_mate)) = table.probe(&pieces[..n], !turn) else {
                    continue;
                };
                found = found.with(captures, -value::wdl(child));
                let c = value::through(child_mate);
                if dtm && value::rank(c) > value::rank(code) {
                    code = c;
                }
            }
        }
        best[k] = found.bits();
        if let Some(m) = mate.as_deref_mut() {
            m[k] = code;
        }
    }
    meter.add((best.len() % 65_536) as u64);
}
