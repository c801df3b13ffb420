// Generated tables on the main thread's side: which ones the core holds,
// loading them from IndexedDB (same page cache, budget and identity rules
// as fetched tables; the identity is the generator's format version), and
// asking the generation worker for the others, with progress and an
// estimate of the time left.
//
// Leaving a position does not cancel its generation: the worker finishes
// the material (and those queued before it), and the table is stored, so a
// return to that material costs nothing.
//
// A worker that dies or fails (out of memory, a load failure, a trap in the
// module) fails every job it had with a 'generate' error; the next
// generation starts a fresh worker and gives it again the tables it needs.
//
// Memory: wasm memory never shrinks, and every 3-4 piece table held at once
// took 735 MB in the page and more in the worker. So the page's core holds
// only tables answers read (a position's own and those one capture or
// promotion away; the deeper ones a generation needs go to the worker
// alone), within a budget beyond the probes under way (the generatedBudget
// option; least recently read let go first; IndexedDB still has them), and
// a worker idle for WORKER_IDLE_MS is stopped, its memory with it: the next
// one is given the sub-tables each material needs as it needs them.

import { fail, trapped } from './errors.js';

// Pieces of the largest material generated in a browser (see generator.rs).
export const MAX_GENERATED_PIECES = 4;

// The page number under which a generated table's whole file is stored.
const WHOLE = 0;

// A worker without a job for this long is stopped.
const WORKER_IDLE_MS = 30_000;
// A started worker must answer its first job within this long (its module
// is 75 KB gzipped: 0.4 s at 1.6 Mbit/s).
const WORKER_START_MS = 60_000;
// A wait for another tab's lock on a material ends after this long, and
// the material is made here too: a tab whose worker hung (or that was
// frozen mid-generation) must not hold this one for good. The largest
// browser generation, KQvKR, takes about 3 s here, 12 s on a phone.
const LOCK_WAIT_MS = 60_000;

/** Positions to generate for a material: its name's pieces, as a rough weight for estimates. */
function weight(name) {
  const pieces = name.replace('v', '').length;
  return Math.pow(64, pieces - 2);
}

export class Generated {
  /**
   * `core` answers from the tables; `db` is the PageDb; `writes` the
   * runtime's set of IndexedDB writes in flight (clearCache waits for
   * them); `budget` the bytes of tables the core keeps beyond a probe's;
   * `version` the generator's format version; `onGenerate` receives
   * progress reports.
   */
  constructor(core, db, writes, budget, version, onGenerate) {
    this.core = core;
    this.budget = budget;
    this.db = db;
    this.writes = writes;
    this.version = version;
    this.onGenerate = onGenerate;
    // Materials the core holds: name -> {bytes, used (a counter's value at its last read)}.
    this.held = new Map();
    this.uses = 0;
    // Aborted by close(): a wait for another tab's lock ends with it.
    this.closer = new AbortController();
    this.lockWaitMs = LOCK_WAIT_MS;
    // Probes from generated tables under way (a clear waits for none).
    this.active = 0;
    // name -> how many probes under way need it (made, read, or made
    // from): those are never let go, the others may be at any probe's end.
    this.pinned = new Map();
    this.idleTimer = null;
    // name -> promise of its loading or generation.
    this.pending = new Map();
    // name -> promise of its loading from IndexedDB alone (true if it read).
    this.stored = new Map();
    // Counts clearCache calls: a generation under way at one is not stored.
    this.epoch = 0;
    // A clearCache waits for the probes under way to let tables go (see clear).
    this.cleared = false;
    // Materials the worker holds (given or made).
    this.inWorker = new Set();
    this.worker = null;
    this.jobs = new Map();
    this.nextId = 1;
    // Measured generation speed (weight units per ms), for estimates.
    this.speed = null;
    this.counters = { generated: 0, fromIndexedDb: 0, generateMs: 0, letGo: 0 };
  }

  url(name) {
    return `generated:v${this.version}/${name}.swv`;
  }

