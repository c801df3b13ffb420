//! Files written from our generator, read by two readers (ours and
//! shakmaty-syzygy), against the official tables: WDL exactly, DTZ equal
//! or within what rounding allows (both sides round: an official n means n
//! or n + 1 plies, and ours is written the same way).
//! CI: every 3-piece position, and 20,000 sampled positions of KRvKN and
//! KQvKR. SYZYGY_GENERATE_EXHAUSTIVE=1: every 3-4 piece table, every
//! position up to symmetry. SYZYGY_GENERATE_5 with SYZYGY_GENERATE_DIR:
//! 20,000 sampled positions of each 5-piece table written there (by
//! `syzygy-web generate ... --out DIR`, minutes a table), and their sizes.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use common::*;
use shakmaty::{Chess, Position};
use syzygy_web::drivers::{FsFetcher, Tablebase};
use syzygy_web::{generate_cli, Config};

fn exhaustive() -> bool {
    std::env::var_os("SYZYGY_GENERATE_EXHAUSTIVE").is_some()
}

fn materials() -> Vec<String> {
    let mut m: Vec<String> = table_names().into_iter().filter(|n| n.len() == 4).collect();
    if exhaustive() {
        m.extend(table_names().into_iter().filter(|n| n.len() == 5));
    } else {
        m.extend(["KRvKN".to_string(), "KQvKR".to_string()]);
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
    let mut r = readers();
    let mut bad = Vec::new();
    let mut n = 0;
    for name in materials().into_iter().filter(|n| n.len() == 5) {
        let mut each = |pos: &Chess| {
            n += 1;
            if let Err(e) = check(&mut r, pos) {
                if bad.len() < 20 {
                    bad.push(format!("{name}: {e}"));
                }
            }
        };
        if exhaustive() {
            positions_up_to_symmetry(&name, |p| each(p));
        } else {
            sample(&name, 20_000, 11).iter().for_each(each);
        }
    }
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
