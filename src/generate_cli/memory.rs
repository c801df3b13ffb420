//! Before a run: whether the machine can hold the largest planned
//! material's working arrays. A run past that fails at once, with the
//! figures, rather than hours in, when the system kills it (a 6-piece
//! material on a laptop: its 5-piece sub-materials take minutes, then
//! its own arrays run out of memory).

use std::fs;

use crate::generate::layout::{name_of, Layout};

/// Bytes the solver's arrays take at least: per position and side to
/// move of a slice being solved 3 (quiet-move count and value), 6 with
/// mate distances, one more in a pawnful slice (see the `generate` module's
/// notes on memory); without mates, slices of equal advancement are
/// solved at once, a thread each, each with its own arrays. The finished
/// table and sub-tables come on top: the measured peaks run 1.5-1.7 times
/// this (KNNNvKN 12.9 GB in its forward pass against 7.4 here, KNNvKNN
/// 19.0 GB against 11.3).
pub fn working_set(layout: &Layout, dtm: bool, threads: usize) -> u64 {
    let per = if dtm { 6 } else { 3 } + u64::from(layout.pawnful());
    let at_once = if dtm {
        1
    } else {
        widest_batch(layout, threads)
    };
    layout.slice_size as u64 * 2 * per * at_once as u64
}

/// Most slices of one advancement, within `threads`: what the solver
/// runs at once without mates.
fn widest_batch(layout: &Layout, threads: usize) -> usize {
    let mut count: std::collections::HashMap<u32, usize> = Default::default();
    for s in 0..layout.slices.len() {
        *count.entry(layout.slice_advancement(s)).or_default() += 1;
    }
    count.into_values().max().unwrap_or(1).min(threads.max(1))
}

/// Memory a run may take: what the system counts as available plus free
/// swap, within the cgroup's limit where one is set (a container sees the
/// host's memory in /proc/meminfo). None where neither can be read.
pub fn available() -> Option<u64> {
    let system = fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| from_meminfo(&t));
    let read = |f: &str| fs::read_to_string(format!("/sys/fs/cgroup/{f}")).ok();
    let group = match (
        read("memory.max"),
        read("memory.current"),
        read("memory.stat"),
    ) {
        (Some(max), Some(current), Some(stat)) => from_cgroup(&max, &current, &stat),
        _ => None,
    };
    match (system, group) {
        (Some(s), Some(g)) => Some(s.min(g)),
        (s, g) => s.or(g),
    }
}

/// MemAvailable plus SwapFree, in bytes, from /proc/meminfo's text.
fn from_meminfo(text: &str) -> Option<u64> {
    let field = |name: &str| {
        text.lines().find_map(|l| {
            let rest = l.strip_prefix(name)?.strip_prefix(':')?;
            let kib: u64 = rest.trim().strip_suffix("kB")?.trim().parse().ok()?;
            kib.checked_mul(1024)
        })
    };
    Some(field("MemAvailable")?.saturating_add(field("SwapFree").unwrap_or(0)))
}

/// A cgroup's room: memory.max less memory.current, whose page cache the
/// system reclaims as needed (memory.stat's `inactive_file` counted as
/// room). None without a limit or where memory.stat lacks the figure.
fn from_cgroup(max: &str, current: &str, stat: &str) -> Option<u64> {
    let max: u64 = max.trim().parse().ok()?;
    let current: u64 = current.trim().parse().ok()?;
    let reclaimable: u64 = stat.lines().find_map(|l| {
        let v = l.strip_prefix("inactive_file ")?;
        v.trim().parse().ok()
    })?;
    Some(max.saturating_sub(current.saturating_sub(reclaimable)))
}

