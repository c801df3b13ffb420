// Tablebase.close() on a long-lived page: a probe under way and every later
// call reject with code `closed` (stats and legalMoves still answer), the
// pages read before are in IndexedDB for the next Tablebase, a generation
// under way stops, and a second close() is the first one's promise.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, startServers, launch, openTablebase, cliProbe } from './helpers.mjs';

const skip = skipReason();
// KRPvKR: several rounds cold; the server is slow, so close() comes mid-probe.
const FEN = '8/8/4k3/8/3r4/3P4/8/3RK3 b - - 12 40';
const OTHER = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';

describe('Tablebase.close()', { skip }, () => {
  let servers;
  let browser;
  before(async () => {
    servers = await startServers({ latencyMs: 40 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await servers?.close();
  });

  it('a probe under way and later calls reject closed; what was read is kept for the next Tablebase', async () => {
    const [want] = cliProbe([OTHER]);
    const context = await browser.newContext();
    try {
      const page = await openTablebase(context, servers, { generate: 'never' });
      const stored = await page.evaluate((other) => window.tb.probe(other), OTHER);
      // Answers slower than the wait below: only an abort ends them in time.
      servers.tables.setFaults({ latencyMs: 2000 });
      const seen = await page.evaluate(
        async ({ fen, other }) => {
          const codeOf = (p) => p.then(() => 'answered', (e) => e.code);
          const running = codeOf(window.tb.probe(fen));
          await new Promise((r) => setTimeout(r, 60));
          const closing = window.tb.close();
          const again = window.tb.close();
          await closing;
          const ran = await running;
          // Requests under way were aborted with the probe, not left to finish.
          for (let i = 0; i < 250 && window.tb.stats().requestsInFlight > 0; i++) await new Promise((r) => setTimeout(r, 20));
          return {
            inFlight: window.tb.stats().requestsInFlight,
            running: ran,
            same: closing === again,
            later: [
              await codeOf(window.tb.probe(other)),
              await codeOf(window.tb.mainline(other)),
              await codeOf(window.tb.prefetch(other)),
              await codeOf(window.tb.clearCache()),
              await codeOf(window.tb.saved()),
            ],
            legal: window.tb.legalMoves(other).length,
            indexedDb: window.tb.stats().indexedDb,
          };
        },
        { fen: FEN, other: OTHER },
      );
      assert.equal(seen.running, 'closed');
      assert.equal(seen.inFlight, 0, 'no request under way after close()');
      assert.ok(seen.same, 'a second close() is the first one');
      assert.deepStrictEqual(seen.later, ['closed', 'closed', 'closed', 'closed', 'closed']);
      assert.ok(seen.legal > 0);
      assert.equal(seen.indexedDb, 'closed');
      assert.deepStrictEqual(stored, want);
      // The writes queued before close() landed: a new Tablebase answers without the network.
      servers.tables.reset();
      const again = await page.evaluate(
        async ({ other, base }) => {
          const tb = new window.Tablebase({ urls: [base], generate: 'never' });
          const r = await tb.probe(other);
          return { r, requests: tb.stats().requests };
        },
        { other: OTHER, base: servers.base },
      );
      assert.deepStrictEqual(again.r, want);
      assert.equal(again.requests, 0);
      assert.equal(servers.tables.stats().requests, 0);
    } finally {
      await context.close();
    }
  });

  it('a generation under way stops: its probe rejects closed, nothing is generated after', { timeout: 120_000 }, async () => {
    const context = await browser.newContext();
    try {
      const page = await openTablebase(context, servers, { urls: [] });
      const seen = await page.evaluate(async () => {
        let started = false;
        const tb = new window.Tablebase({ urls: [], onGenerate: () => (started = true) });
        const probing = tb.probe('8/8/8/4k3/8/8/3N4/1B2K3 w - - 0 1').then(() => 'answered', (e) => e.code);
        while (!started) await new Promise((r) => setTimeout(r, 5));
        await tb.close();
        const code = await probing;
        await new Promise((r) => setTimeout(r, 500));
        return { code, generated: tb.stats().tablesGenerated };
      });
      assert.deepStrictEqual(seen, { code: 'closed', generated: 0 });
    } finally {
      await context.close();
    }
  });

  it("a probe waiting for another Tablebase's generation (its lock) rejects closed at once", { timeout: 120_000 }, async () => {
    // Until 2026-11-30 it waited for the other's lock, then answered from
    // what the other stored, after its own close().
    const context = await browser.newContext();
    try {
      const page = await openTablebase(context, servers, { urls: [] });
      const seen = await page.evaluate(async () => {
        const fen = '8/8/8/4k3/8/8/3N4/1B2K3 w - - 0 1';
        const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
        let started = false;
        const a = new window.Tablebase({ urls: [], onGenerate: () => (started = true) });
        const order = [];
        const first = a.probe(fen).then(() => 'answered', (e) => e.code);
        first.then(() => order.push('a'));
        while (!started) await sleep(5);
        const b = new window.Tablebase({ urls: [] });
        const waiting = b.probe(fen).then(() => 'answered', (e) => e.code);
        waiting.then(() => order.push('b'));
        await sleep(100);
        await b.close();
        return { b: await waiting, a: await first, order };
      });
      assert.deepStrictEqual(seen, { b: 'closed', a: 'answered', order: ['b', 'a'] });
    } finally {
      await context.close();
    }
  });
});
