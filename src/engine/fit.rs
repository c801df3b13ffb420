//! A round's requests joined to fit the connections that carry it at once.
//!
//! A browser runs 6 requests at a time to a host over HTTP/1.1: a round of
//! 8 ranges takes two waves, a round trip more than 6 would. Fetching the
//! gap between two ranges of a file joins them; on a fast link a gap of
//! 100 KiB costs a few milliseconds where a wave costs a round trip.

use crate::small_sort::sort_small_by;
use crate::store::{Fetch, FileId};

/// `plan` in at most `cap` requests (one a fetch), by joining ranges of a
/// file across their gaps, smallest gap first, with at most `budget` gap
/// bytes in all; None when that is not enough. `joinable(file, start,
/// end)` says whether a gap may be fetched: a driver splits a range again
/// around pages it already holds.
pub fn fit(
    plan: &[Fetch],
    cap: u64,
    budget: u64,
    joinable: impl Fn(FileId, u64, u64) -> bool,
) -> Option<Vec<Fetch>> {
    let mut out = plan.to_vec();
    sort_small_by(&mut out, |a, b| {
        (a.file, !a.open, a.start) < (b.file, !b.open, b.start)
    });
    let mut spent = 0u64;
    while out.len() as u64 > cap.max(1) {
        // A gap past what is left of the budget is never asked about:
        // `joinable` walks its pages, and ranges of a large file (or a
        // hostile header's) may lie gigabytes apart.
        let left = budget - spent;
        let i = (1..out.len())
            .filter(|&i| {
                let (a, b) = (&out[i - 1], &out[i]);
                !a.open
                    && !b.open
                    && a.file == b.file
                    && b.start >= a.end
                    && b.start - a.end <= left
            })
            .filter(|&i| joinable(out[i].file, out[i - 1].end, out[i].start))
            .min_by_key(|&i| out[i].start - out[i - 1].end)?;
        spent += out[i].start - out[i - 1].end;
        out[i - 1].end = out[i].end;
        out.remove(i);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(file: u32, start: u64, end: u64) -> Fetch {
        Fetch {
            file,
            start,
            end,
            open: false,
        }
    }

    fn open(file: u32) -> Fetch {
        Fetch {
            file,
            start: 0,
            end: 100,
            open: true,
        }
    }

    /// A gap beyond the budget is refused without asking about its pages
    /// (a walk of every page of a gigabyte gap hung the page).
    #[test]
    fn gaps_past_the_budget_are_never_walked() {
        let plan = [range(1, 0, 10), range(1, 1 << 40, (1 << 40) + 10)];
        let asked = std::cell::Cell::new(0);
        let counting = |_: u32, _: u64, _: u64| {
            asked.set(asked.get() + 1);
            true
        };
        assert_eq!(fit(&plan, 1, 1 << 20, counting), None);
        assert_eq!(asked.get(), 0);
    }

    #[test]
    fn joins_the_smallest_gaps_of_a_file_first() {
        let plan = [
            range(1, 0, 10),
            range(1, 50, 60),
            range(1, 20, 30),
            range(2, 0, 10),
            open(3),
        ];
        let any = |_: u32, _: u64, _: u64| true;
        // Five requests into four: the 10-byte gap of file 1.
        let four = fit(&plan, 4, 10, any).expect("fits");
        assert_eq!(four.len(), 4);
        assert!(four.contains(&range(1, 0, 30)) && four.contains(&range(1, 50, 60)));
        // Into three: the 20-byte gap too; 30 bytes in all.
        assert_eq!(fit(&plan, 3, 29, any), None);
        let three = fit(&plan, 3, 30, any).expect("fits");
        assert!(three.contains(&range(1, 0, 60)));
        // Ranges of different files and opens are never joined.
        assert_eq!(fit(&plan, 2, u64::MAX, any), None);
        // Already within the cap: as it was (in file order).
        assert_eq!(fit(&plan, 5, 0, any).map(|p| p.len()), Some(5));
    }

    #[test]
    fn a_gap_that_may_not_be_fetched_is_not_joined() {
        let plan = [range(1, 0, 10), range(1, 20, 30), range(1, 100, 110)];
        let not_the_small_one = |_: u32, start: u64, _: u64| start != 10;
        let two = fit(&plan, 2, 1000, not_the_small_one).expect("fits");
        assert!(two.contains(&range(1, 20, 110)) && two.contains(&range(1, 0, 10)));
    }
}
