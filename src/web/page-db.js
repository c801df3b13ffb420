// The IndexedDB page cache: pages keyed by URL and page number, the identity
// of the file version they belong to, an LRU byte budget, and a fallback to
// memory-only whenever IndexedDB is missing, blocked or failing.

import { mergedVersion, sameVersion } from './version.js';

// www/src/early.js reads the keys of the `files` store (the URLs held) to
// leave out early heads a revisit already has.
const DB_NAME = 'syzygy-web';
const DB_VERSION = 1;
// An open waits behind another tab's pending upgrade or deletion, which a
// third tab's connection can hold for good: past this the page goes on
// memory-only rather than keep every probe waiting.
const OPEN_TIMEOUT_MS = 3000;
// Times a connection the browser closed (site data cleared, Safari's
// "connection to Indexed Database server lost" after backgrounding) or a
// failed operation is opened again; after that, memory-only for good.
const REOPENS = 3;
// Writes wait for an idle moment, at most WRITE_IDLE_MS: copying a
// round's pages into a transaction takes the main thread a few ms, which
// between the arrivals of a round would delay the attempts they start.
const WRITE_IDLE_MS = 200;
function later(f) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(f, { timeout: WRITE_IDLE_MS });
  else setTimeout(f, 0);
}

// Pages a record holds at most, in blocks aligned on this many pages: a
// lookup reads a whole record for any page of it. A revisit's first probe
// after "Save for offline" (answers of 1 MiB, 45.7 MiB stored) took 78-85
// ms (worst 108-134) with records of a MiB, 54-62 ms (worst 67-98) with 16
// pages, 65-78 ms (worst 98-119) with a record a page.
const RUN_PAGES = 16;

// The byte total of all pages, kept in the `files` store under a key no
// URL can be and updated by every transaction that adds or drops pages:
// opening then reads one record instead of walking every page's LRU
// record (48 MB saved for offline made each revisit's first probe wait
// 100-120 ms for that walk).
const TOTAL = '\u0000bytes';

// Writes count as done once the operating system has them, not after a
// flush to disk: this is a cache, and a page lost to a power cut is
// fetched again. The full analysis answers only once its pages are
// written, so a flush would be waited for on every cold analysis.
const RELAXED = { durability: 'relaxed' };

// Set in localStorage before this origin's writes of pages, and by a page
// that finds pages at opening. Without it the database holds none (a first
// visit, or site data cleared, which clears both), so lookups answer
// nothing at once instead of waiting for the database to open: 30-45 ms on
// a new Chromium profile (its first IndexedDB call 17-31 ms, creating the
// database 7-27 ms), all before a cold page's first request. Where it is
// wrong (pages written before the key existed, or by a worker, which has no
// localStorage), files opened meanwhile are looked for there once it opens
// (see heldAtOpen), and one the network cannot give is looked for before
// failing (file-open.js). Where localStorage is missing or refuses (a
// worker, a sandboxed frame), the database is waited for, as before.
const WRITTEN = 'syzygy-web:pages-written';

function everWritten() {
  try {
    return globalThis.localStorage ? localStorage.getItem(WRITTEN) !== null : true;
  } catch {
    return true;
  }
}

function noteWritten() {
  try {
    globalThis.localStorage?.setItem(WRITTEN, '1');
  } catch {
    /* no storage: the next visit waits for the database */
  }
}

function promisify(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * Whether a recorded identity {size, validator} is the version (size,
 * validator): the same size, and every kind of validator both carry
 * agrees (see version.js).
 */
export function sameIdentity(old, size, validator) {
  return old.size === size && sameVersion(old.validator, validator);
}

/**
 * A record's key, `url|pageSize|first+count` (`url|pageSize|page` from
 * before runs: a run of one), as {url, pageSize, first, count}; null for
 * any other key.
 */
function parseKey(key) {
  const m = typeof key === 'string' && /^(.*)\|(\d+)\|(\d+)(?:\+(\d+))?$/.exec(key);
  if (!m) return null;
  const first = Number(m[3]);
  const count = m[4] === undefined ? 1 : Number(m[4]);
  return Number.isSafeInteger(first) && Number.isSafeInteger(count) && count > 0 ? { url: m[1], pageSize: Number(m[2]), first, count } : null;
}

/** The URLs saved for offline, from the `files` store's keys and records; `but` left out. */
function savedAmong(urls, records, but = null) {
  return urls.filter((u, i) => u !== but && records[i] && records[i].saved);
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(tx.error || new Error('transaction aborted'));
  });
}

