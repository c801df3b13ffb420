//! `syzygy-web probe`: answers FENs from local or remote tables.

/// The CLI is native only; the wasm build of this target is empty.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    native::main()
}

#[cfg(not(target_arch = "wasm32"))]
mod native {

    /// A line on standard error; a closed one loses it (eprintln! would panic).
    macro_rules! say {
        ($($t:tt)*) => {{
            let _ = writeln!(io::stderr(), $($t)*);
        }};
    }

    use std::io::{self, BufRead, Write};
    use std::path::PathBuf;
    use std::process::ExitCode;

    use syzygy_web::cli::{self, Options};
    use syzygy_web::ProbeError;

    const USAGE: &str =
        "usage: syzygy-web probe ... | syzygy-web generate ... (see generate --help)
       syzygy-web probe (--path DIR... | --url BASE_URL... [--cache-dir DIR] | --generate) [--json] [--stats] [--mainline] [FEN]...
      Probes each FEN (or each line of standard input) in Syzygy tables.
      --path DIR       a folder of .rtbw/.rtbz files (repeatable)
      --url BASE_URL   a folder of tables over HTTP(S) with Range support (repeatable:
                       mirrors, asked in order; one that fails or refuses gives way)
      --cache-dir DIR  keep fetched pages on disk between runs (with --url)
      --json           one JSON object per line
      --stats          after each answer, one JSON line on standard error: fen,
                       requests, bytes, waves, rounds, fromDiskCache, elapsedMs
      --mainline       add the line of best play to the next zeroing move (UCI);
                       with --generate, to mate
      --generate       answer from tables generated here (up to 4 pieces), with
                       dtm (plies to mate) on the position and every move
    exit status: 0 all answered, 1 some line had an error, 2 usage error";

