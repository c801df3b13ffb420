//! Pages of remote tables kept on disk between runs of the CLI, one folder
//! per file holding its identity and page-sized pieces. A change of identity
//! seen on a fresh request empties the folder: versions never mix. Without
//! a validator (no ETag, no Last-Modified) the size alone would not see a
//! same-size replacement, so fresh bytes that differ from a kept piece count
//! as a change too (each run opens a file from the network: a replacement
//! whose head is unchanged goes unseen there, as it would by size alone).
//! Every file is written whole under a temporary name in the cache's own
//! `.syzygy-web-tmp` folder and renamed, so a crash or a second process never leaves
//! a torn piece; the next run to open the cache removes the temporary
//! files a killed run left there.
//! A piece's name carries a tag of the version it was fetched as: a write
//! that raced a version change (another thread of the round, another
//! process behind another mirror) leaves a piece no read of the new
//! version looks for.
//! A run that opens the cache trims it to [`BUDGET`] bytes of pieces (at
//! most once an hour): the folders of the files least recently read or
//! written go, whole.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use super::run::Response;
use crate::engine::{merged_version, same_version};
use crate::material::Material;

const PIECE: u64 = 4096;

/// Most bytes the cache keeps, as the browser's IndexedDB has a budget:
/// a run of many positions over 6- and 7-piece tables would otherwise
/// fill a disk.
const BUDGET: u64 = 2 << 30;

/// How often a run that opens the cache counts what it holds: the count
/// lists every piece (half a million in a full cache), too slow for each
/// run of one position.
const TRIM_EVERY: Duration = Duration::from_secs(3600);

pub struct DiskCache {
    dir: PathBuf,
    /// Files whose use this run has marked, and when (see [`DiskCache::used`]).
    marked: Mutex<HashMap<String, Instant>>,
}

impl DiskCache {
    pub fn new(dir: PathBuf) -> Result<Self, String> {
        fs::create_dir_all(&dir).map_err(|e| format!("cache dir {}: {e}", dir.display()))?;
        sweep_leftovers(&dir.join(TMP));
        let cache = DiskCache {
            dir,
            marked: Mutex::new(HashMap::new()),
        };
        if let Some(_held) = cache.trim_due() {
            cache.trim(BUDGET);
        }
        Ok(cache)
    }

    /// The marker of the last count, locked, where it was made over
    /// [`TRIM_EVERY`] ago or is new (then marked counted now): runs that
    /// start together count once (two trims at once would each remove
    /// what is over the budget). None where the cache cannot be written.
    fn trim_due(&self) -> Option<fs::File> {
        let marker = self.dir.join(TRIMMED);
        let (file, new) = match fs::File::options()
            .write(true)
            .create_new(true)
            .open(&marker)
        {
            Ok(f) => (f, true),
            Err(_) => (fs::File::options().write(true).open(&marker).ok()?, false),
        };
        file.try_lock().ok()?;
        let age = file
            .metadata()
            .and_then(|m| m.modified())
            .ok()?
            .elapsed()
            .ok();
        if !new && age.is_none_or(|a| a < TRIM_EVERY) {
            return None;
        }
        file.set_modified(SystemTime::now()).ok()?;
        Some(file)
    }

    /// Removes the folders of the files least recently used (their
    /// identity's time, see [`DiskCache::used`]) until the pieces left take
    /// at most `budget` bytes. Only folders named as a table and holding
    /// an identity are counted or removed: a `--cache-dir` may be a folder
    /// other programs use too.
    fn trim(&self, budget: u64) {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        let mut folders = Vec::new();
        let mut total = 0u64;
        for e in entries.flatten() {
            if !is_table_name(&e.file_name().to_string_lossy()) {
                continue;
            }
            let Ok(used) = fs::metadata(e.path().join("identity")).and_then(|m| m.modified())
            else {
                continue;
            };
            let size: u64 = fs::read_dir(e.path())
                .map(|d| {
                    d.flatten()
                        .filter_map(|p| p.metadata().ok())
                        .map(|m| m.len())
                        .sum()
                })
                .unwrap_or(0);
            total += size;
            folders.push((used, size, e.path()));
        }
        folders.sort();
        for (_, size, path) in folders {
            if total <= budget {
                break;
            }
            // (Gone already: another process emptied it for a new version.)
            match fs::remove_dir_all(&path) {
                Ok(()) => total -= size,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => total -= size,
                Err(_) => {}
            }
        }
    }

