//! The browser face: the engine behind wasm-bindgen, with the asynchronous
//! driver (fetch with Range, IndexedDB, de-duplication, retries) in
//! `runtime.js`. Rust keeps decoding and search; JavaScript keeps the
//! browser APIs it has natively, which keeps the module small.

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;

mod generator;

pub use generator::Generator;

use crate::engine::{Attempt, Config, Engine, Fitted, Supply};
use crate::error::ProbeError;
use crate::format::Kind;
use crate::generate::layout::{name_of, parse_material};
use crate::generate::solved::Library;
use crate::generate::values_file;
use crate::probe;
use crate::report;
use crate::store::{Fetch, Wants};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Options of a Tablebase. */
export interface TablebaseOptions {
  /** Base URLs of table folders, searched in order (WDL and DTZ may differ);
   *  may be empty or absent when tables are generated (see `generate`). */
  urls?: string[];
  /** Optional map of file name (e.g. "KQvK.rtbw") to base URL, to skip probing for files. */
  manifest?: Record<string, string>;
  /** Page size in bytes, a power of two (default 4096). */
  pageSize?: number;
  /** In-memory page budget in bytes (default 64 MiB). */
  memoryBudget?: number;
  /** IndexedDB page budget in bytes (default 256 MiB); 0 disables IndexedDB. */
  idbBudget?: number;
  /** Bytes of generated tables kept in memory beyond those the probe at hand reads
   *  (least recently read let go first; IndexedDB keeps them). Default by
   *  `navigator.deviceMemory`: 1 GiB at 8 GB (every 3-4 piece table), 48 MiB a GB below,
   *  192 MiB where the browser does not tell. */
  generatedBudget?: number;
  /** Parallel HTTP requests, fixed (default: learned; 6 over HTTP/1.1, 64 from a host that speaks HTTP/2 or 3, presumed so for https until its answers show). */
  concurrency?: number;
  /** Called whenever network activity changes. */
  onProgress?: (p: Progress) => void;
  /** How far into a file to stream from a server that ignores Range (default 32 MiB). */
  wholeBodyLimit?: number;
  /** Tables generated in the browser (a Web Worker) for positions of up to 4 pieces,
   *  kept in IndexedDB: 'auto' (default) when no URL has the table or none is configured,
   *  'always' for every such position, 'never'. */
  generate?: 'auto' | 'always' | 'never';
  /** Called as tables are generated (a generation continues when its position is left). */
  onGenerate?: (p: GenerateProgress) => void;
  /** Range requests the page started before the module loaded (e.g. the heads of the first
   *  position's tables, fetched while the wasm downloads): `response` answers `bytes=start-(end-1)`
   *  of `url` (a `fetch()` promise). The first read of that file at `start` uses it and asks the
   *  network only for what it lacks; `controller` (optional) aborts it once read. */
  early?: { url: string; start: number; end: number; response: Promise<Response>; controller?: AbortController }[];
}
/** Progress of a generation: `material` of `materials` (dependencies first; index into it). */
export interface GenerateProgress {
  material: string; target: string; materials: string[]; index: number;
  /** Work units of `material` done, of `total`; `fraction` = done / total. */
  done: number; total: number; fraction: number;
  /** Since the generation for this position began; estimated time left (null before an estimate). */
  elapsedMs: number; etaMs: number | null;
}
export interface Progress { requestsInFlight: number; requests: number; bytes: number; rounds: number; }
export type Category = 'win' | 'maybe-win' | 'cursed-win' | 'draw' | 'blessed-loss' | 'maybe-loss' | 'loss';
export interface MoveResult {
  uci: string; san: string; wdl: number; dtz: number; precise: boolean; category: Category;
  /** Plies to mate with best play after the move, signed like dtz; null where unknown (Syzygy tables). */
  dtm: number | null;
  zeroing: boolean; checkmate: boolean; stalemate: boolean; insufficientMaterial: boolean;
}
/** A move whose result needs an absent table: why, instead of the values. Listed last. */
export interface MoveError {
  uci: string; san: string; error: string; code: 'missing-table';
  zeroing: boolean; checkmate: boolean; stalemate: boolean; insufficientMaterial: boolean;
}
export interface ProbeResult {
  fen: string; wdl: number; dtz: number; precise: boolean; category: Category;
  /** Plies to mate with best play, signed like dtz (0 for a draw); null where unknown. */
  dtm: number | null;
  checkmate: boolean; stalemate: boolean; insufficientMaterial: boolean;
  halfmoveClock: number; turn: 'white' | 'black'; moves: (MoveResult | MoveError)[];
}
export interface MainlineStep { uci: string; san: string; fen: string; wdl: number; dtz: number; precise: boolean; zeroing: boolean; dtm: number | null; }
/** Best play: to the next zeroing move from Syzygy tables, to mate from generated ones. */
export interface Mainline { fen: string; wdl: number; dtz: number; precise: boolean; dtm: number | null; moves: MainlineStep[]; }
export interface Stats {
  requests: number; bytes: number; rounds: number; retries: number;
  /** Of `requests`, those answered with several ranges in one multipart body (tables on the page's own origin). */
  multipartRequests: number;
  pagesFromMemory: number; pagesFromIndexedDb: number; pagesFromNetwork: number;
  cacheBytes: number; memoryBytes: number; indexedDb: 'ok' | 'memory-only' | 'opening';
  requestsInFlight: number; identityChanges: number;
  /** Whether the tables' host was seen to answer many requests at once (HTTP/2 or 3: from Resource
   *  Timing, or from the answers' times where it sends no Timing-Allow-Origin); null before it showed,
   *  and always with a `concurrency` option (nothing is learned then). */
  multiplexed: boolean | null;
  /** What the page measured of its link: bytes a millisecond and the shortest wait for an answer; null until measured. */
  link: { bytesPerMs: number | null; tripMs: number | null };
  /** Tables generated in this session, read back from IndexedDB, and generation time. */
  tablesGenerated: number; tablesFromIndexedDb: number; generateMs: number;
  /** The last probe or mainline that used the network; null before one did. */
  last: ColdProbe | null;
}
/** What one probe cost on the network, as the page experienced it. */
export interface ColdProbe {
  /** HTTP requests it started, and the bytes they brought. */
  requests: number; bytes: number;
  /** Requests that had to wait for another of its requests to finish first
   *  (the next round, or a free connection): sequential waves of requests. */
  waves: number;
  /** Logical rounds of the analysis (attempts that named missing pages). */
  rounds: number;
  /** Wall time from the call to the answer, to the outcome and to the verdict
   *  (null without onUpdate). */
  elapsedMs: number; outcomeMs: number | null; verdictMs: number | null;
}
/** Options of one probe. */
export interface ProbeOptions {
  /** Called with the position's outcome (`stage: 'outcome'`: from its WDL alone,
   *  `dtz`, `precise` and `dtm` null, `result.moves` empty; only where the WDL
   *  decides the category), then its verdict (`stage: 'verdict'`, with DTZ,
   *  `result.moves` empty) as soon as each is known, then with the complete
   *  result (`stage: 'complete'`) as soon as it is known: the promise resolves
   *  with it once its pages are in IndexedDB too. A stage whose successor
   *  came first is skipped. */
  onUpdate?: (update: ProbeUpdate) => void;
}
export type ProbeUpdate =
  | { stage: 'outcome'; result: OutcomeResult }
  | { stage: 'verdict' | 'complete'; result: ProbeResult };
