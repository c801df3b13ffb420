//! Which materials to generate, in which order: a material's captures and
//! promotions lead to materials with fewer pieces or fewer pawns, so
//! ordering by (pieces, pawns) puts every dependency first.

use std::collections::BTreeSet;

use shakmaty::{Color, Role};

use super::layout::{flip_key, key_index, name_of, parse_material, MaterialError};
use super::moves::PROMOTIONS;

/// The key with the table's first side as White.
pub fn normalize(key: [u8; 12]) -> [u8; 12] {
    if name_of(&key).1 {
        flip_key(&key)
    } else {
        key
    }
}

pub fn pieces(key: &[u8; 12]) -> u8 {
    key.iter().sum()
}

fn pawns(key: &[u8; 12]) -> u8 {
    key[key_index(Color::White, Role::Pawn)] + key[key_index(Color::Black, Role::Pawn)]
}

/// No table is needed: bare kings, or a lone minor piece.
pub fn trivial(key: &[u8; 12]) -> bool {
    let minors = [Color::White, Color::Black]
        .iter()
        .map(|&c| key[key_index(c, Role::Bishop)] + key[key_index(c, Role::Knight)])
        .sum::<u8>();
    pieces(key) == 2 || (pieces(key) == 3 && minors == 1)
}

/// Materials one capture and/or one promotion away.
pub fn children(key: &[u8; 12]) -> Vec<[u8; 12]> {
    children_to_move(key).into_iter().map(|c| c.0).collect()
}

/// [`children`] that have a table (trivially drawn ones have none).
pub fn tabled_children(key: &[u8; 12]) -> Vec<[u8; 12]> {
    children(key).into_iter().filter(|c| !trivial(c)).collect()
}

/// [`children`], each with the side to move that positions reach there,
/// in the child table's own colours (0 White, 1 Black): a sub-table is
/// only ever read on that side (KRPvKR reads its four 5-piece sub-tables,
/// half the memory of generating it, with Black to move only).
pub fn children_to_move(key: &[u8; 12]) -> Vec<([u8; 12], usize)> {
    children_by_move(key)
        .into_iter()
        .map(|(k, side, _)| (k, side))
        .collect()
}

/// Children reached by promotions only, never by a plain capture: only
/// positions with a pawn on its seventh rank read them, so a pawnful
/// material's generator can drop them once those slices are solved.
pub fn promotion_children(key: &[u8; 12]) -> Vec<[u8; 12]> {
    let all = children_by_move(key);
    let mut out: Vec<[u8; 12]> = all
        .iter()
        .filter(|&&(k, _, promotes)| promotes && !all.iter().any(|c| c.0 == k && !c.2))
        .map(|c| c.0)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Children with their side to move and whether a promotion reaches them.
fn children_by_move(key: &[u8; 12]) -> Vec<([u8; 12], usize, bool)> {
    let mut out = Vec::new();
    // `k` reached by a move of `mover`: the other side is to move there.
    let mut push = |k: [u8; 12], mover: Color, promotes: bool| {
        let flipped = name_of(&k).1;
        let turn = if flipped { mover } else { !mover };
        out.push((normalize(k), usize::from(turn == Color::Black), promotes));
    };
    for color in [Color::White, Color::Black] {
        // Captures of a non-king piece of `color` (by the other side).
        for victim in [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            let v = key_index(color, victim);
            if key[v] == 0 {
                continue;
            }
            let mut k = *key;
            k[v] -= 1;
            push(k, !color, false);
            // The capturing pawn promotes (taking a piece on the last
            // rank, where no pawn stands).
            let p = key_index(!color, Role::Pawn);
            if k[p] > 0 && victim != Role::Pawn {
                for role in PROMOTIONS {
                    let mut kp = k;
                    kp[p] -= 1;
                    kp[key_index(!color, role)] += 1;
                    push(kp, !color, true);
                }
            }
        }
        // Quiet promotions of `color`'s pawns.
        let p = key_index(color, Role::Pawn);
        if key[p] > 0 {
            for role in PROMOTIONS {
                let mut kp = *key;
                kp[p] -= 1;
                kp[key_index(color, role)] += 1;
                push(kp, color, true);
            }
        }
    }
    out
}

/// Every non-trivial material that `targets` depend on, targets included,
/// in an order where dependencies come first; `have` skips materials that
/// are already available (their own dependencies too, unless needed
/// elsewhere).
pub fn order(targets: &[[u8; 12]], have: impl Fn(&[u8; 12]) -> bool) -> Vec<[u8; 12]> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<[u8; 12]> = targets.iter().map(|&k| normalize(k)).collect();
    while let Some(k) = stack.pop() {
        if trivial(&k) && !targets.iter().any(|t| normalize(*t) == k) {
            continue;
        }
        if !seen.insert(k) {
            continue;
        }
        let is_target = targets.iter().any(|t| normalize(*t) == k);
        if !is_target && have(&k) {
            seen.remove(&k);
            continue;
        }
        stack.extend(children(&k));
    }
    let mut list: Vec<[u8; 12]> = seen.into_iter().collect();
    list.sort_by_key(|k| (pieces(k), pawns(k), name_of(k).0));
    list
}

