//! Our own tables: retrograde analysis of every position of a material, for
//! the 5-valued WDL under the 50-move rule, DTZ50'' in plies and, on
//! request, the distance to mate. A pure core (no I/O, threads optional)
//! that the CLI and the browser drive.
//!
//! Pipeline per material: [`plan`] orders the sub-materials reached by
//! captures and promotions; [`layout`] numbers positions (pawns fixed per
//! slice, solved from the most advanced back); per slice, the forward pass
//! in [`slice`] counts quiet moves and values zeroing moves from finished
//! tables ([`solved`]); [`retro`] then settles positions distance by
//! distance, once for DTZ50'' and once for mate; [`summary`] reports.
//!
//! # Memory, and what 6 and 7 pieces would need
//! Working set per slice: 5 bytes a position and side to move (quiet-move
//! count, best zeroing code, value), 10 with mate distances (the mate pass
//! has its own three arrays), one more in a pawnful slice (its best capture
//! and pawn move, for the writer). A material of several slices (pawnful)
//! adds the finished table, 2 bytes a position (4 with mates), and the
//! writer's 2 bits ([`free`]); a material of one slice (pawnless) takes its
//! slice's arrays over instead. Pawnless positions are counted up to all eight symmetries
//! (462 placements of the two kings): a 5-piece pawnless table of unique
//! pieces is 462 x 64^3 x 2 = 242 M positions, about 2.4 GB with mates;
//! runs of identical pieces count as sets (KBBBvK: 462 x 41,664 x 2 =
//! 38 M); pawnful ones are solved one pawn slice at a time (KRPvKR: slices
//! of 33.5 M positions, 3.2 GB for the finished table). Sub-tables are
//! held packed (2 bytes a position, mates folded in) and only on the side
//! to move that captures and promotions reach: KRPvKR's four 5-piece
//! sub-tables take 0.95 GB with Black to move, not 1.9 GB, and only while
//! its pawn's seventh rank is solved: sub-tables that only promotions
//! reach go then. The finished table is resident only as its slices are
//! solved, and slices of over 4 M positions go one at a time on every
//! thread: KRPvKR peaks at 3.8 GB, at the end of generation (the table
//! with mates, one slice's arrays, the writer's bits). Below that would
//! take finished slices written out once no slice left pushes a pawn into
//! them, and the writer reading one leading-pawn file's slices back.
//! - 6 pieces: 64x more positions per table, except where identical pieces
//!   share a digit: KNNNNvK (462 x 635,376 x 2 = 587 M positions) and
//!   KNNNvKN (462 x 41,664 x 64 x 2 = 2.46 G; 12.9 GB in its forward pass)
//!   generate and are written on this machine (the writer's entries take
//!   4 bytes an index and a full compression 2: KNNNvKN peaked at 16.5 GB
//!   while written, its table read back with mates; the writer now gets
//!   the table from memory without them), and so does KNNvKNN (462 x
//!   2,016^2 x 2 = 3.76 G positions, 19.0 GB while generated: a symmetric
//!   material still stores both sides to move; one would halve it). Other
//!   pawnless ones (up to 15.5 G positions) would
//!   need ~80 GB in this layout: the working arrays would have to go
//!   to 2 bits per position for WDL (bitmaps of won/lost sets, seed 001) and
//!   DTZ be computed in a second pass over slices of the kings' squares,
//!   streaming the finished values to disk. Pawnful 6-piece tables fit per
//!   slice (1-2 G positions, ~20 GB) but their finished tables must live on
//!   disk, read back through the same page store the prober uses.
//! - 7 pieces: ~4 T positions per table; the official generator needed a
//!   1 TB machine for months. That is the point where a distributed engine
//!   takes over: slices (pawn configurations, king squares) are independent
//!   between levels, so they shard across machines that exchange the
//!   positions decided at each distance.

pub mod free;
pub mod layout;
pub mod moves;
pub mod plan;
pub mod retro;
pub mod slice;
pub mod solved;
pub mod summary;
pub mod value;
pub mod values_file;

use layout::Layout;
use slice::Tables;
use solved::{Library, Solved};

/// Slices of at least this many positions a side are solved one at a time.
const ONE_AT_A_TIME: usize = 1 << 22;

/// How to generate.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Threads for the forward pass and for independent slices.
    pub threads: usize,
    /// Also compute distances to mate.
    pub dtm: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 1,
            dtm: false,
        }
    }
}

/// Progress of a generation, for bars and Web Worker events. Called from
/// the generating threads.
pub trait Progress: Sync {
    /// `units` more of the `total` units of work on `material` are done
    /// (a unit is one position through one pass).
    fn advance(&self, material: &str, units: u64, total: u64);
}

/// Progress nobody watches.
pub struct Quiet;

impl Progress for Quiet {
    fn advance(&self, _: &str, _: u64, _: u64) {}
}

/// One material's progress: its name and total beside the sink.
pub struct Meter<'a> {
    pub progress: &'a dyn Progress,
    pub material: &'a str,
    pub total: u64,
}

impl Meter<'_> {
    pub fn add(&self, units: u64) {
        self.progress.advance(self.material, units, self.total);
    }
}

/// Generates one material. Every material its captures and promotions reach
/// must be in `library` (see [`plan::order`]); the result is not inserted.
pub fn generate(
    key: [u8; 12],
    library: &Library,
    opts: Options,
    progress: &dyn Progress,
) -> Solved {
    solve(blank(key, opts), Subtables::Shared(library), opts, progress)
}

