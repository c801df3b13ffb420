#!/usr/bin/env node
// Cold analysis as users feel it (issue 12), not a test: `scripts/bench-cold.sh`
// (or `node tests/browser/cold-bench.mjs [--per-table N] [--runs N] [--phone-only] [--phone-runs N] [--promotions] [--rows]`).
//
// Servers: the page and the board from one origin (static files compressed
// as a static host or CDN sends them, tables never); the tables from another,
// every answer delayed by 100 ms, over HTTP/1.1 and over HTTP/2 (TLS with a
// self-signed certificate made for this run; Chromium's context is told to
// accept it); and over HTTP/1.1 and HTTP/2 the page and tables from one
// origin, where a request may carry several ranges of a file (the server
// answers them in one multipart body, as nginx, Apache and Caddy do).
// Positions: N seeded per 5-piece table in SYZYGY_PATH plus the issue's two
// promotion positions. Each position is probed in a fresh browser
// context (empty IndexedDB) with tb.probe(fen, { onUpdate }), and by a fresh
// CLI process with --url --stats. Over HTTP/2 also in Chromium as users
// have it, with no DevTools protocol attached (plain-chromium.mjs), beside
// the same requests replayed by bare fetch(). Then the phone profile: the board itself
// (www/dist) in Chromium with 4x CPU slowdown, 150 ms latency, 1.6 Mbit/s
// down, 390x844, cold cache, from navigation to the result on screen (who
// wins) and to its DTZ.
// Prints median and worst beside the figures the issue measured before
// (--runs N probes each position N times, each in a fresh context or
// process, and takes each figure's median per position before the median
// and worst over positions: single runs of one position here spread by
// 0.1-0.25 s; --phone-runs N loads the board N times per phone position).
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { REPO, TABLES, CLI, launch, skipReason, cliProbe, legalPositions } from './helpers.mjs';
import { plainChromium, planOf } from './plain-chromium.mjs';

/** The word after option `name`, or null. */
const argText = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : null;
};
const arg = (name, dflt) => (argText(name) === null ? dflt : Number(argText(name)));
const PER_TABLE = arg('--per-table', 1);
const PHONE_ONLY = process.argv.includes('--phone-only');
// Only the two promotion positions, over HTTP/1.1 and HTTP/2 (a quick look at the worst case).
const PROMOTIONS_ONLY = process.argv.includes('--promotions');
// Loads of the board per phone position (its times vary between runs far more than the others').
const PHONE_RUNS = Math.max(1, arg('--phone-runs', 1));
const CLI_ONLY = process.argv.includes('--cli-only');
// The phone profile on a later visit: the board loaded once on LATER_FIRST
// over the same link, then a link to each other phone position (the module
// and script from the cache, the link's rate from the visit before); prints
// only that.
const PHONE_LATER = process.argv.includes('--phone-later');
const LATER_FIRST = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
// One protocol's column only (`--protocol HTTP/1.1`: a quicker look at one), and no phone profile.
const PROTOCOL = argText('--protocol');
// Probes of each position (fresh context or process each); figures are their per-position medians.
const RUNS = Math.max(1, arg('--runs', 1));
const LATENCY = 100;
const SEED = 12;

const PROMOTIONS = ['8/4P2K/8/8/5Q2/q7/6k1/8 w - - 0 1', '8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1'];
const PHONE = [
  ['8/4P2K/8/8/5R2/r7/6k1/8 w - - 0 1', 10.8],
  ['1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1', 5.9],
  ['8/8/8/4k3/8/8/8/R3K3 w - - 0 1', 2.7],
  ['8/4P2K/8/8/5Q2/q7/6k1/8 w - - 0 1', null],
];

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor((xs.length - 1) / 2)];
const worst = (xs) => sorted(xs)[xs.length - 1];
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const kib = (b) => `${Math.round(b / 1024)} KiB`;

/** The tests' self-signed certificate for localhost (tests/server/tls). */
function selfSigned() {
  const dir = path.join(REPO, 'tests', 'server', 'tls');
  return { key: fs.readFileSync(path.join(dir, 'localhost.key')), cert: fs.readFileSync(path.join(dir, 'localhost.crt')) };
}

