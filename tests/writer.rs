//! Files we write, read back by two probers: every value the official
//! tables give (read by our prober) is rewritten with our writer, and both
//! our prober and shakmaty-syzygy must read the rewritten file with the
//! same WDL and a DTZ equal up to what rounding allows, in the default,
//! exact-DTZ and forced 16-bit-map variants.
//!
//! CI rewrites every 3-piece table and compares every position up to
//! symmetry (the exact and 16-bit variants on KQvK and KPvK). Asking the
//! prober about the ~2-4 million positions of a 4-piece table takes a
//! minute or more each, so `SYZYGY_WRITER_ALL=1` (or a list such as
//! `SYZYGY_WRITER_ALL=KPvKP,KBNvK`) rewrites the 4-piece tables, in all
//! variants, comparing every position up to symmetry.

mod common;

use std::path::{Path, PathBuf};

use common::official::Official;
use shakmaty::Chess;
use syzygy_web::drivers::{FsFetcher, Tablebase};
use syzygy_web::probe::Dtz;
use syzygy_web::write::{collect, write_dtz, write_wdl, Options};
use syzygy_web::Config;

/// A directory with our files of `name` and links to every other official file.
fn table_dir(name: &str, variant: &str, wdl: &[u8], dtz: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "syzygy-writer-{}-{name}-{variant}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    for e in std::fs::read_dir(common::syzygy_path()).expect("tables") {
        let e = e.expect("entry");
        let file = e.file_name().into_string().expect("name");
        if file.starts_with(&format!("{name}.")) || !file.contains(".rtb") {
            continue;
        }
        let target = std::fs::canonicalize(e.path()).expect("path");
        std::os::unix::fs::symlink(target, dir.join(&file)).expect("link");
    }
    std::fs::write(dir.join(format!("{name}.rtbw")), wdl).expect("write");
    std::fs::write(dir.join(format!("{name}.rtbz")), dtz).expect("write");
    dir
}

/// The DTZ values a reading allows: exact, or one further from zero.
fn allowed(plies: i32, precise: bool) -> [i32; 2] {
    if precise {
        [plies, plies]
    } else {
        [plies, plies + plies.signum()]
    }
}

fn agree(a: (i32, bool), b: (i32, bool)) -> bool {
    let (x, y) = (allowed(a.0, a.1), allowed(b.0, b.1));
    x.iter().any(|v| y.contains(v))
}

struct Check {
    official: Tablebase<FsFetcher>,
    ours: Tablebase<FsFetcher>,
    theirs: shakmaty_syzygy::Tablebase<Chess>,
    compared: usize,
}

impl Check {
    fn new(dir: &Path) -> Check {
        let mut theirs = shakmaty_syzygy::Tablebase::new();
        theirs.add_directory(dir).expect("tables");
        Check {
            official: common::ours(),
            ours: Tablebase::new(FsFetcher::new(vec![dir.to_path_buf()]), Config::default()),
            theirs,
            compared: 0,
        }
    }

    fn position(&mut self, pos: &Chess) {
        let fen = common::fen(pos);
        let (w0, d0) = self.official.probe_dtz(pos).expect("official");
        let (w1, d1): (i8, Dtz) = self
            .ours
            .probe_dtz(pos)
            .unwrap_or_else(|e| panic!("{fen}: ours on our file: {e}"));
        let tw = common::wdl_of(
            self.theirs
                .probe_wdl_after_zeroing(pos)
                .unwrap_or_else(|e| panic!("{fen}: shakmaty-syzygy on our file: {e}")),
        );
        let td = common::dtz_of(
            self.theirs
                .probe_dtz(pos)
                .unwrap_or_else(|e| panic!("{fen}: shakmaty-syzygy on our file: {e}")),
        );
        assert_eq!(w1, w0, "{fen}: WDL read by our prober");
        assert_eq!(tw, w0, "{fen}: WDL read by shakmaty-syzygy");
        let official = (d0.plies, d0.precise);
        assert!(
            agree(official, (d1.plies, d1.precise)),
            "{fen}: DTZ {d1:?} by our prober, official {d0:?}"
        );
        assert!(
            agree(official, td),
            "{fen}: DTZ {td:?} by shakmaty-syzygy, official {d0:?}"
        );
        self.compared += 1;
    }
}

