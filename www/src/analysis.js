// Asking the tablebase about the current position and rendering the answer:
// legal moves first (the board is playable while pages arrive), then the
// verdict and ranked moves, then the best line. Every function takes the app
// context { s: state, view, full, host, act }.
import { h, icon, ICONS, markStale } from './dom.js';
import { describe, describeError, otherColor, shortReason, sideName } from './verdict.js';
import { asError } from './tablebase.js';
import { applyUci, coords, inCheck, makeFen, parseFen, pieceCount } from './chess.js';
import { currentFen, remember } from './state.js';
import { coverageOf, hostReach, offline, safeMaterial, scanHost } from './materials.js';
import { keptAfter, noteKept } from './early.js';
import { exactByMoves } from './exact-dtz.js';
import { findMate, giveawayNote, lineToMate } from './mate.js';
import { reachedMoves } from './reached.js';

/**
 * What the host offers (materials.js scanHost), asked once per set of table
 * URLs; asked again next time where the scan failed or found nothing while
 * the browser was offline.
 */
export function hostTables(ctx) {
  const { s } = ctx;
  if (!s.scan) {
    const scan = s.handlePromise.then((handle) => scanHost(handle.urls));
    s.scan = scan;
    const forget = () => s.scan === scan && (s.scan = null);
    scan.then((found) => {
      if (s.scan !== scan) return;
      if (found.size || !offline()) s.scanned = found;
      else forget();
    }, forget);
  }
  return s.scan;
}

/**
 * Legal moves of `fen` from the decoder (empty before it is ready; without
 * tables, from a Tablebase for moves alone: see `movesOnly`); remembered
 * in the state.
 */
export function legalFor(ctx, fen) {
  const { s } = ctx;
  const tb = s.handle ? s.handle.tb : s.rules;
  if (!tb) return [];
  try {
    s.legal = tb.legalMoves(fen);
    s.legalFen = fen;
    return s.legal;
  } catch {
    s.legal = [];
    return [];
  }
}

/** Dims the answer cards until the answer for `fen` arrives. */
export function markLoading(ctx, fen) {
  const { s, view } = ctx;
  s.result = null;
  s.loading = fen;
  view.verdict.stale(true);
  // Nor the last position's ask for mate distances (mate.js).
  view.verdict.mating(null);
  markStale(view.movesCard, true);
  markStale(view.mainlineCard, true);
  // Nor the previous position's best line to play from.
  view.mainline?.hold();
  view.network.setMaterial(safeMaterial(fen), false);
  // Never a blank panel, nor the previous position's moves (a click there
  // would play a move of this one): its legal moves without values, or a
  // line saying that they are coming.
  const legal = s.legalFen === fen ? s.legal || [] : [];
  if (legal.length) view.moveList.renderUnknown(legal, fen);
  else view.moveList.message('Loading moves…');
}

/**
 * The verdict of `fen`, which arrives before its moves: the verdict card
 * shows it at once; the move list shows the legal moves, dimmed and without
 * values, until the complete answer replaces them.
 */
function renderVerdict(ctx, r, fen) {
  const { s, view } = ctx;
  view.verdict.result(describe(r), fen);
  const legal = s.legalFen === fen ? s.legal || [] : [];
  if (legal.length) view.moveList.renderUnknown(legal, fen);
  else view.moveList.message('Loading moves…');
}

/**
 * The board's own Tablebase closed under it (`closed` while it is still
 * the board's: its module failed; the board closes none it uses): it is
 * forgotten and the board connects afresh, for the positions after this
 * one, cached or not (a failure that was not memory's is then over; after
 * memory ran out the card says to reload). True if so.
 */
function leftByTablebase(ctx, handle, err) {
  const { s } = ctx;
  if (!(err && err.code === 'closed' && handle === s.handle && !s.destroyed)) return false;
  handle.forget();
  ctx.act.reconnect();
  return true;
}

