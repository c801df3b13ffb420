#!/usr/bin/env node
// Turns pkg/ (written by scripts/build-wasm.sh) into an npm package:
// package.json (name, version and license from Cargo.toml; exports, types,
// files, sideEffects), README.md and the element entry (pkg/element.js,
// built by webpack with --env package, and its types element.d.ts).
//
//   node scripts/build-package.mjs      then: npm pack ./pkg
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PKG = path.resolve(process.env.SYZYGY_PKG || path.join(REPO, 'pkg'));
if (!fs.existsSync(path.join(PKG, 'syzygy_web.js'))) {
  console.error(`build-package: ${path.relative(REPO, PKG)}/syzygy_web.js is missing; run scripts/build-wasm.sh first`);
  process.exit(1);
}

const cargo = fs.readFileSync(path.join(REPO, 'Cargo.toml'), 'utf8');
const field = (name) => new RegExp(`^${name}\\s*=\\s*"([^"]+)"`, 'm').exec(cargo)[1];

const webpack = path.join(REPO, 'node_modules', 'webpack', 'bin', 'webpack.js');
execFileSync(process.execPath, [webpack, '--mode', 'production', '--env', 'package'], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'] });
for (const f of ['README.md', 'element.d.ts']) fs.copyFileSync(path.join(REPO, 'www', 'package', f), path.join(PKG, f));

const manifest = {
  name: 'syzygy-web',
  version: field('version'),
  description: 'Syzygy endgame tablebases probed in the browser over HTTP Range requests (WebAssembly), and a <syzygy-board> element',
  license: field('license'),
  type: 'module',
  main: './syzygy_web.js',
  module: './syzygy_web.js',
  types: './syzygy_web.d.ts',
  exports: {
    '.': { types: './syzygy_web.d.ts', default: './syzygy_web.js' },
    './element': { types: './element.d.ts', default: './element.js' },
    './syzygy_web_bg.wasm': './syzygy_web_bg.wasm',
    './package.json': './package.json',
  },
  // worker/: the generation worker's module, which the runtime's worker imports by relative path.
  files: ['syzygy_web.js', 'syzygy_web.d.ts', 'syzygy_web_bg.wasm', 'syzygy_web_bg.wasm.d.ts', 'snippets/', 'worker/', 'element.js', 'element.js.LICENSE.txt', 'element.d.ts', 'README.md'],
  // Only the element entry does something on import: it defines <syzygy-board>.
  sideEffects: ['./element.js'],
  keywords: ['chess', 'syzygy', 'tablebase', 'endgame', 'wasm', 'web-component'],
};
fs.writeFileSync(path.join(PKG, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
const size = (f) => fs.statSync(path.join(PKG, f)).size;
console.log(`package ${manifest.name}@${manifest.version}: element.js ${size('element.js')} bytes, syzygy_web_bg.wasm ${size('syzygy_web_bg.wasm')} bytes`);
