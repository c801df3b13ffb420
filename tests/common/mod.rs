//! Shared helpers for the differential and consistency tests: table
//! location, position generators and the reference prober.
#![allow(dead_code)]

pub mod cli;
pub mod floor;
pub mod official;

use std::path::PathBuf;

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Piece, Position, Rank, Role, Setup,
    Square,
};
use syzygy_web::drivers::{FsFetcher, Tablebase};
use syzygy_web::Config;

/// `SYZYGY_PATH`, defaulting to `../shared/syzygy` beside the checkout.
pub fn syzygy_path() -> PathBuf {
    match std::env::var_os("SYZYGY_PATH") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/syzygy"),
    }
}

/// Whether SYZYGY_PATH holds the official tables (their checksum list), not
/// a set our generator made: comparisons with the official values need them.
/// Under the test command's full run (`SYZYGY_WEB_REQUIRE_ALL`, see
/// [`required`]) their absence fails instead of skipping.
pub fn official_tables() -> bool {
    let have = syzygy_path().join("SHA256SUMS").is_file();
    if !have {
        required("the official tables (SHA256SUMS) at SYZYGY_PATH");
    }
    have
}

/// Fails the test where `what` is missing and the run needs everything:
/// scripts/test.sh sets SYZYGY_WEB_REQUIRE_ALL once it has found the
/// official tables, so that a test skipping for a missing prerequisite
/// (node, the tables' checksum list) cannot pass CI without checking.
pub fn required(what: &str) {
    if std::env::var_os("SYZYGY_WEB_REQUIRE_ALL").is_some() {
        panic!("SYZYGY_WEB_REQUIRE_ALL is set, and {what} is missing");
    }
}

pub fn ours() -> Tablebase<FsFetcher> {
    Tablebase::new(FsFetcher::new(vec![syzygy_path()]), Config::default())
}

pub fn theirs() -> shakmaty_syzygy::Tablebase<Chess> {
    let mut tb = shakmaty_syzygy::Tablebase::new();
    tb.add_directory(syzygy_path()).expect("tables");
    tb
}

/// Every table name present (from the .rtbw files), sorted.
pub fn table_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(syzygy_path())
        .expect("SYZYGY_PATH readable")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".rtbw").map(str::to_string))
        .collect();
    names.sort();
    names
}

/// Pieces of a table name like `KRPvKR`, white first.
pub fn pieces_of(name: &str) -> Vec<Piece> {
    let (w, b) = name.split_once('v').expect("table name");
    let mut out = Vec::new();
    for (side, color) in [(w, Color::White), (b, Color::Black)] {
        for c in side.chars() {
            let role = Role::from_char(c.to_ascii_lowercase()).expect("role");
            out.push(Piece { color, role });
        }
    }
    out
}

/// A small deterministic generator (xorshift64*), so samples are seeded
/// without a dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A legal position from squares and a side to move, or None.
pub fn build(pieces: &[Piece], squares: &[u32], turn: Color, ep: Option<Square>) -> Option<Chess> {
    let mut board = Board::empty();
    for (p, &s) in pieces.iter().zip(squares) {
        let sq = Square::new(s);
        if board.piece_at(sq).is_some() {
            return None;
        }
        if p.role == Role::Pawn && (sq.rank() == Rank::First || sq.rank() == Rank::Eighth) {
            return None;
        }
        board.set_piece_at(sq, *p);
    }
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = turn;
    setup.ep_square = ep;
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

/// The position at `index` of a generated table with `turn` to move,
/// colours as its layout has them; None where the index names no legal
/// position.
pub fn stored_position(
    t: &syzygy_web::generate::solved::Solved,
    index: usize,
    turn: Color,
) -> Option<Chess> {
    let l = &t.layout;
    let pieces: Vec<Piece> = l
        .slots
        .iter()
        .map(|&(color, role)| Piece { color, role })
        .collect();
    let mut sq = [0u8; syzygy_web::generate::layout::MAX_PIECES];
    l.squares(index / l.slice_size, index % l.slice_size, &mut sq);
    let squares: Vec<u32> = sq[..l.pieces()].iter().map(|&s| u32::from(s)).collect();
    build(&pieces, &squares, turn, None)
}

/// A seeded sample of legal positions of a material, about a tenth of them
/// with en passant rights where the material allows it.
pub fn sample(name: &str, n: usize, seed: u64) -> Vec<Chess> {
    let pieces = pieces_of(name);
    let mut rng = Rng::new(
        seed ^ name
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))),
    );
    let mut out = Vec::with_capacity(n);
    let both_pawns = pieces
        .iter()
        .any(|p| p.role == Role::Pawn && p.color == Color::White)
        && pieces
            .iter()
            .any(|p| p.role == Role::Pawn && p.color == Color::Black);
    let mut tries = 0;
    while out.len() < n && tries < n * 200 {
        tries += 1;
        let squares: Vec<u32> = pieces.iter().map(|_| rng.below(64) as u32).collect();
        let turn = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        if both_pawns && rng.below(10) == 0 {
            if let Some(p) = with_en_passant(&pieces, &mut rng, turn) {
                out.push(p);
            }
            continue;
        }
        if let Some(p) = build(&pieces, &squares, turn, None) {
            out.push(p);
        }
    }
    out
}

