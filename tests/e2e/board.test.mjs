// The full app page: moves by drag, click and from the list, promotion,
// history navigation, the editor, shared URLs and error messages.
import { describe, it as baseIt } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, newPage, appUrl, waitVerdict, dragMove, dragMouse, squareCenter, cliProbe, expectedHeadline, deadUrl, siteAndBrowser } from './helpers.mjs';
import { applyUci } from '../../www/src/chess.js';

const skip = skipReason({ needCli: true });
// Without the prerequisites every test is reported as skipped, with the reason.
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 180_000 }, fn);

describe('app page', () => {
  const ctx = siteAndBrowser(skip);

  async function open(fen, extra = '') {
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen, extra));
    return page;
  }

  const fenInput = (page) => page.inputValue('syzygy-board .sb-fen');
  /** Asserts the FEN box reaches `fen` (board events arrive asynchronously). */
  async function expectFen(page, fen) {
    try {
      await page.waitForFunction((f) => document.querySelector('syzygy-board .sb-fen').value === f, fen, { timeout: 5000 });
    } catch {
      await expectFen(page, fen);
    }
  }
  const noErrors = (page) => assert.deepEqual(page.errors.map(String), []);

  it('plays a move by dragging and by clicking, and navigates back and forward', async () => {
    const start = '4k3/8/8/8/8/8/8/4K2R w - - 0 1';
    const page = await open(start);
    const v0 = await waitVerdict(page, start);
    assert.equal(v0.headline, 'White wins');

    await dragMove(page, 'h1', 'h7');
    const afterDrag = applyUci(start, 'h1h7');
    await expectFen(page, afterDrag);
    const v1 = await waitVerdict(page, afterDrag);
    assert.equal(v1.headline, 'White wins');
    assert.equal(await page.textContent('syzygy-board .sb-history [aria-current="true"]'), '1.Rh7');

    // Click-click move for Black: king e8 -> f8.
    await page.mouse.click(...Object.values(await squareCenter(page, 'e8')));
    await page.mouse.click(...Object.values(await squareCenter(page, 'f8')));
    const afterClick = applyUci(afterDrag, 'e8f8');
    await expectFen(page, afterClick);
    await waitVerdict(page, afterClick);

    // Keyboard and buttons walk the line.
    await page.locator('body').press('ArrowLeft');
    await expectFen(page, afterDrag);
    await page.locator('body').press('ArrowLeft');
    await expectFen(page, start);
    await page.click('syzygy-board button[aria-label^="Next move"]');
    await expectFen(page, afterDrag);
    await page.locator('body').press('End');
    await expectFen(page, afterClick);
    // Keys typed into another widget of the page stay with it.
    await page.evaluate(() => {
      const b = document.createElement('button');
      b.id = 'outside';
      b.textContent = 'another widget';
      document.body.append(b);
    });
    await page.locator('#outside').press('ArrowLeft');
    await page.locator('#outside').press('Home');
    await page.waitForTimeout(300);
    assert.equal(await page.$eval('syzygy-board .sb-fen', (e) => e.value), afterClick);
    await page.evaluate(() => document.getElementById('outside').remove());
    // The URL follows the position.
    assert.ok(decodeURIComponent(page.url()).includes(afterClick.replace(/ /g, '_')), page.url());
    noErrors(page);
    await page.close();
  });

  it('plays moves from the ranked list with the mouse and the keyboard', async () => {
    const start = '8/8/8/4k3/8/8/8/3QK3 w - - 0 1';
    const page = await open(start);
    await waitVerdict(page, start);
    const [cli] = cliProbe([start]);
    // The list shows the moves in the CLI's order (best first).
    const shown = await page.$$eval('syzygy-board [role="option"]', (els) => els.map((e) => e.dataset.uci));
    assert.deepEqual(shown, cli.moves.map((m) => m.uci));
    const groups = await page.$$eval('syzygy-board .sb-group', (els) => els.map((e) => e.dataset.group));
    assert.equal(groups[0], 'win');

    await page.click(`syzygy-board [role="option"][data-uci="${cli.moves[0].uci}"]`);
    const after1 = applyUci(start, cli.moves[0].uci);
    await expectFen(page, after1);
    await waitVerdict(page, after1);

    // Keyboard: focus the list, go to the second move, play it with Enter.
    const [cli2] = cliProbe([after1]);
    await page.focus('syzygy-board [role="listbox"]');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    const active = await page.$eval('syzygy-board [role="listbox"]', (l) => l.getAttribute('aria-activedescendant'));
    assert.ok(active && active.endsWith(cli2.moves[1].uci), `active option ${active}`);
    await page.keyboard.press('Enter');
    const after2 = applyUci(after1, cli2.moves[1].uci);
    await expectFen(page, after2);
    await waitVerdict(page, after2);

    // The best line is shown and clickable.
    const plies = page.locator('syzygy-board .sb-mainline .sb-ply');
    await plies.first().waitFor({ timeout: 20000 });
    const firstSan = (await plies.first().textContent()).replace(/^\d+\.(…)?/, '');
    await plies.first().click();
    const last = await page.textContent('syzygy-board .sb-history [aria-current="true"]');
    assert.equal(last.replace(/^\d+\.(…)?/, ''), firstSan);
    noErrors(page);
    await page.close();
  });

  it('on a phone, a move picked from the list below the board brings the board back into view', async () => {
    const start = '8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1';
    const page = await newPage(ctx.browser, { width: 390, height: 844, mobile: true });
    await page.goto(appUrl(ctx.site.url, start));
    await waitVerdict(page, start);
    const [cli] = cliProbe([start]);
    // Down to a move far enough in the list that the board is off the screen.
    const row = page.locator(`syzygy-board [role="option"][data-uci="${cli.moves[cli.moves.length - 1].uci}"]`);
    await row.scrollIntoViewIfNeeded();
    const boardTop = () => page.$eval('syzygy-board .sb-board', (b) => b.getBoundingClientRect().top);
    assert.ok((await boardTop()) < -100, `board top ${await boardTop()}`);
    await row.click();
    await expectFen(page, applyUci(start, cli.moves[cli.moves.length - 1].uci));
    await page.waitForFunction(() => Math.abs(document.querySelector('syzygy-board .sb-board').getBoundingClientRect().top) < 2, null, { timeout: 5000 });
    noErrors(page);
    await page.context().close();
  });

  it('asks which piece to promote to', async () => {
    const start = '8/1P6/8/8/8/8/k7/4K3 w - - 0 1';
    const page = await open(start);
    await waitVerdict(page, start);
    await dragMove(page, 'b7', 'b8');
    const choice = page.locator('syzygy-board .sb-promo-choice[aria-label="Promote to knight"]');
    await choice.waitFor();
    // Turning the board drops the choice, which stood over squares the turn moves.
    await page.locator('body').press('f');
    await page.waitForFunction(() => !document.querySelector('syzygy-board .sb-promo-choice'));
    assert.equal(await fenInput(page), start);
    await page.locator('body').press('f');
    await dragMove(page, 'b7', 'b8');
    await choice.waitFor();
    await choice.click();
    const after = applyUci(start, 'b7b8n');
    await expectFen(page, after);
    const [cli] = cliProbe([after]);
    const v = await waitVerdict(page, after);
    assert.equal(v.headline, cli.wdl === 0 ? 'Draw' : v.headline);
    noErrors(page);
    await page.close();
  });

  it('edits a position with spare pieces, presets, the trash and the side to move', async () => {
    const page = await open('4k3/8/8/8/8/8/8/4K2R w - - 0 1');
    await waitVerdict(page);
    await page.click('syzygy-board button[aria-label="Edit position"]');
    // A king moved along its back rank beside its rook moves alone: the
    // editor places pieces, it does not castle (chessground's autoCastle
    // took the rook from h1 to f1 with it).
    await dragMove(page, 'e1', 'g1');
    await expectFen(page, '4k3/8/8/8/8/8/8/6KR w - - 0 1');
    await page.click('syzygy-board .sb-editor button:has-text("Clear board")');
    await expectFen(page, '8/8/8/8/8/8/8/8 w - - 0 1');

    // Drag kings and a queen from the spare bars.
    const spare = async (color, role, square) => {
      const box = await page.locator(`syzygy-board .sb-tool[data-tool="${color}-${role}"]`).boundingBox();
      await dragMouse(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, await squareCenter(page, square));
    };
    await spare('white', 'king', 'e1');
    await spare('black', 'king', 'e8');
    await spare('white', 'queen', 'd1');
    await expectFen(page, '4k3/8/8/8/8/8/8/3QK3 w - - 0 1');
    let v = await waitVerdict(page, '4k3/8/8/8/8/8/8/3QK3 w - - 0 1');
    assert.equal(v.headline, 'White wins');

    // Side to move.
    await page.click('syzygy-board .sb-seg[data-color="black"]');
    await expectFen(page, '4k3/8/8/8/8/8/8/3QK3 b - - 0 1');
    v = await waitVerdict(page, '4k3/8/8/8/8/8/8/3QK3 b - - 0 1');
    assert.equal(v.headline, 'White wins');

    // Drag the queen off the board: only kings are left.
    const d1 = await squareCenter(page, 'd1');
    const box = await page.locator('syzygy-board cg-board').boundingBox();
    await dragMouse(page, d1, { x: box.x + box.width + 200, y: d1.y });
    await expectFen(page, '4k3/8/8/8/8/8/8/4K3 b - - 0 1');
    v = await waitVerdict(page, '4k3/8/8/8/8/8/8/4K3 b - - 0 1');
    assert.equal(v.headline, 'Draw');
    assert.equal(v.tag, 'Insufficient material');

    // Tap-to-place with a selected spare piece, then remove it with the trash tool.
    await page.click('syzygy-board .sb-tool[data-tool="white-rook"]');
    await page.mouse.click(...Object.values(await squareCenter(page, 'a1')));
    await expectFen(page, '4k3/8/8/8/8/8/8/R3K3 b - - 0 1');
    await page.click('syzygy-board .sb-tool[data-tool="trash"]');
    await page.mouse.click(...Object.values(await squareCenter(page, 'a1')));
    await expectFen(page, '4k3/8/8/8/8/8/8/4K3 b - - 0 1');

    // Presets.
    for (const label of ['KRPvKR', 'KBNvK']) {
      await page.click(`syzygy-board .sb-chip:has-text("${label}")`);
      const fen = await fenInput(page);
      const [cli] = cliProbe([fen]);
      const pv = await waitVerdict(page, fen);
      assert.equal(pv.headline, expectedHeadline(cli), `${label}: ${fen}`);
    }

    // En passant: only squares where a pawn can take are offered.
    const noEp = '4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1';
    await page.fill('syzygy-board .sb-fen', noEp);
    await page.press('syzygy-board .sb-fen', 'Enter');
    await waitVerdict(page, noEp);
    assert.deepEqual(await page.$$eval('syzygy-board .sb-ep option', (os) => os.map((o) => o.value)), ['-', 'd6']);
    await page.selectOption('syzygy-board .sb-ep', 'd6');
    const ep = '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1';
    v = await waitVerdict(page, ep);
    assert.equal(v.headline, expectedHeadline(cliProbe([ep])[0]));
    // A piece moved elsewhere keeps the square the pawns still allow.
    await page.click('syzygy-board .sb-tool[data-tool="pointer"]');
    await dragMove(page, 'e1', 'f1');
    await expectFen(page, '4k3/8/8/3pP3/8/8/8/5K2 w - d6 0 1');
    assert.equal(await page.$eval('syzygy-board .sb-ep', (e) => e.value), 'd6');
    await dragMove(page, 'f1', 'e1');
    await expectFen(page, ep);

    // Halfmove clock: a running one drops the en passant square (a pawn's
    // double step sets it to 0, and the prober refuses the two together),
    // and choosing the square again sets it to 0.
    await page.fill('syzygy-board .sb-clock', '40');
    await page.press('syzygy-board .sb-clock', 'Tab');
    assert.match(await fenInput(page), / w - - 40 1$/);
    assert.equal(await page.$eval('syzygy-board .sb-ep', (e) => e.value), '-');
    await page.selectOption('syzygy-board .sb-ep', 'd6');
    await waitVerdict(page, ep);

    // Done: back to play mode with legal moves from the edited position.
    await page.click('syzygy-board .sb-editor button:has-text("Done")');
    assert.equal(await page.locator('syzygy-board .sb-spare').count(), 0);
    await page.waitForSelector('syzygy-board [role="option"][data-uci="e5d6"]', { timeout: 10000 });
    noErrors(page);
    await page.close();
  });

  it('the editor drops an en passant square beside a running clock: moving a piece never makes a refused position', async () => {
    // exd6 would expose the king on a5 to the rook: no capture, so the
    // prober takes the square with clock 5. With the rook gone the capture
    // is legal, which a square beside a running clock cannot be.
    const fen = '8/8/8/K2pP2r/8/8/8/7k w - d6 5 40';
    // Typed: a link's FEN with both comes mended (url.js), as the older editor wrote them.
    const page = await open('8/8/8/4k3/8/8/8/R3K3 w - - 0 1');
    await page.fill('syzygy-board .sb-fen', fen);
    await page.press('syzygy-board .sb-fen', 'Enter');
    await waitVerdict(page, fen);
    await page.click('syzygy-board button[aria-label="Edit position"]');
    await expectFen(page, '8/8/8/K2pP2r/8/8/8/7k w - - 5 40');
    await page.click('syzygy-board .sb-tool[data-tool="trash"]');
    await page.mouse.click(...Object.values(await squareCenter(page, 'h5')));
    const moved = '8/8/8/K2pP3/8/8/8/7k w - - 5 40';
    await expectFen(page, moved);
    const v = await waitVerdict(page, moved);
    assert.equal(v.headline, expectedHeadline(cliProbe([moved])[0]));
    noErrors(page);
    await page.close();
    // A link the older editor wrote with a capturable square and a running
    // clock (refused as illegal-position since 2026-11-30) loads mended.
    const old = await open('4k3/8/8/3pP3/8/8/8/4K3 w - d6 3 1');
    await waitVerdict(old, '4k3/8/8/3pP3/8/8/8/4K3 w - - 3 1');
    noErrors(old);
    await old.close();
  });

  it('a FEN typed into the box while editing is held as the editor holds positions: no castling rights', async () => {
    // It kept them: Done then gave the tables a position they refuse.
    const page = await open('8/8/8/4k3/8/8/8/R3K3 w - - 0 1');
    await waitVerdict(page, '8/8/8/4k3/8/8/8/R3K3 w - - 0 1');
    await page.click('syzygy-board button[aria-label="Edit position"]');
    await page.waitForSelector('syzygy-board .sb-root.sb-editing');
    await page.fill('syzygy-board .sb-fen', 'r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1');
    await page.press('syzygy-board .sb-fen', 'Enter');
    await expectFen(page, 'r3k3/8/8/8/8/8/8/4K2R w - - 0 1');
    await page.click('syzygy-board button[aria-label="Done editing"]');
    const v = await waitVerdict(page, 'r3k3/8/8/8/8/8/8/4K2R w - - 0 1');
    assert.equal(v.error, null);
    noErrors(page);
    await page.close();
  });

  it('opens a shared URL (#fen= and ?fen=) and loads a FEN typed into the box', async () => {
    const fen = '8/8/8/8/8/2k5/1p6/4K3 w - - 0 1';
    const [cli] = cliProbe([fen]);
    const page = await open(fen);
    const v = await waitVerdict(page, fen);
    assert.equal(v.headline, 'Black wins');
    assert.equal(v.headline, expectedHeadline(cli));
    await expectFen(page, fen);

    await page.goto(`${ctx.site.url}?fen=${encodeURIComponent('4k3/8/8/8/8/8/8/4K2R b - - 0 1')}`);
    await waitVerdict(page, '4k3/8/8/8/8/8/8/4K2R b - - 0 1');

    const typed = '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1';
    await page.fill('syzygy-board .sb-fen', typed);
    await page.press('syzygy-board .sb-fen', 'Enter');
    const s = await waitVerdict(page, typed);
    assert.equal(s.headline, 'Draw');
    assert.equal(s.tag, 'Stalemate');

    const mate = 'k7/1Q6/1K6/8/8/8/8/8 b - - 0 1';
    await page.fill('syzygy-board .sb-fen', mate);
    await page.press('syzygy-board .sb-fen', 'Enter');
    const m = await waitVerdict(page, mate);
    assert.equal(m.headline, 'White wins');
    assert.equal(m.tag, 'Checkmate');
    noErrors(page);
    await page.close();
  });

  it('explains errors: invalid FEN, castling, too many pieces, missing table, illegal position, network', async () => {
    const page = await newPage(ctx.browser);
    const cases = [
      ['r3k3/8/8/8/8/8/8/4K3 b q - 0 1', 'castling', 'Castling rights'],
      ['4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1', 'too-many-pieces', 'Too many pieces'],
      ['3rk3/8/8/8/8/8/8/QQ2K3 w - - 0 1', 'missing-table', 'Table not available'],
      ['4k3/8/8/8/8/8/8/4K2k w - - 0 1', 'illegal-position', 'Illegal position'],
    ];
    await page.goto(appUrl(ctx.site.url, '4k3/8/8/8/8/8/8/4K2R w - - 0 1'));
    await waitVerdict(page);
    // An invalid FEN changes nothing on the board: the notice says what is wrong.
    await page.fill('syzygy-board .sb-fen', '8/8/8/8 w - - 0 1');
    await page.press('syzygy-board .sb-fen', 'Enter');
    await page.waitForSelector('syzygy-board .sb-notice:not([hidden])');
    assert.match(await page.textContent('syzygy-board .sb-notice'), /not a valid position: the board needs 8 ranks/);
    assert.equal(await page.getAttribute('syzygy-board .sb-fen', 'aria-invalid'), 'true');
    assert.equal(await page.$eval('syzygy-board', (el) => el.fen), '4k3/8/8/8/8/8/8/4K2R w - - 0 1');
    for (const [fen, code, title] of cases) {
      await page.fill('syzygy-board .sb-fen', fen);
      await page.press('syzygy-board .sb-fen', 'Enter');
      await page.waitForFunction((code) => document.querySelector('syzygy-board .sb-verdict').dataset.error === code && !document.querySelector('syzygy-board .sb-verdict.sb-stale'), code, { timeout: 20000 });
      assert.equal(await page.textContent('syzygy-board .sb-verdict .sb-headline'), title, fen);
      const message = await page.textContent('syzygy-board .sb-verdict .sb-summary');
      assert.ok(message.length > 5, message);
    }
    // Castling rights the kings and rooks cannot have (what many tools
    // write by default) are illegal, with the same way out as valid ones.
    const bogus = '8/8/8/4k3/8/8/8/R3K3 w KQkq - 0 1';
    await page.fill('syzygy-board .sb-fen', bogus);
    await page.press('syzygy-board .sb-fen', 'Enter');
    await page.waitForFunction(() => document.querySelector('syzygy-board .sb-verdict').dataset.error === 'illegal-position', null, { timeout: 20000 });
    await page.click('syzygy-board .sb-fix:has-text("Probe without castling rights")');
    const cleaned = await waitVerdict(page, '8/8/8/4k3/8/8/8/R3K3 w - - 0 1');
    assert.equal(cleaned.headline, 'White wins');
    // Its mate distances join it (mate.js): the tables are made and kept.
    await page.waitForFunction(() => /^Mate in \d+/.test(document.querySelector('syzygy-board .sb-verdict-body .sb-dtm')?.textContent || ''), null, { timeout: 30000 });
    // A missing table is named as the host names its files, stronger side
    // first (black holds the queens here), once the host's coverage is known.
    await page.fill('syzygy-board .sb-fen', '1qq1k3/8/8/8/8/8/8/3RK3 w - - 0 1');
    await page.press('syzygy-board .sb-fen', 'Enter');
    await page
      .waitForFunction(() => /but not KQQvKR\b/.test(document.querySelector('syzygy-board .sb-verdict .sb-summary')?.textContent || ''), null, { timeout: 30000 })
      .catch(async (e) => assert.fail(`${e.message}: ${await page.textContent('syzygy-board .sb-verdict')}`));

    // Network failure: tables served by a server that is gone. KRvK was
    // shown above, and the tables made for its mate distances (mate.js)
    // answer it now, with them.
    const dead = `?tables=${encodeURIComponent(await deadUrl())}`;
    await page.goto(appUrl(ctx.site.url, '8/8/8/4k3/8/8/8/R3K3 w - - 0 1', dead));
    await page.waitForFunction(() => /^Mate in \d+/.test(document.querySelector('syzygy-board .sb-verdict-body .sb-dtm')?.textContent || ''), null, { timeout: 30000 });
    assert.equal(await page.textContent('syzygy-board .sb-verdict .sb-headline'), 'White wins');
    noErrors(page);
    await page.close();
    // In a context that made no table, the errors.
    const fresh = await newPage(ctx.browser);
    await fresh.goto(appUrl(ctx.site.url, '8/8/8/4k3/8/r7/8/3QK3 w - - 0 1', dead));
    await fresh.waitForFunction(() => document.querySelector('syzygy-board .sb-verdict').dataset.error === 'network', null, { timeout: 30000 });
    assert.equal(await fresh.textContent('syzygy-board .sb-verdict .sb-headline'), 'Network problem');
    // Its moves stay playable, without values.
    await fresh.waitForFunction(() => document.querySelectorAll('syzygy-board [role="option"][data-group="unknown"]').length > 0, null, { timeout: 30000 });
    assert.match(await fresh.textContent('syzygy-board .sb-moves-card'), /Values unavailable/);
    // Who wins KRvK needs no table: that stays, its DTZ said to be unknown.
    await fresh.goto(appUrl(ctx.site.url, '8/8/8/4k3/8/8/8/R3K3 w - - 0 1', dead));
    await fresh.waitForFunction(() => document.querySelector('syzygy-board .sb-verdict').dataset.error === 'network', null, { timeout: 30000 });
    assert.equal(await fresh.textContent('syzygy-board .sb-verdict .sb-headline'), 'White wins');
    assert.equal(await fresh.textContent('syzygy-board .sb-verdict .sb-dtz'), 'DTZ ? Not known: the table server could not be reached.');
    assert.equal(await fresh.textContent('syzygy-board .sb-mainline'), 'Best line unavailable: the table server could not be reached.');
    noErrors(fresh);
    await fresh.context().close();
  });

  it('keeps the verdict when the moves’ values fail after it, and Retry brings them', async () => {
    // Drawn with White to move and no capture: the verdict reads KRPvKR
    // alone; the replies' captures of the pawn need KRvKR, which fails.
    const fen = '8/8/3k4/8/3P4/8/1r6/3K1R2 w - - 0 1';
    const [cli] = cliProbe([fen]);
    await ctx.site.setFaults({ match: '/KRvKR.', mode: 'status', status: 500 });
    const page = await newPage(ctx.browser);
    try {
      await page.goto(appUrl(ctx.site.url, fen));
      const v = await waitVerdict(page, fen);
      assert.equal(v.headline, expectedHeadline(cli));
      assert.equal(v.incomplete, 'network');
      assert.match(await page.textContent('syzygy-board .sb-verdict .sb-incomplete'), /^The moves’ values did not arrive: the table server could not be reached\.$/);
      assert.equal(await page.textContent('syzygy-board .sb-mainline'), 'Drawn: no line to force.');
      // The moves stay, playable, headed by why they have no values.
      const listed = await page.$$eval('syzygy-board .sb-group[data-group="unknown"] [role="option"]', (els) => els.map((e) => e.dataset.uci).sort());
      assert.deepEqual(listed, cli.moves.map((m) => m.uci).sort());
      assert.match(await page.textContent('syzygy-board .sb-group[data-group="unknown"]'), /Values unavailable/);
      await ctx.site.setFaults([]);
      await page.click('syzygy-board .sb-verdict .sb-fix:has-text("Retry")');
      await page.waitForFunction(() => {
        const card = document.querySelector('syzygy-board .sb-verdict');
        return !card.dataset.error && !card.classList.contains('sb-stale') && !document.querySelector('syzygy-board .sb-group[data-group="unknown"]');
      }, null, { timeout: 20000 });
      const ranked = await page.$$eval('syzygy-board [role="option"]', (els) => els.map((e) => e.dataset.uci));
      assert.deepEqual(ranked, cli.moves.map((m) => m.uci));
      noErrors(page);
    } finally {
      await ctx.site.setFaults([]);
      await page.close();
    }
  });

  baseIt('plays moves outside the tables: too many pieces, castling rights (tb.legalMoves)', skip ? { skip } : { timeout: 60_000 }, async () => {
    const page = await open('4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1');
    await waitVerdict(page, '4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1');
    await page.waitForSelector('syzygy-board .sb-group[data-group="unknown"] [role="option"]', { timeout: 5000 });
    // Headed by why they have no values, not as moves of unknown result.
    assert.equal(await page.textContent('syzygy-board .sb-group[data-group="unknown"] .sb-group-label'), 'Values unavailable');
    await dragMove(page, 'e1', 'd1');
    await expectFen(page, '4k3/pppppppp/8/8/8/8/8/3K4 b - - 1 1');

    // Castling is a legal move even though the tables hold no such positions.
    const castle = 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1';
    await page.goto(appUrl(ctx.site.url, castle));
    const v = await waitVerdict(page, castle);
    // Too many pieces is named first: removing the rights would not bring it into the tables.
    assert.equal(v.error, 'too-many-pieces');
    await page.waitForSelector('syzygy-board [role="option"][data-uci="e1g1"]', { timeout: 5000 });
    await dragMove(page, 'e1', 'g1');
    await expectFen(page, 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1');
    noErrors(page);
    await page.close();
  });
});
