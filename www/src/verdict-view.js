// The verdict card: a result, an error or "loading", with a thin progress bar
// on top. Words come from verdict.js; this module only builds the DOM.
import { h, icon, ICONS, markStale, replace } from './dom.js';
import { sideName, plies } from './verdict.js';

/** The verdict card (the "What do DTZ and the 50-move rule mean?" section lives apart: explainer()). */
export function createVerdictCard() {
  const progress = h('div.sb-verdict-progress', { 'aria-hidden': 'true' });
  const body = h('div.sb-verdict-body');
  // Mate distances being made for the verdict shown (mate.js): apart from
  // the body, so that the verdict is not rebuilt (nor read again) with it.
  const mate = h('p.sb-mate', { hidden: true });
  const el = h('section.sb-card.sb-verdict', { 'aria-live': 'polite', 'aria-label': 'Tablebase verdict', dataset: { tone: 'loading' } }, progress, body, mate);
  // The verdict on screen: the same one again (the complete answer after
  // its verdict, a redraw) is not rebuilt, so a screen reader reads it once.
  let shown = null;
  // The position of the verdict shown: a mate line belongs to it alone.
  let mateFen = null;

  function mating(...content) {
    const some = content.some((c) => c !== null && c !== undefined);
    mate.hidden = !some;
    if (some) replace(mate, ...content);
    else replace(mate);
  }

  function setData(tone, category = '', outcome = '', error = '', stage = '') {
    Object.assign(el.dataset, { tone, category, outcome, error, stage });
    el.classList.remove('sb-stale', 'sb-fetching');
    el.removeAttribute('aria-busy');
  }

  return {
    el,
    /** Dims the current content while the next answer is on its way. */
    stale(on) {
      markStale(el, on);
    },
    /** Shows the progress bar while table pages arrive. */
    fetching(on) {
      el.classList.toggle('sb-fetching', on);
    },
    /** A line under the verdict about its mate distances (being made, asked for, or why they are not), or none (null). */
    mating,
    /** Before the decoder is ready. */
    pending() {
      mating(null);
      el.dataset.tone = 'loading';
      shown = null;
      replace(body, h('div.sb-verdict-head', h('span.sb-spinner'), h('h2.sb-headline', 'Loading tablebase…')), h('p.sb-summary', 'Fetching the decoder.'));
    },
    /**
     * A verdict from describe() for the position `fen`; where the probe
     * failed after it, `error` (its code, in data-error), `note` (what did
     * not arrive) and `fix` (an optional button).
     */
    result(v, fen = '', { error = '', note = null, fix = null } = {}) {
      // Stage 'outcome' while the DTZ is still on its way, then 'verdict'.
      setData(v.tone, v.category || '', v.outcome, error, v.pending ? 'outcome' : 'verdict');
      // (A position's own: the line of the one before goes.)
      if (fen !== mateFen) mating(null);
      mateFen = fen;
      // Who wins shows at once; a screen reader waits for the DTZ and reads both together.
      if (v.pending) el.setAttribute('aria-busy', 'true');
      const key = `${fen}\n${error}\n${note}\n${JSON.stringify(v)}`;
      if (key === shown) return;
      shown = key;
      const badge =
        v.tone === 'white' || v.tone === 'black'
          ? h('span.sb-verdict-piece.cg-wrap', { title: `${sideName(v.tone)} wins` }, h('piece', { class: `king ${v.tone}` }))
          : h('span.sb-verdict-icon.sb-neutral', { 'aria-hidden': 'true' }, '½');
      replace(
        body,
        h('div.sb-verdict-head', badge, h('h2.sb-headline', v.headline), v.tag ? h('span.sb-tag', v.tag) : null),
        h('p.sb-summary', v.summary),
        v.dtz ? h('p.sb-dtz', h('span.sb-dtz-badge', v.dtz.label), ' ', v.dtz.pending ? h('span.sb-pending', v.dtz.text) : v.dtz.text) : null,
        v.dtm ? mateLine(v) : null,
        v.notes.length ? h('ul.sb-notes', v.notes.map((n) => h('li', n))) : null,
        note ? h('p.sb-hint.sb-incomplete', note) : null,
        fix,
      );
    },
    /**
     * A table being generated in the browser for this position: which one,
     * how far, and about how long is left. Leaving the position does not
     * stop it; the table is kept for next time.
     */
    generating(p) {
      mating(null);
      el.dataset.tone = 'loading';
      el.classList.remove('sb-stale');
      // Busy: screen readers hold the live region's announcements (one per
      // progress report) until the answer replaces it.
      el.setAttribute('aria-busy', 'true');
      shown = null;
      const pct = Math.round((p.fraction || 0) * 100);
      const left = p.etaMs === null || p.etaMs === undefined ? 'estimating the time left' : `about ${Math.max(1, Math.round(p.etaMs / 1000))} s left`;
      replace(
        body,
        h('div.sb-verdict-head', h('span.sb-spinner'), h('h2.sb-headline', `Solving ${p.material} in this browser…`)),
        h('p.sb-summary', `Table ${p.index + 1} of ${p.materials.length} for ${p.target}: ${pct} %, ${left}.`),
        h('progress.sb-generate', { max: 100, value: pct }),
        h('p.sb-hint', 'No server has this table, so your device computes it (with distances to mate) and keeps it offline. You can move on: the work continues in the background.'),
      );
    },
    /**
     * An error from describeError(); `over` replaces the headline when the game
     * is over anyway (mate or stalemate outside the tables); `fix` is an
     * optional button.
     */
    error(e, { over = null, fix = null } = {}) {
      mating(null);
      setData('error', '', '', e.code);
      shown = null;
      replace(
        body,
        h('div.sb-verdict-head', h('span.sb-verdict-icon.sb-alert'), h('h2.sb-headline', over ? over.split(':')[0] : e.title)),
        h('p.sb-summary', over || e.message),
        h('p.sb-hint', over ? e.message : e.hint),
        fix,
      );
    },
  };
}

