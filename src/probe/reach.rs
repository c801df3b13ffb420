//! Moves and materials of a position, without tables.

use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Position};

use crate::material::Material;

/// Legal moves as (UCI, SAN), in generation order.
pub fn legal_moves(pos: &Chess) -> Vec<(String, String)> {
    pos.legal_moves()
        .iter()
        .map(|m| {
            (
                m.to_uci(CastlingMode::Standard).to_string(),
                SanPlus::from_move(pos.clone(), *m).to_string(),
            )
        })
        .collect()
}

/// The position's material and every material captures and promotions can
/// reach from it (bare kings excluded): the tables a full answer may touch.
pub fn reachable_materials(pos: &Chess) -> Vec<Material> {
    let mut seen: Vec<Material> = Vec::new();
    let mut todo = vec![pos.board().material()];
    while let Some(m) = todo.pop() {
        let mat = Material::of(&m);
        if mat.bare_kings() || seen.iter().any(|s| s.name == mat.name) {
            continue;
        }
        // Each capturable piece removed, each pawn promoted to each piece.
        for color in shakmaty::Color::ALL {
            for role in [
                shakmaty::Role::Queen,
                shakmaty::Role::Rook,
                shakmaty::Role::Bishop,
                shakmaty::Role::Knight,
                shakmaty::Role::Pawn,
            ] {
                if *m.get(color).get(role) > 0 {
                    let mut c = m;
                    *c.get_mut(color).get_mut(role) -= 1;
                    todo.push(c);
                    if role == shakmaty::Role::Pawn {
                        for promo in [
                            shakmaty::Role::Queen,
                            shakmaty::Role::Rook,
                            shakmaty::Role::Bishop,
                            shakmaty::Role::Knight,
                        ] {
                            let mut p = m;
                            *p.get_mut(color).get_mut(shakmaty::Role::Pawn) -= 1;
                            *p.get_mut(color).get_mut(promo) += 1;
                            todo.push(p);
                        }
                    }
                }
            }
        }
        seen.push(mat);
    }
    seen
}
