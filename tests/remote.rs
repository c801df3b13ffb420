//! The native `--url` driver against the project's own Range server
//! (tests/server/range-server.mjs): the CLI answers exactly as with local
//! files, every fault mode the server can inject ends in a correct answer or
//! a clear error (never a wrong answer), and the disk cache saves transfers
//! and never outlives a change of file identity.
//!
//! Each test starts its own server, so faults never leak between tests.
//! Without `node` the tests print why they are skipped and return.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};

use common::*;
use shakmaty::{Chess, Position};
use syzygy_web::drivers::http::HttpFetcher;
use syzygy_web::drivers::{Fetcher, FsFetcher, Request, Response, Tablebase};
use syzygy_web::probe::Analysis;
use syzygy_web::{Config, ProbeError};

// ---------------------------------------------------------------------------
// The server and its control endpoints.

struct Server {
    child: Child,
    _stdout: BufReader<ChildStdout>,
    /// `http://127.0.0.1:PORT/`
    base: String,
}

impl Server {
    /// Starts a server over the test tables, or None (with a printed
    /// reason) when node is not installed.
    fn start(test: &str) -> Option<Server> {
        Self::start_over(test, &[syzygy_path()])
    }

    /// Starts a server over `dirs`, merged (a file of the first dir that
    /// has it wins).
    fn start_over(test: &str, dirs: &[PathBuf]) -> Option<Server> {
        if Command::new("node").arg("--version").output().is_err() {
            required("node (for the Range server)");
            println!("SKIPPED {test}: `node` is not installed, so the Range server cannot run");
            return None;
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/server/range-server.mjs");
        let mut child = Command::new("node")
            .arg(script)
            .args(["--port", "0"])
            .args(dirs.iter().flat_map(|d| [Path::new("--tables"), d]))
            // Keep every request of the load test in the log.
            .env("RANGE_SERVER_LOG_LIMIT", "100000")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn node");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("server banner");
        let Some(base) = line.trim().strip_prefix("listening on ") else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("unexpected server banner {line:?}");
        };
        Some(Server {
            base: base.to_string(),
            child,
            _stdout: stdout,
        })
    }

    /// The `--url` of the merged table dirs.
    fn tables(&self) -> String {
        format!("{}tables/", self.base)
    }

    fn post(&self, what: &str, json: &str) {
        let url = format!("{}{what}", self.base);
        ureq::post(&url)
            .header("Content-Type", "application/json")
            .send(json)
            .unwrap_or_else(|e| panic!("POST {url} {json}: {e}"));
    }

    /// Replaces the fault list.
    fn faults(&self, json: &str) {
        self.post("__faults", json);
    }

    /// Zeroes counters, clears faults and ETag generations.
    fn reset(&self) {
        self.post("__reset", "");
    }

    fn stats(&self) -> Stats {
        let url = format!("{}__stats", self.base);
        let text = ureq::get(&url)
            .call()
            .expect("GET __stats")
            .body_mut()
            .read_to_string()
            .expect("stats body");
        Stats(text)
    }

    /// A driver over this server, without a disk cache.
    fn driver(&self) -> Tablebase<HttpFetcher> {
        self.driver_with(None)
    }

    /// A driver that streams a server ignoring Range at most `limit` bytes into a file.
    fn driver_streaming(&self, limit: u64) -> Tablebase<HttpFetcher> {
        Tablebase::new(
            HttpFetcher::new(vec![self.tables()], None)
                .expect("fetcher")
                .with_whole_body_limit(limit),
            Config::default(),
        )
    }

