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

describe('a trap in the WebAssembly module', { skip }, () => {
  const env = suiteBrowser();

  it('rejects closed, naming it, and a reload answers again', async () => {
    const { servers, browser } = env;
    const [kept, cold] = cliProbe([KEPT, COLD]);
    const context = await browser.newContext();
    try {
      const page = await openTablebase(context, servers, { generate: 'never' });
      assert.deepStrictEqual(await page.evaluate((f) => window.tb.probe(f), KEPT), kept);
      const seen = await page.evaluate(
        async ({ cold, kept }) => {
          // The page's instance (init returns it once made): grow its memory
          // until the engine refuses, so the core's allocator finds none.
          const wasm = await (await import('/pkg/syzygy_web.js')).default();
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
          // (A call that throws at once, not by its promise, says so.)
          const outcome = (call) => {
            try {
              return call().then(
                () => 'answered',
                (e) => `${e && e.code}: ${e && e.message}`,
              );
            } catch (e) {
              return `threw ${e}`;
            }
          };
          // Synchronous calls too must not throw past the API as a bare trap.
          const sync = (f) => {
            try {
              f();
              return 'answered';
            } catch (e) {
              return `${e && e.code}: ${e && e.message}`;
            }
          };
          const first = await outcome(() => window.tb.probe(cold));
          // Then the allocator's free room taken too, down to its smallest
          // blocks (its own export, each failure a trap of that call
          // alone): now any allocation of the module traps, the copy of a
          // call's arguments included. The wrapper hands a FEN to the
          // runtime uncopied, so each call still rejects `closed`, not
          // with a bare RuntimeError thrown at once.
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
          const later = [
            await outcome(() => window.tb.probe(kept)),
            await outcome(() => window.tb.mainline(kept)),
            await outcome(() => window.tb.saved()),
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
});
