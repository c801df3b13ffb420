// Tables generated in the browser (a Web Worker) against the official
// tables read by the native CLI: WDL, DTZ and the move list of seeded
// positions (either side the stronger); mate distances checked without an oracle (a position's DTM is
// what its moves give); a generated table read back from IndexedDB after a
// reload, offline, with no regeneration.
//
// By default the positions cover every 3-piece material and two 4-piece
// materials with few sub-tables (a pawnful 4-piece material pulls in most
// of the set: minutes of generation on a loaded 2-core machine);
// SYZYGY_GENERATE_ALL=1 covers every 3-4 piece material.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { skipReason, startServers, launch, launchPersistent, openTablebase, probeAll, tbStats, cliProbe, prng, randomFen, CLI, TABLES } from './helpers.mjs';

const skip = skipReason();
const ALL = !!process.env.SYZYGY_GENERATE_ALL;
const THREE = ['KQvK', 'KRvK', 'KPvK'];
const FOUR_DEFAULT = ['KRvKN', 'KBNvK'];
const FOUR_ALL = [
  'KQQvK', 'KQRvK', 'KQBvK', 'KQNvK', 'KRRvK', 'KRBvK', 'KRNvK', 'KBBvK', 'KBNvK', 'KNNvK',
  'KQvKQ', 'KQvKR', 'KQvKB', 'KQvKN', 'KRvKR', 'KRvKB', 'KRvKN', 'KBvKB', 'KBvKN', 'KNvKN',
  'KQPvK', 'KRPvK', 'KBPvK', 'KNPvK', 'KPPvK', 'KQvKP', 'KRvKP', 'KBvKP', 'KNvKP', 'KPvKP',
];
const MATERIALS = [...THREE, ...(ALL ? FOUR_ALL : FOUR_DEFAULT)];
const POSITIONS = 200;

/** Legal seeded positions spread over MATERIALS (the page's legalMoves says which are legal). */
async function seededFens(page) {
  const rand = prng(11);
  const fens = [];
  for (let i = 0; fens.length < POSITIONS; i++) {
    // Every other position with the colours exchanged (KNvKR: Black has
    // the rook): a generated table holds one colouring of its material and
    // answers the other through it (until 2026-11-29 the page's core
    // found no table for those and gave up: "generated tables did not answer").
    const m = i % 2 ? MATERIALS[i % MATERIALS.length].split('v').reverse().join('v') : MATERIALS[i % MATERIALS.length];
    const fen = randomFen(m, rand).replace(' w ', rand() < 0.5 ? ' w ' : ' b ');
    const legal = await page.evaluate((f) => {
      try {
        window.tb.legalMoves(f);
        return true;
      } catch {
        return false;
      }
    }, fen);
    if (legal) fens.push(fen);
  }
  return fens;
}

/** Official DTZ n may be rounded (n or n + 1 plies), and a loss next to a rounded win one short. */
function dtzAgrees(ours, theirs) {
  if (ours.dtz === theirs.dtz) return true;
  if (theirs.precise && theirs.dtz > 0) return false;
  return Math.sign(ours.dtz) === Math.sign(theirs.dtz) && Math.abs(Math.abs(ours.dtz) - Math.abs(theirs.dtz)) === 1;
}

/** Plies to mate for the side to move reached through a move (a mating move is 1). */
function throughMove(m) {
  if (m.checkmate) return 1;
  if (m.dtm < 0) return -m.dtm + 1;
  if (m.dtm > 0) return -(m.dtm + 1);
  return 0;
}