  /**
   * Makes every material of `names` (dependencies first) ready: those in
   * `reads` held by the core (the answer reads them), the others by the
   * worker alone, which makes the later ones from them.
   */
  async ensure(names, reads) {
    // Tables answers read that IndexedDB holds come first, and alone: the
    // plan the core makes next leaves out what they would be made from
    // (else a page reloaded would hand the worker every sub-table again).
    let loaded = false;
    for (const name of reads) {
      if (!this.held.has(name) && !this.pending.has(name) && (await this.fromStoreOnce(name))) loaded = true;
    }
    if (loaded) return;
    const plan = { names, index: 0, started: performance.now() };
    const core = new Set(reads);
    for (let i = 0; i < names.length; i++) {
      plan.index = i;
      await this.one(names[i], plan, names.slice(i + 1), core.has(names[i]));
    }
  }

  /**
   * Makes the core hold every material of `names` from IndexedDB alone
   * (offline, say): false, with nothing generated, if one is not stored.
   */
  async ensureStored(names) {
    for (const name of names) {
      if (!this.held.has(name) && !(await this.fromStoreOnce(name))) return false;
    }
    return true;
  }

  /**
   * `fromStore`, once for probes that ask at the same time (a board's
   * outcome, verdict and move list of one position): each would read and
   * decode the table again, and the page's memory never shrinks.
   */
  fromStoreOnce(name) {
    let p = this.stored.get(name);
    if (!p) {
      p = this.fromStore(name).finally(() => this.stored.delete(name));
      this.stored.set(name, p);
    }
    return p;
  }

  /** Gives the core `name` from IndexedDB; false if it is not stored or does not read. */
  async fromStore(name) {
    const bytes = await this.fromDb(name);
    // (Closed meanwhile: nothing goes into the core any more.)
    this.checkOpen();
    if (!bytes || !this.insert(name, bytes)) return false;
    this.counters.fromIndexedDb++;
    this.keep(name);
    return true;
  }

  ready(name, forCore) {
    return this.held.has(name) || (!forCore && this.inWorker.has(name));
  }

  /** One load of a material at a time: another waits for it, then does what is still to do. */
  one(name, plan, later, forCore) {
    if (this.ready(name, forCore)) return Promise.resolve();
    const before = this.pending.get(name);
    const mine = (async () => {
      if (before) await before.catch(() => {});
      if (!this.ready(name, forCore)) await this.load(name, plan, later, forCore);
    })().finally(() => {
      if (this.pending.get(name) === mine) this.pending.delete(name);
    });
    this.pending.set(name, mine);
    return mine;
  }

  /**
   * Loads or makes a material, under a lock that other tabs of the origin
   * (and other instances of this page) take too: one of them makes it,
   * the others then find it stored (Web Locks; without them, each makes it).
   */
  load(name, plan, later, forCore) {
    const locks = typeof navigator !== 'undefined' && navigator.locks;
    let ran = false;
    // An error without a code (a DOMException from IndexedDB, say) is the generation's.
    // (A trap is the page's module's: the runtime closes on it, see Runtime.brokenBy.)
    const coded = (e) => {
      throw typeof e?.code === 'string' || trapped(e) ? e : fail(`generating ${name}: ${(e && e.message) || e}`, 'generate');
    };
    // The wait ends at close() or after lockWaitMs; a lock granted is not
    // let go for either (an abort only ends a wait).
    const wait = new AbortController();
    const stop = () => wait.abort();
    const timer = setTimeout(stop, this.lockWaitMs);
    this.closer.signal.addEventListener('abort', stop);
    if (this.closer.signal.aborted) stop();
    const waited = () => {
      clearTimeout(timer);
      this.closer.signal.removeEventListener('abort', stop);
    };
    const run = () => {
      waited();
      ran = true;
      return this.loadUnlocked(name, plan, later, forCore).catch(coded);
    };
    if (!locks) return run();
    return locks.request(`syzygy-web ${this.url(name)}`, { signal: wait.signal }, run).catch((e) => {
      waited();
      this.checkOpen();
      if (ran) throw e;
      // No lock to be had (a sandboxed frame's opaque origin refuses Web
      // Locks), or another tab held it past LOCK_WAIT_MS: made here as
      // without them.
      return run();
    });
  }

  /** Throws code `closed` once close() was called. */
  checkOpen() {
    if (this.closed) throw fail('this Tablebase was closed', 'closed');
  }

