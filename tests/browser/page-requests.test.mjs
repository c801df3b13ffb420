// Joins at the gate on their own (plain JS, no browser): a page range named
// while a request of its file still waits for a connection rides with that
// request, across a gap the link brings in less than a round trip.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { supplyPages } from '../../src/web/page-requests.js';

const PAGE = 4096;
const BRIDGE = 32 << 10;
const KIB = 1024;

/**
 * The parts of the runtime supplyPages reads, over HTTP/1.1: `requests`
 * records every request's span (its ranges may grow until it leaves the
 * gate), none of which answers. The link brings `joinBytes` in a round trip.
 */
function runtime({ joinBytes, held = [] }) {
  const requests = [];
  const rt = {
    pageSize: PAGE,
    bridgeBytes: BRIDGE,
    epoch: 0,
    files: new Map([[1, { url: 'https://tables.test/KRvKN.rtbw', size: 8 << 20, validator: '"v1"', idb: false }]]),
    core: { hasPage: (file, page) => file === 1 && held.includes(page) },
    inflight: new Map(),
    missedInDb: new Set(),
    waiting: new Map(),
    join: (w) => w.promise,
    http: {
      gate: { wide: false },
      link: { joinBytes: () => joinBytes },
      bodies: new Map(),
      several: { allowed: () => false },
      mirrors: false,
      request: (url, start, end, at, ask) => {
        requests.push(ask.span);
        return new Promise(() => {});
      },
    },
  };
  return { rt, requests };
}

const ask = () => ({ trace: null, prio: { rank: 0 } });
const range = (start, end) => ({ file: 1, start, end });
// Lets supplyPages reach the request (its IndexedDB look is a resolved promise).
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('a request waiting at the gate', () => {
  it('takes a range named after it across a gap the link brings in a round trip', async () => {
    const { rt, requests } = runtime({ joinBytes: 256 * KIB });
    supplyPages(rt, range(0, PAGE), ask());
    await settle();
    // 196 KiB of gap: past the core's 32 KiB bridge, within the link's round trip.
    supplyPages(rt, range(200 * KIB, 204 * KIB), ask());
    await settle();
    assert.equal(requests.length, 1);
    assert.deepEqual(requests[0].parts.map((p) => [p.start, p.end]), [[0, 204 * KIB]]);
    // The gap's pages are on their way with it: a probe that needs one joins it.
    assert.ok(rt.inflight.has(`1:${100 * KIB / PAGE}`));
  });

  it('is not widened across pages already held: no byte is fetched twice', async () => {
    const { rt, requests } = runtime({ joinBytes: 256 * KIB, held: [2] });
    supplyPages(rt, range(PAGE, 2 * PAGE), ask());
    await settle();
    supplyPages(rt, range(3 * PAGE, 4 * PAGE), ask());
    await settle();
    assert.equal(requests.length, 2);
    assert.deepEqual(requests[0].parts.map((p) => [p.start, p.end]), [[PAGE, 2 * PAGE]]);
  });

  it('keeps to the bridge where the link is unmeasured or slow, and never spans a page on its way', async () => {
    const far = runtime({ joinBytes: 0 });
    supplyPages(far.rt, range(0, PAGE), ask());
    await settle();
    supplyPages(far.rt, range(PAGE + BRIDGE + PAGE, PAGE + BRIDGE + 2 * PAGE), ask());
    await settle();
    assert.equal(far.requests.length, 2, 'a gap past the bridge on an unmeasured link');
    // Within the bridge: joined.
    supplyPages(far.rt, range(2 * PAGE, 3 * PAGE), ask());
    await settle();
    assert.equal(far.requests.length, 2);

    const { rt, requests } = runtime({ joinBytes: 256 * KIB });
    supplyPages(rt, range(0, PAGE), ask());
    await settle();
    // Another request carries page 5: waiting, it would take page 8, but
    // not the gap past page 5 that the first request would need.
    requests[0].started = true;
    supplyPages(rt, range(5 * PAGE, 6 * PAGE), ask());
    await settle();
    requests[0].started = false;
    requests[1].started = true;
    supplyPages(rt, range(10 * PAGE, 11 * PAGE), ask());
    await settle();
    assert.equal(requests.length, 3, 'the gap to page 10 holds page 5, on its way');
  });

  it('is left alone once it has left the gate', async () => {
    const { rt, requests } = runtime({ joinBytes: 256 * KIB });
    supplyPages(rt, range(0, PAGE), ask());
    await settle();
    requests[0].started = true;
    supplyPages(rt, range(2 * PAGE, 3 * PAGE), ask());
    await settle();
    assert.equal(requests.length, 2);
    assert.deepEqual(requests[0].parts.map((p) => [p.start, p.end]), [[0, PAGE]]);
  });
});
