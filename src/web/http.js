// HTTP Range requests from the browser: one GET per range (or per set of
// ranges of a file, from a server found to answer them in one multipart
// body) with bounded retries, a concurrency gate, checks of what the server
// answered (status, Content-Range, encoding), and whole-file streams for
// servers that ignore Range.

import { fail, fatal, retryAfterMs } from './errors.js';
import { Crowd } from './crowd.js';
import { Gate } from './gate.js';
import { pageLink } from './link.js';
import { WholeBody, stop, trimBodies, MIN_BODY_RATE, bodyFailure } from './whole-body.js';
import { SeveralRanges, encodingOf, htmlPage, requestParts, originOf } from './several-ranges.js';
import { sameVersion, validatorOf } from './version.js';

const RETRIES = 3;
// A request that goes this long without its answer's headers, or between
// two pieces of its body, is given up and asked again: a stalled server
// or connection must not hold a probe (and a connection) forever.
const STALL_MS = 20000;
const HTTP1_CONNECTIONS = 6;
// Versions replaced that an answer in flight may still bring, per URL
// (more changes than the runtime takes in a minute: see accept.js).
const REPLACED_KEPT = 3;
const MULTIPLEXED = 64;
// While requests are timed, the page's thread marks itself alive this
// often; a gap of more than LATE_MS between marks, or before an answer,
// held the thread (a stall, a long task): an answer whose request was out
// across one is late, and its time tells the protocol nothing (see Crowd).
const TICK_MS = 5;
const LATE_MS = 40;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Whether a Resource Timing entry came over HTTP/2 or 3. */
function multiplexed(entry) {
  return entry.nextHopProtocol === 'h2' || entry.nextHopProtocol === 'h3';
}

/** `bytes a-b/size` to {start, end (inclusive), size}, or null. */
function contentRange(v) {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec((v || '').trim());
  return m ? { start: +m[1], end: +m[2], size: +m[3] } : null;
}

export class RangeClient {
  /**
   * `counters` (requests, bytes, retries, requestsInFlight) are updated in
   * place; `onActivity` is called whenever a request starts or ends; `limit`
   * is how far into a file a server that ignores Range may be streamed.
   */
  constructor(counters, concurrency, limit, onActivity) {
    this.counters = counters;
    // Without a `concurrency` option: a browser's 6 per host over HTTP/1.1
    // (more would only queue inside the browser, out of our priority order),
    // widened once a response shows the host speaks HTTP/2 or 3, or until
    // one shows it does not where https makes it likely (see `presume`).
    this.auto = !concurrency;
    this.gate = new Gate(concurrency || HTTP1_CONNECTIONS);
    // Whether the host was seen to multiplex (true), not to (false), or
    // neither yet (null); and whether the gate is wide on a presumption
    // (see `presume`).
    this.multiplexed = null;
    this.presumed = false;
    // Requests out while the gate is wide on a presumption, whose times
    // tell the protocol (under six at a time, they cannot).
    this.crowd = new Crowd(HTTP1_CONNECTIONS);
    this.ticker = null;
    this.lastTick = 0;
    // Gaps of the ticks past `lateMs` so far.
    this.stalls = 0;
    this.lateMs = LATE_MS;
    this.link = pageLink();
    this.limit = limit;
    this.onActivity = onActivity;
    // url -> WholeBody, for servers that ignored Range.
    this.bodies = new Map();
    // Whether tables have another base to be asked at (Runtime sets it).
    this.mirrors = false;
    // URLs answered 403: read as absent (S3-style hosts answer so for a
    // missing key), and named so in the error (see Runtime.run).
    this.forbidden = new Set();
    // URLs that answered a Range request with the whole file (200), for
    // telling a server's way from a CDN's occasional miss (see answer).
    this.wholeAnswers = new Set();
    // url -> {start, end, response, controller}: requests the page started
    // before the module loaded (the Tablebase option `early`), for `open`.
    this.early = new Map();
    // What each origin's server does with several ranges in one request.
    this.several = new SeveralRanges();
    // Origins `learnOrigin` has looked up (once each: it scans every entry).
    this.originsLooked = new Set();
    // url -> {n, replaced}: version changes of it taken in, and the last
    // few versions they replaced ({size, validator, at}: `n` once that
    // change was in; see accept.js). An answer carries `n` as it stood when
    // its request left (`asOf`), so that one in flight across a change is
    // told from a server that changed back.
    this.versions = new Map();
    // Aborted by `close`: every request under way stops with it (where the
    // browser has AbortSignal.any), and no request leaves after it.
    this.closer = new AbortController();
  }