    /// Marks a file used now, once a run (and again each [`TRIM_EVERY`] of
    /// a long one): its identity's time orders the trim (set otherwise only
    /// where a new version's identity is written).
    fn used(&self, name: &str) {
        let Ok(mut marked) = self.marked.lock() else {
            return;
        };
        let now = Instant::now();
        if marked
            .get(name)
            .is_none_or(|&t| now.duration_since(t) >= TRIM_EVERY)
        {
            marked.insert(name.to_string(), now);
            let _ = fs::File::options()
                .write(true)
                .open(self.folder(name).join("identity"))
                .and_then(|f| f.set_modified(SystemTime::now()));
        }
    }

    /// Why pages cannot be kept in `dir` (an existing folder), if they
    /// cannot: a read-only one still answers from what it holds, but keeps
    /// nothing new, which the CLI says rather than fetch again silently.
    pub fn unwritable(dir: &Path) -> Option<String> {
        // Where every write goes first (see `write`).
        let folder = dir.join(TMP);
        let probe = folder.join(format!("writable.{}", std::process::id()));
        match fs::create_dir_all(&folder).and_then(|()| fs::write(&probe, b"")) {
            Ok(()) => {
                let _ = fs::remove_file(&probe);
                None
            }
            Err(e) => Some(format!(
                "cache dir {}: {e}: pages it holds are read, new ones are not kept",
                dir.display()
            )),
        }
    }

