//! Table files the engine has heard of, and what it knows about each.

use std::sync::Arc;

use crate::format::header::Header;
use crate::format::Kind;
use crate::store::{FastMap, FileId};

use super::version::{merged_version, same_version};

#[derive(Debug, Clone)]
pub enum State {
    /// Never fetched.
    Unknown,
    /// Not available at any location.
    Absent,
    /// Size known; header parsed once enough bytes arrived.
    Open {
        size: u64,
        validator: String,
        header: Option<Arc<Header>>,
    },
    /// The bytes break the format.
    Corrupt(String),
}

#[derive(Debug, Clone)]
struct Entry {
    name: String,
    kind: Kind,
    state: State,
    /// Bytes to fetch when opening: enough for the largest header this material can have.
    head: u64,
    /// Its server ignores Range: reading a page means streaming the file
    /// up to it, so only pages a probe needs are worth reading.
    streamed: bool,
    /// The last size and validator an answer gave, whatever the state
    /// since (absent, corrupt): pages held are of that version.
    seen: Option<(u64, String)>,
}

/// What a driver may want to know about a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileInfo {
    pub name: String,
    pub size: Option<u64>,
    pub validator: Option<String>,
}

#[derive(Debug, Default)]
pub struct Files {
    /// Table name to the ids of its WDL and DTZ files, looked up by `&str`
    /// so that the warm path allocates nothing.
    ids: FastMap<String, [Option<FileId>; 2]>,
    entries: Vec<Entry>,
}

fn slot(kind: Kind) -> usize {
    match kind {
        Kind::Wdl => 0,
        Kind::Dtz => 1,
    }
}

impl Files {
    pub fn id(&mut self, name: &str, kind: Kind, head: u64) -> FileId {
        if let Some(&Some(id)) = self.ids.get(name).map(|ids| &ids[slot(kind)]) {
            return id;
        }
        let id = self.entries.len() as FileId;
        self.entries.push(Entry {
            name: name.to_string(),
            kind,
            state: State::Unknown,
            head,
            streamed: false,
            seen: None,
        });
        self.ids.entry(name.to_string()).or_default()[slot(kind)] = Some(id);
        id
    }

    /// The parsed header, if the file is open and parsed (the warm path).
    pub fn header(&self, id: FileId) -> Option<Arc<Header>> {
        match &self.entries.get(id as usize)?.state {
            State::Open {
                header: Some(h), ..
            } => Some(h.clone()),
            _ => None,
        }
    }

    pub fn head(&self, id: FileId) -> u64 {
        self.entries.get(id as usize).map_or(0, |e| e.head)
    }

    pub fn streamed(&self, id: FileId) -> bool {
        self.entries.get(id as usize).is_some_and(|e| e.streamed)
    }

    pub fn set_streamed(&mut self, id: FileId, on: bool) {
        if let Some(e) = self.entries.get_mut(id as usize) {
            e.streamed = on;
        }
    }

    pub fn state(&self, id: FileId) -> State {
        self.entries
            .get(id as usize)
            .map_or(State::Unknown, |e| e.state.clone())
    }

    pub fn set_state(&mut self, id: FileId, state: State) {
        if let Some(e) = self.entries.get_mut(id as usize) {
            e.state = state;
        }
    }

    pub fn name(&self, id: FileId) -> String {
        self.entries.get(id as usize).map_or_else(String::new, |e| {
            format!("{}.{}", e.name, e.kind.extension())
        })
    }

    pub fn info(&self, id: FileId) -> Option<FileInfo> {
        let e = self.entries.get(id as usize)?;
        let (size, validator) = match &e.state {
            State::Open {
                size, validator, ..
            } => (Some(*size), Some(validator.clone())),
            _ => (None, None),
        };
        Some(FileInfo {
            name: format!("{}.{}", e.name, e.kind.extension()),
            size,
            validator,
        })
    }

    pub fn size(&self, id: FileId) -> Option<u64> {
        match self.entries.get(id as usize)?.state {
            State::Open { size, .. } => Some(size),
            _ => None,
        }
    }

    pub fn set_absent(&mut self, id: FileId) {
        self.set_state(id, State::Absent);
    }