/** Probes `fen` (or takes the cached answer) and renders it unless a newer position came first. */
export async function analyse(ctx, fen, token) {
  const { s, view, full } = ctx;
  const stale = () => token !== s.token || s.destroyed;
  const cached = s.results.get(fen);
  if (cached) {
    if (cached.error && cached.partial) renderIncomplete(ctx, cached.partial, cached.error, fen);
    else if (cached.error) renderError(ctx, cached.error, fen);
    else renderResult(ctx, cached, fen);
    if (!cached.error) {
      renderMainline(ctx, fen, token);
      addMate(ctx, fen, token, cached);
    }
    return;
  }
  markLoading(ctx, fen);
  if (!s.handle) view.verdict.pending();
  // The module or the tables could not be reached last time: try again.
  if (s.handleFailed) ctx.act.reconnect();
  let handle;
  try {
    handle = await s.handlePromise;
  } catch (err) {
    s.handleFailed = true;
    if (!stale()) renderError(ctx, asError(err), fen);
    return;
  }
  if (stale()) return;
  if (s.legalFen !== fen) {
    const legal = legalFor(ctx, fen);
    if (!s.editing) view.board.setMoves(legal.map((m) => m.uci), parseFen(fen).turn);
  }
  const before = await statsOrNull(handle);
  if (full) view.network.working(true);
  // The outcome or verdict on screen, or the whole answer: a failure after it keeps it.
  let partial = null;
  let complete = null;
  try {
    // The complete answer shows as soon as it is known, before its pages
    // are in IndexedDB (the promise waits for that).
    let shown = false;
    const onUpdate = (u) => {
      // (Kept with a failure even when the board has moved on: a revisit shows it.)
      if (u.stage === 'outcome' || u.stage === 'verdict') partial = u.result;
      // (A rounded DTZ its moves settle is shown exact.)
      if (u.stage === 'complete') complete = exactByMoves(u.result);
      if (stale()) return;
      // The outcome (who wins) shows at once; the verdict adds its DTZ.
      if (u.stage === 'outcome' || u.stage === 'verdict') renderVerdict(ctx, u.result, fen);
      if (u.stage === 'complete') {
        // onUpdate's errors are swallowed: only a render that went through
        // counts, else the one after the promise renders it (or its error).
        renderResult(ctx, complete, fen);
        shown = true;
      }
    };
    const result = exactByMoves(await handle.tb.probe(fen, { onUpdate }));
    const after = await statsOrNull(handle);
    // The next visit asks for no early head of what this probe stored.
    if (after && after.indexedDb === 'ok' && after.cacheBytes > 0) noteKept(keptAfter(handle.urls[0], fen, result));
    // Answers of tables replaced meanwhile (setTables) are not kept for the new ones.
    if (handle === s.handle) remember(s.results, fen, result);
    if (full) {
      view.network.working(false);
      // The last probe's cost is the shown position's: not an older one's finishing late.
      if (!stale()) view.network.cost(fen, before, after);
      if (after) view.network.stats(after);
    }
    if (stale()) return;
    if (!shown) renderResult(ctx, result, fen);
    // (The result given: a reconnect meanwhile cleared those kept.)
    renderMainline(ctx, fen, token, result);
    addMate(ctx, fen, token, result);
  } catch (raw) {
    const err = asError(raw);
    if (full) {
      view.network.working(false);
      if (!stale()) view.network.error(err.code === 'network' ? 'Network error' : 'Idle');
      refreshStats(ctx);
    }
    leftByTablebase(ctx, handle, err);
    // The whole answer came, and what failed came after it (its pages'
    // writes): the answer stands.
    if (complete) {
      if (handle === s.handle) remember(s.results, fen, complete);
      if (stale()) return;
      view.verdict.fetching(false);
      if (!shown) renderResult(ctx, complete, fen);
      renderMainline(ctx, fen, token, complete);
      addMate(ctx, fen, token, complete);
      return;
    }
    // Network errors, missing tables and failed generations are asked
    // again on a later visit (the package looks for a missing table again
    // after a while, and starts a fresh generation worker).
    const passing = ['network', 'missing-table', 'generate', 'closed'];
    if (handle === s.handle && !passing.includes(err.code)) remember(s.results, fen, partial ? { error: err, partial } : { error: err });
    if (stale()) return;
    // Failed requests may end without a last progress report: nothing is in flight for this position now.
    view.verdict.fetching(false);
    // A DTZ table missing (a host of WDL tables alone): who wins, and every
    // move's WDL, from what the WDL tables still answer.
    if (err.result) {
      renderResult(ctx, err.result, fen);
      renderMainline(ctx, fen, token, err.result);
      return;
    }
    if (partial) renderIncomplete(ctx, partial, err, fen);
    else renderError(ctx, err, fen);
  }
}

