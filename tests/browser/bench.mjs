#!/usr/bin/env node
// Browser benchmark (not a test): `node tests/browser/bench.mjs [--positions N] [--cold N] [--reps N]`.
//
// 1. Warm probe speed: the wasm package in headless Chromium probes N
//    positions once (warm-up), then again, timed; the native CLI probes the
//    same positions (all on stdin), minus its start-up (a 1-position run).
//    Prints both per-probe times and the ratio wasm/native.
// 2. Cold cost with 50 ms of injected server latency: per probe, the rounds
//    of network requests, requests and bytes, for a fresh Tablebase (nothing
//    open) and for a Tablebase that has the materials' tables open already.
// Needs pkg/ (scripts/build-wasm.sh), target/release/syzygy-web and the tables.
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import {
  startServers,
  launch,
  openTablebase,
  createTablebase,
  tbStats,
  legalPositions,
  cliProbe,
  CLI,
  TABLES,
  skipReason,
} from './helpers.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('--positions', 100);
const COLD = arg('--cold', 38);
const LATENCY = 50;
const REPS = arg('--reps', 15);

const MATERIALS = [
  'KQvK', 'KRvK', 'KPvK', 'KBNvK', 'KPvKP', 'KQvKR', 'KRvKB', 'KBBvK', 'KRPvK', 'KQPvK',
  'KRPvKR', 'KQPvKQ', 'KQRvKR', 'KRRvKR', 'KBBBvK', 'KQQvKQ', 'KRBvKR', 'KQNvKQ', 'KRRPvK',
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (x, d = 1) => x.toFixed(d);

/** Wall time (ms) of one CLI run with `fens` on stdin, best of `reps`. */
function cliTime(fens, reps) {
  let best = Infinity;
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    try {
      execFileSync(CLI, ['probe', '--json', '--path', TABLES], { input: fens.join('\n') + '\n', maxBuffer: 1 << 28 });
    } catch (e) {
      if (e.status !== 1) throw e;
    }
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

async function main() {
  if (skipReason()) process.exit(2);
  const servers = await startServers();
  const browser = await launch();
  try {
    const context = await browser.newContext();
    const page = await openTablebase(context, servers, { idbBudget: 0 });
    const fens = await legalPositions(page, MATERIALS, N, 0xbe7c);
    const expected = cliProbe(fens);

    // 1. Warm: every page in memory. Browser passes and CLI runs alternate,
    // so that both meet the same machine load; the best of each is kept.
    const out = await page.evaluate(async (fens) => {
      const res = [];
      for (const f of fens) res.push(await window.tb.probe(f)); // warm-up
      window.r0 = window.tb.stats().requests;
      return res;
    }, fens);
    const wrong = fens.filter((f, i) => JSON.stringify(out[i]) !== JSON.stringify(expected[i]));
    if (wrong.length) throw new Error(`browser and CLI disagree on ${wrong.length} positions, e.g. ${wrong[0]}`);
    cliTime(fens, 1); // warm the OS page cache
    const passes = [];
    let all = Infinity;
    let one = Infinity;
    let twice = Infinity;
    for (let rep = 0; rep < REPS; rep++) {
      passes.push(
        await page.evaluate(async (fens) => {
          const t = performance.now();
          for (const f of fens) await window.tb.probe(f);
          return performance.now() - t;
        }, fens),
      );
      all = Math.min(all, cliTime(fens, 1));
      one = Math.min(one, cliTime(fens.slice(0, 1), 1));
      // In one process, a second pass over the same positions (pages cached).
      twice = Math.min(twice, cliTime([...fens, ...fens], 1));
    }
    const warm = { passes, requests: await page.evaluate(() => window.tb.stats().requests - window.r0) };
    const wasmMs = Math.min(...passes) / fens.length;
    const wasmMedMs = median(passes) / fens.length;
    const nativeMs = (all - one) / (fens.length - 1);
    const nativeWarmMs = (twice - all) / fens.length;

    // 2. Cold, with latency: per material and seed, a new Tablebase probes
    // one position (nothing open), then another of the same material (its
    // tables open, their data pages mostly not).
    servers.tables.setFaults({ faults: [], latencyMs: LATENCY });
    const cold = [];
    const opened = [];
    for (let k = 0; cold.length < COLD; k++) {
      for (const m of MATERIALS) {
        if (cold.length >= COLD) break;
        const [first, second] = await legalPositions(page, [m], 2, 1000 * k + m.length * 31 + m.charCodeAt(1));
        await createTablebase(page, { urls: [servers.base], idbBudget: 0 });
        cold.push(await measure(page, first));
        opened.push(await measure(page, second));
      }
    }

    const lines = [];
    lines.push(`Browser benchmark (${new Date().toISOString().slice(0, 10)}, headless Chromium, ${fens.length} positions over ${MATERIALS.length} materials of 3-5 pieces)`);
    lines.push('');
    lines.push('Warm probe (every page in memory; probe() = WDL + DTZ of the position and of every legal move):');
    lines.push(`  wasm in Chromium: ${fmt(wasmMs * 1000, 0)} us/probe best pass, ${fmt(wasmMedMs * 1000, 0)} us median pass (${REPS} passes, ${fmt(Math.min(...passes), 0)}-${fmt(Math.max(...passes), 0)} ms each)`);
    lines.push(`  native CLI:       ${fmt(nativeMs * 1000, 0)} us/probe ((${fmt(all, 0)} ms for ${fens.length} FENs - ${fmt(one, 0)} ms for 1) / ${fens.length - 1}, best of ${REPS}; includes opening the files)`);
    lines.push(`  native CLI, warm: ${fmt(nativeWarmMs * 1000, 0)} us/probe ((${fmt(twice, 0)} ms for the ${fens.length} FENs twice - ${fmt(all, 0)} ms) / ${fens.length}, best of ${REPS})`);
    lines.push(`  ratio wasm/native: ${fmt(wasmMs / nativeMs, 2)} (median pass: ${fmt(wasmMedMs / nativeMs, 2)}); against the warm native pass: ${fmt(wasmMs / nativeWarmMs, 2)} (median: ${fmt(wasmMedMs / nativeWarmMs, 2)}); target <= 2`);
    lines.push(`  network requests during the timed passes: ${warm.requests}`);
    lines.push('');
    lines.push(`Cold probe, server latency ${LATENCY} ms, IndexedDB off, ${cold.length} positions (${MATERIALS.length} materials):`);
    lines.push(table('nothing open (new Tablebase)', cold));
    lines.push(table('tables of the material open', opened));
    console.log(lines.join('\n'));
  } finally {
    await browser.close();
    await servers.close();
  }
}

async function measure(page, fen) {
  const before = await tbStats(page);
  const t = performance.now();
  await page.evaluate((f) => window.tb.probe(f), fen);
  const ms = performance.now() - t;
  const after = await tbStats(page);
  return {
    ms,
    rounds: after.rounds - before.rounds,
    requests: after.requests - before.requests,
    bytes: after.bytes - before.bytes,
  };
}

function table(label, rows) {
  const col = (k) => rows.map((r) => r[k]);
  const cell = (k, d = 0) => `${fmt(median(col(k)), d)} / ${fmt(Math.max(...col(k)), d)}`;
  return [
    `  ${label} (median / worst):`,
    `    rounds ${cell('rounds')}, requests ${cell('requests')}, bytes ${cell('bytes')}, time ${cell('ms')} ms`,
  ].join('\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