    fn generate(args: &[String]) -> ExitCode {
        use syzygy_web::generate_cli;
        if args.iter().any(|a| a == "-h" || a == "--help") {
            // Not println!: a closed pipe (`| head`) would panic.
            let _ = writeln!(io::stdout(), "{}", generate_cli::USAGE);
            return ExitCode::SUCCESS;
        }
        let parsed = match generate_cli::parse(args) {
            Ok(a) => a,
            Err(e) => {
                say!("{e}\n{}", generate_cli::USAGE);
                return ExitCode::from(2);
            }
        };
        match generate_cli::run(&parsed) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                say!("{e}");
                ExitCode::from(1)
            }
        }
    }

    /// `e` with the stream it came from said (its kind kept: a closed pipe
    /// is still seen as one): a bare "No space left on device" beside table
    /// paths points at the wrong thing.
    fn said(what: &str, e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("{what}: {e}"))
    }

    /// Longest part of an input line kept: far past any FEN (256 bytes),
    /// so that a line without end (`head -c 4G /dev/zero`) costs no memory.
    const MAX_LINE: usize = 1024;

    /// `f` over the lines of `input` (without their newline), each cut to
    /// [`MAX_LINE`] bytes, the rest of a long line read and dropped; `f`'s
    /// flag says that what was dropped held more than spaces (a line is
    /// then answered as too long, not skipped as blank or read in part).
    fn each_line(
        input: &mut dyn BufRead,
        mut f: impl FnMut(&[u8], bool) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut line = Vec::new();
        let mut cut = false;
        loop {
            let buf = match input.fill_buf() {
                Ok(buf) => buf,
                // A signal interrupted the read: read on.
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(said("reading standard input", e)),
            };
            if buf.is_empty() {
                return if line.is_empty() && !cut {
                    Ok(())
                } else {
                    f(&line, cut)
                };
            }
            let (part, end) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], Some(i + 1)),
                None => (buf, None),
            };
            let room = MAX_LINE.saturating_sub(line.len());
            let (kept, dropped) = part.split_at(part.len().min(room));
            line.extend_from_slice(kept);
            cut |= !dropped.iter().all(|b| b.is_ascii_whitespace());
            let used = end.unwrap_or(buf.len());
            input.consume(used);
            if end.is_some() {
                f(&line, cut)?;
                line.clear();
                cut = false;
            }
        }
    }

    pub fn main() -> ExitCode {
        // An argument that is not UTF-8 is a usage error, not a panic.
        let args: Vec<String> = match std::env::args_os()
            .skip(1)
            .map(|a| a.into_string())
            .collect()
        {
            Ok(args) => args,
            Err(bad) => {
                say!("argument {bad:?} is not UTF-8\n{USAGE}");
                return ExitCode::from(2);
            }
        };
        let mut opts = Options::default();
        let mut fens = Vec::new();
        let mut it = args.into_iter();
        match it.next().as_deref() {
            Some("probe") => {}
            Some("generate") => return generate(&it.collect::<Vec<_>>()),
            Some("-h") | Some("--help") | Some("help") => {
                let _ = writeln!(io::stdout(), "{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => {
                say!("{USAGE}");
                return ExitCode::from(2);
            }
        }
        while let Some(a) = it.next() {
            match a.as_str() {
                "--json" => opts.json = true,
                "--stats" => opts.stats = true,
                "--mainline" => opts.mainline = true,
                "--generate" => opts.generate = true,
                "--path" | "--url" | "--cache-dir" => {
                    // (Another option in its place is a value forgotten: `--cache-dir --json`.)
                    let Some(v) = it.next().filter(|v| !v.starts_with("--")) else {
                        say!("{a} needs a value\n{USAGE}");
                        return ExitCode::from(2);
                    };
                    match a.as_str() {
                        "--path" => opts.paths.push(PathBuf::from(v)),
                        "--url" => opts.urls.push(v),
                        _ if opts.cache_dir.is_some() => {
                            say!("--cache-dir is given once\n{USAGE}");
                            return ExitCode::from(2);
                        }
                        _ => opts.cache_dir = Some(PathBuf::from(v)),
                    }
                }
                "-h" | "--help" => {
                    let _ = writeln!(io::stdout(), "{USAGE}");
                    return ExitCode::SUCCESS;
                }
                // No FEN starts with a dash.
                s if s.starts_with('-') && s.len() > 1 => {
                    say!("unknown option {s}\n{USAGE}");
                    return ExitCode::from(2);
                }
                _ => fens.push(a),
            }
        }
        if opts.paths.is_empty() && opts.urls.is_empty() && !opts.generate {
            say!("give at least one --path or --url, or --generate\n{USAGE}");
            return ExitCode::from(2);
        }
        let mut prober = match cli::Prober::new(&opts) {
            Ok(p) => p,
            Err(e) => {
                say!("{e}");
                return ExitCode::from(2);
            }
        };
        if let Some(why) = opts
            .cache_dir
            .as_deref()
            .and_then(syzygy_web::drivers::DiskCache::unwritable)
        {
            say!("warning: {why}");
        }
        let stdout = io::stdout();
        let mut out = stdout.lock();
        let mut failed = false;
        let mut answer = |fen: &str, refused: Option<ProbeError>, out: &mut dyn Write| {
            let started = std::time::Instant::now();
            let (text, ok) = prober.answer_or(fen, refused, opts.json, opts.mainline);
            failed |= !ok;
            writeln!(out, "{text}").map_err(|e| said("writing standard output", e))?;
            if opts.stats {
                // A closed standard error loses the figures, not the answers.
                let _ = writeln!(
                    io::stderr(),
                    "{}",
                    prober.stats_json(fen, started.elapsed())
                );
            }
            out.flush().map_err(|e| said("writing standard output", e))
        };
        let fens = cli::joined_fens(fens);
        let result = if fens.is_empty() {
            // Lines as bytes: one that is not UTF-8 gets its own answer (an
            // invalid FEN) and the lines after it are still read.
            each_line(&mut io::stdin().lock(), |line, cut| {
                let line = String::from_utf8_lossy(line);
                // A byte-order mark (a file saved by some editors) is not part of the FEN.
                let line = line.trim_end_matches('\r').trim_start_matches('\u{feff}');
                if cut {
                    let why = format!("the line is longer than {MAX_LINE} bytes");
                    return answer(line, Some(ProbeError::InvalidFen(why)), &mut out);
                }
                if line.trim().is_empty() {
                    return Ok(());
                }
                answer(line, None, &mut out)
            })
        } else {
            fens.iter().try_for_each(|f| answer(f, None, &mut out))
        };
        if let Err(e) = result {
            if e.kind() != io::ErrorKind::BrokenPipe {
                say!("{e}");
                return ExitCode::from(1);
            }
        }
        if failed {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }
    }
}
