// The browser driver of syzygy-web. The Rust core (Core) answers a probe
// attempt from the pages it holds or names the pages it lacks; this file
// fetches them (IndexedDB first, then HTTP Range requests), supplies them,
// and tries again as each arrives. It also de-duplicates requests shared by
// concurrent probes, remembers each file's identity and where it was found.
//
// The other concerns live beside it: answers.js (a position's analysis in
// stages and its best line, built of this file's runs), options.js (the
// options checked),
// http.js (Range requests, retries, the
// concurrency gate, servers that ignore Range), file-open.js (a file's
// identity and head, and every answer's way into the core and IndexedDB),
// page-requests.js (a range's pages from IndexedDB or the network), page-db.js (the IndexedDB page
// cache), prefetch.js (whole files for offline use), generated.js (tables
// generated in a Web Worker, for positions of up to 4 pieces).

import { analysePosition, bestLine } from './answers.js';
import { fail, trapped } from './errors.js';
import { manifestBase, openFile, openStored } from './file-open.js';
import { checkOptions } from './options.js';
import { RANK } from './gate.js';
import { Generated, MAX_GENERATED_PIECES } from './generated.js';
import { RangeClient } from './http.js';
import { nextTask } from './next-task.js';
import { PageDb } from './page-db.js';
import { pagesFromDb, supplyPages } from './page-requests.js';
import { prefetchFiles } from './prefetch.js';

// Rounds of one probe (a mainline: of one step) before giving up, and
// attempts (one per arrival of what an attempt named).
const MAX_ROUNDS = 256;
const MAX_ATTEMPTS = 4096;
// A table found missing (404) is asked for again by probes starting this much later.
const ABSENT_TTL_MS = 1000;
// Traces stats().recent keeps.
const RECENT_TRACES = 8;

export class Runtime {
  constructor(core, options, formatVersion) {
    const checked = checkOptions(options);
    this.generateMode = checked.generate;
    this.urls = checked.urls;
    this.manifest = checked.manifest;
    // Every base URL a table may come from (the manifest's too): what the
    // page learns or presumes of their hosts' protocol (see RangeClient).
    this.bases = [...this.urls];
    for (const [name, v] of this.manifest ? Object.entries(this.manifest) : []) {
      try {
        this.bases.push(manifestBase(this, v));
      } catch (e) {
        throw fail(`Tablebase option manifest: ${name} -> ${JSON.stringify(v)} is not a URL`, 'options');
      }
    }
    this.core = core;
    this.pageSize = core.pageSize();
    // Gap a waiting page request is joined across (see page-requests.js).
    this.bridgeBytes = core.bridgeBytes();
    this.onProgress = checked.onProgress;
    this.db = new PageDb(checked.idbBudget, this.pageSize);
    // URLs a save is storing, not held whole before it (see close), and
    // the sweep of saves cut off on an earlier visit (see sweepSaves),
    // made a while after the first probe's reads.
    this.savesUnderWay = new Set();
    this.swept = null;
    setTimeout(() => this.closing || this.sweepSaves(), 5000);
    // file id -> {url, size, validator} once known in this session.
    this.files = new Map();
    // `${file}:${page}`, `open:${file}` or `stored:${file}` (opened from IndexedDB alone) -> {promise, prio} of the request bringing it.
    this.inflight = new Map();
    // Counts cache clears: file ids start again from 0 after one, so an
    // answer to a request made before it must not reach the core (see clearCache).
    this.epoch = 0;
    // The Trace of the last probe that used the network: stats().last. Its
    // requests and bytes go on counting requests still out when it
    // answered; its time stops there.
    this.lastTrace = null;
    // The last RECENT_TRACES such Traces, oldest first: stats().recent.
    this.recentTraces = [];
    // IndexedDB writes run beside the probe, not between its rounds (see
    // PageDb.store): every write not yet done, which a probe awaits before
    // it answers.
    this.writes = new Set();
    // url -> [{at (ms), version}]: its recent version changes (see accept.js).
    this.versionChanges = new Map();
    // file id -> {f (its open request), at (ms)}: files every location answered 404 for.
    this.absent = new Map();
    // base URL -> when a request there last failed (see candidates in file-open.js).
    this.failedBases = new Map();
    // url -> Set of page requests still waiting at the gate (see page-requests.js).
    this.waiting = new Map();
    // `${file}:${page}` IndexedDB was asked for and lacked (see fromIndexedDb).
    this.missedInDb = new Set();
    this.counters = {
      requests: 0,
      // Of those, answered with several ranges in one multipart body.
      multipartRequests: 0,
      bytes: 0,
      rounds: 0,
      retries: 0,
      pagesFromMemory: 0,
      pagesFromIndexedDb: 0,
      pagesFromNetwork: 0,
      requestsInFlight: 0,
      identityChanges: 0,
      // Answers of a file's version before a change, asked for before it (see accept.js).
      staleAnswers: 0,
    };
    this.http = new RangeClient(this.counters, checked.concurrency, checked.wholeBodyLimit, () => this.progress());
    // (A manifest names one base a table: none to fail over to.)
    this.http.mirrors = !this.manifest && this.urls.length > 1;
    for (const [url, e] of checked.early) {
      const controller = e.controller || new AbortController();
      this.http.early.set(url, { start: e.start > 0 ? e.start : 0, end: e.end, response: Promise.resolve(e.response), controller });
    }
    this.generated = new Generated(core, this.db, this.writes, checked.generatedBudget, formatVersion, checked.onGenerate);
    // close(): set once called; probes waiting on answers are woken by
    // their entry in `wakers` (one a probe, gone with it: a reaction a wait
    // on one promise for the Tablebase's life would be kept for good).
    this.closing = false;
    // The `closed` error of a core a trap left unusable, and the trap's
    // own error (see brokenBy).
    this.broken = null;
    this.trap = null;
    this.closed = null;
    this.wakers = new Set();
    // Calls of the Tablebase under way, and whether its wrapper was freed
    // (see release).
    this.calls = 0;
    this.released = false;
  }

