#!/usr/bin/env node
// range-server.mjs: the project's own HTTP server for the demo and for tests.
//
// Serves Syzygy table files with HTTP Range support (one range or several), CORS with
// exposed headers, request counting and fault injection. Node 20, no npm
// dependencies. It is a test and demo tool, not a production server.
// Beside it: request-target.mjs (URLs to files), ranges.mjs (Range headers),
// faults.mjs (fault specs), static-files.mjs (types and content-codings),
// streams.mjs (waits, chunked writes, reads).
//
// CLI:
//   node tests/server/range-server.mjs [--port N] [--host H] [--tables DIR]...
//                                      [--static DIR] [--latency MS] [--log]
//   Prints exactly one line on stdout, `listening on http://HOST:PORT/`, then
//   runs until SIGTERM/SIGINT. Diagnostics go to stderr.
//
// URL layout:
//   /tables/<file>        the table dirs merged (the first dir holding the file wins)
//   /tables/<i>/<file>    table dir number i alone (0-based, in --tables order)
//   /redirected/<path>    same as /<path>; the target of the `redirect` fault
//   /<path>               the --static site (index.html for directories)
//   /__stats              GET: JSON counters (control endpoint, not counted)
//   /__reset              POST or GET: zero counters, clear faults and generations
//   /__faults             POST JSON body, or GET ?json=<JSON>: replace the fault
//                         list; GET without ?json shows the active faults
//
// Static files (the --static site, not tables) of a compressible type are
// sent whole with Content-Encoding br (else gzip) when the request accepts
// it and asks no Range, as static hosts and CDNs do, with their own ETag and
// Vary: Accept-Encoding. Tables are never encoded.
//
// Range semantics (RFC 9110):
//   `bytes=a-b`, `bytes=a-`, `bytes=-n` -> 206 + Content-Range `bytes a-b/size`.
//   Unsatisfiable (start >= size, `bytes=-0`, last < first) -> 416 with
//   `Content-Range: bytes */size`. Several ranges -> 206 multipart/byteranges,
//   one part per satisfiable range in the order asked, none merged (as nginx
//   does); a single one satisfiable -> a plain 206; none -> 416; more than
//   MAX_RANGES -> 200 whole file. The `single-range` fault answers several
//   ranges with 200 and the whole file, as servers that take only one range
//   do (the RFC lets a server ignore Range), `first-range` with a plain
//   206 for the first range alone, and `refuse-several` with an error status
//   (400 by default). Another unit or malformed syntax ->
//   ignored (200 whole file). `If-Range` that does not match -> 200 whole
//   file. `If-None-Match` that matches -> 304.
//   ETag is strong: "<size hex>-<mtime ms hex>-<generation>"; Last-Modified is
//   the mtime plus `generation` seconds. The `etag-change` fault bumps the
//   generation of the file it hits; requests that arrived before answer with
//   the generation they found.
//
// Fault specs (see FAULT_MODES): { match, mode, count, skip, headers, ...params }
//   match  substring of the decoded request path, or "*" (default "*")
//   count  how many matching requests get the fault (default unlimited)
//   skip   matching requests to let through before the fault starts (default 0)
//   The first spec that matches and has count left applies; faults only touch
//   GET and HEAD (and `no-cors` also drops CORS from a matching preflight).
//
// Symlinks inside a served dir are followed: they are the operator's choice.
// Path segments `.`, `..`, dot-files, empty segments, NUL, backslashes and
// encoded slashes are refused with 400 before any file system access.

import http from 'node:http';
import https from 'node:https';
import http2 from 'node:http2';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { FAULT_MODES, normalizeFaults, publicSpec, specMatches } from './faults.mjs';
import { MAX_RANGES, parseRange } from './ranges.mjs';
import { parseTarget, safeJoin, statOrNull } from './request-target.mjs';
import { mimeType, staticEncoding } from './static-files.mjs';
import { CHUNK, pump, readBody, readSlice, sleep } from './streams.mjs';

export { FAULT_MODES, normalizeFaults, parseRange, parseTarget, mimeType, staticEncoding };

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

