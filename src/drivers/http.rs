//! Remote tables over HTTP(S) Range requests (native). Requests of a round
//! run on a pool of `PARALLEL` threads, each taking the next request as
//! soon as it is free (a native client is not held to a browser's 6
//! connections per host); each is retried with backoff on transient
//! failures; a server that ignores Range is read only as far as needed.
//! With a cache directory, pages are kept on disk under the file's
//! identity (size and validator), re-checked by each run's first request.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use super::run::{Fetcher, Request, Response, Streamed};
use crate::engine::validator_of;
use crate::ProbeError;

const RETRIES: u32 = 3;
/// Requests in flight at once. Rounds of a cold 5-piece analysis hold up
/// to ~60 requests (issue 12's promotion positions); 16 connections keep
/// them to a few waves without hammering a small static host.
const PARALLEL: usize = 16;
/// From a server that ignores Range, never read further into a file than
/// this: the browser runtime's cap (`WHOLE_BODY_LIMIT` in src/web/options.js).
pub const WHOLE_BODY_LIMIT: u64 = 32 * 1048576;

pub struct HttpFetcher {
    bases: Vec<String>,
    /// Per base: it failed a request for good (retries exhausted). Such a
    /// mirror is asked after the others, until it answers again.
    failing: Vec<AtomicBool>,
    /// Per file name: the base that last answered for it, asked first for
    /// it from then on. Mirrors' versions of a file differ in validator at
    /// least, and each switch would drop what was read of it.
    answered: Mutex<HashMap<String, usize>>,
    agent: ureq::Agent,
    cache: Option<super::disk_cache::DiskCache>,
    /// Requests and bytes the cache answered, for [`Fetcher::take_local`].
    local: (AtomicU64, AtomicU64),
    whole_body_limit: u64,
    /// Longest a try may take, its body included ([`REQUEST_TIMEOUT`]).
    request_timeout: Duration,
    /// URLs answered 403, read as absent: the error for a missing table
    /// names them (a host may deny access to a file it has).
    forbidden: Mutex<Vec<String>>,
    /// Files answered 200 (Range ignored) since the last round (see
    /// [`Fetcher::take_streamed`]).
    streamed: Mutex<Vec<Streamed>>,
    /// Requests past each one's first try, and bytes of answers not used
    /// (error pages, bodies cut short, a range's bytes before the one
    /// asked), since the last round (see
    /// [`Fetcher::take_retried`]).
    retried: (AtomicU64, AtomicU64),
    /// Files answered 206 since the last round (see [`Fetcher::take_ranged`]).
    ranged: Mutex<Vec<String>>,
    /// Files whose last answer was a 200 (Range ignored): a batch asks for
    /// each once (see [`HttpFetcher::joined`]).
    streaming: Mutex<HashSet<String>>,
    /// Requests carried by another of their file since the last round
    /// (see [`Fetcher::take_joined`]).
    joined: AtomicU64,
}

/// Outcome of one try against one base URL.
enum Try {
    Got(Response),
    NotHere,
    Retry(String),
    /// No answer at all (the connection failed or timed out): retried as
    /// `Retry`, and what lets the disk cache answer offline.
    NoAnswer(String),
    /// The resolver said the host's name has no address: no answer, as
    /// `NoAnswer` (offline, a resolver may say so), but not asked again.
    NoAddress(String),
    /// A retry the server asked to wait for (429 or 503 with Retry-After).
    RetryAfter(String, Duration),
    Fatal(String),
}

/// Idle connections kept a host: one for each request the CLI runs at once
/// (`drivers::run`'s 16).
const MAX_IDLE: usize = 16;

/// Longest a request may take, its body included.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// Longest Retry-After this driver waits before asking again.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);

impl HttpFetcher {
    pub fn new(bases: Vec<String>, cache_dir: Option<PathBuf>) -> Result<Self, String> {
        // Checked as given (an error shows the URL typed); a scheme in
        // capitals (HTTPS://) is one too.
        for b in &bases {
            check_base(&lower_scheme(b), b)?;
        }
        let bases: Vec<String> = bases.iter().map(|b| lower_scheme(b)).collect();
        let bases: Vec<String> = bases
            .into_iter()
            .map(|b| if b.ends_with('/') { b } else { format!("{b}/") })
            .collect();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            // A host that takes the connection and never answers fails in
            // half a minute, not a whole one.
            .timeout_connect(Some(Duration::from_secs(10)))
            .timeout_recv_response(Some(Duration::from_secs(30)))
            .max_redirects(5)
            // As many kept as run at once (ureq keeps 3 a host, 10 in all).
            .max_idle_connections_per_host(MAX_IDLE)
            .max_idle_connections(MAX_IDLE * bases.len())
            .build()
            .into();
        let cache = cache_dir
            .map(super::disk_cache::DiskCache::new)
            .transpose()?;
        Ok(HttpFetcher {
            failing: bases.iter().map(|_| AtomicBool::new(false)).collect(),
            answered: Mutex::new(HashMap::new()),
            bases,
            agent,
            cache,
            local: Default::default(),
            whole_body_limit: WHOLE_BODY_LIMIT,
            request_timeout: REQUEST_TIMEOUT,
            forbidden: Mutex::new(Vec::new()),
            streamed: Mutex::new(Vec::new()),
            ranged: Mutex::new(Vec::new()),
            retried: Default::default(),
            streaming: Mutex::new(HashSet::new()),
            joined: AtomicU64::new(0),
        })
    }

