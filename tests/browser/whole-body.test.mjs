// Streams of servers that ignore Range (plain JS, no browser): how many
// stay open, which are closed to make room, and requests that race one
// stream without a length.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WholeBody, trimBodies } from '../../src/web/whole-body.js';
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
