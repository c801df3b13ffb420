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

/**
 * A probe names bytes [start, end) of the file: resolves once supplyPages
 * has reached its request or joined one (its IndexedDB look is a resolved
 * promise); the pages themselves never come.
 */
async function name(rt, start, end) {
  supplyPages(rt, { file: 1, start, end }, { trace: null, prio: { rank: 0 } });
  await new Promise((r) => setTimeout(r, 0));
}

/** A request's ranges as [start, end] pairs. */
const ranges = (span) => span.parts.map((p) => [p.start, p.end]);

describe('a request waiting at the gate', () => {
  it('takes a range named after it across a gap the link brings in a round trip', async () => {
    const { rt, requests } = runtime({ joinBytes: 256 * KIB });
    await name(rt, 0, PAGE);
    // 196 KiB of gap: past the core's 32 KiB bridge, within the link's round trip.
    await name(rt, 200 * KIB, 204 * KIB);
    assert.equal(requests.length, 1);
    assert.deepEqual(ranges(requests[0]), [[0, 204 * KIB]]);
    // The gap's pages are on their way with it: a probe that needs one joins it.
    assert.ok(rt.inflight.has(`1:${100 * KIB / PAGE}`));
  });

  it('is not widened across pages already held: no byte is fetched twice', async () => {
    const { rt, requests } = runtime({ joinBytes: 256 * KIB, held: [2] });
    await name(rt, PAGE, 2 * PAGE);
    await name(rt, 3 * PAGE, 4 * PAGE);
    assert.equal(requests.length, 2);
    assert.deepEqual(ranges(requests[0]), [[PAGE, 2 * PAGE]]);
  });

  it('keeps to the bridge where the link is unmeasured or slow, and never spans a page on its way', async () => {
    const far = runtime({ joinBytes: 0 });
    await name(far.rt, 0, PAGE);
    await name(far.rt, PAGE + BRIDGE + PAGE, PAGE + BRIDGE + 2 * PAGE);
    assert.equal(far.requests.length, 2, 'a gap past the bridge on an unmeasured link');
    // Within the bridge: joined.
    await name(far.rt, 2 * PAGE, 3 * PAGE);
    assert.equal(far.requests.length, 2);

    const { rt, requests } = runtime({ joinBytes: 256 * KIB });
    await name(rt, 0, PAGE);
    // Another request carries page 5; the first, waiting again, may not
    // take page 10 across it.
    requests[0].started = true;
    await name(rt, 5 * PAGE, 6 * PAGE);
    requests[0].started = false;
    requests[1].started = true;
    await name(rt, 10 * PAGE, 11 * PAGE);
    assert.equal(requests.length, 3, 'the gap to page 10 holds page 5, on its way');
  });

  it('is left alone once it has left the gate', async () => {
    const { rt, requests } = runtime({ joinBytes: 256 * KIB });
    await name(rt, 0, PAGE);
    requests[0].started = true;
    await name(rt, 2 * PAGE, 3 * PAGE);
    assert.equal(requests.length, 2);
    assert.deepEqual(ranges(requests[0]), [[0, PAGE]]);
  });
});
