// Whether a host answers many requests at once (HTTP/2 or 3) or six at a
// time (HTTP/1.1), told by the answers' times: Resource Timing names the
// protocol of another origin only where it sends Timing-Allow-Origin,
// which few static hosts and CDNs do.

// Answers kept per origin: enough for a first round and the next.
const KEEP = 64;
// Answers that must show HTTP/1.1 before it is taken for shown: one could
// be a stall of the page's main thread.
const SHOWN_TWICE = 2;
// A request that waited for a connection takes at least this many trips.
const WAITED = 1.5;
// Requests that left, and were answered, within this share of the
// shortest trip of each other went out at once.
const TOGETHER = 1 / 3;

/**
 * Whether more than `limit` of `answers` left within `span` (ms) of each
 * other and were answered within `span` of each other.
 */
function together(answers, span, limit) {
  return answers.some((a) => {
    const ends = answers
      .filter((b) => b.start >= a.start && b.start <= a.start + span)
      .map((b) => b.end)
      .sort((x, y) => x - y);
    return ends.some((e, i) => i + limit < ends.length && ends[i + limit] - e <= span);
  });
}

/**
 * The requests out and lately answered, by origin, timed from their start
 * to their answer's headers (a body's time depends on the link's
 * bandwidth, shared by every stream of a multiplexed host). An answer
 * takes at least `trip`, the shortest seen from that origin.
 *
 * Over HTTP/1.1 a connection carries one request at a time: of more than
 * `limit` requests out together, one waits for another's answer and then
 * takes a trip of its own, so their answers spread over a trip at least.
 * More than `limit` requests that left within a third of the shortest
 * trip of each other and were answered within a third of it show a
 * multiplexed host. A first round's times also hold the set-up of its
 * connections (TCP and TLS: two trips more on a real link), which can
 * make every time seen so far longer than the wait of a queued request:
 * nothing is shown before an answer to a request that left after the
 * origin's first answer, when a connection was open. That answer times a
 * trip of its own where it found a free connection; over HTTP/1.1 it may
 * have waited behind a first round of more than twelve, as long as the
 * set-up, and a host that takes two trips and more to set up can then
 * still be misread. Waiting instead for an answer sent with fewer than
 * six others out left an HTTP/2 host unshown in 2 of 6 runs here (its
 * page keeps many out). (At 150 ms a
 * request, an HTTP/1.1 host's first six answers took 190-310 ms here and
 * the next five 340-470 ms, 1.7-2.0 times the shortest: a window of 1.5
 * times it, which this took more than six answers in for a multiplexed
 * host, held them all in a fresh-clone run on a busier machine. Answers
 * on open connections took 155-200 ms; an HTTP/2 host's first eleven
 * came within 45 ms of each other.)
 *
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
    // origin -> {trip, first (the first answer's time), answers: [{start, end, late}], http1: count}
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
    const o = this.origins.get(r.origin) || { trip: Infinity, first: Infinity, answers: [], http1: 0 };
    this.origins.set(r.origin, o);
    o.answers.push({ start: r.start, end: now, late: r.late });
    if (o.answers.length > KEEP) o.answers.shift();
    o.first = Math.min(o.first, now);
    // A late answer times no trip and counts in no group: the stall in
    // its time could bring several waves of six together.
    if (!r.late) o.trip = Math.min(o.trip, now - r.start);
    if (o.trip === Infinity) return null;
    const timely = o.answers.filter((a) => !a.late);
    if (timely.some((a) => a.start >= o.first) && together(timely, TOGETHER * o.trip, this.limit)) return true;
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
