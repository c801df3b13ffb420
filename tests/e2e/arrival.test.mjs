// The board shows a position's verdict as soon as it is known and fills the
// move list after, never leaving the list blank. Made deterministic by
// holding back every table request the verdict does not need (the tables
// that the promotions of the Lucena position reach) until the verdict is on
// screen.
import { describe, it as baseIt } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, newPage, appUrl, waitVerdict, cliProbe, expectedHeadline, siteAndBrowser } from './helpers.mjs';
import { applyUci } from '../../www/src/chess.js';

const skip = skipReason({ needCli: true });
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 180_000 }, fn);

// White to move, stored in KRPvKR: its verdict reads KRPvKR files only.
const LUCENA = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';

describe('results as they arrive on the board', () => {
  const ctx = siteAndBrowser(skip);

  it('shows the verdict while the moves are held back, then the moves', async () => {
    const [want] = cliProbe([LUCENA]);
    const page = await newPage(ctx.browser);
    const held = [];
    let release = null;
    const released = new Promise((r) => (release = r));
    await page.route(/\/tables\/.*\.rtb[wz]$/, async (route) => {
      if (!/\/KRPvKR\.rtb[wz]$/.test(route.request().url())) {
        held.push(route.request().url());
        await released;
      }
      await route.continue();
    });
    await page.goto(appUrl(ctx.site.url, LUCENA));

    const v = await waitVerdict(page, LUCENA, 'syzygy-board', { moves: false });
    assert.equal(v.headline, expectedHeadline(want));
    const during = await page.evaluate(() => {
      const card = document.querySelector('syzygy-board .sb-moves-card');
      return { stale: card.classList.contains('sb-stale'), text: card.querySelector('.sb-moves').textContent.trim() };
    });
    assert.ok(held.length > 0, 'the move list needs tables the verdict does not');
    assert.ok(during.stale, 'the move list is still loading');
    assert.ok(during.text.length > 0, 'the move list is not blank while it loads');

    // The verdict with its DTZ, read once: the complete answer after it does not rebuild it.
    await page.waitForSelector('syzygy-board .sb-verdict[data-stage="verdict"]');
    await page.evaluate(() => (document.querySelector('syzygy-board .sb-verdict .sb-headline').dataset.mark = 'read'));
    release();
    await waitVerdict(page, LUCENA);
    const verdict = await page.evaluate(() => {
      const card = document.querySelector('syzygy-board .sb-verdict');
      return { mark: card.querySelector('.sb-headline').dataset.mark, busy: card.getAttribute('aria-busy') };
    });
    assert.deepEqual(verdict, { mark: 'read', busy: null });
    const shown = await page.evaluate(() =>
      [...document.querySelectorAll('syzygy-board .sb-movelist [data-uci]')].map((e) => e.dataset.uci),
    );
    assert.deepEqual(shown, want.moves.map((m) => m.uci));
    assert.deepEqual(page.errors.map(String), []);
    await page.context().close();
  });
  it('a move played from the keyboard lands on the next position\'s best move once its moves are ranked', async () => {
    const [root] = cliProbe([LUCENA]);
    // The last-ranked move: its position is off the best line, whose probes warmed the first's.
    const played = root.moves.at(-1).uci;
    const next = applyUci(LUCENA, played);
    const [child] = cliProbe([next]);
    const page = await newPage(ctx.browser);
    let hold = false;
    let release = null;
    const released = new Promise((r) => (release = r));
    await page.route(/\/tables\/.*\.rtb[wz]$/, async (route) => {
      if (hold) await released;
      await route.continue();
    });
    await page.goto(appUrl(ctx.site.url, LUCENA));
    await waitVerdict(page, LUCENA);
    await page.focus('syzygy-board [role="listbox"]');
    await page.keyboard.press('End');
    assert.equal(await page.getAttribute('syzygy-board [role="listbox"]', 'aria-activedescendant'), await page.$eval(`syzygy-board [role="option"][data-uci="${played}"]`, (o) => o.id));
    hold = true;
    await page.keyboard.press('Enter');
    // The next position's legal moves show unranked while its tables are held.
    await page.waitForFunction(() => document.querySelector('syzygy-board .sb-moves-card').classList.contains('sb-stale'));
    release();
    await waitVerdict(page, next);
    const active = await page.getAttribute('syzygy-board [role="listbox"]', 'aria-activedescendant');
    const best = await page.$eval(`syzygy-board [role="option"][data-uci="${child.moves[0].uci}"]`, (o) => o.id);
    assert.equal(active, best, 'the active move is the best, not the first of the unranked list');
    assert.deepEqual(page.errors.map(String), []);
    await page.context().close();
  });
});
