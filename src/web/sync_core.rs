//! The synchronous engine that runtime.js drives: attempts, the requests
//! they name, supplies of pages, and generated tables.

use wasm_bindgen::prelude::*;

use super::values;
use crate::engine::{Attempt, Config, Engine, Fitted, Supply};
use crate::error::ProbeError;
use crate::format::Kind;
use crate::generate::layout::{name_of, parse_material};
use crate::generate::solved::Library;
use crate::generate::values_file;
use crate::probe;
use crate::report;
use crate::store::{Fetch, Wants};

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
            // Where a DTZ table is missing: the WDL tables' answer alone.
            "wdl" => self
                .engine
                .attempt(|ctx| probe::wdl_analysis(ctx, &pos))
                .map(|w| report::wdl_analysis(fen, &w, None)),
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

    /// Legal moves of a FEN's position: `{"moves": [{uci, san}]}` or
    /// `{"error", "code"}`. For `Tablebase.legalMoves`, which reaches it
    /// through the runtime: a trap here (the module's memory exhausted)
    /// then closes the Tablebase with a `closed` error, as in every other
    /// call, instead of escaping as a bare `RuntimeError`.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(fen: &str) -> String {
        let pos = match probe::parse_position(fen) {
            Ok(p) => p,
            Err(e) => return error_json(&e),
        };
        let mut out = String::from("{\"moves\":[");
        for (i, (uci, san)) in probe::legal_moves(&pos).into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"uci\":");
            report::string(&mut out, &uci);
            out.push_str(",\"san\":");
            report::string(&mut out, &san);
            out.push('}');
        }
        out.push_str("]}");
        out
    }

    /// The WDL and DTZ files of a FEN's material and of the materials its
    /// captures and promotions reach: `{"files": [name]}` or `{"error",
    /// "code"}`. For `Tablebase.prefetch`, through the runtime (see
    /// [`Self::legal_moves`]).
    #[wasm_bindgen(js_name = prefetchFiles)]
    pub fn prefetch_files(fen: &str) -> String {
        let pos = match probe::parse_fen(fen) {
            Ok(p) => p,
            Err(e) => return error_json(&e),
        };
        let mut out = String::from("{\"files\":[");
        for (i, mat) in probe::reachable_materials(&pos).iter().enumerate() {
            for (j, kind) in [Kind::Wdl, Kind::Dtz].into_iter().enumerate() {
                if i + j > 0 {
                    out.push(',');
                }
                report::string(&mut out, &format!("{}.{}", mat.name, kind.extension()));
            }
        }
        out.push_str("]}");
        out
    }

    /// Number of pieces of a FEN's position (0 for a bad FEN).
    #[wasm_bindgen(js_name = pieceCount)]
    pub fn piece_count(fen: &str) -> u32 {
        probe::parse_position(fen).map_or(0, |p| {
            use shakmaty::Position;
            p.board().occupied().count() as u32
        })
    }

    /// Adds a generated table (a values file of material `name`); its material's name.
    #[wasm_bindgen(js_name = insertGenerated)]
    pub fn insert_generated(&mut self, bytes: &[u8], name: &str) -> Result<String, JsError> {
        values::insert_into(&mut self.generated, bytes, name, false)
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
        values::is_whole(bytes, name)
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
        // Its size at once: grown as written, the copy took two to three times it.
        let mut bytes = Vec::with_capacity(values_file::encoded_len(t));
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
