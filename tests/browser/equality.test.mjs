// The wasm package in Chromium answers exactly as the native CLI does: the
// same JSON object for ~60 seeded positions over 3-4-5 piece tables, and the
// same error code (and message) for FENs that cannot be probed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, suiteBrowser, tablebasePage, probeAll, cliProbe, legalPositions, tbStats } from './helpers.mjs';

const skip = skipReason();

// Hand-picked: special cases the random ones may miss.
const FIXED = [
  '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1', // KPvK
  '8/8/8/4k3/8/8/8/4K3 w - - 0 1', // bare kings: no table needed
  '7k/6Q1/6K1/8/8/8/8/8 b - - 0 1', // checkmate
  '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', // stalemate
  '8/8/8/8/3pP3/8/8/K6k b - e3 0 1', // en passant
  '8/4P3/8/8/8/k7/8/K7 w - - 0 1', // promotions to every piece
  '8/8/8/4k3/8/8/8/R3K3 w - - 90 120', // halfmove clock near 100
  '8/8/8/4k3/8/8/8/2BNK3 w - - 0 1', // KBNvK
  '8/8/8/4k3/8/8/8/2NNK3 w - - 0 1', // KNNvK: draw
  '8/8/8/4k3/8/3r4/8/3QK3 w - - 0 1', // KQvKR
  '8/8/4k3/8/3r4/3P4/8/3RK3 b - - 12 40', // KRPvKR, black to move
  '1q6/3P4/8/4k3/8/8/8/1Q2K3 w - - 0 1', // KQPvKQ with a promotion
  '8/8/8/4k3/8/8/8/1BBBK3 w - - 0 1', // KBBBvK
  '8/8/8/2r1k3/8/8/8/R3K3 w - - 0 1', // KRvKR
  '8/1P6/8/8/8/8/6k1/K7 b - - 0 1', // KPvK, black to move
  '1kB5/3K4/8/pP6/8/8/8/8 w - a6 0 1', // KBPvKP absent: e.p. wins, other moves carry missing-table
];

// Mainlines: the longest cursed line here (KRBvKR, DTZ 110), a rounded DTZ
// near the 50-move edge, a draw, a checkmated position.
const LINES = [
  '1k6/8/r7/2KB4/6R1/8/8/8 w - - 0 1',
  '8/8/8/4k3/8/8/8/R3K3 w - - 74 80',
  '8/8/8/2r1k3/8/8/8/R3K3 w - - 0 1',
  'Q6k/8/6K1/8/8/8/8/8 b - - 100 100',
];

// Bad input: the CLI prints {fen, error, code}; the browser rejects with the same.
const ERRORS = [
  'bad',
  '8/8/8/8 w - - 0 1',
  'r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1', // castling rights
  'k7/pppp4/8/8/8/8/PP6/K7 w - - 0 1', // 8 pieces
  '8/8/8/8/8/8/2k5/K1Q5 w - - 0 1', // illegal: the side not to move is in check
  '8/8/8/8/8/8/8/Kk6 w - - 0 1', // illegal: kings touch
  'P7/8/8/8/8/8/8/K1k5 w - - 0 1', // pawn on the last rank
  'k7/ppp5/8/8/8/8/PP6/K7 w - - 0 1', // 6 pieces: no such table here
];

const MATERIALS = [
  'KQvK', 'KRvK', 'KPvK', 'KBNvK', 'KNNvK', 'KPvKP', 'KQvKR', 'KRvKB', 'KBvKP', 'KRPvK',
  'KQPvK', 'KRPvKR', 'KQPvKQ', 'KQRvKR', 'KRRvKR', 'KBBBvK', 'KQQvKQ', 'KRBvKR', 'KQNvKQ',
  'KRRPvK', 'KRvKQ', 'KPvKQ', 'KRvKRP',
];

