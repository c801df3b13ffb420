//! Round trips, requests and bytes of cold probes on the simulated network,
//! beside the naive design (one request per read, in sequence) on the same
//! positions. Run: `cargo bench --bench rounds`.

#[path = "../tests/common/mod.rs"]
mod common;

use common::floor::{cold_then_warm, Floor};
use common::*;
use shakmaty::Chess;
use syzygy_web::drivers::{FsFetcher, SimFetcher, Tablebase};
use syzygy_web::Config;

const LATENCY_MS: u64 = 80;

fn sim() -> Tablebase<SimFetcher> {
    Tablebase::new(
        SimFetcher::new(FsFetcher::new(vec![syzygy_path()]), LATENCY_MS),
        Config::default(),
    )
}

#[derive(Default)]
struct Figures {
    rounds: Vec<u64>,
    requests: Vec<u64>,
    bytes: Vec<u64>,
    waves: Vec<u64>,
    /// Requests and waves were each round's ranges of one file asked in
    /// one request (multipart/byteranges, where a server offers it).
    joined: Vec<u64>,
    joined_waves: Vec<u64>,
    naive_reads: Vec<u64>,
    naive_bytes: Vec<u64>,
}

fn median_worst(v: &mut [u64]) -> (u64, u64) {
    v.sort_unstable();
    (
        v.get(v.len() / 2).copied().unwrap_or(0),
        v.last().copied().unwrap_or(0),
    )
}

impl Figures {
    fn add(&mut self, t: &mut Tablebase<SimFetcher>) {
        let log = t.fetcher_mut().take_log();
        let (reads, bytes) = t.engine().last_reads();
        self.rounds.push(log.rounds);
        self.requests.push(log.requests);
        self.bytes.push(log.bytes);
        self.waves.push(log.waves);
        let files = |round: &Vec<syzygy_web::drivers::Request>| {
            let mut names: Vec<&str> = round.iter().map(|r| r.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            names.len() as u64
        };
        self.joined.push(log.per_round.iter().map(files).sum());
        self.joined_waves.push(
            log.per_round
                .iter()
                .map(|r| files(r).div_ceil(syzygy_web::drivers::BROWSER_CONNECTIONS))
                .sum(),
        );
        self.naive_reads.push(reads);
        self.naive_bytes.push(bytes);
    }

    fn print(&mut self, what: &str) {
        let n = self.rounds.len();
        let (r, rw) = median_worst(&mut self.rounds);
        let (q, qw) = median_worst(&mut self.requests);
        let (b, bw) = median_worst(&mut self.bytes);
        let (nr, nrw) = median_worst(&mut self.naive_reads);
        let (nb, nbw) = median_worst(&mut self.naive_bytes);
        let (w, ww) = median_worst(&mut self.waves);
        let (j, jw) = median_worst(&mut self.joined);
        let (jv, jvw) = median_worst(&mut self.joined_waves);
        println!(
            "{what:<34} n={n:<4} rounds {r}/{rw}  requests {q}/{qw}  waves {w}/{ww}  KiB {:.1}/{:.1}  | a request a file a round: requests {j}/{jw} waves {jv}/{jvw}  | naive rounds {nr}/{nrw}  KiB {:.1}/{:.1}  | at {LATENCY_MS} ms: {} ms vs naive {} ms",
            b as f64 / 1024.0,
            bw as f64 / 1024.0,
            nb as f64 / 1024.0,
            nbw as f64 / 1024.0,
            r * LATENCY_MS,
            nr * LATENCY_MS
        );
    }
}

fn positions(pieces: usize, per_table: usize) -> Vec<Chess> {
    table_names()
        .into_iter()
        .filter(|n| n.len() == pieces + 1)
        .flat_map(|n| sample(&n, per_table, 2026))
        .collect()
}

fn main() {
    println!(
        "median/worst per probe; naive = one sequential request per read of a synchronous prober"
    );
    for pieces in [4, 5] {
        let set = positions(pieces, 10);
        let mut f = Figures::default();
        for p in &set {
            let mut t = sim();
            let _ = t.probe_wdl(p);
            f.add(&mut t);
        }
        f.print(&format!("{pieces}-piece WDL, fresh tables"));

        let mut f = Figures::default();
        let mut t = sim();
        for (i, p) in set.iter().enumerate() {
            let _ = t.probe_wdl(p);
            t.fetcher_mut().take_log();
            // Another position of the same material: headers cached.
            let q = sample(&material_name(p), 1, 1000 + i as u64)
                .pop()
                .unwrap_or_else(|| p.clone());
            let _ = t.probe_wdl(&q);
            f.add(&mut t);
        }
        f.print(&format!("{pieces}-piece WDL, header cached"));

        let mut f = Figures::default();
        for p in &set {
            let mut t = sim();
            let _ = t.probe_dtz(p);
            f.add(&mut t);
        }
        f.print(&format!("{pieces}-piece WDL+DTZ, fresh tables"));

        let mut f = Figures::default();
        for p in &set {
            let mut t = sim();
            let _ = t.analyse(p);
            f.add(&mut t);
        }
        f.print(&format!("{pieces}-piece root analysis, fresh"));

        let mut f = Figures::default();
        for p in &set {
            let mut t = sim();
            let _ = t.analyse(p);
            t.fetcher_mut().take_log();
            let _ = t.analyse(p);
            f.add(&mut t);
        }
        f.print(&format!("{pieces}-piece root analysis, warm"));
    }
    floors();
}

/// Cold root analyses beside their floor (`common::floor`): how few
/// single-range requests could carry what each reads, within issue 12's
/// 800 KiB, and how many bytes 40 requests would take.
fn floors() {
    println!("\ncold root analysis beside its floor (one range a request, every offset known in advance)");
    let promotions = [
        "8/4P2K/8/8/5Q2/q7/6k1/8 w - - 0 1",
        "8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1",
    ];
    let mut set: Vec<(String, Chess)> = promotions
        .iter()
        .map(|f| (f.to_string(), parse(f)))
        .collect();
    set.extend(positions(5, 2).into_iter().map(|p| (String::new(), p)));
    let mut within = Vec::new();
    for (name, p) in &set {
        let (log, spans) = cold_then_warm(&mut sim(), p);
        let floor = Floor::of(&spans);
        let fewest = floor.requests_within(800 << 10).unwrap_or(u64::MAX);
        within.push(fewest);
        if !name.is_empty() {
            println!(
                "  {name}: ours {} requests, {} KiB; reads {} KiB in {} runs of {} files; within 800 KiB at least {fewest} requests; 40 requests at least {} KiB",
                log.requests,
                log.bytes >> 10,
                floor.bytes >> 10,
                floor.runs,
                floor.files,
                floor.bytes_for(40).map_or(0, |b| b >> 10),
            );
        }
    }
    let (m, w) = median_worst(&mut within);
    println!("  over {} positions (these and 2 per 5-piece table): fewest requests within 800 KiB, median {m}, worst {w}", set.len());
}

fn material_name(p: &Chess) -> String {
    use shakmaty::Position;
    syzygy_web::material::Material::of(&p.board().material()).name
}