  /** Throws code `closed` once `close` was called. */
  checkOpen() {
    if (this.closer.signal.aborted) throw fail('this Tablebase was closed', 'closed');
  }

  /** Ends and forgets every whole-file stream. */
  clear() {
    for (const b of [...this.bodies.values()]) b.evict();
  }

  /** For good (Runtime.close): requests under way stop, streams end, none leaves after. */
  close() {
    this.closer.abort();
    for (const e of this.early.values()) e.controller.abort();
    this.early.clear();
    this.clear();
  }

  /** Version changes of `url` taken in so far (see `versions`). */
  versionOf(url) {
    return this.versions.get(url)?.n || 0;
  }

  /** A new version of `url` was taken in, replacing `old` ({size, validator}; none for a first one). */
  versionChanged(url, old) {
    const v = this.versions.get(url) || { n: 0, replaced: [] };
    v.n++;
    if (old) v.replaced = [...v.replaced.slice(1 - REPLACED_KEPT), { size: old.size, validator: old.validator, at: v.n }];
    this.versions.set(url, v);
  }

  /**
   * Like `request`, for the read that opens a file: answered first from a
   * response the page started early at the same offset, which may hold
   * more or less than asked (a short one opens the file with what it holds:
   * the caller asks for the rest beside, see Runtime.open). A failed early
   * response is forgotten, and the network asked as usual.
   */
  async open(url, start, end, label, ask = {}) {
    this.checkOpen();
    const early = this.early.get(url);
    if (!early || early.start !== start) return this.request(url, start, end, label, ask);
    this.early.delete(url);
    const r = await this.fromEarly(url, early, ask).catch(() => null);
    // Started before any version was taken in.
    return r ? r.value && { ...r.value, asOf: 0 } : this.request(url, start, end, label, ask);
  }

  /** An early response, checked and read like one of ours; null to ask again. */
  async fromEarly(url, early, ask) {
    this.counters.requests++;
    this.counters.requestsInFlight++;
    const wave = ask.trace ? ask.trace.start() : 0;
    let got = 0;
    this.onActivity();
    try {
      const res = await within(early.response, STALL_MS);
      if (!res) {
        early.controller.abort();
        return null;
      }
      const r = await this.answer(url, early.start, early.end, res, early.controller, early.end, 0);
      if (r.retry) return null;
      got = r.value ? (r.value.received ?? r.value.bytes.length) : 0;
      return r;
    } finally {
      if (ask.trace) ask.trace.end(wave, got);
      this.counters.requestsInFlight--;
      this.onActivity();
    }
  }

