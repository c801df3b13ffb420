//! The bad-input catalogue: hostile FENs, table names and table bytes each
//! get a typed error (or, for undetectable data corruption, some answer),
//! never a panic or an endless loop.

mod common;

use std::path::PathBuf;

use shakmaty::Position;

use common::*;
use syzygy_web::drivers::{Fetcher, FsFetcher, Request, Response, Tablebase};
use syzygy_web::format::pairs::Body;
use syzygy_web::format::{header, Kind};
use syzygy_web::material::Material;
use syzygy_web::probe::parse_fen;
use syzygy_web::{Config, ProbeError};

fn code_of(fen: &str) -> &'static str {
    let mut tb = ours();
    match parse_fen(fen).and_then(|p| tb.analyse(&p)) {
        Ok(_) => "ok",
        Err(e) => e.code(),
    }
}

#[test]
fn hostile_fens_get_typed_errors() {
    let long = format!("{} w - - 0 1", "8/".repeat(200));
    let cases: &[(&str, &str)] = &[
        ("", "invalid-fen"),
        ("   ", "invalid-fen"),
        (&long, "invalid-fen"),
        ("not a fen", "invalid-fen"),
        ("8/8/8/8/8/8/8 w - - 0 1", "invalid-fen"),
        ("9/8/8/8/8/8/8/8 w - - 0 1", "invalid-fen"),
        ("4k3/8/8/8/8/8/8/4K2R x - - 0 1", "invalid-fen"),
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1 extra", "invalid-fen"),
        ("4k3/8/8/8/8/8/8/4K2R w - - -5 1", "invalid-fen"),
        ("4k3/8/8/8/8/8/8/4K2X w - - 0 1", "invalid-fen"),
        // Variants' FENs, which the parser underneath would read as
        // standard chess: a Crazyhouse pocket and promoted mark, Three-check
        // counters; and a board of nine ranks, two digits in a row, a clock
        // beyond 32 bits (read as 4294967295 before).
        ("4k3/8/8/8/8/8/8/4K2R[] w - - 0 1", "invalid-fen"),
        ("4k3/8/8/8/8/8/8/4K2R~ w - - 0 1", "invalid-fen"),
        ("4k3/8/8/8/8/8/8/4K2R w - - 3+3 0 1", "invalid-fen"),
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1 +0+0", "invalid-fen"),
        ("8/8/8/8/8/8/8/8/4k3 w - - 0 1", "invalid-fen"),
        ("4K11R/8/8/8/8/8/8/4k3 w - - 0 1", "invalid-fen"),
        ("4k3/8/8/8/8/8/8/4K2R w - - 99999999999 1", "invalid-fen"),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "castling"),
        ("r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "castling"),
        ("QQQQQQQQ/Q7/8/8/8/8/8/k1K5 w - - 0 1", "illegal-position"),
        ("8/8/8/8/8/8/8/4K2R w - - 0 1", "illegal-position"),
        ("8/8/8/8/8/8/8/R7 w - - 0 1", "illegal-position"),
        ("8/8/8/8/8/8/8/3kK3 w - - 0 1", "illegal-position"),
        ("4k3/8/8/8/8/8/8/4KK2 w - - 0 1", "illegal-position"),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "illegal-position"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "illegal-position"),
        ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "illegal-position"),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "illegal-position"),
        ("4k3/8/8/8/3pP3/8/8/4K3 w - d6 0 1", "illegal-position"),
        // A pawn that may be taken en passant just made the last move, which
        // set the clock to 0 (accepted before; a square no pawn can take
        // on, which the parser drops, still goes with any clock).
        ("4k3/8/8/8/3pP3/8/8/4K3 b - e3 5 1", "illegal-position"),
        ("4k3/8/8/8/4P3/8/8/4K3 b - e3 5 1", "ok"),
        ("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", "too-many-pieces"),
        // Too many pieces is the reason that matters when both apply.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "too-many-pieces",
        ),
        ("4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1", "missing-table"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "ok"),
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "ok"),
        ("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "ok"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "ok"),
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "ok"),
    ];
    for (fen, want) in cases {
        assert_eq!(code_of(fen), *want, "{fen:?}");
    }
}