/**
 * Mate distances for an answer from Syzygy files of up to 4 pieces (see
 * mate.js): the answer with them replaces it, and the best line becomes
 * the line to mate.
 */
function addMate(ctx, fen, token, r) {
  findMate(ctx, fen, token, r, {
    show: (answer) => {
      renderResult(ctx, answer, fen);
      renderMainline(ctx, fen, token, answer);
    },
    closed: (handle, err) => leftByTablebase(ctx, handle, err),
  });
}

async function statsOrNull(handle) {
  try {
    return await handle.tb.stats();
  } catch {
    return null;
  }
}

/** Updates the network card's totals (full page only). */
export function refreshStats(ctx) {
  const { s, view, full } = ctx;
  if (!full || !s.handle) return;
  try {
    Promise.resolve(s.handle.tb.stats()).then((st) => view.network.stats(st), () => {});
  } catch {
    /* stats are informative only */
  }
}

function renderResult(ctx, r, fen) {
  const { s, view, host } = ctx;
  s.result = r;
  s.loading = null;
  markStale(view.movesCard, false);
  const line = knownLine(s, fen);
  const v = describe(r, { zeroing: zeroingPlies(line) });
  view.verdict.result(v, fen);
  view.network.setMaterial(safeMaterial(fen), true);
  if (r.checkmate || r.stalemate || (r.moves && !r.moves.length))
    view.moveList.message(r.checkmate ? 'Checkmate: no moves.' : r.stalemate ? 'Stalemate: no moves.' : 'No legal moves.');
  else view.moveList.render(withZeroing(s, fen, r), fen);
  if (beyond100(r) && !line && !ctx.full) resolvePosition(ctx, fen, s.token);
  resolveMoves(ctx, fen, r, s.token);
  // The probe's move list is authoritative for the board's destinations too.
  if (!s.editing && r.moves) view.board.setMoves(r.moves.map((m) => m.uci), r.turn || parseFen(fen).turn);
  host.dispatchEvent(new CustomEvent('syzygy-result', { detail: { fen, result: r, verdict: v }, bubbles: true }));
}

/** True for a cursed win or blessed loss whose DTZ is above 100 (two readings, see verdict.js). */
const beyond100 = (r) => r && Math.abs(r.wdl) === 1 && Math.abs(r.dtz) > 100;

/** A best line of `fen` known so far: to the end, else to its first zeroing move. */
const knownLine = (s, fen) => s.mainlines.get(fen) ?? s.zeroingLines.get(fen);

/** Plies to the zeroing move (or mate) along a best line, or undefined when the line does not reach one. */
function zeroingPlies(line) {
  if (!line || !line.moves || !line.moves.length) return undefined;
  // The first zeroing move or mate: a line may go on past it.
  const i = line.moves.findIndex((m) => m.zeroing || m.san.endsWith('#'));
  return i < 0 ? undefined : i + 1;
}

