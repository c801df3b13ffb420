// Several ranges in one request, where the page and its tables share an
// origin: the driver learns from a file's head whether the server answers
// several ranges in one multipart body, and then asks for a file's ranges
// of a round in one request. From a server that does not (200 and the
// whole file, or the first range alone) it learns so from the first
// answer, and asks one range a request from then on. Either way the
// answers are the CLI's, and what they stored in IndexedDB answers again
// offline.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, launch, TABLES, REPO, probeAll, tbStats, cliProbe, createTablebase } from './helpers.mjs';

const skip = skipReason();

// The rook promotion (13 files) and a KRPvKR position.
const FENS = ['8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1', '8/8/4k3/8/3r4/3P4/8/3RK3 b - - 12 40'];
const several = (e) => (e.range || '').includes(',');
// A file's head, asked for with the byte one past it: `bytes=0-n,(n+2)-(n+2)`.
const headProbe = (e) => {
  const m = /^bytes=0-(\d+),(\d+)-(\d+)$/.exec(e.range || '');
  return !!m && Number(m[1]) + 2 === Number(m[2]) && m[2] === m[3];
};

// A probe that never answers fails the suite at this timeout rather than hang it.
describe('several ranges a request, page and tables from one origin', { skip, timeout: 120000 }, () => {
  let browser;
  let server;
  let expected;
  before(async () => {
    const { startServer } = await import(`${REPO}/tests/server/range-server.mjs`);
    server = await startServer({ port: 0, tables: [TABLES], static: REPO });
    browser = await launch();
    expected = cliProbe(FENS);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The test page in `context`, the server reset and faulted, a Tablebase over its tables. */
  async function faultedPage(context, faults) {
    const page = await context.newPage();
    await page.goto(`${server.url}tests/browser/page.html`);
    await page.waitForFunction(() => window.ready === true);
    server.reset();
    server.setFaults(faults);
    await createTablebase(page, { urls: [`${server.url}tables/`], generate: 'never' });
    return page;
  }

  /** A fresh context probing FENS under `faults`: {stats, log}. */
  async function run(faults) {
    const context = await browser.newContext();
    try {
      const page = await faultedPage(context, faults);
      assert.deepStrictEqual(await probeAll(page, FENS), expected);
      const stats = await tbStats(page);
      const log = server.stats().log;
      // What those answers stored serves a new Tablebase offline.
      await context.setOffline(true);
      await createTablebase(page, { urls: [`${server.url}tables/`], generate: 'never' });
      assert.deepStrictEqual(await probeAll(page, FENS), expected, 'offline, from IndexedDB');
      return { stats, log };
    } finally {
      await context.close();
    }
  }

  it('a server that answers several ranges in one body gets them', async () => {
    const { stats, log } = await run([]);
    const multi = log.filter(several);
    assert.ok(multi.length > 6, `${multi.length} requests for several ranges`);
    assert.ok(multi.every((e) => e.status === 206));
    assert.ok(stats.multipartRequests >= multi.length - 6, `${stats.multipartRequests} multipart answers read`);
    // Past the heads' probes, a request names ranges of one file a round:
    // fewer requests than ranges.
    const ranges = log.reduce((n, e) => n + (e.range || '').split(',').length, 0);
    assert.ok(ranges > log.length + 10, `${ranges} ranges in ${log.length} requests`);
  });

  it('a server that sends 200 and the whole file: learned from the first answer, one range a request after', async () => {
    const { stats, log } = await run([{ mode: 'single-range' }]);
    assert.equal(stats.multipartRequests, 0);
    const multi = log.filter(several);
    // Only heads that left the gate (6 at a time) before the first answer
    // came back ask for the byte one past them too; the rest ask for the head alone.
    assert.ok(multi.length >= 1 && multi.length <= 6, `${multi.length} requests for several ranges`);
    assert.ok(multi.every((e) => e.status === 200 && headProbe(e)));
    assert.ok(log.some((e) => /^bytes=0-\d+$/.test(e.range || '')), 'no head asked for alone');
  });

  it('a server that sends the first range alone: heads still whole, never scattered ranges', async () => {
    // Its answer to a head (the range, and the byte one past it) is the
    // head: it cannot show whether the server takes several ranges.
    const { stats, log } = await run([{ mode: 'first-range' }]);
    assert.equal(stats.multipartRequests, 0);
    // The fault met at least one request for several ranges (the heads' probes).
    assert.ok(log.some((e) => several(e) && e.fault === 'first-range'), 'no request met the fault');
    assert.ok(log.filter(several).every(headProbe), 'scattered ranges asked for');
    assert.equal(stats.retries, 0);
  });

  for (const status of [400, 403, 500, 501]) {
    it(`a server that refuses several ranges (${status}): one range a request after, answers right`, async () => {
      const { stats, log } = await run([{ mode: 'refuse-several', status }]);
      assert.equal(stats.multipartRequests, 0);
      const multi = log.filter(several);
      // Only the heads that left (6 at a time) before the first refusal
      // came back ask for two ranges; a server error other than 501 is a
      // refusal when the same request gets it twice, so those ask twice.
      const most = status >= 500 && status !== 501 ? 12 : 6;
      assert.ok(multi.length >= 1 && multi.length <= most && multi.every((e) => e.status === status && headProbe(e)), JSON.stringify(multi));
      assert.ok(log.some((e) => /^bytes=0-\d+$/.test(e.range || '') && e.status === 206), 'no head asked for alone');
    });
  }

  it('requests for several ranges that get no answer at all (a proxy drops them): asked for again as one range, answers right', async () => {
    // Until 2026-11-30 the retry asked for the same ranges, with the same
    // end, and the probe failed 'network' after its retries.
    const { stats, log } = await run([{ mode: 'drop-several' }]);
    assert.equal(stats.multipartRequests, 0);
    // (A file shorter than its head gets one range: served.)
    const dropped = log.filter((e) => several(e) && e.status === 0);
    assert.ok(dropped.length >= 1 && dropped.every(headProbe), JSON.stringify(dropped));
    assert.ok(log.some((e) => /^bytes=0-\d+$/.test(e.range || '') && e.status === 206), 'no head asked for alone');
  });

  it('server errors to the first requests for several ranges, once each: retried, and several ranges still asked for', async () => {
    // The first 6 requests are the first heads (6 at a time), each asked
    // for with the byte past it: a 503 to each is a passing fault (a server
    // restarting), not a refusal of several ranges.
    const { stats, log } = await run([{ mode: 'refuse-several', status: 503, count: 6 }]);
    assert.equal(log.filter((e) => e.status === 503 && headProbe(e)).length, 6);
    assert.ok(stats.retries >= 6, `${stats.retries} retries`);
    assert.ok(stats.multipartRequests > 6, `${stats.multipartRequests} multipart answers read`);
    assert.ok(log.some((e) => several(e) && !headProbe(e) && e.status === 206), 'no scattered ranges asked for');
  });

  it('a probe that comes to need pages joined to a lower-ranked request promotes it', async () => {
    // With its updates, this position's outcome, verdict and move list run
    // as probes of three ranks, and a higher rank's hold on the gate keeps
    // lower ranks' requests waiting. Pages one probe joined to another's
    // waiting request, once a higher-ranked probe needed them, once left
    // it waiting on a request its own hold kept back (seen here in about
    // one load in five, with the server's 100 ms).
    const { startServer } = await import(`${REPO}/tests/server/range-server.mjs`);
    const slow = await startServer({ port: 0, tables: [TABLES], static: REPO, latencyMs: 100 });
    const fen = '8/2N5/1q2k3/8/8/Q2K4/8/8 b - - 0 1';
    const [want] = cliProbe([fen]);
    try {
      for (let i = 0; i < 8; i++) {
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          await page.goto(`${slow.url}tests/browser/page.html`);
          await page.waitForFunction(() => window.ready === true);
          await createTablebase(page, { urls: [`${slow.url}tables/`], generate: 'never' });
          const got = await page.evaluate((f) => window.tb.probe(f, { onUpdate: () => {} }), fen);
          assert.deepStrictEqual(got, want);
        } finally {
          await context.close();
        }
      }
    } finally {
      await slow.close();
    }
  });

  it("tables on the page's origin redirected to another: one range a request there, no preflight a file", async () => {
    // Several ranges are not CORS-safelisted: across origins each file's
    // request for them waits for a preflight first. A multipart answer that
    // came through a redirect to another origin was taken for the page
    // origin's, and every scattered request of a round paid a preflight.
    const { startServer } = await import(`${REPO}/tests/server/range-server.mjs`);
    const cdn = await startServer({ port: 0, host: '127.0.0.1', tables: [TABLES] });
    try {
      const { log } = await run([{ match: '/tables/', mode: 'redirect', to: `${cdn.url}tables/` }]);
      assert.ok(log.length > 0 && log.every((e) => e.status === 302), 'not every table request was redirected');
      const there = cdn.stats().log;
      assert.ok(there.some(headProbe), 'no head probe reached the other origin');
      // Only heads that left before the first answer ask for two ranges
      // (6 at a time, each after its own preflight).
      const preflights = there.filter((e) => e.method === 'OPTIONS');
      assert.ok(preflights.length <= 6, `${preflights.length} preflights`);
      assert.ok(there.filter(several).every(headProbe), 'scattered ranges asked for across origins');
    } finally {
      // (The fault would send the next test's page there too.)
      server.setFaults([]);
      await cdn.close();
    }
  });

  it('a server that stops answering several ranges: the ranges it left out are asked for on their own', async () => {
    const { stats, log } = await run([{ mode: 'first-range', skip: 8 }]);
    assert.ok(stats.multipartRequests > 0);
    const cut = log.filter((e) => several(e) && !headProbe(e) && e.fault === 'first-range');
    assert.ok(cut.length > 0, 'no request for scattered ranges met the fault');
    // Each left-out range was asked for again, alone.
    for (const e of cut) {
      for (const r of e.range.slice('bytes='.length).split(',').slice(1)) {
        assert.ok(log.some((x) => x.path === e.path && x.time >= e.time && x.range === `bytes=${r}`), `${e.path} ${r} not asked again`);
      }
    }
  });

  it("a single-page app's fallback page for a table, asked for with several ranges: a missing table, nothing kept", async () => {
    // The first head on the page's own origin asks for two ranges; its
    // 200 text/html answer was taken for the file (then corrupt-table,
    // and the page kept in IndexedDB).
    const context = await browser.newContext();
    try {
      const page = await faultedPage(context, [
        { match: 'KQvKR.rtbz', mode: 'status', status: 200, body: '<!doctype html><title>app</title>\n', headers: { 'Content-Type': 'text/html; charset=utf-8' } },
      ]);
      const [got] = await probeAll(page, ['8/8/8/4k3/8/r7/8/3QK3 w - - 0 1']);
      assert.equal(got.code, 'missing-table', JSON.stringify(got));
      assert.match(got.error, /KQvKR\.rtbz/);
      assert.ok(server.stats().log.some((e) => e.path.endsWith('KQvKR.rtbz') && several(e)), 'the head was not asked with several ranges');
    } finally {
      server.setFaults([]);
      await context.close();
    }
  });
});
