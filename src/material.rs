//! Material signatures and the table names the Syzygy generator gives them.

use shakmaty::{ByColor, ByRole, Color, Role};

use crate::format::header::Shape;

/// The material of a position, normalised so that the side the table file
/// lists first is `strong`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Material {
    /// Table name without extension, e.g. `KRPvKR`.
    pub name: String,
    /// The position's white pieces are the table's second side.
    pub white_is_weak: bool,
    pub symmetric: bool,
    pub pieces: usize,
    pub shape: Shape,
}

const ORDER: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

fn push_side(s: &mut String, m: &ByRole<u8>) {
    for role in ORDER {
        for _ in 0..*m.get(role) {
            s.push(role.upper_char());
        }
    }
}

/// `strong` v `weak`, e.g. `KRPvKR`, in a single allocation: this runs for
/// every table lookup of every probe.
fn table_name(strong: &ByRole<u8>, weak: &ByRole<u8>, pieces: usize) -> String {
    let mut s = String::with_capacity(pieces + 1);
    push_side(&mut s, strong);
    s.push('v');
    push_side(&mut s, weak);
    s
}

/// Sort key of a side: more pieces first, then more of the stronger kinds.
fn strength(m: &ByRole<u8>) -> [u8; 6] {
    let total: u8 = ORDER.iter().map(|r| *m.get(*r)).sum();
    [
        total,
        *m.get(Role::Queen),
        *m.get(Role::Rook),
        *m.get(Role::Bishop),
        *m.get(Role::Knight),
        *m.get(Role::Pawn),
    ]
}

impl Material {
    pub fn of(m: &ByColor<ByRole<u8>>) -> Material {
        let (w, b) = (m.get(Color::White), m.get(Color::Black));
        let white_is_weak = strength(w) < strength(b);
        let (strong, weak) = if white_is_weak { (b, w) } else { (w, b) };
        let mut counts = [0u8; 16];
        for role in ORDER {
            counts[role as usize] = *strong.get(role);
            counts[role as usize + 8] = *weak.get(role);
        }
        let pieces = counts.iter().map(|&c| usize::from(c)).sum();
        Material {
            name: table_name(strong, weak, pieces),
            white_is_weak,
            symmetric: strength(w) == strength(b),
            pieces,
            shape: Shape { pieces, counts },
        }
    }

    /// Only the two kings: a draw no table stores.
    pub fn bare_kings(&self) -> bool {
        self.pieces == 2
    }
}

impl Material {
    /// The material of a table name such as `KRPvKR` (either side first;
    /// the result names the strong side first). `None` for anything that is
    /// not two sides of piece letters with one king each.
    pub fn from_name(name: &str) -> Option<Material> {
        let (w, b) = name.split_once('v')?;
        let mut m: ByColor<ByRole<u8>> = ByColor::default();
        for (side, color) in [(w, Color::White), (b, Color::Black)] {
            let counts = m.get_mut(color);
            for c in side.chars() {
                let role = Role::from_char(c.to_ascii_lowercase())?;
                *counts.get_mut(role) += 1;
            }
            if *counts.get(Role::King) != 1 {
                return None;
            }
        }
        let mat = Material::of(&m);
        (mat.pieces <= crate::format::consts::MAX_PIECES).then_some(mat)
    }
}
