//! Local table files: every round is served by positioned reads.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;

use super::run::{Fetcher, Request, Response};
use crate::error::ProbeError;

/// Files held open at most (a process may hold 1,024 by default).
const MAX_OPEN: usize = 256;

/// Reads tables from a list of folders, the first holding a file winning.
pub struct FsFetcher {
    dirs: Vec<PathBuf>,
    open: HashMap<String, Option<(File, u64, String)>>,
}

impl FsFetcher {
    pub fn new(dirs: Vec<PathBuf>) -> Self {
        FsFetcher {
            dirs,
            open: HashMap::new(),
        }
    }

    /// The open file `name` of the first folder holding it, None where no
    /// folder does; Err where one could not be opened (too many files open,
    /// no permission), which is not remembered as missing.
    fn file(&mut self, name: &str) -> Result<Option<&mut (File, u64, String)>, String> {
        if !self.open.contains_key(name) {
            // A long session over a 6-7 piece set meets more tables than a
            // process may hold open: past this many, all are let go and
            // opened again as asked.
            if self.open.values().filter(|o| o.is_some()).count() >= MAX_OPEN {
                self.open.retain(|_, o| o.is_none());
            }
            let mut found = None;
            // A folder's copy that cannot be opened does not hide a later
            // folder's; it is the error when none can be.
            let mut failed = None;
            for d in &self.dirs {
                let path = d.join(name);
                let opened = File::open(&path).and_then(|f| Ok((f.metadata()?, f)));
                let (meta, f) = match opened {
                    Ok(m) => m,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                    Err(e) => {
                        failed.get_or_insert(format!("opening {}: {e}", path.display()));
                        continue;
                    }
                };
                let stamp = meta
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
                let validator = format!("{}-{}", meta.len(), stamp.map_or(0, |d| d.as_secs()));
                found = Some((f, meta.len(), validator));
                break;
            }
            if let (None, Some(why)) = (&found, failed) {
                return Err(why);
            }
            self.open.insert(name.to_string(), found);
        }
        Ok(self.open.get_mut(name).and_then(|o| o.as_mut()))
    }

    fn read(&mut self, req: &Request) -> Response {
        // Table names come from material signatures; refuse anything else.
        if !req
            .name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.')
            || req.name.contains("..")
        {
            return Response::Failed("bad table name".into());
        }
        let (file, size, validator) = match self.file(&req.name) {
            Ok(Some(f)) => f,
            Ok(None) => return Response::Absent,
            Err(why) => return Response::Failed(why),
        };
        let (size, validator) = (*size, validator.clone());
        let end = req.end.min(size);
        if req.start > end {
            return Response::Failed("range outside the file".into());
        }
        let mut bytes = vec![0u8; (end - req.start) as usize];
        let r = file
            .seek(SeekFrom::Start(req.start))
            .and_then(|_| file.read_exact(&mut bytes));
        match r {
            Ok(()) => Response::Bytes {
                size,
                validator,
                bytes,
            },
            Err(e) => Response::Failed(e.to_string()),
        }
    }
}

impl Fetcher for FsFetcher {
    fn fetch(&mut self, batch: &[Request]) -> Vec<Response> {
        batch.iter().map(|r| self.read(r)).collect()
    }

    fn failure(&self, name: String, why: String) -> ProbeError {
        ProbeError::Unreadable(name, why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(name: &str) -> Request {
        Request {
            name: name.to_string(),
            start: 0,
            end: 1,
            open: true,
            version: None,
        }
    }

    #[test]
    fn files_past_the_cap_are_let_go_and_opened_again() {
        let dir = std::env::temp_dir().join(format!("syzygy-web-fs-cap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let names: Vec<String> = (0..MAX_OPEN + 40).map(|i| format!("t{i}.rtbw")).collect();
        for n in &names {
            std::fs::write(dir.join(n), b"x").unwrap();
        }
        let mut f = FsFetcher::new(vec![dir.clone()]);
        for n in names.iter().chain(&names) {
            assert!(matches!(f.read(&request(n)), Response::Bytes { .. }), "{n}");
            assert!(f.open.values().filter(|o| o.is_some()).count() <= MAX_OPEN);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_that_cannot_be_opened_is_an_error_not_a_missing_table() {
        // A folder that is a file: the open fails, and not for want of the table.
        let file =
            std::env::temp_dir().join(format!("syzygy-web-fs-notdir-{}", std::process::id()));
        std::fs::write(&file, b"x").unwrap();
        let mut f = FsFetcher::new(vec![file.clone()]);
        match f.read(&request("KQvK.rtbw")) {
            Response::Failed(why) => assert!(why.contains("opening"), "{why}"),
            _ => panic!("not an error"),
        }
        // A later folder's copy is still read.
        let dir = std::env::temp_dir().join(format!("syzygy-web-fs-later-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("KQvK.rtbw"), b"x").unwrap();
        let mut f = FsFetcher::new(vec![file.clone(), dir.clone()]);
        assert!(matches!(
            f.read(&request("KQvK.rtbw")),
            Response::Bytes { .. }
        ));
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_file(&file).unwrap();
    }
}