  /**
   * GET bytes [start, end) of a URL with retries. Resolves {size, validator,
   * bytes}, or null when the file is not there (404/410). `ask` ({trace,
   * prio}, optional) is the probe that needs it: its Trace counts the
   * request, `prio.rank` (gate.js RANK) orders it at the gate, and `span`
   * (optional, {start, end}) replaces start and end as they stand when the
   * request leaves the gate; `moveOn`: the caller has another base to ask
   * (a silent request there is not retried).
   */
  async request(url, start, end, label, ask = {}) {
    // A span ({parts: [{start, end}], started}) may still grow while the
    // request waits at the gate (see joinWaiting in page-requests.js); it
    // is fixed once the request starts, and the answer is then {size,
    // validator, parts: [{start, bytes, size, validator}]}, one per part.
    const span = ask.span;
    const body = this.bodies.get(url);
    // A stream kept from a server that ignored Range serves what it can
    // reach; past its limit it is dropped and the server asked again (it
    // may honour Range now).
    if (body && !body.reaches(end)) body.evict();
    else if (body && !(span && span.parts.length > 1)) {
      if (span) span.started = true; // nothing joins a read of the stream
      // (A first stream without its length found past the limit: asked
      // again below, as its own request does.)
      const got = await body.get(start, end).catch((e) => {
        if (body.size === null && body.first && e && e.fatal) return null;
        throw e;
      });
      // One that can bring no more (cut, slow) makes way for a new request.
      if (!got && !body.live) body.evict();
      trimBodies(this.bodies, body);
      const v = got && { ...got, asOf: body.asOf };
      if (v) return span ? { ...v, parts: [{ ...v, start }] } : v;
    }
    let lastError = null;
    let silent = false;
    let ranges = [[start, end]];
    let got = null;
    const tries = {};
    // A wait the server asked for (Retry-After, where the page can read it).
    let serverWait = null;
    for (let attempt = 0; attempt <= RETRIES && !got; attempt++) {
      if (attempt > 0) {
        this.checkOpen();
        this.counters.retries++;
        // With another base to ask (see page-requests.js), no longer than the usual backoff.
        const backoff = 100 * 4 ** (attempt - 1);
        await sleep(serverWait === null ? backoff : this.mirrors ? Math.min(serverWait, backoff) : serverWait);
        serverWait = null;
      }
      this.checkOpen();
      const admitted = await this.gate.enter(ask.prio);
      if (this.closer.signal.aborted) {
        this.gate.leave(admitted);
        this.checkOpen();
      }
      if (span && !span.started) {
        span.started = true;
        ranges = span.parts.map((p) => [p.start, p.end]).sort((a, b) => a[0] - b[0]);
        if (ranges.length === 1) [[start, end]] = ranges;
      }
      if (ranges.length > 1 && !this.several.allowed(url)) {
        // The server has shown since they joined that it takes one range
        // a request: each is asked for on its own below.
        this.gate.leave(admitted);
        got = { parts: [] };
        break;
      }
      // (A request for several ranges that got no answer at all is asked
      // again for one: see requestParts.)
      const asked = ranges.length > 1 ? ranges : tries.unanswered ? [ranges[0]] : this.several.probe(url, ranges[0][0], ranges[0][1], tries.serverErrors > 0);
      const asOf = this.versionOf(url);
      this.counters.requests++;
      this.counters.requestsInFlight++;
      const wave = ask.trace ? ask.trace.start() : 0;
      let n = 0;
      // While the protocol is presumed: timed to its answer's headers (see Crowd).
      let timed = this.presumed ? this.timeRequest(url) : null;
      this.onActivity();
      try {
        const high = !!(ask.prio && ask.prio.rank > 0);
        const r =
          asked.length > 1 ? await requestParts(this, url, asked, high, timed, tries, asOf) : await this.requestOnce(url, start, end, high, timed, asOf);
        let shown = null;
        if (timed && !r.retry && r.value && timed.end !== null) shown = this.crowd.end(timed);
        else if (timed) this.crowd.drop(timed);
        timed = null;
        if (r.retry) {
          lastError = r.retry;
          serverWait = r.waitMs ?? null;
          // A base that leaves a request unanswered (a host down behind a
          // firewall: no reset, only silence) is not waited on three times
          // more where the caller has another base to ask (`ask.moveOn`,
          // see Turns): 20 s, not 82.
          if (r.silent && ask.moveOn) {
            silent = true;
            break;
          }
          continue;
        }
        if (this.auto) this.learnProtocol(url, shown);
        // One range answered where two got nothing: the two were the
        // trouble (a redirect to an origin refusing their preflight, a
        // proxy); other heads ask for one. A blip fails both alike.
        if (tries.unanswered && asked.length === 1) this.several.doubted.add(originOf(url));
        if (r.value === null) return null;
        got = { ...r.value, asOf, ...(asked.length > 1 ? {} : { parts: [{ start, bytes: r.value.bytes }] }) };
        n = r.value.received ?? r.value.bytes.length;
      } catch (e) {
        if (e && ((e.code && e.code !== 'network') || e.fatal)) throw e;
        lastError = e && e.message ? e.message : String(e);
      } finally {
        if (timed) this.crowd.drop(timed);
        if (ask.trace) ask.trace.end(wave, n);
        this.counters.requestsInFlight--;
        this.gate.leave(admitted);
        this.onActivity();
      }
    }
    if (silent) throw Object.assign(fail(`could not fetch ${label}: ${lastError}`, 'network'), { silent });
    if (!got) throw fail(`could not fetch ${label}: ${lastError} (after ${RETRIES} retries)`, 'network');
    // Each range from the part that holds it; those the server left out
    // are asked for on their own, together.
    const parts = await Promise.all(
      ranges.map(async ([a, b]) => {
        const want = Math.min(b, got.size);
        const p = got.parts.find((p) => p.start <= a && p.start + p.bytes.length >= want);
        if (p) return { start: a, bytes: p.bytes.subarray(a - p.start, want - p.start), size: got.size, validator: got.validator, asOf: got.asOf };
        const v = await this.request(url, a, b, label, { trace: ask.trace, prio: ask.prio, moveOn: ask.moveOn });
        return v && { start: a, bytes: v.bytes, size: v.size, validator: v.validator, asOf: v.asOf };
      }),
    );
    if (parts.includes(null)) return null;
    const { size, validator, asOf } = parts[0];
    return span ? { size, validator, parts } : { size, validator, bytes: parts[0].bytes, asOf };
  }

