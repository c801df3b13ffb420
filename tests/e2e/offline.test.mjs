// Offline: the service worker keeps the app shell and the wasm package keeps
// table pages in IndexedDB, so a reload with the server stopped still answers.
// Each test has its own server, hence its own origin (service worker, storage).
import { describe, it as baseIt, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { skipReason, ensureBuilt, startSite, launch, newPage, appUrl, waitVerdict, cliProbe, expectedHeadline, DIST, tempDir } from './helpers.mjs';

const skip = skipReason({ needCli: true });
// Without the prerequisites every test is reported as skipped, with the reason.
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 180_000 }, fn);

/**
 * Waits until the shown result's pages are stored (the network card's
 * "Last probe" is filled in once the probe's promise, which waits for its
 * writes, settled) and the service worker controls the page.
 */
async function keptOffline(page) {
  await page.waitForFunction(() => document.querySelector('.sb-network .sb-stat dd')?.textContent !== '–');
  await controlled(page);
}

async function controlled(page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
  });
}

const goTo = (page, fen) =>
  page.evaluate((f) => {
    location.hash = `fen=${f.replace(/ /g, '_')}`;
  }, fen);

describe('offline', () => {
  let browser;
  before(async () => {
    if (skip) return;
    ensureBuilt();
    browser = await launch();
  });
  after(async () => {
    if (browser) await browser.close();
  });

  it('reloads with the server stopped: shell from the service worker, result from IndexedDB', async () => {
    const site = await startSite();
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const [cli] = cliProbe([fen]);
    const page = await newPage(browser);
    let online;
    try {
      await page.goto(appUrl(site.url, fen));
      online = await waitVerdict(page, fen);
      assert.equal(online.headline, expectedHeadline(cli));
      // The answer shows before its pages are in IndexedDB. (Stopping the
      // server before, on a loaded machine, left pages unstored and the
      // reload a network error.)
      await keptOffline(page);
    } finally {
      await site.close();
    }
    await page.reload();
    const offline = await waitVerdict(page, fen);
    assert.equal(offline.headline, expectedHeadline(cli));
    assert.equal(offline.dtz, online.dtz);
    const moves = await page.$$eval('syzygy-board [role="option"]', (els) => els.map((e) => e.dataset.uci));
    assert.deepEqual(moves, cli.moves.map((m) => m.uci));
    // A page of the scope that embeds the element names its script without the hash.
    assert.equal(await page.evaluate(async () => (await fetch('syzygy-board.js')).status), 200);
    assert.deepEqual(page.errors.map(String), []);
    // Another page of the scope is not the app: offline it fails, not shows the board.
    await assert.rejects(page.goto(`${site.url}notes.html`));
    await page.context().close();
  });

  it('the service worker registers after the first result, and its install does not download the decoder again', async () => {
    const site = await startSite();
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const page = await newPage(browser);
    try {
      // When the board first showed a result (the event bubbles from the element).
      await page.addInitScript(() => {
        const shown = () => (window.__shownAt ??= Date.now());
        document.addEventListener('syzygy-result', shown);
        document.addEventListener('syzygy-error', shown);
      });
      await page.goto(appUrl(site.url, fen));
      await waitVerdict(page, fen);
      await controlled(page);
      const shownAt = await page.evaluate(() => window.__shownAt);
      const log = site.stats().log;
      const sw = log.find((e) => e.path === '/sw.js');
      assert.ok(shownAt && sw, 'no result event or no request for sw.js');
      // On a slow link the install's downloads would share it with the first position's tables.
      assert.ok(sw.time >= shownAt, `sw.js asked for ${shownAt - sw.time} ms before the result was shown`);
      // The decoder and the script are named by content hash: the install takes them from the
      // HTTP cache (a 304 revalidation), while the generator's module, which the page never loaded, comes whole.
      const wasm = log.filter((e) => /^\/syzygy_web_bg\.[0-9a-f]+\.wasm$/.test(e.path));
      assert.ok(wasm.length >= 1 && wasm.slice(1).every((e) => e.status === 304), JSON.stringify(wasm));
      const script = log.filter((e) => e.path === '/syzygy-board.js');
      assert.ok(script.length >= 1 && script.slice(1).every((e) => e.status === 304), JSON.stringify(script));
      assert.ok(log.some((e) => /^\/generator_bg\.[0-9a-f]+\.wasm$/.test(e.path) && e.status === 200), 'the generator module was not kept');
      assert.deepEqual(page.errors.map(String), []);
    } finally {
      await page.context().close();
      await site.close();
    }
  });

  it('"Save for offline" makes new positions of that material answerable offline', async () => {
    const site = await startSite();
    const fen = '8/8/8/4k3/8/8/8/3QK3 w - - 0 1';
    const page = await newPage(browser);
    try {
      await page.goto(appUrl(site.url, fen));
      await waitVerdict(page, fen);
      await controlled(page);
      await page.click('syzygy-board .sb-network summary');
      // Pressed twice: the second says a save is under way (it did nothing, without a word).
      await page.evaluate(() => {
        const status = document.querySelector('syzygy-board .sb-prefetch-status');
        window.statusTexts = [];
        new MutationObserver(() => window.statusTexts.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
        const button = [...document.querySelectorAll('syzygy-board .sb-network button')].find((b) => b.textContent.includes('Save KQvK for offline'));
        button.click();
        button.click();
      });
      await page.waitForFunction(() => /available offline|Could not/.test(document.querySelector('syzygy-board .sb-prefetch-status').textContent), null, { timeout: 60000 });
      assert.match(await page.textContent('syzygy-board .sb-prefetch-status'), /KQvK is available offline/);
      const texts = await page.evaluate(() => window.statusTexts);
      assert.ok(texts.some((t) => /Another save is under way: save KQvK once it is done/.test(t)), texts.join(' | '));
    } finally {
      await site.close();
    }
    await page.reload();
    await waitVerdict(page, fen);
    // Positions never probed before, of the same material.
    for (const other of ['8/8/8/8/2k5/8/8/Q3K3 b - - 0 1', '1k6/8/8/8/8/8/6Q1/7K w - - 0 1']) {
      const [cli] = cliProbe([other]);
      await goTo(page, other);
      const v = await waitVerdict(page, other);
      assert.equal(v.headline, expectedHeadline(cli), other);
    }
    assert.deepEqual(page.errors.map(String), []);
    await page.context().close();
  });
  it('"Save for offline" says the page is not kept once the service worker\'s install fails, without waiting out its 30 s', async () => {
    const site = await startSite();
    // The install's download of the generator's module (the page never
    // loads it) fails after 4 s: the save below is over by then.
    site.setFaults({ match: '/generator_bg.', mode: 'status', status: 500, delayMs: 4000 });
    const fen = '8/8/8/4k3/8/8/8/3QK3 w - - 0 1';
    const page = await newPage(browser);
    try {
      await page.goto(appUrl(site.url, fen));
      await waitVerdict(page, fen);
      await page.waitForFunction(async () => !!(await navigator.serviceWorker.getRegistration())?.installing);
      await page.click('syzygy-board .sb-network summary');
      await page.click('syzygy-board .sb-network button:has-text("Save KQvK for offline")');
      // The 30 s wait for an install that will never end would outlast this.
      await page.waitForFunction(() => /this page itself is not kept|available offline|Could not/.test(document.querySelector('syzygy-board .sb-prefetch-status').textContent), null, { timeout: 20000 });
      assert.match(await page.textContent('syzygy-board .sb-prefetch-status'), /KQvK is kept in this browser \(this page itself is not kept/);
      assert.deepEqual(page.errors.map(String), []);
    } finally {
      await page.context().close();
      await site.close();
    }
  });

  it('"Clear cache" asks before it drops tables saved for offline, and keeps them when told to', async () => {
    const site = await startSite();
    const fen = '8/8/8/4k3/8/8/8/3QK3 w - - 0 1';
    const page = await newPage(browser);
    const status = () => page.textContent('syzygy-board .sb-prefetch-status');
    const clear = () => page.click('syzygy-board .sb-network button:has-text("Clear cache")');
    // A position of that material no probe has read, opened offline.
    const offlineProbe = async (other) => {
      await page.context().setOffline(true);
      await goTo(page, other);
      const v = await waitVerdict(page, other);
      await page.context().setOffline(false);
      return v;
    };
    try {
      await page.goto(appUrl(site.url, fen));
      await waitVerdict(page, fen);
      await page.click('syzygy-board .sb-network summary');
      // Nothing saved: cleared at once.
      await clear();
      await page.waitForFunction(() => /Cache cleared/.test(document.querySelector('syzygy-board .sb-prefetch-status').textContent));
      assert.equal(await page.$('syzygy-board .sb-ask'), null);
      // The best line on screen still plays (the clear dropped the lines kept).
      const ply = page.locator('syzygy-board .sb-mainline .sb-ply').first();
      await ply.waitFor({ timeout: 20000 });
      const san = (await ply.textContent()).replace(/^\d+\.(…)?/, '');
      await ply.click();
      await page.waitForFunction((s) => (document.querySelector('syzygy-board .sb-history [aria-current="true"]')?.textContent || '').endsWith(s), san, { timeout: 5000 });
      await page.locator('body').press('ArrowLeft');
      await page.waitForFunction((f) => document.querySelector('syzygy-board .sb-fen').value === f, fen, { timeout: 5000 });

      await page.click('syzygy-board .sb-network button:has-text("Save KQvK for offline")');
      await page.waitForFunction(() => /offline use here|available offline|Could not/.test(document.querySelector('syzygy-board .sb-prefetch-status').textContent), null, { timeout: 60000 });
      assert.match(await status(), /^KQvK is (available offline|kept in this browser)/);
      const savedText = await status();

      await clear();
      await page.waitForSelector('syzygy-board .sb-ask');
      assert.match(await page.textContent('syzygy-board .sb-ask'), /tables saved for offline use: KQvK \(\d/);
      // The safe answer has the focus: Enter keeps everything.
      assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Keep everything');
      await page.keyboard.press('Enter');
      assert.equal(await page.$('syzygy-board .sb-ask'), null);
      assert.equal(await status(), savedText);
      const kept = await offlineProbe('8/8/8/8/2k5/8/8/Q3K3 b - - 0 1');
      assert.equal(kept.error, null, JSON.stringify(kept));
      assert.equal(kept.incomplete, null, JSON.stringify(kept));

      // Escape is a no too.
      await clear();
      await page.waitForSelector('syzygy-board .sb-ask');
      await page.keyboard.press('Escape');
      assert.equal(await page.$('syzygy-board .sb-ask'), null);

      await clear();
      await page.click('syzygy-board .sb-ask button:has-text("Clear them too")');
      await page.waitForFunction(() => /Cache cleared/.test(document.querySelector('syzygy-board .sb-prefetch-status').textContent));
      const gone = await offlineProbe('1k6/8/8/8/8/8/6Q1/7K w - - 0 1');
      // (Who wins KQvK needs no table: the DTZ, which is gone, does.)
      assert.equal(gone.headline, 'White wins', JSON.stringify(gone));
      assert.equal(gone.dtz, 'DTZ ?', JSON.stringify(gone));
      assert.equal(gone.incomplete, 'network', JSON.stringify(gone));
      // Nothing saved any more: no question.
      await page.evaluate(() => (document.querySelector('syzygy-board .sb-prefetch-status').textContent = ''));
      await clear();
      await page.waitForFunction(() => /Cache cleared/.test(document.querySelector('syzygy-board .sb-prefetch-status').textContent));
      assert.equal(await page.$('syzygy-board .sb-ask'), null);
      assert.deepEqual(page.errors.map(String), []);
    } finally {
      await page.context().close();
      await site.close();
    }
  });

  it('a revisit asks the table host for nothing: the early heads of what a visit stored are left out', async () => {
    const site = await startSite();
    // A 5-piece position with pawns: the early heads are 100 and 56 KiB.
    const fen = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';
    const page = await newPage(browser);
    const tableRequests = () => site.stats().log.filter((e) => /\.rtb[wz]$/.test(e.path));
    try {
      await page.goto(appUrl(site.url, fen));
      await waitVerdict(page, fen);
      await page.waitForFunction(() => {
        const last = document.querySelector('.sb-network .sb-stat dd');
        return last && last.textContent !== '–';
      });
      // The best line reads DTZ pages of its own; they are stored by the time it shows.
      await page.locator('syzygy-board .sb-mainline .sb-ply').first().waitFor({ timeout: 20000 });
      // The board notes a position stored once its probe's writes are done
      // (until 2026-11-30 a fixed 500 ms stood for that).
      await page.waitForFunction((entry) => (localStorage.getItem('syzygy-board:heads-kept') ?? '').includes(entry), `#${fen.split(' ').slice(0, 4).join(' ')}`);
      const cold = tableRequests();
      assert.ok(cold.some((e) => e.path.endsWith('/KRPvKR.rtbw') && /^bytes=0-/.test(e.range)), 'no early head on the first visit');
      await page.reload();
      await waitVerdict(page, fen);
      // The early heads would have been asked for before the verdict: none came.
      assert.deepEqual(tableRequests().slice(cold.length).map((e) => `${e.path} ${e.range}`), []);
      assert.deepEqual(page.errors.map(String), []);
    } finally {
      await page.context().close();
      await site.close();
    }
  });

  it('a host that answers only index.html (a bucket REST endpoint, no directory index): the app opens offline', async () => {
    const site = await startSite({ directoryIndex: false });
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const [cli] = cliProbe([fen]);
    const page = await newPage(browser);
    try {
      await page.goto(appUrl(`${site.url}index.html`, fen));
      await waitVerdict(page, fen);
      await keptOffline(page);
    } finally {
      await site.close();
    }
    await page.reload();
    const offline = await waitVerdict(page, fen);
    assert.equal(offline.headline, expectedHeadline(cli));
    assert.deepEqual(page.errors.map(String), []);
    await page.context().close();
  });

  it('two deployments on one origin keep their own shells: visiting one leaves the other working offline', async () => {
    const dir = tempDir('syzygy-two-');
    for (const d of ['a', 'b']) fs.cpSync(DIST, path.join(dir, d), { recursive: true });
    // Another version at b/ (its worker's manifest names it).
    const sw = path.join(dir, 'b', 'sw.js');
    fs.writeFileSync(sw, fs.readFileSync(sw, 'utf8').replace(/"version":"[0-9a-f]+"/, '"version":"0b0b0b0b0b0b"'));
    const site = await startSite({ staticDir: dir });
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const [cli] = cliProbe([fen]);
    const at = (d) => appUrl(`${site.url}${d}/`, fen, `?tables=${encodeURIComponent(`${site.url}tables/`)}`);
    const page = await newPage(browser);
    let keys;
    try {
      for (const d of ['a', 'b']) {
        await page.goto(at(d));
        await waitVerdict(page, fen);
        await keptOffline(page);
      }
      keys = await page.evaluate(() => caches.keys());
    } finally {
      await site.close();
    }
    assert.ok(keys.some((k) => k.includes('/a/')) && keys.some((k) => k.includes('/b/')), JSON.stringify(keys));
    await page.goto(at('a'));
    const offline = await waitVerdict(page, fen);
    assert.equal(offline.headline, expectedHeadline(cli));
    assert.deepEqual(page.errors.map(String), []);
    await page.context().close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the first visit after a deploy runs the new script, not the one the service worker kept', async () => {
    // A copy of the site, then a "deploy" over it: a script that marks
    // itself, under the new content hash the new page asks for.
    const dir = tempDir('syzygy-deploy-');
    fs.cpSync(DIST, dir, { recursive: true });
    const site = await startSite({ staticDir: dir });
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const page = await newPage(browser);
    try {
      await page.goto(appUrl(site.url, fen));
      await waitVerdict(page, fen);
      await controlled(page);
      assert.equal(await page.evaluate(() => window.__deployed), undefined);
      const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
      const old = /syzygy-board\.js\?v=([0-9a-f]+)/.exec(html);
      assert.ok(old, 'index.html asks for the script by its content hash');
      fs.appendFileSync(path.join(dir, 'syzygy-board.js'), '\n;window.__deployed = 2;\n');
      fs.writeFileSync(path.join(dir, 'index.html'), html.replaceAll(old[0], 'syzygy-board.js?v=0123456789'));
      for (const f of ['sw.js']) {
        const p = path.join(dir, f);
        fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replaceAll(old[0], 'syzygy-board.js?v=0123456789'));
      }
      await page.reload();
      await waitVerdict(page, fen);
      assert.equal(await page.evaluate(() => window.__deployed), 2, 'the page ran the script its service worker had kept');
      assert.deepEqual(page.errors.map(String), []);
    } finally {
      await page.context().close();
      await site.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
