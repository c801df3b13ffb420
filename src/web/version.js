// A file's version as its answers tell it: a validator holding the ETag
// (quoted, as HTTP sends it) and the Last-Modified of an answer, either
// missing. Compared kind by kind, as the core does (`engine::same_version`,
// whose unit test holds the cases of version.test.mjs): a host may send
// the ETag on some answers only (a CDN node or proxy that strips it), and
// its answers still share the date to compare.

/** Without HTTP's optional white space (spaces and tabs) around. */
function ows(v) {
  return v.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** Whether a tag is quoted as HTTP sends one: `"..."` or `W/"..."`. */
function isQuoted(tag) {
  const t = tag.startsWith('W/') ? tag.slice(2) : tag;
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"');
}

/** A tag quoted, if it is not yet (an empty one stays empty; quotes inside a bare one are dropped, a weakness mark kept in front). */
function quoted(tag) {
  tag = ows(tag);
  if (!tag || isQuoted(tag)) return tag;
  const weak = tag.startsWith('W/') && tag.slice(2).replaceAll('"', '') !== '';
  const body = weak ? tag.slice(2) : tag;
  return `${weak ? 'W/' : ''}"${body.replaceAll('"', '')}"`;
}

/** Whether an unquoted value is a date: an HTTP-date (IMF, RFC 850 or asctime form) holds a time of day. */
function isDate(v) {
  return v.endsWith('GMT') || /\d\d:\d\d:\d\d/.test(v);
}

/**
 * A validator's [tag, date], '' where missing. The tag: a quoted one at
 * its start (an ETag, perhaps weak), else the whole where it is no date (an
 * ETag kept bare before 2026-12-02, a local file's stamp, a generated
 * table's version). The date: what follows the tag (not the rest of a
 * repeated ETag header, kept so before 2026-12-02), or the whole where it
 * is one.
 */
function kinds(v) {
  v = ows(v || '');
  if (!v) return ['', ''];
  const head = v.startsWith('W/') ? 2 : 0;
  if (v[head] === '"') {
    const close = v.indexOf('"', head + 1);
    if (close >= 0) {
      const rest = ows(v.slice(close + 1));
      return [v.slice(0, close + 1), rest.startsWith(',') || rest.includes('"') ? '' : rest];
    }
  }
  return isDate(v) ? ['', v] : [v, ''];
}

/** A tag as compared: without its weakness mark and its quotes. */
function bare(tag) {
  return (tag.startsWith('W/') ? tag.slice(2) : tag).replace(/^"+|"+$/g, '');
}

/** A tag and a date as one validator (the tag quoted where a date follows). */
function joined(tag, date) {
  if (tag && date) return `${quoted(tag)} ${date}`;
  return tag || date;
}

/** The validator of response headers' `etag` and `lastModified` (either null). */
export function validatorOf(etag, lastModified) {
  etag = ows(etag || '');
  const [tag] = kinds(etag);
  const t = tag && isQuoted(tag) ? tag : quoted(etag.replaceAll('"', ''));
  return joined(t, ows((lastModified || '').replaceAll('"', '')));
}

/** Whether validators `a` and `b` can be of one version: every kind both carry agrees. */
export function sameVersion(a, b) {
  const [ta, da] = kinds(a);
  const [tb, db] = kinds(b);
  return !(ta && tb && bare(ta) !== bare(tb)) && !(da && db && da !== db);
}

/** The validator of a version known as `known` and answered as `fresh`: every kind either carried. */
export function mergedVersion(known, fresh) {
  const [tk, dk] = kinds(known);
  const [tn, dn] = kinds(fresh);
  if ((!tn || tk) && (!dn || dk)) return known || '';
  return joined(tk || tn, dk || dn);
}
