// Builds the static site into www/dist/:
//   syzygy-board.js   the one script an embedding page includes (app, chessground, CSS)
//   *.wasm            the decoder and the generation worker's module, located
//                     relative to syzygy-board.js at run time
//   sw.js             service worker that keeps the app shell for offline use
//   index.html, ...   copied from www/static/
//
// The wasm-bindgen package is resolved as `syzygy-web-pkg`, by default ./pkg
// (SYZYGY_PKG=/other/dir overrides it, e.g. to build against another build).
//
// `--env package` builds the npm package's element entry instead: pkg/element.js,
// an ES module with chessground and the styles inside that imports the
// package's own ./syzygy_web.js, so a bundler sees the package's decoder
// module once (and the generation worker's, behind the worker)
// (scripts/build-package.mjs runs it).
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const webpack = require('webpack');

const root = __dirname;
const pkgDir = path.resolve(process.env.SYZYGY_PKG || path.join(root, 'pkg'));
// chessground's package exports hide its package.json: find its folder by path.
const chessgroundDir = path.join(root, 'node_modules', '@lichess-org', 'chessground');
const staticDir = path.join(root, 'www', 'static');

/** Copies www/static/ into the output, names the wasm in the page's preload, fills in the service worker's shell list. */
class SiteAssetsPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('SiteAssetsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'SiteAssetsPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          for (const name of fs.readdirSync(staticDir)) {
            const file = path.join(staticDir, name);
            compilation.fileDependencies.add(file);
            compilation.emitAsset(name, new webpack.sources.RawSource(fs.readFileSync(file)));
          }
        },
      );
      // The page preloads the decoder under its hashed name.
      compilation.hooks.processAssets.tap(
        { name: 'SiteAssetsPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_SUMMARIZE },
        () => {
          // The decoder's module; the generation worker's (generator_bg) loads only when a table is made.
          const wasm = compilation.getAssets().filter((a) => a.name.startsWith('syzygy_web_bg.') && a.name.endsWith('.wasm'));
          const page = compilation.getAsset('index.html');
          const src = page.source.source().toString();
          if (wasm.length !== 1 || !src.includes('__WASM__')) throw new Error('index.html needs its __WASM__ marker and one decoder .wasm asset');
          compilation.updateAsset('index.html', new webpack.sources.RawSource(src.replace(/__WASM__/g, wasm[0].name)));
        },
      );
      compilation.hooks.processAssets.tap(
        { name: 'SiteAssetsPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          // The page asks for the script with its content's hash (final
          // only now, past minifying and hashing): a page of a new deploy
          // never runs the script an older service worker keeps.
          const script = scriptUrl(compilation);
          const page = compilation.getAsset('index.html').source.source().toString();
          if (!page.includes('__SCRIPT__')) throw new Error('index.html needs its __SCRIPT__ marker');
          compilation.updateAsset('index.html', new webpack.sources.RawSource(page.replace(/__SCRIPT__/g, script)));
          const shell = compilation
            .getAssets()
            .map((a) => a.name)
            .filter((n) => n !== 'sw.js' && !n.endsWith('.map') && !n.endsWith('.LICENSE.txt'))
            .sort();
          const hash = crypto.createHash('sha256');
          for (const n of shell) hash.update(n).update(compilation.getAsset(n).source.buffer());
          const version = hash.digest('hex').slice(0, 12);
          const sw = compilation.getAsset('sw.js');
          const src = sw.source.source().toString();
          if (!src.includes('__SHELL_MANIFEST__')) throw new Error('sw.js lost its __SHELL_MANIFEST__ marker');
          const files = ['./', ...shell.map((n) => './' + (n === SCRIPT ? script : n))];
          // Named by content hash (chunks, wasm, the script's ?v=): what a given name holds never changes.
          const immutable = files.filter((f) => f.includes('?v=') || /\.[0-9a-f]{10}\.(js|wasm)$/.test(f));
          const manifest = JSON.stringify({ version, files, immutable });
          compilation.updateAsset('sw.js', new webpack.sources.RawSource(src.replace(/__SHELL_MANIFEST__/g, manifest)));
        },
      );
    });
  }
}

const SCRIPT = 'syzygy-board.js';

/** The page's URL of the script: its stable name (what embedding pages use) and its content's hash. */
function scriptUrl(compilation) {
  const hash = crypto.createHash('sha256').update(compilation.getAsset(SCRIPT).source.buffer()).digest('hex');
  return `${SCRIPT}?v=${hash.slice(0, 10)}`;
}

/** The <syzygy-board> entry of the npm package (see the top of this file). */
function packageElement(production) {
  return {
    mode: production ? 'production' : 'development',
    context: root,
    entry: { element: './www/src/index.js' },
    experiments: { outputModule: true },
    output: {
      path: pkgDir,
      filename: '[name].js',
      library: { type: 'module' },
      module: true,
      // No run-time public path: the one asset, the wasm, is the glue's business.
      publicPath: '',
      clean: false,
    },
    externalsType: 'module',
    externals: { 'syzygy-web-pkg/syzygy_web.js': './syzygy_web.js' },
    target: ['web', 'es2020'],
    devtool: false,
    resolve: { alias: { 'chessground-assets': path.join(chessgroundDir, 'assets') } },
    module: {
      // url: false keeps chessground's data: URIs inside the CSS text, so the consumer's bundler sees no asset there.
      rules: [{ test: /\.css$/, use: [{ loader: 'css-loader', options: { exportType: 'string', url: false, import: true } }] }],
    },
    optimization: { splitChunks: false },
    performance: { hints: false },
    stats: 'minimal',
  };
}

module.exports = (env, argv) => {
  const production = argv.mode !== 'development';
  if (env && env.package) return packageElement(production);
  return {
    mode: production ? 'production' : 'development',
    context: root,
    entry: {
      'syzygy-board': './www/src/index.js',
      sw: './www/src/sw.js',
    },
    output: {
      path: path.join(root, 'www', 'dist'),
      filename: '[name].js',
      // Lazy chunks named by build: a script only ever loads its own
      // build's (their content hashes would depend on each other).
      chunkFilename: '[name].[fullhash:10].js',
      assetModuleFilename: '[name].[contenthash:10][ext]',
      // Assets are found relative to the script's own URL, so any page can embed it.
      publicPath: 'auto',
      clean: true,
    },
    target: ['web', 'es2020'],
    devtool: production ? false : 'source-map',
    resolve: {
      alias: {
        'syzygy-web-pkg': pkgDir,
        'chessground-assets': path.join(chessgroundDir, 'assets'),
      },
    },
    module: {
      rules: [
        {
          test: /\.css$/,
          use: [{ loader: 'css-loader', options: { exportType: 'string', url: true, import: true } }],
        },
        { test: /\.wasm$/, type: 'asset/resource' },
        // wasm-bindgen --target web emits ES modules (whatever a package.json near them says).
        { test: /\.js$/, include: pkgDir, type: 'javascript/esm' },
      ],
    },
    plugins: [new SiteAssetsPlugin()],
    performance: { hints: false },
    stats: 'minimal',
  };
};
