//! Table header: piece orders and encoding factors per subtable, the
//! compression headers, DTZ value maps, and the layout of the index and data
//! regions that follow. Parsed once per file from a prefix of its bytes.

use super::consts::{binomial, KK_COUNT, PAWN_FACTOR, PIECE3_COUNT};
use super::cursor::Cursor;
use super::pairs::{self, Body, Pairs};
use super::{FormatError, Kind};

/// Piece codes in a header: 1..=6 white pawn..king, 9..=14 black.
pub type PieceCode = u8;

/// What the table's name says about its contents, needed to read its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub pieces: usize,
    /// Counts per piece code (index = code).
    pub counts: [u8; 16],
}

impl Shape {
    pub fn pawns(&self) -> (u8, u8) {
        (self.counts[1], self.counts[9])
    }
    pub fn pawnful(&self) -> bool {
        self.counts[1] + self.counts[9] > 0
    }
    /// Both sides have pawns: the header then stores a second order nibble.
    fn both_pawns(&self) -> bool {
        self.counts[1] > 0 && self.counts[9] > 0
    }
    fn is_symmetric(&self) -> bool {
        (1..7).all(|c| self.counts[c] == self.counts[c + 8])
    }
    /// Number of pawns of the leading colour (the one with fewer, white on a tie) and of the other.
    pub fn lead_pawns(&self) -> (u8, u8) {
        let (w, b) = self.pawns();
        if b > 0 && (w == 0 || w > b) {
            (b, w)
        } else {
            (w, b)
        }
    }
}

/// What the encoding of a material depends on besides its piece order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub pawnful: bool,
    /// Two kings are the only unique pieces: kings open the encoding.
    pub kk: bool,
    pub lead_pawns: u8,
    pub other_pawns: u8,
}

impl Geometry {
    pub fn of(shape: &Shape) -> Geometry {
        let pawnful = shape.pawnful();
        let (lead_pawns, other_pawns) = shape.lead_pawns();
        Geometry {
            pawnful,
            kk: !pawnful && (1..16).filter(|&c| shape.counts[c] == 1).count() == 2,
            lead_pawns,
            other_pawns,
        }
    }

    /// Pieces of the leading group: the leading pawns, the two kings, or three unique pieces.
    pub fn lead(&self) -> usize {
        if self.pawnful {
            usize::from(self.lead_pawns)
        } else if self.kk {
            2
        } else {
            3
        }
    }

    /// Indices of the leading group on leading-pawn file `file`.
    pub fn lead_size(&self, file: usize) -> u64 {
        if self.pawnful {
            PAWN_FACTOR[usize::from(self.lead_pawns) - 1][file]
        } else if self.kk {
            KK_COUNT
        } else {
            PIECE3_COUNT
        }
    }
}

/// How positions of one subtable map to indices.
#[derive(Debug, Clone)]
pub struct Encoding {
    /// Piece codes in the order their squares are encoded.
    pub pieces: Vec<PieceCode>,
    /// Size of each group of identical pieces, stored at the group's first slot.
    pub norm: [u8; 7],
    /// Multiplier of each group's sub-index.
    pub factor: [u64; 7],
    /// Number of indices.
    pub positions: u64,
    /// Leading-pawn file (0 for pawnless tables).
    pub file: usize,
}

/// One stored side of one leading-pawn file.
#[derive(Debug, Clone)]
pub struct Subtable {
    pub encoding: Encoding,
    pub pairs: Pairs,
}

/// DTZ value maps of one file: per WDL class (win, loss, cursed win, blessed loss).
#[derive(Debug, Clone, Default)]
pub struct DtzMaps {
    pub maps: [Vec<u16>; 4],
}

#[derive(Debug, Clone)]
pub struct Header {
    pub kind: Kind,
    pub pawnful: bool,
    /// Two kings are the only unique pieces: kings open the encoding.
    pub kk: bool,
    pub lead_pawns: u8,
    pub other_pawns: u8,
    /// Per leading file (one for pawnless tables), per stored side.
    pub files: Vec<Vec<Subtable>>,
    /// DTZ only: per file, the value maps (if the flags say mapped).
    pub dtz_maps: Vec<DtzMaps>,
    /// Bytes up to the end of the last data block.
    pub data_end: u64,
    /// Bytes the header itself occupies (its prefix of the file).
    pub header_len: u64,
}

