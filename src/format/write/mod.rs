//! Writing the Syzygy format: the inverse of the reader, built on its
//! constants, index encoding and header layout.

pub mod order;
