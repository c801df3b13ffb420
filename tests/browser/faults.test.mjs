// The driver against a misbehaving table server: every fault ends in the
// right answer or a clear error (message and err.code), and nothing wrong is
// kept: once the fault is gone, the same Tablebase and a new one (over the
// same IndexedDB) answer exactly as the CLI does.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  TABLES,
  skipReason,
  startServers,
  launch,
  openTablebase,
  createTablebase,
  probe,
  probeAll,
  tbStats,
  cliProbe,
  fileSize,
  deadUrl,
  idbFileRecord,
} from './helpers.mjs';

const skip = skipReason();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// KRPvKR, black to move: 6 files (KRPvKR, KRvKR, KRPvK, KRvK), 3 rounds cold.
const FEN = '8/8/4k3/8/3r4/3P4/8/3RK3 b - - 12 40';
// KQvKR, white wins: needs KQvKR.rtbz.
const KQKR = '8/8/8/4k3/8/3r4/8/3QK3 w - - 0 1';
// No capture decides it, so the position's own DTZ needs KQvKR.rtbz.
const KQKR_QUIET = '8/8/8/4k3/8/r7/8/3QK3 w - - 0 1';
// KRPvKR positions whose WDL pages lie early in the 16 MB file.
const EARLY = ['8/8/P4R2/6k1/8/8/8/4Kr2 w - - 0 1', '8/8/8/2krR3/8/7P/2K5/8 b - - 0 1'];
// Another KRPvKR position, for the identity change.
const OTHER = '8/5K2/8/P3k3/8/8/R1r5/8 w - - 0 1';
// KBNvK positions (a 462 KB DTZ file, a few small ones reached), for a
// file saved for offline.
const KBN = ['8/8/8/4k3/8/8/8/2BNK3 w - - 0 1', '7k/8/8/8/8/8/8/KBN5 w - - 0 1'];

// What the test server exposes, and Content-Encoding (else hidden from another origin's page).
const EXPOSED = 'Content-Range, Content-Length, ETag, Last-Modified, Accept-Ranges, Content-Encoding';