  /**
   * Settles whether the host multiplexes from an answer: by Resource
   * Timing's protocol where it is visible (another origin shows it only
   * with Timing-Allow-Origin), else by `shown`, what the answer's time
   * showed (see Crowd), if anything.
   */
  learnProtocol(url, shown = null, again = true) {
    if (typeof performance === 'undefined' || !performance.getEntriesByName) {
      if (shown !== null) this.settle(shown);
      return;
    }
    const entries = performance.getEntriesByName(url);
    // The entry comes in a task of its own once the body is in, often
    // just after the read resolved: look once more then.
    if (!entries.length && again) {
      setTimeout(() => this.auto && this.learnProtocol(url, shown, false), 0);
      return;
    }
    const protocol = entries.length ? entries[entries.length - 1].nextHopProtocol : '';
    if (protocol) this.settle(multiplexed(entries[entries.length - 1]));
    else if (shown !== null) this.settle(shown);
  }

  /**
   * Widens the gate before any request when the page has reached the
   * origin of `url` over HTTP/2 or 3 already: its own navigation (tables
   * beside the page) or an earlier resource (the page's early heads); and
   * presumes nothing of an origin seen to answer over HTTP/1.1.
   */
  learnOrigin(url) {
    const origin = originOf(url);
    if (!this.auto || this.originsLooked.has(origin) || typeof performance === 'undefined' || !performance.getEntriesByType) return;
    this.originsLooked.add(origin);
    const seen = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
    const shown = seen.filter((e) => e.nextHopProtocol && originOf(e.name) === origin);
    if (shown.some(multiplexed)) this.settle(true);
    else if (shown.length) this.settle(false);
  }

  /**
   * Widens the gate before the first answer where every URL is https and
   * the link fast: such hosts nearly all speak HTTP/2 or 3, and a first
   * round held to six requests costs the promotions a round (issue 12's
   * rook promotion over HTTP/2: its underpromotion tables' heads waited
   * for the first answers). The first answers confirm or undo it; until
   * then the move list's requests go without their low priority hint, as
   * Chromium holds low ones to six for a host whose protocol it does not
   * know yet.
   */
  presume(urls) {
    // Once settled, or presumed already (the gate is wide), never again.
    if (!this.auto || this.multiplexed === false || this.gate.wide || this.link.slow()) return;
    if (!urls.length || !urls.every((u) => originOf(u).startsWith('https:'))) return;
    this.presumed = true;
    this.gate.widen(MULTIPLEXED - HTTP1_CONNECTIONS);
  }

