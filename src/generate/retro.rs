//! The retrograde passes: decided positions are processed one distance at a
//! time, in sparse lists (seed 001's lost(N) lists), and each one visits its
//! predecessors by un-moving a piece of the side that just moved.
//!
//! - A predecessor of a loss in n is a win in n + 1 (the first time it is
//!   reached is the fastest).
//! - A predecessor of a win in n loses one quiet move; when none is left,
//!   it is lost in max(n + 1, its best zeroing loss), unless a zeroing move
//!   draws or wins.
//! - Zeroing moves seed wins and deferred losses at their own distance: on
//!   the DTZ50'' scale at 1 or 101, on the mate scale at any distance.

use shakmaty::Color;

use super::layout::{Layout, MAX_PIECES};
use super::moves::{for_each_unmove, Board};
use super::value::{self, DRAW, INVALID, MATED, UNKNOWN};
use super::Meter;

fn push(lists: &mut Vec<[Vec<u32>; 2]>, level: usize, s: usize, i: u32) {
    if lists.len() <= level {
        lists.resize_with(level + 1, Default::default);
    }
    lists[level][s].push(i);
}

/// The arrays of one side to move that a pass over the other side's
/// decided positions writes: its predecessors' values (seeds while
/// undecided), decided bits and quiet-move counts.
struct Preds<'a> {
    val: &'a mut [i16],
    done: &'a mut [u64],
    quiet: &'a mut [u8],
}

/// What one level's pass over a side found for the other side: the
/// positions decided at the next distance (lost, won) and the losses
/// deferred to a later distance (at, index).
#[derive(Default)]
struct Found {
    next: [Vec<u32>; 2],
    later: Vec<(usize, u32)>,
}

/// Below this many positions in a level, its two sides are visited on one
/// thread: a thread costs more than the work.
const PARALLEL_LEVEL: usize = 1 << 14;

fn mark(d: &mut [u64], i: usize) {
    d[i >> 6] |= 1 << (i & 63);
}

fn decided(d: &[u64], i: usize) -> bool {
    d[i >> 6] & (1 << (i & 63)) != 0
}

/// Settles `val` (both sides of one slice) from the quiet-move counts.
/// On entry `val` holds INVALID and MATED where the forward pass decided,
/// and elsewhere each position's best zeroing code (UNKNOWN if none): an
/// undecided position keeps its seed there, read when its last quiet move
/// is refuted, and the `done` bits alone say what is decided (a second
/// array of seeds took 2 bytes a position and side more). Undecided
/// positions end as draws. With `parallel`, the two sides of a level go to
/// two threads: a pass over one side's decided positions writes only the
/// other side's arrays.
pub fn retro(
    l: &Layout,
    slice: usize,
    quiet: &mut [Vec<u8>; 2],
    val: &mut [Vec<i16>; 2],
    parallel: bool,
    meter: &Meter,
) {
    let units = (val[0].len() + val[1].len()) as u64;
    // One bit per position, set once it is decided: predecessors are mostly
    // decided already, and this bitmap is 16 times smaller than `val`, so
    // the test usually stays in cache.
    let mut done: [Vec<u64>; 2] = [
        vec![0; val[0].len().div_ceil(64)],
        vec![0; val[1].len().div_ceil(64)],
    ];
    let mut reported = 0u64;
    let mut pend_win: Vec<[Vec<u32>; 2]> = Vec::new();
    let mut pend_loss: Vec<[Vec<u32>; 2]> = Vec::new();
    // Decided at the current distance, by side to move: [lost, won].
    let mut cur: [[Vec<u32>; 2]; 2] = Default::default();
    for s in 0..2 {
        for i in 0..val[s].len() {
            let z = val[s][i];
            if z == INVALID || z == MATED {
                mark(&mut done[s], i);
                if z == MATED {
                    cur[s][0].push(i as u32);
                }
                continue;
            }
            if z == UNKNOWN {
                continue;
            }
            if z > 0 {
                push(&mut pend_win, usize::from(value::distance(z)), s, i as u32);
            } else if quiet[s][i] == 0 {
                if z < 0 {
                    push(&mut pend_loss, usize::from(value::distance(z)), s, i as u32);
                } else {
                    mark(&mut done[s], i);
                }
            }
        }
    }
    // Slots whose move changes only their own digit of the index (by the
    // layout's weight of that digit): not in a group of identical pieces,
    // and not a pawnless king (whose move may change the symmetry).
    let mut simple = [false; MAX_PIECES];
    for (slot, s) in simple.iter_mut().enumerate().take(l.first_pawn) {
        *s = (slot > 1 || l.pawnful()) && !l.groups.iter().any(|g| g.0 <= slot && slot < g.1);
    }
    let walk = Walk { l, slice, simple };
    let mut n = 0usize;
    loop {
        for s in 0..2 {
            for (lists, win) in [(&mut pend_win, true), (&mut pend_loss, false)] {
                let Some(level) = lists.get_mut(n) else {
                    continue;
                };
                for i in std::mem::take(&mut level[s]) {
                    if !decided(&done[s], i as usize) {
                        mark(&mut done[s], i as usize);
                        val[s][i as usize] = if win {
                            value::win(n as u16)
                        } else {
                            value::loss(n as u16)
                        };
                        cur[s][usize::from(win)].push(i);
                    }
                }
            }
        }
        let size: usize = cur.iter().flatten().map(Vec::len).sum();
        if size == 0 && n >= pend_win.len().max(pend_loss.len()) {
            break;
        }
        if n >= usize::from(value::MAX_DISTANCE) {
            break;
        }
        for list in cur.iter_mut().flatten() {
            // In index order, neighbours un-move into the same cache lines.
            list.sort_unstable();
        }
        // Side 0's decided positions write side 1's arrays, and the reverse.
        let (v0, v1) = val.split_at_mut(1);
        let (d0, d1) = done.split_at_mut(1);
        let (q0, q1) = quiet.split_at_mut(1);
        let of_white = Preds {
            val: &mut v1[0],
            done: &mut d1[0],
            quiet: &mut q1[0],
        };
        let of_black = Preds {
            val: &mut v0[0],
            done: &mut d0[0],
            quiet: &mut q0[0],
        };
        let threads = if parallel && size >= PARALLEL_LEVEL {
            2
        } else {
            1
        };
        let jobs = vec![(0, &cur[0], of_white), (1, &cur[1], of_black)];
        let mut found = crate::par::map_owned(jobs, threads, |(side, at, preds)| {
            walk.level(side, n, at, preds)
        });
        // Both come back (a pass that panics panics here too).
        let b = found.pop().unwrap_or_default();
        let a = found.pop().unwrap_or_default();
        let step = (size as u64).min(units - reported);
        meter.add(step);
        reported += step;
        for (o, found) in [(1, a), (0, b)] {
            for (at, p) in found.later {
                push(&mut pend_loss, at, o, p);
            }
            cur[o] = found.next;
        }
        n += 1;
    }
    meter.add(units - reported);
    for (v, d) in val.iter_mut().zip(&done) {
        for (i, v) in v.iter_mut().enumerate() {
            if !decided(d, i) {
                *v = DRAW;
            }
        }
    }
}

