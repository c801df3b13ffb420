// Reading a multipart/byteranges body (RFC 9110 section 14.6): the answer of a
// server to one request for several ranges of a file.

const CRLFCRLF = [13, 10, 13, 10];
// Longest header block of a part read (servers send two short lines).
const MAX_HEAD = 4096;

/**
 * The parts of a multipart/byteranges body, in the order sent:
 * [{start, end (exclusive), size, bytes}], or null when the body is not one
 * (no boundary, a part without a byte Content-Range, or cut short before
 * its closing delimiter). Each part's length is taken from its
 * Content-Range, never by looking for the next delimiter, which table bytes
 * may contain.
 */
export function byteRanges(body, contentType) {
  const m = /boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType || '');
  if (!m) return null;
  const delimiter = [...`--${m[1] || m[2]}`].map((c) => c.charCodeAt(0) & 0xff);
  const parts = [];
  let at = find(body, delimiter, 0);
  while (at >= 0) {
    at += delimiter.length;
    if (body[at] === 45 && body[at + 1] === 45) return parts; // "--": the closing delimiter
    const headEnd = find(body, CRLFCRLF, at);
    if (headEnd < 0 || headEnd - at > MAX_HEAD) return null;
    const head = String.fromCharCode(...body.subarray(at, headEnd));
    const cr = /content-range:[ \t]*bytes (\d+)-(\d+)\/(\d+)/i.exec(head);
    if (!cr) return null;
    const [start, last, size] = [Number(cr[1]), Number(cr[2]), Number(cr[3])];
    const from = headEnd + CRLFCRLF.length;
    const to = from + last - start + 1;
    if (last < start || last >= size || to > body.length) return null;
    parts.push({ start, end: last + 1, size, bytes: body.subarray(from, to) });
    at = find(body, delimiter, to);
  }
  return null;
}

/** Index of the first `needle` (bytes) in `hay` at or after `from`, or -1. */
function find(hay, needle, from) {
  const first = needle[0];
  for (let i = hay.indexOf(first, from); i >= 0 && i + needle.length <= hay.length; i = hay.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}
