//! The JavaScript files of the browser driver, named so that wasm-bindgen
//! copies each into the package.

use wasm_bindgen::prelude::*;

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
#[wasm_bindgen(module = "/src/web/version.js")]
extern "C" {
    type VersionModule;
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
#[wasm_bindgen(module = "/src/web/answers.js")]
extern "C" {
    type AnswersModule;
}
