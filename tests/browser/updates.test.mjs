// Results as they arrive: tb.probe(fen, { onUpdate }) hands over the
// position's outcome (its WDL) and verdict (with DTZ; no moves yet) before
// the complete result, the promise keeps its contract, and stats().last
// reports what the probe cost.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, startServers, launch, openTablebase, probe, tbStats, cliProbe } from './helpers.mjs';

const skip = skipReason();

// Promotions fan out into many tables (issue 12); the others are plain 5-piece positions.
const FENS = [
  '8/4P2K/8/8/5Q2/q7/6k1/8 w - - 0 1',
  '8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1',
  '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1',
  '8/8/8/4k3/8/8/8/R3K3 w - - 0 1',
];

/** Probes with onUpdate in a fresh Tablebase: {updates, result, stats}. */
function probeWithUpdates(page, fen) {
  return page.evaluate(async (fen) => {
    const updates = [];
    let settled = false;
    let atComplete = null;
    const result = await window.tb.probe(fen, {
      onUpdate: (u) => {
        updates.push({ stage: u.stage, result: u.result, beforeSettled: !settled });
        if (u.stage === 'complete') atComplete = window.tb.stats().last;
      },
    });
    settled = true;
    // Requests still out when it answered count in stats().last once in.
    while (window.tb.stats().requestsInFlight > 0) await new Promise((r) => setTimeout(r, 5));
    return { updates, result, atComplete, stats: window.tb.stats() };
  }, fen);
}

