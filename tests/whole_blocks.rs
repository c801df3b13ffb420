//! A subtable decoded whole, a block at a time (`decode::each_block`, what
//! checks of whole tables use), holds at every index the value a lookup of
//! that index finds: the first, last and a seeded window of 3,000 indices
//! of every subtable of the official 3- and 4-piece tables. A file cut
//! short gives an error, never a panic or a short table.

mod common;

use std::borrow::Cow;

use common::{syzygy_path, table_names, Rng};
use syzygy_web::format::decode::{self, Source};
use syzygy_web::format::header;
use syzygy_web::format::{FormatError, Kind};
use syzygy_web::material::Material;

struct File(Vec<u8>);

impl Source for File {
    type Error = FormatError;
    fn read(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, FormatError> {
        self.0
            .get(offset as usize..offset as usize + len)
            .map(Cow::Borrowed)
            .ok_or(FormatError::Corrupt("read past the end"))
    }
}

#[test]
fn whole_blocks_hold_what_lookups_find() {
    if !common::official_tables() {
        println!("skipped: no official tables");
        return;
    }
    const WINDOW: u64 = 3000;
    let mut rng = Rng::new(31);
    let (mut subtables, mut values, mut checked) = (0u64, 0u64, 0u64);
    for name in table_names().into_iter().filter(|t| t.len() <= 5) {
        let mat = Material::from_name(&name).expect("material");
        for kind in [Kind::Wdl, Kind::Dtz] {
            let path = syzygy_path().join(format!("{name}.{}", kind.extension()));
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let h = header::parse(&bytes, bytes.len() as u64, kind, &mat.shape).expect("header");
            let file = File(bytes);
            for sub in h.files.iter().flatten() {
                let n = sub.encoding.positions;
                let start = rng.below(n.saturating_sub(WINDOW).max(1));
                let wanted =
                    |i: u64| i < WINDOW || i + WINDOW >= n || (start..start + WINDOW).contains(&i);
                let mut i = 0u64;
                decode::each_block(&sub.pairs, n, &file.0, &mut |block| {
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
            let cut = &file.0[..file.0.len() / 2];
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
        }
    }
    println!("{subtables} subtables, {values} values decoded, {checked} against lookups");
    assert!(subtables > 100);
}
