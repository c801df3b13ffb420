// A verdict's round carrying the move list's next reads (Core.setMovesRide):
// the core alone, driven in a page with real Range requests, so that what
// each attempt names is deterministic (the runtime's order of arrivals is not).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, suiteBrowser } from './helpers.mjs';

const skip = skipReason();
// Over HTTP/1.1 before the ride, this position's second round named 7
// ranges for 6 connections: the move list's two came after the verdict's
// requests had left, one of them 8 KiB from a verdict's range.
const FEN = '5r2/8/7k/8/8/7P/1R6/1K6 w - - 0 1';

/**
 * In the page: a Core with every head the move list opens supplied, then
 * the ranges three attempts name: the verdict's without and with the ride
 * (for `connections` free connections), and the move list's own.
 */
function named(page, base, connections) {
  return page.evaluate(
    async ({ fen, base, connections }) => {
      const { Core } = await import('/pkg/syzygy_web.js');
      const core = new Core(12, 64 << 20);
      const tick = core.begin();
      const supply = async (f) => {
        const res = await fetch(base + f.name, { headers: { Range: `bytes=${f.start}-${f.end - 1}` }, cache: 'no-store' });
        const size = Number(/\/(\d+)$/.exec(res.headers.get('Content-Range'))[1]);
        const bytes = new Uint8Array(await res.arrayBuffer());
        core.identify(f.file, size, '');
        core.supply(f.file, f.start, size, '', bytes);
      };
      const ask = (kind, ride) => {
        core.setConnections(connections);
        core.setMovesRide(ride);
        const r = JSON.parse(core.attempt(kind, fen));
        return (r.need || []).map((f) => `${f.name} ${f.start}-${f.end}${f.open ? ' open' : ''}`);
      };
      // Heads first, as the first round brings them.
      for (let i = 0; i < 8; i++) {
        const opens = JSON.parse(core.attempt('analyse', fen)).need.filter((f) => f.open);
        if (!opens.length) break;
        await Promise.all(opens.map(supply));
      }
      const out = { plain: ask('verdict', false), ride: ask('verdict', true), moves: ask('analyse', false) };
      core.end(tick);
      return out;
    },
    { fen: FEN, base, connections },
  );
}

/** Pages [start, end) of "name start-end" lines, as "name page" strings of 4 KiB pages. */
function pages(lines) {
  const out = new Set();
  for (const l of lines) {
    const [name, span] = l.split(' ');
    const [a, b] = span.split('-').map(Number);
    for (let p = Math.floor(a / 4096); p < Math.ceil(b / 4096); p++) out.add(`${name} ${p}`);
  }
  return out;
}

describe('the move list riding in the verdict round', { skip }, () => {
  // page.html without a Tablebase: the test drives a Core of its own.
  const env = suiteBrowser(async (browser, servers) => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(servers.pageUrl);
    await page.waitForFunction(() => window.ready === true);
    return page;
  });

  for (const connections of [4, 6]) {
    it(`names the move list's next reads with the verdict's, in its requests (${connections} connections)`, async () => {
      // With 4: the outcome's two requests are out beside the verdict's round.
      const { plain, ride, moves } = await named(env.page, env.servers.base, connections);
      const [p, r] = [pages(plain), pages(ride)];
      assert.ok(plain.length > 0, 'the verdict needs reads');
      for (const x of p) assert.ok(r.has(x), `the ride keeps the verdict's own page ${x}`);
      const riding = [...pages(moves)].filter((x) => !p.has(x));
      assert.ok(riding.length > 0, `the move list needs more than the verdict: ${moves.join(', ')}`);
      assert.ok(riding.some((x) => r.has(x)), `some of the move list's pages ride: ${ride.join(', ')}`);
      assert.ok(ride.length <= plain.length, `no request added: ${plain.join(', ')} against ${ride.join(', ')}`);
    });
  }
});
