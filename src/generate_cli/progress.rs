//! Progress on standard error while tables are generated and written.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::generate::Progress;

/// A progress bar on standard error, drawn only on a terminal and only for
/// work that lasts more than a second.
pub(super) struct Bar {
    done: AtomicU64,
    started: Instant,
    last: Mutex<Instant>,
    tty: bool,
}

impl Bar {
    pub(super) fn new() -> Bar {
        Bar {
            done: AtomicU64::new(0),
            started: Instant::now(),
            last: Mutex::new(Instant::now()),
            tty: io::stderr().is_terminal(),
        }
    }

    pub(super) fn clear(&self) {
        if self.tty && self.started.elapsed().as_secs_f64() > 1.0 {
            let _ = write!(io::stderr(), "\r\x1b[2K");
        }
    }
}

impl Progress for Bar {
    fn advance(&self, material: &str, units: u64, total: u64) {
        let done = self.done.fetch_add(units, Ordering::Relaxed) + units;
        if !self.tty {
            return;
        }
        let elapsed = self.started.elapsed().as_secs_f64();
        let Ok(mut last) = self.last.try_lock() else {
            return;
        };
        if elapsed < 1.0 || last.elapsed().as_millis() < 100 {
            return;
        }
        *last = Instant::now();
        let frac = (done as f64 / total.max(1) as f64).min(1.0);
        let width = 30;
        let filled = (frac * width as f64) as usize;
        let eta = if frac > 0.01 {
            format!("{:.0} s left", elapsed / frac - elapsed)
        } else {
            String::new()
        };
        let _ = write!(
            io::stderr(),
            "\r\x1b[2K{material} [{}{}] {:>3.0}% {elapsed:.1} s {eta}",
            "#".repeat(filled),
            ".".repeat(width - filled),
            frac * 100.0
        );
    }
}

/// A progress callback (fraction done) that drives `bar` under `label`.
pub(super) fn fraction<'a>(bar: &'a Bar, label: &'a str) -> impl FnMut(f64) + 'a {
    let mut last = 0u64;
    move |f: f64| {
        let now = (f * 1000.0) as u64;
        bar.advance(label, now.saturating_sub(last), 1000);
        last = last.max(now);
    }
}