  async loadUnlocked(name, plan, later, forCore) {
    this.checkOpen();
    let bytes = await this.fromDb(name);
    this.checkOpen();
    // A stored table for the worker is read there: one it refuses (a
    // value out of range, which the header check cannot see) is made again.
    const reads = async (b) => (forCore ? this.insert(name, b) : this.core.constructor.isGeneratedTable(b, name) && (await this.giveStored(name, b)));
    if (bytes && !(await reads(bytes))) {
      await this.db.purge(this.url(name));
      bytes = null;
    }
    if (bytes) {
      this.counters.fromIndexedDb++;
    } else {
      const epoch = this.epoch;
      bytes = await this.generate(name, plan, later);
      if (forCore && !this.insert(name, bytes)) throw fail(`the generated table ${name} does not read`, 'generate');
      // Held before the write is awaited: a clearCache meanwhile lets go
      // of what the core holds, and `held` must say the same.
      if (forCore) this.keep(name);
      this.counters.generated++;
      if (epoch === this.epoch) await this.toDb(name, bytes);
      return;
    }
    if (forCore) this.keep(name);
  }

  /**
   * clearCache: a generation under way answers its probe without being
   * stored, and once no probe from generated tables is under way (a plan
   * needs the tables it made so far, in the core or the worker), the core
   * lets every generated table go and the worker stops with those it holds.
   */
  clear() {
    this.epoch++;
    this.cleared = true;
    this.dropIfIdle();
  }

  /** For good (Runtime.close): the worker stops, its jobs reject `closed`, tables held go. */
  close() {
    this.closed = true;
    this.closer.abort();
    this.stop();
    const err = fail('this Tablebase was closed', 'closed');
    for (const job of this.jobs.values()) job.reject(err);
    this.jobs.clear();
    try {
      for (const name of this.held.keys()) this.core.dropGenerated(name);
    } catch {
      /* a core a trap left mid-call (Runtime.brokenBy): nothing to let go */
    }
    this.held.clear();
  }

  /** What `clear` asked for, once nothing from generated tables is under way. */
  dropIfIdle() {
    if (!this.cleared || this.active > 0 || this.pending.size > 0) return;
    this.cleared = false;
    for (const name of this.held.keys()) this.core.dropGenerated(name);
    this.held.clear();
    if (!this.jobs.size) this.stop();
  }

  /** Hands the worker a sub-table; a failure fails the generation that needs it, which reports it. */
  give(name, bytes) {
    this.startWorker();
    this.post({ type: 'insert', name, bytes }).catch(() => {});
    this.inWorker.add(name);
  }

  /** Hands the worker a stored table and waits: false if its bytes do not read there. */
  async giveStored(name, bytes) {
    this.startWorker();
    try {
      await this.post({ type: 'insert', name, bytes });
    } catch (e) {
      if (e && e.unreadable) return false;
      throw e;
    }
    this.inWorker.add(name);
    return true;
  }

  /** The core holds `name`. */
  keep(name) {
    this.held.set(name, { bytes: this.core.generatedBytes(name), used: ++this.uses });
  }

  /**
   * A probe under way needs the materials of its plan (`names`), those
   * they are made from, and those its answer reads: none is let go until
   * it calls `unpin(mine)`. `mine` is the probe's own set, so a material
   * named in several of its rounds counts once.
   */
  pin(mine, names) {
    const all = new Set(names);
    for (const name of names) {
      for (const child of this.core.constructor.generatedChildren(name).split(',')) if (child) all.add(child);
    }
    for (const name of all) {
      if (mine.has(name)) continue;
      mine.add(name);
      this.pinned.set(name, (this.pinned.get(name) || 0) + 1);
    }
  }

  unpin(mine) {
    for (const name of mine) {
      const n = (this.pinned.get(name) || 1) - 1;
      if (n > 0) this.pinned.set(name, n);
      else this.pinned.delete(name);
    }
    mine.clear();
  }

