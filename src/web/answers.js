// The two answers of a Tablebase built of probe runs (Runtime.run): a
// position's analysis, handed over in stages as each is known, and its
// best line, step by step.

import { fail } from './errors.js';
import { RANK } from './gate.js';
import { Trace } from './trace.js';

// A call's `generate` overrides the Tablebase's for that call: 'always'
// asks a hosted Tablebase for the mate distances of a position of up to 4
// pieces (the board's "Mate in N" beside the host's DTZ).
const MODES = ['auto', 'always', 'never'];
const MODE_RULE = ", and whose generate, if any, is 'auto', 'always' or 'never'";
const modeOk = (options) => options.generate == null || MODES.includes(options.generate);
const movesOk = (options) => options.moves == null || typeof options.moves === 'boolean';
/** The call's generate mode; undefined: the Tablebase's. */
const modeOf = (options) => (options && options.generate != null ? options.generate : undefined);

/**
 * tb.probe: the analysis of a position. With `onUpdate`, the position's
 * own result runs beside it with its requests first in line, in two
 * steps handed over as soon as each is known:
 * onUpdate({stage: 'outcome', result}) from the WDL alone (`dtz` and
 * `precise` null; only where the WDL decides the category: the halfmove
 * clock at 0 or a result the clock cannot change), then
 * onUpdate({stage: 'verdict', result}) with its DTZ, no moves yet, then
 * onUpdate({stage: 'complete', result}) as soon as the move list is
 * known. The promise resolves once the pages read are in IndexedDB too
 * (a reload then finds them): over HTTP/2 the last round's answers
 * arrive together and their write took 8-77 ms after the answer.
 * A stage whose successor came first is skipped.
 * With `moves: false` the verdict is the answer (`moves` empty, no
 * 'complete' update): the move list's tables are never asked for.
 */
export async function analysePosition(rt, fen, options) {
  if (options != null && (typeof options !== 'object' || (options.onUpdate != null && typeof options.onUpdate !== 'function') || !modeOk(options) || !movesOk(options))) {
    throw fail(`probe options must be an object whose onUpdate, if any, is a function, whose moves, if any, is a boolean${MODE_RULE}`, 'options');
  }
  const onUpdate = (options && options.onUpdate) || null;
  const generate = modeOf(options);
  const verdictOnly = Boolean(options && options.moves === false);
  const trace = new Trace('probe', fen);
  let stage = 0;
  // No update after the promise settled: the outcome's and verdict's
  // runs may finish after the full analysis failed.
  let settled = false;
  const STAGES = ['outcome', 'verdict', 'complete'];
  const notify = (name, result) => {
    const k = STAGES.indexOf(name) + 1;
    if (!onUpdate || settled || k <= stage) return;
    stage = k;
    try {
      onUpdate({ stage: name, result });
    } catch (e) {
      // A failing callback must not break probing.
    }
  };
  const outcome = (r) => {
    trace.outcome();
    if (r.category) notify('outcome', { ...r, moves: [] });
  };
  const verdict = (r) => {
    // stats().last.outcomeMs and verdictMs stay null without onUpdate.
    if (onUpdate) trace.verdict();
    notify('verdict', { ...r, moves: [] });
  };
  try {
    if (verdictOnly) {
      // The outcome's requests still go first; the verdict's are the last.
      // (Its rounds are the trace's: `counted`; no move list's reads ride
      // along with its requests: `ride` false.)
      const ask = (rank) => ({ trace, prio: { rank }, generate, counted: rank === RANK.verdict, ride: false });
      if (onUpdate) rt.busy(() => rt.run('outcome', fen, ask(RANK.outcome))).then(outcome, () => {});
      const r = await rt.run('verdict', fen, ask(RANK.verdict)).catch(async (e) => {
        throw await withWdlAnswer(rt, fen, e, trace, generate, 'outcome');
      });
      const result = { ...r, moves: [] };
      trace.verdict();
      notify('verdict', result);
      rt.noteTrace(trace);
      await rt.stored();
      return result;
    }
    if (onUpdate) {
      // The outcome's requests first, then the verdict's, then the move
      // list's. On a slow link the move list waits for the verdict: its
      // requests would share the verdict's bandwidth. The verdict does not
      // wait for the outcome: a pawn about to promote has its DTZ in the
      // promoted table, whose head then comes beside the outcome's pages
      // rather than after them (the phone profile's promotions: DTZ on
      // screen 2.3-2.4 s instead of 2.9-3.1 s, and the result no later).
      // On a fast link the move list only keeps out of the verdict's way:
      // over HTTP/1.1 its requests take the connections a round of the
      // verdict's leaves idle, going out with it; from a host found to be
      // multiplexed they go at once.
      const ask = (rank) => ({ trace, prio: { rank }, generate });
      const release = rt.http.gate.hold(RANK.verdict, !rt.http.link.slow());
      // (Counted as calls: a freed Tablebase closes after them too.)
      rt.busy(() => rt.run('outcome', fen, ask(RANK.outcome))).then(outcome, () => {});
      // A verdict from a table being generated needs no network: its
      // hold ends where the generation starts, not with it.
      rt.busy(() => rt.run('verdict', fen, { ...ask(RANK.verdict), release }))
        .then(verdict, () => {})
        .finally(release);
    }
    const full = await rt.run('analyse', fen, { trace, prio: { rank: RANK.moves }, generate }).catch(async (e) => {
      throw await withWdlAnswer(rt, fen, e, trace, generate);
    });
    verdict(full);
    rt.noteTrace(trace);
    notify('complete', full);
    await rt.stored();
    return full;
  } finally {
    settled = true;
    rt.noteTrace(trace);
  }
}

