//! What the Syzygy writer needs to know of a position's zeroing moves, kept
//! by the forward pass so that writing a pawnful table does not generate
//! every position's moves again (KRPvKR: 23 s of its 87 s of writing).
//!
//! Per position two facts: a capture reaches its WDL (the WDL file may
//! store less there, as the prober searches captures), and it is drawn or
//! won by a zeroing move (the DTZ file is not read there). Pawn moves count
//! as the writer counts them: a double push beside an enemy pawn does not
//! (its en passant reply is not in the child's value).

/// The best capture and pawn move of a position, as the forward pass finds
/// them: the mover's WDL of each plus 3 (0 for none), in bits 0-2 and 3-5.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Best(u8);

impl Best {
    pub const NONE: Best = Best(0);

    /// With a capture (or a counted pawn move) worth `wdl` to the mover.
    pub fn with(self, capture: bool, wdl: i8) -> Best {
        let shift = if capture { 0 } else { 3 };
        let code = (wdl.clamp(-2, 2) + 3) as u8;
        let old = (self.0 >> shift) & 7;
        if code > old {
            Best((self.0 & !(7 << shift)) | (code << shift))
        } else {
            self
        }
    }

    fn get(self, shift: u8) -> Option<i8> {
        let code = (self.0 >> shift) & 7;
        (code != 0).then(|| code as i8 - 3)
    }

    pub fn capture(self) -> Option<i8> {
        self.get(0)
    }

    pub fn pawn_move(self) -> Option<i8> {
        self.get(3)
    }

    /// The better of each kind from `self` and `other`.
    pub fn merge(self, other: Best) -> Best {
        let mut out = self;
        if let Some(w) = other.capture() {
            out = out.with(true, w);
        }
        if let Some(w) = other.pawn_move() {
            out = out.with(false, w);
        }
        out
    }

    /// The mover's best WDL over both kinds, if any.
    pub fn best(self) -> Option<i8> {
        self.capture().max(self.pawn_move())
    }

    pub fn bits(self) -> u8 {
        self.0
    }

    pub fn from_bits(bits: u8) -> Best {
        Best(bits)
    }

    /// The two facts for a position of 5-valued WDL `wdl`.
    pub fn flags(self, wdl: i8) -> Flags {
        Flags {
            wdl_free: self.capture() == Some(wdl),
            dtz_free: wdl == 0 || (wdl > 0 && self.best() == Some(wdl)),
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Flags {
    /// A capture reaches the position's WDL.
    pub wdl_free: bool,
    /// Drawn, or won by a zeroing move.
    pub dtz_free: bool,
}

impl Flags {
    /// Bit 0 `wdl_free`, bit 1 `dtz_free`.
    pub fn bits(self) -> u8 {
        u8::from(self.wdl_free) | u8::from(self.dtz_free) << 1
    }

    pub fn from_bits(b: u8) -> Flags {
        Flags {
            wdl_free: b & 1 != 0,
            dtz_free: b & 2 != 0,
        }
    }
}

/// Flags of one side to move, 2 bits a position, a slice at a time: a
/// slice not held (not solved yet, or spilled with a big table's values)
/// has none, and the writer then finds them by generating moves.
#[derive(Debug, Clone, Default)]
pub struct FlagArray {
    size: usize,
    slices: Vec<Vec<u8>>,
}

impl FlagArray {
    /// `slices` slices of `size` positions, none held.
    pub fn new(slices: usize, size: usize) -> FlagArray {
        FlagArray {
            size,
            slices: vec![Vec::new(); slices],
        }
    }

    /// One flags byte a position (bits 0-1) packed 4 to a byte.
    pub fn pack(bits: &[u8]) -> Vec<u8> {
        bits.chunks(4)
            .map(|c| {
                c.iter()
                    .enumerate()
                    .fold(0, |out, (k, &b)| out | (b & 3) << (2 * k))
            })
            .collect()
    }

    /// Bytes of a packed slice.
    pub fn packed_len(&self) -> usize {
        self.size.div_ceil(4)
    }

    /// A slice's flags, one byte a position.
    pub fn put(&mut self, slice: usize, bits: &[u8]) {
        self.set_packed(slice, Self::pack(bits));
    }

    /// A slice's flags as [`FlagArray::pack`] makes them.
    pub fn set_packed(&mut self, slice: usize, packed: Vec<u8>) {
        if let Some(s) = self.slices.get_mut(slice) {
            *s = packed;
        }
    }

    pub fn clear(&mut self, slice: usize) {
        self.set_packed(slice, Vec::new());
    }

    /// The flags at `local` of `slice`, if that slice is held.
    pub fn get(&self, slice: usize, local: usize) -> Option<Flags> {
        let b = self.slices.get(slice)?.get(local / 4)?;
        Some(Flags::from_bits(b >> ((local % 4) * 2)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_best_of_each_kind() {
        let b = Best::NONE
            .with(true, -2)
            .with(false, 1)
            .with(true, 0)
            .with(false, -1);
        assert_eq!(b.capture(), Some(0));
        assert_eq!(b.pawn_move(), Some(1));
        assert_eq!(Best::from_bits(b.bits()), b);
        assert_eq!(Best::NONE.capture(), None);
    }

    #[test]
    fn flags_follow_the_writer_rules() {
        let b = Best::NONE.with(true, 0).with(false, 2);
        assert_eq!(
            b.flags(2),
            Flags {
                wdl_free: false,
                dtz_free: true
            }
        );
        assert_eq!(
            b.flags(0),
            Flags {
                wdl_free: true,
                dtz_free: true
            }
        );
        assert!(!Best::NONE.with(true, -2).flags(-2).dtz_free);
        let mut a = FlagArray::new(2, 9);
        let mut bits = [0u8; 9];
        bits[5] = b.flags(2).bits();
        bits[6] = b.flags(0).bits();
        a.put(1, &bits);
        assert_eq!(a.get(1, 5), Some(b.flags(2)));
        assert_eq!(a.get(1, 6), Some(b.flags(0)));
        assert_eq!(a.get(1, 4), Some(Flags::default()));
        assert_eq!(a.get(1, 12), None);
        assert_eq!(a.get(0, 5), None, "a slice not held");
        assert_eq!(FlagArray::pack(&bits).len(), a.packed_len());
    }
}