impl Header {
    pub fn geometry(&self) -> Geometry {
        Geometry {
            pawnful: self.pawnful,
            kk: self.kk,
            lead_pawns: self.lead_pawns,
            other_pawns: self.other_pawns,
        }
    }
}

pub const DTZ_STM: u8 = 1;
pub const DTZ_MAPPED: u8 = 2;
pub const DTZ_WIN_PLIES: u8 = 4;
pub const DTZ_LOSS_PLIES: u8 = 8;
pub const DTZ_WIDE: u8 = 16;

/// Parses the header from `bytes`, a prefix of a file of `file_size` bytes.
/// `NeedMore(n)` means the header is longer than the prefix.
pub fn parse(
    bytes: &[u8],
    file_size: u64,
    kind: Kind,
    shape: &Shape,
) -> Result<Header, FormatError> {
    if file_size % 64 != 16 {
        return Err(FormatError::Corrupt("file size is not 16 mod 64"));
    }
    if shape.pieces < 2 || shape.pieces > super::consts::MAX_PIECES {
        return Err(FormatError::Corrupt("piece count out of range"));
    }
    let mut c = Cursor::new(bytes, 0);
    if c.take(4)? != kind.magic() {
        return Err(FormatError::Corrupt("bad magic"));
    }
    let flags = c.u8()?;
    let pawnful = flags & 2 != 0;
    if pawnful != shape.pawnful() {
        return Err(FormatError::Corrupt(
            "pawn flag disagrees with the table name",
        ));
    }
    let split = kind == Kind::Wdl && flags & 1 != 0;
    let sides = if split { 2 } else { 1 };
    let nfiles = if pawnful { 4 } else { 1 };
    let geo = Geometry::of(shape);
    let Geometry {
        kk,
        lead_pawns,
        other_pawns,
        ..
    } = geo;

    let mut encodings: Vec<Vec<Encoding>> = Vec::with_capacity(nfiles);
    // Each side's first piece in file 0: the probe picks the leading
    // colour (and so the file) from it, so every file must agree.
    let mut leaders = [0u8; 2];
    for file in 0..nfiles {
        let order = c.u8()?;
        let order2 = if shape.both_pawns() { c.u8()? } else { 0xff };
        let codes = c.take(shape.pieces)?;
        let mut per_side = Vec::with_capacity(sides);
        for (side, leader) in leaders.iter_mut().enumerate().take(sides) {
            let shift = 4 * side as u32;
            let pieces: Vec<u8> = codes.iter().map(|b| (b >> shift) & 0x0f).collect();
            check_pieces(&pieces, shape)?;
            check_order(&pieces, geo)?;
            if file == 0 {
                *leader = pieces[0];
            } else if pieces[0] != *leader {
                return Err(FormatError::Corrupt(
                    "the files of a pawn table lead with different pieces",
                ));
            }
            let o = (order >> shift) & 0x0f;
            let o2 = if order2 == 0xff {
                0x0f
            } else {
                (order2 >> shift) & 0x0f
            };
            per_side.push(encoding(pieces, o, o2, file, geo)?);
        }
        encodings.push(per_side);
    }
    c.align2();

    let mut files: Vec<Vec<Subtable>> = Vec::with_capacity(nfiles);
    for per_side in encodings {
        let mut subs = Vec::with_capacity(sides);
        for encoding in per_side {
            let pairs = pairs::parse(&mut c, encoding.positions, kind == Kind::Wdl)?;
            subs.push(Subtable { encoding, pairs });
        }
        files.push(subs);
    }

    let mut dtz_maps = Vec::new();
    if kind == Kind::Dtz {
        for subs in &files {
            let flags = subs[0].pairs.flags;
            let mut maps = DtzMaps::default();
            if flags & DTZ_MAPPED != 0 {
                if flags & DTZ_WIDE != 0 {
                    c.align2();
                    for m in maps.maps.iter_mut() {
                        let n = c.u16()?;
                        for _ in 0..n {
                            m.push(c.u16()?);
                        }
                    }
                } else {
                    for m in maps.maps.iter_mut() {
                        let n = c.u8()?;
                        m.extend(c.take(usize::from(n))?.iter().map(|&v| u16::from(v)));
                    }
                }
            }
            dtz_maps.push(maps);
        }
        c.align2();
    }
    let header_len = c.pos() as u64;

    // Region layout: all sparse indexes, then all block-length tables, then
    // the data of each subtable on a 64-byte boundary.
    let mut at = header_len;
    let mut place = |files: &mut Vec<Vec<Subtable>>, region: u8| -> Result<(), FormatError> {
        for subs in files.iter_mut() {
            for sub in subs.iter_mut() {
                if let Body::Huffman(h) = &mut sub.pairs.body {
                    let len = match region {
                        0 => {
                            h.sparse_offset = at;
                            h.sparse_bytes()
                        }
                        1 => {
                            h.lengths_offset = at;
                            h.lengths_bytes()
                        }
                        _ => {
                            at = at
                                .checked_add(63)
                                .ok_or(FormatError::Corrupt("layout overflows"))?
                                & !63;
                            h.data_offset = at;
                            h.data_bytes()
                        }
                    };
                    at = at
                        .checked_add(len)
                        .ok_or(FormatError::Corrupt("layout overflows"))?;
                }
            }
        }
        Ok(())
    };
    place(&mut files, 0)?;
    place(&mut files, 1)?;
    place(&mut files, 2)?;
    if at > file_size.saturating_sub(16) {
        return Err(FormatError::Corrupt(
            "regions extend past the end of the file",
        ));
    }
    Ok(Header {
        kind,
        pawnful,
        kk,
        lead_pawns,
        other_pawns,
        files,
        dtz_maps,
        data_end: at,
        header_len,
    })
}