/**
 * Pages in IndexedDB, stored as runs: one record holds consecutive pages
 * of one answer within an aligned block of RUN_PAGES, under
 * `url|pageSize|first+count` (a record of one page of before runs,
 * `url|pageSize|page`, reads as a run of one). A record a page made a
 * cold analysis write 300 pages as 600 puts, 33-98 ms of the main thread
 * on a 2-core machine (16 records of 60 KiB: 5-16 ms), which answers
 * arriving meanwhile waited for.
 * `pages` holds bytes, `lru` small {at, size} records under the same keys
 * (so recency updates never rewrite bytes), `files` the identity {size,
 * validator} each URL's pages belong to.
 */
export class PageDb {
  constructor(budget, pageSize) {
    this.budget = budget;
    this.pageSize = pageSize;
    this.bytes = 0;
    // URLs with a recorded identity, read once at opening and kept up to
    // date by this page: a file it has never stored is opened without an
    // IndexedDB transaction, which would wait behind the writes of pages
    // already fetched. Another tab's records of later are missed, costing
    // a fetch, never a mixed file (`store` checks in its transaction).
    this.known = new Set();
    // url -> {pages, found}: lookups made in this turn (see `get`).
    this.lookups = new Map();
    // Writes waiting for the next task, and the promise of their
    // transaction (see `store`); null while none waits.
    this.queue = null;
    this.flushed = null;
    // The last clear (see `clear`): writes queued after it wait for it.
    this.cleared = Promise.resolve();
    // Whether a refused write's eviction is under way (see `guard`).
    this.evicting = false;
    // Whether the connection was last dropped over the quota (a save told so).
    this.lostToQuota = false;
    this.state = 'opening';
    // Whether a connection that was open has been lost (see guard), and
    // reopenings left (see REOPENS; 0 once another tab asked for an upgrade).
    this.lost = false;
    this.reopens = REOPENS;
    // URLs the database held when it opened, and whether its first opening
    // is still under way with no key set when it began (see WRITTEN).
    this.heldAtOpen = new Set();
    this.unwritten = !everWritten();
    this.ready = this.open().finally(() => (this.unwritten = false));
  }

  async open() {
    // Dropped from here on, it is for another reason until guard says.
    this.lostToQuota = false;
    if (!this.budget || typeof indexedDB === 'undefined') {
      this.state = 'memory-only';
      return;
    }
    try {
      await this.setUp(
        await new Promise((resolve, reject) => {
          const req = indexedDB.open(DB_NAME, DB_VERSION);
          let late = false;
          const timer = setTimeout(() => {
            late = true;
            reject(new Error('IndexedDB did not open'));
          }, OPEN_TIMEOUT_MS);
          req.onupgradeneeded = () => {
            const db = req.result;
            db.createObjectStore('pages');
            db.createObjectStore('lru').createIndex('at', 'at');
            db.createObjectStore('files');
          };
          req.onsuccess = () => {
            clearTimeout(timer);
            if (late) this.openedLate(req.result);
            else resolve(req.result);
          };
          req.onerror = () => {
            clearTimeout(timer);
            reject(req.error);
          };
          req.onblocked = () => {
            clearTimeout(timer);
            // A success after the block is a late one (see openedLate), not a connection left open.
            late = true;
            reject(new Error('IndexedDB blocked'));
          };
        }),
      );
    } catch (e) {
      this.dropConnection();
      this.state = 'memory-only';
    }
  }

  /**
   * A connection that came after the page went on without it (a phone's
   * cold start, a slow disk): taken from then on, else the tables saved for
   * offline use stayed out of reach for the whole visit. Not where the
   * page has moved on (closed, or opening again).
   */
  openedLate(db) {
    if (this.state !== 'memory-only' || this.db || this.reopens === 0) {
      db.close();
      return;
    }
    this.state = 'opening';
    this.ready = this.setUp(db).catch(() => {
      this.dropConnection();
      this.state = 'memory-only';
    });
  }