  /**
   * A probe read `names` (the core's `generatedReads`): they are the last
   * let go. Then tables beyond the budget are let go, least recently read
   * first, except those a probe under way needs (a long generation does
   * not hold every table other positions read meanwhile).
   */
  read(names) {
    for (const name of names) {
      const h = this.held.get(name);
      if (h) h.used = ++this.uses;
    }
    let total = 0;
    for (const h of this.held.values()) total += h.bytes;
    const keep = new Set(names);
    const order = [...this.held].filter(([name]) => !keep.has(name) && !this.pinned.has(name)).sort((a, b) => a[1].used - b[1].used);
    for (const [name, h] of order) {
      if (total <= this.budget) break;
      this.core.dropGenerated(name);
      this.held.delete(name);
      total -= h.bytes;
      this.counters.letGo++;
    }
  }

  /**
   * Gives the core a stored table; false when it does not read or holds
   * another material (a record of another table under this name).
   */
  insert(name, bytes) {
    try {
      return this.core.insertGenerated(bytes, name) === name;
    } catch (e) {
      // A trap (memory exhausted), or a core a trap left mid-call, is the
      // page's failure, not the table's: the stored table is kept, and the
      // runtime closes (Runtime.brokenBy).
      if (trapped(e)) throw e;
      return false;
    }
  }

  /**
   * A stored table, or null (one stored before tables were kept whole is
   * dropped). A table stored by a Tablebase of another page size is kept
   * under that size's key, which this one does not read: it is left for
   * that one (purging it, the two made each other's tables again and again).
   */
  async fromDb(name) {
    this.swept ??= this.sweepOld().catch(() => {});
    const url = this.url(name);
    const known = await this.db.identity(url, true);
    if (!known) return null;
    const bytes = (await this.db.get(url, [WHOLE], known)).get(WHOLE);
    if (!bytes) return null;
    if (bytes.length === known.size) return bytes;
    await this.db.purge(url);
    return null;
  }

