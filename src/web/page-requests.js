// The pages of a range a probe named: from memory, IndexedDB, then the
// network, one Range request a run of missing pages. A request still
// waiting at the gate takes in neighbouring ranges named after it.

import { fail } from './errors.js';

/** Supplies the pages of a range `f` a probe named: memory, IndexedDB, then the network. */
export async function supplyPages(rt, f, ask) {
  const file = rt.files.get(f.file);
  if (!file) throw fail(`internal: ${f.name} used before it was opened`, 'network');
  const first = Math.floor(f.start / rt.pageSize);
  const last = Math.floor((f.end - 1) / rt.pageSize);
  const waits = [];
  const wanted = [];
  for (let p = first; p <= last; p++) {
    if (rt.core.hasPage(f.file, p)) continue;
    const k = `${f.file}:${p}`;
    const w = rt.inflight.get(k);
    if (w) waits.push(rt.join(w, ask));
    else wanted.push(p);
  }
  if (wanted.length) {
    const job = { trace: ask.trace, prio: { rank: ask.prio.rank } };
    const entry = { prio: job.prio, promise: fetchPages(rt, f.file, file, wanted, job) };
    for (const p of wanted) rt.inflight.set(`${f.file}:${p}`, entry);
    entry.promise.finally(() => wanted.forEach((p) => rt.inflight.delete(`${f.file}:${p}`))).catch(() => {});
    waits.push(entry.promise);
  }
  await Promise.all(waits);
}

async function fetchPages(rt, id, file, wanted, job) {
  const got = file.idb ? await rt.db.get(file.url, wanted) : new Map();
  for (const [p, bytes] of got) rt.core.supply(id, p * rt.pageSize, file.size, file.validator, bytes);
  rt.counters.pagesFromIndexedDb += got.size;
  const missing = wanted.filter((p) => !got.has(p));
  // Coalesce consecutive pages into one Range request each.
  const runs = [];
  for (const p of missing) {
    const last = runs[runs.length - 1];
    if (last && last[1] === p - 1) last[1] = p;
    else runs.push([p, p]);
  }
  await Promise.all(runs.map(([a, b]) => joinWaiting(rt, id, file, a, b, job) || pageRequest(rt, id, file, a, b, job)));
}

/** One Range request for pages a..=b of a file, open to joins while it waits at the gate. */
function pageRequest(rt, id, file, a, b, job) {
  const span = { start: a * rt.pageSize, end: Math.min((b + 1) * rt.pageSize, file.size), started: false };
  const waiting = rt.waiting.get(file.url) || new Set();
  rt.waiting.set(file.url, waiting);
  const run = { span, prio: job.prio, gap: [] };
  waiting.add(run);
  const leave = () => {
    waiting.delete(run);
    if (!waiting.size && rt.waiting.get(file.url) === waiting) rt.waiting.delete(file.url);
  };
  run.promise = rt.http
    .request(file.url, span.start, span.end, file.url, { ...job, span })
    .finally(leave)
    .then((r) => {
      if (r === null) throw fail(`${file.url} disappeared (404)`, 'missing-table');
      rt.accept(id, file.url, span.start, r);
    })
    .finally(() => run.gap.forEach((k) => rt.inflight.delete(k)));
  return run.promise;
}

/**
 * Pages a..=b joined to a request of the same file still waiting at the
 * gate, when at most the core's bridge (`Core.bridgeBytes`) lies between
 * them and none of those pages is held or on its way: a probe that
 * attempts again as each answer arrives names neighbouring ranges in
 * separate attempts, and over HTTP/1.1 a request can wait a round or
 * more for a connection.
 * Resolves once its pages are in; null when nothing can take them.
 */
function joinWaiting(rt, id, file, a, b, job) {
  const waiting = rt.waiting.get(file.url);
  if (!waiting || rt.http.bodies.has(file.url)) return null;
  const ps = rt.pageSize;
  const free = (from, to) => {
    for (let p = from; p < to; p++) if (rt.core.hasPage(id, p) || rt.inflight.has(`${id}:${p}`)) return false;
    return true;
  };
  for (const run of waiting) {
    const { span } = run;
    // Only a request of the same rank: pages of another would ride with
    // (or hold back) the position's own result, which on a slow link
    // shares their bandwidth.
    if (span.started || run.prio.rank !== job.prio.rank) continue;
    const first = span.start / ps;
    const last = Math.ceil(span.end / ps); // one past
    let gap;
    if (a >= last && (a - last) * ps <= rt.bridgeBytes && free(last, a)) gap = [last, a];
    else if (b < first && (first - b - 1) * ps <= rt.bridgeBytes && free(b + 1, first)) gap = [b + 1, first];
    else continue;
    span.start = Math.min(span.start, a * ps);
    span.end = Math.max(span.end, Math.min((b + 1) * ps, file.size));
    for (let p = gap[0]; p < gap[1]; p++) {
      const k = `${id}:${p}`;
      rt.inflight.set(k, { prio: run.prio, promise: run.promise });
      run.gap.push(k);
    }
    return run.promise;
  }
  return null;
}