    /// Another cap on how far a server that ignores Range is read (tests).
    pub fn with_whole_body_limit(self, bytes: u64) -> Self {
        HttpFetcher {
            whole_body_limit: bytes,
            ..self
        }
    }

    /// Another limit on a try's time (tests).
    pub fn with_request_timeout(self, limit: Duration) -> Self {
        HttpFetcher {
            request_timeout: limit,
            ..self
        }
    }

    /// The error for a file streamed from byte 0 past the cap: `end`, the
    /// bytes that stream would have to bring, where its length is known.
    fn past_the_cap(&self, end: Option<u64>) -> String {
        let cap = self.whole_body_limit;
        let reach = match end {
            Some(end) => format!("the bytes needed end at {end}, past the {cap} bytes"),
            None => format!("the file (its length not sent) is longer than the {cap} bytes"),
        };
        format!(
            "the server ignores Range requests (it answers 200 with the whole file), and {reach} this driver will stream from such a server; serve tables from a host with Range support"
        )
    }

    fn one(&self, sent: &Sent) -> Response {
        let mut tries = 0;
        let r = self.answer(sent, &mut tries);
        // Tries past a request's first crossed the network too (retries,
        // the next mirror's turn): `--stats` counts them.
        self.retried
            .0
            .fetch_add(tries.saturating_sub(1), Ordering::Relaxed);
        r
    }

    /// [`Self::one`]'s answer, counting its tries in `tries`; the disk
    /// cache first unless it was asked already.
    fn answer(&self, sent: &Sent, tries: &mut u64) -> Response {
        let req = &sent.req;
        if !req.open && !sent.asked_disk {
            let version = req.version.as_ref().map(|(s, v)| (*s, v.as_str()));
            if let Some(r) = self.kept_on_disk(req, version) {
                return r;
            }
        }
        let mut last = String::from("no base URL");
        // The first refusal (401, a compressed body...): the next mirror is
        // asked all the same, and this is the error if none answers.
        let mut refused: Option<String> = None;
        // A mirror's last word was that the file is not there (a failed
        // try before it says nothing of the file); and whether one was
        // still failing after its retries: then, as in the browser, whether
        // the file is there is not known.
        let mut absent = false;
        let mut down: Option<String> = None;
        // The mirror that answered for this file first; then healthy
        // mirrors in the order given; failing ones last.
        let answered = self
            .answered
            .lock()
            .ok()
            .and_then(|m| m.get(&req.name).copied());
        let mut order: Vec<usize> = (0..self.bases.len()).collect();
        order.sort_by_key(|&i| (answered != Some(i), self.failing[i].load(Ordering::Relaxed)));
        // Whether any server answered this request at all (a status, even
        // an error): only where none did does the disk cache answer.
        let mut reached = false;
        for i in order {
            let url = format!("{}{}", self.bases[i], req.name);
            let mut attempt = 0;
            // A mirror still failing after its last request's retries is
            // asked once: a server down no longer costs every later request
            // (every line of a batch) its retries and their backoff. One
            // that asks for a wait (Retry-After) is asked once more after
            // it, not three times: a rate limit's window passes, and a
            // batch does not wait it out again and again.
            let failing = self.failing[i].load(Ordering::Relaxed);
            let allowed = if failing { 0 } else { RETRIES };
            loop {
                let got = self.try_once(&url, sent);
                *tries += 1;
                reached |= !matches!(got, Try::NoAnswer(_) | Try::NoAddress(_));
                let limit = match got {
                    Try::RetryAfter(..) => allowed.max(1),
                    _ => allowed,
                };
                match got {
                    Try::Got(r) => {
                        self.failing[i].store(false, Ordering::Relaxed);
                        if let Ok(mut m) = self.answered.lock() {
                            m.insert(req.name.clone(), i);
                        }
                        if let (
                            Some(cache),
                            Response::Bytes {
                                size,
                                validator,
                                bytes,
                            },
                        ) = (&self.cache, &r)
                        {
                            for (at, part) in laid_out(&sent.pieces, *size, bytes) {
                                cache.put(&req.name, *size, validator, at, part);
                            }
                        }
                        return r;
                    }
                    Try::NotHere => {
                        absent = true;
                        break;
                    }
                    Try::Fatal(why) => {
                        self.failing[i].store(true, Ordering::Relaxed);
                        refused.get_or_insert(why);
                        break;
                    }
                    Try::NoAddress(why) => {
                        self.failing[i].store(true, Ordering::Relaxed);
                        last = why.clone();
                        down.get_or_insert(why);
                        break;
                    }
                    Try::Retry(why) | Try::NoAnswer(why) | Try::RetryAfter(why, _)
                        if attempt >= limit =>
                    {
                        // The next mirror may have it.
                        last = match (failing, attempt) {
                            (true, 0) => {
                                format!("{why} (failing since an earlier request: asked once)")
                            }
                            (true, _) => format!(
                                "{why} (failing since an earlier request: asked once, and once more after the wait it asked for)"
                            ),
                            _ => format!("{why} (after {limit} retries)"),
                        };
                        self.failing[i].store(true, Ordering::Relaxed);
                        down.get_or_insert_with(|| last.clone());
                        break;
                    }
                    Try::Retry(why) | Try::NoAnswer(why) => {
                        last = why;
                        attempt += 1;
                        thread::sleep(backoff(attempt));
                    }
                    Try::RetryAfter(why, wait) => {
                        last = why;
                        attempt += 1;
                        // With another mirror to ask, no longer than the
                        // usual backoff: the next one may answer now.
                        thread::sleep(if self.bases.len() > 1 {
                            wait.min(backoff(attempt))
                        } else {
                            wait
                        });
                    }
                }
            }
        }
        let failed = match refused {
            Some(why) => why,
            // The mirror that was down says why, not a later one's
            // passing failure before its 404.
            None => match down {
                Some(why) => why,
                None if absent || last == "no base URL" => return Response::Absent,
                None => last,
            },
        };
        // No server answered at all (offline, or every mirror unreachable):
        // a file's first request of the run, which asks the server for its
        // current version, takes the version kept on disk instead, as a
        // browser's stored pages answer offline. A server that answered,
        // even with an error, is not overruled.
        if req.open && !reached {
            if let Some(r) = self.kept_on_disk(req, None) {
                // Read locally, as `--stats` counts it: no try reached a server.
                *tries = 0;
                return r;
            }
        }
        Response::Failed(failed)
    }

