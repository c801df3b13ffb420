//! Writing a finished table's Syzygy files (.rtbw, .rtbz).

use std::fs;
use std::io::{BufReader, Write};
use std::path::Path;
use std::time::Instant;

use super::args::{threads, Args};
use super::progress::{fraction, Bar};
use super::values_dir::{flags_path, read_flags, synced_rename, values_path};
use crate::generate::solved::{Codes, Library, Solved};
use crate::generate::values_file;

/// Writes the material's .rtbw and .rtbz files (sub-materials in `lib`).
pub(super) fn write_syzygy(dir: &Path, t: &Solved, lib: &Library, a: &Args) -> Result<(), String> {
    let started = Instant::now();
    let entries = collect(t, lib, a)?;
    write_entries(dir, &t.layout.name, &entries, a, started)
}

/// [`write_syzygy`] for a big table. The writer needs no mate distances:
/// they go first. A pawnful table is written a leading-pawn file at a
/// time, the writer's entries (4 bytes a position) of one file at once; a
/// pawnless one is freed once the writer has its entries, so that the two
/// are never held together during compression. A table whose slices were
/// spilled to its values file (it holds none) has each file's slices read
/// back for that file only; `hundred` is what its spill counted (see
/// [`Tally::hundred`](crate::generate::summary::Tally::hundred)).
pub(super) fn write_big(
    dir: &Path,
    mut t: Solved,
    hundred: Option<[[bool; 2]; 2]>,
    lib: &Library,
    a: &Args,
) -> Result<(), String> {
    let started = Instant::now();
    t.dtm = None;
    let name = t.layout.name.clone();
    let mat = crate::material::Material::from_name(&name)
        .ok_or_else(|| format!("{name}: not a table name"))?;
    if !mat.shape.pawnful() || t.packed {
        let entries = collect(&t, lib, a)?;
        drop(t);
        let written = crate::write::write_files(&entries, &options(a));
        return save_files(dir, &name, written, a, started);
    }
    let spilled = t.dtz.iter().all(Codes::is_empty);
    let hundred = hundred.unwrap_or_else(|| crate::generate_write::hundred(&t));
    let plies = crate::generate_write::plies(hundred, mat.symmetric, a.exact_dtz);
    let bar = Bar::new();
    // A file's entries one side to move at a time: only that side's
    // slices read back (KRPvKR: 200 MB, not 400), and only its entries held.
    let sides = if mat.symmetric { 1 } else { 2 };
    // One bar for the whole writing: a (file, side) is an eighth of it.
    let label = format!("{name} (writing)");
    let mut done = fraction(&bar, &label);
    let mut entries_of = |file: usize, side: usize| {
        let slices = crate::generate_write::file_slices(&t.layout, file);
        let source_error = |why: String| crate::write::WriteError::Source(why);
        if spilled {
            fs::File::open(values_path(dir, &name))
                .and_then(|f| {
                    values_file::read_dtz_slices(&mut BufReader::new(f), &mut t, &slices, side)
                })
                .map_err(|e| source_error(format!("reading back {name}.swv: {e}")))?;
            read_flags(dir, &mut t, &slices, side)
                .map_err(|e| source_error(format!("reading back its flags: {e}")))?;
        }
        let source = crate::generate_write::Generated::new(&t, lib)
            .ok_or_else(|| source_error("material has no Syzygy layout".into()))?;
        let parts = (4 * sides) as f64;
        let mut progress = |f: f64| done(((file * sides + side) as f64 + f) / parts);
        let entries = crate::write::Entries::collect_side_parallel(
            &mat,
            &source,
            file,
            side,
            threads(a),
            &mut progress,
        )
        .map_err(crate::write::WriteError::from)?;
        if let Some(slice) = source.absent() {
            return Err(source_error(format!(
                "leading-pawn file {file} reads slice {slice}, not read back"
            )));
        }
        drop(source);
        if spilled {
            for &slice in &slices {
                t.dtz[side].clear(slice);
                if let Some(f) = t.free.as_mut() {
                    f[side].clear(slice);
                }
            }
        }
        Ok(entries)
    };
    let written = crate::write::write_by_file(&name, &plies, &options(a), &mut entries_of)
        .map_err(|e| e.to_string())?;
    bar.clear();
    let _ = fs::remove_file(flags_path(dir, &name));
    save_files(dir, &name, written, a, started)
}