/// What every level's pass shares.
struct Walk<'a> {
    l: &'a Layout,
    slice: usize,
    simple: [bool; MAX_PIECES],
}

impl Walk<'_> {
    /// Visits the predecessors (side `1 - s` to move) of side `s`'s
    /// positions decided at distance `n`, `cur` = [lost, won].
    fn level(&self, s: usize, n: usize, cur: &[Vec<u32>; 2], p: Preds) -> Found {
        let Walk { l, slice, simple } = *self;
        let Preds { val, done, quiet } = p;
        let mut found = Found::default();
        let mut b = Board {
            layout: l,
            sq: [0; MAX_PIECES],
        };
        let n_pieces = l.pieces();
        let turn = if s == 0 { Color::White } else { Color::Black };
        for (lost, list) in [(true, &cur[0]), (false, &cur[1])] {
            for &i in list {
                l.squares(slice, i as usize, &mut b.sq);
                let here = i as usize;
                // With both kings on the diagonal any move may change the
                // stored form, and a symmetric position counts its moves
                // in mirror-image pairs (see below).
                let diag = l.kings_on_diag(&b.sq);
                let sym = diag && l.diag_symmetric(&b.sq);
                let now = &b.sq;
                for_each_unmove(&b, turn, |prev, slot| {
                    // Squares are read a byte at a time on the fast path:
                    // copying the array just after `for_each_unmove` stored
                    // one byte of it stalled store forwarding, and was
                    // nearly half of this pass.
                    let fast = simple[slot] && !diag;
                    let mut sq = [0u8; MAX_PIECES];
                    let p = if fast {
                        let w = l.weight[slot];
                        here - usize::from(now[slot]) * w + usize::from(prev[slot]) * w
                    } else {
                        sq = *prev;
                        l.canonicalize_after(&mut sq[..n_pieces], slot);
                        l.local_index(&sq)
                    };
                    if decided(done, p) {
                        return;
                    }
                    if lost {
                        val[p] = value::win(n as u16 + 1);
                        mark(done, p);
                        found.next[1].push(p as u32);
                        return;
                    }
                    // A move and its mirror image lead to one stored
                    // position: a symmetric predecessor of a position that
                    // is not counted both moves, found here once; a
                    // predecessor that is not symmetric, of a symmetric
                    // position, counted one, found here twice (as itself
                    // and as its mirror image).
                    // On the fast path no king moved and the kings are
                    // not both on the diagonal: not symmetric.
                    let pred_sym = !fast && l.diag_symmetric(&sq);
                    let moves = match (pred_sym, sym) {
                        (true, false) => 2,
                        (false, true) if !l.below_its_mirror(prev) => return,
                        _ => 1,
                    };
                    let left = &mut quiet[p];
                    *left = left.saturating_sub(moves);
                    if *left != 0 {
                        return;
                    }
                    let z = val[p];
                    if z > 0 || z == DRAW {
                        return;
                    }
                    let at = if z == UNKNOWN {
                        0
                    } else {
                        usize::from(value::distance(z))
                    };
                    if at <= n + 1 {
                        val[p] = value::loss(n as u16 + 1);
                        mark(done, p);
                        found.next[0].push(p as u32);
                    } else {
                        found.later.push((at, p as u32));
                    }
                });
            }
        }
        found
    }
}
