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

    /// Records size and validator; true when either changed.
    pub fn set_identity(&mut self, id: FileId, size: u64, validator: &str) -> bool {
        let (was_open, same, header, known) = match self.state(id) {
            State::Open {
                size: s,
                validator: v,
                header,
            } => {
                // An empty validator (a server that sends none) matches any.
                let same = s == size && (v == validator || v.is_empty() || validator.is_empty());
                (true, same, header, v)
            }
            _ => (false, false, None, String::new()),
        };
        let validator = if same && !known.is_empty() {
            known
        } else {
            validator.to_string()
        };
        let header = if same { header } else { None };
        self.set_state(
            id,
            State::Open {
                size,
                validator,
                header,
            },
        );
        was_open && !same
    }
}