    fn folder(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// A file's kept version: its size, its validator (every kind its
    /// answers carried, see `engine::merged_version`) and the tag its
    /// pieces are named by (the validator its folder was started with; a
    /// third line where the validator has grown since).
    fn identity(&self, name: &str) -> Option<(u64, String, String)> {
        let text = fs::read_to_string(self.folder(name).join("identity")).ok()?;
        let (size, rest) = text.split_once('\n')?;
        let (validator, tag) = rest.split_once('\n').unwrap_or((rest, rest));
        Some((size.parse().ok()?, validator.to_string(), tag.to_string()))
    }

    /// The file of piece `n` of a file's version (size, its pieces' tag).
    fn piece(&self, name: &str, n: u64, size: u64, tag: &str) -> PathBuf {
        // FNV-1a of the version: a name, not a checksum.
        let tag = format!("{size}\n{tag}")
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
            });
        self.folder(name).join(format!("{n}.{tag:016x}"))
    }

    /// Bytes `[start, end)` if every piece is on disk, as the version
    /// `want` (size, validator; an empty validator matches any) when given:
    /// the folder may hold another (another process behind another mirror
    /// refilled it), which the caller would take for a change of the file.
    pub fn get(
        &self,
        name: &str,
        start: u64,
        end: u64,
        want: Option<(u64, &str)>,
    ) -> Option<Response> {
        let (size, validator, tag) = self.identity(name)?;
        if want.is_some_and(|(s, v)| s != size || !same_version(v, &validator)) {
            return None;
        }
        let end = end.min(size);
        if !start.is_multiple_of(PIECE) || start >= end {
            return None;
        }
        let mut bytes = Vec::with_capacity((end - start) as usize);
        let mut at = start;
        while at < end {
            let piece = fs::read(self.piece(name, at / PIECE, size, &tag)).ok()?;
            let want = PIECE.min(size - at) as usize;
            if piece.len() != want {
                return None;
            }
            bytes.extend_from_slice(&piece);
            at += PIECE;
        }
        bytes.truncate((end - start) as usize);
        self.used(name);
        Some(Response::Bytes {
            size,
            validator,
            bytes,
        })
    }

    /// Stores whole pieces of a network response. Every response states the
    /// file's current identity, so a new one first drops what was kept for
    /// the old: pieces are never served under an identity the server no
    /// longer reports.
    pub fn put(&self, name: &str, size: u64, validator: &str, start: u64, bytes: &[u8]) {
        let folder = self.folder(name);
        // An answer of the kept version by the engine's rule (every kind of
        // validator both carry agrees; none, or none shared, matches any)
        // with its size keeps the folder: a host that sends no ETag on some
        // answers does not empty it each time. The kinds it carried are
        // learnt; the pieces keep their names. Other bytes in a piece still
        // show a replacement (below).
        let (validator, tag) = match self.identity(name) {
            Some((s, v, tag)) if s == size && same_version(&v, validator) => {
                let merged = merged_version(&v, validator);
                if merged != v {
                    let text = identity_text(size, &merged, &tag);
                    self.write(&folder.join("identity"), text.as_bytes());
                }
                (merged, tag)
            }
            _ => {
                if !self.restart(&folder, size, validator, validator) {
                    return;
                }
                (validator.to_string(), validator.to_string())
            }
        };
        let (validator, tag) = (validator.as_str(), tag.as_str());
        if !start.is_multiple_of(PIECE) {
            return;
        }
        let mut pieces = Vec::new();
        let mut at = 0usize;
        while at < bytes.len() {
            let off = start + at as u64;
            let want = PIECE.min(size.saturating_sub(off)) as usize;
            if want == 0 || at + want > bytes.len() {
                break;
            }
            pieces.push((
                self.piece(name, off / PIECE, size, tag),
                &bytes[at..at + want],
            ));
            at += want;
        }
        let kept: Vec<Option<Vec<u8>>> = pieces.iter().map(|(p, _)| fs::read(p).ok()).collect();
        // Same identity, other bytes in a piece of the same length: a
        // replacement the identity did not show. Start over under the
        // fresh bytes, all of them.
        let replaced = pieces.iter().zip(&kept).any(|((_, piece), k)| {
            k.as_ref()
                .is_some_and(|k| k.len() == piece.len() && k != piece)
        });
        // (The pieces keep their names.)
        if replaced && !self.restart(&folder, size, validator, tag) {
            return;
        }
        for ((path, piece), k) in pieces.iter().zip(&kept) {
            if replaced || k.as_deref() != Some(*piece) {
                self.write(path, piece);
            }
        }
        self.used(name);
    }

    /// Empties a file's folder and records its identity; false if the
    /// folder cannot be made.
    fn restart(&self, folder: &Path, size: u64, validator: &str, tag: &str) -> bool {
        let _ = fs::remove_dir_all(folder);
        if fs::create_dir_all(folder).is_err() {
            return false;
        }
        self.write(
            &folder.join("identity"),
            identity_text(size, validator, tag).as_bytes(),
        );
        true
    }

    /// Writes a file whole or not at all: a temporary file in the cache's
    /// [`TMP`] folder (the same file system), then a rename over the final
    /// one. Its name carries the target's folder and name besides this
    /// process's id and call, and is created new: processes with one id
    /// (containers sharing a volume) never write into each other's file,
    /// and at worst skip a piece another is writing.
    fn write(&self, path: &Path, bytes: &[u8]) {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let folder = self.dir.join(TMP);
        let _ = fs::create_dir_all(&folder);
        let target: Vec<String> = path
            .iter()
            .rev()
            .take(2)
            .map(|c| c.to_string_lossy().into_owned())
            .collect();
        let tmp = folder.join(format!("{}.{n}.{}", std::process::id(), target.join(".")));
        let written = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .and_then(|mut f| std::io::Write::write_all(&mut f, bytes));
        match written {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(_) => {
                let _ = fs::remove_file(&tmp);
            }
            Ok(()) => {
                if fs::rename(&tmp, path).is_err() {
                    let _ = fs::remove_file(&tmp);
                }
            }
        }
    }
}

/// The cache's folder of files being written ([`DiskCache::write`]), named
/// for this program: a `--cache-dir` may be a folder other programs use
/// too (`~/.cache`), and everything old in it is swept. No table's name
/// starts with a dot.
const TMP: &str = ".syzygy-web-tmp";

/// The file whose time says when the cache was last counted ([`DiskCache::trim`]).
const TRIMMED: &str = ".syzygy-web-trimmed";

/// The identity file's text: size, validator, and the pieces' tag where
/// it differs (files written before the tag had two lines).
fn identity_text(size: u64, validator: &str, tag: &str) -> String {
    if validator == tag {
        format!("{size}\n{validator}")
    } else {
        format!("{size}\n{validator}\n{tag}")
    }
}

