// Whether a host answers many requests at once (HTTP/2 or 3) or six at a
// time (HTTP/1.1), told by the answers' times: Resource Timing names the
// protocol of another origin only where it sends Timing-Allow-Origin,
// which few static hosts and CDNs do.

// Answers kept per origin: enough for any window of 1.5 round trips.
const KEEP = 64;
// Answers that must show HTTP/1.1 before it is taken for shown: one could
// be a stall of the page's main thread.
const SHOWN_TWICE = 2;
// A request that waited for a connection takes at least this many trips.
const WAITED = 1.5;

/**
 * The requests out and lately answered, by origin, timed from their start
 * to their answer's headers (a body's time depends on the link's
 * bandwidth, shared by every stream of a multiplexed host). An answer
 * takes at least `trip`, the shortest seen from that origin; over
 * HTTP/1.1 a connection carries one request at a time, so within 1.5
 * trips each of `limit` connections answers at most one: more requests
 * started and answered inside such a window show a multiplexed host.
 * The other way: a request that started with `limit` others to its origin
 * out, took half a trip more than a trip, and was answered most of a trip
 * after the first of them: over HTTP/1.1 it waited for a connection, where
 * a multiplexed host answers it about a trip after its start (and a stall
 * of the page delays answers together). Which of those it waited for the
 * browser decides by priority, not by start: the answer before it may
 * have come before it started. Failed requests tell nothing (a quick error
 * is no round trip).
 */
export class Crowd {
  constructor(limit) {
    this.limit = limit;
    this.out = new Set();
    // origin -> {trip, answers: [{start, end, late}], http1: count}
    this.origins = new Map();
  }

  /** A request to `origin` leaves at `now` (ms): its token for `answered`, then `end` or `drop`. */
  start(origin, now) {
    const ahead = [...this.out].filter((r) => r.origin === origin);
    const r = { origin, start: now, end: null, ahead: ahead.length >= this.limit ? ahead : null };
    this.out.add(r);
    return r;
  }

  /**
   * The headers of token `r`'s answer came at `now`; `late`: the page's
   * thread was held while it was out (a stall inflates every answer's
   * time it delays, and the shortest trip with them: six connections
   * would then look like many answering at once), and its wait for a
   * connection with it: a late answer shows neither protocol.
   */
  answered(r, now, late = false) {
    r.end = now;
    r.late = late;
  }

  /** The request of token `r` failed: it tells nothing. */
  drop(r) {
    this.out.delete(r);
    r.end = null;
    r.ahead = null;
  }

  /**
   * The request of token `r` is over, answered (see `answered`): true
   * where the times show a multiplexed host, false where they show one
   * request a connection, null where they show neither yet.
   */
  end(r) {
    this.out.delete(r);
    const now = r.end;
    const ahead = r.ahead;
    r.ahead = null;
    const o = this.origins.get(r.origin) || { trip: Infinity, answers: [], http1: 0 };
    this.origins.set(r.origin, o);
    o.answers.push({ start: r.start, end: now, late: r.late });
    if (o.answers.length > KEEP) o.answers.shift();
    // A late answer times no trip and counts in no window: the stall in
    // its time could make the window hold several waves of six.
    if (!r.late) o.trip = Math.min(o.trip, now - r.start);
    if (o.trip === Infinity) return null;
    const from = now - 1.5 * o.trip;
    if (o.answers.filter((a) => !a.late && a.start >= from && a.end <= now).length > this.limit) return true;
    // A stall inflates a late answer's time and its wait alike.
    if (!ahead || r.late) return null;
    const ends = ahead.filter((a) => a.end !== null).map((a) => a.end);
    if (!ends.length) return null;
    const first = Math.min(...ends);
    if (now - r.start < WAITED * o.trip || now - first < 0.7 * o.trip) return null;
    o.http1++;
    return o.http1 >= SHOWN_TWICE ? false : null;
  }
}
