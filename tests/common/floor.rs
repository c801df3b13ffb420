//! How few single-range requests could carry what a probe read, and at
//! what cost in bytes: a floor under any driver, even one told every
//! offset in advance (a real one learns where a block lies from the
//! file's own index, a round later).
//!
//! Each request fetches one range of one file. Requests for the spans a
//! probe read can only be fewer than the runs of those spans if a request
//! also carries the gap between two runs; joining at one gap saves one
//! request whichever others are joined, so the cheapest way to save k
//! requests is to pay for the k smallest gaps.

use std::collections::BTreeMap;

use shakmaty::Chess;
use syzygy_web::drivers::{SimFetcher, SimLog, Tablebase};
use syzygy_web::engine::ReadSpan;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Floor {
    /// Files read.
    pub files: u64,
    /// Runs of bytes read (touching or overlapping spans joined).
    pub runs: u64,
    /// Bytes in those runs.
    pub bytes: u64,
    /// Bytes between consecutive runs of one file, smallest first.
    gaps: Vec<u64>,
}

impl Floor {
    pub fn of(spans: &[ReadSpan]) -> Floor {
        let mut by_file: BTreeMap<u32, Vec<(u64, u64)>> = BTreeMap::new();
        for s in spans.iter().filter(|s| s.end > s.start) {
            by_file.entry(s.file).or_default().push((s.start, s.end));
        }
        let (mut runs, mut bytes, mut gaps) = (0, 0, Vec::new());
        for v in by_file.values_mut() {
            v.sort_unstable();
            let mut joined: Vec<(u64, u64)> = Vec::new();
            for &(a, b) in v.iter() {
                match joined.last_mut() {
                    Some(last) if a <= last.1 => last.1 = last.1.max(b),
                    _ => joined.push((a, b)),
                }
            }
            gaps.extend(joined.windows(2).map(|w| w[1].0 - w[0].1));
            runs += joined.len() as u64;
            bytes += joined.iter().map(|(a, b)| b - a).sum::<u64>();
        }
        gaps.sort_unstable();
        Floor {
            files: by_file.len() as u64,
            runs,
            bytes,
            gaps,
        }
    }

    /// The fewest bytes `requests` single-range requests can carry it in
    /// (fewer requests need more bytes); `None` below one request a file.
    pub fn bytes_for(&self, requests: u64) -> Option<u64> {
        if requests < self.files {
            return None;
        }
        let joins = self.runs.saturating_sub(requests) as usize;
        Some(self.bytes + self.gaps[..joins].iter().sum::<u64>())
    }

    /// The fewest single-range requests that carry it within `budget` bytes.
    pub fn requests_within(&self, budget: u64) -> Option<u64> {
        let mut bytes = self.bytes;
        if bytes > budget {
            return None;
        }
        let mut requests = self.runs;
        for g in &self.gaps {
            if bytes + g > budget {
                break;
            }
            bytes += g;
            requests -= 1;
        }
        Some(requests)
    }
}

/// A cold analysis of `p` by `t` (tables not yet opened), then the same
/// analysis warm with the read log on: what crossed the network, and the
/// spans the warm analysis read (what the decoder needs).
pub fn cold_then_warm(t: &mut Tablebase<SimFetcher>, p: &Chess) -> (SimLog, Vec<ReadSpan>) {
    t.analyse(p).expect("answer");
    let log = t.fetcher_mut().take_log();
    t.engine().log_reads(true);
    t.analyse(p).expect("answer");
    (log, t.engine().take_read_log())
}