/// Whether a folder of the cache is named as a table file
/// (`KRPvKR.rtbw`): the only folders a trim may remove.
fn is_table_name(name: &str) -> bool {
    let Some((material, ext)) = name.rsplit_once('.') else {
        return false;
    };
    // (The cache names a folder as the engine names the file: in capitals.)
    matches!(ext, "rtbw" | "rtbz")
        && !material
            .bytes()
            .any(|b| b.is_ascii_lowercase() && b != b'v')
        && Material::from_name(material).is_some()
}

/// Age past which a temporary file is a killed run's leftover: a live
/// write renames its file within milliseconds.
const LEFTOVER_AGE: Duration = Duration::from_secs(600);

/// Removes from `tmp` (the cache's own folder of files being written) the
/// files of writes a killed run never renamed: nothing reads them, and
/// without this they would pile up run after run. Only that folder is
/// listed, never the pieces, nor anything else in a folder the user chose.
fn sweep_leftovers(tmp: &Path) {
    let Ok(entries) = fs::read_dir(tmp) else {
        return;
    };
    for e in entries.flatten() {
        let age = e.metadata().and_then(|m| m.modified()).ok();
        if age.and_then(|t| t.elapsed().ok()) > Some(LEFTOVER_AGE) {
            let _ = fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(name: &str) -> DiskCache {
        let dir = std::env::temp_dir().join(format!(
            "syzygy-web-disk-cache-{}-{name}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        DiskCache::new(dir).unwrap()
    }

    fn bytes_of(r: Option<Response>) -> Option<Vec<u8>> {
        match r? {
            Response::Bytes { bytes, .. } => Some(bytes),
            _ => None,
        }
    }

    /// A piece written as one version after another version's restart
    /// (a write that raced the change) is never read as the new version's.
    #[test]
    fn a_piece_of_the_version_before_is_not_read_after_a_change() {
        let c = cache("raced");
        let size = 2 * PIECE;
        let old: Vec<u8> = vec![1; size as usize];
        c.put("KRvK.rtbw", size, "\"v1\"", 0, &old[..PIECE as usize]);
        c.put("KRvK.rtbw", size, "\"v2\"", 0, &[2; PIECE as usize]);
        // The race: v1's second piece lands after v2 restarted the folder.
        c.write(
            &c.piece("KRvK.rtbw", 1, size, "\"v1\""),
            &old[PIECE as usize..],
        );
        assert_eq!(bytes_of(c.get("KRvK.rtbw", PIECE, size, None)), None);
        assert_eq!(
            bytes_of(c.get("KRvK.rtbw", 0, PIECE, None)),
            Some(vec![2; PIECE as usize])
        );
    }

    /// Pieces of another version than the one asked for (another process
    /// behind another mirror refilled the folder) are not served: the
    /// driver would take them for a change of the file, and after three
    /// such turns fail the probe.
    #[test]
    fn only_the_version_asked_for_is_served() {
        let c = cache("version");
        let size = PIECE;
        c.put("KRvK.rtbw", size, "\"theirs\"", 0, &[3; PIECE as usize]);
        let got = |want| bytes_of(c.get("KRvK.rtbw", 0, size, want));
        assert_eq!(got(Some((size, "\"ours\""))), None);
        assert_eq!(got(Some((size + 1, "\"theirs\""))), None);
        assert_eq!(
            got(Some((size, "\"theirs\""))),
            Some(vec![3; PIECE as usize])
        );
        // Opened from a host that sends no validator: any version of its size.
        assert_eq!(got(Some((size, ""))), Some(vec![3; PIECE as usize]));
    }

    /// Without a validator, a same-size file with other bytes is a new
    /// version: the kept pieces of the old one are dropped with it.
    #[test]
    fn other_bytes_under_the_same_size_drop_the_old_pieces() {
        let c = cache("same-size");
        let size = 3 * PIECE;
        let old: Vec<u8> = (0..size).map(|i| i as u8).collect();
        c.put("KQvK.rtbw", size, "", 0, &old);
        assert_eq!(
            bytes_of(c.get("KQvK.rtbw", 0, size, None)),
            Some(old.clone())
        );
        let mut new = old.clone();
        new[5] ^= 0xff;
        c.put("KQvK.rtbw", size, "", 0, &new[..PIECE as usize]);
        assert_eq!(
            bytes_of(c.get("KQvK.rtbw", 0, PIECE, None)),
            Some(new[..PIECE as usize].to_vec())
        );
        // The old version's later pieces went with it.
        assert_eq!(bytes_of(c.get("KQvK.rtbw", PIECE, size, None)), None);
        // A response whose first pieces match and whose last does not:
        // every piece of it is kept under the new version.
        let mut third = new.clone();
        third[size as usize - 1] ^= 0xff;
        c.put("KQvK.rtbw", size, "", 0, &third);
        assert_eq!(
            bytes_of(c.get("KQvK.rtbw", 0, size, None)),
            Some(third.clone())
        );
        let mut fourth = third;
        fourth[size as usize - 1] ^= 0x0f;
        c.put("KQvK.rtbw", size, "", 0, &fourth);
        assert_eq!(bytes_of(c.get("KQvK.rtbw", 0, size, None)), Some(fourth));
        // Nothing temporary is left behind.
        assert_eq!(fs::read_dir(c.dir.join(TMP)).unwrap().count(), 0);
        let _ = fs::remove_dir_all(&c.dir);
    }

    /// A killed run's temporary files go when a later run opens the
    /// cache; a fresh one (a write another process has under way) stays.
    #[test]
    fn a_killed_runs_temporary_files_are_swept() {
        let c = cache("leftovers");
        c.put("KRvK.rtbw", PIECE, "\"v1\"", 0, &[1; PIECE as usize]);
        let folder = c.dir.join(TMP);
        let (old, fresh) = (folder.join("99.0"), folder.join("99.1"));
        fs::write(&old, b"torn").unwrap();
        fs::write(&fresh, b"torn").unwrap();
        let then = std::time::SystemTime::now() - 2 * LEFTOVER_AGE;
        fs::File::options()
            .write(true)
            .open(&old)
            .unwrap()
            .set_modified(then)
            .unwrap();
        let c = DiskCache::new(c.dir.clone()).unwrap();
        assert!(!old.exists());
        assert!(fresh.exists());
        assert_eq!(
            bytes_of(c.get("KRvK.rtbw", 0, PIECE, None)),
            Some(vec![1; PIECE as usize])
        );
        let _ = fs::remove_dir_all(&c.dir);
    }

    /// Sets the time of a file's use to `ago` before now.
    fn used_ago(c: &DiskCache, name: &str, ago: Duration) {
        fs::File::options()
            .write(true)
            .open(c.folder(name).join("identity"))
            .unwrap()
            .set_modified(SystemTime::now() - ago)
            .unwrap();
    }

    /// Past the budget, the files least recently used go first, whole;
    /// nothing the cache did not make is touched.
    #[test]
    fn a_trim_removes_the_least_recently_used_files_first() {
        let c = cache("trim");
        for name in ["KQvK.rtbw", "KRvK.rtbw", "KPvK.rtbz"] {
            c.put(name, 3 * PIECE, "\"v1\"", 0, &[7; 3 * PIECE as usize]);
        }
        used_ago(&c, "KQvK.rtbw", Duration::from_secs(300));
        used_ago(&c, "KRvK.rtbw", Duration::from_secs(200));
        used_ago(&c, "KPvK.rtbz", Duration::from_secs(100));
        // Another program's folder with a file of that name, and a file.
        let other = c.dir.join("notes");
        fs::create_dir_all(&other).unwrap();
        fs::write(other.join("identity"), vec![0; 1 << 20]).unwrap();
        fs::write(c.dir.join("KQvK.rtbw.txt"), b"mine").unwrap();
        let full = |n: &str| bytes_of(c.get(n, 0, 3 * PIECE, None)).is_some();
        // Each folder holds its identity (`12288\n"v1"`: 10 bytes) and three pieces.
        c.trim(2 * (3 * PIECE + 10));
        assert!(!c.folder("KQvK.rtbw").exists());
        assert!(full("KRvK.rtbw") && full("KPvK.rtbz"));
        assert!(other.join("identity").exists() && c.dir.join("KQvK.rtbw.txt").exists());
        // A read marks its file used: now KPvK.rtbz is the oldest.
        let again = DiskCache {
            dir: c.dir.clone(),
            marked: Mutex::new(HashMap::new()),
        };
        used_ago(&again, "KRvK.rtbw", Duration::from_secs(400));
        assert!(bytes_of(again.get("KRvK.rtbw", 0, PIECE, None)).is_some());
        again.trim(3 * PIECE + 10);
        assert!(again.folder("KRvK.rtbw").exists());
        assert!(!again.folder("KPvK.rtbz").exists());
        let _ = fs::remove_dir_all(&c.dir);
    }

    /// A run counts the cache where no run has for an hour, and runs that
    /// start together count it once.
    #[test]
    fn a_trim_runs_once_an_hour_and_once_at_a_time() {
        let c = cache("trim-due");
        // `cache` opened it: counted now.
        assert!(c.trim_due().is_none());
        let marker = c.dir.join(TRIMMED);
        let old = SystemTime::now() - 2 * TRIM_EVERY;
        let set = |t| {
            fs::File::options()
                .write(true)
                .open(&marker)
                .unwrap()
                .set_modified(t)
                .unwrap()
        };
        set(old);
        let held = c.trim_due().expect("an hour past: due");
        set(old);
        assert!(c.trim_due().is_none(), "another run's count under way");
        drop(held);
        assert!(c.trim_due().is_some());
        let _ = fs::remove_dir_all(&c.dir);
    }

    /// Only names of table files are a trim's to remove.
    #[test]
    fn table_names_are_told_apart() {
        for name in ["KQvK.rtbw", "KRPvKR.rtbz", "KQQQQQvK.rtbw"] {
            assert!(is_table_name(name), "{name}");
        }
        for name in [
            "notes",
            "KQvK.rtbw.txt",
            "kqvk.rtbw",
            "KQvK",
            "KQvX.rtbw",
            "QvK.rtbz",
            ".syzygy-web-tmp",
            "KvK.rtbw.bak",
        ] {
            assert!(!is_table_name(name), "{name}");
        }
    }

    /// A folder written with an ETag alone learns the date of an answer
    /// that carries both, and compares by it; its pieces keep their names.
    #[test]
    fn a_validators_kinds_are_learnt_and_the_pieces_keep_their_names() {
        let c = cache("kinds");
        let (d1, d2) = (
            "Wed, 02 Dec 2026 10:00:00 GMT",
            "Wed, 02 Dec 2026 10:00:01 GMT",
        );
        let size = 2 * PIECE;
        // Written before validators held both kinds: the ETag alone.
        c.put("KRvK.rtbz", size, "\"a\"", 0, &[1; PIECE as usize]);
        let both = format!("\"a\" {d1}");
        c.put("KRvK.rtbz", size, &both, PIECE, &[2; PIECE as usize]);
        let (_, validator, tag) = c.identity("KRvK.rtbz").expect("kept");
        assert_eq!((validator.as_str(), tag.as_str()), (both.as_str(), "\"a\""));
        let whole = Some([[1u8; PIECE as usize], [2u8; PIECE as usize]].concat());
        // Both pieces, asked as the date alone (an answer without the ETag).
        assert_eq!(
            bytes_of(c.get("KRvK.rtbz", 0, size, Some((size, d1)))),
            whole
        );
        // The date learnt: another date is another version.
        assert_eq!(
            bytes_of(c.get("KRvK.rtbz", 0, size, Some((size, d2)))),
            None
        );
        c.put("KRvK.rtbz", size, d2, 0, &[3; PIECE as usize]);
        assert_eq!(c.identity("KRvK.rtbz").map(|i| i.1), Some(d2.to_string()));
        assert_eq!(
            bytes_of(c.get("KRvK.rtbz", PIECE, size, None)),
            None,
            "the old piece"
        );
        let _ = fs::remove_dir_all(&c.dir);
    }

    /// A host that leaves out its ETag on some answers (seen behind some
    /// CDNs): the kept pieces stay (the folder was emptied by every such
    /// answer, so a second run read nothing from disk).
    #[test]
    fn an_answer_without_a_validator_keeps_the_version() {
        let c = cache("no-validator");
        let size = 2 * PIECE;
        c.put("KRvK.rtbz", size, "\"v1\"", 0, &[1; PIECE as usize]);
        c.put("KRvK.rtbz", size, "", PIECE, &[2; PIECE as usize]);
        assert_eq!(
            bytes_of(c.get("KRvK.rtbz", 0, size, None)),
            Some([[1u8; PIECE as usize], [2u8; PIECE as usize]].concat())
        );
        let _ = fs::remove_dir_all(&c.dir);
    }
}
