// The browser driver of syzygy-web. The Rust core (Core) answers a probe
// attempt from the pages it holds or names the pages it lacks; this file
// fetches them (IndexedDB first, then HTTP Range requests), supplies them,
// and tries again. It also de-duplicates requests shared by concurrent
// probes, bounds concurrency, retries transient failures, watches each
// file's identity and keeps the IndexedDB page cache within its budget.

const MAX_ROUNDS = 256;
const RETRIES = 3;
// From a server that ignores Range, never stream further into a file than this.
const WHOLE_BODY_LIMIT = 32 * 1048576;
// An idle whole-file stream is closed, and forgotten with its bytes, after
// this long. Short, because a paused body is not quite paused: Chromium keeps
// downloading ~10 MiB ahead of the reader (all of it with DevTools attached).
const WHOLE_BODY_IDLE_MS = 5000;
// Whole-file streams open at once (each holds a connection to the host; the
// browser allows ~6), and the bytes all of them may hold.
const WHOLE_BODY_STREAMS = 4;
const WHOLE_BODY_BYTES = 64 * 1048576;
// A table found missing (404) is asked for again by probes starting this much later.
const ABSENT_TTL_MS = 1000;
const DB_NAME = 'syzygy-web';
const DB_VERSION = 1;

/** An Error with a stable `code`, as the API documents. */
function fail(message, code) {
  const e = new Error(message);
  e.code = code;
  return e;
}

/** A network error that retrying cannot cure (a misconfigured host). */
function fatal(message) {
  const e = fail(message, 'network');
  e.fatal = true;
  return e;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A counting semaphore for network requests. */
class Gate {
  constructor(n) {
    this.free = n;
    this.queue = [];
  }
  async enter() {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise((r) => this.queue.push(r));
  }
  leave() {
    const next = this.queue.shift();
    if (next) next();
    else this.free++;
  }
}

/**
 * The body of a 200 answer to a Range request, from a server that ignores
 * Range. Rather than download from byte 0 again for every later request, it
 * stays open (paused: the browser buffers some megabytes ahead, then TCP
 * backpressure stops the server) and is read only as far as a request needs:
 * one stream per file, never past the limit. A stream read to the end, or
 * closed to free its connection, still serves the bytes it read; the runtime
 * forgets it when idle or over its byte budget.
 */
class WholeBody {
  constructor(url, res, controller, size, validator, counters, limit, onEvict) {
    this.url = url;
    this.limit = limit;
    this.reader = res.body ? res.body.getReader() : null;
    this.controller = controller;
    this.size = size;
    this.validator = validator;
    this.counters = counters;
    this.onEvict = onEvict;
    this.buf = new Uint8Array(Math.min(size, 65536));
    this.have = 0;
    // Whether the connection is still open and can be read further.
    this.live = !!this.reader;
    this.lastUse = Date.now();
    this.chain = Promise.resolve();
    this.timer = null;
    this.touch();
  }

  /** {size, validator, bytes} of [start, end), or null when the stream cannot reach `end`. */
  get(start, end) {
    const want = Math.min(end, this.size);
    this.lastUse = Date.now();
    this.touch();
    if (want > this.limit) {
      this.evict();
      return Promise.reject(
        fatal(
          `${this.url}: the server ignores Range requests (it answers 200 with the whole file), and the bytes needed end at ` +
            `${want}, past the ${this.limit} bytes this driver will stream from such a server; serve tables from a host with Range support`,
        ),
      );
    }
    const p = this.chain.then(() => this.fill(want));
    this.chain = p.catch(() => {});
    return p.then((ok) => (ok ? { size: this.size, validator: this.validator, bytes: this.buf.slice(start, want) } : null));
  }

  async fill(n) {
    while (this.have < n && this.live) {
      let r;
      try {
        r = await this.reader.read();
      } catch (e) {
        break;
      }
      if (r.done) break;
      const v = r.value;
      const take = Math.min(v.length, this.size - this.have);
      if (this.have + take > this.buf.length) {
        let cap = this.buf.length * 2;
        while (cap < this.have + take) cap *= 2;
        const bigger = new Uint8Array(Math.min(cap, this.size));
        bigger.set(this.buf.subarray(0, this.have));
        this.buf = bigger;
      }
      this.buf.set(v.subarray(0, take), this.have);
      this.have += take;
      this.counters.bytes += take;
    }
    if (this.have < n || this.have >= this.size) this.close();
    return this.have >= n;
  }

  touch() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.evict(), WHOLE_BODY_IDLE_MS);
  }

  /** Ends the download (frees the connection); the bytes read stay usable. */
  close() {
    if (!this.live) return;
    this.live = false;
    this.controller.abort();
  }

  /** Closes and forgets it. */
  evict() {
    this.close();
    clearTimeout(this.timer);
    this.onEvict(this);
  }
}

