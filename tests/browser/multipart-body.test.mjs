// Reading multipart/byteranges bodies on their own (plain JS, no browser):
// parts in the order sent, lengths from each part's Content-Range (table
// bytes may contain the boundary), and null for what is not such a body.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { byteRanges } from '../../src/web/multipart.js';

const enc = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** A body of `parts` ([start, bytes]) of a `size`-byte file, as a server sends it. */
function body(boundary, size, parts, { close = true, preamble = '' } = {}) {
  let s = preamble;
  for (const [start, bytes] of parts) {
    s += `\r\n--${boundary}\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes ${start}-${start + bytes.length - 1}/${size}\r\n\r\n`;
    s += String.fromCharCode(...bytes);
  }
  if (close) s += `\r\n--${boundary}--\r\n`;
  return enc(s);
}

describe('multipart/byteranges bodies', () => {
  it('reads every part, even one holding the boundary', () => {
    const tricky = enc('\r\n--B\r\nContent-Range: bytes 0-0/9\r\n\r\n');
    const b = body('B', 100000, [
      [4096, tricky],
      [0, enc('head')],
    ]);
    const parts = byteRanges(b, 'multipart/byteranges; boundary=B');
    assert.deepEqual(
      parts.map((p) => [p.start, p.end, p.size]),
      [
        [4096, 4096 + tricky.length, 100000],
        [0, 4, 100000],
      ],
    );
    assert.deepEqual([...parts[0].bytes], [...tricky]);
    assert.deepEqual([...parts[1].bytes], [...enc('head')]);
  });

  it('takes a quoted boundary and a preamble', () => {
    const b = body('a b', 10, [[2, enc('xyz')]], { preamble: 'ignored\r\n' });
    const parts = byteRanges(b, 'multipart/byteranges; boundary="a b"');
    assert.deepEqual(
      parts.map((p) => [p.start, p.end]),
      [[2, 5]],
    );
  });

  it('is null for what is not a whole multipart/byteranges body', () => {
    const good = body('B', 10, [[0, enc('abc')]]);
    assert.equal(byteRanges(good, 'multipart/byteranges'), null, 'no boundary');
    assert.equal(byteRanges(body('B', 10, [[0, enc('abc')]], { close: false }), 'multipart/byteranges; boundary=B'), null, 'cut short');
    assert.equal(byteRanges(good.subarray(0, 60), 'multipart/byteranges; boundary=B'), null, 'cut inside a part');
    const noRange = enc('--B\r\nContent-Type: x\r\n\r\nabc\r\n--B--\r\n');
    assert.equal(byteRanges(noRange, 'multipart/byteranges; boundary=B'), null, 'a part without Content-Range');
    const pastSize = enc('--B\r\nContent-Range: bytes 8-10/10\r\n\r\nabc\r\n--B--\r\n');
    assert.equal(byteRanges(pastSize, 'multipart/byteranges; boundary=B'), null, 'a part past the file');
  });
});
