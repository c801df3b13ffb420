//! A simulated network over local files: no sockets, exact counts. Each
//! call to `fetch` is one round trip; latency is charged per round, as
//! parallel requests of a round overlap.

use super::fs::FsFetcher;
use super::run::{Fetcher, Request, Response};

/// What crossed the simulated network.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SimLog {
    pub rounds: u64,
    pub requests: u64,
    pub bytes: u64,
    /// Requests of each round, in order.
    pub per_round: Vec<Vec<Request>>,
    /// Simulated wall time in milliseconds (latency per round).
    pub elapsed_ms: u64,
}

pub struct SimFetcher {
    inner: FsFetcher,
    latency_ms: u64,
    pub log: SimLog,
}

impl SimFetcher {
    pub fn new(inner: FsFetcher, latency_ms: u64) -> Self {
        SimFetcher {
            inner,
            latency_ms,
            log: SimLog::default(),
        }
    }

    pub fn take_log(&mut self) -> SimLog {
        std::mem::take(&mut self.log)
    }
}

impl Fetcher for SimFetcher {
    fn fetch(&mut self, batch: &[Request]) -> Vec<Response> {
        let out = self.inner.fetch(batch);
        self.log.rounds += 1;
        self.log.requests += batch.len() as u64;
        self.log.elapsed_ms += self.latency_ms;
        for r in &out {
            if let Response::Bytes { bytes, .. } = r {
                self.log.bytes += bytes.len() as u64;
            }
        }
        self.log.per_round.push(batch.to_vec());
        out
    }
}