    fn driver_with(&self, cache: Option<PathBuf>) -> Tablebase<HttpFetcher> {
        Tablebase::new(
            HttpFetcher::new(vec![self.tables()], cache).expect("fetcher"),
            Config::default(),
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Only the child this test started, by its handle.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The server's counters as JSON text, read with a few string searches
/// (the layout is JSON.stringify of {requests, bytes, connections, byPath, log}).
struct Stats(String);

/// One request in the server's log.
#[derive(Debug)]
struct Logged {
    path: String,
    range: Option<String>,
    status: u64,
    bytes: u64,
    fault: Option<String>,
}

fn number_after(text: &str, key: &str) -> Option<u64> {
    let at = text.find(key)? + key.len();
    let digits: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

fn string_after(text: &str, key: &str) -> Option<String> {
    let at = text.find(key)? + key.len();
    let rest = text[at..].strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_string())
}

impl Stats {
    /// Requests counted (the log keeps only the last thousand).
    fn requests(&self) -> u64 {
        number_after(&self.0, "\"requests\":").expect("stats requests")
    }

    /// Connections the server accepted.
    fn connections(&self) -> u64 {
        number_after(&self.0, "\"connections\":").expect("stats connections")
    }

    /// Body bytes sent for every counted request.
    fn bytes(&self) -> u64 {
        number_after(&self.0, "\"bytes\":").expect("stats bytes")
    }

    /// Body bytes sent for one table file (e.g. `KRPvKR.rtbw`).
    fn file_bytes(&self, file: &str) -> u64 {
        let key = format!("\"/tables/{file}\":{{");
        match self.0.find(&key) {
            Some(at) => number_after(&self.0[at..], "\"bytes\":").unwrap_or(0),
            None => 0,
        }
    }

    /// The request log, oldest first (entries are flat objects).
    fn log(&self) -> Vec<Logged> {
        let Some(at) = self.0.find("\"log\":[") else {
            return Vec::new();
        };
        self.0[at + 7..]
            .split('}')
            .filter(|e| e.contains("\"path\":"))
            .map(|e| Logged {
                path: string_after(e, "\"path\":").unwrap_or_default(),
                range: string_after(e, "\"range\":"),
                status: number_after(e, "\"status\":").unwrap_or(0),
                bytes: number_after(e, "\"bytes\":").unwrap_or(0),
                fault: string_after(e, "\"fault\":"),
            })
            .collect()
    }

    /// How many requests the fault `mode` hit.
    fn faulted(&self, mode: &str) -> usize {
        self.log()
            .iter()
            .filter(|l| l.fault.as_deref() == Some(mode))
            .count()
    }

    fn log_of(&self, file: &str) -> Vec<Logged> {
        self.log()
            .into_iter()
            .filter(|l| l.path.ends_with(&format!("/tables/{file}")))
            .collect()
    }

    /// The statuses of the requests for a file, in order.
    fn statuses_of(&self, file: &str) -> Vec<u64> {
        self.log_of(file).iter().map(|l| l.status).collect()
    }
}

macro_rules! server {
    ($name:expr) => {
        match Server::start($name) {
            Some(s) => s,
            None => return,
        }
    };
}

// ---------------------------------------------------------------------------
// Expected answers, from the local driver (itself checked against the
// reference by tests/differential.rs).

fn expected(positions: &[Chess]) -> Vec<Analysis> {
    let mut local = ours();
    positions
        .iter()
        .map(|p| local.analyse(p).expect("local answer"))
        .collect()
}

/// Analyses every position remotely and checks each answer.
fn check_all(t: &mut Tablebase<HttpFetcher>, positions: &[Chess], want: &[Analysis]) {
    for (p, w) in positions.iter().zip(want) {
        match t.analyse(p) {
            Ok(a) => assert_eq!(&a, w, "{}: remote answer differs", fen(p)),
            Err(e) => panic!("{}: {e}", fen(p)),
        }
    }
}

/// Either the right answer or a clear network error naming the file; never
/// a wrong answer.
fn right_or_network_error(t: &mut Tablebase<HttpFetcher>, p: &Chess, want: &Analysis, file: &str) {
    match t.analyse(p) {
        Ok(a) => assert_eq!(&a, want, "{}: wrong answer under a fault", fen(p)),
        Err(ProbeError::Network(name, _)) => assert_eq!(name, file, "{}", fen(p)),
        Err(e) => panic!("{}: unexpected error {e}", fen(p)),
    }
}

fn krpvkr(n: usize, seed: u64) -> Vec<Chess> {
    sample("KRPvKR", n, seed)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("syzygy-web-remote-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

// ---------------------------------------------------------------------------
// (a) The CLI over HTTP answers byte for byte as over local files.

/// Runs the CLI with `args` on `input` (one FEN a line); (stdout, exit code).
fn cli(args: &[&str], input: &str) -> (String, i32) {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    let out = common::cli::run_cli(&args, input.as_bytes());
    (
        String::from_utf8(out.stdout).expect("utf-8"),
        out.status.code().unwrap_or(-1),
    )
}

/// About 300 FENs: five of every 3-, 4- and 5-piece table, and lines that
/// must be errors.
fn cli_fens() -> String {
    let mut fens: Vec<String> = table_names()
        .iter()
        .flat_map(|t| sample(t, 5, 77))
        .map(|p| fen(&p))
        .collect();
    fens.extend(
        [
            "not a fen",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1",
            "4k3/8/8/8/8/8/8/n2BNK2 w - - 0 1",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "6k1/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        ]
        .map(String::from),
    );
    fens.join("\n") + "\n"
}

#[test]
fn cli_url_answers_exactly_as_cli_path() {
    let srv = server!("cli_url_answers_exactly_as_cli_path");
    let input = cli_fens();
    let path = syzygy_path();
    let (local, local_code) = cli(
        &["probe", "--json", "--path", path.to_str().unwrap()],
        &input,
    );
    let url = srv.tables();
    let (remote, remote_code) = cli(&["probe", "--json", "--url", &url], &input);
    assert_eq!(local.lines().count(), input.lines().count());
    for (i, (a, b)) in local.lines().zip(remote.lines()).enumerate() {
        assert_eq!(a, b, "line {i} differs");
    }
    assert_eq!(local, remote);
    assert_eq!((local_code, remote_code), (1, 1), "error lines exit 1");
    for code in [
        "invalid-fen",
        "illegal-position",
        "castling",
        "too-many-pieces",
        "missing-table",
    ] {
        assert!(local.contains(code), "no {code} line in\n{local}");
    }
    assert!(local.contains("KQQQQvK.rtbz") && local.contains("KBNvKN.rtbw"));
    let stats = srv.stats();
    println!(
        "{} FENs over HTTP: {} requests, {:.1} MiB",
        input.lines().count(),
        stats.requests(),
        stats.bytes() as f64 / (1 << 20) as f64
    );
}

// ---------------------------------------------------------------------------
// (b) Fault modes against the driver.

#[test]
fn status_500_is_retried_then_answers() {
    let srv = server!("status_500_is_retried_then_answers");
    let ps = krpvkr(3, 1);
    let want = expected(&ps);
    // The head request fails twice, then a page request once.
    srv.faults(
        r#"[{"match":"KRPvKR.rtbw","mode":"status","status":500,"count":2},
            {"match":"KRPvKR.rtbz","mode":"status","status":503,"count":1,"skip":1}]"#,
    );
    let mut t = srv.driver();
    check_all(&mut t, &ps, &want);
    let log = srv.stats().log_of("KRPvKR.rtbw");
    let statuses: Vec<u64> = log.iter().map(|l| l.status).collect();
    assert_eq!(&statuses[..3], &[500, 500, 206], "{log:?}");
    assert!(srv
        .stats()
        .log_of("KRPvKR.rtbz")
        .iter()
        .any(|l| l.status == 503));
    // `--stats` counts the retries and their error pages: what the
    // server saw (until 2026-12-01 one request a read, bytes of answers used).
    let (server, ours) = (srv.stats(), t.stats());
    assert_eq!(ours.requests, server.requests(), "{ours:?}");
    assert_eq!(ours.bytes, server.bytes(), "{ours:?}");
}

#[test]
fn a_dripping_error_page_is_left_after_a_second() {
    // A server in distress sends its 503 page a byte every 3 s (90 s for
    // its 30 bytes, past the try's 60 s): it is left after a second, its
    // connection closed, and the file asked for again.
    let srv = server!("a_dripping_error_page_is_left_after_a_second");
    let ps = krpvkr(2, 5);
    let want = expected(&ps);
    srv.faults(
        r#"{"match":"KRPvKR.rtbw","mode":"status","status":503,"count":1,
            "body":"Service Unavailable, try later","intervalMs":3000}"#,
    );
    let mut t = srv.driver();
    check_all(&mut t, &ps, &want);
    let log = srv.stats().log_of("KRPvKR.rtbw");
    assert_eq!(log[0].status, 503, "{log:?}");
    assert!(log[0].bytes < 5, "the error page was read on: {log:?}");
    assert!(log[1..].iter().all(|l| l.status == 206), "{log:?}");
}

#[test]
fn persistent_5xx_is_a_network_error_naming_the_file() {
    let srv = server!("persistent_5xx_is_a_network_error_naming_the_file");
    srv.faults(r#"{"match":"KPvK.rtbw","mode":"status","status":503}"#);
    let mut t = srv.driver();
    let p = sample("KPvK", 1, 3).remove(0);
    match t.probe_wdl(&p) {
        Err(ProbeError::Network(name, why)) => {
            assert_eq!(name, "KPvK.rtbw");
            assert!(why.contains("503"), "{why}");
        }
        other => panic!("expected a network error, got {other:?}"),
    }
    // Retried a bounded number of times.
    let tries = srv.stats().log_of("KPvK.rtbw").len();
    assert!((2..=5).contains(&tries), "{tries} tries");
    // Still failing: the next position asks once, without the retries and
    // their backoff (a batch against a server down paid them every line).
    let q = sample("KPvK", 2, 3).remove(1);
    match t.probe_wdl(&q) {
        Err(ProbeError::Network(name, why)) => {
            assert_eq!(name, "KPvK.rtbw");
            assert!(why.contains("asked once"), "{why}");
        }
        other => panic!("expected a network error, got {other:?}"),
    }
    assert_eq!(srv.stats().log_of("KPvK.rtbw").len(), tries + 1);
    // Once the server recovers, the same driver answers.
    srv.reset();
    let want = expected(std::slice::from_ref(&p));
    check_all(&mut t, &[p], &want);
}

#[test]
fn a_failing_table_the_answer_does_not_need_fails_nothing() {
    let srv = server!("a_failing_table_the_answer_does_not_need_fails_nothing");
    // Every move of this KNvKN position draws: its DTZ table, read
    // speculatively beside the WDL, is never needed.
    srv.faults(r#"{"match":"KNvKN.rtbz","mode":"status","status":503}"#);
    let mut t = srv.driver();
    let p = parse("8/8/3k4/3n4/8/3N4/3K4/8 w - - 0 1");
    let want = expected(std::slice::from_ref(&p));
    assert!(want[0].moves.iter().all(|m| m.wdl == 0), "not all draws");
    check_all(&mut t, &[p], &want);
    // It was asked for, and failed.
    assert!(srv.stats().statuses_of("KNvKN.rtbz").contains(&503));
}

#[test]
fn content_encoding_identity_in_any_case_or_empty_is_no_compression() {
    let srv = server!("content_encoding_identity_in_any_case_or_empty_is_no_compression");
    srv.faults(
        r#"[{"match":"KRPvKR.rtbw","mode":"slow","delayMs":0,"headers":{"Content-Encoding":"Identity"}},
            {"match":"KRPvKR.rtbz","mode":"slow","delayMs":0,"headers":{"Content-Encoding":""}}]"#,
    );
    let positions = krpvkr(2, 11);
    let want = expected(&positions);
    check_all(&mut srv.driver(), &positions, &want);
    assert!(srv.stats().faulted("slow") > 0);
}

/// A driver over several servers' tables, asked in that order (as
/// repeated `--url`s).
fn mirrors(servers: &[&Server]) -> Tablebase<HttpFetcher> {
    let bases = servers.iter().map(|s| s.tables()).collect();
    Tablebase::new(
        HttpFetcher::new(bases, None).expect("fetcher"),
        Config::default(),
    )
}

/// With two `--url`s and the first failing every request, answers come
/// from the second; the failing mirror is asked after the healthy one from
/// then on, so later probes cost it no requests and no retry delays.
#[test]
fn a_failing_mirror_gives_way_to_the_next() {
    let down = server!("a_failing_mirror_gives_way_to_the_next");
    let up = server!("a_failing_mirror_gives_way_to_the_next");
    down.faults(r#"{"mode":"status","status":503}"#);
    let mut t = mirrors(&[&down, &up]);
    let ps = krpvkr(3, 11);
    let want = expected(&ps);
    check_all(&mut t, &ps[..1], &want[..1]);
    let first = down.stats().requests();
    assert!(first > 0, "the first mirror was never asked");
    check_all(&mut t, &ps[1..], &want[1..]);
    assert_eq!(
        down.stats().requests(),
        first,
        "the failing mirror was asked again"
    );
    assert!(up.stats().requests() > 0);
}

/// One mirror down (after its retries) and the other without the file:
/// whether the file is anywhere is not known, so a network error, as the
/// browser says; not a missing table remembered for the session.
#[test]
fn a_mirror_down_and_a_404_elsewhere_is_a_network_error() {
    let down = server!("a_mirror_down_and_a_404_elsewhere_is_a_network_error");
    let up = server!("a_mirror_down_and_a_404_elsewhere_is_a_network_error");
    down.faults(r#"{"match":"KRvK.rtbz","mode":"status","status":503}"#);
    up.faults(r#"{"match":"KRvK.rtbz","mode":"status","status":404}"#);
    let mut t = mirrors(&[&down, &up]);
    let e = t.probe_dtz(&krvk_white_to_move()).expect_err("not known");
    assert_eq!(e.code(), "network", "{e}");
}

/// A host name with no address (the resolver's "not known", as for any
/// name under .invalid) is not asked again: the error comes at once and
/// says so. Where no resolver answers at all ("temporary failure"), the
/// request is asked again, as a blip may pass.
#[test]
fn a_host_without_an_address_is_not_asked_again() {
    let fetcher = HttpFetcher::new(vec!["http://no-such-host.invalid/tables/".into()], None)
        .expect("fetcher");
    let mut t = Tablebase::new(fetcher, Config::default());
    let e = t
        .probe_dtz(&krvk_white_to_move())
        .expect_err("no such host");
    let why = e.to_string();
    assert_eq!(e.code(), "network", "{why}");
    if why.contains("Temporary failure") {
        assert!(why.contains("retries"), "{why}");
    } else {
        assert!(why.contains("has no address"), "{why}");
        assert!(!why.contains("retries"), "{why}");
    }
}

/// A mirror that refuses (401: asking again would not change it) gives way
/// to the next at once, and is asked last from then on.
#[test]
fn a_refusing_mirror_gives_way_to_the_next() {
    let locked = server!("a_refusing_mirror_gives_way_to_the_next");
    let up = server!("a_refusing_mirror_gives_way_to_the_next");
    locked.faults(r#"{"mode":"status","status":401}"#);
    let mut t = mirrors(&[&locked, &up]);
    let ps = krpvkr(3, 15);
    let want = expected(&ps);
    check_all(&mut t, &ps, &want);
    assert!(
        locked.stats().requests() > 0,
        "the first mirror was never asked"
    );
    assert!(up.stats().requests() > 0);
    // Refused everywhere: the refusal is the error.
    up.faults(r#"{"mode":"status","status":401}"#);
    let p = sample("KQvKR", 1, 16).remove(0);
    match t.analyse(&p) {
        Err(ProbeError::Network(_, why)) => assert!(why.contains("401"), "{why}"),
        other => panic!("expected a network error, got {other:?}"),
    }
}

/// A file one mirror failed for is read from the mirror that answered for
/// it from then on, even once the first recovers (and answers other
/// files): each switch of mirror would drop what was read of the file.
#[test]
fn a_file_stays_with_the_mirror_that_answered_for_it() {
    let flaky = server!("a_file_stays_with_the_mirror_that_answered_for_it");
    let up = server!("a_file_stays_with_the_mirror_that_answered_for_it");
    // The head of KRPvKR.rtbw fails once for good (a try and 3 retries).
    flaky.faults(r#"{"match":"KRPvKR.rtbw","mode":"status","status":503,"count":4}"#);
    let mut t = mirrors(&[&flaky, &up]);
    let ps = krpvkr(4, 17);
    let want = expected(&ps);
    check_all(&mut t, &ps[..1], &want[..1]);
    // The flaky mirror recovers and answers again: a table the other
    // mirror does not have.
    up.faults(r#"{"match":"KQvKR","mode":"status","status":404}"#);
    let kqkr = parse("8/8/8/4k3/8/3r4/8/3QK3 w - - 0 1");
    check_all(
        &mut t,
        std::slice::from_ref(&kqkr),
        &expected(std::slice::from_ref(&kqkr)),
    );
    assert!(flaky
        .stats()
        .log_of("KQvKR.rtbw")
        .iter()
        .any(|l| l.status == 206));
    check_all(&mut t, &ps[1..], &want[1..]);
    let on_flaky = flaky.stats().log_of("KRPvKR.rtbw");
    assert_eq!(on_flaky.len(), 4, "{on_flaky:?}");
    assert!(on_flaky.iter().all(|l| l.status == 503));
    assert!(up.stats().log_of("KRPvKR.rtbw").len() > 2);
}

#[test]
fn status_404_is_a_missing_table_naming_the_file() {
    let srv = server!("status_404_is_a_missing_table_naming_the_file");
    srv.faults(r#"{"match":"KRvK.rtbz","mode":"status","status":404}"#);
    let mut t = srv.driver();
    // A win for the side to move, so that DTZ needs the table.
    let p = krvk_white_to_move();
    assert_eq!(ours().probe_wdl(&p), Ok(2), "{}", fen(&p));
    // WDL needs no file: a rook against a bare king wins by the rules.
    assert_eq!(t.probe_wdl(&p), Ok(2));
    let e = t.probe_dtz(&p).expect_err("no DTZ table");
    assert_eq!(e, ProbeError::MissingTable("KRvK.rtbz".into()));
    assert_eq!(e.code(), "missing-table");
    assert!(e.to_string().contains("KRvK.rtbz"), "{e}");
    // A 404 is not retried.
    assert_eq!(srv.stats().log_of("KRvK.rtbz").len(), 1);
}

/// A 404 after a failed try is a missing table too: the failure before
/// it (until 2026-11-30 the error) says nothing of the file.
#[test]
fn status_503_then_404_is_a_missing_table() {
    let srv = server!("status_503_then_404_is_a_missing_table");
    srv.faults(
        r#"[{"match":"KRvK.rtbz","mode":"status","status":503,"count":1},
            {"match":"KRvK.rtbz","mode":"status","status":404}]"#,
    );
    let mut t = srv.driver();
    let p = krvk_white_to_move();
    let e = t.probe_dtz(&p).expect_err("no DTZ table");
    assert_eq!(e, ProbeError::MissingTable("KRvK.rtbz".into()));
    let statuses = srv.stats().statuses_of("KRvK.rtbz");
    assert_eq!(statuses, [503, 404]);
}

/// A 403 is read as absent (an S3-style host's answer for a missing key),
/// but the CLI's error says so: the host may deny access to a file it has.
#[test]
fn status_403_is_a_missing_table_naming_the_refusal() {
    let srv = server!("status_403_is_a_missing_table_naming_the_refusal");
    srv.faults(r#"{"match":"KRvK.rtbz","mode":"status","status":403}"#);
    let fen = fen(&krvk_white_to_move());
    let (out, code) = cli(&["probe", "--json", "--url", &srv.tables()], &fen);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(r#""code":"missing-table""#), "{out}");
    let url = format!("{}KRvK.rtbz", srv.tables());
    assert!(
        out.contains(&format!("{url} answered 403 Forbidden")),
        "{out}"
    );
    // Not retried either.
    assert_eq!(srv.stats().log_of("KRvK.rtbz").len(), 1);

    // A password in the URL is not printed with it (the answers' JSON may
    // be logged or shared), in this error nor in a usage error.
    let with_secret = srv.tables().replacen("://", "://reader:s3cret@", 1);
    let (out, code) = cli(&["probe", "--json", "--url", &with_secret], &fen);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!("{url} answered 403 Forbidden")),
        "{out}"
    );
    assert!(!out.contains("s3cret"), "{out}");
    let args: Vec<&std::ffi::OsStr> = ["probe", "--url", "http://reader:s3cret@localhost/t?x=1"]
        .iter()
        .map(std::ffi::OsStr::new)
        .collect();
    let usage = common::cli::run_cli(&args, b"");
    let err = String::from_utf8_lossy(&usage.stderr);
    assert_eq!(usage.status.code(), Some(2), "{err}");
    assert!(
        err.contains("http://localhost/t?x=1") && !err.contains("s3cret"),
        "{err}"
    );
}

/// A KRvK position with White to move: a win whose DTZ needs KRvK.rtbz
/// (its WDL needs no file: a rook against a bare king wins by the rules).
fn krvk_white_to_move() -> Chess {
    sample("KRvK", 20, 4)
        .into_iter()
        .find(|p| p.turn() == shakmaty::Color::White)
        .expect("white to move")
}

/// An empty table file answers every range with 416 (`bytes */0`): that is
/// the file's size, read once and reported as a corrupt table, not a
/// transient fault retried for seconds.
#[test]
fn an_empty_table_is_corrupt_at_once() {
    let dir = temp_dir("empty-table");
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("KBNvK.rtbw"), b"").expect("write empty table");
    let Some(srv) = Server::start_over("an_empty_table_is_corrupt_at_once", &[dir, syzygy_path()])
    else {
        return;
    };
    let mut t = srv.driver();
    let p = parse("8/8/8/4k3/8/8/8/1BN1K3 w - - 0 1");
    let started = std::time::Instant::now();
    let e = t.probe_wdl(&p).expect_err("empty table");
    assert_eq!(e.code(), "corrupt-table", "{e}");
    assert!(e.to_string().contains("KBNvK.rtbw"), "{e}");
    let log = srv.stats().log_of("KBNvK.rtbw");
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(log[0].status, 416);
    // Not a timed assertion: the retries it replaces slept 4.2 s.
    println!("answered in {:?}", started.elapsed());
}

#[test]
fn ignored_range_reads_only_what_is_needed() {
    let srv = server!("ignored_range_reads_only_what_is_needed");
    let size = std::fs::metadata(syzygy_path().join("KRPvKR.rtbw"))
        .expect("KRPvKR.rtbw")
        .len();
    let ps = krpvkr(4, 5);
    let mut local = ours();
    let want: Vec<i8> = ps.iter().map(|p| local.probe_wdl(p).unwrap()).collect();
    srv.faults(r#"{"match":"KRPvKR.rtbw","mode":"ignore-range"}"#);
    let mut t = srv.driver();
    for (p, w) in ps.iter().zip(&want) {
        assert_eq!(t.probe_wdl(p).as_ref(), Ok(w), "{}", fen(p));
    }
    let ours_bytes = t.stats().bytes;
    let log = srv.stats().log_of("KRPvKR.rtbw");
    assert!(log.iter().all(|l| l.status == 200), "{log:?}");
    println!(
        "KRPvKR.rtbw ({size} B) with Range ignored: driver read {ours_bytes} B; server sent {} B, per request {:?}",
        srv.stats().file_bytes("KRPvKR.rtbw"),
        log.iter().map(|l| l.bytes).collect::<Vec<_>>()
    );
    // `--stats` counts what was read: each stream from byte 0 to the end
    // of its range (until 2026-11-30 only the range itself).
    // (The other tables' ranges are answered as asked.)
    let read: u64 = srv
        .stats()
        .log()
        .iter()
        .map(|l| match l.status {
            200 => {
                let range = l.range.as_deref().expect("a Range header");
                let end = range.rsplit('-').next().and_then(|e| e.parse::<u64>().ok());
                end.map_or(size, |e| (e + 1).min(size))
            }
            _ => l.bytes,
        })
        .sum();
    assert_eq!(ours_bytes, read, "{log:?}");
    // The driver asks such a server for no speculative page (each is a
    // stream from byte 0: until 2026-11-30 the server sent 47.8 MB for
    // these four, the whole file among them)...
    let sent = srv.stats().file_bytes("KRPvKR.rtbw");
    assert!(sent < size, "{sent} bytes sent for a {size}-byte file");
    // ...and stops reading: the head request (the first bytes of the file)
    // costs far less than the whole file even counting socket buffers.
    let head = &log[0];
    assert!(
        head.bytes < size / 2,
        "head request streamed {} of {size} bytes",
        head.bytes
    );
}

/// A file whose server ignores Range is asked for once a round (the CLI
/// joins its ranges whatever lies between them: each request would
/// stream the file from its first byte; until 2026-12-02 a round asked
/// for each range apart, up to 16 streams of one file at once, each up to
/// 32 MiB in memory). The joined answers keep the pieces asked, not the
/// bytes between them (until 2026-12-02 a stream was held up to its last
/// range), and the disk cache keeps each piece where it lies: a second
/// run asks the server only for the file's version.
#[test]
fn a_streamed_file_is_asked_once_a_round() {
    let srv = server!("a_streamed_file_is_asked_once_a_round");
    let name = "KRPvKR.rtbz";
    srv.faults(&format!(r#"{{"match":"{name}","mode":"ignore-range"}}"#));
    let ps = krpvkr(6, 21);
    let want = expected(&ps);
    let cache = temp_dir("streamed-pieces");
    let mut t = srv.driver_with(Some(cache.clone()));
    for (p, w) in ps.iter().zip(&want) {
        let before = (srv.stats().log_of(name).len(), t.stats().rounds);
        check_all(&mut t, std::slice::from_ref(p), std::slice::from_ref(w));
        let requests = srv.stats().log_of(name).len() - before.0;
        let rounds = t.stats().rounds - before.1;
        assert!(
            requests as u64 <= rounds,
            "{}: {requests} requests in {rounds} rounds",
            fen(p)
        );
    }
    assert!(srv.stats().log_of(name).iter().all(|l| l.status == 200));
    // `--stats` counts the requests sent, not the ranges they carried.
    assert_eq!(t.stats().requests, srv.stats().requests());
    let streamed = srv.stats().log_of(name).len();
    println!(
        "{name} with Range ignored: {streamed} requests for {} positions, {} bytes sent",
        ps.len(),
        srv.stats().file_bytes(name)
    );
    let mut again = srv.driver_with(Some(cache.clone()));
    check_all(&mut again, &ps, &want);
    assert!(srv.stats().log_of(name).len() <= streamed + 1);
    let _ = std::fs::remove_dir_all(&cache);
}

/// A server that ignores Range once (a CDN's cache miss) and honours it
/// after: the file is read speculatively again from its next 206, so later
/// probes take the rounds of a run that never met the 200 (until
/// 2026-12-01 one 200 turned speculation off for the rest of the run).
#[test]
fn a_file_streamed_once_is_read_speculatively_again_once_ranges_come() {
    let srv = server!("a_file_streamed_once_is_read_speculatively_again_once_ranges_come");
    let ps = krpvkr(12, 5);
    let want = expected(&ps);
    let mut clean = srv.driver();
    check_all(&mut clean, &ps, &want);
    let (clean_rounds, clean_requests) = (clean.stats().rounds, clean.stats().requests);
    srv.reset();
    srv.faults(r#"{"match":"KRPvKR.rtbw","mode":"ignore-range","count":1}"#);
    let mut t = srv.driver();
    check_all(&mut t, &ps, &want);
    assert_eq!(srv.stats().faulted("ignore-range"), 1);
    let (rounds, requests) = (t.stats().rounds, t.stats().requests);
    eprintln!(
        "rounds {rounds} (clean {clean_rounds}), requests {requests} (clean {clean_requests})"
    );
    assert!(
        rounds <= clean_rounds + 1,
        "rounds {rounds} against {clean_rounds}"
    );
}

/// A server that ignores Range is streamed only up to the cap the browser
/// runtime has too (32 MiB, `WHOLE_BODY_LIMIT` in src/web/options.js); a
/// read past it is a clear `network` error, not a whole file in memory.
#[test]
fn ignored_range_past_the_streaming_cap_is_a_clear_error() {
    let options =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web/options.js"))
            .expect("options.js");
    assert!(options.contains("const WHOLE_BODY_LIMIT = 32 * 1048576;"));
    assert_eq!(syzygy_web::drivers::http::WHOLE_BODY_LIMIT, 32 * 1048576);

    let srv = server!("ignored_range_past_the_streaming_cap_is_a_clear_error");
    let name = "KQPvKQ.rtbw";
    let size = std::fs::metadata(syzygy_path().join(name))
        .expect(name)
        .len();
    // KQPvKQ.rtbw is about 20 MB: with a 1 MiB cap its data is out of reach
    // (as the browser's fault test does with wholeBodyLimit).
    let pos = syzygy_web::probe::parse_fen("1q6/3P4/8/4k3/8/8/8/1Q2K3 w - - 0 1").expect("fen");
    srv.faults(r#"{"match":"KQPvKQ.rtbw","mode":"ignore-range"}"#);
    let mut t = srv.driver_streaming(1 << 20);
    let e = t.analyse(&pos).expect_err("past the cap");
    assert_eq!(e.code(), "network", "{e}");
    let text = e.to_string();
    assert!(
        text.contains(name) && text.contains("ignores Range"),
        "{text}"
    );
    // Not retried, and the stream dropped: the server got to send far less
    // than the file even counting socket buffers.
    let log = srv.stats().log_of(name);
    let sent = srv.stats().file_bytes(name);
    println!(
        "{name} ({size} B), Range ignored, 1 MiB cap: {} requests, server sent {sent} B",
        log.len()
    );
    let mut ranges: Vec<_> = log.iter().map(|l| l.range.clone()).collect();
    ranges.sort();
    ranges.dedup();
    assert_eq!(ranges.len(), log.len(), "a request was retried: {log:?}");
    assert!(sent < size / 2, "{sent} of {size} bytes streamed");
    // Within the cap the same server still answers.
    let mut local = ours();
    let small = krpvkr(2, 9);
    srv.faults(r#"{"match":"KRPvKR.rtbw","mode":"ignore-range"}"#);
    let mut t = srv.driver();
    for p in &small {
        assert_eq!(t.probe_wdl(p), local.probe_wdl(p), "{}", fen(p));
    }
}

/// A server that ignores Range and sends no length (a chunked stream): the
/// file's size is where the stream ends, read whole within the cap (until
/// 2026-11-30 such an answer was refused), a clear error past it.
#[test]
fn ignored_range_without_a_length_is_read_within_the_cap() {
    let srv = server!("ignored_range_without_a_length_is_read_within_the_cap");
    let name = "KBNvK.rtbw";
    let size = std::fs::metadata(syzygy_path().join(name))
        .expect(name)
        .len();
    let pos = syzygy_web::probe::parse_fen("8/8/8/4k3/8/8/8/1BN1K3 w - - 0 1").expect("fen");
    let want = ours().probe_wdl(&pos);
    srv.faults(r#"{"match":"KBNvK.rtbw","mode":"ignore-range","chunked":true}"#);
    let mut t = srv.driver();
    assert_eq!(t.probe_wdl(&pos), want);
    let log = srv.stats().log_of(name);
    assert!(
        !log.is_empty() && log.iter().all(|l| l.status == 200),
        "{log:?}"
    );
    // Every stream read to its end, and counted.
    assert_eq!(t.stats().bytes, size * log.len() as u64, "{log:?}");
    println!(
        "{name} ({size} B) chunked, Range ignored: {} requests",
        log.len()
    );

    // Past the cap: an error that says why, asked once.
    let mut t = srv.driver_streaming(size / 2);
    let e = t.probe_wdl(&pos).expect_err("past the cap");
    assert_eq!(e.code(), "network", "{e}");
    let text = e.to_string();
    assert!(
        text.contains("length not sent") && text.contains(name),
        "{text}"
    );
}

#[test]
fn truncated_bodies_are_retried_or_a_clear_error() {
    let srv = server!("truncated_bodies_are_retried_or_a_clear_error");
    let ps = krpvkr(3, 6);
    let want = expected(&ps);
    // Transient: two truncated responses, then normal service.
    srv.faults(r#"{"match":"KRPvKR","mode":"truncate","count":2}"#);
    let mut t = srv.driver();
    check_all(&mut t, &ps, &want);
    assert_eq!(srv.stats().faulted("truncate"), 2);
    // Persistent: a clear error, and no wrong answer afterwards.
    srv.reset();
    srv.faults(r#"{"match":"KRPvKR.rtbz","mode":"truncate"}"#);
    let fresh = krpvkr(2, 66);
    let want_fresh = expected(&fresh);
    let mut t = srv.driver();
    for (p, w) in fresh.iter().zip(&want_fresh) {
        right_or_network_error(&mut t, p, w, "KRPvKR.rtbz");
    }
    srv.reset();
    check_all(&mut t, &fresh, &want_fresh);
}

#[test]
fn reset_connections_are_retried_or_a_clear_error() {
    let srv = server!("reset_connections_are_retried_or_a_clear_error");
    let ps = krpvkr(3, 7);
    let want = expected(&ps);
    srv.faults(r#"{"match":"KRPvKR","mode":"reset","count":2}"#);
    let mut t = srv.driver();
    check_all(&mut t, &ps, &want);
    assert_eq!(srv.stats().faulted("reset"), 2);
    srv.reset();
    srv.faults(r#"{"match":"KRPvKR.rtbw","mode":"reset"}"#);
    let mut t = srv.driver();
    let p = krpvkr(1, 77).remove(0);
    let w = expected(std::slice::from_ref(&p)).remove(0);
    match t.analyse(&p) {
        Err(ProbeError::Network(name, _)) => assert_eq!(name, "KRPvKR.rtbw"),
        other => panic!("expected a network error, got {other:?}"),
    }
    srv.reset();
    check_all(&mut t, &[p], &[w]);
}

#[test]
fn wrong_content_range_is_never_trusted() {
    let srv = server!("wrong_content_range_is_never_trusted");
    let cache = temp_dir("wrong-range");
    let ps = krpvkr(3, 8);
    let want = expected(&ps);
    // Transient: the start is off by one once, then correct.
    srv.faults(r#"{"match":"KRPvKR.rtbw","mode":"wrong-range","count":1}"#);
    let mut t = srv.driver_with(Some(cache.clone()));
    check_all(&mut t, &ps, &want);
    assert_eq!(srv.stats().faulted("wrong-range"), 1);

    // Persistent, on pages of a fresh table: a clear error; nothing of the
    // bad responses is kept in memory or on disk.
    srv.reset();
    srv.faults(r#"{"match":"KQPvKQ.rtbw","mode":"wrong-range","shift":4096,"skip":1}"#);
    let qs = sample("KQPvKQ", 2, 8);
    let want_q = expected(&qs);
    let mut t = srv.driver_with(Some(cache.clone()));
    let mut errors = 0;
    for (p, w) in qs.iter().zip(&want_q) {
        match t.analyse(p) {
            Ok(a) => assert_eq!(&a, w, "{}: wrong answer", fen(p)),
            Err(ProbeError::Network(name, why)) => {
                assert_eq!(name, "KQPvKQ.rtbw");
                assert!(why.contains("Content-Range"), "{why}");
                errors += 1;
            }
            Err(e) => panic!("{}: unexpected error {e}", fen(p)),
        }
    }
    assert!(errors > 0, "a shifted Content-Range was accepted");
    srv.reset();
    check_all(&mut t, &qs, &want_q);
    let mut again = srv.driver_with(Some(cache.clone()));
    check_all(&mut again, &qs, &want_q);

    // A Content-Range that claims another file size, once on the head
    // request: answers stay right and the disk cache recovers.
    srv.reset();
    srv.faults(r#"{"match":"KQRvKR.rtbw","mode":"wrong-range","sizeDelta":64,"count":1}"#);
    let rs = sample("KQRvKR", 3, 8);
    let want_r = expected(&rs);
    let mut t = srv.driver_with(Some(cache.clone()));
    for (p, w) in rs.iter().zip(&want_r) {
        right_or_network_error(&mut t, p, w, "KQRvKR.rtbw");
    }
    srv.reset();
    let mut again = srv.driver_with(Some(cache.clone()));
    check_all(&mut again, &rs, &want_r);
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn a_range_answered_from_earlier_is_cut_to_the_one_asked() {
    // RFC 9110 lets a server send more than the range asked, its
    // Content-Range saying what: here every table answer starts 5000
    // bytes early (at byte 0 where the range starts before that).
    let srv = server!("a_range_answered_from_earlier_is_cut_to_the_one_asked");
    let ps = krpvkr(4, 31);
    let want = expected(&ps);
    srv.faults(r#"{"mode":"wider-range","before":5000}"#);
    let mut t = srv.driver();
    check_all(&mut t, &ps, &want);
    let server = srv.stats();
    assert!(server.faulted("wider-range") > 0);
    let log = server.log();
    assert!(log.iter().all(|l| l.status == 206), "{log:?}");
    // (Heads start at byte 0, where nothing comes before.)
    assert!(
        log.iter().any(|l| l
            .range
            .as_deref()
            .is_some_and(|r| !r.starts_with("bytes=0-"))),
        "{log:?}"
    );
    // One request a read, no retry; `--stats` counts the bytes before
    // each range too: what the server sent.
    let ours = t.stats();
    assert_eq!(ours.requests, server.requests(), "{ours:?}");
    assert_eq!(ours.bytes, server.bytes(), "{ours:?}");
}

#[test]
fn gzip_on_a_range_is_a_clear_error() {
    let srv = server!("gzip_on_a_range_is_a_clear_error");
    srv.faults(r#"{"match":"KPvK.rtbw","mode":"gzip"}"#);
    let mut t = srv.driver();
    let p = sample("KPvK", 1, 9).remove(0);
    match t.probe_wdl(&p) {
        Err(ProbeError::Network(name, why)) => {
            assert_eq!(name, "KPvK.rtbw");
            assert!(why.contains("gzip"), "{why}");
        }
        other => panic!("expected a network error, got {other:?}"),
    }
    // Not retried: the server will not change its mind.
    assert_eq!(srv.stats().log_of("KPvK.rtbw").len(), 1);
}

#[test]
fn redirects_are_followed_with_the_range() {
    let srv = server!("redirects_are_followed_with_the_range");
    let ps = krpvkr(3, 10);
    let want = expected(&ps);
    srv.faults(r#"{"mode":"redirect"}"#);
    let mut t = srv.driver();
    check_all(&mut t, &ps, &want);
    let log = srv.stats().log();
    let redirected: Vec<&Logged> = log
        .iter()
        .filter(|l| l.path.starts_with("/redirected/"))
        .collect();
    assert!(!redirected.is_empty(), "no redirect followed");
    assert!(
        redirected
            .iter()
            .all(|l| l.status == 206 && l.range.is_some()),
        "{redirected:?}"
    );
}

#[test]
fn slow_and_dripping_responses_answer() {
    let srv = server!("slow_and_dripping_responses_answer");
    let ps = krpvkr(2, 11);
    let want = expected(&ps);
    srv.faults(r#"{"mode":"slow","delayMs":300,"count":4}"#);
    let mut t = srv.driver();
    check_all(&mut t, &ps, &want);
    srv.reset();
    srv.faults(r#"{"match":"KRPvKR","mode":"drip","chunk":2048,"intervalMs":2}"#);
    let mut t = srv.driver();
    check_all(&mut t, &ps, &want);
    assert!(srv
        .stats()
        .log_of("KRPvKR.rtbw")
        .iter()
        .all(|l| l.status == 206));
}

/// An answer still arriving when the try's time runs out (a slow link, a
/// server that drips) is a clear error after that one try: each retry
/// would take as long again (until 2026-12-01, four tries of 60 s each).
#[test]
fn an_answer_slower_than_the_time_limit_is_not_asked_again() {
    let srv = server!("an_answer_slower_than_the_time_limit_is_not_asked_again");
    srv.faults(r#"{"match":"KRvK.rtbz","mode":"drip","chunk":100,"intervalMs":200}"#);
    let fetcher = HttpFetcher::new(vec![srv.tables()], None)
        .expect("fetcher")
        .with_request_timeout(std::time::Duration::from_secs(1));
    let mut t = Tablebase::new(fetcher, Config::default());
    match t.probe_dtz(&krvk_white_to_move()) {
        Err(ProbeError::Network(name, why)) => {
            assert_eq!(name, "KRvK.rtbz");
            assert!(why.contains("did not arrive within 1 s"), "{why}");
        }
        other => panic!("expected a network error, got {other:?}"),
    }
    assert_eq!(srv.stats().log_of("KRvK.rtbz").len(), 1);
}

#[test]
fn etag_change_mid_run_drops_the_files_pages() {
    let srv = server!("etag_change_mid_run_drops_the_files_pages");
    let ps = krpvkr(12, 12);
    let want = expected(&ps);
    let mut t = srv.driver();
    check_all(&mut t, &ps[..6], &want[..6]);
    let before = srv.stats().log_of("KRPvKR.rtbw").len();
    // The next request for the file sees a new ETag.
    srv.faults(r#"{"match":"KRPvKR.rtbw","mode":"etag-change","count":1}"#);
    check_all(&mut t, &ps[6..], &want[6..]);
    let log = srv.stats().log_of("KRPvKR.rtbw");
    assert!(log.len() > before + 1, "no request after the change");
    // Its pages were dropped: the head is fetched again after the change.
    let refetched_head = log[before + 1..].iter().any(|l| {
        l.range
            .as_deref()
            .is_some_and(|r| r.starts_with("bytes=0-"))
    });
    assert!(refetched_head, "{:?}", &log[before..]);
    // And the earlier positions, whose pages were dropped, still answer.
    check_all(&mut t, &ps[..6], &want[..6]);
}

/// The disk's answers to `batch`, the validator of each answer for `file`
/// given the suffix `suffix` names from its rank among the batch's
/// requests for the file, if any: another version.
fn relabelled(
    inner: &mut FsFetcher,
    batch: &[Request],
    file: &str,
    mut suffix: impl FnMut(usize) -> Option<&'static str>,
) -> Vec<Response> {
    let mut out = inner.fetch(batch);
    let ours = batch
        .iter()
        .zip(out.iter_mut())
        .filter(|(r, _)| r.name == file);
    for (k, (_, resp)) in ours.enumerate() {
        if let (Response::Bytes { validator, .. }, Some(s)) = (resp, suffix(k)) {
            validator.push_str(s);
        }
    }
    out
}

/// Serves the tables from disk, and `file` is replaced while a round is
/// out: from the first round after its head that asks for it twice or
/// more, its first answer of that round is of a new version and the others
/// of the version before (asked for before the change, answered after);
/// every later answer is of the new version.
struct ReplacedMidRound {
    inner: FsFetcher,
    file: &'static str,
    /// Whether the round of the replacement has passed.
    replaced: bool,
}

impl Fetcher for ReplacedMidRound {
    fn fetch(&mut self, batch: &[Request]) -> Vec<Response> {
        let reads = batch.iter().filter(|r| r.name == self.file && !r.open);
        let now = !self.replaced && reads.count() >= 2;
        let before = self.replaced;
        self.replaced |= now;
        relabelled(&mut self.inner, batch, self.file, |k| {
            (before || (now && k == 0)).then_some("-new")
        })
    }
}

#[test]
fn an_answer_of_the_version_before_a_change_in_its_round_is_asked_for_again() {
    // The rook promotion: its second round asks for KRPvKR.rtbw four times.
    let pos = parse("8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1");
    let want = Tablebase::new(FsFetcher::new(vec![syzygy_path()]), Config::default())
        .analyse(&pos)
        .expect("answer");
    let fetcher = ReplacedMidRound {
        inner: FsFetcher::new(vec![syzygy_path()]),
        file: "KRPvKR.rtbw",
        replaced: false,
    };
    let mut t = Tablebase::new(fetcher, Config::default());
    // Before, the late answers counted as a change back and the next
    // round's as a third change: "changed version 3 times".
    assert_eq!(t.analyse(&pos).expect("answer"), want);
    assert!(t.fetcher_mut().replaced, "the file was never replaced");
    assert!(t.stats().stale >= 1, "{:?}", t.stats());
}

/// Serves the tables from disk, and `file` in two versions by turns, a
/// request each (servers behind one URL whose copies differ).
struct ByTurns {
    inner: FsFetcher,
    file: &'static str,
    served: u64,
}

impl Fetcher for ByTurns {
    fn fetch(&mut self, batch: &[Request]) -> Vec<Response> {
        let served = &mut self.served;
        relabelled(&mut self.inner, batch, self.file, |_| {
            *served += 1;
            Some(if served.is_multiple_of(2) { "-b" } else { "-a" })
        })
    }
}

#[test]
fn two_versions_by_turns_are_a_clear_error_though_the_version_before_is_dropped() {
    let fetcher = ByTurns {
        inner: FsFetcher::new(vec![syzygy_path()]),
        file: "KRPvKR.rtbw",
        served: 0,
    };
    let mut t = Tablebase::new(fetcher, Config::default());
    match t.analyse(&parse("8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1")) {
        Err(ProbeError::Network(name, why)) => {
            assert_eq!(name, "KRPvKR.rtbw");
            assert!(why.contains("changed version 3 times"), "{why}");
        }
        other => panic!("expected a network error, got {other:?}"),
    }
    assert!(t.stats().rounds <= 6, "{:?}", t.stats());
}

#[test]
fn connections_are_kept_between_requests() {
    // Each range read stopped at its length, one read before the body's
    // end, which is when the HTTP client gives the connection back to its
    // pool: every request opened a connection (a TLS handshake each over
    // https), and only 3 idle ones a host were kept for 16 at once.
    let srv = server!("connections_are_kept_between_requests");
    let mut t = srv.driver();
    srv.reset();
    t.analyse(&parse("8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1"))
        .expect("answer");
    let s = srv.stats();
    // The reset's and this stats request's own connections besides.
    let (requests, connections) = (s.requests(), s.connections().saturating_sub(1));
    eprintln!("{connections} connections for {requests} requests");
    assert!(requests > 30, "{requests} requests");
    // 16 at once; slack for a connection the server closed while idle.
    assert!(
        connections * 2 <= requests,
        "{connections} connections for {requests} requests"
    );
}

/// Error answers keep their connection too: their body was never read, so
/// every 404 of a missing table and every 503 retried opened a new one.
#[test]
fn error_answers_keep_their_connection() {
    let srv = server!("error_answers_keep_their_connection");
    srv.faults(r#"{"match":"KRvK.rtbz","mode":"status","status":503,"count":2}"#);
    let mut t = srv.driver();
    let p = krvk_white_to_move();
    assert_eq!(t.probe_dtz(&p), ours().probe_dtz(&p));
    // Tables this server does not have: a 404 each.
    for fen in [
        "8/8/8/8/8/8/8/KBBBBk2 w - - 0 1",
        "8/8/8/8/8/8/8/KNNNNk2 w - - 0 1",
    ] {
        assert!(matches!(
            t.probe_wdl(&parse(fen)),
            Err(ProbeError::MissingTable(_))
        ));
    }
    let s = srv.stats();
    assert_eq!(&s.statuses_of("KRvK.rtbz")[..3], &[503, 503, 206]);
    let requests = s.requests();
    // This stats request's own connection besides.
    let connections = s.connections().saturating_sub(1);
    eprintln!("{connections} connections for {requests} requests");
    assert!(requests >= 5, "{requests} requests");
    // Requests of one round run at once: KRvK's two files open together.
    assert!(
        connections <= 2,
        "{connections} connections for {requests} requests"
    );
}

#[test]
fn a_file_that_keeps_changing_version_is_a_clear_error() {
    let srv = server!("a_file_that_keeps_changing_version_is_a_clear_error");
    let ps = krpvkr(1, 14);
    // Every request for the file sees a new ETag, as from servers behind
    // one URL whose copies differ: each change drops what was read of it.
    srv.faults(r#"{"match":"KRPvKR.rtbw","mode":"etag-change"}"#);
    let mut t = srv.driver();
    match t.analyse(&ps[0]) {
        Err(ProbeError::Network(name, why)) => {
            assert_eq!(name, "KRPvKR.rtbw");
            assert!(why.contains("changed version 3 times"), "{why}");
        }
        other => panic!("expected a network error, got {other:?}"),
    }
    // Given up after a few rounds, not after hundreds of requests.
    let requests = srv.stats().requests();
    assert!(requests <= 20, "{requests} requests");
    // Once the server serves one version, the same driver answers.
    srv.reset();
    let want = expected(&ps);
    check_all(&mut t, &ps, &want);
}

/// A host that sends an ETag on some answers and only a Last-Modified on
/// others (every second answer for the file here): the two are not
/// compared, so the file is not taken for one that keeps changing (until
/// 2026-12-02 each switch dropped its pages, and the third failed the
/// probe), and the disk cache keeps its pieces.
#[test]
fn an_etag_on_some_answers_only_is_not_a_change() {
    let srv = server!("an_etag_on_some_answers_only_is_not_a_change");
    let name = "KRPvKR.rtbw";
    // Fault k fires at the file's request 2k (each skips the k odd ones before).
    let specs: Vec<String> = (1..=40)
        .map(|k| {
            format!(
                r#"{{"match":"{name}","mode":"slow","delayMs":0,"skip":{k},"count":1,"headers":{{"ETag":null}}}}"#
            )
        })
        .collect();
    srv.faults(&format!("[{}]", specs.join(",")));
    let ps = krpvkr(8, 16);
    let want = expected(&ps);
    let cache = temp_dir("etag-flip");
    let mut t = srv.driver_with(Some(cache.clone()));
    check_all(&mut t, &ps, &want);
    let log = srv.stats().log_of(name);
    let without = srv.stats().faulted("slow");
    assert!(without >= 2 && log.len() > without, "{log:?}");
    let identity = std::fs::read_to_string(cache.join(name).join("identity")).expect("identity");
    assert!(
        identity.lines().nth(1).is_some_and(|v| v.starts_with('"')),
        "{identity}"
    );
    // Warm from the disk cache: another driver asks the server only for
    // each file's version.
    let before = log.len();
    let mut again = srv.driver_with(Some(cache.clone()));
    check_all(&mut again, &ps, &want);
    assert!(srv.stats().log_of(name).len() <= before + 1);
    println!("{name}: {before} requests, {without} without an ETag");
    let _ = std::fs::remove_dir_all(&cache);
}

// ---------------------------------------------------------------------------
// (c) The disk cache of the CLI.

fn piece_count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.filter_map(Result::ok)
            .filter(|e| e.file_name() != "identity")
            .count()
    })
}

#[test]
fn cache_dir_second_run_answers_the_same_with_fewer_bytes() {
    let srv = server!("cache_dir_second_run_answers_the_same_with_fewer_bytes");
    let cache = temp_dir("second-run");
    let input: String = ["KRPvKR", "KQRvKR", "KBBBvK"]
        .iter()
        .flat_map(|t| sample(t, 4, 13))
        .map(|p| fen(&p) + "\n")
        .collect();
    let url = srv.tables();
    let args = ["probe", "--json", "--url", &url, "--cache-dir"];
    let args: Vec<&str> = args.into_iter().chain([cache.to_str().unwrap()]).collect();
    let (first, code) = cli(&args, &input);
    assert_eq!(code, 0, "{first}");
    let first_bytes = srv.stats().bytes();
    srv.reset();
    let (second, code) = cli(&args, &input);
    assert_eq!(code, 0);
    assert_eq!(first, second);
    let second_bytes = srv.stats().bytes();
    println!("cache dir: first run {first_bytes} B, second run {second_bytes} B");
    assert!(
        second_bytes * 2 < first_bytes,
        "second run {second_bytes} B vs first {first_bytes} B"
    );
    let _ = std::fs::remove_dir_all(&cache);
}

/// `--stats` counts what crossed the network: a second run that the disk
/// cache answers in part reports the server's own request and byte counts,
/// and the rest as `fromDiskCache`.
#[test]
fn stats_count_only_network_requests_with_a_cache_dir() {
    let srv = server!("stats_count_only_network_requests_with_a_cache_dir");
    let cache = temp_dir("stats");
    let input: String = sample("KRPvKR", 6, 21)
        .iter()
        .map(|p| fen(p) + "\n")
        .collect();
    let url = srv.tables();
    let dir = cache.to_str().expect("utf-8 temp dir");
    let args = [
        "probe",
        "--json",
        "--stats",
        "--url",
        &url,
        "--cache-dir",
        dir,
    ];
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    let sums = |stderr: &[u8]| {
        let text = String::from_utf8_lossy(stderr).into_owned();
        let lines: Vec<&str> = text.lines().filter(|l| l.contains("\"fen\"")).collect();
        assert_eq!(lines.len(), 6, "{text}");
        let sum = |key: &str| -> u64 {
            lines
                .iter()
                .map(|l| number_after(l, key).expect("stats field"))
                .sum()
        };
        (
            sum("\"requests\":"),
            sum("\"bytes\":"),
            sum("\"fromDiskCache\":"),
            // Rounds of answers that needed no network: a round the disk
            // cache answered whole waited for none (until 2026-11-30 it
            // counted as one).
            lines
                .iter()
                .filter(|l| number_after(l, "\"requests\":") == Some(0))
                .map(|l| number_after(l, "\"rounds\":").expect("stats field"))
                .sum::<u64>(),
        )
    };
    for run in 0..2 {
        srv.reset();
        let out = common::cli::run_cli(&args, input.as_bytes());
        assert_eq!(out.status.code(), Some(0));
        let (requests, bytes, local, idle_rounds) = sums(&out.stderr);
        let served = srv.stats();
        println!("run {run}: {requests} requests, {bytes} B, {local} from the disk cache");
        assert_eq!(requests, served.requests(), "run {run}");
        assert_eq!(bytes, served.bytes(), "run {run}");
        if run == 0 {
            assert_eq!(local, 0);
        } else {
            assert!(local > 0, "the second run read nothing from the cache");
        }
        assert_eq!(idle_rounds, 0, "run {run}");
    }
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn a_cache_dir_answers_offline_what_it_holds() {
    // Each run asks the server for a file's current version with its first
    // request, so with the server down every FEN failed, the pages it
    // needed on disk. Now that request takes the version kept.
    let srv = server!("a_cache_dir_answers_offline_what_it_holds");
    let cache = temp_dir("offline");
    let fens: String = sample("KRPvKR", 4, 23)
        .iter()
        .map(|p| fen(p) + "\n")
        .collect();
    let url = srv.tables();
    let args = ["probe", "--json", "--url", &url, "--cache-dir"];
    let args: Vec<&str> = args.into_iter().chain([cache.to_str().unwrap()]).collect();
    let (online, code) = cli(&args, &fens);
    assert_eq!(code, 0, "{online}");
    // A server that answers, even with errors, is not overruled.
    srv.faults(r#"{"match":"*","mode":"status","status":503}"#);
    let (failing, code) = cli(&args, &fens);
    assert_eq!(code, 1, "{failing}");
    assert!(failing.contains("\"code\":\"network\""), "{failing}");
    // No server there at all (its port closed): the pages kept answer.
    drop(srv);
    let (offline, code) = cli(&args, &fens);
    assert_eq!((offline.as_str(), code), (online.as_str(), 0));
    // A host whose name has no address (as a resolver may say offline):
    // not asked again, and the pages kept answer too.
    let nameless: Vec<&str> = args
        .iter()
        .map(|&a| {
            if a == url {
                "http://no-such-host.invalid/tables/"
            } else {
                a
            }
        })
        .collect();
    let (unknown, code) = cli(&nameless, &fens);
    assert_eq!((unknown.as_str(), code), (online.as_str(), 0));
    // Read locally, and so counted by --stats: no request reached a server
    // (until 2026-12-01 the tries before it counted, less one each).
    let with_stats: Vec<&std::ffi::OsStr> = args
        .iter()
        .chain(&["--stats"])
        .map(std::ffi::OsStr::new)
        .collect();
    let out = common::cli::run_cli(&with_stats, fens.as_bytes());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 4, "{err}");
    assert!(err.lines().all(|l| l.contains("\"requests\":0,")), "{err}");
    // A position whose pages were never fetched is still an error.
    let (other, code) = cli(&args, "8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1\n");
    assert_eq!(code, 1, "{other}");
    assert!(other.contains("\"code\":\"network\""), "{other}");
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn a_cache_dir_it_cannot_write_to_is_said_and_still_answers() {
    let srv = server!("a_cache_dir_it_cannot_write_to_is_said_and_still_answers");
    // A folder no process can write to, root included (Linux).
    let dir = Path::new("/proc/self");
    if !dir.is_dir() {
        return;
    }
    let url = srv.tables();
    let fens = fen(&krpvkr(1, 21)[0]) + "\n";
    let (plain, _) = cli(&["probe", "--json", "--url", &url], &fens);
    let words = [
        "probe",
        "--json",
        "--url",
        &url,
        "--cache-dir",
        "/proc/self",
    ];
    let args: Vec<&std::ffi::OsStr> = words.iter().map(std::ffi::OsStr::new).collect();
    let out = common::cli::run_cli(&args, fens.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), plain);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: cache dir /proc/self") && err.contains("new ones are not kept"),
        "{err}"
    );
}

#[test]
fn cache_dir_is_purged_when_the_etag_changes_between_runs() {
    let srv = server!("cache_dir_is_purged_when_the_etag_changes_between_runs");
    let cache = temp_dir("etag");
    let many: String = krpvkr(10, 14).iter().map(|p| fen(p) + "\n").collect();
    let one = fen(&krpvkr(1, 15)[0]) + "\n";
    let url = srv.tables();
    let args = ["probe", "--json", "--url", &url, "--cache-dir"];
    let args: Vec<&str> = args.into_iter().chain([cache.to_str().unwrap()]).collect();
    let (first, code) = cli(&args, &many);
    assert_eq!(code, 0);
    let folder = cache.join("KRPvKR.rtbw");
    let identity = std::fs::read_to_string(folder.join("identity")).expect("identity kept");
    let pieces_before = piece_count(&folder);

    // The file changes identity before the second run.
    srv.faults(r#"{"match":"KRPvKR.rtbw","mode":"etag-change","count":1}"#);
    let (_, code) = cli(&args, &one);
    assert_eq!(code, 0);
    let identity_after = std::fs::read_to_string(folder.join("identity")).expect("identity");
    assert_ne!(identity, identity_after, "identity not updated");
    let pieces_after = piece_count(&folder);
    assert!(
        pieces_after < pieces_before,
        "old pieces kept: {pieces_after} of {pieces_before}"
    );
    // A third run under the new identity answers as the first.
    let (third, _) = cli(&args, &many);
    assert_eq!(first, third);
    let _ = std::fs::remove_dir_all(&cache);
}

// ---------------------------------------------------------------------------
// Load: a thousand FENs through one CLI process over --url.

#[test]
fn a_thousand_fens_over_url_all_answered_no_range_fetched_twice() {
    let srv = server!("a_thousand_fens_over_url_all_answered_no_range_fetched_twice");
    let names: Vec<String> = table_names().into_iter().filter(|n| n.len() >= 5).collect();
    let per = 1000usize.div_ceil(names.len());
    let fens: Vec<String> = names
        .iter()
        .flat_map(|t| sample(t, per, 4242))
        .map(|p| fen(&p))
        .take(1000)
        .collect();
    assert_eq!(fens.len(), 1000);
    let url = srv.tables();
    let (out, code) = cli(
        &["probe", "--json", "--url", &url],
        &(fens.join("\n") + "\n"),
    );
    assert_eq!(code, 0, "every FEN answered");
    assert_eq!(out.lines().count(), 1000);
    assert!(out.lines().all(|l| l.contains("\"wdl\":")));
    let stats = srv.stats();
    let log = stats.log();
    assert_eq!(
        log.len() as u64,
        stats.requests(),
        "the server's log holds every request"
    );
    let mut seen = std::collections::HashSet::new();
    for l in &log {
        if let Some(r) = &l.range {
            assert!(
                seen.insert((l.path.clone(), r.clone())),
                "{} {r} fetched twice",
                l.path
            );
        }
    }
    println!(
        "1000 FENs over HTTP: {} requests ({} logged), {:.1} MiB",
        stats.requests(),
        log.len(),
        stats.bytes() as f64 / (1 << 20) as f64
    );
}

/// The encoding of an error page says nothing of the table's: a 503 sent
/// with `Content-Encoding: gzip` is retried like any 503 (it was taken for
/// a compressed range, a fatal error).
#[test]
fn an_error_page_with_content_encoding_is_retried() {
    let srv = server!("an_error_page_with_content_encoding_is_retried");
    let ps = krpvkr(2, 5);
    let want = expected(&ps);
    srv.faults(
        r#"{"match":"KRPvKR.rtbw","mode":"status","status":503,"count":2,"headers":{"Content-Encoding":"gzip"}}"#,
    );
    let mut t = srv.driver();
    check_all(&mut t, &ps, &want);
    let statuses = srv.stats().statuses_of("KRPvKR.rtbw");
    assert_eq!(&statuses[..3], &[503, 503, 206], "{statuses:?}");
}

/// A host that answers every path with its HTML page (a single-page app's
/// fallback): the table is missing, not corrupt, and not asked again.
#[test]
fn an_html_page_for_a_table_is_a_missing_table() {
    let srv = server!("an_html_page_for_a_table_is_a_missing_table");
    srv.faults(
        r#"{"match":"KRvK.rtbz","mode":"status","status":200,"body":"<!doctype html><title>app</title>","headers":{"Content-Type":"text/html; charset=utf-8"}}"#,
    );
    let mut t = srv.driver();
    let p = krvk_white_to_move();
    let e = t.probe_dtz(&p).expect_err("no DTZ table");
    assert_eq!(e, ProbeError::MissingTable("KRvK.rtbz".into()));
    assert_eq!(srv.stats().log_of("KRvK.rtbz").len(), 1);
}

/// 429 with `Retry-After: 1`: the driver waits the second it was asked to
/// before the next request (a lower bound, not a speed measure).
#[test]
fn retry_after_is_waited_for() {
    let srv = server!("retry_after_is_waited_for");
    srv.faults(
        r#"{"match":"KRvK.rtbz","mode":"status","status":429,"count":1,"headers":{"Retry-After":"1"}}"#,
    );
    let mut t = srv.driver();
    let p = krvk_white_to_move();
    let want = ours().probe_dtz(&p);
    let started = std::time::Instant::now();
    assert_eq!(t.probe_dtz(&p), want);
    assert!(started.elapsed() >= std::time::Duration::from_millis(1000));
    let statuses = srv.stats().statuses_of("KRvK.rtbz");
    assert_eq!(&statuses[..2], &[429, 206], "{statuses:?}");
}

/// A mirror that still answers 429 after a request's retries is failing:
/// the next request there waits its Retry-After once and is asked once
/// more, not three times more (a batch of lines waited that long each).
#[test]
fn a_retry_after_from_a_failing_mirror_is_waited_once() {
    let srv = server!("a_retry_after_from_a_failing_mirror_is_waited_once");
    srv.faults(r#"{"match":".rtbw","mode":"status","status":429,"headers":{"Retry-After":"1"}}"#);
    let mut t = srv.driver();
    let first = t.probe_wdl(&parse("8/8/8/8/8/8/4P3/K6k w - - 0 1"));
    assert!(matches!(first, Err(ProbeError::Network(..))), "{first:?}");
    assert_eq!(
        srv.stats().log_of("KPvK.rtbw").len(),
        4,
        "asked with 3 retries"
    );
    match t.probe_wdl(&parse("R7/8/8/8/8/8/4P3/K6k w - - 0 1")) {
        Err(ProbeError::Network(name, why)) => {
            assert_eq!(name, "KRPvK.rtbw");
            assert!(
                why.contains("HTTP 429") && why.contains("once more after the wait"),
                "{why}"
            );
        }
        other => panic!("expected a network error, got {other:?}"),
    }
    assert_eq!(srv.stats().log_of("KRPvK.rtbw").len(), 2);
}

/// A Content-Range without the file's size (`bytes 0-10/*`) cannot be used
/// and will not change when asked again: a clear error after one request.
#[test]
fn an_unusable_content_range_is_not_retried() {
    let srv = server!("an_unusable_content_range_is_not_retried");
    srv.faults(
        r#"{"match":"KRvK.rtbz","mode":"status","status":206,"headers":{"Content-Range":"bytes 0-10/*"}}"#,
    );
    let mut t = srv.driver();
    let p = krvk_white_to_move();
    match t.probe_dtz(&p) {
        Err(ProbeError::Network(name, why)) => {
            assert_eq!(name, "KRvK.rtbz");
            assert!(why.contains("cannot use"), "{why}");
        }
        other => panic!("expected a network error, got {other:?}"),
    }
    assert_eq!(srv.stats().log_of("KRvK.rtbz").len(), 1);
}
