//! The Syzygy file format: header layout, position encoding and block
//! decoding. Everything here is pure: bytes in, numbers out.

pub mod consts;
mod cursor;
pub mod decode;
pub mod encode;
pub mod header;
pub mod pairs;
pub mod squares;
pub mod write;

use std::fmt;

/// What can go wrong while reading table bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// The header continues past the bytes supplied: supply this many.
    NeedMore(u64),
    /// The bytes break the format; the message names the structure.
    Corrupt(&'static str),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::NeedMore(n) => write!(f, "header needs {n} bytes"),
            FormatError::Corrupt(what) => write!(f, "corrupt table: {what}"),
        }
    }
}

/// WDL or DTZ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Wdl,
    Dtz,
}

impl Kind {
    pub fn extension(self) -> &'static str {
        match self {
            Kind::Wdl => "rtbw",
            Kind::Dtz => "rtbz",
        }
    }

    pub fn magic(self) -> [u8; 4] {
        match self {
            Kind::Wdl => [0x71, 0xe8, 0x23, 0x5d],
            Kind::Dtz => [0xd7, 0x66, 0x0c, 0xa5],
        }
    }
}