/** Oracle-free: the position's dtm is the best its moves give; null never appears. */
function dtmConsistent(r) {
  if (!Number.isInteger(r.dtm)) return `dtm ${r.dtm}`;
  if (r.checkmate || r.stalemate || r.moves.length === 0) return r.dtm === 0 ? null : `no moves, dtm ${r.dtm}`;
  if (r.moves.some((m) => !Number.isInteger(m.dtm))) return 'a move without dtm';
  const values = r.moves.map(throughMove);
  const wins = values.filter((v) => v > 0);
  const want = wins.length ? Math.min(...wins) : values.includes(0) ? 0 : Math.min(...values);
  if (r.dtm !== want) return `dtm ${r.dtm}, through moves ${want}`;
  if (Math.sign(r.dtm) !== Math.sign(r.wdl)) return `dtm ${r.dtm} disagrees with wdl ${r.wdl}`;
  // Moves of equal WDL come fastest mate first, longest resistance first.
  for (let i = 1; i < r.moves.length; i++) {
    const [a, b] = [r.moves[i - 1], r.moves[i]];
    if (a.wdl === b.wdl && !a.checkmate && !b.checkmate && a.wdl !== 0 && throughMove(a) !== throughMove(b)) {
      // Winning: fewer plies (positive) first; losing: more plies (more negative) first.
      if (throughMove(a) > throughMove(b)) return `moves ${a.uci} before ${b.uci} against mate distance`;
    }
  }
  return null;
}

