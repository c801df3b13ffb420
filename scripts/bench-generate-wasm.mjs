#!/usr/bin/env node
// Generation in the browser against native, in one run: every 3-4 piece
// material (or those named) generated with mate distances by the wasm
// module in headless Chromium, single-threaded, and by the native CLI
// (`generate M --dtm --threads 1`). Each material is timed alone with its
// sub-tables already present (values files written by the native run,
// fetched by the page as IndexedDB would give them), in a fresh page, whose
// wasm memory at the end is the peak (wasm memory never shrinks).
//
//   node scripts/bench-generate-wasm.mjs [MATERIAL...]
// Needs pkg/ (scripts/build-wasm.sh) and target/release/syzygy-web.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { launch } from '../tests/chromium.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(REPO, 'target', 'release', 'syzygy-web');
const { startServer } = await import(path.join(REPO, 'tests', 'server', 'range-server.mjs'));

const FOUR = 'KQQvK KQRvK KQBvK KQNvK KRRvK KRBvK KRNvK KBBvK KBNvK KNNvK KQvKQ KQvKR KQvKB KQvKN KRvKR KRvKB KRvKN KBvKB KBvKN KNvKN KQPvK KRPvK KBPvK KNPvK KPPvK KQvKP KRvKP KBvKP KNvKP KPvKP'.split(' ');
const THREE = ['KQvK', 'KRvK', 'KPvK'];
const materials = process.argv.length > 2 ? process.argv.slice(2) : [...THREE, ...FOUR];

// Native, one material at a time with its sub-tables already on disk.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-gen-'));
const native = new Map();
for (const m of materials) {
  execFileSync(CLI, ['generate', m, '--dtm', '--threads', '1', '--out', scratch], { stdio: 'ignore' });
  fs.rmSync(path.join(scratch, `${m}.swv`));
  const out = execFileSync(CLI, ['generate', m, '--dtm', '--threads', '1', '--json', '--out', scratch], { encoding: 'utf8' });
  const last = out.trim().split('\n').map((l) => JSON.parse(l)).find((j) => j.material === m);
  native.set(m, last.seconds);
}

// The page, the package and the native run's values files, served together.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-gen-site-'));
fs.symlinkSync(path.join(REPO, 'pkg'), path.join(root, 'pkg'));
fs.mkdirSync(path.join(root, 'tests', 'browser'), { recursive: true });
fs.copyFileSync(path.join(REPO, 'tests', 'browser', 'page.html'), path.join(root, 'tests', 'browser', 'page.html'));
fs.symlinkSync(scratch, path.join(root, 'swv'));
const site = await startServer({ port: 0, tables: [], static: root });
const browser = await launch();
console.log('material   wasm s  native s  ratio  wasm memory MB');
let slowest = { m: '', s: 0, mb: 0 };
for (const m of materials) {
  const page = await browser.newPage();
  await page.goto(`${site.url}tests/browser/page.html`);
  await page.waitForFunction(() => window.ready === true);
  const r = await page.evaluate(
    async (m) => {
      const mod = await import('/pkg/worker/generator.js');
      const wasm = await mod.default();
      const g = new mod.Generator();
      // Sub-tables first: the generator names the one it lacks.
      for (;;) {
        const t0 = performance.now();
        try {
          g.generate(m);
          return { s: (performance.now() - t0) / 1000, mb: wasm.memory.buffer.byteLength / 1048576 };
        } catch (e) {
          const need = /: (\S+) is needed first/.exec(String(e.message));
          if (!need) throw e;
          g.insert(new Uint8Array(await (await fetch(`/swv/${need[1]}.swv`)).arrayBuffer()));
        }
      }
    },
    m,
  );
  await page.close();
  const n = native.get(m);
  if (r.s > slowest.s && m.replace('v', '').length === 4) slowest = { m, ...r };
  console.log(`${m.padEnd(9)} ${r.s.toFixed(2).padStart(7)} ${n.toFixed(2).padStart(9)} ${(r.s / n).toFixed(2).padStart(6)} ${r.mb.toFixed(0).padStart(15)}`);
}
if (slowest.m) console.log(`slowest 4-piece in wasm: ${slowest.m} ${slowest.s.toFixed(2)} s, ${slowest.mb.toFixed(0)} MB of wasm memory (its sub-tables included)`);
await browser.close();
await site.close();
fs.rmSync(scratch, { recursive: true, force: true });
fs.rmSync(root, { recursive: true, force: true });
