// Fault specs: which requests get which misbehaviour.

/** Fault modes and their parameters (defaults in brackets). */
export const FAULT_MODES = Object.freeze({
  'ignore-range': 'reply 200 with the whole file, as a server that ignores Range; `chunked` [false]: without Content-Length (a chunked stream over HTTP/1.1)',
  'single-range': 'reply 200 with the whole file to a request for several ranges, as a server that takes one range only',
  'first-range': 'reply to a request for several ranges with a plain 206 for the first of them alone',
  'drop-several': 'close the connection without an answer to a request for several ranges, as a proxy that cannot pass them; one range is served normally',
  'refuse-several': 'reply `status` [400] to a request for several ranges, as some proxies and CDNs do; one range is served normally',
  status: 'reply with `status` [500]; optional `body`, sent a byte every `intervalMs` where that is given',
  truncate: 'normal headers, send only `bytes` [half the body] then end the connection cleanly',
  reset: 'normal headers, send `bytes` [half the body] then reset the socket',
  slow: 'wait `delayMs` [1000] before replying normally',
  drip: 'send the body in `chunk` [1024] byte pieces every `intervalMs` [50]',
  'wrong-range': '206 whose Content-Range start is off by `shift` [1] and/or whose size is off by `sizeDelta` [0]; body = the requested bytes',
  'wider-range': '206 for a range that starts `before` [4096] bytes before the one asked (not before byte 0), its Content-Range and body both from there, as RFC 9110 lets a server send; a request for several ranges is answered as usual',
  gzip: 'apply Content-Encoding: gzip to the (range) body',
  redirect: 'reply `status` [302] to /redirected<path>, which is served normally; with `to` (an absolute URL ending in /), to `to` + the path past its first segment (another server: a redirect to another origin)',
  'etag-change': 'bump the file generation (new ETag and Last-Modified), then reply normally',
  'no-cors': 'reply normally but without any CORS header',
});
// Any mode waits `delayMs` [0] before its answer (slow: [1000]).
// Any mode takes `headers`, added to its answer; one named with null is
// left out of a file's answer (`{ETag: null}`: a host that sends none).
// Any mode that shapes a body (drip, truncate, reset) takes `whole: true`:
// status 200 and the whole file, as from a server that ignores Range.

function normalizeSpec(raw, i) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new Error(`fault ${i}: expected an object`);
  }
  if (!Object.hasOwn(FAULT_MODES, raw.mode)) {
    throw new Error(`fault ${i}: unknown mode ${JSON.stringify(raw.mode)}; modes: ${Object.keys(FAULT_MODES).join(', ')}`);
  }
  const match = raw.match == null ? '*' : String(raw.match);
  const count = raw.count == null ? Infinity : Number(raw.count);
  const skip = raw.skip == null ? 0 : Number(raw.skip);
  if (!(count >= 0) || (count !== Infinity && !Number.isInteger(count))) throw new Error(`fault ${i}: bad count`);
  if (!(skip >= 0) || !Number.isInteger(skip)) throw new Error(`fault ${i}: bad skip`);
  for (const k of ['status', 'bytes', 'delayMs', 'chunk', 'intervalMs', 'shift', 'sizeDelta', 'before']) {
    if (raw[k] != null && !Number.isFinite(Number(raw[k]))) throw new Error(`fault ${i}: ${k} must be a number`);
  }
  if (raw.chunk != null && !(Number(raw.chunk) >= 1)) throw new Error(`fault ${i}: chunk must be >= 1`);
  if (raw.before != null && !(Number(raw.before) >= 0)) throw new Error(`fault ${i}: before must be >= 0`);
  if (raw.to != null && !/^https?:\/\/[^/]+\/(.*\/)?$/.test(String(raw.to))) throw new Error(`fault ${i}: to must be an absolute http(s) URL ending in /`);
  if (raw.headers != null && (typeof raw.headers !== 'object' || Array.isArray(raw.headers))) {
    throw new Error(`fault ${i}: headers must be an object`);
  }
  return { ...raw, match, count, skip, remaining: count, skipLeft: skip, hits: 0 };
}

/**
 * Accepts a spec, an array of specs, or {faults: [...], latencyMs}. Returns
 * {specs, latencyMs (undefined = unchanged)}; throws on invalid input.
 */
export function normalizeFaults(obj) {
  if (obj == null) return { specs: [], latencyMs: undefined };
  let list;
  let latencyMs;
  if (Array.isArray(obj)) list = obj;
  else if (typeof obj !== 'object') throw new Error('faults: expected an object or an array');
  else if (obj.mode !== undefined) list = [obj];
  else {
    list = obj.faults == null ? [] : obj.faults;
    if (!Array.isArray(list)) throw new Error('faults: `faults` must be an array');
    if (obj.latencyMs != null) {
      latencyMs = Number(obj.latencyMs);
      if (!(latencyMs >= 0)) throw new Error('faults: latencyMs must be >= 0');
    }
  }
  return { specs: list.map(normalizeSpec), latencyMs };
}

export function specMatches(spec, p) {
  if (spec.mode === 'redirect' && p.startsWith('/redirected/')) return false;
  return spec.match === '*' || p.includes(spec.match);
}

export function publicSpec(spec) {
  const { remaining, skipLeft, ...rest } = spec;
  return {
    ...rest,
    count: spec.count === Infinity ? null : spec.count,
    remaining: remaining === Infinity ? null : remaining,
    skipLeft,
  };
}
