// The full page's history and keyboard paths: every position shown is an
// entry that Back returns to with its played line, and the focus stays on
// the move list's side when the list changes under it. Expected moves come
// from the CLI on the same tables, computed here.
import { describe, it as baseIt } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, newPage, appUrl, waitVerdict, cliProbe, siteAndBrowser, dragMove } from './helpers.mjs';
import { applyUci } from '../../www/src/chess.js';

const skip = skipReason({ needCli: true });
// Without the prerequisites every test is reported as skipped, with the reason.
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 120_000 }, fn);

const ROOK = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
const QUEEN = '8/8/8/4k3/8/8/8/3QK3 w - - 0 1';

describe('history and focus', () => {
  const ctx = siteAndBrowser(skip);
  const expectFen = (page, fen) => page.waitForFunction((f) => document.querySelector('syzygy-board').fen === f, fen, { timeout: 10000 });
  const plies = (page) => page.locator('syzygy-board .sb-history .sb-ply').count();

  /** Plays the CLI's best move `n` times by clicking it in the list; the line of FENs. */
  async function playBest(page, fen, n) {
    const line = [fen];
    for (let i = 0; i < n; i++) {
      const [cli] = cliProbe([line[i]]);
      await page.click(`syzygy-board [role="option"][data-uci="${cli.moves[0].uci}"]`);
      line.push(applyUci(line[i], cli.moves[0].uci));
      await waitVerdict(page, line[i + 1]);
    }
    return line;
  }

  it('a loaded position is an entry: Back brings back the position and the line before it', async () => {
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, ROOK));
    await waitVerdict(page, ROOK);
    const line = await playBest(page, ROOK, 2);
    await page.fill('syzygy-board .sb-fen', QUEEN);
    await page.press('syzygy-board .sb-fen', 'Enter');
    await waitVerdict(page, QUEEN);
    assert.equal(await plies(page), 0);
    // The position shown, loaded again from the FEN box (without its
    // clocks): no second entry.
    const entries = await page.evaluate(() => history.length);
    await page.fill('syzygy-board .sb-fen', QUEEN.replace(/ 0 1$/, ''));
    await page.press('syzygy-board .sb-fen', 'Enter');
    await waitVerdict(page, QUEEN);
    assert.equal(await page.evaluate(() => history.length), entries);
    await page.goBack();
    await expectFen(page, line[2]);
    assert.equal(await plies(page), 2);
    await page.goForward();
    await expectFen(page, QUEEN);
    assert.equal(await plies(page), 0);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('the side-to-move switch is an entry: Back brings back the line it replaced', async () => {
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, ROOK));
    await waitVerdict(page, ROOK);
    const line = await playBest(page, ROOK, 2);
    await page.click('syzygy-board .sb-turn-btn');
    const toggled = line[2].replace(' w ', ' b ');
    await waitVerdict(page, toggled);
    assert.equal(await plies(page), 0);
    await page.goBack();
    await expectFen(page, line[2]);
    assert.equal(await plies(page), 2);
    await page.goForward();
    await expectFen(page, toggled);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('Back to a link with a short FEN keeps the played line', async () => {
    const page = await newPage(ctx.browser);
    // No clocks: the board shows the FEN with "0 1".
    await page.goto(`${ctx.site.url}#fen=8/8/8/4k3/8/8/8/R3K3_w_-_-`);
    await waitVerdict(page, ROOK);
    const line = await playBest(page, ROOK, 1);
    await page.goBack();
    await expectFen(page, ROOK);
    assert.equal(await plies(page), 1, 'the line was replaced');
    await page.goForward();
    await expectFen(page, line[1]);
    await page.close();
  });

  it('a FEN right after the # opens, its spaces encoded or not; another fragment leaves the board as it was', async () => {
    const page = await newPage(ctx.browser);
    await page.goto(`${ctx.site.url}#${encodeURIComponent(QUEEN)}`);
    await waitVerdict(page, QUEEN);
    await page.goto(`${ctx.site.url}#${ROOK}`);
    await expectFen(page, ROOK);
    await waitVerdict(page, ROOK);
    // (Not a position: an anchor.)
    await page.goto(`${ctx.site.url}#help`);
    await page.reload();
    await page.waitForFunction(() => document.querySelector('syzygy-board')?.fen);
    assert.notEqual(await page.evaluate(() => document.querySelector('syzygy-board').fen), ROOK);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('a reload keeps the played line; Back from the editor returns to it', async () => {
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, QUEEN));
    await waitVerdict(page, QUEEN);
    const line = await playBest(page, QUEEN, 2);
    await page.reload();
    await waitVerdict(page, line[2]);
    assert.equal(await plies(page), 2);
    await page.keyboard.press('ArrowLeft');
    await expectFen(page, line[1]);

    await page.click('syzygy-board button[aria-label="Edit position"]');
    await page.waitForSelector('syzygy-board .sb-root.sb-editing');
    assert.equal(await plies(page), 0);
    await page.goBack();
    await page.waitForSelector('syzygy-board .sb-root:not(.sb-editing)');
    await expectFen(page, line[1]);
    assert.equal(await plies(page), 2);

    // The same from the line's first position: its one-position line in
    // the editor matched the entry's first position, and Back kept it
    // instead of the played line.
    await page.keyboard.press('Home');
    await expectFen(page, QUEEN);
    await page.click('syzygy-board button[aria-label="Edit position"]');
    await page.waitForSelector('syzygy-board .sb-root.sb-editing');
    await page.goBack();
    await page.waitForSelector('syzygy-board .sb-root:not(.sb-editing)');
    await expectFen(page, QUEEN);
    assert.equal(await plies(page), 2);
    await page.keyboard.press('ArrowRight');
    await expectFen(page, line[1]);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('Back from the editor on a page opened from a link leaves the editor at the link\'s position', async () => {
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, QUEEN));
    await waitVerdict(page, QUEEN);
    await page.click('syzygy-board button[aria-label="Edit position"]');
    await page.waitForSelector('syzygy-board .sb-root.sb-editing');
    await page.goBack();
    await page.waitForSelector('syzygy-board .sb-root:not(.sb-editing)');
    await expectFen(page, QUEEN);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('opening the editor on a position the address already holds is an entry', async () => {
    // Loaded from the FEN box (an entry whose line is that one position),
    // then Edit: the editor's line matched it, so no entry was added and
    // Back went to the position before, the edits kept only by Forward.
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, ROOK));
    await waitVerdict(page, ROOK);
    await page.fill('syzygy-board .sb-fen', QUEEN);
    await page.press('syzygy-board .sb-fen', 'Enter');
    await waitVerdict(page, QUEEN);
    const entries = await page.evaluate(() => history.length);
    await page.click('syzygy-board button[aria-label="Edit position"]');
    await page.waitForSelector('syzygy-board .sb-root.sb-editing');
    assert.equal(await page.evaluate(() => history.length), entries + 1);
    await page.goBack();
    await page.waitForSelector('syzygy-board .sb-root:not(.sb-editing)');
    await expectFen(page, QUEEN);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('the editor closed unchanged takes its entry back and returns the played line', async () => {
    // Its opening is an entry; closed with nothing changed, the entry
    // stayed (the same position twice for Back) and the line was the
    // editor's one position.
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, QUEEN));
    await waitVerdict(page, QUEEN);
    const line = await playBest(page, QUEEN, 2);
    await page.keyboard.press('ArrowLeft');
    await expectFen(page, line[1]);
    for (const close of ['button[aria-label="Done editing"]', '.sb-editor button:text("Done")']) {
      await page.click('syzygy-board button[aria-label="Edit position"]');
      await page.waitForSelector('syzygy-board .sb-root.sb-editing');
      assert.equal(await plies(page), 0);
      await page.click(`syzygy-board ${close}`);
      await page.waitForSelector('syzygy-board .sb-root:not(.sb-editing)');
      await page.waitForFunction(() => !history.state?.editing);
      await expectFen(page, line[1]);
      assert.equal(await plies(page), 2);
    }
    await page.goBack();
    await expectFen(page, line[2]);
    // Changed in the editor: the edit stays, its entry too.
    await page.click('syzygy-board button[aria-label="Edit position"]');
    await page.waitForSelector('syzygy-board .sb-root.sb-editing');
    await page.click('syzygy-board .sb-editor button[data-color="black"]');
    await page.click('syzygy-board button[aria-label="Done editing"]');
    await page.waitForSelector('syzygy-board .sb-root:not(.sb-editing)');
    await expectFen(page, line[2].replace(' w ', ' b '));
    await page.goBack();
    await expectFen(page, line[2]);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it("a second press of e before the unchanged close's Back lands waits for it", async () => {
    // The second press closed the editor again at once and rewrote the
    // editor's entry as a plain one (left as Forward), before that Back
    // came: the editor's entry must stay as it was.
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, QUEEN));
    await waitVerdict(page, QUEEN);
    const line = await playBest(page, QUEEN, 1);
    await page.keyboard.press('e');
    await page.waitForSelector('syzygy-board .sb-root.sb-editing');
    const id = await page.evaluate(() => history.state?.editing);
    assert.ok(id);
    // Both presses in one task: the Back of the first cannot land between them.
    await page.evaluate(() => {
      for (let i = 0; i < 2; i++) document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'e', bubbles: true }));
    });
    await page.waitForSelector('syzygy-board .sb-root:not(.sb-editing)');
    await page.waitForFunction(() => !history.state?.editing);
    await expectFen(page, line[1]);
    assert.equal(await plies(page), 1);
    await page.goForward();
    await page.waitForFunction((want) => history.state?.editing === want, id);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('the editor opened and closed on a page opened from a link leaves a board to play on', async () => {
    // No move played: the entry before the editor's holds the same one
    // position, and Back from the close must still redraw the board for
    // play (the pieces could not be moved).
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, QUEEN));
    await waitVerdict(page, QUEEN);
    const entries = await page.evaluate(() => history.length);
    await page.keyboard.press('e');
    await page.waitForSelector('syzygy-board .sb-root.sb-editing');
    await page.keyboard.press('e');
    await page.waitForSelector('syzygy-board .sb-root:not(.sb-editing)');
    await page.waitForFunction(() => !history.state?.editing);
    const [cli] = cliProbe([QUEEN]);
    const uci = cli.moves[0].uci;
    await dragMove(page, uci.slice(0, 2), uci.slice(2, 4));
    await expectFen(page, applyUci(QUEEN, uci));
    // A FEN typed in the editor is an entry: edited back to the opening's
    // position and closed, the editor's entries stay.
    await page.keyboard.press('e');
    await page.waitForSelector('syzygy-board .sb-root.sb-editing');
    const opened = await page.evaluate(() => document.querySelector('syzygy-board').fen);
    await page.fill('syzygy-board .sb-fen', ROOK);
    await page.press('syzygy-board .sb-fen', 'Enter');
    await expectFen(page, ROOK);
    await page.fill('syzygy-board .sb-fen', opened);
    await page.press('syzygy-board .sb-fen', 'Enter');
    await expectFen(page, opened);
    const before = await page.evaluate(() => history.length);
    await page.click('syzygy-board button[aria-label="Done editing"]');
    await page.waitForSelector('syzygy-board .sb-root:not(.sb-editing)');
    await expectFen(page, opened);
    assert.equal(await page.evaluate(() => history.length), before);
    assert.ok(before > entries);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('a key held down is one history entry', async () => {
    // Each repeat pushed an entry: past about a hundred in a few seconds
    // browsers refuse more, and the address stopped following the board.
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, QUEEN));
    await waitVerdict(page, QUEEN);
    const line = await playBest(page, QUEEN, 3);
    const entries = await page.evaluate(() => history.length);
    const key = (repeat) => page.evaluate((repeat) => document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', repeat, bubbles: true, cancelable: true })), repeat);
    await key(false);
    await key(true);
    await key(true);
    await expectFen(page, line[0]);
    // The address follows once the key rests.
    await page.waitForFunction((board) => location.hash.startsWith(`#fen=${board}`), line[0].split(' ')[0]);
    assert.equal(await page.evaluate(() => history.length), entries + 1);
    await page.goBack();
    await expectFen(page, line[3]);
    // A step right after the key rests, before its address is written:
    // Back returns where the held key stopped (it returned to where the key
    // was first pressed, its address dropped).
    await page.goForward();
    await expectFen(page, line[0]);
    await page.evaluate(() => {
      const press = (key, repeat) => document.body.dispatchEvent(new KeyboardEvent('keydown', { key, repeat, bubbles: true, cancelable: true }));
      press('End', false);
      press('ArrowLeft', false);
      press('ArrowLeft', true);
      press('ArrowLeft', true);
      press('ArrowRight', false);
    });
    await expectFen(page, line[1]);
    await page.goBack();
    await expectFen(page, line[0]);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('Back to the position a link opened keeps the line played after it, through the editor and a reload', async () => {
    // That entry had no line: the editor opened there and closed unchanged
    // brought back the position alone, and so did a reload.
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, ROOK));
    await waitVerdict(page, ROOK);
    await playBest(page, ROOK, 2);
    await page.goBack();
    await page.goBack();
    await expectFen(page, ROOK);
    assert.equal(await plies(page), 2);
    await page.click('syzygy-board button[aria-label="Edit position"]');
    await page.waitForSelector('syzygy-board .sb-root.sb-editing');
    await page.click('syzygy-board button[aria-label="Done editing"]');
    await page.waitForSelector('syzygy-board .sb-root:not(.sb-editing)');
    await page.waitForFunction(() => !history.state?.editing);
    await expectFen(page, ROOK);
    assert.equal(await plies(page), 2);
    await page.reload();
    await waitVerdict(page, ROOK);
    assert.equal(await plies(page), 2);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it("a link pasted into the address bar that names Black's side turns the board; one that names none keeps it", async () => {
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, ROOK));
    await waitVerdict(page, ROOK);
    // (A hash set from outside the board: an entry it did not write, as typed.)
    await page.evaluate((fen) => (location.hash = `fen=${fen.replace(/ /g, '_')}&o=black`), QUEEN);
    await expectFen(page, QUEEN);
    await page.waitForSelector('syzygy-board .cg-wrap.orientation-black');
    assert.match(await page.evaluate(() => location.hash), /&o=black$/);
    await page.evaluate((fen) => (location.hash = `fen=${fen.replace(/ /g, '_')}`), ROOK);
    await expectFen(page, ROOK);
    await waitVerdict(page, ROOK);
    assert.equal(await page.locator('syzygy-board .cg-wrap.orientation-black').count(), 1);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('a flipped board stays flipped through a move, a reload and Back', async () => {
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, ROOK));
    await waitVerdict(page, ROOK);
    const line = await playBest(page, ROOK, 1);
    await page.keyboard.press('f');
    await page.waitForSelector('syzygy-board .cg-wrap.orientation-black');
    assert.match(await page.evaluate(() => location.hash), /&o=black$/);
    const more = await playBest(page, line[1], 1);
    assert.match(await page.evaluate(() => location.hash), /&o=black$/);
    await page.reload();
    await waitVerdict(page, more[1]);
    await page.waitForSelector('syzygy-board .cg-wrap.orientation-black');
    // Back to an entry written before the flip: the board stays flipped,
    // and so does that entry's address (a reload there keeps it).
    await page.goBack();
    await expectFen(page, line[1]);
    await page.goBack();
    await expectFen(page, ROOK);
    await page.waitForFunction(() => location.hash.endsWith('&o=black'));
    await page.reload();
    await waitVerdict(page, ROOK);
    await page.waitForSelector('syzygy-board .cg-wrap.orientation-black');
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('the move list never offers the previous position\'s moves', async () => {
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, ROOK));
    await waitVerdict(page, ROOK);
    const [cli] = cliProbe([ROOK]);
    const next = applyUci(ROOK, cli.moves[0].uci);
    // Read in the same task as the click: before any answer for the new position.
    const shown = await page.evaluate((uci) => {
      document.querySelector(`syzygy-board [role="option"][data-uci="${uci}"]`).click();
      return [...document.querySelectorAll('syzygy-board [role="option"]')].map((o) => o.dataset.uci).sort();
    }, cli.moves[0].uci);
    const [after] = cliProbe([next]);
    assert.deepEqual(shown, after.moves.map((m) => m.uci).sort());
    await waitVerdict(page, next);
    await page.close();
  });

  it('a move that mates from the keyboard leaves the focus on the list\'s message', async () => {
    const fen = '7k/8/6K1/8/8/8/8/R7 w - - 0 1';
    const [cli] = cliProbe([fen]);
    assert.ok(cli.moves[0].checkmate, 'the best move mates');
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    await page.focus('syzygy-board [role="listbox"]');
    assert.equal(await page.getAttribute('syzygy-board [role="listbox"]', 'aria-activedescendant'), await page.$eval(`syzygy-board [role="option"][data-uci="${cli.moves[0].uci}"]`, (o) => o.id));
    await page.keyboard.press('Enter');
    await waitVerdict(page, applyUci(fen, cli.moves[0].uci));
    assert.equal(await page.evaluate(() => document.activeElement.className), 'sb-empty');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Checkmate: no moves.');
    // Back from the keyboard: the focus returns to the list, on its first move.
    await page.evaluate(() => history.back());
    await waitVerdict(page, fen);
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('role')), 'listbox');
    // Played moves are buttons in a group (a listitem role would hide the button).
    assert.equal(await page.getAttribute('syzygy-board .sb-history', 'role'), 'group');
    assert.equal(await page.locator('syzygy-board .sb-history button[role]').count(), 0);
    await page.close();
  });

  it('a FEN box edited back to the position follows the next move', async () => {
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, ROOK));
    await waitVerdict(page, ROOK);
    const box = 'syzygy-board .sb-fen';
    await page.focus(box);
    await page.keyboard.press('End');
    await page.keyboard.type('x');
    await page.keyboard.press('Backspace');
    assert.equal(await page.inputValue(box), ROOK);
    const line = await playBest(page, ROOK, 1);
    assert.equal(await page.inputValue(box), line[1]);
    await page.close();
  });
});
