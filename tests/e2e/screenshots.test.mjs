// Screenshots at a 360x740 phone viewport and at desktop size, and of issue
// 14's views (blessed loss, cursed win, editor, material browser, error,
// offline) at 360, 390x844 and 1280x800, written to test-results/ for people
// to look at, plus layout checks that need no eyes:
// nothing wider than the viewport, board square, verdict space reserved.
import { describe, it as baseIt, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { skipReason, ensureBuilt, startSite, launch, newPage, appUrl, waitVerdict, squareCenter, RESULTS } from './helpers.mjs';
import { applyUci } from '../../www/src/chess.js';

const skip = skipReason({ needCli: true });
// Without the prerequisites every test is reported as skipped, with the reason.
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 180_000 }, fn);
const FEN = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';

describe('screenshots', () => {
  let site;
  let browser;
  before(async () => {
    if (skip) return;
    ensureBuilt();
    fs.mkdirSync(RESULTS, { recursive: true });
    site = await startSite();
    browser = await launch();
  });
  after(async () => {
    if (browser) await browser.close();
    if (site) await site.close();
  });

  async function layoutChecks(page, width) {
    const m = await page.evaluate(() => {
      const board = document.querySelector('syzygy-board cg-board').getBoundingClientRect();
      const verdict = document.querySelector('syzygy-board .sb-verdict').getBoundingClientRect();
      return { scrollWidth: document.documentElement.scrollWidth, board: [board.width, board.height], verdictHeight: verdict.height };
    });
    assert.ok(m.scrollWidth <= width, `page is ${m.scrollWidth}px wide in a ${width}px viewport`);
    assert.ok(Math.abs(m.board[0] - m.board[1]) < 1, `board is not square: ${m.board}`);
    assert.ok(m.board[0] >= Math.min(width - 40, 320), `board too small: ${m.board[0]}`);
    assert.ok(m.verdictHeight >= 110, `verdict height ${m.verdictHeight}`);
  }

  for (const [name, opts] of [
    ['phone-dark', { width: 360, height: 740, mobile: true, colorScheme: 'dark' }],
    ['phone-light', { width: 360, height: 740, mobile: true, colorScheme: 'light' }],
    ['desktop-dark', { width: 1280, height: 800, colorScheme: 'dark' }],
    ['desktop-light', { width: 1280, height: 800, colorScheme: 'light' }],
  ]) {
    it(`${name}: ${opts.width}x${opts.height}`, async () => {
      const page = await newPage(browser, opts);
      await page.goto(appUrl(site.url, FEN));
      await waitVerdict(page, FEN);
      await page.locator('syzygy-board .sb-mainline .sb-ply').first().waitFor({ timeout: 20000 });
      await layoutChecks(page, opts.width);
      await page.screenshot({ path: path.join(RESULTS, `${name}.png`) });
      await page.screenshot({ path: path.join(RESULTS, `${name}-full.png`), fullPage: true });
      // The editor and the promotion chooser.
      if (name.endsWith('dark')) {
        await page.click('syzygy-board button[aria-label="Edit position"]');
        await layoutChecks(page, opts.width);
        await page.screenshot({ path: path.join(RESULTS, `${name}-editor.png`), fullPage: true });
      }
      if (opts.mobile) {
        // Tap, tap: a move on a touch screen.
        if (name.endsWith('dark')) await page.click('syzygy-board button[aria-label="Done editing"]');
        for (const sq of ['c1', 'c4']) {
          const p = await squareCenter(page, sq);
          await page.touchscreen.tap(p.x, p.y);
        }
        await waitVerdict(page, applyUci(FEN, 'c1c4'));
      }
      assert.deepEqual(page.errors.map(String), []);
      await page.close();
    });
  }

  // Issue 14: each view at three sizes, named <view>-<size>.png.
  const VIEWS = [
    ['blessed-loss', '1K6/8/7q/5Q2/8/4P3/8/5k2 b - - 0 1'],
    ['cursed-win', '8/4QK2/7P/8/q7/8/8/2k5 w - - 0 1'],
    ['editor', '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1'],
    ['materials', '8/8/8/4k3/8/8/8/R3K3 w - - 0 1'],
    ['error', 'k7/8/8/8/8/PPP5/8/1R2K3 w - - 0 1'],
    ['offline', '8/8/8/4k3/8/8/8/3QK3 w - - 0 1'],
  ];
  const SIZES = [
    ['360', { width: 360, height: 740, mobile: true }],
    ['390x844', { width: 390, height: 844, mobile: true }],
    ['1280x800', { width: 1280, height: 800 }],
  ];
  for (const [view, fen] of VIEWS) {
    it(`issue 14 views: ${view} at 360, 390x844 and 1280x800`, async () => {
      for (const [size, opts] of SIZES) {
        const page = await newPage(browser, opts);
        await page.goto(appUrl(site.url, fen));
        if (view === 'error') await page.waitForFunction(() => /cover up to/.test(document.querySelector('syzygy-board .sb-verdict').textContent), null, { timeout: 30000 });
        else await waitVerdict(page, fen);
        if (view === 'blessed-loss' || view === 'cursed-win') {
          await page.locator('syzygy-board .sb-mainline .sb-ply').first().waitFor({ timeout: 20000 });
          await page.waitForFunction(() => !/Either/.test(document.querySelector('syzygy-board .sb-dtz').textContent), null, { timeout: 20000 });
        }
        if (view === 'editor') await page.click('syzygy-board button[aria-label="Edit position"]');
        if (view === 'materials') {
          await page.locator('body').press('m');
          await page.waitForFunction(() => /This host has/.test(document.querySelector('syzygy-board .sb-browse-status').textContent), null, { timeout: 60000 });
          await page.click('syzygy-board .sb-mat[data-material="KRPvKR"]');
          await page.locator('syzygy-board .sb-browse-detail').scrollIntoViewIfNeeded();
        }
        if (view === 'offline') {
          await page.context().setOffline(true);
          const unseen = '8/8/8/4k3/8/8/8/R3K1n1 w - - 0 1';
          await page.evaluate((f) => (location.hash = `fen=${f.replace(/ /g, '_')}`), unseen);
          assert.equal((await waitVerdict(page, unseen)).headline, 'Offline');
        }
        const width = opts.width;
        assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= width, `${view} ${size}: wider than the viewport`);
        await page.screenshot({ path: path.join(RESULTS, `${view}-${size}.png`) });
        if (view === 'offline') await page.context().setOffline(false);
        assert.deepEqual(page.errors.map(String), []);
        await page.context().close();
      }
    });
  }

  it('no layout jump: the verdict keeps its size while a new result loads', async () => {
    const page = await newPage(browser, { width: 360, height: 740, mobile: true });
    await page.goto(appUrl(site.url, FEN));
    await waitVerdict(page, FEN);
    const before = await page.$eval('syzygy-board .sb-moves-card', (e) => e.getBoundingClientRect().top);
    await site.setFaults({ latencyMs: 800 });
    // A table no earlier view touched (nothing of it in IndexedDB) and that
    // its outcome needs (the rules decide rooks and queens against a bare
    // king at once), so at 150 ms it is still loading.
    const next = '8/8/8/4k3/8/8/8/2B1KN2 b - - 0 1';
    await page.evaluate((f) => {
      location.hash = `fen=${f.replace(/ /g, '_')}`;
    }, next);
    // Measured while the moves are marked loading (read in the same task:
    // a fixed wait measured a settled page when the answer came first).
    await page.waitForFunction(() => document.querySelector('syzygy-board .sb-moves-card').getAttribute('aria-busy') === 'true');
    const [during, busy] = await page.$eval('syzygy-board .sb-moves-card', (e) => [e.getBoundingClientRect().top, e.getAttribute('aria-busy') === 'true']);
    assert.ok(busy, 'the moves were no longer loading when measured');
    await waitVerdict(page, next);
    await site.setFaults({ faults: [], latencyMs: 0 });
    assert.ok(Math.abs(during - before) < 2, `moves moved from ${before} to ${during} while loading`);
    await page.close();
  });
});
