// Whole table files into the IndexedDB cache, for offline use.

import { fail } from './errors.js';
import { Turns, candidates, noteBase } from './file-open.js';
import { mergedVersion, sameVersion } from './version.js';

/**
 * Stores whole files (names, looked up at the runtime's locations) in
 * IndexedDB in 1 MiB requests, within its budget. Resolves {bytes, files,
 * missing}: the files saved, and those no base has.
 */
export async function prefetchFiles(rt, names, onProgress) {
  const chunk = 1048576;
  let bytes = 0;
  const fetched = [];
  const report = (file, total) => {
    if (typeof onProgress === 'function') {
      try {
        onProgress({ bytes, total, file });
      } catch (e) {
        // ignore
      }
    }
  };
  // A clearCache meanwhile drops what was stored: the prefetch stops there
  // rather than report files that are gone.
  const epoch = rt.epoch;
  const cleared = () => {
    rt.checkOpen();
    if (rt.epoch !== epoch) throw fail('the cache was cleared while prefetching', 'cleared');
  };
  // A connection the browser dropped (site data cleared, Safari after the
  // tab was in the background) is opened again here, as a probe's read does.
  await rt.db.guard(async () => null, null);
  cleared();
  if (rt.db.state !== 'ok') {
    throw fail('IndexedDB is unavailable here (or its budget is 0): nothing can be kept for offline use', 'budget');
  }
  // Files no base that answered has (404): named in the answer, not saved.
  const missing = [];
  for (const name of names) {
    let done = false;
    // A base's failure, and whether another said the file is not there.
    let failed = null;
    let absent = false;
    const turns = new Turns(candidates(rt, name));
    for (let base = turns.next(); base !== undefined; base = turns.next()) {
      const url = base + name;
      let head;
      try {
        head = await rt.http.request(url, 0, Math.min(chunk, 1 << 30), url, { moveOn: turns.moveOn });
      } catch (e) {
        // Another base may answer, as a probe's failed request goes to the next.
        if (!e || e.code !== 'network') throw e;
        failed = e;
        noteBase(rt, url, e);
        turns.failed(base, e);
        continue;
      }
      noteBase(rt, url);
      if (head === null) {
        absent = true;
        continue;
      }
      // A probe took in another version meanwhile: the file is being replaced.
      const replaced = () => rt.http.versionOf(url) > head.asOf;
      if (replaced()) throw fail(`${name} changed while prefetching`, 'network');
      // Saved before as this version: its bytes are counted once, and a
      // file held whole is not downloaded again.
      const held = await rt.db.held(url, head);
      // Other saves stay beside it; pages a probe kept are evicted first.
      if (rt.db.state === 'ok' && held.saved + head.size > rt.db.budget) {
        throw fail(`${name} (${head.size} bytes) does not fit the IndexedDB budget`, 'budget');
      }
      const store = async (start, r) => {
        cleared();
        const pages = new Map();
        for (let off = 0; off < r.bytes.length; off += rt.pageSize) pages.set((start + off) / rt.pageSize, r.bytes.subarray(off, off + rt.pageSize));
        // Whether the browser's quota refused this save's last write.
        let outcome;
        const once = async () => {
          outcome = { quota: false };
          // Among the writes a clearCache waits for before it empties IndexedDB.
          const write = rt.db.store(url, head, pages, outcome);
          rt.writes.add(write);
          try {
            return await write;
          } finally {
            rt.writes.delete(write);
          }
        };
        let ok = await once();
        // Over the browser's quota, the pages probes kept made room: once more.
        if (!ok && outcome.quota) {
          cleared();
          ok = await once();
        }
        cleared();
        if (!ok) {
          throw fail(
            outcome.quota
              ? `${name} could not be stored: the browser's storage quota for this site is full (what was saved before is kept)`
              : `${name} could not be stored: IndexedDB is full or no longer available`,
            'budget',
          );
        }
        bytes += r.bytes.length;
        report(name, head.size);
      };
      if (!held.whole) rt.savesUnderWay.add(url);
      try {
        await store(0, head);
        if (held.whole && head.size > chunk) {
          // Held whole already: the rest counts as saved.
          bytes += head.size - chunk;
          report(name, head.size);
        }
        for (let start = held.whole ? head.size : chunk; start < head.size; start += chunk) {
          const r = await rt.http.request(url, start, Math.min(start + chunk, head.size), url);
          if (r === null || r.size !== head.size || !sameVersion(head.validator, r.validator)) throw fail(`${name} changed while prefetching`, 'network');
          await store(start, r);
        }
        if (replaced()) throw fail(`${name} changed while prefetching`, 'network');
        // Another tab's clearCache meanwhile (this one's epoch says nothing
        // of it) left the chunks written since then alone: not a save.
        if (!(await rt.db.held(url, head)).whole) {
          throw fail(`${name} was not stored whole: the cache was cleared meanwhile (in another tab?), IndexedDB stopped taking writes, or the file changed`, 'cleared');
        }
      } catch (e) {
        // A save that fails part way is not kept as saved (see unsave),
        // unless the file was held whole already.
        if (!held.whole) await rt.db.unsave(url).catch(() => {});
        throw e;
      } finally {
        rt.savesUnderWay.delete(url);
      }
      cleared();
      // A file this session opened reads IndexedDB from now on: offline,
      // its pages not in memory are there. Opened as another version (from
      // IndexedDB before the server changed it), it is this one now: the
      // core drops the pages it held of the old one.
      for (const [id, f] of rt.files) {
        if (f.url !== url) continue;
        const changed = rt.core.identify(id, head.size, head.validator);
        if (changed) {
          rt.counters.identityChanges++;
          rt.http.versionChanged(url, { size: f.size, validator: f.validator });
        }
        // What the core keeps: every kind of validator either carried.
        Object.assign(f, { size: head.size, validator: changed ? head.validator : mergedVersion(f.validator, head.validator), idb: true, stored: null });
        // Pages IndexedDB lacked before are there now (offline, they are the only copy).
        for (const k of rt.missedInDb) if (k.startsWith(`${id}:`)) rt.missedInDb.delete(k);
      }
      fetched.push(name);
      done = true;
      break;
    }
    // Down everywhere it was asked: whether it is there is not known.
    if (!done && failed && !absent) throw failed;
    if (!done) {
      missing.push(name);
      report(name, 0);
    }
  }
  return { bytes, files: fetched, missing };
}