  /**
   * Whether a lookup may find anything: not during the first opening of a
   * database no tab of this origin had written pages to when it began (see
   * WRITTEN; this page's own writes wait for the opening).
   */
  mayHold() {
    return !this.unwritten;
  }

  /** Takes `db` as the connection: its handlers, and what it holds. */
  async setUp(db) {
    this.db = db;
    // Another tab upgrading the schema: step aside rather than block it
    // (closing this connection, which an error may have dropped already).
    db.onversionchange = () => {
      db.close();
      if (this.db === db) this.db = null;
      this.state = 'memory-only';
      this.reopens = 0;
      this.lostToQuota = false;
    };
    // Closed by the browser, not by us: opened again at the next use.
    db.onclose = () => {
      if (this.db !== db) return;
      this.db = null;
      this.state = 'memory-only';
      this.lost = true;
      this.lostToQuota = false;
    };
    const tx = db.transaction('files', 'readonly');
    const [total, keys] = await Promise.all([promisify(tx.objectStore('files').get(TOTAL)), promisify(tx.objectStore('files').getAllKeys())]);
    this.known = new Set(keys.filter((k) => k !== TOTAL));
    this.heldAtOpen = new Set(this.known);
    if (this.known.size) noteWritten();
    // A database written before the total was kept: counted once.
    this.bytes = typeof total === 'number' ? total : this.known.size ? await this.recount() : 0;
    this.state = 'ok';
  }

  /** Closes the connection (so that it blocks no other tab's upgrade) and forgets it. */
  dropConnection() {
    const db = this.db;
    this.db = null;
    try {
      db?.close();
    } catch (e) {
      // closed already
    }
  }

  /** The key of a run of `count` pages from `first`. */
  key(url, first, count) {
    return `${url}|${this.pageSize}|${first}+${count}`;
  }

  /**
   * The runs of `url` held in `tx`, {key, first, count, size}, from its
   * `lru` keys; with `sizes`, their values too (read at once, both in key
   * order), else every size is 0.
   */
  async runsIn(tx, url, sizes = false) {
    const lru = tx.objectStore('lru');
    const range = IDBKeyRange.bound(`${url}|`, `${url}|\uffff`);
    const [keys, records] = await Promise.all([promisify(lru.getAllKeys(range)), sizes ? promisify(lru.getAll(range)) : []]);
    const runs = [];
    keys.forEach((key, i) => {
      const k = parseKey(key);
      const size = records[i]?.size;
      if (k && k.url === url && k.pageSize === this.pageSize) runs.push({ key, first: k.first, count: k.count, size: size > 0 ? size : 0 });
    });
    return runs;
  }

  /** The bytes `tx` holds of the URLs. */
  async bytesOf(tx, urls) {
    const runs = await Promise.all(urls.map((u) => this.runsIn(tx, u, true)));
    return runs.flat().reduce((n, r) => n + r.size, 0);
  }

  /** The URL whose first page the record under `key` holds, or null. */
  headOf(key) {
    const k = parseKey(key);
    return k && k.first === 0 && k.pageSize === this.pageSize ? k.url : null;
  }

  /** Counts every page's bytes and records the total (see TOTAL). */
  async recount() {
    const tx = this.db.transaction(['lru', 'files'], 'readwrite', RELAXED);
    const bytes = await this.total(tx);
    tx.objectStore('files').put(bytes, TOTAL);
    await done(tx);
    return bytes;
  }

  /**
   * Adds `delta` to the recorded total inside `tx` (which holds `files`),
   * as read there: another tab's writes in between are counted too.
   */
  async addToTotal(tx, delta) {
    const files = tx.objectStore('files');
    const total = await promisify(files.get(TOTAL));
    const bytes = Math.max(0, (typeof total === 'number' ? total : 0) + delta);
    files.put(bytes, TOTAL);
    return bytes;
  }

