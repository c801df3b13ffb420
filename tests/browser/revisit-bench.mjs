// A revisit's first probe, answered from IndexedDB alone: how long a new
// page waits for it, after "Save for offline" of a big material (many
// pages stored) and after a single probe (few). Prints figures; asserts
// nothing. `node tests/browser/revisit-bench.mjs [--runs N] [--fen FEN]`
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO, TABLES, CHROMIUM_ARGS, skipReason } from './helpers.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const RUNS = Number(opt('--runs', 5));
const FEN = opt('--fen', '8/8/4k3/8/3r4/3P4/8/3RK3 b - - 12 40');

if (skipReason()) process.exit(0);
const { startServer } = await import(path.join(REPO, 'tests', 'server', 'range-server.mjs'));
const { chromium } = await import('playwright-core');
const server = await startServer({ port: 0, host: '127.0.0.1', static: REPO, tables: [TABLES] });
const base = `http://127.0.0.1:${server.port}/`;

/** Stores what `fill` stores in a fresh profile, then times RUNS revisits. */
async function revisits(fill) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syzygy-revisit-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await context.newPage();
    await page.goto(`${base}tests/browser/page.html`);
    await page.waitForFunction(() => window.ready === true);
    const stored = await page.evaluate(
      async ({ tables, fen, fill }) => {
        const tb = new window.Tablebase({ urls: [tables], idbBudget: 1 << 30 });
        if (fill === 'prefetch') await tb.prefetch(fen);
        else await tb.probe(fen);
        await new Promise((r) => setTimeout(r, 1000)); // writes wait for an idle moment
        return tb.stats().cacheBytes;
      },
      { tables: `${base}tables/`, fen: FEN, fill },
    );
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      await page.reload();
      await page.waitForFunction(() => window.ready === true);
      const r = await page.evaluate(
        async ({ tables, fen }) => {
          const t0 = performance.now();
          const tb = new window.Tablebase({ urls: [tables], idbBudget: 1 << 30 });
          await tb.probe(fen);
          return { ms: performance.now() - t0, requests: tb.stats().requests };
        },
        { tables: `${base}tables/`, fen: FEN },
      );
      if (r.requests) throw new Error(`a revisit made ${r.requests} requests`);
      times.push(r.ms);
    }
    times.sort((a, b) => a - b);
    return { stored, median: times[times.length >> 1], worst: times[times.length - 1] };
  } finally {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`Revisit, first probe of ${FEN} from IndexedDB (new Tablebase included), ${RUNS} reloads:`);
for (const fill of ['probe', 'prefetch']) {
  const r = await revisits(fill);
  console.log(`  after one ${fill.padEnd(8)} ${(r.stored / 1048576).toFixed(1).padStart(6)} MiB stored: median ${r.median.toFixed(0)} ms, worst ${r.worst.toFixed(0)} ms`);
}
await server.close();