  /** A Crowd token for a request to `url` leaving now, the thread's ticks kept while any is out. */
  timeRequest(url) {
    if (this.ticker === null) {
      this.lastTick = performance.now();
      this.ticker = setInterval(() => {
        this.tick();
        if (!this.crowd.out.size) {
          clearInterval(this.ticker);
          this.ticker = null;
        }
      }, TICK_MS);
    }
    // (A request sent at the end of a long task, before the interval's
    // tick that would see it, is not out across it: this tick sees it.)
    const r = this.crowd.start(originOf(url), this.tick());
    r.stallsAt = this.stalls;
    return r;
  }

  /** Marks the page's thread alive now, counting the gap since the last mark if it held the thread: now. */
  tick() {
    const now = performance.now();
    if (now - this.lastTick > this.lateMs) this.stalls++;
    this.lastTick = now;
    return now;
  }

  /** Whether the page's thread was held while token `r`'s request was out, answered at `now`. */
  late(r, now) {
    return now - this.lastTick > this.lateMs || this.stalls !== r.stallsAt;
  }

  /** What an answer showed: the host multiplexes, or takes a request a connection. */
  settle(multiplex) {
    if (multiplex) {
      if (!this.gate.wide) this.gate.widen(MULTIPLEXED - HTTP1_CONNECTIONS);
      this.auto = false;
    } else if (this.presumed) {
      this.gate.narrow(MULTIPLEXED - HTTP1_CONNECTIONS);
    }
    this.presumed = false;
    this.multiplexed = multiplex;
  }

  async requestOnce(url, start, end, high = false, timed = null, asOf = this.versionOf(url)) {
    const sent = await this.send(url, [[start, end]], high, timed);
    return sent.retry ? sent : this.answer(url, start, end, sent.res, sent.controller, end, asOf);
  }

  /** The version tag of a response: its ETag and its Last-Modified (see version.js). */
  validatorOf(res) {
    return validatorOf(res.headers.get('ETag'), res.headers.get('Last-Modified'));
  }

  /**
   * GET with a Range header for `ranges` ([start, end) each): {res,
   * controller}, or {retry}. `timed` (a Crowd token) gets the time the
   * headers came.
   */
  async send(url, ranges, high, timed = null) {
    const controller = new AbortController();
    const sent = performance.now();
    let stalled = false;
    const stall = setTimeout(() => {
      stalled = true;
      controller.abort();
    }, STALL_MS);
    try {
      const res = await fetch(url, {
        headers: { Range: `bytes=${ranges.map(([a, b]) => `${a}-${b - 1}`).join(',')}` },
        cache: 'no-store',
        signal: AbortSignal.any ? AbortSignal.any([controller.signal, this.closer.signal]) : controller.signal,
        // The browser's own queue and HTTP/2 streams follow this hint.
        priority: high ? 'high' : this.presumed ? 'auto' : 'low',
      });
      const now = performance.now();
      if (timed) this.crowd.answered(timed, now, this.late(timed, now));
      this.link.answered(now - sent);
      return { res, controller };
    } catch (e) {
      this.checkOpen();
      if (stalled) return { retry: `no answer within ${STALL_MS / 1000} s`, silent: true };
      // The browser does not say why (by design): name every likely cause.
      return {
        retry:
          `the request failed (${e && e.message}): the host is unreachable, refused CORS (it must send ` +
          `Access-Control-Allow-Origin for this page and expose Content-Range, ETag), or sent a compressed ` +
          `body (Content-Encoding: gzip...), which browsers refuse on a Range request: serve tables uncompressed`,
      };
    } finally {
      clearTimeout(stall);
    }
  }

