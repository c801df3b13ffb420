//! From per-position values to table files: the stage between a source of
//! values (the generator, or a prober in tests) and the pure format writer
//! in `format::write`. It asks the source once per position, chooses piece
//! orders and, for DTZ, the side to move to store, marks the values the
//! prober never reads as don't-care, and hands per-index arrays to the
//! format writer.

mod choose;
mod dtz;
pub mod entries;
mod par;
pub mod source;
mod table;

pub use entries::Entries;
pub use source::{pieces, Source, Values};
pub use table::{
    collect, collect_parallel, write_dtz, write_files, write_tables, write_wdl, Options,
    WriteError, Written,
};

use crate::format::write::order::{candidates, Order};
use crate::material::Material;

/// The plainest order of a material: the reference index space.
pub(crate) fn plain_order(mat: &Material) -> Order {
    candidates(&mat.shape, 1).remove(0)
}
