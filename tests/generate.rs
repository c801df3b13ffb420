//! The generator against the official tables: WDL and DTZ50'' of every
//! 3-piece position and sampled 4-piece positions, read by shakmaty-syzygy,
//! and every index of every 3-4 piece file, the official ones and ours,
//! decoded whole (generate/stored.rs); mate distances (3-5 pieces) checked without an
//! oracle. The answers the prober gives
//! from these tables (`probe::generated`) are checked in generate/answers.rs,
//! on the same generated tables.

// Its own file; a module of this binary so that the tables are generated once.
#[path = "generate/answers.rs"]
mod answers;
mod common;
#[path = "generate/stored.rs"]
mod stored;

use std::sync::OnceLock;
use std::time::Instant;

use common::*;
use shakmaty::{Chess, Color, Position, Role};
use syzygy_web::generate::{self, plan, solved::Library, value, Options, Quiet};

/// The 3-4 piece tables the official set has, or every 3-4 piece material.
fn names_of(len: usize) -> Vec<String> {
    if official_tables() {
        return table_names()
            .into_iter()
            .filter(|n| n.len() == len)
            .collect();
    }
    plan::all_up_to(4)
        .into_iter()
        .map(|k| generate::layout::name_of(&k).0)
        .filter(|n| n.len() == len)
        .collect()
}

fn lookup_pieces(pos: &Chess) -> Vec<(Color, Role, u8)> {
    let b = pos.board();
    b.occupied()
        .into_iter()
        .filter_map(|sq| b.piece_at(sq).map(|p| (p.color, p.role, sq as u8)))
        .collect()
}

/// Every 3-4 piece material, generated once per test binary, with mates.
fn library() -> &'static Library {
    static LIB: OnceLock<Library> = OnceLock::new();
    LIB.get_or_init(|| {
        let mut lib = Library::default();
        let opts = Options {
            threads: 2,
            dtm: true,
        };
        for key in plan::order(&plan::all_up_to(4), |_| false) {
            let t = Instant::now();
            let s = generate::generate(key, &lib, opts, &Quiet).unwrap();
            eprintln!("{} {:.2}s", s.layout.name, t.elapsed().as_secs_f64());
            lib.insert(s);
        }
        lib
    })
}

/// Compares one position; Err describes the disagreement.
fn check(
    lib: &Library,
    theirs: &shakmaty_syzygy::Tablebase<Chess>,
    pos: &Chess,
    stats: &mut [u64; 3],
) -> Result<(), String> {
    if pos.ep_square(shakmaty::EnPassantMode::Legal).is_some() {
        return Ok(());
    }
    let (code, _) = lib
        .probe(&lookup_pieces(pos), pos.turn())
        .ok_or_else(|| format!("{}: not generated", fen(pos)))?;
    let w = value::wdl(code);
    let tw = wdl_of(
        theirs
            .probe_wdl_after_zeroing(pos)
            .map_err(|e| e.to_string())?,
    );
    if w != tw {
        return Err(format!(
            "{}: generated wdl {w} (code {code}), official {tw}",
            fen(pos)
        ));
    }
    // Counted once its WDL agrees; a mate has no DTZ to compare.
    stats[0] += 1;
    if pos.is_checkmate() {
        return Ok(());
    }
    let d = value::dtz_plies(code);
    let (td, precise) = dtz_of(theirs.probe_dtz(pos).map_err(|e| e.to_string())?);
    // Official tables store most DTZ in full moves: a value n means n or
    // n + 1 plies, never n - 1. A loss one ply away from such a rounded win
    // is stored as an exact-looking n even where the truth is n + 1 (the
    // reference then reports it as precise), so losses get the same
    // allowance. Ours one ply short of the official value is always wrong.
    let ok = if d == td {
        true
    } else if precise && td > 0 {
        false
    } else {
        let (a, b) = (d.abs(), td.abs());
        if a == b + 1 {
            stats[1] += 1;
        } else if a + 1 == b {
            stats[2] += 1;
        }
        d.signum() == td.signum() && a == b + 1
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{}: generated dtz {d}, official {td} (precise {precise})",
            fen(pos)
        ))
    }
}

type Theirs = shakmaty_syzygy::Tablebase<Chess>;

/// Comparisons of generated values with the official tables: counts (all,
/// rounded one more, one less) and the first failures.
#[derive(Default)]
struct Tally {
    stats: [u64; 3],
    bad: Vec<String>,
}

impl Tally {
    fn check(&mut self, lib: &Library, theirs: &Theirs, name: &str, pos: &Chess) {
        if let Err(e) = check(lib, theirs, pos, &mut self.stats) {
            if self.bad.len() < 20 {
                self.bad.push(format!("{name}: {e}"));
            }
        }
    }

    fn finish(self) {
        eprintln!(
            "compared {} (rounded: ours one more {}, one less {})",
            self.stats[0], self.stats[1], self.stats[2]
        );
        assert!(self.bad.is_empty(), "{}", self.bad.join("\n"));
    }
}

/// False, after saying why, without the official tables.
fn have_official() -> bool {
    let have = official_tables();
    if !have {
        eprintln!("skipped: needs the official tables (SYZYGY_PATH or ../shared/syzygy)");
    }
    have
}

#[test]
fn three_piece_every_position() {
    if !have_official() {
        return;
    }
    let (lib, theirs) = (library(), theirs());
    let mut tally = Tally::default();
    for name in names_of(4) {
        all_positions(&name, |pos| tally.check(lib, &theirs, &name, pos));
    }
    tally.finish();
}

#[test]
fn four_piece_samples() {
    if !have_official() {
        return;
    }
    let (lib, theirs) = (library(), theirs());
    let mut tally = Tally::default();
    for name in table_names().into_iter().filter(|n| n.len() == 5) {
        for pos in sample(&name, 20_000, 9) {
            tally.check(lib, &theirs, &name, &pos);
        }
    }
    tally.finish();
}