  /**
   * The Tablebase's wasm wrapper was freed (`free()`, `using`, or garbage
   * collected): nothing can call this again, so it closes as soon as the
   * calls under way end (a probe started on a Tablebase dropped at once,
   * `new Tablebase(o).probe(fen)`, still answers).
   */
  release() {
    this.released = true;
    if (this.calls === 0) this.close().catch(() => {});
  }

  /** Runs a call of the Tablebase, counted for `release`. */
  async busy(call) {
    this.calls++;
    try {
      if (this.broken) throw this.broken;
      return await call();
    } catch (e) {
      this.noteTrap(e);
      throw this.brokenBy(e) || e;
    } finally {
      if (--this.calls === 0 && this.released) this.close().catch(() => {});
    }
  }

  /**
   * A trap in the module (its memory exhausted, say) leaves the core in
   * the middle of a call: later calls that change it throw wasm-bindgen's
   * "recursive use" error, which has no code, and what it held is never
   * let go. The Tablebase closes, and this call and every later one
   * reject `closed`, saying why (the first trap's own words, noted by
   * `noteTrap` where a later error hid it). A new Tablebase shares the
   * module's memory: after memory ran out only a reload cures it.
   */
  brokenBy(e) {
    if (this.broken) return this.broken;
    if (!trapped(e) && !this.trap) return null;
    const why = (this.trap || e).message;
    this.broken = fail(`this Tablebase stopped: its WebAssembly module failed (${why}); reload the page`, 'closed');
    this.close().catch(() => {});
    return this.broken;
  }

  /**
   * Keeps the trap's error, for `brokenBy`'s message; false if `e` is
   * none. The trap itself wins over the "recursive use" error a call
   * after it threw (a probe's `finally` runs before its caller sees the
   * trap).
   */
  noteTrap(e) {
    if (!trapped(e)) return false;
    const real = (x) => typeof WebAssembly !== 'undefined' && x instanceof WebAssembly.RuntimeError;
    if (!this.trap || (real(e) && !real(this.trap))) this.trap = e;
    return true;
  }

  analyse(fen, options) {
    return this.busy(() => analysePosition(this, fen, options));
  }

  mainline(fen, options) {
    return this.busy(() => bestLine(this, fen, options));
  }

  clearCache() {
    return this.busy(() => this.clearNow());
  }

