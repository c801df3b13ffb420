// Values that are not what the JS API's types say: a FEN that is not a
// string, options of the wrong type. Each gets an Error with a stable
// `code` (`invalid-fen`, `options`), never a trap inside the wasm module
// (wasm-bindgen's glue copies any value into the module's memory as if it
// were a string), and the module answers as before afterwards.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, suiteBrowser, tablebasePage, cliProbe } from './helpers.mjs';

const skip = skipReason();
const FEN = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';

describe('wrong types at the JS API', { skip }, () => {
  const env = suiteBrowser(tablebasePage);

  it('a FEN that is not a string: invalid-fen from every method, and the module still answers', async () => {
    const seen = await env.page.evaluate(async () => {
      const values = [undefined, null, 42, 1.5, true, {}, [], ['8/8/8/4k3/8/8/8/R3K3 w - - 0 1'], () => 1, Symbol('s'), 2n, new Uint8Array(8)];
      const codeOf = async (f) => {
        try {
          await f();
          return 'answered';
        } catch (e) {
          return `${e && e.code}: ${e && e.message}`;
        }
      };
      const out = [];
      for (const v of values) {
        out.push(await codeOf(() => window.tb.probe(v)));
        out.push(await codeOf(() => window.tb.mainline(v)));
        out.push(await codeOf(() => window.tb.prefetch(v)));
        out.push(await codeOf(() => window.tb.legalMoves(v)));
      }
      return out;
    });
    assert.equal(seen.length, 48);
    for (const s of seen) assert.match(s, /^invalid-fen: invalid FEN: expected a string, got (undefined|null|number|boolean|object|function|symbol|bigint)$/);
    const [cli] = cliProbe([FEN]);
    const web = await env.page.evaluate((f) => window.tb.probe(f), FEN);
    assert.deepStrictEqual(web, cli);
  });

  it('a string far longer than any FEN is refused before the module copies it', async () => {
    // A huge one would be copied into wasm memory first, where an
    // allocation that fails traps the module.
    const seen = await env.page.evaluate(async () => {
      const long = 'K'.repeat(10_000_000);
      const out = [];
      for (const f of [() => window.tb.probe(long), () => window.tb.mainline(long), () => window.tb.legalMoves(long)]) {
        try {
          await f();
          out.push('answered');
        } catch (e) {
          out.push(`${e && e.code}: ${e && e.message}`);
        }
      }
      return out;
    });
    for (const s of seen) assert.equal(s, 'invalid-fen: invalid FEN: 10000000 characters, longer than any FEN');
  });

  it('options of the wrong type: the constructor throws code options, naming the option', async () => {
    const seen = await env.page.evaluate((base) => {
      const cases = [
        ['pageSize', 'x'], ['pageSize', -4096], ['pageSize', 3000], ['pageSize', NaN],
        ['memoryBudget', '64M'], ['memoryBudget', -1], ['idbBudget', Infinity], ['idbBudget', {}],
        ['concurrency', 'six'], ['concurrency', 0.5], ['concurrency', 2.5], ['wholeBodyLimit', []], ['wholeBodyLimit', 0],
        ['pageSize', 4096.5],
        ['manifest', 'KQvK.rtbw'], ['manifest', { 'KQvK.rtbw': 42 }], ['manifest', { 'KQvK.rtbw': 'http://[' }],
        ['early', [{ url: 'http://[', start: 0, end: 10, response: {} }]],
        ['onProgress', 'log'], ['onGenerate', 1], ['generate', 'sometimes'], ['urls', base], ['urls', ['http://[']],
        // Until 2026-11-30 these falsy ones took the defaults: generating
        // where `false` meant never, and no URL at all for an empty string.
        ['generate', false], ['generate', true], ['generate', 0], ['urls', ''],
        ['early', { url: base, end: 10 }], ['early', [{ url: base }]],
      ];
      const out = [];
      for (const [key, value] of cases) {
        try {
          new window.Tablebase({ urls: [base], [key]: value });
          out.push(`${key}: accepted`);
        } catch (e) {
          out.push(`${key}: ${e.code}: ${e.message}`);
        }
      }
      for (const value of [42, 'x', true]) {
        try {
          new window.Tablebase(value);
          out.push('options: accepted');
        } catch (e) {
          out.push(`options: ${e.code}: ${e.message}`);
        }
      }
      return out;
    }, env.servers.base);
    for (const s of seen) {
      const key = s.slice(0, s.indexOf(':'));
      assert.match(s, /^\w+: options: Tablebase option/, s);
      assert.ok(s.includes(key === 'options' ? 'Tablebase options must be an object' : key), s);
    }
    assert.equal(seen.length, 32);
  });

  it('probe options of the wrong type: code options', async () => {
    const seen = await env.page.evaluate(async (fen) => {
      const out = [];
      for (const options of [42, 'x', { onUpdate: 'log' }, { onUpdate: {} }, { generate: 'yes' }, { generate: true }, { moves: 'no' }, { moves: 0 }]) {
        try {
          await window.tb.probe(fen, options);
          out.push('answered');
        } catch (e) {
          out.push(`${e.code}: ${e.message}`);
        }
      }
      return out;
    }, FEN);
    assert.deepStrictEqual(seen, Array(8).fill("options: probe options must be an object whose onUpdate, if any, is a function, whose moves, if any, is a boolean, and whose generate, if any, is 'auto', 'always' or 'never'"));
  });

  it("mainline's and prefetch's options of the wrong type: code options", async () => {
    const seen = await env.page.evaluate(async (fen) => {
      const codeOf = (p) => p.then(() => 'answered', (e) => `${e.code}: ${e.message}`);
      const out = [];
      for (const options of [42, 'x', { toEnd: 'false' }, { toEnd: 1 }, { generate: 'sometimes' }]) out.push(await codeOf(window.tb.mainline(fen, options)));
      for (const onProgress of [42, 'log', {}]) out.push(await codeOf(window.tb.prefetch(fen, onProgress)));
      return out;
    }, FEN);
    assert.deepStrictEqual(seen, [
      ...Array(5).fill("options: mainline options must be an object whose toEnd, if any, is a boolean, and whose generate, if any, is 'auto', 'always' or 'never'"),
      ...Array(3).fill('options: prefetch onProgress must be a function'),
    ]);
  });

  it('free() (and `using`) closes the Tablebase once its calls under way end', async () => {
    // Until 2026-11-30 it freed the wasm wrapper alone: the generation
    // worker and the IndexedDB connection stayed.
    const seen = await env.page.evaluate(async () => {
      const Real = window.Worker;
      let terminated = 0;
      window.Worker = class extends Real {
        terminate() {
          terminated++;
          super.terminate();
        }
      };
      try {
        const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
        const tb = new window.Tablebase({ urls: [], generate: 'always' });
        const first = await tb.probe('8/8/8/4k3/8/8/8/R3K3 w - - 0 1');
        // A probe under way when the wrapper goes still answers; then the worker stops.
        const running = tb.probe('8/8/8/4k3/8/8/8/3QK3 w - - 0 1');
        tb.free();
        const atFree = terminated;
        const second = await running;
        await sleep(50);
        let later;
        try {
          tb.stats();
          later = 'answered';
        } catch (e) {
          later = 'threw';
        }
        return { first: first.wdl, second: second.wdl, atFree, after: terminated, later };
      } finally {
        window.Worker = Real;
      }
    });
    assert.deepStrictEqual(seen, { first: 2, second: 2, atFree: 0, after: 1, later: 'threw' });
  });

  it('an unknown option is named on the console, and the Tablebase works', async () => {
    const warned = [];
    const listen = (m) => m.type() === 'warning' && warned.push(m.text());
    env.page.on('console', listen);
    try {
      const seen = await env.page.evaluate(
        async ({ base, fen }) => {
          const codeOf = (f) => {
            try {
              f();
              return 'made';
            } catch (e) {
              return `${e.code}: ${e.message}`;
            }
          };
          return {
            wdl: (await new window.Tablebase({ urls: [base], retries: 3 }).probe(fen)).wdl,
            // `url` alone (for urls) would leave the page generating tables with no word.
            url: codeOf(() => new window.Tablebase({ url: [base] })),
            // Beside urls, or undefined, it is only an unknown key.
            urlUndefined: codeOf(() => new window.Tablebase({ urls: [base], url: undefined })),
          };
        },
        { base: env.servers.base, fen: FEN },
      );
      assert.equal(seen.wdl, 2);
      assert.match(seen.url, /^options: Tablebase option url is unknown/);
      assert.equal(seen.urlUndefined, 'made');
    } finally {
      env.page.off('console', listen);
    }
    assert.deepStrictEqual(warned, ['Tablebase: unknown option retries ignored', 'Tablebase: unknown option url ignored']);
  });

  it('absent options (undefined or null) take their defaults, and concurrency 0 is learned', async () => {
    const r = await env.page.evaluate(
      async ({ base, fen }) => {
        const tb = new window.Tablebase({ urls: [base], pageSize: null, memoryBudget: undefined, idbBudget: null, concurrency: 0, manifest: null, onProgress: null });
        const a = await tb.probe(fen, null);
        const b = await tb.probe(fen, { onUpdate: undefined });
        return a.wdl === b.wdl ? a.wdl : null;
      },
      { base: env.servers.base, fen: FEN },
    );
    assert.equal(r, 2);
  });
});
