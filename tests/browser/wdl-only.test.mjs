// A host of WDL tables alone (as most 6- and 7-piece mirrors are): a probe
// that needs a DTZ table rejects `missing-table`, and its error's `result`
// holds what the WDL tables still answer (the position's WDL and every
// move's, ranked), equal to the CLI's answer on the same folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TABLES, CLI, skipReason, startServers, launch, openTablebase, legalPositions } from './helpers.mjs';

const skip = skipReason();

/** The CLI's JSON lines for `fens` over the tables in `dir`. */
function cliOver(dir, fens) {
  let out;
  try {
    out = execFileSync(CLI, ['probe', '--json', '--path', dir], { input: fens.join('\n') + '\n', encoding: 'utf8' });
  } catch (err) {
    if (err.status !== 1) throw err;
    out = err.stdout;
  }
  return out.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

describe('a host of WDL tables alone', { skip }, () => {
  let browser;
  let servers;
  let dir;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syzygy-wdl-only-'));
    for (const f of fs.readdirSync(TABLES).filter((f) => f.endsWith('.rtbw'))) fs.symlinkSync(path.join(TABLES, f), path.join(dir, f));
    browser = await launch();
    servers = await startServers({ tables: [dir] });
  });
  after(async () => {
    await browser?.close();
    await servers?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("probe rejects missing-table, with the WDL tables' answer as its result: the CLI's", async () => {
    const context = await browser.newContext();
    try {
      const page = await openTablebase(context, servers, { generate: 'never' });
      // The Lucena position, one with a running clock, and random ones.
      const fens = ['1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1', '8/8/8/4k3/8/8/8/R3K3 w - - 37 60', ...(await legalPositions(page, ['KQvKR', 'KRPvKR', 'KPvKP'], 4, 12))];
      const cli = cliOver(dir, fens);
      let partial = 0;
      for (const [i, fen] of fens.entries()) {
        const got = await page.evaluate(
          (f) => window.tb.probe(f).then((r) => ({ answer: r }), (e) => ({ code: e.code, message: e.message, result: e.result })),
          fen,
        );
        if (got.answer) {
          // (A draw, or a win by a zeroing move, needs no DTZ table.)
          assert.equal(cli[i].error, undefined, fen);
          continue;
        }
        assert.equal(got.code, 'missing-table', fen);
        assert.match(got.message, /\.rtbz/, fen);
        assert.ok(got.result, `${fen}: no result on the error`);
        const { error: a, ...ours } = got.result;
        const { error: b, ...theirs } = cli[i];
        assert.deepStrictEqual(ours, theirs, fen);
        assert.ok(ours.moves.length > 0 && ours.moves.every((m) => m.dtz === null && Number.isInteger(m.wdl)), fen);
        // The verdict alone (moves: false): the same, without the moves.
        const alone = await page.evaluate(
          (f) => window.tb.probe(f, { moves: false }).then((r) => ({ answer: r }), (e) => ({ code: e.code, result: e.result })),
          fen,
        );
        assert.equal(alone.code, 'missing-table', fen);
        const { error: c, ...verdict } = alone.result;
        assert.deepStrictEqual(verdict, { ...theirs, moves: [] }, fen);
        partial++;
      }
      assert.ok(partial >= 3, `${partial} positions answered from the WDL tables alone`);
    } finally {
      await context.close();
    }
  });
});
