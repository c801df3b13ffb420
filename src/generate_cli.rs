//! `syzygy-web generate`: the generator's command-line face. Plans the
//! materials, reads finished sub-materials from the output directory, shows
//! progress, writes our values files and prints a summary per table.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, BufReader, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::generate::layout::{flip_key, name_of, parse_material, Layout};
use crate::generate::solved::{Codes, Library, Solved};
use crate::generate::summary::{summarize, Summary, Tally};
use crate::generate::{self, plan, values_file, Options, Progress};

pub const USAGE: &str =
    "usage: syzygy-web generate MATERIAL... [--max N] [--out DIR] [--threads N] [--dtm] [--json] [--exact-dtz] [--wide-dtz]
      Generates tables by retrograde analysis: WDL and DTZ50'' of every
      position, and with --dtm the distance to mate.
      MATERIAL         e.g. KRPvKR (sub-materials are generated first, or
                       read from DIR when an earlier run wrote them)
      --max N          every material of 3 to N pieces
      --out DIR        write NAME.swv (generated values) and the Syzygy
                       files NAME.rtbw and NAME.rtbz per material
      --exact-dtz      DTZ in plies wherever |DTZ| <= 100 (no rounding)
      --wide-dtz       16-bit DTZ value maps even where 8 bits suffice
      --threads N      threads (default: the machine's cores)
      --dtm            also compute distances to mate
      --json           one JSON summary per table on standard output";

#[derive(Debug, Clone, Default)]
pub struct Args {
    pub materials: Vec<String>,
    pub max: Option<usize>,
    pub out: Option<PathBuf>,
    pub threads: Option<usize>,
    pub dtm: bool,
    pub json: bool,
    pub exact_dtz: bool,
    pub wide_dtz: bool,
    /// With `out`: keep only our values files, no Syzygy files (a library
    /// caller's choice, e.g. a test that checks values, not the writer).
    pub values_only: bool,
}

/// Parses the arguments after `generate`.
pub fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match arg.as_str() {
            "--dtm" => a.dtm = true,
            "--json" => a.json = true,
            "--exact-dtz" => a.exact_dtz = true,
            "--wide-dtz" => a.wide_dtz = true,
            "--out" => a.out = Some(PathBuf::from(value("--out")?)),
            "--max" => {
                let v = value("--max")?;
                let n: usize = v.parse().map_err(|_| format!("--max {v}: not a number"))?;
                if !(3..=generate::layout::MAX_PIECES).contains(&n) {
                    return Err(format!("--max {n}: between 3 and 7"));
                }
                a.max = Some(n);
            }
            "--threads" => {
                let v = value("--threads")?;
                let n: usize = v
                    .parse()
                    .map_err(|_| format!("--threads {v}: not a number"))?;
                a.threads = Some(n.max(1));
            }
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            m => a.materials.push(m.to_string()),
        }
    }
    if a.materials.is_empty() && a.max.is_none() {
        return Err("name at least one material, or --max N".into());
    }
    Ok(a)
}

/// A progress bar on standard error, drawn only on a terminal and only for
/// work that lasts more than a second.
struct Bar {
    done: AtomicU64,
    started: Instant,
    last: Mutex<Instant>,
    tty: bool,
}

impl Bar {
    fn new() -> Bar {
        Bar {
            done: AtomicU64::new(0),
            started: Instant::now(),
            last: Mutex::new(Instant::now()),
            tty: io::stderr().is_terminal(),
        }
    }

    fn clear(&self) {
        if self.tty && self.started.elapsed().as_secs_f64() > 1.0 {
            eprint!("\r\x1b[2K");
        }
    }
}

impl Progress for Bar {
    fn advance(&self, material: &str, units: u64, total: u64) {
        let done = self.done.fetch_add(units, Ordering::Relaxed) + units;
        if !self.tty {
            return;
        }
        let elapsed = self.started.elapsed().as_secs_f64();
        let Ok(mut last) = self.last.try_lock() else {
            return;
        };
        if elapsed < 1.0 || last.elapsed().as_millis() < 100 {
            return;
        }
        *last = Instant::now();
        let frac = (done as f64 / total.max(1) as f64).min(1.0);
        let width = 30;
        let filled = (frac * width as f64) as usize;
        let eta = if frac > 0.01 {
            format!("{:.0} s left", elapsed / frac - elapsed)
        } else {
            String::new()
        };
        eprint!(
            "\r\x1b[2K{material} [{}{}] {:>3.0}% {elapsed:.1} s {eta}",
            "#".repeat(filled),
            ".".repeat(width - filled),
            frac * 100.0
        );
    }
}

