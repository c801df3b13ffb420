// The generated tables' plan when a table does not read (plain JS, no
// browser): a stand-in core, worker and IndexedDB, whose tables are
// names, drive the real generated.js and runtime.js. A stored table that
// only the worker reads and that it refuses is made again; a trap in the
// page's module is not taken for a bad record; a probe that fails still
// lets tables go down to the budget.
import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { Generated } from '../../src/web/generated.js';
import { Runtime } from '../../src/web/runtime.js';

// What each material is made from.
const CHILDREN = { KQvKQ: 'KQvK', KQvK: '', A: '', B: '' };

/** Tables are {name, bad?}; a bad one is refused where it is read. */
class Core {
  constructor() {
    this.lib = new Map();
    this.trap = false;
  }
  static generatedChildren(n) {
    return CHILDREN[n] ?? '';
  }
  // The header's check only: a bad record passes it.
  static isGeneratedTable(b, n) {
    return b.name === n;
  }
  static pieceCount() {
    return 3;
  }
  static generatedReads(fen) {
    return fen === 'P' ? 'A,B' : fen;
  }
  insertGenerated(b, n) {
    if (this.trap) throw new WebAssembly.RuntimeError('unreachable');
    if (b.bad) throw new Error('a value out of range');
    this.lib.set(n, b);
    return n;
  }
  generatedBytes() {
    return 100;
  }
  dropGenerated(n) {
    this.lib.delete(n);
  }
  generatedTable(n) {
    return this.lib.get(n);
  }
  // A probe of P reads A and B; of a material, itself.
  attemptGenerated(kind, fen) {
    const reads = Core.generatedReads(fen).split(',');
    const missing = reads.filter((n) => !this.lib.has(n));
    return JSON.stringify(missing.length ? { generate: missing, reads } : { done: { fen } });
  }
  pageSize() {
    return 4096;
  }
  bridgeBytes() {
    return 0;
  }
  memoryBytes() {
    return 0;
  }
  clear() {}
}

/** IndexedDB holding `records` (url -> table). */
function fakeDb(records) {
  const held = new Map(records);
  const purged = [];
  return {
    held,
    purged,
    identity: async (u) => (held.has(u) ? { size: 1 } : null),
    urls: async (prefix) => [...held.keys()].filter((u) => u.startsWith(prefix)),
    get: async (u) => new Map([[0, Object.assign({ length: 1 }, held.get(u))]]),
    purge: async (u) => {
      purged.push(u);
      held.delete(u);
    },
    alone: [],
    store: async function (u, id, m, saving, alone) {
      held.set(u, m.get(0));
      this.alone.push(alone);
      return true;
    },
  };
}

// Workers started, and every job each was sent ("insert KQvK").
let workers;
/** Generates any material; `failing` names one whose generation fails as memory running out does. */
function fakeWorkers(failing = null) {
  workers = [];
  globalThis.Worker = class {
    constructor() {
      this.jobs = [];
      workers.push(this);
    }
    postMessage(m) {
      this.jobs.push(`${m.type} ${m.name}`);
      setTimeout(() => {
        let data = { id: m.id, type: 'done', bytes: { name: m.name } };
        if (m.type === 'insert') {
          data = m.bytes.bad ? { id: m.id, type: 'error', message: 'a value out of range', unreadable: true } : { id: m.id, type: 'done' };
        } else if (m.name === failing) data = { id: m.id, type: 'error', message: this.fail || 'out of memory' };
        this.onmessage({ data });
      }, 1);
    }
    terminate() {}
  };
}

