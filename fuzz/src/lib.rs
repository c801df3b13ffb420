//! Shared pieces of the fuzz targets: where the tables are, in-memory copies
//! of real table files, a fetcher over them, the probe queries, and a reader
//! that turns the fuzz input into decisions (an exhausted input always means
//! the plain choice, so every run ends with well-behaved answers).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use shakmaty::{ByColor, ByRole, Chess, Color, Role};
use syzygy_web::drivers::{Fetcher, Request, Response};
use syzygy_web::engine::Ctx;
use syzygy_web::material::Material;
use syzygy_web::probe::{self, Analysis, Dtz};
use syzygy_web::ProbeError;

/// `SYZYGY_PATH`, defaulting to `../shared/syzygy` beside the checkout.
pub fn tables_dir() -> PathBuf {
    match std::env::var_os("SYZYGY_PATH") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/syzygy"),
    }
}

thread_local! {
    static FILES: RefCell<HashMap<String, Option<Arc<[u8]>>>> = RefCell::new(HashMap::new());
}

/// The whole of a real table file (read once per process), or None.
pub fn real_file(name: &str) -> Option<Arc<[u8]>> {
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '.') || name.contains("..") {
        return None;
    }
    FILES.with(|f| {
        f.borrow_mut()
            .entry(name.to_string())
            .or_insert_with(|| std::fs::read(tables_dir().join(name)).ok().map(Arc::from))
            .clone()
    })
}

/// Every table file name in the tables folder, sorted.
pub fn all_table_files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(tables_dir())
        .expect("SYZYGY_PATH readable")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".rtbw") || n.ends_with(".rtbz"))
        .collect();
    names.sort();
    names
}

/// The material of a table name such as `KRPvKR` (strong side first).
pub fn material_of_name(name: &str) -> Material {
    let (w, b) = name.split_once('v').expect("table name");
    let mut m = ByColor::<ByRole<u8>>::default();
    for (side, color) in [(w, Color::White), (b, Color::Black)] {
        for c in side.chars() {
            let role = Role::from_char(c.to_ascii_lowercase()).expect("role");
            *m.get_mut(color).get_mut(role) += 1;
        }
    }
    Material::of(&m)
}

/// The response a file server gives for `req` over `bytes`.
pub fn serve(bytes: &[u8], req: &Request, validator: &str) -> Response {
    let size = bytes.len() as u64;
    let end = req.end.min(size);
    if req.start > end {
        return Response::Failed("range outside the file".into());
    }
    Response::Bytes {
        size,
        validator: validator.to_string(),
        bytes: bytes[req.start as usize..end as usize].to_vec(),
    }
}

/// Serves real files from memory, with some files replaced.
#[derive(Default)]
pub struct MemFetcher {
    pub replaced: HashMap<String, Arc<[u8]>>,
}

impl Fetcher for MemFetcher {
    fn fetch(&mut self, batch: &[Request]) -> Vec<Response> {
        batch
            .iter()
            .map(|r| {
                let file = self
                    .replaced
                    .get(&r.name)
                    .cloned()
                    .or_else(|| real_file(&r.name));
                match file {
                    Some(bytes) => serve(&bytes, r, "fuzz"),
                    None => Response::Absent,
                }
            })
            .collect()
    }
}

/// What a probe is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Query {
    Analyse,
    Dtz,
    Wdl,
}

/// A probe's answer, whatever the query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Analysis(Analysis),
    Dtz(i8, Dtz),
    Wdl(i8),
}

/// Runs one query in an attempt.
pub fn ask(ctx: &Ctx<'_>, pos: &Chess, q: Query) -> Result<Answer, ProbeError> {
    match q {
        Query::Analyse => probe::analyse(ctx, pos).map(Answer::Analysis),
        Query::Dtz => probe::probe_dtz(ctx, pos).map(|(w, d)| Answer::Dtz(w, d)),
        Query::Wdl => probe::probe_wdl(ctx, pos).map(Answer::Wdl),
    }
}

/// Decisions read from the fuzz input; `None` once it is used up.
pub struct Choices<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Choices<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Choices { data, at: 0 }
    }

    pub fn byte(&mut self) -> Option<u8> {
        let b = self.data.get(self.at).copied();
        self.at += 1;
        b
    }

    /// A number below `n` (n > 0) from two bytes, or None.
    pub fn below(&mut self, n: u64) -> Option<u64> {
        let hi = u64::from(self.byte()?);
        let lo = u64::from(self.byte().unwrap_or(0));
        Some(((hi << 8) | lo) % n.max(1))
    }
}

/// A small deterministic generator (xorshift64*), seeded from the input.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// FNV-1a over some bytes, for seeding.
pub fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}
