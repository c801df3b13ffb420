// Defects a review of the board found (2026-11-27), one end-to-end test
// each where a browser shows them. Expected values come from the CLI on the
// same tables, computed here.
import { describe, it as baseIt } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { skipReason, newPage, appUrl, waitVerdict, cliProbe, siteAndBrowser, expectedHeadline, dragMove, squareCenter, startSite, CLI, TABLES } from './helpers.mjs';
import { applyUci } from '../../www/src/chess.js';

const skip = skipReason({ needCli: true });
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 180_000 }, fn);

describe('board review defects', () => {
  const ctx = siteAndBrowser(skip);

  it('a notice about a FEN that was not loaded goes once a move is played', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    await page.fill('syzygy-board .sb-fen', 'not a position');
    await page.press('syzygy-board .sb-fen', 'Enter');
    const notice = page.locator('syzygy-board .sb-notice');
    await notice.waitFor({ state: 'visible' });
    assert.match(await notice.textContent(), /not a valid position/);
    await page.click('syzygy-board [role="option"] >> nth=0');
    await notice.waitFor({ state: 'hidden' });
    assert.deepEqual(page.errors.map(String), []);
    await page.context().close();
  });

  it('a double click on a move plays that move only', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const [cli] = cliProbe([fen]);
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    const best = cli.moves[0].uci;
    await page.dblclick(`syzygy-board [role="option"][data-uci="${best}"]`);
    // The answer after the move shows its moves: a second click would have played one.
    await waitVerdict(page, applyUci(fen, best));
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => document.querySelector('syzygy-board').fen), applyUci(fen, best));
    await page.context().close();
  });

  it('after pressing Enter in the FEN box, the arrow keys act on the board once it is used', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const other = '8/8/8/4k3/8/8/8/1R2K3 w - - 0 1';
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    await page.fill('syzygy-board .sb-fen', other);
    await page.press('syzygy-board .sb-fen', 'Enter');
    await waitVerdict(page, other);
    // A move dragged on the board takes the focus from the FEN box: ArrowLeft then goes back.
    await dragMove(page, 'b1', 'b2');
    await page.waitForFunction((f) => document.querySelector('syzygy-board').fen !== f, other);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((f) => document.querySelector('syzygy-board').fen === f, other, { timeout: 5000 });
    assert.equal(await page.inputValue('syzygy-board .sb-fen'), other);
    await page.context().close();
  });

  it('on a touch screen, tapping a spare piece arms it for tapping squares', async () => {
    const fen = '4k3/8/8/8/8/8/8/4K3 w - - 0 1';
    const page = await newPage(ctx.browser, { width: 390, height: 844, mobile: true });
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    await page.tap('syzygy-board .sb-ctl-edit, syzygy-board [aria-label="Edit position"]');
    await page.tap('syzygy-board .sb-tool[data-tool="white-rook"]');
    const armed = await page.$$eval('syzygy-board .sb-tool[aria-pressed="true"]', (els) => els.map((e) => e.dataset.tool));
    assert.deepEqual(armed, ['white-rook']);
    const { x, y } = await squareCenter(page, 'a1');
    await page.touchscreen.tap(x, y);
    await page.waitForFunction(() => document.querySelector('syzygy-board').fen.startsWith('4k3/8/8/8/8/8/8/R3K3'), null, { timeout: 5000 });
    await page.context().close();
  });

  it('browse by material, opened offline, lists the host once back online', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    const status = () => page.textContent('syzygy-board .sb-browse-status');
    await page.context().setOffline(true);
    await page.click('syzygy-board .sb-browse summary');
    await page.waitForFunction(() => /did not answer/.test(document.querySelector('syzygy-board .sb-browse-status').textContent), null, { timeout: 30000 });
    await page.context().setOffline(false);
    await page.click('syzygy-board .sb-browse summary');
    await page.click('syzygy-board .sb-browse summary');
    await page.waitForFunction(() => /This host has/.test(document.querySelector('syzygy-board .sb-browse-status').textContent), null, { timeout: 60000 });
    assert.match(await status(), /This host has \d+ of/);
    await page.context().close();
  });

  it('the module failing to download once: said as such, and Retry or the next position answers without a reload', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const next = '8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1';
    const [cli, cliFirst] = cliProbe([next, fen]);
    for (const retry of [true, false]) {
    // No service worker: its install fetches the module too, past
    // page.route, and the next position could find it in its cache.
    const page = await newPage(ctx.browser, { serviceWorkers: 'block' });
    let failed = 0;
    await page.route('**/*.wasm', (route) => (failed++ === 0 ? route.abort() : route.continue()));
    await page.goto(appUrl(ctx.site.url, fen));
    const first = await waitVerdict(page, fen, 'syzygy-board', { moves: false });
    assert.equal(first.tone, 'error', JSON.stringify(first));
    // Not the tables' server: the module itself.
    assert.equal(first.error, 'module', JSON.stringify(first));
    assert.match(first.headline, /could not load/, JSON.stringify(first));
    if (retry) {
      await page.click('syzygy-board .sb-fix');
      const v = await waitVerdict(page, fen);
      assert.equal(v.headline, expectedHeadline(cliFirst));
      await page.context().close();
      continue;
    }
    await page.evaluate((f) => {
      location.hash = `fen=${f.replace(/ /g, '_')}`;
    }, next);
    const v = await waitVerdict(page, next);
    assert.equal(v.headline, expectedHeadline(cli));
    assert.ok(failed >= 2, `${failed} module requests`);
    await page.context().close();
    }
  });
  it('after a move whose DTZ is above 100, the best line goes on past its zeroing move', async () => {
    // Qf5+'s DTZ is above 100: the move list asks for its line to the
    // first zeroing move (to word the tooltip); the best line card, once
    // Qf5+ is played, must show the whole line (it goes on past that move,
    // see defects.test.mjs case 1), not that short one.
    const fen = '1K6/8/7q/2Q5/8/4P3/8/5k2 w - - 0 1';
    const uci = 'c5f5';
    const child = applyUci(fen, uci);
    const [cli] = cliProbe([child]);
    assert.ok(Math.abs(cli.dtz) > 100, `Qf5+ DTZ ${cli.dtz}`);
    const short = JSON.parse(execFileSync(CLI, ['probe', '--json', '--mainline', '--path', TABLES, child], { encoding: 'utf8' })).mainline.length;
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    const badge = `syzygy-board [data-uci="${uci}"] .sb-badge-dtz`;
    await page.waitForFunction((b) => / plies/.test((document.querySelector(b) || {}).title || ''), badge, { timeout: 20000 });
    await page.click(`syzygy-board [role="option"][data-uci="${uci}"]`);
    await waitVerdict(page, child);
    const plies = () => page.$$eval('syzygy-board .sb-mainline .sb-ply', (els) => els.length);
    await page
      .waitForFunction((n) => document.querySelectorAll('syzygy-board .sb-mainline .sb-ply').length > n, short, { timeout: 30000 })
      .catch(async (e) => assert.fail(`${e.message}: ${await plies()} plies shown, ${short} to the zeroing move`));
    assert.deepEqual(page.errors.map(String), []);
    await page.context().close();
  });

  // Found by a review of the board on 2026-12-01.
  it('the focus stays on a control: the navigation buttons at the line\'s ends, a played ply, a best-line ply, the promotion chooser', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    const focused = () => page.evaluate(() => `${document.activeElement.tagName}.${document.activeElement.className}|${document.activeElement.getAttribute('aria-label') || document.activeElement.textContent}`);
    // A best-line ply: the line it was in goes, the focus stays in its card.
    await page.waitForSelector('syzygy-board .sb-mainline .sb-ply');
    await page.focus('syzygy-board .sb-mainline .sb-ply >> nth=2');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('syzygy-board .sb-history .sb-ply').length === 3);
    assert.match(await focused(), /^DIV\.sb-line/);
    // A played ply: the list is drawn again, the focus on the current ply.
    await page.focus('syzygy-board .sb-history .sb-ply >> nth=0');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('syzygy-board .sb-history [aria-current="true"]')?.textContent.includes('Ra5'));
    assert.match(await focused(), /^BUTTON\.sb-ply.*Ra5/);
    // Previous until the start: the button turns off, the focus goes to Next.
    await page.focus('syzygy-board button[aria-label^="Previous"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('syzygy-board button[aria-label^="Previous"]').disabled);
    assert.match(await focused(), /^BUTTON.*\|Next/);
    await page.context().close();

    // The promotion chooser of an embedded board: the board has the focus
    // back, and its keys work (f flips it).
    const embedded = await newPage(ctx.browser);
    await embedded.goto(`${ctx.site.url}index.html`);
    await embedded.evaluate((tables) => {
      document.body.innerHTML = '';
      const el = document.createElement('syzygy-board');
      el.setAttribute('fen', '8/4P3/8/8/8/8/k7/4K3 w - - 0 1');
      el.setAttribute('tables', tables);
      document.body.append(el);
    }, `${ctx.site.url}tables/`);
    await waitVerdict(embedded, '8/4P3/8/8/8/8/k7/4K3 w - - 0 1');
    await dragMove(embedded, 'e7', 'e8');
    await embedded.waitForSelector('syzygy-board .sb-promo-choice');
    assert.match(await embedded.evaluate(() => document.activeElement.getAttribute('aria-label')), /Promote to queen/);
    await embedded.keyboard.press('Enter');
    await embedded.waitForFunction(() => document.querySelector('syzygy-board').fen.startsWith('4Q3/'));
    assert.equal(await embedded.evaluate(() => document.activeElement.classList.contains('sb-board')), true);
    await embedded.keyboard.press('f');
    await embedded.waitForFunction(() => document.querySelector('syzygy-board .cg-wrap').classList.contains('orientation-black'));
    assert.deepEqual(embedded.errors.map(String), []);
    await embedded.context().close();
  });

  it('Back while a held arrow key\'s address is still to be written: the address stays the entry\'s', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    await page.waitForSelector('syzygy-board .sb-mainline .sb-ply');
    await page.click('syzygy-board .sb-mainline .sb-ply >> nth=5');
    const there = await page.evaluate(() => document.querySelector('syzygy-board').fen);
    await page.waitForFunction((f) => decodeURIComponent(location.hash).includes(f.replace(/ /g, '_')), there);
    await page.click('syzygy-board .sb-board');
    // Held: repeats, whose address is written once the key rests (250 ms).
    for (let i = 0; i < 3; i++) await page.keyboard.down('ArrowLeft');
    await page.keyboard.up('ArrowLeft');
    await page.evaluate(() => history.back());
    await page.waitForFunction((f) => document.querySelector('syzygy-board').fen === f, there);
    await page.waitForTimeout(600);
    const shown = await page.evaluate(() => document.querySelector('syzygy-board').fen);
    assert.equal(shown, there);
    assert.ok(decodeURIComponent(await page.evaluate(() => location.hash)).includes(there.replace(/ /g, '_')), await page.evaluate(() => location.hash));
    assert.deepEqual(page.errors.map(String), []);
    await page.context().close();
  });

  it('the orientation attribute turns the lichess link and the address as a flip does', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    await page.evaluate(() => document.querySelector('syzygy-board').setAttribute('orientation', 'black'));
    await page.waitForFunction(() => /[?&]color=black/.test(document.querySelector('syzygy-board a[href*="lichess.org"]').href));
    assert.match(await page.evaluate(() => location.hash), /o=black/);
    assert.deepEqual(page.errors.map(String), []);
    await page.context().close();
  });

  it('while a new position loads, the previous one\'s best line cannot be played from', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    await page.waitForSelector('syzygy-board .sb-mainline .sb-ply');
    // The next position's tables answer late.
    await page.route('**/tables/**', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => {});
    });
    await page.fill('syzygy-board .sb-fen', '8/8/8/4k3/8/8/8/3QK3 w - - 0 1');
    await page.press('syzygy-board .sb-fen', 'Enter');
    await page.waitForFunction(() => document.querySelector('syzygy-board .sb-mainline-card').classList.contains('sb-stale'));
    const live = await page.$$eval('syzygy-board .sb-mainline .sb-ply', (els) => els.filter((b) => !b.disabled).length);
    assert.equal(live, 0);
    await page.context().close();
  });

  it('a host of WDL tables alone: who wins and every move\'s WDL show, the DTZ said to be unknown', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syzygy-wdl-only-'));
    for (const f of fs.readdirSync(TABLES).filter((f) => f.endsWith('.rtbw'))) fs.symlinkSync(path.join(TABLES, f), path.join(dir, f));
    const site = await startSite({ tables: [dir] });
    const fen = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';
    const [cli] = cliProbe([fen]);
    const page = await newPage(ctx.browser);
    try {
      await page.goto(appUrl(site.url, fen));
      const v = await waitVerdict(page, fen);
      assert.equal(v.headline, expectedHeadline(cli));
      assert.match(await page.textContent('syzygy-board .sb-dtz'), /Not known: the host has no KRPvKR\.rtbz/);
      // Every move, grouped by its WDL as the full tables group it.
      const shown = await page.$$eval('syzygy-board [role="option"]', (els) => els.map((e) => [e.dataset.uci, e.dataset.group]));
      const want = cli.moves.map((m) => m.uci).sort();
      assert.deepEqual(shown.map(([u]) => u).sort(), want);
      const wins = new Set(cli.moves.filter((m) => m.wdl < 0).map((m) => m.uci));
      assert.deepEqual(new Set(shown.filter(([, g]) => g === shown[0][1]).map(([u]) => u)), wins);
      await page.waitForFunction(() => /Best line unavailable: the host has no KRPvKR\.rtbz/.test(document.querySelector('syzygy-board .sb-mainline').textContent));
      assert.deepEqual(page.errors.map(String), []);
    } finally {
      await page.context().close();
      await site.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