/**
 * `e`, and where it is a missing DTZ table (a host of WDL tables alone, as
 * most 6- and 7-piece mirrors are), the answer the WDL tables still give
 * as its `result`: the position's WDL and every move's, ranked (`kind`
 * 'wdl'; 'outcome': the position's alone, `moves` empty), with `dtz`,
 * `precise` and `dtm` null, and `error` and `code` as the error's.
 */
async function withWdlAnswer(rt, fen, e, trace, generate, kind = 'wdl') {
  if (!e || e.code !== 'missing-table' || !/\.rtbz\b/.test(e.message)) return e;
  try {
    const answer = await rt.run(kind, fen, { trace, prio: { rank: kind === 'wdl' ? RANK.moves : RANK.verdict }, generate, counted: kind !== 'wdl' });
    e.result = { ...answer, ...(kind === 'wdl' ? {} : { moves: [] }), error: e.message, code: e.code };
  } catch {
    /* the error as it was */
  }
  return e;
}

/**
 * Best play to the next zeroing move or mate; from generated tables (mate
 * distances known), to mate. With `options.toEnd`, a line from Syzygy
 * tables goes on through zeroing moves (chained DTZ) to mate or a draw.
 * Each step is a run of its own, so MAX_ROUNDS bounds a step: a cursed
 * line can be hundreds of plies.
 */
export async function bestLine(rt, fen, options) {
  if (options != null && (typeof options !== 'object' || (options.toEnd != null && typeof options.toEnd !== 'boolean') || !modeOk(options))) {
    throw fail(`mainline options must be an object whose toEnd, if any, is a boolean${MODE_RULE}`, 'options');
  }
  const toEnd = !!(options && options.toEnd);
  const trace = new Trace('mainline', fen);
  const ask = { trace, prio: { rank: RANK.moves }, generate: modeOf(options) };
  // DTZ (DTM when known) counts the plies of a phase, one more when
  // rounded: only inconsistent tables go further.
  const budget = (r) => Math.max(Math.abs(r.dtz), Math.abs(r.dtm || 0)) + 1;
  try {
    let r = await rt.run('mainline-step', fen, ask);
    const line = { fen: fen.trim(), wdl: r.wdl, dtz: r.dtz, precise: r.precise, dtm: r.dtm, moves: [] };
    let phaseEnd = budget(r);
    while (r.step) {
      line.moves.push(r.step);
      const s = r.step;
      const over = s.wdl === 0 || s.san.endsWith('#');
      if (r.last && (!toEnd || over || !s.zeroing)) break;
      // A zeroing move ends its phase, on its last ply allowed or before:
      // the next phase has a budget of its own.
      if (!s.zeroing && line.moves.length >= phaseEnd) break;
      r = await rt.run('mainline-step', s.fen, ask);
      if (s.zeroing) phaseEnd = line.moves.length + budget(r);
    }
    // Its time stops at the answer, as a probe's: not the writes after.
    rt.noteTrace(trace);
    await rt.stored();
    return line;
  } finally {
    rt.noteTrace(trace);
  }
}
