//! Our file sizes beside the official ones: every table in SYZYGY_PATH
//! with 3-4 pieces (5 with `SIZES_PIECES=5`, or a list in `SIZES_TABLES`)
//! is read through our prober, rewritten with the default options, and
//! measured. Prints a Markdown table with times (collecting the values
//! from the prober, then writing both files) and the total ratio.
//!
//! `SIZES_VALUES=DIR` writes from our generator's values instead (the
//! NAME.swv files `syzygy-web generate ... --out DIR` left there, with
//! those of the sub-materials), e.g. for the 5-piece tables, whose values
//! take minutes to generate and are not cached here.
//!
//! `SIZES_OUT=DIR` also saves the files written, for reading them back.
//!
//! `cargo bench --bench sizes`

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

use common::official::Official;
use syzygy_web::format::write::order::candidates;
use syzygy_web::material::Material;
use syzygy_web::write::entries::Entry;
use syzygy_web::write::{collect, write_files, Entries, Options};

/// Entries of `name` from generated values in `dir`.
fn generated(dir: &std::path::Path, name: &str) -> Entries {
    use syzygy_web::generate::{layout, plan, solved::Library, values_file};
    let read = |n: &str| {
        let f = std::fs::File::open(dir.join(format!("{n}.{}", values_file::EXTENSION)))
            .unwrap_or_else(|e| panic!("{n}: {e}"));
        values_file::read_packed(&mut std::io::BufReader::new(f)).expect("values file")
    };
    let key = layout::parse_material(name).expect("material");
    let mut lib = Library::default();
    for c in plan::children(&key) {
        if !plan::trivial(&c) && !lib.contains(&c) {
            lib.insert(read(&layout::name_of(&c).0));
        }
    }
    let table = read(name);
    let source = syzygy_web::generate_write::Generated::new(&table, &lib).expect("layout");
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    syzygy_web::write::collect_parallel(name, &source, threads, &mut |_| {}).expect("collected")
}

/// Collected values are kept in target/sizes-cache, so that a change to
/// the writer is measured without asking the prober again.
fn entries(name: &str) -> Entries {
    if let Some(dir) = std::env::var_os("SIZES_VALUES") {
        return generated(std::path::Path::new(&dir), name);
    }
    let cache = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/sizes-cache");
    let path = cache.join(format!("{name}.entries"));
    let mat = Material::from_name(name).expect("material");
    if let Ok(bytes) = std::fs::read(&path) {
        let mut words = bytes
            .chunks_exact(4)
            .map(|c| Entry::from_bits(u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
        let values = Entries::shape(&mat)
            .expect("shape")
            .iter()
            .map(|sides| {
                sides
                    .iter()
                    .map(|&n| words.by_ref().take(n as usize).collect())
                    .collect()
            })
            .collect();
        if let Ok(e) = Entries::from_values(&mat, values) {
            return e;
        }
    }
    let e = collect(name, &Official::new(name), &mut |_| {}).expect("collected");
    let mut bytes = Vec::new();
    for per_side in &e.values {
        for v in per_side {
            for x in v.iter() {
                bytes.extend_from_slice(&x.bits().to_le_bytes());
            }
        }
    }
    let _ = std::fs::create_dir_all(&cache);
    let _ = std::fs::write(&path, bytes);
    e
}

fn main() {
    let max: usize = std::env::var("SIZES_PIECES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let names: Vec<String> = match std::env::var("SIZES_TABLES") {
        Ok(list) => list.split(',').map(str::to_string).collect(),
        Err(_) => common::table_names()
            .into_iter()
            .filter(|n| n.len() - 1 <= max)
            .collect(),
    };
    // SIZES_ORDERS and SIZES_FINALISTS weigh the writer's search against
    // size; SIZES_THREADS compresses subtables at once (default 1).
    let knob = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let d = Options::default();
    let opts = Options {
        orders: knob("SIZES_ORDERS", d.orders),
        finalists: knob("SIZES_FINALISTS", d.finalists),
        threads: knob("SIZES_THREADS", d.threads),
        ..d
    };
    let dir = common::syzygy_path();
    let size = |n: &str, ext: &str| {
        std::fs::metadata(dir.join(format!("{n}.{ext}")))
            .map(|m| m.len())
            .unwrap_or(0)
    };
    println!("| table | WDL ours | WDL official | DTZ ours | DTZ official | ratio | collect s | write s |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let (mut ours_total, mut theirs_total) = (0u64, 0u64);
    let (mut ours_wdl, mut theirs_wdl, mut ours_dtz, mut theirs_dtz) = (0u64, 0u64, 0u64, 0u64);
    let mut largest: Option<Entries> = None;
    for name in names {
        let t0 = Instant::now();
        let entries = entries(&name);
        let t1 = Instant::now();
        let written = write_files(&entries, &opts);
        let t2 = Instant::now();
        let (wdl, dtz) = (written.wdl.len() as u64, written.dtz.len() as u64);
        if let Some(out) = std::env::var_os("SIZES_OUT") {
            let out = std::path::Path::new(&out);
            std::fs::create_dir_all(out).expect("SIZES_OUT");
            std::fs::write(out.join(format!("{name}.rtbw")), &written.wdl).expect("written");
            std::fs::write(out.join(format!("{name}.rtbz")), &written.dtz).expect("written");
        }
        let (tw, td) = (size(&name, "rtbw"), size(&name, "rtbz"));
        let positions = |e: &Entries| e.reference.iter().map(|r| r.1.positions).sum::<u64>();
        if largest
            .as_ref()
            .is_none_or(|l| positions(&entries) > positions(l))
        {
            largest = Some(entries);
        }
        ours_total += wdl + dtz;
        theirs_total += tw + td;
        ours_wdl += wdl;
        theirs_wdl += tw;
        ours_dtz += dtz;
        theirs_dtz += td;
        println!(
            "| {name} | {wdl} | {tw} | {dtz} | {td} | {:.3} | {:.1} | {:.1} |",
            (wdl + dtz) as f64 / (tw + td) as f64,
            (t1 - t0).as_secs_f64(),
            (t2 - t1).as_secs_f64()
        );
    }
    println!(
        "| **total** | {ours_wdl} | {theirs_wdl} | {ours_dtz} | {theirs_dtz} | **{:.3}** | | |",
        ours_total as f64 / theirs_total as f64
    );
    if let Some(e) = &largest {
        per_index(e);
    }
    println!(
        "\nWDL {:.3}, DTZ {:.3}, both {:.3} (ours / official)",
        ours_wdl as f64 / theirs_wdl as f64,
        ours_dtz as f64 / theirs_dtz as f64,
        ours_total as f64 / theirs_total as f64
    );
}

/// The writer's per-index work in a piece order other than the reference:
/// index to squares, squares to the reference index, one array read.
fn per_index(e: &Entries) {
    let orders = candidates(&e.material.shape, 64);
    let Some(order) = orders.last() else { return };
    let Ok(enc) = order.encoding(0, e.geo) else {
        return;
    };
    let mut view = e.view(&enc, 0, 0);
    let t = Instant::now();
    let mut acc = 0u64;
    for i in 0..enc.positions {
        acc = acc.wrapping_add(u64::from(view.get(i).bits()));
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "\nPer-index work on {} ({} indices of one subtable): {:.1} ns per index (checksum {acc})",
        e.material.name,
        enc.positions,
        secs * 1e9 / enc.positions as f64
    );
}