  /**
   * Checks and reads a response to `bytes=start-(end - 1)`: {value} or
   * {retry}; throws when fatal. A 206 may end short of `end` but not of
   * `need` (for a request of several ranges answered with one). `asOf`:
   * the URL's version changes when the request left (see `versions`).
   */
  async answer(url, start, end, res, controller, need = end, asOf = this.versionOf(url)) {
    const validator = this.validatorOf(res);
    const encoding = encodingOf(res);
    // Not at this location; 403 too, which S3-style hosts answer for a
    // key that does not exist to a client without list rights (as the
    // CLI's driver reads it).
    if (res.status === 404 || res.status === 410 || res.status === 403) {
      if (res.status === 403) this.forbidden.add(url);
      controller.abort();
      return { value: null };
    }
    if (htmlPage(res)) {
      controller.abort();
      return { value: null };
    }
    if (res.status === 200 || res.status === 206) {
      if (encoding) {
        controller.abort();
        throw fatal(`${url}: the server compressed a range response (Content-Encoding: ${encoding}); serve tables without compression`);
      }
    }
    if (res.status === 206) {
      const raw = res.headers.get('Content-Range');
      const cr = contentRange(raw);
      if (!cr) {
        controller.abort();
        throw fatal(
          raw === null
            ? `${url}: 206 without a readable Content-Range; the server must send Access-Control-Expose-Headers: Content-Range, ETag`
            : `${url}: 206 with a Content-Range this client cannot use (${raw}): it must name the range and the file's size`,
        );
      }
      // Content-Length is always readable; a length that differs from the
      // range's means the body was encoded (compressed) on the way.
      const length = res.headers.get('Content-Length');
      if (length !== null && Number(length) !== cr.end - cr.start + 1) {
        controller.abort();
        throw fatal(`${url}: the body of a range response is ${length} bytes for a ${cr.end - cr.start + 1}-byte range, so the server compressed it; serve tables without compression (no Content-Encoding)`);
      }
      const wantEnd = Math.min(end, cr.end + 1, cr.size);
      // A server may send more than the range asked (RFC 9110), its
      // Content-Range saying what: one that starts earlier is read from
      // its start, and cut, where what comes before the range is no more
      // than a server that ignores Range may stream.
      const skip = start - cr.start;
      if (skip < 0 || skip > this.limit || cr.end + 1 < Math.min(need, cr.size) || cr.end >= cr.size) {
        controller.abort();
        return { retry: `Content-Range ${res.headers.get('Content-Range')} does not match bytes=${start}-${end - 1}` };
      }
      // (A 200 before was now and then, not the server's way; a 403 before, not now.)
      this.wholeAnswers.delete(url);
      this.forbidden.delete(url);
      const bytes = await this.read(res, wantEnd - cr.start, controller);
      if (bytes === null || bytes.length < wantEnd - cr.start) return { retry: bodyFailure(controller) };
      return { value: { size: cr.size, validator, bytes: bytes.subarray(skip), received: bytes.length } };
    }
    if (res.status === 200) {
      // The server ignored Range: keep the stream, read only as far as
      // needed. One sent without its length (chunked) is read whole, within
      // the limit: its end tells the file's size (null until then).
      const length = res.headers.get('Content-Length');
      const size = length === null ? null : Number(length);
      if (size === 0) {
        // An empty file (some servers answer it so rather than 416): its size is the news.
        controller.abort();
        return { value: { size: 0, validator, bytes: new Uint8Array(0) } };
      }
      if (size !== null && !(Number.isSafeInteger(size) && size > 0)) {
        controller.abort();
        throw fatal(`${url}: the server ignored the Range header and sent a Content-Length this client cannot read (${length}); it must support Range requests`);
      }
      let body = this.bodies.get(url);
      // Past what this driver streams: a CDN may drop Range now and then
      // (a cache miss), so a first such 200 is asked again; a second is
      // the server's way (WholeBody.get says so).
      const first = !this.wholeAnswers.has(url);
      if (size !== null && Math.min(end, size) > this.limit && first) {
        this.wholeAnswers.add(url);
        controller.abort();
        return { retry: 'the server answered 200 (the whole file) to a Range request' };
      }
      this.wholeAnswers.add(url);
      if (body && body.live && body.size === size && sameVersion(body.validator, validator)) {
        controller.abort(); // a request that raced the first 200: use that stream
      } else {
        if (body) body.evict();
        body = new WholeBody(url, res, controller, size, validator, this.counters, this.limit, (b) => {
          if (this.bodies.get(url) === b) this.bodies.delete(url);
        });
        body.first = first;
        // Its later reads are answers as of when its request left (see `versions`).
        body.asOf = asOf;
        this.bodies.set(url, body);
        trimBodies(this.bodies, body);
      }
      let v;
      try {
        v = await body.get(start, end);
      } catch (e) {
        // A stream without its length found past the limit: asked again
        // once, as a first 200 with a length past it is.
        if (size === null && body.first && e && e.fatal) return { retry: 'the server answered 200 (the whole file, its length not sent) to a Range request' };
        throw e;
      }
      // One that can bring no more (cut, slow) makes way for a new request
      // (as in request): kept, it would still count as the file's stream.
      if (!v && !body.live) body.evict();
      trimBodies(this.bodies, body);
      return v ? { value: v } : { retry: bodyFailure(body.controller) };
    }
    controller.abort();
    // The file ends before the range starts: its size is news (an empty
    // file, or one replaced by a shorter one), which asking again won't mend.
    const unsatisfied = res.status === 416 && /^bytes \*\/(\d+)$/.exec((res.headers.get('Content-Range') ?? '').trim());
    if (unsatisfied && Number(unsatisfied[1]) <= start) {
      return { value: { size: Number(unsatisfied[1]), validator, bytes: new Uint8Array(0) } };
    }
    if (res.status === 429 || res.status === 503) {
      const waitMs = retryAfterMs(res);
      if (waitMs !== undefined) return { retry: `HTTP ${res.status}`, waitMs };
    }
    if (res.status === 416 || res.status === 429 || res.status === 408 || res.status >= 500) {
      return { retry: `HTTP ${res.status}` };
    }
    // Asking again does not change a refusal (401) or a bad request.
    throw fatal(`${url}: HTTP ${res.status}`);
  }