fn values_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.{}", values_file::EXTENSION))
}

/// A spilled table's writer flags until its Syzygy files are written (a
/// scratch file: each half's [`crate::generate::free::FlagArray::pack`]ed
/// flags at [`flags_offset`]). A table whose values are reused from an
/// earlier run has no flags, and the writer generates its moves instead.
fn flags_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.flags.part"))
}

fn flags_offset(l: &Layout, slice: usize, side: usize) -> u64 {
    ((side * l.slices.len() + slice) * l.slice_size.div_ceil(4)) as u64
}

/// A finished table with exact values (not packed) from the output
/// directory, if one of this version is there and fits.
fn load_exact(dir: &Path, name: &str, dtm: bool) -> Option<Solved> {
    let f = fs::File::open(values_path(dir, name)).ok()?;
    let t = values_file::read(&mut BufReader::new(f)).ok()?;
    (!dtm || t.dtm.is_some()).then_some(t)
}

/// A finished table from the output directory, if one is there and fits,
/// with the sides to move in `sides` (the others left empty).
fn load(dir: &Path, name: &str, dtm: bool, sides: [bool; 2]) -> Option<Solved> {
    let f = fs::File::open(values_path(dir, name)).ok()?;
    let t = values_file::read_packed_sides(&mut BufReader::new(f), sides).ok()?;
    (!dtm || t.packed || t.dtm.is_some()).then_some(t)
}

/// A sub-table from the output directory, on the sides planned
/// materials read, or why not.
fn load_sub(
    dir: Option<&Path>,
    key: &[u8; 12],
    dtm: bool,
    read_on: &HashMap<[u8; 12], [bool; 2]>,
) -> Result<Solved, String> {
    let name = name_of(key).0;
    dir.and_then(|d| load(d, &name, dtm, sides_read(key, read_on)))
        .map(|t| only_read(t, read_on))
        .ok_or_else(|| format!("{name}: no usable {name}.swv in the output directory"))
}

/// The values files of `keys` from the output directory, `threads` read at
/// once (KRPvKR's four 5-piece sub-tables: 3.9 s one after another).
fn load_all(
    dir: Option<&Path>,
    keys: &[[u8; 12]],
    dtm: bool,
    threads: usize,
    read_on: &HashMap<[u8; 12], [bool; 2]>,
) -> Vec<Result<Solved, String>> {
    let one = |c: &[u8; 12]| load_sub(dir, c, dtm, read_on);
    let mut out = Vec::with_capacity(keys.len());
    for batch in keys.chunks(threads.max(1)) {
        std::thread::scope(|scope| {
            let loads: Vec<_> = batch.iter().map(|c| scope.spawn(move || one(c))).collect();
            for l in loads {
                out.push(l.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
            }
        });
    }
    out
}

fn save(dir: &Path, t: &Solved) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    let path = values_path(dir, &t.layout.name);
    let tmp = path.with_extension("swv.part");
    let mut w = BufWriter::new(fs::File::create(&tmp)?);
    values_file::write(t, &mut w)?;
    // No fsync: a file cut short by a crash fails the size check on
    // reading and is generated again (syncing KRPvKR's 3.2 GB cost seconds).
    w.into_inner().map_err(|e| e.into_error())?;
    fs::rename(tmp, path)
}

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

