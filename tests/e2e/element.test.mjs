// The embeddable <syzygy-board> on a plain HTML page in another folder than
// the script: the wasm file must be found relative to the script's URL.
import { describe, it as baseIt, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { skipReason, ensureBuilt, startSite, launch, newPage, cliProbe, expectedHeadline, DIST, tempDir, dragMove, deadUrl } from './helpers.mjs';

const skip = skipReason({ needCli: true });
// Without the prerequisites every test is reported as skipped, with the reason.
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 180_000 }, fn);

const FEN_A = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
const FEN_B = '8/8/8/8/8/2k5/1p6/4K3 w - - 0 1';

describe('<syzygy-board> custom element', () => {
  let site;
  let tablesSite;
  let browser;
  let dir;
  before(async () => {
    if (skip) return;
    ensureBuilt();
    // site/ holds the built files under lib/ and a plain page under blog/post/.
    dir = tempDir();
    fs.symlinkSync(DIST, path.join(dir, 'lib'));
    fs.mkdirSync(path.join(dir, 'blog', 'post'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'blog', 'post', 'index.html'),
      `<!doctype html>
<html><head><meta charset="utf-8"><title>An endgame post</title>
<script src="/lib/syzygy-board.js"></script></head>
<body style="font-family: sans-serif; max-width: 720px; margin: 2rem auto">
<h1>Rook endings</h1>
<p>The rook wins easily:</p>
<syzygy-board id="a" fen="${FEN_A}" tables="/tables/"></syzygy-board>
<p>A pawn about to promote:</p>
<syzygy-board id="b" fen="${FEN_B}" tables="TABLES_B" orientation="black"></syzygy-board>
</body></html>`,
    );
    // Board b reads its tables from another origin (a second server): CORS and Range.
    tablesSite = await startSite({ staticDir: dir });
    const page = path.join(dir, 'blog', 'post', 'index.html');
    fs.writeFileSync(page, fs.readFileSync(page, 'utf8').replace('TABLES_B', `${tablesSite.url}tables/`));
    site = await startSite({ staticDir: dir });
    browser = await launch();
  });
  after(async () => {
    if (browser) await browser.close();
    if (site) await site.close();
    if (tablesSite) await tablesSite.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('renders boards and verdicts on a plain page and reacts to attribute changes', async () => {
    const [a, b] = cliProbe([FEN_A, FEN_B]);
    const page = await newPage(browser, { width: 900, height: 1400, colorScheme: 'light' });
    const events = [];
    await page.exposeFunction('recordEvent', (e) => events.push(e));
    await page.addInitScript(() => document.addEventListener('syzygy-result', (e) => window.recordEvent(e.detail.fen)));
    await page.goto(`${site.url}blog/post/`);
    const verdictText = (id) =>
      page.waitForFunction((id) => {
        const card = document.querySelector(`#${id} .sb-verdict`);
        return card && !card.classList.contains('sb-stale') && card.querySelector('.sb-headline') && card.dataset.tone !== 'loading' ? card.textContent : false;
      }, id, { timeout: 20000 }).then((h) => h.jsonValue());

    assert.ok((await verdictText('a')).includes(expectedHeadline(a)));
    assert.ok((await verdictText('b')).includes(expectedHeadline(b)));
    assert.ok(await page.$('#a cg-board piece.rook.white'));
    assert.ok(await page.$('#b .cg-wrap.orientation-black'));
    // The verdict is in the element's DOM.
    assert.equal(await page.$eval('#a', (el) => el.querySelector('.sb-headline').textContent), expectedHeadline(a));
    // The events reach this process through exposeFunction, which may
    // lag the verdict on screen: wait for them a little.
    for (let t = Date.now(); !(events.includes(FEN_A) && events.includes(FEN_B)) && Date.now() - t < 5000; ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(events.includes(FEN_A) && events.includes(FEN_B));

    // Moves can be played inside the element.
    await dragMove(page, 'a1', 'a7', '#a');
    await page.waitForFunction(() => document.querySelector('#a').fen.startsWith('8/R7/8/4k3/'));
    // The keys then act on that board (it listens on itself, embedded): back a move.
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((f) => document.querySelector('#a').fen === f, FEN_A, { timeout: 5000 });
    assert.equal(await page.$eval('#b', (el) => el.fen), FEN_B);

    // Setting the fen attribute loads a new position.
    await page.$eval('#a', (el) => el.setAttribute('fen', '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'));
    await page.waitForFunction(() => document.querySelector('#a .sb-tag') && document.querySelector('#a .sb-tag').textContent === 'Stalemate', null, { timeout: 20000 });
    assert.equal(await page.$eval('#a .sb-headline', (e) => e.textContent), 'Draw');

    // Setting the tables attribute to a host that cannot answer leaves the
    // board playable, as its error says ('Moves can still be played'):
    // the legal moves come from the package, not the tables (the board
    // stayed locked: its moves were dropped with the old Tablebase and
    // only an answer brought them back).
    await page.$eval('#a', (el, f) => el.setAttribute('fen', f), FEN_A);
    await page.waitForFunction((f) => document.querySelector('#a').fen === f, FEN_A);
    await page.$eval('#a', (el, u) => el.setAttribute('tables', u), await deadUrl());
    // (The tables made for KRvK's mate distances, mate.js, answer it from
    // IndexedDB; a host down for a position never shown, board.test.)
    await page.waitForFunction(() => /^Mate in \d+/.test(document.querySelector('#a .sb-verdict-body .sb-dtm')?.textContent || ''), null, { timeout: 20000 });
    await dragMove(page, 'a1', 'a7', '#a');
    await page.waitForFunction(() => document.querySelector('#a').fen.startsWith('8/R7/8/4k3/'), null, { timeout: 10000 });
    page.errors.length = 0;

    // The wasm was fetched next to the script, not next to the page.
    const wasm = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.wasm')));
    assert.ok(wasm.length >= 1 && wasm.every((u) => new URL(u).pathname.startsWith('/lib/')), JSON.stringify(wasm));
    // Board b's table bytes came from the other origin.
    const cross = await page.evaluate((origin) => performance.getEntriesByType('resource').filter((e) => e.name.startsWith(origin) && /\.rtb[wz]$/.test(e.name)).length, new URL(tablesSite.url).origin);
    assert.ok(cross > 0, 'no table requests to the second origin');
    // No service worker is registered by an embed.
    assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('a move scrolled into view in the compact list plays at the first click, and no best reply is shown for the mouse', async () => {
    const page = await newPage(browser, { width: 900, height: 1400, colorScheme: 'light' });
    await page.goto(`${site.url}blog/post/`);
    // The ranked list (every move has its category).
    await page.waitForFunction(() => {
      const opts = [...document.querySelectorAll('#a [role="option"]')];
      return opts.length > 10 && opts.every((o) => o.dataset.category !== 'unknown');
    });
    const last = await page.evaluate(() => {
      const list = document.querySelector('#a [role="listbox"]');
      list.scrollTop = list.scrollHeight;
      const opts = list.querySelectorAll('[role="option"]');
      return { uci: opts[opts.length - 1].dataset.uci, scrolls: list.scrollHeight > list.clientHeight };
    });
    assert.ok(last.scrolls, 'the compact list scrolls');
    // A press and release where the move is (the press focuses the list).
    await page.locator(`#a [data-uci="${last.uci}"]`).click();
    await page.waitForFunction((f) => document.querySelector('#a').getAttribute('fen') !== f, FEN_A, { timeout: 5000 });
    // The list took the focus, from the mouse: once the next position's
    // moves are ranked, its best reply is not made the active move.
    await page.waitForFunction(() => {
      const opts = [...document.querySelectorAll('#a [role="option"]')];
      return opts.length > 0 && opts.every((o) => o.dataset.category !== 'unknown');
    });
    assert.equal(await page.locator('#a [aria-selected="true"]').count(), 0);
    assert.deepEqual(page.errors.map(String), []);
    await page.context().close();
  });

  it('takes a fen set before the script ran (and not a result), follows its orientation attribute, copies a FEN without url-sync', async () => {
    // The property is set while the element is still an unknown tag.
    fs.mkdirSync(path.join(dir, 'blog', 'late'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'blog', 'late', 'index.html'),
      `<!doctype html>
<html><head><meta charset="utf-8"><title>Late script</title></head>
<body><syzygy-board id="c" view="full" tables="/tables/"></syzygy-board>
<script>document.getElementById('c').fen = ${JSON.stringify(FEN_A)}; document.getElementById('c').result = 'set by the page';</script>
<script src="/lib/syzygy-board.js"></script></body></html>`,
    );
    const page = await newPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(site.url).origin });
    await page.goto(`${site.url}blog/late/`);
    await page.waitForFunction((f) => document.querySelector('#c').fen === f && document.querySelector('#c .sb-verdict').dataset.tone === 'white', FEN_A, { timeout: 20000 });
    assert.equal(await page.getAttribute('#c', 'fen'), FEN_A);
    // The read-only result is the board's, not what the page set before.
    assert.equal(await page.$eval('#c', (el) => el.result && el.result.fen), FEN_A);

    assert.ok(await page.$('#c .cg-wrap.orientation-white'));
    await page.$eval('#c', (el) => el.setAttribute('orientation', 'black'));
    await page.waitForSelector('#c .cg-wrap.orientation-black', { timeout: 5000 });
    await page.$eval('#c', (el) => el.removeAttribute('orientation'));
    await page.waitForSelector('#c .cg-wrap.orientation-white', { timeout: 5000 });

    // This page does not read positions from its address: a link would not open this one.
    assert.equal(await page.$('#c button:has-text("Copy link")'), null);
    await page.click('#c button:has-text("Copy FEN")');
    await page.waitForFunction(() => document.querySelector('#c .sb-share-status').textContent === 'FEN copied', null, { timeout: 5000 });
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), FEN_A);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('a tables address that is not one shows why beside a working board; a refused clipboard leaves the text to copy', async () => {
    // Before: the URL's parse threw inside the element's setup and left a blank page.
    fs.mkdirSync(path.join(dir, 'blog', 'bad'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'blog', 'bad', 'index.html'),
      `<!doctype html>
<html><head><meta charset="utf-8"><title>Bad address</title></head>
<body><syzygy-board id="d" view="full" fen="${FEN_A}" tables="http://"></syzygy-board>
<script src="/lib/syzygy-board.js"></script></body></html>`,
    );
    const page = await newPage(browser);
    // A page without the clipboard (plain http elsewhere, or a refusal).
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new DOMException('refused', 'NotAllowedError')) } });
    });
    await page.goto(`${site.url}blog/bad/`);
    await page.waitForFunction(() => /Table address not valid/.test(document.querySelector('#d .sb-verdict')?.textContent || ''), null, { timeout: 20000 });
    assert.match(await page.textContent('#d .sb-verdict'), /"http:\/\/" is not a table address/);
    assert.ok(await page.$('#d .cg-wrap'), 'the board is drawn');
    // And playable: the legal moves need no table. They come once the
    // module has loaded (nothing else loads it here): a drag before then
    // moves nothing, and is made again.
    for (let i = 0; i < 40 && !(await page.$eval('#d', (el) => el.fen)).startsWith('8/R7/8/4k3/'); i++) {
      await dragMove(page, 'a1', 'a7', '#d');
      await page.waitForTimeout(250);
    }
    assert.match(await page.$eval('#d', (el) => el.fen), /^8\/R7\/8\/4k3\//);
    // The list shows them too, without values.
    await page.waitForSelector('#d .sb-group[data-group="unknown"] [role="option"]', { timeout: 5000 });
    assert.match(await page.textContent('#d .sb-verdict'), /"http:\/\/" is not a table address/);
    await page.$eval('#d', (el, f) => el.setAttribute('fen', f), FEN_A);
    await page.waitForFunction((f) => document.querySelector('#d').fen === f, FEN_A);
    // The address mended: the board answers.
    await page.$eval('#d', (el) => el.setAttribute('tables', '/tables/'));
    await page.waitForFunction(() => document.querySelector('#d .sb-verdict').dataset.tone === 'white', null, { timeout: 20000 });

    await page.click('#d button:has-text("Copy FEN")');
    const field = await page.waitForSelector('#d .sb-share-status input');
    assert.equal(await field.inputValue(), FEN_A);
    assert.equal(await page.evaluate(() => document.activeElement === document.querySelector('#d .sb-share-status input')), true);
    // Still there once a copied link's note would have gone (4 s).
    await page.waitForTimeout(4500);
    assert.ok(await page.$('#d .sb-share-status input'), 'the text to copy stays');
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });
});