describe('equality with the native CLI', { skip }, () => {
  const env = suiteBrowser(tablebasePage);

  it('~61 positions over 3-4-5 pieces: the same object, field by field', async () => {
    const random = await legalPositions(env.page, MATERIALS, 45, 0x5eed);
    const fens = [...FIXED, ...random];
    const cli = cliProbe(fens);
    const web = await probeAll(env.page, fens);
    let answered = 0;
    for (let i = 0; i < fens.length; i++) {
      assert.ok(!cli[i].error, `the CLI failed on ${fens[i]}: ${cli[i].error}`);
      assert.deepStrictEqual(web[i], cli[i], fens[i]);
      answered++;
    }
    assert.equal(answered, 61);
    // And again warm: nothing changes once the pages are cached.
    const before = (await tbStats(env.page)).requests;
    assert.deepStrictEqual(await probeAll(env.page, fens), cli);
    assert.equal((await tbStats(env.page)).requests, before, 'warm probes made requests');
  });

  it('mainlines: the moves of the CLI --mainline, one probe per step', async () => {
    const cli = cliProbe(LINES, ['--mainline']);
    const web = await env.page.evaluate((fens) => Promise.all(fens.map((f) => window.tb.mainline(f))), LINES);
    for (let i = 0; i < LINES.length; i++) {
      assert.deepStrictEqual(
        [web[i].wdl, web[i].dtz, web[i].precise, web[i].moves.map((m) => m.uci)],
        [cli[i].wdl, cli[i].dtz, cli[i].precise, cli[i].mainline],
        LINES[i],
      );
    }
    assert.equal(web[0].moves.length, 111);
    assert.ok(web[0].moves.at(-1).zeroing);
    assert.equal(web[2].moves.length, 0);
  });

  it('lines to the end: through every zeroing move to mate, each phase within its DTZ', async () => {
    // Won positions whose best line zeroes several times. In the Lucena
    // position the phase after the capture on d1 ends with a zeroing
    // capture on its last ply allowed (DTZ 4, 5 plies): the line once
    // stopped there, 28 plies in, short of mate.
    const wins = ['1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1', '8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1', '8/1P6/8/8/8/8/6k1/K7 w - - 0 1'];
    const lines = await env.page.evaluate((fens) => Promise.all(fens.map((f) => window.tb.mainline(f, { toEnd: true }))), wins);
    const first = cliProbe(wins, ['--mainline']);
    for (let i = 0; i < wins.length; i++) {
      const { moves } = lines[i];
      assert.ok(moves.at(-1)?.san.endsWith('#'), `${wins[i]}: the line ends with ${moves.at(-1)?.san} after ${moves.length} plies`);
      // Its first phase is the CLI's line to the next zeroing move.
      assert.deepStrictEqual(moves.slice(0, first[i].mainline.length).map((m) => m.uci), first[i].mainline, wins[i]);
      // Sides alternate, the winner's moves keep the win, and a phase
      // (from a zeroing move to the next) is no longer than the DTZ it
      // starts with, one more where that DTZ is rounded.
      let phase = { start: 0, dtz: lines[i].dtz };
      moves.forEach((m, k) => {
        assert.equal(Math.sign(m.wdl), k % 2 ? 1 : -1, `${wins[i]}: ply ${k + 1} (${m.san}) wdl ${m.wdl}`);
        const plies = k + 1 - phase.start;
        assert.ok(plies <= Math.abs(phase.dtz) + 1, `${wins[i]}: ${plies} plies into a phase of DTZ ${phase.dtz} at ${m.san}`);
        if (m.zeroing) phase = { start: k + 1, dtz: m.dtz };
      });
    }
  });

  it('errors: the same code (and message) as the CLI', async () => {
    const cli = cliProbe(ERRORS);
    const web = await probeAll(env.page, ERRORS);
    const seen = new Set();
    for (let i = 0; i < ERRORS.length; i++) {
      const fen = ERRORS[i];
      if (!cli[i].error) {
        // A FEN the CLI can answer must be answered identically.
        assert.deepStrictEqual(web[i], cli[i], fen);
        continue;
      }
      assert.ok(web[i].error, `${fen}: the browser answered ${JSON.stringify(web[i]).slice(0, 200)}`);
      assert.equal(web[i].code, cli[i].code, `${fen}: ${web[i].error}`);
      if (cli[i].code === 'missing-table') assert.match(web[i].error, /KPPPvKPP\.rtbw/);
      else assert.equal(web[i].error, cli[i].error, fen);
      seen.add(cli[i].code);
    }
    for (const code of ['invalid-fen', 'castling', 'too-many-pieces', 'illegal-position', 'missing-table']) {
      assert.ok(seen.has(code), `no error case produced ${code}`);
    }
  });
});
