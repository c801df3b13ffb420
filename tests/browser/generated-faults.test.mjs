// Tables generated in the browser when things go wrong: the generation
// worker dies or cannot load (pending probes get a 'generate' error, never
// a hang, and the next probe starts a fresh worker that is given the
// sub-tables the dead one held), and the IndexedDB budget is too small for
// every table (a generated table is kept or evicted whole, never in part).
//
// The page's `Worker` is wrapped before the Tablebase exists, so the test
// can hold a worker's messages (a generation that has not finished),
// make it fail as a crash does (its `error` event), or point the next
// worker at a script that is not there (a load failure).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, startServers, launch, openTablebase, createTablebase, probe, tbStats } from './helpers.mjs';

const skip = skipReason();

const KRVK = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
const KQVK = '8/8/8/4k3/8/8/8/3QK3 w - - 0 1';
const KRVKN = '8/8/8/4k3/8/2n5/8/R3K3 w - - 0 1';

/** Wraps the page's Worker: window.workers lists them; window.hold, window.failLoads steer them. */
function wrapWorkers(page) {
  return page.evaluate(() => {
    const Real = window.Worker;
    window.workers = [];
    window.hold = false;
    window.failLoads = 0;
    // Sends the messages held so far, as if they had never been held.
    window.release = () => {
      window.hold = false;
      for (const w of window.workers) for (const m of w.held.splice(0)) Real.prototype.postMessage.call(w, m);
    };
    window.Worker = class extends Real {
      constructor(url, options) {
        const broken = window.failLoads > 0;
        if (broken) window.failLoads--;
        super(broken ? new URL('/no-such-worker.js', location.href) : url, options);
        this.held = [];
        window.workers.push(this);
      }
      postMessage(message, transfer) {
        if (message && message.type === 'insert') (this.given = this.given || []).push(message.name);
        if (window.hold) this.held.push(message);
        else super.postMessage(message, transfer);
      }
    };
  });
}

/** Starts a probe in the page without awaiting it; `settled(page, key)` reads its outcome. */
function startProbe(page, key, fen) {
  return page.evaluate(
    ([key, fen]) => {
      window.outcomes = window.outcomes || {};
      window.outcomes[key] = null;
      window.tb.probe(fen).then(
        (r) => (window.outcomes[key] = { wdl: r.wdl, dtm: r.dtm }),
        (e) => (window.outcomes[key] = { error: String(e && e.message), code: e && e.code }),
      );
    },
    [key, fen],
  );
}

async function settled(page, key) {
  await page.waitForFunction((k) => window.outcomes && window.outcomes[k] !== null, key, { timeout: 300_000 });
  return page.evaluate((k) => window.outcomes[k], key);
}

