//! syzygy-web: Syzygy tablebases probed through a page store.
#![forbid(unsafe_code)]
