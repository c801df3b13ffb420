//! The search around the tables: captures and en passant resolve through
//! child positions, DTZ for the unstored side through a 1-ply search, root
//! analysis ranks every legal move and the mainline follows the best one.
//! Every function keeps exploring independent branches after a missing page so that one attempt names as
//! many missing pages as can be known at that point.

mod category;
pub mod generated;
mod lone_king;
mod mainline;
mod position;
mod reach;
mod root;
mod search;
mod wdl_only;

pub use category::Category;
pub use mainline::{mainline_step, LineStep, Mainline, MainlineStep};
pub use position::{parse_fen, parse_position, PositionFacts};
pub use reach::{legal_moves, reachable_materials};
pub use root::{analyse, outcome, verdict, Analysis, MoveInfo, Outcome};
pub use search::{child_dtz, probe_dtz, probe_wdl, Dtz};
pub use wdl_only::{wdl_analysis, MoveOutcome, WdlAnalysis};
