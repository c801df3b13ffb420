//! A file's version as its answers tell it: a validator holding the ETag
//! and the Last-Modified of an answer, compared kind by kind (the browser's
//! `src/web/version.js` holds the same rule).

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
}
