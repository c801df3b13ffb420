//! Move lists spell SAN and the facts after each move from one legal-move
//! generation per child; shakmaty's own SanPlus and is_checkmate /
//! is_stalemate (which generate moves again) must agree on every move.

mod common;

use common::*;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Position};

#[test]
fn san_and_facts_of_every_move_equal_shakmaty() {
    let mut t = ours();
    let mut moves = 0;
    let mut marked = 0;
    for name in [
        "KQvK", "KRvK", "KBNvK", "KPvKP", "KQvKR", "KQPvKQ", "KRPvKR", "KQQvKQ", "KBBBvK",
    ] {
        for p in sample(name, 40, 77) {
            let a = t.analyse(&p).expect("answer");
            for m in p.legal_moves() {
                let uci = m.to_uci(CastlingMode::Standard).to_string();
                let info = a
                    .moves
                    .iter()
                    .find(|i| i.uci == uci)
                    .expect("every legal move listed");
                let want = SanPlus::from_move(p.clone(), m).to_string();
                assert_eq!(info.san, want, "{} {uci}", fen(&p));
                let mut child = p.clone();
                child.play_unchecked(m);
                assert_eq!(
                    info.facts.checkmate,
                    child.is_checkmate(),
                    "{} {uci}",
                    fen(&p)
                );
                assert_eq!(
                    info.facts.stalemate,
                    child.is_stalemate(),
                    "{} {uci}",
                    fen(&p)
                );
                moves += 1;
                marked += usize::from(want.ends_with('+') || want.ends_with('#'));
            }
        }
    }
    println!("{moves} moves, {marked} with + or #");
    assert!(marked > 100, "the sample must hold checks: {marked}");
}
