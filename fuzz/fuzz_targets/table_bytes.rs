//! Mutated table bytes. Input: one selector byte, then bytes that replace
//! the start of a real table file.
//!
//! Selector: bits 0-3 pick the table (see `TABLES`); bits 4-6 the page size
//! of the full probes (512 B .. 64 KiB); bit 7 set means the file is exactly
//! the input (truncated or extended), clear means the input is laid over the
//! real file, which keeps its size.
//!
//! Checks: the header parser on a prefix and on the whole file, block
//! decoding at indices derived from the input through an in-memory source,
//! and full probes (the engine and the driver loop, the mutated file served
//! in place of the real one, every other table real) on fixed positions.
//! Any outcome is fine except a panic, a hang or unbounded memory.
#![no_main]

use std::borrow::Cow;
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use shakmaty::Position;
use syzygy_web::drivers::Tablebase;
use syzygy_web::format::decode::{self, Source};
use syzygy_web::format::{header, FormatError, Kind};
use syzygy_web::material::Material;
use syzygy_web::probe::parse_fen;
use syzygy_web::Config;
use syzygy_web_fuzz::{hash, real_file, MemFetcher, Rng};

/// Table, kind, and two positions of its material (both sides to move).
const TABLES: [(&str, Kind, [&str; 2]); 16] = [
    (
        "KRvK",
        Kind::Wdl,
        [
            "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
            "8/8/8/4k3/8/8/8/R3K3 b - - 0 1",
        ],
    ),
    (
        "KRvK",
        Kind::Dtz,
        [
            "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
            "8/8/8/4k3/8/8/8/R3K3 b - - 0 1",
        ],
    ),
    (
        "KQvK",
        Kind::Dtz,
        [
            "8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1",
            "8/8/8/4k3/8/8/8/1Q2K3 b - - 0 1",
        ],
    ),
    (
        "KBBvK",
        Kind::Wdl,
        [
            "8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1",
            "8/8/8/4k3/8/8/8/2B1KB2 b - - 0 1",
        ],
    ),
    (
        "KBNvK",
        Kind::Wdl,
        [
            "8/8/8/4k3/8/8/8/1NB1K3 w - - 0 1",
            "8/8/8/4k3/8/8/8/1NB1K3 b - - 0 1",
        ],
    ),
    (
        "KPvK",
        Kind::Wdl,
        [
            "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
            "8/8/8/4k3/8/8/4P3/4K3 b - - 0 1",
        ],
    ),
    (
        "KPvK",
        Kind::Dtz,
        [
            "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
            "8/8/8/4k3/8/8/4P3/4K3 b - - 0 1",
        ],
    ),
    (
        "KPvKP",
        Kind::Dtz,
        [
            "8/3p4/8/4k3/8/8/4P3/4K3 w - - 0 1",
            "8/3p4/8/4k3/8/8/4P3/4K3 b - - 0 1",
        ],
    ),
    (
        "KPPvK",
        Kind::Wdl,
        [
            "8/8/8/4k3/8/8/3PP3/4K3 w - - 0 1",
            "8/8/8/4k3/8/8/3PP3/4K3 b - - 0 1",
        ],
    ),
    (
        "KPPvK",
        Kind::Dtz,
        [
            "8/8/8/4k3/8/8/3PP3/4K3 w - - 0 1",
            "8/8/8/4k3/8/8/3PP3/4K3 b - - 0 1",
        ],
    ),
    (
        "KQvKR",
        Kind::Wdl,
        [
            "7r/8/8/4k3/8/8/8/1Q2K3 w - - 0 1",
            "7r/8/8/4k3/8/8/8/1Q2K3 b - - 0 1",
        ],
    ),
    (
        "KRvKR",
        Kind::Wdl,
        [
            "7r/8/8/4k3/8/8/8/R3K3 w - - 0 1",
            "7r/8/8/4k3/8/8/8/R3K3 b - - 0 1",
        ],
    ),
    (
        "KQvKQ",
        Kind::Dtz,
        [
            "7q/8/8/4k3/8/8/8/1Q2K3 w - - 0 1",
            "7q/8/8/4k3/8/8/8/1Q2K3 b - - 0 1",
        ],
    ),
    (
        "KNvKP",
        Kind::Dtz,
        [
            "8/8/8/4k3/3p4/8/8/1N2K3 w - - 0 1",
            "8/8/8/4k3/3p4/8/8/1N2K3 b - - 0 1",
        ],
    ),
    (
        "KRPvK",
        Kind::Dtz,
        [
            "8/8/8/4k3/8/8/4P3/R3K3 w - - 0 1",
            "8/8/8/4k3/8/8/4P3/R3K3 b - - 0 1",
        ],
    ),
    (
        "KBvKP",
        Kind::Dtz,
        [
            "8/8/8/4k3/3p4/8/8/2B1K3 w - - 0 1",
            "8/8/8/4k3/3p4/8/8/2B1K3 b - - 0 1",
        ],
    ),
];

/// A whole file in memory; reads past its end are errors.
struct Mem<'a>(&'a [u8]);

impl Source for Mem<'_> {
    type Error = FormatError;
    fn read(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, FormatError> {
        let end = offset.checked_add(len as u64);
        let slice = end.and_then(|e| {
            self.0
                .get(usize::try_from(offset).ok()?..usize::try_from(e).ok()?)
        });
        slice
            .map(Cow::Borrowed)
            .ok_or(FormatError::Corrupt("read past the end"))
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, body)) = data.split_first() else {
        return;
    };
    let (name, kind, fens) = TABLES[usize::from(sel & 15)];
    let file = format!("{name}.{}", kind.extension());
    let real = real_file(&file).expect("table present in SYZYGY_PATH");
    let bytes: Vec<u8> = if sel & 0x80 != 0 {
        body.to_vec()
    } else {
        let mut b = real.to_vec();
        let n = body.len().min(b.len());
        b[..n].copy_from_slice(&body[..n]);
        b
    };
    let positions: Vec<_> = fens
        .iter()
        .map(|f| parse_fen(f).expect("fixed FEN"))
        .collect();
    let mat = Material::of(&positions[0].board().material());
    let size = bytes.len() as u64;
    let mut rng = Rng::new(hash(&body[body.len().saturating_sub(16)..]) ^ size);

    // The header as the engine first sees it: a prefix, then the whole file.
    let cut = rng.below(size + 1) as usize;
    let _ = header::parse(&bytes[..cut], size, kind, &mat.shape);
    if let Ok(h) = header::parse(&bytes, size, kind, &mat.shape) {
        let src = Mem(&bytes);
        for sub in h.files.iter().flatten() {
            let n = sub.encoding.positions;
            for k in 0..8 {
                let idx = match k {
                    0 => 0,
                    1 => n.saturating_sub(1),
                    2 => n.saturating_add(rng.below(1 << 20)),
                    _ => rng.below(n),
                };
                let _ = decode::value(&sub.pairs, idx, &src);
            }
        }
    }

    // Full probes through the engine and the driver loop.
    let mut fetcher = MemFetcher::default();
    fetcher.replaced.insert(file, Arc::from(bytes));
    let config = Config {
        page_log2: 9 + u32::from((sel >> 4) & 7),
        ..Config::default()
    };
    let mut tb = Tablebase::new(fetcher, config);
    for pos in &positions {
        let _ = tb.analyse(pos);
    }
});