/** A position's result from its WDL table alone, before its DTZ (from generated tables,
 *  where the DTZ comes with the WDL, it is a whole ProbeResult with no moves). */
export interface OutcomeResult extends Omit<ProbeResult, 'dtz' | 'precise' | 'dtm'> {
  dtz: number | null; precise: boolean | null; dtm: number | null;
}
"#;

// runtime.js imports the other modules of src/web by relative path;
// wasm-bindgen copies a JS file into the package only when an `extern`
// block names it, so each is named here once (by a type, which costs
// nothing at run time).
#[wasm_bindgen(module = "/src/web/errors.js")]
extern "C" {
    type ErrorsModule;
}
#[wasm_bindgen(module = "/src/web/gate.js")]
extern "C" {
    type Gate;
}
#[wasm_bindgen(module = "/src/web/crowd.js")]
extern "C" {
    type Crowd;
}
#[wasm_bindgen(module = "/src/web/link.js")]
extern "C" {
    type Link;
}
#[wasm_bindgen(module = "/src/web/whole-body.js")]
extern "C" {
    type WholeBody;
}
#[wasm_bindgen(module = "/src/web/http.js")]
extern "C" {
    type RangeClient;
}
#[wasm_bindgen(module = "/src/web/page-db.js")]
extern "C" {
    type PageDb;
}
#[wasm_bindgen(module = "/src/web/page-requests.js")]
extern "C" {
    type PageRequestsModule;
}
#[wasm_bindgen(module = "/src/web/file-open.js")]
extern "C" {
    type FileOpenModule;
}
#[wasm_bindgen(module = "/src/web/accept.js")]
extern "C" {
    type AcceptModule;
}
#[wasm_bindgen(module = "/src/web/multipart.js")]
extern "C" {
    type MultipartModule;
}
#[wasm_bindgen(module = "/src/web/several-ranges.js")]
extern "C" {
    type SeveralRangesModule;
}
#[wasm_bindgen(module = "/src/web/prefetch.js")]
extern "C" {
    type PrefetchModule;
}
#[wasm_bindgen(module = "/src/web/options.js")]
extern "C" {
    type OptionsModule;
}
#[wasm_bindgen(module = "/src/web/generated.js")]
extern "C" {
    type GeneratedModule;
}
#[wasm_bindgen(module = "/src/web/generate-worker.js")]
extern "C" {
    type GenerateWorker;
}
#[wasm_bindgen(module = "/src/web/trace.js")]
extern "C" {
    type Trace;
}
#[wasm_bindgen(module = "/src/web/next-task.js")]
extern "C" {
    type NextTaskModule;
}

