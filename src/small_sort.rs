//! Insertion sort for the short slices the decoder sorts (a move list, a
//! request plan, a few squares). Each instantiation of the standard
//! library's sorts adds kilobytes to the page's wasm module, which a phone
//! downloads before its first answer; this one adds a few hundred bytes.

/// Sorts `v` by `less`, keeping equal items in order. Quadratic: for
/// slices of at most a few hundred items.
pub fn sort_small_by<T>(v: &mut [T], mut less: impl FnMut(&T, &T) -> bool) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && less(&v[j], &v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sort_small_by;

    #[test]
    fn sorts_like_the_standard_stable_sort() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for n in 0..40 {
            let mut v: Vec<(u8, usize)> = (0..n)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    ((x % 5) as u8, i)
                })
                .collect();
            let mut want = v.clone();
            want.sort_by_key(|p| p.0);
            sort_small_by(&mut v, |a, b| a.0 < b.0);
            assert_eq!(v, want);
        }
    }
}
