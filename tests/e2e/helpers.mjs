// Shared helpers for the browser tests: prerequisites, building the site,
// the range server, Chromium, the CLI oracle and board geometry.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// The wasm-bindgen package (SYZYGY_PKG overrides it, as in webpack.config.js).
export const PKG = path.resolve(process.env.SYZYGY_PKG || path.join(REPO, 'pkg'));
export const PKG_JS = path.join(PKG, 'syzygy_web.js');
export const PKG_WASM = path.join(PKG, 'syzygy_web_bg.wasm');
// The generation worker's module (scripts/build-wasm.sh builds it beside the decoder's).
export const PKG_WORKER = path.join(PKG, 'worker', 'generator.js');
export const CLI = path.join(REPO, 'target', 'release', process.platform === 'win32' ? 'syzygy-web.exe' : 'syzygy-web');
export const TABLES = path.resolve(process.env.SYZYGY_PATH || path.join(REPO, '..', 'shared', 'syzygy'));
export const DIST = path.join(REPO, 'www', 'dist');
export const RESULTS = path.join(REPO, 'test-results');

export { CHROMIUM_ARGS, launch } from '../chromium.mjs';
import { launch } from '../chromium.mjs';
import { before, after } from 'node:test';
import { exactByMoves } from '../../www/src/exact-dtz.js';

/**
 * Why the browser tests cannot run here, or null. Only a missing wasm package,
 * CLI or table folder is a reason to skip; everything else must fail loudly.
 */
export function missingPrerequisite({ needCli = false } = {}) {
  if (!fs.existsSync(PKG_JS) || !fs.existsSync(PKG_WASM) || !fs.existsSync(PKG_WORKER))
    return `SKIPPED: the wasm package is missing or from before the worker's module (${path.relative(REPO, PKG_WORKER)}); run scripts/build-wasm.sh`;
  if (needCli && !fs.existsSync(CLI)) return `SKIPPED: the CLI is missing (${path.relative(REPO, CLI)}); run cargo build --release`;
  if (!fs.existsSync(path.join(TABLES, 'KQvK.rtbw'))) return `SKIPPED: no Syzygy tables at ${TABLES} (set SYZYGY_PATH)`;
  return null;
}

/** Prints the skip reason so that a skipped run never looks like a pass. */
export function skipReason(opts) {
  const why = missingPrerequisite(opts);
  if (why) console.log(`# ${why}`);
  // The test command's full run needs every suite to run (scripts/test.sh).
  if (why && process.env.SYZYGY_WEB_REQUIRE_ALL) throw new Error(`SYZYGY_WEB_REQUIRE_ALL is set: ${why}`);
  return why || false;
}

function newestMtime(p) {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const name of fs.readdirSync(p)) m = Math.max(m, newestMtime(path.join(p, name)));
  return m;
}

/** Builds www/dist with webpack unless it is newer than every input. */
export function ensureBuilt() {
  const out = path.join(DIST, 'syzygy-board.js');
  const inputs = [path.join(REPO, 'www', 'src'), path.join(REPO, 'www', 'static'), path.join(REPO, 'webpack.config.js'), PKG];
  const newest = Math.max(...inputs.filter((p) => fs.existsSync(p)).map(newestMtime));
  if (!process.env.E2E_REBUILD && fs.existsSync(out) && fs.statSync(out).mtimeMs >= newest && fs.existsSync(path.join(DIST, 'sw.js'))) return;
  const webpack = path.join(REPO, 'node_modules', 'webpack', 'bin', 'webpack.js');
  execFileSync(process.execPath, [webpack, '--mode', 'production'], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** Starts the project's range server on a free port: {url, close(), stats(), reset(), setFaults()}. */
export async function startSite({ staticDir = DIST, tables = [TABLES], directoryIndex = true } = {}) {
  const mod = await import(path.join(REPO, 'tests', 'server', 'range-server.mjs'));
  if (typeof mod.startServer === 'function') {
    const server = await mod.startServer({ port: 0, tables, static: staticDir, directoryIndex });
    return server;
  }
  // Fallback: the CLI prints `listening on http://HOST:PORT/`.
  const child = spawn(process.execPath, [path.join(REPO, 'tests', 'server', 'range-server.mjs'), '--port', '0', '--static', staticDir, ...tables.flatMap((t) => ['--tables', t])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /listening on (\S+)/.exec(buf);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`range server exited with ${code}`)));
  });
  return { url, close: async () => child.kill('SIGTERM') };
}

/** A loopback URL where nothing listens (a port that was free a moment ago). */
export async function deadUrl() {
  const net = await import('node:net');
  const srv = net.createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return `http://127.0.0.1:${port}/tables/`;
}


/** A new page that fails the test on uncaught page errors (collected in page.errors). */
export async function newPage(browser, { width = 1280, height = 900, colorScheme = 'dark', mobile = false, serviceWorkers = 'allow' } = {}) {
  const context = await browser.newContext({
    viewport: { width, height },
    colorScheme,
    serviceWorkers,
    hasTouch: mobile,
    isMobile: mobile,
    deviceScaleFactor: mobile ? 2 : 1,
  });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e));
  page.on('console', (m) => {
    if (m.type() === 'error' || process.env.E2E_VERBOSE) console.log(`# browser ${m.type()}: ${m.text()}`);
  });
  return page;
}

