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
    let pieces = pieces_of(bytes);
    if pieces > usize::from(MAX_PIECES) {
        return Err(JsError::new(&format!(
            "a generated table of {pieces} pieces; a browser makes tables of up to {MAX_PIECES}"
        )));
    }
    if !is_whole(bytes, name) {
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

/// Pieces of the material a values file names (0 when it names none).
fn pieces_of(bytes: &[u8]) -> usize {
    values_file::material(bytes).map_or(0, |m| m.len().saturating_sub(1))
}

/// Whether `bytes` are a whole values file of material `name`, with mate
/// distances, of at most MAX_PIECES. The material is checked before its
/// layout is built: a record naming a 7-piece one would take gigabytes to
/// lay out (more than wasm32 can count).
pub(crate) fn is_whole(bytes: &[u8], name: &str) -> bool {
    pieces_of(bytes) <= usize::from(MAX_PIECES)
        && values_file::current(&mut &bytes[..], name, true, bytes.len() as u64)
}
