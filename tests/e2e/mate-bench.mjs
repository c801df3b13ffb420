// How long "Mate in N" takes on a board whose host serves the official
// Syzygy files: each position in a fresh context (nothing generated yet),
// the time from navigation to the host's verdict with its moves, then from
// the verdict (or the click on "Find mate in N") to the mate line, once
// asked on the card and once with the choice already made. Run after
// `npm run build`: node tests/e2e/mate-bench.mjs [--runs N]
import { ensureBuilt, startSite, launch, newPage, appUrl, waitVerdict } from './helpers.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 1;
const POSITIONS = [
  ['KRvK', '8/8/8/4k3/8/8/8/R3K3 w - - 0 1'],
  ['KQvKN', '8/8/3n4/4k3/8/8/8/1Q2K3 w - - 0 1'],
  ['KRvKP', '8/8/8/4k3/8/2p5/8/R3K3 w - - 0 1'],
  ['KQPvK', '8/4P3/8/4k3/8/8/8/1Q2K3 w - - 0 1'],
];

ensureBuilt();
const site = await startSite();
const browser = await launch();
console.log('material  how           verdict ms  mate ms  shown');
try {
  for (const [name, fen] of POSITIONS) {
    for (const chosen of [false, true]) {
      for (let run = 0; run < runs; run++) {
        const page = await newPage(browser);
        if (chosen) await page.addInitScript(() => localStorage.setItem('syzygy-web-mate-distances', 'on'));
        const t0 = performance.now();
        await page.goto(appUrl(site.url, fen));
        await waitVerdict(page, fen);
        const verdict = performance.now() - t0;
        let t1 = performance.now();
        const button = page.locator('syzygy-board .sb-verdict .sb-mate button');
        const asked = !chosen && (await button.count()) > 0;
        if (asked) {
          await button.click();
          t1 = performance.now();
        }
        await page.waitForFunction(() => document.querySelector('syzygy-board .sb-verdict-body .sb-dtm') || /unavailable/.test(document.querySelector('syzygy-board .sb-mate')?.textContent || ''), null, { timeout: 300_000 });
        const mate = performance.now() - t1;
        const shown = await page.evaluate(() => document.querySelector('syzygy-board .sb-verdict-body .sb-dtm .sb-dtz-badge')?.textContent || document.querySelector('syzygy-board .sb-mate').textContent);
        const how = asked ? 'clicked' : chosen ? 'chosen before' : 'unasked';
        console.log(`${name.padEnd(9)} ${how.padEnd(13)} ${verdict.toFixed(0).padStart(10)} ${mate.toFixed(0).padStart(8)}  ${shown}${page.errors.length ? ` (page errors: ${page.errors.length})` : ''}`);
        await page.context().close();
      }
    }
  }
} finally {
  await browser.close();
  await site.close();
}
