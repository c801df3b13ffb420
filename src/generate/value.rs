//! Value codes shared by the DTZ50'' and the mate-distance passes.
//!
//! One signed 16-bit code per position, from the view of the side to move:
//! `d > 0` wins in `d` plies, `-(d + 1)` loses in `d` plies (so a checkmated
//! position, lost in 0, is -1), 0 is a draw. Both passes use the same codes;
//! on the DTZ50'' scale a distance above 100 is a cursed win or blessed loss.

/// Not decided yet (during solving), or no such move (zeroing summaries).
pub const UNKNOWN: i16 = i16::MIN;
/// An index that names no legal position (overlaps, the side not to move in
/// check, identical pieces out of order).
pub const INVALID: i16 = i16::MIN + 1;
pub const DRAW: i16 = 0;
/// Checkmated: lost in 0 plies.
pub const MATED: i16 = -1;

/// Distances beyond this are refused: they do not occur up to 7 pieces
/// (mates there take at most about 1,100 plies), and below it every mate
/// code packs with its 50-move flag ([`super::solved::packable`]).
pub const MAX_DISTANCE: u16 = 16_000;

pub const fn win(d: u16) -> i16 {
    d as i16
}

pub const fn loss(d: u16) -> i16 {
    -(d as i16) - 1
}

/// The plies of a decided code (win or loss).
pub const fn distance(v: i16) -> u16 {
    if v > 0 {
        v as u16
    } else {
        (-(v as i32) - 1) as u16
    }
}

pub const fn is_decided(v: i16) -> bool {
    v != UNKNOWN && v != INVALID
}

/// How much the side to move likes a code: faster wins, then slower wins,
/// then draws, then slower losses, then faster losses; "no move" last.
pub const fn rank(v: i16) -> i32 {
    if v == UNKNOWN || v == INVALID {
        i32::MIN
    } else if v > 0 {
        (1 << 20) - v as i32
    } else if v < 0 {
        -(1 << 20) + distance(v) as i32
    } else {
        0
    }
}

/// The mover's code for a move into a position whose side to move has
/// `child`: one ply further, sides swapped.
pub const fn through(child: i16) -> i16 {
    if child > 0 {
        loss(child as u16 + 1)
    } else if child < 0 {
        win(distance(child) + 1)
    } else {
        DRAW
    }
}

/// The 5-valued WDL of a DTZ50'' code for a position just after a zeroing
/// move: distances up to 100 keep the result, beyond it the 50-move rule
/// turns it into a cursed win or blessed loss.
pub const fn wdl(v: i16) -> i8 {
    if v > 0 {
        if v <= 100 {
            2
        } else {
            1
        }
    } else if v < 0 {
        if distance(v) <= 100 {
            -2
        } else {
            -1
        }
    } else {
        0
    }
}

/// The mover's DTZ50'' code for a zeroing move (capture, pawn move) into a
/// position whose code is `child`: a new phase starts there, so only the
/// child's WDL counts; an outcome that a later phase turns by the 50-move
/// rule carries the offset of 100.
pub const fn zeroing(child: i16) -> i16 {
    zeroing_wdl(wdl(child))
}

/// As [`zeroing`], from the child's WDL.
pub const fn zeroing_wdl(child: i8) -> i16 {
    match child {
        2 => loss(1),
        1 => loss(101),
        -1 => win(101),
        -2 => win(1),
        _ => DRAW,
    }
}

/// DTZ50'' in plies as Syzygy reports it (signed, 0 for draws and for a
/// checkmated position).
pub const fn dtz_plies(v: i16) -> i32 {
    if v > 0 {
        v as i32
    } else if v < 0 {
        -(distance(v) as i32)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_order() {
        assert_eq!(distance(MATED), 0);
        assert_eq!(through(MATED), win(1));
        assert_eq!(through(win(3)), loss(4));
        assert!(rank(win(1)) > rank(win(2)));
        assert!(rank(win(200)) > rank(DRAW));
        assert!(rank(DRAW) > rank(loss(200)));
        assert!(rank(loss(200)) > rank(loss(2)));
        assert!(rank(loss(1)) > rank(MATED));
        assert!(rank(MATED) > rank(UNKNOWN));
        assert_eq!(wdl(win(100)), 2);
        assert_eq!(wdl(win(101)), 1);
        assert_eq!(wdl(loss(100)), -2);
        assert_eq!(wdl(loss(101)), -1);
        assert_eq!(zeroing(loss(150)), win(101));
        assert_eq!(dtz_plies(MATED), 0);
    }
}