/// Our prober's `precise` flag, read from the official tables, against
/// the generated DTZ (exact, and not the reference's: shakmaty-syzygy
/// says exact where a lost position's longest defence ties an exact child
/// with a rounded one, as in `8/8/2K5/8/6k1/5Q2/8/3Q4 b`, -2 said exact
/// where the generated value is -3). Exact means equal; a rounded n means n
/// or n + 1 plies. Each sampled 4-piece position and each of its moves.
#[test]
fn official_dtz_said_exact_is_the_generated_one() {
    if !have_official() {
        return;
    }
    let mut us = ours();
    let mut said = Said::default();
    for name in table_names().into_iter().filter(|n| n.len() == 5) {
        for pos in sample(&name, 1_000, 17) {
            said.check(&mut us, library(), &pos);
        }
    }
    eprintln!("DTZ said exact: {}, rounded: {}", said.exact, said.rounded);
    assert!(said.exact > 10_000 && said.rounded > 10_000);
    assert!(said.bad.is_empty(), "{:#?}", said.bad);
}

/// Our prober's DTZ on the official tables against generated values: the
/// same where it says exact, within the rounding where it does not.
#[derive(Default)]
struct Said {
    exact: u64,
    rounded: u64,
    bad: Vec<String>,
}

impl Said {
    /// A position and each of its moves.
    fn check(
        &mut self,
        us: &mut syzygy_web::drivers::Tablebase<syzygy_web::drivers::FsFetcher>,
        lib: &impl Values,
        pos: &Chess,
    ) {
        let a = us.analyse(pos).expect("answer");
        if a.facts.checkmate {
            return;
        }
        self.agree(lib, fen(pos), a.dtz, a.precise, pos);
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let uci = m.to_uci(shakmaty::CastlingMode::Standard).to_string();
            let listed = a.moves.iter().find(|x| x.uci == uci).expect("listed");
            if !child.is_checkmate() {
                self.agree(
                    lib,
                    format!("{} after {uci}", fen(pos)),
                    listed.dtz,
                    listed.precise,
                    &child,
                );
            }
        }
    }

    fn agree(&mut self, lib: &impl Values, what: String, dtz: i32, precise: bool, pos: &Chess) {
        // A promotion into a 5-piece table not loaded here has no value.
        let (code, _) = value_of(lib, pos);
        if code == value::UNKNOWN {
            return;
        }
        let generated = value::dtz_plies(code);
        let ok = if precise {
            self.exact += 1;
            generated == dtz
        } else {
            self.rounded += 1;
            generated.signum() == dtz.signum()
                && (generated.abs() == dtz.abs() || generated.abs() == dtz.abs() + 1)
        };
        if !ok && self.bad.len() < 10 {
            self.bad.push(format!(
                "{what}: dtz {dtz} (precise {precise}), generated {generated}"
            ));
        }
    }
}

/// Where the checks below read stored values: the 3-4 piece library, or a
/// 5-piece table in front of it.
trait Values {
    /// (DTZ50'' code, mate code), or None where no table here holds the material.
    fn lookup(&self, pieces: &[(Color, Role, u8)], turn: Color) -> Option<(i16, i16)>;
}

impl Values for Library {
    fn lookup(&self, pieces: &[(Color, Role, u8)], turn: Color) -> Option<(i16, i16)> {
        self.probe(pieces, turn)
    }
}

impl Values for (&generate::solved::Solved, &Library) {
    fn lookup(&self, pieces: &[(Color, Role, u8)], turn: Color) -> Option<(i16, i16)> {
        self.0
            .probe(pieces, turn)
            .or_else(|| self.1.probe(pieces, turn))
    }
}

/// The value of a position for its side to move, (DTZ50'' code, mate code):
/// looked up, or through its moves when it has en passant rights (stored
/// positions have none).
fn value_of(lib: &impl Values, pos: &Chess) -> (i16, i16) {
    if pos.ep_square(shakmaty::EnPassantMode::Legal).is_none() {
        return lib
            .lookup(&lookup_pieces(pos), pos.turn())
            .unwrap_or((value::UNKNOWN, value::UNKNOWN));
    }
    best_through_moves(lib, pos)
}

/// The Bellman step: the best the side to move reaches through its moves
/// (a zeroing move starts a new phase: only its WDL counts for DTZ50'').
fn best_through_moves(lib: &impl Values, pos: &Chess) -> (i16, i16) {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return if pos.is_check() {
            (value::MATED, value::MATED)
        } else {
            (value::DRAW, value::DRAW)
        };
    }
    let (mut dtz, mut dtm) = (value::UNKNOWN, value::UNKNOWN);
    for m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(*m);
        let (cz, cm) = value_of(lib, &child);
        let z = if m.is_zeroing() {
            value::zeroing(cz)
        } else {
            value::through(cz)
        };
        if value::rank(z) > value::rank(dtz) {
            dtz = z;
        }
        let t = value::through(cm);
        if value::rank(t) > value::rank(dtm) {
            dtm = t;
        }
    }
    (dtz, dtm)
}

/// Whether every position one move from `pos` has its material in `lib`
/// (a pawn's promotion may lead to a 5-piece table not loaded).
fn children_held(lib: &impl Values, pos: &Chess) -> bool {
    pos.legal_moves().iter().all(|m| {
        let mut child = pos.clone();
        child.play_unchecked(*m);
        lib.lookup(&lookup_pieces(&child), child.turn()).is_some()
    })
}

/// Checks `pos` as [`self_consistency`] does; Err describes the disagreement.
fn consistent(lib: &impl Values, pos: &Chess) -> Result<(), String> {
    let (dtz, dtm) = value_of(lib, pos);
    let (want_dtz, want_dtm) = best_through_moves(lib, pos);
    let agree = (i16::from(value::wdl(dtz).signum()), dtm.signum());
    if (dtz, dtm) != (want_dtz, want_dtm) || agree.0 != agree.1 {
        return Err(format!(
            "{}: stored dtz {dtz} dtm {dtm}, through moves dtz {want_dtz} dtm {want_dtm}",
            fen(pos)
        ));
    }
    Ok(())
}

/// Every `stride`-th stored position of a generated table, as positions.
fn stored_positions(t: &generate::solved::Solved, stride: usize, mut f: impl FnMut(Chess)) {
    for i in (0..t.layout.positions_per_side()).step_by(stride.max(1)) {
        for turn in [Color::White, Color::Black] {
            if let Some(p) = stored_position(t, i, turn) {
                f(p);
            }
        }
    }
}

