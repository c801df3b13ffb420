// Helpers for the wasm package tests in headless Chromium: two range servers
// (one serves the repo root, so /pkg/ and /tests/browser/page.html resolve;
// the other serves the tables, from another origin, as a CDN would), the
// browser, a page with a Tablebase in it, and the native CLI as the oracle.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TABLES = path.resolve(process.env.SYZYGY_PATH || path.join(REPO, '..', 'shared', 'syzygy'));
export const CLI = path.join(REPO, 'target', 'release', 'syzygy-web');
const PKG_JS = path.join(REPO, 'pkg', 'syzygy_web.js');
const PKG_WORKER = path.join(REPO, 'pkg', 'worker', 'generator.js');

export { CHROMIUM_ARGS, launch } from '../chromium.mjs';
// A loopback table base where nothing listens: every request fails to connect.
export { deadUrl } from '../e2e/helpers.mjs';
import { CHROMIUM_ARGS, launch } from '../chromium.mjs';

/** Why these tests cannot run here (printed, so a skip never looks like a pass), or false. */
export function skipReason() {
  let why = null;
  if (!fs.existsSync(PKG_JS) || !fs.existsSync(PKG_WORKER)) why = 'the wasm package pkg/ (or its worker/) is missing: run scripts/build-wasm.sh';
  else if (!fs.existsSync(CLI)) why = 'the CLI is missing: run cargo build --release';
  else if (!fs.existsSync(path.join(TABLES, 'KQvK.rtbw'))) why = `no Syzygy tables at ${TABLES} (set SYZYGY_PATH)`;
  else if (!fs.existsSync('/usr/bin/chromium') && !process.env.CHROMIUM) why = 'no /usr/bin/chromium (apt-get install chromium)';
  if (why) console.log(`SKIPPED: ${why}`);
  // The test command's full run needs every suite to run (scripts/test.sh).
  if (why && process.env.SYZYGY_WEB_REQUIRE_ALL) throw new Error(`SYZYGY_WEB_REQUIRE_ALL is set: ${why}`);
  return why || false;
}

async function serverModule() {
  return import(path.join(REPO, 'tests', 'server', 'range-server.mjs'));
}

/**
 * Starts the page server (repo root) and the table server. Returns
 * {site, tables, pageUrl, base, close()}; `tables` has stats/reset/setFaults.
 */
export async function startServers({ latencyMs = 0, tables: dirs = [TABLES] } = {}) {
  const { startServer } = await serverModule();
  const site = await startServer({ port: 0, tables: [], static: REPO });
  // The page is on 127.0.0.1, the tables on localhost: another origin, so CORS matters.
  const tables = await startServer({ port: 0, host: '127.0.0.1', tables: dirs, latencyMs });
  const base = `http://localhost:${tables.port}/tables/`;
  return {
    site,
    tables,
    pageUrl: `${site.url}tests/browser/page.html`,
    base,
    async close() {
      await Promise.all([site.close(), tables.close()]);
    },
  };
}

/**
 * For a describe block: the servers and the browser, started before its
 * tests and closed after them; `open(browser, servers)`, if given, makes
 * the page its tests share. Returns {servers, browser, page}, filled in
 * once the block's tests start.
 */
export function suiteBrowser(open = null) {
  const env = {};
  before(async () => {
    env.servers = await startServers();
    env.browser = await launch();
    if (open) env.page = await open(env.browser, env.servers);
  });
  after(async () => {
    await env.browser?.close();
    await env.servers?.close();
  });
  return env;
}

/** `suiteBrowser`'s `open`: page.html in a fresh context, with `window.tb` made. */
export const tablebasePage = async (browser, servers) => openTablebase(await browser.newContext(), servers);