/// Refuses a plan whose largest material's working arrays (see
/// [`working_set`]) exceed `available` bytes; passes where that is unknown.
pub fn check(
    order: &[[u8; 12]],
    dtm: bool,
    threads: usize,
    available: Option<u64>,
) -> Result<(), String> {
    let Some(available) = available else {
        return Ok(());
    };
    let Some((need, key)) = order
        .iter()
        .map(|k| (working_set(&Layout::new(*k), dtm, threads), k))
        .max_by_key(|(need, _)| *need)
    else {
        return Ok(());
    };
    if need <= available {
        return Ok(());
    }
    let gb = |b: u64| b as f64 / 1e9;
    let layout = Layout::new(*key);
    let one = working_set(&layout, dtm, 1);
    let at_once = if one < need {
        format!(
            " ({} slices solved at once, a thread each; {:.1} GB with --threads 1)",
            need / one,
            gb(one)
        )
    } else {
        String::new()
    };
    Err(format!(
        "{}: its solver's arrays alone take {:.1} GB{}{at_once}, more than the {:.1} GB this machine has available (memory and free swap, within its cgroup's limit); the whole run would take more still",
        name_of(key).0,
        gb(need),
        if dtm { " with --dtm" } else { "" },
        gb(available)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::layout::parse_material;

    fn key(name: &str) -> [u8; 12] {
        parse_material(name).expect(name)
    }

    /// The figures the module notes give: KNNvKNN 462 x 2,016^2 positions
    /// a side, KNNNvKN 462 x 41,664 x 64.
    #[test]
    fn working_sets_follow_the_positions() {
        let knn = working_set(&Layout::new(key("KNNvKNN")), false, 2);
        assert_eq!(knn, 462 * 2016 * 2016 * 2 * 3);
        let knnn = working_set(&Layout::new(key("KNNNvKN")), true, 2);
        assert_eq!(knnn, 462 * 41_664 * 64 * 2 * 6);
        // A pawnful slice: one byte more a position; without mates, as
        // many slices at once as threads (KRPvKR's pawn has 6 squares of
        // each advancement but the first two ranks', 4 after the mirror).
        let krp = Layout::new(key("KRPvKR"));
        let slice = krp.slice_size as u64 * 2;
        assert_eq!(working_set(&krp, true, 8), slice * 7);
        assert_eq!(working_set(&krp, false, 1), slice * 4);
        assert_eq!(working_set(&krp, false, 2), slice * 4 * 2);
        assert_eq!(working_set(&krp, false, 64), slice * 4 * 4);
    }

    #[test]
    fn a_plan_past_the_memory_is_refused_naming_its_largest_material() {
        let order = [key("KNNvKN"), key("KNNvKNN")];
        let e = check(&order, false, 2, Some(8_000_000_000)).expect_err("11.3 GB in 8");
        assert!(
            e.starts_with("KNNvKNN: its solver's arrays alone take 11.3 GB"),
            "{e}"
        );
        assert!(e.contains("8.0 GB"), "{e}");
        assert!(check(&order, false, 2, Some(24_000_000_000)).is_ok());
        assert!(
            check(&order, false, 2, None).is_ok(),
            "unknown: not refused"
        );
        let e = check(&[key("KRPvKR")], true, 2, Some(100_000_000)).expect_err("with mates");
        assert!(e.contains("with --dtm"), "{e}");
        assert!(check(&[key("KRPvKR")], true, 2, Some(1_000_000_000)).is_ok());
        // Without mates, a slice a thread: what one thread would need too.
        let e = check(&[key("KRPvKR")], false, 4, Some(100_000_000)).expect_err("4 at once");
        assert!(
            e.contains("(4 slices solved at once, a thread each; "),
            "{e}"
        );
        assert!(e.contains("GB with --threads 1)"), "{e}");
    }

    #[test]
    fn the_systems_figures_are_read() {
        let meminfo = "MemTotal:       24576000 kB\nMemFree:  100 kB\nMemAvailable:   2000000 kB\nSwapTotal: 0 kB\nSwapFree:        1000 kB\n";
        assert_eq!(from_meminfo(meminfo), Some((2_000_000 + 1000) * 1024));
        assert_eq!(from_meminfo("MemTotal: 1 kB\n"), None);
        let stat = "anon 100\nfile 900\nactive_file 200\ninactive_file 700\n";
        assert_eq!(from_cgroup("max\n", "123\n", stat), None);
        assert_eq!(from_cgroup("1000\n", "300\n", stat), Some(1000));
        // Mostly page cache, near the limit: still room.
        assert_eq!(from_cgroup("1000\n", "990\n", stat), Some(710));
        assert_eq!(from_cgroup("1000\n", "3000\n", stat), Some(0));
        assert_eq!(from_cgroup("1000\n", "300\n", "anon 1\n"), None);
    }
}