/// Oracle-free: every checked position's DTZ50'' and mate codes are what
/// its moves give (a mate is 0 plies; a win one more than its best child, a
/// loss one more than its longest resistance), and the two agree on who
/// wins. Returns (positions checked, first failures).
fn self_consistency(stride_of: impl Fn(&str) -> usize) -> (u64, Vec<String>) {
    let lib = library();
    let mut checked = 0u64;
    let mut bad = Vec::new();
    for key in plan::all_up_to(4) {
        let t = lib.get(&key).expect("generated");
        stored_positions(t, stride_of(&t.layout.name), |pos| {
            checked += 1;
            if let Err(e) = consistent(lib, &pos) {
                if bad.len() < 20 {
                    bad.push(e);
                }
            }
        });
    }
    (checked, bad)
}

fn exhaustive() -> bool {
    std::env::var_os("SYZYGY_GENERATE_EXHAUSTIVE").is_some()
}

#[test]
fn values_agree_with_their_moves() {
    // CI: every 3-piece position and every 97th stored 4-piece one; all of
    // them with SYZYGY_GENERATE_EXHAUSTIVE=1.
    let all = exhaustive();
    let (checked, bad) = self_consistency(|name| if all || name.len() == 4 { 1 } else { 97 });
    eprintln!("self-consistent: {checked} positions");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(checked > 1_000_000);
}

/// The page's core answers from generated tables once every material
/// `reads` names is at hand, and has generated what `needed` names: with
/// every 3-4 piece material generated, `reads` finds each of them and
/// `needed` names nothing, whichever side has the stronger material. A
/// material named with its colours exchanged (the rook promotion of
/// White's pawn against Black's queen, KQvKR with Black's queen) was never
/// found there, so the page asked for it round after round and gave up
/// ("generated tables did not answer").
#[test]
fn what_answers_read_is_found_in_either_colours() {
    use syzygy_web::probe::generated::{needed, reads};
    let lib = library();
    let fens = [
        "8/8/8/6K1/4k3/8/4P3/3q4 w - - 0 2",
        "8/8/8/6K1/4k3/8/3pP3/8 b - - 0 1",
        "k7/8/8/8/8/8/8/K6r w - - 0 1",
        "1k6/8/8/8/8/8/1p6/3K2r1 w - - 0 1",
        "8/8/8/4k3/8/8/4p3/R3K3 b - - 0 1",
        "8/1P6/8/8/8/k7/2q5/K7 w - - 0 1",
    ];
    for fen in fens {
        let pos = parse(fen);
        for k in reads(&pos) {
            assert!(
                lib.contains(&k),
                "{fen}: {} not found",
                generate::layout::name_of(&k).0
            );
        }
        let more: Vec<String> = needed(&pos, |k| lib.contains(k))
            .iter()
            .map(|k| generate::layout::name_of(k).0)
            .collect();
        assert!(more.is_empty(), "{fen}: would generate {more:?}");
    }
}

#[test]
fn values_file_round_trips() {
    let lib = library();
    let key = generate::layout::parse_material("KRPvK").unwrap();
    let t = lib.get(&key).unwrap();
    let mut bytes = Vec::new();
    generate::values_file::write(t, &mut bytes).unwrap();
    let back = generate::values_file::read(&mut bytes.as_slice()).unwrap();
    assert_eq!(back.layout.name, "KRPvK");
    assert_eq!(back.dtz, t.dtz);
    assert_eq!(back.dtm, t.dtm);
    let current = |bytes: &[u8], name: &str, dtm: bool| {
        generate::values_file::current(&mut &bytes[..], name, dtm, bytes.len() as u64)
    };
    assert!(current(&bytes, "KRPvK", false));
    assert_eq!(current(&bytes, "KRPvK", true), t.dtm.is_some());
    // Another material's file under this name, or one cut short: not
    // current, so the CLI generates the material again rather than read
    // another table as this one or stop at a short read.
    assert!(!current(&bytes, "KQPvK", false));
    assert!(!current(&bytes[..bytes.len() - 1], "KRPvK", false));
    assert!(!current(&bytes[..100], "KRPvK", false));
    // Another version: refused by the reader, and not current (the CLI
    // generates such a sub-table again instead of failing).
    bytes[4] ^= 1;
    assert!(generate::values_file::read(&mut bytes.as_slice()).is_err());
    assert!(!current(&bytes, "KRPvK", false));
    let mut short = Vec::new();
    generate::values_file::write(t, &mut short).unwrap();
    short.truncate(short.len() / 2);
    assert!(generate::values_file::read(&mut short.as_slice()).is_err());
    // One side to move read, the other skipped: packed as the whole file
    // reads, that side left empty; a file cut short in the skipped part is
    // still refused.
    let mut bytes = Vec::new();
    generate::values_file::write(t, &mut bytes).unwrap();
    let whole = generate::values_file::read_packed(&mut bytes.as_slice()).unwrap();
    for side in 0..2 {
        let mut sides = [false; 2];
        sides[side] = true;
        let mut r = std::io::Cursor::new(&bytes);
        let one = generate::values_file::read_packed_sides(&mut r, sides).unwrap();
        assert!(one.packed);
        assert_eq!(one.dtz[side], whole.dtz[side]);
        assert!(one.dtz[1 - side].is_empty());
    }
    let cut = &bytes[..bytes.len() - 2];
    let mut r = std::io::Cursor::new(cut);
    assert!(generate::values_file::read_packed_sides(&mut r, [true, false]).is_err());
    // A damaged code (UNKNOWN, never written; or a distance past the
    // longest allowed) is refused, not answered (until 2026-11-30 read).
    for bad in [i16::MIN, 16_001, -16_002] {
        let mut damaged = bytes.clone();
        let at = damaged.len() - 2;
        damaged[at..].copy_from_slice(&bad.to_le_bytes());
        assert!(
            generate::values_file::read(&mut damaged.as_slice()).is_err(),
            "{bad}"
        );
        assert!(
            generate::values_file::read_packed(&mut damaged.as_slice()).is_err(),
            "{bad}"
        );
    }
}

