//! Our values files in the output directory: finished tables read back
//! (all of a table, or the sides to move later materials read), saved,
//! and the writer flags a spilled table keeps beside them.

use std::collections::HashMap;
use std::fs;
use std::io::{self, BufReader, BufWriter};
use std::path::{Path, PathBuf};

use crate::generate::layout::{flip_key, name_of, Layout};
use crate::generate::solved::{Codes, Solved};
use crate::generate::values_file;

pub(super) fn values_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.{}", values_file::EXTENSION))
}

/// A spilled table's writer flags until its Syzygy files are written (a
/// scratch file: each half's [`crate::generate::free::FlagArray::pack`]ed
/// flags at [`flags_offset`]). A table whose values are reused from an
/// earlier run has no flags, and the writer generates its moves instead.
pub(super) fn flags_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.flags.part"))
}

pub(super) fn flags_offset(l: &Layout, slice: usize, side: usize) -> u64 {
    ((side * l.slices.len() + slice) * l.slice_size.div_ceil(4)) as u64
}

/// A finished table with exact values (not packed) from the output
/// directory, if one of this version and of this material is there and fits.
pub(super) fn load_exact(dir: &Path, name: &str, dtm: bool) -> Option<Solved> {
    let f = fs::File::open(values_path(dir, name)).ok()?;
    let mut t = values_file::read(&mut BufReader::new(f)).ok()?;
    if !dtm {
        // A run without --dtm reports none, from reused files too.
        t.dtm = None;
    }
    (t.layout.name == name && (!dtm || t.dtm.is_some())).then_some(t)
}

/// Why a values file the plan counted on cannot be read.
#[derive(Debug)]
pub(super) struct Unusable {
    pub path: PathBuf,
    /// Its bytes are wrong (a value no table holds, another material, cut
    /// short): generating it again mends it. Otherwise the file could not
    /// be opened or read.
    pub damaged: bool,
    pub why: String,
}

/// A finished table from the output directory, with the sides to move in
/// `sides` (the others left empty), or why not.
pub(super) fn load(
    dir: &Path,
    name: &str,
    dtm: bool,
    sides: [bool; 2],
) -> Result<Solved, Unusable> {
    let path = values_path(dir, name);
    let unusable = |damaged: bool, what: &dyn std::fmt::Display| Unusable {
        path: path.clone(),
        damaged,
        why: format!("{name}: {}: {what}", path.display()),
    };
    let f = fs::File::open(&path).map_err(|e| unusable(false, &e))?;
    let t = values_file::read_packed_sides(&mut BufReader::new(f), sides).map_err(|e| {
        let damaged = matches!(
            e.kind(),
            io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof
        );
        unusable(damaged, &e)
    })?;
    if t.layout.name != name {
        return Err(unusable(true, &format_args!("holds {}", t.layout.name)));
    }
    if dtm && !t.packed && t.dtm.is_none() {
        return Err(unusable(true, &"holds no distances to mate"));
    }
    Ok(t)
}

/// A sub-table from the output directory, on the sides planned
/// materials read, or why not.
pub(super) fn load_sub(
    dir: Option<&Path>,
    key: &[u8; 12],
    dtm: bool,
    read_on: &HashMap<[u8; 12], [bool; 2]>,
) -> Result<Solved, Unusable> {
    let name = name_of(key).0;
    let Some(d) = dir else {
        return Err(Unusable {
            path: PathBuf::from(format!("{name}.{}", values_file::EXTENSION)),
            damaged: false,
            why: format!("{name}: not generated, and no output directory to read it from"),
        });
    };
    load(d, &name, dtm, sides_read(key, read_on)).map(|t| only_read(t, read_on))
}