  /** Bytes of all pages, counted in `tx` (or a new transaction). */
  async total(tx = this.db.transaction('lru', 'readonly')) {
    let sum = 0;
    await new Promise((resolve, reject) => {
      const req = tx.objectStore('lru').openCursor();
      req.onsuccess = () => {
        const c = req.result;
        if (!c) return resolve();
        sum += c.value.size;
        c.continue();
      };
      req.onerror = () => reject(req.error);
    });
    return sum;
  }

  /**
   * Runs an IndexedDB operation; a failure degrades to memory-only until
   * the connection is opened again (at most REOPENS times a page).
   */
  async guard(fn, fallback, onQuota = null) {
    if (this.lost && this.reopens > 0 && this.state !== 'opening') {
      this.lost = false;
      this.reopens--;
      this.state = 'opening';
      this.ready = this.open();
    }
    await this.ready;
    const db = this.db;
    if (!db) {
      if (onQuota && this.lostToQuota) onQuota();
      return fallback;
    }
    try {
      return await fn(db);
    } catch (e) {
      const quota = e && e.name === 'QuotaExceededError';
      // A save for offline is told, to try once more; its pages are kept.
      const keepOnQuota = onQuota !== null;
      if (quota && keepOnQuota) onQuota();
      if (quota && !this.evicting) {
        // Room made once, saved files kept: for a save, from every page
        // probes kept; else half the cache. Refused again (the eviction's
        // own write, or a quota that eviction cannot meet), the store goes
        // memory-only rather than evict on and on while its callers wait.
        this.evicting = true;
        try {
          await this.evict(keepOnQuota ? 0 : this.bytes / 2, Infinity);
        } finally {
          this.evicting = false;
        }
      } else if (quota && keepOnQuota) {
        // Another refused write is making room already.
      } else if (this.db === db) {
        // (A failure on a connection lost and already replaced is not the new one's.)
        this.state = 'memory-only';
        this.dropConnection();
        this.lost = true;
        this.lostToQuota = quota;
      }
      return fallback;
    }
  }

  /**
   * A URL's recorded identity, or null. Only URLs this page knows of are
   * looked up, unless `anyTab`: a generated table another tab stored since
   * this one opened is worth a transaction, not a generation, and a file the
   * network cannot give is worth one before failing. Those wait for the
   * database's opening; the others not, if it holds nothing (see mayHold).
   */
  identity(url, anyTab = false) {
    if (!anyTab && !this.mayHold()) return Promise.resolve(null);
    return this.guard(async (db) => {
      if (!this.known.has(url) && !anyTab) return null;
      const tx = db.transaction('files', 'readonly');
      const found = (await promisify(tx.objectStore('files').get(url))) || null;
      if (found) this.known.add(url);
      return found;
    }, null);
  }

  /**
   * The files saved for offline use (every tab's: IndexedDB is shared),
   * as {urls, bytes}: what a clear of the cache would take with it.
   */
  saved() {
    return this.guard(
      async (db) => {
        const tx = db.transaction(['files', 'lru'], 'readonly');
        const files = tx.objectStore('files');
        const [urls, records] = await Promise.all([promisify(files.getAllKeys()), promisify(files.getAll())]);
        const list = savedAmong(urls, records);
        return { urls: list, bytes: await this.bytesOf(tx, list) };
      },
      { urls: [], bytes: 0 },
    );
  }

  /**
   * What IndexedDB holds of `url` as the version `identity` ({size,
   * validator}): {bytes, whole (every page of the file is there), saved
   * (the bytes of the other files saved for offline: what a save must fit
   * beside, the rest being evicted first)}; bytes 0 for another version.
   */
  held(url, identity) {
    const none = { bytes: 0, whole: false, saved: 0 };
    return this.guard(async (db) => {
      const tx = db.transaction(['files', 'lru'], 'readonly');
      const files = tx.objectStore('files');
      const [urls, records] = await Promise.all([promisify(files.getAllKeys()), promisify(files.getAll())]);
      const saved = await this.bytesOf(tx, savedAmong(urls, records, url));
      const old = records[urls.indexOf(url)];
      if (!old || !sameIdentity(old, identity.size, identity.validator)) return { ...none, saved };
      const runs = await this.runsIn(tx, url, true);
      // Runs may overlap: the pages covered, not the runs' sum, tell whether it is whole.
      const covered = new Set();
      const pages = Math.ceil(identity.size / this.pageSize);
      for (const r of runs) for (let p = r.first; p < Math.min(r.first + r.count, pages); p++) covered.add(p);
      return { bytes: runs.reduce((n, r) => n + r.size, 0), whole: pages > 0 && covered.size === pages, saved };
    }, none);
  }