    /// `req`'s bytes from the disk cache, as the version `version` when
    /// given, counted as read locally.
    fn kept_on_disk(&self, req: &Request, version: Option<(u64, &str)>) -> Option<Response> {
        let r = self
            .cache
            .as_ref()?
            .get(&req.name, req.start, req.end, version)?;
        if let Response::Bytes { bytes, .. } = &r {
            self.local.0.fetch_add(1, Ordering::Relaxed);
            self.local
                .1
                .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        }
        Some(r)
    }

    /// A body that stopped arriving: retried, but not where the try's time
    /// ran out while it came (a slow link, or a server that drips): each
    /// retry would take as long again.
    fn body_failed(&self, e: std::io::Error) -> Try {
        let timeout = e.kind() == std::io::ErrorKind::TimedOut
            || e.get_ref()
                .and_then(|x| x.downcast_ref::<ureq::Error>())
                .is_some_and(|x| matches!(x, ureq::Error::Timeout(_)));
        if timeout {
            Try::Fatal(format!(
                "the answer did not arrive within {} s ({e}): a slow link, or a server that stalls",
                self.request_timeout.as_secs_f64()
            ))
        } else {
            Try::Retry(format!("body: {e}"))
        }
    }

    fn try_once(&self, url: &str, sent: &Sent) -> Try {
        let req = &sent.req;
        if req.end <= req.start {
            return Try::Fatal("empty range".into());
        }
        let range = format!("bytes={}-{}", req.start, req.end - 1);
        let resp = self
            .agent
            .get(url)
            .config()
            .timeout_global(Some(self.request_timeout))
            .build()
            .header("Range", &range)
            .header("Accept-Encoding", "identity")
            .call();
        let mut resp = match resp {
            Ok(r) => r,
            // Asking again follows the same redirects, finds the same
            // certificate, and (within a run) no address for the name.
            Err(
                e @ (ureq::Error::TooManyRedirects
                | ureq::Error::HostNotFound
                | ureq::Error::Tls(_)
                | ureq::Error::Rustls(_)
                | ureq::Error::TlsRequired),
            ) => return Try::Fatal(format!("{e}")),
            // A TLS error (a certificate refused) comes as I/O's InvalidData:
            // asking again meets the same certificate.
            Err(ureq::Error::Io(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                return Try::Fatal(format!("network error: {e}"))
            }
            // The resolver said the name has no address: so it says again
            // (where it could not answer, a "temporary failure", it is asked again).
            Err(ureq::Error::Io(e)) if unknown_name(&e) => {
                return Try::NoAddress(format!(
                    "network error: {e}: the host's name has no address (check the URL)"
                ))
            }
            Err(e) => return Try::NoAnswer(format!("network error: {e}")),
        };
        let status = resp.status().as_u16();
        if status != 200 && status != 206 {
            let n = drain(&mut resp);
            self.retried.1.fetch_add(n, Ordering::Relaxed);
        }
        let header = |name: &str| {
            resp.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let validator = validator_of(
            header("etag").as_deref(),
            header("last-modified").as_deref(),
        );
        if status == 200 || status == 206 {
            // A host that answers every path with its HTML page (a
            // single-page app's fallback) has no such table.
            if header("content-type")
                .is_some_and(|t| t.trim_start().to_ascii_lowercase().starts_with("text/html"))
            {
                return Try::NotHere;
            }
            // The encoding of an error page says nothing of the table's.
            // (Its names are case-insensitive; an empty one names none.)
            if let Some(enc) = header("content-encoding")
                .filter(|e| !e.trim().is_empty() && !e.trim().eq_ignore_ascii_case("identity"))
            {
                return Try::Fatal(format!("server applied Content-Encoding {enc} to a range"));
            }
        }
        match status {
            206 => {
                let Some(cr) = header("content-range") else {
                    return Try::Fatal("206 without Content-Range".into());
                };
                let Some((a, b, size)) = parse_content_range(&cr) else {
                    return Try::Fatal(format!(
                        "206 with a Content-Range this client cannot use ({cr}): it must name the range and the file's size"
                    ));
                };
                let want_end = req.end.min(size);
                // A server may send more than the range asked (RFC 9110),
                // its Content-Range saying what: one that starts earlier
                // is read from its start, and cut, where what comes before
                // the range is no more than a server that ignores Range
                // may stream.
                // `b < size` first: then `b + 1` cannot overflow.
                let fits = req.start.checked_sub(a).is_some_and(|skip| {
                    skip <= self.whole_body_limit && b < size && b + 1 >= want_end
                });
                if !fits {
                    return Try::Retry(format!("Content-Range {cr} does not match {range}"));
                }
                // Only what was asked: a range claimed far longer is not
                // read into memory.
                let len = want_end - a;
                // The pieces asked, counted from the answer's first byte:
                // what comes before the range is a gap like those between
                // a joined request's pieces, dropped as it arrives.
                let from_a: Vec<(u64, u64)> = sent
                    .pieces
                    .iter()
                    .map(|&(p, q)| (p.saturating_sub(a), q.saturating_sub(a)))
                    .collect();
                let mut bytes = Vec::new();
                let mut body = resp.body_mut().as_reader();
                let got = match read_pieces(&mut (&mut body).take(len), &from_a, &mut bytes) {
                    Ok(got) => got,
                    Err(e) => return self.body_failed(e),
                };
                // The body's end is seen only by a read past its last byte,
                // and only then does the connection go back to the pool
                // (else every request opened one: a TLS handshake each). A
                // body longer than asked is left, and its connection closed.
                if b + 1 == want_end {
                    let _ = body.read(&mut [0u8; 1]);
                }
                if got < len {
                    self.retried.1.fetch_add(got, Ordering::Relaxed);
                    return Try::Retry(format!("truncated body: {got} of {len} bytes"));
                }
                if let Ok(mut s) = self.streaming.lock() {
                    s.remove(&req.name);
                }
                if let Ok(mut r) = self.ranged.lock() {
                    if !r.contains(&req.name) {
                        r.push(req.name.clone());
                    }
                }
                self.retried
                    .1
                    .fetch_add(got - bytes.len() as u64, Ordering::Relaxed);
                Try::Got(Response::Bytes {
                    size,
                    validator,
                    bytes,
                })
            }
            200 => {
                // Range ignored: read only up to what was asked, then drop
                // the connection; past the cap, read nothing. Only the
                // pieces asked are kept, the bytes around them dropped as
                // they arrive: a stream holds in memory what a server that
                // honours Range would have sent, not the file up to there.
                // A stream sent without its length (chunked) tells the
                // file's size only at its end: it is read whole, within the cap.
                let length = header("content-length").and_then(|v| v.parse::<u64>().ok());
                let read_to = match length {
                    Some(size) => req.end.min(size),
                    None => self.whole_body_limit.saturating_add(1),
                };
                if length.is_some() && read_to > self.whole_body_limit {
                    return Try::Fatal(self.past_the_cap(Some(read_to)));
                }
                let mut body = resp.body_mut().as_reader().take(read_to);
                let mut bytes = Vec::new();
                let r = read_pieces(&mut body, &sent.pieces, &mut bytes);
                // The reason, when there is one (the 60 s limit on a slow link).
                let got = match r {
                    Ok(got) => got,
                    Err(e) => return self.body_failed(e),
                };
                let size = match length {
                    Some(size) => size,
                    None if got > self.whole_body_limit => {
                        return Try::Fatal(self.past_the_cap(None));
                    }
                    None => got,
                };
                let want_end = req.end.min(size);
                if got < want_end {
                    self.retried.1.fetch_add(got, Ordering::Relaxed);
                    return Try::Retry(format!("truncated body: {got} of {want_end} bytes"));
                }
                if let Ok(mut s) = self.streaming.lock() {
                    s.insert(req.name.clone());
                }
                if let Ok(mut s) = self.streamed.lock() {
                    s.push(Streamed {
                        name: req.name.clone(),
                        unasked: got - bytes.len() as u64,
                    });
                }
                Try::Got(Response::Bytes {
                    size,
                    validator,
                    bytes,
                })
            }
            404 | 410 => Try::NotHere,
            // What S3-style hosts answer for a missing key to a client
            // without list rights.
            403 => {
                if let Ok(mut f) = self.forbidden.lock() {
                    if !f.iter().any(|u| u == url) {
                        f.push(url.to_string());
                    }
                }
                Try::NotHere
            }
            // The file ends before the range starts: its size is news
            // (an empty file, or one replaced by a shorter one), not a fault
            // that asking again would mend.
            416 => match header("content-range").and_then(|v| unsatisfied_size(&v)) {
                Some(size) if size <= req.start => Try::Got(Response::Bytes {
                    size,
                    validator,
                    bytes: Vec::new(),
                }),
                _ => Try::Retry("range not satisfiable (416)".into()),
            },
            s if s == 429 || s == 503 => {
                match header("retry-after").and_then(|v| retry_after(&v)) {
                    Some(wait) => Try::RetryAfter(format!("HTTP {s}"), wait.min(MAX_RETRY_AFTER)),
                    None => Try::Retry(format!("HTTP {s}")),
                }
            }
            s if s >= 500 || s == 408 => Try::Retry(format!("HTTP {s}")),
            s => Try::Fatal(format!("HTTP {s}")),
        }
    }
}

/// Reads an error answer's body to its end, when that is near: only then
/// does its connection go back to the pool (else every 404 of a missing
/// table, every 503 retried, opened a new one: a TLS handshake each). One
/// that comes slowly (a server in distress dripping its error page) is
/// left after [`ERROR_BODY_TIME`], its connection closed: the try's
/// answer is known, and the whole try's time would go to the page.
fn drain(resp: &mut ureq::http::Response<ureq::Body>) -> u64 {
    let started = Instant::now();
    let mut body = resp.body_mut().as_reader().take(ERROR_BODY_READ);
    let mut buf = [0u8; 8192];
    let mut read = 0u64;
    while started.elapsed() < ERROR_BODY_TIME {
        match body.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => read += n as u64,
        }
    }
    read
}

/// Whether an I/O error is the resolver's answer that a name has no
/// address, which std gives no kind of its own: glibc's and musl's "Name
/// or service not known", macOS's "nodename nor servname provided, or not
/// known", Windows' "No such host is known".
fn unknown_name(e: &std::io::Error) -> bool {
    let m = e.to_string();
    m.contains("failed to lookup address information")
        && (m.contains("not known") || m.contains("No such host"))
}

/// How much of an error answer's body is read to keep its connection.
const ERROR_BODY_READ: u64 = 64 * 1024;

/// How long an error answer's body is read for (see [`drain`]).
const ERROR_BODY_TIME: Duration = Duration::from_secs(1);

/// The wait before try `attempt` + 1 (from 1): 200 ms, then four times as long.
fn backoff(attempt: u32) -> Duration {
    Duration::from_millis(50 << (2 * attempt))
}

/// The wait a Retry-After header asks for, in its seconds form; its date
/// form (rare on rate limits) reads as no wait asked.
fn retry_after(v: &str) -> Option<Duration> {
    v.trim().parse::<u64>().ok().map(Duration::from_secs)
}

/// A URL as messages show it: without a user name and password in it
/// (`https://user:secret@host/`), which the answers' JSON would print.
fn shown(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let end = rest.find('/').unwrap_or(rest.len());
    match rest[..end].rfind('@') {
        Some(at) => format!("{scheme}://{}", &rest[at + 1..]),
        None => url.to_string(),
    }
}

/// `url` with its scheme, when it is http or https in any case, in lower case.
fn lower_scheme(url: &str) -> String {
    for scheme in ["http://", "https://"] {
        if let Some(head) = url.get(..scheme.len()) {
            if head.eq_ignore_ascii_case(scheme) {
                return format!("{scheme}{}", &url[scheme.len()..]);
            }
        }
    }
    url.to_string()
}

/// A base URL requests can be made under: http(s), a host, a valid port.
/// Messages name it as `typed` (its scheme's case kept), without its
/// credentials.
fn check_base(url: &str, typed: &str) -> Result<(), String> {
    let b = shown(typed);
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(format!("--url must start with http:// or https://: {b}"));
    }
    let uri: ureq::http::Uri = url
        .parse()
        .map_err(|e| format!("--url is not a valid URL ({e}): {b}"))?;
    let Some(authority) = uri.authority().filter(|a| !a.host().is_empty()) else {
        return Err(format!("--url names no host: {b}"));
    };
    // Table names go after the base: under a query or fragment every file
    // would name the same resource.
    if uri.query().is_some() || url.contains('#') {
        return Err(format!(
            "--url must be a folder, with no query (?) or fragment (#): {b}"
        ));
    }
    // What follows the host, past any user info: a port, if any, of 16 bits.
    let after_user = authority.as_str().rsplit('@').next().unwrap_or_default();
    let port = after_user.strip_prefix(authority.host());
    if port
        .and_then(|p| p.get(1..))
        .is_some_and(|d| !d.is_empty() && d.parse::<u16>().is_err())
    {
        return Err(format!("--url has an invalid port: {b}"));
    }
    Ok(())
}