/// The values files of `keys` from the output directory, `threads` read at
/// once (KRPvKR's four 5-piece sub-tables: 3.9 s one after another).
pub(super) fn load_all(
    dir: Option<&Path>,
    keys: &[[u8; 12]],
    dtm: bool,
    threads: usize,
    read_on: &HashMap<[u8; 12], [bool; 2]>,
) -> Vec<Result<Solved, Unusable>> {
    let one = |c: &[u8; 12]| load_sub(dir, c, dtm, read_on);
    let mut out = Vec::with_capacity(keys.len());
    for batch in keys.chunks(threads.max(1)) {
        std::thread::scope(|scope| {
            // A thread the system refuses to start (a process limit): that
            // load runs here, after the others started.
            let loads: Vec<_> = batch
                .iter()
                .map(|c| {
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || one(c))
                        .map_err(|_| c)
                })
                .collect();
            for l in loads {
                out.push(match l {
                    Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                    Err(c) => one(c),
                });
            }
        });
    }
    out
}

/// Holds `dir` for this run (see [`fs::File::try_lock`]): the error names
/// the directory when another run has it.
pub(super) fn lock(dir: &Path) -> Result<fs::File, String> {
    let failed = |e: &dyn std::fmt::Display| format!("output directory {}: {e}", dir.display());
    fs::create_dir_all(dir).map_err(|e| failed(&e))?;
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(".generate.lock"))
        .map_err(|e| failed(&e))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(fs::TryLockError::WouldBlock) => Err(failed(
            &"another `syzygy-web generate` is writing there; wait for it or choose another --out",
        )),
        // A file system without locks: run as before locks.
        Err(fs::TryLockError::Error(e)) if e.kind() == io::ErrorKind::Unsupported => Ok(file),
        Err(fs::TryLockError::Error(e)) => Err(failed(&e)),
    }
}

pub(super) fn save(dir: &Path, t: &Solved) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    let path = values_path(dir, &t.layout.name);
    let tmp = path.with_extension("swv.part");
    let mut w = BufWriter::new(fs::File::create(&tmp)?);
    values_file::write(t, &mut w)?;
    w.into_inner().map_err(|e| e.into_error())?;
    synced_rename(&tmp, &path)
}

/// Renames a finished scratch file to its name once its bytes are on disk:
/// after a power cut a file renamed unsynced can keep its length with its
/// bytes zeroed, and zeros read as draws, a values file that passes every
/// check (syncing KRPvKR's 3.2 GB costs seconds of its minutes).
pub(super) fn synced_rename(tmp: &Path, path: &Path) -> io::Result<()> {
    fs::File::open(tmp)?.sync_all()?;
    fs::rename(tmp, path)
}

/// The writer flags of `slices` with `side` to move of a spilled table,
/// from its scratch file.
pub(super) fn read_flags(
    dir: &Path,
    t: &mut Solved,
    slices: &[usize],
    side: usize,
) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    let file = fs::File::open(flags_path(dir, &t.layout.name))?;
    let Some(free) = t.free.as_mut() else {
        return Ok(());
    };
    for &slice in slices {
        let mut packed = vec![0u8; free[side].packed_len()];
        file.read_exact_at(&mut packed, flags_offset(&t.layout, slice, side))?;
        free[side].set_packed(slice, packed);
    }
    Ok(())
}

/// The sides to move (White, Black) of a table that planned materials read
/// (both of a symmetric one, whose lookups may land on either).
pub(super) fn sides_read(key: &[u8; 12], read_on: &HashMap<[u8; 12], [bool; 2]>) -> [bool; 2] {
    if *key == flip_key(key) {
        return [true; 2];
    }
    read_on.get(key).copied().unwrap_or([true; 2])
}

/// A sub-table without the side to move that no planned material reads.
pub(super) fn only_read(mut t: Solved, read_on: &HashMap<[u8; 12], [bool; 2]>) -> Solved {
    let sides = sides_read(&t.layout.key, read_on);
    for (s, read) in sides.into_iter().enumerate() {
        if !read {
            t.dtz[s] = Codes::default();
            if let Some(dtm) = &mut t.dtm {
                dtm[s] = Codes::default();
            }
        }
    }
    t
}
