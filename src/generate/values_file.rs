//! Our own file of generated values (`NAME.swv`): what the Syzygy format
//! cannot hold (exact DTZ50'' everywhere, distances to mate), kept so that a
//! later run reads sub-materials instead of generating them again, and so
//! that a browser can keep a generated table.
//!
//! Layout, all integers little-endian:
//! - magic `SWGV`, then `u16` version ([`VERSION`]: the generator's layout
//!   and value codes; a new version makes old files stale, never misread);
//! - `u8` flags (bit 0: mate distances follow), `u8` name length, the
//!   material name (e.g. `KRPvKR`; it fixes the layout, see `layout.rs`);
//! - `u64` positions per side to move;
//! - DTZ50'' codes (`i16`, see `value.rs`) for White to move, then Black;
//! - with flag bit 0, mate codes in the same order.

use std::io::{self, Read, Seek, SeekFrom, Write};

use super::layout::{parse_material, Layout};
use super::solved::{pack_into, packable, Codes, Solved};
use super::value;

pub const MAGIC: [u8; 4] = *b"SWGV";
/// Bump whenever the layout or the value codes change. 4: the values of
/// 5-piece materials with pawns of both colours changed (a double push
/// whose only reply is en passant, e1b1797); files of 3 are made again.
pub const VERSION: u16 = 4;
pub const EXTENSION: &str = "swv";

/// Codes converted through a buffer of this many bytes: element by element
/// through `Vec::extend`, KRPvKR's 3.2 GB took 12 s to read and 8 s to
/// write; a fixed buffer and plain loops let the compiler vectorize.
const BUF: usize = 1 << 17;

fn write_codes(w: &mut impl Write, codes: &[i16]) -> io::Result<()> {
    let mut buf = vec![0u8; BUF];
    for chunk in codes.chunks(BUF / 2) {
        let bytes = &mut buf[..chunk.len() * 2];
        for (b, c) in bytes.chunks_exact_mut(2).zip(chunk) {
            b.copy_from_slice(&c.to_le_bytes());
        }
        w.write_all(bytes)?;
    }
    Ok(())
}

/// The bytes [`write`](fn@write) produces for `t` (to reserve them at once).
pub fn encoded_len(t: &Solved) -> usize {
    header_len(&t.layout) + arrays(t.dtm.is_some()) * 2 * t.layout.positions_per_side()
}

fn arrays(dtm: bool) -> usize {
    2 + 2 * usize::from(dtm)
}

/// Bytes before the first code.
pub fn header_len(layout: &Layout) -> usize {
    8 + layout.name.len() + 8
}

/// The header of a table of `layout`, with mate codes or not.
pub fn header(layout: &Layout, dtm: bool) -> Vec<u8> {
    let name = layout.name.as_bytes();
    let mut h = Vec::with_capacity(header_len(layout));
    h.extend_from_slice(&MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&[u8::from(dtm), name.len() as u8]);
    h.extend_from_slice(name);
    h.extend_from_slice(&(layout.positions_per_side() as u64).to_le_bytes());
    h
}

/// Where in the file a slice's codes start: `mates` picks the mate codes
/// over the DTZ50'' ones, `side` the side to move. A table written slice
/// by slice puts each at its place.
pub fn slice_offset(layout: &Layout, mates: bool, side: usize, slice: usize) -> u64 {
    let array = 2 * usize::from(mates) + side;
    let at = array * layout.positions_per_side() + slice * layout.slice_size;
    (header_len(layout) + 2 * at) as u64
}

/// Half a slice's codes (`side` to move), DTZ50'' then mate codes, handed
/// to `put` as (offset in the file, bytes) a buffer at a time: what a
/// table written slice by slice puts where, without a second copy of the
/// half (KRPvKR: 67 MB) in memory.
pub fn put_slice(
    layout: &Layout,
    slice: usize,
    side: usize,
    dtz: &[i16],
    dtm: Option<&[i16]>,
    put: &mut dyn FnMut(u64, &[u8]) -> io::Result<()>,
) -> io::Result<()> {
    let mut buf = vec![0u8; BUF];
    for (mates, codes) in [(false, Some(dtz)), (true, dtm)] {
        let Some(codes) = codes else { continue };
        let mut at = slice_offset(layout, mates, side, slice);
        for chunk in codes.chunks(BUF / 2) {
            let bytes = &mut buf[..chunk.len() * 2];
            for (b, c) in bytes.chunks_exact_mut(2).zip(chunk) {
                b.copy_from_slice(&c.to_le_bytes());
            }
            put(at, bytes)?;
            at += bytes.len() as u64;
        }
    }
    Ok(())
}