  /** Reads the first `n` bytes of a body, aborting the rest; null on a broken stream. */
  async read(res, n, controller) {
    const out = new Uint8Array(n);
    let have = 0;
    if (!res.body) {
      const all = new Uint8Array(await res.arrayBuffer());
      out.set(all.subarray(0, n));
      return all.length >= n ? out : out.subarray(0, all.length);
    }
    const reader = res.body.getReader();
    // From the first chunk on (see Link.read).
    let first = null;
    const deadline = setTimeout(() => {
      controller.slow = true;
      stop(controller, reader);
    }, STALL_MS + n / MIN_BODY_RATE);
    try {
      while (have < n) {
        const stall = setTimeout(() => stop(controller, reader), STALL_MS);
        const { done: end, value } = await reader.read().finally(() => clearTimeout(stall));
        if (end) break;
        if (first === null) first = { at: performance.now(), bytes: value.length };
        const take = Math.min(value.length, n - have);
        out.set(value.subarray(0, take), have);
        have += take;
        this.counters.bytes += take;
      }
    } catch (e) {
      return null;
    } finally {
      clearTimeout(deadline);
      if (have >= n) stop(controller, reader);
      reader.releaseLock?.();
    }
    if (first !== null) this.link.read(have - first.bytes, performance.now() - first.at);
    return have >= n ? out : out.subarray(0, have);
  }

}

/** The promise's value, or null if it takes longer than `ms`. */
function within(promise, ms) {
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