#[wasm_bindgen]
extern "C" {
    /// `{ onUpdate? }` of one probe (see the TypeScript interface).
    #[wasm_bindgen(typescript_type = "ProbeOptions")]
    pub type ProbeOptions;
}

#[wasm_bindgen(module = "/src/web/runtime.js")]
extern "C" {
    type Runtime;

    #[wasm_bindgen(constructor)]
    fn new(core: Core, options: JsValue, format_version: u32) -> Runtime;
    #[wasm_bindgen(method)]
    fn analyse(this: &Runtime, fen: &str, options: JsValue) -> Promise;
    #[wasm_bindgen(method)]
    fn mainline(this: &Runtime, fen: &str, options: JsValue) -> Promise;
    #[wasm_bindgen(method)]
    fn stats(this: &Runtime) -> JsValue;
    #[wasm_bindgen(method, js_name = clearCache)]
    fn clear_cache(this: &Runtime) -> Promise;
    #[wasm_bindgen(method)]
    fn prefetch(this: &Runtime, files: Vec<String>, on_progress: Option<Function>) -> Promise;
}

/// The synchronous engine as the runtime sees it. Values cross as JSON text
/// and byte arrays; sizes as f64 (exact below 2^53).
#[wasm_bindgen]
pub struct Core {
    engine: Engine,
    /// Generated tables (values files from the worker or IndexedDB).
    generated: Library,
    /// Requests the runtime runs at once (see `set_connections`).
    connections: u64,
    /// See `set_moves_ride`.
    moves_ride: bool,
}

fn error_json(e: &ProbeError) -> String {
    let mut out = String::from("{\"error\":");
    report::string(&mut out, &e.to_string());
    out.push_str(",\"code\":");
    report::string(&mut out, e.code());
    out.push('}');
    out
}

