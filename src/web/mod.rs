//! The browser face: the engine behind wasm-bindgen, with the asynchronous
//! driver (fetch with Range, IndexedDB, de-duplication, retries) in
//! `runtime.js`. Rust keeps decoding and search; JavaScript keeps the
//! browser APIs it has natively, which keeps the module small.

mod generator;
mod js_files;
mod sync_core;
mod tablebase;
mod types;

pub use generator::Generator;
pub use sync_core::Core;
pub use tablebase::Tablebase;