  /**
   * Records of an older values-file version (an older build's) are never
   * read again: let go once a Tablebase, in the background, rather than
   * left to the least-recently-used eviction while they count against
   * the budget. A newer build's (a tab of it open on the origin) stay.
   */
  async sweepOld() {
    for (const url of await this.db.urls('generated:v')) {
      const v = Number(/^generated:v(\d+)\//.exec(url)?.[1]);
      if (v < this.version) await this.db.purge(url);
    }
  }

  async toDb(name, bytes) {
    const url = this.url(name);
    const validator = `v${this.version}`;
    // Alone: a quota that refuses the table loses it, not the pages of
    // probes queued beside it.
    const write = this.db.store(url, { size: bytes.length, validator }, new Map([[WHOLE, bytes]]), null, true);
    this.writes.add(write);
    try {
      await write;
    } finally {
      this.writes.delete(write);
    }
  }

  startWorker() {
    this.checkOpen();
    if (this.worker) return;
    if (typeof Worker === 'undefined') throw fail('generating tables needs Web Workers', 'generate');
    let worker;
    try {
      worker = new Worker(new URL('./generate-worker.js', import.meta.url), { type: 'module' });
    } catch (e) {
      // A script from another origin than the page, or a Content Security Policy without worker-src.
      throw fail(`generating tables needs a Web Worker, which the page may not start: ${(e && e.message) || e}`, 'generate');
    }
    // Its first message comes once its module is in (the first job's
    // progress or answer): a load that stalls without failing would hold
    // every generated probe for good.
    const loading = setTimeout(() => this.lost(worker, `generation worker failed: its module did not load within ${WORKER_START_MS / 1000} s`), WORKER_START_MS);
    worker.onmessage = (e) => {
      clearTimeout(loading);
      const m = e.data;
      const job = this.jobs.get(m.id);
      if (!job) return;
      if (m.type === 'progress') job.progress(m.done, m.total);
      else if (m.type === 'error') {
        this.jobs.delete(m.id);
        const err = fail(m.message, 'generate');
        // A table given that does not read leaves the module as it was.
        if (m.unreadable) return job.reject(Object.assign(err, { unreadable: true }));
        // The module may be left broken (a trap, memory exhausted): start afresh.
        job.reject(err);
        this.lost(worker, `generation worker failed: ${m.message}`);
      } else {
        if (m.type === 'done') this.lastJob = performance.now();
        this.jobs.delete(m.id);
        job.resolve(m.bytes);
      }
    };
    worker.onerror = (e) => {
      if (e && e.preventDefault) e.preventDefault();
      this.lost(worker, `generation worker failed: ${(e && e.message) || 'it could not start or was stopped'}`);
    };
    worker.onmessageerror = () => this.lost(worker, 'generation worker failed: a message could not be read');
    this.worker = worker;
  }

  /**
   * The worker died or failed: its jobs fail with a 'generate' error (no
   * probe waits forever), and the next generation starts a fresh worker,
   * given the sub-tables each material needs.
   */
  lost(worker, message) {
    if (this.worker !== worker) return;
    this.stop();
    const err = fail(message, 'generate');
    for (const job of this.jobs.values()) job.reject(err);
    this.jobs.clear();
  }

  /** Stops the worker: the next generation starts a fresh one. */
  stop() {
    clearTimeout(this.idleTimer);
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.inWorker.clear();
  }

  /**
   * Stops the worker once it has had no job for WORKER_IDLE_MS and no
   * probe is under way: a probe between two of its jobs (waiting for a
   * lock, reading IndexedDB) counts on the tables the worker holds. Probes
   * the page's own tables answer do not keep it (and what it holds) alive.
   */
  idle() {
    clearTimeout(this.idleTimer);
    if (this.jobs.size || !this.worker) return;
    const worker = this.worker;
    const wait = Math.max(0, (this.lastJob ?? performance.now()) + WORKER_IDLE_MS - performance.now());
    this.idleTimer = setTimeout(() => {
      if (this.worker === worker && !this.jobs.size && this.active === 0 && this.pending.size === 0) this.stop();
    }, wait);
  }

  post(msg, progress = () => {}) {
    if (this.closed) return Promise.reject(fail('this Tablebase was closed', 'closed'));
    const id = this.nextId++;
    clearTimeout(this.idleTimer);
    const done = new Promise((resolve, reject) => {
      this.jobs.set(id, { resolve, reject, progress });
      this.worker.postMessage({ id, ...msg });
    });
    done.then(() => this.idle(), () => {});
    return done;
  }

  async generate(name, plan, later) {
    this.startWorker();
    // The worker needs the sub-tables it lacks: the plan made them ready
    // before this material (in the core, or in this worker), and none is
    // let go meanwhile.
    for (const child of this.core.constructor.generatedChildren(name).split(',').filter(Boolean)) {
      if (this.inWorker.has(child)) continue;
      if (!this.held.has(child)) throw fail(`the generated table ${child} is not at hand to make ${name}`, 'generate');
      this.give(child, this.core.generatedTable(child));
    }
    // From the worker's first report: time queued behind other jobs (its
    // inserts, another plan's material) is not this material's.
    let t0 = performance.now();
    let begun = false;
    const laterWeight = later.reduce((s, n) => s + weight(n), 0);
    const report = (done, total) => {
      const elapsed = performance.now() - t0;
      const fraction = total > 0 ? Math.min(1, done / total) : 0;
      // Time left: this material's pace, then the measured speed for the rest.
      const speed = fraction > 0.05 ? (weight(name) * fraction) / Math.max(1, elapsed) : this.speed;
      const leftHere = fraction > 0.05 ? (elapsed / fraction) * (1 - fraction) : speed ? weight(name) / speed : null;
      const etaMs = leftHere === null ? null : Math.round(leftHere + (speed ? laterWeight / speed : 0));
      this.emit({ material: name, target: plan.names[plan.names.length - 1], done, total, fraction, materials: plan.names, index: plan.index, elapsedMs: Math.round(performance.now() - plan.started), etaMs });
    };
    report(0, 0);
    const fromWorker = (done, total) => {
      if (!begun) {
        begun = true;
        t0 = performance.now();
      }
      report(done, total);
    };
    const bytes = await this.post({ type: 'generate', name }, fromWorker);
    this.inWorker.add(name);
    const ms = performance.now() - t0;
    this.counters.generateMs += ms;
    this.speed = weight(name) / Math.max(1, ms);
    report(1, 1);
    return bytes;
  }

  emit(p) {
    if (!this.onGenerate) return;
    try {
      this.onGenerate(p);
    } catch (e) {
      // A failing callback must not break generation.
    }
  }

}