/// `{"need":[fetch...],"gaps":[{file,start,end}...]}`: what to fetch, and
/// the gaps joined into it only to save requests (see
/// [`crate::engine::Fitted`]).
fn need_json(engine: &Engine, (fetches, gaps): &crate::engine::Fitted) -> String {
    let mut out = String::from("{\"need\":[");
    for (i, f) in fetches.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!("{{\"file\":{},\"name\":", f.file));
        report::string(&mut out, &engine.file_name(f.file));
        out.push_str(&format!(
            ",\"start\":{},\"end\":{},\"open\":{}}}",
            f.start, f.end, f.open
        ));
    }
    out.push_str("],\"gaps\":[");
    for (i, (file, start, end)) in gaps.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!(
            "{{\"file\":{file},\"start\":{start},\"end\":{end}}}"
        ));
    }
    out.push_str("]}");
    out
}

#[wasm_bindgen]
impl Core {
    #[wasm_bindgen(constructor)]
    pub fn new(page_log2: u32, memory_budget: f64) -> Core {
        let config = Config {
            page_log2,
            memory_budget: memory_budget as usize,
            ..Config::default()
        };
        Core {
            engine: Engine::new(config),
            generated: Library::default(),
            connections: 6,
            moves_ride: false,
        }
    }

    /// Requests the runtime runs at once (its gate): speculative reads
    /// fill only the connections a round leaves idle; 0 fetches them all.
    #[wasm_bindgen(js_name = setConnections)]
    pub fn set_connections(&mut self, n: u32) {
        self.connections = if n == 0 { u64::MAX } else { u64::from(n) };
    }

    /// Whether a verdict's attempt also names what the move list needs
    /// next, where it joins the verdict's requests without adding one
    /// (see `riding`): over HTTP/1.1, six connections, the move
    /// list's own attempt comes once those requests have left.
    #[wasm_bindgen(js_name = setMovesRide)]
    pub fn set_moves_ride(&mut self, on: bool) {
        self.moves_ride = on;
    }

    /// Whether table heads bring the sparse index (a fast link).
    #[wasm_bindgen(js_name = setSparseInHead)]
    pub fn set_sparse_in_head(&mut self, on: bool) {
        self.engine.set_sparse_in_head(on);
    }

    /// Whether pawnless tables' heads bring their block lengths too
    /// (see [`crate::engine::Config::index_in_head`]).
    #[wasm_bindgen(js_name = setIndexInHead)]
    pub fn set_index_in_head(&mut self, on: bool) {
        self.engine.set_index_in_head(on);
    }

    /// Whether the server answers several ranges of a file in one request
    /// (see [`crate::engine::Config::several_ranges`]).
    #[wasm_bindgen(js_name = setSeveralRanges)]
    pub fn set_several_ranges(&mut self, on: bool) {
        self.engine.set_several_ranges(on);
    }

    /// Whether the core fetches small gaps between ranges of a file (see
    /// [`crate::engine::Config::bridge_gaps`]).
    #[wasm_bindgen(js_name = setBridgeGaps)]
    pub fn set_bridge_gaps(&mut self, on: bool) {
        self.engine.set_bridge_gaps(on);
    }

    /// Whether the host runs every request at once (see
    /// [`crate::engine::Config::multiplexed`]).
    #[wasm_bindgen(js_name = setMultiplexed)]
    pub fn set_multiplexed(&mut self, on: bool) {
        self.engine.set_multiplexed(on);
    }

    /// Gap bytes a round may fetch to take fewer waves of requests (see
    /// [`crate::engine::Config::join_budget`]); 0 turns joining off.
    #[wasm_bindgen(js_name = setJoinBudget)]
    pub fn set_join_budget(&mut self, bytes: f64) {
        let bytes = if bytes.is_finite() && bytes > 0.0 {
            bytes as u64
        } else {
            0
        };
        self.engine.set_join_budget(bytes);
    }

