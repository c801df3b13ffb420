// The Tablebase option `early`: Range responses the page started before the
// module loaded (the board asks for its first position's table heads while
// the wasm downloads). The probe's opening reads take them instead of asking
// again, ask only for what a short one lacks, and ignore a failed one.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, suiteBrowser, openTablebase, cliProbe, refetched } from './helpers.mjs';

const skip = skipReason();
const LUCENA = '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1';

/**
 * In a fresh page: starts `heads` ([file, end, how]) as early requests, then
 * probes with them. how: 'fetch' (a real request) or 'fail' (a rejected one).
 * Returns the result and the server's table requests as "path range" lines.
 */
async function probeWith(browser, servers, heads) {
  const page = await openTablebase(await browser.newContext(), servers, { idbBudget: 0 });
  servers.tables.reset();
  const result = await page.evaluate(
    async ({ fen, base, heads }) => {
      const early = heads.map(([file, end, how]) => ({
        url: base + file,
        start: 0,
        end,
        response:
          how === 'fail' ? Promise.reject(new TypeError('Failed to fetch')) : fetch(base + file, { headers: { Range: `bytes=0-${end - 1}` }, cache: 'no-store' }),
      }));
      early.forEach((e) => e.response.catch(() => {}));
      window.tb = new window.Tablebase({ urls: [base], idbBudget: 0, early });
      const result = await window.tb.probe(fen);
      while (window.tb.stats().requestsInFlight > 0) await new Promise((r) => setTimeout(r, 5));
      return result;
    },
    { fen: LUCENA, base: servers.base, heads },
  );
  const entries = servers.tables.stats().log;
  await page.context().close();
  return { result, entries, log: entries.map((e) => `${e.path} ${e.range}`).sort() };
}

// The opening reads of a log (the rest depends on the order answers arrive in).
const opening = (log) => log.filter((l) => / bytes=0-/.test(l));

describe('early responses (the Tablebase option early)', { skip }, () => {
  const env = suiteBrowser();
  let want;
  let plain;
  before(async () => {
    [want] = cliProbe([LUCENA]);
    plain = await probeWith(env.browser, env.servers, []);
    assert.deepStrictEqual(plain.result, want);
  });

  it('take the place of the opening reads they cover: the server sees the same requests', async () => {
    const heads = plain.log.filter((l) => / bytes=0-/.test(l)).map((l) => {
      const [p, r] = l.split(' ');
      return [p.split('/').pop(), Number(r.split('-')[1]) + 1, 'fetch'];
    });
    assert.ok(heads.length >= 2, 'the probe opens its WDL and DTZ tables');
    const got = await probeWith(env.browser, env.servers, heads);
    assert.deepStrictEqual(got.result, want);
    // The early requests are the opening reads: none asked for again.
    assert.deepStrictEqual(opening(got.log), opening(plain.log));
    assert.deepStrictEqual(refetched(got.entries), []);
  });

  it('a short one opens the file, and the rest of the head follows in one request', async () => {
    const head = plain.log.find((l) => l.includes('.rtbw bytes=0-'));
    const [p, r] = head.split(' ');
    const end = Number(r.split('-')[1]) + 1;
    const got = await probeWith(env.browser, env.servers, [[p.split('/').pop(), 4096, 'fetch']]);
    assert.deepStrictEqual(got.result, want);
    // The rest of the head, up to its end or the file's (a short head opens
    // the file at once; the rest follows as pages).
    const rest = got.log.filter((l) => l.startsWith(`${p} bytes=4096-`));
    assert.strictEqual(rest.length, 1, `one request for the rest: ${got.log.join(', ')}`);
    assert.ok(Number(rest[0].split('-').pop()) <= end - 1, `the rest ends within the head: ${rest[0]}`);
    // The server saw the early one itself, and no other opening read of that file.
    assert.deepStrictEqual(
      opening(got.log),
      opening(plain.log)
        .filter((l) => l !== head)
        .concat([`${p} bytes=0-4095`])
        .sort(),
    );
    assert.deepStrictEqual(refetched(got.entries), []);
  });

  it('a failed one is forgotten and the network asked as usual', async () => {
    const head = plain.log.find((l) => l.includes('.rtbz bytes=0-'));
    const [p, r] = head.split(' ');
    const got = await probeWith(env.browser, env.servers, [[p.split('/').pop(), Number(r.split('-')[1]) + 1, 'fail']]);
    assert.deepStrictEqual(got.result, want);
    assert.deepStrictEqual(opening(got.log), opening(plain.log));
    assert.deepStrictEqual(refetched(got.entries), []);
  });
});
