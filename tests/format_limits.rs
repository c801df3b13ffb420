//! Limits of the format that only big tables reach, tested with
//! constructed tables: long block-length scans (the sparse index span is
//! chosen per table, and blocks may hold few values), and the DTZ
//! side-to-move flag of symmetric pawnful tables.

mod common;

use std::borrow::Cow;

use common::{pairs_headers, syzygy_path};

use syzygy_web::format::decode::{self, Source};
use syzygy_web::format::pairs::{Body, Huffman, Pairs};
use syzygy_web::format::FormatError;

/// A whole file in memory.
struct Bytes(Vec<u8>);

impl Source for Bytes {
    type Error = FormatError;
    fn read(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, FormatError> {
        let end = offset as usize + len;
        self.0
            .get(offset as usize..end)
            .map(Cow::Borrowed)
            .ok_or(FormatError::Corrupt("read past the end"))
    }
}

/// A subtable of `blocks` one-value blocks of 32 bytes under one sparse
/// entry that names the middle block: a one-bit canonical code, symbol 0
/// (bit 0) is value 3 and symbol 1 (bit 1) value 4; block `b` holds
/// value 3 + b % 2.
fn one_value_blocks(span_log2: u8, blocks: u32) -> (Pairs, Bytes) {
    let sparse_entries = 1u64;
    let lengths_offset = 6 * sparse_entries;
    let data_offset = (lengths_offset + 2 * u64::from(blocks)).div_ceil(64) * 64;
    let mut file = vec![0u8; data_offset as usize + (blocks as usize) * 32];
    // Sparse entry 0: the value at index span/2 is block span/2, offset 0.
    let mid = 1u32 << (span_log2 - 1);
    file[0..4].copy_from_slice(&mid.to_le_bytes());
    // Block lengths: each block holds 1 value (stored minus one: 0).
    for b in 0..blocks as usize {
        let at = data_offset as usize + b * 32;
        file[at] = if b % 2 == 1 { 0x80 } else { 0 };
    }
    let h = Huffman {
        block_log2: 5,
        span_log2,
        real_blocks: blocks,
        length_entries: u64::from(blocks),
        sparse_entries,
        min_len: 1,
        base: vec![0],
        starts: Vec::new(),
        first_symbol: vec![0],
        grammar: vec![(3, 0xfff), (4, 0xfff)],
        run: vec![0, 0],
        sparse_offset: 0,
        lengths_offset,
        data_offset,
    };
    (
        Pairs {
            flags: 0,
            body: Body::Huffman(h),
        },
        Bytes(file),
    )
}

#[test]
fn a_block_length_scan_longer_than_4096_blocks_decodes() {
    // 2^14 values, one per block: the first and last indexes are 8,192
    // blocks away from the one the sparse index names.
    let (pairs, file) = one_value_blocks(14, 1 << 14);
    for index in [0u64, 1, 4095, 8191, 8192, 8193, 12_000, 16_383] {
        let v =
            decode::value(&pairs, index, &file).unwrap_or_else(|e| panic!("index {index}: {e:?}"));
        assert_eq!(v, 3 + (index % 2) as u16, "index {index}");
    }
}

#[test]
fn a_scan_sent_out_of_the_table_is_a_clean_error() {
    let (pairs, mut file) = one_value_blocks(14, 1 << 14);
    // A corrupt sparse entry naming a block far past the end.
    file.0[0..4].copy_from_slice(&(u32::MAX - 1).to_le_bytes());
    assert!(decode::value(&pairs, 5, &file).is_err());
    // Entries that make the scan walk back past block 0, or forward past
    // the last block (8,191 one-value blocks to walk, 0 left): errors, not loops.
    file.0[0..4].copy_from_slice(&0u32.to_le_bytes());
    assert!(decode::value(&pairs, 0, &file).is_err());
    file.0[0..4].copy_from_slice(&((1u32 << 14) - 1).to_le_bytes());
    assert!(decode::value(&pairs, 16_383, &file).is_err());
}

/// KPvKP.rtbz with the side-to-move flag of every subtable set: the same
/// values now stand for the other side to move. A symmetric material reads
/// the same in either colour orientation, so a prober must pick the
/// orientation whose side to move the subtable stores: then probing a
/// position in the flipped file gives the original file's value for the
/// same board with the other side to move.
#[test]
fn symmetric_pawnful_dtz_honours_the_side_to_move_flag() {
    use shakmaty::{CastlingMode, Chess, EnPassantMode, FromSetup, Position};
    use syzygy_web::drivers::{FsFetcher, Tablebase};
    use syzygy_web::engine::dtz_table;
    use syzygy_web::material::Material;
    use syzygy_web::Config;

    let tables = syzygy_path();
    let original = std::fs::read(tables.join("KPvKP.rtbz")).expect("KPvKP.rtbz");
    let mut flipped = original.clone();
    let headers = pairs_headers(&original, "KPvKP");
    assert_eq!(headers.len(), 4);
    for &(at, _) in &headers {
        assert_eq!(
            original[at] & 1,
            0,
            "the official file stores white to move"
        );
        flipped[at] |= 1;
    }
    let dir = std::env::temp_dir().join(format!("syzygy-web-stm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("KPvKP.rtbz"), &flipped).expect("write");
    let mut theirs = Tablebase::new(FsFetcher::new(vec![tables]), Config::default());
    let mut ours = Tablebase::new(FsFetcher::new(vec![dir]), Config::default());
    // The flipped file parses: only the flag differs.
    let toggled = |p: &Chess| {
        let mut s = p.to_setup(EnPassantMode::Legal);
        s.turn = !s.turn;
        s.ep_square = None;
        Chess::from_setup(s, CastlingMode::Standard).ok()
    };
    let (mut compared, mut differ) = (0, 0);
    for wdl in [2i8, -2] {
        for p in sample_kpvkp(4000, u64::from(wdl.unsigned_abs())) {
            let Some(q) = toggled(&p) else { continue };
            let mat = Material::of(&p.board().material());
            let got = ours
                .run(|ctx| dtz_table(ctx, &p, &mat, wdl))
                .expect("flipped file");
            let want = theirs
                .run(|ctx| dtz_table(ctx, &q, &mat, wdl))
                .expect("original");
            let same_side = theirs
                .run(|ctx| dtz_table(ctx, &p, &mat, wdl))
                .expect("original");
            assert_eq!(got, want, "{:?}", p.board());
            compared += 1;
            differ += usize::from(want != same_side);
        }
    }
    println!("positions compared: {compared}, where the side to move changes the value: {differ}");
    assert!(compared > 4000 && differ > 300);
}

/// Random legal KPvKP positions without en passant rights.
fn sample_kpvkp(n: usize, seed: u64) -> Vec<shakmaty::Chess> {
    use shakmaty::{
        Board, CastlingMode, Chess, Color, FromSetup, Piece, Rank, Role, Setup, Square,
    };
    let pieces = [
        Piece {
            color: Color::White,
            role: Role::King,
        },
        Piece {
            color: Color::White,
            role: Role::Pawn,
        },
        Piece {
            color: Color::Black,
            role: Role::King,
        },
        Piece {
            color: Color::Black,
            role: Role::Pawn,
        },
    ];
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut out = Vec::new();
    while out.len() < n {
        let mut board = Board::empty();
        let mut ok = true;
        for p in pieces {
            let sq = Square::new((next() % 64) as u32);
            if board.piece_at(sq).is_some()
                || (p.role == Role::Pawn && matches!(sq.rank(), Rank::First | Rank::Eighth))
            {
                ok = false;
                break;
            }
            board.set_piece_at(sq, p);
        }
        if !ok {
            continue;
        }
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = if next() % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if let Ok(p) = Chess::from_setup(setup, CastlingMode::Standard) {
            out.push(p);
        }
    }
    out
}
