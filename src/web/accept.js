// Every answer's way in: its file's identity checked, its bytes supplied to
// the core, its whole pages queued for IndexedDB.

import { fail } from './errors.js';
import { sameIdentity } from './page-db.js';
import { mergedVersion, sameVersion } from './version.js';

// Version changes of one URL within VERSION_WINDOW_MS past which its
// answers are refused: a file updated while the page is open changes
// once, while servers that answer with two versions by turns (mirrors or
// CDN nodes whose copies differ in ETag) change it on every request, each
// change dropping what was read, for hundreds of requests and no answer.
const MAX_VERSION_CHANGES = 3;
const VERSION_WINDOW_MS = 60000;

/**
 * Whether answer `r` of `url` is of a version a change replaced and was
 * asked for before that change: in flight across a replacement of
 * the file, not a server that changed back. Counted
 * (`rt.counters.staleAnswers`); the caller drops it, and its pages are
 * asked for again.
 */
export function stale(rt, url, r) {
  const v = rt.http.versions.get(url);
  const asOf = r.asOf ?? 0;
  // (Of that version by every kind of validator both carry: one that
  // shares none with it is taken for it, and asked for again.)
  if (!v || !v.replaced.some((o) => asOf < o.at && o.size === r.size && sameVersion(o.validator, r.validator))) return false;
  rt.counters.staleAnswers++;
  // A stream of that version (a server that ignores Range) serves no more.
  const body = rt.http.bodies.get(url);
  if (body && body.size === r.size && sameVersion(body.validator, r.validator)) body.evict();
  return true;
}

/**
 * Checks identity, supplies the bytes, and queues their storing in
 * IndexedDB (the probe goes on meanwhile; it awaits `rt.stored()` before
 * it answers). An answer of the version before a change is dropped (see
 * `stale`). `prior` is the file's identity before this answer, where the
 * caller has just recorded the answer's own.
 */
export function accept(rt, id, url, start, r, prior = null) {
  if (stale(rt, url, r)) return;
  const known = rt.files.get(id);
  // An answer from a base the file has moved from (see failOver), of
  // another version than the new base's: in flight across the move, not
  // a change (taken for one, it dropped the file's pages, and answers of
  // the two bases by turns failed the probe as a file that keeps changing).
  if (known && known.url !== url && !sameIdentity(known, r.size, r.validator)) {
    rt.counters.staleAnswers++;
    return;
  }
  const before = prior || (known && { size: known.size, validator: known.validator });
  const changed = rt.core.identify(id, r.size, r.validator);
  // What the core keeps: every kind of validator either carried (see version.js).
  if (known) Object.assign(known, { size: r.size, validator: changed ? r.validator : mergedVersion(known.validator, r.validator) });
  if (changed) {
    rt.counters.identityChanges++;
    rt.http.versionChanged(url, before);
    // IndexedDB holds the version before until this one's writes land:
    // its pages must not be read as this version's.
    if (known) {
      known.idb = false;
      known.stored = null;
    }
    keepsChanging(rt, url, r);
  }
  rt.core.setStreamed(id, rt.http.bodies.has(url));
  // Into the core before any await: a probe attempting meanwhile must not
  // see the file opened (identity known) yet without its bytes, and fetch
  // them a second time.
  rt.core.supply(id, start, r.size, r.validator, r.bytes);
  const pages = new Map();
  for (let off = 0; off < r.bytes.length; off += rt.pageSize) {
    const piece = r.bytes.subarray(off, off + rt.pageSize);
    // Only whole pages, or the file's last one.
    if (piece.length === rt.pageSize || start + off + piece.length === r.size) pages.set((start + off) / rt.pageSize, piece);
  }
  rt.counters.pagesFromNetwork += pages.size;
  // PageDb degrades to memory-only on its own.
  const write = rt.db.store(url, { size: r.size, validator: r.validator }, pages).catch(() => false);
  rt.writes.add(write);
  const epoch = rt.epoch;
  write.then((landed) => {
    rt.writes.delete(write);
    // Pages written are read back from there once memory lets them go
    // (a file opened from the network is otherwise never looked up).
    const file = rt.files.get(id);
    if (landed && epoch === rt.epoch && file && sameIdentity(file, r.size, r.validator)) {
      file.stored ??= new Set();
      for (const p of pages.keys()) file.stored.add(p);
    }
    // Looked for there before and missed: there now (however they came, a
    // request of this probe's or one it joined).
    if (landed && epoch === rt.epoch) for (const p of pages.keys()) rt.missedInDb.delete(`${id}:${p}`);
  });
}

/** Records a version change of `url`; throws once it keeps changing (see MAX_VERSION_CHANGES). */
function keepsChanging(rt, url, r) {
  const now = Date.now();
  const seen = (rt.versionChanges.get(url) || []).filter((c) => now - c.at < VERSION_WINDOW_MS);
  seen.push({ at: now, version: `${r.validator || 'no validator'} (${r.size} bytes)` });
  rt.versionChanges.set(url, seen);
  if (seen.length >= MAX_VERSION_CHANGES) {
    throw fail(
      `${url}: the file changed version ${seen.length} times within ${VERSION_WINDOW_MS / 1000} s (to ${seen.slice(-MAX_VERSION_CHANGES).map((c) => c.version).join(', then ')}): ` +
        'the server, or the servers behind this URL, answer with different versions of it by turns; serve one copy, with the same ETag from every server',
      'network',
    );
  }
}
