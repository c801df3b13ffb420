// The verdict, DTZ and move list shown in the browser equal the CLI's answers
// for a seeded set of random positions (plus a few fixed special cases).
import { describe, it as baseIt } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { CLI, skipReason, newPage, appUrl, waitVerdict, cliProbe, expectedHeadline, expectedDtzLabel, rng, siteAndBrowser } from './helpers.mjs';
import { makeFen, inCheck, squareName, applyUci } from '../../www/src/chess.js';

const skip = skipReason({ needCli: true });
// Without the prerequisites every test is reported as skipped, with the reason.
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 180_000 }, fn);
const SEED = Number(process.env.E2E_SEED || 20240531);
const COUNT = Number(process.env.E2E_POSITIONS || 30);

const MATERIALS = ['KQvK', 'KRvK', 'KPvK', 'KBNvK', 'KNNvK', 'KRPvKR', 'KQPvKQ', 'KPvKP', 'KRvKB', 'KQvKR', 'KBPvK', 'KRvKN', 'KQRvKQ', 'KRBvKR', 'KBvKP'];
const ROLE = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };

/** A random legal-looking position of a material (no castling, no en passant). */
function randomPosition(material, rand, halfmove = 0) {
  for (;;) {
    const pieces = new Map();
    const [white, black] = material.split('v');
    const put = (letter, color) => {
      for (;;) {
        const f = Math.floor(rand() * 8);
        const r = letter === 'P' ? 1 + Math.floor(rand() * 6) : Math.floor(rand() * 8);
        const sq = squareName(f, r);
        if (!pieces.has(sq)) {
          pieces.set(sq, { role: ROLE[letter], color });
          return sq;
        }
      }
    };
    [...white].forEach((l) => put(l, 'white'));
    [...black].forEach((l) => put(l, 'black'));
    const turn = rand() < 0.5 ? 'white' : 'black';
    const fen = makeFen({ pieces, turn, castling: '-', ep: '-', halfmove, fullmove: 1 });
    const other = makeFen({ pieces, turn: turn === 'white' ? 'black' : 'white', castling: '-', ep: '-', halfmove, fullmove: 1 });
    if (!inCheck(other)) return fen; // the side not to move must not be in check
  }
}

function seededPositions() {
  const rand = rng(SEED);
  const pool = [];
  for (let i = 0; i < 400; i++) pool.push(randomPosition(MATERIALS[i % MATERIALS.length], rand, i % 10 === 9 ? 20 + Math.floor(rand() * 70) : 0));
  const answers = cliProbe(pool).filter((a) => !a.error);
  // A spread over the outcomes: rare ones (cursed, blessed, maybe) first.
  const byKey = new Map();
  for (const a of answers) {
    const key = `${a.category}`;
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(a);
  }
  const picked = [];
  const order = [...byKey.keys()].sort((a, b) => byKey.get(a).length - byKey.get(b).length);
  for (let i = 0; picked.length < COUNT && i < 400; i++) for (const k of order) if (byKey.get(k)[i] && picked.length < COUNT) picked.push(byKey.get(k)[i]);
  const blessed = 'K7/P5Q1/8/2q3k1/8/8/8/8 b - - 0 1';
  const special = cliProbe([
    'k7/1Q6/1K6/8/8/8/8/8 b - - 0 1', // checkmate
    '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', // stalemate
    '4k3/8/8/8/8/8/8/4KB2 w - - 0 1', // insufficient material
    '8/8/8/8/8/2k5/1p6/4K3 w - - 0 1', // black wins
    blessed, // blessed loss (DTZ beyond 100)
    applyUci(blessed, 'g5h4'), // and the cursed win after Black's best move
    '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 60 1', // a win that still fits the halfmove clock
    '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 85 1', // too close to call: maybe-win
    '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 90 1', // the clock turns the win into a draw
    '8/8/8/8/8/2k5/1p6/4K3 w - - 99 1', // the clock saves the loser
  ]);
  return [...special, ...picked];
}

/** Whether the board joins mate distances to the host's answer (mate.js wantsMate, unasked: up to 3 pieces). */
const joinsMate = (cli) => !cli.checkmate && !cli.stalemate && !cli.insufficientMaterial && cli.moves.length > 0 && cli.fen.split(' ')[0].replace(/[^a-zA-Z]/g, '').length <= 3;

/** The CLI's answer from tables it generates. */
const generatedProbe = (fen) => JSON.parse(execFileSync(CLI, ['probe', '--generate', '--json', fen], { encoding: 'utf8' }).trim());

