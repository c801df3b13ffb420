// What one probe experienced on the network: requests, bytes, waves and
// time. Waves count requests that had to wait for another to finish first:
// a request that starts after k waves of this probe's requests have
// finished is in wave k + 1, whether it waited for data (the next round)
// or for a connection (the browser's 6 per host over HTTP/1.1).

let traces = 0;

export class Trace {
  /** `method` ('probe' or 'mainline') of `fen`: whose figures these are. */
  constructor(method, fen) {
    this.id = ++traces;
    this.method = method;
    this.fen = String(fen).trim();
    this.started = performance.now();
    this.requests = 0;
    this.bytes = 0;
    this.rounds = 0;
    // Deepest wave of a finished request, and deepest wave started.
    this.finished = 0;
    this.waves = 0;
    this.outcomeMs = null;
    this.verdictMs = null;
    this.elapsedMs = null;
    // Attempts of the core (a synchronous run over the pages at hand) and
    // the main-thread time they took.
    this.attempts = 0;
    this.attemptMs = 0;
  }

  attempted(ms) {
    this.attempts++;
    this.attemptMs += ms;
  }

  /** A request passed the gate: its wave, to hand back to `end`. */
  start() {
    this.requests++;
    const wave = this.finished + 1;
    this.waves = Math.max(this.waves, wave);
    return wave;
  }

  end(wave, bytes) {
    this.finished = Math.max(this.finished, wave);
    this.bytes += bytes;
  }

  /** The position's WDL is known (its outcome); the verdict knows more, so it implies one. */
  outcome() {
    if (this.outcomeMs === null) this.outcomeMs = Math.round(performance.now() - this.started);
  }

  verdict() {
    this.outcome();
    if (this.verdictMs === null) this.verdictMs = Math.round(performance.now() - this.started);
  }

  /** The probe has answered (or failed): its time stops; returns itself. */
  finish() {
    if (this.elapsedMs === null) this.elapsedMs = Math.round(performance.now() - this.started);
    return this;
  }

  /** The figures `stats().last` reports. */
  summary() {
    return {
      id: this.id,
      method: this.method,
      fen: this.fen,
      requests: this.requests,
      bytes: this.bytes,
      waves: this.waves,
      rounds: this.rounds,
      elapsedMs: this.elapsedMs === null ? Math.round(performance.now() - this.started) : this.elapsedMs,
      outcomeMs: this.outcomeMs,
      verdictMs: this.verdictMs,
      attempts: this.attempts,
      attemptMs: Math.round(this.attemptMs),
    };
  }
}