const SCRIPT_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(SCRIPT_DIR, '..', '..');
// Requests kept in the log; RANGE_SERVER_LOG_LIMIT raises it for load tests.
const LOG_LIMIT = Number(process.env.RANGE_SERVER_LOG_LIMIT) > 0 ? Number(process.env.RANGE_SERVER_LOG_LIMIT) : 1000;
const GZIP_BUFFER_LIMIT = 8 * 1024 * 1024; // larger gzip bodies are streamed chunked
const CONTROL_BODY_LIMIT = 1024 * 1024;
// Largest range of a table read while its delay runs (see readAhead).
const AHEAD_LIMIT = 1024 * 1024;

const WITHOUT_TIMING = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Content-Range, Content-Length, ETag, Last-Modified, Accept-Ranges',
});
const WITH_TIMING = Object.freeze({ ...WITHOUT_TIMING, 'Timing-Allow-Origin': '*' });

/** Table dirs used when none are given: $SYZYGY_PATH (':'-separated) or ../shared/syzygy. */
export function defaultTableDirs() {
  const env = process.env.SYZYGY_PATH;
  if (env && env.trim()) {
    return env.split(path.delimiter).filter(Boolean).map((d) => path.resolve(d));
  }
  return [path.resolve(REPO_ROOT, '..', 'shared', 'syzygy')];
}

// ---------------------------------------------------------------------------
// The server.

/**
 * Starts a server. options: {port = 0, host = '127.0.0.1', tables (dir or
 * dirs; default defaultTableDirs()), static (dir), latencyMs = 0, log = false,
 * tls ({key, cert}: HTTPS with HTTP/2), http1 (with tls: HTTPS that speaks
 * HTTP/1.1 only), timingAllowOrigin = true (false: no Timing-Allow-Origin,
 * so another origin's page cannot see the protocol in Resource Timing),
 * directoryIndex = true (false: a directory's URL is 404, as on a bucket's
 * REST endpoint where only `dir/index.html` names the page)}.
 * Resolves to {url, port, host, server, close(), stats(), reset(), setFaults(obj), faults()}.
 */
