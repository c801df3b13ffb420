//! Solving one slice: a forward pass that counts each position's quiet
//! moves and values its zeroing moves from finished tables, then the
//! retrograde passes (DTZ50'', then mate distance) from those seeds.

use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Color, Role};

use super::child::Children;
use super::free::{self, Best};
use super::layout::{Layout, MAX_PIECES};
use super::moves::{count_quiet_moves, en_passant_possible, Board, Move, NONE};
use super::promote::Ahead;
use super::retro::retro;
use super::solved::{side, Library, Piece, Solved};
use super::value::{self, DRAW, INVALID, MATED, UNKNOWN};
use super::Meter;

/// Per-side working arrays of a slice, kept from one slice to the next:
/// fresh arrays of a slice's size each time cost page faults and the
/// kernel's zeroing of every page.
#[derive(Default)]
pub struct Work {
    /// Quiet (non-zeroing) legal moves not yet known to lose.
    pub quiet: [Vec<u8>; 2],
    /// DTZ50'' codes: after the forward pass INVALID, MATED, or the best
    /// code among zeroing moves (UNKNOWN if none), the seeds [`retro`]
    /// settles in place; final once solved.
    pub dtz: [Vec<i16>; 2],
    /// The mate pass's own quiet-move counts.
    pub mate_quiet: [Vec<u8>; 2],
    /// Mate codes, seeded and settled like `dtz` (with mate distances only).
    pub dtm: [Vec<i16>; 2],
    /// Of a pawnful slice: each position's best capture and pawn move
    /// ([`Best`] bits), then once solved its writer's [`free::Flags`] (bit
    /// 0 `wdl_free`, bit 1 `dtz_free`).
    pub best: [Vec<u8>; 2],
}

/// `v` at length `n`; what it held is left for the caller to overwrite.
fn fit<T: Copy + Default>(v: &mut Vec<T>, n: usize) {
    v.truncate(n);
    v.resize(n, T::default());
}

impl Work {
    /// Arrays for slices of `size` positions a side. Without mate
    /// distances, the mate arrays are freed: 3 bytes a position otherwise
    /// wasted.
    fn fit(&mut self, size: usize, dtm: bool, pawnful: bool) {
        for s in 0..2 {
            if pawnful {
                fit(&mut self.best[s], size);
            } else {
                self.best[s] = Vec::new();
            }
            fit(&mut self.quiet[s], size);
            fit(&mut self.dtz[s], size);
            if dtm {
                fit(&mut self.mate_quiet[s], size);
                fit(&mut self.dtm[s], size);
            } else {
                self.mate_quiet[s] = Vec::new();
                self.dtm[s] = Vec::new();
            }
        }
    }
}

/// Where zeroing moves lead: earlier slices of this material, or other
/// finished materials.
pub struct Tables<'a> {
    pub this: &'a Solved,
    pub library: &'a Library,
    /// Promotions into tables not in `library`, valued ahead.
    pub ahead: &'a Ahead,
    /// Set where a zeroing move's position could not be read (a table or
    /// a slice the plan should have held): the generation then fails
    /// rather than count that move as anything.
    pub gap: AtomicBool,
}

impl Tables<'_> {
    fn probe(&self, pieces: &[Piece], turn: Color) -> Option<(i16, i16)> {
        let this = &self.this.layout;
        let same = pieces.len() == this.pieces() && super::solved::key_of(pieces) == this.key;
        if same {
            self.this.get(pieces, turn)
        } else {
            self.library.probe(pieces, turn)
        }
    }
}

/// The pieces after a move, as lookup pieces.
pub(super) fn after(b: &Board, m: &Move, out: &mut [Piece; MAX_PIECES]) -> usize {
    let l = b.layout;
    let mut k = 0;
    for (i, &(c, r)) in l.slots.iter().enumerate() {
        if i == m.capture {
            continue;
        }
        let (role, sq) = if i == m.slot {
            (m.promotion.unwrap_or(r), m.to)
        } else {
            (r, b.sq[i])
        };
        out[k] = (c, role, sq);
        k += 1;
    }
    k
}

