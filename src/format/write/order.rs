//! Piece orders a subtable may be written in. The order decides which
//! pieces lead the encoding and which group varies fastest in the index,
//! and so how long the runs of equal values are: the writer tries several
//! and keeps the one that compresses best, as the official generator does.

use crate::format::header::{self, Encoding, Geometry, PieceCode, Shape};
use crate::format::FormatError;

/// A piece order and the steps of the leading group and of the second
/// pawn group in the mixed-radix index (0x0f: no second pawn group).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Order {
    pub pieces: Vec<PieceCode>,
    pub order: u8,
    pub order2: u8,
}

impl Order {
    pub fn encoding(&self, file: usize, geo: Geometry) -> Result<Encoding, FormatError> {
        header::encoding(self.pieces.clone(), self.order, self.order2, file, geo)
    }
}

/// Groups of identical pieces, strongest first: (code, count).
fn groups(shape: &Shape) -> Vec<(PieceCode, u8)> {
    let mut out = Vec::new();
    for base in [0u8, 8] {
        for role in (1..=6u8).rev() {
            let code = base + role;
            let n = shape.counts[usize::from(code)];
            if n > 0 {
                out.push((code, n));
            }
        }
    }
    out
}

/// Leading pieces, the second pawn group, the other groups.
type Lead = (Vec<PieceCode>, Vec<PieceCode>, Vec<(PieceCode, u8)>);

/// Every permutation of `items`, in lexicographic order of positions.
fn permutations<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first.clone());
            out.push(p);
        }
    }
    out
}

/// Every valid order of a material, the plainest first (leading pieces in
/// strength order, other groups strongest first, leading group at step 0).
/// At most `limit` are returned.
pub fn candidates(shape: &Shape, limit: usize) -> Vec<Order> {
    let geo = Geometry::of(shape);
    let all = groups(shape);
    let mut out = Vec::new();
    let mut leads: Vec<Lead> = Vec::new();
    if geo.pawnful {
        let (w, b) = shape.pawns();
        let lead_code = if b > 0 && (w == 0 || w > b) { 9 } else { 1 };
        let other_code = lead_code ^ 8;
        let lead = vec![lead_code; usize::from(geo.lead_pawns)];
        let second = vec![other_code; usize::from(geo.other_pawns)];
        let rest = all.iter().copied().filter(|&(c, _)| c & 7 != 1).collect();
        leads.push((lead, second, rest));
    } else {
        let unique: Vec<PieceCode> = all.iter().filter(|g| g.1 == 1).map(|g| g.0).collect();
        let lead_len = geo.lead();
        for p in permutations(&unique) {
            let lead = p[..lead_len].to_vec();
            if leads.iter().any(|l| l.0 == lead) {
                continue;
            }
            let rest = all
                .iter()
                .copied()
                .filter(|g| !lead.contains(&g.0))
                .collect();
            leads.push((lead, Vec::new(), rest));
        }
    }
    for (lead, second, rest) in leads {
        let steps = 1 + usize::from(!second.is_empty()) + rest.len();
        for perm in permutations(&rest) {
            let mut pieces = lead.clone();
            pieces.extend(&second);
            for &(code, n) in &perm {
                pieces.extend(std::iter::repeat_n(code, usize::from(n)));
            }
            for order in 0..steps {
                let seconds: Vec<u8> = if second.is_empty() {
                    vec![0x0f]
                } else {
                    (0..steps)
                        .filter(|&s| s != order)
                        .map(|s| s as u8)
                        .collect()
                };
                for order2 in seconds {
                    out.push(Order {
                        pieces: pieces.clone(),
                        order: order as u8,
                        order2,
                    });
                }
            }
        }
    }
    spread(out, limit)
}

/// At most `limit` of `all`, evenly spaced so that every leading group
/// keeps some (the first, the plainest, always stays).
fn spread(all: Vec<Order>, limit: usize) -> Vec<Order> {
    if all.len() <= limit {
        return all;
    }
    (0..limit)
        .map(|k| all[k * all.len() / limit].clone())
        .collect()
}