    /// Gap of absent bytes the core fetches rather than pay another request
    /// for ([`crate::engine::BRIDGE_BYTES`]); the runtime joins waiting
    /// requests across no more.
    #[wasm_bindgen(js_name = bridgeBytes)]
    pub fn bridge_bytes(&self) -> f64 {
        crate::engine::BRIDGE_BYTES as f64
    }

    #[wasm_bindgen(js_name = pageSize)]
    pub fn page_size(&self) -> f64 {
        self.engine.page_store().page_size() as f64
    }

    pub fn begin(&mut self) -> f64 {
        self.engine.begin() as f64
    }

    pub fn end(&mut self, tick: f64) {
        self.engine.end(tick as u64)
    }

    /// One attempt: `{"done": result}`, `{"error", "code"}` or `{"need": [fetch]}`.
    pub fn attempt(&self, kind: &str, fen: &str) -> String {
        let fen = fen.trim();
        let pos = match probe::parse_fen(fen) {
            Ok(p) => p,
            Err(e) => return error_json(&e),
        };
        let result = match kind {
            "mainline-step" => self
                .engine
                .attempt(|ctx| probe::mainline_step(ctx, &pos))
                .map(|l| report::line_step(&l)),
            "outcome" => self
                .engine
                .attempt(|ctx| probe::outcome(ctx, &pos))
                .map(|o| report::outcome(fen, &o)),
            "verdict" if self.moves_ride => {
                // What the move list searches next rides along (see `set_moves_ride`).
                let (result, with) =
                    self.engine
                        .attempt_with_rider(|ctx| probe::verdict(ctx, &pos), &|ctx| {
                            let _ = probe::analyse(ctx, &pos);
                        });
                if let (Err(Attempt::Need(own)), Some(with)) = (&result, with) {
                    return need_json(&self.engine, &self.riding(own, &with));
                }
                result.map(|a| report::analysis(fen, &a))
            }
            "verdict" => self
                .engine
                .attempt(|ctx| probe::verdict(ctx, &pos))
                .map(|a| report::analysis(fen, &a)),
            _ => self
                .engine
                .attempt(|ctx| probe::analyse(ctx, &pos))
                .map(|a| report::analysis(fen, &a)),
        };
        match result {
            Ok(json) => format!("{{\"done\":{json}}}"),
            Err(Attempt::Failed(e)) => error_json(&e),
            Err(Attempt::Need(w)) => need_json(
                &self.engine,
                &self.engine.fetches_and_gaps(&w, self.connections),
            ),
        }
    }

    /// The verdict's round (`own` is what it needs) with the reads of
    /// `with` beyond it riding where they add no request to it: joined to
    /// its ranges, or across gaps within the join budget. The move list's
    /// attempt comes once the verdict's requests have left; a range of it
    /// beside one of theirs would wait a wave.
    fn riding(&self, own: &Wants, with: &Wants) -> Fitted {
        let plain = self.engine.fetches_and_gaps(own, self.connections);
        let requests = self.engine.requests(&plain.0);
        self.engine.fetches_and_gaps(with, requests.max(1))
    }

