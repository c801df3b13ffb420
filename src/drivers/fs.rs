//! Local table files: every round is served by positioned reads.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;

use super::run::{Fetcher, Request, Response};

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

    fn file(&mut self, name: &str) -> Option<&mut (File, u64, String)> {
        if !self.open.contains_key(name) {
            let found = self.dirs.iter().find_map(|d| {
                let f = File::open(d.join(name)).ok()?;
                let meta = f.metadata().ok()?;
                let stamp = meta
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
                let validator = format!("{}-{}", meta.len(), stamp.map_or(0, |d| d.as_secs()));
                Some((f, meta.len(), validator))
            });
            self.open.insert(name.to_string(), found);
        }
        self.open.get_mut(name).and_then(|o| o.as_mut())
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
        let Some((file, size, validator)) = self.file(&req.name) else {
            return Response::Absent;
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
}