  /**
   * Records a URL's identity ({size, validator}; on a change its old pages
   * go first) and stores pages of it (Map page -> Uint8Array), so that the
   * database never mixes two versions of a file. What is stored before
   * the page is next idle goes in one transaction: answers arriving
   * together then cost one write, which runs while the next round is out
   * rather than between the attempts their arrival started (a save's
   * pages go alone). Resolves whether the write landed (see `write`).
   * `saving`: pages saved for offline, whose write the browser's quota
   * refuses without eviction; an object ({quota: false}) whose `quota`
   * turns true if that is why this write failed. `alone`: a large record
   * (a generated table, tens of MB) also goes in a transaction of its own.
   */
  store(url, identity, pages, saving = null, alone = false) {
    // A save's chunk is large and may meet the quota: in a transaction of
    // its own, so that its refusal is not another save's or a probe's.
    const cleared = this.cleared;
    if (saving || alone) return cleared.then(() => this.write([{ url, identity, pages, saving }]));
    if (!this.queue) {
      const queue = (this.queue = []);
      this.flushed = new Promise(later)
        .then(() => cleared)
        .then(() => {
          if (this.queue === queue) this.queue = null;
          return this.write(queue);
        });
    }
    this.queue.push({ url, identity, pages, saving });
    return this.flushed;
  }

  /**
   * The writes `store` queued, in order, in one transaction; then eviction
   * to the budget. Resolves whether they were written (false: IndexedDB is
   * unavailable, or was full and the write lost).
   */
  write(queue) {
    // A quota refusal is told to the saves among these writes.
    const saves = queue.filter((q) => q.saving);
    const refused = saves.length ? () => saves.forEach((q) => (q.saving.quota = true)) : null;
    // (Asked each time: site data cleared meanwhile takes the key too.)
    if (!everWritten()) noteWritten();
    return this.guard(async (db) => {
      const tx = db.transaction(['pages', 'lru', 'files'], 'readwrite', RELAXED);
      const files = tx.objectStore('files');
      const store = tx.objectStore('pages');
      const lru = tx.objectStore('lru');
      const now = Date.now();
      let delta = 0;
      // Every recorded identity and every URL's runs asked for at once:
      // one wait on the database, not one a file; then kept as this
      // transaction writes them.
      const urls = [...new Set(queue.map((q) => q.url))];
      const [records, runLists] = await Promise.all([Promise.all(urls.map((url) => promisify(files.get(url)))), Promise.all(urls.map((url) => this.runsIn(tx, url, true)))]);
      const recorded = new Map(urls.map((url, i) => [url, records[i] || null]));
      const held = new Map(urls.map((url, i) => [url, runLists[i]]));
      for (const { url, identity, pages, saving } of queue) {
        const { size, validator } = identity;
        const old = recorded.get(url);
        const same = old && sameIdentity(old, size, validator);
        // Saved for offline: the eviction takes it last (see `evict`).
        const record = same ? { size, validator: mergedVersion(old.validator, validator) } : { size, validator };
        if ((same && old.saved) || saving) record.saved = true;
        if (same) {
          if (record.validator !== old.validator || record.saved !== old.saved) files.put(record, url);
        } else {
          if (old) delta -= await this.dropPages(tx, url);
          files.put(record, url);
          held.set(url, []);
        }
        recorded.set(url, record);
        const runs = held.get(url);
        for (const run of this.runsFrom(pages)) {
          const end = run.first + run.count;
          // Held already (a probe's pages saved for offline again, another
          // tab's): not stored twice, only made recent. Only a file whose
          // identity stays can hold runs here: a new one has none, a changed
          // one's were just dropped.
          const holder = runs.find((r) => r.first <= run.first && end <= r.first + r.count);
          if (holder) {
            lru.put({ at: now, size: holder.size }, holder.key);
            continue;
          }
          // Runs this one holds all of go, so that their bytes count once.
          for (const r of runs.filter((r) => run.first <= r.first && r.first + r.count <= end)) {
            delta -= r.size;
            store.delete(r.key);
            lru.delete(r.key);
            runs.splice(runs.indexOf(r), 1);
          }
          const key = this.key(url, run.first, run.count);
          store.put(run.bytes.buffer, key);
          lru.put({ at: now, size: run.bytes.byteLength }, key);
          runs.push({ key, first: run.first, count: run.count, size: run.bytes.byteLength });
          delta += run.bytes.byteLength;
        }
      }
      const bytes = await this.addToTotal(tx, delta);
      await done(tx);
      for (const { url } of queue) this.known.add(url);
      this.bytes = bytes;
      if (this.bytes > this.budget) await this.evict(this.budget * 0.875, this.budget);
      return true;
    }, false, refused);
  }

