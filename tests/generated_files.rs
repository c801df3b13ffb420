//! Files written from our generator, read by two readers (ours and
//! shakmaty-syzygy), against the official tables: WDL exactly, DTZ equal
//! or within what rounding allows (both sides round: an official n means n
//! or n + 1 plies, and ours is written the same way).
//! CI: every 3-piece position, and 20,000 sampled positions of KRvKN,
//! KQvKR, KPvKP, KRvKP and KPPvK. SYZYGY_GENERATE_EXHAUSTIVE=1: every 3-4 piece table, every
//! position up to symmetry (about 1 h 45 min on 2 cores); or a list of
//! 4-piece tables (`KQvKR,KPPvK`) to cover them a few at a time. SYZYGY_GENERATE_5 with SYZYGY_GENERATE_DIR:
//! 20,000 sampled positions of each 5-piece table written there (by
//! `syzygy-web generate ... --out DIR`, minutes a table), and their sizes.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use common::*;
use shakmaty::{Chess, Position};
use syzygy_web::drivers::{FsFetcher, Tablebase};
use syzygy_web::generate::solved::Library;
use syzygy_web::generate::values_file;
use syzygy_web::{generate_cli, Config};

fn exhaustive() -> bool {
    std::env::var_os("SYZYGY_GENERATE_EXHAUSTIVE").is_some()
}

fn materials() -> Vec<String> {
    let mut m: Vec<String> = table_names().into_iter().filter(|n| n.len() == 4).collect();
    if exhaustive() {
        let list = std::env::var("SYZYGY_GENERATE_EXHAUSTIVE").unwrap_or_default();
        let some: Vec<&str> = list.split(',').filter(|n| n.len() == 5).collect();
        m.extend(
            table_names()
                .into_iter()
                .filter(|n| n.len() == 5 && (some.is_empty() || some.contains(&n.as_str()))),
        );
    } else {
        // Pawns of both colours (en passant among the samples), a piece
        // against a pawn, and two pawns of one side: our writer's piece
        // orders and pawn files read by an independent reader.
        m.extend(["KRvKN", "KQvKR", "KPvKP", "KRvKP", "KPPvK"].map(String::from));
    }
    m
}

/// The materials generated and written once per test binary.
fn written() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("target/generated-files")
            .join(if exhaustive() { "all" } else { "ci" });
        let _ = std::fs::remove_dir_all(&dir);
        let args = generate_cli::Args {
            materials: materials(),
            out: Some(dir.clone()),
            ..Default::default()
        };
        generate_cli::run(&args).expect("generated and written");
        dir
    })
}

struct Readers {
    ours: Tablebase<FsFetcher>,
    theirs: shakmaty_syzygy::Tablebase<Chess>,
    /// None without the official tables: then the two readers of our
    /// files are compared with each other only.
    official: Option<shakmaty_syzygy::Tablebase<Chess>>,
}

fn readers() -> Readers {
    readers_of(written())
}

fn readers_of(dir: &PathBuf) -> Readers {
    let mut theirs = shakmaty_syzygy::Tablebase::new();
    theirs.add_directory(dir).expect("our files");
    Readers {
        ours: Tablebase::new(FsFetcher::new(vec![dir.clone()]), Config::default()),
        theirs,
        official: official_tables().then(common::theirs),
    }
}

fn close(a: i32, b: i32) -> bool {
    a == b || (a.signum() == b.signum() && (a - b).abs() == 1)
}

/// Whether a DTZ `read` from a file can stand for the exact `truth`: a
/// value rounded to moves reads n for n or n + 1 plies, never n - 1.
fn reads_as(read: i32, truth: i32) -> bool {
    read == truth || (read.signum() == truth.signum() && truth.abs() == read.abs() + 1)
}

fn check(r: &mut Readers, pos: &Chess) -> Result<(), String> {
    let f = fen(pos);
    let theirs = wdl_of(
        r.theirs
            .probe_wdl_after_zeroing(pos)
            .map_err(|e| format!("{f}: {e}"))?,
    );
    let official = match &r.official {
        Some(o) => wdl_of(o.probe_wdl_after_zeroing(pos).map_err(|e| e.to_string())?),
        None => theirs,
    };
    let (ours, d) = r
        .ours
        .probe_dtz(pos)
        .map_err(|e| format!("{f}: ours: {e}"))?;
    if official != theirs || official != ours {
        return Err(format!(
            "{f}: wdl official {official}, shakmaty on ours {theirs}, our reader {ours}"
        ));
    }
    let (td, _) = dtz_of(r.theirs.probe_dtz(pos).map_err(|e| e.to_string())?);
    let od = match &r.official {
        Some(o) => dtz_of(o.probe_dtz(pos).map_err(|e| e.to_string())?).0,
        None => td,
    };
    if pos.is_checkmate() {
        return Ok(());
    }
    if td != d.plies && !forced_zeroing_near(pos) {
        return Err(format!(
            "{f}: dtz shakmaty on ours {td}, our reader {}",
            d.plies
        ));
    }
    if !close(td, od) {
        return Err(format!("{f}: dtz in our files {td}, official {od}"));
    }
    Ok(())
}

