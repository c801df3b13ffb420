// Issue 14's player features: swap colours and mirror in the editor, the
// lichess analysis link, the shortcut help, browsing by material (what the
// host offers, sizes, starting positions) and short share links. Expected
// answers come from the CLI and from the table folder, computed here.
import { describe, it as baseIt } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { skipReason, newPage, appUrl, waitVerdict, cliProbe, expectedHeadline, TABLES, siteAndBrowser } from './helpers.mjs';
import { materialKey, mirrorFiles, swapColors } from '../../www/src/chess.js';
import { allMaterials, reachableMaterials } from '../../www/src/materials.js';
import { formatBytes } from '../../www/src/dom.js';

const skip = skipReason({ needCli: true });
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 180_000 }, fn);
const notable = JSON.parse(fs.readFileSync(new URL('../../www/src/notable-positions.json', import.meta.url), 'utf8'));

/** Materials with both files in the table folder, and their sizes. */
function folder() {
  const files = new Set(fs.readdirSync(TABLES));
  const out = new Map();
  for (const m of allMaterials(5)) {
    if (files.has(`${m}.rtbw`) && files.has(`${m}.rtbz`)) out.set(m, fs.statSync(path.join(TABLES, `${m}.rtbw`)).size + fs.statSync(path.join(TABLES, `${m}.rtbz`)).size);
  }
  return out;
}

