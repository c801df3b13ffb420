// The npm package: `npm pack` of pkg/ (after scripts/build-package.mjs), installed
// offline into a fresh project that webpack bundles with nothing but an entry
// file, then probed in Chromium: once through the Tablebase API, once through
// the <syzygy-board> element of the package's second entry. Expected answers
// come from the CLI on the same tables.
import { describe, it as baseIt, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { skipReason, startSite, launch, newPage, waitVerdict, cliProbe, expectedHeadline, REPO, PKG, tempDir } from './helpers.mjs';

const skip = skipReason({ needCli: true });
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 300_000 }, fn);
const FEN = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
const NPM = process.env.npm_execpath && process.env.npm_execpath.endsWith('.js') ? [process.execPath, process.env.npm_execpath] : ['npm'];
const npm = (args, cwd) => execFileSync(NPM[0], [...NPM.slice(1), ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('npm package', () => {
  let dir;
  let site;
  let browser;
  let manifest;
  let tarball;
  before(async () => {
    if (skip) return;
    execFileSync(process.execPath, [path.join(REPO, 'scripts', 'build-package.mjs')], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
    manifest = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8'));
    dir = tempDir('syzygy-package-');
    const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', dir, PKG], REPO));
    tarball = packed;
    // A fresh project: a package.json, an entry, a webpack config naming only entry and output.
    const app = path.join(dir, 'app');
    fs.mkdirSync(path.join(app, 'src'), { recursive: true });
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'probe-app', version: '1.0.0', private: true }, null, 2));
    npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(dir, packed.filename)], app);
    fs.writeFileSync(
      path.join(app, 'src', 'index.js'),
      `import init, { Tablebase } from 'syzygy-web';
import { SyzygyBoardElement } from 'syzygy-web/element';
window.probeWithApi = async (urls, fen) => {
  await init();
  const tb = new Tablebase({ urls });
  const r = await tb.probe(fen);
  return { wdl: r.wdl, dtz: r.dtz, category: r.category, moves: r.moves.map((m) => m.uci) };
};
window.elementClassIsDefined = customElements.get('syzygy-board') === SyzygyBoardElement;
`,
    );
    // webpack and its CLI come from this repository's node_modules (offline).
    fs.writeFileSync(
      path.join(app, 'webpack.config.cjs'),
      `module.exports = { mode: 'production', entry: './src/index.js', output: { path: __dirname + '/dist', filename: 'main.js', publicPath: 'auto', clean: true } };\n`,
    );
    execFileSync(process.execPath, [path.join(REPO, 'node_modules', 'webpack', 'bin', 'webpack.js'), '--config', 'webpack.config.cjs'], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] });
    fs.writeFileSync(
      path.join(app, 'dist', 'index.html'),
      `<!doctype html><meta charset="utf-8"><script src="main.js"></script><body><syzygy-board fen="${FEN}" tables="/tables/"></syzygy-board></body>`,
    );
    site = await startSite({ staticDir: path.join(app, 'dist') });
    browser = await launch();
  });
  after(async () => {
    if (browser) await browser.close();
    if (site) await site.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('has the fields an installable package needs and packs only its files', () => {
    for (const k of ['name', 'version', 'license', 'exports', 'types', 'files', 'sideEffects']) assert.ok(manifest[k], `package.json lacks ${k}`);
    assert.deepEqual(Object.keys(manifest.exports).slice(0, 2), ['.', './element']);
    assert.deepEqual(manifest.sideEffects, ['./element.js']);
    const packed = tarball.files.map((f) => f.path).sort();
    for (const f of ['package.json', 'README.md', 'syzygy_web.js', 'syzygy_web.d.ts', 'syzygy_web_bg.wasm', 'worker/generator.js', 'worker/generator_bg.wasm', 'element.js', 'element.d.ts']) assert.ok(packed.includes(f), `${f} not packed: ${packed}`);
    assert.ok(packed.every((f) => !f.startsWith('..') && !f.includes('node_modules')), packed.join(' '));
    console.log(`# ${tarball.filename}: ${tarball.size} bytes packed, ${tarball.unpackedSize} unpacked, ${packed.length} files`);
  });

  it('a fresh webpack project bundles it and probes with the API and the element', async () => {
    const [cli] = cliProbe([FEN]);
    const page = await newPage(browser);
    await page.goto(site.url);
    const r = await page.evaluate(({ urls, fen }) => window.probeWithApi(urls, fen), { urls: [`${site.url}tables/`], fen: FEN });
    assert.deepEqual(r, { wdl: cli.wdl, dtz: cli.dtz, category: cli.category, moves: cli.moves.map((m) => m.uci) });
    assert.equal(await page.evaluate(() => window.elementClassIsDefined), true);
    const v = await waitVerdict(page, FEN);
    assert.equal(v.headline, expectedHeadline(cli));
    // The wasm came from the project's own output folder, emitted by webpack.
    const wasm = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.wasm')));
    assert.equal(wasm.length, 1, JSON.stringify(wasm));
    assert.deepEqual(page.errors.map(String), []);
    await page.close();
  });
});