/// The pieces listed for a side must be exactly the table's material, in
/// either colour orientation.
fn check_pieces(pieces: &[u8], shape: &Shape) -> Result<(), FormatError> {
    let mut counts = [0u8; 16];
    for &p in pieces {
        if p & 7 == 0 || p & 7 == 7 {
            return Err(FormatError::Corrupt("unknown piece code"));
        }
        counts[usize::from(p)] += 1;
    }
    let mut flipped = [0u8; 16];
    for (c, n) in counts.iter().enumerate() {
        flipped[c ^ 8] = *n;
    }
    if counts == shape.counts || flipped == shape.counts {
        Ok(())
    } else {
        Err(FormatError::Corrupt(
            "header pieces disagree with the table name",
        ))
    }
}

/// The leading pieces are the ones the material's layout expects (every
/// pawn of the leading colour, then the other colour's pawns; the two
/// kings; three pieces of their own) and identical pieces lie together:
/// else the index would be computed for another position.
fn check_order(pieces: &[u8], geo: Geometry) -> Result<(), FormatError> {
    let n = pieces.len();
    let lead = geo.lead();
    let others = usize::from(geo.other_pawns);
    let count = |c: u8| pieces.iter().filter(|&&p| p == c).count();
    let fits = if lead + others > n || n == 0 {
        false
    } else if geo.pawnful {
        let first = pieces[0];
        first & 7 == 1
            && count(first) == lead
            && pieces[..lead].iter().all(|&p| p == first)
            && count(first ^ 8) == others
            && pieces[lead..lead + others].iter().all(|&p| p == first ^ 8)
    } else if geo.kk {
        pieces[0] & 7 == 6 && pieces[1] == pieces[0] ^ 8
    } else {
        pieces[..lead].iter().all(|&p| count(p) == 1)
    };
    // After the leading groups, a piece unlike the one before starts a
    // group: it must not have come earlier.
    let together = (lead + others..n)
        .all(|i| i == 0 || pieces[i] == pieces[i - 1] || !pieces[..i].contains(&pieces[i]));
    if fits && together {
        Ok(())
    } else {
        Err(FormatError::Corrupt(
            "header pieces in an order the layout does not allow",
        ))
    }
}