/// A 416's `bytes */size` to the size.
fn unsatisfied_size(v: &str) -> Option<u64> {
    v.trim().strip_prefix("bytes */")?.trim().parse().ok()
}

/// `bytes a-b/size` to (a, b, size).
pub fn parse_content_range(v: &str) -> Option<(u64, u64, u64)> {
    let rest = v.trim().strip_prefix("bytes ")?;
    let (range, size) = rest.split_once('/')?;
    let (a, b) = range.split_once('-')?;
    let (a, b, size) = (
        a.trim().parse().ok()?,
        b.trim().parse().ok()?,
        size.trim().parse().ok()?,
    );
    (a <= b).then_some((a, b, size))
}

impl HttpFetcher {
    /// `batch` as sent: the requests of a file whose server ignores Range
    /// (each would stream the file from byte 0) joined into one from the
    /// first one's start to the last one's end, keeping their pieces only,
    /// the others (by their index in `batch`) answered from it; those the
    /// disk cache holds are answered from it first.
    /// A range past the streaming cap is sent alone (it fails alone).
    fn joined(&self, batch: &[Request]) -> (Vec<Sent>, Vec<Carried>) {
        let streaming = self.streaming.lock().map(|s| s.clone()).unwrap_or_default();
        let mut sent: Vec<Sent> = Vec::with_capacity(batch.len());
        let mut carried = Vec::with_capacity(batch.len());
        let mut by_file: HashMap<&str, usize> = HashMap::new();
        let alone = |req: &Request, asked_disk| Sent {
            req: req.clone(),
            asked_disk,
            pieces: vec![(req.start, req.end)],
        };
        for req in batch {
            if req.open || req.end > self.whole_body_limit || !streaming.contains(&req.name) {
                carried.push(Carried::By(sent.len()));
                sent.push(alone(req, false));
                continue;
            }
            let version = req.version.as_ref().map(|(s, v)| (*s, v.as_str()));
            if let Some(r) = self.kept_on_disk(req, version) {
                carried.push(Carried::Ready(r));
                continue;
            }
            let k = match by_file.get(req.name.as_str()) {
                Some(&k) => {
                    let s = &mut sent[k];
                    (s.req.start, s.req.end) = (s.req.start.min(req.start), s.req.end.max(req.end));
                    s.pieces.push((req.start, req.end));
                    self.joined.fetch_add(1, Ordering::Relaxed);
                    k
                }
                None => {
                    by_file.insert(&req.name, sent.len());
                    sent.push(alone(req, true));
                    sent.len() - 1
                }
            };
            carried.push(Carried::By(k));
        }
        for s in &mut sent {
            s.pieces = merged(std::mem::take(&mut s.pieces));
        }
        (sent, carried)
    }

