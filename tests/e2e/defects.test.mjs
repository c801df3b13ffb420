// Issue 14, "The board, round 2": one end-to-end test per defect seen by a
// chess player (defect 15, h() and innerHTML, is tested in logic.test.mjs).
// Expected values come from the CLI on the same tables, computed here.
import { describe, it as baseIt } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { skipReason, startSite, newPage, appUrl, waitVerdict, dragMove, dragMouse, squareCenter, cliProbe, DIST, TABLES, tempDir, siteAndBrowser } from './helpers.mjs';
import { applyUci, normalizeFen } from '../../www/src/chess.js';
import { DEFAULT_FEN } from '../../www/src/state.js';

const skip = skipReason({ needCli: true });
// Without the prerequisites every test is reported as skipped, with the reason.
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 180_000 }, fn);

/** Plies to the next zeroing move (or mate) along the CLI's best moves. */
function zeroingDistance(fen) {
  for (let n = 1; n < 300; n++) {
    const [r] = cliProbe([fen]);
    const best = r.moves[0];
    if (best.zeroing || best.checkmate) return n;
    fen = applyUci(fen, best.uci);
  }
  throw new Error('no zeroing move within 300 plies');
}

/** Largest piece count among the tables the test server offers. */
const maxPieces = () => Math.max(...fs.readdirSync(TABLES).filter((f) => f.endsWith('.rtbw')).map((f) => f.length - 5 - 1));

