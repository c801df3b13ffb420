// "Mate in N" on a board whose host serves Syzygy files (which hold no
// distance to mate): a 3-piece position gets its mate distances unasked, a
// 4-piece one once the visitor asks (then unasked, also after a reload),
// each from tables made in the browser and equal to the CLI's
// `probe --generate`; the host's DTZ and ranking stay, the best line goes
// to mate, and a 5-piece position is left as it was.
import { describe, it as baseIt } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { applyUci, pieceCount } from '../../www/src/chess.js';
import { CLI, skipReason, newPage, appUrl, waitVerdict, cliProbe, expectedDtzLabel, expectedHeadline, siteAndBrowser } from './helpers.mjs';

const skip = skipReason({ needCli: true });
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 300_000 }, fn);

const KRVK = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
// KQvKN, a win: a 4-piece material whose sub-tables are 3-piece.
const KQVKN = '8/8/3n4/4k3/8/8/8/1Q2K3 w - - 0 1';
// KPvK, a win whose DTZ and mate orders differ.
const KPVK = '8/8/1k6/8/8/4K3/4P3/8 w - - 0 1';
// KPvKP, a win that takes the pawn at once.
const KPVKP = '8/8/8/3k4/7p/6K1/5P2/8 w - - 0 1';
// KRvKR, a draw.
const KRVKR = '8/8/8/4k3/8/2r5/8/R3K3 w - - 0 1';
const FIVE = '8/8/8/4k3/8/2r5/8/R1B1K3 w - - 0 1';

/** The CLI's answer from tables it generates (`dtm` on the position and every move). */
function generated(fen) {
  return JSON.parse(execFileSync(CLI, ['probe', '--generate', '--json', fen], { encoding: 'utf8' }).trim());
}

const byUciDtm = (answer, uci) => answer.moves.find((m) => m.uci === uci).dtm;
const mateText = (dtm) => `${dtm > 0 ? 'Mate' : 'Mated'} in ${Math.ceil(Math.abs(dtm) / 2)}`;

/** Waits for the verdict's mate line, then reads it, the moves' mate badges and the DTZ shown. */
async function shownMate(page) {
  await page.waitForFunction(() => document.querySelector('syzygy-board .sb-verdict-body .sb-dtm'), null, { timeout: 240_000 });
  return page.evaluate(() => {
    const root = document.querySelector('syzygy-board');
    return {
      mate: root.querySelector('.sb-verdict-body .sb-dtm .sb-dtz-badge').textContent,
      dtz: root.querySelector('.sb-verdict .sb-dtz-badge').textContent,
      pending: !root.querySelector('.sb-verdict .sb-mate').hidden,
      moves: [...root.querySelectorAll('syzygy-board [role="option"]')].map((e) => ({ uci: e.dataset.uci, text: e.textContent })),
    };
  });
}

