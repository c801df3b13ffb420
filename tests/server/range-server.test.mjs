// Self-test of range-server.mjs against the real tables.
// Run: node --test tests/server/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startServer, defaultTableDirs, parseRange } from './range-server.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TABLES = defaultTableDirs()[0];
const KQVK = fs.readFileSync(path.join(TABLES, 'KQvK.rtbw'));
const KRVK = fs.readFileSync(path.join(TABLES, 'KRvK.rtbw'));
const BIG = 'KQPvKQ.rtbw'; // ~20 MB

let srv; // the embedded server
let tmp; // second table dir + static site

/** A raw HTTP request that never follows redirects or decodes bodies. */
function raw(pathname, { method = 'GET', headers = {}, base = srv.url } = {}) {
  const url = new URL(base);
  return new Promise((resolve) => {
    const t0 = Date.now();
    let gotResponse = false;
    let error = null;
    const req = http.request(
      { host: url.hostname, port: url.port, path: pathname, method, headers, agent: false },
      (res) => {
        gotResponse = true;
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', (e) => (error ??= e));
        res.on('aborted', () => (error ??= new Error('aborted')));
        res.on('close', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), error, ms: Date.now() - t0 }),
        );
      },
    );
    req.on('error', (e) => {
      error ??= e;
      // After a response, its 'close' resolves; before one, this is the result.
      if (!gotResponse) resolve({ status: 0, headers: {}, body: Buffer.alloc(0), error: e, ms: Date.now() - t0 });
    });
    req.end();
  });
}

const range = (spec) => ({ headers: { Range: spec } });

async function faults(obj) {
  const r = await fetch(srv.url + '__faults', { method: 'POST', body: JSON.stringify(obj) });
  assert.equal(r.status, 200, await r.clone().text());
  return r.json();
}

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'range-server-test-'));
  fs.mkdirSync(path.join(tmp, 'tables2'));
  fs.writeFileSync(path.join(tmp, 'tables2', 'KQvK.rtbw'), 'not the real table');
  fs.writeFileSync(path.join(tmp, 'tables2', 'OnlyHere.rtbw'), Buffer.from([1, 2, 3, 4]));
  const site = path.join(tmp, 'site');
  fs.mkdirSync(path.join(site, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>t</title>');
  fs.writeFileSync(path.join(site, 'sub', 'index.html'), 'sub index');
  for (const f of ['app.wasm', 'app.mjs', 'app.js', 'style.css', 'icon.svg', 'icon.png', 'data.json', 'app.webmanifest']) {
    fs.writeFileSync(path.join(site, f), 'x');
  }
  fs.writeFileSync(path.join(tmp, 'secret.txt'), 'secret');
  srv = await startServer({ port: 0, tables: [TABLES, path.join(tmp, 'tables2')], static: site });
});

