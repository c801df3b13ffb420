//! What a generated table holds, in numbers: the line printed per table and
//! its JSON form (a contract: `material`, `positions`, `wdl`, `longestDtz`,
//! `longestMate`).

use shakmaty::Color;

use super::layout::{Layout, MAX_PIECES};
use super::solved::Solved;
use super::value;

/// Counts of one side to move, from its own view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WdlCounts {
    pub win: u64,
    pub cursed_win: u64,
    pub draw: u64,
    pub blessed_loss: u64,
    pub loss: u64,
}

/// A record position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub plies: u32,
    pub fen: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub material: String,
    /// Legal positions on the board, both sides to move, every symmetric
    /// image counted (identical pieces are indistinguishable).
    pub positions: u64,
    /// By side to move: White (the table's first side), Black.
    pub wdl: [WdlCounts; 2],
    /// The longest DTZ50'' of a winning position.
    pub longest_dtz: Option<Record>,
    /// The longest mate, with `--dtm`.
    pub longest_mate: Option<Record>,
}

/// FEN of a stored position (halfmove clock 0).
pub fn fen(layout: &Layout, sq: &[u8], turn: Color) -> String {
    let mut board = [None; 64];
    for (slot, &(c, r)) in layout.slots.iter().enumerate() {
        board[usize::from(sq[slot])] = Some(r.char());
        if c == Color::White {
            board[usize::from(sq[slot])] = Some(r.upper_char());
        }
    }
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(ch) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(ch);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push_str(if turn == Color::White {
        " w - - 0 1"
    } else {
        " b - - 0 1"
    });
    s
}

pub fn summarize(t: &Solved) -> Summary {
    let l = &t.layout;
    let mut tally = Tally::new(l);
    for slice in 0..l.slices.len() {
        for side in 0..2 {
            let dtm = t.dtm.as_ref().map(|d| d[side].slice(slice));
            tally.add(l, slice, side, t.dtz[side].slice(slice), dtm);
        }
    }
    tally.finish(l)
}

/// A best code and where: (code, slice, side, local).
type Best = Option<(i16, usize, usize, usize)>;

/// The higher code wins; among equal ones the first in (slice, side,
/// local) order, whatever order slices come in.
fn better(best: Best, v: i16, at: (usize, usize, usize)) -> bool {
    best.is_none_or(|(b, s, side, i)| v > b || (v == b && at < (s, side, i)))
}

/// A [`Summary`] built a slice at a time, in any order: a big table's
/// slices are written out and freed as soon as no other slice reads them.
#[derive(Debug, Clone)]
pub struct Tally {
    summary: Summary,
    best_dtz: Best,
    best_mate: Best,
    /// Per side to move, whether a win, then a loss, is exactly 100 plies
    /// from zeroing (what the writer's DTZ plies flags depend on).
    pub hundred: [[bool; 2]; 2],
}

impl Tally {
    pub fn new(l: &Layout) -> Tally {
        Tally {
            summary: Summary {
                material: l.name.clone(),
                positions: 0,
                wdl: [WdlCounts::default(); 2],
                longest_dtz: None,
                longest_mate: None,
            },
            best_dtz: None,
            best_mate: None,
            hundred: [[false; 2]; 2],
        }
    }