/// Every material of 3 to `max` pieces (kings included), as the official
/// sets list them.
pub fn all_up_to(max: usize) -> Vec<[u8; 12]> {
    fn multisets(n: usize, roles: &str) -> Vec<String> {
        if n == 0 {
            return vec![String::new()];
        }
        let mut v = Vec::new();
        for (i, r) in roles.char_indices() {
            for rest in multisets(n - 1, &roles[i..]) {
                v.push(format!("{r}{rest}"));
            }
        }
        v
    }
    let mut out = BTreeSet::new();
    for total in 3..=max.min(super::layout::MAX_PIECES) {
        let others = total - 2;
        for a in 0..=others {
            for x in multisets(a, "QRBNP") {
                for y in multisets(others - a, "QRBNP") {
                    if let Ok(k) = parse_material(&format!("K{x}vK{y}")) {
                        out.insert(k);
                    }
                }
            }
        }
    }
    let mut v: Vec<_> = out.into_iter().collect();
    v.sort_by_key(|k| (pieces(k), pawns(k), name_of(k).0));
    v
}

/// Parses a list of material names.
pub fn parse_all(names: &[String]) -> Result<Vec<[u8; 12]>, MaterialError> {
    names.iter().map(|n| parse_material(n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_move(parent: &str, child: &str) -> Vec<usize> {
        let key = parse_material(parent).expect("material");
        let want = parse_material(child).expect("material");
        let mut sides: Vec<usize> = children_to_move(&key)
            .into_iter()
            .filter(|c| c.0 == want)
            .map(|c| c.1)
            .collect();
        sides.sort_unstable();
        sides.dedup();
        sides
    }

    #[test]
    fn sub_tables_are_read_on_the_side_the_move_leaves_to_move() {
        // White promotes: Black (the table's second side) is to move.
        assert_eq!(to_move("KRPvKR", "KQRvKR"), [1]);
        // Black captures the pawn: White to move.
        assert_eq!(to_move("KRPvKR", "KRvKR"), [0]);
        // Black's pawn promotes to a queen: KQvKR with the rook side, the
        // table's Black, to move.
        assert_eq!(to_move("KRvKP", "KQvKR"), [1]);
        // Black's king takes the rook: White to move.
        assert_eq!(to_move("KRPvK", "KPvK"), [0]);
        // Black's pawn takes the rook: KPvKP with White to move; White's
        // pieces take Black's pawn: KRPvK with Black to move.
        assert_eq!(to_move("KRPvKP", "KPvKP"), [0]);
        assert_eq!(to_move("KRPvKP", "KRPvK"), [1]);
    }

    #[test]
    fn promotion_children_are_those_no_plain_capture_reaches() {
        let names = |parent: &str| -> Vec<String> {
            let key = parse_material(parent).expect("material");
            let mut v: Vec<String> = promotion_children(&key)
                .iter()
                .map(|k| name_of(k).0)
                .collect();
            v.sort();
            v
        };
        // KRPvKR: four quiet promotions, and the pawn taking the rook
        // while promoting; its captures (KRPvK, KRvKP, KRvKR) are not here.
        let mut want = vec![
            "KQRvKR", "KRRvKR", "KRBvKR", "KRNvKR", "KQRvK", "KRRvK", "KRBvK", "KRNvK",
        ];
        want.sort();
        assert_eq!(names("KRPvKR"), want);
        // No pawn, no promotion.
        assert!(names("KQvKR").is_empty());
        // A pawn never stands on the last rank, so none is taken by a
        // promoting pawn: KPvKP's promotions leave the other pawn.
        let mut want = vec!["KQvKP", "KRvKP", "KBvKP", "KNvKP"];
        want.sort();
        assert_eq!(names("KPvKP"), want);
        // Every material up to five pieces: the two kinds together are all
        // children, and no child is both.
        for key in all_up_to(5) {
            let promoted = promotion_children(&key);
            let captured: Vec<_> = children_by_move(&key)
                .into_iter()
                .filter(|c| !c.2)
                .map(|c| c.0)
                .collect();
            assert!(promoted.iter().all(|k| !captured.contains(k)));
            for k in children(&key) {
                assert!(promoted.contains(&k) || captured.contains(&k));
            }
        }
    }
}