  prefetch(fen, onProgress) {
    return this.busy(() => this.prefetchNow(fen, onProgress));
  }

  /**
   * Tablebase.legalMoves: synchronous, and answering after close() too
   * (it needs no table). The module is entered here, not in the wrapper,
   * so that a trap there (its memory exhausted, even copying the FEN in)
   * closes the Tablebase and throws `closed`, as the other calls reject.
   */
  legalMoves(fen) {
    if (this.broken) throw this.broken;
    let r;
    try {
      r = JSON.parse(this.core.constructor.legalMoves(fen));
    } catch (e) {
      this.noteTrap(e);
      throw this.brokenBy(e) || e;
    }
    if (r.error) throw fail(r.error, r.code);
    return r.moves;
  }

  /**
   * The files saved for offline use (by prefetch, in any tab) that
   * IndexedDB holds: {bytes, files (names, once each), urls}; a clear
   * would drop them too, which a page can ask its user about first.
   */
  saved() {
    return this.busy(async () => {
      this.checkOpen();
      await this.sweepSaves();
      const { urls, bytes } = await this.db.saved();
      const name = (u) => {
        const path = u.split(/[?#]/)[0];
        return path.slice(path.lastIndexOf('/') + 1) || u;
      };
      const files = [...new Set(urls.map(name))];
      return { bytes, files, urls };
    });
  }

  /** Throws code `closed` once close() was called. */
  checkOpen() {
    if (this.closing) throw fail('this Tablebase was closed', 'closed');
  }

  /**
   * Lets the Tablebase go on a long-lived page: probes under way and every
   * later call reject with code `closed`; the generation worker stops; the
   * IndexedDB writes queued land (nothing read is lost for the next visit)
   * and the connection closes; the pages held in memory are dropped.
   */
  close() {
    if (!this.closing) {
      this.closing = true;
      for (const wake of this.wakers) wake();
      // Answers still on their way belong to no probe now.
      this.epoch++;
      this.closed = (async () => {
        this.generated.close();
        this.http.close();
        while (this.writes.size) await this.stored();
        // Saves cut off here are not saves (their own undo may come after
        // the connection closed).
        for (const url of this.savesUnderWay) await this.db.unsave(url).catch(() => {});
        this.inflight.clear();
        this.waiting.clear();
        this.files.clear();
        // (A core a trap left mid-call throws: see brokenBy.)
        try {
          if (!this.broken) this.core.clear();
        } catch (e) {
          if (!this.noteTrap(e)) throw e;
        }
        await this.db.close();
      })();
    }
    return this.closed;
  }

  /**
   * Whether a position is answered from generated tables under `mode`
   * (the call's, else the Tablebase's): always when asked to, or ('auto')
   * when no URL or manifest is configured; in 'auto' with URLs, a missing
   * table also sends it there (see run).
   */
  generates(fen, mode) {
    if (mode === 'never') return false;
    const n = this.core.constructor.pieceCount(fen);
    if (n === 0 || n > MAX_GENERATED_PIECES) return false;
    // A manifest names where tables are: a URL as good as `urls`.
    return mode === 'always' || (this.urls.length === 0 && !this.manifest);
  }

  /**
   * A probe from generated tables: load or generate what it names, then
   * answer. With `stored`, only tables IndexedDB holds: null if one is not.
   */
  async runGenerated(kind, fen, stored = false) {
    const g = this.generated;
    g.active++;
    const mine = new Set();
    let answer = null;
    try {
      answer = await this.answerGenerated(kind, fen, stored, mine);
      // (Closed while it waited: the README's probes under way reject.)
      this.checkOpen();
    } finally {
      g.active--;
      g.unpin(mine);
      // What it read is kept; tables beyond the budget are let go (also
      // after a failure: a plan's tables made before it failed); a clear
      // asked for meanwhile is done, a failed probe's too.
      g.read(answer ? this.core.constructor.generatedReads(fen).split(',') : []);
      g.dropIfIdle();
      // Stops the worker once idle (a probe between its jobs held it).
      g.idle();
    }
    return answer;
  }

  async answerGenerated(kind, fen, stored, mine) {
    // Rounds: what IndexedDB holds, then what must be made, then the
    // answer; more only where another probe loads tables meanwhile.
    for (let round = 0; round < 6; round++) {
      const r = JSON.parse(this.core.attemptGenerated(kind, fen));
      if (r.done) return r.done;
      if (r.error) throw fail(r.error, r.code);
      this.generated.pin(mine, [...r.generate, ...r.reads]);
      if (!stored) await this.generated.ensure(r.generate, r.reads);
      else if (!(await this.generated.ensureStored(r.reads))) return null;
    }
    throw fail('generated tables did not answer', 'generate');
  }

  stats() {
    return {
      ...this.counters,
      cacheBytes: this.db.bytes,
      tablesGenerated: this.generated.counters.generated,
      tablesFromIndexedDb: this.generated.counters.fromIndexedDb,
      tablesLetGo: this.generated.counters.letGo,
      generatedBytes: [...this.generated.held.values()].reduce((n, h) => n + h.bytes, 0),
      generateMs: Math.round(this.generated.counters.generateMs),
      memoryBytes: this.memoryBytes(),
      writesPending: this.writes.size,
      indexedDb: this.db.state,
      multiplexed: this.http.multiplexed,
      link: this.http.link.summary(),
      last: this.lastTrace && this.lastTrace.summary(),
      recent: this.recentTraces.map((t) => t.summary()),
    };
  }

  /** The core's memory, 0 once a trap left it unusable (stats keeps working then). */
  memoryBytes() {
    if (this.broken) return 0;
    try {
      return this.core.memoryBytes();
    } catch (e) {
      if (!this.brokenBy(e)) throw e;
      return 0;
    }
  }

  /**
   * A probe's or line's Trace once it answers, if it used the network:
   * stats().last, and among stats().recent (a caller finds its own call's
   * there though another finished after it).
   */
  noteTrace(trace) {
    // Once: a probe's `finally` must not put it back after a later call's.
    if (trace.requests === 0 || trace.noted) return;
    trace.noted = true;
    this.lastTrace = trace.finish();
    this.recentTraces.push(trace);
    if (this.recentTraces.length > RECENT_TRACES) this.recentTraces.shift();
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

  /**
   * Runs a probe to completion: attempt, supply what it names, repeat.
   * `ask` is {trace, prio, generate?, counted?, ride?}: who counts its
   * requests, their priority, the call's generate mode (else the
   * Tablebase's), whether its rounds are the trace's (else only the move
   * list's are), and (false) that no move list follows a verdict, whose
   * reads then ride along with nothing (see Core.setMovesRide).
   */
  async run(kind, fen, ask) {
    if (typeof fen !== 'string') throw fail('FEN must be a string', 'invalid-fen');
    this.checkOpen();
    // Generated tables hold no request back (see `probe`).
    const generated = (offline) => {
      if (ask.release) ask.release();
      return this.runGenerated(kind, fen, offline);
    };
    const mode = ask.generate || this.generateMode;
    if (this.generates(fen, mode)) return generated(false);
    try {
      return await this.runTables(kind, fen, ask);
    } catch (e) {
      const within = mode === 'auto' && this.core.constructor.pieceCount(fen) <= MAX_GENERATED_PIECES;
      // 'auto': a table no URL has is generated instead, within reach.
      if (within && e && e.code === 'missing-table') return generated(false);
      // Offline (or the host down): tables generated on an earlier visit,
      // kept in IndexedDB, still answer; nothing is generated for it.
      if (within && e && e.code === 'network') {
        // (Closed meanwhile: `closed`, as for every probe under way.)
        const r = await generated(true).catch((g) => {
          if ((g && g.code === 'closed') || trapped(g)) throw g;
          return null;
        });
        if (r) return r;
      }
      if (e && e.code === 'missing-table') {
        const denied = [...this.http.forbidden].filter((u) => e.message.includes(u.slice(u.lastIndexOf('/') + 1)));
        if (denied.length && !e.message.includes('403 Forbidden')) e.message += ` (${denied.join(', ')} answered 403 Forbidden: absent on an S3-style host, or access denied)`;
      }
      throw e;
    }
  }

  /**
   * Attempts again as each supply arrives, not once a whole round has:
   * what the new bytes let the probe see further goes out at once, beside
   * requests still in flight, so connections do not idle while the slowest
   * request of a round is out. A round is a depth: a request issued after
   * the answers of round k arrived is in round k + 1.
   */
  async runTables(kind, fen, ask) {
    const tick = this.core.begin();
    const started = Date.now();
    // Supplies this probe waits for, by what the core named: key -> promise.
    const pending = new Map();
    // Supplies that failed for good: key -> {f (what was named), error}.
    const failed = new Map();
    let arrived = 0; // deepest round whose supply has arrived
    let rounds = 0;
    const first = kind === 'verdict' || kind === 'outcome';
    for (const u of this.bases) this.http.learnOrigin(u);
    this.http.presume(this.bases);
    let wake;
    const woken = new Promise((resolve) => this.wakers.add((wake = resolve)));
    try {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        this.checkOpen();
        // A clear meanwhile numbered files anew: failures of before name
        // other files now, and the probe asks again.
        for (const [key, x] of failed) if (x.epoch !== this.epoch) failed.delete(key);
        // The verdict's speculative reads fill only the connections its
        // rounds leave idle, so that it comes in as few waves as it can
        // (see freeConnections). Other probes name them all: beside a
        // verdict their requests wait for its requests anyway, and the
        // move list needs most of them. Once a supply has failed, none:
        // whether the probe fails depends on whether it needs what failed.
        const connections = failed.size ? 1 : first ? this.freeConnections(pending.size, ask.prio.rank) : 0;
        this.core.setConnections(connections);
        // On a slow link the bytes of a sparse index cost more than the round it saves.
        this.core.setSparseInHead(!this.http.link.slow());
        // Where requests queue for connections (HTTP/1.1) and bytes are
        // cheap, a table's whole index comes with its head: later lookups
        // then cost a request for their data only.
        this.core.setIndexInHead(!this.http.gate.wide && this.http.link.roomy());
        // A request a file a round, once the server has shown it answers
        // several ranges in one.
        this.core.setSeveralRanges(this.bases.length > 0 && this.bases.every((u) => this.http.several.allowed(u)));
        // A multiplexed host runs every request at once: searches then
        // also name what lies a step past the answers they wait for.
        this.core.setMultiplexed(this.http.gate.wide && !this.http.presumed && !this.http.link.slow());
        // Once a supply has failed, no gaps bridged: offline, IndexedDB
        // holds what earlier probes read, which need not include them.
        this.core.setBridgeGaps(!failed.size);
        // Over HTTP/1.1 the verdict's round of more ranges than free
        // connections would take a wave more: it joins ranges of a file
        // across gaps the link brings in less than a round trip.
        this.core.setJoinBudget(first && !this.http.gate.wide ? this.http.link.joinBytes() : 0);
        // There the verdict's requests also carry what the move list beside
        // it needs next, where that adds no request (see Core.setMovesRide).
        this.core.setMovesRide(kind === 'verdict' && ask.ride !== false && !this.http.gate.wide && !this.http.link.slow());
        const t0 = performance.now();
        const r = JSON.parse(this.core.attempt(kind, fen));
        ask.trace.attempted(performance.now() - t0);
        if (r.done) {
          this.counters.pagesFromMemory += this.core.lastReads();
          return r.done;
        }
        if (r.error && r.code === 'missing-table' && (await this.recheckAbsent(r.error, started, ask))) continue;
        if (r.error) throw fail(r.error, r.code);
        for (const { f, error } of failed.values()) {
          if (r.need.some((g) => g.file === f.file && (f.open || (g.start < f.end && f.start < g.end)))) throw error;
        }
        // IndexedDB first, as a round that costs nothing: what it holds may
        // settle the reads that named the rest (a capture that already
        // wins ends a search), and the network is asked only for what an
        // attempt with those pages still names. A revisit then reads what
        // the visit before read, in whatever order that visit's answers came.
        if (await this.fromIndexedDb(r.need, ask)) continue;
        const round = arrived + 1;
        if (round > MAX_ROUNDS) break;
        const epoch = this.epoch;
        for (const [key, f, supply] of this.supplies(r.need, ask, r.gaps)) {
          if (pending.has(key)) continue;
          const settle = (ok) => (error) => {
            pending.delete(key);
            if (ok) arrived = Math.max(arrived, round);
            else failed.set(key, { f, error, epoch });
          };
          pending.set(key, supply().then(settle(true), settle(false)));
          if (round > rounds) {
            rounds = round;
            this.counters.rounds++;
            if (ask.prio.rank === RANK.moves || ask.counted) ask.trace.rounds++;
          }
        }
        if (!pending.size) throw fail('internal: a probe named nothing to fetch', 'network');
        await Promise.race([...pending.values(), woken]);
        // Answers arriving together (a round's, within a few ms) cost one
        // attempt, not one each: the attempt waits for the tasks already
        // queued, which may bring more of them.
        await nextTask(ask.prio.rank);
      }
      throw fail('probe did not converge', 'network');
    } finally {
      this.wakers.delete(wake);
      // (After a trap in this probe, its own error, not this call's.)
      try {
        this.core.end(tick);
      } catch (e) {
        if (!this.noteTrap(e)) throw e;
      }
    }
  }

  /**
   * Connections the verdict's next requests may take, `pending` of its
   * supplies being out (in flight, or waiting at the gate or on IndexedDB):
   * all of them at first. Over HTTP/1.1 later, those its pending supplies
   * leave free: the move list's requests would take
   * them otherwise, and a read the verdict then comes to need waits a
   * round for a free one (KBBBvK over HTTP/1.1 at 100 ms a request: its
   * DTZ block waited for the WDL block's answer, verdict 0.38 s; now it
   * goes beside it, 0.25-0.28 s, medians of 3 runs). A multiplexed host takes
   * only reads riding along with needed ones: they would add bytes to a
   * round that no connection limit slows. Requests of a higher `rank` in
   * flight (the outcome's, for the verdict) hold connections either way:
   * a round planned for them too takes a wave more (the KQRvKR position
   * of the cold benchmark, black to move: 7 requests for 6 connections).
   */
  freeConnections(pending, rank) {
    const gate = this.http.gate;
    const size = gate.size - gate.runningAbove(rank);
    if (!pending) return Math.max(1, size);
    return gate.wide ? 1 : Math.max(1, size - pending);
  }

  /**
   * Opens the files `need` names that IndexedDB holds, and hands the core
   * the pages it holds among the ranges `need` names (of files it may hold
   * pages of, none in memory or on their way): true when it did any.
   * Nothing goes to the network here; pages looked for and not found are
   * remembered (`missedInDb`), so that their request does not look again.
   */
  async fromIndexedDb(need, ask) {
    const looks = [];
    const epoch = this.epoch;
    if (!this.db.mayHold()) return false;
    await this.db.ready;
    // Cleared meanwhile: the core numbers files anew, and `need` names them as before.
    if (epoch !== this.epoch) return true;
    for (const f of need) {
      if (f.open) {
        // One being opened already is joined by the round that follows. Its
        // own key: a network open joining a look that finds nothing would
        // arrive with the file still unopened, a round spent.
        if (!this.inflight.has(`open:${f.file}`)) looks.push(this.shared(`stored:${f.file}`, () => openStored(this, f), ask).catch(() => false));
        continue;
      }
      const file = this.files.get(f.file);
      // Opened while the database opened unlooked (see PageDb.mayHold): it may hold pages of it after all.
      if (file && file.idb === null) file.idb = this.db.heldAtOpen.has(file.url);
      if (!file || !(file.idb || file.stored?.size)) continue;
      const wanted = [];
      for (let p = Math.floor(f.start / this.pageSize); p <= Math.floor((f.end - 1) / this.pageSize); p++) {
        const k = `${f.file}:${p}`;
        if (!this.core.hasPage(f.file, p) && !this.inflight.has(k) && !this.missedInDb.has(k)) wanted.push(p);
      }
      if (!wanted.length) continue;
      looks.push(
        pagesFromDb(this, f.file, file, wanted).then((got) => {
          // (Not one that came meanwhile, from the network or another look.)
          if (got && epoch === this.epoch) for (const p of wanted) if (!got.has(p) && !this.core.hasPage(f.file, p)) this.missedInDb.add(`${f.file}:${p}`);
          return got;
        }),
      );
    }
    if (!looks.length) return false;
    const found = (await Promise.all(looks)).some((got) => got === true || (got && got.size > 0));
    return found || epoch !== this.epoch;
  }

  /** [key, f, start] per item f of what an attempt named: opens, then ranges of pages (see supplyPages for `gaps`). */
  supplies(need, ask, gaps = []) {
    const out = [];
    for (const f of need.filter((f) => f.open)) {
      const key = `open:${f.file}`;
      out.push([key, f, () => this.shared(key, (job) => openFile(this, f, job), ask)]);
    }
    for (const f of need.filter((f) => !f.open)) out.push([`${f.file}:${f.start}-${f.end}`, f, () => supplyPages(this, f, ask, gaps)]);
    return out;
  }

  /**
   * The core remembers a missing file for good; the runtime asks again for
   * the files a missing-table error names when they were found missing
   * (ABSENT_TTL_MS) before this probe started. True when it did.
   */
  async recheckAbsent(message, started, ask) {
    const stale = [...this.absent.values()].filter((a) => a.at + ABSENT_TTL_MS <= started && message.includes(a.f.name));
    if (!stale.length) return false;
    this.counters.rounds++;
    // The entry goes once the file opened (a new 404 records a new one):
    // probes at the same time join the same open rather than find no entry
    // and fail, and an open that fails (offline for a moment) rejects this
    // probe with its error and leaves the next one to ask again.
    await Promise.all(
      stale.map(async (a) => {
        await this.shared(`open:${a.f.file}`, (job) => openFile(this, a.f, job), ask);
        if (this.absent.get(a.f.file) === a) this.absent.delete(a.f.file);
      }),
    );
    return true;
  }

  /**
   * One promise per key while in flight, shared by every probe that needs
   * it. The job gets its own priority, raised when a higher-ranked probe joins it.
   */
  shared(key, make, ask) {
    const running = this.inflight.get(key);
    if (running) return this.join(running, ask);
    const job = { trace: ask.trace, prio: { rank: ask.prio.rank } };
    const entry = { prio: job.prio, promise: null };
    entry.promise = make(job).finally(() => {
      if (this.inflight.get(key) === entry) this.inflight.delete(key);
    });
    this.inflight.set(key, entry);
    return entry.promise;
  }

  join(entry, ask) {
    if (ask.prio.rank > entry.prio.rank) {
      entry.prio.rank = ask.prio.rank;
      this.http.gate.kick();
    }
    return entry.promise;
  }

  /** Resolves once every IndexedDB write queued so far is done. */
  stored() {
    return Promise.all([...this.writes]);
  }

  /**
   * Forgets every page, in memory and in IndexedDB. Requests still out
   * (a probe in progress, the rest of a head) are forgotten too: the core
   * numbers files from 0 again, so their answers, under the ids of before,
   * are dropped (`epoch`), and a probe in progress asks again.
   */
  async clearNow() {
    this.checkOpen();
    this.http.clear();
    this.epoch++;
    this.inflight.clear();
    this.waiting.clear();
    this.missedInDb.clear();
    this.core.clear();
    this.generated.clear();
    this.files.clear();
    this.absent.clear();
    // Writes queued before the clear land before it, those of answers
    // taken in after it (a probe asking again) after it (see PageDb.clear).
    await this.db.clear(this.stored());
  }

  /** Whole files into IndexedDB, in 1 MiB requests, within the budget. */
  async prefetchNow(fen, onProgress) {
    const r = JSON.parse(this.core.constructor.prefetchFiles(fen));
    if (r.error) throw fail(r.error, r.code);
    const names = r.files;
    this.checkOpen();
    if (onProgress != null && typeof onProgress !== 'function') throw fail('prefetch onProgress must be a function', 'options');
    await this.sweepSaves();
    return prefetchFiles(this, names, onProgress);
  }

  /**
   * Files marked saved that are not whole (a save cut off by a reload or
   * a closed tab) lose the mark (PageDb.unsavePartial): once a Tablebase,
   * before its first save or list of saves, else a while after it opens.
   */
  sweepSaves() {
    if (!this.swept) this.swept = this.db.unsavePartial().catch(() => {});
    return this.swept;
  }
}