    /// The last size and validator an answer gave, whatever the state since.
    pub fn seen(&self, id: FileId) -> Option<(u64, String)> {
        self.entries.get(id as usize)?.seen.clone()
    }

    /// Whether `id` names a file of this engine.
    pub fn known(&self, id: FileId) -> bool {
        (id as usize) < self.entries.len()
    }

    /// Records size and validator and opens the file; true when either
    /// differs from the last answer's, even with the file found absent or
    /// corrupt since (its pages are that version's).
    pub fn set_identity(&mut self, id: FileId, size: u64, validator: &str) -> bool {
        let Some(e) = self.entries.get_mut(id as usize) else {
            return false;
        };
        let (changed, validator) = match &e.seen {
            // What either carried is kept.
            Some((s, v)) if *s == size && same_version(v, validator) => {
                (false, merged_version(v, validator))
            }
            Some(_) => (true, validator.to_string()),
            None => (false, validator.to_string()),
        };
        let header = match &e.state {
            State::Open { header, .. } if !changed => header.clone(),
            _ => None,
        };
        e.seen = Some((size, validator.clone()));
        e.state = State::Open {
            size,
            validator,
            header,
        };
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::version::validator_of;

    /// An ETag on some answers only: the file's validator learns both
    /// kinds, and a change of either kind both carry is a change.
    #[test]
    fn a_files_validator_compares_by_the_kinds_both_carry() {
        let (d1, d2) = (
            "Wed, 02 Dec 2026 10:00:00 GMT",
            "Wed, 02 Dec 2026 10:00:01 GMT",
        );
        let a = validator_of(Some("\"a\""), Some(d1));
        let mut f = Files::default();
        let id = f.id("KQvK", Kind::Wdl, 1024);
        assert!(!f.set_identity(id, 100, &a));
        assert!(!f.set_identity(id, 100, d1), "the date alone");
        assert!(!f.set_identity(id, 100, "\"a\""), "the ETag alone");
        assert_eq!(f.seen(id), Some((100, a.clone())));
        assert!(f.set_identity(id, 100, d2), "another date");
        let b = validator_of(Some("\"b\""), Some(d2));
        assert!(!f.set_identity(id, 100, &b), "its ETag learnt");
        assert!(
            f.set_identity(id, 100, &validator_of(Some("\"c\""), Some(d2))),
            "another ETag, same date"
        );
        // A date first, then an ETag beside it: both kept, and an ETag
        // alone that differs is a change.
        let id = f.id("KRvK", Kind::Wdl, 1024);
        assert!(!f.set_identity(id, 100, d1));
        assert!(!f.set_identity(id, 100, &a));
        assert!(f.set_identity(id, 100, "\"z\""));
    }

    /// A version that changed while the file was found absent or corrupt
    /// is a change: the pages held are the old version's (until
    /// 2026-11-30 only an open file's change counted, and a 404 then a new
    /// version's answer in one round mixed the two versions' pages).
    #[test]
    fn a_change_across_absent_or_corrupt_is_a_change() {
        let mut f = Files::default();
        let id = f.id("KQvK", Kind::Wdl, 1024);
        assert!(!f.set_identity(id, 100, "\"a\""), "the first answer");
        assert!(!f.set_identity(id, 100, "\"a\""));
        f.set_absent(id);
        assert!(
            f.set_identity(id, 120, "\"b\""),
            "absent, then another version"
        );
        f.set_state(id, State::Corrupt("cut".into()));
        assert!(
            !f.set_identity(id, 120, "\"b\""),
            "corrupt, then the same version"
        );
        f.set_state(id, State::Corrupt("cut".into()));
        assert!(
            f.set_identity(id, 120, "\"c\""),
            "corrupt, then another version"
        );
        // A server that sends no validator matches any, and the known one stays.
        assert!(!f.set_identity(id, 120, ""));
        assert_eq!(
            f.info(id).and_then(|i| i.validator).as_deref(),
            Some("\"c\"")
        );
        assert_eq!(f.seen(id), Some((120, "\"c\"".to_string())));
        f.set_absent(id);
        assert_eq!(
            f.seen(id),
            Some((120, "\"c\"".to_string())),
            "kept while absent"
        );
        assert!(!f.set_identity(99, 1, "x"), "not a file of this engine");
        assert!(!f.known(99) && f.known(id));
    }
}
