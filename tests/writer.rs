//! Files we write, read back by two probers: every value the official
//! tables give (read by our prober) is rewritten with our writer, and both
//! our prober and shakmaty-syzygy must read the rewritten file with the
//! same WDL and a DTZ equal up to what rounding allows, in the default,
//! exact-DTZ and forced 16-bit-map variants.
//!
//! CI rewrites every 3-piece table (every position up to symmetry) and a
//! few 4-piece ones (sampled positions). `SYZYGY_WRITER_ALL=1` rewrites all
//! 3-4 piece tables and compares every position up to symmetry.

mod common;

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use shakmaty::{
    Board, CastlingMode, Chess, Color, FromSetup, Piece, Position, Role, Setup, Square,
};
use syzygy_web::drivers::{FsFetcher, Tablebase};
use syzygy_web::material::Material;
use syzygy_web::probe::Dtz;
use syzygy_web::write::{collect, pieces, write_dtz, write_wdl, Options, Source, Values};
use syzygy_web::Config;

/// The official tables, read through our prober.
struct Official {
    tb: RefCell<Tablebase<FsFetcher>>,
    pieces: Vec<Piece>,
}

impl Official {
    fn new(name: &str) -> Official {
        let mat = Material::from_name(name).expect("material");
        let pieces = pieces(&mat)
            .iter()
            .map(|&c| Piece {
                color: if c < 8 { Color::White } else { Color::Black },
                role: Role::try_from(u32::from(c & 7)).expect("role"),
            })
            .collect();
        Official {
            tb: RefCell::new(common::ours()),
            pieces,
        }
    }
}

fn position(pieces: &[Piece], squares: &[u8], turn: Color) -> Option<Chess> {
    let mut board = Board::empty();
    for (p, &s) in pieces.iter().zip(squares) {
        board.set_piece_at(Square::new(u32::from(s)), *p);
    }
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = turn;
    match Chess::from_setup(setup, CastlingMode::Standard) {
        Ok(p) => Some(p),
        Err(e) => e.ignore_impossible_check().ok(),
    }
}

impl Source for Official {
    fn values(&self, squares: &[u8], white_to_move: bool) -> Option<Values> {
        let turn = if white_to_move {
            Color::White
        } else {
            Color::Black
        };
        let pos = position(&self.pieces, squares, turn)?;
        let mut tb = self.tb.borrow_mut();
        let (wdl, dtz) = tb.probe_dtz(&pos).expect("official tables answer");
        let (mut capture, mut pawn_move) = (None::<i8>, None::<i8>);
        for m in pos.legal_moves() {
            if !(m.is_capture() || m.role() == Role::Pawn) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let v = -tb.probe_wdl(&child).expect("official tables answer");
            let best = if m.is_capture() {
                &mut capture
            } else {
                &mut pawn_move
            };
            *best = Some(best.map_or(v, |b| b.max(v)));
        }
        Some(Values {
            wdl,
            dtz: dtz.plies,
            capture,
            pawn_move,
        })
    }
}

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
fn rewrite(name: &str, exhaustive: bool, orders: usize) -> usize {
    let source = Official::new(name);
    let variants = [
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
        if exhaustive {
            common::positions_up_to_symmetry(name, |p| check.position(p));
        } else {
            for p in common::sample(name, 3000, 11) {
                check.position(&p);
            }
        }
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

fn all() -> bool {
    std::env::var_os("SYZYGY_WRITER_ALL").is_some()
}

#[test]
fn three_piece_tables_round_trip() {
    let mut n = 0;
    for name in ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"] {
        n += rewrite(name, true, 4);
    }
    eprintln!("{n} positions compared");
}

#[test]
fn four_piece_tables_round_trip() {
    let names: Vec<String> = if all() {
        common::table_names()
            .into_iter()
            .filter(|n| n.len() == 5)
            .collect()
    } else {
        ["KPvKP", "KBNvK", "KRvKP", "KQQvK"]
            .map(String::from)
            .to_vec()
    };
    let mut n = 0;
    for name in names {
        n += rewrite(&name, all(), if all() { 64 } else { 2 });
    }
    eprintln!("{n} positions compared");
}
