// How fast the link brings bytes, to choose between sending requests at once
// and one probe's after another's. On a fast link a wave of requests costs
// a round trip whatever it carries, so everything goes at once; on a slow
// one (a phone) bytes cost more than rounds, and the position's outcome
// should not share the wire with the heads its DTZ needs.

/** Below this many bytes a millisecond (2 MB/s, 16 Mbit/s) the link is slow. */
const SLOW = 2000;
/** Bodies shorter than this say more about latency than about bandwidth. */
const MEASURED = 16 << 10;

export class Link {
  constructor() {
    // Bytes per millisecond, or null while nothing was measured.
    this.rate = fromPage();
  }

  /** A body of `bytes` took `ms` from its first chunk to its last. */
  observe(bytes, ms) {
    if (bytes < MEASURED) return;
    const rate = bytes / Math.max(ms, 1);
    this.rate = this.rate === null ? rate : (this.rate + rate) / 2;
  }

  /** True only when measured slow: an unmeasured link is taken as fast. */
  slow() {
    return this.rate !== null && this.rate < SLOW;
  }
}

/**
 * The page's own large downloads (its script and wasm module; same origin,
 * so Resource Timing gives their sizes): the first estimate, before any
 * table was fetched. Cached files (no transfer) say nothing.
 */
function fromPage() {
  if (typeof performance === 'undefined' || !performance.getEntriesByType) return null;
  let best = null;
  for (const e of performance.getEntriesByType('resource')) {
    const ms = e.responseEnd - e.responseStart;
    if (e.transferSize < MEASURED || !(ms > 0)) continue;
    const rate = e.transferSize / ms;
    if (best === null || rate > best) best = rate;
  }
  return best;
}