  /**
   * `pages` (Map page -> bytes) as runs {first, count, bytes} of
   * consecutive pages within one aligned block of RUN_PAGES (so that a
   * probe's runs lie within a saved file's, not across two), copied into
   * one buffer each: every page but a run's last is a whole page (a
   * file's last page, or a generated table stored whole as page 0, ends
   * its run).
   */
  runsFrom(pages) {
    const runs = [];
    let run = null;
    for (const p of [...pages.keys()].sort((a, b) => a - b)) {
      const bytes = pages.get(p);
      const open = run && p === run.first + run.parts.length && p % RUN_PAGES !== 0 && run.parts[run.parts.length - 1].length === this.pageSize;
      if (open) run.parts.push(bytes);
      else runs.push((run = { first: p, parts: [bytes] }));
    }
    return runs.map(({ first, parts }) => {
      const bytes = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
      let at = 0;
      for (const b of parts) {
        bytes.set(b, at);
        at += b.length;
      }
      return { first, count: parts.length, bytes };
    });
  }

  /** Deletes a URL's pages inside `tx` (pages, lru); resolves the bytes freed. */
  async dropPages(tx, url) {
    const range = IDBKeyRange.bound(`${url}|`, `${url}|\uffff`);
    const lru = tx.objectStore('lru');
    let freed = 0;
    await new Promise((resolve, reject) => {
      const req = lru.openCursor(range);
      req.onsuccess = () => {
        const c = req.result;
        if (!c) return resolve();
        freed += c.value.size;
        c.continue();
      };
      req.onerror = () => reject(req.error);
    });
    lru.delete(range);
    tx.objectStore('pages').delete(range);
    return freed;
  }

  /** The URLs recorded that start with `prefix` (none without IndexedDB). */
  urls(prefix) {
    return this.guard((db) => promisify(db.transaction('files', 'readonly').objectStore('files').getAllKeys(IDBKeyRange.bound(prefix, `${prefix}\uffff`))), []);
  }

  /** Drops every page of a URL. */
  purge(url) {
    return this.guard(async (db) => {
      const tx = db.transaction(['pages', 'lru', 'files'], 'readwrite', RELAXED);
      const freed = await this.dropPages(tx, url);
      tx.objectStore('files').delete(url);
      const bytes = await this.addToTotal(tx, -freed);
      await done(tx);
      this.known.delete(url);
      this.bytes = bytes;
    }, undefined);
  }

  /**
   * Pages of a URL present in the database, as Map(page -> Uint8Array),
   * none unless they belong to the version `identity` ({size, validator}):
   * the file's record is read in the same transaction, so pages another
   * version's write (another tab's, a prefetch's, this page's own after
   * an eviction took the head) put there are never read as this one's.
   * Lookups of one URL made in one turn (the ranges one attempt names)
   * share a transaction and come back together, so that the requests for
   * what they lack go out together too and can join (page-requests.js).
   */
  get(url, pages, identity) {
    const key = `${url}|${identity.size}|${identity.validator}`;
    let batch = this.lookups.get(key);
    if (!batch) {
      batch = { pages: new Set() };
      this.lookups.set(key, batch);
      batch.found = Promise.resolve().then(() => {
        this.lookups.delete(key);
        return this.lookup(url, [...batch.pages], identity);
      });
    }
    for (const p of pages) batch.pages.add(p);
    return batch.found.then((found) => new Map(pages.filter((p) => found.has(p)).map((p) => [p, found.get(p)])));
  }

