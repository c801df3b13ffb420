// The Web Worker that generates tables, so that generation never blocks the
// page. It loads its own wasm module (pkg/worker/: the generator, which the
// page's decoder module leaves out) and keeps the tables it
// made or was given (sub-tables of later materials). Messages in:
// {id, type: 'insert', bytes} and {id, type: 'generate', name}; out:
// {id, type: 'progress', name, done, total}, {id, type: 'done', bytes?} and
// {id, type: 'error', message, unreadable} (unreadable: a table given
// that does not read, the module intact). Imported outside a worker it does nothing
// (and imports only errors.js, which the page has anyway).

import { trapped } from './errors.js';


// Progress messages at most this often (ms): a table reports every 64 K positions.
const PROGRESS_EVERY_MS = 100;

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  let generator = null;
  // Imported here, not at the top: the page's module graph (and the
  // wasm-bindgen test harness, where this path does not exist) loads this
  // file too, and only the worker needs the generator's module.
  const ready = import('../../../../worker/generator.js').then(async ({ default: init, Generator }) => {
    await init();
    generator = new Generator();
  });
  // One job at a time, in arrival order: a material's sub-tables are
  // inserted or generated before it.
  let queue = Promise.resolve();
  self.onmessage = (event) => {
    const m = event.data;
    queue = queue.then(() => handle(m));
  };
  async function handle(m) {
    try {
      await ready;
      if (m.type === 'insert') {
        if (!generator.has(m.name)) {
          try {
            generator.insert(m.bytes, m.name);
          } catch (err) {
            // An error the module returned for these bytes (not a trap,
            // a stack overflow or a failed allocation; not a module that
            // failed to load): the table does not read, and the module is
            // as it was.
            if (!(err instanceof Error) || trapped(err)) throw err;
            self.postMessage({ id: m.id, type: 'error', message: String((err && err.message) || err), unreadable: true });
            return;
          }
        }
        self.postMessage({ id: m.id, type: 'done' });
      } else if (m.type === 'generate') {
        // Its start, after the jobs queued before it: the page times it from here.
        self.postMessage({ id: m.id, type: 'progress', name: m.name, done: 0, total: 0 });
        let done = 0;
        let last = 0;
        const bytes = generator.generate(m.name, (material, units, total) => {
          done += units;
          const now = performance.now();
          if (now - last < PROGRESS_EVERY_MS) return;
          last = now;
          self.postMessage({ id: m.id, type: 'progress', name: m.name, done, total });
        });
        self.postMessage({ id: m.id, type: 'done', bytes }, [bytes.buffer]);
      }
    } catch (err) {
      self.postMessage({ id: m.id, type: 'error', message: String((err && err.message) || err) });
    }
  }
}