describe('issue 14 features', () => {
  const ctx = siteAndBrowser(skip);
  const expectFen = (page, fen) => page.waitForFunction((f) => document.querySelector('syzygy-board').fen === f, fen, { timeout: 10000 });

  it('the editor swaps colours and mirrors; the verdict follows', async () => {
    const fen = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    await page.click('syzygy-board button[aria-label="Edit position"]');
    await page.click('syzygy-board .sb-editor button:has-text("Swap colours")');
    const swapped = swapColors(fen);
    await expectFen(page, swapped);
    const [cli] = cliProbe([swapped]);
    assert.equal((await waitVerdict(page, swapped)).headline, expectedHeadline(cli));
    assert.equal(expectedHeadline(cli), 'Black wins');
    await page.click('syzygy-board .sb-editor button:has-text("Mirror")');
    await expectFen(page, mirrorFiles(swapped));
    await waitVerdict(page, mirrorFiles(swapped));
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('links to the lichess analysis board and shows the shortcuts on "?"', async () => {
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    assert.equal(await page.getAttribute('syzygy-board a.sb-lichess', 'href'), `https://lichess.org/analysis/standard/${fen.replace(/ /g, '_')}`);
    assert.equal(await page.isVisible('syzygy-board .sb-help'), false);
    await page.locator('body').press('?');
    await page.waitForSelector('syzygy-board .sb-help:not([hidden])');
    const help = await page.textContent('syzygy-board .sb-help');
    for (const words of ['Flip the board', 'Previous / next move', 'Browse by material', 'Show or hide this help']) assert.ok(help.includes(words), words);
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('syzygy-board .sb-help'), false);
    await page.close();
  });

  it('browses by material: what the host has, download sizes, random and notable positions', async () => {
    const here = folder();
    const page = await newPage(ctx.browser, { width: 1280, height: 900 });
    await page.goto(appUrl(ctx.site.url, '8/8/8/4k3/8/8/8/R3K3 w - - 0 1'));
    await waitVerdict(page);
    await page.locator('body').press('m');
    await page.waitForFunction(() => /This host has/.test(document.querySelector('syzygy-board .sb-browse-status').textContent), null, { timeout: 60000 });
    assert.match(await page.textContent('syzygy-board .sb-browse-status'), new RegExp(`has ${here.size} of the ${allMaterials(5).length} materials`));
    const chips = await page.$$eval('syzygy-board .sb-mat', (els) => els.map((e) => [e.dataset.material, !e.disabled]));
    assert.equal(chips.length, 145);
    assert.deepEqual(chips.filter(([, on]) => on).map(([m]) => m).sort(), [...here.keys()].sort());

    // KQPvKQ: its size with what captures and promotions reach, a random position, a cursed win.
    const m = 'KQPvKQ';
    await page.click(`syzygy-board .sb-mat[data-material="${m}"]`);
    const total = reachableMaterials(m).reduce((sum, x) => sum + (here.get(x) || 0), 0);
    assert.match(await page.textContent('syzygy-board .sb-browse-size'), new RegExp(`offline download ${formatBytes(total).replace('.', '\\.')}`));
    await page.click('syzygy-board .sb-browse button:has-text("Random position")');
    await page.waitForFunction((m) => {
      const el = document.querySelector('syzygy-board');
      return el.fen && !el.fen.startsWith('8/8/8/4k3/8/8/8/R3K3');
    }, m);
    const random = await page.$eval('syzygy-board', (el) => el.fen);
    assert.equal(materialKey(random), m);
    const [rc] = cliProbe([random]);
    assert.equal((await waitVerdict(page, random)).headline, expectedHeadline(rc));
    assert.ok(notable[m].cursed, 'the notable file has a cursed win for KQPvKQ');
    await page.click('syzygy-board .sb-browse .sb-notable-cursed');
    await expectFen(page, notable[m].cursed.fen);
    const v = await waitVerdict(page, notable[m].cursed.fen);
    assert.match(v.headline, /^Cursed win for/);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('the notable positions hold what they claim (CLI)', () => {
    const entries = Object.entries(notable);
    assert.equal(entries.length, folder().size);
    const longest = entries.filter(([, n]) => n.longest);
    const cursed = entries.filter(([, n]) => n.cursed);
    const answers = cliProbe([...longest.map(([, n]) => n.longest.fen), ...cursed.map(([, n]) => n.cursed.fen)]);
    longest.forEach(([m, n], i) => {
      assert.equal(materialKey(n.longest.fen), m);
      assert.equal(answers[i].wdl, 2, n.longest.fen);
      assert.equal(answers[i].dtz, n.longest.dtz, n.longest.fen);
    });
    cursed.forEach(([m, n], i) => {
      const r = answers[longest.length + i];
      assert.equal(materialKey(n.cursed.fen), m);
      assert.equal(r.category, 'cursed-win', n.cursed.fen);
      assert.equal(r.dtz, n.cursed.dtz, n.cursed.fen);
    });
    console.log(`# ${longest.length} long wins and ${cursed.length} cursed wins checked`);
  });

  it('copies the played line as PGN, with the best play from its end', async () => {
    const fen = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';
    const [cli] = cliProbe([fen]);
    const page = await newPage(ctx.browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(ctx.site.url).origin });
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    // The best move, then Black's best reply, from the list.
    await page.click(`syzygy-board [role="option"][data-uci="${cli.moves[0].uci}"]`);
    const after = await page.evaluate(() => document.querySelector('syzygy-board').fen);
    const [reply] = cliProbe([after]);
    await waitVerdict(page, after);
    await page.click(`syzygy-board [role="option"][data-uci="${reply.moves[0].uci}"]`);
    const end = await page.evaluate(() => document.querySelector('syzygy-board').fen);
    await waitVerdict(page, end);
    // The best line from there, as the board shows it.
    await page.waitForFunction(() => document.querySelectorAll('syzygy-board .sb-mainline-card button.sb-ply:not(:disabled)').length > 0, null, { timeout: 20000 });
    const best = await page.$$eval('syzygy-board .sb-mainline-card button.sb-ply', (bs) => bs.map((b) => b.lastChild.textContent));
    // Back to the start: the PGN is the whole played line all the same.
    await page.keyboard.press('Home');
    await page.click('syzygy-board button:has-text("Copy PGN")');
    await page.waitForFunction(() => document.querySelector('syzygy-board .sb-share-status').textContent === 'PGN copied', null, { timeout: 5000 });
    const pgn = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(pgn, new RegExp(`^\\[FEN "${fen.replace(/\//g, '\\/')}"\\]$`, 'm'));
    assert.match(pgn, /^\[SetUp "1"\]$/m);
    const text = pgn.split('\n\n')[1].replace(/\s+/g, ' ').trim();
    const [played, rest] = text.split(/ \{ Tablebase best play: White wins \} /);
    assert.equal(played, `1. ${cli.moves[0].san} ${reply.moves[0].san}`);
    const sans = rest.split(' ').filter((t) => !/^\d+\.(\.\.)?$/.test(t));
    const result = sans.pop();
    assert.deepEqual(sans, best);
    // The line ends in mate: White's win is the result, in the tags too.
    assert.ok(best.at(-1).endsWith('#'), best.at(-1));
    assert.equal(result, '1-0');
    assert.match(pgn, /^\[Result "1-0"\]$/m);
    assert.equal(await page.textContent('syzygy-board .sb-mainline-card h2 small'), ' played out to mate');
    // A draw: no line, and the card's title says nothing of mate; its PGN
    // ends with the verdict.
    const draw = '8/8/8/4k3/8/2r5/8/R3K3 w - - 0 1';
    await page.goto(appUrl(ctx.site.url, draw));
    await waitVerdict(page, draw);
    await page.waitForFunction(() => /Drawn/.test(document.querySelector('syzygy-board .sb-mainline-card').textContent), null, { timeout: 20000 });
    assert.equal(await page.textContent('syzygy-board .sb-mainline-card h2 small'), '');
    await page.click('syzygy-board button:has-text("Copy PGN")');
    await page.waitForFunction((before) => navigator.clipboard.readText().then((t) => t !== before), pgn);
    const drawn = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(drawn, /\n\{ Tablebase: Draw \} \*\n$/);
    // An illegal position (the side not to move in check): said, nothing copied.
    const illegal = 'R3k3/8/8/8/8/8/8/4K3 w - - 0 1';
    await page.goto(appUrl(ctx.site.url, illegal));
    await page.waitForFunction(() => /Illegal/i.test(document.querySelector('syzygy-board .sb-verdict').textContent), null, { timeout: 20000 });
    await page.click('syzygy-board button:has-text("Copy PGN")');
    await page.waitForFunction(() => document.querySelector('syzygy-board .sb-share-status').textContent === 'An illegal position has no PGN.', null, { timeout: 5000 });
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), drawn);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  it('copies a short link that opens the same position; the FEN link still works', async () => {
    const fen = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';
    const page = await newPage(ctx.browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(ctx.site.url).origin });
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    await page.click('syzygy-board button:has-text("Copy link")');
    await page.waitForFunction(() => document.querySelector('syzygy-board .sb-share-status').textContent !== '');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(link, /#p=KRPvKRw[A-Za-z0-9_-]+$/);
    assert.ok(link.length < appUrl(ctx.site.url, fen).length, `${link} is not shorter`);
    const other = await newPage(ctx.browser);
    await other.goto(link);
    await waitVerdict(other, fen);
    await other.close();
    // Seen from Black's side: the link and the lichess link say so.
    await page.keyboard.press('f');
    await page.click('syzygy-board button:has-text("Copy link")');
    await page.waitForFunction((before) => navigator.clipboard.readText().then((t) => t !== before), link);
    const flipped = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(flipped, /#p=KRPvKRw[A-Za-z0-9_-]+&o=black$/);
    assert.match(await page.getAttribute('syzygy-board .sb-lichess', 'href'), /\?color=black$/);
    const black = await newPage(ctx.browser);
    await black.goto(flipped);
    await waitVerdict(black, fen);
    await black.waitForSelector('syzygy-board .cg-wrap.orientation-black');
    await black.close();
    await page.close();
  });
});
