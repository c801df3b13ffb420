// Tables on an https host that sends no Timing-Allow-Origin (most CDNs):
// the page presumes HTTP/2, so a first round goes out whole, and the
// answers' times confirm it or bring the gate back to six connections
// for HTTP/1.1. Real Chromium, real TLS servers (HTTP/2, and HTTP/1.1
// only), the answers checked against the native CLI.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, TABLES, skipReason, launch, openTablebase, createTablebase, probe, cliProbe, tbStats } from './helpers.mjs';

const skip = skipReason();

// Issue 12's rook promotion: 11 table heads in its first round.
const FEN = '8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1';
// A position whose tables (KRvKP, 64 KiB heads) time the link before FEN's heads are sized.
const WARM_UP = '8/8/8/8/8/3k4/p7/2R1K3 w - - 0 1';

const TLS_DIR = path.join(REPO, 'tests', 'server', 'tls');
const tls = () => ({ key: fs.readFileSync(path.join(TLS_DIR, 'localhost.key')), cert: fs.readFileSync(path.join(TLS_DIR, 'localhost.crt')) });

/** The most requests the server had out at once, from its log ({time, ms} each). */
function mostAtOnce(log) {
  const edges = log.flatMap((e) => [[e.time, 1], [e.time + e.ms, -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, d] of edges) most = Math.max(most, (now += d));
  return most;
}

describe('an https host without Timing-Allow-Origin', { skip }, () => {
  let site;
  let browser;
  const hosts = {};
  before(async () => {
    const { startServer } = await import(path.join(REPO, 'tests', 'server', 'range-server.mjs'));
    site = await startServer({ port: 0, tables: [], static: REPO });
    const common = { port: 0, host: '127.0.0.1', tables: [TABLES], latencyMs: 150, timingAllowOrigin: false, tls: tls() };
    hosts.h2 = await startServer(common);
    hosts.h1 = await startServer({ ...common, http1: true });
    hosts.plain = await startServer({ port: 0, tables: [TABLES], latencyMs: 150 });
    hosts.site = await startServer({ port: 0, host: '127.0.0.1', tables: [], static: REPO, tls: tls(), http1: true });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await Promise.all([site, hosts.h1, hosts.h2, hosts.plain, hosts.site].map((s) => s?.close()));
  });

  /** A cold analysis of FEN in a fresh context: its result, stats and the host's log. */
  async function cold(host, scheme = 'https') {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      const servers = { pageUrl: `${site.url}tests/browser/page.html`, base: `${scheme}://localhost:${host.port}/tables/` };
      const page = await openTablebase(context, servers);
      host.reset();
      const result = await probe(page, FEN);
      return { result, stats: await tbStats(page), log: host.stats().log };
    } finally {
      await context.close();
    }
  }

  // The browser blocks it (mixed content): every request failed after its
  // retries, as "unreachable, CORS or compression".
  it('an http base on an https page is an options error that says so; loopback hosts are allowed', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      const servers = { pageUrl: `https://localhost:${hosts.site.port}/tests/browser/page.html`, base: `http://localhost:${hosts.plain.port}/tables/` };
      const page = await openTablebase(context, servers);
      assert.deepStrictEqual(await probe(page, WARM_UP), cliProbe([WARM_UP])[0]);
      const seen = await page.evaluate(() =>
        ['http://tables.example/syzygy/', 'ftp://tables.example/syzygy/'].map((u) => {
          try {
            new window.Tablebase({ urls: [u] });
            return 'accepted';
          } catch (e) {
            return `${e.code}: ${e.message}`;
          }
        }),
      );
      assert.match(seen[0], /^options: .*http:\/\/tables\.example\/syzygy\/ is plain http on an https page.*mixed content/);
      assert.match(seen[1], /^options: .*not an http or https URL/);
    } finally {
      await context.close();
    }
  });

  it('HTTP/2: its answers show it, and the first round goes out whole', async () => {
    const [want] = cliProbe([FEN]);
    const { result, stats, log } = await cold(hosts.h2);
    assert.deepStrictEqual(result, want);
    assert.equal(stats.multiplexed, true);
    assert.ok(mostAtOnce(log) > 6, `at most ${mostAtOnce(log)} requests at once`);
    // Requests run at once: a table's head brings its sparse index, not its block lengths.
    assert.equal(headOf(log, 'KRBvKR.rtbw'), 'bytes=0-49151');
  });

  it('HTTP/1.1: its answers show it, and the answer is the same', async () => {
    const [want] = cliProbe([FEN]);
    const { result, stats } = await cold(hosts.h1);
    assert.deepStrictEqual(result, want);
    assert.equal(stats.multiplexed, false);
  });

  it('plain HTTP/1.1 on a fast link: a pawnless table\'s head brings its whole index, and the answer is the same', async () => {
    const [want] = cliProbe([FEN]);
    const context = await browser.newContext();
    try {
      const servers = { pageUrl: `${site.url}tests/browser/page.html`, base: `http://localhost:${hosts.plain.port}/tables/` };
      const page = await openTablebase(context, servers);
      // A first probe has the network stack time table bodies: the link's
      // rate then comes from them, not from the page's own downloads,
      // which a busy machine's static server can send below 2 MB/s.
      await probe(page, WARM_UP);
      const { link } = await tbStats(page);
      await createTablebase(page, { urls: [servers.base] });
      hosts.plain.reset();
      assert.deepStrictEqual(await probe(page, FEN), want);
      const log = hosts.plain.stats().log;
      assert.equal((await tbStats(page)).multiplexed, false);
      // KRBvKR.rtbw's block lengths end 95,792 bytes in: no request for them follows the head.
      assert.equal(headOf(log, 'KRBvKR.rtbw'), 'bytes=0-98303', `link ${JSON.stringify(link)}`);
      const later = log.filter((e) => e.path.endsWith('/KRBvKR.rtbw') && e.range !== 'bytes=0-98303');
      for (const e of later) assert.ok(Number(/bytes=(\d+)-/.exec(e.range)[1]) >= 95792, e.range);
    } finally {
      await context.close();
    }
  });

  it('plain HTTP/1.1, the link not measured yet (a page from the cache): heads stay small, and the answer is the same', async () => {
    const [want] = cliProbe([FEN]);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${site.url}tests/browser/page.html`);
      await page.waitForFunction(() => window.ready === true);
      // As if the page's script and wasm had come from the cache: nothing timed.
      const base = `http://localhost:${hosts.plain.port}/tables/`;
      await page.evaluate((base) => {
        performance.clearResourceTimings();
        window.tb = new window.Tablebase({ urls: [base] });
      }, base);
      hosts.plain.reset();
      assert.deepStrictEqual(await probe(page, FEN), want);
      assert.equal(headOf(hosts.plain.stats().log, 'KRBvKR.rtbw'), 'bytes=0-49151');
    } finally {
      await context.close();
    }
  });
});

/** The Range of the first request for `file` in a server log. */
function headOf(log, file) {
  return log.find((e) => e.path.endsWith(`/${file}`))?.range;
}
