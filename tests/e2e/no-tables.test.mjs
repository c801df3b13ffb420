// A page that embeds <syzygy-board> with no `tables` attribute and no
// tables on its host: positions of up to 4 pieces are solved in the
// browser, the verdict and the moves show "Mate in N", the best line goes
// on to mate, and a waiting position shows generation progress. Writes
// screenshots at 360 px and desktop width to test-results/.
import { describe, it as baseIt, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { skipReason, ensureBuilt, startSite, launch, newPage, waitVerdict, deadUrl, DIST, RESULTS, tempDir } from './helpers.mjs';
import { allMaterials } from '../../www/src/materials.js';
import { materialKey } from '../../www/src/chess.js';

const skip = skipReason();
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 600_000 }, fn);
// KRvK: the rook mates in 16 moves at most.
const FEN = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';

describe('<syzygy-board> without tables', () => {
  let site;
  let browser;
  before(async () => {
    if (skip) return;
    ensureBuilt();
    fs.mkdirSync(RESULTS, { recursive: true });
    const dir = tempDir();
    fs.symlinkSync(DIST, path.join(dir, 'lib'));
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>No tables</title><script src="/lib/syzygy-board.js"></script></head>
<body style="font-family: sans-serif; max-width: 960px; margin: 1rem auto; padding: 0 8px">
<syzygy-board fen="${FEN}"></syzygy-board></body></html>`,
    );
    // The host serves the page and nothing else: no table anywhere.
    site = await startSite({ staticDir: dir, tables: [] });
    browser = await launch();
  });
  after(async () => {
    if (browser) await browser.close();
    if (site) await site.close();
  });

  for (const [label, size] of [
    ['desktop', { width: 1280, height: 900 }],
    ['360', { width: 360, height: 740, mobile: true }],
  ]) {
    it(`shows a verdict and "Mate in N" (${label})`, async () => {
      const page = await newPage(browser, size);
      await page.goto(site.url);
      // Progress first (the table is being generated), then the answer.
      const progress = await page
        .waitForSelector('syzygy-board .sb-verdict progress.sb-generate', { timeout: 60_000 })
        .then(() => true, () => false);
      if (progress) await page.screenshot({ path: path.join(RESULTS, `generated-progress-${label}.png`) });
      await page.waitForFunction(() => {
        const card = document.querySelector('syzygy-board .sb-verdict');
        return card && card.dataset.tone === 'white' && card.querySelector('.sb-dtm') && !document.querySelector('syzygy-board .sb-moves-card.sb-stale');
      }, null, { timeout: 300_000 });
      const shown = await page.evaluate(() => {
        const root = document.querySelector('syzygy-board');
        return {
          headline: root.querySelector('.sb-headline').textContent,
          mate: root.querySelector('.sb-dtm').textContent,
          moveBadges: [...root.querySelectorAll('.sb-move')].slice(0, 3).map((m) => m.textContent),
        };
      });
      assert.match(shown.headline, /White wins/);
      assert.match(shown.mate, /^Mate in \d+/);
      assert.ok(shown.moveBadges.some((t) => /Mate in \d+/.test(t)), shown.moveBadges.join(' | '));
      // The best line reaches mate.
      await page.waitForFunction(() => /#/.test((document.querySelector('syzygy-board .sb-mainline-card') || {}).textContent || ''), null, { timeout: 60_000 }).catch(() => {});
      await page.screenshot({ path: path.join(RESULTS, `generated-mate-${label}.png`), fullPage: true });
      // At a clock the 50-move rule spoils, the mate is not one under the
      // rule: its plies show as DTM, said to be without that rule.
      await page.evaluate((fen) => (document.querySelector('syzygy-board').fen = fen), FEN.replace(' 0 1', ' 80 1'));
      await page.waitForFunction(() => /^DTM \d+/.test(document.querySelector('syzygy-board .sb-dtm')?.textContent || ''), null, { timeout: 60_000 });
      const spoiled = await page.evaluate(() => document.querySelector('syzygy-board .sb-verdict').textContent);
      assert.match(spoiled, /Cursed win/i);
      assert.match(spoiled, /if the 50-move rule did not apply/);
      // The moves too, by the clock after each (80 + 1 for a quiet one).
      await page.waitForFunction(() => !document.querySelector('syzygy-board .sb-moves-card.sb-stale'));
      const badges = await page.evaluate(() => [...document.querySelectorAll('syzygy-board .sb-move')].map((m) => m.textContent));
      assert.ok(badges.some((t) => /DTM \d+/.test(t)), badges.join(' | '));
      assert.ok(!badges.some((t) => /Mate in \d+/.test(t)), badges.join(' | '));
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  it('browse by material offers the 3-4 piece materials the host lacks, solved in this browser', async () => {
    const page = await newPage(browser);
    // The app page itself, its tables (./tables/) absent.
    await page.goto(`${site.url}lib/index.html#fen=${FEN.replace(/ /g, '_')}`);
    await page.click('syzygy-board .sb-browse summary');
    const status = () => page.textContent('syzygy-board .sb-browse-status');
    await page.waitForFunction(() => /did not answer/.test(document.querySelector('syzygy-board .sb-browse-status').textContent), null, { timeout: 60_000 });
    const small = allMaterials(4);
    assert.match(await status(), new RegExp(`The ${small.length} materials of 3 or 4 pieces it lacks are solved in this browser`));
    const chips = await page.$$eval('syzygy-board .sb-mat', (els) => els.map((e) => [e.dataset.material, !e.disabled, e.dataset.made === 'true']));
    assert.deepEqual(chips.filter(([, on]) => on).map(([m]) => m).sort(), [...small].sort());
    assert.ok(chips.every(([, on, made]) => on === made));
    await page.click('syzygy-board .sb-mat[data-material="KPvK"]');
    assert.match(await page.textContent('syzygy-board .sb-browse-size'), /^Not on this host: the first position you open is solved in this browser/);
    assert.equal(await page.$('syzygy-board .sb-browse-detail button:has-text("Save for offline")'), null);
    await page.click('syzygy-board .sb-browse button:has-text("Random position")');
    await page.waitForFunction((f) => document.querySelector('syzygy-board').fen !== f, FEN);
    const random = await page.$eval('syzygy-board', (el) => el.fen);
    assert.equal(materialKey(random), 'KPvK');
    const v = await waitVerdict(page, random, 'syzygy-board', { moves: true });
    assert.equal(v.error, null, JSON.stringify(v));
    assert.deepEqual(page.errors, []);
    await page.context().close();

    // A host that does not answer at all says nothing of what it lacks:
    // its positions get a network error, so nothing is offered.
    const down = await newPage(browser);
    await down.goto(`${site.url}lib/index.html?tables=${encodeURIComponent(await deadUrl())}#fen=${FEN.replace(/ /g, '_')}`);
    await down.click('syzygy-board .sb-browse summary');
    await down.waitForFunction(() => /did not answer/.test(document.querySelector('syzygy-board .sb-browse-status').textContent), null, { timeout: 60_000 });
    assert.doesNotMatch(await down.textContent('syzygy-board .sb-browse-status'), /solved in this browser/);
    assert.equal((await down.$$('syzygy-board .sb-mat:not([disabled])')).length, 0);
    await down.context().close();
  });
});
