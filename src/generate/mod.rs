//! Our own tables: retrograde analysis of every position of a material, for
//! the 5-valued WDL under the 50-move rule, DTZ50'' in plies and, on
//! request, the distance to mate. A pure core (no I/O, threads optional)
//! that the CLI and the browser drive.
//!
//! Pipeline per material: [`plan`] orders the sub-materials reached by
//! captures and promotions; [`layout`] numbers positions (pawns fixed per
//! slice, solved from the most advanced back); per slice, the forward pass
//! in [`slice`](mod@slice) counts quiet moves and values zeroing moves from finished
//! tables ([`solved`]); [`retro`] then settles positions distance by
//! distance, once for DTZ50'' and once for mate; [`summary`] reports.
//!
//! # Memory, and what 6 and 7 pieces would need
//! Working set per slice: 3 bytes a position and side to move (quiet-move
//! count, value: the best zeroing code until it is settled), 6 with mate
//! distances (the mate pass has its own two arrays), one more in a
//! pawnful slice (its best capture and pawn move, for the writer). A material of several slices (pawnful)
//! adds the finished table, 2 bytes a position (4 with mates), and the
//! writer's 2 bits ([`free`]); a material of one slice (pawnless) takes its
//! slice's arrays over instead. Pawnless positions are counted up to all eight symmetries
//! (462 placements of the two kings): a 5-piece pawnless table of unique
//! pieces is 462 x 64^3 x 2 = 242 M positions, about 2.4 GB with mates;
//! runs of identical pieces count as sets (KBBBvK: 462 x 41,664 x 2 =
//! 38 M); pawnful ones are solved one pawn slice at a time (KRPvKR: slices
//! of 33.5 M positions, 3.2 GB for the finished table). Sub-tables are
//! held packed (2 bytes a position, mates folded in) and only on the side
//! to move that captures and promotions reach. Big sub-tables that only
//! promotions reach are not held at all where the caller can fetch them
//! (the CLI, from their values files): [`promote`] reads them one at a
//! time before any slice is solved and keeps each promoting position's
//! best promotion (KRPvKR: 0.2 GB, not 0.95 GB for its four 5-piece
//! sub-tables). With a [`Spill`] (the CLI's values file, for big pawnful
//! tables), each half of a slice is written out as soon as it is solved,
//! with the writer's flags (to a scratch file), and only what later
//! slices' pawn moves read is held (packed like a sub-table), until the
//! last of them is solved (with mates, slices go in [`Layout::lean_order`],
//! which finishes a pawn's file before the next: KRPvKR holds at most 5
//! halves for pushes, not 8); the writer reads one leading-pawn file's
//! slices and flags back at a time, a side to move at a time. KRPvKR with
//! mates (one slice solved at a time) peaks at 0.57 GB while generated
//! (working arrays, 234 MB, and its best promotions, 0.2 GB, through the
//! seventh rank; then halves held for pushes and one half on its way to
//! the values file) and 0.56 GB while written (a side's entries, 2 bytes
//! an index, beside its DTZ cells and its WDL cells in a byte; then the
//! two subtables compressed at once, 2 bytes a position each, returned
//! as the pair compression shrinks them): 0.59 GB in all, under the C
//! generator's 631 MB.
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

mod child;
pub mod free;
pub mod layout;
pub mod moves;
pub mod plan;
pub mod promote;
pub mod retro;
pub mod slice;
pub mod solved;
pub mod summary;
pub mod value;
pub mod values_file;

use std::sync::atomic::AtomicBool;

use layout::Layout;
use promote::Ahead;
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
/// must be in `library` (see [`plan::order`]); Err names one that is not.
/// The result is not inserted.
pub fn generate(
    key: [u8; 12],
    library: &Library,
    opts: Options,
    progress: &dyn Progress,
) -> Result<Solved, String> {
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
            let none = || free::FlagArray::new(count, layout.slice_size);
            [none(), none()]
        }),
        layout,
        packed: false,
    }
}

/// Where a big table's finished slices go as soon as they are solved: the
/// CLI writes them to the values file, and the generator keeps only what
/// later slices read (KRPvKR holds a few of its 24 slices at a time, not
/// 3.2 GB).
pub trait Spill {
    /// `slice` is final with `side` to move (0 White, 1 Black): its
    /// DTZ50'' codes, with mate distances its mate codes, and the
    /// writer's flags ([`free::FlagArray::pack`]ed). The codes are the
    /// generator's working arrays, lent: a sink that keeps them copies
    /// them, when it is ready to (KRPvKR: 67 MB a half). An error (a
    /// full disk) stops the generation at once.
    fn spill(
        &mut self,
        layout: &Layout,
        slice: usize,
        side: usize,
        dtz: &[i16],
        dtm: Option<&[i16]>,
        flags: Vec<u8>,
    ) -> Result<(), String>;
}