/// A position where the side to move may capture en passant.
fn with_en_passant(pieces: &[Piece], rng: &mut Rng, turn: Color) -> Option<Chess> {
    // The pawn that just moved two squares belongs to the side not to move.
    let mover = !turn;
    let file = rng.below(8) as u32;
    let (pushed, ep, behind) = match mover {
        Color::White => (24 + file, 16 + file, 8 + file),
        Color::Black => (32 + file, 40 + file, 48 + file),
    };
    let side = if file == 0 {
        1
    } else if file == 7 {
        -1
    } else if rng.below(2) == 0 {
        1
    } else {
        -1
    };
    let capturer = (pushed as i32 + side) as u32;
    let mut squares = vec![u32::MAX; pieces.len()];
    let mover_pawn = pieces
        .iter()
        .position(|p| p.role == Role::Pawn && p.color == mover)?;
    let capt_pawn = pieces
        .iter()
        .position(|p| p.role == Role::Pawn && p.color == turn)?;
    squares[mover_pawn] = pushed;
    squares[capt_pawn] = capturer;
    let mut used = Bitboard::EMPTY;
    for s in [pushed, capturer, ep, behind] {
        used.add(Square::new(s));
    }
    for (i, _) in pieces.iter().enumerate() {
        if squares[i] == u32::MAX {
            loop {
                let s = rng.below(64) as u32;
                if !used.contains(Square::new(s)) {
                    squares[i] = s;
                    used.add(Square::new(s));
                    break;
                }
            }
        }
    }
    let pos = build(pieces, &squares, turn, Some(Square::new(ep)))?;
    pos.legal_ep_square().map(|_| pos)
}

/// Every legal position of a material, both sides to move.
pub fn all_positions(name: &str, f: impl FnMut(&Chess)) -> usize {
    positions_where(name, |_| true, f)
}

/// Every legal position up to the board's symmetries: the white king
/// (the first piece) only on a1-d1-d4 in pawnless tables and on files a-d
/// in pawnful ones. Each position the tables distinguish appears at least once.
pub fn positions_up_to_symmetry(name: &str, f: impl FnMut(&Chess)) -> usize {
    let pawnful = name.contains('P');
    let first = move |sq: u32| {
        let (file, rank) = (sq % 8, sq / 8);
        if pawnful {
            file < 4
        } else {
            file < 4 && rank <= file
        }
    };
    positions_where(name, first, f)
}

fn positions_where(name: &str, first: impl Fn(u32) -> bool, mut f: impl FnMut(&Chess)) -> usize {
    let pieces = pieces_of(name);
    let n = pieces.len();
    let mut squares = vec![0u32; n];
    let mut count = 0;
    loop {
        if first(squares[0]) {
            for turn in [Color::White, Color::Black] {
                if let Some(p) = build(&pieces, &squares, turn, None) {
                    f(&p);
                    count += 1;
                }
            }
        }
        let mut i = 0;
        loop {
            if i == n {
                return count;
            }
            squares[i] += 1;
            if squares[i] < 64 {
                break;
            }
            squares[i] = 0;
            i += 1;
        }
    }
}

pub fn wdl_of(w: shakmaty_syzygy::Wdl) -> i8 {
    use shakmaty_syzygy::Wdl::*;
    match w {
        Loss => -2,
        BlessedLoss => -1,
        Draw => 0,
        CursedWin => 1,
        Win => 2,
    }
}

/// The reference's (DTZ plies, precise).
pub fn dtz_of(d: shakmaty_syzygy::MaybeRounded<shakmaty_syzygy::Dtz>) -> (i32, bool) {
    match d {
        shakmaty_syzygy::MaybeRounded::Precise(shakmaty_syzygy::Dtz(v)) => (v, true),
        shakmaty_syzygy::MaybeRounded::Rounded(shakmaty_syzygy::Dtz(v)) => (v, false),
    }
}

/// A legal position from a FEN written into a test.
pub fn parse(f: &str) -> Chess {
    let fen: shakmaty::fen::Fen = f.parse().expect("FEN");
    fen.into_position(CastlingMode::Standard).expect("legal")
}

