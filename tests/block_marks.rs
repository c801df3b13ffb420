//! Walks of a block find the same values however they start. Resuming a
//! block's walk from marks that earlier walks left (what the engine does
//! on every warm lookup) gives the value a walk from the block's start
//! gives; a subtable decoded whole, a block at a time
//! (`decode::each_block`, what checks of whole tables use), holds at every
//! index the value a lookup of that index finds. Windows of consecutive indexes of every subtable of
//! the official 3- and 4-piece tables are looked up twice in a seeded
//! random order, so that walks resume both before and after the marks held.

mod common;

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use common::{syzygy_path, table_names, Rng};
use syzygy_web::format::decode::{self, Mark, Resume, Source};
use syzygy_web::format::header;
use syzygy_web::format::pairs::Body;
use syzygy_web::format::{FormatError, Kind};
use syzygy_web::material::Material;
use syzygy_web::store::Marks;

/// A whole file in memory; keeps marks when `marks` is set.
struct File {
    bytes: Vec<u8>,
    marks: Option<RefCell<Marks>>,
    resumed: Cell<u64>,
}

impl Source for File {
    type Error = FormatError;
    fn read(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, FormatError> {
        self.bytes
            .get(offset as usize..offset as usize + len)
            .map(Cow::Borrowed)
            .ok_or(FormatError::Corrupt("read past the end"))
    }
    fn resume(&self, block: u64, lit: u64) -> Resume {
        let Some(m) = &self.marks else {
            return Resume::default();
        };
        let r = m.borrow().resume(0, block, lit);
        if r.index > 0 {
            self.resumed.set(self.resumed.get() + 1);
        }
        r
    }
    fn add_marks(&self, block: u64, first: u32, marks: &[Mark]) {
        if let Some(m) = &self.marks {
            m.borrow_mut().add(0, block, first, marks);
        }
    }
}

/// Every official 3-4 piece file: its name, kind, bytes and header.
fn each_file(mut f: impl FnMut(&str, Kind, Vec<u8>, header::Header)) {
    for name in table_names().into_iter().filter(|t| t.len() <= 5) {
        let mat = Material::from_name(&name).expect("material");
        for kind in [Kind::Wdl, Kind::Dtz] {
            let path = syzygy_path().join(format!("{name}.{}", kind.extension()));
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let h = header::parse(&bytes, bytes.len() as u64, kind, &mat.shape).expect("header");
            f(&name, kind, bytes, h);
        }
    }
}

#[test]
fn resumed_walks_find_the_values_of_walks_from_the_start() {
    if !common::official_tables() {
        println!("skipped: no official tables");
        return;
    }
    const WINDOW: u64 = 3000;
    let mut rng = Rng::new(12);
    let (mut lookups, mut resumed) = (0u64, 0u64);
    each_file(|name, kind, bytes, h| {
        let plain = File {
            bytes: bytes.clone(),
            marks: None,
            resumed: Cell::new(0),
        };
        let marked = File {
            bytes,
            marks: Some(RefCell::new(Marks::default())),
            resumed: Cell::new(0),
        };
        for sub in h.files.iter().flatten() {
            if !matches!(sub.pairs.body, Body::Huffman(_)) {
                continue;
            }
            let n = sub.encoding.positions;
            let start = rng.below(n.saturating_sub(WINDOW).max(1));
            let mut order: Vec<u64> = (start..(start + WINDOW).min(n)).collect();
            for _ in 0..2 {
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.below(i as u64 + 1) as usize);
                }
                for &index in &order {
                    let want = decode::value(&sub.pairs, index, &plain);
                    let got = decode::value(&sub.pairs, index, &marked);
                    assert_eq!(got, want, "{name} {kind:?} index {index}");
                    lookups += 1;
                }
            }
        }
        resumed += marked.resumed.get();
    });
    println!("{lookups} lookups, {resumed} resumed from a mark");
    assert!(resumed > lookups / 2, "{resumed} of {lookups} resumed");
}

/// The first, last and a seeded window of 3,000 indices of every
/// subtable; a file cut short gives an error, never a panic or a short
/// table.
#[test]
fn whole_blocks_hold_what_lookups_find() {
    if !common::official_tables() {
        println!("skipped: no official tables");
        return;
    }
    const WINDOW: u64 = 3000;
    let mut rng = Rng::new(31);
    let (mut subtables, mut values, mut checked) = (0u64, 0u64, 0u64);
    each_file(|name, kind, bytes, h| {
        let file = File {
            bytes,
            marks: None,
            resumed: Cell::new(0),
        };
        for sub in h.files.iter().flatten() {
            let n = sub.encoding.positions;
            let start = rng.below(n.saturating_sub(WINDOW).max(1));
            let wanted =
                |i: u64| i < WINDOW || i + WINDOW >= n || (start..start + WINDOW).contains(&i);
            let mut i = 0u64;
            decode::each_block(&sub.pairs, n, &file.bytes, &mut |block| {
                for &v in block {
                    if wanted(i) {
                        let found = decode::value(&sub.pairs, i, &file);
                        assert_eq!(found, Ok(v), "{name} {kind:?} index {i}");
                        checked += 1;
                    }
                    i += 1;
                }
            })
            .expect("decoded");
            assert_eq!(i, n, "{name} {kind:?}: values of the subtable");
            subtables += 1;
            values += n;
        }
        // Cut short: the data's second half missing.
        let cut = &file.bytes[..file.bytes.len() / 2];
        for sub in h.files.iter().flatten() {
            let mut seen = 0u64;
            let r = decode::each_block(&sub.pairs, sub.encoding.positions, cut, &mut |b| {
                seen += b.len() as u64
            });
            assert!(
                r.is_err() || seen == sub.encoding.positions,
                "{name} {kind:?}: cut file gave {seen} values and no error"
            );
        }
    });
    println!("{subtables} subtables, {values} values decoded, {checked} against lookups");
    assert!(subtables > 100);
}