/** Moves with the halfmove clock after them, and the best line's length after them where it has been worked out. */
function withZeroing(s, fen, r) {
  const clock = r.halfmoveClock ?? 0;
  return (r.moves || []).map((m) => {
    const clockAfter = m.zeroing ? 0 : clock + 1;
    if (!(Math.abs(m.wdl) === 1 && Math.abs(m.dtz) > 100)) return { ...m, clockAfter };
    const n = zeroingPlies(knownLine(s, childFen(fen, m.uci)));
    return n === undefined ? { ...m, clockAfter } : { ...m, zeroingPlies: n, clockAfter };
  });
}

function childFen(fen, uci) {
  try {
    return applyUci(fen, uci);
  } catch {
    return null;
  }
}

/** Fetches the best line of a position whose DTZ is above 100, then words the verdict again. */
async function resolvePosition(ctx, fen, token) {
  const { s } = ctx;
  try {
    const line = await s.handle.tb.mainline(fen);
    remember(s.zeroingLines, fen, line);
  } catch {
    return;
  }
  const r = s.results.get(fen);
  if (token === s.token && r && !r.error) ctx.view.verdict.result(describe(r, { zeroing: zeroingPlies(knownLine(s, fen)) }), fen);
}

/** The same for the (few) moves leading to a DTZ above 100: their tooltips then say the real distance. */
async function resolveMoves(ctx, fen, r, token) {
  const { s, view } = ctx;
  const todo = (r.moves || []).filter((m) => Math.abs(m.wdl) === 1 && Math.abs(m.dtz) > 100).slice(0, 4);
  let changed = false;
  for (const m of todo) {
    const child = childFen(fen, m.uci);
    if (!child || knownLine(s, child)) continue;
    try {
      // To the first zeroing move only: the best line card asks for the
      // whole line (toEnd) when this position is shown.
      remember(s.zeroingLines, child, await s.handle.tb.mainline(child));
      changed = true;
    } catch {
      return;
    }
    if (token !== s.token) return;
  }
  if (changed && token === s.token) view.moveList.render(withZeroing(s, fen, r), fen);
}

/** Shows an error for `fen` (bad FEN, illegal position, missing table, network...). */
export function renderError(ctx, err, fen) {
  const { s, view, host } = ctx;
  s.result = null;
  s.loading = null;
  markStale(view.movesCard, false);
  let pieces = 0;
  try {
    pieces = pieceCount(fen);
  } catch {
    pieces = 0;
  }
  // A missing table may be one a capture reaches: the error names it.
  const named = err && err.code === 'missing-table' && /\b(K[QRBNP]*vK[QRBNP]*)\.rtb[wz]\b/.exec(String(err.message));
  const material = named ? named[1] : safeMaterial(fen);
  const e = describeError(err, {
    pieces,
    material,
    own: safeMaterial(fen),
    editing: !!s.editing,
    offline: typeof navigator !== 'undefined' && navigator.onLine === false,
    coverage: s.coverage || null,
    kingsAdjacent: kingsAdjacent(fen),
  });
  // What the host covers is asked once (a few HEAD requests, hostReach;
  // Browse's full scan where it ran), then the message is worded again
  // (the full page only: a compact embed's error stays as it is).
  if (ctx.full && (e.code === 'missing-table' || e.code === 'too-many-pieces') && !s.coverage) {
    const token = s.token;
    const handlePromise = s.handlePromise;
    const reach = s.scanned ? Promise.resolve(coverageOf(s.scanned)) : handlePromise.then((handle) => hostReach(handle.urls));
    reach.then((coverage) => {
      // Nothing answered (offline, the host down): asked again next time;
      // nor kept for tables set meanwhile.
      if (!coverage || handlePromise !== s.handlePromise) return;
      s.coverage = coverage;
      if (token === s.token && s.coverage.maxPieces) renderError(ctx, err, fen);
    }, () => {});
  }
  // Outside the tables the game can still be over: say so.
  const legal = s.legalFen === fen ? s.legal || [] : [];
  let over = null;
  if (s.handle && s.legalFen === fen && !legal.length && e.code !== 'invalid-fen' && e.code !== 'illegal-position') {
    over = inCheck(fen) ? `Checkmate: ${sideName(parseFen(fen).turn === 'white' ? 'black' : 'white')} wins.` : 'Stalemate: draw.';
  }
  view.verdict.error(e, { over, fix: fixFor(ctx, err, fen) });
  if (legal.length) view.moveList.renderUnknown(legal, null, 'Values unavailable');
  else view.moveList.message(e.code === 'invalid-fen' ? '' : 'No moves to show.');
  if (legal.length && (e.code === 'missing-table' || e.code === 'too-many-pieces')) showReached(ctx, fen, legal);
  view.mainline.message('No best line for this position.');
  markStale(view.mainlineCard, false);
  view.network.setMaterial(safeMaterial(fen), false);
  host.dispatchEvent(new CustomEvent('syzygy-error', { detail: { fen, error: err, code: e.code }, bubbles: true }));
}

