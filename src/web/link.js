// How fast the link brings bytes, to choose between sending requests at once
// and one probe's after another's. On a fast link a wave of requests costs
// a round trip whatever it carries, so everything goes at once; on a slow
// one (a phone) bytes cost more than rounds, and the position's outcome
// should not share the wire with the heads its DTZ needs.
//
// Times come from the network stack (Resource Timing), not from when the
// page read each chunk: a page busy probing reads chunks late, and a table
// body timed in script read as 1-2 MB/s where it came at 20. Only where
// the network stack times no body (tables on another origin that sends no
// Timing-Allow-Origin) do script times count.

/**
 * Below this many bytes a millisecond (1 MB/s, 8 Mbit/s) the link is slow:
 * there the 16-64 KiB of a table's sparse index take 16-64 ms or more, a
 * good part of a round trip. The phone profile of the cold benchmark (1.6
 * Mbit/s) reads about 0.2.
 */
const SLOW = 1000;
/**
 * From this many bytes a millisecond (2 MB/s, 16 Mbit/s) a table's whole
 * index comes in its head (see Core.setIndexInHead): up to 48 KiB more a
 * table, 24 ms alone on the link at this rate, where the request it saves
 * would wait a round trip for a connection. The page's own wasm, timed
 * from a local server on a busy 2-core machine, came at 6-37 MB/s.
 */
const ROOMY = 2000;
/**
 * Most gap bytes fetched to save a request (see `joinBytes`): the KQRvKR
 * position of the cold benchmark with black to move takes its 5 DTZ
 * brackets in 3 requests across 132 KiB of gaps, and its second round in
 * one wave of 6; the rook promotion's move list over HTTP/1.1 takes 41
 * requests in 7 waves of 6 with requests waiting at the gate joined across
 * this much, 48 in 8 across 32 KiB.
 */
const JOIN_BUDGET = 256 << 10;
/** Bodies shorter than this say more about latency than about bandwidth. */
const MEASURED = 16 << 10;
/** Bodies timed this long ago no longer share the link with a new one. */
const WINDOW_MS = 2000;
/**
 * Where the rate last measured is kept for the next visit, and how long it
 * stands there: a revisit's page and module come from the cache, which
 * times nothing, and an unmeasured link is taken as fast. On a phone that
 * sent a revisit's first probe fanning out over the slow link (the phone
 * profile, a link to another position after a visit: 2.75-3.34 s to the
 * result, against 2.54-2.60 s on a first visit).
 */
const KEPT = 'syzygy-web:link-rate';
const KEPT_MS = 24 * 3600 * 1000;

let shared = null;

/**
 * The page's link: one for every Tablebase of the page, since they share
 * its network, and one observer of its resource entries however many
 * Tablebases a page makes (each had its own, never disconnected).
 */
export function pageLink() {
  shared ??= new Link();
  return shared;
}