  lookup(url, pages, identity) {
    return this.guard(async (db) => {
      const tx = db.transaction(['pages', 'lru', 'files'], 'readwrite', RELAXED);
      const store = tx.objectStore('pages');
      const lru = tx.objectStore('lru');
      const now = Date.now();
      const found = new Map();
      const [record, runs] = await Promise.all([promisify(tx.objectStore('files').get(url)), this.runsIn(tx, url)]);
      if (!record || !sameIdentity(record, identity.size, identity.validator)) {
        await done(tx);
        return found;
      }
      // Each page from the first run holding it; each run read once.
      const reads = new Map();
      for (const p of pages) {
        const r = runs.find((r) => r.first <= p && p < r.first + r.count);
        if (!r) continue;
        if (!reads.has(r)) reads.set(r, []);
        reads.get(r).push(p);
      }
      await Promise.all(
        [...reads].map(async ([r, wanted]) => {
          const v = await promisify(store.get(r.key));
          if (!v) return;
          const all = new Uint8Array(v);
          for (const p of wanted) {
            const start = (p - r.first) * this.pageSize;
            // A run's last page runs to its end (a file's last page, a table stored whole).
            const end = p === r.first + r.count - 1 ? all.length : start + this.pageSize;
            if (start < end && end <= all.length) found.set(p, all.subarray(start, end));
          }
          lru.put({ at: now, size: v.byteLength }, r.key);
        }),
      );
      // Over the quota (a save that filled it), the browser refuses even
      // these recency updates: the pages read stand, and nothing is evicted.
      await done(tx).catch((e) => {
        if (!e || e.name !== 'QuotaExceededError') throw e;
      });
      return found;
    }, new Map());
  }

  /**
   * Removes least recently used pages until at most `target` bytes remain.
   * Files saved for offline go last, whole, and only while more than
   * `savedTarget` bytes remain (Infinity: never, as when the browser's
   * quota refused a write; the budget, for the budget's eviction, which
   * a save was checked to fit). Then the other pages go down to the same
   * share of the room the saves leave (`target` / `savedTarget` of it):
   * with saves near the budget, a write would otherwise take every page
   * and head each time.
   */
  evict(target, savedTarget = target) {
    return this.guard(async (db) => {
      // Read the total and delete in one transaction: other probes and
      // tabs write too, and a total read outside it could miss their pages.
      const tx = db.transaction(['pages', 'lru', 'files'], 'readwrite', RELAXED);
      const files = tx.objectStore('files');
      const [recorded, urls, records] = await Promise.all([promisify(files.get(TOTAL)), promisify(files.getAllKeys()), promisify(files.getAll())]);
      const saved = new Set(savedAmong(urls, records));
      let bytes = typeof recorded === 'number' ? recorded : await this.total(tx);
      if (Number.isFinite(savedTarget) && savedTarget > 0 && saved.size) {
        const held = await this.bytesOf(tx, [...saved]);
        if (held < savedTarget) target = Math.max(target, held + (savedTarget - held) * (target / savedTarget));
      }
      // A file's first run (its head) goes last, with the rest of the
      // file and its record: a file recorded here can then be opened from
      // here (a revisit's IndexedDB round, early.js) without the network,
      // and the pages every probe of the file reads stay while any other does.
      // Files saved whole go after those, in the order they were last read.
      const firsts = [];
      const keptSaved = [];
      let keptBytes = 0;
      const headless = [];
      if (bytes > target) {
        const pages = tx.objectStore('pages');
        const index = tx.objectStore('lru').index('at');
        await new Promise((resolve, reject) => {
          const req = index.openCursor();
          req.onsuccess = () => {
            const c = req.result;
            // Every other page gone: whatever the record said, those kept alone are held.
            if (!c) {
              bytes = keptBytes;
              return resolve();
            }
            if (bytes <= target) return resolve();
            const url = parseKey(c.primaryKey)?.url;
            const head = this.headOf(c.primaryKey);
            if (saved.has(url)) {
              if (!keptSaved.includes(url)) keptSaved.push(url);
              keptBytes += c.value.size;
            } else if (head !== null) {
              firsts.push(head);
              keptBytes += c.value.size;
            } else {
              bytes -= c.value.size;
              pages.delete(c.primaryKey);
              c.delete();
            }
            c.continue();
          };
          req.onerror = () => reject(req.error);
        });
      }
      for (const url of [...firsts, ...keptSaved]) {
        if (bytes <= (keptSaved.includes(url) ? savedTarget : target)) break;
        headless.push(url);
        bytes -= await this.dropPages(tx, url);
        files.delete(url);
      }
      files.put(Math.max(0, bytes), TOTAL);
      await done(tx);
      for (const url of headless) this.known.delete(url);
      this.bytes = Math.max(0, bytes);
    }, undefined);
  }

