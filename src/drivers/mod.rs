//! Where table bytes come from. A driver runs probe attempts against the
//! engine and answers each batch of missing pages with one round of
//! parallel fetches: local files, HTTP Range requests, a simulated network
//! for tests, or (in the browser) `fetch` and IndexedDB.

#[cfg(not(target_arch = "wasm32"))]
mod disk_cache;
mod fs;
#[cfg(not(target_arch = "wasm32"))]
pub mod http;
mod run;
mod sim;

#[cfg(not(target_arch = "wasm32"))]
pub use disk_cache::DiskCache;
pub use fs::FsFetcher;
pub use run::{Fetcher, NetStats, Request, Response, Tablebase};
pub use sim::{SimFetcher, SimLog, BROWSER_CONNECTIONS};
