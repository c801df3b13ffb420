// A real trap of the real module: its memory grown to WebAssembly's limit
// from outside, so that the next allocation the core makes fails and the
// module traps (Rust's allocation error handler ends in `unreachable`).
// The call that met it and every later one reject with code `closed`
// naming the failure, the page lives on, and a reload answers again from
// what IndexedDB kept. (generated-plan.test.mjs covers the same paths with
// a stand-in core that throws a RuntimeError.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, suiteBrowser, openTablebase, cliProbe } from './helpers.mjs';

const skip = skipReason();
// KQvK, read first and kept in IndexedDB; then KRPvKR, cold, whose pages
// the core must allocate room for.
const KEPT = '8/8/8/4k3/8/8/8/4K2Q w - - 0 1';
const COLD = '8/8/4k3/8/3r4/3P4/8/3RK3 b - - 12 40';

/**
 * Page side: installs `window.trapKit` ({grow, take, outcome, sync}). grow
 * grows the instance's memory to the engine's limit, so the core's
 * allocator finds no room past what it holds; take then takes that free
 * room too, down to its smallest blocks (its own export, each failure a
 * trap of that call alone), so that any allocation of the module traps,
 * the copy of a call's arguments included.
 */
async function installTrapKit() {
  // The page's instance (init returns it once made).
  const wasm = await (await import('/pkg/syzygy_web.js')).default();
  window.trapKit = {
    grow() {
      let pages = wasm.memory.buffer.byteLength / 65536;
      for (let step = 16384; step >= 1; step >>= 1) {
        for (;;) {
          try {
            wasm.memory.grow(step);
            pages += step;
          } catch {
            break;
          }
        }
      }
      return pages;
    },
    take() {
      let taken = 0;
      for (let size = 1 << 24; size >= 8; size >>= 1) {
        for (;;) {
          try {
            wasm.__wbindgen_malloc(size, 8);
            taken += size;
          } catch (e) {
            // (Anything but the trap, a missing export say, is the test's own failure.)
            if (!(e instanceof WebAssembly.RuntimeError)) throw e;
            break;
          }
        }
      }
      return taken;
    },
    // (A call that throws at once, not by its promise, says so.)
    outcome(call) {
      try {
        return call().then(
          () => 'answered',
          (e) => `${e && e.code}: ${e && e.message}`,
        );
      } catch (e) {
        return `threw ${e}`;
      }
    },
    // Synchronous calls too must not throw past the API as a bare trap.
    sync(f) {
      try {
        f();
        return 'answered';
      } catch (e) {
        return `${e && e.code}: ${e && e.message}`;
      }
    },
  };
}

describe('a trap in the WebAssembly module', { skip }, () => {
  const env = suiteBrowser();

  it('rejects closed, naming it, and a reload answers again', async () => {
    const { servers, browser } = env;
    const [kept, cold] = cliProbe([KEPT, COLD]);
    const context = await browser.newContext();
    try {
      const page = await openTablebase(context, servers, { generate: 'never' });
      assert.deepStrictEqual(await page.evaluate((f) => window.tb.probe(f), KEPT), kept);
      await page.evaluate(installTrapKit);
      const seen = await page.evaluate(
        async ({ cold, kept }) => {
          const { grow, take, outcome, sync } = window.trapKit;
          const pages = grow();
          const first = await outcome(() => window.tb.probe(cold));
          // Then no allocation of the module succeeds. The wrapper hands a
          // FEN to the runtime uncopied, so each call still rejects
          // `closed` (and legalMoves throws it), not a bare RuntimeError
          // thrown at once.
          const taken = take();
          const later = [
            await outcome(() => window.tb.probe(kept)),
            await outcome(() => window.tb.mainline(kept)),
            await outcome(() => window.tb.saved()),
            await outcome(() => window.tb.prefetch(kept)),
            await outcome(() => window.tb.probe(kept.padEnd(4096, ' '))),
          ];
          return { pages, taken, first, later, stats: sync(() => window.tb.stats()), legal: sync(() => window.tb.legalMoves(kept).length) };
        },
        { cold: COLD, kept: KEPT },
      );
      console.log(`memory grown to ${seen.pages} pages; first call: ${seen.first}; ${seen.taken} bytes then taken from the allocator; later: ${seen.later.join(' | ')}; legalMoves: ${seen.legal}`);
      assert.match(seen.first, /^closed: this Tablebase stopped: its WebAssembly module failed \(.+\); reload the page$/);
      assert.ok(seen.taken > 0, 'the allocator gave up its free room');
      for (const s of seen.later) assert.match(s, /^closed: /);
      assert.match(seen.legal, /^closed: /);
      assert.equal(seen.stats, 'answered', 'stats() still answers');

      // A reload: a new module, and what IndexedDB kept answers with no request.
      servers.tables.reset();
      const again = await openTablebase(context, servers, { generate: 'never' });
      const fresh = await again.evaluate(async (f) => {
        const r = await window.tb.probe(f);
        return { r, requests: window.tb.stats().requests };
      }, KEPT);
      assert.deepStrictEqual(fresh.r, kept);
      assert.equal(fresh.requests, 0, 'the kept table came from IndexedDB');
      assert.deepStrictEqual(await again.evaluate((f) => window.tb.probe(f), COLD), cold);
    } finally {
      await context.close();
    }
  });

  // legalMoves and prefetch enter the module through the runtime too: met
  // first by either, a trap closes the Tablebase as a probe's does.
  for (const name of ['legalMoves', 'prefetch']) {
    it(`met first by ${name}, closes the Tablebase`, async () => {
      const { servers, browser } = env;
      const context = await browser.newContext();
      try {
        const page = await openTablebase(context, servers, { generate: 'never' });
        await page.evaluate(installTrapKit);
        const seen = await page.evaluate(
          async ({ kept, name }) => {
            const kit = window.trapKit;
            kit.grow();
            const taken = kit.take();
            const first = name === 'legalMoves' ? kit.sync(() => window.tb.legalMoves(kept)) : await kit.outcome(() => window.tb.prefetch(kept));
            const then = await kit.outcome(() => window.tb.probe(kept));
            return { taken, first, then, stats: kit.sync(() => window.tb.stats()) };
          },
          { kept: KEPT, name },
        );
        console.log(`${name}: ${seen.taken} bytes taken; first: ${seen.first}; then probe: ${seen.then}`);
        assert.ok(seen.taken > 0, 'the allocator gave up its free room');
        assert.match(seen.first, /^closed: this Tablebase stopped: its WebAssembly module failed \(.+\); reload the page$/);
        assert.match(seen.then, /^closed: /);
        assert.equal(seen.stats, 'answered');
      } finally {
        await context.close();
      }
    });
  }
});
