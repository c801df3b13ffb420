//! Table files the engine has heard of, and what it knows about each.

use std::sync::Arc;

use crate::format::header::Header;
use crate::format::Kind;
use crate::store::{FastMap, FileId};

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

/// Whether two answers' validators can be of one version: equal, or one
/// empty (a server that sends none matches any), or of different kinds. A
/// host may send an ETag on some answers and only a Last-Modified (an
/// HTTP-date, which ends in "GMT") on others: the two cannot be compared,
/// and taking them for a change dropped the file's pages on every answer
/// until the run failed with a file that keeps changing. The size is
/// compared all the same.
pub fn same_version(a: &str, b: &str) -> bool {
    let date = |v: &str| v.ends_with("GMT");
    a == b || a.is_empty() || b.is_empty() || date(a) != date(b)
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
            // The known validator stays unless it was empty.
            Some((s, v)) if *s == size && same_version(v, validator) => {
                (false, if v.is_empty() { validator } else { v }.to_string())
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

    /// An ETag on some answers and only a Last-Modified on others: not a
    /// change (the ETag known stays); either kind changing is one.
    #[test]
    fn an_etag_and_a_date_are_not_compared() {
        let date = "Wed, 02 Dec 2026 10:00:00 GMT";
        let mut f = Files::default();
        let id = f.id("KQvK", Kind::Wdl, 1024);
        assert!(!f.set_identity(id, 100, "\"a\""));
        assert!(!f.set_identity(id, 100, date));
        assert!(!f.set_identity(id, 100, "\"a\""));
        assert_eq!(f.seen(id), Some((100, "\"a\"".to_string())));
        assert!(f.set_identity(id, 100, "\"b\""), "another ETag");
        assert!(f.set_identity(id, 120, date), "another size");
        assert!(
            f.set_identity(id, 120, "Wed, 02 Dec 2026 10:00:01 GMT"),
            "another date"
        );
        assert!(same_version("", date) && same_version("1234-5", ""));
        assert!(!same_version("1234-5", "1234-6"));
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
