//! The browser face: the engine behind wasm-bindgen, with the asynchronous
//! driver (fetch with Range, IndexedDB, de-duplication, retries) in
//! `runtime.js`. Rust keeps decoding and search; JavaScript keeps the
//! browser APIs it has natively, which keeps the module small.
//!
//! Two modules come from here: the page's (`Tablebase`, `Core`) and, with
//! the `worker` feature, the generation worker's (`Generator` alone), so
//! that a page that only probes never downloads the generator.

mod values;

#[cfg(feature = "worker")]
mod generator;
#[cfg(not(feature = "worker"))]
mod js_files;
#[cfg(not(feature = "worker"))]
mod sync_core;
#[cfg(not(feature = "worker"))]
mod tablebase;
#[cfg(not(feature = "worker"))]
mod types;

#[cfg(feature = "worker")]
pub use generator::Generator;
#[cfg(not(feature = "worker"))]
pub use sync_core::Core;
#[cfg(not(feature = "worker"))]
pub use tablebase::Tablebase;
