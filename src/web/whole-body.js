// Reading a server that ignores Range: one paused whole-file stream per URL,
// read only as far as requests need, within a count and a byte budget.

import { fatal } from './errors.js';

// A whole-file stream idle this long (nothing asked of it, no bytes
// coming) is closed and forgotten with its bytes. Short, because a paused body is not quite paused: Chromium keeps
// downloading ~10 MiB ahead of the reader (all of it with DevTools attached).
const WHOLE_BODY_IDLE_MS = 5000;
// Whole-file streams open at once (each holds a connection to the host; the
// browser allows ~6), and the bytes all of them may hold.
const WHOLE_BODY_STREAMS = 4;
const WHOLE_BODY_BYTES = 64 * 1048576;
// A body must come at this average rate at least (bytes a ms), past a first
// 20 s: a server that drips a piece every few seconds would otherwise hold
// a probe for days. 2 KB/s is below any link that works.
export const MIN_BODY_RATE = 2;
const FIRST_MS = 20000;
// A read that brings nothing for this long ends the stream (as http.js's own).
const STALL_MS = 20000;

/**
 * The body of a 200 answer to a Range request, from a server that ignores
 * Range. Rather than download from byte 0 again for every later request, it
 * stays open (paused: the browser buffers some megabytes ahead, then TCP
 * backpressure stops the server) and is read only as far as a request needs:
 * one stream per file, never past the limit. A stream read to the end, or
 * closed to free its connection, still serves the bytes it read; the runtime
 * forgets it when idle or over its byte budget. A stream sent without its
 * length (`size` null: chunked) tells the file's size only at its end, so
 * it is read whole, within the limit.
 */
export class WholeBody {
  constructor(url, res, controller, size, validator, counters, limit, onEvict) {
    this.url = url;
    this.limit = limit;
    this.reader = res.body ? res.body.getReader() : null;
    this.controller = controller;
    this.size = size;
    this.validator = validator;
    this.counters = counters;
    this.onEvict = onEvict;
    // Whether it answers the URL's first request served whole: a first
    // stream without its length found past the limit is asked again.
    this.first = false;
    this.buf = new Uint8Array(Math.min(size ?? 65536, 65536));
    this.have = 0;
    // Whether the connection is still open and can be read further.
    this.live = !!this.reader;
    // Reads asked of it and not yet answered: such a stream is not closed
    // to make room for another (its read would come back empty, and the
    // retry stream the file again from byte 0).
    this.reading = 0;
    this.lastUse = Date.now();
    this.chain = Promise.resolve();
    this.timer = null;
    this.touch();
  }

  /** Whether the bytes up to `end` are within the streaming limit. */
  reaches(end) {
    return this.size === null || Math.min(end, this.size) <= this.limit;
  }

  /** {size, validator, bytes} of [start, end), or null when the stream cannot reach `end`. */
  get(start, end) {
    // Without a length: to the end (at most one byte past the limit).
    const want = this.size === null ? this.limit + 1 : Math.min(end, this.size);
    this.lastUse = Date.now();
    this.touch();
    if (this.size !== null && want > this.limit) {
      this.evict();
      return Promise.reject(
        fatal(
          `${this.url}: the server ignores Range requests (it answers 200 with the whole file), and the bytes needed end at ` +
            `${want}, past the ${this.limit} bytes this driver will stream from such a server; serve tables from a host with Range support`,
        ),
      );
    }
    this.reading++;
    const p = this.chain.then(() => this.fill(want)).finally(() => this.reading--);
    this.chain = p.catch(() => {});
    return p.then((ok) => (ok ? { size: this.size, validator: this.validator, bytes: this.buf.slice(start, Math.min(end, this.size)) } : null));
  }

