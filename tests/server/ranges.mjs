// Range headers (RFC 9110) against a file's size.

// Ranges one request may name before the server ignores them (Apache's default MaxRanges).
export const MAX_RANGES = 200;

/**
 * Parses a Range header against a file size. Returns null (no usable Range:
 * send 200), {unsatisfiable: true} (416), {start, end} (inclusive; one
 * satisfiable range) or {parts: [{start, end}, ...]} (several, in the order
 * asked: a multipart answer).
 */
export function parseRange(header, size) {
  if (header == null) return null;
  const m = /^\s*bytes\s*=\s*(.*)$/i.exec(String(header));
  if (!m) return null;
  const specs = m[1].split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (specs.length === 0 || specs.length > MAX_RANGES) return null;
  const parsed = specs.map((spec) => oneRange(spec, size));
  if (parsed.includes(null)) return null;
  const parts = parsed.filter((r) => !r.unsatisfiable);
  if (parts.length === 0) return { unsatisfiable: true };
  return parts.length === 1 ? parts[0] : { parts };
}

/** One `a-b`, `a-` or `-n` against a size: {start, end}, {unsatisfiable}, or null (malformed). */
function oneRange(spec, size) {
  const r = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
  if (!r || (r[1] === '' && r[2] === '')) return null;
  if (r[1] === '') {
    const n = Number(r[2]);
    if (n === 0 || size === 0) return { unsatisfiable: true };
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(r[1]);
  if (r[2] !== '' && Number(r[2]) < start) return { unsatisfiable: true };
  if (start >= size) return { unsatisfiable: true };
  const end = r[2] === '' ? size - 1 : Math.min(Number(r[2]), size - 1);
  return { start, end };
}
