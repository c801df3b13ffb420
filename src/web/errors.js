// Errors of the browser driver, with the stable `code` the API documents.

/** An Error with a stable `code`, as the API documents. */
export function fail(message, code) {
  const e = new Error(message);
  e.code = code;
  return e;
}

/**
 * Whether `e` says the wasm module trapped (its memory exhausted, say),
 * or that a core a trap left mid-call was called again (wasm-bindgen's
 * own error, which has no code): that core is unusable from then on.
 */
export function trapped(e) {
  // (A coded error is a failure the runtime named: the worker's stack
  // overflow, say, is a `generate` error, and the page's module is fine.)
  if (typeof e?.code === 'string') return false;
  if (typeof WebAssembly !== 'undefined' && e instanceof WebAssembly.RuntimeError) return true;
  // A stack overflow (V8's RangeError, Firefox's InternalError), a failed
  // allocation of the glue, or the core left mid-call.
  return e instanceof Error && /recursive use of an object|attempted to take ownership of Rust value while it was borrowed|call stack size|too much recursion|invalid malloc request/i.test(e.message);
}

/** A network error that retrying cannot cure (a misconfigured host). */
export function fatal(message) {
  const e = fail(message, 'network');
  e.fatal = true;
  return e;
}

// Longest Retry-After waited for before asking again (seconds).
const MAX_RETRY_AFTER_S = 30;

/**
 * How long a refusal asks to wait before the next try, from its
 * Retry-After in seconds (another origin must expose it to be read), at
 * most MAX_RETRY_AFTER_S; undefined when it names none.
 */
export function retryAfterMs(res) {
  const after = Number((res.headers.get('Retry-After') ?? '').trim() || NaN);
  return Number.isFinite(after) && after >= 0 ? Math.min(after, MAX_RETRY_AFTER_S) * 1000 : undefined;
}