/// `pos` with the halfmove clock set, or None where the FEN rules forbid it.
pub fn with_clock(pos: &Chess, clock: u32) -> Option<Chess> {
    let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
    setup.halfmoves = clock;
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

pub fn fen(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// Compares WDL and DTZ of one position; returns a description of the
/// first disagreement.
pub fn compare(
    ours: &mut Tablebase<FsFetcher>,
    theirs: &shakmaty_syzygy::Tablebase<Chess>,
    pos: &Chess,
) -> Result<(), String> {
    let (w, d) = ours
        .probe_dtz(pos)
        .map_err(|e| format!("{}: ours failed: {e}", fen(pos)))?;
    let tw = wdl_of(
        theirs
            .probe_wdl_after_zeroing(pos)
            .map_err(|e| format!("{}: reference failed: {e}", fen(pos)))?,
    );
    let td = dtz_of(
        theirs
            .probe_dtz(pos)
            .map_err(|e| format!("{}: reference failed: {e}", fen(pos)))?,
    );
    let exact_here = d.precise && !td.1 && forced_zeroing_near(pos);
    // The reference says exact of a defence tied with a rounded one; ours, rounded.
    let tied = !d.precise && td.1 && ties_a_rounded_defence(theirs, pos);
    if w != tw || d.plies != td.0 || (d.precise != td.1 && !exact_here && !tied) {
        return Err(format!(
            "{}: ours wdl {w} dtz {} precise {}, reference wdl {tw} dtz {} precise {}",
            fen(pos),
            d.plies,
            d.precise,
            td.0,
            td.1
        ));
    }
    Ok(())
}

/// Where every legal move zeroes, DTZ is exactly one ply to zeroing, a
/// mated position's -1 is exact too, and so is a win's 1 where a move mates
/// at once; we say so (precise) where the reference reads the rounded table
/// value, here or in a 1-ply search that reaches such a position. The
/// values still agree.
pub fn forced_zeroing_near(pos: &Chess) -> bool {
    let after = |p: &Chess, m: &shakmaty::Move| {
        let mut c = p.clone();
        c.play_unchecked(*m);
        c
    };
    let all_zeroing = |p: &Chess| {
        let moves = p.legal_moves();
        p.is_checkmate()
            || (!moves.is_empty() && moves.iter().all(|m| m.is_zeroing()))
            || moves.iter().any(|m| after(p, m).is_checkmate())
    };
    all_zeroing(pos)
        || pos
            .legal_moves()
            .iter()
            .any(|m| all_zeroing(&after(pos, m)))
}

/// Where a table file's compression headers sit: per subtable (leading
/// file by file, side by side), the offset of its flags byte and, unless it
/// holds a single value, of its pair grammar and the number of symbols.
/// Read from the file's own layout, to build corrupt or unusual tables.
pub fn pairs_headers(file: &[u8], name: &str) -> Vec<(usize, Option<(usize, usize)>)> {
    let pieces = pieces_of(name);
    let pawns = |c: Color| pieces.iter().any(|p| p.role == Role::Pawn && p.color == c);
    let pawnful = pawns(Color::White) || pawns(Color::Black);
    let both = pawns(Color::White) && pawns(Color::Black);
    let files = if pawnful { 4 } else { 1 };
    // WDL tables of unequal material store both sides to move.
    let sides = if file[..4] == syzygy_web::format::Kind::Wdl.magic() && file[4] & 1 != 0 {
        2
    } else {
        1
    };
    let mut at = 5 + files * (1 + usize::from(both) + pieces.len());
    at += at % 2;
    let mut out = Vec::new();
    for _ in 0..files * sides {
        if file[at] & 0x80 != 0 {
            out.push((at, None));
            at += 2;
            continue;
        }
        let lens = usize::from(file[at + 8] - file[at + 9]) + 1;
        let sym_at = at + 10 + 2 * lens;
        let symbols = usize::from(u16::from_le_bytes([file[sym_at], file[sym_at + 1]]));
        out.push((at, Some((sym_at + 2, symbols))));
        at = sym_at + 2 + 3 * symbols + (symbols & 1);
    }
    out
}

/// Whether a lost position's longest defence, by the reference's own
/// values of its children, leads to a rounded win as long as any exact
/// one: its DTZ is then n or n + 1 plies,
/// though the reference reports it exact (a maybe-loss at the edge where
/// it says loss). Generated values confirm that
/// reading (`official_dtz_said_exact_is_the_generated_one` in generate.rs).
pub fn ties_a_rounded_defence(them: &shakmaty_syzygy::Tablebase<Chess>, pos: &Chess) -> bool {
    let mut longest: Option<(i32, bool)> = None;
    for m in pos.legal_moves().iter().filter(|m| !m.is_zeroing()) {
        let mut child = pos.clone();
        child.play_unchecked(*m);
        let Ok(d) = them.probe_dtz(&child) else {
            return false;
        };
        let (plies, rounded) = match d {
            shakmaty_syzygy::MaybeRounded::Precise(shakmaty_syzygy::Dtz(v)) => (v, false),
            shakmaty_syzygy::MaybeRounded::Rounded(shakmaty_syzygy::Dtz(v)) => (v, true),
        };
        if !(1..=100).contains(&plies) {
            continue;
        }
        longest = match longest {
            Some((x, r)) if x > plies => Some((x, r)),
            Some((x, r)) if x == plies => Some((x, r || rounded)),
            _ => Some((plies, rounded)),
        };
    }
    longest.is_some_and(|(_, rounded)| rounded)
}
