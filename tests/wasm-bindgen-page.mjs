// Runs the wasm-bindgen-test page (tests/web.rs) in headless Chromium through
// playwright-core, the launcher every other browser test here uses, instead
// of chromedriver: under chromedriver the page sometimes never loaded on this
// kind of machine (one CI run hung 6 tries of 6). The page's runner writes
// its report into #output; this prints it as it grows and exits 0 only on
// "test result: ok".
//
//   node tests/wasm-bindgen-page.mjs URL [TIMEOUT_SECONDS]
// Exit codes: 0 passed, 1 a test failed, 2 the page never reported (a hang).
import { launch } from './chromium.mjs';

const [url, limit = '120'] = process.argv.slice(2);
if (!url) {
  console.error('usage: node tests/wasm-bindgen-page.mjs URL [TIMEOUT_SECONDS]');
  process.exit(2);
}
const deadline = Date.now() + Number(limit) * 1000;
const browser = await launch();
let code = 2;
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await page.goto(url, { timeout: 30_000 });
  let shown = '';
  while (Date.now() < deadline) {
    const text = (await page.textContent('#output').catch(() => '')) ?? '';
    if (text !== shown) {
      process.stdout.write(text.startsWith(shown) ? text.slice(shown.length) : `\n${text}`);
      shown = text;
    }
    const result = /test result: (\w+)\. (\d+) passed; (\d+) failed/.exec(text);
    if (result) {
      // "ok. 0 passed" checked nothing: a run that found no test fails too.
      code = result[1] === 'ok' && Number(result[2]) > 0 && result[3] === '0' ? 0 : 1;
      if (Number(result[2]) === 0) console.error('no test ran');
      process.stdout.write('\n');
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (code === 2) console.error(`no "test result:" on ${url} within ${limit} s`);
} catch (e) {
  console.error(`could not run the page: ${e.message}`);
} finally {
  await browser.close();
}
process.exit(code);
