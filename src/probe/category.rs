//! Results as a player reads them, with the 50-move rule applied.

use std::fmt;

/// The halfmove clock after a move played at `halfmoves`: a capture or
/// pawn move (`zeroing`) starts it again.
pub fn clock_after(halfmoves: u32, zeroing: bool) -> u32 {
    if zeroing {
        0
    } else {
        halfmoves.saturating_add(1)
    }
}

/// The lichess tablebase categories, from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    Loss,
    MaybeLoss,
    BlessedLoss,
    Draw,
    CursedWin,
    MaybeWin,
    Win,
}

impl Category {
    /// Category from DTZ50'' (with the 100 offset of cursed results), the
    /// halfmove clock and whether the side to move is checkmated.
    ///
    /// A rounded DTZ `d` means the true value is `d` or `d + 1` plies, so
    /// only `d + clock == 100` is in doubt ("maybe"); at clock 0 the
    /// generator never rounds across the 100-ply edge, so the WDL decides.
    /// Checkmate ends the game before the 50-move rule can be claimed
    /// (FIDE Laws 9.3 and 9.6): a mated side has lost at any clock. For
    /// the same reason a win on this very ply (an exact DTZ of 1: mate, or
    /// a zeroing move) is a win below a clock of 150: only the side to move
    /// may claim, and the opponent gets no turn before the clock starts
    /// again. (At 150 the 75-move rule, 9.6.2, has drawn the game already;
    /// the tables' convention, which ignores that rule, stands there.)
    pub fn new(wdl: i8, dtz: i32, precise: bool, halfmoves: u32, checkmated: bool) -> Category {
        if checkmated {
            return Category::Loss;
        }
        if wdl == 2 && dtz == 1 && precise && halfmoves < 150 {
            return Category::Win;
        }
        let total = i64::from(dtz).abs() + i64::from(halfmoves);
        let (sure, unsure, lost) = match wdl {
            0 => return Category::Draw,
            1 => return Category::CursedWin,
            -1 => return Category::BlessedLoss,
            w if w > 0 => (Category::Win, Category::MaybeWin, Category::CursedWin),
            _ => (Category::Loss, Category::MaybeLoss, Category::BlessedLoss),
        };
        if halfmoves == 0 || total < 100 || (precise && total == 100) {
            sure
        } else if total == 100 {
            unsure
        } else {
            lost
        }
    }

    /// Whether `dtm` plies to mate (which ignore the 50-move rule) are a
    /// mate in that many under it, from a position of this category at
    /// this clock: a win or loss whose mate lands by the 100th ply (by the
    /// rule `new` applies to DTZ; a mate on this very ply always stands).
    pub fn mate_holds(self, dtm: i32, halfmoves: u32) -> bool {
        let plies = dtm.unsigned_abs();
        matches!(self, Category::Win | Category::Loss)
            && (plies == 1 || u64::from(plies) + u64::from(halfmoves) <= 100)
    }

    /// Category from the WDL alone, before the DTZ is known: decided unless
    /// the halfmove clock is running on a decisive result (then the DTZ
    /// says whether the 50-move rule comes first).
    pub fn from_wdl(wdl: i8, halfmoves: u32, checkmated: bool) -> Option<Category> {
        (checkmated || halfmoves == 0 || wdl.abs() != 2)
            .then(|| Category::new(wdl, 0, true, halfmoves, checkmated))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Category::Loss => "loss",
            Category::MaybeLoss => "maybe-loss",
            Category::BlessedLoss => "blessed-loss",
            Category::Draw => "draw",
            Category::CursedWin => "cursed-win",
            Category::MaybeWin => "maybe-win",
            Category::Win => "win",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Category;

    /// A mate holds by the clock's 100th ply, or on this very ply; a
    /// result the rule spoils (or may) has none under it, either side.
    #[test]
    fn mates_that_hold_under_the_clock() {
        assert!(Category::Win.mate_holds(27, 73));
        assert!(!Category::Win.mate_holds(27, 74));
        assert!(Category::Loss.mate_holds(-26, 74));
        assert!(!Category::Loss.mate_holds(-26, 75));
        assert!(Category::Win.mate_holds(1, 149));
        for c in [
            Category::CursedWin,
            Category::MaybeWin,
            Category::BlessedLoss,
            Category::MaybeLoss,
        ] {
            assert!(!c.mate_holds(3, 0));
        }
    }

    /// Where the WDL alone decides, every DTZ the tables could give agrees.
    #[test]
    fn wdl_alone_decides_what_the_dtz_would() {
        for wdl in -2i8..=2 {
            for halfmoves in [0, 1, 40, 99, 100, 101, 150] {
                for checkmated in [false, true] {
                    let Some(c) = Category::from_wdl(wdl, halfmoves, checkmated) else {
                        assert!(wdl.abs() == 2 && halfmoves > 0 && !checkmated);
                        continue;
                    };
                    let (lo, hi) = match wdl.abs() {
                        0 => (0, 0),
                        1 => (101, 1100),
                        _ => (1, 100),
                    };
                    for plies in lo..=hi {
                        let dtz = plies * i32::from(wdl.signum());
                        for precise in [false, true] {
                            let by_dtz = Category::new(wdl, dtz, precise, halfmoves, checkmated);
                            assert_eq!(c, by_dtz, "wdl {wdl} clock {halfmoves} dtz {dtz}");
                        }
                    }
                }
            }
        }
    }
}