async function main() {
  if (skipReason()) process.exit(2);
  if (!fs.existsSync(path.join(REPO, 'www', 'dist', 'index.html'))) {
    console.log('SKIPPED: www/dist is missing: run npm run build');
    process.exit(2);
  }
  const { startServer } = await import(path.join(REPO, 'tests', 'server', 'range-server.mjs'));
  const site = await startServer({ port: 0, tables: [], static: REPO });
  const h1 = await startServer({ port: 0, tables: [TABLES], latencyMs: LATENCY });
  const h2 = await startServer({ port: 0, host: '127.0.0.1', tables: [TABLES], latencyMs: LATENCY, tls: selfSigned() });
  // Hosts that do not send Timing-Allow-Origin (most CDNs; S3 without one, HTTP/1.1 only).
  const h2Hidden = await startServer({ port: 0, host: '127.0.0.1', tables: [TABLES], latencyMs: LATENCY, tls: selfSigned(), timingAllowOrigin: false });
  const h1sHidden = await startServer({ port: 0, host: '127.0.0.1', tables: [TABLES], latencyMs: LATENCY, tls: selfSigned(), http1: true, timingAllowOrigin: false });
  const board = await startServer({ port: 0, tables: [TABLES], static: path.join(REPO, 'www', 'dist') });
  const same = await startServer({ port: 0, tables: [TABLES], static: REPO, latencyMs: LATENCY });
  const same2 = await startServer({ port: 0, host: '127.0.0.1', tables: [TABLES], static: REPO, latencyMs: LATENCY, tls: selfSigned() });
  const same2Url = `https://localhost:${same2.port}/`;
  const browser = await launch();
  const lines = [];
  const say = (l = '') => {
    lines.push(l);
    console.log(l);
  };
  try {
    const pageUrl = `${site.url}tests/browser/page.html`;
    const bases = {
      'HTTP/1.1': `http://localhost:${h1.port}/tables/`,
      'HTTP/2': `https://localhost:${h2.port}/tables/`,
      'HTTP/2 without Timing-Allow-Origin': `https://localhost:${h2Hidden.port}/tables/`,
      'HTTP/1.1 over https without Timing-Allow-Origin': `https://localhost:${h1sHidden.port}/tables/`,
      'HTTP/1.1, page and tables from one origin': `${same.url}tables/`,
      'HTTP/2, page and tables from one origin': `${same2Url}tables/`,
    };
    const pageOf = (base) => {
      for (const origin of [same.url, same2Url]) if (base.startsWith(origin)) return `${origin}tests/browser/page.html`;
      return pageUrl;
    };
    say(`Cold analysis benchmark (${new Date().toISOString().slice(0, 16)}Z), tables answered after ${LATENCY} ms each`);
    if (!PHONE_ONLY) {
      const setup = await browser.newContext();
      const p = await setup.newPage();
      await p.goto(pageUrl);
      await p.waitForFunction(() => window.ready === true);
      await p.evaluate((u) => (window.tb = new window.Tablebase({ urls: [u] })), bases['HTTP/1.1']);
      const names = fs.readdirSync(TABLES).filter((f) => /^K[A-Z]*vK[A-Z]*\.rtbw$/.test(f) && f.length === 11).map((f) => f.slice(0, 6)).sort();
      const fens = [];
      for (const n of PROMOTIONS_ONLY ? [] : names) fens.push(...(await legalPositions(p, [n], PER_TABLE, SEED + n.charCodeAt(1) * 7 + n.charCodeAt(4))));
      fens.push(...PROMOTIONS);
      await setup.close();
      const want = cliProbe(fens);
      say(PROMOTIONS_ONLY ? `${fens.length} positions: the two promotion positions` : `${fens.length} positions: ${PER_TABLE} seeded per 5-piece table (${names.length} tables) and the two promotion positions`);

      const columns = Object.entries(bases).filter(([proto]) => !PROTOCOL || proto === PROTOCOL);
      for (const [proto, base] of CLI_ONLY ? [] : columns) {
        const rows = [];
        for (let i = 0; i < fens.length; i++) {
          const runs = [];
          for (let run = 0; run < RUNS; run++) {
            const context = await browser.newContext({ ignoreHTTPSErrors: true });
            const page = await context.newPage();
            await page.goto(pageOf(base));
            await page.waitForFunction(() => window.ready === true);
            const r = await page.evaluate(
              async ({ fen, base }) => {
                const tb = new window.Tablebase({ urls: [base] });
                const t0 = performance.now();
                let outcome = null;
                let verdict = null;
                let full = null;
                const onUpdate = (u) => {
                  const t = performance.now() - t0;
                  // Who wins: the outcome stage, or the verdict where that came first.
                  if (outcome === null && (u.stage === 'outcome' || u.stage === 'verdict')) outcome = t;
                  if (verdict === null && u.stage === 'verdict') verdict = t;
                  // The whole analysis in hand (the board shows it then).
                  if (u.stage === 'complete') full = t;
                };
                const result = await tb.probe(fen, { onUpdate });
                // The promise: once the pages read are in IndexedDB too.
                const stored = performance.now() - t0;
                // Requests still out when it answered count once in.
                while (tb.stats().requestsInFlight > 0) await new Promise((r) => setTimeout(r, 5));
                return { result, outcome, verdict, full, stored, last: tb.stats().last };
              },
              { fen: fens[i], base },
            );
            if (JSON.stringify(r.result) !== JSON.stringify(want[i])) throw new Error(`${proto}: ${fens[i]} differs from the CLI`);
            runs.push({ fen: fens[i], ...r.last, outcome: r.outcome, verdict: r.verdict, full: r.full, stored: r.stored });
            await context.close();
          }
          rows.push(medianRow(runs));
        }
        report(say, `Chromium, ${proto}, fresh context per position`, rows);
        if (proto === 'HTTP/2') await plainColumn(say, site.url, base, fens, want);
      }

      const rows = [];
      for (const fen of fens) {
        const runs = [];
        for (let k = 0; k < RUNS; k++) {
          // Asynchronous: the servers run in this process and must keep answering.
          const run = await new Promise((resolve) => {
            const child = spawn(CLI, ['probe', '--json', '--stats', '--url', `http://127.0.0.1:${h1.port}/tables/`, fen]);
            let stderr = '';
            child.stdout.resume();
            child.stderr.on('data', (d) => (stderr += d));
            child.on('close', (status, signal) => resolve({ status, signal, stderr }));
          });
          const line = (run.stderr || '').trim().split('\n').pop();
          if (run.status !== 0 || !line.startsWith('{')) {
            say(`  CLI failed on ${fen}: status ${run.status} ${run.signal || ''} ${(run.stderr || '').slice(0, 300)}`);
            continue;
          }
          const st = JSON.parse(line);
          runs.push({ fen, ...st, outcome: null, verdict: null, full: st.elapsedMs, stored: null });
        }
        if (runs.length) rows.push(medianRow(runs));
      }
      report(say, 'CLI --url (HTTP/1.1), a fresh process per position', rows);
      say('Before (issue 12): Chromium HTTP/1.1 median ~0.3 s over 14 positions; 8/4P2K/8/8/5Q2/q7/6k1/8 4.4 s, 171 requests, 1.5 MB, 31 waves;');
      say('  8/4P2K/8/8/5R2/r7/6k1/8 3.0 s, 119 requests. CLI --url: 12.6 s and 5.7 s for those two.');
      say('Before lost children took their DTZ from bounds (BENCHMARKS.md, 2026-11-22 20:55Z): Chromium HTTP/1.1 verdict 0.46 / 1.33 s, full 0.84 / 2.90 s,');
      say('  requests 15 / 107, bytes 333 / 2642 KiB, waves 5 / 20; HTTP/2 full 0.72 / 1.88 s; CLI full 0.32 / 0.79 s, 13 / 99 requests, 315 / 2265 KiB.');
      say('Before speculative reads only filled idle connections (BENCHMARKS.md, 2026-11-22 23:44Z): Chromium HTTP/1.1 verdict 0.30 / 1.01 s,');
      say('  full 0.66 / 1.59 s, requests 13 / 60, bytes 249 / 1008 KiB, waves 5 / 13; HTTP/2 full 0.72 / 1.49 s; CLI full 0.31 / 0.76 s, 12 / 59 requests.');
      say('Targets: verdict <= 0.35 s worst; full <= 0.4 s median, <= 1.0 s worst; <= 40 requests, <= 800 KiB worst; HTTP/2 full <= 0.5 s worst; CLI <= 1.0 s worst.');
    }

    if (CLI_ONLY || PROMOTIONS_ONLY || PROTOCOL) return;
    if (PHONE_LATER) {
      say('');
      say(`Phone profile, a later visit: the board loaded on ${LATER_FIRST} (same link, CPU not slowed), then a link to another position in the same browser`);
      for (const f of fs.readdirSync(path.join(REPO, 'www', 'dist'))) await (await fetch(board.url + f, { headers: { 'Accept-Encoding': 'br' } })).arrayBuffer();
      for (const [fen] of PHONE.filter(([f]) => f !== LATER_FIRST)) {
        const runs = [];
        for (let run = 0; run < PHONE_RUNS; run++) runs.push(await phoneLoad(browser, board, fen, LATER_FIRST));
        const ms = (key) => runs.map((r) => s(r[key])).join(', ');
        say(`  ${fen.padEnd(40)} result on screen ${ms('ms')}; with DTZ ${ms('dtzMs')}`);
      }
      return;
    }
    say('');
    say('Phone profile: the board (www/dist) with 4x CPU slowdown, 150 ms latency, 1.6 Mbit/s down, 390x844, cold cache; navigation to the result on screen (who wins: the outcome) and to its DTZ (the verdict)');
    // A precompressing host has its encoded files ready: encode them once before timing.
    for (const f of fs.readdirSync(path.join(REPO, 'www', 'dist'))) await (await fetch(board.url + f, { headers: { 'Accept-Encoding': 'br' } })).arrayBuffer();
    const all = [];
    for (const [fen, before] of PHONE) {
      const runs = [];
      for (let run = 0; run < PHONE_RUNS; run++) runs.push(await phoneLoad(browser, board, fen));
      all.push(...runs);
      const times = (k) => {
        const ms = runs.map((r) => r[k]);
        return PHONE_RUNS > 1 ? `median ${s(median(ms))}, worst ${s(worst(ms))} of ${PHONE_RUNS}` : s(ms[0]);
      };
      say(`  ${fen.padEnd(40)} result on screen ${times('ms')}, ${kib(worst(runs.map((r) => r.bytes)))} transferred by then (${kib(worst(runs.map((r) => r.served)))} served, the service worker's included); with DTZ ${times('dtzMs')} (before: ${before === null ? 'not measured' : `${before} s`}; target <= 3 s)`);
    }
    const over = (k) => `median ${s(median(all.map((r) => r[k])))}, worst ${s(worst(all.map((r) => r[k])))}`;
    say(`  over the ${PHONE.length} positions${PHONE_RUNS > 1 ? ` and ${PHONE_RUNS} loads each` : ''}: result on screen ${over('ms')}; with DTZ ${over('dtzMs')}`);
  } finally {
    await browser.close();
    await Promise.all([site, h1, h2, h2Hidden, h1sHidden, board, same, same2].map((s) => s.close()));
  }
}

