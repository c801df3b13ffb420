//! Every index a table's files store (the official ones, or ours), against
//! the generated values: each subtable decompressed in index order
//! (`format::decode::each_block`), and the generated values gathered as
//! the writer gathers them (with the facts that make an index a "don't
//! care") and read in the file's piece order (`write::Entries::view`).
//! No shakmaty position or oracle lookup per index: a 5-piece table takes
//! seconds to minutes, not hours.
//!
//! What must agree where an index is legal:
//! - WDL, both sides to move: equal, or where a capture reaches the
//!   position's WDL, at most it (a prober takes the better of the two).
//! - DTZ, the side each leading-pawn file stores, where a prober reads the
//!   table (not drawn, not won by a zeroing move): the stored value,
//!   after the file's value map, equal to the one our exact DTZ50'' gives
//!   under that file's rounding (moves or plies). The side not stored is
//!   what a prober derives from these by a one-ply search.

use std::path::Path;

use syzygy_web::format::decode::each_block;
use syzygy_web::format::header::Subtable;
use syzygy_web::format::header::{
    self, Header, DTZ_LOSS_PLIES, DTZ_MAPPED, DTZ_STM, DTZ_WIN_PLIES,
};
use syzygy_web::format::{FormatError, Kind};
use syzygy_web::generate::solved::{Library, Solved};
use syzygy_web::generate_write::Generated;
use syzygy_web::material::Material;
use syzygy_web::write::dtz::stored;
use syzygy_web::write::entries::Entry;
use syzygy_web::write::{Entries, Plies};

/// Indices compared, and the first disagreements.
#[derive(Default, Debug)]
pub struct Compared {
    /// Legal WDL indices compared (both sides to move).
    pub wdl: u64,
    /// Of those, indices a capture decides, where the file's value is
    /// lower than ours (allowed).
    pub wdl_lower: u64,
    /// DTZ indices compared (the stored side).
    pub dtz: u64,
    /// DTZ subtables not compared: black to move of a symmetric pawnful
    /// material (KPvKP's, where a file stores that side).
    pub dtz_skipped: u64,
    /// Indices that disagree, and the first few described.
    pub disagree: u64,
    pub bad: Vec<String>,
}

impl Compared {
    pub fn add(&mut self, other: Compared) {
        self.wdl += other.wdl;
        self.wdl_lower += other.wdl_lower;
        self.dtz += other.dtz;
        self.dtz_skipped += other.dtz_skipped;
        self.disagree += other.disagree;
        self.bad.extend(other.bad);
    }

    /// The counts in words.
    pub fn line(&self) -> String {
        format!(
            "WDL {} indices (the file lower where a capture decides: {}), DTZ {} ({} subtables skipped), {} disagree",
            self.wdl,
            self.wdl_lower,
            self.dtz,
            self.dtz_skipped,
            self.disagree
        )
    }

    fn fail(&mut self, why: String) {
        self.disagree += 1;
        if self.bad.len() < 20 {
            self.bad.push(why);
        }
    }
}

fn read(dir: &Path, name: &str, kind: Kind, mat: &Material) -> Result<(Vec<u8>, Header), String> {
    let path = dir.join(format!("{name}.{}", kind.extension()));
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let h = header::parse(&bytes, bytes.len() as u64, kind, &mat.shape)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((bytes, h))
}