/// The table a generation fills, slice by slice. Every slice is copied
/// in once solved, so the fill is never read: zeroed memory is mapped only
/// where written, and KRPvKR's 3.2 GB are not resident while its first
/// rank's slices are solved beside their 0.95 GB of promotion sub-tables.
fn blank(key: [u8; 12], opts: Options) -> Solved {
    let layout = Layout::new(key);
    let per_side = layout.positions_per_side();
    // A material of one slice (pawnless) takes its slice's arrays as they
    // are: no second copy of the finished values while the slice is solved.
    let whole = per_side == layout.slice_size;
    let full = |n| [vec![0; n], vec![0; n]];
    Solved {
        dtz: if whole {
            Default::default()
        } else {
            full(per_side)
        },
        dtm: (opts.dtm && !whole).then(|| full(per_side)),
        free: (layout.pawnful() && !whole).then(|| {
            [
                free::FlagArray::new(per_side),
                free::FlagArray::new(per_side),
            ]
        }),
        layout,
        packed: false,
    }
}

/// [`generate`], where sub-tables reached only by promotions, if
/// `release` allows (no later material reads them), leave `library` once
/// the slices with a pawn about to promote are solved: KRPvKR's four
/// 5-piece sub-tables, 0.95 GB, after the first of its six ranks.
pub fn generate_into(
    key: [u8; 12],
    library: &mut Library,
    release: &dyn Fn(&[u8; 12]) -> bool,
    opts: Options,
    progress: &dyn Progress,
) -> Solved {
    let promotions = plan::promotion_children(&key)
        .into_iter()
        .filter(|k| release(k))
        .collect();
    solve(
        blank(key, opts),
        Subtables::Owned(library, promotions),
        opts,
        progress,
    )
}

/// The sub-tables a generation reads: borrowed, or owned with the
/// promotion sub-tables it may drop.
enum Subtables<'a> {
    Shared(&'a Library),
    Owned(&'a mut Library, Vec<[u8; 12]>),
}

impl Subtables<'_> {
    fn library(&self) -> &Library {
        match self {
            Subtables::Shared(l) => l,
            Subtables::Owned(l, _) => l,
        }
    }

    /// Slices `from..` are left: drops the promotion sub-tables if none
    /// of them promotes.
    fn release_unreached(&mut self, layout: &Layout, from: usize) {
        if let Subtables::Owned(lib, keys) = self {
            if !keys.is_empty() && !(from..layout.slices.len()).any(|s| layout.slice_promotes(s)) {
                for k in keys.drain(..) {
                    lib.remove(&k);
                }
            }
        }
    }
}

fn solve(
    mut solved: Solved,
    mut subtables: Subtables<'_>,
    opts: Options,
    progress: &dyn Progress,
) -> Solved {
    let per_side = solved.layout.positions_per_side();
    let size = solved.layout.slice_size;
    let whole = per_side == size;
    let passes = if opts.dtm { 3 } else { 2 };
    let name = solved.layout.name.clone();
    let meter = Meter {
        progress,
        material: &name,
        total: passes * 2 * per_side as u64,
    };
    let threads = opts.threads.max(1);
    let count = solved.layout.slices.len();
    let mut works: Vec<slice::Work> = (0..threads).map(|_| slice::Work::default()).collect();
    let mut start = 0;
    while start < count {
        // Slices of equal advancement depend only on finished ones.
        let adv = solved.layout.slice_advancement(start);
        let mut end = start + 1;
        while end < count && solved.layout.slice_advancement(end) == adv {
            end += 1;
        }
        // Big slices go one at a time on every thread: each slice being
        // solved holds 11 bytes a position and side (KRPvKR: 368 MB), and
        // its passes split across threads as fast (generation 80.7 s
        // against 80.5 s two slices at a time).
        let per_batch = if size >= ONE_AT_A_TIME { 1 } else { threads };
        for batch in (start..end).collect::<Vec<_>>().chunks(per_batch) {
            let tables = Tables {
                this: &solved,
                library: subtables.library(),
            };
            let inner = (threads / batch.len()).max(1);
            if batch.len() == 1 {
                slice::solve(&tables, batch[0], opts.dtm, inner, &meter, &mut works[0]);
            } else {
                std::thread::scope(|scope| {
                    let handles: Vec<_> = batch
                        .iter()
                        .zip(works.iter_mut())
                        .map(|(&s, w)| {
                            let (tables, meter) = (&tables, &meter);
                            scope.spawn(move || slice::solve(tables, s, opts.dtm, 1, meter, w))
                        })
                        .collect();
                    // A panicking slice is a bug; re-raise it here.
                    for h in handles {
                        if let Err(e) = h.join() {
                            std::panic::resume_unwind(e);
                        }
                    }
                });
            }
            // Slices of one advancement never read each other: each goes
            // into the table as soon as it is solved.
            for (&s, w) in batch.iter().zip(works.iter_mut()) {
                if whole {
                    solved.dtz = std::mem::take(&mut w.dtz);
                    solved.dtm = opts.dtm.then(|| std::mem::take(&mut w.dtm));
                    continue;
                }
                let range = s * size..(s + 1) * size;
                for side in 0..2 {
                    solved.dtz[side][range.clone()].copy_from_slice(&w.dtz[side]);
                    if let Some(all) = solved.dtm.as_mut() {
                        all[side][range.clone()].copy_from_slice(&w.dtm[side]);
                    }
                    if let Some(all) = solved.free.as_mut() {
                        all[side].put(range.start, &w.best[side]);
                    }
                }
            }
        }
        start = end;
        subtables.release_unreached(&solved.layout, start);
    }
    solved
}
