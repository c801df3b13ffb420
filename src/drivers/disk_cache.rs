//! Pages of remote tables kept on disk between runs of the CLI, one folder
//! per file holding its identity and page-sized pieces. A change of identity
//! seen on a fresh request empties the folder: versions never mix.

use std::fs;
use std::path::PathBuf;

use super::run::Response;

const PIECE: u64 = 4096;

pub struct DiskCache {
    dir: PathBuf,
}

impl DiskCache {
    pub fn new(dir: PathBuf) -> Result<Self, String> {
        fs::create_dir_all(&dir).map_err(|e| format!("cache dir {}: {e}", dir.display()))?;
        Ok(DiskCache { dir })
    }

    fn folder(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn identity(&self, name: &str) -> Option<(u64, String)> {
        let text = fs::read_to_string(self.folder(name).join("identity")).ok()?;
        let (size, validator) = text.split_once('\n')?;
        Some((size.parse().ok()?, validator.to_string()))
    }

    /// Bytes `[start, end)` if every piece is on disk.
    pub fn get(&self, name: &str, start: u64, end: u64) -> Option<Response> {
        let (size, validator) = self.identity(name)?;
        let end = end.min(size);
        if !start.is_multiple_of(PIECE) || start >= end {
            return None;
        }
        let mut bytes = Vec::with_capacity((end - start) as usize);
        let mut at = start;
        while at < end {
            let piece = fs::read(self.folder(name).join(format!("{}", at / PIECE))).ok()?;
            let want = PIECE.min(size - at) as usize;
            if piece.len() != want {
                return None;
            }
            bytes.extend_from_slice(&piece);
            at += PIECE;
        }
        bytes.truncate((end - start) as usize);
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
        match self.identity(name) {
            Some((s, v)) if s == size && v == validator => {}
            _ => {
                let _ = fs::remove_dir_all(&folder);
                if fs::create_dir_all(&folder).is_err() {
                    return;
                }
                let _ = fs::write(folder.join("identity"), format!("{size}\n{validator}"));
            }
        }
        if !start.is_multiple_of(PIECE) {
            return;
        }
        let mut at = 0usize;
        while at < bytes.len() {
            let off = start + at as u64;
            let want = PIECE.min(size - off) as usize;
            if at + want > bytes.len() {
                break;
            }
            let _ = fs::write(
                folder.join(format!("{}", off / PIECE)),
                &bytes[at..at + want],
            );
            at += want;
        }
    }
}
