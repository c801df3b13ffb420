//! The page store: the decoder's only view of table bytes. Pages are
//! fixed-size aligned pieces of a file; what a probe finds absent it names in
//! [`Wants`] so that a driver can fetch a whole batch at once.

mod hash;
mod marks;
mod pages;
mod wants;

pub use hash::FastMap;

pub use marks::Marks;
pub use pages::{PageStore, StoreStats};
pub use wants::{Fetch, Maybe, Wants};

/// A table file known to the engine, numbered in order of first use.
pub type FileId = u32;
