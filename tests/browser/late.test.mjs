// Which answers the page saw late (plain JS, no browser; real timers and
// a thread held by a busy loop): an answer whose request was out while
// the thread was held tells the protocol nothing (see crowd.js).
import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { RangeClient } from '../../src/web/http.js';

const URL = 'https://cdn.example/tables/KRvK.rtbw';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Holds the thread for `ms`, as a long task does. */
function hold(ms) {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

// A thread held this long is a stall here (40 ms in pages): wide
// margins, so that a busy machine's scheduling decides nothing.
const LATE = 200;
const HELD = 300;

let clients = [];
function client() {
  const c = new RangeClient({ requests: 0, bytes: 0, retries: 0, requestsInFlight: 0 }, 0, 1 << 25, () => {});
  c.lateMs = LATE;
  clients.push(c);
  return c;
}
afterEach(() => {
  // Tokens out keep the tick going: drop them, and it stops.
  for (const c of clients) for (const r of [...c.crowd.out]) c.crowd.drop(r);
  clients = [];
});

describe('answers seen late', () => {
  it('an answer after a free thread is on time', async () => {
    const c = client();
    const r = c.timeRequest(URL);
    await sleep(30);
    assert.equal(c.late(r, performance.now()), false);
  });

  it('an answer seen right after the thread was held is late', () => {
    const c = client();
    const r = c.timeRequest(URL);
    hold(HELD);
    assert.equal(c.late(r, performance.now()), true);
  });

  it('so is one seen after the tick that followed the hold ran first', async () => {
    const c = client();
    const r = c.timeRequest(URL);
    hold(HELD);
    await sleep(20);
    assert.equal(c.late(r, performance.now()), true);
  });

  it('a request sent at the end of a long task, before any tick, is not taken for out across it', async () => {
    const c = client();
    c.timeRequest(URL);
    hold(HELD);
    const r = c.timeRequest(URL);
    await sleep(20);
    assert.equal(c.late(r, performance.now()), false);
  });

  it('the tick stops once no timed request is out', async () => {
    const c = client();
    const r = c.timeRequest(URL);
    await sleep(10);
    assert.notEqual(c.ticker, null);
    c.crowd.drop(r);
    await sleep(20);
    assert.equal(c.ticker, null);
  });
});