/// Rewrites `name` in each variant and compares; returns positions compared.
fn rewrite(name: &str, all_variants: bool, orders: usize) -> usize {
    let source = Official::new(name);
    let mut variants = vec![
        (
            "default",
            Options {
                orders,
                ..Options::default()
            },
        ),
        (
            "exact",
            Options {
                orders,
                exact_dtz: true,
                ..Options::default()
            },
        ),
        (
            "wide",
            Options {
                orders,
                wide_dtz: true,
                ..Options::default()
            },
        ),
    ];
    if !all_variants {
        variants.truncate(1);
    }
    let entries = collect(name, &source, &mut |_| {}).expect("collected");
    let mut compared = 0;
    for (variant, opts) in variants {
        let (wdl, dtz) = (write_wdl(&entries, &opts), write_dtz(&entries, &opts));
        assert!(
            wdl == write_wdl(&entries, &opts) && dtz == write_dtz(&entries, &opts),
            "{name} {variant}: same input, same bytes"
        );
        let dir = table_dir(name, variant, &wdl, &dtz);
        let mut check = Check::new(&dir);
        common::positions_up_to_symmetry(name, |p| check.position(p));
        eprintln!(
            "{name} {variant}: {} + {} bytes, {} positions agree",
            wdl.len(),
            dtz.len(),
            check.compared
        );
        compared += check.compared;
        let _ = std::fs::remove_dir_all(&dir);
    }
    compared
}

/// The 4-piece tables `SYZYGY_WRITER_ALL` asks for (`1`: all of them).
fn four_piece() -> Vec<String> {
    match std::env::var("SYZYGY_WRITER_ALL") {
        Err(_) => Vec::new(),
        Ok(v) if v == "1" => common::table_names()
            .into_iter()
            .filter(|n| n.len() == 5)
            .collect(),
        Ok(list) => list.split(',').map(str::to_string).collect(),
    }
}

#[test]
fn three_piece_tables_round_trip() {
    let mut n = 0;
    for name in ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"] {
        n += rewrite(name, name == "KQvK" || name == "KPvK", 8);
    }
    eprintln!("{n} positions compared");
}

#[test]
fn four_piece_tables_round_trip() {
    let mut n = 0;
    for name in four_piece() {
        n += rewrite(&name, true, 64);
    }
    eprintln!("{n} positions compared");
}

/// Tables we generate and write, with no official file in their directory:
/// both probers read every position of every 3-piece table as the official
/// tables give it (DTZ within rounding: ours is exact where they halve).
#[test]
fn generated_three_piece_tables_read_like_the_official_ones() {
    use syzygy_web::generate::{self, layout::parse_material, plan, solved::Library, Quiet};
    use syzygy_web::generate_write::Generated;

    let names = ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"];
    let keys: Vec<[u8; 12]> = names
        .iter()
        .map(|n| parse_material(n).expect("material"))
        .collect();
    let dir = std::env::temp_dir().join(format!("syzygy-writer-{}-generated", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut lib = Library::default();
    for key in plan::order(&keys, |_| false) {
        let t = generate::generate(key, &lib, generate::Options::default(), &Quiet).unwrap();
        let source = Generated::new(&t, &lib).expect("layout");
        let entries = collect(&t.layout.name, &source, &mut |_| {}).expect("collected");
        let opts = Options::default();
        std::fs::write(
            dir.join(format!("{}.rtbw", t.layout.name)),
            write_wdl(&entries, &opts),
        )
        .expect("write");
        std::fs::write(
            dir.join(format!("{}.rtbz", t.layout.name)),
            write_dtz(&entries, &opts),
        )
        .expect("write");
        lib.insert(t);
    }
    let mut check = Check::new(&dir);
    for name in names {
        common::positions_up_to_symmetry(name, |p| check.position(p));
    }
    eprintln!("{} positions agree", check.compared);
    let _ = std::fs::remove_dir_all(&dir);
}