/**
 * The values of the captures and promotions of `fen` (an error's position)
 * into endings the host has (reached.js), shown once in where the error
 * is still on screen: not another position, nor an answer come since.
 */
function showReached(ctx, fen, legal) {
  const { s, view } = ctx;
  const token = s.token;
  const handle = s.handle;
  if (!handle) return;
  const asked = s.reached.get(fen) || reachedMoves(handle.tb, fen, legal).catch(() => ({ moves: null, failed: 1 }));
  remember(s.reached, fen, asked);
  asked.then(({ moves, failed }) => {
    // Kept only whole: a probe that failed (the network, say) is asked again next time.
    if (failed && s.reached.get(fen) === asked) s.reached.delete(fen);
    if (!moves || token !== s.token || handle !== s.handle || s.result || s.loading) return;
    view.moveList.render(moves, fen, 'Values unavailable');
  });
}

/**
 * A probe that failed after its outcome or verdict was shown (a table that
 * only the moves or the DTZ need, a request that failed for good): who
 * wins stays on screen, with what did not arrive and why, and the moves
 * stay playable without values.
 */
function renderIncomplete(ctx, r, err, fen) {
  const { s, view, host } = ctx;
  s.result = null;
  s.loading = null;
  markStale(view.movesCard, false);
  const reason = shortReason(err);
  const note = `The moves’ values did not arrive: ${reason}.`;
  view.verdict.result(describe(r, { missing: err }), fen, { error: err.code || 'error', note, fix: fixFor(ctx, err, fen) });
  const legal = s.legalFen === fen ? s.legal || [] : [];
  if (legal.length) view.moveList.renderUnknown(legal, null, 'Values unavailable');
  else view.moveList.message('No moves to show.');
  view.mainline.message(lineless(r) ? (r.wdl === 0 && !r.checkmate ? 'Drawn: no line to force.' : 'Game over.') : `Best line unavailable: ${reason}.`);
  markStale(view.mainlineCard, false);
  view.network.setMaterial(safeMaterial(fen), false);
  // (`result`: what was shown of the answer.)
  host.dispatchEvent(new CustomEvent('syzygy-error', { detail: { fen, error: err, code: err.code || 'error', result: r }, bubbles: true }));
}

/** True when the two kings of `fen`, one of each colour, stand on neighbouring squares. */
function kingsAdjacent(fen) {
  try {
    const kings = [...parseFen(fen).pieces].filter(([, p]) => p.role === 'king');
    if (kings.length !== 2 || kings[0][1].color === kings[1][1].color) return false;
    const [a, b] = kings.map(([sq]) => coords(sq));
    return Math.abs(a[0] - b[0]) <= 1 && Math.abs(a[1] - b[1]) <= 1;
  } catch {
    return false;
  }
}