  async fill(n) {
    let ended = false;
    // The minimum rate over the bytes this read needs; without a length
    // (the end unknown), over the bytes received so far: a stream that
    // keeps it up is read on, one that drips slower ends.
    const t0 = performance.now();
    const from = this.have;
    const deadline = () => t0 + FIRST_MS + ((this.size === null ? this.have : n) - from) / MIN_BODY_RATE;
    while (this.have < n && this.live) {
      if (performance.now() > deadline()) {
        this.controller.slow = true;
        break;
      }
      let r;
      // A read that waits past the deadline, or a stall, ends the stream
      // (cancelling the reader settles the read): a server that stops
      // mid-body and keeps the connection open would hold it for good.
      // (Timed to the deadline, the timer may fire a hair before it.)
      const left = deadline() - performance.now();
      const stall = setTimeout(
        () => {
          this.controller.slow = left < STALL_MS || performance.now() > deadline();
          this.close();
        },
        Math.max(0, Math.min(STALL_MS, left)),
      );
      try {
        r = await this.reader.read();
      } catch (e) {
        break;
      } finally {
        clearTimeout(stall);
      }
      if (r.done) {
        // Not where the stream was closed meanwhile (its deadline, a
        // stall, the idle timer): cancelling the reader settles the read
        // as "done" too, where the controller is not the fetch's (an early
        // response's may not be), and a stream without a length would be
        // taken for the whole file, its size the bytes read.
        ended = this.live;
        break;
      }
      const v = r.value;
      if (this.size !== null && v.length > this.size - this.have) {
        // More bytes than its Content-Length: the browser decoded a
        // compressed body (another origin hides its Content-Encoding).
        this.evict();
        throw fatal(`${this.url}: the body is longer than its Content-Length (${this.size} bytes), so the server compressed it; serve tables without compression (no Content-Encoding)`);
      }
      const take = v.length;
      if (this.have + take > this.buf.length) {
        let cap = this.buf.length * 2;
        while (cap < this.have + take) cap *= 2;
        const bigger = new Uint8Array(Math.min(cap, this.size ?? Infinity));
        bigger.set(this.buf.subarray(0, this.have));
        this.buf = bigger;
      }
      this.buf.set(v.subarray(0, take), this.have);
      this.have += take;
      this.counters.bytes += take;
      // Idle means no bytes coming: a long read (a slow link, bytes far
      // into the file) must not be cut by the idle timer.
      this.touch();
    }
    if (this.size === null && ended) {
      // Its size at last; the buffer, grown by doubling, down to it.
      this.size = this.have;
      this.buf = this.buf.slice(0, this.have);
    }
    if (this.size === null && this.have > this.limit) {
      this.evict();
      throw fatal(
        `${this.url}: the server ignores Range requests (it answers 200 with the whole file), and the file (its length not sent) ` +
          `is longer than the ${this.limit} bytes this driver will stream from such a server; serve tables from a host with Range support`,
      );
    }
    if (this.have < n || this.have >= this.size) this.close();
    return this.size !== null && this.have >= Math.min(n, this.size);
  }

  /** Re-arms the idle timer; a stream with a read under way is not idle (a read has its stall and rate limits). */
  touch() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => (this.reading ? this.touch() : this.evict()), WHOLE_BODY_IDLE_MS);
  }

  /** Ends the download (frees the connection); the bytes read stay usable. */
  close() {
    if (!this.live) return;
    this.live = false;
    stop(this.controller, this.reader);
  }

  /** Closes and forgets it. */
  evict() {
    this.close();
    clearTimeout(this.timer);
    this.onEvict(this);
  }
}

/**
 * Keeps at most WHOLE_BODY_STREAMS whole-file downloads of `bodies` (url ->
 * WholeBody) open, closing the least recently used, and WHOLE_BODY_BYTES in
 * their buffers, forgetting the least recently used; `keep`, and streams
 * with a read under way, are never touched.
 */
export function trimBodies(bodies, keep) {
  const idle = () => [...bodies.values()].filter((b) => b !== keep && !b.reading).sort((a, b) => a.lastUse - b.lastUse);
  let excess = [...bodies.values()].filter((b) => b !== keep && b.live).length - (WHOLE_BODY_STREAMS - 1);
  for (const b of idle()) {
    if (excess <= 0) break;
    if (!b.live) continue;
    b.close();
    excess--;
  }
  let bytes = [...bodies.values()].reduce((s, b) => s + b.buf.length, 0);
  for (const b of idle()) {
    if (bytes <= WHOLE_BODY_BYTES) break;
    bytes -= b.buf.length;
    b.evict();
  }
}

/** Why the body of `controller`'s request came short: its deadline, or a broken stream. */
export function bodyFailure(controller) {
  return controller.slow ? `the body came slower than ${MIN_BODY_RATE} KB/s` : 'truncated body';
}

/**
 * Ends a download: its controller aborts the fetch, and cancelling the
 * reader settles a read still waiting, even where the controller is not
 * the fetch's (an early response passed without its own).
 */
export function stop(controller, reader) {
  controller.abort();
  reader?.cancel().catch(() => {});
}
