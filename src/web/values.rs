//! Generated tables as values files (our own format, versioned by
//! `values_file::VERSION`): what the worker's `Generator` hands the page's
//! `Core`, and what IndexedDB keeps. Both modules read them.

use wasm_bindgen::prelude::*;

use crate::generate::solved::Library;
use crate::generate::values_file;

/// Most pieces of a table generated in a browser: 4-piece tables take
/// seconds and tens of MB, 5-piece ones gigabytes.
pub const MAX_PIECES: u8 = 4;

/// Reads a values file of material `name` into a library; the material's
/// name on success. `sub` keeps it only as a sub-table of later materials
/// (half the memory). A file of another material, size or version, or
/// without mate distances, is refused before anything is inserted.
pub(crate) fn insert_into(
    lib: &mut Library,
    bytes: &[u8],
    name: &str,
    sub: bool,
) -> Result<String, JsError> {
    // The material is checked before its layout is built: a record naming
    // a 7-piece material would take gigabytes to lay out.
    let pieces = values_file::material(bytes).map_or(0, |m| m.len().saturating_sub(1));
    if pieces > usize::from(MAX_PIECES) {
        return Err(JsError::new(&format!(
            "a generated table of {pieces} pieces; a browser makes tables of up to {MAX_PIECES}"
        )));
    }
    if !values_file::current(&mut &bytes[..], name, true, bytes.len() as u64) {
        return Err(JsError::new(&format!(
            "not a whole generated table of {name} with mate distances"
        )));
    }
    let read = if sub {
        values_file::read_packed
    } else {
        values_file::read
    };
    let t = read(&mut &bytes[..]).map_err(|e| JsError::new(&e.to_string()))?;
    let name = t.layout.name.clone();
    lib.insert(t);
    Ok(name)
}
