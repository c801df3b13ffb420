// A file's version as its answers tell it: a validator holding the ETag
// (quoted, as HTTP sends it) and the Last-Modified of an answer, either
// missing. Compared kind by kind, as the core does (`engine::same_version`):
// a host may send the ETag on some answers only (a CDN node or proxy that
// strips it), and its answers still share the date to compare.

/** The validator of response headers' `etag` and `lastModified` (either null). */
export function validatorOf(etag, lastModified) {
  let e = (etag || '').trim();
  if (e && !e.startsWith('"') && !e.startsWith('W/"')) e = `"${e}"`;
  return joined(e, (lastModified || '').trim());
}

/** [ETag or '', the rest: a Last-Modified, or another driver's opaque tag]. */
function kinds(v) {
  v = v || '';
  const open = v.indexOf('"');
  if (open < 0 || (open > 0 && v.slice(0, open) !== 'W/')) return ['', v.trim()];
  const close = v.indexOf('"', open + 1);
  if (close < 0) return [v, ''];
  return [v.slice(0, close + 1), v.slice(close + 1).trim()];
}

function joined(etag, rest) {
  return etag && rest ? `${etag} ${rest}` : etag || rest;
}

/** Whether validators `a` and `b` can be of one version: every kind both carry agrees. */
export function sameVersion(a, b) {
  const [ea, ra] = kinds(a);
  const [eb, rb] = kinds(b);
  return !(ea && eb && ea !== eb) && !(ra && rb && ra !== rb);
}

/** The validator of a version known as `known` and answered as `fresh`: every kind either carried. */
export function mergedVersion(known, fresh) {
  const [ek, rk] = kinds(known);
  const [en, rn] = kinds(fresh);
  return joined(ek || en, rk || rn);
}