/** Runs the CLI on FENs: one parsed JSON object per FEN. */
export function cliProbe(fens) {
  let out;
  try {
    out = execFileSync(CLI, ['probe', '--json', '--path', TABLES, ...fens], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    // 1: some FEN had an error; anything else (a crash part-way) fails the
    // test rather than leaving it fewer answers to check.
    if (err.status !== 1) throw err;
    out = err.stdout;
  }
  const lines = out.split('\n').filter((l) => l.trim());
  if (lines.length !== fens.length) throw new Error(`CLI printed ${lines.length} lines for ${fens.length} FENs`);
  return lines.map((l) => JSON.parse(l));
}

/** The app URL for a FEN. */
export const appUrl = (base, fen, extra = '') => `${base}${extra}#fen=${fen.replace(/ /g, '_')}`;

/**
 * Waits until the verdict card shows a settled result or error for `fen`,
 * and the move list its values (the verdict arrives first); with
 * `{ moves: false }`, the verdict alone.
 */
export async function waitVerdict(page, fen, root = 'syzygy-board', { moves = true } = {}) {
  await page.waitForFunction(
    ({ root, fen, moves }) => {
      const el = document.querySelector(root);
      const card = el && el.querySelector('.sb-verdict');
      if (!card || card.classList.contains('sb-stale')) return false;
      if (!['white', 'black', 'draw', 'cursed', 'unclear', 'error'].includes(card.dataset.tone)) return false;
      // The outcome (who wins) comes before the DTZ: wait for the verdict.
      if (card.dataset.stage === 'outcome') return false;
      const list = el.querySelector('.sb-moves-card');
      if (moves && list && list.classList.contains('sb-stale')) return false;
      return !fen || el.fen === fen;
    },
    { root, fen, moves },
    { timeout: 20000 },
  );
  return page.evaluate((root) => {
    const el = document.querySelector(root);
    const card = el.querySelector('.sb-verdict');
    const text = (sel) => (card.querySelector(sel) ? card.querySelector(sel).textContent.trim() : null);
    return {
      tone: card.dataset.tone,
      category: card.dataset.category,
      error: card.dataset.tone === 'error' ? card.dataset.error : null,
      // A verdict kept after the probe failed (its moves' values): the error's code.
      incomplete: card.dataset.tone !== 'error' && card.dataset.error ? card.dataset.error : null,
      headline: text('.sb-headline'),
      tag: text('.sb-tag'),
      dtz: text('.sb-dtz-badge'),
      summary: text('.sb-summary'),
      fen: el.fen,
    };
  }, root);
}

/** Screen coordinates of the centre of a square on the (first) board. */
export async function squareCenter(page, square, root = 'syzygy-board') {
  const box = await page.locator(`${root} cg-board`).first().boundingBox();
  const orientation = await page.evaluate((root) => (document.querySelector(`${root} .cg-wrap.orientation-black`) ? 'black' : 'white'), root);
  const file = square.charCodeAt(0) - 97;
  const rank = square.charCodeAt(1) - 49;
  const col = orientation === 'white' ? file : 7 - file;
  const row = orientation === 'white' ? 7 - rank : rank;
  return { x: box.x + (col + 0.5) * (box.width / 8), y: box.y + (row + 0.5) * (box.height / 8) };
}

/** Drags with the mouse from one point to another in small steps. */
export async function dragMouse(page, from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 5 });
  await page.mouse.up();
}

/** Drags a piece from one square to another. */
export async function dragMove(page, from, to, root) {
  await dragMouse(page, await squareCenter(page, from, root), await squareCenter(page, to, root));
}

/**
 * The headline the app must show for a CLI answer: from its category (the
 * halfmove clock applied) when present, else from its wdl.
 */
export function expectedHeadline(answer) {
  // (A "maybe" its moves' exact DTZ settles is settled: see expectedDtzLabel.)
  const cli = exactByMoves(answer);
  const stm = cli.turn === 'black' ? 'Black' : 'White';
  const opp = cli.turn === 'black' ? 'White' : 'Black';
  if (cli.checkmate) return `${opp} wins`;
  if (cli.stalemate || cli.insufficientMaterial) return 'Draw';
  const category = cli.category || { 2: 'win', 1: 'cursed-win', 0: 'draw', '-1': 'blessed-loss', '-2': 'loss' }[cli.wdl];
  return {
    win: `${stm} wins`,
    'cursed-win': `Cursed win for ${stm}`,
    draw: 'Draw',
    'blessed-loss': `Blessed loss for ${stm}`,
    loss: `${opp} wins`,
    'maybe-win': `Win for ${stm} or 50-move draw`,
    'maybe-loss': `Win for ${opp} or 50-move draw`,
  }[category];
}

/**
 * The DTZ label the app must show for a CLI answer, or null for none: a
 * rounded DTZ its moves settle exact (exact-dtz.js, checked against
 * generated tables by exact-dtz.test.mjs) shows exact.
 */
export function expectedDtzLabel(answer) {
  const cli = exactByMoves(answer);
  if (cli.checkmate || cli.stalemate || cli.insufficientMaterial || cli.wdl === 0 || !cli.dtz) return null;
  return `DTZ ${cli.precise === false ? '~' : ''}${Math.abs(cli.dtz)}`;
}

/** A temporary folder for a test page; removed by the caller. */
export function tempDir(prefix = 'syzygy-e2e-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Seeded PRNG (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The built site on a range server and one Chromium, for the tests of the
 * enclosing `describe` (call it there): started before them unless `skip`,
 * closed after. Read `ctx.site` and `ctx.browser` inside the tests.
 */
export function siteAndBrowser(skip) {
  const ctx = { site: null, browser: null };
  before(async () => {
    if (skip) return;
    ensureBuilt();
    ctx.site = await startSite();
    ctx.browser = await launch();
  });
  after(async () => {
    if (ctx.browser) await ctx.browser.close();
    if (ctx.site) await ctx.site.close();
  });
  return ctx;
}