/**
 * The verdict's distance to mate: "Mate in N" where it holds under the
 * 50-move rule, else the plies without that rule, said so (a cursed win's
 * mate, or one the running clock may make longer).
 */
function mateLine(v) {
  const n = plies(Math.abs(v.dtm));
  if (v.mateHolds) return h('p.sb-dtm', h('span.sb-dtz-badge', mateLabel(v.dtm)), ` ${n} to checkmate with best play.`);
  const spoiled = v.category === 'win' || v.category === 'loss' ? 'the halfmove clock can make the mate longer' : 'the 50-move rule draws the game first';
  return h('p.sb-dtm', h('span.sb-dtz-badge', `DTM ${Math.abs(v.dtm)}`), ` ${n} to checkmate if the 50-move rule did not apply; ${spoiled}.`);
}

/** "Mate in N" (moves, as players count them) for plies to mate signed like DTZ. */
export function mateLabel(dtm) {
  const n = Math.abs(dtm);
  return dtm > 0 ? `Mate in ${Math.ceil(n / 2)}` : `Mated in ${Math.ceil(n / 2)}`;
}

/** What DTZ, cursed wins and the halfmove clock mean, folded. */
export function explainer() {
  return h(
    'details.sb-card.sb-explain',
    h('summary', icon(ICONS.info), 'What do DTZ and the 50-move rule mean?'),
    h('p', 'A game is drawn when 50 moves (100 plies) pass without a capture or pawn move. DTZ, the distance to zeroing, counts the plies until the next capture or pawn move (or mate) with best play.'),
    h('p', 'A cursed win can be forced only by breaking that rule, so it is a draw in a real game. A blessed loss is the other side of it: lost without the rule, saved by it.'),
    h('p', `The halfmove clock in the FEN counts plies already spent; a win needs its DTZ to fit in what is left of the ${plies(100)}.`),
  );
}
