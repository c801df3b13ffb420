// Whether a host answers many requests at once (HTTP/2 or 3) or six at a
// time (HTTP/1.1), told by the answers' times: Resource Timing names the
// protocol of another origin only where it sends Timing-Allow-Origin,
// which few static hosts and CDNs do.

// Completed requests kept per origin: enough for any window of 1.5 trips.
const KEEP = 64;

/**
 * The requests out and lately done, by origin. A request takes at least
 * `trip` (the shortest seen) from its start to its end, and over HTTP/1.1
 * a connection carries one request at a time, so within 1.5 trips each of
 * `limit` connections completes at most one: more requests started and
 * ended inside such a window show a multiplexed host. The other way is
 * shown by a request that started with `limit` others to its origin out
 * and took nearly two trips: over HTTP/1.1 it waited a trip for a
 * connection before its own, where a multiplexed host answers it in about
 * one. (Bodies that share a slow link can take that long too: the gate
 * then stays at six, as for HTTP/1.1, which costs rounds but never
 * overloads a host.)
 */
export class Crowd {
  constructor(limit) {
    this.limit = limit;
    this.out = new Set();
    // origin -> [{start, end}] of requests done, oldest first.
    this.done = new Map();
    this.trip = Infinity;
  }

  /** A request to `origin` leaves at `now` (ms): its token for `end`. */
  start(origin, now) {
    const ahead = [...this.out].filter((r) => r.origin === origin);
    const r = { origin, start: now, end: null, ahead: ahead.length >= this.limit ? ahead : null };
    this.out.add(r);
    return r;
  }

  /**
   * The request of token `r` is over at `now` (its body read, its
   * connection free): true where the times show a multiplexed host, false
   * where they show one request a connection, null where they show
   * neither yet.
   */
  end(r, now) {
    this.out.delete(r);
    r.end = now;
    this.trip = Math.min(this.trip, now - r.start);
    const done = this.done.get(r.origin) || [];
    done.push({ start: r.start, end: now });
    if (done.length > KEEP) done.shift();
    this.done.set(r.origin, done);
    const from = now - 1.5 * this.trip;
    if (done.filter((d) => d.start >= from).length > this.limit) return true;
    if (r.ahead && now - r.start >= 1.8 * this.trip) return false;
    return null;
  }
}