/// Writes a table; the bytes depend only on its values.
pub fn write(t: &Solved, w: &mut impl Write) -> io::Result<()> {
    if t.packed {
        return Err(bad("a packed sub-table has lost its exact DTZ50'' values"));
    }
    w.write_all(&header(&t.layout, t.dtm.is_some()))?;
    let size = t.layout.slice_size;
    let all = t.dtz.iter().chain(t.dtm.iter().flatten());
    for side in all {
        for slice in 0..t.layout.slices.len() {
            let codes = side.slice(slice);
            if codes.len() != size {
                return Err(bad("a slice of the table is not held"));
            }
            write_codes(w, codes)?;
        }
    }
    Ok(())
}

/// The DTZ50'' codes of `slices` with `side` to move of a table written
/// by [`write`](fn@write) (or slice by slice at [`slice_offset`]) into `t`, which
/// must be of the same material: a big table's writer loads one
/// leading-pawn file's slices at a time, one side to move at a time.
pub fn read_dtz_slices<R: Read + Seek>(
    r: &mut R,
    t: &mut Solved,
    slices: &[usize],
    side: usize,
) -> io::Result<()> {
    let size = t.layout.slice_size;
    for &slice in slices {
        r.seek(SeekFrom::Start(slice_offset(&t.layout, false, side, slice)))?;
        let codes = read_codes(r, size)?;
        if let Some(all) = t.dtz.get_mut(side) {
            all.set(slice, codes);
        }
    }
    Ok(())
}

fn bad(why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("generated values file: {why}"),
    )
}

fn read_codes(r: &mut impl Read, n: usize) -> io::Result<Vec<i16>> {
    let mut out = vec![0i16; n];
    let mut buf = vec![0u8; BUF.min(2 * n)];
    for part in out.chunks_mut(BUF / 2) {
        let bytes = &mut buf[..part.len() * 2];
        r.read_exact(bytes)?;
        for (c, b) in part.iter_mut().zip(bytes.chunks_exact(2)) {
            *c = i16::from_le_bytes([b[0], b[1]]);
        }
        // A written table holds draws, decided codes within the longest
        // distance and INVALID only: anything else is a damaged file,
        // which would answer wrongly.
        let sound = |c: i16| {
            c == value::INVALID
                || c == value::DRAW
                || (value::is_decided(c) && value::distance(c) <= value::MAX_DISTANCE)
        };
        if !part.iter().all(|&c| sound(c)) {
            return Err(bad("a value out of range"));
        }
    }
    Ok(out)
}

/// Reads a table written by [`write`](fn@write). A file of another version, material
/// or size is refused with `InvalidData`.
pub fn read<R: Read>(r: &mut R) -> io::Result<Solved> {
    read_as(r, false, [true; 2], discard)
}

/// [`read`] straight into [`Solved::packed`] form (for sub-tables): mate
/// codes are folded in as they are read, so the table is never held twice.
pub fn read_packed<R: Read>(r: &mut R) -> io::Result<Solved> {
    read_as(r, true, [true; 2], discard)
}

