//! Results as a player reads them, with the 50-move rule applied.

use std::fmt;

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
    /// Category from DTZ50'' (with the 100 offset of cursed results) and the
    /// halfmove clock. When the DTZ is rounded and the clock sits on the
    /// boundary, the result is "maybe".
    pub fn new(wdl: i8, dtz: i32, precise: bool, halfmoves: u32) -> Category {
        let h = i64::from(halfmoves);
        let d = i64::from(dtz).abs();
        match wdl {
            0 => Category::Draw,
            1 => Category::CursedWin,
            -1 => Category::BlessedLoss,
            w => {
                let win = w > 0;
                let (sure, unsure, lost) = if win {
                    (Category::Win, Category::MaybeWin, Category::CursedWin)
                } else {
                    (Category::Loss, Category::MaybeLoss, Category::BlessedLoss)
                };
                if precise {
                    if d + h <= 100 {
                        sure
                    } else {
                        lost
                    }
                } else if d + h <= 99 {
                    sure
                } else if d + h >= 102 {
                    lost
                } else {
                    unsure
                }
            }
        }
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
