// Opening a table file: its identity and head, from IndexedDB where this
// origin stored them, else from the first base URL that has it.

import { accept, stale } from './accept.js';
import { supplyPages } from './page-requests.js';

/** The base URL a manifest entry names (relative to the first URL). */
export function manifestBase(rt, entry) {
  const abs = new URL(entry, rt.urls[0] ?? (typeof location !== 'undefined' ? location.href : undefined)).href;
  return abs.endsWith('/') ? abs : abs + '/';
}

/**
 * How long a base whose request failed is asked after the others; one
 * that left a request unanswered, longer (or until it answers one: each
 * silent request costs 20 s, see RangeClient.request).
 */
const FAILED_FOR_MS = 60_000;
const SILENT_FOR_MS = 600_000;

/**
 * Base URLs where table `name` may be: the manifest's, else every URL,
 * those that failed lately (a mirror down) after the others.
 */
export function candidates(rt, name) {
  if (rt.manifest && rt.manifest[name]) return [manifestBase(rt, rt.manifest[name])];
  if (rt.manifest) return [];
  const now = Date.now();
  const down = (base) => {
    const failed = rt.failedBases.get(base);
    return !!failed && now - failed.at < (failed.silent ? SILENT_FOR_MS : FAILED_FOR_MS);
  };
  return [...rt.urls.filter((b) => !down(b)), ...rt.urls.filter(down)];
}

/**
 * The bases a file is asked of, in turn. A request a base leaves
 * unanswered moves on to the next at once where one is left (`moveOn`),
 * and that base is asked again last, with its retries: the others may
 * not have the file (`urls` need not be mirrors of each other).
 */
export class Turns {
  constructor(bases) {
    this.queue = [...bases];
    this.again = new Set();
    this.current = undefined;
  }

  /** The next base to ask, or undefined. */
  next() {
    this.current = this.queue.shift();
    return this.current;
  }

  /**
   * Whether a silent request may move on: a base is left after the one
   * being asked, and this is not that one's second turn (which waits,
   * retries and all, even where another silent base comes after it).
   */
  get moveOn() {
    return this.queue.length > 0 && !this.again.has(this.current);
  }

  /** `base` failed with `error`: a silent one is asked once more, last. */
  failed(base, error) {
    if (error && error.silent && !this.again.has(base)) {
      this.again.add(base);
      this.queue.push(base);
    }
  }
}

/** The base URL of a table file's URL (all but its name). */
export function baseOf(url) {
  return url.slice(0, url.lastIndexOf('/') + 1);
}

/**
 * Notes how the base of `url` fared: `error` (a request that failed for
 * good there) puts it after the others (see candidates); an answer puts it
 * back in its place.
 */
export function noteBase(rt, url, error = null) {
  const base = baseOf(url);
  if (error) rt.failedBases.set(base, { at: Date.now(), silent: !!error.silent });
  else rt.failedBases.delete(base);
}

/**
 * Opens a file from IndexedDB, at the first base whose version it holds
 * with its first page: true when it did. Nothing goes to the network.
 */
export async function openStored(rt, f) {
  const epoch = rt.epoch;
  for (const base of candidates(rt, f.name)) {
    const url = base + f.name;
    if (!rt.db.known.has(url)) continue;
    const known = await rt.db.identity(url);
    if (epoch !== rt.epoch) return false;
    if (known && (await fromStore(rt, f, url, known, epoch))) return true;
    if (epoch !== rt.epoch) return false;
  }
  return false;
}

/**
 * The head of `url` (version `known`) from IndexedDB into the core: true
 * when its first page was there. A head stored shorter (sized for a slow
 * link) opens the file all the same: the core asks for what it lacks, if
 * it needs it at all, and offline a position read before still answers.
 */
async function fromStore(rt, f, url, known, epoch) {
  const pages = [];
  for (let p = 0; p * rt.pageSize < Math.min(f.end, known.size); p++) pages.push(p);
  const got = await rt.db.get(url, pages, known);
  if (epoch !== rt.epoch || !got.has(0)) return false;
  // A head the page asked for early is not needed: its bytes stop.
  const early = rt.http.early.get(url);
  if (early) {
    rt.http.early.delete(url);
    early.controller.abort();
  }
  rt.files.set(f.file, { url, size: known.size, validator: known.validator, idb: true });
  rt.core.identify(f.file, known.size, known.validator);
  for (const [p, bytes] of got) rt.core.supply(f.file, p * rt.pageSize, known.size, known.validator, bytes);
  rt.counters.pagesFromIndexedDb += got.size;
  return true;
}

/** `fromStore` for any record of `url` in the database, once open: true when it opened the file. */
async function storedAnyway(rt, f, url, epoch) {
  const known = await rt.db.identity(url, true);
  return epoch === rt.epoch && !!known && (await fromStore(rt, f, url, known, epoch));
}

/** Opens a file: its identity and head, from IndexedDB when known there, else from the network. */
export async function openFile(rt, f, job) {
  const epoch = rt.epoch;
  // A base that fails (down, refusing, erring) does not hide the file at the
  // next; its error is the answer only when no base has the file.
  let failure = null;
  const turns = new Turns(candidates(rt, f.name));
  for (let base = turns.next(); base !== undefined; base = turns.next()) {
    const url = base + f.name;
    // Not looked for while the database opens, if no page was ever written (see PageDb.mayHold).
    const unsure = !rt.db.mayHold();
    const known = await rt.db.identity(url);
    if (epoch !== rt.epoch) return;
    if (known && (await fromStore(rt, f, url, known, epoch))) return;
    if (epoch !== rt.epoch) return;
    let r;
    try {
      r = await rt.http.open(url, f.start, f.end, f.name, { ...job, moveOn: turns.moveOn });
    } catch (err) {
      if (epoch !== rt.epoch) return;
      // (The base's failure counts either way: it goes last from now on.)
      noteBase(rt, url, err);
      turns.failed(base, err);
      failure = failure || err;
      // Offline, say: the database may hold it after all (stored by
      // another tab since this one opened it, or while it opened).
      if (await storedAnyway(rt, f, url, epoch)) return;
      if (epoch !== rt.epoch) return;
      continue;
    }
    if (epoch !== rt.epoch) return;
    noteBase(rt, url);
    if (r === null) continue; // not at this base
    // The version before a change seen meanwhile: the next attempt opens it again.
    if (stale(rt, url, r)) return;
    const prior = rt.files.get(f.file);
    // Pages of a file IndexedDB had no record of are not looked for there
    // (null: not known yet, see Runtime.fromIndexedDb).
    rt.files.set(f.file, { url, size: r.size, validator: r.validator, idb: known ? true : unsure ? null : false });
    accept(rt, f.file, url, f.start, r, prior && { size: prior.size, validator: prior.validator });
    // A short early response opens the file at once: the header may lie
    // within it (the board's early heads are sized for a slow link), and
    // the rest of the head follows as pages, in flight for any probe.
    const have = f.start + r.bytes.length;
    const want = Math.min(f.end, r.size);
    if (have < want) supplyPages(rt, { file: f.file, name: f.name, start: have, end: want }, job).catch(() => {});
    return;
  }
  if (failure) throw failure;
  rt.absent.set(f.file, { f, at: Date.now() });
  rt.core.absent(f.file);
}