#[test]
fn checkmate_and_stalemate_are_reported() {
    let mut tb = ours();
    let mate = tb
        .analyse(&parse_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap())
        .unwrap();
    assert!(mate.facts.checkmate && mate.wdl == -2 && mate.dtz == -1 && mate.moves.is_empty());
    let stale = tb
        .analyse(&parse_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap())
        .unwrap();
    assert!(stale.facts.stalemate && stale.wdl == 0 && stale.dtz == 0);
    let bare = tb
        .analyse(&parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap())
        .unwrap();
    assert!(bare.facts.insufficient_material && bare.wdl == 0);
}

#[test]
fn hostile_table_names_are_refused() {
    let mut f = FsFetcher::new(vec![syzygy_path()]);
    for name in [
        "../KQvK.rtbw",
        "/etc/passwd",
        "KQvK.rtbw/..",
        "a/b",
        "..",
        "KQvK.rtbw\0",
    ] {
        let r = f.fetch(&[Request {
            name: name.into(),
            start: 0,
            end: 10,
            open: true,
            version: None,
        }]);
        assert!(
            matches!(&r[0], Response::Failed(_) | Response::Absent),
            "{name:?}: {:?}",
            r[0]
        );
    }
}

/// A scratch folder outside the repository with one (mutable) copy of a table.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("syzygy-web-bad-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Byte ranges of each structural region of a table file.
fn regions(name: &str, kind: Kind, bytes: &[u8]) -> Vec<(&'static str, std::ops::Range<usize>)> {
    let pieces = pieces_of(name);
    let mut m = shakmaty::ByColor::<shakmaty::ByRole<u8>>::default();
    for p in &pieces {
        *m.get_mut(p.color).get_mut(p.role) += 1;
    }
    let mat = Material::of(&m);
    let h = header::parse(bytes, bytes.len() as u64, kind, &mat.shape).expect("valid table");
    let mut out = vec![
        ("magic and flags", 0..5),
        ("piece order", 5..(5 + 8).min(h.header_len as usize)),
    ];
    // Grown from empty (start above end) to cover each region.
    let empty = || std::ops::Range {
        start: usize::MAX,
        end: 0,
    };
    let (mut sparse, mut lengths, mut data) = (empty(), empty(), empty());
    for sub in h.files.iter().flatten() {
        if let Body::Huffman(hh) = &sub.pairs.body {
            let grow = |r: &mut std::ops::Range<usize>, a: u64, len: u64| {
                r.start = r.start.min(a as usize);
                r.end = r.end.max((a + len) as usize);
            };
            grow(&mut sparse, hh.sparse_offset, hh.sparse_bytes());
            grow(&mut lengths, hh.lengths_offset, hh.lengths_bytes());
            grow(&mut data, hh.data_offset, hh.data_bytes());
        }
    }
    out.push((
        "compression headers and symbols",
        13.min(h.header_len as usize)..h.header_len as usize,
    ));
    out.push(("sparse index", sparse));
    out.push(("block lengths", lengths));
    out.push(("data", data));
    out.retain(|(_, r)| r.start < r.end);
    out
}

fn probe_all(dir: &std::path::Path, positions: &[shakmaty::Chess]) -> (usize, usize) {
    let mut tb = Tablebase::new(
        FsFetcher::new(vec![dir.to_path_buf(), syzygy_path()]),
        Config::default(),
    );
    let (mut ok, mut errors) = (0, 0);
    for p in positions {
        match tb.analyse(p) {
            Ok(_) => ok += 1,
            Err(ProbeError::CorruptTable(..)) | Err(ProbeError::MissingTable(_)) => errors += 1,
            Err(e) => panic!("unexpected error kind for corrupt table: {e}"),
        }
    }
    (ok, errors)
}

