//! `syzygy-web generate`: the generator's command-line face. Plans the
//! materials, reads finished sub-materials from the output directory, shows
//! progress, writes our values files and prints a summary per table.

mod args;
mod memory;
mod progress;
mod spill;
mod syzygy_files;
mod values_dir;

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use crate::generate::layout::{name_of, parse_material, Layout};
use crate::generate::solved::Library;
use crate::generate::summary::summarize;
use crate::generate::{self, plan, values_file, Options};
use args::threads;
pub use args::{parse, Args, USAGE};
use progress::Bar;
use spill::ToValuesFile;
use syzygy_files::{write_big, write_syzygy, written_as, written_here};
use values_dir::{
    flags_path, load, load_all, load_exact, load_sub, only_read, save, sides_read, values_path,
    Unusable,
};

/// Tables with more positions a side than this are freed as soon as the
/// writer has its entries (4 bytes a position): the two are never held
/// together during compression.
const FREED_FOR_WRITING: usize = 1 << 28;

/// Pawnful tables with more positions a side than this go to their values
/// file a slice at a time as they are generated ([`ToValuesFile`]) and are
/// written a leading-pawn file at a time from slices read back.
const SPILLED: usize = 1 << 26;

/// Sub-tables with more positions a side than this, read by later
/// materials through promotions only, are not held for them: each is
/// fetched from its values file while a material's promotions are valued
/// (see [`generate::promote`]), one at a time.
const FETCHED: usize = 1 << 24;

/// Removes the run's scratch files (`NAME.swv.part`, `NAME.flags.part`...)
/// from the output directory when it returns, an error such as a full disk
/// included (a killed run's go at the end of the next):
/// a part of a values file can reach gigabytes, and no later run reads
/// one (each starts its own).
struct Scratch<'a>(&'a Path);

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        let Ok(entries) = fs::read_dir(self.0) else {
            return;
        };
        let written = written_here(self.0).unwrap_or_default();
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            // Only the generator's own: the folder may hold anyone's files
            // (a browser names a partial download NAME.rtbw.part too).
            let table = |ext: &str| {
                name.strip_suffix(ext)
                    .is_some_and(|t| values_path(self.0, t).exists() || written.contains_key(t))
            };
            let ours = [".swv.part", ".flags.part"]
                .iter()
                .any(|x| name.ends_with(x))
                || table(".rtbw.part")
                || table(".rtbz.part")
                || name == ".syzygy-web-written.part";
            if ours {
                let _ = fs::remove_file(e.path());
            }
        }
    }
}

/// Whether `dir` holds both Syzygy files of material `name`.
fn syzygy_files_in(dir: &Path, name: &str) -> bool {
    ["rtbw", "rtbz"]
        .iter()
        .all(|ext| dir.join(format!("{name}.{ext}")).is_file())
}

pub fn run(a: &Args) -> Result<(), String> {
    // A values file the plan took as finished but whose bytes turn out
    // wrong when read (a value no table holds: only its head and length
    // were checked) is removed and generated again, once per file: else
    // every later run stopped at it.
    let mut mended = HashSet::new();
    loop {
        let damaged = Mutex::new(None);
        let Err(e) = run_once(a, &damaged) else {
            return Ok(());
        };
        let found = damaged.into_inner().unwrap_or_else(|p| p.into_inner());
        match found {
            Some(path) if mended.insert(path.clone()) => {
                let _ = writeln!(io::stderr(), "{e}: removed, generating it again");
            }
            _ => return Err(e),
        }
    }
}

/// The error of a values file that could not be read. One whose bytes are
/// wrong is removed here, while the run holds the directory, and its path
/// kept in `damaged`: generating it again mends it.
fn noted(u: Unusable, damaged: &Mutex<Option<PathBuf>>) -> String {
    if !u.damaged {
        return u.why;
    }
    if let Err(e) = fs::remove_file(&u.path) {
        return format!("{}; removing it: {e}", u.why);
    }
    *damaged.lock().unwrap_or_else(|p| p.into_inner()) = Some(u.path);
    u.why
}