/// [`read_packed`] of the sides to move in `sides` only (White, Black): the
/// others are skipped, not read, and left empty. KRPvKR reads its four
/// 5-piece promotion tables with Black to move only.
pub fn read_packed_sides<R: Read + Seek>(r: &mut R, sides: [bool; 2]) -> io::Result<Solved> {
    let t = read_as(r, true, sides, |r, n| {
        r.seek(SeekFrom::Current(n as i64)).map(|_| ())
    })?;
    // A seek past the end succeeds: a file cut short is found here.
    let at = r.stream_position()?;
    if r.seek(SeekFrom::End(0))? < at {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(t)
}

fn discard<R: Read>(r: &mut R, n: u64) -> io::Result<()> {
    let got = io::copy(&mut r.take(n), &mut io::sink())?;
    if got < n {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(())
}

/// Whether a file of `len` bytes is a whole table of material `name` that
/// this version writes: stale files from another version, files cut short
/// and files holding another material are generated again rather than
/// refused (or worse, read as the material their name says). With `dtm`, it
/// must also hold distances to mate (a file written without them is
/// generated again for a run that wants them).
pub fn current(r: &mut impl Read, name: &str, dtm: bool, len: u64) -> bool {
    let mut head = [0u8; 8];
    if r.read_exact(&mut head).is_err()
        || head[..4] != MAGIC
        || u16::from_le_bytes([head[4], head[5]]) != VERSION
    {
        return false;
    }
    let has_dtm = head[6] & 1 != 0;
    let mut stored = vec![0u8; usize::from(head[7])];
    if (dtm && !has_dtm) || r.read_exact(&mut stored).is_err() || stored != name.as_bytes() {
        return false;
    }
    let Ok(key) = parse_material(name) else {
        return false;
    };
    let layout = Layout::new(key);
    layout.name == name
        && len == (header_len(&layout) + arrays(has_dtm) * 2 * layout.positions_per_side()) as u64
}

/// The material a values file's header names, as written (`KRPvKR`), if
/// the header is whole.
pub fn material(bytes: &[u8]) -> Option<&str> {
    let len = usize::from(*bytes.get(7)?);
    std::str::from_utf8(bytes.get(8..8 + len)?).ok()
}

fn read_as<R: Read>(
    r: &mut R,
    pack: bool,
    sides: [bool; 2],
    skip: fn(&mut R, u64) -> io::Result<()>,
) -> io::Result<Solved> {
    let mut head = [0u8; 8];
    r.read_exact(&mut head)?;
    if head[..4] != MAGIC {
        return Err(bad("not a generated values file"));
    }
    if u16::from_le_bytes([head[4], head[5]]) != VERSION {
        return Err(bad("written by another generator version"));
    }
    let has_dtm = head[6] & 1 != 0;
    let mut name = vec![0u8; usize::from(head[7])];
    r.read_exact(&mut name)?;
    let name = String::from_utf8(name).map_err(|_| bad("bad material name"))?;
    let key = parse_material(&name).map_err(|e| bad(&e.0))?;
    let layout = Layout::new(key);
    if layout.name != name {
        return Err(bad("material name not in table form"));
    }
    let mut n = [0u8; 8];
    r.read_exact(&mut n)?;
    let n = u64::from_le_bytes(n);
    if n != layout.positions_per_side() as u64 {
        return Err(bad("size does not match the material"));
    }
    let bytes = 2 * n;
    let (count, size) = (layout.slices.len(), layout.slice_size);
    // Both sides' codes, those not in `sides` skipped and left empty.
    let read_sides = |r: &mut R| -> io::Result<[Codes; 2]> {
        let mut out = [Codes::empty(count), Codes::empty(count)];
        for (codes, &wanted) in out.iter_mut().zip(&sides) {
            if wanted {
                for slice in 0..count {
                    codes.set(slice, read_codes(r, size)?);
                }
            } else {
                skip(r, bytes)?;
            }
        }
        Ok(out)
    };
    let mut dtz = read_sides(r)?;
    if !has_dtm {
        return Ok(Solved {
            layout,
            dtz,
            dtm: None,
            packed: false,
            free: None,
        });
    }
    if !pack {
        let dtm = read_sides(r)?;
        return Ok(Solved {
            layout,
            dtz,
            dtm: Some(dtm),
            packed: false,
            free: None,
        });
    }
    for (codes, &wanted) in dtz.iter_mut().zip(&sides) {
        if !wanted {
            skip(r, bytes)?;
        }
        for slice in codes.slices_mut() {
            for part in slice.chunks_mut(1 << 15) {
                let mates = read_codes(r, part.len())?;
                if !packable(&mates) {
                    return Err(bad("mate distance too long to pack"));
                }
                pack_into(part, &mates);
            }
        }
    }
    Ok(Solved {
        layout,
        dtz,
        dtm: None,
        packed: true,
        free: None,
    })
}