    /// Runs `batch` on up to [`PARALLEL`] threads, each taking the next
    /// request as soon as it is free; the disk cache is not asked again
    /// for those marked asked.
    fn run_all(&self, batch: &[Sent]) -> Vec<Response> {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let slots: Vec<std::sync::Mutex<Option<Response>>> =
            batch.iter().map(|_| std::sync::Mutex::new(None)).collect();
        let this = self;
        let work = || loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(sent) = batch.get(i) else {
                break;
            };
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| this.one(sent)))
                .unwrap_or_else(|_| Response::Failed("fetch thread failed".into()));
            if let Ok(mut slot) = slots[i].lock() {
                *slot = Some(r);
            }
        };
        thread::scope(|s| {
            // This thread fetches too: threads the system refuses to start
            // (a process limit) leave fewer connections, not a panic.
            for _ in 1..PARALLEL.min(batch.len()) {
                if thread::Builder::new().spawn_scoped(s, work).is_err() {
                    break;
                }
            }
            work();
        });
        slots
            .into_iter()
            .map(|m| {
                m.into_inner()
                    .ok()
                    .flatten()
                    .unwrap_or_else(|| Response::Failed("fetch thread failed".into()))
            })
            .collect()
    }
}

/// A request as sent: the ranges it carries (`pieces`, sorted, apart),
/// and whether the disk cache was asked for it already.
struct Sent {
    req: Request,
    asked_disk: bool,
    pieces: Vec<(u64, u64)>,
}

