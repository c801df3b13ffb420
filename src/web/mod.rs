//! The browser face: the engine behind wasm-bindgen, with the asynchronous
//! driver (fetch with Range, IndexedDB, de-duplication, retries) in
//! `runtime.js`. Rust keeps decoding and search; JavaScript keeps the
//! browser APIs it has natively, which keeps the module small.
//!
//! Two modules come from here: the page's (the `page` feature: `Tablebase`,
//! `Core`) and the generation worker's (the `worker` feature: `Generator`),
//! so that the page's module leaves the generator out.

#[cfg(any(feature = "page", feature = "worker"))]
mod values;

#[cfg(feature = "worker")]
mod generator;
#[cfg(feature = "page")]
mod js_files;
#[cfg(feature = "page")]
mod sync_core;
#[cfg(feature = "page")]
mod tablebase;
#[cfg(feature = "page")]
mod types;

#[cfg(feature = "worker")]
pub use generator::Generator;
#[cfg(feature = "page")]
pub use sync_core::Core;
#[cfg(feature = "page")]
pub use tablebase::Tablebase;