const CASES = [
  { name: '416 once, then success', faults: { match: 'KRPvKR.rtbw', mode: 'status', status: 416, count: 1 }, retries: 1 },
  { name: '500 twice, then success', faults: { match: 'KRPvKR', mode: 'status', status: 500, count: 2 }, retries: 2 },
  { name: 'truncated body once: retried', faults: { match: 'KRPvKR', mode: 'truncate', count: 1 }, retries: 1 },
  { name: 'connection reset mid-body once: retried', faults: { match: 'KRPvKR', mode: 'reset', count: 1 }, retries: 1 },
  { name: 'slow server (300 ms)', faults: { match: 'KRPvKR', mode: 'slow', delayMs: 300 } },
  { name: 'dripping body', faults: { match: 'KRPvKR', mode: 'drip', chunk: 4096, intervalMs: 10 } },
  { name: 'wrong Content-Range once: retried', faults: { match: 'KRPvKR', mode: 'wrong-range', count: 1 }, retries: 1 },
  {
    // RFC 9110 lets a server send more than the range asked, its
    // Content-Range saying what (until 2026-12-02 retried, then an error).
    name: 'ranges answered from 5000 bytes earlier: cut to those asked, no retry',
    faults: { match: 'KRPvKR', mode: 'wider-range', before: 5000 },
    check: ({ srv, stats }) => {
      assert.equal(stats.retries, 0, `${stats.retries} retries`);
      // (Heads start at byte 0; requests for several ranges are answered as usual.)
      const widened = srv.log.filter((e) => e.fault === 'wider-range' && e.status === 206 && /^bytes=[1-9]\d*-\d+$/.test(e.range));
      assert.ok(widened.length > 0, 'no range was answered from earlier');
    },
  },
  {
    name: 'wrong size in Content-Range once: a version change, recovered',
    faults: { match: 'KRPvKR.rtbw', mode: 'wrong-range', shift: 0, sizeDelta: 64, count: 1 },
  },
  {
    name: 'redirect to another path',
    faults: { match: 'KRPvKR', mode: 'redirect' },
    check: ({ srv }) => assert.ok(srv.log.some((e) => e.path.startsWith('/redirected/')), 'no redirected request'),
  },
  {
    name: 'wrong Content-Range always: clear error',
    faults: { match: 'KRPvKR', mode: 'wrong-range' },
    error: { code: 'network', message: /KRPvKR\.rtbw.*Content-Range bytes 1-.* does not match bytes=0-/ },
  },
  {
    name: '500 always: clear error',
    fen: KQKR_QUIET,
    faults: { match: 'KQvKR.rtbz', mode: 'status', status: 500 },
    error: { code: 'network', message: /KQvKR\.rtbz.*HTTP 500/ },
  },
  {
    // FEN is a draw with no DTZ to read, but its probe asks for the DTZ
    // file on speculation before it knows: that failure costs nothing.
    name: '500 always on a file the answer turns out not to need: answered',
    faults: { match: 'KRPvKR.rtbz', mode: 'status', status: 500 },
  },
  {
    // A refusal does not change when asked again: no retries.
    name: '401: clear error at once',
    fen: KQKR_QUIET,
    faults: { match: 'KQvKR.rtbz', mode: 'status', status: 401 },
    error: { code: 'network', message: /KQvKR\.rtbz.*HTTP 401/ },
    check: ({ stats }) => assert.equal(stats.retries, 0, `${stats.retries} retries`),
  },
  {
    // What S3-style hosts answer for a missing key without list rights.
    name: '403 on open: missing-table naming the file',
    fen: KQKR_QUIET,
    faults: { match: 'KQvKR.rtbz', mode: 'status', status: 403 },
    // Said so, for a host that denies access to a table it has.
    error: { code: 'missing-table', message: /KQvKR\.rtbz.*answered 403 Forbidden/ },
    check: ({ stats }) => assert.equal(stats.retries, 0, `${stats.retries} retries`),
  },
  {
    // The body's first 4 KiB, then nothing for a minute: given up after
    // 20 s without bytes and asked again.
    name: 'a body that stalls once: asked again',
    faults: { match: 'KRPvKR.rtbw', mode: 'drip', chunk: 4096, intervalMs: 60000, count: 1 },
    retries: 1,
  },
  {
    // 64 bytes every 4 s, each piece within the 20 s stall limit: given
    // up once the body falls below 2 KB/s past its first 20 s, asked again.
    name: 'a body that drips slower than any link: asked again',
    fen: KQKR_QUIET,
    faults: { match: 'KQvKR.rtbw', mode: 'drip', chunk: 64, intervalMs: 4000, count: 1 },
    retries: 1,
  },
  {
    name: 'gzip: clear error about compression',
    faults: { match: 'KRPvKR', mode: 'gzip' },
    error: { code: 'network', message: /KRPvKR\.rtb.*compressed.*Content-Encoding/ },
  },
  {
    // A server that ignores Range sends 1 KiB of the file, then nothing
    // with the connection open: the stream ends after 20 s without a byte
    // and the file is asked for again (until 2026-11-30 it waited for good).
    name: 'a whole-file answer that stalls mid-body: asked again',
    fen: KQKR_QUIET,
    faults: { match: 'KQvKR.rtbw', mode: 'drip', whole: true, chunk: 1024, intervalMs: 600000, count: 1 },
    retries: 1,
  },
  {
    // The header's names are case-insensitive; an empty one names none.
    name: 'Content-Encoding "Identity" or empty: no compression, right answers',
    faults: [
      { match: 'KRPvKR.rtbw', mode: 'slow', delayMs: 0, headers: { 'Content-Encoding': 'Identity', 'Access-Control-Expose-Headers': EXPOSED } },
      { match: 'KRPvKR.rtbz', mode: 'slow', delayMs: 0, headers: { 'Content-Encoding': '', 'Access-Control-Expose-Headers': EXPOSED } },
    ],
    check: ({ stats }) => assert.equal(stats.retries, 0),
  },
  {
    // A host that sends an ETag on some answers and only Last-Modified on
    // others (here every second answer for the file; fault k fires at its
    // request 2k): the two are not compared, so no version change.
    name: 'an ETag on every second answer only: not a change, right answers',
    faults: Array.from({ length: 40 }, (_, i) => ({ match: 'KRPvKR.rtbw', mode: 'slow', delayMs: 0, skip: i + 1, count: 1, headers: { ETag: null } })),
    check: ({ stats }) => assert.equal(stats.identityChanges, 0),
  },
  {
    name: 'no CORS headers: clear error about CORS',
    faults: { match: 'KRPvKR', mode: 'no-cors' },
    error: { code: 'network', message: /KRPvKR\.rtb.*CORS.*Access-Control-Allow-Origin/ },
  },
  {
    // A single-page app's host answers every path with its page.
    name: 'an HTML page for a table: missing-table, nothing taken for a table',
    fen: KQKR_QUIET,
    faults: { match: 'KQvKR.rtbz', mode: 'status', status: 200, body: '<!doctype html><title>app</title>\n', headers: { 'Content-Type': 'text/html; charset=utf-8' } },
    error: { code: 'missing-table', message: /KQvKR\.rtbz/ },
    check: ({ stats }) => assert.equal(stats.retries, 0, `${stats.retries} retries`),
  },
  {
    // The encoding of an error page says nothing of the table's.
    name: '503 with Content-Encoding twice, then success: retried',
    faults: { match: 'KRPvKR', mode: 'status', status: 503, count: 2, headers: { 'Content-Encoding': 'gzip' } },
    retries: 2,
  },
  {
    name: '404 on open: missing-table naming the file',
    fen: KQKR_QUIET,
    faults: { match: 'KQvKR.rtbz', mode: 'status', status: 404 },
    error: { code: 'missing-table', message: /KQvKR\.rtbz/ },
  },
  {
    name: '404 after open: missing-table naming the file',
    fen: KQKR,
    faults: { match: 'KQvKR.rtbz', mode: 'status', status: 404, skip: 1 },
    error: { code: 'missing-table', message: /KQvKR\.rtbz/ },
  },
];

