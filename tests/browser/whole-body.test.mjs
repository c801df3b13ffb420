// Streams of servers that ignore Range (plain JS, no browser): how many
// stay open, which are closed to make room, and requests that race one
// stream without a length.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WholeBody, trimBodies, bodyFailure } from '../../src/web/whole-body.js';
import { RangeClient } from '../../src/web/http.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A 200 answer of `size` bytes, its body sent `chunk` bytes every `everyMs`. */
function dripping(size, chunk, everyMs) {
  let sent = 0;
  const body = new ReadableStream({
    async pull(c) {
      await sleep(everyMs);
      const n = Math.min(chunk, size - sent);
      c.enqueue(new Uint8Array(n).fill(sent & 255));
      sent += n;
      if (sent >= size) c.close();
    },
  });
  return { body };
}

describe('whole-file streams', () => {
  it('a stream with a read under way is not closed for a newer one', async () => {
    const bodies = new Map();
    const counters = { bytes: 0 };
    const open = (url) => {
      const b = new WholeBody(url, dripping(40000, 2000, 5), new AbortController(), 40000, '"v"', counters, 1 << 20, (x) => bodies.delete(x.url));
      bodies.set(url, b);
      trimBodies(bodies, b);
      return b;
    };
    const a = open('a');
    const reading = a.get(0, 20000);
    // Four more files answered 200 while a's read is at its second piece:
    // before, the least recently asked stream was closed, and its read
    // came back empty ("truncated body").
    await sleep(12);
    const rest = ['b', 'c', 'd', 'e'].map(open);
    const got = await reading;
    assert.ok(got, "a's read was cut");
    assert.equal(got.bytes.length, 20000);
    // Once read, an idle stream is closed to make room as before.
    trimBodies(bodies, rest[3]);
    assert.equal([...bodies.values()].filter((b) => b.live).length, 4);
    for (const b of bodies.values()) b.evict();
  });
});

/** A 200 answer without a length (a chunked stream) of `n` bytes, byte i being i mod 251, in 1 KiB pieces. */
function chunked(n) {
  let at = 0;
  const body = new ReadableStream({
    pull(c) {
      if (at >= n) return c.close();
      const k = Math.min(1024, n - at);
      c.enqueue(Uint8Array.from({ length: k }, (_, i) => (at + i) % 251));
      at += k;
    },
  });
  return new Response(body, { status: 200, headers: { ETag: '"v1"' } });
}

describe('requests that race one stream without a length', () => {
  const URL = 'https://cdn.example/tables/KBNvK.rtbw';
  const client = (limit) => new RangeClient({ requests: 0, bytes: 0, retries: 0, requestsInFlight: 0 }, 0, limit, () => {});
  const race = (c) =>
    Promise.all([
      c.answer(URL, 0, 100, chunked(8192), new AbortController()),
      c.answer(URL, 200, 300, chunked(8192), new AbortController()),
    ]);

  it('within the limit, both read their ranges from the first one\'s stream', async () => {
    const c = client(1 << 20);
    const [a, b] = await race(c);
    assert.equal(a.value.size, 8192);
    assert.equal(b.value.size, 8192);
    assert.deepEqual([...a.value.bytes.subarray(0, 3)], [0, 1, 2]);
    assert.deepEqual([...b.value.bytes.subarray(0, 3)], [200, 201, 202]);
    // One stream read, the other answer dropped.
    assert.equal(c.counters.bytes, 8192);
  });

  it('past the limit, both ask again (a CDN may drop Range once); the next such answer is an error', async () => {
    const c = client(4096);
    const [a, b] = await race(c);
    assert.match(a.retry, /its length not sent/);
    assert.match(b.retry, /its length not sent/);
    await assert.rejects(c.answer(URL, 0, 100, chunked(8192), new AbortController()), (e) => e.fatal && /longer than the 4096 bytes/.test(e.message));
  });
});

describe('a stream without a length that drips', () => {
  // 64 bytes every 6 s, no Content-Length: each piece within the 20 s
  // stall limit (though past the 5 s after which a stream nobody reads is
  // closed), the whole far below MIN_BODY_RATE. Its controller is not the
  // stream's (as an early response's may be), so ending it cancels the
  // reader, which settles the read as if the body had ended. Until
  // 2026-12-02 the idle timer closed it under the read after 11 s, and
  // the read took the bytes so far for the whole file.
  it('ends once it falls below the minimum rate, and is not taken for the whole file', { timeout: 60000 }, async () => {
    let sent = 0;
    const body = new ReadableStream({
      async pull(c) {
        await sleep(sent ? 6000 : 0);
        c.enqueue(new Uint8Array(64).fill(7));
        sent += 64;
      },
    });
    const controller = new AbortController();
    const counters = { bytes: 0 };
    const b = new WholeBody('https://cdn.example/tables/KBNvK.rtbw', { body }, controller, null, '"v"', counters, 1 << 20, () => {});
    const t0 = Date.now();
    const got = await b.get(0, 100);
    const waited = Date.now() - t0;
    assert.equal(got, null, `a cut stream answered as a file of ${got && got.size} bytes`);
    assert.equal(b.size, null, 'its size is still unknown');
    assert.ok(controller.slow, 'ended by the rate check, not a stall or the idle timer');
    assert.match(bodyFailure(controller), /slower than/);
    assert.ok(waited < 30000, `ended after ${waited} ms`);
    console.log(`a stream without a length at 11 B/s ended after ${waited} ms, ${counters.bytes} bytes read`);
    b.evict();
  });
});
