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

/// A driver's validator of an answer: its ETag (quoted, as HTTP sends it:
/// the first quoted tag of the header, one sent bare quoted) and its
/// Last-Modified, either missing. A host may send the ETag on some
/// answers only (a CDN node or proxy strips it): with both kept, answers
/// still share the date to compare.
pub fn validator_of(etag: Option<&str>, last_modified: Option<&str>) -> String {
    let etag = ows(etag.unwrap_or(""));
    let etag = match kinds(etag) {
        (Some(tag), _) if is_quoted(tag) => tag.to_string(),
        _ => quoted(&etag.replace('"', "")),
    };
    let date = last_modified.map_or(String::new(), |d| d.replace('"', ""));
    joined(&etag, ows(&date))
}

/// Without HTTP's optional white space (spaces and tabs) around.
fn ows(v: &str) -> &str {
    v.trim_matches([' ', '\t'])
}

/// Whether a tag is quoted as HTTP sends one: `"..."` or `W/"..."`.
fn is_quoted(tag: &str) -> bool {
    let t = tag.strip_prefix("W/").unwrap_or(tag);
    t.len() >= 2 && t.starts_with('"') && t.ends_with('"')
}

/// A tag quoted, if it is not yet (an empty one stays empty; quotes inside
/// a bare one are dropped, and a weakness mark kept in front).
fn quoted(tag: &str) -> String {
    let tag = ows(tag);
    if tag.is_empty() || is_quoted(tag) {
        return tag.to_string();
    }
    let (weak, body) = match tag.strip_prefix("W/") {
        Some(body) if !body.replace('"', "").is_empty() => ("W/", body),
        _ => ("", tag),
    };
    format!("{weak}\"{}\"", body.replace('"', ""))
}

/// Whether an unquoted value is a date: an HTTP-date (IMF, RFC 850 or
/// asctime form) holds a time of day, hh:mm:ss; a local file's stamp or
/// a generated table's version holds none.
fn is_date(v: &str) -> bool {
    let digits = |w: &[u8]| w.iter().all(u8::is_ascii_digit);
    v.ends_with("GMT")
        || v.as_bytes().windows(8).any(|w| {
            digits(&w[..2]) && w[2] == b':' && digits(&w[3..5]) && w[5] == b':' && digits(&w[6..])
        })
}

/// A validator's tag and date. The tag: a quoted one at its start (an
/// ETag, perhaps weak), else the whole where it is no date (an ETag kept
/// bare before 2026-12-02, a local file's stamp, a generated table's
/// version). The date: what follows the tag (not the rest of a repeated
/// ETag header, kept so before 2026-12-02), or the whole where it is one.
fn kinds(v: &str) -> (Option<&str>, Option<&str>) {
    let v = ows(v);
    if v.is_empty() {
        return (None, None);
    }
    let unweak = v.strip_prefix("W/").unwrap_or(v);
    if let Some(body) = unweak.strip_prefix('"') {
        if let Some(close) = body.find('"') {
            let end = v.len() - body.len() + close + 1;
            let rest = ows(&v[end..]);
            let date = !(rest.is_empty() || rest.starts_with(',') || rest.contains('"'));
            return (Some(&v[..end]), date.then_some(rest));
        }
    }
    if is_date(v) {
        (None, Some(v))
    } else {
        (Some(v), None)
    }
}

/// A tag as compared: without its weakness mark and its quotes.
fn bare(tag: &str) -> &str {
    tag.strip_prefix("W/").unwrap_or(tag).trim_matches('"')
}

/// A tag and a date as one validator (the tag quoted where a date
/// follows, so that [`kinds`] finds where it ends).
fn joined(tag: &str, date: &str) -> String {
    match (tag.is_empty(), date.is_empty()) {
        (false, false) => format!("{} {date}", quoted(tag)),
        (false, true) => tag.to_string(),
        _ => date.to_string(),
    }
}

/// Whether two answers' validators can be of one version: each kind both
/// carry (tag, date) agrees. One without a validator matches any, and so
/// do two that share no kind (an ETag alone against a date alone): the
/// size is compared all the same.
pub fn same_version(a: &str, b: &str) -> bool {
    let ((ta, da), (tb, db)) = (kinds(a), kinds(b));
    let tags_differ = matches!((ta, tb), (Some(x), Some(y)) if bare(x) != bare(y));
    let dates_differ = matches!((da, db), (Some(x), Some(y)) if x != y);
    !tags_differ && !dates_differ
}

/// The validator of a version known as `known` and answered as `new`
/// (of one version, by [`same_version`]): every kind either carried, so
/// that later answers find one to compare.
pub fn merged_version(known: &str, new: &str) -> String {
    let ((tk, dk), (tn, dn)) = (kinds(known), kinds(new));
    if (tn.is_none() || tk.is_some()) && (dn.is_none() || dk.is_some()) {
        return known.to_string();
    }
    joined(tk.or(tn).unwrap_or(""), dk.or(dn).unwrap_or(""))
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

    /// An ETag on some answers only: the dates compare, and a change of
    /// either kind that both answers carry is a change.
    #[test]
    fn validators_compare_by_the_kinds_both_carry() {
        let (d1, d2) = (
            "Wed, 02 Dec 2026 10:00:00 GMT",
            "Wed, 02 Dec 2026 10:00:01 GMT",
        );
        let a = validator_of(Some("\"a\""), Some(d1));
        assert_eq!(a, format!("\"a\" {d1}"));
        assert_eq!(validator_of(Some("W/\"x y\""), None), "W/\"x y\"");
        assert_eq!(validator_of(Some("bare"), Some(" ")), "\"bare\"");
        assert_eq!(validator_of(None, None), "");
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
        // Sharing no kind: the size alone.
        assert!(same_version("\"a\"", d2) && same_version("", d1) && same_version("1234-5", ""));
        assert!(!same_version("1234-5", "1234-6"));
        assert_eq!(merged_version("\"a\"", d1), a);
        // Tags sent bare (kept so before 2026-12-02), weak, or with junk.
        assert!(same_version("abc", &validator_of(Some("abc"), Some(d1))));
        assert_eq!(merged_version("abc", d1), format!("\"abc\" {d1}"));
        assert!(same_version("W/\"a\"", "\"a\""));
        assert_eq!(validator_of(Some("\"a\", \"a\""), None), "\"a\"");
        assert_eq!(
            validator_of(Some("\"abc"), Some(d1)),
            format!("\"abc\" {d1}")
        );
        assert_eq!(validator_of(Some("W/"), None), "\"W/\"");
        assert_eq!(merged_version("v1", "v1"), "v1");
        assert_eq!(merged_version("", "1234-5"), "1234-5");
        // Local files' stamps and generated versions: tags.
        assert!(same_version("1234-5", "1234-5") && !same_version("v1", "v2"));
        // Dates in other forms; a weak tag cut short; a repeated header
        // kept whole before 2026-12-02.
        let asctime = "Sun Nov  6 08:49:37 1994";
        assert!(same_version(
            &validator_of(Some("\"e\""), Some(asctime)),
            asctime
        ));
        assert!(!same_version(asctime, "Sun Nov  6 08:49:38 1994"));
        assert_eq!(validator_of(Some("W/\"abc"), None), "W/\"abc\"");
        assert!(same_version(
            "\"a\", \"a\"",
            &validator_of(Some("\"a\""), Some(d1))
        ));
        assert_eq!(
            validator_of(Some("\t\"a\" "), Some(" \u{85}")),
            "\"a\" \u{85}"
        );
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