describe('"Mate in N" beside hosted tables', () => {
  const ctx = siteAndBrowser(skip);

  /** A fresh page on `fen`, once the host's verdict and moves are shown. */
  async function openAt(fen) {
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, fen));
    await waitVerdict(page, fen);
    return page;
  }
  /** The board to `fen` through the address, as a link or Back would. */
  const goTo = (page, fen) => page.evaluate((f) => (location.hash = `fen=${f.replace(/ /g, '_')}`), fen);
  /** The best line's plies shown. */
  const linePlies = (page) => page.$$eval('syzygy-board .sb-mainline-card button.sb-ply', (els) => els.map((e) => e.textContent));

  it('a 3-piece position: unasked, equal to the CLI\'s, the host\'s DTZ kept, the best line to mate', async () => {
    const [official] = cliProbe([KRVK]);
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, KRVK));
    const v = await waitVerdict(page, KRVK);
    // (The host's rounded DTZ, or already made exact by the mate distance.)
    assert.ok([expectedDtzLabel(official), `DTZ ${Math.abs(official.dtz)}`].includes(v.dtz), v.dtz);
    const made = generated(KRVK);
    const shown = await shownMate(page);
    assert.equal(shown.mate, mateText(made.dtm));
    // The host's DTZ stays, made exact where the mate distance decides its
    // rounding (n or n + 1 plies, and never above the DTM).
    assert.equal(official.precise, false, 'a rounded DTZ');
    assert.equal(Math.abs(made.dtm), Math.abs(official.dtz));
    assert.equal(shown.dtz, `DTZ ${Math.abs(official.dtz)}`);
    for (const m of shown.moves) {
      const host = official.moves.find((o) => o.uci === m.uci);
      const exact = host.precise || Math.abs(byUciDtm(made, m.uci)) === Math.abs(host.dtz);
      assert.ok(m.text.includes(`DTZ ${exact ? '' : '~'}${Math.abs(host.dtz)}`), `${m.uci}: ${m.text}`);
    }
    assert.equal(shown.pending, false);
    // Every move with a mate distance carries its badge, as the CLI counts it (from the mover's side).
    const byUci = new Map(made.moves.map((m) => [m.uci, m]));
    for (const m of shown.moves) {
      const dtm = byUci.get(m.uci).dtm;
      if (dtm < 0) assert.ok(m.text.includes(`Mate in ${Math.ceil((Math.abs(dtm) + 1) / 2)}`), `${m.uci}: ${m.text}`);
    }
    // The best line goes to mate, in as many plies as the DTM.
    await page.waitForFunction(() => /#/.test(document.querySelector('syzygy-board .sb-mainline-card')?.textContent || ''), null, { timeout: 60_000 });
    const plies = await linePlies(page);
    assert.equal(plies.length, made.dtm, plies.join(' '));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('moves ranked by mate distance within the host\'s categories, the best line\'s first move first', async () => {
    // The host ranks KPVK's moves by DTZ (e3f3, a pawn move in 2 plies,
    // before e3f4 and e3d4); the generated tables rank them by mate.
    const hostOrder = cliProbe([KPVK])[0].moves.map((m) => m.uci);
    const made = generated(KPVK);
    const mateOrder = made.moves.map((m) => m.uci);
    assert.notDeepEqual(hostOrder, mateOrder, 'a position whose two orders differ');
    const page = await openAt(KPVK);
    const shown = await shownMate(page);
    // Categories of 3-piece positions are the generated tables' own: the CLI's order.
    assert.deepEqual(shown.moves.map((m) => m.uci), mateOrder);
    await page.waitForFunction(() => /#/.test(document.querySelector('syzygy-board .sb-mainline-card')?.textContent || ''), null, { timeout: 60_000 });
    const [first] = await linePlies(page);
    assert.ok(first.endsWith(made.moves[0].san), `${first} against ${made.moves[0].san}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('a host\'s line into a 3-piece ending is played out to mate from there', async () => {
    // KPvKP: the host's line takes the pawn on its first move, then chains
    // DTZ in KPvK (pawn moves first); from there it is the line to mate.
    const page = await openAt(KPVKP);
    const child = applyUci(KPVKP, 'g3h4');
    assert.equal(pieceCount(child), 3);
    const dtm = Math.abs(generated(child).dtm);
    const ucis = () => page.$$eval('syzygy-board .sb-mainline-card button.sb-ply', (els) => els.map((e) => e.dataset.uci));
    await page.waitForFunction((n) => document.querySelectorAll('syzygy-board .sb-mainline-card button.sb-ply').length === n, 1 + dtm, { timeout: 60_000 });
    const line = await ucis();
    assert.equal(line[0], 'g3h4');
    // It ends in checkmate, as the CLI sees the position it reaches.
    const end = line.reduce(applyUci, KPVKP);
    assert.equal(generated(end).checkmate, true, end);
    assert.match((await linePlies(page)).at(-1), /#/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('a host\'s line that gives material away in a 4-piece ending says so, and is played out to mate once asked', async () => {
    // The Lucena position: the host's line reaches KQRvK, where DTZ play
    // gives the queen away (a capture comes sooner than mate).
    const fen = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';
    const page = await openAt(fen);
    const note = page.locator('syzygy-board .sb-mainline-card .sb-line-note');
    await note.waitFor({ timeout: 60_000 });
    const ucis = () => page.$$eval('syzygy-board .sb-mainline-card button.sb-ply', (els) => els.map((e) => e.dataset.uci));
    const host = await ucis();
    const fens = host.reduce((acc, u) => [...acc, applyUci(acc.at(-1), u)], [fen]);
    // The move it names is White's, in a 4-piece position, and Black's
    // reply takes what it gave: down to 3 pieces.
    const said = (await note.textContent()).match(/^(\d+)\.(\S+) gives up the (queen|rook|bishop|knight): in (K\w+) /);
    assert.ok(said, await note.textContent());
    const plies = await linePlies(page);
    const at = plies.findIndex((p) => p === `${said[1]}.${said[2]}`);
    assert.ok(at > 0, `${said[0]} in ${plies.join(' ')}`);
    assert.equal(pieceCount(fens[at + 1]), 4);
    assert.equal(pieceCount(fens[at + 2]), 3);
    assert.equal(said[4], 'KQRvK');
    // Asked: from the first 4-piece position on, the line to mate.
    await note.locator('button').click();
    await note.waitFor({ state: 'detached', timeout: 120_000 });
    const joined = await ucis();
    const first = fens.findIndex((f) => pieceCount(f) === 4);
    assert.deepEqual(joined.slice(0, first), host.slice(0, first));
    const dtm = Math.abs(generated(fens[first]).dtm);
    assert.equal(joined.length, first + dtm);
    const end = joined.reduce(applyUci, fen);
    assert.equal(generated(end).checkmate, true, end);
    // No piece of White's is taken on the way.
    const whites = (f) => f.split(' ')[0].replace(/[^A-Z]/g, '').length;
    assert.equal(whites(end), whites(fens[first]));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('a line that gave a piece away, met again once mate distances were asked for elsewhere, is played out to mate unasked', async () => {
    const fen = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';
    const page = await openAt(fen);
    await page.locator('syzygy-board .sb-mainline-card .sb-line-note').waitFor({ timeout: 60_000 });
    // Asked on a 4-piece position (the choice of "Find mate in N").
    await goTo(page, KQVKN);
    await waitVerdict(page, KQVKN);
    await page.locator('syzygy-board .sb-verdict .sb-mate button').click();
    await shownMate(page);
    // Back on the Lucena position: its cached host line is joined to mate.
    await goTo(page, fen);
    await waitVerdict(page, fen);
    await page.waitForFunction(() => {
      const plies = [...document.querySelectorAll('syzygy-board .sb-mainline-card button.sb-ply')];
      return plies.length && !plies.some((b) => /Qg6\+/.test(b.textContent)) && plies.at(-1).textContent.endsWith('#');
    }, null, { timeout: 120_000 });
    assert.equal(await page.locator('syzygy-board .sb-line-note').count(), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('a DTZ the clock left in doubt ("maybe") is settled by the mate distance', async () => {
    // At clock 73 KRvK's rounded DTZ (27 or 28 plies) may reach the 100th
    // ply; the mate in 27 plies says it is 27: a win in time.
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 73 1';
    const [host] = cliProbe([fen]);
    assert.equal(host.category, 'maybe-win');
    const made = generated(fen);
    assert.equal(made.category, 'win');
    const page = await openAt(fen);
    const shown = await shownMate(page);
    assert.equal(shown.mate, mateText(made.dtm));
    assert.equal(shown.dtz, `DTZ ${Math.abs(host.dtz)}`);
    assert.equal(await page.textContent('syzygy-board .sb-verdict .sb-headline'), expectedHeadline(made));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('a 4-piece position: asked once, then unasked after a reload', async () => {
    const page = await openAt(KQVKN);
    const button = page.locator('syzygy-board .sb-verdict .sb-mate button');
    await button.waitFor({ timeout: 20_000 });
    assert.match(await page.locator('syzygy-board .sb-verdict .sb-mate').textContent(), /Find mate in N.*your browser, once/);
    await button.click();
    const made = generated(KQVKN);
    const shown = await shownMate(page);
    assert.equal(shown.mate, mateText(made.dtm));
    assert.equal(shown.pending, false);
    // Asked for: the next visit's come unasked, from what IndexedDB kept.
    await page.reload();
    await waitVerdict(page, KQVKN);
    assert.equal((await shownMate(page)).mate, mateText(made.dtm));
    assert.equal(await button.count(), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('a solve that ends after the board moved on: back there, its mate and the line to mate, not the host\'s line', async () => {
    const page = await openAt(KQVKN);
    // The host's line is shown (and kept) first.
    await page.waitForFunction(() => document.querySelectorAll('syzygy-board .sb-mainline-card button.sb-ply').length > 0, null, { timeout: 60_000 });
    await page.locator('syzygy-board .sb-verdict .sb-mate button').click();
    // Away at once, to a position whose own mate needs the worker too.
    await goTo(page, KRVK);
    await waitVerdict(page, KRVK);
    // The left card's ask is gone with it.
    assert.equal(await page.locator('syzygy-board .sb-verdict .sb-mate button').count(), 0);
    await shownMate(page);
    await goTo(page, KQVKN);
    const made = generated(KQVKN);
    assert.equal((await shownMate(page)).mate, mateText(made.dtm));
    await page.waitForFunction((n) => document.querySelectorAll('syzygy-board .sb-mainline-card button.sb-ply').length === n, made.dtm, { timeout: 60_000 });
    assert.match((await linePlies(page)).at(-1), /#/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  for (const [what, fen] of [
    ['a 5-piece position', FIVE],
    // (No mate to find: "Find mate in N" is not offered.)
    ['a drawn 4-piece position', KRVKR],
  ]) {
    it(`${what} is left as the host answers it`, async () => {
      assert.equal(cliProbe([fen])[0].wdl === 0, fen === KRVKR);
      const page = await openAt(fen);
      // The best line's card settles where the ask would have come (both
      // come once the answer is whole, the ask right after): nothing is
      // asked of the generator.
      await page.waitForFunction(() => {
        const card = document.querySelector('syzygy-board .sb-mainline-card');
        return card.querySelector('button.sb-ply') || /Drawn: no line to force/.test(card.textContent);
      }, null, { timeout: 60_000 });
      await page.waitForTimeout(300);
      const mate = await page.evaluate(() => ({
        line: !document.querySelector('syzygy-board .sb-verdict .sb-mate').hidden,
        badge: !!document.querySelector('syzygy-board .sb-verdict .sb-dtm'),
      }));
      assert.deepEqual(mate, { line: false, badge: false });
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});
