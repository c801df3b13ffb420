// Saving for offline (`tb.prefetch`): a second save of the same files costs
// one request a file and fits the budget the first did; a base that is down
// gives way to the next, as for probes; files no host has are named.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TABLES, skipReason, startServers, launch, openTablebase, createTablebase, probe, cliProbe, fileSize, deadUrl, idbFileRecord } from './helpers.mjs';

const skip = skipReason();
// KRvKP, whose files (175 and 189 KiB) and those of the materials its
// captures and promotions reach are under 1 MiB each: one request a file.
const FEN = '8/8/8/4k3/8/3p4/8/R3K3 w - - 0 1';
// KBNvK: a 462 KB DTZ file.
const KBN = '8/8/8/4k3/8/8/8/2BNK3 w - - 0 1';
// KRPvKR (a 16 MB WDL file): the Lucena position.
const LUCENA = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';
// Positions of other materials, whose pages come to more than 256 KiB.
const BROWSED = ['8/8/P4R2/6k1/8/8/8/4Kr2 w - - 0 1', '8/5K2/8/P3k3/8/8/R1r5/8 w - - 0 1', '8/8/8/4k3/8/3r4/8/3QK3 w - - 0 1'];

describe('saving for offline', { skip }, () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  /** Runs `fn(servers, context)` against servers of its own (`options` as startServers takes them) in a fresh context. */
  async function fresh(options, fn) {
    if (typeof options === 'function') [options, fn] = [undefined, options];
    const servers = await startServers(options);
    const context = await browser.newContext();
    try {
      await fn(servers, context);
    } finally {
      await context.close();
      await servers.close();
    }
  }

  /** FEN's save in a context of its own: its result, and the bytes of its files. */
  async function saveElsewhere(servers) {
    const scratch = await browser.newContext();
    try {
      const first = await (await openTablebase(scratch, servers, { generate: 'never' })).evaluate((f) => window.tb.prefetch(f), FEN);
      return { first, bytes: first.files.reduce((n, f) => n + fileSize(f), 0) };
    } finally {
      await scratch.close();
    }
  }

  it('a second save asks one request a file, and fits the budget the first one did', async () => {
    await fresh(async (servers, context) => {
      const page = await openTablebase(context, servers, { generate: 'never' });
      const first = await page.evaluate((f) => window.tb.prefetch(f), FEN);
      assert.ok(first.files.length >= 2 && first.missing.length === 0, JSON.stringify(first));
      const total = first.files.reduce((n, f) => n + fileSize(f), 0);
      assert.equal(first.bytes, total);
      // A budget that holds the files once, not once more beside them.
      const largest = Math.max(...first.files.map(fileSize));
      const budget = total + Math.floor(largest / 2);
      const again = await page.evaluate(
        async ({ f, base, budget }) => {
          window.tb = new window.Tablebase({ urls: [base], generate: 'never', idbBudget: budget });
          return window.tb.prefetch(f);
        },
        { f: FEN, base: servers.base, budget },
      );
      servers.tables.reset();
      const third = await page.evaluate((f) => window.tb.prefetch(f), FEN);
      assert.deepStrictEqual(again.files, first.files);
      assert.deepStrictEqual(third.files, first.files);
      assert.equal(third.bytes, total, 'the files held whole count as saved');
      // Files of at most 1 MiB: their first request is all of them.
      assert.equal(servers.tables.stats().requests, first.files.length);
      assert.equal((await page.evaluate(() => window.tb.stats())).cacheBytes, total);
      // What a clear would drop with the rest: `saved()`.
      const saved = await page.evaluate(() => window.tb.saved());
      assert.deepStrictEqual([...saved.files].sort(), [...first.files].sort());
      assert.deepStrictEqual([...saved.urls].sort(), first.files.map((f) => servers.base + f).sort());
      assert.equal(saved.bytes, total);
      await page.evaluate(() => window.tb.clearCache());
      assert.deepStrictEqual(await page.evaluate(() => window.tb.saved()), { bytes: 0, files: [], urls: [] });
    });
  });

  it('a first base that is down: the save goes to the next one', async () => {
    const dead = await deadUrl();
    await fresh(async (servers, context) => {
      const page = await openTablebase(context, servers, { urls: [dead, servers.base], generate: 'never' });
      const saved = await page.evaluate((f) => window.tb.prefetch(f), FEN);
      assert.ok(saved.files.includes('KRvKP.rtbw') && saved.files.includes('KRvKP.rtbz'), JSON.stringify(saved));
      // Offline now, the saved material answers.
      const [want] = cliProbe([FEN]);
      servers.tables.setFaults({ mode: 'status', status: 503 });
      assert.deepStrictEqual(await probe(page, FEN), want);
    });
  });

  it("a save the browser's quota refuses fails alone: what was saved before stays, and answers", async () => {
    // Until 2026-11-30 the refused write evicted half the cache, earlier
    // saves with it, and over the quota every lookup failed (its recency
    // update was refused) and evicted again.
    await fresh(async (servers, context) => {
      const { first, bytes } = await saveElsewhere(servers);
      const page = await context.newPage();
      await page.goto(servers.pageUrl);
      await page.waitForFunction(() => window.ready === true);
      // Chromium takes the quota when the origin's database first opens:
      // room for the first save's files and 256 KiB, not KBNvK's 462 KB.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(servers.pageUrl).origin, quotaSize: bytes + 262144 });
      await createTablebase(page, { urls: [servers.base], generate: 'never' });
      assert.deepStrictEqual((await page.evaluate((f) => window.tb.prefetch(f), FEN)).files, first.files);
      const refused = await page.evaluate((f) => window.tb.prefetch(f).then(() => null, (e) => ({ code: e.code, message: e.message })), KBN);
      assert.equal(refused?.code, 'budget', JSON.stringify(refused));
      assert.match(refused.message, /quota/);
      // Beside another save, each is told of its own write's refusal
      // (until 2026-11-30 they shared one flag, which either could reset,
      // and a probe's or another save's writes went in one transaction).
      // Over the quota Chromium refuses even the other save's writes that
      // only make its pages recent: that one either lands or names the quota.
      const both = await page.evaluate(
        (fens) => Promise.all(fens.map((f) => window.tb.prefetch(f).then((r) => r.files, (e) => ({ code: e.code, message: e.message })))),
        [KBN, FEN],
      );
      assert.equal(both[0]?.code, 'budget', JSON.stringify(both));
      assert.match(both[0].message, /quota/);
      if (!Array.isArray(both[1]) || JSON.stringify(both[1]) !== JSON.stringify(first.files)) assert.match(both[1]?.message, /quota/, JSON.stringify(both[1]));
      assert.ok((await page.evaluate(() => window.tb.stats())).cacheBytes >= bytes);
      // Offline, the first save answers from IndexedDB alone, in a new Tablebase.
      const [want] = cliProbe([FEN]);
      servers.tables.setFaults({ mode: 'status', status: 503 });
      await createTablebase(page, { urls: [servers.base], generate: 'never' });
      assert.deepStrictEqual(await probe(page, FEN), want);
    });
  });

  it('a save fits beside other saves, not beside pages probes kept; those are evicted first', async () => {
    await fresh(async (servers, context) => {
      const { first, bytes } = await saveElsewhere(servers);
      // Room for 256 KiB of pages beside the save; the browsing reads more.
      const page = await openTablebase(context, servers, { generate: 'never', idbBudget: bytes + 262144 });
      for (const fen of BROWSED.slice(0, 2)) assert.ok(!(await probe(page, fen)).error, fen);
      const browsed = (await page.evaluate(() => window.tb.stats())).cacheBytes;
      assert.ok(browsed > 262144, `${browsed} bytes kept by the browsing`);
      // Refused until 2026-11-30: "does not fit the IndexedDB budget".
      assert.deepStrictEqual((await page.evaluate((f) => window.tb.prefetch(f), FEN)).files, first.files);
      // Browsing on past the budget keeps the save (until 2026-11-30 the
      // oldest pages went first: the save's).
      assert.ok(!(await probe(page, BROWSED[2])).error);
      const stats = await page.evaluate(() => window.tb.stats());
      assert.ok(stats.cacheBytes <= bytes + 262144, JSON.stringify(stats));
      const [want] = cliProbe([FEN]);
      servers.tables.setFaults({ mode: 'status', status: 503 });
      await createTablebase(page, { urls: [servers.base], generate: 'never' });
      assert.deepStrictEqual(await probe(page, FEN), want);
    });
  });

  it('a save that fails part way is not kept as saved: its pages are evicted like any probe\'s', async () => {
    await fresh(async (servers, context) => {
      const page = await openTablebase(context, servers, { generate: 'never' });
      // KRPvKR.rtbw (16 MB) in 1 MiB requests: the first answers, the rest fail.
      servers.tables.setFaults({ match: 'KRPvKR.rtbw', mode: 'status', status: 503, skip: 1 });
      const failed = await page.evaluate((f) => window.tb.prefetch(f).then(() => null, (e) => e.code), LUCENA);
      assert.equal(failed, 'network');
      const record = await idbFileRecord(page, `${servers.base}KRPvKR.rtbw`);
      assert.ok(record && record.size > 0, JSON.stringify(record));
      assert.ok(!record.saved, `kept as saved: ${JSON.stringify(record)}`);
      const saved = await page.evaluate(() => window.tb.saved());
      assert.ok(!saved.files.includes('KRPvKR.rtbw'), JSON.stringify(saved.files));
    });
  });

  it('a save cut off by a reload or by close() is not kept as saved', async () => {
    // Its own undo (unsave) never ran: the part stored stayed marked saved
    // for good, holding its room and listed by saved().
    for (const cut of ['reload', 'close']) {
      await fresh(async (servers, context) => {
        const page = await openTablebase(context, servers, { generate: 'never' });
        const url = `${servers.base}KRPvKR.rtbw`;
        // KRPvKR.rtbw (16 MB) in 1 MiB requests: the first answers, the next waits.
        servers.tables.setFaults({ match: 'KRPvKR.rtbw', mode: 'slow', delayMs: 20_000, skip: 1 });
        await page.evaluate((f) => {
          window.saving = window.tb.prefetch(f).then(() => null, (e) => e.code);
        }, LUCENA);
        for (let i = 0; i < 200 && !(await idbFileRecord(page, url))?.saved; i++) await page.waitForTimeout(50);
        assert.ok((await idbFileRecord(page, url))?.saved, 'the first chunk stored as saved');
        if (cut === 'close') {
          await page.evaluate(() => window.tb.close());
          assert.equal(await page.evaluate(() => window.saving), 'closed');
        } else {
          await page.reload();
          await page.waitForFunction(() => window.ready === true);
        }
        await createTablebase(page, { urls: [servers.base], generate: 'never' });
        const saved = await page.evaluate(() => window.tb.saved());
        assert.ok(!saved.files.includes('KRPvKR.rtbw'), `${cut}: ${JSON.stringify(saved.files)}`);
        assert.ok(!(await idbFileRecord(page, url))?.saved, cut);
      });
    }
  });

  it('files no host has are named in `missing`, the others saved', async () => {
    // A host with KRvKP's WDL file only (a link to it, not a copy).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syzygy-some-'));
    fs.symlinkSync(path.join(TABLES, 'KRvKP.rtbw'), path.join(dir, 'KRvKP.rtbw'));
    try {
      await fresh({ tables: [dir] }, async (servers, context) => {
        const page = await openTablebase(context, servers, { generate: 'never' });
        const saved = await page.evaluate((f) => window.tb.prefetch(f), FEN);
        assert.deepStrictEqual(saved.files, ['KRvKP.rtbw']);
        assert.ok(saved.missing.includes('KRvKP.rtbz') && saved.missing.includes('KRvK.rtbw'), JSON.stringify(saved.missing));
        assert.equal(saved.bytes, fileSize('KRvKP.rtbw'));
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