describe('verdicts equal the CLI', () => {
  const ctx = siteAndBrowser(skip);

  it(`shows the CLI's verdict, DTZ and ranked moves for ${COUNT} seeded positions (seed ${SEED})`, async () => {
    const positions = seededPositions();
    const categories = [...new Set(positions.map((p) => p.category))];
    console.log(`# ${positions.length} positions, categories: ${categories.join(', ')}`);
    const page = await newPage(ctx.browser);
    await page.goto(appUrl(ctx.site.url, positions[0].fen));
    for (const cli of positions) {
      await page.evaluate((fen) => {
        location.hash = `fen=${fen.replace(/ /g, '_')}`;
      }, cli.fen);
      await waitVerdict(page, cli.fen);
      // Up to 3 pieces the board joins mate distances from tables it makes
      // (mate.js): waited for where some move has one, and expected as the
      // CLI's generated answer gives them (its order within the host's
      // categories, which are its own for 3 pieces; a rounded DTZ that a
      // mate distance equals made exact).
      const made = joinsMate(cli) ? generatedProbe(cli.fen) : null;
      if (made && made.moves.some((m) => !m.checkmate && Number.isInteger(m.dtm) && m.dtm !== 0)) {
        await page.waitForFunction(() => document.querySelector('syzygy-board [role="option"] .sb-badge-dtm'), null, { timeout: 60_000 });
      }
      const v = await waitVerdict(page, cli.fen);
      const exact = (x, dtm) => x.precise === false && Math.abs(x.wdl) === 2 && Number.isInteger(dtm) && Math.abs(dtm) === Math.abs(x.dtz);
      const dtzLabel = (x, dtm) => (exact(x, dtm) ? `DTZ ${Math.abs(x.dtz)}` : expectedDtzLabel(x));
      assert.equal(v.headline, expectedHeadline(cli), `${cli.fen}: headline`);
      assert.equal(v.dtz, dtzLabel(cli, made && made.dtm), `${cli.fen}: DTZ`);
      if (cli.checkmate) assert.equal(v.tag, 'Checkmate');
      if (cli.stalemate) assert.equal(v.tag, 'Stalemate');
      // The clock is mentioned only where it decides or nearly decides the result (defect 10).
      const raw = { 2: 'win', '-2': 'loss' }[cli.wdl];
      const clockMatters = raw && cli.halfmoveClock > 0 && (cli.category !== raw || 100 - cli.halfmoveClock - Math.abs(cli.dtz) <= 10);
      const text = await page.$eval('syzygy-board .sb-verdict', (c) => c.textContent);
      if (clockMatters) assert.match(text, new RegExp(`halfmove clock (already )?stands at ${cli.halfmoveClock}`), `${cli.fen}: clock note`);
      else assert.doesNotMatch(text, /halfmove clock (already )?stands at/, `${cli.fen}: no clock note`);
      const shown = await page.$$eval('syzygy-board [role="option"]', (els) =>
        els.map((e) => ({ uci: e.dataset.uci, dtz: (e.querySelector('.sb-badge-dtz') || {}).textContent || null, group: e.dataset.group })),
      );
      const madeDtm = new Map(made ? made.moves.map((m) => [m.uci, m.dtm]) : []);
      const expected = made ? made.moves.map((m) => cli.moves.find((c) => c.uci === m.uci)) : cli.moves;
      assert.deepEqual(
        shown.map((m) => m.uci),
        expected.map((m) => m.uci),
        `${cli.fen}: move order`,
      );
      expected.forEach((m, i) => {
        const want = m.checkmate || m.dtz === 0 ? null : `DTZ ${m.precise === false && !exact(m, madeDtm.get(m.uci)) ? '~' : ''}${Math.abs(m.dtz)}`;
        assert.equal(shown[i].dtz, want, `${cli.fen} ${m.uci}: DTZ badge`);
        const group = m.checkmate ? 'win' : { loss: 'win', 'maybe-loss': 'win', 'blessed-loss': 'cursed', draw: 'draw', 'cursed-win': 'blessed', 'maybe-win': 'loss', win: 'loss' }[m.category];
        assert.equal(shown[i].group, group, `${cli.fen} ${m.uci}: group`);
      });
    }
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });

  it('answers what an absent table does not decide; the moves that need it say so; a mate on the 100th ply wins', async () => {
    const page = await newPage(ctx.browser);
    // The test tables lack KBPvKP: bxa6 e.p. wins at once, b6 and the king moves need the table.
    const fen = '1kB5/3K4/8/pP6/8/8/8/8 w - a6 0 1';
    const [cli] = cliProbe([fen]);
    await page.goto(appUrl(ctx.site.url, fen));
    const v = await waitVerdict(page, fen);
    assert.equal(v.headline, expectedHeadline(cli));
    const shown = await page.$$eval('syzygy-board [role="option"]', (els) =>
      els.map((e) => ({ uci: e.dataset.uci, group: e.dataset.group, badges: [...e.querySelectorAll('.sb-badge')].map((b) => [b.textContent, b.title]) })),
    );
    assert.deepEqual(shown.map((m) => m.uci), cli.moves.map((m) => m.uci));
    const missing = cli.moves.filter((m) => m.code === 'missing-table').map((m) => m.uci);
    assert.ok(missing.length > 0);
    for (const m of shown) {
      const noTable = m.badges.find(([text]) => text === 'No table');
      if (missing.includes(m.uci)) {
        assert.equal(m.group, 'unknown', m.uci);
        assert.match(noTable[1], /KBPvKP\.rtbw/, m.uci);
      } else {
        assert.ok(!noTable, m.uci);
      }
    }
    assert.equal(shown.find((m) => m.uci === 'b5a6').group, 'win');
    // Qb8# with the clock at 99: the mate is a win for the mover, the mated side has lost.
    const before = '7k/8/6K1/8/8/8/8/1Q6 w - - 99 60';
    await page.evaluate((f) => {
      location.hash = `fen=${f.replace(/ /g, '_')}`;
    }, before);
    await waitVerdict(page, before);
    const group = await page.$eval('syzygy-board [role="option"][data-uci="b1b8"]', (e) => e.dataset.group);
    assert.equal(group, 'win');
    const mated = applyUci(before, 'b1b8');
    await page.evaluate((f) => {
      location.hash = `fen=${f.replace(/ /g, '_')}`;
    }, mated);
    const m = await waitVerdict(page, mated);
    assert.deepEqual([m.headline, m.category], ['White wins', 'loss']);
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });
});