    /// Counts one slice's codes with `side` to move.
    pub fn add(&mut self, l: &Layout, slice: usize, side: usize, dtz: &[i16], dtm: Option<&[i16]>) {
        // Pawnful slices weigh the same throughout; pawnless positions
        // depend on their symmetry.
        let per_slice = l.pawnful().then(|| l.stands_for(slice, 0));
        let c = &mut self.summary.wdl[side];
        // The slice's longest win, first in order (a pass of its own:
        // the comparison per position is the cheap `v > best`).
        let mut top: Option<(i16, usize)> = None;
        for (i, &v) in dtz.iter().enumerate() {
            if v == value::INVALID {
                continue;
            }
            let w = per_slice.unwrap_or_else(|| l.stands_for(slice, i));
            self.summary.positions += w;
            match value::wdl(v) {
                2 => c.win += w,
                1 => c.cursed_win += w,
                0 => c.draw += w,
                -1 => c.blessed_loss += w,
                _ => c.loss += w,
            }
            if v > 0 && top.is_none_or(|t| v > t.0) {
                top = Some((v, i));
            }
            if v == value::win(100) {
                self.hundred[side][0] = true;
            } else if v == value::loss(100) {
                self.hundred[side][1] = true;
            }
        }
        if let Some((v, i)) = top.filter(|&(v, i)| better(self.best_dtz, v, (slice, side, i))) {
            self.best_dtz = Some((v, slice, side, i));
        }
        if let Some(dtm) = dtm {
            let mut top: Option<(i16, usize)> = None;
            for (i, &v) in dtm.iter().enumerate() {
                if v > 0 && v != value::INVALID && top.is_none_or(|t| v > t.0) {
                    top = Some((v, i));
                }
            }
            if let Some((v, i)) = top.filter(|&(v, i)| better(self.best_mate, v, (slice, side, i)))
            {
                self.best_mate = Some((v, slice, side, i));
            }
        }
    }

    pub fn finish(self, l: &Layout) -> Summary {
        let record = |(v, slice, side, i): (i16, usize, usize, usize)| {
            let mut sq = [0u8; MAX_PIECES];
            l.squares(slice, i, &mut sq);
            let turn = if side == 0 {
                Color::White
            } else {
                Color::Black
            };
            Record {
                plies: u32::from(value::distance(v)),
                fen: fen(l, &sq, turn),
            }
        };
        Summary {
            longest_dtz: self.best_dtz.map(record),
            longest_mate: self.best_mate.map(record),
            ..self.summary
        }
    }
}

fn counts_json(c: &WdlCounts) -> String {
    format!(
        "{{\"win\":{},\"cursedWin\":{},\"draw\":{},\"blessedLoss\":{},\"loss\":{}}}",
        c.win, c.cursed_win, c.draw, c.blessed_loss, c.loss
    )
}

impl Summary {
    /// Full moves of the winning side for a mate in `plies`.
    pub fn mate_moves(plies: u32) -> u32 {
        plies.div_ceil(2)
    }

    /// One JSON object; `seconds` and `threads` describe the run.
    pub fn json(&self, seconds: f64, threads: usize) -> String {
        let dtz = self.longest_dtz.as_ref().map_or("null".to_string(), |r| {
            format!("{{\"plies\":{},\"fen\":\"{}\"}}", r.plies, r.fen)
        });
        let mate = self.longest_mate.as_ref().map_or("null".to_string(), |r| {
            format!(
                "{{\"moves\":{},\"plies\":{},\"fen\":\"{}\"}}",
                Self::mate_moves(r.plies),
                r.plies,
                r.fen
            )
        });
        format!(
            "{{\"material\":\"{}\",\"positions\":{},\"wdl\":{{\"white\":{},\"black\":{}}},\"longestDtz\":{},\"longestMate\":{},\"seconds\":{:.3},\"threads\":{}}}",
            self.material,
            self.positions,
            counts_json(&self.wdl[0]),
            counts_json(&self.wdl[1]),
            dtz,
            mate,
            seconds,
            threads
        )
    }

    /// The line for a terminal.
    pub fn line(&self, seconds: f64) -> String {
        let w = &self.wdl;
        let mut s = format!(
            "{}: {} positions; white to move {}/{}/{}/{}/{}, black to move {}/{}/{}/{}/{} (win/cursed/draw/blessed/loss)",
            self.material,
            self.positions,
            w[0].win, w[0].cursed_win, w[0].draw, w[0].blessed_loss, w[0].loss,
            w[1].win, w[1].cursed_win, w[1].draw, w[1].blessed_loss, w[1].loss,
        );
        if let Some(r) = &self.longest_dtz {
            s.push_str(&format!("; longest DTZ {} ({})", r.plies, r.fen));
        }
        if let Some(r) = &self.longest_mate {
            s.push_str(&format!(
                "; longest mate in {} ({})",
                Self::mate_moves(r.plies),
                r.fen
            ));
        }
        s.push_str(&format!("; {seconds:.2} s"));
        s
    }
}
