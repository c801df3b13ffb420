//! A whole table file from its compressed subtables: magic, layout flags,
//! piece orders, compression headers, DTZ maps, sparse indexes, block
//! lengths and data, in the order the reader expects them.

use super::order::Order;
use super::subtable::{self, Compressed};
use crate::format::header::{DTZ_MAPPED, DTZ_WIDE};
use crate::format::Kind;

/// DTZ value maps of one leading-pawn file, per WDL class (win, loss,
/// cursed win, blessed loss): symbol number to stored value.
#[derive(Debug, Clone, Default)]
pub struct DtzMaps {
    pub maps: [Vec<u16>; 4],
    /// Store the maps with 16-bit entries.
    pub wide: bool,
}

/// One stored side of one leading-pawn file.
#[derive(Debug, Clone)]
pub struct Part {
    pub order: Order,
    /// Flag byte of the compression header (DTZ flags for DTZ files).
    pub flags: u8,
    pub data: Compressed,
}

/// One leading-pawn file (the only one of a pawnless table).
#[derive(Debug, Clone)]
pub struct FilePart {
    /// WDL: one part per side to move (one when symmetric). DTZ: one.
    pub sides: Vec<Part>,
    /// DTZ only, when the flags say mapped.
    pub maps: Option<DtzMaps>,
}

pub struct Layout {
    pub kind: Kind,
    pub pieces: usize,
    pub pawnful: bool,
    /// Both colours have pawns: a second order nibble per file.
    pub both_pawns: bool,
    /// The material is the same for both colours.
    pub symmetric: bool,
}

fn pad_to(out: &mut Vec<u8>, align: usize) {
    while !out.len().is_multiple_of(align) {
        out.push(0);
    }
}

/// The file's bytes. The 16 bytes that end it are where the official
/// generator puts a checksum; no reader checks them, so they are zero.
pub fn write(layout: &Layout, files: &[FilePart]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&layout.kind.magic());
    out.push(
        ((layout.pieces as u8) << 4)
            | u8::from(!layout.symmetric)
            | (u8::from(layout.pawnful) << 1),
    );
    for f in files {
        let s0 = &f.sides[0].order;
        let s1 = f.sides.get(1).map_or(s0, |p| &p.order);
        let (hi, hi2) = if layout.kind == Kind::Wdl {
            (s1.order << 4, s1.order2 << 4)
        } else {
            (0, 0)
        };
        out.push(s0.order | hi);
        if layout.both_pawns {
            out.push(s0.order2 | hi2);
        }
        for (i, &p) in s0.pieces.iter().enumerate() {
            let high = if layout.kind == Kind::Wdl {
                s1.pieces[i] << 4
            } else {
                0
            };
            out.push(p | high);
        }
    }
    pad_to(&mut out, 2);
    for f in files {
        for p in &f.sides {
            out.extend(subtable::header(p.flags, &p.data));
        }
    }
    if layout.kind == Kind::Dtz {
        for f in files {
            let Some(m) = &f.maps else { continue };
            if f.sides[0].flags & DTZ_MAPPED == 0 {
                continue;
            }
            if f.sides[0].flags & DTZ_WIDE != 0 {
                pad_to(&mut out, 2);
                for map in &m.maps {
                    out.extend_from_slice(&(map.len() as u16).to_le_bytes());
                    for &v in map {
                        out.extend_from_slice(&v.to_le_bytes());
                    }
                }
            } else {
                for map in &m.maps {
                    out.push(map.len() as u8);
                    out.extend(map.iter().map(|&v| v as u8));
                }
            }
        }
        pad_to(&mut out, 2);
    }
    let coded = || {
        files
            .iter()
            .flat_map(|f| &f.sides)
            .filter_map(|p| match &p.data {
                Compressed::Huffman(h) => Some(h),
                Compressed::Single(_) => None,
            })
    };
    for h in coded() {
        out.extend_from_slice(&h.blocks.sparse);
    }
    for h in coded() {
        for &l in &h.blocks.lengths {
            out.extend_from_slice(&l.to_le_bytes());
        }
    }
    for h in coded() {
        pad_to(&mut out, 64);
        out.extend_from_slice(&h.blocks.data);
    }
    pad_to(&mut out, 64);
    out.extend_from_slice(&[0u8; 16]);
    out
}