  /** A save that failed: its pages stay, as pages probes kept (evicted first). */
  unsave(url) {
    return this.guard(async (db) => {
      const tx = db.transaction('files', 'readwrite', RELAXED);
      const files = tx.objectStore('files');
      const record = await promisify(files.get(url));
      if (record && record.saved) {
        const { saved, ...rest } = record;
        files.put(rest, url);
      }
      await done(tx);
    }, undefined);
  }

  /**
   * Files marked saved that IndexedDB does not hold whole lose the mark: a
   * save cut off by a reload or a closed tab, whose own undo (unsave)
   * never ran, kept its room for good, counted against later saves and
   * was listed as saved. Pages of any page size count. One transaction:
   * a save under way in another tab marks its file again with its next
   * chunk, and its last chunk makes it whole before or after this.
   */
  unsavePartial() {
    return this.guard(async (db) => {
      const tx = db.transaction(['files', 'lru'], 'readwrite', RELAXED);
      const files = tx.objectStore('files');
      const lru = tx.objectStore('lru');
      const [urls, records] = await Promise.all([promisify(files.getAllKeys()), promisify(files.getAll())]);
      for (const [i, url] of urls.entries()) {
        const record = records[i];
        if (!record || !record.saved || !(record.size > 0)) continue;
        const keys = await promisify(lru.getAllKeys(IDBKeyRange.bound(`${url}|`, `${url}|\uffff`)));
        const spans = keys
          .map(parseKey)
          .filter((k) => k && k.url === url)
          .map((k) => [k.first * k.pageSize, (k.first + k.count) * k.pageSize])
          .sort((a, b) => a[0] - b[0]);
        let reach = 0;
        for (const [start, end] of spans) if (start <= reach) reach = Math.max(reach, end);
        if (reach < record.size) {
          const { saved, ...rest } = record;
          files.put(rest, url);
        }
      }
      await done(tx);
    }, undefined);
  }

  /** For good (Runtime.close): the connection closes, and is not opened again. */
  async close() {
    await this.ready;
    this.reopens = 0;
    this.lost = false;
    this.state = 'closed';
    this.dropConnection();
  }

  /**
   * Empties the database once `before` (writes queued elsewhere until
   * now) settled, after the writes this queued so far; writes queued from
   * now on land after it, so that what a probe reads after a clear (asking
   * again) is kept.
   */
  clear(before = Promise.resolve()) {
    const batch = this.queue ? this.flushed : null;
    this.queue = null;
    // After an earlier clear still under way too (its wipe first).
    this.cleared = Promise.all([before, batch, this.cleared]).then(
      () => this.wipe(),
      () => this.wipe(),
    );
    return this.cleared;
  }

  /** Drops every record now (see `clear`). */
  wipe() {
    return this.guard(async (db) => {
      const tx = db.transaction(['pages', 'lru', 'files'], 'readwrite', RELAXED);
      for (const s of ['pages', 'lru', 'files']) tx.objectStore(s).clear();
      await done(tx);
      this.known.clear();
      this.bytes = 0;
    }, undefined);
  }
}
