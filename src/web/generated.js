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
// In IndexedDB a generated table is one record, so the page cache's LRU
// keeps or evicts it whole: part of a table is of no use.

import { fail } from './errors.js';

// Pieces of the largest material generated in a browser (see generator.rs).
export const MAX_GENERATED_PIECES = 4;

// The page number under which a generated table's whole file is stored.
const WHOLE = 0;

/** Positions to generate for a material: its name's pieces, as a rough weight for estimates. */
function weight(name) {
  const pieces = name.replace('v', '').length;
  return Math.pow(64, pieces - 2);
}

export class Generated {
  /**
   * `core` answers from the tables; `db` is the PageDb; `writes` the
   * runtime's set of IndexedDB writes in flight (clearCache waits for
   * them); `version` the generator's format version; `onGenerate` receives
   * progress reports.
   */
  constructor(core, db, writes, pageSize, version, onGenerate) {
    this.core = core;
    this.db = db;
    this.writes = writes;
    this.pageSize = pageSize;
    this.version = version;
    this.onGenerate = onGenerate;
    // Materials the core holds.
    this.held = new Set();
    // name -> promise of its loading or generation.
    this.pending = new Map();
    // Materials the worker holds (given or made), and those held here that
    // it lacks (name -> bytes, or null: ask the core, so that a table read
    // from IndexedDB is not kept twice), handed over when it next
    // generates.
    this.inWorker = new Set();
    this.toWorker = new Map();
    this.worker = null;
    this.jobs = new Map();
    this.nextId = 1;
    // Measured generation speed (weight units per ms), for estimates.
    this.speed = null;
    this.counters = { generated: 0, fromIndexedDb: 0, generateMs: 0 };
  }

  url(name) {
    return `generated:v${this.version}/${name}.swv`;
  }

  /** Makes sure the core holds every material of `names` (dependencies first). */
  async ensure(names) {
    const started = performance.now();
    const plan = { names, index: 0, started };
    for (let i = 0; i < names.length; i++) {
      plan.index = i;
      await this.one(names[i], plan, names.slice(i + 1));
    }
  }

  /**
   * Makes the core hold every material of `names` from IndexedDB alone
   * (offline, say): false, with nothing generated, if one is not stored.
   */
  async ensureStored(names) {
    for (const name of names) {
      if (this.held.has(name)) continue;
      const bytes = await this.fromDb(name);
      if (!bytes || !this.insert(name, bytes)) return false;
      this.counters.fromIndexedDb++;
      this.keep(name);
    }
    return true;
  }

  one(name, plan, later) {
    if (this.held.has(name)) return Promise.resolve();
    let p = this.pending.get(name);
    if (!p) {
      p = this.load(name, plan, later).finally(() => this.pending.delete(name));
      this.pending.set(name, p);
    }
    return p;
  }

  async load(name, plan, later) {
    let bytes = await this.fromDb(name);
    if (bytes && !this.insert(name, bytes)) {
      await this.db.purge(this.url(name));
      bytes = null;
    }
    if (bytes) {
      this.counters.fromIndexedDb++;
    } else {
      bytes = await this.generate(name, plan, later);
      if (!this.insert(name, bytes)) throw fail(`the generated table ${name} does not read`, 'generate');
      this.counters.generated++;
      await this.toDb(name, bytes);
    }
    this.keep(name);
  }

  /** The core holds `name`; the worker gets it as a sub-table for later materials. */
  keep(name) {
    if (!this.inWorker.has(name)) this.toWorker.set(name, null);
    this.held.add(name);
  }

  /**
   * Gives the core a stored table; false when it does not read or holds
   * another material (a record of another table under this name).
   */
  insert(name, bytes) {
    try {
      return this.core.insertGenerated(bytes) === name;
    } catch (e) {
      return false;
    }
  }

  /** A stored table, or null (one stored before tables were kept whole is dropped). */
  async fromDb(name) {
    const url = this.url(name);
    const known = await this.db.identity(url);
    if (!known) return null;
    const bytes = (await this.db.get(url, [WHOLE], known)).get(WHOLE);
    if (bytes && bytes.length === known.size) return bytes;
    await this.db.purge(url);
    return null;
  }

  async toDb(name, bytes) {
    const url = this.url(name);
    const validator = `v${this.version}`;
    const write = this.db.store(url, { size: bytes.length, validator }, new Map([[WHOLE, bytes]]));
    this.writes.add(write);
    try {
      await write;
    } finally {
      this.writes.delete(write);
    }
  }

  startWorker() {
    if (this.worker) return;
    if (typeof Worker === 'undefined') throw fail('generating tables needs Web Workers', 'generate');
    let worker;
    try {
      worker = new Worker(new URL('./generate-worker.js', import.meta.url), { type: 'module' });
    } catch (e) {
      // A script from another origin than the page, or a Content Security Policy without worker-src.
      throw fail(`generating tables needs a Web Worker, which the page may not start: ${(e && e.message) || e}`, 'generate');
    }
    worker.onmessage = (e) => {
      const m = e.data;
      const job = this.jobs.get(m.id);
      if (!job) return;
      if (m.type === 'progress') job.progress(m.done, m.total);
      else if (m.type === 'error') {
        // The module may be left broken (a trap, memory exhausted): start afresh.
        this.jobs.delete(m.id);
        job.reject(fail(m.message, 'generate'));
        this.lost(worker, `generation worker failed: ${m.message}`);
      } else {
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
   * to which every table held here is handed again.
   */
  lost(worker, message) {
    if (this.worker !== worker) return;
    worker.terminate();
    this.worker = null;
    const err = fail(message, 'generate');
    for (const job of this.jobs.values()) job.reject(err);
    this.jobs.clear();
    this.inWorker.clear();
    for (const name of this.held) if (!this.toWorker.has(name)) this.toWorker.set(name, null);
  }

  post(msg, progress = () => {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.jobs.set(id, { resolve, reject, progress });
      this.worker.postMessage({ id, ...msg });
    });
  }

  async generate(name, plan, later) {
    this.startWorker();
    // The worker needs every sub-table this core holds and it lacks.
    for (const [held, bytes] of this.toWorker) {
      // Its failure fails the generation below too, which reports it.
      this.post({ type: 'insert', name: held, bytes: bytes || this.core.generatedTable(held) }).catch(() => {});
      this.inWorker.add(held);
    }
    this.toWorker.clear();
    const t0 = performance.now();
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
    const bytes = await this.post({ type: 'generate', name }, report);
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
