//! A simulated network over local files: no sockets, exact counts. Each
//! call to `fetch` is one round trip; latency is charged per round, as
//! parallel requests of a round overlap. Waves count what a browser over
//! HTTP/1.1 feels: it runs at most [`BROWSER_CONNECTIONS`] requests to a
//! host at once, so a round of n requests waits for ceil(n / 6) answers in
//! sequence; over HTTP/2 ([`SimFetcher::multiplexed`]) a round is a wave.

use super::fs::FsFetcher;
use super::run::{Fetcher, Request, Response};

/// Connections per host of a browser over HTTP/1.1 (Chromium, Firefox, Safari).
pub const BROWSER_CONNECTIONS: u64 = 6;

/// What crossed the simulated network.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SimLog {
    pub rounds: u64,
    pub requests: u64,
    pub bytes: u64,
    /// Sequential waves of at most [`BROWSER_CONNECTIONS`] requests.
    pub waves: u64,
    /// Requests of each round, in order.
    pub per_round: Vec<Vec<Request>>,
    /// Simulated wall time in milliseconds (latency per wave).
    pub elapsed_ms: u64,
}

pub struct SimFetcher {
    inner: FsFetcher,
    latency_ms: u64,
    /// Requests that run at once.
    connections: u64,
    pub log: SimLog,
}

impl SimFetcher {
    pub fn new(inner: FsFetcher, latency_ms: u64) -> Self {
        SimFetcher {
            inner,
            latency_ms,
            connections: BROWSER_CONNECTIONS,
            log: SimLog::default(),
        }
    }

    /// A host that runs every request at once (HTTP/2).
    pub fn multiplexed(inner: FsFetcher, latency_ms: u64) -> Self {
        SimFetcher {
            connections: u64::MAX,
            ..Self::new(inner, latency_ms)
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
        let waves = (batch.len() as u64).div_ceil(self.connections);
        self.log.waves += waves;
        self.log.elapsed_ms += self.latency_ms * waves;
        for r in &out {
            if let Response::Bytes { bytes, .. } = r {
                self.log.bytes += bytes.len() as u64;
            }
        }
        self.log.per_round.push(batch.to_vec());
        out
    }

    fn connections(&self) -> u64 {
        self.connections
    }
}