after(async () => {
  await srv?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('parseRange', () => {
  assert.deepEqual(parseRange('bytes=0-9', 100), { start: 0, end: 9 });
  assert.deepEqual(parseRange('bytes=90-', 100), { start: 90, end: 99 });
  assert.deepEqual(parseRange('bytes=-10', 100), { start: 90, end: 99 });
  assert.deepEqual(parseRange('bytes=-500', 100), { start: 0, end: 99 });
  assert.deepEqual(parseRange('bytes=50-500', 100), { start: 50, end: 99 });
  assert.deepEqual(parseRange('bytes=100-', 100), { unsatisfiable: true });
  assert.deepEqual(parseRange('bytes=-0', 100), { unsatisfiable: true });
  assert.deepEqual(parseRange('bytes=9-3', 100), { unsatisfiable: true });
  assert.deepEqual(parseRange('bytes=0-1,5-6', 100), { parts: [{ start: 0, end: 1 }, { start: 5, end: 6 }] });
  assert.deepEqual(parseRange('bytes=0-1,500-600', 100), { start: 0, end: 1 }, 'one satisfiable range');
  assert.deepEqual(parseRange('bytes=200-,500-600', 100), { unsatisfiable: true });
  assert.equal(parseRange('bytes=0-1,x', 100), null, 'one malformed range voids the header');
  assert.equal(parseRange('items=0-1', 100), null);
  assert.equal(parseRange('bytes=abc', 100), null);
  assert.equal(parseRange(undefined, 100), null);
});

test('206 single range with headers', async () => {
  const r = await raw('/tables/KQvK.rtbw', range('bytes=0-15'));
  assert.equal(r.status, 206);
  assert.equal(r.headers['content-range'], `bytes 0-15/${KQVK.length}`);
  assert.equal(r.headers['content-length'], '16');
  assert.deepEqual(r.body, KQVK.subarray(0, 16));
  assert.equal(r.headers['accept-ranges'], 'bytes');
  assert.match(r.headers.etag, /^"[0-9a-f]+-[0-9a-f]+-0"$/);
  assert.ok(!Number.isNaN(Date.parse(r.headers['last-modified'])));
  assert.equal(r.headers['cache-control'], 'no-cache');
  assert.equal(r.headers['content-type'], 'application/octet-stream');
  assert.equal(r.headers['access-control-allow-origin'], '*');
  assert.equal(
    r.headers['access-control-expose-headers'],
    'Content-Range, Content-Length, ETag, Last-Modified, Accept-Ranges',
  );
});

test('open, suffix, clamped, whole and multi ranges', async () => {
  const n = KQVK.length;
  let r = await raw('/tables/KQvK.rtbw', range('bytes=100-'));
  assert.equal(r.headers['content-range'], `bytes 100-${n - 1}/${n}`);
  assert.deepEqual(r.body, KQVK.subarray(100));
  r = await raw('/tables/KQvK.rtbw', range('bytes=-16'));
  assert.equal(r.status, 206);
  assert.equal(r.headers['content-range'], `bytes ${n - 16}-${n - 1}/${n}`);
  assert.deepEqual(r.body, KQVK.subarray(n - 16));
  r = await raw('/tables/KQvK.rtbw', range('bytes=200-99999'));
  assert.equal(r.headers['content-range'], `bytes 200-${n - 1}/${n}`);
  r = await raw('/tables/KQvK.rtbw');
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-range'], undefined);
  assert.deepEqual(r.body, KQVK);
});

/** The parts of a multipart/byteranges body: [{range, body}]. */
function parts(r) {
  const boundary = /boundary=([^;]+)/.exec(r.headers['content-type'])[1];
  const out = [];
  let at = r.body.indexOf(`--${boundary}\r\n`);
  while (at >= 0) {
    const headEnd = r.body.indexOf('\r\n\r\n', at);
    const head = r.body.subarray(at, headEnd).toString();
    const [, a, b] = /Content-Range: bytes (\d+)-(\d+)\//.exec(head);
    const body = r.body.subarray(headEnd + 4, headEnd + 4 + (+b - +a + 1));
    out.push({ range: [+a, +b], body });
    const next = headEnd + 4 + body.length;
    assert.equal(r.body.subarray(next, next + 2).toString(), '\r\n');
    at = r.body.indexOf(`--${boundary}\r\n`, next);
  }
  assert.ok(r.body.toString('latin1').endsWith(`\r\n--${boundary}--\r\n`));
  return out;
}

test('several ranges: multipart/byteranges, in the order asked', async () => {
  const r = await raw('/tables/KQvK.rtbw', range('bytes=100-199,0-15,10-'));
  assert.equal(r.status, 206);
  assert.match(r.headers['content-type'], /^multipart\/byteranges; boundary=/);
  assert.equal(r.headers['content-range'], undefined);
  assert.equal(Number(r.headers['content-length']), r.body.length);
  const got = parts(r);
  const n = KQVK.length;
  assert.deepEqual(got.map((p) => p.range), [[100, 199], [0, 15], [10, n - 1]]);
  assert.deepEqual(got[0].body, KQVK.subarray(100, 200));
  assert.deepEqual(got[1].body, KQVK.subarray(0, 16));
  assert.deepEqual(got[2].body, KQVK.subarray(10));
  const one = await raw('/tables/KQvK.rtbw', range(`bytes=0-15,${n}-`));
  assert.equal(one.headers['content-range'], `bytes 0-15/${n}`, 'one satisfiable: a plain 206');
});

test('faults: single-range and first-range', async () => {
  await faults([{ match: 'KQvK', mode: 'single-range' }, { match: 'KRvK', mode: 'first-range' }]);
  let r = await raw('/tables/KQvK.rtbw', range('bytes=0-1,4-5'));
  assert.equal(r.status, 200, 'several ranges: whole file');
  assert.deepEqual(r.body, KQVK);
  r = await raw('/tables/KQvK.rtbw', range('bytes=4-5'));
  assert.equal(r.status, 206, 'one range still served');
  r = await raw('/tables/KRvK.rtbw', range('bytes=4-5,0-1'));
  assert.equal(r.status, 206);
  assert.match(r.headers['content-range'], /^bytes 4-5\//);
  assert.equal(r.body.length, 2);
});

test('416 unsatisfiable', async () => {
  for (const spec of [`bytes=${KQVK.length}-`, 'bytes=-0', 'bytes=9-3']) {
    const r = await raw('/tables/KQvK.rtbw', range(spec));
    assert.equal(r.status, 416, spec);
    assert.equal(r.headers['content-range'], `bytes */${KQVK.length}`);
  }
});

test('HEAD and conditionals', async () => {
  let r = await raw('/tables/KQvK.rtbw', { method: 'HEAD', headers: { Range: 'bytes=0-15' } });
  assert.equal(r.status, 206);
  assert.equal(r.headers['content-length'], '16');
  assert.equal(r.headers['content-range'], `bytes 0-15/${KQVK.length}`);
  assert.equal(r.body.length, 0);
  r = await raw('/tables/KQvK.rtbw', { method: 'HEAD' });
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-length'], String(KQVK.length));
  const etag = r.headers.etag;
  r = await raw('/tables/KQvK.rtbw', { headers: { 'If-None-Match': etag } });
  assert.equal(r.status, 304);
  r = await raw('/tables/KQvK.rtbw', { headers: { Range: 'bytes=0-3', 'If-Range': etag } });
  assert.equal(r.status, 206);
  r = await raw('/tables/KQvK.rtbw', { headers: { Range: 'bytes=0-3', 'If-Range': '"other"' } });
  assert.equal(r.status, 200);
  assert.equal(r.body.length, KQVK.length);
});

test('CORS preflight', async () => {
  const r = await raw('/tables/KQvK.rtbw', {
    method: 'OPTIONS',
    headers: { Origin: 'http://example.test', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'range' },
  });
  assert.equal(r.status, 204);
  assert.equal(r.headers['access-control-allow-origin'], '*');
  assert.equal(r.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
  assert.equal(r.headers['access-control-allow-headers'], 'Range, If-Range, If-None-Match');
  assert.ok(Number(r.headers['access-control-max-age']) > 0);
});

test('table dirs: merged and individual', async () => {
  let r = await raw('/tables/KQvK.rtbw');
  assert.deepEqual(r.body, KQVK, 'first dir wins');
  r = await raw('/tables/0/KQvK.rtbw');
  assert.deepEqual(r.body, KQVK);
  r = await raw('/tables/1/KQvK.rtbw');
  assert.equal(r.body.toString(), 'not the real table');
  r = await raw('/tables/OnlyHere.rtbw');
  assert.deepEqual([...r.body], [1, 2, 3, 4]);
  assert.equal((await raw('/tables/0/OnlyHere.rtbw')).status, 404);
  assert.equal((await raw('/tables/7/KQvK.rtbw')).status, 404);
  assert.equal((await raw('/tables/NoSuch.rtbw')).status, 404);
  assert.equal((await raw('/tables/')).status, 404);
});

test('static site and MIME types', async () => {
  let r = await raw('/');
  assert.equal(r.status, 200);
  assert.match(r.headers['content-type'], /^text\/html/);
  assert.match(r.body.toString(), /doctype/);
  r = await raw('/sub');
  assert.equal(r.status, 301);
  assert.equal(r.headers.location, '/sub/');
  assert.equal((await raw('/sub/')).body.toString(), 'sub index');
  const want = {
    'app.wasm': 'application/wasm',
    'app.mjs': 'text/javascript',
    'app.js': 'text/javascript',
    'style.css': 'text/css',
    'icon.svg': 'image/svg+xml',
    'icon.png': 'image/png',
    'data.json': 'application/json',
    'app.webmanifest': 'application/manifest+json',
  };
  for (const [f, type] of Object.entries(want)) {
    r = await raw('/' + f);
    assert.equal(r.status, 200, f);
    assert.equal(r.headers['content-type'].split(';')[0], type, f);
  }
});

test('static files are compressed as a host would; tables and ranges never', async () => {
  const body = 'let x = 1;\n'.repeat(200);
  fs.writeFileSync(path.join(srv.staticDir, 'big.js'), body);
  let r = await raw('/big.js', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-encoding'], 'br');
  assert.equal(r.headers.vary, 'Accept-Encoding');
  assert.equal(Number(r.headers['content-length']), r.body.length);
  assert.equal(zlib.brotliDecompressSync(r.body).toString(), body);
  const etag = r.headers.etag;
  assert.equal((await raw('/big.js', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': etag } })).status, 304);
  r = await raw('/big.js', { headers: { 'Accept-Encoding': 'gzip;q=1, br;q=0' } });
  assert.equal(r.headers['content-encoding'], 'gzip');
  assert.equal(zlib.gunzipSync(r.body).toString(), body);
  assert.notEqual(r.headers.etag, etag);
  // Without Accept-Encoding, or with a Range: the bytes as they are.
  r = await raw('/big.js');
  assert.equal(r.headers['content-encoding'], undefined);
  assert.equal(r.body.toString(), body);
  r = await raw('/big.js', { headers: { 'Accept-Encoding': 'br', Range: 'bytes=0-9' } });
  assert.equal(r.status, 206);
  assert.equal(r.headers['content-encoding'], undefined);
  assert.equal(r.body.toString(), body.slice(0, 10));
  // Tables: never, with or without a Range.
  for (const h of [{}, { Range: 'bytes=0-15' }]) {
    r = await raw('/tables/KQvK.rtbw', { headers: { 'Accept-Encoding': 'br, gzip', ...h } });
    assert.equal(r.headers['content-encoding'], undefined);
    assert.deepEqual(r.body, h.Range ? KQVK.subarray(0, 16) : KQVK);
  }
  // A type that does not compress (an image) is sent as it is.
  r = await raw('/icon.png', { headers: { 'Accept-Encoding': 'br' } });
  assert.equal(r.headers['content-encoding'], undefined);
});

test('path traversal is refused', async () => {
  const attempts = [
    '/tables/../secret.txt',
    '/tables/%2e%2e/secret.txt',
    '/tables/%2E%2E/%2E%2E/etc/passwd',
    '/tables/..%2fsecret.txt',
    '/tables/..%2F..%2F..%2Fetc%2Fpasswd',
    '/tables/%2e%2e%5csecret.txt',
    '/tables/..\\secret.txt',
    '/tables/1/../../secret.txt',
    '/tables//etc/passwd',
    '//etc/passwd',
    '/%2Fetc%2Fpasswd',
    '/tables/%2Fetc%2Fpasswd',
    '/tables/KQvK.rtbw%00',
    '/tables/%00',
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/sub/../../secret.txt',
    '/tables/%c0%ae%c0%ae/secret.txt',
    '/.hidden',
    '/tables/.',
  ];
  for (const p of attempts) {
    const r = await raw(p);
    assert.ok(r.status === 400 || r.status === 404, `${p} -> ${r.status}`);
    assert.notEqual(r.body.toString(), 'secret', p);
    assert.ok(!r.body.toString().includes('root:'), p);
  }
});

test('fault: ignore-range (count 1)', async () => {
  await faults({ match: 'KQvK', mode: 'ignore-range', count: 1 });
  let r = await raw('/tables/KQvK.rtbw', range('bytes=0-15'));
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, KQVK);
  r = await raw('/tables/KQvK.rtbw', range('bytes=0-15'));
  assert.equal(r.status, 206, 'count exhausted');
});

test('fault: status, with match and skip', async () => {
  await faults([
    { match: 'KRvK', mode: 'status', status: 503, skip: 1, count: 1 },
    { match: 'KQvK', mode: 'status', status: 416 },
  ]);
  assert.equal((await raw('/tables/KRvK.rtbw')).status, 200, 'skipped');
  const r503 = await raw('/tables/KRvK.rtbw', range('bytes=0-3'));
  assert.equal(r503.status, 503);
  assert.equal(r503.headers['access-control-allow-origin'], '*');
  assert.equal((await raw('/tables/KRvK.rtbw')).status, 200, 'count used up');
  const r416 = await raw('/tables/KQvK.rtbw', range('bytes=0-3'));
  assert.equal(r416.status, 416);
  assert.equal(r416.headers['content-range'], `bytes */${KQVK.length}`);
  await faults({ mode: 'status', status: 404, match: 'NoSuch' });
  assert.equal((await raw('/tables/KQvK.rtbw')).status, 200);
});

test('fault: truncate', async () => {
  await faults({ mode: 'truncate', bytes: 10 });
  const r = await raw('/tables/KQvK.rtbw', range('bytes=0-99'));
  assert.equal(r.status, 206);
  assert.equal(r.headers['content-length'], '100');
  assert.equal(r.headers['content-range'], `bytes 0-99/${KQVK.length}`);
  assert.deepEqual(r.body, KQVK.subarray(0, 10));
  assert.ok(r.error, 'client sees an incomplete body');
});

test('fault: reset', async () => {
  await faults({ mode: 'reset', bytes: 5 });
  const r = await raw('/tables/KQvK.rtbw', range('bytes=0-99'));
  assert.equal(r.status, 206);
  assert.equal(r.error?.code, 'ECONNRESET', 'connection reset');
  assert.ok(r.body.length <= 5);
  await faults([]);
  assert.equal((await raw('/tables/KQvK.rtbw')).status, 200, 'server still fine');
});

test('fault: slow and latency', async () => {
  await faults({ mode: 'slow', delayMs: 300 });
  let r = await raw('/tables/KQvK.rtbw', range('bytes=0-3'));
  assert.equal(r.status, 206);
  assert.ok(r.ms >= 280, `slow took ${r.ms} ms`);
  await faults({ faults: [], latencyMs: 200 });
  r = await raw('/tables/KQvK.rtbw', range('bytes=0-3'));
  assert.ok(r.ms >= 180, `latency took ${r.ms} ms`);
  // Upper bounds only with a wide margin: the machine may be busy.
  await faults({ latencyMs: 5000 });
  r = await raw('/index.html');
  assert.ok(r.ms < 4000, 'latency only delays table responses');
  srv.reset();
  r = await raw('/tables/KQvK.rtbw', range('bytes=0-3'));
  assert.ok(r.ms < 4000, 'reset clears latency');
});

test('fault: drip', async () => {
  await faults({ mode: 'drip', chunk: 64, intervalMs: 40 });
  const r = await raw('/tables/KQvK.rtbw', range('bytes=0-255'));
  assert.equal(r.status, 206);
  assert.deepEqual(r.body, KQVK.subarray(0, 256));
  assert.ok(r.ms >= 110, `drip took ${r.ms} ms`); // 4 chunks, 3 pauses
});

test('fault: status with its page dripped', async () => {
  await faults({ mode: 'status', status: 503, body: 'busy', intervalMs: 40 });
  const r = await raw('/tables/KRvK.rtbw', range('bytes=0-3'));
  assert.equal(r.status, 503);
  assert.equal(Buffer.from(r.body).toString(), 'busy');
  assert.ok(r.ms >= 110, `drip took ${r.ms} ms`); // 4 bytes, 3 pauses before the last
});

test('fault: wrong-range', async () => {
  await faults({ mode: 'wrong-range', shift: 1, count: 1 });
  let r = await raw('/tables/KQvK.rtbw', range('bytes=0-15'));
  assert.equal(r.status, 206);
  assert.equal(r.headers['content-range'], `bytes 1-16/${KQVK.length}`);
  assert.deepEqual(r.body, KQVK.subarray(0, 16));
  await faults({ mode: 'wrong-range', sizeDelta: 64 });
  r = await raw('/tables/KQvK.rtbw', range('bytes=0-15'));
  assert.equal(r.headers['content-range'], `bytes 0-15/${KQVK.length + 64}`);
});

test('fault: wider-range', async () => {
  await faults({ mode: 'wider-range', before: 100 });
  let r = await raw('/tables/KQvK.rtbw', range('bytes=200-215'));
  assert.equal(r.status, 206);
  assert.equal(r.headers['content-range'], `bytes 100-215/${KQVK.length}`);
  assert.deepEqual(r.body, KQVK.subarray(100, 216));
  // Not before the file's start.
  r = await raw('/tables/KQvK.rtbw', range('bytes=16-31'));
  assert.equal(r.headers['content-range'], `bytes 0-31/${KQVK.length}`);
  assert.deepEqual(r.body, KQVK.subarray(0, 32));
});

test('fault: gzip', async () => {
  await faults({ mode: 'gzip' });
  const r = await raw('/tables/KQvK.rtbw', range('bytes=16-79'));
  assert.equal(r.status, 206);
  assert.equal(r.headers['content-encoding'], 'gzip');
  assert.equal(r.headers['content-range'], `bytes 16-79/${KQVK.length}`);
  assert.equal(Number(r.headers['content-length']), r.body.length);
  assert.deepEqual(zlib.gunzipSync(r.body), KQVK.subarray(16, 80));
  // fetch() decodes it transparently
  const f = await fetch(srv.url + 'tables/KQvK.rtbw', { headers: { Range: 'bytes=16-79' } });
  assert.deepEqual(Buffer.from(await f.arrayBuffer()), KQVK.subarray(16, 80));
});

test('fault: redirect', async () => {
  await faults({ mode: 'redirect', match: 'KQvK', status: 307 });
  const r = await raw('/tables/KQvK.rtbw', range('bytes=0-15'));
  assert.equal(r.status, 307);
  assert.equal(r.headers.location, '/redirected/tables/KQvK.rtbw');
  const r2 = await raw(r.headers.location, range('bytes=0-15'));
  assert.equal(r2.status, 206);
  assert.deepEqual(r2.body, KQVK.subarray(0, 16));
  const f = await fetch(srv.url + 'tables/KQvK.rtbw', { headers: { Range: 'bytes=0-15' } });
  assert.equal(f.status, 206);
  assert.ok(f.redirected);
  assert.deepEqual(Buffer.from(await f.arrayBuffer()), KQVK.subarray(0, 16));
});

test('fault: etag-change', async () => {
  srv.reset();
  const a = await raw('/tables/KQvK.rtbw', range('bytes=0-3'));
  await faults({ mode: 'etag-change', match: 'KQvK', count: 1 });
  const b = await raw('/tables/KQvK.rtbw', range('bytes=0-3'));
  const c = await raw('/tables/KQvK.rtbw', range('bytes=0-3'));
  assert.notEqual(b.headers.etag, a.headers.etag);
  assert.notEqual(b.headers['last-modified'], a.headers['last-modified']);
  assert.equal(c.headers.etag, b.headers.etag, 'the new identity persists');
  assert.match(b.headers.etag, /^"/, 'still strong');
  const other = await raw('/tables/KRvK.rtbw', range('bytes=0-3'));
  assert.match(other.headers.etag, /-0"$/, 'other files keep theirs');
  srv.reset();
  const d = await raw('/tables/KQvK.rtbw', range('bytes=0-3'));
  assert.equal(d.headers.etag, a.headers.etag, 'reset restores the generation');
});

test('fault: etag-change while a request is out: that one answers with the version it found', async () => {
  srv.reset();
  await faults([
    { mode: 'slow', match: 'KQvK', delayMs: 300, count: 1 },
    { mode: 'etag-change', match: 'KQvK', count: 1 },
  ]);
  const late = raw('/tables/KQvK.rtbw', range('bytes=0-3'));
  // The slow request has come in before the change does.
  while (!srv.stats().log.some((e) => e.fault === 'slow')) await new Promise((r) => setTimeout(r, 5));
  const changed = await raw('/tables/KQvK.rtbw', range('bytes=0-3'));
  const old = await late;
  assert.match(changed.headers.etag, /-1"$/);
  assert.match(old.headers.etag, /-0"$/, 'the request that came in first keeps the version it found');
  const next = await raw('/tables/KQvK.rtbw', range('bytes=0-3'));
  assert.equal(next.headers.etag, changed.headers.etag);
  srv.reset();
});

test('fault: no-cors', async () => {
  await faults({ mode: 'no-cors', match: 'KQvK' });
  const r = await raw('/tables/KQvK.rtbw', range('bytes=0-3'));
  assert.equal(r.status, 206);
  assert.equal(r.headers['access-control-allow-origin'], undefined);
  assert.equal(r.headers['access-control-expose-headers'], undefined);
  const p = await raw('/tables/KQvK.rtbw', { method: 'OPTIONS' });
  assert.equal(p.headers['access-control-allow-origin'], undefined);
  const o = await raw('/tables/KRvK.rtbw', range('bytes=0-3'));
  assert.equal(o.headers['access-control-allow-origin'], '*');
});

test('fault control: validation, GET ?json=, JS API', async () => {
  const bad = await fetch(srv.url + '__faults', { method: 'POST', body: '{"mode":"explode"}' });
  assert.equal(bad.status, 400);
  const notJson = await fetch(srv.url + '__faults', { method: 'POST', body: '{' });
  assert.equal(notJson.status, 400);
  const g = await fetch(srv.url + '__faults?json=' + encodeURIComponent('{"mode":"status","status":500,"count":2}'));
  const state = await g.json();
  assert.equal(state.faults[0].remaining, 2);
  assert.equal((await raw('/tables/KQvK.rtbw')).status, 500);
  assert.equal((await fetch(srv.url + '__faults').then((r) => r.json())).faults[0].remaining, 1);
  assert.throws(() => srv.setFaults({ mode: 'nope' }));
  srv.setFaults({ mode: 'status', status: 404 });
  assert.equal((await raw('/tables/KQvK.rtbw')).status, 404);
  await fetch(srv.url + '__reset', { method: 'POST' });
  assert.equal((await raw('/tables/KQvK.rtbw')).status, 200);
  assert.deepEqual(srv.faults().faults, []);
});

test('counters', async () => {
  const r0 = await fetch(srv.url + '__reset', { method: 'POST' });
  assert.equal(r0.status, 200);
  await raw('/tables/KQvK.rtbw', range('bytes=0-15'));
  await raw('/tables/KQvK.rtbw', range('bytes=16-31'));
  await raw('/tables/KRvK.rtbw');
  const s = await fetch(srv.url + '__stats').then((r) => r.json());
  assert.equal(s.requests, 3, 'control endpoints are not counted');
  // One connection a request here (no agent), and perhaps the stats request's own.
  assert.ok(s.connections >= 3 && s.connections <= 4, `${s.connections} connections`);
  assert.equal(s.bytes, 32 + KRVK.length);
  assert.deepEqual(s.byPath['/tables/KQvK.rtbw'], { requests: 2, bytes: 32 });
  assert.deepEqual(s.byPath['/tables/KRvK.rtbw'], { requests: 1, bytes: KRVK.length });
  assert.equal(s.log.length, 3);
  const e = s.log[0];
  assert.equal(e.method, 'GET');
  assert.equal(e.path, '/tables/KQvK.rtbw');
  assert.equal(e.range, 'bytes=0-15');
  assert.equal(e.status, 206);
  assert.equal(e.bytes, 16);
  assert.equal(typeof e.time, 'number');
  assert.equal(typeof e.ms, 'number');
  assert.equal(s.log[2].range, null);
  assert.deepEqual(srv.stats().requests, 3);
  await fetch(srv.url + '__reset');
  const z = srv.stats();
  assert.deepEqual(z, { requests: 0, bytes: 0, connections: 0, byPath: {}, log: [] });
});

test('log keeps the last 1000 entries', async () => {
  srv.reset();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const one = () =>
    new Promise((resolve, reject) => {
      http
        .get(srv.url + 'tables/KQvK.rtbw', { agent, headers: { Range: 'bytes=0-0' } }, (res) => {
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject);
    });
  const jobs = [];
  for (let i = 0; i < 1005; i++) jobs.push(one());
  await Promise.all(jobs);
  agent.destroy();
  const s = srv.stats();
  assert.equal(s.requests, 1005);
  assert.equal(s.bytes, 1005);
  assert.equal(s.log.length, 1000);
});

test('client abort mid-body does not hurt the server', async () => {
  srv.reset();
  await new Promise((resolve) => {
    const req = http.get(srv.url + 'tables/' + BIG, { agent: false }, (res) => {
      res.once('data', () => {
        req.destroy();
        setTimeout(resolve, 100);
      });
    });
    req.on('error', () => {});
  });
  const size = fs.statSync(path.join(TABLES, BIG)).size;
  const s = srv.stats();
  assert.equal(s.log[0].status, 200);
  assert.ok(s.log[0].bytes < size, `sent ${s.log[0].bytes} of ${size}`);
  const r = await raw('/tables/KQvK.rtbw', range('bytes=0-15'));
  assert.equal(r.status, 206);
});

test('CLI prints one line and stops on SIGTERM', async () => {
  const child = spawn(process.execPath, [path.join(HERE, 'range-server.mjs'), '--port', '0', '--latency', '1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const line = await new Promise((resolve, reject) => {
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.on('exit', (code) => reject(new Error(`exited early with ${code}`)));
  });
  const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+)\/)$/.exec(line);
  assert.ok(m, line);
  const r = await raw('/tables/KQvK.rtbw', { base: m[1], headers: { Range: 'bytes=0-15' } });
  assert.equal(r.status, 206);
  assert.deepEqual(r.body, KQVK.subarray(0, 16));
  const code = await new Promise((resolve) => {
    child.on('exit', (c) => resolve(c));
    child.kill('SIGTERM');
  });
  assert.equal(code, 0);
  assert.equal(out.trim().split('\n').length, 1, 'exactly one stdout line');
});
