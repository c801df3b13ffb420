// The pages of a range a probe named: from memory, IndexedDB, then the
// network, one Range request a run of missing pages. A request still
// waiting at the gate takes in neighbouring ranges named after it, and
// from a server that answers several ranges in one body, any range of its
// file.

import { accept } from './accept.js';
import { fail } from './errors.js';
import { Turns, baseOf, candidates, noteBase } from './file-open.js';
import { sameVersion } from './version.js';

// Ranges one request may carry (its Range header stays well under a server's line limits).
const MAX_PARTS = 32;

/**
 * Supplies the pages of a range `f` a probe named: memory, IndexedDB, then
 * the network. `gaps` ({file, start, end}) are what the core joined into
 * its ranges only to save requests: a run of missing pages does not start
 * or end inside one (the range it was to join is on its way already, or
 * came from IndexedDB).
 */
export async function supplyPages(rt, f, ask, gaps = []) {
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
  const fileGaps = gaps.filter((g) => g.file === f.file);
  trimGaps(wanted, fileGaps, rt.pageSize);
  if (wanted.length) {
    const job = { trace: ask.trace, prio: { rank: ask.prio.rank } };
    const entry = { prio: job.prio, promise: fetchPages(rt, f.file, file, wanted, job, fileGaps) };
    for (const p of wanted) rt.inflight.set(`${f.file}:${p}`, entry);
    const forget = () => wanted.forEach((p) => forgetInflight(rt, `${f.file}:${p}`, entry.promise));
    entry.promise.finally(forget).catch(() => {});
    waits.push(entry.promise);
  }
  await Promise.all(waits);
}

/** Forgets `key` in flight if `promise` still brings it (a cache clear may have replaced it). */
function forgetInflight(rt, key, promise) {
  if (rt.inflight.get(key)?.promise === promise) rt.inflight.delete(key);
}

/** Drops from `wanted` (ascending pages) those in a gap at either end of a run of consecutive pages. */
function trimGaps(wanted, gaps, pageSize) {
  if (!gaps.length) return;
  const inGap = (p) => gaps.some((g) => g.start <= p * pageSize && (p + 1) * pageSize <= g.end);
  const keep = [];
  let run = [];
  const close = () => {
    let a = 0;
    let b = run.length;
    while (a < b && inGap(run[a])) a++;
    while (b > a && inGap(run[b - 1])) b--;
    keep.push(...run.slice(a, b));
    run = [];
  };
  for (const p of wanted) {
    if (run.length && run[run.length - 1] !== p - 1) close();
    run.push(p);
  }
  close();
  wanted.splice(0, wanted.length, ...keep);
}

/**
 * Pages `wanted` from IndexedDB, then the rest over the network; gap pages
 * left at either end of a run IndexedDB did not fill are not fetched: a
 * revisit needs nothing the visit before did not (they were fetched, if
 * at all, only to save a request).
 */
async function fetchPages(rt, id, file, wanted, job, gaps) {
  const epoch = rt.epoch;
  // Pages the round's IndexedDB lookup lacked are not looked for again.
  const missed = new Set(wanted.filter((p) => rt.missedInDb.delete(`${id}:${p}`)));
  const got = await pagesFromDb(rt, id, file, wanted.filter((p) => !missed.has(p)));
  if (!got) return;
  const missing = wanted.filter((p) => !got.has(p));
  if (got.size) trimGaps(missing, gaps, rt.pageSize);
  // Coalesce consecutive pages into one Range request each.
  const runs = [];
  for (const p of missing) {
    const last = runs[runs.length - 1];
    if (last && last[1] === p - 1) last[1] = p;
    else runs.push([p, p]);
  }
  // Every run settles before this does: the pages of one still out stay
  // in flight for other probes when another fails.
  const settled = await Promise.allSettled(runs.map(([a, b]) => joinWaiting(rt, id, file, a, b, job) || pageRequest(rt, id, file, a, b, job)));
  const failed = settled.flatMap((s, i) => (s.status === 'rejected' ? [[runs[i], s.reason]] : []));
  if (!failed.length) return;
  // The network failing (offline, say): IndexedDB may hold them all the
  // same, stored by another tab, or before this one opened the file.
  const lost = failed.flatMap(([[a, b]]) => Array.from({ length: b - a + 1 }, (_, i) => a + i));
  // (As of this call's epoch: a clear meanwhile numbers files anew.)
  const stored = await pagesFromDb(rt, id, file, lost, true, epoch).catch(() => null);
  // Cleared meanwhile: the probe asks again under the new numbering.
  if (epoch !== rt.epoch) return;
  if (!stored || stored.size < lost.length) throw failed[0][1];
}