/** A persistent context (its own profile dir, so IndexedDB survives reloads). */
export async function launchPersistent() {
  const { chromium } = await import('playwright-core');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syzygy-browser-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const close = context.close.bind(context);
  context.close = async () => {
    await close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return context;
}

/** Opens page.html in a context and creates `window.tb = new Tablebase(options)`. */
export async function openTablebase(context, servers, options = {}, page = null) {
  page = page || (await context.newPage());
  page.on('pageerror', (e) => console.log(`page error: ${e}`));
  await page.goto(servers.pageUrl);
  await page.waitForFunction(() => window.ready === true);
  await createTablebase(page, { urls: [servers.base], ...options });
  return page;
}

/** Replaces the page's Tablebase by a new one. */
export async function createTablebase(page, options) {
  await page.evaluate((o) => {
    window.tb = new window.Tablebase(o);
  }, options);
}

/**
 * Probes FENs in the page concurrently: per FEN, the result or {error,
 * code}. Returns once no request is in flight either: a probe answers as
 * soon as it can, and requests it named before it knew it would not need
 * them may still be out, which the server's counts would otherwise race.
 */
export function probeAll(page, fens) {
  return page.evaluate(async (fens) => {
    const out = await Promise.all(
      fens.map((f) =>
        window.tb.probe(f).then(
          (r) => r,
          (e) => ({ error: String(e && e.message), code: e && e.code }),
        ),
      ),
    );
    while (window.tb.stats().requestsInFlight > 0) await new Promise((r) => setTimeout(r, 5));
    return out;
  }, fens);
}

/**
 * Requests of a range server's log ({path, range} entries) that ask again
 * for bytes an earlier request of the same file asked for, as messages;
 * empty when no byte was fetched twice.
 */
export function refetched(log) {
  const byPath = new Map();
  for (const e of log) {
    const m = /^bytes=(\d+)-(\d+)$/.exec(e.range || '');
    if (!m) continue;
    if (!byPath.has(e.path)) byPath.set(e.path, []);
    byPath.get(e.path).push([Number(m[1]), Number(m[2])]);
  }
  const out = [];
  for (const [path, ranges] of byPath) {
    ranges.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < ranges.length; i++) {
      if (ranges[i][0] <= ranges[i - 1][1]) out.push(`${path}: bytes ${ranges[i - 1].join('-')} and ${ranges[i].join('-')} overlap`);
    }
  }
  return out;
}

export async function probe(page, fen) {
  return (await probeAll(page, [fen]))[0];
}

export const tbStats = (page) => page.evaluate(() => window.tb.stats());

/** The CLI's answers, one parsed object per FEN; `extra` adds options (e.g. --mainline). */
export function cliProbe(fens, extra = []) {
  let out;
  try {
    out = execFileSync(CLI, ['probe', '--json', ...extra, '--path', TABLES], {
      input: fens.join('\n') + '\n',
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (err) {
    if (err.status !== 1) throw err; // 1: some FEN had an error
    out = err.stdout;
  }
  const lines = out.split('\n').filter((l) => l.trim());
  if (lines.length !== fens.length) throw new Error(`CLI printed ${lines.length} lines for ${fens.length} FENs`);
  return lines.map((l) => JSON.parse(l));
}

/** The size of a table file on disk. */
export const fileSize = (name) => fs.statSync(path.join(TABLES, name)).size;

/** A small deterministic PRNG (mulberry32). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random FEN of a material like "KRPvKR": pieces on distinct squares, pawns on ranks 2-7. */
export function randomFen(material, rand) {
  const [white, black] = material.split('v');
  const board = new Array(64).fill(null);
  const place = (ch) => {
    for (;;) {
      const sq = Math.floor(rand() * 64);
      const rank = sq >> 3;
      if (board[sq] || (/[pP]/.test(ch) && (rank === 0 || rank === 7))) continue;
      board[sq] = ch;
      return;
    }
  };
  for (const c of white) place(c.toUpperCase());
  for (const c of black) place(c.toLowerCase());
  const rows = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const p = board[rank * 8 + file];
      if (p) {
        if (empty) row += empty;
        row += p;
        empty = 0;
      } else empty++;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return `${rows.join('/')} ${rand() < 0.5 ? 'w' : 'b'} - - 0 1`;
}

/**
 * `n` legal positions of the given materials, deterministic for a seed:
 * random placements kept when the page's tb.legalMoves(fen) does not throw.
 */
export async function legalPositions(page, materials, n, seed) {
  const rand = prng(seed);
  const out = [];
  for (let i = 0; out.length < n && i < n * 50; i++) {
    const fen = randomFen(materials[out.length % materials.length], rand);
    const legal = await page.evaluate((f) => {
      try {
        window.tb.legalMoves(f);
        return true;
      } catch (e) {
        return false;
      }
    }, fen);
    if (legal) out.push(fen);
  }
  if (out.length < n) throw new Error(`only ${out.length} legal positions found`);
  return out;
}

/** The record IndexedDB keeps of a file's URL ({size, validator, saved?}), read in the page. */
export function idbFileRecord(page, url) {
  return page.evaluate(
    (url) =>
      new Promise((resolve, reject) => {
        const req = indexedDB.open('syzygy-web');
        req.onsuccess = () => {
          const get = req.result.transaction('files').objectStore('files').get(url);
          get.onsuccess = () => resolve(get.result);
          get.onerror = () => reject(get.error);
        };
        req.onerror = () => reject(req.error);
      }),
    url,
  );
}
