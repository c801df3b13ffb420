// The board answering from tables our own generator made: the CLI generates
// and writes KRvK, KQvK, KPvK, KBvK and KNvK into a temporary folder (or the test uses
// SYZYGY_GENERATED_TABLES, the folder scripts/tables.sh made), the board is
// served from it, and its verdicts equal the CLI's answers from those files.
import { describe, it as baseIt, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, PKG_JS, ensureBuilt, startSite, launch, newPage, appUrl, waitVerdict, expectedHeadline, tempDir } from './helpers.mjs';

const skip = !fs.existsSync(CLI) || !fs.existsSync(PKG_JS) ? 'SKIPPED: needs target/release/syzygy-web and pkg/' : false;
if (skip) console.log(`# ${skip}`);
// The test command's full run needs every suite to run (scripts/test.sh).
if (skip && process.env.SYZYGY_WEB_REQUIRE_ALL) throw new Error(`SYZYGY_WEB_REQUIRE_ALL is set: ${skip}`);
const it = (name, fn) => baseIt(name, skip ? { skip } : { timeout: 300_000 }, fn);

const FENS = [
  '8/8/8/4k3/8/8/8/R3K3 w - - 0 1',
  '8/8/8/8/3k4/8/3K4/3Q4 b - - 0 1',
  '8/8/8/8/8/4k3/4P3/4K3 w - - 0 1', // KPvK: a draw
  '8/8/8/8/8/8/1k2P3/4K3 w - - 0 1',
];

describe('a board on generated tables', () => {
  let dir, owned, site, browser;
  before(async () => {
    if (skip) return;
    dir = process.env.SYZYGY_GENERATED_TABLES;
    if (!dir) {
      dir = tempDir('syzygy-generated-');
      owned = true;
      execFileSync(CLI, ['generate', 'KRvK', 'KQvK', 'KPvK', 'KBvK', 'KNvK', '--out', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    assert.ok(fs.existsSync(path.join(dir, 'KRvK.rtbw')) && fs.existsSync(path.join(dir, 'KPvK.rtbz')), 'generated files');
    ensureBuilt();
    site = await startSite({ tables: [dir] });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    if (owned) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows the verdicts the CLI reads from the generated files', async () => {
    const out = execFileSync(CLI, ['probe', '--json', '--path', dir, ...FENS], { encoding: 'utf8' });
    const answers = out.trim().split('\n').map((l) => JSON.parse(l));
    const page = await newPage(browser);
    for (const cli of answers) {
      assert.ok(!cli.error, `${cli.fen}: ${cli.error}`);
      await page.goto(appUrl(site.url, cli.fen));
      const v = await waitVerdict(page, cli.fen);
      assert.equal(v.headline, expectedHeadline(cli), cli.fen);
    }
    assert.ok(answers.some((a) => a.wdl === 2) && answers.some((a) => a.wdl === 0), 'wins and draws covered');
    await page.close();
  });
});
