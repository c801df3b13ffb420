// Load: 1,000 probes issued at once from one page all answer as the CLI does,
// and the server's log shows that no byte of any file was fetched twice
// (concurrent probes share requests instead of repeating them).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, startServers, launch, openTablebase, probeAll, tbStats, cliProbe, legalPositions, refetched } from './helpers.mjs';

const skip = skipReason();

// The server's log must hold every request: scripts/test.sh raises its
// limit with RANGE_SERVER_LOG_LIMIT.
const MATERIALS = ['KQvK', 'KRvK', 'KPvK', 'KBNvK', 'KPvKP', 'KQvKR', 'KRPvKR', 'KBvKP', 'KQvKN', 'KQPvKQ', 'KRRvKR', 'KBBBvK'];
const N = 1000;

describe('load', { skip }, () => {
  let servers;
  let browser;
  before(async () => {
    servers = await startServers();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await servers?.close();
  });

  it(`${N} concurrent probes: all right, no byte range fetched twice`, async () => {
    const page = await openTablebase(await browser.newContext(), servers);
    const fens = await legalPositions(page, MATERIALS, N, 2024);
    assert.equal(new Set(fens).size, N);
    const cli = cliProbe(fens);
    servers.tables.reset();
    const web = await probeAll(page, fens);
    for (let i = 0; i < fens.length; i++) assert.deepStrictEqual(web[i], cli[i], fens[i]);

    const srv = servers.tables.stats();
    assert.equal(srv.log.length, srv.requests, 'the log lost entries');
    const stats = await tbStats(page);
    assert.equal(stats.requests, srv.requests);
    assert.equal(stats.retries, 0);
    for (const e of srv.log) {
      assert.equal(e.status, 206, `${e.path} ${e.range}`);
      assert.ok(/^bytes=(\d+)-(\d+)$/.test(e.range), `${e.path}: range ${e.range}`);
    }
    assert.deepStrictEqual(refetched(srv.log), []);
    const files = new Set(srv.log.map((e) => e.path)).size;
    console.log(`${N} probes: ${srv.requests} requests, ${srv.bytes} bytes, ${files} files, ${stats.rounds} rounds in all`);
  });
});