/// A pawnful material written a leading-pawn file at a time (as the CLI
/// writes big ones, with the DTZ plies flags from the generated codes) is
/// byte for byte the one written whole.
#[test]
fn written_by_file_equals_written_whole() {
    use syzygy_web::generate_write::{hundred, plies, Generated};
    use syzygy_web::material::Material;
    use syzygy_web::write::{self, Entries, WriteError};
    let lib = library();
    for name in ["KRPvK", "KPvKP", "KPPvK", "KBPvK"] {
        let key = generate::layout::parse_material(name).unwrap();
        let table = lib.get(&key).unwrap();
        let mat = Material::from_name(name).unwrap();
        let source = Generated::new(table, lib).unwrap();
        let opts = write::Options {
            threads: 2,
            ..Default::default()
        };
        let whole = write::write_files(
            &write::collect_parallel(name, &source, 2, &mut |_| {}).unwrap(),
            &opts,
        );
        let plies = plies(hundred(table), mat.symmetric, false);
        let mut files = 0;
        let by_file = write::write_by_file(name, &plies, &opts, &mut |f, side| {
            files += 1;
            Entries::collect_side_parallel(&mat, &source, f, side, 2, &mut |_| {})
                .map_err(WriteError::from)
        })
        .unwrap();
        let sides = if mat.symmetric { 1 } else { 2 };
        assert_eq!(files, 4 * sides, "{name}");
        assert!(whole.wdl == by_file.wdl, "{name}.rtbw");
        assert!(whole.dtz == by_file.dtz, "{name}.rtbz");
    }
}

/// The writer's facts about zeroing moves that the forward pass keeps for
/// pawnful materials give the writer the entries that generating every
/// position's zeroing moves again gives.
#[test]
fn kept_zeroing_flags_equal_regenerated_moves() {
    use syzygy_web::generate::solved::Solved;
    use syzygy_web::generate_write::Generated;
    use syzygy_web::write;
    let lib = library();
    let mut checked = 0;
    for key in plan::all_up_to(4) {
        let Some(table) = lib.get(&key).filter(|t| t.free.is_some()) else {
            continue;
        };
        let name = &table.layout.name;
        let bare = Solved {
            layout: table.layout.clone(),
            dtz: table.dtz.clone(),
            dtm: None,
            packed: false,
            free: None,
        };
        let entries = |t: &Solved| {
            let source = Generated::new(t, lib).unwrap();
            write::collect_parallel(name, &source, 2, &mut |_| {}).unwrap()
        };
        assert!(entries(table).values == entries(&bare).values, "{name}");
        checked += 1;
    }
    let pawnful = plan::all_up_to(4)
        .into_iter()
        .filter(|&k| generate::layout::Layout::new(k).pawnful())
        .count();
    assert_eq!(checked, pawnful);
}

#[test]
fn four_piece_every_position() {
    if !have_official() {
        return;
    }
    // Every 4-piece position up to the board's symmetries, both sides to
    // move (about 157 M): SYZYGY_GENERATE_EXHAUSTIVE=1 only (or a list of
    // tables, e.g. "KQvKR,KPvKP").
    if !exhaustive() {
        eprintln!("skipped: set SYZYGY_GENERATE_EXHAUSTIVE=1");
        return;
    }
    // On every core: tables are dealt out in turn, each thread with its
    // own reader of the official files.
    let lib = library();
    let which = std::env::var("SYZYGY_GENERATE_EXHAUSTIVE").unwrap_or_default();
    let names: Vec<String> = table_names()
        .into_iter()
        .filter(|n| n.len() == 5 && (which == "1" || which.split(',').any(|w| w == n)))
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|k| {
                let names = &names;
                scope.spawn(move || {
                    let theirs = theirs();
                    let mut tally = Tally::default();
                    for name in names.iter().skip(k).step_by(threads) {
                        let t = Instant::now();
                        let before = tally.stats[0];
                        positions_up_to_symmetry(name, |pos| tally.check(lib, &theirs, name, pos));
                        eprintln!(
                            "{name}: {} positions in {:.0} s",
                            tally.stats[0] - before,
                            t.elapsed().as_secs_f64()
                        );
                    }
                    tally
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("worker"))
            .collect()
    });
    let mut all = Tally::default();
    for t in tallies {
        for (a, b) in all.stats.iter_mut().zip(t.stats) {
            *a += b;
        }
        all.bad.extend(t.bad);
    }
    all.finish();
}

