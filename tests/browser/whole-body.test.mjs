// Streams of servers that ignore Range (plain JS, no browser): how many
// stay open, and which are closed to make room.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WholeBody, trimBodies } from '../../src/web/whole-body.js';

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
