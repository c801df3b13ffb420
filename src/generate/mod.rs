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
//! reach go then. The finished table is held a slice at a time. With a
//! [`Spill`] (the CLI's values file, for big pawnful
//! tables), a finished slice is written out and freed as soon as no slice
//! left pushes a pawn into it, and the writer reads one leading-pawn
//! file's slices back at a time; a slice's half with one side to move
//! goes as soon as no pawn of the other side can push into it. KRPvKR
//! with mates (one slice solved at a time) peaks at 1.74 GB through its
//! pawn's seventh rank (promotion sub-tables, 0.95 GB), under 1.6 GB
//! after and while written (a file's DTZ, the writer's bits, two files'
//! entries of 2 bytes an index). The C generator's 631 MB (1 byte a
//! position of one file, no mates) would take sub-tables probed
//! compressed and working arrays of a byte.
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
use solved::{Codes, Library, Solved};

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
    solve(
        blank(key, opts),
        Subtables::Shared(library),
        None,
        opts,
        progress,
    )
}

/// The table a generation fills, a slice at a time as each is solved.
fn blank(key: [u8; 12], opts: Options) -> Solved {
    let layout = Layout::new(key);
    let per_side = layout.positions_per_side();
    let count = layout.slices.len();
    // A material of one slice (pawnless) takes its slice's arrays as they
    // are: no second copy of the finished values while the slice is solved.
    let whole = per_side == layout.slice_size;
    let empty = || [Codes::empty(count), Codes::empty(count)];
    Solved {
        dtz: empty(),
        dtm: (opts.dtm && !whole).then(empty),
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

/// Where a big table's finished slices go once no slice left reads them:
/// the CLI writes them to the values file, and the generator frees them
/// (KRPvKR holds a few of its 24 slices at a time, not 3.2 GB).
pub trait Spill {
    /// `slice` is final with `side` to move (0 White, 1 Black) and no
    /// slice left reads that half: its DTZ50'' codes and, with mate
    /// distances, its mate codes.
    fn spill(
        &mut self,
        layout: &Layout,
        slice: usize,
        side: usize,
        dtz: Vec<i16>,
        dtm: Option<Vec<i16>>,
    );
}

/// [`generate`], where sub-tables reached only by promotions, if
/// `release` allows (no later material reads them), leave `library` once
/// the slices with a pawn about to promote are solved: KRPvKR's four
/// 5-piece sub-tables, 0.95 GB, after the first of its six ranks.
/// With `spill`, every slice goes to it as soon as no slice left reads
/// it, and is freed: the table returned holds no codes, only its layout
/// and the writer's flags.
pub fn generate_into(
    key: [u8; 12],
    library: &mut Library,
    release: &dyn Fn(&[u8; 12]) -> bool,
    spill: Option<&mut dyn Spill>,
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
        spill,
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
    mut spill: Option<&mut dyn Spill>,
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
    // With a spill: the halves (slice, side to move) that can go once
    // slice `r` is solved (their last reader, or themselves when no pawn
    // move reaches them).
    let mut goes_after: Vec<Vec<(usize, usize)>> = vec![Vec::new(); count];
    if spill.is_some() {
        for s in 0..count {
            for turn in [shakmaty::Color::White, shakmaty::Color::Black] {
                let r = solved.layout.last_reader(s, turn).map_or(s, |r| r.max(s));
                goes_after[r].push((s, solved::side(turn)));
            }
        }
    }
    let mut start = 0;
    while start < count {
        // Slices of equal advancement depend only on finished ones.
        let adv = solved.layout.slice_advancement(start);
        let mut end = start + 1;
        while end < count && solved.layout.slice_advancement(end) == adv {
            end += 1;
        }
        // With mate distances, one slice at a time: its DTZ50'' and mate
        // passes already run side by side, and each slice being solved
        // holds 11 bytes a position and side (KRPvKR: 368 MB). Without,
        // a slice a thread: one slice on both threads made KQQPvK's
        // generation 72 s against 45 s.
        let per_batch = if opts.dtm { 1 } else { threads };
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
                    solved.dtz = w.dtz.each_mut().map(|v| Codes::whole(std::mem::take(v)));
                    solved.dtm = opts
                        .dtm
                        .then(|| w.dtm.each_mut().map(|v| Codes::whole(std::mem::take(v))));
                    continue;
                }
                for side in 0..2 {
                    solved.dtz[side].set(s, w.dtz[side].clone());
                    if let Some(all) = solved.dtm.as_mut() {
                        all[side].set(s, w.dtm[side].clone());
                    }
                    if let Some(all) = solved.free.as_mut() {
                        all[side].put(s * size, &w.best[side]);
                    }
                }
            }
            if let Some(spill) = spill.as_deref_mut() {
                for &r in batch {
                    for &(s, side) in &goes_after[r] {
                        let dtz = solved.dtz[side].take(s);
                        let dtm = solved.dtm.as_mut().map(|d| d[side].take(s));
                        spill.spill(&solved.layout, s, side, dtz, dtm);
                    }
                }
            }
        }
        start = end;
        subtables.release_unreached(&solved.layout, start);
    }
    solved
}
