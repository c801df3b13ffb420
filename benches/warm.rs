//! Warm probe speed, ours beside shakmaty-syzygy in the same process on the
//! same seeded positions, against both of the reference's filesystems: its
//! default (a `pread` system call per read) and its memory-mapped one
//! (`Tablebase::with_mmap_filesystem`, feature `mmap`: its fastest). Each
//! workload runs once untimed first, so that our page store holds every page
//! it needs and the reference's files are in the OS page cache; then the
//! three run it `REPS` times, interleaved, and the median time per position
//! is reported, with the ratios of the best passes beside it. Ours keeps
//! where earlier walks of a block passed (marks); a pass of ours after
//! forgetting them shows lookups that find none (the first into a block),
//! timed in a second round against the memory-mapped reference. Run: `cargo bench --bench warm` (env `WARM_POSITIONS` and
//! `WARM_REPS` shrink it for profiling, `WARM_ONLY=DTZ` runs one workload).

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Instant;

use common::*;
use shakmaty::{Chess, Position};
use syzygy_web::drivers::{FsFetcher, Tablebase};
use syzygy_web::Config;

const SEED: u64 = 4242;

type Ours = Tablebase<FsFetcher>;
type Theirs = shakmaty_syzygy::Tablebase<Chess>;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `n` positions spread evenly over every 4- and 5-piece table.
fn positions(n: usize) -> Vec<Chess> {
    let names: Vec<String> = table_names()
        .into_iter()
        .filter(|t| t.len() == 5 || t.len() == 6)
        .collect();
    let per = n.div_ceil(names.len().max(1));
    let mut out: Vec<Chess> = names.iter().flat_map(|t| sample(t, per, SEED)).collect();
    // Interleave materials so truncation does not drop whole tables.
    let mut rng = Rng::new(SEED);
    for i in (1..out.len()).rev() {
        out.swap(i, rng.below(i as u64 + 1) as usize);
    }
    out.truncate(n);
    out
}

/// One workload: what each side does per position; returns a checksum so
/// the work cannot be optimised away.
struct Workload {
    name: &'static str,
    ours: fn(&mut Ours, &Chess) -> i64,
    theirs: fn(&Theirs, &Chess) -> i64,
}

fn ours_wdl(t: &mut Ours, p: &Chess) -> i64 {
    t.probe_wdl(p).map_or(-99, i64::from)
}

fn theirs_wdl(t: &Theirs, p: &Chess) -> i64 {
    t.probe_wdl_after_zeroing(p)
        .map_or(-99, |w| i64::from(wdl_of(w)))
}

fn ours_dtz(t: &mut Ours, p: &Chess) -> i64 {
    t.probe_dtz(p).map_or(-99, |(_, d)| i64::from(d.plies))
}

fn theirs_dtz(t: &Theirs, p: &Chess) -> i64 {
    t.probe_dtz(p).map_or(-99, |d| i64::from(dtz_of(d).0))
}

fn ours_moves(t: &mut Ours, p: &Chess) -> i64 {
    t.analyse(p).map_or(-99, |a| {
        a.moves
            .iter()
            .fold(i64::from(a.dtz), |s, m| s + i64::from(m.dtz))
    })
}

/// The reference's equivalent of a root analysis: the root's DTZ, and WDL
/// plus DTZ after every legal move.
fn theirs_moves(t: &Theirs, p: &Chess) -> i64 {
    let mut sum = theirs_dtz(t, p);
    for m in p.legal_moves() {
        let mut child = p.clone();
        child.play_unchecked(m);
        black_box(theirs_wdl(t, &child));
        sum += theirs_dtz(t, &child);
    }
    sum
}

const WORKLOADS: [Workload; 3] = [
    Workload {
        name: "WDL",
        ours: ours_wdl,
        theirs: theirs_wdl,
    },
    Workload {
        name: "DTZ",
        ours: ours_dtz,
        theirs: theirs_dtz,
    },
    Workload {
        name: "move list",
        ours: ours_moves,
        theirs: theirs_moves,
    },
];

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Nanoseconds per position for one pass over `set`.
fn pass<T>(set: &[Chess], tb: &mut T, f: impl Fn(&mut T, &Chess) -> i64) -> f64 {
    let t0 = Instant::now();
    let mut sum = 0i64;
    for p in set {
        sum = sum.wrapping_add(f(tb, black_box(p)));
    }
    black_box(sum);
    t0.elapsed().as_nanos() as f64 / set.len() as f64
}