#[test]
fn three_piece_every_position() {
    let mut r = readers();
    let mut bad = Vec::new();
    let mut n = 0;
    for name in table_names().into_iter().filter(|n| n.len() == 4) {
        n += all_positions(&name, |pos| {
            if let Err(e) = check(&mut r, pos) {
                if bad.len() < 20 {
                    bad.push(e);
                }
            }
        });
    }
    eprintln!("3-piece positions compared: {n}");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn four_piece() {
    // Exhaustive runs deal materials out to a thread per core, each with
    // its own readers.
    let names: Vec<String> = materials().into_iter().filter(|n| n.len() == 5).collect();
    let threads = if exhaustive() {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        1
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<(usize, Vec<String>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut r = readers();
                    let (mut n, mut bad) = (0, Vec::new());
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(name) = names.get(i) else { break };
                        let (mut here, mut wrong) = (0usize, 0usize);
                        let mut each = |pos: &Chess| {
                            n += 1;
                            here += 1;
                            if let Err(e) = check(&mut r, pos) {
                                wrong += 1;
                                if bad.len() < 20 {
                                    bad.push(format!("{name}: {e}"));
                                }
                            }
                        };
                        if exhaustive() {
                            positions_up_to_symmetry(name, |p| each(p));
                            // Per table, so that a run cut short still says
                            // what it covered.
                            eprintln!("{name}: {here} positions checked, {wrong} disagreeing");
                        } else {
                            sample(name, 20_000, 11).iter().for_each(each);
                        }
                    }
                    (n, bad)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("worker"))
            .collect()
    });
    let n: usize = results.iter().map(|r| r.0).sum();
    let bad: Vec<String> = results.into_iter().flat_map(|r| r.1).collect();
    eprintln!("4-piece positions compared: {n}");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn five_piece_samples() {
    // Generation takes minutes a table: the files come from a directory
    // made beforehand (`syzygy-web generate KRRvKR ... --out DIR`), or are
    // written there for the tables SYZYGY_GENERATE_5 lists.
    let (Some(which), Some(dir)) = (
        std::env::var_os("SYZYGY_GENERATE_5"),
        std::env::var_os("SYZYGY_GENERATE_DIR"),
    ) else {
        eprintln!("skipped: set SYZYGY_GENERATE_5=1 (or a list) and SYZYGY_GENERATE_DIR");
        return;
    };
    if !official_tables() {
        eprintln!("skipped: needs the official tables (SYZYGY_PATH or ../shared/syzygy)");
        return;
    }
    let which = which.to_string_lossy().to_string();
    // Listed tables are written into a directory of their own: the values
    // files tests/generate leaves in SYZYGY_GENERATE_DIR would be read as
    // sub-materials, and sub-materials read back are not written again.
    let dir = match which.as_str() {
        "1" => PathBuf::from(dir),
        _ => PathBuf::from(dir).join("written"),
    };
    let size = |d: &PathBuf, name: &str, ext: &str| {
        std::fs::metadata(d.join(format!("{name}.{ext}"))).map(|m| m.len())
    };
    let names: Vec<String> = table_names()
        .into_iter()
        .filter(|n| n.len() == 6 && (which == "1" || which.split(',').any(|w| w == n)))
        .collect();
    // A table named in the list is written if missing; with "1", the
    // tables already in SYZYGY_GENERATE_DIR are checked.
    for name in names.iter().filter(|_| which != "1") {
        if size(&dir, name, "rtbz").is_err() {
            let args = generate_cli::Args {
                materials: vec![name.clone()],
                out: Some(dir.clone()),
                ..Default::default()
            };
            generate_cli::run(&args).expect("generated and written");
        }
    }
    let mut r = readers_of(&dir);
    let mut bad = Vec::new();
    let mut totals = [0u64; 4];
    eprintln!("table     ours WDL  official WDL   ours DTZ  official DTZ  ratio");
    for name in names {
        let (Ok(ow), Ok(oz)) = (size(&dir, &name, "rtbw"), size(&dir, &name, "rtbz")) else {
            continue;
        };
        let (tw, tz) = (
            size(&syzygy_path(), &name, "rtbw").expect("official"),
            size(&syzygy_path(), &name, "rtbz").expect("official"),
        );
        for (t, v) in totals.iter_mut().zip([ow, tw, oz, tz]) {
            *t += v;
        }
        let mut n = 0;
        for pos in sample(&name, 20_000, 13) {
            n += 1;
            if let Err(e) = check(&mut r, &pos) {
                if bad.len() < 20 {
                    bad.push(format!("{name}: {e}"));
                }
            }
        }
        eprintln!(
            "{name:8} {ow:>10} {tw:>13} {oz:>10} {tz:>13}  {:.3}  ({n} positions compared)",
            (ow + oz) as f64 / (tw + tz) as f64
        );
    }
    let [ow, tw, oz, tz] = totals;
    eprintln!(
        "total    {ow:>10} {tw:>13} {oz:>10} {tz:>13}  {:.3}",
        (ow + oz) as f64 / (tw + tz).max(1) as f64
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Our reader and shakmaty-syzygy on our files of a material with no
/// official table, against the generator's own values.
fn check_generated(r: &mut Readers, lib: &Library, pos: &Chess) -> Result<(), String> {
    use syzygy_web::generate::value;
    let f = fen(pos);
    let b = pos.board();
    let pieces: Vec<_> = b
        .occupied()
        .into_iter()
        .filter_map(|sq| b.piece_at(sq).map(|p| (p.color, p.role, sq as u8)))
        .collect();
    let (code, _) = lib
        .probe(&pieces, pos.turn())
        .ok_or_else(|| format!("{f}: not generated"))?;
    let generated = value::wdl(code);
    let theirs = wdl_of(
        r.theirs
            .probe_wdl_after_zeroing(pos)
            .map_err(|e| format!("{f}: {e}"))?,
    );
    let (ours, d) = r
        .ours
        .probe_dtz(pos)
        .map_err(|e| format!("{f}: ours: {e}"))?;
    if generated != theirs || generated != ours {
        return Err(format!(
            "{f}: wdl generated {generated}, shakmaty on ours {theirs}, our reader {ours}"
        ));
    }
    if pos.is_checkmate() {
        return Ok(());
    }
    let (td, _) = dtz_of(r.theirs.probe_dtz(pos).map_err(|e| e.to_string())?);
    if td != d.plies && !forced_zeroing_near(pos) {
        return Err(format!(
            "{f}: dtz shakmaty on ours {td}, our reader {}",
            d.plies
        ));
    }
    let gd = value::dtz_plies(code);
    if !reads_as(td, gd) {
        return Err(format!("{f}: dtz in our files {td}, generated {gd}"));
    }
    Ok(())
}

#[test]
fn six_piece_tables() {
    // 6-piece tables of three index encodings that fit this machine (runs
    // of identical pieces numbered as sets): four of a kind against a bare
    // king (the two kings open the Syzygy index, then a group of four),
    // KNNNvKN (three unique pieces open it, then a group of three) and
    // KNNvKNN (symmetric, one side stored: the kings, then two pairs).
    // Each is checked on 200,000 sampled positions and about 50,000 picked
    // among the generator's won and lost ones. SYZYGY_GENERATE_6=1 runs
    // KNNNNvK, KBBBBvK, KRRRRvK, KNNNvKN and KNNvKNN, or a list: KNNNvKN
    // takes 12 minutes to generate and 17 to write (16.5 GB at the peak),
    // KNNvKNN 6 and 10 (19.0 GB). Files go to SYZYGY_GENERATE_DIR/six
    // (default target/generated-6) and are generated only when missing.
    // With "1", KNNNNvK is also written with 16-bit DTZ value maps.
    let Some(which) = std::env::var_os("SYZYGY_GENERATE_6") else {
        eprintln!("skipped: set SYZYGY_GENERATE_6=1 (or a list of 6-piece tables)");
        return;
    };
    let which = which.to_string_lossy().to_string();
    let names: Vec<String> = match which.as_str() {
        "1" => ["KNNNNvK", "KBBBBvK", "KRRRRvK", "KNNNvKN", "KNNvKNN"]
            .map(String::from)
            .to_vec(),
        list => list.split(',').map(String::from).collect(),
    };
    let dir = std::env::var_os("SYZYGY_GENERATE_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/generated-6"),
        |d| PathBuf::from(d).join("six"),
    );
    let mut bad = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let started = std::time::Instant::now();
        if !dir.join(format!("{name}.rtbz")).is_file() {
            let args = generate_cli::Args {
                materials: vec![name.clone()],
                out: Some(dir.clone()),
                ..Default::default()
            };
            generate_cli::run(&args).expect("generated and written");
        }
        let read = |d: &PathBuf, n: &str| {
            let f = std::fs::File::open(d.join(format!("{n}.swv"))).expect("values file");
            values_file::read_packed(&mut std::io::BufReader::new(f)).expect("values")
        };
        let mut lib = Library::default();
        lib.insert(read(&dir, name));
        let mut variants = vec![(dir.clone(), "")];
        if k == 0 && which == "1" {
            // The same values with 16-bit value maps, beside the same
            // sub-tables.
            let wide = dir.join("wide");
            if !wide.join(format!("{name}.rtbz")).is_file() {
                write_wide(&dir, &wide, name, &lib);
            }
            variants.push((wide, " (16-bit maps)"));
        }
        for (d, label) in variants {
            let mut r = readers_of(&d);
            r.official = None;
            let t = std::time::Instant::now();
            let (mut n, mut wrong) = (0, 0);
            let key = syzygy_web::generate::layout::parse_material(name).expect("material");
            let picks = decisive(lib.get(&key).expect("generated"), 50_000);
            let picked = picks.len();
            for pos in sample(name, 200_000, 17).into_iter().chain(picks) {
                n += 1;
                if let Err(e) = check_generated(&mut r, &lib, &pos) {
                    wrong += 1;
                    if bad.len() < 20 {
                        bad.push(format!("{name}{label}: {e}"));
                    }
                }
            }
            let size = |ext: &str| {
                std::fs::metadata(d.join(format!("{name}.{ext}"))).map_or(0, |m| m.len())
            };
            eprintln!(
                "{name}{label}: {n} positions compared ({picked} of them picked among the decisive), {wrong} disagreeing, in {:.0} s ({} + {} bytes; {:.0} s with generating)",
                t.elapsed().as_secs_f64(),
                size("rtbw"),
                size("rtbz"),
                started.elapsed().as_secs_f64()
            );
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// About `n` positions the generator finds won or lost, spread evenly over
/// its table: where nearly every position is drawn (KNNvKNN: 0.04% are
/// not) a random sample holds too few decisive ones to test stored DTZ.
fn decisive(t: &syzygy_web::generate::solved::Solved, n: usize) -> Vec<Chess> {
    use syzygy_web::generate::value;
    // Packed codes keep the sign and the draw code of the exact ones.
    let wanted = |c: i16| value::is_decided(c) && c != value::DRAW;
    let total: usize = t
        .dtz
        .iter()
        .map(|v| v.iter().filter(|&&c| wanted(c)).count())
        .sum();
    let step = (total / n.max(1)).max(1);
    let mut out = Vec::with_capacity(n + 1);
    let mut seen = 0;
    for (side, codes) in t.dtz.iter().enumerate() {
        let turn = [shakmaty::Color::White, shakmaty::Color::Black][side];
        for (i, _) in codes.iter().enumerate().filter(|(_, &c)| wanted(c)) {
            seen += 1;
            if seen % step == 0 {
                out.extend(stored_position(t, i, turn));
            }
        }
    }
    out
}

/// Writes `name`'s files again from its values in `dir`, with 16-bit DTZ
/// value maps, into `wide`, and copies the sub-tables' files beside them.
fn write_wide(dir: &PathBuf, wide: &PathBuf, name: &str, lib: &Library) {
    use syzygy_web::generate::layout::parse_material;
    std::fs::create_dir_all(wide).expect("wide directory");
    for e in std::fs::read_dir(dir).expect("dir").flatten() {
        let file = e.file_name().to_string_lossy().to_string();
        if (file.ends_with(".rtbw") || file.ends_with(".rtbz")) && !file.starts_with(name) {
            std::fs::copy(e.path(), wide.join(&file)).expect("copied");
        }
    }
    let key = parse_material(name).expect("material");
    let table = lib.get(&key).expect("generated");
    // The writer asks the sub-tables about captures.
    let mut subs = Library::default();
    for c in syzygy_web::generate::plan::children(&key) {
        let n = syzygy_web::generate::layout::name_of(&c).0;
        if !syzygy_web::generate::plan::trivial(&c) && !subs.contains(&c) {
            let f = std::fs::File::open(dir.join(format!("{n}.swv"))).expect("sub-table values");
            subs.insert(values_file::read_packed(&mut std::io::BufReader::new(f)).expect("values"));
        }
    }
    let source = syzygy_web::generate_write::Generated::new(table, &subs).expect("layout");
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let entries = syzygy_web::write::collect_parallel(name, &source, threads, &mut |_| {})
        .expect("collected");
    let opts = syzygy_web::write::Options {
        wide_dtz: true,
        threads,
        ..Default::default()
    };
    let written = syzygy_web::write::write_files(&entries, &opts);
    std::fs::write(wide.join(format!("{name}.rtbw")), written.wdl).expect("written");
    std::fs::write(wide.join(format!("{name}.rtbz")), written.dtz).expect("written");
}