describe('results as they arrive', { skip }, () => {
  let servers;
  let browser;
  before(async () => {
    // A little latency, so that the verdict and the moves do not arrive together.
    servers = await startServers({ latencyMs: 20 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await servers?.close();
  });

  for (const fen of FENS) {
    it(`verdict first, then the complete result: ${fen}`, async () => {
      const [want] = cliProbe([fen]);
      const page = await openTablebase(await browser.newContext(), servers, { idbBudget: 0 });
      servers.tables.reset();
      const { updates, result, atComplete, stats } = await probeWithUpdates(page, fen);
      assert.deepStrictEqual(result, want, 'the promise keeps its contract');
      const stages = updates.map((u) => u.stage);
      // The outcome is skipped only when the verdict came first.
      assert.ok(['outcome,verdict,complete', 'verdict,complete'].includes(stages.join()), stages.join());
      const { moves, ...verdict } = want;
      const at = (stage) => updates.find((u) => u.stage === stage).result;
      if (stages[0] === 'outcome') {
        assert.deepStrictEqual(at('outcome'), { ...verdict, dtz: null, precise: null, dtm: null, moves: [] });
      }
      assert.deepStrictEqual(at('verdict'), { ...verdict, moves: [] });
      assert.deepStrictEqual(at('complete'), want);
      assert.ok(updates.every((u) => u.beforeSettled), 'updates come before the promise resolves');

      const last = stats.last;
      // Whose figures they are: a page running several calls can tell.
      assert.equal(last.method, 'probe');
      assert.equal(last.fen, fen);
      assert.ok(Number.isInteger(last.id) && last.id > 0, JSON.stringify(last));
      const srv = servers.tables.stats();
      assert.equal(last.requests, srv.requests, 'every request the server saw is the probe');
      assert.equal(last.bytes, srv.bytes);
      // Rounds count the move list's attempts that waited for an answer; one
      // may come from a request the verdict started earlier, so they may
      // exceed the waves: each round still waited for a request of its own.
      assert.ok(last.rounds >= 1 && last.rounds <= last.requests, JSON.stringify(last));
      assert.ok(last.waves >= 1 && last.waves <= last.requests, JSON.stringify(last));
      assert.ok(last.verdictMs !== null && last.verdictMs <= last.elapsedMs, JSON.stringify(last));
      assert.ok(last.outcomeMs !== null && last.outcomeMs <= last.verdictMs, JSON.stringify(last));
      // The complete stage comes with the answer, its time stopped there
      // (the promise also waits for IndexedDB's writes).
      assert.equal(atComplete?.elapsedMs, last.elapsedMs, JSON.stringify(atComplete));
      console.log(`${fen}: ${JSON.stringify(last)}`);

      // Warm: no request, so `last` still describes the cold probe.
      assert.deepStrictEqual(await probe(page, fen), want);
      assert.deepStrictEqual((await tbStats(page)).last, last);
      await page.context().close();
    });
  }

  it("moves: false answers the verdict alone, without the move list's requests", async () => {
    // Reached positions on the board (a capture out of a 6-piece position)
    // need only their verdicts: each is compared with a full probe's, in
    // its own fresh Tablebase, on the same server.
    const cold = async (fen, options) => {
      const page = await openTablebase(await browser.newContext(), servers, { idbBudget: 0 });
      servers.tables.reset();
      const got = await page.evaluate(
        async ([fen, options]) => {
          const stages = [];
          const result = await window.tb.probe(fen, { ...options, onUpdate: (u) => stages.push(u.stage) });
          while (window.tb.stats().requestsInFlight > 0) await new Promise((r) => setTimeout(r, 5));
          return { result, stages, last: window.tb.stats().last };
        },
        [fen, options],
      );
      got.server = servers.tables.stats();
      await page.context().close();
      return got;
    };
    for (const fen of FENS) {
      const [want] = cliProbe([fen]);
      const alone = await cold(fen, { moves: false });
      const full = await cold(fen, {});
      assert.deepStrictEqual(alone.result, { ...want, moves: [] }, fen);
      assert.ok(!alone.stages.includes('complete') && alone.stages.at(-1) === 'verdict', `${fen}: ${alone.stages}`);
      assert.equal(alone.last.requests, alone.server.requests, fen);
      assert.ok(alone.last.rounds >= 1 && alone.last.verdictMs !== null, `${fen}: ${JSON.stringify(alone.last)}`);
      // (KRvK's moves read the position's own table: one request either way.)
      const fewer = full.server.requests > 1 ? (a, b) => a < b : (a, b) => a <= b;
      assert.ok(fewer(alone.server.requests, full.server.requests) && fewer(alone.server.bytes, full.server.bytes), `${fen}: verdict alone ${alone.server.requests} requests, ${alone.server.bytes} bytes; full ${full.server.requests}, ${full.server.bytes}`);
      console.log(`${fen}: verdict alone ${alone.server.requests} requests ${Math.round(alone.server.bytes / 1024)} KiB; full ${full.server.requests} requests ${Math.round(full.server.bytes / 1024)} KiB`);
    }
  });

  it("stats().recent: a probe's figures stay at hand after a best line finishes", async () => {
    // The board reads them after the probe's promise; a best line of the
    // next position finishing meanwhile took stats().last (until
    // 2026-11-30 it then showed "no network (cached)").
    const [fen, other] = [FENS[2], FENS[0]];
    const page = await openTablebase(await browser.newContext(), servers, { idbBudget: 0 });
    const { last, recent } = await page.evaluate(
      async ([fen, other]) => {
        await window.tb.probe(fen);
        await window.tb.mainline(other);
        return window.tb.stats();
      },
      [fen, other],
    );
    assert.equal(last.method, 'mainline', JSON.stringify(last));
    assert.deepStrictEqual(
      recent.map((t) => [t.method, t.fen]),
      [
        ['probe', fen],
        ['mainline', other],
      ],
    );
    assert.ok(recent[0].requests > 0 && recent[0].id < last.id, JSON.stringify(recent));
    assert.deepStrictEqual(recent[1], last);
    await page.context().close();
  });

  it('on a slow link the verdict does not wait for the outcome: a promotion asks for its promoted table at once', async () => {
    // A pawn about to promote has its DTZ in the promoted table; on a phone
    // its head waited for the outcome's pages before 18c0e20 (the board's
    // DTZ 0.6 s after the result; BENCHMARKS.md, phone profile).
    const fen = '8/4P2K/8/8/5Q2/q7/6k1/8 w - - 0 1';
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // Slow from the page's own download on, which is what the runtime measures first.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 });
    await openTablebase(context, servers, { idbBudget: 0 }, page);
    const { first, promoted, result } = await page.evaluate(async (fen) => {
      performance.setResourceTimingBufferSize(1000);
      const t0 = performance.now();
      let first = null;
      const result = await window.tb.probe(fen, {
        onUpdate: () => {
          if (first === null) first = performance.now();
        },
      });
      const starts = performance
        .getEntriesByType('resource')
        .filter((e) => e.name.endsWith('/KQQvKQ.rtbw') && e.startTime >= t0)
        .map((e) => e.startTime);
      return { first, promoted: Math.min(...starts), result };
    }, fen);
    assert.deepStrictEqual(result, cliProbe([fen])[0]);
    assert.ok(Number.isFinite(promoted), 'KQQvKQ.rtbw was fetched');
    assert.ok(promoted < first, `KQQvKQ.rtbw asked for at ${Math.round(promoted)} ms, the first result at ${Math.round(first)} ms`);
    await context.close();
  });

  it('a running halfmove clock on a decisive result: no outcome before the DTZ', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 60 80';
    const page = await openTablebase(await browser.newContext(), servers, { idbBudget: 0 });
    const { updates, result } = await probeWithUpdates(page, fen);
    assert.deepStrictEqual(updates.map((u) => u.stage), ['verdict', 'complete']);
    assert.deepStrictEqual(updates[1].result, result);
    await page.context().close();
  });

  it('no update after the promise rejected, and no outcome or verdict time without onUpdate', async () => {
    // The move list fails at once (KQvKR refused: 401, fatal) while the
    // position's own DTZ is slow: its verdict ends after the rejection.
    const fen = '8/8/4k3/8/8/2R5/7r/K2Q4 w - - 0 1';
    const page = await openTablebase(await browser.newContext(), servers, { idbBudget: 0, generate: 'never' });
    servers.tables.reset();
    servers.tables.setFaults([
      { match: 'KQvKR', mode: 'status', status: 401 },
      { match: 'KQRvKR.rtbz', mode: 'slow', delayMs: 400 },
    ]);
    try {
      const seen = await page.evaluate(async (fen) => {
        const events = [];
        try {
          await window.tb.probe(fen, { onUpdate: (u) => events.push(u.stage) });
          events.push('resolved');
        } catch (e) {
          events.push(`rejected ${e.code}`);
        }
        await new Promise((r) => setTimeout(r, 1500));
        return events;
      }, fen);
      assert.equal(seen.filter((e) => e.startsWith('rejected')).length, 1, seen.join());
      assert.match(seen.at(-1), /^rejected network$/, `an update came after the promise settled: ${seen.join()}`);
    } finally {
      servers.tables.setFaults([]);
    }
    // Without onUpdate nothing times an outcome or a verdict (ColdProbe's type: null).
    servers.tables.reset();
    const other = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    await page.evaluate((f) => window.tb.probe(f), other);
    const last = (await tbStats(page)).last;
    assert.ok(last && last.requests > 0, JSON.stringify(last));
    assert.equal(last.outcomeMs, null, JSON.stringify(last));
    assert.equal(last.verdictMs, null, JSON.stringify(last));
    await page.context().close();
  });
});