/// Derives group sizes and factors. `order`/`order2` say at which step of
/// the mixed-radix number the leading group and the second pawn group come
/// (0x0f: no second pawn group). The writer calls it too, for every piece
/// order it tries.
pub fn encoding(
    pieces: Vec<u8>,
    order: u8,
    order2: u8,
    file: usize,
    geo: Geometry,
) -> Result<Encoding, FormatError> {
    let n = pieces.len();
    let pawnful = geo.pawnful;
    let other_pawns = geo.other_pawns;
    let mut norm = [0u8; 7];
    let mut factor = [0u64; 7];
    let lead = geo.lead() as u8;
    if n > super::consts::MAX_PIECES || usize::from(lead) + usize::from(other_pawns) > n {
        return Err(FormatError::Corrupt("more leading pieces than pieces"));
    }
    norm[0] = lead;
    let mut k = usize::from(lead);
    if pawnful && other_pawns > 0 {
        norm[k] = other_pawns;
        k += usize::from(other_pawns);
    }
    let mut i = k;
    while i < n {
        let mut j = i;
        while j < n && pieces[j] == pieces[i] {
            norm[i] += 1;
            j += 1;
        }
        i = j;
    }

    // Both pawn groups have a step, and only they do.
    let second = pawnful && other_pawns > 0;
    if (order2 != 0x0f) != second || order == order2 {
        return Err(FormatError::Corrupt("piece order out of range"));
    }
    let (mut placed, mut placed2) = (false, !second);
    let mut free = 64 - k as u64;
    let mut f: u64 = 1;
    let mut step = 0u8;
    while k < n || step == order || step == order2 {
        if step > 15 {
            return Err(FormatError::Corrupt("piece order out of range"));
        }
        if step == order {
            placed = true;
            factor[0] = f;
            let size = geo.lead_size(file);
            f = f
                .checked_mul(size)
                .ok_or(FormatError::Corrupt("index space overflows"))?;
        } else if step == order2 {
            placed2 = true;
            let at = usize::from(lead);
            factor[at] = f;
            let size = binomial(48 - u64::from(lead), u64::from(norm[at]));
            f = f
                .checked_mul(size)
                .ok_or(FormatError::Corrupt("index space overflows"))?;
        } else {
            factor[k] = f;
            let size = binomial(free, u64::from(norm[k]));
            f = f
                .checked_mul(size)
                .ok_or(FormatError::Corrupt("index space overflows"))?;
            free -= u64::from(norm[k]);
            k += usize::from(norm[k]);
        }
        step += 1;
    }
    // A step past the last group's would never be reached: the leading
    // group (or the second pawns) would count for nothing in the index.
    if !placed || !placed2 {
        return Err(FormatError::Corrupt("piece order out of range"));
    }
    Ok(Encoding {
        pieces,
        norm,
        factor,
        positions: f,
        file,
    })
}

/// Upper bound of a header's length for a material, assuming full symbol
/// tables (4095 symbols, 32 code lengths) and byte-wide DTZ maps.
pub fn max_len(kind: Kind, shape: &Shape) -> u64 {
    let files: u64 = if shape.pawnful() { 4 } else { 1 };
    let sides: u64 = if kind == Kind::Wdl && !shape.is_symmetric() {
        2
    } else {
        1
    };
    let pairs = 12 + 2 * 32 + 3 * 4095 + 1;
    let maps = if kind == Kind::Dtz {
        files * (4 * 256 + 2)
    } else {
        0
    };
    let pieces = files * (2 + shape.pieces as u64);
    5 + pieces + 1 + files * sides * pairs + maps
}

/// Whether the material is the same for both colours (such tables store one side).
pub fn symmetric(shape: &Shape) -> bool {
    shape.is_symmetric()
}
