//! Index to position is the inverse of position to index: for every index
//! of every 3-4 piece material (pawnless and pawnful, every leading file),
//! and for seeded samples of 5-7 piece layouts in every order the writer
//! may choose, decoding then encoding gives the index back. A cursor (which
//! decodes only the groups that changed) agrees with a fresh decoding.

mod common;

use syzygy_web::format::encode::encode;
use syzygy_web::format::header::{Encoding, Geometry};
use syzygy_web::format::squares::{squares, Cursor};
use syzygy_web::format::write::order::candidates;
use syzygy_web::material::Material;

/// Every material with `n` pieces (names normalised, deduplicated).
fn materials(n: usize) -> Vec<Material> {
    const ROLES: [char; 5] = ['Q', 'R', 'B', 'N', 'P'];
    let mut names: Vec<String> = Vec::new();
    let extra = n - 2;
    // Multisets of `extra` pieces, each coloured white or black.
    let mut stack: Vec<(Vec<(char, bool)>, usize)> = vec![(Vec::new(), 0)];
    while let Some((pieces, from)) = stack.pop() {
        if pieces.len() == extra {
            let mut w = String::from("K");
            let mut b = String::from("K");
            for &(c, white) in &pieces {
                if white {
                    w.push(c)
                } else {
                    b.push(c)
                }
            }
            if let Some(m) = Material::from_name(&format!("{w}v{b}")) {
                if !names.contains(&m.name) {
                    names.push(m.name);
                }
            }
            continue;
        }
        for i in from..ROLES.len() * 2 {
            let mut p = pieces.clone();
            p.push((ROLES[i / 2], i % 2 == 0));
            stack.push((p, i));
        }
    }
    names.sort();
    names
        .iter()
        .filter_map(|n| Material::from_name(n))
        .collect()
}

fn round_trip(enc: &Encoding, geo: Geometry, index: u64) {
    let mut sq = vec![0usize; enc.pieces.len()];
    squares(index, enc, geo, &mut sq).expect("index in range");
    let mut seen = 0u64;
    for &s in &sq {
        assert!(s < 64 && seen & (1 << s) == 0, "squares {sq:?} of {index}");
        seen |= 1 << s;
    }
    let decoded = sq.clone();
    assert_eq!(encode(&mut sq, enc, geo), index, "squares {decoded:?}");
}

fn files(geo: Geometry) -> usize {
    if geo.pawnful {
        4
    } else {
        1
    }
}

#[test]
fn every_index_of_every_3_and_4_piece_table() {
    let mut tables = 0;
    let mut indices = 0u64;
    for n in [3, 4] {
        for mat in materials(n) {
            tables += 1;
            let geo = Geometry::of(&mat.shape);
            let orders = candidates(&mat.shape, usize::MAX);
            for file in 0..files(geo) {
                // The plainest order exhaustively, the others on a stride.
                for (k, order) in orders.iter().enumerate() {
                    let enc = order.encoding(file, geo).expect("valid order");
                    let step = if k == 0 { 1 } else { 997 + k as u64 };
                    let mut i = 0;
                    while i < enc.positions {
                        round_trip(&enc, geo, i);
                        indices += 1;
                        i += step;
                    }
                }
            }
        }
    }
    assert_eq!(tables, 35);
    eprintln!("{tables} materials, {indices} indices round-tripped");
}

#[test]
fn sampled_indices_of_5_to_7_piece_layouts() {
    let mut rng = common::Rng::new(7);
    for name in [
        "KQRvKR", "KRPvKR", "KPPvKP", "KQQQvK", "KBBBvK", "KRRvKR", "KPPPvK", "KQRBvKR", "KRPPvKP",
        "KPPvKPP", "KQQvKQQ", "KRRRRvK", "KQRBNvKQ", "KRPPvKRP", "KPPPvKPP", "KBNNvKBN",
    ] {
        let mat = Material::from_name(name).expect("material");
        let geo = Geometry::of(&mat.shape);
        for order in candidates(&mat.shape, 200) {
            for file in 0..files(geo) {
                let enc = order.encoding(file, geo).expect("valid order");
                for _ in 0..50 {
                    round_trip(&enc, geo, rng.below(enc.positions));
                }
                round_trip(&enc, geo, 0);
                round_trip(&enc, geo, enc.positions - 1);
            }
        }
    }
}

#[test]
fn a_cursor_agrees_with_fresh_decoding() {
    let mut rng = common::Rng::new(11);
    let mut compared = 0u64;
    for name in [
        "KQvK", "KPvK", "KQvKR", "KRPvK", "KPvKP", "KPPvK", "KBBvK", "KQRvKR", "KRPvKR", "KPPvKP",
        "KQQQvK", "KPPPvK", "KRRRRvK", "KQRBvKR", "KPPvKPP", "KBNNvKBN",
    ] {
        let mat = Material::from_name(name).expect("material");
        let geo = Geometry::of(&mat.shape);
        for order in candidates(&mat.shape, 12) {
            for file in 0..files(geo) {
                let enc = order.encoding(file, geo).expect("valid order");
                let n = enc.pieces.len();
                let (mut walked, mut fresh) = (vec![0usize; n], vec![0usize; n]);
                let mut cursor = Cursor::default();
                // Runs of consecutive indices from random starts (the
                // writer's samples), and single jumps between them.
                for _ in 0..20 {
                    let start = rng.below(enc.positions);
                    for i in start..(start + 300).min(enc.positions) {
                        cursor.squares(i, &enc, geo, &mut walked).expect("in range");
                        squares(i, &enc, geo, &mut fresh).expect("in range");
                        assert_eq!(walked, fresh, "{name} file {file} index {i}");
                        compared += 1;
                    }
                }
                assert!(cursor
                    .squares(enc.positions, &enc, geo, &mut walked)
                    .is_err());
                cursor.squares(0, &enc, geo, &mut walked).expect("in range");
                squares(0, &enc, geo, &mut fresh).expect("in range");
                assert_eq!(walked, fresh, "{name} file {file} after an error");
            }
        }
    }
    eprintln!("{compared} indices decoded by a cursor and afresh");
}