/// One go at [`run`]; a damaged values file it met is left in `damaged`.
fn run_once(a: &Args, damaged: &Mutex<Option<PathBuf>>) -> Result<(), String> {
    let mut targets = Vec::new();
    for m in &a.materials {
        targets.push(parse_material(m).map_err(|e| e.0)?);
    }
    if let Some(n) = a.max {
        targets.extend(plan::all_up_to(n));
    }
    let target_set: HashSet<[u8; 12]> = targets.iter().map(|&k| plan::normalize(k)).collect();
    let dir = a.out.clone();
    // One run an output directory at a time: two would share its scratch
    // files (the second emptying what the first writes). The lock goes
    // with the process, a crash included.
    let _lock = dir.as_deref().map(values_dir::lock).transpose()?;
    // Declared after the lock, so dropped before it.
    let _scratch = dir.as_deref().map(Scratch);
    // Files written with other DTZ options (`--exact-dtz`) are not done:
    // they are written again from the values.
    let written = dir
        .as_deref()
        .map(written_here)
        .transpose()?
        .unwrap_or_default();
    let how = written_as(a);
    // Files this generator did not write (official KBvK beside ours) are
    // done whatever the options: they are never replaced.
    let files_done = |d: &Path, name: &str| {
        syzygy_files_in(d, name)
            && match written.get(name) {
                Some(o) => *o == how,
                None => how.is_empty() || !values_path(d, name).exists(),
            }
    };
    // A Syzygy directory is complete only with the trivially drawn tables
    // that positions reach (KBvK, KNvK): probers open those like any other.
    if let Some(d) = dir.as_ref().filter(|_| !a.values_only) {
        for c in plan::order(&targets, |_| false)
            .iter()
            .flat_map(plan::children)
        {
            if plan::trivial(&c)
                && plan::pieces(&c) == 3
                && !targets.contains(&c)
                && !files_done(d, &name_of(&c).0)
            {
                targets.push(c);
            }
        }
    }
    // A sub-material is done when its values are and, unless only values
    // are asked for, its Syzygy files too: a run stopped between the two
    // (values are saved first) writes them from the values next time.
    let on_disk = |k: &[u8; 12]| {
        dir.as_deref().is_some_and(|d| {
            let name = name_of(k).0;
            fs::File::open(values_path(d, &name)).is_ok_and(|mut f| {
                let len = f.metadata().map_or(0, |m| m.len());
                values_file::current(&mut f, &name, a.dtm, len)
            }) && (a.values_only || files_done(d, &name))
        })
    };
    let order = plan::order(&targets, on_disk);
    // Syzygy files this generator did not write (official tables, say:
    // no values file beside them, and not in its list) are never replaced.
    if let Some(d) = dir.as_deref().filter(|_| !a.values_only) {
        for k in &order {
            let name = name_of(k).0;
            if values_path(d, &name).exists() || written.contains_key(&name) {
                continue;
            }
            if let Some(f) = ["rtbw", "rtbz"]
                .iter()
                .map(|ext| format!("{name}.{ext}"))
                .find(|f| d.join(f).exists())
            {
                return Err(format!(
                    "{} holds {f}, which this generator did not write (no {name}.swv beside it): it is not replaced; choose another --out, or move it away",
                    d.display()
                ));
            }
        }
    }
    // Positions within a slice are numbered in 32 bits.
    for k in &order {
        let size = Layout::new(*k).slice_size;
        if u32::try_from(size).is_err() {
            return Err(format!(
                "{}: {size} positions a slice, more than the generator numbers ({}): it makes tables of up to 5 pieces, and of 6 with pawns or runs of identical pieces",
                name_of(k).0,
                u32::MAX
            ));
        }
    }
    let opts = Options {
        threads: threads(a),
        dtm: a.dtm,
    };
    memory::check(&order, a.dtm, opts.threads, memory::available())?;
    // Which planned materials still need each table, to free memory early.
    let mut last_use: HashMap<[u8; 12], usize> = HashMap::new();
    for (i, k) in order.iter().enumerate() {
        for c in plan::children(k) {
            last_use.insert(c, i);
        }
    }
    // The sides to move each planned material is read on.
    let mut read_on: HashMap<[u8; 12], [bool; 2]> = HashMap::new();
    for k in &order {
        for (c, side) in plan::children_to_move(k) {
            read_on.entry(c).or_default()[side] = true;
        }
    }
    // No material after the `i`th in `order` reads `k`.
    let done_after = |k: &[u8; 12], i: usize| {
        last_use.get(k).is_some_and(|&l| l <= i) && !order[i + 1..].contains(k)
    };
    // Big tables that materials read through promotions only: fetched
    // from the output directory when read, never held for them.
    let mut fetched: HashSet<[u8; 12]> = HashSet::new();
    if dir.is_some() {
        let mut other_reads = HashSet::new();
        for k in &order {
            let promoted = plan::promotion_children(k);
            for c in plan::children(k) {
                if !promoted.contains(&c) {
                    other_reads.insert(c);
                }
            }
            fetched.extend(promoted);
        }
        fetched
            .retain(|c| !other_reads.contains(c) && Layout::new(*c).positions_per_side() > FETCHED);
    }
    let mut lib = Library::default();
    let stdout = io::stdout();
    for (i, &key) in order.iter().enumerate() {
        let name = name_of(&key).0;
        // A target's values from an earlier run that stopped before its
        // files were written are taken as they are: generating is
        // deterministic.
        let reused = dir.as_deref().and_then(|d| load_exact(d, &name, a.dtm));
        let fresh = reused.is_none();
        // Values taken as they were hold none of the writer's facts: its
        // writer looks up every zeroing move, so the promotion sub-tables
        // that generating fetches are held for it (without them, KRPvKR's
        // DTZ file came out 14% larger).
        let writer_looks_up = !fresh && !a.values_only;
        let mut missing: Vec<[u8; 12]> = plan::children(&key)
            .into_iter()
            .filter(|c| {
                let wanted = if fetched.contains(c) {
                    writer_looks_up
                } else {
                    !order.contains(c)
                };
                wanted && !plan::trivial(c) && !lib.contains(c)
            })
            .collect();
        missing.sort_unstable();
        missing.dedup();
        let loaded = load_all(dir.as_deref(), &missing, a.dtm, threads(a), &read_on);
        for t in loaded {
            lib.insert(t.map_err(|u| noted(u, damaged))?);
        }
        let started = Instant::now();
        // A big pawnful table goes to its values file a slice at a time.
        let layout = Layout::new(key);
        let spills = fresh
            && layout.pawnful()
            && layout.slices.len() > 1
            && layout.positions_per_side() > SPILLED;
        let mut spill = match &dir {
            Some(d) if spills => Some(
                ToValuesFile::create(d, &layout, a.dtm)
                    .map_err(|e| format!("{name}: writing {}: {e}", d.display()))?,
            ),
            _ => None,
        };
        let t = match reused {
            Some(t) => t,
            None => {
                let bar = Bar::new();
                let release = |k: &[u8; 12]| done_after(k, i);
                let sink = spill.as_mut().map(|s| s as &mut dyn generate::Spill);
                let mut fetch = |k: &[u8; 12]| {
                    load_sub(dir.as_deref(), k, a.dtm, &read_on).map_err(|u| noted(u, damaged))
                };
                let t =
                    generate::generate_into(key, &mut lib, &release, &mut fetch, sink, opts, &bar);
                bar.clear();
                t.map_err(|e| format!("{name}: {e}"))?
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        let wants_summary = target_set.contains(&key) || a.json;
        let mut hundred = None;
        let (summary, saved) = match (spill, &dir) {
            (Some(spill), Some(d)) => match spill.finish(d, &layout) {
                Ok((s, h)) => {
                    hundred = Some(h);
                    if a.values_only {
                        let _ = fs::remove_file(flags_path(d, &name));
                    }
                    (wants_summary.then_some(s), Ok(()))
                }
                Err(e) => (None, Err(format!("{name}: writing {}: {e}", d.display()))),
            },
            // The summary reads the table while it is saved.
            _ => std::thread::scope(|scope| {
                // Without a thread to spare (a process limit), after the save.
                let summary = std::thread::Builder::new()
                    .spawn_scoped(scope, || wants_summary.then(|| summarize(&t)));
                let saved = match &dir {
                    Some(d) if fresh => {
                        save(d, &t).map_err(|e| format!("{name}: writing {}: {e}", d.display()))
                    }
                    _ => Ok(()),
                };
                let summary = match summary {
                    Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                    Err(_) => wants_summary.then(|| summarize(&t)),
                };
                (summary, saved)
            }),
        };
        saved?;
        let needed_later = last_use.get(&key).is_some_and(|&l| l > i) && !fetched.contains(&key);
        // A table that kept its writer's facts is written without its
        // sub-tables: those no later material needs go first (KRPvKR's
        // capture sub-tables; its promotion ones went during generation).
        if t.free.is_some() {
            lib.retain(|k| !done_after(k, i));
        }
        let mut t = Some(t);
        if let Some(d) = &dir {
            // Two bare kings are a draw by the rules: probers never open a
            // KvK file, so none is written (its values file serves the
            // materials above it).
            let bare_kings = key.iter().map(|&n| u32::from(n)).sum::<u32>() == 2;
            if !a.values_only && !bare_kings {
                let big = hundred.is_some()
                    || t.as_ref()
                        .is_some_and(|t| t.layout.positions_per_side() > FREED_FOR_WRITING);
                if let Some(table) = t.take_if(|_| big) {
                    write_big(d, table, hundred, &lib, a).map_err(|e| format!("{name}: {e}"))?;
                } else if let Some(t) = &t {
                    write_syzygy(d, t, &lib, a).map_err(|e| format!("{name}: {e}"))?;
                }
            }
            // A table written out (or spilled, holding no codes) is read
            // back if a later material needs it.
            if t.is_none() || hundred.is_some() {
                t = if needed_later {
                    let back = load(d, &name, a.dtm, sides_read(&key, &read_on));
                    Some(back.map_err(|u| format!("reading back {}", u.why))?)
                } else {
                    None
                };
            }
        }
        if let Some(s) = summary {
            let _ = writeln!(io::stderr(), "{}", s.line(seconds));
            if a.json {
                let mut out = stdout.lock();
                // A reader that stopped reading (`| head`) is not a failure;
                // without --out, the tables after are then made for no one.
                if let Err(e) = writeln!(out, "{}", s.json(seconds, opts.threads)) {
                    if e.kind() != io::ErrorKind::BrokenPipe {
                        return Err(format!("writing standard output: {e}"));
                    }
                    if a.out.is_none() {
                        return Ok(());
                    }
                }
            }
        }
        if let Some(t) = t.filter(|_| needed_later) {
            lib.insert(only_read(t.packed(), &read_on));
        }
        lib.retain(|k| !done_after(k, i));
    }
    Ok(())
}
