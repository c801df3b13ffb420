//! Generation in the browser: the `Generator` that a Web Worker drives
//! (generate-worker.js), the one export of the worker's own module (the
//! `worker` feature), which the page's decoder module leaves out. Tables
//! cross to the page's `Core` as values files (see `values.rs`).

use std::cell::RefCell;

use js_sys::Function;
use wasm_bindgen::prelude::*;

use super::values::{insert_into, MAX_PIECES};
use crate::generate::layout::parse_material;
use crate::generate::solved::Library;
use crate::generate::{self, values_file, Options, Progress};

thread_local! {
    /// Where progress goes during one `generate` call: a wasm module in a
    /// worker runs one thread, so the callback lives here rather than in a
    /// `Progress` value, which must be `Sync`.
    static SINK: RefCell<Option<Function>> = const { RefCell::new(None) };
}

struct ToJs;

impl Progress for ToJs {
    fn advance(&self, material: &str, units: u64, total: u64) {
        SINK.with(|s| {
            if let Some(f) = s.borrow().as_ref() {
                let _ = f.call3(
                    &JsValue::NULL,
                    &material.into(),
                    &(units as f64).into(),
                    &(total as f64).into(),
                );
            }
        });
    }
}

/// The generator of one Web Worker, single-threaded (a static host cannot
/// be assumed to allow shared memory). It keeps what it made, and what it
/// was given, as the sub-tables of later materials, packed (the exact
/// values live in the main thread's `Core` and in IndexedDB).
#[wasm_bindgen]
pub struct Generator {
    library: Library,
}

impl Default for Generator {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
impl Generator {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Generator {
        Generator {
            library: Library::default(),
        }
    }

    /// Adds a table (a values file of material `name`) that later materials depend on.
    pub fn insert(&mut self, bytes: &[u8], name: &str) -> Result<String, JsError> {
        insert_into(&mut self.library, bytes, name, true)
    }

    /// Whether a material (e.g. "KQvK") is held.
    pub fn has(&self, name: &str) -> bool {
        parse_material(name).is_ok_and(|k| self.library.contains(&k))
    }

    /// Generates one material, with mate distances, whose sub-materials are
    /// all held; keeps it and returns it as a values file.
    /// `on_progress(material, units, total)` is called as work is done.
    pub fn generate(
        &mut self,
        name: &str,
        on_progress: Option<Function>,
    ) -> Result<Vec<u8>, JsError> {
        let key = parse_material(name).map_err(|e| JsError::new(&e.0))?;
        if key.iter().sum::<u8>() > MAX_PIECES {
            return Err(JsError::new(&format!(
                "generate {name}: the browser generates tables of up to {MAX_PIECES} pieces"
            )));
        }
        // (A sub-material not held: generate says which is needed first.)
        SINK.with(|s| *s.borrow_mut() = on_progress);
        let opts = Options {
            threads: 1,
            dtm: true,
        };
        let t = generate::generate(key, &self.library, opts, &ToJs);
        SINK.with(|s| *s.borrow_mut() = None);
        let t = t.map_err(|e| JsError::new(&e))?;
        // Reserved in one piece: a growing vector would hold its old and new
        // buffers at once, tens of MB more at the module's peak.
        let mut bytes = Vec::with_capacity(values_file::encoded_len(&t));
        values_file::write(&t, &mut bytes).map_err(|e| JsError::new(&e.to_string()))?;
        self.library.insert(t.packed());
        Ok(bytes)
    }
}
