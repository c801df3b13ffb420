//! syzygy-web: Syzygy endgame tablebases probed through a page store, so
//! that the same synchronous core answers from local files, over HTTP Range
//! requests, or inside a browser.
//!
//! Pipeline, one folder per stage: [`format`](mod@format) (bytes to values),
//! [`store`] (pages and what is missing), [`engine`] (tables and attempts),
//! [`probe`] (search and ranking), [`drivers`] (where bytes come from).
//! Writing goes the other way: [`write`](mod@write) turns per-position values into
//! per-index arrays, which [`format::write`] turns into table files.
#![forbid(unsafe_code)]

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod drivers;
pub mod engine;
pub mod error;
pub mod format;
pub mod generate;
#[cfg(not(target_arch = "wasm32"))]
pub mod generate_cli;
#[cfg(not(target_arch = "wasm32"))]
pub mod generate_write;
pub mod material;
pub mod par;
pub mod probe;
pub mod report;
pub mod small_sort;
pub mod store;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod write;

pub use engine::{Config, Engine};
pub use error::ProbeError;
