//! The command's arguments, and the threads they ask for.

use crate::generate::layout::parse_material;
use std::path::PathBuf;

/// Most threads `--threads` takes: more cannot help (a slice runs one
/// thread a part), and each is a real OS thread that may fail to start.
const MAX_THREADS: usize = 256;

pub const USAGE: &str =
    "usage: syzygy-web generate MATERIAL... [--max N] [--out DIR] [--threads N] [--dtm] [--json] [--exact-dtz] [--wide-dtz]
      Generates tables by retrograde analysis: WDL and DTZ50'' of every
      position, and with --dtm the distance to mate.
      MATERIAL         e.g. KRPvKR (sub-materials are generated first, or
                       read from DIR when an earlier run wrote them)
      --max N          every material of 3 to N pieces (N at most 5; name 6-piece materials)
      --out DIR        write NAME.swv (generated values) and the Syzygy
                       files NAME.rtbw and NAME.rtbz per material (not KvK)
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
    let mut given: Vec<&str> = Vec::new();
    while let Some(arg) = it.next() {
        // An option given twice (a script's default and the caller's, say)
        // would be settled silently by the last one: refused instead.
        if arg.starts_with("--") && given.contains(&arg.as_str()) {
            return Err(format!("{arg} given twice"));
        }
        given.push(arg);
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
            "--out" => {
                let v = value("--out")?;
                // (An unset variable, `--out "$DIR"`: not the current directory.)
                if v.is_empty() {
                    return Err("--out needs a directory, not an empty string".into());
                }
                a.out = Some(PathBuf::from(v));
            }
            "--max" => {
                let v = value("--max")?;
                let n: usize = v.parse().map_err(|_| format!("--max {v}: not a number"))?;
                // Some 6-piece materials number more positions a slice than
                // the generator does (KBNvKBN): every material of 6 cannot be
                // made, only those named.
                if !(3..=5).contains(&n) {
                    return Err(format!(
                        "--max {n}: between 3 and 5 (name 6-piece materials one by one)"
                    ));
                }
                a.max = Some(n);
            }
            "--threads" => {
                let v = value("--threads")?;
                let n: usize = v
                    .parse()
                    .map_err(|_| format!("--threads {v}: not a number"))?;
                if !(1..=MAX_THREADS).contains(&n) {
                    return Err(format!("--threads {n}: between 1 and {MAX_THREADS}"));
                }
                a.threads = Some(n);
            }
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            m => a.materials.push(m.to_string()),
        }
    }
    if a.materials.is_empty() && a.max.is_none() {
        return Err("name at least one material, or --max N".into());
    }
    // They shape the files --out writes: without it they would be ignored.
    if (a.exact_dtz || a.wide_dtz) && a.out.is_none() {
        return Err(
            "--exact-dtz and --wide-dtz shape the Syzygy files --out writes: give --out DIR".into(),
        );
    }
    // A material that is no material is a usage error, as a bad option is.
    for m in &a.materials {
        parse_material(m).map_err(|e| e.0)?;
    }
    Ok(a)
}

/// Threads asked for, or as many as the machine has.
pub(super) fn threads(a: &Args) -> usize {
    a.threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}