/**
 * One load of the board under the phone profile: {ms: navigation to a
 * result on screen (the outcome, or the verdict where it came first),
 * bytes by then, dtzMs: to the verdict with its DTZ}.
 */
async function phoneLoad(browser, board, fen, visited = null) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
  if (visited) {
    // A visit before on the same link, which stores its pages (and the
    // board's mark of them, and the link's rate).
    const first = await context.newPage();
    const firstCdp = await context.newCDPSession(first);
    await firstCdp.send('Network.enable');
    await firstCdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 });
    await first.goto(`${board.url}#fen=${visited.replace(/ /g, '_')}`);
    await first.waitForFunction(() => localStorage.getItem('syzygy-board:heads-kept'), null, { timeout: 60000 });
    await first.waitForTimeout(1000);
    await first.close();
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 });
  // What the server sends counts from here: the page's requests and its service worker's.
  board.reset();
  await page.goto(`${board.url}#fen=${fen.replace(/ /g, '_')}`, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(
    () => {
      const card = document.querySelector('syzygy-board')?.querySelector('.sb-verdict');
      const ok = card && !card.classList.contains('sb-stale') && ['white', 'black', 'draw', 'cursed', 'unclear', 'error'].includes(card.dataset.tone);
      return ok ? performance.now() : false;
    },
    null,
    { timeout: 60000, polling: 50 },
  );
  const ms = await handle.jsonValue();
  // The service worker's requests are not throttled (CDP emulates the page's link only): on a
  // phone they share the link, so the bytes served by then, whoever asked, are printed too.
  const shownAt = Date.now();
  const served = board.stats().log.filter((e) => e.time <= shownAt).reduce((a, e) => a + e.bytes, 0);
  const bytes = await page.evaluate(() => performance.getEntriesByType('resource').reduce((a, e) => a + (e.transferSize || 0), performance.getEntriesByType('navigation')[0]?.transferSize || 0));
  const dtz = await page.waitForFunction(
    () => {
      const card = document.querySelector('syzygy-board')?.querySelector('.sb-verdict');
      const ok = card && !card.classList.contains('sb-stale') && card.dataset.tone !== 'loading' && card.dataset.stage !== 'outcome';
      return ok ? performance.now() : false;
    },
    null,
    { timeout: 60000, polling: 50 },
  );
  const dtzMs = await dtz.jsonValue();
  await context.close();
  return { ms, bytes, served, dtzMs };
}