/// (WDL, mate code) of the position after a zeroing move, for the side to
/// move there, en passant replies to a double push included; None for a
/// promotion into a table not at hand (valued ahead, see [`Ahead`]) and
/// where a position could not be read (see [`Tables::gap`]).
fn zeroing_child(
    t: &Tables,
    kids: &Children,
    b: &Board,
    m: &Move,
    turn: Color,
    dtm: bool,
) -> Option<(i8, i16)> {
    // Callers hold every sub-material (checked before solving); any other
    // gap is a bug in what the plan holds, which fails the generation.
    let (code, mate) = match kids.probe(b, m, turn) {
        Some(found) => found,
        None if m.promotion.is_some() => return None,
        None => {
            t.gap.store(true, Ordering::Relaxed);
            return None;
        }
    };
    let mut w = value::wdl(code);
    let mut mate = if dtm { mate } else { UNKNOWN };
    // The best en passant reply, if one is legal: (WDL, mate code).
    let mut by_ep: Option<(i8, i16)> = None;
    if m.double_push {
        en_passant_replies(b, m, turn, |ep| {
            let Some((g, gm)) = t.probe(ep, turn) else {
                t.gap.store(true, Ordering::Relaxed);
                return;
            };
            let here = (
                -value::wdl(g),
                if dtm { value::through(gm) } else { UNKNOWN },
            );
            by_ep = Some(by_ep.map_or(here, |best| better(best, here)));
        });
    }
    if let Some(ep) = by_ep {
        (w, mate) = if has_other_move(b, m, turn) {
            // The reply is the better of the stored value's moves and en passant.
            better((w, mate), ep)
        } else {
            // En passant is the only move: the stored value (stalemate, or
            // mate, without it) is not the position's.
            ep
        };
    }
    Some((w, mate))
}

/// Calls `f` with the position after each legal en passant capture of
/// the pawn that double push `m` (by `turn`) moved, as lookup pieces.
fn en_passant_replies(b: &Board, m: &Move, turn: Color, mut f: impl FnMut(&[Piece])) {
    let mut pieces = [(Color::White, Role::King, 0u8); MAX_PIECES];
    let n = after(b, m, &mut pieces);
    let passed = if turn == Color::White {
        m.to - 8
    } else {
        m.to + 8
    };
    for j in 0..n {
        let (c, r, s) = pieces[j];
        let beside = s >> 3 == m.to >> 3 && ((s & 7) as i8 - (m.to & 7) as i8).abs() == 1;
        if c == turn || r != Role::Pawn || !beside {
            continue;
        }
        // The capture of the pushed pawn en passant, if legal.
        let mut ep = [(Color::White, Role::King, 0u8); MAX_PIECES];
        let mut k = 0;
        for (i, &p) in pieces[..n].iter().enumerate() {
            if p.2 == m.to {
                continue;
            }
            ep[k] = if i == j { (c, r, passed) } else { p };
            k += 1;
        }
        if !ep_exposes_king(&ep[..k], !turn) {
            f(&ep[..k]);
        }
    }
}

/// The better for the side to move of two (WDL, mate code) replies.
fn better(a: (i8, i16), b: (i8, i16)) -> (i8, i16) {
    let mate = if value::rank(b.1) > value::rank(a.1) {
        b.1
    } else {
        a.1
    };
    (a.0.max(b.0), mate)
}

/// Whether the side to move after `m` (a double push) has a legal move
/// other than an en passant capture: stored positions know none.
fn has_other_move(b: &Board, m: &Move, turn: Color) -> bool {
    let mut sq = b.sq;
    sq[m.slot] = m.to;
    let child = Board {
        layout: b.layout,
        sq,
    };
    let mut zeroing = false;
    let quiet = count_quiet_moves(&child, !turn, |_| zeroing = true);
    quiet > 0 || zeroing
}