/**
 * Pages `wanted` of an open file that IndexedDB holds, handed to the core:
 * the map of those found (page -> bytes), or null when the cache was
 * cleared since `epoch` (when `id` was named).
 */
export async function pagesFromDb(rt, id, file, wanted, anywhere = false, epoch = rt.epoch) {
  const { size, validator, idb } = file;
  // A file opened from IndexedDB may have any page there; one opened from
  // the network, those this page wrote (then let go from memory), unless
  // looked for `anywhere` (their request failed).
  const look = idb || anywhere ? wanted : wanted.filter((p) => file.stored?.has(p));
  const got = look.length ? await rt.db.get(file.url, look, { size, validator }) : new Map();
  if (epoch !== rt.epoch) return null;
  // A version change seen meanwhile: what IndexedDB held is the version before.
  // (A validator that only grew, a kind learnt, is the same version.)
  if ((idb && !file.idb) || file.size !== size || !sameVersion(file.validator, validator)) got.clear();
  for (const [p, bytes] of got) {
    // Two probes' lookups of one page (neither in flight on the network):
    // supplied and counted once.
    if (rt.core.hasPage(id, p)) continue;
    rt.core.supply(id, p * rt.pageSize, size, validator, bytes);
    rt.counters.pagesFromIndexedDb++;
  }
  return got;
}

/** One Range request for pages a..=b of a file, open to joins while it waits at the gate. */
function pageRequest(rt, id, file, a, b, job) {
  // The base it goes to: a failover may move the file on meanwhile.
  const at = file.url;
  const span = { parts: [part(rt, file, a, b)], started: false };
  const waiting = rt.waiting.get(at) || new Set();
  rt.waiting.set(at, waiting);
  const run = { span, prio: new JoinedPrio(job.prio), gap: [] };
  waiting.add(run);
  const leave = () => {
    waiting.delete(run);
    if (!waiting.size && rt.waiting.get(at) === waiting) rt.waiting.delete(at);
  };
  const { start, end } = span.parts[0];
  const epoch = rt.epoch;
  run.promise = rt.http
    // A silent base is left at once where another may have the file (see
    // failOver): with several `urls` (no manifest), each is one of them.
    .request(at, start, end, at, { trace: job.trace, prio: run.prio, span, moveOn: rt.http.mirrors })
    .finally(leave)
    .then(
      // Gone from this base (a mirror resyncing, a key now refused): another may have it.
      (r) => (r === null ? failOver(rt, file, at, span.parts, { trace: job.trace, prio: run.prio }, fail(`${at} is no longer there (404, 410 or 403)`, 'missing-table')) : { r, url: at }),
      // At the request's own priority, which probes that joined it may have raised.
      (e) => failOver(rt, file, at, span.parts, { trace: job.trace, prio: run.prio }, e),
    )
    .then(({ r, url }) => {
      if (epoch !== rt.epoch) return;
      noteBase(rt, url);
      for (const p of r.parts) accept(rt, id, url, p.start, p);
    })
    .finally(() => run.gap.forEach((k) => forgetInflight(rt, k, run.promise)));
  return run.promise;
}

/**
 * A request for pages of an open file failed for good at its base, or the
 * base no longer has the file (`error` code missing-table): with several
 * base URLs, the file's other bases are asked for the same ranges in turn
 * (a failed base is asked after the others for a minute, as when opening),
 * and the first that answers is the file's from then on; its answers go
 * through the identity check as any (another mirror's ETag is a version
 * change: what was read at the old base is read again). `from`: the URL
 * the request went to. Resolves {r, url}; rethrows `error` when no other
 * base answers.
 */