describe('generated tables that do not read', () => {
  beforeEach(() => fakeWorkers());

  it("a lock another tab holds past the wait's limit no longer holds this one: the table is made here", { timeout: 5000 }, async () => {
    // Web Locks whose holder never lets go: a request ends only by its signal.
    const asked = [];
    const locks = {
      request: (name, options, callback) =>
        new Promise((resolve, reject) => {
          asked.push(name);
          options.signal.addEventListener('abort', () => reject(options.signal.reason));
        }),
    };
    const had = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    Object.defineProperty(globalThis, 'navigator', { value: { locks }, configurable: true, writable: true });
    try {
      const db = fakeDb([]);
      const g = new Generated(new Core(), db, new Set(), 1e9, 3, null);
      g.lockWaitMs = 20;
      await g.ensure(['KQvK'], ['KQvK']);
      assert.deepEqual(asked, ['syzygy-web generated:v3/KQvK.swv']);
      assert.deepEqual(workers[0].jobs, ['generate KQvK']);
      assert.ok(db.held.has('generated:v3/KQvK.swv'), 'made and stored');
      g.close();
    } finally {
      if (had) Object.defineProperty(globalThis, 'navigator', had);
      else delete globalThis.navigator;
    }
  });

  it('a stored table only the worker reads, which it refuses, is made again and stored anew', async () => {
    const url = 'generated:v3/KQvK.swv';
    const db = fakeDb([[url, { name: 'KQvK', bad: true }]]);
    const g = new Generated(new Core(), db, new Set(), 1e9, 3, null);
    // KQvKQ is read (the core), KQvK only made from (the worker).
    await g.ensure(['KQvK', 'KQvKQ'], ['KQvKQ']);
    assert.deepEqual(db.purged, [url]);
    assert.equal(workers.length, 1, 'a refused table leaves the worker as it was');
    assert.deepEqual(workers[0].jobs, ['insert KQvK', 'generate KQvK', 'generate KQvKQ']);
    assert.equal(db.held.get(url).bad, undefined, 'the record made again replaces it');
    // Each table in a transaction of its own: a quota refusing one loses
    // no probe's pages queued beside it.
    assert.deepEqual(db.alone, [true, true]);
    g.close();
  });

  it("records of an older values-file version are let go, this version's and newer ones kept", async () => {
    const db = fakeDb([
      ['generated:v2/KQvK.swv', { name: 'KQvK' }],
      ['generated:v3/KRvK.swv', { name: 'KRvK' }],
      ['generated:v30/KRvK.swv', { name: 'KRvK' }],
      ['generated:v3/KQvK.swv', { name: 'KQvK' }],
    ]);
    const g = new Generated(new Core(), db, new Set(), 1e9, 3, null);
    await g.ensure(['KQvK'], ['KQvK']);
    await g.swept;
    // (A newer build's tab on the origin keeps its own.)
    assert.deepEqual(db.purged, ['generated:v2/KQvK.swv']);
    assert.ok(db.held.has('generated:v3/KRvK.swv') && db.held.has('generated:v30/KRvK.swv'));
    g.close();
  });

  it("a trap in the page's module loading a stored table keeps the table, and closes the Tablebase", async () => {
    const url = 'generated:v3/KQvK.swv';
    const db = fakeDb([[url, { name: 'KQvK' }]]);
    const core = new Core();
    core.trap = true;
    const g = new Generated(core, db, new Set(), 1e9, 3, null);
    await assert.rejects(g.ensure(['KQvK'], ['KQvK']), (e) => e instanceof WebAssembly.RuntimeError);
    assert.deepEqual(db.purged, []);
    g.close();
    // Through the runtime: `closed`, saying why.
    const rt = new Runtime(core, { urls: [], idbBudget: 0 }, 3);
    rt.generated.db = db;
    await assert.rejects(rt.analyse('KQvK', {}), (e) => e.code === 'closed' && /module failed/.test(e.message));
    assert.deepEqual(db.purged, []);
    // stats() still answers, where the core would throw.
    core.memoryBytes = () => {
      throw new Error('recursive use of an object detected which would lead to unsafe aliasing in rust');
    };
    assert.equal(rt.stats().memoryBytes, 0);
  });

  it("wasm-bindgen's error of a core a trap left mid-call closes the Tablebase too, and keeps stored tables", async () => {
    const url = 'generated:v3/KQvK.swv';
    const db = fakeDb([[url, { name: 'KQvK' }]]);
    const core = new Core();
    core.insertGenerated = () => {
      throw new Error('recursive use of an object detected which would lead to unsafe aliasing in rust');
    };
    const rt = new Runtime(core, { urls: [], idbBudget: 0 }, 3);
    rt.generated.db = db;
    await assert.rejects(rt.analyse('KQvK', {}), (e) => e.code === 'closed' && /recursive use/.test(e.message));
    assert.deepEqual(db.purged, [], 'not taken for a record that does not read');
  });

  it("the worker's stack overflow is a generate error, and the page's Tablebase stays open", async () => {
    fakeWorkers('KQvK');
    const core = new Core();
    const rt = new Runtime(core, { urls: [], idbBudget: 0 }, 3);
    // The worker's message, as a stack overflow there words it.
    globalThis.Worker.prototype.fail = 'Maximum call stack size exceeded';
    try {
      await assert.rejects(rt.analyse('KQvK', {}), (e) => e.code === 'generate');
    } finally {
      delete globalThis.Worker.prototype.fail;
    }
    assert.equal(rt.broken, null);
    await rt.close();
  });

  it("the trap's own words name it, not the recursive-use error a later call threw first", () => {
    const rt = new Runtime(new Core(), { urls: [], idbBudget: 0 }, 3);
    rt.noteTrap(new Error('recursive use of an object detected which would lead to unsafe aliasing in rust'));
    rt.noteTrap(new WebAssembly.RuntimeError('unreachable'));
    assert.match(rt.brokenBy(new Error('x')).message, /module failed \(unreachable\)/);
  });

  it('close() of a core a trap left mid-call, not yet seen, still closes', async () => {
    const core = new Core();
    core.clear = () => {
      throw new Error('recursive use of an object detected which would lead to unsafe aliasing in rust');
    };
    const rt = new Runtime(core, { urls: [], idbBudget: 0 }, 3);
    await rt.close();
    await assert.rejects(rt.analyse('KQvK', {}), (e) => e.code === 'closed');
  });

  it('the worker stops 30 s after its last job, however many probes the page answers meanwhile', () => {
    const g = new Generated(new Core(), fakeDb([]), new Set(), 1e9, 3, null);
    g.worker = { terminate() {} };
    g.lastJob = performance.now() - 20_000;
    const delays = [];
    const real = globalThis.setTimeout;
    globalThis.setTimeout = (fn, ms) => delays.push(ms);
    try {
      // A probe answered from the core's tables, 20 s after the last job.
      g.idle();
    } finally {
      globalThis.setTimeout = real;
    }
    assert.equal(delays.length, 1);
    assert.ok(delays[0] > 9_000 && delays[0] <= 10_000, `${delays[0]} ms`);
  });

  it('a trap in the module closes the Tablebase: this call and every later one reject closed, saying why', async () => {
    const core = new Core();
    const rt = new Runtime(core, { urls: [], idbBudget: 0 }, 3);
    core.attemptGenerated = () => {
      throw new WebAssembly.RuntimeError('unreachable');
    };
    const why = (e) => e.code === 'closed' && /WebAssembly module failed \(unreachable\)/.test(e.message);
    await assert.rejects(rt.analyse('KQvK', {}), why);
    // The core would now throw wasm-bindgen's uncoded "recursive use" error.
    core.attemptGenerated = () => {
      throw new Error('recursive use of an object detected which would lead to unsafe aliasing in rust');
    };
    await assert.rejects(rt.analyse('KRvK', {}), why);
    await assert.rejects(rt.mainline('KRvK', {}), why);
  });

  it('a probe whose plan fails still lets tables go down to the budget', async () => {
    fakeWorkers('B');
    const rt = new Runtime(new Core(), { urls: [], generatedBudget: 100, idbBudget: 0 }, 3);
    await rt.run('analyse', 'KQvK', {});
    // P's plan makes A (read: into the core), then B fails.
    await assert.rejects(rt.run('analyse', 'P', {}), (e) => e.code === 'generate');
    const held = [...rt.generated.held.values()].reduce((n, h) => n + h.bytes, 0);
    assert.ok(held <= 100, `${held} bytes held for a budget of 100`);
    await rt.close();
  });
});
