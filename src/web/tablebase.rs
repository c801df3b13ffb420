//! The exported `Tablebase`: its options checked, its calls handed to
//! runtime.js, errors given a stable `code`.

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::Core;
use crate::error::ProbeError;
use crate::generate::values_file;

#[wasm_bindgen]
extern "C" {
    /// `{ onUpdate?, generate? }` of one probe (see the TypeScript interface).
    #[wasm_bindgen(typescript_type = "ProbeOptions")]
    pub type ProbeOptions;
    /// The constructor's options (optional in TypeScript, as in JS).
    #[wasm_bindgen(typescript_type = "TablebaseOptions")]
    pub type TablebaseOptions;
    /// `{ toEnd?, generate? }` of a mainline.
    #[wasm_bindgen(typescript_type = "MainlineOptions")]
    pub type MainlineOptions;
    /// `prefetch`'s progress callback: bytes saved so far over all files,
    /// the size of the file in progress, its name.
    #[wasm_bindgen(typescript_type = "((p: {bytes: number, total: number, file: string}) => void)")]
    pub type PrefetchProgress;
}

#[wasm_bindgen(module = "/src/web/runtime.js")]
extern "C" {
    type Runtime;

    // (`catch`: its option errors come back as an Err, not by unwinding
    // through the wasm frame.)
    #[wasm_bindgen(constructor, catch)]
    fn new(core: Core, options: JsValue, format_version: u32) -> Result<Runtime, JsValue>;
    #[wasm_bindgen(method)]
    fn analyse(this: &Runtime, fen: &JsValue, options: JsValue) -> Promise;
    #[wasm_bindgen(method)]
    fn mainline(this: &Runtime, fen: &JsValue, options: JsValue) -> Promise;
    #[wasm_bindgen(method)]
    fn stats(this: &Runtime) -> JsValue;
    #[wasm_bindgen(method, catch, js_name = legalMoves)]
    fn legal_moves(this: &Runtime, fen: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, js_name = clearCache)]
    fn clear_cache(this: &Runtime) -> Promise;
    #[wasm_bindgen(method, js_name = close)]
    fn close_runtime(this: &Runtime) -> Promise;
    #[wasm_bindgen(method)]
    fn prefetch(this: &Runtime, fen: &JsValue, on_progress: JsValue) -> Promise;
    #[wasm_bindgen(method)]
    fn release(this: &Runtime);
    #[wasm_bindgen(method)]
    fn saved(this: &Runtime) -> Promise;
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

/// Longest string taken as a FEN argument (a FEN has at most 256 bytes;
/// the parser says what is wrong with one under this).
const MAX_FEN_ARG: u32 = 4096;

/// The typed error a bad FEN argument gets where it is not a string at
/// all (wasm-bindgen's glue would copy any other value into the module's
/// memory as if it were one, and trap there) or is far longer than any
/// FEN (a huge one fails to allocate there, and traps). A string passes
/// without being copied into the module: every method that takes one
/// hands it to the runtime as it is, so that a module whose memory is exhausted
/// traps only inside the runtime's calls, which close the Tablebase with
/// a `closed` error instead of throwing a bare `RuntimeError`.
fn fen_checked(fen: &JsValue) -> Result<(), JsValue> {
    let Some(s) = fen.dyn_ref::<js_sys::JsString>() else {
        let what = if fen.is_null() {
            "null".to_string()
        } else {
            fen.js_typeof().as_string().unwrap_or_default()
        };
        return Err(coded_error(&ProbeError::InvalidFen(format!(
            "expected a string, got {what}"
        ))));
    };
    if s.length() > MAX_FEN_ARG {
        return Err(coded_error(&ProbeError::InvalidFen(format!(
            "{} characters, longer than any FEN",
            s.length()
        ))));
    }
    Ok(())
}

/// Probes Syzygy tables on static hosts from the browser.
#[wasm_bindgen]
pub struct Tablebase {
    runtime: Runtime,
}

/// `free()`, `using` or the garbage collector: the runtime closes once the
/// calls under way end (its worker, IndexedDB connection and pages go).
impl Drop for Tablebase {
    fn drop(&mut self) {
        self.runtime.release();
    }
}

#[wasm_bindgen]
impl Tablebase {
    /// `new Tablebase(options?)`: see `TablebaseOptions` (types.rs) for every option.
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<TablebaseOptions>) -> Result<Tablebase, JsValue> {
        // No options: generated tables only.
        let options = options.map_or_else(|| js_sys::Object::new().into(), JsValue::from);
        if !options.is_object() {
            return Err(options_error(
                "Tablebase options must be an object with a urls array",
            ));
        }
        let page = number_option(&options, "pageSize")?.unwrap_or(4096.0);
        if !(512.0..=1048576.0).contains(&page)
            || page.fract() != 0.0
            || (page as u64).count_ones() != 1
        {
            return Err(options_error(
                "Tablebase option pageSize must be a power of two between 512 and 1048576",
            ));
        }
        let memory = number_option(&options, "memoryBudget")?
            .unwrap_or(64.0 * 1048576.0)
            .max(1048576.0);
        let core = Core::new((page as u64).trailing_zeros(), memory);
        Ok(Tablebase {
            runtime: Runtime::new(core, options, u32::from(values_file::VERSION))?,
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
        match fen_checked(&fen) {
            Ok(()) => self
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
        options: Option<MainlineOptions>,
    ) -> Promise {
        match fen_checked(&fen) {
            Ok(()) => self
                .runtime
                .mainline(&fen, options.map_or(JsValue::UNDEFINED, JsValue::from)),
            Err(e) => Promise::reject(&e),
        }
    }

    /// Legal moves of a position (no tables needed); throws on a bad FEN,
    /// and `closed` once a trap left the module unusable.
    #[wasm_bindgen(js_name = legalMoves, unchecked_return_type = "Array<{uci: string, san: string}>")]
    pub fn legal_moves(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] fen: JsValue,
    ) -> Result<JsValue, JsValue> {
        fen_checked(&fen)?;
        self.runtime.legal_moves(&fen)
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

    /// The files saved for offline use (`prefetch`, in any tab of the
    /// origin) and the bytes IndexedDB holds of them: what `clearCache`
    /// would drop with the rest, for a page to ask its user first.
    #[wasm_bindgen(
        unchecked_return_type = "Promise<{bytes: number, files: string[], urls: string[]}>"
    )]
    pub fn saved(&self) -> Promise {
        self.runtime.saved()
    }

    /// Lets the Tablebase go (a long-lived page that is done with it):
    /// probes under way and every later call but `stats` and `legalMoves`
    /// reject with code `closed`; the generation worker stops; IndexedDB
    /// writes queued land, then its connection closes; pages in memory go.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn close(&self) -> Promise {
        self.runtime.close_runtime()
    }

    /// Stores the whole WDL and DTZ files of a position's material (and of
    /// the materials its captures and promotions reach) in IndexedDB, within
    /// its budget, for offline use: `files` saved, `missing` those no table
    /// host has. A bad FEN rejects the promise, as with `probe`.
    #[wasm_bindgen(
        unchecked_return_type = "Promise<{bytes: number, files: string[], missing: string[]}>"
    )]
    pub fn prefetch(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] fen: JsValue,
        #[wasm_bindgen(js_name = onProgress)] on_progress: Option<PrefetchProgress>,
    ) -> Promise {
        match fen_checked(&fen) {
            Ok(()) => self
                .runtime
                .prefetch(&fen, on_progress.map_or(JsValue::UNDEFINED, JsValue::from)),
            Err(e) => Promise::reject(&e),
        }
    }
}