/// The reference reading through memory maps.
fn theirs_mmap() -> Theirs {
    // SAFETY: the reference's contract for memory maps: the table files are
    // not modified while mapped (../shared/syzygy is read-only) and reading
    // them raises no I/O error.
    let mut tb = unsafe { shakmaty_syzygy::Tablebase::with_mmap_filesystem() };
    tb.add_directory(syzygy_path()).expect("tables");
    tb
}

fn main() {
    let n = env_or("WARM_POSITIONS", 2000);
    let reps = env_or("WARM_REPS", 7).max(1);
    let set = positions(n);
    // The default 64 MiB budget holds this set's working pages (the
    // figure is printed at the end).
    let mut ours = Tablebase::new(FsFetcher::new(vec![syzygy_path()]), Config::default());
    let pread = theirs();
    let mmap = theirs_mmap();
    println!(
        "{} positions from the 4- and 5-piece tables (seed {SEED}), median of {reps} warm passes",
        set.len()
    );
    println!(
        "{:<10} {:>12} {:>12} {:>12} {:>11} {:>10} {:>17}",
        "workload",
        "ours ns/pos",
        "pread ns/pos",
        "mmap ns/pos",
        "ours/pread",
        "ours/mmap",
        "best: /pread /mmap"
    );
    let only = std::env::var("WARM_ONLY").ok();
    for w in WORKLOADS
        .iter()
        .filter(|w| only.as_deref().is_none_or(|o| o == w.name))
    {
        // Warm-up, and a check that both sides give the same answers.
        let mut differ = 0;
        for p in &set {
            let o = (w.ours)(&mut ours, p);
            if o != (w.theirs)(&pread, p) || o != (w.theirs)(&mmap, p) {
                differ += 1;
            }
        }
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..reps {
            a.push(pass(&set, &mut ours, |t, p| (w.ours)(t, p)));
            let mut th = &pread;
            b.push(pass(&set, &mut th, |t, p| (w.theirs)(t, p)));
            let mut th = &mmap;
            c.push(pass(&set, &mut th, |t, p| (w.theirs)(t, p)));
        }
        // Best passes too: on a loaded machine they are the steadier figure.
        let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
        let (ba, bb, bc) = (best(&a), best(&b), best(&c));
        let (a, b, c) = (median(&mut a), median(&mut b), median(&mut c));
        println!(
            "{:<10} {a:>12.0} {b:>12.0} {c:>12.0} {:>11.2} {:>10.2} {:>11.2} {:>5.2}",
            w.name,
            a / b,
            a / c,
            ba / bb,
            ba / bc
        );
        // First lookups: alternating with the memory-mapped reference only,
        // as no pass may follow one that warmed the processor's caches
        // with its data (ours after ours, or the memory-mapped reference
        // after `pread`, which reads the same page-cache pages).
        let (mut d, mut e) = (Vec::new(), Vec::new());
        for _ in 0..reps {
            ours.engine().forget_marks();
            d.push(pass(&set, &mut ours, |t, p| (w.ours)(t, p)));
            let mut th = &mmap;
            e.push(pass(&set, &mut th, |t, p| (w.theirs)(t, p)));
        }
        let (d, e) = (median(&mut d), median(&mut e));
        println!(
            "  ours, marks forgotten before each pass: {d:.0} ns/pos, mmap {e:.0} ns/pos, /mmap {:.2}",
            d / e
        );
        if differ > 0 {
            println!("  note: {differ} positions answered differently (checksums)");
        }
    }
    let s = ours.engine().store_stats();
    println!(
        "our page store: {} pages, {:.1} MiB, {} evicted",
        s.pages,
        s.bytes as f64 / (1024.0 * 1024.0),
        s.evicted_pages
    );
}