/** Per generated table in the page's IndexedDB: its recorded size and the bytes stored for it. */
function generatedInDb(page) {
  return page.evaluate(async () => {
    const db = await new Promise((resolve, reject) => {
      const req = indexedDB.open('syzygy-web');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const entries = (store) =>
      new Promise((resolve, reject) => {
        const out = [];
        const req = db.transaction(store).objectStore(store).openCursor();
        req.onsuccess = () => {
          const c = req.result;
          if (!c) return resolve(out);
          out.push([c.key, c.value]);
          c.continue();
        };
        req.onerror = () => reject(req.error);
      });
    const tables = {};
    for (const [url, id] of await entries('files')) {
      if (url.startsWith('generated:')) tables[url] = { size: id.size, stored: 0, records: 0 };
    }
    for (const [key, value] of await entries('lru')) {
      const url = key.slice(0, key.indexOf('|'));
      if (!url.startsWith('generated:')) continue;
      tables[url] = tables[url] || { size: null, stored: 0, records: 0 };
      tables[url].stored += value.size;
      tables[url].records++;
    }
    db.close();
    return tables;
  });
}

describe('generation in the browser, when things go wrong', { skip }, () => {
  let servers;
  let browser;
  before(async () => {
    servers = await startServers();
    browser = await launch();
  });
  after(async () => {
    if (browser) await browser.close();
    if (servers) await servers.close();
  });

  it('a worker that dies or cannot load fails its probes with a generate error, and the next probe starts a fresh one', { timeout: 600_000 }, async () => {
    const context = await browser.newContext();
    const page = await openTablebase(context, servers, { urls: [], idbBudget: 0 });
    await wrapWorkers(page);
    await createTablebase(page, { urls: [], idbBudget: 0 });

    // The first worker makes KRvK, and keeps it for later materials.
    const first = await probe(page, KRVK);
    assert.equal(first.wdl, 2);
    assert.ok(first.dtm > 0);
    assert.equal(await page.evaluate(() => window.workers.length), 1);

    // It crashes while a generation is pending (its messages held, so the
    // job cannot finish first): the probe fails, typed, instead of hanging.
    await page.evaluate(() => (window.hold = true));
    await startProbe(page, 'crash', KQVK);
    await page.waitForFunction(() => window.workers[0].held.length > 0);
    await page.evaluate(() => window.workers[0].dispatchEvent(new ErrorEvent('error', { message: 'out of memory (simulated)' })));
    const crashed = await settled(page, 'crash');
    assert.equal(crashed.code, 'generate', JSON.stringify(crashed));
    assert.match(crashed.error, /generation worker failed: out of memory \(simulated\)/);
    await page.evaluate(() => (window.hold = false));

    // The next probe starts a fresh worker, which is given KRvK again (held
    // by the page's core, no longer by any worker) to make KRvKN.
    const after = await probe(page, KRVKN);
    assert.ok(!after.error, JSON.stringify(after));
    assert.ok(Number.isInteger(after.dtm));
    assert.equal(await page.evaluate(() => window.workers.length), 2);

    // A worker that cannot load at all: a typed error, then a fresh worker.
    await page.evaluate(() => {
      window.workers[1].dispatchEvent(new ErrorEvent('error', { message: 'stopped (simulated)' }));
      window.failLoads = 1;
    });
    await startProbe(page, 'load', KQVK);
    const failed = await settled(page, 'load');
    assert.equal(failed.code, 'generate', JSON.stringify(failed));
    assert.match(failed.error, /generation worker failed/);
    const recovered = await probe(page, KQVK);
    assert.ok(!recovered.error, JSON.stringify(recovered));
    assert.equal(recovered.wdl, 2);
    assert.ok(recovered.dtm > 0);
    assert.equal(await page.evaluate(() => window.workers.length), 4);

    // Answers after the recovery are those of an undisturbed page.
    const clean = await openTablebase(context, servers, { urls: [], idbBudget: 0 });
    for (const fen of [KRVK, KRVKN, KQVK]) assert.deepEqual(await probe(page, fen), await probe(clean, fen), fen);
    const st = await tbStats(page);
    console.log(`# worker faults: ${st.tablesGenerated} tables generated over 4 workers; probes failed: 2 (both 'generate'); answers equal an undisturbed page's`);
    await context.close();
  });

  it('a Worker the page may not start (a policy, another origin) is a generate error', { timeout: 300_000 }, async () => {
    const context = await browser.newContext();
    const page = await openTablebase(context, servers, { urls: [], idbBudget: 0 });
    await page.evaluate(() => {
      window.Worker = class {
        constructor() {
          throw new DOMException('blocked (simulated)', 'SecurityError');
        }
      };
    });
    await createTablebase(page, { urls: [], idbBudget: 0 });
    const r = await probe(page, KRVK);
    assert.equal(r.code, 'generate', JSON.stringify(r));
    assert.match(r.error, /Web Worker.*blocked \(simulated\)/);
    await context.close();
  });

  it('tables generated where the host has none answer offline from IndexedDB', { timeout: 600_000 }, async () => {
    const context = await browser.newContext();
    // A host without tables: the board's default './tables/' on a static site.
    const urls = [`${servers.site.url}no-tables-here/`];
    const page = await openTablebase(context, servers, { urls });
    const online = await probe(page, KRVK);
    assert.equal(online.wdl, 2);
    assert.ok(online.dtm > 0);
    assert.equal((await tbStats(page)).tablesGenerated, 1);

    await context.setOffline(true);
    try {
      await createTablebase(page, { urls });
      const offline = await probe(page, KRVK);
      assert.deepEqual(offline, online);
      const st = await tbStats(page);
      assert.deepEqual([st.tablesFromIndexedDb, st.tablesGenerated], [1, 0]);
      // A material never generated here: the network error, nothing generated.
      const other = await probe(page, KQVK);
      assert.equal(other.code, 'network', JSON.stringify(other));
      assert.equal((await tbStats(page)).tablesGenerated, 0);
    } finally {
      await context.setOffline(false);
    }
    console.log('# offline: KRvK, generated on a visit to a host without tables, answered from IndexedDB; KQvK a network error');
    await context.close();
  });

  it('the page keeps generated tables within generatedBudget, beyond those the probe at hand reads', { timeout: 600_000 }, async () => {
    const context = await browser.newContext();
    // A budget of one byte: only the tables of the probe at hand stay.
    const page = await openTablebase(context, servers, { urls: [], generatedBudget: 1 });
    await wrapWorkers(page);
    await createTablebase(page, { urls: [], generatedBudget: 1 });
    const krvk = await probe(page, KRVK);
    const kqvk = await probe(page, KQVK);
    let st = await tbStats(page);
    // KQvK's probe let KRvK go.
    assert.deepEqual([st.tablesGenerated, st.tablesLetGo], [2, 1]);
    const kqvkBytes = st.generatedBytes;
    assert.ok(kqvkBytes > 0);

    // KRvKN reads KRvK: loaded again from IndexedDB, not generated; the
    // worker (which made KRvK) makes KRvKN. KQvK is let go.
    const krvkn = await probe(page, KRVKN);
    assert.ok(Number.isInteger(krvkn.dtm), JSON.stringify(krvkn));
    st = await tbStats(page);
    assert.deepEqual([st.tablesGenerated, st.tablesFromIndexedDb, st.tablesLetGo], [3, 1, 2]);

    // A fresh worker (the first stopped) is given KRvK, which it lacks, to
    // make a material that reads it: KRvKB.
    await page.evaluate(() => window.workers[0].dispatchEvent(new ErrorEvent('error', { message: 'stopped (simulated)' })));
    const krvkb = await probe(page, '8/8/8/4k3/8/2b5/8/R3K3 w - - 0 1');
    assert.ok(Number.isInteger(krvkb.dtm), JSON.stringify(krvkb));
    assert.equal(await page.evaluate(() => window.workers.length), 2);
    const given = await page.evaluate(() => window.workers[1].given);
    assert.deepEqual(given, ['KRvK'], JSON.stringify(given));

    // Answers are those of a page that keeps everything.
    const clean = await openTablebase(context, servers, { urls: [], idbBudget: 0 });
    assert.deepEqual(await probe(page, KRVK), krvk);
    assert.deepEqual(await probe(clean, KRVK), krvk);
    assert.deepEqual(await probe(clean, KQVK), kqvk);
    assert.deepEqual(await probe(clean, KRVKN), krvkn);
    st = await tbStats(page);
    console.log(`# generatedBudget 1 byte: ${st.tablesGenerated} generated, ${st.tablesFromIndexedDb} read back from IndexedDB, ${st.tablesLetGo} let go; ${st.generatedBytes} bytes held after the last probe (KQvK alone: ${kqvkBytes})`);
    await context.close();
  });

  it('a long generation does not keep the tables other positions read meanwhile beyond generatedBudget', { timeout: 600_000 }, async () => {
    const context = await browser.newContext();
    const page = await openTablebase(context, servers, { urls: [], generatedBudget: 1 });
    await wrapWorkers(page);
    await createTablebase(page, { urls: [], generatedBudget: 1 });
    // KPvK's answer reads KPvK, KQvK and KRvK: the core holds the three.
    await probe(page, KRVK);
    await probe(page, KQVK);
    const kpvk = await probe(page, '8/8/8/4k3/8/8/4P3/4K3 w - - 0 1');
    assert.ok(Number.isInteger(kpvk.dtm), JSON.stringify(kpvk));

    // KRvKN's generation waits in the worker (its messages held); its
    // answer reads KRvK, which the probe pins.
    await page.evaluate(() => (window.hold = true));
    await startProbe(page, 'long', KRVKN);
    await page.waitForFunction(() => window.workers.some((w) => w.held.some((m) => m.type === 'generate')));
    const before = await tbStats(page);

    // Meanwhile KQvK's probe ends: KPvK, which no probe under way needs, is
    // let go, and KRvK is not (unpinned, both would go: 2).
    await probe(page, KQVK);
    const during = await tbStats(page);
    assert.equal(during.tablesLetGo, before.tablesLetGo + 1, JSON.stringify([before, during]));
    assert.ok(during.generatedBytes < before.generatedBytes, JSON.stringify([before, during]));

    // The generation then finishes with the KRvK it was promised.
    await page.evaluate(() => window.release());
    const long = await settled(page, 'long');
    assert.ok(Number.isInteger(long.dtm), JSON.stringify(long));
    const clean = await openTablebase(context, servers, { urls: [], idbBudget: 0 });
    const fresh = await probe(clean, KRVKN);
    assert.deepEqual([long.wdl, long.dtm], [fresh.wdl, fresh.dtm]);
    console.log(`# generatedBudget 1 byte, during a held generation: ${before.generatedBytes} -> ${during.generatedBytes} bytes held, ${during.tablesLetGo - before.tablesLetGo} let go`);
    await context.close();
  });

  it('a new page answers from the tables IndexedDB holds, with no worker', { timeout: 600_000 }, async () => {
    // KNvKP: its answers read it, KPvK, the promotions KQvKN, KRvKN, KBvKN,
    // KNvKN, and those that capture the knight, KQvK and KRvK.
    const fen = '8/8/8/4k3/8/2N5/6p1/4K3 w - - 0 1';
    const context = await browser.newContext();
    const page = await openTablebase(context, servers, { urls: [] });
    const first = await probe(page, fen);
    assert.ok(Number.isInteger(first.dtm), JSON.stringify(first));
    const made = (await tbStats(page)).tablesGenerated;

    await wrapWorkers(page);
    await createTablebase(page, { urls: [] });
    const again = await probe(page, fen);
    assert.deepEqual(again, first);
    const st = await tbStats(page);
    assert.deepEqual([st.tablesGenerated, st.tablesFromIndexedDb], [0, 8]);
    assert.equal(await page.evaluate(() => window.workers.length), 0);
    console.log(`# reload: ${made} tables made on the first visit; the next page read the 8 its answers read, and started no worker`);
    await context.close();
  });

  it("an older build's generated records are let go, this build's kept", { timeout: 600_000 }, async () => {
    const context = await browser.newContext();
    const page = await openTablebase(context, servers, { urls: [] });
    await probe(page, KRVK);
    // A record as a build of values-file version 1 left it.
    await page.evaluate(async () => {
      const db = await new Promise((resolve, reject) => {
        const req = indexedDB.open('syzygy-web');
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const tx = db.transaction(['files', 'pages', 'lru'], 'readwrite');
      tx.objectStore('files').put({ size: 4, validator: 'v1' }, 'generated:v1/KQvK.swv');
      tx.objectStore('pages').put(new Uint8Array(4).buffer, 'generated:v1/KQvK.swv|4096|0+1');
      tx.objectStore('lru').put({ at: Date.now(), size: 4 }, 'generated:v1/KQvK.swv|4096|0+1');
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    });
    await createTablebase(page, { urls: [] });
    await probe(page, KRVK);
    // The sweep runs in the background of the first read of a stored table.
    let urls = [];
    for (let i = 0; i < 50; i++) {
      urls = Object.keys(await generatedInDb(page));
      if (!urls.some((u) => u.startsWith('generated:v1/'))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(!urls.some((u) => u.startsWith('generated:v1/')), urls.join(', '));
    assert.ok(urls.some((u) => u.endsWith('/KRvK.swv')), urls.join(', '));
    await context.close();
  });

  it('a generated table is kept or evicted whole under the IndexedDB budget', { timeout: 600_000 }, async () => {
    // Sizes of two tables' values files, measured in a first context.
    const sizing = await browser.newContext();
    const page0 = await openTablebase(sizing, servers, { urls: [] });
    await probe(page0, KRVK);
    await probe(page0, KQVK);
    const sizes = Object.values(await generatedInDb(page0)).map((t) => t.size);
    await sizing.close();
    assert.equal(sizes.length, 2);
    const [a, b] = sizes;
    // Room for either table but not both: storing the second evicts the
    // first (least recently used); page by page, part of it would stay.
    const budget = a + b - 1;
    assert.ok(Math.max(a, b) <= budget * 0.875, `sizes ${a}, ${b}`);

    const context = await browser.newContext();
    const page = await openTablebase(context, servers, { urls: [], idbBudget: budget });
    await probe(page, KRVK);
    await probe(page, KQVK);
    const tables = await generatedInDb(page);
    const kept = Object.entries(tables).filter(([, t]) => t.stored > 0);
    for (const [url, t] of Object.entries(tables)) {
      assert.ok(t.stored === 0 || t.stored === t.size, `${url}: ${t.stored} of ${t.size} bytes stored`);
      assert.ok(t.records <= 1, `${url}: ${t.records} records`);
    }
    assert.equal(kept.length, 1, JSON.stringify(tables));
    assert.match(kept[0][0], /KQvK/);

    // A new Tablebase reads the kept table back and makes the evicted one again.
    await createTablebase(page, { urls: [], idbBudget: budget });
    const again = await probe(page, KQVK);
    assert.ok(again.dtm > 0);
    let st = await tbStats(page);
    assert.deepEqual([st.tablesFromIndexedDb, st.tablesGenerated], [1, 0]);
    const remade = await probe(page, KRVK);
    assert.ok(remade.dtm > 0);
    st = await tbStats(page);
    assert.deepEqual([st.tablesFromIndexedDb, st.tablesGenerated], [1, 1]);
    for (const [url, t] of Object.entries(await generatedInDb(page))) {
      assert.ok(t.stored === 0 || t.stored === t.size, `${url}: ${t.stored} of ${t.size} bytes stored`);
    }
    console.log(`# eviction: tables of ${a} and ${b} bytes under a budget of ${budget}: one kept whole, the other evicted whole and made again`);
    await context.close();
  });
});
