// Asking the tablebase about the current position and rendering the answer:
// legal moves first (the board is playable while pages arrive), then the
// verdict and ranked moves, then the best line. Every function takes the app
// context { s: state, view, full, host, act }.
import { h, icon, ICONS } from './dom.js';
import { describe, describeError, sideName } from './verdict.js';
import { asError } from './tablebase.js';
import { inCheck, materialKey, makeFen, parseFen, pieceCount } from './chess.js';
import { remember } from './state.js';

/** Material key of a FEN, or '' when it does not parse. */
export const safeMaterial = (fen) => {
  try {
    return materialKey(fen);
  } catch {
    return '';
  }
};

/** Legal moves of `fen` from the decoder (empty before it is ready); remembered in the state. */
export function legalFor(ctx, fen) {
  const { s } = ctx;
  if (!s.handle) return [];
  try {
    s.legal = s.handle.tb.legalMoves(fen);
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
  view.verdict.stale(true);
  view.movesCard.classList.add('sb-stale');
  view.mainlineCard.classList.add('sb-stale');
  view.network.setMaterial(safeMaterial(fen), false);
  // Never a blank panel: the first position shows that moves are coming.
  if (!view.moveList.el.textContent) view.moveList.message('Loading moves…');
}

/**
 * The verdict of `fen`, which arrives before its moves: the verdict card
 * shows it at once; the move list shows the legal moves, dimmed and without
 * values, until the complete answer replaces them.
 */
function renderVerdict(ctx, r, fen) {
  const { s, view } = ctx;
  view.verdict.result(describe(r));
  const legal = s.legalFen === fen ? s.legal || [] : [];
  if (legal.length) view.moveList.renderUnknown(legal);
  else view.moveList.message('Loading moves…');
}

/** Probes `fen` (or takes the cached answer) and renders it unless a newer position came first. */
export async function analyse(ctx, fen, token) {
  const { s, view, full } = ctx;
  const stale = () => token !== s.token || s.destroyed;
  const cached = s.results.get(fen);
  if (cached) {
    if (cached.error) renderError(ctx, cached.error, fen);
    else renderResult(ctx, cached, fen);
    if (!cached.error) renderMainline(ctx, fen, token);
    return;
  }
  markLoading(ctx, fen);
  if (!s.handle) view.verdict.pending();
  let handle;
  try {
    handle = await s.handlePromise;
  } catch (err) {
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
  try {
    const onUpdate = (u) => {
      if (u.stage === 'verdict' && !stale()) renderVerdict(ctx, u.result, fen);
    };
    const result = await handle.tb.probe(fen, { onUpdate });
    const after = await statsOrNull(handle);
    remember(s.results, fen, result);
    if (full) {
      view.network.working(false);
      view.network.cost(before, after);
      if (after) view.network.stats(after);
    }
    if (stale()) return;
    renderResult(ctx, result, fen);
    renderMainline(ctx, fen, token);
  } catch (raw) {
    const err = asError(raw);
    if (full) {
      view.network.working(false);
      view.network.error(err.code === 'network' ? 'Network error' : 'Idle');
      refreshStats(ctx);
    }
    if (err.code !== 'network') remember(s.results, fen, { error: err });
    if (stale()) return;
    renderError(ctx, err, fen);
  }
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
  view.movesCard.classList.remove('sb-stale');
  const v = describe(r);
  view.verdict.result(v);
  view.network.setMaterial(safeMaterial(fen), true);
  if (r.checkmate || r.stalemate || (r.moves && !r.moves.length))
    view.moveList.message(r.checkmate ? 'Checkmate: no moves.' : r.stalemate ? 'Stalemate: no moves.' : 'No legal moves.');
  else view.moveList.render(r.moves || []);
  // The probe's move list is authoritative for the board's destinations too.
  if (!s.editing && r.moves) view.board.setMoves(r.moves.map((m) => m.uci), r.turn || parseFen(fen).turn);
  host.dispatchEvent(new CustomEvent('syzygy-result', { detail: { fen, result: r, verdict: v }, bubbles: true }));
}

/** Shows an error for `fen` (bad FEN, illegal position, missing table, network...). */
export function renderError(ctx, err, fen) {
  const { s, view, host } = ctx;
  s.result = null;
  view.movesCard.classList.remove('sb-stale');
  let pieces = 0;
  try {
    pieces = pieceCount(fen);
  } catch {
    pieces = 0;
  }
  const e = describeError(err, { pieces });
  // Outside the tables the game can still be over: say so.
  const legal = s.legalFen === fen ? s.legal || [] : [];
  let over = null;
  if (s.handle && s.legalFen === fen && !legal.length && e.code !== 'invalid-fen' && e.code !== 'illegal-position') {
    over = inCheck(fen) ? `Checkmate: ${sideName(parseFen(fen).turn === 'white' ? 'black' : 'white')} wins.` : 'Stalemate: draw.';
  }
  view.verdict.error(e, { over, fix: fixFor(ctx, e.code, fen) });
  if (legal.length) view.moveList.renderUnknown(legal);
  else view.moveList.message(e.code === 'invalid-fen' ? '' : 'No moves to show.');
  view.mainline.message('No best line for this position.');
  view.mainlineCard.classList.remove('sb-stale');
  view.network.setMaterial(safeMaterial(fen), false);
  host.dispatchEvent(new CustomEvent('syzygy-error', { detail: { fen, error: err, code: e.code }, bubbles: true }));
}

/** A one-click way out of some errors. */
function fixFor(ctx, code, fen) {
  if (code === 'castling') {
    return h('button.sb-btn.sb-fix', { type: 'button', onclick: () => ctx.act.load(makeFen({ ...parseFen(fen), castling: '-' })) }, 'Probe without castling rights');
  }
  if (code === 'too-many-pieces' && ctx.full && !ctx.s.editing) {
    return h('button.sb-btn.sb-fix', { type: 'button', onclick: () => ctx.act.setEditing(true) }, icon(ICONS.edit), 'Remove pieces in the editor');
  }
  return null;
}

/** The best line of `fen` (full page only), once its verdict is known. */
async function renderMainline(ctx, fen, token) {
  const { s, view, full } = ctx;
  if (!full) return;
  const r = s.results.get(fen);
  if (!r || r.error || r.checkmate || r.stalemate || r.insufficientMaterial || r.wdl === 0) {
    view.mainlineCard.classList.remove('sb-stale');
    view.mainline.message(r && r.wdl === 0 && !r.checkmate ? 'Drawn: no line to force.' : 'Game over.');
    return;
  }
  let line = s.mainlines.get(fen);
  if (!line) {
    view.mainlineCard.classList.add('sb-stale');
    try {
      line = await s.handle.tb.mainline(fen);
      remember(s.mainlines, fen, line);
    } catch (err) {
      if (token === s.token) {
        view.mainlineCard.classList.remove('sb-stale');
        view.mainline.message(`Best line unavailable: ${asError(err).message}`);
      }
      return;
    }
    refreshStats(ctx);
  }
  if (token !== s.token) return;
  view.mainlineCard.classList.remove('sb-stale');
  view.mainline.render(line);
}
