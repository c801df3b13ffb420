//! The wasm package in headless Chromium (wasm-bindgen-test): real fetch
//! with Range against the project's server, real IndexedDB. The server's
//! URL comes from SYZYGY_TEST_URL at build time (scripts/wasm-test.sh).
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

use syzygy_web::web::Tablebase;

wasm_bindgen_test_configure!(run_in_browser);

fn base() -> String {
    // Without SYZYGY_TEST_URL the demo server's default address is tried.
    option_env!("SYZYGY_TEST_URL")
        .unwrap_or("http://127.0.0.1:8080/")
        .to_string()
}

fn tablebase(idb_budget: f64) -> Tablebase {
    let opts = Object::new();
    let urls = Array::of1(&JsValue::from_str(&format!("{}tables/", base())));
    Reflect::set(&opts, &"urls".into(), &urls).unwrap();
    Reflect::set(&opts, &"idbBudget".into(), &idb_budget.into()).unwrap();
    Tablebase::new(Some(opts.unchecked_into())).unwrap()
}

fn get(v: &JsValue, k: &str) -> JsValue {
    Reflect::get(v, &k.into()).unwrap()
}

#[wasm_bindgen_test]
async fn probes_a_position_over_range_requests() {
    let tb = tablebase(0.0);
    let r = JsFuture::from(tb.probe("4k3/8/8/8/8/8/8/4K2R w - - 0 1".into(), None))
        .await
        .unwrap();
    assert_eq!(get(&r, "wdl").as_f64(), Some(2.0));
    assert_eq!(get(&r, "category").as_string().as_deref(), Some("win"));
    let moves = Array::from(&get(&r, "moves"));
    assert_eq!(moves.length(), 14);
    let stats = tb.stats();
    assert_eq!(
        get(&stats, "indexedDb").as_string().as_deref(),
        Some("memory-only")
    );
    assert!(get(&stats, "rounds").as_f64().unwrap() >= 1.0);
}

#[wasm_bindgen_test]
async fn a_second_tablebase_answers_from_indexeddb() {
    let fen = "8/8/8/8/8/2k5/8/KR6 w - - 0 1";
    let first = tablebase(8.0 * 1048576.0);
    JsFuture::from(first.clear_cache()).await.unwrap();
    let a = JsFuture::from(first.probe(fen.into(), None)).await.unwrap();
    let second = tablebase(8.0 * 1048576.0);
    let b = JsFuture::from(second.probe(fen.into(), None))
        .await
        .unwrap();
    assert_eq!(
        js_sys::JSON::stringify(&a).unwrap(),
        js_sys::JSON::stringify(&b).unwrap()
    );
    let stats = second.stats();
    assert_eq!(get(&stats, "indexedDb").as_string().as_deref(), Some("ok"));
    assert_eq!(get(&stats, "pagesFromNetwork").as_f64(), Some(0.0));
    assert!(get(&stats, "pagesFromIndexedDb").as_f64().unwrap() > 0.0);
}

#[wasm_bindgen_test]
async fn errors_reject_with_a_code() {
    let tb = tablebase(0.0);
    for (fen, code) in [
        ("nonsense", "invalid-fen"),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "castling"),
        ("4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1", "missing-table"),
    ] {
        let e = JsFuture::from(tb.probe(fen.into(), None))
            .await
            .unwrap_err();
        assert_eq!(get(&e, "code").as_string().as_deref(), Some(code), "{fen}");
    }
}

#[wasm_bindgen_test]
fn legal_moves_work_outside_the_tables() {
    let tb = tablebase(0.0);
    let start = tb
        .legal_moves("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into())
        .unwrap();
    assert_eq!(Array::from(&start).length(), 20);
    let castle = Array::from(
        &tb.legal_moves("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".into())
            .unwrap(),
    );
    assert!(castle
        .iter()
        .any(|m| get(&m, "uci").as_string().as_deref() == Some("e1g1")));
    let e = tb.legal_moves("nonsense".into()).unwrap_err();
    assert_eq!(get(&e, "code").as_string().as_deref(), Some("invalid-fen"));
}