    /// One answer from generated tables: `{"done": result}`, `{"error",
    /// "code"}`, or `{"generate": [material, ...]}`, the materials to make
    /// (or load) first, dependencies first.
    #[wasm_bindgen(js_name = attemptGenerated)]
    pub fn attempt_generated(&self, kind: &str, fen: &str) -> String {
        let fen = fen.trim();
        let pos = match probe::parse_fen(fen) {
            Ok(p) => p,
            Err(e) => return error_json(&e),
        };
        let lib = &self.generated;
        // The core holds the tables answers read; the others only serve to
        // generate those, in the worker.
        let reads = probe::generated::reads(&pos);
        if reads.iter().any(|k| !lib.contains(k)) {
            let need = probe::generated::needed(&pos, |k| lib.contains(k));
            let list = |keys: &[[u8; 12]]| {
                let mut out = String::from("[");
                for (i, k) in keys.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    report::string(&mut out, &name_of(k).0);
                }
                out + "]"
            };
            return format!(
                "{{\"generate\":{},\"reads\":{}}}",
                list(&need),
                list(&reads)
            );
        }
        let result = match kind {
            "mainline-step" => {
                probe::generated::mainline_step(lib, &pos).map(|l| report::line_step(&l))
            }
            // Generated tables know the DTZ as soon as the WDL.
            "verdict" | "outcome" => {
                probe::generated::verdict(lib, &pos).map(|a| report::analysis(fen, &a))
            }
            _ => probe::generated::analyse(lib, &pos).map(|a| report::analysis(fen, &a)),
        };
        match result {
            Ok(json) => format!("{{\"done\":{json}}}"),
            Err(e) => error_json(&e),
        }
    }

    /// Number of pieces of a FEN's position (0 for a bad FEN).
    #[wasm_bindgen(js_name = pieceCount)]
    pub fn piece_count(fen: &str) -> u32 {
        probe::parse_position(fen).map_or(0, |p| {
            use shakmaty::Position;
            p.board().occupied().count() as u32
        })
    }

    /// Adds a generated table (a values file); its material's name.
    #[wasm_bindgen(js_name = insertGenerated)]
    pub fn insert_generated(&mut self, bytes: &[u8]) -> Result<String, JsError> {
        generator::insert_into(&mut self.generated, bytes, false)
    }

    /// The generated materials an answer for `fen` reads, comma-separated
    /// (empty for a bad FEN): what the page keeps when it trims the others.
    #[wasm_bindgen(js_name = generatedReads)]
    pub fn generated_reads(fen: &str) -> String {
        probe::parse_fen(fen.trim()).map_or_else(
            |_| String::new(),
            |pos| names(&probe::generated::reads(&pos)),
        )
    }

    /// Whether `bytes` are a whole values file of material `name` (a record
    /// from IndexedDB, before a worker is given it).
    #[wasm_bindgen(js_name = isGeneratedTable)]
    pub fn is_generated_table(bytes: &[u8], name: &str) -> bool {
        values_file::current(&mut &bytes[..], name, false, bytes.len() as u64)
    }

    /// The generated materials a worker needs to generate `name`, comma-separated.
    #[wasm_bindgen(js_name = generatedChildren)]
    pub fn generated_children(name: &str) -> String {
        parse_material(name).map_or_else(
            |_| String::new(),
            |k| names(&crate::generate::plan::tabled_children(&k)),
        )
    }

    /// Bytes a held generated table takes (0 if not held).
    #[wasm_bindgen(js_name = generatedBytes)]
    pub fn generated_bytes(&self, name: &str) -> f64 {
        parse_material(name)
            .ok()
            .and_then(|k| self.generated.get(&k))
            .map_or(0.0, |t| values_file::encoded_len(t) as f64)
    }

    /// Lets go of a held generated table (IndexedDB keeps it).
    #[wasm_bindgen(js_name = dropGenerated)]
    pub fn drop_generated(&mut self, name: &str) {
        if let Ok(k) = parse_material(name) {
            self.generated.remove(&k);
        }
    }

    /// A held generated table as a values file: what a generation worker
    /// is given of the sub-tables it lacks.
    #[wasm_bindgen(js_name = generatedTable)]
    pub fn generated_table(&self, name: &str) -> Result<Vec<u8>, JsError> {
        let t = parse_material(name)
            .ok()
            .and_then(|k| self.generated.get(&k))
            .ok_or_else(|| JsError::new(&format!("no generated table {name}")))?;
        let mut bytes = Vec::new();
        values_file::write(t, &mut bytes).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(bytes)
    }

    /// Reads (count) made by the last attempt, all answered from memory when it succeeded.
    #[wasm_bindgen(js_name = lastReads)]
    pub fn last_reads(&self) -> f64 {
        self.engine.last_reads().0 as f64
    }

    /// Whether a file's server ignores Range: then only pages a probe needs
    /// are fetched from it, never speculative ones.
    #[wasm_bindgen(js_name = setStreamed)]
    pub fn set_streamed(&mut self, file: u32, on: bool) {
        self.engine.set_streamed(file, on);
    }

    /// Bytes of a file from `start`; a changed size or validator drops its old pages.
    pub fn supply(&mut self, file: u32, start: f64, size: f64, validator: &str, bytes: &[u8]) {
        let fetch = Fetch {
            file,
            start: start as u64,
            end: start as u64 + bytes.len() as u64,
            open: false,
        };
        self.engine.supply(
            &fetch,
            Supply::Bytes {
                size: size as u64,
                validator,
                bytes,
            },
        );
    }

    /// Declares identity without bytes; true when it changed (pages dropped).
    pub fn identify(&mut self, file: u32, size: f64, validator: &str) -> bool {
        self.engine.identify(file, size as u64, validator)
    }

    pub fn absent(&mut self, file: u32) {
        let fetch = Fetch {
            file,
            start: 0,
            end: 0,
            open: true,
        };
        self.engine.supply(&fetch, Supply::Absent);
    }

    /// Whether a page is in memory.
    #[wasm_bindgen(js_name = hasPage)]
    pub fn has_page(&self, file: u32, page: f64) -> bool {
        self.engine.page_store().contains(file, page as u64)
    }

    #[wasm_bindgen(js_name = memoryBytes)]
    pub fn memory_bytes(&self) -> f64 {
        self.engine.store_stats().bytes as f64
    }

    pub fn clear(&mut self) {
        self.engine.clear();
    }
}

