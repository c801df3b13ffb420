//! Writing the Syzygy format: the inverse of the reader, built on its
//! constants, index encoding and header layout. Pure: arrays of values per
//! index in, file bytes out.

pub mod blocks;
pub mod dontcare;
pub mod file;
pub mod huffman;
pub mod order;
pub mod pairs;
pub mod subtable;