/// [`generate`], where sub-tables reached only by promotions that are not
/// in `library` come from `fetch`, one at a time, and are dropped once
/// read (see [`promote`]; KRPvKR's four 5-piece ones would take 0.95 GB
/// together). Those in `library`, if `release` allows (no later material
/// reads them), leave it once the slices with a pawn about to promote are
/// solved. With `spill`, every half of a slice goes to it as soon as it is
/// solved, and what later slices read of it is held until the last of
/// them is solved: the table returned holds no codes, only its layout and
/// the writer's flags. Err is what `fetch` said.
pub fn generate_into(
    key: [u8; 12],
    library: &mut Library,
    release: &dyn Fn(&[u8; 12]) -> bool,
    fetch: &mut Fetch<'_>,
    spill: Option<&mut dyn Spill>,
    opts: Options,
    progress: &dyn Progress,
) -> Result<Solved, String> {
    let promotions = plan::promotion_children(&key)
        .into_iter()
        .filter(|k| release(k))
        .collect();
    solve(
        blank(key, opts),
        Subtables::Owned(library, promotions, fetch),
        spill,
        opts,
        progress,
    )
}

/// The sub-tables a generation reads: borrowed, or owned with the
/// promotion sub-tables it may drop and a way to fetch those it lacks.
enum Subtables<'a, 'f> {
    Shared(&'a Library),
    Owned(&'a mut Library, Vec<[u8; 12]>, &'a mut Fetch<'f>),
}

/// Loads a sub-table the library lacks: the CLI reads its values file.
pub type Fetch<'f> = dyn FnMut(&[u8; 12]) -> Result<Solved, String> + 'f;

impl Subtables<'_, '_> {
    fn library(&self) -> &Library {
        match self {
            Subtables::Shared(l) => l,
            Subtables::Owned(l, _, _) => l,
        }
    }

    /// The promotion sub-tables of `key` to fetch: those not at hand.
    fn to_fetch(&self, key: &[u8; 12]) -> Vec<[u8; 12]> {
        match self {
            Subtables::Shared(_) => Vec::new(),
            Subtables::Owned(lib, _, _) => plan::promotion_children(key)
                .into_iter()
                .filter(|k| !lib.contains(k))
                .collect(),
        }
    }

    fn fetch(&mut self, key: &[u8; 12]) -> Result<Solved, String> {
        match self {
            Subtables::Shared(_) => Err(format!("{} is not at hand", layout::name_of(key).0)),
            Subtables::Owned(_, _, fetch) => fetch(key),
        }
    }

    /// No slice left promotes: drops the promotion sub-tables it may.
    fn release_promotions(&mut self) {
        if let Subtables::Owned(lib, keys, _) = self {
            for k in keys.drain(..) {
                lib.remove(&k);
            }
        }
    }
}

fn solve(
    mut solved: Solved,
    mut subtables: Subtables<'_, '_>,
    mut spill: Option<&mut dyn Spill>,
    opts: Options,
    progress: &dyn Progress,
) -> Result<Solved, String> {
    let per_side = solved.layout.positions_per_side();
    let size = solved.layout.slice_size;
    let whole = per_side == size;
    let passes = if opts.dtm { 3 } else { 2 };
    let name = solved.layout.name.clone();
    let threads = opts.threads.max(1);
    let fetched = subtables.to_fetch(&solved.layout.key);
    // Every material a capture or promotion reaches must be at hand, or
    // fetched to be valued ahead: a move into a missing one has no value.
    if let Some(k) = plan::children(&solved.layout.key)
        .into_iter()
        .find(|k| !plan::trivial(k) && !subtables.library().contains(k) && !fetched.contains(k))
    {
        return Err(format!(
            "generate {name}: {} is needed first",
            layout::name_of(&k).0
        ));
    }
    let mut ahead = Ahead::default();
    if !fetched.is_empty() {
        ahead = Ahead::new(&solved.layout, opts.dtm);
    }
    let meter = Meter {
        progress,
        material: &name,
        total: passes * 2 * per_side as u64 + fetched.len() as u64 * ahead.positions(),
    };
    for k in &fetched {
        let table = subtables.fetch(k)?;
        ahead.add(&solved.layout, &table, opts.dtm, threads, &meter);
    }
    let count = solved.layout.slices.len();
    let mut works: Vec<slice::Work> = (0..threads).map(|_| slice::Work::default()).collect();
    // With a spill, every half (slice, side to move) goes to it as soon
    // as it is solved, and the table holds only what later slices' pawn
    // moves read, until the last of them is solved: with mates, one packed
    // code a position (WDL and mate distance) instead of two codes.
    let pack = spill.is_some() && opts.dtm && !whole;
    if pack {
        solved.dtm = None;
        solved.packed = true;
    }
    // With mate distances, one slice at a time, in an order that holds
    // few halves for pawn pushes: its DTZ50'' and mate passes already run
    // side by side, and each slice being solved holds 7 bytes a position
    // and side (KRPvKR: 234 MB). Without, slices of equal advancement
    // (which depend only on finished ones) a thread each: one slice on
    // both threads made KQQPvK's generation 72 s against 45 s.
    let batches: Vec<Vec<usize>> = if opts.dtm {
        solved
            .layout
            .lean_order()
            .into_iter()
            .map(|s| vec![s])
            .collect()
    } else {
        let mut batches: Vec<Vec<usize>> = Vec::new();
        for s in 0..count {
            let adv = solved.layout.slice_advancement(s);
            match batches.last_mut() {
                Some(b) if b.len() < threads && solved.layout.slice_advancement(b[0]) == adv => {
                    b.push(s)
                }
                _ => batches.push(vec![s]),
            }
        }
        batches
    };
    let mut batch_of = vec![0; count];
    for (i, b) in batches.iter().enumerate() {
        for &s in b {
            batch_of[s] = i;
        }
    }
    // The halves held for readers that can go once batch `r` is solved.
    let mut freed_after: Vec<Vec<(usize, usize)>> = vec![Vec::new(); batches.len()];
    let mut held = vec![[false; 2]; count];
    if spill.is_some() {
        for (s, held) in held.iter_mut().enumerate() {
            for turn in [shakmaty::Color::White, shakmaty::Color::Black] {
                let readers = solved.layout.readers(s, turn);
                let last = readers.iter().map(|&r| batch_of[r]).max();
                if let Some(r) = last.filter(|&r| r > batch_of[s]) {
                    freed_after[r].push((s, solved::side(turn)));
                    held[solved::side(turn)] = true;
                }
            }
        }
    }
    // After the last batch with a pawn about to promote, the promotion
    // sub-tables may go.
    let promoting = |b: &Vec<usize>| b.iter().any(|&s| solved.layout.slice_promotes(s));
    let last_promoting = batches.iter().rposition(promoting);
    for (at, batch) in batches.iter().enumerate() {
        let tables = Tables {
            this: &solved,
            library: subtables.library(),
            ahead: &ahead,
            gap: AtomicBool::new(false),
        };
        let inner = (threads / batch.len()).max(1);
        if batch.len() == 1 {
            slice::solve(&tables, batch[0], opts.dtm, inner, &meter, &mut works[0]);
        } else {
            let jobs: Vec<_> = batch.iter().zip(works.iter_mut()).collect();
            crate::par::map_owned(jobs, batch.len(), |(&s, w)| {
                slice::solve(&tables, s, opts.dtm, 1, &meter, w)
            });
        }
        if tables.gap.into_inner() {
            return Err(format!(
                "generate {name}: a capture or pawn move leads to a position not at hand"
            ));
        }
        // Slices of one advancement never read each other: each goes
        // into the table as soon as it is solved.
        for (&s, w) in batch.iter().zip(works.iter_mut()) {
            ahead.free(s);
            if whole {
                solved.dtz = w.dtz.each_mut().map(|v| Codes::whole(std::mem::take(v)));
                solved.dtm = opts
                    .dtm
                    .then(|| w.dtm.each_mut().map(|v| Codes::whole(std::mem::take(v))));
                continue;
            }
            for side in 0..2 {
                let (dtz, dtm) = (&w.dtz[side], opts.dtm.then_some(&w.dtm[side]));
                let Some(spill) = spill.as_deref_mut() else {
                    if let Some(all) = solved.free.as_mut() {
                        all[side].put(s, &w.best[side]);
                    }
                    solved.dtz[side].set(s, dtz.clone());
                    if let (Some(all), Some(dtm)) = (solved.dtm.as_mut(), dtm) {
                        all[side].set(s, dtm.clone());
                    }
                    continue;
                };
                if held[s][side] {
                    let mut codes = dtz.clone();
                    if let Some(mates) = dtm.filter(|_| pack) {
                        solved::pack_into(&mut codes, mates);
                    }
                    solved.dtz[side].set(s, codes);
                }
                let flags = free::FlagArray::pack(&w.best[side]);
                spill.spill(&solved.layout, s, side, dtz, dtm.map(|v| &v[..]), flags)?;
            }
        }
        for &(s, side) in &freed_after[at] {
            solved.dtz[side].clear(s);
        }
        if last_promoting.is_none_or(|l| at >= l) {
            subtables.release_promotions();
        }
    }
    // A spilled table holds no codes, packed or not.
    solved.packed = false;
    Ok(solved)
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout::parse_material;

    /// A material whose captures reach one not at hand is refused before
    /// any work, naming it.
    #[test]
    fn a_missing_sub_material_is_named() {
        let key = parse_material("KRvKN").unwrap();
        let e = generate(key, &Library::default(), Options::default(), &Quiet).unwrap_err();
        assert!(e.contains("is needed first"), "{e}");
    }

    /// A sub-material held but unreadable (here its tables empty, as a
    /// slice the plan failed to hold would be) fails the generation
    /// rather than count the moves into it as anything.
    #[test]
    fn an_unreadable_child_fails_the_generation() {
        let key = parse_material("KRvKN").unwrap();
        let mut lib = Library::default();
        for k in plan::order(&[key], |_| false) {
            if k != key {
                lib.insert(blank(k, Options::default()));
            }
        }
        let e = generate(key, &lib, Options::default(), &Quiet).unwrap_err();
        assert!(e.contains("not at hand"), "{e}");
    }
}