/// Material names, comma-separated, each once.
fn names(keys: &[[u8; 12]]) -> String {
    let mut out: Vec<String> = keys.iter().map(|k| name_of(k).0).collect();
    let mut seen = std::collections::HashSet::new();
    out.retain(|n| seen.insert(n.clone()));
    out.join(",")
}

/// A JS `Error` with the error's message and its stable `code`.
fn coded_error(e: &ProbeError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let _ = js_sys::Reflect::set(&err, &"code".into(), &e.code().into());
    err.into()
}

/// An error of the `Tablebase` constructor: code `options`, as the
/// runtime's own checks of its options throw.
fn options_error(message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    let _ = js_sys::Reflect::set(&err, &"code".into(), &"options".into());
    err.into()
}

/// A numeric option: None where absent (undefined or null); an error where
/// it is not a non-negative finite number, rather than a silent default.
fn number_option(options: &JsValue, key: &str) -> Result<Option<f64>, JsValue> {
    let v = js_sys::Reflect::get(options, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    match v.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
        _ => Err(options_error(&format!(
            "Tablebase option {key} must be a non-negative number"
        ))),
    }
}

/// The FEN a method was given, or the typed error a bad FEN gets where it
/// is not a string at all: wasm-bindgen's glue would copy any other value
/// into the module's memory as if it were one, and trap there.
fn fen_arg(fen: &JsValue) -> Result<String, JsValue> {
    fen.as_string().ok_or_else(|| {
        let what = if fen.is_null() {
            "null".to_string()
        } else {
            fen.js_typeof().as_string().unwrap_or_default()
        };
        coded_error(&ProbeError::InvalidFen(format!(
            "expected a string, got {what}"
        )))
    })
}

/// Probes Syzygy tables on static hosts from the browser.
#[wasm_bindgen]
pub struct Tablebase {
    runtime: Runtime,
}