export async function startServer(options = {}) {
  const host = options.host ?? '127.0.0.1';
  const port = Number(options.port ?? 0);
  const tableDirs = (options.tables == null ? defaultTableDirs() : [].concat(options.tables)).map((d) =>
    path.resolve(String(d)),
  );
  const staticDir = options.static ? path.resolve(String(options.static)) : null;
  const baseLatency = Number(options.latencyMs ?? options.latency ?? 0) || 0;
  const CORS_HEADERS = options.timingAllowOrigin === false ? WITHOUT_TIMING : WITH_TIMING;
  const logRequests = Boolean(options.log);
  const directoryIndex = options.directoryIndex !== false;

  for (const d of [...tableDirs, ...(staticDir ? [staticDir] : [])]) {
    const st = await statOrNull(d);
    if (!st || !st.isDirectory()) process.stderr.write(`range-server: warning: not a directory: ${d}\n`);
  }

  // Mutable state.
  let epoch = 0;
  let counters;
  let specs = [];
  let latencyMs = baseLatency;
  const generations = new Map(); // absolute file path -> generation
  let partsServed = 0; // multipart answers so far, for unique boundaries

  function resetCounters() {
    epoch++;
    counters = { requests: 0, bytes: 0, connections: 0, byPath: Object.create(null), log: [] };
  }
  resetCounters();

  function resetAll() {
    resetCounters();
    specs = [];
    latencyMs = baseLatency;
    generations.clear();
  }

  function setFaults(obj) {
    const n = normalizeFaults(obj);
    specs = n.specs;
    if (n.latencyMs !== undefined) latencyMs = n.latencyMs;
  }

  function faultState() {
    return { latencyMs, faults: specs.map(publicSpec) };
  }

  function snapshot() {
    return JSON.parse(JSON.stringify(counters));
  }

  /** Records a request; returns a handle that updates its log entry. */
  function track(method, p, range) {
    const myEpoch = epoch;
    const entry = { time: Date.now(), method, path: p, range: range ?? null, status: 0, bytes: 0, ms: 0, fault: null };
    const t0 = process.hrtime.bigint();
    counters.requests++;
    const per = (counters.byPath[p] ??= { requests: 0, bytes: 0 });
    per.requests++;
    counters.log.push(entry);
    if (counters.log.length > LOG_LIMIT) counters.log.splice(0, counters.log.length - LOG_LIMIT);
    return {
      entry,
      status(s) {
        entry.status = s;
      },
      addBytes(n) {
        entry.bytes += n;
        if (myEpoch === epoch) {
          counters.bytes += n;
          per.bytes += n;
        }
      },
      finish() {
        entry.ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (logRequests) {
          process.stderr.write(
            `${entry.method} ${entry.path} ${entry.range ?? '-'} -> ${entry.status} ${entry.bytes}B ${entry.ms.toFixed(1)}ms${entry.fault ? ' [' + entry.fault + ']' : ''}\n`,
          );
        }
      },
    };
  }

  function pickFault(p) {
    for (const spec of specs) {
      if (spec.remaining <= 0 || !specMatches(spec, p)) continue;
      if (spec.skipLeft > 0) {
        spec.skipLeft--;
        continue;
      }
      spec.remaining--;
      spec.hits++;
      return spec;
    }
    return null;
  }

  function peekNoCors(p) {
    return specs.some((s) => s.mode === 'no-cors' && s.remaining > 0 && specMatches(s, p));
  }

  // Helpers that write a complete small response.
  function sendText(res, rec, status, text, headers = {}) {
    const body = Buffer.from(text);
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length, 'Cache-Control': 'no-cache', ...headers });
    rec?.status(status);
    if (res.req.method === 'HEAD') return res.end();
    res.end(body);
    rec?.addBytes(body.length);
  }

  function sendJson(res, status, value) {
    const body = Buffer.from(JSON.stringify(value));
    res.writeHead(status, {
      ...CORS_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': body.length,
      'Cache-Control': 'no-store',
    });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  }

  async function handleControl(req, res, name, target) {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...CORS_HEADERS,
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': '86400',
      });
      return res.end();
    }
    if (name === '__stats') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'use GET' });
      return sendJson(res, 200, snapshot());
    }
    if (name === '__reset') {
      if (req.method !== 'GET' && req.method !== 'POST') return sendJson(res, 405, { error: 'use POST or GET' });
      if (req.method === 'POST') await readBody(req, CONTROL_BODY_LIMIT);
      resetAll();
      return sendJson(res, 200, { ok: true });
    }
    // __faults
    let text = null;
    if (req.method === 'POST' || req.method === 'PUT') text = await readBody(req, CONTROL_BODY_LIMIT);
    else if (req.method === 'GET' && target.query.has('json')) text = target.query.get('json');
    else if (req.method !== 'GET') return sendJson(res, 405, { error: 'use POST or GET' });
    if (text !== null) {
      try {
        setFaults(text.trim() === '' ? null : JSON.parse(text));
      } catch (e) {
        return sendJson(res, 400, { error: String(e.message || e) });
      }
    }
    return sendJson(res, 200, faultState());
  }

  /** Maps segments to {file, st, isTable} | {redirect: location} | null. */
  async function resolveFile(target) {
    let segs = target.segments;
    const redirected = segs[0] === 'redirected';
    if (redirected) segs = segs.slice(1);
    const prefix = redirected ? '/redirected' : '';
    if (segs[0] === 'tables') {
      let rest = segs.slice(1);
      let dirs = tableDirs;
      if (rest.length >= 2 && /^\d+$/.test(rest[0]) && Number(rest[0]) < tableDirs.length) {
        dirs = [tableDirs[Number(rest[0])]];
        rest = rest.slice(1);
      }
      if (rest.length === 0) return null;
      for (const dir of dirs) {
        const full = safeJoin(dir, rest);
        if (!full) return null;
        const st = await statOrNull(full);
        if (st && st.isFile()) return { file: full, st, isTable: true };
      }
      return null;
    }
    if (!staticDir) return null;
    const full = safeJoin(staticDir, segs);
    if (!full) return null;
    const st = await statOrNull(full);
    if (!st) return null;
    if (st.isDirectory()) {
      if (!target.trailingSlash && segs.length > 0) {
        return { redirect: prefix + '/' + segs.map(encodeURIComponent).join('/') + '/' + target.search };
      }
      if (!directoryIndex) return null;
      const index = path.join(full, 'index.html');
      const ist = await statOrNull(index);
      return ist && ist.isFile() ? { file: index, st: ist, isTable: false } : null;
    }
    return st.isFile() ? { file: full, st, isTable: false } : null;
  }

  function isTablePath(target) {
    const s = target.segments;
    return s[0] === 'tables' || (s[0] === 'redirected' && s[1] === 'tables');
  }

  async function handle(req, res) {
    const target = parseTarget(req.url);
    const method = req.method;

    if (!target.error && target.segments.length === 1 && !target.trailingSlash) {
      const name = target.segments[0];
      if (name === '__stats' || name === '__reset' || name === '__faults') {
        return handleControl(req, res, name, target);
      }
    }

    const p = target.error ? String(req.url).slice(0, 256) : target.path;
    const rec = track(method, p, req.headers.range);
    res.once('close', () => rec.finish());

    if (target.error) return sendText(res, rec, target.error, 'bad request path\n', CORS_HEADERS);

    if (method === 'OPTIONS') {
      const headers = peekNoCors(p)
        ? {}
        : {
            ...CORS_HEADERS,
            'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
            'Access-Control-Allow-Headers': 'Range, If-Range, If-None-Match',
            'Access-Control-Max-Age': '86400',
          };
      res.writeHead(204, headers);
      rec.status(204);
      return res.end();
    }
    if (method !== 'GET' && method !== 'HEAD') {
      return sendText(res, rec, 405, 'method not allowed\n', { ...CORS_HEADERS, Allow: 'GET, HEAD, OPTIONS' });
    }

    const fault = pickFault(p);
    if (fault) rec.entry.fault = fault.mode;
    // The versions as the request arrives: one still being answered when
    // a file changes answers from the version it found, as a server that
    // opened the file before it was replaced does.
    const gens = new Map(generations);
    const mode = fault?.mode ?? null;
    const cors = mode === 'no-cors' ? {} : CORS_HEADERS;
    // A header named with null is left out of the answer (see serveFile).
    const extra = Object.fromEntries(Object.entries(fault?.headers ?? {}).filter(([, v]) => v !== null));

    // A table is looked up, and a small range of it read, while its delay
    // runs, as an edge cache has them at hand: the answer leaves when the
    // delay ends, not after file-system work that a burst of requests
    // queues on libuv's thread pool (17 answers of 4-8 KiB over HTTP/2 left
    // 116-191 ms after they came in at 100 ms of delay).
    const table = isTablePath(target);
    const lookup = table && !fault ? resolveFile(target) : null;
    lookup?.catch(() => {});
    const ahead = lookup && method === 'GET' ? lookup.then((f) => readAhead(req, f)).catch(() => null) : null;
    if (table && !(await sleep(latencyMs, res))) return;
    const delay = Number(fault?.delayMs ?? (mode === 'slow' ? 1000 : 0));
    if (delay > 0 && !(await sleep(delay, res))) return;

    const found = await (lookup ?? resolveFile(target));
    if (res.destroyed) return;

    if (mode === 'redirect') {
      const status = Number(fault.status ?? 302);
      const path = target.segments.map(encodeURIComponent).join('/') + (target.trailingSlash ? '/' : '') + target.search;
      // (`to`: another server's base, which takes the path past its first segment, `tables/`.)
      const location = fault.to ? String(fault.to) + path.slice(path.indexOf('/') + 1) : '/redirected/' + path;
      res.writeHead(status, { ...cors, Location: location, 'Content-Length': 0, 'Cache-Control': 'no-cache', ...extra });
      rec.status(status);
      return res.end();
    }
    if (mode === 'status') {
      const status = Number(fault.status ?? 500);
      const headers = { ...cors, ...extra };
      if (status === 416 && found?.file) headers['Content-Range'] = `bytes */${found.st.size}`;
      const text = fault.body != null ? String(fault.body) : `${status} (injected fault)\n`;
      if (!(fault.intervalMs > 0)) return sendText(res, rec, status, text, headers);
      // An error page sent a byte every `intervalMs`, as a server in distress may.
      const body = Buffer.from(text);
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length, 'Cache-Control': 'no-cache', ...headers });
      rec.status(status);
      if (req.method === 'HEAD') return res.end();
      for (let i = 0; i < body.length && !res.destroyed; i++) {
        res.write(body.subarray(i, i + 1));
        rec.addBytes(1);
        if (!(await sleep(Number(fault.intervalMs), res))) return;
      }
      return res.end();
    }
    if (found?.redirect) {
      res.writeHead(301, { ...cors, Location: found.redirect, 'Content-Length': 0, 'Cache-Control': 'no-cache' });
      rec.status(301);
      return res.end();
    }
    if (!found) return sendText(res, rec, 404, 'not found\n', { ...cors, ...extra });

    if (mode === 'etag-change') {
      generations.set(found.file, (generations.get(found.file) ?? 0) + 1);
      gens.set(found.file, generations.get(found.file));
    }
    return serveFile(req, res, rec, found, fault, cors, extra, await ahead, gens);
  }

  /** The bytes of a table's one Range, when small: {start, body}; else null. */
  async function readAhead(req, found) {
    if (!found?.isTable) return null;
    const range = parseRange(req.headers.range, found.st.size);
    if (!range || range.unsatisfiable || range.parts) return null;
    const len = range.end - range.start + 1;
    if (len > AHEAD_LIMIT) return null;
    return { start: range.start, body: await readSlice(found.file, range.start, len) };
  }

  // Encoded static files: `${enc}:${file}` -> {mtimeMs, size, body (a promise)}.
  const encoded = new Map();

  /** A static file encoded once per version (brotli at its best, as a precompressing host does). */
  function encodedBody(file, st, enc) {
    const key = `${enc}:${file}`;
    let e = encoded.get(key);
    if (!e || e.mtimeMs !== st.mtimeMs || e.size !== st.size) {
      const body = readSlice(file, 0, st.size).then((b) =>
        enc === 'br'
          ? brotli(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length } })
          : gzip(b, { level: 9 }),
      );
      e = { mtimeMs: st.mtimeMs, size: st.size, body };
      encoded.set(key, e);
      body.catch(() => encoded.delete(key));
    }
    return e.body;
  }

  async function serveFile(req, res, rec, found, fault, cors, extra, ahead = null, gens = generations) {
    const { file, st } = found;
    const mode = fault?.mode ?? null;
    const enc = found.isTable || mode ? null : staticEncoding(file, req.headers);
    if (enc) return serveEncoded(req, res, rec, found, enc, cors, extra);
    const size = st.size;
    const gen = gens.get(file) ?? 0;
    const etag = `"${size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}-${gen}"`;
    const lastModified = new Date(Math.floor(st.mtimeMs / 1000) * 1000 + gen * 1000).toUTCString();
    const isHead = req.method === 'HEAD';
    const headers = {
      ...cors,
      'Accept-Ranges': 'bytes',
      ETag: etag,
      'Last-Modified': lastModified,
      'Cache-Control': 'no-cache',
      'Content-Type': mimeType(file),
    };
    for (const [k, v] of Object.entries(fault?.headers ?? {})) if (v === null) delete headers[k];

    // Conditionals: If-None-Match first, then If-Range.
    const inm = req.headers['if-none-match'];
    if (inm != null) {
      const tags = inm.split(',').map((t) => t.trim().replace(/^W\//, ''));
      if (tags.includes('*') || tags.includes(etag)) {
        res.writeHead(304, { ...headers, ...extra });
        rec.status(304);
        return res.end();
      }
    }
    let rangeHeader = req.headers.range;
    const ifRange = req.headers['if-range'];
    if (rangeHeader != null && ifRange != null) {
      const v = ifRange.trim();
      const ok = v.startsWith('"') ? v === etag : v.startsWith('W/') ? false : v === lastModified;
      if (!ok) rangeHeader = undefined;
    }

    // (`whole`: a fault's body is the whole file's, as from a server that ignores Range.)
    let range = mode === 'ignore-range' || fault?.whole ? null : parseRange(rangeHeader, size);
    if (range?.unsatisfiable) {
      return sendText(res, rec, 416, 'range not satisfiable\n', {
        ...headers,
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Range': `bytes */${size}`,
        ...extra,
      });
    }
    if (range?.parts && mode === 'refuse-several') {
      return sendText(res, rec, Number(fault.status ?? 400), 'several ranges refused\n', { ...headers, 'Content-Type': 'text/plain; charset=utf-8', ...extra });
    }
    if (range?.parts && mode === 'drop-several') {
      // No answer at all: the connection closes under the request.
      rec.status(0);
      res.socket?.destroy();
      return;
    }
    if (range?.parts && mode === 'single-range') range = null;
    if (range?.parts && mode === 'first-range') range = range.parts[0];
    if (range?.parts) return serveParts(req, res, rec, file, size, range.parts, headers, extra);

    let status = range ? 206 : 200;
    // `wider-range`: the answer starts earlier than asked, and says so.
    const before = range && mode === 'wider-range' ? Math.min(range.start, Math.floor(Number(fault.before ?? 4096))) : 0;
    const start = range ? range.start - before : 0;
    const len = range ? range.end - range.start + 1 + before : size;
    if (range) headers['Content-Range'] = `bytes ${start}-${start + len - 1}/${size}`;
    // A stream whose length only its end tells (chunked over HTTP/1.1).
    if (!(mode === 'ignore-range' && fault.chunked)) headers['Content-Length'] = len;

    let limit = len;
    let chunk = CHUNK;
    let intervalMs = 0;
    switch (mode) {
      case 'wrong-range': {
        status = 206;
        const sizeDelta = Number(fault.sizeDelta ?? 0);
        const shift = Number(fault.shift ?? (sizeDelta ? 0 : 1));
        const s2 = start + shift;
        headers['Content-Range'] = `bytes ${s2}-${s2 + len - 1}/${size + sizeDelta}`;
        break;
      }
      case 'truncate':
      case 'reset':
        limit = Math.max(0, Math.min(len, Math.floor(Number(fault.bytes ?? Math.floor(len / 2)))));
        headers.Connection = 'close';
        break;
      case 'drip':
        chunk = Math.max(1, Math.floor(Number(fault.chunk ?? 1024)));
        intervalMs = Number(fault.intervalMs ?? 50);
        break;
      case 'gzip':
        return sendGzip(req, res, rec, file, start, len, status, headers, extra);
      default:
        break;
    }

    res.writeHead(status, { ...headers, ...extra });
    rec.status(status);
    if (isHead) return res.end();
    if (!mode && ahead && ahead.start === start && ahead.body.length === len) {
      res.end(ahead.body);
      rec.addBytes(len);
      return;
    }

    const complete = await pump(res, file, start, limit, rec, chunk, intervalMs);
    if (res.destroyed) return;
    if (mode === 'reset') {
      // Give the partial body a moment to reach the client, then send RST.
      await sleep(20, res);
      const sock = res.socket;
      if (sock && !sock.destroyed) {
        if (typeof sock.resetAndDestroy === 'function') sock.resetAndDestroy();
        else sock.destroy();
      }
      return;
    }
    if (!complete && mode !== 'truncate') {
      res.destroy(); // the file changed or vanished mid-response
      return;
    }
    res.end(); // for `truncate`, Connection: close ends the socket after this
  }

  /** A 206 multipart/byteranges answer: one part per range, each with its Content-Range. */
  async function serveParts(req, res, rec, file, size, parts, headers, extra) {
    const boundary = `syzygy-web-${(++partsServed).toString(36)}-${Date.now().toString(36)}`;
    const type = headers['Content-Type'];
    const heads = parts.map((p, i) =>
      Buffer.from(`${i ? '\r\n' : ''}--${boundary}\r\nContent-Type: ${type}\r\nContent-Range: bytes ${p.start}-${p.end}/${size}\r\n\r\n`),
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const length = heads.reduce((n, h, i) => n + h.length + parts[i].end - parts[i].start + 1, tail.length);
    res.writeHead(206, { ...headers, 'Content-Type': `multipart/byteranges; boundary=${boundary}`, 'Content-Length': length, ...extra });
    rec.status(206);
    if (req.method === 'HEAD') return res.end();
    for (let i = 0; i < parts.length; i++) {
      if (res.destroyed) return;
      res.write(heads[i]);
      rec.addBytes(heads[i].length);
      if (!(await pump(res, file, parts[i].start, parts[i].end - parts[i].start + 1, rec))) {
        res.destroy();
        return;
      }
    }
    res.end(tail);
    rec.addBytes(tail.length);
  }

  /** A whole static file with a content-coding: its own ETag, no ranges, Vary. */
  async function serveEncoded(req, res, rec, found, enc, cors, extra) {
    const { file, st } = found;
    const gen = generations.get(file) ?? 0;
    const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}-${gen}-${enc}"`;
    const headers = {
      ...cors,
      ETag: etag,
      'Last-Modified': new Date(Math.floor(st.mtimeMs / 1000) * 1000 + gen * 1000).toUTCString(),
      'Cache-Control': 'no-cache',
      'Content-Type': mimeType(file),
      'Content-Encoding': enc,
      Vary: 'Accept-Encoding',
    };
    const inm = req.headers['if-none-match'];
    if (inm != null && inm.split(',').some((t) => ['*', etag].includes(t.trim().replace(/^W\//, '')))) {
      res.writeHead(304, { ...headers, ...extra });
      rec.status(304);
      return res.end();
    }
    const body = await encodedBody(file, st, enc);
    if (res.destroyed) return;
    headers['Content-Length'] = body.length;
    res.writeHead(200, { ...headers, ...extra });
    rec.status(200);
    if (req.method === 'HEAD') return res.end();
    res.end(body);
    rec.addBytes(body.length);
  }

  async function sendGzip(req, res, rec, file, start, len, status, headers, extra) {
    headers['Content-Encoding'] = 'gzip';
    delete headers['Content-Length'];
    if (req.method === 'HEAD') {
      res.writeHead(status, { ...headers, ...extra });
      rec.status(status);
      return res.end();
    }
    if (len <= GZIP_BUFFER_LIMIT) {
      const body = await gzip(await readSlice(file, start, len));
      if (res.destroyed) return;
      headers['Content-Length'] = body.length;
      res.writeHead(status, { ...headers, ...extra });
      rec.status(status);
      res.end(body);
      rec.addBytes(body.length);
      return;
    }
    res.writeHead(status, { ...headers, ...extra });
    rec.status(status);
    const src = len > 0 ? fs.createReadStream(file, { start, end: start + len - 1 }) : null;
    const gz = zlib.createGzip();
    gz.on('data', (c) => {
      rec.addBytes(c.length);
      if (!res.write(c)) {
        gz.pause();
        res.once('drain', () => gz.resume());
      }
    });
    gz.on('end', () => res.end());
    gz.on('error', () => res.destroy());
    res.once('close', () => {
      src?.destroy();
      gz.destroy();
    });
    if (src) {
      src.on('error', () => res.destroy());
      src.pipe(gz);
    } else gz.end();
  }

  // With `tls: {key, cert}`: HTTPS that speaks HTTP/2 (and HTTP/1.1 to
  // clients without it), through node's request/response compatibility API.
  const listener = (req, res) => {
    res.on('error', () => {});
    req.on('error', () => {});
    handle(req, res).catch((err) => {
      if (err?.code !== 'EPIPE' && err?.code !== 'ECONNRESET' && err?.code !== 'ERR_STREAM_DESTROYED') {
        process.stderr.write(`range-server: ${err?.stack || err}\n`);
      }
      if (!res.headersSent && !res.destroyed) {
        const status = err?.status ?? 500;
        res.writeHead(status, { ...CORS_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
        res.end(`${status} ${http.STATUS_CODES[status] ?? ''}\n`);
      } else {
        res.destroy();
      }
    });
  };
  const server = !options.tls
    ? http.createServer(listener)
    : options.http1
      ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, listener)
      : http2.createSecureServer({ key: options.tls.key, cert: options.tls.cert, allowHTTP1: true }, listener);
  // Connections opened (TCP, or TLS where served so): a client that keeps
  // its connections opens far fewer than it sends requests.
  server.on(options.tls ? 'secureConnection' : 'connection', () => counters.connections++);
  server.on('clientError', (err, socket) => {
    if (socket.writable && err?.code !== 'ECONNRESET' && err?.code !== 'EPIPE') {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    } else {
      socket.destroy();
    }
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => process.stderr.write(`range-server: ${err?.stack || err}\n`));

  // HTTP/2 sessions, closed with the server (it has no closeAllConnections).
  const sessions = new Set();
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  const actualPort = server.address().port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing = null;

  return {
    url: `${options.tls ? 'https' : 'http'}://${urlHost}:${actualPort}/`,
    port: actualPort,
    host,
    server,
    tableDirs: [...tableDirs],
    staticDir,
    /** Stops listening and drops every connection. */
    close() {
      closing ??= new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
        for (const s of sessions) s.destroy();
      });
      return closing;
    },
    /** A copy of {requests, bytes, connections, byPath, log}. */
    stats: snapshot,
    /** Zeroes counters, clears faults, generations and the latency override. */
    reset: resetAll,
    /** Replaces the fault list: a spec, an array, or {faults, latencyMs}. Throws if invalid. */
    setFaults,
    /** The active faults with their remaining counts. */
    faults: faultState,
  };
}

// ---------------------------------------------------------------------------
// CLI.

const USAGE = `usage: node tests/server/range-server.mjs [--port N] [--host H] [--tables DIR]... [--static DIR] [--latency MS] [--log]
  --port N       port to listen on (default 0: an ephemeral port)
  --host H       address to bind (default 127.0.0.1)
  --tables DIR   table dir; repeatable; merged under /tables/, each under /tables/<i>/
                 (default: $SYZYGY_PATH or ../shared/syzygy next to the repository)
  --static DIR   site served at /
  --latency MS   delay every table response by MS milliseconds
  --log          log each request on stderr
Prints "listening on http://HOST:PORT/" on stdout once ready.`;

export function parseArgs(argv) {
  const opts = { port: 0, host: '127.0.0.1', tables: undefined, static: undefined, latencyMs: 0, log: false };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const need = () => {
      if (value !== undefined) return value;
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    switch (arg) {
      case '--port': {
        const v = Number(need());
        if (!Number.isInteger(v) || v < 0 || v > 65535) throw new Error('--port: expected 0..65535');
        opts.port = v;
        break;
      }
      case '--host':
        opts.host = need();
        break;
      case '--tables':
        (opts.tables ??= []).push(need());
        break;
      case '--static':
        opts.static = need();
        break;
      case '--latency': {
        const v = Number(need());
        if (!(v >= 0)) throw new Error('--latency: expected a number of milliseconds');
        opts.latencyMs = v;
        break;
      }
      case '--log':
        opts.log = true;
        break;
      case '-h':
      case '--help':
        opts.help = true;
        break;
      default:
        throw new Error(`unknown argument: ${argv[i]}`);
    }
  }
  return opts;
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`range-server: ${e.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (opts.help) {
    process.stdout.write(USAGE + '\n');
    return;
  }
  // A client that goes away mid-write must never take the server down.
  process.on('uncaughtException', (err) => {
    if (err?.code === 'EPIPE' || err?.code === 'ECONNRESET') return;
    process.stderr.write(`range-server: fatal: ${err?.stack || err}\n`);
    process.exit(1);
  });
  let srv;
  try {
    srv = await startServer(opts);
  } catch (e) {
    process.stderr.write(`range-server: cannot listen: ${e.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`listening on ${srv.url}\n`);
  const stop = () => {
    setTimeout(() => process.exit(0), 2000).unref();
    srv.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

function isMain() {
  if (!process.argv[1]) return false;
  try {
    return fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) main();