/// How a request of a batch is answered: by a request sent (its index in
/// what [`HttpFetcher::joined`] sends), or already.
enum Carried {
    By(usize),
    Ready(Response),
}

/// `pieces` sorted, those that touch or overlap made one, empty ones left out.
fn merged(mut pieces: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    pieces.retain(|&(a, b)| a < b);
    pieces.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(pieces.len());
    for (a, b) in pieces {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// Reads `body` (a file from byte 0) to its end, keeping the bytes of
/// `pieces` (sorted, apart) in `out`, one after another; the bytes read.
fn read_pieces(
    body: &mut impl Read,
    pieces: &[(u64, u64)],
    out: &mut Vec<u8>,
) -> std::io::Result<u64> {
    let mut at = 0;
    for &(a, b) in pieces {
        at += std::io::copy(
            &mut (&mut *body).take(a.saturating_sub(at)),
            &mut std::io::sink(),
        )?;
        if at < a {
            return Ok(at);
        }
        at += (&mut *body).take(b.saturating_sub(a)).read_to_end(out)? as u64;
        if at < b {
            return Ok(at);
        }
    }
    Ok(at + std::io::copy(body, &mut std::io::sink())?)
}

/// Where each piece's bytes lie in an answer laid out by [`read_pieces`]
/// for a file of `size` bytes: (its start in the file, its bytes).
fn laid_out<'a>(
    pieces: &'a [(u64, u64)],
    size: u64,
    bytes: &'a [u8],
) -> impl Iterator<Item = (u64, &'a [u8])> + 'a {
    let mut at = 0usize;
    pieces.iter().map(move |&(a, b)| {
        let len = usize::try_from(b.min(size).saturating_sub(a)).unwrap_or(usize::MAX);
        let from = at.min(bytes.len());
        at = at.saturating_add(len);
        (a, &bytes[from..at.min(bytes.len())])
    })
}

/// The part `[start, end)` of `r`, an answer laid out by [`read_pieces`]:
/// the piece that holds `start` holds the part.
fn part_of(r: &Response, pieces: &[(u64, u64)], start: u64, end: u64) -> Response {
    match r {
        Response::Bytes {
            size,
            validator,
            bytes,
        } => {
            let part = laid_out(pieces, *size, bytes)
                .find(|(a, piece)| *a <= start && start <= a + piece.len() as u64)
                .map(|(a, piece)| {
                    let at =
                        |x: u64| usize::try_from(x - a).map_or(piece.len(), |x| x.min(piece.len()));
                    piece[at(start)..at(end.max(start))].to_vec()
                })
                .unwrap_or_default();
            Response::Bytes {
                size: *size,
                validator: validator.clone(),
                bytes: part,
            }
        }
        other => other.clone(),
    }
}

impl Fetcher for HttpFetcher {
    fn fetch(&mut self, batch: &[Request]) -> Vec<Response> {
        let (sent, carried) = self.joined(batch);
        let mut answers: Vec<Option<Response>> =
            self.run_all(&sent).into_iter().map(Some).collect();
        // A request carrying one range hands its answer on as it is.
        let mut carrying = vec![0usize; sent.len()];
        for c in &carried {
            if let Carried::By(k) = c {
                carrying[*k] += 1;
            }
        }
        batch
            .iter()
            .zip(carried)
            .map(|(req, c)| match c {
                Carried::Ready(r) => r,
                Carried::By(k) if carrying[k] == 1 => answers[k]
                    .take()
                    .unwrap_or_else(|| Response::Failed("answer handed on twice".into())),
                Carried::By(k) => {
                    let Some(a) = &answers[k] else {
                        return Response::Failed("answer handed on twice".into());
                    };
                    part_of(a, &sent[k].pieces, req.start, req.end)
                }
            })
            .collect()
    }

    fn connections(&self) -> u64 {
        PARALLEL as u64
    }

    /// A missing table's error, naming the URLs of its file that answered
    /// 403 Forbidden (absent on an S3-style host, or access denied).
    fn explain(&self, e: ProbeError) -> ProbeError {
        let ProbeError::MissingTable(name) = e else {
            return e;
        };
        let suffix = format!("/{name}");
        let urls: Vec<String> = self
            .forbidden
            .lock()
            .map(|f| {
                f.iter()
                    .filter(|u| u.ends_with(&suffix))
                    .map(|u| shown(u))
                    .collect()
            })
            .unwrap_or_default();
        if urls.is_empty() {
            return ProbeError::MissingTable(name);
        }
        ProbeError::MissingTable(format!(
            "{name} ({} answered 403 Forbidden: absent on an S3-style host, or access denied)",
            urls.join(", ")
        ))
    }

    fn take_streamed(&mut self) -> Vec<Streamed> {
        self.streamed
            .lock()
            .map(|mut s| std::mem::take(&mut *s))
            .unwrap_or_default()
    }

    fn take_retried(&mut self) -> (u64, u64) {
        (
            self.retried.0.swap(0, Ordering::Relaxed),
            self.retried.1.swap(0, Ordering::Relaxed),
        )
    }

    fn take_ranged(&mut self) -> Vec<String> {
        self.ranged
            .lock()
            .map(|mut r| std::mem::take(&mut *r))
            .unwrap_or_default()
    }

    fn take_joined(&mut self) -> u64 {
        self.joined.swap(0, Ordering::Relaxed)
    }

    fn take_local(&mut self) -> (u64, u64) {
        (
            self.local.0.swap(0, Ordering::Relaxed),
            self.local.1.swap(0, Ordering::Relaxed),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{merged, part_of, read_pieces, HttpFetcher};
    use crate::drivers::run::Response;

    /// A joined request's pieces, read from a stream of the whole file or
    /// from a 206's span, give each range it carries its own bytes, and
    /// hold no byte between them.
    #[test]
    fn a_joined_answer_keeps_its_pieces_only() {
        let file: Vec<u8> = (0..100u8).collect();
        let asked = [(40, 50), (10, 20), (15, 25), (90, 120)];
        let pieces = merged(asked.to_vec());
        assert_eq!(pieces, vec![(10, 25), (40, 50), (90, 120)]);
        assert_eq!(merged(vec![(5, 10), (10, 12), (20, 20)]), vec![(5, 12)]);
        let mut kept = Vec::new();
        let read = read_pieces(&mut &file[..], &pieces, &mut kept).unwrap();
        assert_eq!(read, 100);
        assert_eq!(kept.len(), 15 + 10 + 10);
        // A 206 from byte 4: the pieces counted from there.
        let from_4: Vec<(u64, u64)> = pieces.iter().map(|&(a, b)| (a - 4, b - 4)).collect();
        let mut span = Vec::new();
        assert_eq!(
            read_pieces(&mut &file[4..], &from_4, &mut span).unwrap(),
            96
        );
        assert_eq!(span, kept);
        let answer = Response::Bytes {
            size: 100,
            validator: String::new(),
            bytes: kept,
        };
        for (a, b) in asked {
            let Response::Bytes { bytes, .. } = part_of(&answer, &pieces, a, b) else {
                panic!("bytes");
            };
            assert_eq!(bytes, file[a as usize..(b as usize).min(100)], "{a}..{b}");
        }
        // A stream cut short stops where it ends, its bytes kept so far.
        let mut short = Vec::new();
        assert_eq!(
            read_pieces(&mut &file[..45], &pieces, &mut short).unwrap(),
            45
        );
        assert_eq!(short, [&file[10..25], &file[40..45]].concat());
    }

    #[test]
    fn bases_are_checked_as_typed_with_schemes_in_any_case() {
        for url in ["HTTPS://example.org/tables", "Http://example.org:8080/t/"] {
            assert!(HttpFetcher::new(vec![url.into()], None).is_ok(), "{url}");
        }
        // The message shows the URL as typed, not with a `/` added.
        for (url, says) in [
            ("ftp://h/t/", "must start with http:// or https://"),
            ("http://h/t/#x", "no query (?) or fragment (#)"),
            ("http://h/t?q=1", "no query (?) or fragment (#)"),
            ("http://h:99999/t", "invalid port"),
            ("http:///t", "not a valid URL"),
            ("HTTP://h:99999/t", "invalid port"),
        ] {
            let Err(e) = HttpFetcher::new(vec![url.into()], None) else {
                panic!("{url} accepted");
            };
            assert!(
                e.contains(says) && e.ends_with(&format!(": {url}")),
                "{url}: {e}"
            );
        }
    }
}