/**
 * HTTP/2 in Chromium as users have it, with no DevTools protocol attached
 * (see plain-chromium.mjs): each position probed RUNS times, each in a new
 * browser process, and its requests replayed by bare fetch() in another:
 * what this machine and browser take for the requests alone, with
 * nothing decoded or stored.
 */
async function plainColumn(say, siteUrl, base, fens, want) {
  const plain = await plainChromium(siteUrl);
  const rows = [];
  const replays = [];
  try {
    // Chromium's first start reads its files from disk: one run first, not timed.
    await plain.run('probe.html', { fen: fens[0], base });
    for (let i = 0; i < fens.length; i++) {
      const runs = [];
      const replayed = [];
      for (let run = 0; run < RUNS; run++) {
        const r = await plain.run('probe.html', { fen: fens[i], base });
        if (JSON.stringify(r.result) !== JSON.stringify(want[i])) throw new Error(`plain Chromium: ${fens[i]} differs from the CLI`);
        runs.push({ fen: fens[i], ...r.last, outcome: r.outcome, verdict: r.verdict, full: r.full, stored: null });
        replayed.push((await plain.run('replay.html', { base }, planOf(r.requests))).ms);
      }
      rows.push(medianRow(runs));
      replays.push(median(replayed));
    }
  } finally {
    await plain.close();
  }
  report(say, 'Chromium without DevTools attached (a new process per run), HTTP/2', rows);
  say(`  its requests replayed by bare fetch() (each sent once the answers it may have waited on are in; nothing decoded or stored): ${s(median(replays))} / ${s(worst(replays))}`);
}