#[wasm_bindgen]
impl Tablebase {
    /// `new Tablebase({ urls, manifest?, pageSize?, memoryBudget?, idbBudget?, concurrency?, onProgress? })`
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "TablebaseOptions | undefined")] options: JsValue,
    ) -> Result<Tablebase, JsValue> {
        // No options: generated tables only.
        let options = if options.is_undefined() || options.is_null() {
            js_sys::Object::new().into()
        } else {
            options
        };
        if !options.is_object() {
            return Err(options_error(
                "Tablebase options must be an object with a urls array",
            ));
        }
        let page = number_option(&options, "pageSize")?.unwrap_or(4096.0);
        if !(512.0..=1048576.0).contains(&page) || (page as u64).count_ones() != 1 {
            return Err(options_error(
                "Tablebase option pageSize must be a power of two between 512 and 1048576",
            ));
        }
        let memory = number_option(&options, "memoryBudget")?
            .unwrap_or(64.0 * 1048576.0)
            .max(1048576.0);
        let core = Core::new((page as u64).trailing_zeros(), memory);
        Ok(Tablebase {
            runtime: Runtime::new(core, options, Generator::format_version()),
        })
    }

    /// The result of a position and of every legal move, ranked best first.
    /// `options.onUpdate` receives the position's verdict as soon as it is
    /// known, then the complete result; the promise resolves with it once
    /// its pages are stored in IndexedDB.
    #[wasm_bindgen(unchecked_return_type = "Promise<ProbeResult>")]
    pub fn probe(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] fen: JsValue,
        options: Option<ProbeOptions>,
    ) -> Promise {
        match fen_arg(&fen) {
            Ok(fen) => self
                .runtime
                .analyse(&fen, options.map_or(JsValue::UNDEFINED, JsValue::from)),
            Err(e) => Promise::reject(&e),
        }
    }

    /// Best play to the next zeroing move or mate (from generated tables:
    /// to mate); `options.toEnd` goes on through zeroing moves to the end.
    #[wasm_bindgen(unchecked_return_type = "Promise<Mainline>")]
    pub fn mainline(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] fen: JsValue,
        #[wasm_bindgen(unchecked_param_type = "{ toEnd?: boolean } | undefined")] options: JsValue,
    ) -> Promise {
        match fen_arg(&fen) {
            Ok(fen) => self.runtime.mainline(&fen, options),
            Err(e) => Promise::reject(&e),
        }
    }

    /// Legal moves of a position (no tables needed); throws on a bad FEN.
    #[wasm_bindgen(js_name = legalMoves, unchecked_return_type = "Array<{uci: string, san: string}>")]
    pub fn legal_moves(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] fen: JsValue,
    ) -> Result<JsValue, JsValue> {
        let pos = probe::parse_position(&fen_arg(&fen)?).map_err(|e| coded_error(&e))?;
        let out = js_sys::Array::new();
        for (uci, san) in probe::legal_moves(&pos) {
            let o = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&o, &"uci".into(), &uci.into());
            let _ = js_sys::Reflect::set(&o, &"san".into(), &san.into());
            out.push(&o);
        }
        Ok(out.into())
    }

    /// Requests, bytes, rounds, where pages came from, cache sizes.
    #[wasm_bindgen(unchecked_return_type = "Stats")]
    pub fn stats(&self) -> JsValue {
        self.runtime.stats()
    }

    /// Empties the memory and IndexedDB caches.
    #[wasm_bindgen(js_name = clearCache, unchecked_return_type = "Promise<void>")]
    pub fn clear_cache(&self) -> Promise {
        self.runtime.clear_cache()
    }

    /// Stores the whole WDL and DTZ files of a position's material (and of
    /// the materials its captures and promotions reach) in IndexedDB, within
    /// its budget, for offline use. A bad FEN rejects the promise, as with
    /// `probe`.
    #[wasm_bindgen(unchecked_return_type = "Promise<{bytes: number, files: string[]}>")]
    pub fn prefetch(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] fen: JsValue,
        #[wasm_bindgen(js_name = onProgress, unchecked_param_type = "(p: {bytes: number, total: number, file: string}) => void")]
        on_progress: Option<Function>,
    ) -> Promise {
        let pos =
            match fen_arg(&fen).and_then(|f| probe::parse_fen(&f).map_err(|e| coded_error(&e))) {
                Ok(pos) => pos,
                Err(e) => return Promise::reject(&e),
            };
        let mut files = Vec::new();
        for mat in probe::reachable_materials(&pos) {
            for kind in [Kind::Wdl, Kind::Dtz] {
                files.push(format!("{}.{}", mat.name, kind.extension()));
            }
        }
        self.runtime.prefetch(files, on_progress)
    }
}
