//! Before a run: whether the machine can hold the largest planned
//! material's working arrays. A run past that fails at once, with the
//! figures, rather than hours in, when the system kills it (a 6-piece
//! material on a laptop: its 5-piece sub-materials take minutes, then
//! its own arrays run out of memory).

use std::fs;

use crate::generate::layout::{name_of, Layout};

/// Bytes the solver's arrays take at least while one slice is solved: per
/// position and side to move 3 (quiet-move count and value), 6 with mate
/// distances, one more in a pawnful slice (see the `generate` module's
/// notes on memory). The finished table and sub-tables come on top: the
/// measured peaks run 1.5-1.7 times this (KNNNvKN 12.9 GB in its forward
/// pass against 7.4 here, KNNvKNN 19.0 GB against 11.3).
pub fn working_set(layout: &Layout, dtm: bool) -> u64 {
    let per = if dtm { 6 } else { 3 } + u64::from(layout.pawnful());
    layout.slice_size as u64 * 2 * per
}

/// Memory a run may take: what the system counts as available plus free
/// swap, within the cgroup's limit where one is set (a container sees the
/// host's memory in /proc/meminfo). None where neither can be read.
pub fn available() -> Option<u64> {
    let system = fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| from_meminfo(&t));
    let group = fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .zip(fs::read_to_string("/sys/fs/cgroup/memory.current").ok())
        .and_then(|(max, current)| from_cgroup(&max, &current));
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

/// A cgroup's room (memory.max less memory.current); None without a limit.
fn from_cgroup(max: &str, current: &str) -> Option<u64> {
    let max: u64 = max.trim().parse().ok()?;
    let current: u64 = current.trim().parse().ok()?;
    Some(max.saturating_sub(current))
}

/// Refuses a plan whose largest material's working arrays (see
/// [`working_set`]) exceed `available` bytes; passes where that is unknown.
pub fn check(order: &[[u8; 12]], dtm: bool, available: Option<u64>) -> Result<(), String> {
    let Some(available) = available else {
        return Ok(());
    };
    let Some((need, key)) = order
        .iter()
        .map(|k| (working_set(&Layout::new(*k), dtm), k))
        .max_by_key(|(need, _)| *need)
    else {
        return Ok(());
    };
    if need <= available {
        return Ok(());
    }
    let gb = |b: u64| b as f64 / 1e9;
    Err(format!(
        "{}: its solver's arrays alone take {:.1} GB{}, more than the {:.1} GB this machine has available (memory and free swap); the whole run would take more still",
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
        let knn = working_set(&Layout::new(key("KNNvKNN")), false);
        assert_eq!(knn, 462 * 2016 * 2016 * 2 * 3);
        let knnn = working_set(&Layout::new(key("KNNNvKN")), true);
        assert_eq!(knnn, 462 * 41_664 * 64 * 2 * 6);
        // A pawnful slice: one byte more a position.
        let krp = Layout::new(key("KRPvKR"));
        assert_eq!(working_set(&krp, false), krp.slice_size as u64 * 2 * 4);
    }

    #[test]
    fn a_plan_past_the_memory_is_refused_naming_its_largest_material() {
        let order = [key("KNNvKN"), key("KNNvKNN")];
        let e = check(&order, false, Some(8_000_000_000)).expect_err("11.3 GB in 8");
        assert!(
            e.starts_with("KNNvKNN: its solver's arrays alone take 11.3 GB"),
            "{e}"
        );
        assert!(e.contains("8.0 GB"), "{e}");
        assert!(check(&order, false, Some(24_000_000_000)).is_ok());
        assert!(check(&order, false, None).is_ok(), "unknown: not refused");
        let e = check(&[key("KRPvKR")], true, Some(100_000_000)).expect_err("with mates");
        assert!(e.contains("with --dtm"), "{e}");
        assert!(check(&[key("KRPvKR")], true, Some(1_000_000_000)).is_ok());
    }

    #[test]
    fn the_systems_figures_are_read() {
        let meminfo = "MemTotal:       24576000 kB\nMemFree:  100 kB\nMemAvailable:   2000000 kB\nSwapTotal: 0 kB\nSwapFree:        1000 kB\n";
        assert_eq!(from_meminfo(meminfo), Some((2_000_000 + 1000) * 1024));
        assert_eq!(from_meminfo("MemTotal: 1 kB\n"), None);
        assert_eq!(from_cgroup("max\n", "123\n"), None);
        assert_eq!(from_cgroup("1000\n", "300\n"), Some(700));
        assert_eq!(from_cgroup("1000\n", "3000\n"), Some(0));
    }
}
