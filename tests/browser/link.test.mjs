// The link estimate on its own (plain JS, no browser): bodies timed by the
// network stack, grouped where they arrived together.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Link, pageLink } from '../../src/web/link.js';

/** A resource entry as Resource Timing gives it: bytes over [start, end] ms. */
const entry = (start, end, bytes, transferSize = bytes + 300) => ({ responseStart: start, responseEnd: end, encodedBodySize: bytes, transferSize });

describe('link estimate', () => {
  it('times bodies arriving together as one: ten heads of one HTTP/2 round are a fast link', () => {
    const link = new Link();
    // Each body alone spans the whole round: 60 KB in 30 ms, 2 KB/ms;
    // together 600 KB in 30 ms.
    for (let i = 0; i < 10; i++) link.timed(entry(100 + i, 130, 60000));
    assert.equal(link.slow(), false);
    assert.ok(link.rate > 15000, `rate ${link.rate}`);
  });

  it('takes a phone link (1.6 Mbit/s) for slow, in groups or alone', () => {
    const link = new Link();
    link.timed(entry(150, 480, 65536));
    assert.equal(link.slow(), true);
    link.timed(entry(500, 1150, 65536));
    link.timed(entry(520, 1160, 65536));
    assert.equal(link.slow(), true);
    assert.ok(link.rate < 300, `rate ${link.rate}`);
  });

  it('keeps the fastest group of the last two seconds: a body a busy server sent slowly does not make the link slow', () => {
    const link = new Link();
    link.timed(entry(100, 120, 200000));
    link.timed(entry(300, 340, 20000));
    assert.equal(link.slow(), false);
    // Once the fast group is out of the window, the slow body decides.
    link.timed(entry(2500, 2540, 20000));
    assert.equal(link.slow(), true);
  });

  it('is roomy (whole table indexes in heads) from 2 MB/s, not while unmeasured, neither slow nor roomy between', () => {
    const link = new Link();
    assert.equal(link.roomy(), false);
    assert.equal(link.slow(), false);
    // 64 KiB in 50 ms: 1.3 MB/s, fast enough for sparse indexes only.
    link.timed(entry(100, 150, 65536));
    assert.equal(link.slow(), false);
    assert.equal(link.roomy(), false);
    // 64 KiB in 20 ms: 3.3 MB/s.
    link.timed(entry(200, 220, 65536));
    assert.equal(link.roomy(), true);
  });

  it('ignores bodies without times (another origin without Timing-Allow-Origin), from a cache, and short ones', () => {
    const link = new Link();
    link.timed(entry(0, 0, 0, 0));
    link.timed(entry(100, 200, 4096));
    // A cache hit (nothing transferred) and a revalidation (headers only).
    link.timed(entry(300, 301, 400000, 0));
    link.timed(entry(400, 401, 400000, 280));
    assert.equal(link.rate, null);
    assert.equal(link.slow(), false);
  });

  it('counts bodies timed in script only until the network stack times one', () => {
    const link = new Link();
    // A phone reading tables from a host without Timing-Allow-Origin.
    link.read(65536, 330);
    assert.equal(link.slow(), true);
    link.timed(entry(100, 120, 200000));
    link.read(65536, 330);
    assert.equal(link.slow(), false);
  });

  it('prices a round trip in bytes: the shortest wait for a first byte lately, times the rate', () => {
    const link = new Link();
    assert.equal(link.tripBytes(), 0);
    // Heads answered 100 ms after they were sent, 10 MB/s.
    link.timed({ ...entry(110, 130, 100000), requestStart: 10 });
    link.timed({ ...entry(112, 130, 100000), requestStart: 8 });
    assert.equal(link.trip, 100);
    assert.ok(Math.abs(link.tripBytes() - link.rate * 100) < 1e-6 && link.rate > 5000, `rate ${link.rate}`);
    // A wait of the last two seconds decides, the shortest of them; an
    // older one drops out.
    link.timed({ ...entry(3000, 3010, 100000), requestStart: 2850 });
    assert.equal(link.trip, 150);
    // Timed in script (no network times yet on a fresh link): the same.
    const script = new Link();
    script.read(200000, 20);
    script.answered(80);
    assert.equal(script.trip, 80);
    assert.ok(script.tripBytes() > 0);
    // A slow link prices none: bytes cost more than round trips there.
    const phone = new Link();
    phone.timed({ ...entry(300, 630, 65536), requestStart: 150 });
    assert.equal(phone.tripBytes(), 0);
  });
  it('is one per page: every Tablebase shares it and its one resource observer', () => {
    assert.equal(pageLink(), pageLink());
    assert.ok(pageLink() instanceof Link);
  });
});