/// Every index of every 3-4 piece file, the official ones and ours
/// (written here from the generated values), against the generated values
/// (see stored.rs); ours alone without the official tables.
#[test]
fn four_piece_stored_indices() {
    use syzygy_web::generate_write::Generated;
    use syzygy_web::write;
    let lib = library();
    let ours = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/stored-ours");
    std::fs::create_dir_all(&ours).expect("a directory for our files");
    let mut dirs = vec![("our files", ours.clone())];
    if official_tables() {
        dirs.push(("official files", syzygy_path()));
    }
    let opts = write::Options {
        threads: 2,
        ..Default::default()
    };
    let mut totals: Vec<stored::Compared> = dirs.iter().map(|_| Default::default()).collect();
    for name in names_of(4).into_iter().chain(names_of(5)) {
        let key = generate::layout::parse_material(&name).expect("material");
        let t = lib.get(&key).expect("generated");
        let source = Generated::new(t, lib).expect("a Syzygy layout");
        let entries = write::collect_parallel(&name, &source, 2, &mut |_| {}).expect("entries");
        let written = write::write_files(&entries, &opts);
        for (ext, bytes) in [("rtbw", &written.wdl), ("rtbz", &written.dtz)] {
            std::fs::write(ours.join(format!("{name}.{ext}")), bytes).expect("written");
        }
        for ((_, dir), total) in dirs.iter().zip(&mut totals) {
            total.add(stored::compare(dir, t, lib, Some(&entries)).expect("compared"));
        }
    }
    for ((what, _), total) in dirs.iter().zip(&totals) {
        eprintln!("{what}: {}", total.line());
        // Which DTZ indices count is the writer's own choice (its
        // don't-care rules): a rule gone wrong must not leave nothing to
        // compare. Measured 2026-11-30: 17.5 M DTZ beside 125.8 M WDL.
        assert!(
            total.wdl > 1_000_000 && total.dtz * 20 > total.wdl,
            "{what}: too few indices compared: {}",
            total.line()
        );
    }
    let bad: Vec<String> = totals.into_iter().flat_map(|t| t.bad).collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn five_piece_samples() {
    if !have_official() {
        return;
    }
    // 20,000 seeded positions of each 5-piece table in SYZYGY_PATH (or of
    // those named in SYZYGY_GENERATE_5, e.g. "KRRvKR,KQRvKR"), generated into
    // SYZYGY_GENERATE_DIR (default target/generated), whose values files
    // later runs reuse. Generation takes minutes per table: opt-in.
    let Some(which) = std::env::var_os("SYZYGY_GENERATE_5") else {
        eprintln!("skipped: set SYZYGY_GENERATE_5=1 (or a list of tables)");
        return;
    };
    let which = which.to_string_lossy().to_string();
    let dir = std::env::var_os("SYZYGY_GENERATE_DIR").map_or_else(
        || std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/generated"),
        std::path::PathBuf::from,
    );
    let names: Vec<String> = table_names()
        .into_iter()
        .filter(|n| n.len() == 6 && (which == "1" || which.split(',').any(|w| w == n)))
        .collect();
    // A name misspelt, or a table SYZYGY_PATH lacks, is not silently left out.
    if which != "1" {
        assert_eq!(
            names.len(),
            which.split(',').count(),
            "SYZYGY_GENERATE_5={which}: 5-piece tables at SYZYGY_PATH: {names:?}"
        );
    }
    assert!(
        !names.is_empty(),
        "SYZYGY_GENERATE_5={which}: no 5-piece table at SYZYGY_PATH"
    );
    let theirs = theirs();
    let mut us = ours();
    let mut said = Said::default();
    let mut tally = Tally::default();
    let mut mates = Mates::default();
    let mut stored_all = stored::Compared::default();
    // All 22 take about 10 GB of values: with "1", the 5-piece files this
    // run generates go once no later table needs them (a list keeps its
    // files for the next run).
    let kept = values_files(&dir);
    for (i, name) in names.iter().enumerate() {
        let args = syzygy_web::generate_cli::Args {
            materials: vec![name.clone()],
            out: Some(dir.clone()),
            values_only: true,
            dtm: true,
            ..Default::default()
        };
        let path = dir.join(format!("{name}.swv"));
        let with_mates = |path: &std::path::Path| {
            let Ok(file) = std::fs::File::open(path) else {
                return false;
            };
            let len = file.metadata().map_or(0, |m| m.len());
            generate::values_file::current(&mut std::io::BufReader::new(file), name, true, len)
        };
        if !with_mates(&path) {
            syzygy_web::generate_cli::run(&args).expect("generated");
        }
        let file = std::fs::File::open(&path).expect("values file");
        let t = generate::values_file::read(&mut std::io::BufReader::new(file)).expect("read");
        mates.check(&t, sample(name, 20_000, 29));
        let mut lib = Library::default();
        if every_five() {
            every_index(&dir, &t, &mut lib, &mut stored_all);
        } else {
            // Our prober on the official table, where it says its DTZ is
            // exact and where it rounds, against these values.
            let both = (&t, library());
            for pos in sample(name, 500, 19) {
                said.check(&mut us, &both, &pos);
            }
            let before = tally.stats;
            lib.insert(t);
            for pos in sample(name, 20_000, 5) {
                tally.check(&lib, &theirs, name, &pos);
            }
            eprintln!(
                "{name}: compared {} (rounded: ours one more {})",
                tally.stats[0] - before[0],
                tally.stats[1] - before[1]
            );
        }
        if which == "1" {
            let needed = five_piece_closure(&names[i + 1..]);
            for stem in values_files(&dir).difference(&kept) {
                if stem.len() == 6 && !needed.contains(stem) {
                    std::fs::remove_file(dir.join(format!("{stem}.swv"))).expect("removed");
                }
            }
        }
    }
    mates.finish();
    eprintln!(
        "5-piece DTZ said exact: {}, rounded: {}",
        said.exact, said.rounded
    );
    assert!(said.bad.is_empty(), "{:#?}", said.bad);
    assert!(every_five() || (said.exact > 0 && said.rounded > 0));
    if every_five() {
        eprintln!("every index: {}", stored_all.line());
        assert!(stored_all.bad.is_empty(), "{}", stored_all.bad.join("\n"));
    } else {
        tally.finish();
    }
}

/// Oracle-free checks of 5-piece mate distances (no official file holds
/// them): sampled positions whose values, DTZ50'' and mate, are what their
/// moves give, read from the 5-piece table and the 3-4 piece library.
#[derive(Default)]
struct Mates {
    checked: u64,
    /// Positions with a move into a 5-piece table not loaded (a promotion).
    skipped: u64,
    bad: Vec<String>,
}

impl Mates {
    fn check(&mut self, t: &generate::solved::Solved, positions: Vec<Chess>) {
        let both = (t, library());
        for pos in positions {
            if !children_held(&both, &pos) {
                self.skipped += 1;
                continue;
            }
            self.checked += 1;
            if let Err(e) = consistent(&both, &pos) {
                if self.bad.len() < 20 {
                    self.bad.push(format!("{}: {e}", t.layout.name));
                }
            }
        }
    }

    fn finish(self) {
        eprintln!(
            "mate distances self-consistent: {} positions ({} with a move into a table not loaded)",
            self.checked, self.skipped
        );
        assert!(self.bad.is_empty(), "{}", self.bad.join("\n"));
        assert!(self.checked > 0);
    }
}

/// SYZYGY_GENERATE_5_EXHAUSTIVE=1: every index of each 5-piece table's
/// official files (see stored.rs) instead of samples.
fn every_five() -> bool {
    std::env::var_os("SYZYGY_GENERATE_5_EXHAUSTIVE").is_some()
}

/// Every index of the official files of `t` against its generated values
/// (see stored.rs), its sub-tables read from `dir` into `lib`.
fn every_index(
    dir: &std::path::Path,
    t: &generate::solved::Solved,
    lib: &mut Library,
    all: &mut stored::Compared,
) {
    let started = Instant::now();
    let name = &t.layout.name;
    let key = generate::layout::parse_material(name).expect("material");
    for c in plan::children(&key).iter().filter(|c| !plan::trivial(c)) {
        let path = dir.join(format!("{}.swv", generate::layout::name_of(c).0));
        let f = std::fs::File::open(&path).expect("a sub-table's values file");
        let sides = [true, true];
        let sub = generate::values_file::read_packed_sides(&mut std::io::BufReader::new(f), sides)
            .expect("sub-table");
        lib.insert(sub);
    }
    let c = stored::compare(&syzygy_path(), t, lib, None).expect("compared");
    eprintln!(
        "{name}: every index, {}, {:.0} s",
        c.line(),
        started.elapsed().as_secs_f64()
    );
    all.add(c);
}

/// Names of the values files in `dir`.
fn values_files(dir: &std::path::Path) -> std::collections::HashSet<String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            Some(name.strip_suffix(".swv")?.to_string())
        })
        .collect()
}

