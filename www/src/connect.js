// The board's Tablebase: opened for a table spec, its network progress and
// generations shown, and what the Tablebase before it answered forgotten.
// Takes the app context (see app.js).
import { legalFor, refreshStats } from './analysis.js';
import { parseFen } from './chess.js';
import { hosted, madeFor, mateProgress } from './mate.js';
import { currentFen } from './state.js';
import { movesOnly, openTablebase, parseTableUrls } from './tablebase.js';

/**
 * Opens the tables of `spec` (see parseTableUrls) for the board; the first
 * call takes the early heads the app started (`ctx.early`).
 */
export function connect(ctx, spec) {
  const { s, view, full, act } = ctx;
  if (s.unsubscribe) s.unsubscribe();
  s.unsubscribe = null;
  s.handle = null;
  // The legal moves came from the old Tablebase: the new one gives them
  // again (else the board stays locked until an answer brings moves).
  s.legalFen = null;
  s.handleFailed = false;
  act.reconnect = () => connect(ctx, spec);
  let urls;
  try {
    urls = parseTableUrls(spec);
  } catch (err) {
    urls = err;
  }
  // An address that is not one fails as the tables failing to open do:
  // the board stays, the card says why.
  const opened = urls instanceof Error ? Promise.reject(urls) : openTablebase(urls, ctx.early);
  const promise = opened.then((handle) => {
    // Destroyed, or connected elsewhere since (two quick setTables):
    // this handle's listeners would never be removed.
    if (s.destroyed || s.handlePromise !== promise) return handle;
    s.handle = handle;
    const offNet = handle.subscribe((p) => {
      view.verdict.fetching(p && p.requestsInFlight > 0);
      if (full) {
        view.network.progress(p);
        refreshStats(ctx);
      }
    });
    // A generation shows while the position it is for waits for its answer
    // (not over another position's card, nor over an error), or for its
    // mate distances (mate.js).
    const offGen = handle.subscribeGenerate((p) => {
      if (s.destroyed) return;
      if (s.loading && madeFor(s.loading, p.target) && !hosted(p.target)) view.verdict.generating(p);
      else if (s.mating) mateProgress(ctx, currentFen(s), p);
    });
    s.unsubscribe = () => {
      offNet();
      offGen();
    };
    return handle;
  });
  s.handlePromise = promise;
  s.handlePromise.catch((err) => {
    // The tables could not be opened (an address that is not one, say):
    // the legal moves need none, and the board stays playable. (Not where
    // the module itself failed to load: that would only ask for it again.)
    if (err && err.code === 'module') return;
    movesOnly().then(
      (tb) => {
        if (s.destroyed || s.handlePromise !== promise) return;
        s.rules = tb;
        const fen = currentFen(s);
        if (s.legalFen === fen || s.editing) return;
        const legal = legalFor(ctx, fen);
        view.board.setMoves(
          legal.map((m) => m.uci),
          parseFen(fen).turn,
        );
        // The error card said there were none to show.
        if (legal.length) view.moveList.renderUnknown(legal, fen, 'Values unavailable');
      },
      () => {},
    );
  });
  ctx.early = [];
  s.scan = null;
  s.scanned = null;
  s.coverage = null;
  s.results.clear();
  s.mating = null;
  s.mainlines.clear();
  s.zeroingLines.clear();
  s.reached.clear();
}
