//! Everything a probe can answer instead of a result.

use std::fmt;

/// Why a position could not be answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeError {
    /// Internal to the core: pages are missing and have been named in the
    /// attempt's wants. Drivers never return this to users.
    Missing,
    /// The text is not a FEN.
    InvalidFen(String),
    /// The FEN parses but describes no legal position.
    IllegalPosition(String),
    /// Syzygy tables assume no castling rights.
    Castling,
    /// More pieces than the tables in use cover: the position's count and
    /// the most those tables hold (7 for Syzygy files, 4 generated here).
    TooManyPieces { pieces: usize, limit: usize },
    /// A table needed for the answer is not available (its file name).
    MissingTable(String),
    /// A table's bytes break the format (its file name and the structure).
    CorruptTable(String, String),
    /// A table could not be fetched (its file name and what went wrong).
    Network(String, String),
    /// A table on local disk could not be read (its file name and the
    /// system's reason): a permission or a failing disk, not the network.
    Unreadable(String, String),
}

impl ProbeError {
    /// A short stable code for programs (the JS API exposes it as `code`).
    pub fn code(&self) -> &'static str {
        match self {
            ProbeError::Missing => "missing-pages",
            ProbeError::InvalidFen(_) => "invalid-fen",
            ProbeError::IllegalPosition(_) => "illegal-position",
            ProbeError::Castling => "castling",
            ProbeError::TooManyPieces { .. } => "too-many-pieces",
            ProbeError::MissingTable(_) => "missing-table",
            ProbeError::CorruptTable(..) => "corrupt-table",
            ProbeError::Network(..) => "network",
            ProbeError::Unreadable(..) => "unreadable",
        }
    }

    /// A DTZ table is missing: the WDL tables may still say who wins.
    pub fn is_dtz_table(&self) -> bool {
        matches!(self, ProbeError::MissingTable(name) if name.contains(".rtbz"))
    }
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Missing => write!(f, "table pages are still being fetched"),
            ProbeError::InvalidFen(why) => write!(f, "invalid FEN: {why}"),
            ProbeError::IllegalPosition(why) => write!(f, "illegal position: {why}"),
            ProbeError::Castling => write!(
                f,
                "positions with castling rights are not in the tablebases"
            ),
            ProbeError::TooManyPieces { pieces, limit } => {
                write!(
                    f,
                    "too many pieces: {pieces} (tables cover at most {limit})"
                )
            }
            ProbeError::MissingTable(name) => write!(f, "missing table: {name}"),
            ProbeError::CorruptTable(name, what) => write!(f, "corrupt table {name}: {what}"),
            ProbeError::Network(name, what) => write!(f, "could not fetch {name}: {what}"),
            ProbeError::Unreadable(name, what) => write!(f, "could not read {name}: {what}"),
        }
    }
}

impl std::error::Error for ProbeError {}