/// The tables named and the 5-piece materials they are generated from.
fn five_piece_closure(names: &[String]) -> std::collections::HashSet<String> {
    let keys: Vec<[u8; 12]> = names
        .iter()
        .map(|n| generate::layout::parse_material(n).expect("material"))
        .collect();
    plan::order(&keys, |_| false)
        .iter()
        .filter(|k| plan::pieces(k) == 5)
        .map(|k| generate::layout::name_of(k).0)
        .collect()
}

/// A big pawnful table goes to its values file a slice at a time as the
/// generator lets slices go, and is written a leading-pawn file at a time
/// from slices read back (the CLI, above 2^28 positions a side), and its
/// promotion sub-tables are fetched one at a time and valued ahead rather
/// than held (the CLI, above 2^24). Here on small materials, with and
/// without mates, against the same table generated and held with every
/// sub-table: the same values file, summary and Syzygy files, every
/// promotion sub-table fetched once, and no slice held at the end.
#[test]
fn spilled_tables_equal_tables_held() {
    use std::io::Cursor;
    use syzygy_web::generate::layout::{parse_material, Layout};
    use syzygy_web::generate::solved::Codes;
    use syzygy_web::generate::summary::{summarize, Tally};
    use syzygy_web::generate::values_file;
    use syzygy_web::generate_write::{file_slices, hundred, plies, Generated};
    use syzygy_web::material::Material;
    use syzygy_web::write::{self, Entries, WriteError};

    /// The values file, assembled at each slice's place.
    struct ToBytes {
        bytes: Vec<u8>,
        tally: Tally,
        spilled: usize,
        /// Packed writer flags by (side, slice).
        flags: std::collections::HashMap<(usize, usize), Vec<u8>>,
    }
    impl generate::Spill for ToBytes {
        fn spill(
            &mut self,
            l: &Layout,
            slice: usize,
            side: usize,
            dtz: &[i16],
            dtm: Option<&[i16]>,
            flags: Vec<u8>,
        ) -> Result<(), String> {
            self.flags.insert((side, slice), flags);
            self.tally.add(l, slice, side, dtz, dtm);
            let bytes = &mut self.bytes;
            let mut put = |at: u64, b: &[u8]| {
                let at = at as usize;
                bytes[at..at + b.len()].copy_from_slice(b);
                Ok(())
            };
            values_file::put_slice(l, slice, side, dtz, dtm, &mut put).unwrap();
            self.spilled += 1;
            Ok(())
        }
    }

    for (name, dtm) in [
        ("KRPvK", true),
        ("KPvKP", true),
        ("KPPvK", true),
        ("KPvKN", true),
        ("KPvKP", false),
        ("KPvKR", false),
    ] {
        let opts = Options { threads: 2, dtm };
        let key = parse_material(name).unwrap();
        let mut lib = Library::default();
        for k in plan::order(&[key], |_| false) {
            if k != key {
                let t = generate::generate(k, &lib, opts, &Quiet).unwrap();
                lib.insert(t);
            }
        }
        let held = generate::generate(key, &lib, opts, &Quiet).unwrap();
        let mut whole = Vec::new();
        values_file::write(&held, &mut whole).unwrap();
        let layout = Layout::new(key);
        let mut sink = ToBytes {
            bytes: values_file::header(&layout, dtm),
            tally: Tally::new(&layout),
            spilled: 0,
            flags: Default::default(),
        };
        sink.bytes.resize(whole.len(), 0);
        let mut aside: std::collections::HashMap<_, _> = plan::promotion_children(&key)
            .into_iter()
            .filter_map(|k| lib.remove(&k).map(|t| (k, t)))
            .collect();
        assert!(!aside.is_empty(), "{name}: promotion sub-tables");
        let mut fetch = |k: &[u8; 12]| aside.remove(k).ok_or_else(|| "fetched twice".to_string());
        let mut t = generate::generate_into(
            key,
            &mut lib,
            &|_| false,
            &mut fetch,
            Some(&mut sink),
            opts,
            &Quiet,
        )
        .unwrap();
        assert!(
            aside.is_empty(),
            "{name}: every promotion sub-table fetched"
        );
        assert_eq!(
            sink.spilled,
            2 * layout.slices.len(),
            "{name}: every slice's halves once"
        );
        assert!(t.dtz.iter().all(Codes::is_empty), "{name}: no slice held");
        assert!(sink.bytes == whole, "{name}: values file");
        assert_eq!(sink.tally.hundred, hundred(&held), "{name}");
        assert_eq!(sink.tally.finish(&layout), summarize(&held), "{name}");

        let mat = Material::from_name(name).unwrap();
        let w = write::Options {
            threads: 2,
            ..Default::default()
        };
        let plies = plies(hundred(&held), mat.symmetric, false);
        let source = Generated::new(&held, &lib).unwrap();
        let from_held = write::write_by_file(name, &plies, &w, &mut |f, side| {
            Entries::collect_side_parallel(&mat, &source, f, side, 2, &mut |_| {})
                .map_err(WriteError::from)
        })
        .unwrap();
        t.dtm = None;
        let mut file = Cursor::new(&sink.bytes);
        // As the CLI does: one side to move's slices read back at a time.
        let from_spilled = write::write_by_file(name, &plies, &w, &mut |f, side| {
            let slices = file_slices(&t.layout, f);
            values_file::read_dtz_slices(&mut file, &mut t, &slices, side).unwrap();
            let (free, held_free) = (t.free.as_mut().unwrap(), held.free.as_ref().unwrap());
            for &s in &slices {
                free[side].set_packed(s, sink.flags[&(side, s)].clone());
                for local in 0..t.layout.slice_size {
                    let f = free[side].get(s, local);
                    assert_eq!(f, held_free[side].get(s, local), "{name}: flags");
                }
            }
            let source = Generated::new(&t, &lib).unwrap();
            let entries = Entries::collect_side_parallel(&mat, &source, f, side, 2, &mut |_| {})?;
            assert_eq!(source.absent(), None, "{name}: file {f} side {side}");
            drop(source);
            for &s in &slices {
                t.dtz[side].clear(s);
                t.free.as_mut().unwrap()[side].clear(s);
            }
            Ok(entries)
        })
        .unwrap();
        assert!(from_held.wdl == from_spilled.wdl, "{name}.rtbw");
        assert!(from_held.dtz == from_spilled.dtz, "{name}.rtbz");
    }
}