/// Whether `side`'s king is attacked in a position given as lookup pieces.
fn ep_exposes_king(pieces: &[Piece], side: Color) -> bool {
    let occ = pieces.iter().fold(0u64, |o, p| o | 1 << p.2);
    let Some(king) = pieces.iter().find(|p| p.0 == side && p.1 == Role::King) else {
        return true;
    };
    pieces
        .iter()
        .any(|&(c, r, s)| c != side && super::moves::attack_set(c, r, s, occ) & (1 << king.2) != 0)
}

/// The forward pass over `range` of one side of a slice.
#[allow(clippy::too_many_arguments)]
pub fn init_range(
    t: &Tables,
    slice: usize,
    turn: Color,
    start: usize,
    quiet: &mut [u8],
    dtz: &mut [i16],
    mate: &mut [i16],
    best: &mut [u8],
    dtm: bool,
    meter: &Meter,
) {
    let l: &Layout = &t.this.layout;
    let mut b = Board {
        layout: l,
        sq: [0; MAX_PIECES],
    };
    let ahead = t.ahead.get(slice, side(turn));
    let kids = Children::new(t);
    for k in 0..quiet.len() {
        if k % 65_536 == 65_535 {
            meter.add(65_536);
        }
        l.squares(slice, start + k, &mut b.sq);
        quiet[k] = 0;
        let mut found = Best::NONE;
        if !l.well_formed(&b.sq) || !b.legal(turn) {
            dtz[k] = INVALID;
            if dtm {
                mate[k] = INVALID;
            }
            continue;
        }
        let (mut any, mut zd, mut zm) = (false, UNKNOWN, UNKNOWN);
        let count = count_quiet_moves(&b, turn, |m| {
            any = true;
            let Some((w, mate)) = zeroing_child(t, &kids, &b, &m, turn, dtm) else {
                return;
            };
            let capture = m.capture != NONE;
            if capture || !(m.double_push && en_passant_possible(&b, m.slot, m.to, turn)) {
                found = found.with(capture, -w);
            }
            let code = value::zeroing_wdl(w);
            if value::rank(code) > value::rank(zd) {
                zd = code;
            }
            if dtm {
                let c = value::through(mate);
                if value::rank(c) > value::rank(zm) {
                    zm = c;
                }
            }
        });
        if let Some((bits, mates)) = ahead {
            let a = Best::from_bits(bits[start + k]);
            found = found.merge(a);
            if let Some(w) = a.best() {
                let code = value::zeroing_wdl(-w);
                if value::rank(code) > value::rank(zd) {
                    zd = code;
                }
            }
            if let Some(&c) = mates.get(start + k) {
                if value::rank(c) > value::rank(zm) {
                    zm = c;
                }
            }
        }
        any |= count > 0;
        if !any {
            // No move at all: no seed either.
            let end = if b.in_check(turn) { MATED } else { DRAW };
            (zd, zm) = (end, end);
        }
        quiet[k] = count.min(255) as u8;
        dtz[k] = zd;
        if let Some(b) = best.get_mut(k) {
            *b = found.bits();
        }
        if dtm {
            mate[k] = zm;
        }
    }
    meter.add((quiet.len() % 65_536) as u64);
}

/// Chunks of an array a slice may go without (mate seeds, best zeroing
/// moves), or empty slices when it has none.
fn optional_chunks<T>(v: &mut [T], chunk: usize) -> Box<dyn Iterator<Item = &mut [T]> + '_> {
    if v.is_empty() {
        Box::new(std::iter::repeat_with(|| -> &mut [T] { &mut [] }))
    } else {
        Box::new(v.chunks_mut(chunk))
    }
}

/// Turns a solved slice's [`Best`] bits into the writer's flags.
fn flags(dtz: &[i16], best: &mut [u8]) {
    for (b, &code) in best.iter_mut().zip(dtz) {
        let f = if value::is_decided(code) {
            Best::from_bits(*b).flags(value::wdl(code))
        } else {
            free::Flags::default()
        };
        *b = f.bits();
    }
}