/// The writer's entries of a finished table, with a progress bar.
pub(super) fn collect(
    t: &Solved,
    lib: &Library,
    a: &Args,
) -> Result<crate::write::Entries, String> {
    let source = crate::generate_write::Generated::new(t, lib)
        .ok_or_else(|| "material has no Syzygy layout".to_string())?;
    let bar = Bar::new();
    let label = format!("{} (writing)", t.layout.name);
    let entries = crate::write::collect_parallel(
        &t.layout.name,
        &source,
        threads(a),
        &mut fraction(&bar, &label),
    )
    .map_err(|e| e.to_string())?;
    bar.clear();
    Ok(entries)
}

pub(super) fn write_entries(
    dir: &Path,
    name: &str,
    entries: &crate::write::Entries,
    a: &Args,
    started: Instant,
) -> Result<(), String> {
    let written = crate::write::write_files(entries, &options(a));
    save_files(dir, name, written, a, started)
}

pub(super) fn options(a: &Args) -> crate::write::Options {
    crate::write::Options {
        exact_dtz: a.exact_dtz,
        wide_dtz: a.wide_dtz,
        threads: threads(a),
        ..Default::default()
    }
}

pub(super) fn save_files(
    dir: &Path,
    name: &str,
    written: crate::write::Written,
    a: &Args,
    started: Instant,
) -> Result<(), String> {
    let mut sizes = Vec::new();
    for (ext, bytes) in [("rtbw", written.wdl), ("rtbz", written.dtz)] {
        let path = dir.join(format!("{name}.{ext}"));
        let tmp = path.with_extension(format!("{ext}.part"));
        fs::write(&tmp, &bytes)
            .and_then(|_| synced_rename(&tmp, &path))
            .map_err(|e| {
                let _ = fs::remove_file(&tmp);
                format!("writing {}: {e}", path.display())
            })?;
        sizes.push(bytes.len());
    }
    record_written(dir, name, &written_as(a))
        .map_err(|e| format!("writing {}: {e}", dir.join(WRITTEN).display()))?;
    // A closed standard error loses the line, not the run (eprintln! panics).
    let _ = writeln!(
        std::io::stderr(),
        "{name}: wrote {name}.rtbw ({} bytes) and {name}.rtbz ({} bytes) in {:.2} s",
        sizes[0],
        sizes[1],
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The list of tables this generator wrote in a directory, one a line:
/// the name, then the DTZ options it was written with (see
/// [`written_as`]). Their values files may be gone (`scripts/tables.sh`
/// removes them), and they are still ours to replace.
const WRITTEN: &str = ".syzygy-web-written";

/// The options that change a table's written bytes, as its line in the
/// list records them: a sub-material whose files were written otherwise
/// is written again from its values.
pub(super) fn written_as(a: &Args) -> String {
    let mut o = Vec::new();
    if a.exact_dtz {
        o.push("--exact-dtz");
    }
    if a.wide_dtz {
        o.push("--wide-dtz");
    }
    o.join(" ")
}

fn record_written(dir: &Path, name: &str, how: &str) -> std::io::Result<()> {
    let path = dir.join(WRITTEN);
    // A list that cannot be read is not taken for an empty one: rewriting
    // it would drop every other table's line.
    let old = read_list(&path)?;
    let line = if how.is_empty() {
        name.to_string()
    } else {
        format!("{name} {how}")
    };
    if old.lines().any(|l| l == line) {
        return Ok(());
    }
    // The other lines as they were, this one replaced: through a scratch
    // file, so that a failed write loses no line.
    let mut text: String = old
        .lines()
        .filter(|l| l.split(' ').next() != Some(name))
        .map(|l| format!("{l}\n"))
        .collect();
    text.push_str(&line);
    text.push('\n');
    let tmp = dir.join(format!("{WRITTEN}.part"));
    fs::write(&tmp, text).and_then(|_| synced_rename(&tmp, &path))
}

/// The list's text, empty when there is none yet; a byte that is not
/// UTF-8 spoils its line, not the others.
fn read_list(path: &Path) -> std::io::Result<String> {
    match fs::read(path) {
        Ok(bytes) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(e),
    }
}

/// The tables this generator wrote in `dir`, each with the options it was
/// written with (see [`written_as`]).
pub(super) fn written_here(
    dir: &Path,
) -> Result<std::collections::HashMap<String, String>, String> {
    let path = dir.join(WRITTEN);
    let text = read_list(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| match l.split_once(' ') {
            Some((name, how)) => (name.to_string(), how.to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect())
}
