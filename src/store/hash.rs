//! A fast hasher for the maps a warm probe consults on every read: pages by
//! (file, page number) and files by table name. SipHash, the standard
//! library's default, resists hash flooding, which buys nothing for keys
//! that come from table layouts and cost a large share of a warm probe.
//! This is a multiply-rotate hash: one multiplication per word.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// An odd constant with well-mixed bits (the golden ratio's fraction).
const K: u64 = 0x9e37_79b9_7f4a_7c15;

#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w) ^ (rest.len() as u64) << 59);
        }
    }
    fn write_u8(&mut self, v: u8) {
        self.add(u64::from(v));
    }
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
    fn finish(&self) -> u64 {
        // The high bits are the best mixed; hash tables index by the low ones.
        self.0.rotate_left(26)
    }
}

/// A `HashMap` with `FastHasher`.
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash<T: Hash>(v: T) -> u64 {
        BuildHasherDefault::<FastHasher>::default().hash_one(v)
    }

    #[test]
    fn neighbouring_pages_spread_over_the_low_bits() {
        let mut low: Vec<u64> = (0..1024u64).map(|p| hash((3u32, p)) & 1023).collect();
        low.sort_unstable();
        low.dedup();
        assert!(low.len() > 600, "{} distinct buckets of 1024", low.len());
    }

    #[test]
    fn strings_of_every_length_differ() {
        let names = [
            "K", "KQ", "KQvK", "KQvKR", "KRPvKR", "KQQvKQ", "KQRvKQ", "KQvKQR",
        ];
        let mut h: Vec<u64> = names.iter().map(hash).collect();
        h.sort_unstable();
        h.dedup();
        assert_eq!(h.len(), names.len());
    }
}