/// Solves one slice: the forward pass on `threads` threads, then the
/// retrograde passes. Leaves the DTZ50'' codes in `w.dtz` and, with mate
/// distances, the mate codes in `w.dtm`.
pub fn solve(t: &Tables, slice: usize, dtm: bool, threads: usize, meter: &Meter, w: &mut Work) {
    let size = t.this.layout.slice_size;
    w.fit(size, dtm, t.this.layout.pawnful());
    let threads = threads.max(1);
    for turn in [Color::White, Color::Black] {
        let s = side(turn);
        let chunk = size.div_ceil(threads).max(1);
        if threads == 1 {
            let (q, d, m, bs) = (
                &mut w.quiet[s][..],
                &mut w.dtz[s][..],
                &mut w.dtm[s][..],
                &mut w.best[s][..],
            );
            init_range(t, slice, turn, 0, q, d, m, bs, dtm, meter);
            continue;
        }
        let parts: Vec<_> = w.quiet[s]
            .chunks_mut(chunk)
            .zip(w.dtz[s].chunks_mut(chunk))
            .zip(optional_chunks(&mut w.dtm[s], chunk))
            .zip(optional_chunks(&mut w.best[s], chunk))
            .enumerate()
            .collect();
        crate::par::map_owned(parts, threads, |(i, (((q, d), m), bs))| {
            init_range(t, slice, turn, i * chunk, q, d, m, bs, dtm, meter)
        });
    }
    let l = &t.this.layout;
    let Work {
        quiet,
        dtz,
        mate_quiet,
        dtm: mate,
        best,
    } = w;
    if !dtm {
        retro(l, slice, quiet, dtz, threads > 1, meter);
        for s in 0..2 {
            flags(&dtz[s], &mut best[s]);
        }
        return;
    }
    // The mate pass needs its own copy of the counts; it shares nothing
    // else with the DTZ50'' pass, so a second thread runs it alongside.
    for s in 0..2 {
        mate_quiet[s].copy_from_slice(&quiet[s]);
    }
    let passes = vec![(mate_quiet, mate), (quiet, dtz)];
    crate::par::map_owned(passes, threads.min(2), |(q, v)| {
        retro(l, slice, q, v, false, meter)
    });
    for s in 0..2 {
        flags(&dtz[s], &mut best[s]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::layout::parse_material;
    use super::*;

    /// `pieces` (colour, role, square as "e4") placed on `l`'s slots.
    fn board<'a>(l: &'a Layout, pieces: &[(Color, Role, &str)]) -> Board<'a> {
        let mut sq = [0u8; MAX_PIECES];
        let mut used = [false; MAX_PIECES];
        for &(c, r, s) in pieces {
            let i = (0..l.pieces())
                .find(|&i| !used[i] && l.slots[i] == (c, r))
                .expect("a slot for the piece");
            used[i] = true;
            sq[i] = square(s);
        }
        Board { layout: l, sq }
    }

    fn square(s: &str) -> u8 {
        let b = s.as_bytes();
        (b[0] - b'a') + 8 * (b[1] - b'1')
    }

    /// En passant replies to every double push of random KQPvKP, KRPvKP
    /// and KBPvKP boards (pins of the capturing pawn, or of the pawn beside
    /// it, along a rank or a diagonal) against shakmaty's legal moves: how
    /// many en passant captures are legal, and whether any other move is.
    #[test]
    fn en_passant_replies_agree_with_shakmaty() {
        use shakmaty::{Board as SBoard, CastlingMode, Chess, FromSetup, Position, Setup, Square};
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut pushes = 0;
        let (mut legal_eps, mut alone) = (0, 0);
        for name in ["KQPvKP", "KRPvKP", "KBPvKP"] {
            let l = Layout::new(parse_material(name).expect("material"));
            for trial in 0..40_000 {
                let turn = if trial % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let mut sq = [0u8; MAX_PIECES];
                // The pusher's pawn on its second rank, the other side's
                // beside the square of its double push.
                let file = next(8) as u8;
                let beside = if file == 0 || (file < 7 && next(2) == 0) {
                    file + 1
                } else {
                    file - 1
                };
                for (s, &slot) in sq.iter_mut().zip(&l.slots) {
                    *s = match slot {
                        (c, Role::Pawn) if c == turn => {
                            file + if turn == Color::White { 8 } else { 48 }
                        }
                        (_, Role::Pawn) => beside + if turn == Color::White { 24 } else { 32 },
                        _ => next(64) as u8,
                    };
                }
                let b = Board { layout: &l, sq };
                if !l.well_formed(&b.sq) || !b.legal(turn) {
                    continue;
                }
                let mut board = SBoard::empty();
                for (&s, &(c, r)) in sq.iter().zip(&l.slots) {
                    board.set_piece_at(Square::new(u32::from(s)), r.of(c));
                }
                let mut setup = Setup::empty();
                setup.board = board;
                setup.turn = turn;
                let Ok(pos) = Chess::from_setup(setup, CastlingMode::Standard) else {
                    continue;
                };
                count_quiet_moves(&b, turn, |m| {
                    if !m.double_push {
                        return;
                    }
                    pushes += 1;
                    let (from, to) = (
                        Square::new(u32::from(sq[m.slot])),
                        Square::new(u32::from(m.to)),
                    );
                    let push = pos
                        .legal_moves()
                        .into_iter()
                        .find(|sm| sm.from() == Some(from) && sm.to() == to)
                        .expect("shakmaty has the push");
                    let child = pos.clone().play(push).expect("legal");
                    let moves = child.legal_moves();
                    let theirs_ep = moves.iter().filter(|sm| sm.is_en_passant()).count();
                    let theirs_other = moves.iter().any(|sm| !sm.is_en_passant());
                    let mut ours_ep = 0;
                    en_passant_replies(&b, &m, turn, |_| ours_ep += 1);
                    let at = format!(
                        "{name} {} after {from}{to}",
                        shakmaty::fen::Epd::from_position(&pos, shakmaty::EnPassantMode::Legal)
                    );
                    assert_eq!(ours_ep, theirs_ep, "legal en passant captures: {at}");
                    if ours_ep > 0 {
                        assert_eq!(
                            has_other_move(&b, &m, turn),
                            theirs_other,
                            "another move: {at}"
                        );
                        legal_eps += 1;
                        alone += usize::from(!theirs_other);
                    }
                });
            }
        }
        eprintln!(
            "{pushes} double pushes, {legal_eps} with en passant legal, {alone} with it alone"
        );
        assert!(
            legal_eps > 1000 && alone > 0 && pushes - legal_eps > 100,
            "{pushes} pushes, {legal_eps} with en passant, {alone} alone"
        );
    }

    /// The case a double push's value turns on: the opponent left with the
    /// en passant capture alone (k7/2Q5/8/8/3p4/3K4/4P3/8 w, e2e4: the king
    /// has no square and d4 is blocked), or with other moves as well.
    #[test]
    fn a_reply_of_en_passant_alone_is_told_from_one_among_others() {
        use Color::{Black, White};
        use Role::{King, Pawn, Queen};
        let l = Layout::new(parse_material("KQPvKP").expect("material"));
        for (queen, alone) in [("c7", true), ("c5", false)] {
            let b = board(
                &l,
                &[
                    (White, King, "d3"),
                    (Black, King, "a8"),
                    (White, Queen, queen),
                    (White, Pawn, "e2"),
                    (Black, Pawn, "d4"),
                ],
            );
            let slot = (0..l.pieces())
                .find(|&i| l.slots[i] == (White, Pawn))
                .expect("the pawn");
            let m = Move {
                slot,
                to: square("e4"),
                capture: NONE,
                promotion: None,
                double_push: true,
            };
            assert!(en_passant_possible(&b, slot, m.to, White));
            assert_eq!(has_other_move(&b, &m, White), !alone, "queen on {queen}");
        }
    }
}
