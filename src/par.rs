//! A small work pool for independent jobs (the writer's subtables and
//! ranges of indices, the generator's slices and passes): results come
//! back in input order, so output bytes do not depend on the number of
//! threads, and threads the system refuses leave the calling thread to do
//! their jobs.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `f` over `jobs` on up to `threads` threads; one thread runs inline (the
/// only choice in a browser's main wasm thread).
pub fn map<T: Sync, R: Send>(jobs: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = threads.clamp(1, jobs.len().max(1));
    if threads == 1 {
        return jobs.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<R>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(job) = jobs.get(i) else { break };
        let r = f(job);
        if let Ok(mut o) = out.lock() {
            o[i] = Some(r);
        }
    };
    std::thread::scope(|scope| {
        // This thread works too: threads the system refuses to start (a
        // process limit) leave fewer hands, not a panic.
        for _ in 1..threads {
            if std::thread::Builder::new()
                .spawn_scoped(scope, work)
                .is_err()
            {
                break;
            }
        }
        work();
    });
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

/// [`map`] over jobs that `f` takes by value (arrays it consumes).
pub fn map_owned<T: Send, R: Send>(
    jobs: Vec<T>,
    threads: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let cells: Vec<Mutex<Option<T>>> = jobs.into_iter().map(|j| Mutex::new(Some(j))).collect();
    map(&cells, threads, |c| {
        c.lock().ok().and_then(|mut j| j.take()).map(&f)
    })
    .into_iter()
    .flatten()
    .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_the_order_of_jobs() {
        let jobs: Vec<u32> = (0..100).collect();
        for threads in [1, 2, 7] {
            assert_eq!(
                super::map(&jobs, threads, |x| x * 2),
                (0..100).map(|x| x * 2).collect::<Vec<_>>()
            );
            let owned: Vec<Vec<u32>> = jobs.iter().map(|&x| vec![x]).collect();
            assert_eq!(
                super::map_owned(owned, threads, |v| v[0] * 2),
                super::map(&jobs, 1, |x| x * 2)
            );
        }
    }
}