#[test]
fn corrupted_tables_never_panic_or_hang() {
    let mut summary = Vec::new();
    for (name, kind) in [
        ("KPvK", Kind::Wdl),
        ("KRvK", Kind::Dtz),
        ("KRPvKR", Kind::Wdl),
        ("KQvKR", Kind::Dtz),
        ("KBBvK", Kind::Wdl),
    ] {
        let file = format!("{name}.{}", kind.extension());
        let original = std::fs::read(syzygy_path().join(&file)).expect("table");
        let positions = sample(name, 40, 3);
        let dir = scratch(&file);
        let mut rng = Rng::new(17);
        for (region, range) in regions(name, kind, &original) {
            let (mut ok, mut errors) = (0, 0);
            for _ in 0..12 {
                let mut bytes = original.clone();
                for _ in 0..1 + rng.below(8) {
                    let at = range.start + rng.below((range.end - range.start) as u64) as usize;
                    bytes[at] ^= 1 + rng.below(255) as u8;
                }
                std::fs::write(dir.join(&file), &bytes).expect("write scratch");
                let (o, e) = probe_all(&dir, &positions);
                ok += o;
                errors += e;
            }
            summary.push(format!(
                "{file} {region}: {ok} answered, {errors} typed errors"
            ));
        }
        // Truncations: at every structural boundary and at odd sizes.
        for cut in [
            0usize,
            3,
            5,
            64,
            80,
            original.len() / 2,
            original.len() - 16,
            original.len() - 1,
        ] {
            std::fs::write(dir.join(&file), &original[..cut.min(original.len())])
                .expect("write scratch");
            let (ok, errors) = probe_all(&dir, &positions[..5]);
            // Every WDL answer needs the WDL table, except where neither
            // side can mate (KBBvK with bishops of one colour: a draw by
            // the rules); DTZ is skipped for draws and zeroing best moves.
            let dead = positions[..5]
                .iter()
                .filter(|p| p.is_insufficient_material())
                .count();
            if kind == Kind::Wdl {
                assert_eq!(
                    (ok, errors),
                    (dead, 5 - dead),
                    "{file} truncated to {cut} bytes"
                );
            } else {
                assert!(
                    errors > 0,
                    "{file} truncated to {cut} bytes still answered everything"
                );
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    println!("{}", summary.join("\n"));
}

/// An inconsistent pair of tables: KQBvK.rtbw says every black-to-move
/// position is a draw (each leaf of its black-side grammar made 2), and
/// KQBvK.rtbz claims to store black to move, so a white-to-move position's
/// DTZ comes from the 1-ply search. White still wins by the WDL table, but
/// no move reaches a loss for Black: a corrupt-table error, never a win
/// with DTZ -1.
#[test]
fn a_win_without_a_winning_move_is_a_corrupt_table() {
    let dir = scratch("inconsistent-kqbvk");
    let mut wdl = std::fs::read(syzygy_path().join("KQBvK.rtbw")).expect("KQBvK.rtbw");
    let headers = pairs_headers(&wdl, "KQBvK");
    assert_eq!(headers.len(), 2, "two sides to move");
    let (_, Some((grammar, symbols))) = headers[1] else {
        panic!("black's side is Huffman-coded");
    };
    let mut leaves = 0;
    for s in 0..symbols {
        let at = grammar + 3 * s;
        if wdl[at + 2] == 0xff && wdl[at + 1] >> 4 == 0xf {
            wdl[at] = 2;
            wdl[at + 1] = 0xf0;
            leaves += 1;
        }
    }
    assert!(leaves > 0);
    std::fs::write(dir.join("KQBvK.rtbw"), &wdl).expect("write");
    let mut dtz = std::fs::read(syzygy_path().join("KQBvK.rtbz")).expect("KQBvK.rtbz");
    let (flags, _) = pairs_headers(&dtz, "KQBvK")[0];
    assert_eq!(dtz[flags] & 1, 0, "KQBvK.rtbz stores white to move");
    dtz[flags] |= 1;
    std::fs::write(dir.join("KQBvK.rtbz"), &dtz).expect("write");

    let mut tb = Tablebase::new(FsFetcher::new(vec![dir.clone()]), Config::default());
    let pos = parse_fen("8/8/8/4k3/8/8/8/2BQK3 w - - 0 1").expect("fen");
    assert_eq!(
        tb.probe_wdl(&pos),
        Ok(2),
        "the WDL table still says White wins"
    );
    let e = tb.probe_dtz(&pos).expect_err("no move wins");
    assert!(
        matches!(&e, ProbeError::CorruptTable(name, _) if name == "KQBvK.rtbz"),
        "{e:?}"
    );
    assert!(tb.analyse(&pos).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The CLI with `args` on `input`: (stdout, stderr, exit code).
fn cli_bytes(args: &[&std::ffi::OsStr], input: &[u8]) -> (String, String, i32) {
    let out = common::cli::run_cli(args, input);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn a_fen_typed_without_quotes_is_one_fen() {
    // The shell splits it into words: the board alone was read as White to
    // move (a wrong answer) and the other five words as invalid FENs.
    use std::ffi::OsStr;
    let path = syzygy_path();
    let mut args = vec![
        OsStr::new("probe"),
        OsStr::new("--json"),
        OsStr::new("--path"),
        path.as_os_str(),
    ];
    let words = "8/8/8/4k3/8/8/8/R3K3 b - - 0 1 8/8/8/4k3/8/8/8/R3K3 w 1K1k4/1P6/8/8/8/8/r7/2R5";
    args.extend(words.split(' ').map(OsStr::new));
    let (out, err, code) = cli_bytes(&args, b"");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}{err}");
    assert!(
        lines[0].contains("\"fen\":\"8/8/8/4k3/8/8/8/R3K3 b - - 0 1\"")
            && lines[0].contains("\"wdl\":-2"),
        "{}",
        lines[0]
    );
    assert!(lines[1].contains("\"wdl\":2"), "{}", lines[1]);
    // A board alone is still a FEN of its own, White to move.
    assert!(lines[2].contains("\"wdl\":2"), "{}", lines[2]);
    assert_eq!(code, 0, "{err}");
}

/// A line of standard input that is not UTF-8 gets its own error line and
/// the lines after it are answered; an argument that is not UTF-8 is a
/// usage error (exit 2), as are a material of too many pieces (whose
/// counts once wrapped into another material), a thread count no machine
/// can start and a base URL no request can be made under.
#[test]
fn hostile_bytes_on_the_command_line_get_clear_errors() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let path = syzygy_path();
    let args = [
        OsStr::new("probe"),
        OsStr::new("--json"),
        OsStr::new("--path"),
        path.as_os_str(),
    ];
    let input =
        b"8/8/8/4k3/8/8/8/R3K3 w - - 0 1\n\xff\xfe not utf-8\n8/8/8/4k3/8/8/8/R3K3 b - - 0 1\r\n";
    let (out, _, code) = cli_bytes(&args, input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].contains("\"wdl\":2"), "{}", lines[0]);
    assert!(
        lines[1].contains("\"code\":\"invalid-fen\""),
        "{}",
        lines[1]
    );
    assert!(lines[2].contains("\"wdl\":-2"), "{}", lines[2]);
    assert_eq!(code, 1, "a line had an error");

    let mut bad = args.to_vec();
    bad.push(OsStr::from_bytes(b"\xff"));
    let (out, err, code) = cli_bytes(&bad, b"");
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    assert!(err.contains("not UTF-8"), "{err}");

    let many = format!("K{}vK", "P".repeat(256));
    for material in ["KPPPPPPPPPvK", many.as_str()] {
        let (_, err, code) = cli_bytes(&[OsStr::new("generate"), OsStr::new(material)], b"");
        assert_ne!(code, 0, "{material}: {err}");
        assert!(err.contains("at most 7 pieces"), "{material}: {err}");
    }
    let (_, err, code) = cli_bytes(
        &["generate", "KQvK", "--threads", "1000000"].map(OsStr::new),
        b"",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--threads"), "{err}");
    // Options of the written files without --out: once ignored, exit 0.
    for flag in ["--exact-dtz", "--wide-dtz"] {
        let (_, err, code) = cli_bytes(&["generate", "KQvK", flag].map(OsStr::new), b"");
        assert_eq!(code, 2, "{flag}: {err}");
        assert!(err.contains("give --out"), "{flag}: {err}");
    }
    // An empty --out (an unset variable) once wrote into the current
    // directory; a repeated option once let the last one win silently.
    for (args, says) in [
        (vec!["generate", "KQvK", "--out", ""], "not an empty string"),
        (
            vec!["generate", "KQvK", "--max", "3", "--max", "4"],
            "--max given twice",
        ),
        (
            vec!["generate", "KQvK", "--out", "a", "--out", "b"],
            "--out given twice",
        ),
    ] {
        let (out, err, code) = cli_bytes(&args.iter().map(OsStr::new).collect::<Vec<_>>(), b"");
        assert_eq!((out.as_str(), code), ("", 2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }

    for url in [
        "http://",
        "http:// bad host/",
        "http://[::1",
        "https://host:99999/",
        "http://host/tables?key=1",
        "http://host/tables#top",
    ] {
        let (out, err, code) = cli_bytes(
            &["probe", "--url", url, "8/8/8/4k3/8/8/8/1BN1K3 w - - 0 1"].map(OsStr::new),
            b"",
        );
        assert_eq!((out.as_str(), code), ("", 2), "{url}: {err}");
        assert!(err.contains("--url"), "{url}: {err}");
    }

    // Options that cannot work together, or a folder that is not there: usage errors.
    let here = path.to_str().expect("UTF-8 path");
    for (opts, says) in [
        (
            vec!["--path", here, "--url", "http://127.0.0.1:9/"],
            "not both",
        ),
        (vec!["--path", here, "--cache-dir", "/tmp"], "--cache-dir"),
        (vec!["--generate", "--path", here], "tables it makes"),
        (
            vec!["--generate", "--url", "http://127.0.0.1:9/"],
            "tables it makes",
        ),
        (vec!["--path", "/nonexistent/syzygy"], "no such folder"),
        // Until 2026-11-30: an invalid-fen answer for `-v`, a folder named
        // `--json` (and text where JSON was asked for), the last folder.
        (vec!["--path", here, "-v"], "unknown option -v"),
        (
            vec!["--url", "http://127.0.0.1:9/", "--cache-dir", "--json"],
            "--cache-dir needs a value",
        ),
        (
            vec![
                "--url",
                "http://127.0.0.1:9/",
                "--cache-dir",
                "/tmp/a",
                "--cache-dir",
                "/tmp/b",
            ],
            "given once",
        ),
    ] {
        let mut a = vec!["probe"];
        a.extend(opts.iter().copied());
        a.push("8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
        let a: Vec<&OsStr> = a.into_iter().map(OsStr::new).collect();
        let (out, err, code) = cli_bytes(&a, b"");
        assert_eq!((out.as_str(), code), ("", 2), "{opts:?}: {err}");
        assert!(err.contains(says), "{opts:?}: {err}");
    }
    // A line without end is read in bounded memory: its first 1024 bytes
    // are answered (an invalid FEN), and the lines after it too.
    let mut long = vec![b'x'; 50 << 20];
    long.extend_from_slice(b"\n8/8/8/4k3/8/8/8/R3K3 w - - 0 1\n");
    let (out, _, code) = cli_bytes(&args, &long);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        (lines.len(), code),
        (2, 1),
        "{}",
        &out[..out.len().min(300)]
    );
    assert!(
        lines[0].len() < 1200 && lines[0].contains("invalid-fen"),
        "{}",
        &lines[0][..200]
    );
    assert!(lines[1].contains("\"wdl\":2"), "{}", lines[1]);
    // A FEN past the first 1024 bytes of its line (after spaces) is
    // answered as too long, not skipped as a blank line (the answers then
    // fell out of step with the lines); a line of spaces alone is blank.
    let mut spaced = vec![b' '; 1100];
    spaced.extend_from_slice(b"8/8/8/4k3/8/8/8/R3K3 w - - 0 1\n");
    spaced.extend_from_slice(&[b' '; 1100]);
    spaced.extend_from_slice(b"\n8/8/8/4k3/8/8/8/R3K3 b - - 0 1\n");
    let (out, _, code) = cli_bytes(&args, &spaced);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!((lines.len(), code), (2, 1), "{out}");
    assert!(
        lines[0].contains("invalid-fen") && lines[0].contains("longer than 1024 bytes"),
        "{}",
        lines[0]
    );
    assert!(lines[1].contains("\"wdl\":-2"), "{}", lines[1]);
    // A byte-order mark before the first line (a file saved so) is not part of the FEN.
    let (out, _, code) = cli_bytes(&args, "\u{feff}8/8/8/4k3/8/8/8/R3K3 w - - 0 1\n".as_bytes());
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"wdl\":2"), "{out}");

    // Generated on demand, a 5-piece position is past that mode's reach
    // (4 pieces), which the error names rather than the files' 7.
    let (out, _, code) = cli_bytes(
        &["probe", "--generate"].map(OsStr::new),
        b"8/8/8/4k3/8/8/8/RN2K2R w - - 0 1\n",
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("too many pieces: 5 (tables cover at most 4)"),
        "{out}"
    );
}

/// A table on disk that cannot be read (here a folder in its place, which
/// opens but fails to read, even for root) is code `unreadable`: a local
/// read, not the network, and not a table that is absent.
#[test]
fn a_table_that_cannot_be_read_is_unreadable_not_network() {
    use std::ffi::OsStr;
    let dir = scratch("unreadable");
    std::fs::create_dir_all(dir.join("KPvK.rtbw")).expect("folder in a table's place");
    let args = [
        OsStr::new("probe"),
        OsStr::new("--json"),
        OsStr::new("--path"),
        dir.as_os_str(),
        OsStr::new("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"),
    ];
    let (out, err, _) = cli_bytes(&args, b"");
    assert!(out.contains("\"code\":\"unreadable\""), "{out}{err}");
    assert!(out.contains("could not read KPvK.rtbw"), "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--stats` writes its figures to standard error: one that cannot be
/// written to loses them, not the answers or the exit status.
#[test]
fn stats_to_a_full_standard_error_keep_the_answers() {
    use std::process::{Command, Stdio};
    let Ok(full) = std::fs::File::options().write(true).open("/dev/full") else {
        return;
    };
    let path = syzygy_path();
    let out = Command::new(env!("CARGO_BIN_EXE_syzygy-web"))
        .args(["probe", "--json", "--stats", "--path"])
        .arg(&path)
        .arg("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(full))
        .output()
        .expect("CLI output");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"wdl\":2"));
}

/// `generate ... 2>&1 | head -1`: once the reader is gone, a table's line
/// on standard error fails to write. That loses the line, not the run
/// (eprintln! panicked, exit 101, tables left unwritten).
#[test]
fn generate_finishes_with_standard_error_closed() {
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(format!("syzygy-web-no-stderr-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_syzygy-web"))
        .args(["generate", "KRvKN", "--out"])
        .arg(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn CLI");
    drop(child.stderr.take());
    let status = child.wait().expect("wait");
    assert!(status.success(), "{status}");
    for name in ["KRvKN", "KRvK", "KNvK"] {
        assert!(dir.join(format!("{name}.rtbz")).is_file(), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `generate KvK`: two bare kings are a draw by the rules and no prober
/// opens their files, so only the values are written (two 80-byte Syzygy
/// files until 2026-12-03).
#[test]
fn bare_kings_get_their_values_alone() {
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(format!("syzygy-web-kvk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_syzygy-web"))
        .args(["generate", "KvK", "--out"])
        .arg(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("CLI output");
    assert_eq!(out.status.code(), Some(0));
    assert!(dir.join("KvK.swv").is_file());
    assert!(!dir.join("KvK.rtbw").exists() && !dir.join("KvK.rtbz").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Header bytes a misread (or a corrupt file) can turn into another valid-
/// looking index: each is refused as corrupt, never read as a table whose
/// positions index elsewhere. (Until 2026-11-30 all three parsed.)
#[test]
fn headers_that_would_index_other_positions_are_corrupt() {
    let read = |name: &str| std::fs::read(syzygy_path().join(name)).expect("official table");
    let parse = |name: &str, bytes: &[u8], size: u64| {
        let mat = Material::from_name(&name[..name.len() - 5]).expect("material");
        header::parse(bytes, size, Kind::Wdl, &mat.shape).map(|_| ())
    };
    let corrupt = |name: &str, bytes: &[u8], size: u64, why: &str| match parse(name, bytes, size) {
        Err(syzygy_web::format::FormatError::Corrupt(m)) => assert!(m.contains(why), "{name}: {m}"),
        other => panic!("{name}: expected corrupt ({why}), got {other:?}"),
    };

    // KRvK: three pieces lead; a leading group at step 5 is never reached.
    let mut krvk = read("KRvK.rtbw");
    parse("KRvK.rtbw", &krvk, krvk.len() as u64).expect("the table as it is");
    krvk[5] = (krvk[5] & 0xf0) | 5;
    corrupt("KRvK.rtbw", &krvk, krvk.len() as u64, "piece order");

    // KRRvK: the two kings lead; rooks listed first would be indexed as kings.
    let mut krrvk = read("KRRvK.rtbw");
    let lows: Vec<u8> = krrvk[6..10].iter().map(|b| b & 0x0f).collect();
    let mut moved: Vec<u8> = lows.iter().copied().filter(|p| p & 7 != 6).collect();
    moved.extend(lows.iter().copied().filter(|p| p & 7 == 6));
    for (b, p) in krrvk[6..10].iter_mut().zip(moved) {
        *b = (*b & 0xf0) | p;
    }
    corrupt(
        "KRRvK.rtbw",
        &krrvk,
        krrvk.len() as u64,
        "order the layout does not allow",
    );

    // KPvKP: both pawn groups at the same step.
    let mut kpvkp = read("KPvKP.rtbw");
    kpvkp[6] = (kpvkp[6] & 0xf0) | (kpvkp[5] & 0x0f);
    corrupt("KPvKP.rtbw", &kpvkp, kpvkp.len() as u64, "piece order");
}

/// A failure to read standard input or write standard output names the
/// stream: a bare "No space left on device" beside table paths points at
/// the tables.
#[test]
fn standard_streams_that_fail_are_named() {
    use std::process::{Command, Stdio};
    let bin = env!("CARGO_BIN_EXE_syzygy-web");
    let path = syzygy_path();
    let dir = std::fs::File::open(std::env::temp_dir()).expect("a folder to read");
    let out = Command::new(bin)
        .args(["probe", "--path"])
        .arg(&path)
        .stdin(Stdio::from(dir))
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("reading standard input: "), "{err}");
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        println!("SKIPPED the output half: no /dev/full here");
        return;
    };
    let out = Command::new(bin)
        .args(["probe", "--json", "--path"])
        .arg(&path)
        .arg("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")
        .stdout(Stdio::from(full))
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("writing standard output: "), "{err}");
}