/** `bytes a-b/size` to {start, end (inclusive), size}, or null. */
function contentRange(v) {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec((v || '').trim());
  return m ? { start: +m[1], end: +m[2], size: +m[3] } : null;
}

function promisify(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Whether a recorded identity {size, validator} is the version (size, validator). */
function sameIdentity(old, size, validator) {
  return old.size === size && (old.validator === validator || !validator || !old.validator);
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(tx.error || new Error('transaction aborted'));
  });
}

/**
 * Pages in IndexedDB. Keys are `url|pageSize|page`; `pages` holds bytes,
 * `lru` small {at, size} records (so recency updates never rewrite bytes),
 * `files` the identity {size, validator} each URL's pages belong to.
 */
class PageDb {
  constructor(budget, pageSize) {
    this.budget = budget;
    this.pageSize = pageSize;
    this.bytes = 0;
    this.state = 'opening';
    this.ready = this.open();
  }

  async open() {
    if (!this.budget || typeof indexedDB === 'undefined') {
      this.state = 'memory-only';
      return;
    }
    try {
      this.db = await new Promise((resolve, reject) => {
        const req = indexedDB.open(DB_NAME, DB_VERSION);
        req.onupgradeneeded = () => {
          const db = req.result;
          db.createObjectStore('pages');
          db.createObjectStore('lru').createIndex('at', 'at');
          db.createObjectStore('files');
        };
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
        req.onblocked = () => reject(new Error('IndexedDB blocked'));
      });
      // Another tab upgrading the schema: step aside rather than block it.
      this.db.onversionchange = () => {
        this.db.close();
        this.db = null;
        this.state = 'memory-only';
      };
      this.bytes = await this.total();
      this.state = 'ok';
    } catch (e) {
      this.db = null;
      this.state = 'memory-only';
    }
  }

