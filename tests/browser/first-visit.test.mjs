// A first visit does not wait for IndexedDB to open before its first
// requests (a new profile takes 30-45 ms to open it, all ahead of the cold
// page's first round), and a revisit still does: a key in localStorage,
// set before this origin's first write of pages, tells them apart
// (page-db.js WRITTEN). Where pages are held without the key (written by a
// version before it, or by a worker), they still answer. IndexedDB's open
// is held here by the page itself, as long as the test says, so no case
// depends on timing.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, launchPersistent, openTablebase, createTablebase, probe, tbStats, cliProbe, startServers } from './helpers.mjs';

const skip = skipReason();
// Two KRPvKR positions whose probes read different pages of its tables.
const FEN = '8/8/4k3/8/3r4/3P4/8/3RK3 b - - 12 40';
const OTHER = '8/8/8/1k6/8/6r1/1P6/1K1R4 w - - 0 1';
const KEY = 'syzygy-web:pages-written';

/**
 * Runs in every page before its scripts: the success of the page cache's
 * IndexedDB open is held back until window.releaseIdb() (or at once if
 * window.idbHeld is false by then).
 */
function holdIndexedDb() {
  const open = IDBFactory.prototype.open;
  const held = [];
  window.idbHeld = true;
  window.releaseIdb = () => {
    window.idbHeld = false;
    held.splice(0).forEach((fire) => fire());
  };
  IDBFactory.prototype.open = function (name, ...rest) {
    const req = open.call(this, name, ...rest);
    if (name !== 'syzygy-web') return req;
    let handler = null;
    Object.defineProperty(req, 'onsuccess', {
      configurable: true,
      get: () => handler,
      set: (f) => (handler = f),
    });
    req.addEventListener('success', (e) => {
      const fire = () => handler?.call(req, e);
      if (window.idbHeld) held.push(fire);
      else fire();
    });
    return req;
  };
}

describe('a first visit and IndexedDB', { skip }, () => {
  let servers;
  let context;
  let want;
  let other;
  before(async () => {
    [want, other] = cliProbe([FEN, OTHER]);
    servers = await startServers();
    context = await launchPersistent();
    await context.addInitScript(holdIndexedDb);
  });
  after(async () => {
    await context?.close();
    await servers?.close();
  });

  it('a first visit fetches while IndexedDB opens, then stores and notes it', async () => {
    const page = await openTablebase(context, servers);
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), KEY), null);
    // The promise answers once the pages are stored; the complete update
    // does not wait for that.
    const answer = page.evaluate(
      (fen) =>
        window.tb.probe(fen, {
          onUpdate: (u) => {
            if (u.stage === 'complete') window.complete = window.tb.stats();
          },
        }),
      FEN,
    );
    await page.waitForFunction(() => window.complete);
    const s = await page.evaluate(() => window.complete);
    // Fetched and answered with the database still opening (waiting for it
    // would have given up after 3 s and gone memory-only).
    assert.equal(s.indexedDb, 'opening');
    assert.ok(s.pagesFromNetwork > 0, JSON.stringify(s));
    await page.evaluate(() => window.releaseIdb());
    assert.deepStrictEqual(await answer, want);
    // Its pages went to IndexedDB once it opened, and the key says so.
    const stored = await tbStats(page);
    assert.equal(stored.indexedDb, 'ok');
    assert.ok(stored.cacheBytes > 0, JSON.stringify(stored));
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), KEY), '1');
    await page.close();
  });

  it('a revisit waits for IndexedDB and fetches nothing it holds', async () => {
    const page = await openTablebase(context, servers);
    const served = servers.tables.stats().requests;
    const answer = page.evaluate((fen) => window.tb.probe(fen), FEN);
    // Held a while: a page that did not wait would fetch meanwhile.
    await page.waitForTimeout(300);
    assert.equal(servers.tables.stats().requests, served);
    await page.evaluate(() => window.releaseIdb());
    assert.deepStrictEqual(await answer, want);
    const s = await tbStats(page);
    assert.equal(s.pagesFromNetwork, 0, JSON.stringify(s));
    assert.ok(s.pagesFromIndexedDb > 0, JSON.stringify(s));
    assert.equal(servers.tables.stats().requests, served);
    // (A Tablebase made after the open sees it open at once.)
    await createTablebase(page, { urls: [servers.base] });
    assert.deepStrictEqual(await probe(page, FEN), want);
    await page.close();
  });

  it('pages held without the key still answer, and the key is set again', async () => {
    const page = await openTablebase(context, servers);
    await page.evaluate(() => window.releaseIdb());
    /** A new page whose database holds pages but no key (as a version before the key wrote it), its open held. */
    const withoutKey = async () => {
      await page.evaluate((k) => localStorage.removeItem(k), KEY);
      await page.reload();
      await page.waitForFunction(() => window.ready === true);
      await createTablebase(page, { urls: [servers.base] });
    };

    // Its opening sets the key for the next visit.
    await withoutKey();
    await page.evaluate(() => window.releaseIdb());
    await page.waitForFunction((k) => localStorage.getItem(k) === '1', KEY);

    // Another position of the same tables while the database opens: its
    // files open from the network, not looked for there. Then, offline,
    // the first position's pages come from IndexedDB, where the first test
    // stored them: looked for there once it opened.
    await withoutKey();
    const answer = page.evaluate((fen) => window.tb.probe(fen, { onUpdate: (u) => u.stage === 'complete' && window.releaseIdb() }), OTHER);
    assert.deepStrictEqual(await answer, other);
    await context.setOffline(true);
    try {
      assert.deepStrictEqual(await probe(page, FEN), want);
      const s = await tbStats(page);
      assert.ok(s.pagesFromIndexedDb > 0, JSON.stringify(s));
    } finally {
      await context.setOffline(false);
    }

    // Offline from the start: a file the network cannot give opens from
    // IndexedDB once it opens.
    await withoutKey();
    await context.setOffline(true);
    try {
      const offline = page.evaluate((fen) => window.tb.probe(fen).then((r) => r, (e) => ({ error: String(e.message) })), FEN);
      await page.waitForTimeout(200);
      await page.evaluate(() => window.releaseIdb());
      assert.deepStrictEqual(await offline, want);
      assert.equal((await tbStats(page)).pagesFromNetwork, 0);
    } finally {
      await context.setOffline(false);
    }
    await page.close();
  });
});