async function failOver(rt, file, from, parts, job, error) {
  const gone = error && error.code === 'missing-table';
  if (!error || (error.code !== 'network' && !gone)) throw error;
  const name = from.slice(from.lastIndexOf('/') + 1);
  const others = candidates(rt, name).filter((b) => b + name !== from);
  if (!others.length) throw error;
  // (A base that lost one file is not down.)
  if (!gone) noteBase(rt, from, error);
  const turns = new Turns(others);
  // Left at its first silent request: asked again, last, with its retries.
  turns.failed(baseOf(from), error);
  for (let base = turns.next(); base !== undefined; base = turns.next()) {
    const url = base + name;
    let got;
    try {
      got = await Promise.all(parts.map((p) => rt.http.request(url, p.start, p.end, url, { trace: job.trace, prio: job.prio, moveOn: turns.moveOn })));
    } catch (e) {
      noteBase(rt, url, e);
      turns.failed(base, e);
      continue;
    }
    noteBase(rt, url);
    if (got.includes(null)) continue;
    // Later requests of this file go there (unless another failure moved it on).
    if (file.url === from) file.url = url;
    return { r: { parts: got.map((v, i) => ({ ...v, start: parts[i].start })) }, url };
  }
  throw error;
}

/**
 * The priority of a request that carries the ranges of several supplies:
 * the highest of theirs, so that a probe of a higher rank that comes to
 * need any of them (see Runtime.join) promotes the request, which its own
 * hold on the gate would otherwise keep waiting.
 */
class JoinedPrio {
  constructor(prio) {
    this.prios = [prio];
  }
  get rank() {
    return Math.max(...this.prios.map((p) => p.rank));
  }
  set rank(r) {
    this.prios[0].rank = Math.max(this.prios[0].rank, r);
  }
}

/** Bytes [start, end) of pages a..=b of a file. */
function part(rt, file, a, b) {
  return { start: a * rt.pageSize, end: Math.min((b + 1) * rt.pageSize, file.size) };
}

/**
 * Gap bytes a request waiting at the gate is widened across to carry a
 * range of its file named after it: the core's bridge, and over HTTP/1.1
 * what the link brings in less than a round trip (`Link.joinBytes`), since
 * the range's own request would wait for a connection too.
 */
function waitingGap(rt) {
  return rt.http.gate.wide ? rt.bridgeBytes : Math.max(rt.bridgeBytes, rt.http.link.joinBytes());
}

/**
 * Pages a..=b joined to a request of the same file still waiting at the
 * gate: as a range of its own when the server answers several in one
 * body, else when at most `waitingGap` lies between them and none of
 * those pages is held or on its way (no byte is fetched twice). A probe
 * that attempts again as each answer arrives names neighbouring ranges in
 * separate attempts, and over HTTP/1.1 a request can wait a round or more
 * for a connection.
 * Resolves once its pages are in; null when nothing can take them.
 */
function joinWaiting(rt, id, file, a, b, job) {
  const waiting = rt.waiting.get(file.url);
  if (!waiting || rt.http.bodies.has(file.url)) return null;
  const several = rt.http.several.allowed(file.url);
  const ps = rt.pageSize;
  const bridge = several ? 0 : waitingGap(rt);
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
    for (const p of span.parts) {
      const first = p.start / ps;
      const last = Math.ceil(p.end / ps); // one past
      let gap;
      if (a >= last && (a - last) * ps <= bridge && free(last, a)) gap = [last, a];
      else if (b < first && (first - b - 1) * ps <= bridge && free(b + 1, first)) gap = [b + 1, first];
      else continue;
      p.start = Math.min(p.start, a * ps);
      p.end = Math.max(p.end, Math.min((b + 1) * ps, file.size));
      run.prio.prios.push(job.prio);
      for (let q = gap[0]; q < gap[1]; q++) {
        const k = `${id}:${q}`;
        rt.inflight.set(k, { prio: run.prio, promise: run.promise });
        run.gap.push(k);
      }
      return run.promise;
    }
    if (several && span.parts.length < MAX_PARTS) {
      span.parts.push(part(rt, file, a, b));
      run.prio.prios.push(job.prio);
      return run.promise;
    }
  }
  return null;
}