/// Compares the files of `t`'s material in `dir` (the official ones, or
/// ours) with the generated table `t` (its sub-tables in `lib`), through
/// `whole`, its entries already collected, or else a side's at a time.
pub fn compare(
    dir: &Path,
    t: &Solved,
    lib: &Library,
    whole: Option<&Entries>,
) -> Result<Compared, String> {
    let name = t.layout.name.clone();
    let mat = Material::from_name(&name).ok_or("not a table name")?;
    let (wdl_bytes, wdl) = read(dir, &name, Kind::Wdl, &mat)?;
    let (dtz_bytes, dtz) = read(dir, &name, Kind::Dtz, &mat)?;
    let source = Generated::new(t, lib).ok_or("no layout for the material")?;
    let mut out = Compared::default();
    for file in 0..wdl.files.len() {
        // A symmetric material stores white to move only (the other side
        // is the same table with the colours swapped).
        for side in 0..if mat.symmetric { 1 } else { 2 } {
            let held;
            let entries = match whole {
                Some(e) => e,
                None => {
                    held =
                        Entries::collect_side_parallel(&mat, &source, file, side, 2, &mut |_| {})
                            .map_err(|e| e.to_string())?;
                    &held
                }
            };
            let Some(sub) = wdl.files[file].get(side) else {
                return Err(format!("{name}: WDL file {file} lacks side {side}"));
            };
            each_index(entries, sub, file, side, &wdl_bytes, &mut |i, e, v| {
                if !e.illegal() {
                    check_wdl(&mut out, e, v, &name, file, side, i);
                }
            })
            .map_err(|e| format!("{name}.rtbw: {e}"))?;
            let Some(sub) = dtz.files[file].first() else {
                return Err(format!("{name}: DTZ file {file} has no subtable"));
            };
            let flags = sub.pairs.flags;
            let stm = usize::from(flags & DTZ_STM);
            if mat.symmetric && stm == 1 && mat.shape.pawnful() {
                // Black to move of a symmetric pawnful material: white to
                // move with the colours swapped, which the entries lack.
                out.dtz_skipped += 1;
                continue;
            }
            // A symmetric pawnless file holds white to move whatever its flag.
            if !mat.symmetric && stm != side {
                continue;
            }
            let plies = Plies {
                win: flags & DTZ_WIN_PLIES != 0,
                loss: flags & DTZ_LOSS_PLIES != 0,
            };
            let maps = (flags & DTZ_MAPPED != 0).then(|| &dtz.dtz_maps[file].maps);
            each_index(entries, sub, file, side, &dtz_bytes, &mut |i, e, raw| {
                if let Some((c, ours)) = stored(e, plies) {
                    let theirs = match maps {
                        Some(m) => m[c].get(usize::from(raw)).copied(),
                        None => Some(raw),
                    };
                    out.dtz += 1;
                    if theirs != Some(ours) {
                        out.fail(format!(
                            "{name}.rtbz file {file} side {side} index {i}: \
                             wdl {} dtz {} stored {ours}, the file {theirs:?} (raw {raw})",
                            e.wdl(),
                            e.dtz()
                        ));
                    }
                }
            })
            .map_err(|e| format!("{name}.rtbz: {e}"))?;
        }
    }
    Ok(out)
}

/// Each index of subtable `sub` of the file `bytes`, with our entry for
/// it and the value the file stores.
fn each_index(
    entries: &Entries,
    sub: &Subtable,
    file: usize,
    side: usize,
    bytes: &[u8],
    f: &mut dyn FnMut(u64, Entry, u16),
) -> Result<(), FormatError> {
    let mut view = entries.view(&sub.encoding, file, side);
    let mut i = 0u64;
    each_block(&sub.pairs, sub.encoding.positions, bytes, &mut |values| {
        for &v in values {
            f(i, view.get(i), v);
            i += 1;
        }
    })
}

fn check_wdl(out: &mut Compared, e: Entry, v: u16, name: &str, file: usize, side: usize, i: u64) {
    let theirs = i32::from(v) - 2;
    let ours = i32::from(e.wdl());
    out.wdl += 1;
    if theirs == ours {
        return;
    }
    if e.wdl_free() && theirs < ours {
        out.wdl_lower += 1;
        return;
    }
    out.fail(format!(
        "{name}.rtbw file {file} side {side} index {i}: wdl {ours} (capture decides: {}), the file {theirs}",
        e.wdl_free()
    ));
}
