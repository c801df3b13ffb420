// Pages run in Chromium as users have it: a plain process per run, with no
// DevTools protocol attached. Playwright enables the Network domain on every
// page, and over HTTP/2 that instrumentation alone added 0.1-0.25 s to the
// cold promotions' three rounds on a 2-core machine (the same requests
// replayed by bare fetch(): 0.51-0.69 s without it, 0.55-0.95 s with it).
// The pages (tests/browser/plain/) come from the bench's static server of
// the repository; a small server here hands them a plan (GET /plan) and
// takes their result (one POST to /result).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { CHROMIUM_ARGS } from '../chromium.mjs';

// A page that does not answer in this long failed (its error never came).
const TIMEOUT_MS = 60000;

// Browsers still running: killed with this process however it ends.
const live = new Set();
process.once('exit', () => live.forEach(kill));

/** Kills a browser's process group (it leads one: see run). */
function kill(child) {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/**
 * Starts the result server for pages of `site` (a static server of the
 * repository, ending in "/"); resolves {run(page, query, plan), close()}.
 */
export async function plainChromium(site) {
  let waiting = null;
  let plan = '[]';
  // Profiles of the runs, removed at close (helpers may still be writing at a kill).
  const profiles = [];
  const server = http.createServer((req, res) => {
    // The pages are of another origin.
    res.setHeader('Access-Control-Allow-Origin', '*');
    const url = new URL(req.url, 'http://x');
    if (req.method === 'POST' && url.pathname === '/result') {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        res.end();
        let result;
        try {
          result = JSON.parse(body);
        } catch {
          result = { error: `an unreadable result: ${body.slice(0, 200)}` };
        }
        waiting?.(result);
      });
      return;
    }
    if (url.pathname === '/plan') {
      res.setHeader('Content-Type', 'application/json');
      return res.end(plan);
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const sink = `http://127.0.0.1:${server.address().port}/`;
  return {
    /** Opens `page` with `query` in a fresh Chromium and profile; resolves what it posted. */
    async run(page, query, rounds = null) {
      if (rounds) plan = JSON.stringify(rounds);
      const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'syzygy-plain-'));
      const got = new Promise((resolve, reject) => {
        waiting = resolve;
        setTimeout(() => reject(new Error(`${page}: no result in ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref();
      });
      const args = [...CHROMIUM_ARGS, '--ignore-certificate-errors', `--user-data-dir=${profile}`, `${site}tests/browser/plain/${page}?${new URLSearchParams({ ...query, sink })}`];
      // Its own process group: the renderer and helpers go with it.
      const child = spawn(process.env.CHROMIUM || '/usr/bin/chromium', args, { stdio: 'ignore', detached: true });
      live.add(child);
      const exited = new Promise((resolve) => {
        child.once('exit', resolve);
        child.once('error', resolve);
      });
      try {
        // A browser that ends (or never starts) before its page answers fails the run at once.
        const r = await Promise.race([got, exited.then(() => Promise.reject(new Error(`${page}: Chromium ended before its page answered`)))]);
        if (r.error) throw new Error(`${page}: ${r.error}`);
        return r;
      } finally {
        waiting = null;
        kill(child);
        await exited;
        live.delete(child);
        profiles.push(profile);
      }
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      for (const p of profiles) fs.rmSync(p, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

/**
 * A probe's requests (probe.html's `requests`, in the order sent) as a
 * plan for replay.html: each waits for the requests whose headers came
 * before it was sent, the answers it may have waited on.
 */
export function planOf(requests) {
  return requests.map((r) => ({
    name: r.name,
    range: r.range,
    after: requests.flatMap((d, i) => (d.end !== null && d.end <= r.start ? [i] : [])),
  }));
}