  key(url, page) {
    return `${url}|${this.pageSize}|${page}`;
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

  /** Runs an IndexedDB operation; any failure degrades to memory-only. */
  async guard(fn, fallback) {
    await this.ready;
    if (!this.db) return fallback;
    try {
      return await fn(this.db);
    } catch (e) {
      if (e && e.name === 'QuotaExceededError') {
        await this.evict(this.bytes / 2).catch(() => {});
      } else {
        this.state = 'memory-only';
        this.db = null;
      }
      return fallback;
    }
  }

  identity(url) {
    return this.guard(async (db) => {
      const tx = db.transaction('files', 'readonly');
      return (await promisify(tx.objectStore('files').get(url))) || null;
    }, null);
  }

  /**
   * Records a URL's identity; on a change, its old pages go first. One
   * transaction, so that two probes (or tabs) recording different versions
   * cannot interleave a read, a purge and a write. Resolves true on a change.
   */
  setIdentity(url, size, validator) {
    return this.guard(async (db) => {
      const tx = db.transaction(['pages', 'lru', 'files'], 'readwrite');
      const files = tx.objectStore('files');
      const old = (await promisify(files.get(url))) || null;
      let changed = false;
      if (old && sameIdentity(old, size, validator)) {
        if (!old.validator && validator) files.put({ size, validator }, url);
      } else {
        if (old) {
          this.bytes = Math.max(0, this.bytes - (await this.dropPages(tx, url)));
          changed = true;
        }
        files.put({ size, validator }, url);
      }
      await done(tx);
      return changed;
    }, false);
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

  /** Drops every page of a URL. */
  purge(url) {
    return this.guard(async (db) => {
      const tx = db.transaction(['pages', 'lru', 'files'], 'readwrite');
      const freed = await this.dropPages(tx, url);
      tx.objectStore('files').delete(url);
      await done(tx);
      this.bytes = Math.max(0, this.bytes - freed);
    }, undefined);
  }

  /** Pages of a URL present in the database, as Map(page -> Uint8Array). */
  get(url, pages) {
    return this.guard(async (db) => {
      const tx = db.transaction(['pages', 'lru'], 'readwrite');
      const store = tx.objectStore('pages');
      const lru = tx.objectStore('lru');
      const now = Date.now();
      const found = new Map();
      await Promise.all(
        pages.map(async (p) => {
          const k = this.key(url, p);
          const v = await promisify(store.get(k));
          if (v) {
            found.set(p, new Uint8Array(v));
            lru.put({ at: now, size: v.byteLength }, k);
          }
        }),
      );
      await done(tx);
      return found;
    }, new Map());
  }

  /**
   * Stores pages (Map page -> Uint8Array) of the file version {size,
   * validator}, then evicts down to the budget. Pages of a version that is no
   * longer the recorded one (another response changed it meanwhile) are not
   * stored: the database never mixes two versions of a file.
   */
  put(url, identity, pages) {
    return this.guard(async (db) => {
      const tx = db.transaction(['pages', 'lru', 'files'], 'readwrite');
      const store = tx.objectStore('pages');
      const lru = tx.objectStore('lru');
      const current = await promisify(tx.objectStore('files').get(url));
      if (!current || !sameIdentity(current, identity.size, identity.validator)) {
        await done(tx);
        return;
      }
      const now = Date.now();
      let added = 0;
      for (const [p, bytes] of pages) {
        const k = this.key(url, p);
        store.put(bytes.slice().buffer, k);
        lru.put({ at: now, size: bytes.byteLength }, k);
        added += bytes.byteLength;
      }
      await done(tx);
      this.bytes += added;
      if (this.bytes > this.budget) await this.evict(this.budget * 0.875);
    }, undefined);
  }

  /** Removes least recently used pages until at most `target` bytes remain. */
  evict(target) {
    return this.guard(async (db) => {
      // Count and delete in one transaction: other probes and tabs write
      // too, and a count taken outside it could miss their pages.
      const tx = db.transaction(['pages', 'lru'], 'readwrite');
      let bytes = await this.total(tx);
      if (bytes > target) {
        const pages = tx.objectStore('pages');
        const index = tx.objectStore('lru').index('at');
        await new Promise((resolve, reject) => {
          const req = index.openCursor();
          req.onsuccess = () => {
            const c = req.result;
            if (!c || bytes <= target) return resolve();
            bytes -= c.value.size;
            pages.delete(c.primaryKey);
            c.delete();
            c.continue();
          };
          req.onerror = () => reject(req.error);
        });
      }
      await done(tx);
      this.bytes = bytes;
    }, undefined);
  }

  clear() {
    return this.guard(async (db) => {
      const tx = db.transaction(['pages', 'lru', 'files'], 'readwrite');
      for (const s of ['pages', 'lru', 'files']) tx.objectStore(s).clear();
      await done(tx);
      this.bytes = 0;
    }, undefined);
  }
}

export class Runtime {
  constructor(core, options) {
    const urls = options && options.urls;
    if (!Array.isArray(urls) || urls.length === 0 || !urls.every((u) => typeof u === 'string')) {
      throw fail('Tablebase options need urls: an array of base URLs', 'options');
    }
    const base = typeof location !== 'undefined' ? location.href : undefined;
    this.urls = urls.map((u) => {
      const abs = new URL(u, base).href;
      return abs.endsWith('/') ? abs : abs + '/';
    });
    this.manifest = options.manifest || null;
    // How far into a file a server that ignores Range may be streamed (bytes).
    this.wholeBodyLimit = options.wholeBodyLimit > 0 ? options.wholeBodyLimit : WHOLE_BODY_LIMIT;
    this.core = core;
    this.pageSize = core.pageSize();
    this.gate = new Gate(Math.max(1, Math.min(64, options.concurrency || 6)));
    this.onProgress = typeof options.onProgress === 'function' ? options.onProgress : null;
    this.db = new PageDb(options.idbBudget === undefined ? 256 * 1048576 : options.idbBudget, this.pageSize);
    // file id -> {url, size, validator} once known in this session.
    this.files = new Map();
    // `${file}:${page}` or `open:${file}` -> promise of the request bringing it.
    this.inflight = new Map();
    // url -> WholeBody, for servers that ignored Range.
    this.bodies = new Map();
    // file id -> {f (its open request), at (ms)}: files every location answered 404 for.
    this.absent = new Map();
    this.counters = {
      requests: 0,
      bytes: 0,
      rounds: 0,
      retries: 0,
      pagesFromMemory: 0,
      pagesFromIndexedDb: 0,
      pagesFromNetwork: 0,
      requestsInFlight: 0,
      identityChanges: 0,
    };
  }

  stats() {
    return {
      ...this.counters,
      cacheBytes: this.db.bytes,
      memoryBytes: this.core.memoryBytes(),
      indexedDb: this.db.state,
    };
  }

  progress() {
    if (!this.onProgress) return;
    const c = this.counters;
    try {
      this.onProgress({ requestsInFlight: c.requestsInFlight, requests: c.requests, bytes: c.bytes, rounds: c.rounds });
    } catch (e) {
      // A failing callback must not break probing.
    }
  }

  /** Runs a probe to completion: attempt, supply what it names, repeat. */
  async run(kind, fen) {
    if (typeof fen !== 'string') throw fail('FEN must be a string', 'invalid-fen');
    const tick = this.core.begin();
    const started = Date.now();
    try {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const r = JSON.parse(this.core.attempt(kind, fen));
        if (r.done) {
          this.counters.pagesFromMemory += this.core.lastReads();
          return r.done;
        }
        if (r.error && r.code === 'missing-table' && (await this.recheckAbsent(r.error, started))) continue;
        if (r.error) throw fail(r.error, r.code);
        this.counters.rounds++;
        await this.supplyAll(r.need);
      }
      throw fail('probe did not converge', 'network');
    } finally {
      this.core.end(tick);
    }
  }

  async supplyAll(need) {
    const waits = [];
    const opens = need.filter((f) => f.open);
    for (const f of opens) waits.push(this.shared(`open:${f.file}`, () => this.open(f)));
    for (const f of need.filter((f) => !f.open)) waits.push(this.pages(f));
    const results = await Promise.allSettled(waits);
    const bad = results.find((r) => r.status === 'rejected');
    if (bad) throw bad.reason;
  }

  /**
   * The core remembers a missing file for good; the runtime asks again for
   * the files a missing-table error names when they were found missing
   * (ABSENT_TTL_MS) before this probe started. True when it did.
   */
  async recheckAbsent(message, started) {
    const stale = [...this.absent.values()].filter((a) => a.at + ABSENT_TTL_MS <= started && message.includes(a.f.name));
    if (!stale.length) return false;
    for (const a of stale) this.absent.delete(a.f.file);
    this.counters.rounds++;
    await Promise.all(stale.map((a) => this.shared(`open:${a.f.file}`, () => this.open(a.f))));
    return true;
  }

  /** One promise per key while in flight, shared by every probe that needs it. */
  shared(key, make) {
    let p = this.inflight.get(key);
    if (!p) {
      p = make().finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  candidates(name) {
    if (this.manifest && this.manifest[name]) {
      const abs = new URL(this.manifest[name], this.urls[0]).href;
      return [abs.endsWith('/') ? abs : abs + '/'];
    }
    if (this.manifest) return [];
    return this.urls;
  }

  /** Opens a file: its identity and head, from IndexedDB when known there. */
  async open(f) {
    for (const base of this.candidates(f.name)) {
      const url = base + f.name;
      const known = await this.db.identity(url);
      if (known) {
        const pages = [];
        for (let p = 0; p * this.pageSize < Math.min(f.end, known.size); p++) pages.push(p);
        const got = await this.db.get(url, pages);
        if (got.size === pages.length) {
          this.files.set(f.file, { url, size: known.size, validator: known.validator });
          this.core.identify(f.file, known.size, known.validator);
          for (const [p, bytes] of got) this.core.supply(f.file, p * this.pageSize, known.size, known.validator, bytes);
          this.counters.pagesFromIndexedDb += got.size;
          return;
        }
      }
      const r = await this.request(url, f.start, f.end, f.name);
      if (r === null) continue; // not at this base
      this.files.set(f.file, { url, size: r.size, validator: r.validator });
      await this.accept(f.file, url, f.start, r);
      return;
    }
    this.absent.set(f.file, { f, at: Date.now() });
    this.core.absent(f.file);
  }

  /** Supplies the pages of a range: memory, IndexedDB, then the network. */
  async pages(f) {
    const file = this.files.get(f.file);
    if (!file) throw fail(`internal: ${f.name} used before it was opened`, 'network');
    const first = Math.floor(f.start / this.pageSize);
    const last = Math.floor((f.end - 1) / this.pageSize);
    const waits = [];
    const wanted = [];
    for (let p = first; p <= last; p++) {
      if (this.core.hasPage(f.file, p)) continue;
      const k = `${f.file}:${p}`;
      const w = this.inflight.get(k);
      if (w) waits.push(w);
      else wanted.push(p);
    }
    if (wanted.length) {
      const job = this.fetchPages(f.file, file, wanted);
      for (const p of wanted) {
        const k = `${f.file}:${p}`;
        this.inflight.set(k, job);
      }
      job.finally(() => wanted.forEach((p) => this.inflight.delete(`${f.file}:${p}`))).catch(() => {});
      waits.push(job);
    }
    await Promise.all(waits);
  }

  async fetchPages(id, file, wanted) {
    const got = await this.db.get(file.url, wanted);
    for (const [p, bytes] of got) this.core.supply(id, p * this.pageSize, file.size, file.validator, bytes);
    this.counters.pagesFromIndexedDb += got.size;
    const missing = wanted.filter((p) => !got.has(p));
    // Coalesce consecutive pages into one Range request each.
    const runs = [];
    for (const p of missing) {
      const last = runs[runs.length - 1];
      if (last && last[1] === p - 1) last[1] = p;
      else runs.push([p, p]);
    }
    await Promise.all(
      runs.map(async ([a, b]) => {
        const start = a * this.pageSize;
        const end = Math.min((b + 1) * this.pageSize, file.size);
        const r = await this.request(file.url, start, end, file.url);
        if (r === null) throw fail(`${file.url} disappeared (404)`, 'missing-table');
        await this.accept(id, file.url, start, r);
      }),
    );
  }

  /** Checks identity, supplies the bytes and stores them in IndexedDB. */
  async accept(id, url, start, r) {
    const changed = this.core.identify(id, r.size, r.validator);
    const known = this.files.get(id);
    if (known) Object.assign(known, { size: r.size, validator: r.validator });
    if (changed) this.counters.identityChanges++;
    // Into the core before any await: a probe attempting meanwhile must not
    // see the file opened (identity known) yet without its bytes, and fetch
    // them a second time.
    this.core.supply(id, start, r.size, r.validator, r.bytes);
    await this.db.setIdentity(url, r.size, r.validator);
    const pages = new Map();
    for (let off = 0; off < r.bytes.length; off += this.pageSize) {
      const piece = r.bytes.subarray(off, off + this.pageSize);
      // Only whole pages, or the file's last one.
      if (piece.length === this.pageSize || start + off + piece.length === r.size) pages.set((start + off) / this.pageSize, piece);
    }
    this.counters.pagesFromNetwork += pages.size;
    await this.db.put(url, { size: r.size, validator: r.validator }, pages);
  }

  /**
   * GET bytes [start, end) of a URL with retries. Resolves {size, validator,
   * bytes}, or null when the file is not there (404/410).
   */
  async request(url, start, end, label) {
    const body = this.bodies.get(url);
    if (body) {
      const v = await body.get(start, end);
      this.trimBodies(body);
      if (v) return v;
    }
    let lastError = null;
    for (let attempt = 0; attempt <= RETRIES; attempt++) {
      if (attempt > 0) {
        this.counters.retries++;
        await sleep(100 * 4 ** (attempt - 1));
      }
      await this.gate.enter();
      this.counters.requests++;
      this.counters.requestsInFlight++;
      this.progress();
      try {
        const r = await this.requestOnce(url, start, end);
        if (r.retry) {
          lastError = r.retry;
          continue;
        }
        return r.value;
      } catch (e) {
        if (e && ((e.code && e.code !== 'network') || e.fatal)) throw e;
        lastError = e && e.message ? e.message : String(e);
      } finally {
        this.counters.requestsInFlight--;
        this.gate.leave();
        this.progress();
      }
    }
    throw fail(`could not fetch ${label}: ${lastError} (after ${RETRIES} retries)`, 'network');
  }

  async requestOnce(url, start, end) {
    const controller = new AbortController();
    let res;
    try {
      res = await fetch(url, {
        headers: { Range: `bytes=${start}-${end - 1}` },
        cache: 'no-store',
        signal: controller.signal,
      });
    } catch (e) {
      // The browser does not say why (by design): name every likely cause.
      return {
        retry:
          `the request failed (${e && e.message}): the host is unreachable, refused CORS (it must send ` +
          `Access-Control-Allow-Origin for this page and expose Content-Range, ETag), or sent a compressed ` +
          `body (Content-Encoding: gzip...), which browsers refuse on a Range request: serve tables uncompressed`,
      };
    }
    const validator = res.headers.get('ETag') || res.headers.get('Last-Modified') || '';
    const encoding = res.headers.get('Content-Encoding');
    if (res.status === 404 || res.status === 410) {
      controller.abort();
      return { value: null };
    }
    if (encoding && encoding !== 'identity') {
      controller.abort();
      throw fatal(`${url}: the server compressed a range response (Content-Encoding: ${encoding}); serve tables without compression`);
    }
    if (res.status === 206) {
      const cr = contentRange(res.headers.get('Content-Range'));
      if (!cr) {
        controller.abort();
        throw fatal(`${url}: 206 without a readable Content-Range; the server must send Access-Control-Expose-Headers: Content-Range, ETag`);
      }
      // Content-Length is always readable; a length that differs from the
      // range's means the body was encoded (compressed) on the way.
      const length = res.headers.get('Content-Length');
      if (length !== null && Number(length) !== cr.end - cr.start + 1) {
        controller.abort();
        throw fatal(`${url}: the body of a range response is ${length} bytes for a ${cr.end - cr.start + 1}-byte range, so the server compressed it; serve tables without compression (no Content-Encoding)`);
      }
      const wantEnd = Math.min(end, cr.size);
      if (cr.start !== start || cr.end + 1 < wantEnd || cr.end >= cr.size) {
        controller.abort();
        return { retry: `Content-Range ${res.headers.get('Content-Range')} does not match bytes=${start}-${end - 1}` };
      }
      const bytes = await this.read(res, wantEnd - start, controller);
      if (bytes === null || bytes.length < wantEnd - start) return { retry: 'truncated body' };
      return { value: { size: cr.size, validator, bytes } };
    }
    if (res.status === 200) {
      // The server ignored Range: keep the stream, read only as far as needed.
      const size = Number(res.headers.get('Content-Length'));
      if (!Number.isFinite(size) || size <= 0 || !res.headers.get('Content-Length')) {
        controller.abort();
        throw fatal(`${url}: the server ignored the Range header and sent no length (or a compressed body); it must support Range requests`);
      }
      let body = this.bodies.get(url);
      if (body && body.live && body.size === size && body.validator === validator) {
        controller.abort(); // a request that raced the first 200: use that stream
      } else {
        if (body) body.evict();
        body = new WholeBody(url, res, controller, size, validator, this.counters, this.wholeBodyLimit, (b) => {
          if (this.bodies.get(url) === b) this.bodies.delete(url);
        });
        this.bodies.set(url, body);
        this.trimBodies(body);
      }
      const v = await body.get(start, end);
      this.trimBodies(body);
      return v ? { value: v } : { retry: 'truncated body' };
    }
    controller.abort();
    if (res.status === 416 || res.status === 429 || res.status === 408 || res.status >= 500) {
      return { retry: `HTTP ${res.status}` };
    }
    throw fail(`${url}: HTTP ${res.status}`, 'network');
  }

  /** Reads the first `n` bytes of a body, aborting the rest; null on a broken stream. */
  async read(res, n, controller) {
    const out = new Uint8Array(n);
    let have = 0;
    if (!res.body) {
      const all = new Uint8Array(await res.arrayBuffer());
      out.set(all.subarray(0, n));
      return all.length >= n ? out : out.subarray(0, all.length);
    }
    const reader = res.body.getReader();
    try {
      while (have < n) {
        const { done: end, value } = await reader.read();
        if (end) break;
        const take = Math.min(value.length, n - have);
        out.set(value.subarray(0, take), have);
        have += take;
        this.counters.bytes += take;
      }
    } catch (e) {
      return null;
    } finally {
      if (have >= n) controller.abort();
      reader.releaseLock?.();
    }
    return have >= n ? out : out.subarray(0, have);
  }

  /**
   * Keeps at most WHOLE_BODY_STREAMS whole-file downloads open (closing the
   * least recently used) and WHOLE_BODY_BYTES in their buffers (forgetting
   * the least recently used); `keep` is never touched.
   */
  trimBodies(keep) {
    const lru = () => [...this.bodies.values()].filter((b) => b !== keep).sort((a, b) => a.lastUse - b.lastUse);
    const live = lru().filter((b) => b.live);
    for (let i = 0; i < live.length - (WHOLE_BODY_STREAMS - 1); i++) live[i].close();
    let bytes = [...this.bodies.values()].reduce((s, b) => s + b.buf.length, 0);
    for (const b of lru()) {
      if (bytes <= WHOLE_BODY_BYTES) break;
      bytes -= b.buf.length;
      b.evict();
    }
  }

  async clearCache() {
    for (const b of [...this.bodies.values()]) b.evict();
    this.core.clear();
    this.files.clear();
    this.absent.clear();
    await this.db.clear();
  }

  /** Whole files into IndexedDB, in 1 MiB requests, within the budget. */
  async prefetch(names, onProgress) {
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
    await this.db.ready;
    for (const name of names) {
      let done = false;
      for (const base of this.candidates(name)) {
        const url = base + name;
        const head = await this.request(url, 0, Math.min(chunk, 1 << 30), url);
        if (head === null) continue;
        if (this.db.state === 'ok' && this.db.bytes + head.size > this.db.budget) {
          throw fail(`${name} (${head.size} bytes) does not fit the IndexedDB budget`, 'budget');
        }
        await this.db.setIdentity(url, head.size, head.validator);
        const store = async (start, r) => {
          const pages = new Map();
          for (let off = 0; off < r.bytes.length; off += this.pageSize) pages.set((start + off) / this.pageSize, r.bytes.subarray(off, off + this.pageSize));
          await this.db.put(url, head, pages);
          bytes += r.bytes.length;
          report(name, head.size);
        };
        await store(0, head);
        for (let start = chunk; start < head.size; start += chunk) {
          const r = await this.request(url, start, Math.min(start + chunk, head.size), url);
          if (r === null || r.size !== head.size || r.validator !== head.validator) throw fail(`${name} changed while prefetching`, 'network');
          await store(start, r);
        }
        fetched.push(name);
        done = true;
        break;
      }
      if (!done) report(name, 0);
    }
    return { bytes, files: fetched };
  }
}