/// Writes the material's .rtbw and .rtbz files (sub-materials in `lib`).
fn write_syzygy(dir: &Path, t: &Solved, lib: &Library, a: &Args) -> Result<(), String> {
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
/// [`Tally::hundred`]).
fn write_big(
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
        return save_files(dir, &name, written, started);
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
    save_files(dir, &name, written, started)
}

/// The writer flags of `slices` with `side` to move of a spilled table,
/// from its scratch file.
fn read_flags(dir: &Path, t: &mut Solved, slices: &[usize], side: usize) -> io::Result<()> {
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

/// Half a slice handed to the values file's writer: number, side to
/// move, DTZ50'' codes, mate codes, packed writer flags.
type Slice = (usize, usize, Vec<i16>, Option<Vec<i16>>, Vec<u8>);

/// A big table's slices written to its values file (`NAME.swv.part`, at
/// their place) as the generator lets them go, and counted for the
/// summary on the way: on a thread of its own, so that solving goes on
/// meanwhile (KRPvKR: 24 slices of 134 MB).
struct ToValuesFile {
    send: Option<std::sync::mpsc::SyncSender<Slice>>,
    /// A word from the writer each time it has written a half.
    written: std::sync::mpsc::Receiver<()>,
    /// A half was handed over and not yet written.
    in_flight: bool,
    writer: Option<std::thread::JoinHandle<(Tally, io::Result<()>)>>,
}

impl ToValuesFile {
    fn create(dir: &Path, layout: &Layout, dtm: bool) -> io::Result<Self> {
        use std::os::unix::fs::FileExt;
        fs::create_dir_all(dir)?;
        let file = fs::File::create(values_path(dir, &layout.name).with_extension("swv.part"))?;
        file.write_all_at(&values_file::header(layout, dtm), 0)?;
        let flags_file = fs::File::create(flags_path(dir, &layout.name))?;
        // A half is copied for the writer only once the last one is
        // written: one copy at a time, 71 MB (a half takes a tenth of a
        // second to write, a slice seconds to solve).
        let (send, slices) = std::sync::mpsc::sync_channel::<Slice>(1);
        let (done, halves_written) = std::sync::mpsc::channel::<()>();
        let l = layout.clone();
        let writer = std::thread::spawn(move || {
            let mut tally = Tally::new(&l);
            let mut written = Ok(());
            for (slice, side, dtz, dtm, flags) in slices {
                tally.add(&l, slice, side, &dtz, dtm.as_deref());
                if written.is_ok() {
                    let mut put = |at: u64, bytes: &[u8]| file.write_all_at(bytes, at);
                    written =
                        values_file::put_slice(&l, slice, side, &dtz, dtm.as_deref(), &mut put)
                            .and_then(|_| {
                                flags_file.write_all_at(&flags, flags_offset(&l, slice, side))
                            });
                }
                drop((dtz, dtm, flags));
                let _ = done.send(());
            }
            (tally, written)
        });
        Ok(ToValuesFile {
            send: Some(send),
            written: halves_written,
            in_flight: false,
            writer: Some(writer),
        })
    }

    /// Renames the part to the values file once every slice is in; the
    /// table's summary and [`Tally::hundred`].
    fn finish(mut self, dir: &Path, l: &Layout) -> io::Result<(Summary, [[bool; 2]; 2])> {
        drop(self.send.take());
        let (tally, written) = match self.writer.take().map(|w| w.join()) {
            Some(Ok(done)) => done,
            Some(Err(p)) => std::panic::resume_unwind(p),
            None => return Err(io::Error::other("values file already finished")),
        };
        written?;
        let path = values_path(dir, &l.name);
        fs::rename(path.with_extension("swv.part"), &path)?;
        let hundred = tally.hundred;
        Ok((tally.finish(l), hundred))
    }
}

impl generate::Spill for ToValuesFile {
    fn spill(
        &mut self,
        _: &Layout,
        slice: usize,
        side: usize,
        dtz: &[i16],
        dtm: Option<&[i16]>,
        flags: Vec<u8>,
    ) {
        // A writer that stopped says why when finished.
        if std::mem::take(&mut self.in_flight) && self.written.recv().is_err() {
            return;
        }
        if let Some(send) = &self.send {
            let half = (slice, side, dtz.to_vec(), dtm.map(<[i16]>::to_vec), flags);
            self.in_flight = send.send(half).is_ok();
        }
    }
}

/// The writer's entries of a finished table, with a progress bar.
fn collect(t: &Solved, lib: &Library, a: &Args) -> Result<crate::write::Entries, String> {
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

/// A progress callback (fraction done) that drives `bar` under `label`.
fn fraction<'a>(bar: &'a Bar, label: &'a str) -> impl FnMut(f64) + 'a {
    let mut last = 0u64;
    move |f: f64| {
        let now = (f * 1000.0) as u64;
        bar.advance(label, now.saturating_sub(last), 1000);
        last = last.max(now);
    }
}

fn write_entries(
    dir: &Path,
    name: &str,
    entries: &crate::write::Entries,
    a: &Args,
    started: Instant,
) -> Result<(), String> {
    let written = crate::write::write_files(entries, &options(a));
    save_files(dir, name, written, started)
}

fn options(a: &Args) -> crate::write::Options {
    crate::write::Options {
        exact_dtz: a.exact_dtz,
        wide_dtz: a.wide_dtz,
        threads: threads(a),
        ..Default::default()
    }
}

fn save_files(
    dir: &Path,
    name: &str,
    written: crate::write::Written,
    started: Instant,
) -> Result<(), String> {
    let mut sizes = Vec::new();
    for (ext, bytes) in [("rtbw", written.wdl), ("rtbz", written.dtz)] {
        let path = dir.join(format!("{name}.{ext}"));
        let tmp = path.with_extension(format!("{ext}.part"));
        fs::write(&tmp, &bytes)
            .and_then(|_| fs::rename(&tmp, &path))
            .map_err(|e| format!("writing {}: {e}", path.display()))?;
        sizes.push(bytes.len());
    }
    eprintln!(
        "{name}: wrote {name}.rtbw ({} bytes) and {name}.rtbz ({} bytes) in {:.2} s",
        sizes[0],
        sizes[1],
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Threads asked for, or as many as the machine has.
fn threads(a: &Args) -> usize {
    a.threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The sides to move (White, Black) of a table that planned materials read
/// (both of a symmetric one, whose lookups may land on either).
fn sides_read(key: &[u8; 12], read_on: &HashMap<[u8; 12], [bool; 2]>) -> [bool; 2] {
    if *key == flip_key(key) {
        return [true; 2];
    }
    read_on.get(key).copied().unwrap_or([true; 2])
}

/// A sub-table without the side to move that no planned material reads.
fn only_read(mut t: Solved, read_on: &HashMap<[u8; 12], [bool; 2]>) -> Solved {
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

/// Runs the command; Err is a message for standard error.
pub fn run(a: &Args) -> Result<(), String> {
    let mut targets = Vec::new();
    for m in &a.materials {
        targets.push(parse_material(m).map_err(|e| e.0)?);
    }
    if let Some(n) = a.max {
        targets.extend(plan::all_up_to(n));
    }
    let target_set: HashSet<[u8; 12]> = targets.iter().map(|&k| plan::normalize(k)).collect();
    let dir = a.out.clone();
    // A Syzygy directory is complete only with the trivially drawn tables
    // that positions reach (KBvK, KNvK): probers open those like any other.
    if let Some(d) = dir.as_ref().filter(|_| !a.values_only) {
        for c in plan::order(&targets, |_| false)
            .iter()
            .flat_map(plan::children)
        {
            let file = d.join(format!("{}.rtbw", name_of(&c).0));
            if plan::trivial(&c)
                && plan::pieces(&c) == 3
                && !targets.contains(&c)
                && !file.is_file()
            {
                targets.push(c);
            }
        }
    }
    let on_disk = |k: &[u8; 12]| {
        dir.as_deref().is_some_and(|d| {
            fs::File::open(values_path(d, &name_of(k).0))
                .is_ok_and(|mut f| values_file::current(&mut f))
        })
    };
    let order = plan::order(&targets, on_disk);
    let opts = Options {
        threads: threads(a),
        dtm: a.dtm,
    };
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
            lib.insert(t?);
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
                let mut fetch = |k: &[u8; 12]| load_sub(dir.as_deref(), k, a.dtm, &read_on);
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
                let summary = scope.spawn(|| wants_summary.then(|| summarize(&t)));
                let saved = match &dir {
                    Some(d) if fresh => {
                        save(d, &t).map_err(|e| format!("{name}: writing {}: {e}", d.display()))
                    }
                    _ => Ok(()),
                };
                let summary = summary
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p));
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
            if !a.values_only {
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
                    Some(back.ok_or_else(|| format!("{name}: reading back {name}.swv failed"))?)
                } else {
                    None
                };
            }
        }
        if let Some(s) = summary {
            eprintln!("{}", s.line(seconds));
            if a.json {
                let mut out = stdout.lock();
                writeln!(out, "{}", s.json(seconds, opts.threads)).map_err(|e| e.to_string())?;
            }
        }
        if let Some(t) = t.filter(|_| needed_later) {
            lib.insert(only_read(t.packed(), &read_on));
        }
        lib.retain(|k| !done_after(k, i));
    }
    Ok(())
}