/** One position's runs as one row: each numeric figure's median. */
function medianRow(runs) {
  const row = { ...runs[0] };
  for (const [k, v] of Object.entries(row)) if (typeof v === 'number') row[k] = median(runs.map((r) => r[k]));
  return row;
}

function report(say, title, rows) {
  const col = (k) => rows.map((r) => r[k]).filter((v) => v !== null && v !== undefined);
  const mw = (k, f) => {
    const v = col(k);
    return v.length ? `${f(median(v))} / ${f(worst(v))}` : 'n/a';
  };
  const worstOf = (k) => rows.reduce((a, r) => (r[k] > a[k] ? r : a), rows[0]);
  say('');
  say(`${title} (median / worst over ${rows.length}${RUNS > 1 ? `, each the median of ${RUNS} runs` : ''}):`);
  say(`  outcome ${mw('outcome', s)}; verdict ${mw('verdict', s)}; full analysis ${mw('full', s)} (worst: ${worstOf('full').fen})`);
  if (col('stored').length) say(`  promise resolved (the pages in IndexedDB too) ${mw('stored', s)}`);
  say(`  requests ${mw('requests', String)}; bytes ${mw('bytes', kib)}; waves ${mw('waves', String)}; rounds ${mw('rounds', String)}`);
  // --rows: every position, to see where the worst figures come from.
  if (process.argv.includes('--rows')) {
    for (const r of rows) say(`    ${r.fen.padEnd(40)} outcome ${r.outcome === null ? 'n/a' : s(r.outcome)}, verdict ${r.verdict === null ? 'n/a' : s(r.verdict)}, full ${s(r.full)}${r.stored ? ` (resolved ${s(r.stored)})` : ''}, ${r.requests} requests, ${r.waves} waves, ${r.rounds} rounds${r.attempts ? `, ${r.attempts} attempts in ${r.attemptMs} ms` : ''}`);
  }
  for (const fen of PROMOTIONS) {
    const r = rows.find((x) => x.fen === fen);
    if (r) say(`  ${fen}: outcome ${r.outcome === null ? 'n/a' : s(r.outcome)}, verdict ${r.verdict === null ? 'n/a' : s(r.verdict)}, full ${s(r.full)}, ${r.requests} requests, ${kib(r.bytes)}, ${r.waves} waves`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