describe('tables generated in the browser', { skip }, () => {
  let servers;
  let browser;
  before(async () => {
    servers = await startServers();
    browser = await launch();
  });
  after(async () => {
    if (browser) await browser.close();
    if (servers) await servers.close();
  });

  it(`${POSITIONS} seeded positions over ${MATERIALS.length} materials: WDL, DTZ and moves equal the official tables', dtm consistent`, { timeout: ALL ? 3_600_000 : 900_000 }, async () => {
    const context = await browser.newContext();
    // No URL at all: every table is generated.
    const page = await openTablebase(context, servers, { urls: [] });
    const fens = await seededFens(page);
    const ours = [];
    for (const fen of fens) ours.push((await probeAll(page, [fen]))[0]);
    const theirs = cliProbe(fens);
    let moves = 0;
    const bad = [];
    for (let i = 0; i < fens.length; i++) {
      const [a, b] = [ours[i], theirs[i]];
      if (a.error) {
        bad.push(`${fens[i]}: ${a.error}`);
        continue;
      }
      if (a.wdl !== b.wdl || !dtzAgrees(a, b)) bad.push(`${fens[i]}: wdl/dtz ${a.wdl}/${a.dtz}, official ${b.wdl}/${b.dtz}`);
      const official = new Map(b.moves.map((m) => [m.uci, m]));
      if (a.moves.length !== b.moves.length) bad.push(`${fens[i]}: ${a.moves.length} moves, official ${b.moves.length}`);
      for (const m of a.moves) {
        const o = official.get(m.uci);
        moves++;
        if (!o || o.wdl !== m.wdl || !dtzAgrees(m, o)) bad.push(`${fens[i]} ${m.uci}: ${m.wdl}/${m.dtz}, official ${o ? `${o.wdl}/${o.dtz}` : 'none'}`);
      }
      // The best move wins (draws, loses) as the official best move does.
      if (a.moves.length && a.moves[0].wdl !== b.moves[0].wdl) bad.push(`${fens[i]}: best move ${a.moves[0].uci} wdl ${a.moves[0].wdl}, official ${b.moves[0].wdl}`);
      const why = dtmConsistent(a);
      if (why) bad.push(`${fens[i]}: ${why}`);
    }
    const st = await tbStats(page);
    console.log(`# compared ${fens.length} positions and ${moves} moves over ${MATERIALS.length} materials; generated ${st.tablesGenerated} tables in ${st.generateMs} ms; network requests ${st.requests}`);
    assert.deepEqual(bad.slice(0, 20), []);
    assert.equal(st.requests, 0);
    await context.close();
  });

  it("lines to the end from generated tables, clock running or not, are the CLI's (probe --generate --mainline) and end in mate", { timeout: 600_000 }, async () => {
    const context = await browser.newContext();
    const page = await openTablebase(context, servers, { urls: [] });
    // 40 of the seeded positions, at clocks where a capture or pawn move
    // may have to come before the fastest mate (lines then run longer
    // than the position's mate distance: the CLI cut them before 415a262).
    const fens = (await seededFens(page)).filter((_, i) => i % 5 === 0).map((f, i) => f.replace(/ 0 1$/, ` ${[0, 90, 97, 99][i % 4]} 40`));
    const web = await page.evaluate((fens) => Promise.all(fens.map((f) => window.tb.mainline(f, { toEnd: true }))), fens);
    let out;
    try {
      out = execFileSync(CLI, ['probe', '--generate', '--json', '--mainline'], { input: fens.join('\n') + '\n', encoding: 'utf8' });
    } catch (err) {
      out = err.stdout;
    }
    const cli = out.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    assert.equal(cli.length, fens.length);
    let mates = 0;
    for (let i = 0; i < fens.length; i++) {
      assert.deepEqual(web[i].moves.map((m) => m.uci), cli[i].mainline, fens[i]);
      if (cli[i].category === 'win' || cli[i].category === 'loss') {
        assert.ok(web[i].moves.at(-1)?.san.endsWith('#'), `${fens[i]}: ends with ${web[i].moves.at(-1)?.san}`);
        mates++;
      }
    }
    assert.ok(mates >= 5, `${mates} lines to mate`);
    await context.close();
  });

  it('a generated table is read back from IndexedDB after a reload, offline, without regenerating', { timeout: 600_000 }, async () => {
    const context = await launchPersistent();
    try {
      const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
      let page = await openTablebase(context, servers, { urls: [] });
      const first = (await probeAll(page, [fen]))[0];
      assert.equal(first.wdl, 2);
      assert.ok(first.dtm > 0);
      const before = await tbStats(page);
      assert.equal(before.tablesGenerated, 1);
      await page.reload();
      await page.waitForFunction(() => window.ready === true);
      await context.setOffline(true);
      await page.evaluate(() => {
        window.tb = new window.Tablebase({ urls: [] });
      });
      // As the board asks: outcome, verdict and move list at once, which
      // read the stored table once (each decoded it until 2026-11-29).
      const again = await page.evaluate((f) => window.tb.probe(f, { onUpdate: () => {} }), fen);
      const after = await tbStats(page);
      assert.deepEqual(again, first);
      assert.equal(after.tablesGenerated, 0);
      assert.equal(after.tablesFromIndexedDb, 1);
      assert.equal(after.requests, 0);
      // clearCache empties the generated tables too, held and stored.
      await context.setOffline(false);
      await page.evaluate(() => window.tb.clearCache());
      assert.equal((await tbStats(page)).generatedBytes, 0);
      await page.reload();
      await page.waitForFunction(() => window.ready === true);
      await page.evaluate(() => {
        window.tb = new window.Tablebase({ urls: [] });
      });
      assert.deepEqual((await probeAll(page, [fen]))[0], first);
      const made = await tbStats(page);
      assert.deepEqual([made.tablesGenerated, made.tablesFromIndexedDb], [1, 0]);
    } finally {
      await context.close();
    }
  });

  it('Tablebases of two page sizes keep each their generated table: neither drops the other\'s', { timeout: 600_000 }, async () => {
    const context = await browser.newContext();
    try {
      const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
      const page = await openTablebase(context, servers, { urls: [] });
      const made = async (pageSize) => {
        const r = await page.evaluate(async ({ f, pageSize }) => {
          const tb = new window.Tablebase({ urls: [], pageSize });
          const result = await tb.probe(f);
          const s = tb.stats();
          return { result, generated: s.tablesGenerated, stored: s.tablesFromIndexedDb };
        }, { f: fen, pageSize });
        return [r.generated, r.stored, r.result.dtm > 0];
      };
      assert.deepEqual(await made(4096), [1, 0, true]);
      assert.deepEqual(await made(8192), [1, 0, true]);
      // Before 2026-11-30 the second purged the first's record: made again here.
      assert.deepEqual(await made(4096), [0, 1, true]);
      assert.deepEqual(await made(8192), [0, 1, true]);
    } finally {
      await context.close();
    }
  });

  it("'never' does not generate, and 'auto' generates only what no URL has", { timeout: 600_000 }, async () => {
    const context = await browser.newContext();
    const page = await openTablebase(context, servers, { urls: [servers.base], generate: 'never' });
    // The hosted tables answer; nothing is generated.
    const [hosted] = await probeAll(page, ['8/8/8/4k3/8/8/8/R3K3 w - - 0 1']);
    assert.equal(hosted.dtm, null);
    assert.equal((await tbStats(page)).tablesGenerated, 0);
    await page.evaluate((base) => {
      window.tb = new window.Tablebase({ urls: [base + 'nothing-here/'], generate: 'auto' });
    }, servers.base);
    const [made] = await probeAll(page, ['8/8/8/4k3/8/8/8/R3K3 w - - 0 1']);
    assert.equal(made.wdl, 2);
    assert.ok(made.dtm > 0);
    assert.equal((await tbStats(page)).tablesGenerated, 1);
    await context.close();
  });
  it("a call's generate overrides the Tablebase's: mate distances beside hosted tables, and back", { timeout: 600_000 }, async () => {
    const context = await browser.newContext();
    const page = await openTablebase(context, servers, { urls: [servers.base] });
    const FEN = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const run = (fen, options, method = 'probe') =>
      page.evaluate(async ([f, o, m]) => {
        const before = window.tb.stats().requests;
        const r = await window.tb[m](f, o);
        return { r, requests: window.tb.stats().requests - before, made: window.tb.stats().tablesGenerated };
      }, [fen, options, method]);
    // The host's answer: no mate distance, nothing made.
    const hosted = await run(FEN, undefined);
    assert.equal(hosted.r.dtm, null);
    assert.equal(hosted.made, 0);
    // The same Tablebase, one call 'always': made here, no request.
    const mate = await run(FEN, { generate: 'always' });
    assert.equal(mate.requests, 0);
    assert.equal(mate.made, 1);
    assert.ok(mate.r.dtm > 0, JSON.stringify(mate.r.dtm));
    assert.equal(mate.r.wdl, hosted.r.wdl);
    assert.ok(dtzAgrees(mate.r, hosted.r), `${mate.r.dtz} ${hosted.r.dtz}`);
    const byUci = new Map(hosted.r.moves.map((m) => [m.uci, m]));
    assert.equal(mate.r.moves.length, hosted.r.moves.length);
    for (const m of mate.r.moves) {
      assert.equal(m.wdl, byUci.get(m.uci).wdl, m.uci);
      assert.ok(Number.isInteger(m.dtm), m.uci);
    }
    // The verdict alone from the same tables: the answer without its moves.
    const alone = await run(FEN, { generate: 'always', moves: false });
    assert.equal(alone.requests, 0);
    assert.deepStrictEqual(alone.r, { ...mate.r, moves: [] });
    // Its line goes to mate in as many plies as the DTM says.
    const line = await run(FEN, { toEnd: true, generate: 'always' }, 'mainline');
    assert.equal(line.r.moves.length, mate.r.dtm);
    assert.ok(line.r.moves.at(-1).san.endsWith('#'), line.r.moves.at(-1).san);
    // The next call without it is the host's again; a 5-piece position is
    // the host's under 'always' too (beyond what the browser makes).
    assert.equal((await run(FEN, undefined)).r.dtm, null);
    const five = await run('8/8/8/4k3/8/2r5/8/R1B1K3 w - - 0 1', { generate: 'always' });
    assert.equal(five.r.dtm, null);
    assert.ok(five.requests > 0);
    // And the other way: a Tablebase that always generates, one call 'never'.
    await page.evaluate((base) => {
      window.tb = new window.Tablebase({ urls: [base], generate: 'always' });
    }, servers.base);
    assert.ok((await run(FEN, undefined)).r.dtm > 0);
    // (Its pages come from IndexedDB: the first Tablebase's.)
    const never = await run(FEN, { generate: 'never' });
    assert.equal(never.r.dtm, null);
    assert.equal(never.r.wdl, hosted.r.wdl);
    await context.close();
  });

  it('a table being generated holds up no other probe\'s requests', { timeout: 600_000 }, async () => {
    // A host with every official table but KRvKN: its positions are made
    // in the worker ('auto'), while a 5-piece position's move list needs
    // rounds of requests. Before 2026-11-29 the first probe's hold on the
    // request gate (its verdict ahead of move lists) lasted the whole
    // generation, and the second probe's move list waited for it.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syzygy-partial-'));
    for (const f of fs.readdirSync(TABLES)) if (/\.rtb[wz]$/.test(f) && !/^KRvKN\./.test(f)) fs.symlinkSync(path.join(TABLES, f), path.join(dir, f));
    const partial = await startServers({ tables: [dir] });
    try {
      const context = await browser.newContext();
      const page = await openTablebase(context, partial);
      const order = await page.evaluate(async ([base, made, hosted]) => {
        // The worker's generate job is held until the hosted probe has
        // answered (a race between the two on a loaded machine otherwise).
        const Real = window.Worker;
        const held = [];
        window.Worker = class extends Real {
          postMessage(m, transfer) {
            if (m && m.type === 'generate' && !window.released) held.push([this, m]);
            else super.postMessage(m, transfer);
          }
        };
        let generating = false;
        window.tb = new window.Tablebase({ urls: [base], generate: 'auto', onGenerate: () => (generating = true) });
        const order = [];
        const updates = { onUpdate: () => {} };
        const a = window.tb.probe(made, updates).then((r) => order.push(['generated', r.dtm !== null]));
        // Once the worker is given its job.
        while (!generating || !held.length) await new Promise((r) => setTimeout(r, 5));
        const b = window.tb.probe(hosted, updates).then((r) => order.push(['hosted', r.moves.length > 0]));
        await b;
        window.released = true;
        for (const [w, m] of held) Real.prototype.postMessage.call(w, m);
        await a;
        return order;
      }, [partial.base, '8/8/8/4k3/8/2n5/8/R3K3 w - - 0 1', '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1']);
      assert.deepEqual(order, [['hosted', true], ['generated', true]]);
      await context.close();
    } finally {
      await partial.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it('two tabs making the same table make it once', { timeout: 600_000 }, async () => {
    // Two pages of one origin (one IndexedDB): the second waits for the
    // first's lock, then reads the table it stored (both made it before).
    const context = await browser.newContext();
    const tabs = [await openTablebase(context, servers, { urls: [] }), await openTablebase(context, servers, { urls: [] })];
    const fen = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const [a, b] = await Promise.all(tabs.map((t) => probeAll(t, [fen])));
    assert.deepEqual(a, b);
    const stats = await Promise.all(tabs.map((t) => tbStats(t)));
    assert.deepEqual(stats.map((s) => s.tablesGenerated).sort(), [0, 1]);
    assert.deepEqual(stats.map((s) => s.tablesFromIndexedDb).sort(), [0, 1]);
    await context.close();
  });
  it('clearCache during a generation: its probe answers right, nothing of it is stored, its tables are let go after', { timeout: 600_000 }, async () => {
    const context = await browser.newContext();
    const page = await openTablebase(context, servers, { urls: [] });
    const fen = '8/8/8/4k3/8/2n5/8/R3K3 w - - 0 1';
    const [want] = cliProbe([fen]).map((r) => ({ wdl: r.wdl, moves: r.moves.length }));
    const seen = await page.evaluate(async (f) => {
      let cleared = null;
      window.tb = new window.Tablebase({
        urls: [],
        // Once the plan's second material starts, the first is made.
        onGenerate: (p) => {
          if (p.index >= 1 && !cleared) cleared = window.tb.clearCache();
        },
      });
      const r = await window.tb.probe(f);
      await cleared;
      return { wdl: r.wdl, moves: r.moves.length, dtm: r.dtm, stats: window.tb.stats() };
    }, fen);
    assert.deepEqual({ wdl: seen.wdl, moves: seen.moves }, want);
    assert.ok(Number.isInteger(seen.dtm));
    assert.equal(seen.stats.generatedBytes, 0);
    assert.equal(seen.stats.cacheBytes, 0);
    await context.close();
  });
});