describe('issue 14 defects', () => {
  const ctx = siteAndBrowser(skip);

  async function open(fen, opts = {}) {
    const page = await newPage(ctx.browser, opts);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    return page;
  }
  const expectFen = (page, fen) => page.waitForFunction((f) => document.querySelector('syzygy-board').fen === f, fen, { timeout: 10000 });
  const noErrors = (page) => assert.deepEqual(page.errors.map(String), []);

  it('1: a DTZ above 100 is worded as the real distance, and the best line shows where the win is lost', async () => {
    const fen = '1K6/8/7q/5Q2/8/4P3/8/5k2 b - - 0 1';
    const [cli] = cliProbe([fen]);
    assert.ok(Math.abs(cli.dtz) > 100 && cli.category === 'blessed-loss', JSON.stringify(cli.dtz));
    const d = zeroingDistance(fen);
    const page = await open(fen);
    await page
      .waitForFunction((d) => document.querySelector('syzygy-board .sb-dtz').textContent.includes(`comes in ${d} plies, in time`), d, { timeout: 20000 })
      .catch(async (e) => assert.fail(`${e.message}: ${await page.textContent('syzygy-board .sb-verdict')}`));
    const text = await page.textContent('syzygy-board .sb-dtz');
    assert.doesNotMatch(text, /more than 100 plies without/);
    assert.match(text, new RegExp(`${d} \\+ 100 = ${Math.abs(cli.dtz)}`));
    // The best line marks the phase lost to the 50-move rule right after its zeroing move.
    const mark = page.locator('syzygy-board .sb-mainline .sb-line-lost');
    await mark.waitFor({ timeout: 20000 });
    assert.match(await mark.textContent(), /50-move rule/);
    // The line goes on through the zeroing move (chained DTZ, issue 11), so
    // it holds at least the d plies up to it.
    assert.ok((await page.$$eval('syzygy-board .sb-mainline .sb-ply', (els) => els.length)) >= d);

    // Move tooltips: after h7 the tooltip gives the distance along the best
    // line (the CLI walk below), whichever phase the 50-move rule hits.
    const fen2 = '8/4QK2/7P/8/q7/8/8/2k5 w - - 0 1';
    const [cli2] = cliProbe([fen2]);
    const h7 = cli2.moves.find((m) => m.uci === 'h6h7');
    assert.ok(Math.abs(h7.dtz) > 100, `h7 dtz ${h7.dtz}`);
    const d2 = zeroingDistance(applyUci(fen2, 'h6h7'));
    await page.goto(appUrl(ctx.site.url, fen2));
    await waitVerdict(page, fen2);
    const badge = 'syzygy-board [data-uci="h6h7"] .sb-badge-dtz';
    await page.waitForFunction(({ badge, d2 }) => new RegExp(`\\b${d2} plies`).test((document.querySelector(badge) || {}).title || ''), { badge, d2 }, { timeout: 20000 });
    const title = await page.getAttribute(badge, 'title');
    assert.doesNotMatch(title, /Either|if a later phase/, title);
    if (d2 <= 100) assert.match(title, /phase after it is drawn/);
    else assert.match(title, /too far for the 50-move rule/);
    noErrors(page);
    await page.close();
  });

  it('2b: a share code that does not decode is said to be one, on opening and from the address bar', async () => {
    const page = await newPage(ctx.browser);
    await page.goto(`${ctx.site.url}#p=zzzz`);
    await page.waitForSelector('syzygy-board .sb-notice:not([hidden])');
    const said = /"zzzz" is not a valid position: expected material, side to move and a number/;
    assert.match(await page.textContent('syzygy-board .sb-notice'), said);
    await waitVerdict(page, DEFAULT_FEN);
    // Pasted into the address bar of the open page.
    await page.evaluate(() => (location.hash = 'p=KRvKq'));
    await page.waitForFunction(() => /"KRvKq" is not a valid position: expected material/.test(document.querySelector('syzygy-board .sb-notice').textContent), null, { timeout: 10000 });
    assert.doesNotMatch(await page.textContent('syzygy-board .sb-notice'), /8 ranks/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it('2: a bad FEN in the URL shows the error and a consistent position', async () => {
    const page = await newPage(ctx.browser);
    await page.goto(`${ctx.site.url}#fen=hello_world`);
    await page.waitForSelector('syzygy-board .sb-notice:not([hidden])');
    const notice = await page.textContent('syzygy-board .sb-notice');
    assert.match(notice, /"hello world" is not a valid position/);
    assert.match(notice, /default position/);
    await waitVerdict(page, DEFAULT_FEN);
    // The FEN box, the board and the URL all show the same position...
    assert.equal(await page.inputValue('syzygy-board .sb-fen'), DEFAULT_FEN);
    assert.ok(decodeURIComponent(page.url()).includes(DEFAULT_FEN.replace(/ /g, '_')), page.url());
    assert.equal(await page.locator('syzygy-board cg-board piece').count(), 3);
    // ...and moves play from it.
    await dragMove(page, 'h1', 'h7');
    await expectFen(page, applyUci(DEFAULT_FEN, 'h1h7'));
    noErrors(page);
    await page.close();
  });

  it('3: editor drags keep their colours and the piece tool does not stay armed after a drag', async () => {
    const page = await open(DEFAULT_FEN);
    await page.click('syzygy-board button[aria-label="Edit position"]');
    const box = await page.locator('syzygy-board .sb-tool[data-tool="black-rook"]').boundingBox();
    await dragMouse(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, await squareCenter(page, 'a2'));
    await expectFen(page, '4k3/8/8/8/8/8/r7/4K2R w - - 0 1');
    const armed = await page.$$eval('syzygy-board .sb-tool[aria-pressed="true"]', (els) => els.map((e) => e.dataset.tool));
    assert.deepEqual([...new Set(armed)], ['pointer']);
    // Drag the white rook off the board: it goes, and nothing turns black.
    const h1 = await squareCenter(page, 'h1');
    const board = await page.locator('syzygy-board cg-board').boundingBox();
    await dragMouse(page, h1, { x: board.x + board.width + 150, y: h1.y });
    await expectFen(page, '4k3/8/8/8/8/8/r7/4K3 w - - 0 1');
    await dragMove(page, 'e1', 'd4');
    await expectFen(page, '4k3/8/8/8/3K4/8/r7/8 w - - 0 1');
    noErrors(page);
    await page.close();
  });

  it('4b: "Save for offline" beyond the browser\'s storage quota says so before downloading', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K1n1 w - - 0 1';
    // The browser's answer for a nearly full origin (DevTools' quota
    // override does not reach navigator.storage.estimate in this Chromium).
    const page = await newPage(ctx.browser);
    await page.addInitScript(() => {
      navigator.storage.estimate = async () => ({ quota: 100000, usage: 60000 });
    });
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    const before = ctx.site.stats().requests;
    if (await page.$('syzygy-board .sb-network summary')) await page.click('syzygy-board .sb-network summary');
    await page.click('syzygy-board .sb-network button:has-text("Save KRvKN for offline")');
    await page.waitForFunction(() => /available offline|Could not|kept in this browser/.test(document.querySelector('syzygy-board .sb-prefetch-status').textContent), null, { timeout: 60000 });
    assert.match(await page.textContent('syzygy-board .sb-prefetch-status'), /Could not save KRvKN: it needs .* and this browser allows this site .* more\./);
    // Only the sizes were asked for: no save's request (1 MiB from a file's start).
    const saves = ctx.site.stats().log.slice(-(ctx.site.stats().requests - before)).filter((e) => e.range === 'bytes=0-1048575');
    assert.deepEqual(saves.map((e) => e.path), []);
    noErrors(page);
    await page.close();
  });

  it('4c: a material saved already saves again on a nearly full origin: its files take no more room', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K1n1 w - - 0 1';
    const page = await newPage(ctx.browser);
    await page.addInitScript(() => {
      const estimate = navigator.storage.estimate.bind(navigator.storage);
      navigator.storage.estimate = async () => (window.__full ? { quota: 100000, usage: 99000 } : estimate());
    });
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    if (await page.$('syzygy-board .sb-network summary')) await page.click('syzygy-board .sb-network summary');
    const save = async () => {
      await page.evaluate(() => (document.querySelector('syzygy-board .sb-prefetch-status').textContent = ''));
      await page.click('syzygy-board .sb-network button:has-text("Save KRvKN for offline")');
      await page.waitForFunction(() => /available offline|Could not|kept in this browser/.test(document.querySelector('syzygy-board .sb-prefetch-status').textContent), null, { timeout: 60000 });
      return page.textContent('syzygy-board .sb-prefetch-status');
    };
    assert.match(await save(), /^KRvKN (is available offline|is kept in this browser)/);
    await page.evaluate(() => (window.__full = true));
    assert.match(await save(), /^KRvKN (is available offline|is kept in this browser)/);
    noErrors(page);
    await page.close();
  });

  it('4: "Save for offline" counts up to 100 % once, and the status line says it is saving', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K1n1 w - - 0 1';
    const page = await open(fen);
    await page.evaluate(() => {
      window.__log = [];
      const root = document.querySelector('syzygy-board');
      const status = root.querySelector('.sb-prefetch-status');
      new MutationObserver(() => window.__log.push([status.textContent, root.querySelector('.sb-net-status:not(.sb-prefetch-status)').textContent])).observe(status, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    if (await page.$('syzygy-board .sb-network summary')) await page.click('syzygy-board .sb-network summary');
    await page.click('syzygy-board .sb-network button:has-text("Save KRvKN for offline")');
    await page.waitForFunction(() => /available offline|Could not/.test(document.querySelector('syzygy-board .sb-prefetch-status').textContent), null, { timeout: 60000 });
    assert.match(await page.textContent('syzygy-board .sb-prefetch-status'), /KRvKN is available offline/);
    const log = await page.evaluate(() => window.__log);
    const pcts = log.map(([t]) => /(\d+) %/.exec(t)).filter(Boolean).map((m) => Number(m[1]));
    assert.ok(pcts.length >= 1, JSON.stringify(log));
    assert.ok(pcts.every((p, i) => p <= 100 && (i === 0 || p >= pcts[i - 1])), JSON.stringify(pcts));
    for (const [progress, status] of log.filter(([t]) => t.startsWith('Saving'))) assert.notEqual(status, 'Idle', `status "${status}" while "${progress}"`);
    noErrors(page);
    await page.close();
  });

  it('5: offline, an unseen table is named and no server advice is given', async () => {
    const fen = '8/8/8/4k3/8/8/8/3QK3 w - - 0 1';
    const page = await open(fen);
    await page.context().setOffline(true);
    const unseen = '8/8/8/4k3/8/8/8/R3K1n1 w - - 0 1';
    await page.evaluate((f) => (location.hash = `fen=${f.replace(/ /g, '_')}`), unseen);
    const v = await waitVerdict(page, unseen);
    assert.equal(v.error, 'network');
    assert.equal(v.headline, 'Offline');
    assert.match(v.summary, /offline, and the KRvKN table has not been saved/);
    assert.doesNotMatch(await page.textContent('syzygy-board .sb-verdict'), /CORS|gzip/);
    await page.context().setOffline(false);
    await page.close();
  });

  it('6: a position beyond the tables says what the host covers', async () => {
    const fen = 'k7/8/8/8/8/PPP5/8/1R2K3 w - - 0 1';
    const page = await newPage(ctx.browser);
    // Learnt from a few HEAD requests (materials.js hostReach), not one a
    // material of up to 5 pieces (202 here, 95 of them 404s in the console).
    const heads = [];
    page.on('request', (r) => r.method() === 'HEAD' && heads.push(r.url()));
    await page.goto(appUrl(ctx.site.url, fen));
    const max = maxPieces();
    await page.waitForFunction((max) => document.querySelector('syzygy-board .sb-verdict').textContent.includes(`cover up to ${max} pieces`), max, { timeout: 30000 });
    const text = await page.textContent('syzygy-board .sb-verdict');
    assert.match(text, /this position has 6/);
    assert.doesNotMatch(text, /Missing table|\.rtbw/);
    assert.ok(heads.length <= 12, `${heads.length} HEAD requests`);
    await page.close();
  });

  it('6b: beyond the tables, the captures into endings the host has get their values', async () => {
    // 6 pieces; bxc4 reaches KRPvKR, which the test tables have.
    const fen = '8/8/3k4/8/2p5/1P5R/3K4/r7 w - - 0 1';
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await page.waitForFunction(() => document.querySelector('syzygy-board [role="option"][data-group]:not([data-group="unknown"])'), null, { timeout: 30000 });
    const shown = await page.$$eval('syzygy-board [role="option"]', (els) => els.map((e) => ({ uci: e.dataset.uci, group: e.dataset.group, text: e.textContent })));
    const valued = shown.filter((m) => m.group !== 'unknown');
    assert.deepEqual(valued.map((m) => m.uci), ['b3c4']);
    // As the CLI answers the position it reaches (the opponent's view).
    const [child] = cliProbe([applyUci(fen, 'b3c4')]);
    assert.equal(valued[0].group, { 0: 'draw', 2: 'loss', '-2': 'win', 1: 'blessed', '-1': 'cursed' }[child.wdl]);
    // Every other move keeps the material: no value, listed after.
    assert.equal(shown[0].uci, 'b3c4');
    assert.equal(shown.length, 18);
    assert.match(await page.textContent('syzygy-board .sb-moves-card'), /Values unavailable/);
    // A decisive one, seen from the mover's side: Qxd4?? is met by Qxd4,
    // which wins KQRvKQ for Black (6 pieces, KQRvKQP missing).
    const losing = '6k1/8/8/4q3/3p4/8/1Q6/2R4K w - - 0 1';
    const [after] = cliProbe([applyUci(losing, 'b2d4')]);
    assert.equal(after.wdl, 2, 'a win for Black to move');
    await page.goto(appUrl(ctx.site.url, losing));
    await page.waitForFunction(() => document.querySelector('syzygy-board [role="option"][data-uci="b2d4"]:not([data-group="unknown"])'), null, { timeout: 30000 });
    const qxd4 = await page.$eval('syzygy-board [role="option"][data-uci="b2d4"]', (e) => ({ group: e.dataset.group, text: e.textContent }));
    assert.equal(qxd4.group, 'loss');
    assert.match(qxd4.text, new RegExp(`DTZ ${Math.abs(after.dtz)}`));
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it('7: adjacent kings are explained in words players use', async () => {
    const fen = '8/8/8/3kK3/8/8/8/8 w - - 0 1';
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    const v = await waitVerdict(page, fen);
    assert.equal(v.error, 'illegal-position');
    assert.match(v.summary, /kings stand next to each other/);
    assert.doesNotMatch(await page.textContent('syzygy-board .sb-verdict'), /opposite check/);
    await page.close();
  });

  it('8: all move groups show without an inner scroll; on a phone the first move is above the fold', async () => {
    const fen = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';
    const clipped = () =>
      [...document.querySelectorAll('syzygy-board [role="option"]')].filter((o) => {
        for (let a = o.parentElement; a && a.tagName !== 'SYZYGY-BOARD'; a = a.parentElement) {
          const oy = getComputedStyle(a).overflowY;
          if (/auto|scroll|hidden/.test(oy) && a.scrollHeight > a.clientHeight + 1) return true;
        }
        return false;
      }).length;
    const page = await open(fen, { width: 1280, height: 800 });
    const [cli] = cliProbe([fen]);
    assert.equal(await page.locator('syzygy-board [role="option"]').count(), cli.moves.length);
    assert.equal(await page.evaluate(clipped), 0);
    await page.close();
    const phone = await open(fen, { width: 390, height: 844, mobile: true });
    const top = await phone.$eval('syzygy-board [role="option"]', (o) => o.getBoundingClientRect().bottom);
    assert.ok(top <= 844, `first move ends at ${top}px`);
    assert.equal(await phone.evaluate(clipped), 0);
    await phone.close();
  });

  it('9: the editor keeps both spare-piece bars in view at 1280x800', async () => {
    const page = await open(DEFAULT_FEN, { width: 1280, height: 800 });
    await page.click('syzygy-board button[aria-label="Edit position"]');
    const bars = await page.$$eval('syzygy-board .sb-spare', (els) => els.map((e) => e.getBoundingClientRect().bottom));
    assert.equal(bars.length, 2);
    assert.ok(Math.max(...bars) <= 800, `spare bars end at ${bars}`);
    await page.close();
  });

  it('10: no rounding or clock note where it cannot matter; network figures folded away', async () => {
    const fen = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';
    const [cli] = cliProbe([fen]);
    assert.equal(cli.precise, false, 'the test needs a rounded DTZ');
    const page = await open(fen);
    assert.doesNotMatch(await page.textContent('syzygy-board .sb-verdict'), /off by one/);
    // A quiet move: the clock stands at 1, far from the limit.
    const quiet = cli.moves.find((m) => !m.zeroing && Math.abs(m.dtz) < 80);
    await page.click(`syzygy-board [role="option"][data-uci="${quiet.uci}"]`);
    const next = applyUci(fen, quiet.uci);
    await waitVerdict(page, next);
    assert.doesNotMatch(await page.textContent('syzygy-board .sb-verdict'), /halfmove clock|off by one/);
    assert.equal(await page.$eval('syzygy-board .sb-network', (d) => d.tagName === 'DETAILS' && !d.open), true);
    assert.equal(await page.textContent('syzygy-board .sb-network summary'), 'Offline and cache');
    assert.equal(await page.isVisible('syzygy-board .sb-stats'), false);
    await page.close();
  });

  it('11: on a phone the side to move reads "White to move" and touch targets are 44 px', async () => {
    for (const width of [360, 390]) {
      const page = await open(DEFAULT_FEN, { width, height: 844, mobile: true });
      const label = await page.$eval('syzygy-board .sb-turn-btn', (b) => b.innerText.replace(/\s+/g, ' ').trim());
      assert.equal(label, 'White to move');
      const sizes = await page.$$eval('syzygy-board .sb-controls button', (els) => els.map((e) => [e.getBoundingClientRect().width, e.getBoundingClientRect().height]));
      for (const [w, h] of sizes) assert.ok(w >= 44 && h >= 44, `${width}px: a control is ${w}x${h}`);
      // The best line's plies are buttons too, closer together: at least 36 px.
      await page.locator('syzygy-board .sb-mainline .sb-ply').first().waitFor({ timeout: 20000 });
      const plies = await page.$$eval('syzygy-board .sb-mainline .sb-ply', (els) => els.map((e) => [e.getBoundingClientRect().width, e.getBoundingClientRect().height]));
      for (const [w, h] of plies) assert.ok(w >= 36 && h >= 36, `${width}px: a ply is ${w}x${h}`);
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= width);
      await page.close();
    }
  });

  it('13: phones: short and sideways screens, a swipe on the board, a long pasted string, fields that do not zoom, still bars', async () => {
    const fen = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';
    // 360 x 640: the verdict's headline shows below the board (the moves
    // follow its explanation, a scroll away).
    const small = await open(fen, { width: 360, height: 640, mobile: true });
    const headline = await small.$eval('syzygy-board .sb-headline', (o) => o.getBoundingClientRect().bottom);
    assert.ok(headline <= 640, `the headline ends at ${headline}px`);
    // Fields at 16 px: iOS zooms in on smaller ones.
    assert.ok((await small.$eval('syzygy-board .sb-fen', (e) => parseFloat(getComputedStyle(e).fontSize))) >= 16);
    // A swipe that starts on an empty square scrolls the page.
    const cdp = await small.context().newCDPSession(small);
    const { x, y } = await squareCenter(small, 'e4');
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    for (let i = 1; i <= 10; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y - 15 * i }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await small.waitForFunction(() => window.scrollY > 50, null, { timeout: 5000 });
    await small.close();
    // 844 x 390 sideways: the whole board in view, the moves beside it.
    const wide = await open(fen, { width: 844, height: 390, mobile: true });
    const board = await wide.$eval('syzygy-board .sb-board', (b) => b.getBoundingClientRect().toJSON());
    const move = await wide.$eval('syzygy-board [role="option"]', (o) => o.getBoundingClientRect().toJSON());
    assert.ok(board.bottom <= 390 + 1, `the board ends at ${board.bottom}px`);
    assert.ok(move.left >= board.right, `the moves start at ${move.left}px, the board ends at ${board.right}px`);
    await wide.close();
    // A long string without spaces pasted as a link: wrapped, not scrolled sideways.
    const page = await newPage(ctx.browser, { width: 360, height: 640, mobile: true });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(appUrl(ctx.site.url, 'x'.repeat(80)));
    await page.waitForSelector('syzygy-board .sb-notice:not([hidden])');
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 360);
    // Without motion, no animation runs.
    const names = await page.$$eval('syzygy-board .sb-spinner, syzygy-board .sb-progress-fill', (els) => els.map((e) => getComputedStyle(e).animationName));
    assert.ok(names.every((n) => n === 'none'), JSON.stringify(names));
    await page.close();
  });

  it('a win the halfmove clock already spoils: the best line marks where the 50-move rule draws it', async () => {
    const fen = '8/8/8/4k3/8/8/8/3QK3 w - - 95 1';
    const [cli] = cliProbe([fen]);
    assert.ok(cli.wdl === 2 && cli.category === 'cursed-win', `${cli.wdl} ${cli.category}`);
    const page = await open(fen);
    const mark = page.locator('syzygy-board .sb-mainline .sb-line-lost');
    await mark.waitFor({ timeout: 20000 });
    // After the 5th ply (White's): 95 + 5 = 100; Black, to move then, claims.
    assert.match(await mark.textContent(), /Black can claim a draw here/);
    const index = await page.$eval('syzygy-board .sb-mainline .sb-line-lost', (el) => el.previousElementSibling.dataset.index);
    assert.equal(index, '4');
    await page.close();
    // At 96 the 100th ply is Black's own 4th: Black claims by writing that
    // move (FIDE 9.3.1), not after it, where only White may claim (until
    // 2026-11-30 the mark said "a draw can be claimed here" after it).
    const other = await open('8/8/8/4k3/8/8/8/3QK3 w - - 96 1');
    const mark96 = other.locator('syzygy-board .sb-mainline .sb-line-lost');
    await mark96.waitFor({ timeout: 20000 });
    assert.match(await mark96.textContent(), /Black can claim a draw with this move/);
    assert.equal(await other.$eval('syzygy-board .sb-mainline .sb-line-lost', (el) => el.previousElementSibling.dataset.index), '3');
    await other.close();
  });

  it('12: played moves add history entries: Back returns to the position before', async () => {
    const fen = '8/8/8/4k3/8/8/8/3QK3 w - - 0 1';
    const page = await open(fen);
    const line = [fen];
    for (let i = 0; i < 3; i++) {
      const [cli] = cliProbe([line[i]]);
      await page.click(`syzygy-board [role="option"][data-uci="${cli.moves[0].uci}"]`);
      line.push(applyUci(line[i], cli.moves[0].uci));
      await waitVerdict(page, line[i + 1]);
    }
    await page.goBack();
    await expectFen(page, line[2]);
    // The played line is kept: Back moved the cursor, it did not load a new game.
    assert.equal(await page.locator('syzygy-board .sb-history .sb-ply').count(), 3);
    await page.goBack();
    await page.goBack();
    await expectFen(page, line[0]);
    await page.goForward();
    await expectFen(page, line[1]);
    // Steps along the line are entries too: Back after stepping to the
    // start returns to the position shown before the last step.
    await page.goForward();
    await page.goForward();
    await expectFen(page, line[3]);
    for (let i = 2; i >= 0; i--) {
      await page.keyboard.press('ArrowLeft');
      await expectFen(page, line[i]);
    }
    await page.goBack();
    await expectFen(page, line[1]);
    await page.close();
  });

  it('13: screen readers get the board as a labelled image of pieces and squares', async () => {
    const page = await open(DEFAULT_FEN);
    const label = () => page.getAttribute('syzygy-board .sb-cg', 'aria-label');
    assert.equal(await page.getAttribute('syzygy-board .sb-cg', 'role'), 'img');
    assert.match(await label(), /White: king on e1, rook on h1\. Black: king on e8\. White to move/);
    await dragMove(page, 'h1', 'h7');
    await expectFen(page, applyUci(DEFAULT_FEN, 'h1h7'));
    await page.waitForFunction(() => document.querySelector('syzygy-board .sb-cg').getAttribute('aria-label').includes('rook on h7'));
    assert.match(await label(), /Black to move/);
    // The move list stays the keyboard path.
    assert.equal(await page.getAttribute('syzygy-board [role="listbox"]', 'tabindex'), '0');
    await page.close();
  });

  it('14: a compact <syzygy-board> is compact in a 720 px column, and its fen attribute follows played moves', async () => {
    const dir = tempDir();
    try {
      fs.symlinkSync(DIST, path.join(dir, 'lib'));
      const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
      fs.writeFileSync(
        path.join(dir, 'post.html'),
        `<!doctype html><meta charset="utf-8"><script src="/lib/syzygy-board.js"></script>
<body style="margin:0"><div style="width:720px;margin:20px auto"><syzygy-board fen="${fen}" tables="/tables/"></syzygy-board></div></body>`,
      );
      const own = await startSite({ staticDir: dir });
      try {
        const page = await newPage(ctx.browser, { width: 1000, height: 900 });
        await page.goto(`${own.url}post.html`);
        await waitVerdict(page, fen);
        const m = await page.evaluate(() => {
          const el = document.querySelector('syzygy-board').getBoundingClientRect();
          const root = document.querySelector('syzygy-board .sb-root').getBoundingClientRect();
          const board = document.querySelector('syzygy-board cg-board').getBoundingClientRect();
          return { height: el.height, width: root.width, board: board.height };
        });
        assert.ok(m.width >= 680, `content ${m.width}px wide in a 720px column`);
        assert.ok(m.height <= m.board + 80, `element ${m.height}px tall for a ${m.board}px board`);
        await dragMove(page, 'a1', 'a7');
        const moved = applyUci(fen, 'a1a7');
        await expectFen(page, moved);
        await page.waitForFunction((f) => document.querySelector('syzygy-board').getAttribute('fen') === f, moved);
        // Setting the attribute still loads a position.
        await page.$eval('syzygy-board', (el) => el.setAttribute('fen', '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'));
        await expectFen(page, normalizeFen('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'));
        noErrors(page);
        await page.close();
      } finally {
        await own.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