/** A one-click way out of some errors (`e`: the error as the package threw it). */
function fixFor(ctx, e, fen) {
  const code = e.code;
  // Rights the kings and rooks cannot have ('KQkq' on any board, as many
  // tools write) make the position illegal: the same way out.
  if (code === 'castling' || (code === 'illegal-position' && /invalid castling rights/.test(e.message || ''))) {
    return h('button.sb-btn.sb-fix', { type: 'button', onclick: () => ctx.act.load(makeFen({ ...parseFen(fen), castling: '-' })) }, 'Probe without castling rights');
  }
  // (Network failures and failed generations are not kept: a redraw asks again.)
  if (code === 'module' || code === 'network' || code === 'generate') {
    return h('button.sb-btn.sb-fix', { type: 'button', onclick: () => ctx.act.redraw() }, 'Retry');
  }
  if (code === 'too-many-pieces' && ctx.full && !ctx.s.editing) {
    return h('button.sb-btn.sb-fix', { type: 'button', onclick: () => ctx.act.setEditing(true) }, icon(ICONS.edit), 'Remove pieces in the editor');
  }
  return null;
}

/** Whether a result has no best line to show (drawn, over, or no result). */
const lineless = (r) => !r || r.error || r.checkmate || r.stalemate || r.insufficientMaterial || r.wdl === 0;

/**
 * Whether the network may still bring something the board shows for `fen`:
 * its result (errors that depend on the network are not kept), or on the
 * full page the best line of a decided one.
 */
export function awaitsNetwork(ctx, fen) {
  const r = ctx.s.results.get(fen);
  return !r || (ctx.full && !lineless(r) && !ctx.s.mainlines.has(fen));
}

/** The best line of `fen` (full page only), once its verdict is known. */
async function renderMainline(ctx, fen, token, result = null) {
  const { s, view, full } = ctx;
  if (!full) return;
  const r = result || s.results.get(fen);
  // The WDL tables' answer alone (the host has no DTZ table): no line to follow.
  if (r && r.code === 'missing-table' && Array.isArray(r.moves)) {
    markStale(view.mainlineCard, false);
    view.mainline.message(`Best line unavailable: ${shortReason({ code: r.code, message: r.error })}.`);
    return;
  }
  if (lineless(r)) {
    markStale(view.mainlineCard, false);
    view.mainline.message(r && r.wdl === 0 && !r.checkmate ? 'Drawn: no line to force.' : 'Game over.');
    return;
  }
  let line = s.mainlines.get(fen);
  if (!line) {
    markStale(view.mainlineCard, true);
    view.mainline.hold();
    // (Connecting afresh: the new Tablebase's, once it is there.)
    const handle = s.handle || (await Promise.resolve(s.handlePromise).catch(() => null));
    if (!handle) {
      if (token === s.token) {
        markStale(view.mainlineCard, false);
        view.mainline.message('Best line unavailable: the decoder is not loaded.');
      }
      return;
    }
    // An answer with mate distances came from generated tables: its line
    // is the line to mate, from them too.
    // (Where that fails, a worker gone say, the host's line is shown.)
    const mated = Number.isInteger(r && r.dtm);
    const tries = mated ? [{ toEnd: true, generate: 'always' }, { toEnd: true }] : [{ toEnd: true }];
    let failure = null;
    for (const options of tries) {
      try {
        // Through zeroing moves to mate or a draw (chained DTZ; generated tables: to mate).
        line = await handle.tb.mainline(fen, options);
        failure = null;
        break;
      } catch (err) {
        failure = asError(err);
        if (leftByTablebase(ctx, handle, failure)) break;
      }
    }
    if (failure) {
      if (token === s.token) {
        markStale(view.mainlineCard, false);
        view.mainline.message(`Best line unavailable: ${shortReason(failure)}.`);
      }
      return;
    }
    // The host's line, come after the mate distances did (mate.js): theirs is shown.
    const now = s.results.get(fen);
    if (!mated && now && Number.isInteger(now.dtm)) return;
    remember(s.mainlines, fen, line);
    refreshStats(ctx);
    // Its end into a small ending, played to mate where the browser makes
    // its tables (mate.js): shown once there, kept for the next visit.
    if (!mated) {
      const hostLine = line;
      lineToMate(ctx, hostLine).then((joined) => {
        if (!joined || s.mainlines.get(fen) !== hostLine) return;
        remember(s.mainlines, fen, joined);
        if (token === s.token && s.shownLine && s.shownLine.line === hostLine) renderLine(ctx, fen, s.results.get(fen) || r, joined);
      });
    }
  }
  if (token !== s.token) return;
  markStale(view.mainlineCard, false);
  renderLine(ctx, fen, r, line);
  // The line may tell the two readings of a DTZ above 100 apart.
  if (beyond100(r)) view.verdict.result(describe(r, { zeroing: zeroingPlies(line) }), fen);
}