/// A sub-table's values file written without mate distances is generated
/// again, with them, for a run that wants them (it was taken as current,
/// then refused: "no usable KPvK.swv in the output directory").
#[test]
fn a_run_with_dtm_regenerates_sub_tables_written_without() {
    use syzygy_web::generate_cli::{run, Args};
    let dir = std::env::temp_dir().join(format!("syzygy-web-dtm-again-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = |material: &str, dtm: bool| Args {
        materials: vec![material.to_string()],
        out: Some(dir.clone()),
        values_only: true,
        dtm,
        ..Default::default()
    };
    let read = |name: &str| {
        let f = std::fs::File::open(dir.join(format!("{name}.swv"))).expect("values file");
        generate::values_file::read(&mut std::io::BufReader::new(f)).expect("read")
    };
    run(&args("KPvK", false)).expect("KPvK without DTM");
    assert!(read("KPvK").dtm.is_none());
    run(&args("KPvKP", true)).expect("KPvKP with DTM over KPvK without");
    assert!(read("KPvK").dtm.is_some(), "KPvK was not generated again");
    assert!(read("KPvKP").dtm.is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A sub-table's values file cut short, holding another material (a
/// file copied over another) or a damaged value, is generated again: the run neither stops at
/// it nor reads another table's values as the child's.
#[test]
fn a_run_regenerates_sub_tables_cut_short_damaged_or_of_another_material() {
    use syzygy_web::generate_cli::{run, Args};
    let dir = std::env::temp_dir().join(format!("syzygy-web-bad-subs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = |material: &str| Args {
        materials: vec![material.to_string()],
        out: Some(dir.clone()),
        values_only: true,
        dtm: true,
        ..Default::default()
    };
    let path = |name: &str| dir.join(format!("{name}.swv"));
    let read = |name: &str| {
        let f = std::fs::File::open(path(name)).expect("values file");
        generate::values_file::read(&mut std::io::BufReader::new(f)).expect("read")
    };
    run(&args("KQvKR")).expect("KQvKR and its sub-tables");
    let whole = read("KQvKR");
    let kqvk = std::fs::read(path("KQvK")).expect("KQvK.swv");

    // Cut short: generated again, the same bytes.
    std::fs::write(path("KQvK"), &kqvk[..1000]).expect("cut");
    std::fs::remove_file(path("KQvKR")).expect("target removed");
    run(&args("KQvKR")).expect("a short sub-table is generated again");
    assert_eq!(std::fs::read(path("KQvK")).expect("KQvK.swv"), kqvk);

    // Another material's file under KQvK's name: generated again, and the
    // target's values are those made from the right sub-table.
    std::fs::copy(path("KRvK"), path("KQvK")).expect("copy");
    std::fs::remove_file(path("KQvKR")).expect("target removed");
    run(&args("KQvKR")).expect("a mislabelled sub-table is generated again");
    assert_eq!(std::fs::read(path("KQvK")).expect("KQvK.swv"), kqvk);
    let again = read("KQvKR");
    assert_eq!(again.dtz, whole.dtz);
    assert_eq!(again.dtm, whole.dtm);

    // Its head and length whole, a value damaged (the plan checks only
    // those): found when read, removed and generated again in the same run.
    // Before, every later run stopped at "no usable KQvK.swv".
    let mut damaged = kqvk.clone();
    let at = damaged.len() - 2;
    damaged[at..].copy_from_slice(&i16::MAX.to_le_bytes());
    std::fs::write(path("KQvK"), &damaged).expect("damaged");
    std::fs::remove_file(path("KQvKR")).expect("target removed");
    run(&args("KQvKR")).expect("a damaged sub-table is generated again");
    assert_eq!(std::fs::read(path("KQvK")).expect("KQvK.swv"), kqvk);
    assert_eq!(read("KQvKR").dtz, whole.dtz);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two runs never share an output directory (they would share its scratch
/// files); a material whose slices the generator cannot number is refused
/// before anything is generated.
#[test]
fn a_second_run_on_one_directory_and_six_piece_tables_too_big_are_refused() {
    use syzygy_web::generate_cli::{run, Args};
    let dir = std::env::temp_dir().join(format!("syzygy-web-locked-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = |material: &str| Args {
        materials: vec![material.to_string()],
        out: Some(dir.clone()),
        values_only: true,
        ..Default::default()
    };
    std::fs::create_dir_all(&dir).expect("dir");
    let held = std::fs::File::create(dir.join(".generate.lock")).expect("lock file");
    held.lock().expect("lock");
    let e = run(&args("KPvK")).expect_err("a run while another holds the directory");
    assert!(e.contains("another `syzygy-web generate`"), "{e}");
    assert!(!dir.join("KPvK.swv").exists());
    drop(held);
    run(&args("KPvK")).expect("the directory free again");
    assert!(dir.join("KPvK.swv").exists());

    let t = std::time::Instant::now();
    let e = run(&args("KQRvKQB")).expect_err("too big to number");
    assert!(
        e.contains("KQRvKQB") && e.contains("positions a slice"),
        "{e}"
    );
    assert!(t.elapsed().as_secs() < 60, "refused only after generating");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run stopped after a sub-material's values were saved and before its
/// Syzygy files were written (values go first): the next run of the same
/// command writes them from the values. Before, it counted the values
/// alone as done and left KQvK.rtbw and .rtbz missing for good.
#[test]
fn a_run_stopped_between_values_and_files_writes_the_files_next_time() {
    use syzygy_web::generate_cli::{run, Args};
    let dir = std::env::temp_dir().join(format!("syzygy-web-stopped-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = Args {
        materials: vec!["KQvKN".to_string()],
        out: Some(dir.clone()),
        ..Default::default()
    };
    run(&args).expect("first run");
    for ext in ["rtbw", "rtbz"] {
        std::fs::remove_file(dir.join(format!("KQvK.{ext}"))).expect("KQvK's file");
    }
    assert!(dir.join("KQvK.swv").exists());
    run(&args).expect("second run");
    for ext in ["rtbw", "rtbz"] {
        assert!(dir.join(format!("KQvK.{ext}")).is_file(), "KQvK.{ext}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Sub-materials whose files an earlier run wrote with other DTZ options
/// are written again, from their values, by a run with `--exact-dtz`: the
/// directory then holds what one such run makes (it once kept the
/// rounded files beside the exact target).
#[test]
fn a_run_with_exact_dtz_rewrites_sub_tables_written_without() {
    use syzygy_web::generate_cli::{run, Args};
    let base = std::env::temp_dir().join(format!("syzygy-web-exact-again-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let args = |dir: &str, exact_dtz: bool| Args {
        materials: vec!["KRvKN".to_string()],
        out: Some(base.join(dir)),
        exact_dtz,
        ..Default::default()
    };
    run(&args("again", false)).expect("rounded");
    let rounded = std::fs::read(base.join("again/KRvK.rtbz")).expect("KRvK.rtbz");
    run(&args("again", true)).expect("exact over rounded");
    run(&args("fresh", true)).expect("exact");
    let list = std::fs::read_to_string(base.join("again/.syzygy-web-written")).expect("list");
    for name in ["KRvKN", "KRvK", "KNvK"] {
        for ext in ["rtbw", "rtbz"] {
            let f = format!("{name}.{ext}");
            let read = |d: &str| std::fs::read(base.join(d).join(&f)).expect("file");
            assert!(
                read("again") == read("fresh"),
                "{f} differs from a fresh run's"
            );
        }
        assert!(
            list.lines().any(|l| l == format!("{name} --exact-dtz")),
            "{list}"
        );
    }
    // The check bites: rounding changes KRvK's DTZ file.
    assert!(rounded != std::fs::read(base.join("fresh/KRvK.rtbz")).expect("KRvK.rtbz"));
    let _ = std::fs::remove_dir_all(&base);
}

/// A table this generator did not write (official KNvK beside the run's
/// tables) stays done under --exact-dtz: never a target, so never refused.
#[test]
fn exact_dtz_leaves_official_trivial_tables_alone() {
    use syzygy_web::generate_cli::{run, Args};
    let dir =
        std::env::temp_dir().join(format!("syzygy-web-exact-official-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    for ext in ["rtbw", "rtbz"] {
        let f = format!("KNvK.{ext}");
        std::fs::copy(syzygy_path().join(&f), dir.join(&f)).expect("copy");
    }
    run(&Args {
        materials: vec!["KQvKN".to_string()],
        out: Some(dir.clone()),
        exact_dtz: true,
        ..Default::default()
    })
    .expect("official KNvK in the way of nothing");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run leaves none of the generator's scratch files behind (a killed
/// run's `NAME.flags.part` stayed for good), and no one else's goes.
#[test]
fn a_run_removes_scratch_files_and_only_its_own() {
    use syzygy_web::generate_cli::{run, Args};
    let dir = std::env::temp_dir().join(format!("syzygy-web-scratch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    for f in [
        "KQvKR.flags.part",
        "KQvKR.swv.part",
        "KQvK.rtbz.part",
        "download.part",
    ] {
        std::fs::write(dir.join(f), b"left by a killed run").expect("scratch");
    }
    run(&Args {
        materials: vec!["KQvK".to_string()],
        out: Some(dir.clone()),
        ..Default::default()
    })
    .expect("run");
    let left: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".part"))
        .collect();
    assert_eq!(left, ["download.part"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Syzygy files the generator did not write (official ones, say) in the
/// output directory are never replaced: the run is refused, naming one.
#[test]
fn tables_this_generator_did_not_write_are_not_replaced() {
    use syzygy_web::generate_cli::{run, Args};
    let official = syzygy_path();
    let dir = std::env::temp_dir().join(format!("syzygy-web-foreign-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::copy(official.join("KQvK.rtbw"), dir.join("KQvK.rtbw")).expect("copy");
    let before = std::fs::read(dir.join("KQvK.rtbw")).expect("read");
    let args = Args {
        materials: vec!["KQvKN".to_string()],
        out: Some(dir.clone()),
        ..Default::default()
    };
    let e = run(&args).expect_err("a foreign table in the way");
    assert!(
        e.contains("KQvK.rtbw") && e.contains("did not write"),
        "{e}"
    );
    assert_eq!(std::fs::read(dir.join("KQvK.rtbw")).expect("read"), before);
    // Tables it wrote stay its own without their values files (which
    // scripts/tables.sh removes): a later run goes on.
    let _ = std::fs::remove_dir_all(&dir);
    run(&args).expect("a run into an empty directory");
    for e in std::fs::read_dir(&dir).expect("dir") {
        let path = e.expect("entry").path();
        if path.extension().is_some_and(|x| x == "swv") {
            std::fs::remove_file(path).expect("remove values");
        }
    }
    run(&args).expect("its own tables, values files gone");
    // A byte that is not UTF-8 in its list spoils that line only: before,
    // the whole list read as empty, every table it wrote was taken for a
    // foreign one, and the next line written dropped all the others.
    let list = dir.join(".syzygy-web-written");
    let mut text = std::fs::read(&list).expect("list");
    text.extend_from_slice(b"K\xffvK\n");
    std::fs::write(&list, &text).expect("list spoilt");
    run(&args).expect("its own tables, a line of the list spoilt");
    run(&Args {
        materials: vec!["KRvKN".to_string()],
        ..args.clone()
    })
    .expect("another material beside them");
    let lines = String::from_utf8_lossy(&std::fs::read(&list).expect("list")).into_owned();
    for name in ["KQvKN", "KQvK", "KRvKN"] {
        assert!(lines.lines().any(|l| l == name), "{name} in {lines:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The longest mates of 3-4 piece materials are the published ones (known
/// since the DTM tables of Ken Thompson and Eugene Nalimov: KQvK 10
/// moves, KRvK 16, KBBvK 19, KBNvK 33, KPvK 28, KQvKR 35, KRvKN 40), read
/// from the generator's summary: the side to move mates in n moves, 2n - 1
/// plies.
#[test]
fn longest_mates_are_the_published_ones() {
    let lib = library();
    for (name, moves) in [
        ("KQvK", 10),
        ("KRvK", 16),
        ("KBBvK", 19),
        ("KBNvK", 33),
        ("KPvK", 28),
        ("KQvKR", 35),
        ("KRvKN", 40),
    ] {
        let key = generate::layout::parse_material(name).expect("material");
        let t = lib.get(&key).expect("generated");
        let longest = generate::summary::summarize(t)
            .longest_mate
            .expect("a mate");
        assert_eq!(longest.plies, 2 * moves - 1, "{name}: {}", longest.fen);
    }
}