describe('fault matrix', { skip }, () => {
  let servers;
  let browser;
  const expected = {};
  before(async () => {
    servers = await startServers();
    browser = await launch();
    const fens = [FEN, KQKR, KQKR_QUIET, ...EARLY, OTHER, ...KBN];
    cliProbe(fens).forEach((r, i) => {
      assert.ok(!r.error, `${fens[i]}: ${r.error}`);
      expected[fens[i]] = r;
    });
  });
  after(async () => {
    await browser?.close();
    await servers?.close();
  });

  /**
   * A fresh context (empty IndexedDB) with a Tablebase, the server reset and
   * faulted. Generation is off: a missing 4-piece table would otherwise be
   * made in the browser instead of reported (tests/browser/generated.test.mjs
   * covers that path).
   */
  async function faulted(faults) {
    const context = await browser.newContext();
    const page = await openTablebase(context, servers, { generate: 'never' });
    servers.tables.reset();
    servers.tables.setFaults(faults);
    return { context, page };
  }

  /** With the faults gone: the same Tablebase, then a new one over the same IndexedDB, answer right. */
  async function recovers(page, fen) {
    servers.tables.setFaults([]);
    assert.deepStrictEqual(await probe(page, fen), expected[fen], 'after the fault, the same Tablebase');
    await createTablebase(page, { urls: [servers.base] });
    assert.deepStrictEqual(await probe(page, fen), expected[fen], 'after the fault, a new Tablebase over IndexedDB');
    assert.ok((await tbStats(page)).pagesFromIndexedDb > 0, 'IndexedDB was not used');
  }

  for (const c of CASES) {
    it(c.name, async () => {
      const fen = c.fen || FEN;
      const { context, page } = await faulted(c.faults);
      try {
        const got = await probe(page, fen);
        const stats = await tbStats(page);
        const srv = servers.tables.stats();
        const applied = srv.log.filter((e) => e.fault).length;
        assert.ok(applied > 0, 'the fault never applied');
        if (c.error) {
          assert.ok(got.error, `expected an error, got an answer`);
          assert.equal(got.code, c.error.code, got.error);
          assert.match(got.error, c.error.message);
        } else {
          assert.deepStrictEqual(got, expected[fen]);
        }
        if (c.retries) assert.ok(stats.retries >= c.retries, `${stats.retries} retries`);
        if (c.check) c.check({ stats, srv });
        // The core remembers a missing table for a second before asking again.
        if (c.error?.code === 'missing-table') await sleep(1100);
        await recovers(page, fen);
      } finally {
        await context.close();
      }
    });
  }

  it('a table back after a 404: probes at the same time all answer, and a re-check that fails leaves the next probe to ask again', async () => {
    const { context, page } = await faulted({ match: 'KQvKR.rtbz', mode: 'status', status: 404 });
    try {
      assert.equal((await probe(page, KQKR_QUIET)).code, 'missing-table');
      // The core remembers a missing table for a second before asking again.
      await sleep(1100);
      // The host errs when it is asked again: the probe fails with that, not missing-table...
      servers.tables.setFaults({ match: 'KQvKR.rtbz', mode: 'status', status: 500 });
      assert.equal((await probe(page, KQKR_QUIET)).code, 'network');
      // ...and once the file is there, three probes at once (the board's
      // outcome, verdict and move list) and two more all answer.
      servers.tables.setFaults([]);
      const got = await page.evaluate(async (fen) => {
        const plain = (p) => p.then((r) => r, (e) => ({ error: String(e && e.message), code: e && e.code }));
        return Promise.all([plain(window.tb.probe(fen, { onUpdate() {} })), plain(window.tb.probe(fen)), plain(window.tb.probe(fen))]);
      }, KQKR_QUIET);
      for (const r of got) assert.deepStrictEqual(r, expected[KQKR_QUIET]);
    } finally {
      await context.close();
    }
  });

  it('a first base that is down: the next one answers, and is asked first from then on', async () => {
    const dead = await deadUrl();
    const context = await browser.newContext();
    try {
      const page = await openTablebase(context, servers, { urls: [dead, servers.base], generate: 'never' });
      servers.tables.reset();
      assert.deepStrictEqual(await probe(page, FEN), expected[FEN]);
      const first = await tbStats(page);
      assert.ok(first.retries >= 3, `${first.retries} retries at the dead base`);
      // Tables not opened yet go to the base that answered: no retry more.
      assert.deepStrictEqual(await probe(page, KQKR), expected[KQKR]);
      assert.equal((await tbStats(page)).retries, first.retries);
    } finally {
      await context.close();
    }
  });

  // A host that takes requests and never answers (down behind a firewall:
  // no reset, only silence) was asked 4 times, 20 s each, before the next
  // base: 82 s a table, again every minute.
  it('a first base that never answers: the next one is asked after one silent request', async () => {
    const mirror = await startServers();
    const context = await browser.newContext();
    try {
      const page = await openTablebase(context, servers, { urls: [servers.base, mirror.base], generate: 'never' });
      servers.tables.reset();
      servers.tables.setFaults({ mode: 'slow', delayMs: 45000 });
      assert.deepStrictEqual(await probe(page, KBN[0]), expected[KBN[0]]);
      const silent = servers.tables.stats().requests;
      assert.ok(silent > 0, 'the first base was not asked');
      assert.equal((await tbStats(page)).retries, 0);
      // It stays after the other until it answers: a table not opened yet goes to the mirror.
      mirror.tables.reset();
      assert.deepStrictEqual(await probe(page, KQKR), expected[KQKR]);
      assert.equal(servers.tables.stats().requests, silent);
      assert.ok(mirror.tables.stats().requests > 0);
    } finally {
      servers.tables.setFaults([]);
      await context.close();
      await mirror.close();
    }
  });

  // `urls` need not be mirrors: a base left at its first silent request
  // is asked again, with its retries, where no other base has the file.
  it('a silent request at the one base that has the file: asked again there once the others lack it', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'syzygy-web-no-tables-'));
    const other = await startServers({ tables: [empty] });
    const context = await browser.newContext();
    try {
      const page = await openTablebase(context, servers, { urls: [servers.base, other.base], generate: 'never' });
      servers.tables.reset();
      servers.tables.setFaults({ match: 'KBNvK.rtbw', mode: 'slow', delayMs: 45000, count: 1 });
      assert.deepStrictEqual(await probe(page, KBN[0]), expected[KBN[0]]);
      const asked = servers.tables.stats().log.filter((e) => e.path.endsWith('/KBNvK.rtbw'));
      assert.ok(asked.length >= 2, `${asked.length} requests for KBNvK.rtbw at the base that has it`);
      assert.ok(other.tables.stats().log.some((e) => e.path.endsWith('/KBNvK.rtbw')), 'the other base was not asked');
    } finally {
      servers.tables.setFaults([]);
      await context.close();
      await other.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  // Before, a file stayed with the base it was opened at: its later pages
  // failed 'network' while the next base had them; and until 2026-11-30 a
  // base that lost the file (a mirror resyncing, a key refused) failed the
  // probe 'missing-table'.
  for (const status of [503, 404]) it(`a base that answers ${status} after its files were opened: their pages come from the next base`, async () => {
    const mirror = await startServers();
    const context = await browser.newContext();
    try {
      const page = await openTablebase(context, servers, { urls: [servers.base, mirror.base], generate: 'never' });
      servers.tables.reset();
      assert.deepStrictEqual(await probe(page, EARLY[0]), expected[EARLY[0]]);
      servers.tables.setFaults({ mode: 'status', status });
      mirror.tables.reset();
      assert.deepStrictEqual(await probe(page, OTHER), expected[OTHER]);
      assert.ok(mirror.tables.stats().requests > 0, 'the next base was not asked');
      assert.deepStrictEqual(await probe(page, EARLY[1]), expected[EARLY[1]]);
    } finally {
      servers.tables.setFaults([]);
      await context.close();
      await mirror.close();
    }
  });

  // Every range of an empty file is unsatisfiable: the 416's `bytes */0`
  // is the file's size, not a fault to ask again about; a server that
  // ignores Range answers 200 with no bytes (until 2026-11-30 taken for
  // "sent no length").
  for (const [ignore, status] of [[false, 416], [true, 200]]) it(`an empty table file (${status}): corrupt-table at once, not retried`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syzygy-empty-'));
    fs.writeFileSync(path.join(dir, 'KBNvK.rtbw'), '');
    const empty = await startServers({ tables: [dir, TABLES] });
    const context = await browser.newContext();
    try {
      const page = await openTablebase(context, empty, { generate: 'never' });
      if (ignore) empty.tables.setFaults({ match: 'KBNvK.rtbw', mode: 'ignore-range' });
      const got = await probe(page, '8/8/8/4k3/8/8/8/1BN1K3 w - - 0 1');
      assert.equal(got.code, 'corrupt-table', JSON.stringify(got));
      assert.match(got.error, /KBNvK\.rtbw/);
      const log = empty.tables.stats().log.filter((e) => e.path.endsWith('KBNvK.rtbw'));
      assert.deepStrictEqual(log.map((e) => e.status), [status]);
      assert.equal((await tbStats(page)).retries, 0);
    } finally {
      await context.close();
      await empty.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('server ignores Range: right answers, one stream read only as far as needed', async () => {
    const name = 'KRPvKR.rtbw';
    const size = fileSize(name);
    const { context, page } = await faulted({ match: name, mode: 'ignore-range' });
    try {
      for (const fen of EARLY) assert.deepStrictEqual(await probe(page, fen), expected[fen], fen);
      const stats = await tbStats(page);
      const srv = servers.tables.stats();
      const mine = srv.log.filter((e) => e.path.endsWith(name));
      assert.ok(mine.length > 0 && mine.every((e) => e.status === 200), 'the server did not ignore Range');
      // One 200 stream for the whole run, never a second download from byte 0.
      assert.equal(mine.length, 1, `${mine.length} requests for ${name}`);
      assert.ok(srv.byPath[`/tables/${name}`].bytes <= size);
      // What the driver read of it (all files together) is a small part of it.
      assert.ok(stats.bytes < size / 4, `read ${stats.bytes} bytes of a ${size}-byte file`);
      await recovers(page, EARLY[0]);
    } finally {
      await context.close();
    }
  });

  // A server that ignores Range and sends no length (a chunked stream):
  // until 2026-12-02 refused ("sent no length"); now read whole within the
  // streaming limit, as the CLI reads it.
  it('server ignores Range without a length (chunked): the file read whole, right answers', async () => {
    const name = 'KBNvK.rtbw';
    const { context, page } = await faulted({ match: name, mode: 'ignore-range', chunked: true });
    try {
      for (const fen of KBN) {
        expected[fen] ??= cliProbe([fen])[0];
        assert.deepStrictEqual(await probe(page, fen), expected[fen], fen);
      }
      const mine = servers.tables.stats().log.filter((e) => e.path.endsWith(name));
      assert.ok(mine.length > 0 && mine.every((e) => e.status === 200), JSON.stringify(mine));
      // Its one stream, read to the end, serves every later read of the file.
      assert.equal(mine.length, 1, `${mine.length} requests for ${name}`);
      await recovers(page, KBN[0]);
    } finally {
      await context.close();
    }
  });

  it('server ignores Range without a length, past the streaming limit: asked once more, then a clear error', async () => {
    const name = 'KBNvK.rtbw';
    const { context, page } = await faulted({ match: name, mode: 'ignore-range', chunked: true });
    try {
      await createTablebase(page, { urls: [servers.base], wholeBodyLimit: 4096, generate: 'never' });
      const got = await probe(page, KBN[0]);
      assert.equal(got.code, 'network', JSON.stringify(got).slice(0, 300));
      assert.match(got.error, /KBNvK\.rtbw.*length not sent.*4096 bytes/);
      // The first such 200 is asked again (a CDN may drop Range once), the second is the server's way.
      const mine = servers.tables.stats().log.filter((e) => e.path.endsWith(name));
      assert.deepStrictEqual(mine.map((e) => e.status), [200, 200]);
      expected[KBN[0]] ??= cliProbe([KBN[0]])[0];
      await recovers(page, KBN[0]);
    } finally {
      await context.close();
    }
  });

  it('server ignores Range for every file: right answer, no stall on connections', async () => {
    // Many files, several large: paused streams must not hold all of the
    // browser's connections to the host (a stall until the idle timeout).
    const fen = '1q6/3P4/8/4k3/8/8/8/1Q2K3 w - - 0 1';
    const { context, page } = await faulted({ mode: 'ignore-range' });
    try {
      const got = await probe(page, fen);
      expected[fen] ??= cliProbe([fen])[0];
      assert.deepStrictEqual(got, expected[fen]);
      const srv = servers.tables.stats();
      // More whole-file streams than the browser's 6 connections to the
      // host (21-25 on an idle machine, fewer on a busy one; speculative
      // reads may still be in flight when the answer is in: status 0),
      // every answered one a whole file. (Not timed: tests assert no
      // wall-clock figures.)
      const answered = srv.log.filter((e) => e.status !== 0);
      const statuses = [...new Set(answered.map((e) => e.status))];
      assert.ok(srv.log.length > 6 && answered.every((e) => e.status === 200), `${srv.log.length} requests, statuses ${statuses}`);
      await recovers(page, fen);
    } finally {
      await context.close();
    }
  });

  it('server ignores Range for a deep read past the streaming limit: clear error', async () => {
    // KQPvKQ.rtbw is 20 MB; with a 1 MiB test limit its data is out of reach.
    const { context, page } = await faulted({ match: 'KQPvKQ.rtbw', mode: 'ignore-range' });
    try {
      const fen = '1q6/3P4/8/4k3/8/8/8/1Q2K3 w - - 0 1';
      await createTablebase(page, { urls: [servers.base], wholeBodyLimit: 1048576 });
      const got = await probe(page, fen);
      assert.equal(got.code, 'network', JSON.stringify(got).slice(0, 300));
      assert.match(got.error, /KQPvKQ\.rtbw.*ignores Range/);
      const [cli] = cliProbe([fen]);
      expected[fen] = cli;
      await recovers(page, fen);
    } finally {
      await context.close();
    }
  });

  it('a CDN that drops Range once, on a read past the streaming limit: asked again, right answer', async () => {
    // Until 2026-11-30 one such 200 failed the probe for good ("ignores
    // Range"), where the next request got its 206.
    const { context, page } = await faulted([]);
    try {
      // KQPvKQ.rtbw (20 MB) opened by a first position; the next one's blocks lie deep.
      const [first, fen] = ['1q6/3P4/8/4k3/8/8/8/1Q2K3 w - - 0 1', '8/3P4/1q6/8/5k2/8/8/1Q2K3 w - - 0 1'];
      await createTablebase(page, { urls: [servers.base], wholeBodyLimit: 1048576, generate: 'never' });
      const want = cliProbe([first, fen]);
      assert.deepStrictEqual(await probe(page, first), want[0]);
      servers.tables.reset();
      servers.tables.setFaults({ match: 'KQPvKQ.rtbw', mode: 'ignore-range', count: 1 });
      assert.deepStrictEqual(await probe(page, fen), want[1]);
      const mine = servers.tables.stats().log.filter((e) => e.path.endsWith('KQPvKQ.rtbw'));
      assert.ok(mine.length >= 2 && mine[0].status === 200, JSON.stringify(mine));
      assert.ok((await tbStats(page)).retries >= 1);
    } finally {
      await context.close();
    }
  });

  it('ETag changes mid-run: the file is dropped and refetched, answers stay right', async () => {
    const name = 'KRPvKR.rtbw';
    // The second request for the file sees a new version (mid-probe: between rounds).
    const { context, page } = await faulted({ match: name, mode: 'etag-change', skip: 1, count: 1 });
    try {
      assert.deepStrictEqual(await probe(page, FEN), expected[FEN]);
      const heads = () =>
        servers.tables
          .stats()
          .log.filter((e) => e.path.endsWith(name) && /^bytes=0-/.test(e.range)).length;
      assert.equal(heads(), 2, 'the header was not fetched again after the change');
      assert.equal((await tbStats(page)).identityChanges, 1);
      // Warm now: nothing more to fetch.
      let before = servers.tables.stats().requests;
      assert.deepStrictEqual(await probe(page, FEN), expected[FEN]);
      assert.equal(servers.tables.stats().requests, before, 'warm probe made requests');

      // Between probes: another version; the pages of FEN are dropped with it.
      servers.tables.setFaults({ match: name, mode: 'etag-change', count: 1 });
      assert.deepStrictEqual(await probe(page, OTHER), expected[OTHER]);
      assert.equal((await tbStats(page)).identityChanges, 2);
      before = servers.tables.stats().byPath[`/tables/${name}`].requests;
      assert.deepStrictEqual(await probe(page, FEN), expected[FEN]);
      assert.ok(servers.tables.stats().byPath[`/tables/${name}`].requests > before, 'FEN was not refetched');

      // IndexedDB holds the last version only, and a new Tablebase answers from it.
      const recorded = await idbFileRecord(page, servers.base + name);
      assert.match(recorded.validator, /-2" /, `IndexedDB records ${JSON.stringify(recorded)}`);
      await recovers(page, FEN);
      await recovers(page, OTHER);
    } finally {
      await context.close();
    }
  });

  it('a file replaced while a request for it is out: that answer, of the version before, is dropped, not taken for servers that disagree', async () => {
    const name = 'KRPvKR.rtbw';
    // Two probes of the file at once. After its head, one request answers
    // 1.5 s late with the version it found when it came in, and the next
    // one finds a new version, as when the file is replaced meanwhile.
    const { context, page } = await faulted([
      { match: name, mode: 'slow', delayMs: 1500, skip: 1, count: 1 },
      { match: name, mode: 'etag-change', skip: 1, count: 1 },
    ]);
    try {
      const got = await probeAll(page, [FEN, OTHER]);
      const log = servers.tables.stats().log.filter((e) => e.path.endsWith(name));
      assert.deepStrictEqual(
        ['slow', 'etag-change'].map((f) => log.filter((e) => e.fault === f).length),
        [1, 1],
        'the faults did not apply as planned',
      );
      // Before: the late answer counted as a change back, the next as a third change, and a probe failed.
      assert.deepStrictEqual(got, [expected[FEN], expected[OTHER]]);
      const stats = await tbStats(page);
      assert.equal(stats.identityChanges, 1);
      assert.ok(stats.staleAnswers >= 1, `${stats.staleAnswers} stale answers`);
      await recovers(page, FEN);
    } finally {
      await context.close();
    }
  });

  it('a file that keeps changing version: a clear error after a few requests, not hundreds', async () => {
    const name = 'KRPvKR.rtbw';
    // Every request for the file sees a new ETag, as from servers behind
    // one URL whose copies differ.
    const { context, page } = await faulted({ match: name, mode: 'etag-change' });
    try {
      const got = await probe(page, FEN);
      assert.equal(got.code, 'network', JSON.stringify(got));
      assert.match(got.error, /KRPvKR\.rtbw: the file changed version \d+ times within 60 s .*serve one copy/);
      const requests = servers.tables.stats().requests;
      assert.ok(requests <= 30, `${requests} requests`);
      // One version again: a new Tablebase answers (this one refuses the
      // file for a minute, as the servers behind it disagreed).
      servers.tables.reset();
      await createTablebase(page, { urls: [servers.base], generate: 'never' });
      assert.deepStrictEqual(await probe(page, FEN), expected[FEN]);
    } finally {
      await context.close();
    }
  });

  /** Requests for table `name` in the server's log from entry `since` on: [heads, others]. */
  function requestsFor(name, since = 0) {
    const log = servers.tables.stats().log.slice(since).filter((e) => e.path.endsWith(`/${name}`));
    const heads = log.filter((e) => /^bytes=0-/.test(e.range)).length;
    return [heads, log.length - heads];
  }

  it('a file whose head IndexedDB let go, changed on the server: no page of the old version is read as the new one', async () => {
    const name = 'KRPvKR.rtbw';
    const { context, page } = await faulted([]);
    try {
      assert.deepStrictEqual(await probe(page, FEN), expected[FEN]);
      // The LRU eviction of the head's run alone: the file's record and
      // its other pages stay.
      const dropped = await page.evaluate(async (url) => {
        const db = await new Promise((resolve, reject) => {
          const req = indexedDB.open('syzygy-web');
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        const tx = db.transaction(['pages', 'lru'], 'readwrite');
        const keys = await new Promise((resolve) => (tx.objectStore('lru').getAllKeys().onsuccess = (e) => resolve(e.target.result)));
        const head = keys.filter((k) => k.startsWith(`${url}|`) && /\|0(\+\d+)?$/.test(k));
        const rest = keys.filter((k) => k.startsWith(`${url}|`)).length - head.length;
        for (const k of head) {
          tx.objectStore('pages').delete(k);
          tx.objectStore('lru').delete(k);
        }
        await new Promise((resolve) => (tx.oncomplete = resolve));
        db.close();
        return { head: head.length, rest };
      }, servers.base + name);
      assert.deepStrictEqual([dropped.head, dropped.rest > 0], [1, true], JSON.stringify(dropped));
      // A new version on the server (the same bytes, a new ETag), read by a
      // new Tablebase over the same IndexedDB.
      servers.tables.reset();
      servers.tables.setFaults({ match: name, mode: 'etag-change', count: 1 });
      await createTablebase(page, { urls: [servers.base], generate: 'never' });
      assert.deepStrictEqual(await probe(page, FEN), expected[FEN]);
      // Its data pages came from the server, not from the old version's records.
      const [heads, others] = requestsFor(name);
      assert.equal(heads, 1, 'head requests');
      assert.ok(others > 0, 'the new version read the old version\'s pages from IndexedDB');
      await recovers(page, OTHER);
    } finally {
      await context.close();
    }
  });

  it('a file opened from IndexedDB, then saved for offline as a new version: the new one is read from then on', async () => {
    const name = 'KBNvK.rtbz';
    const { context, page } = await faulted([]);
    try {
      assert.deepStrictEqual(await probe(page, KBN[0]), expected[KBN[0]]);
      // A new Tablebase opens the file from IndexedDB, without the network.
      await createTablebase(page, { urls: [servers.base], generate: 'never' });
      servers.tables.reset();
      assert.deepStrictEqual(await probe(page, KBN[0]), expected[KBN[0]]);
      assert.equal(servers.tables.stats().requests, 0, 'a warm probe made requests');
      // The server changes the file; saving the material for offline stores the new version.
      servers.tables.setFaults({ match: name, mode: 'etag-change', count: 1 });
      const saved = await page.evaluate((fen) => window.tb.prefetch(fen), KBN[0]);
      assert.ok(saved.files.includes(name), JSON.stringify(saved));
      assert.equal((await tbStats(page)).identityChanges, 1, 'the open file did not take the new version');
      // Pages of the file not in memory yet now come from IndexedDB, as the new version.
      const since = servers.tables.stats().log.length;
      const before = (await tbStats(page)).pagesFromIndexedDb;
      assert.deepStrictEqual(await probe(page, KBN[1]), expected[KBN[1]]);
      assert.deepStrictEqual(requestsFor(name, since), [0, 0], 'requests for the saved file');
      assert.ok((await tbStats(page)).pagesFromIndexedDb > before, 'IndexedDB was not read');
      await recovers(page, KBN[1]);
    } finally {
      await context.close();
    }
  });
});