/**
 * Shows `line`, the best line of `fen` (answer `r`), with the note of a
 * line that gives a piece away in a 4-piece ending (mate.js): asked,
 * the line to mate replaces it.
 */
function renderLine(ctx, fen, r, line) {
  const { s, view } = ctx;
  // What a click on it plays, kept apart from the cache of lines (cleared
  // with the tables' cache while the line stays on screen).
  s.shownLine = { fen, line };
  // (The line to mate replaces whichever line of `fen` came meanwhile: a
  // 3-piece join's still holds the giveaway. Shown if the board is on
  // `fen`, though left and come back to meanwhile.)
  const note = giveawayNote(ctx, line, (joined) => {
    remember(s.mainlines, fen, joined);
    if (!s.editing && currentFen(s) === fen && s.shownLine && s.shownLine.fen === fen) renderLine(ctx, fen, s.results.get(fen) || r, joined);
  });
  view.mainline.render(line, { loses: losesAt(r, line), note });
}

/**
 * Where the best line loses a win to the 50-move rule: { after: ply index,
 * text } or null. A DTZ above 100 whose zeroing move comes in time blames
 * the phase after the line; otherwise the count runs out inside the line.
 */
function losesAt(r, line) {
  // A cursed result of the tables, or a win (loss) the halfmove clock
  // already spoils (saves): the category says which.
  const spoilt = r && (Math.abs(r.wdl) === 1 || r.category === 'cursed-win' || r.category === 'blessed-loss');
  if (!spoilt || !line || !line.moves.length) return null;
  const n = zeroingPlies(line);
  const h = r.halfmoveClock || 0;
  // Only a cursed result loses a later phase; one the clock spoils loses this one.
  if (Math.abs(r.wdl) === 1 && n !== undefined && n + h <= 100) {
    return { after: n - 1, text: 'after this zeroing move the next phase takes more than 50 moves: the 50-move rule draws it' };
  }
  // Only the player to move may claim, the one whose move completes the
  // 100th ply by writing that move (FIDE 9.3.1): the losing side, on its
  // own turn or with its own move.
  const loser = r.wdl > 0 ? otherColor(r.turn) : r.turn;
  const who = sideName(loser);
  const ply = 100 - h - 1; // the ply that completes the 100 (below 0: they are complete)
  if (h >= 150) return { after: -1, text: 'the 75-move rule has drawn the game: 75 moves have passed without a capture or pawn move' };
  if (ply < 0 && loser === r.turn) return { after: -1, text: `${who} can claim a draw now: 50 moves have passed without a capture or pawn move` };
  const at = Math.max(0, Math.min(line.moves.length - 1, ply));
  const mover = at % 2 === 0 ? r.turn : otherColor(r.turn);
  if (at === ply && mover === loser) return { after: at, text: `${who} can claim a draw with this move: it completes 50 moves without a capture or pawn move` };
  return { after: at, text: `50 moves without a capture or pawn move: ${who} can claim a draw here` };
}