export class Link {
  constructor() {
    // Bytes per millisecond, or null while nothing was measured.
    this.rate = fromPage();
    if (this.rate === null) this.rate = lastVisit();
    else this.setRate(this.rate);
    // Bodies timed lately: {start, end, bytes}.
    this.bodies = [];
    // Whether the network stack has timed a body (then script times are ignored).
    this.networkTimed = false;
    // The shortest wait from a request to its answer's first byte of the
    // last WINDOW_MS (ms; the last one known once none is that recent),
    // and the waits: {at, ms}.
    this.trip = null;
    this.trips = [];
    this.observer = null;
    if (typeof PerformanceObserver === 'undefined') return;
    try {
      this.observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) this.timed(e);
      });
      this.observer.observe({ type: 'resource' });
    } catch (e) {
      // No Resource Timing here: the page's estimate stands.
    }
  }

  /**
   * A body the network stack timed (a resource entry; one from another
   * origin that sends no Timing-Allow-Origin has no times, and one from a
   * cache transferred less than its body: both are skipped).
   * Bodies arriving together share the link (six connections, or the
   * streams of one HTTP/2 connection), so each group of overlapping spans
   * is timed as one: its bytes over its span. The fastest group of the
   * last WINDOW_MS is the link's rate: a body alone, or one a busy server
   * sent slowly, understates the link, and no group overstates it.
   */
  timed(e) {
    if (!(e.responseStart > 0) || !(e.responseEnd > e.responseStart) || !(e.encodedBodySize > 0)) return;
    if (!(e.transferSize >= e.encodedBodySize)) return;
    if (e.requestStart > 0 && e.responseStart >= e.requestStart) this.waited(e.responseStart, e.responseStart - e.requestStart);
    const body = { start: e.responseStart, end: e.responseEnd, bytes: e.encodedBodySize };
    this.networkTimed = true;
    this.bodies = this.bodies.filter((b) => b.end > body.start - WINDOW_MS);
    this.bodies.push(body);
    this.bodies.sort((a, b) => a.start - b.start);
    let best = null;
    let group = null;
    const close = () => {
      if (group && group.bytes >= MEASURED) best = Math.max(best || 0, group.bytes / Math.max(group.end - group.start, 1));
    };
    for (const b of this.bodies) {
      if (group && b.start <= group.end) {
        group.end = Math.max(group.end, b.end);
        group.bytes += b.bytes;
      } else {
        close();
        group = { start: b.start, end: b.end, bytes: b.bytes };
      }
    }
    close();
    if (best !== null) this.setRate(best);
  }

  setRate(rate) {
    this.rate = rate;
    // A synchronous storage write: only when the rate moved by a tenth.
    if (!(Math.abs(rate - (this.kept ?? 0)) <= rate / 10)) {
      this.kept = rate;
      keep(rate);
    }
  }

  /**
   * A table body timed in script: `bytes` from its first chunk to its last
   * in `ms`. Counted until the network stack times a body.
   */
  read(bytes, ms) {
    if (this.networkTimed || bytes < MEASURED) return;
    const rate = bytes / Math.max(ms, 1);
    this.setRate(this.rate === null ? rate : (this.rate + rate) / 2);
  }

  /**
   * A request answered (its first byte) `ms` after it was sent, in script:
   * counted until the network stack times a body.
   */
  answered(ms) {
    if (!this.networkTimed) this.waited(performance.now(), ms);
  }

  waited(at, ms) {
    this.trips = this.trips.filter((t) => t.at > at - WINDOW_MS);
    this.trips.push({ at, ms });
    this.trip = Math.min(...this.trips.map((t) => t.ms));
  }

  /**
   * Bytes the link brings in about a round trip: what a request more
   * costs, against which fetching a gap between two ranges is cheap. 0
   * while either is unmeasured, or on a slow link, where bytes cost more.
   */
  tripBytes() {
    if (this.observer) for (const e of this.observer.takeRecords()) this.timed(e);
    if (this.rate === null || this.trip === null || this.slow()) return 0;
    return this.rate * this.trip;
  }

  /**
   * Most gap bytes worth fetching between two ranges of a file to save a
   * request that would wait for a connection: `tripBytes`, at most
   * JOIN_BUDGET.
   */
  joinBytes() {
    return Math.min(JOIN_BUDGET, this.tripBytes());
  }

  /** True only when measured slow: an unmeasured link is taken as fast. */
  slow() {
    return this.rate !== null && this.rate < SLOW;
  }

  /**
   * What `stats().link` reports: what request planning weighs bytes
   * against round trips by (each null until measured).
   */
  summary() {
    const round = (x) => (x === null ? null : Math.round(x));
    return { bytesPerMs: round(this.rate), tripMs: round(this.trip) };
  }

  /**
   * Measured fast enough for whole table indexes in heads (see ROOMY).
   * Unlike `slow`, an unmeasured link is not: a page from the cache on a
   * phone would otherwise take up to 48 KiB more a table before its first
   * answer (a revisit at 1.6 Mbit/s: 2.2 s instead of 1.7 for KRNvKR).
   */
  roomy() {
    return this.rate !== null && this.rate >= ROOMY;
  }
}

/** Keeps `rate` for the next visit (see KEPT). */
function keep(rate) {
  try {
    globalThis.localStorage?.setItem(KEPT, JSON.stringify({ rate, at: Date.now() }));
  } catch {
    /* no storage (a worker, a sandboxed frame): the next visit measures anew */
  }
}

/** The rate a visit of the last KEPT_MS measured, or null. */
function lastVisit() {
  try {
    const { rate, at } = JSON.parse(globalThis.localStorage?.getItem(KEPT) ?? 'null') ?? {};
    return typeof rate === 'number' && rate > 0 && Date.now() - at < KEPT_MS ? rate : null;
  } catch {
    return null;
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
