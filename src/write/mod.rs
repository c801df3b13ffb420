//! From per-position values to table files: the stage between a source of
//! values (the generator, or a prober in tests) and the pure format writer
//! in `format::write`. It asks the source once per position, chooses piece
//! orders and, for DTZ, the side to move to store, marks the values the
//! prober never reads as don't-care, and hands per-index arrays to the
//! format writer.

mod choose;
pub mod dtz;
pub mod entries;
pub mod source;
mod table;

pub use dtz::Plies;
pub use entries::Entries;
pub use source::{pieces, Source, Values};
pub use table::{
    collect, collect_parallel, plies_of, write_by_file, write_dtz, write_files, write_tables,
    write_wdl, Options, WriteError, Written,
};

use crate::format::header::{Encoding, Geometry, PieceCode};
use crate::format::write::order::{candidates, Order};
use crate::material::Material;

/// The plainest order of a material: the reference index space.
pub(crate) fn plain_order(mat: &Material) -> Order {
    candidates(&mat.shape, 1).remove(0)
}

/// The order whose digits, most significant first, are the pawns and then
/// the other pieces as in `significance` (see [`Source::significance`]),
/// else the plainest.
pub(crate) fn reference_order(mat: &Material, significance: Option<&[PieceCode]>) -> Order {
    let geo = Geometry::of(&mat.shape);
    let is_pawn = |c: &PieceCode| c & 7 == 1;
    let fits = |e: &Encoding, want: &[PieceCode]| {
        let d = digits(e);
        let pawns = d.iter().filter(|c| is_pawn(c)).count();
        d[..pawns].iter().all(is_pawn) && d[pawns..] == *want
    };
    significance
        .map(|s| {
            s.iter()
                .copied()
                .filter(|c| !is_pawn(c))
                .collect::<Vec<_>>()
        })
        .and_then(|want| {
            candidates(&mat.shape, usize::MAX)
                .into_iter()
                .find(|o| o.encoding(0, geo).is_ok_and(|e| fits(&e, &want)))
        })
        .unwrap_or_else(|| plain_order(mat))
}

/// An encoding's piece codes from its most significant group to its least.
fn digits(enc: &Encoding) -> Vec<PieceCode> {
    let mut groups = Vec::new();
    let mut i = 0;
    while i < enc.pieces.len() {
        let n = usize::from(enc.norm[i]).max(1);
        groups.push((enc.factor[i], &enc.pieces[i..(i + n).min(enc.pieces.len())]));
        i += n;
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.0));
    groups
        .into_iter()
        .flat_map(|g| g.1.iter().copied())
        .collect()
}
