// Share: the position's link (url-sync) or FEN, or the played line as PGN,
// to the clipboard, or, where there is none, in a selected field for the
// reader to copy. Takes the app context (see app.js).
import { h, replace } from './dom.js';
import { pgnOf } from './pgn.js';
import { currentFen } from './state.js';
import { shortUrl } from './url.js';
import { describe } from './verdict.js';

export function share(ctx) {
  const { s, view, options } = ctx;
  const text = options.urlSync ? shortUrl(currentFen(s), location.href, view.board.orientation) : currentFen(s);
  return copy(ctx, text, options.urlSync ? 'Link' : 'FEN');
}

/**
 * The played line from its first position as PGN, whatever ply is shown
 * (lichess exports its main line so), then the tablebase's best play from
 * its last position where that line is known.
 */
export function sharePgn(ctx) {
  const { s, view } = ctx;
  const root = s.line[0].fen;
  // A PGN reader refuses a position the rules refuse: said, nothing copied.
  const refused = s.editing ? 'Finish editing to copy the PGN.' : unplayable(s.results.get(root)) ? 'An illegal position has no PGN.' : '';
  if (refused) {
    clearTimeout(s.shareTimer);
    view.shareStatus.textContent = refused;
    s.shareTimer = setTimeout(() => (view.shareStatus.textContent = ''), 4000);
    return Promise.resolve();
  }
  const played = [];
  for (let i = 1; i < s.line.length; i++) {
    const e = s.line[i];
    // (A line brought back from history may lack a SAN: the rules give it.)
    const san = e.san || sanOf(s, s.line[i - 1].fen, e.uci);
    if (!san) break;
    played.push(san);
  }
  const last = s.line[played.length].fen;
  const line = s.mainlines.get(last) ?? (s.shownLine?.fen === last ? s.shownLine.line : null);
  const best = line && Array.isArray(line.moves) ? line.moves.map((m) => m.san) : [];
  const r = s.results.get(last);
  let headline = '';
  try {
    headline = r && !r.error ? describe(r).headline : '';
  } catch {
    /* no words for it: the note says less */
  }
  // A cursed win's mate comes after the 50-move rule has drawn: no result then.
  const cursed = r && !r.error && Math.abs(r.wdl) === 1;
  const answered = r && !r.error;
  const bestNote = best.length
    ? `Tablebase best play${headline ? `: ${headline}` : ''}${cursed ? ' (the line passes the 50-move rule)' : ''}`
    : headline && !(answered && (r.checkmate || r.stalemate))
      ? `Tablebase: ${headline}`
      : '';
  // Over on the board: a mate or a stalemate reached (or set up).
  const over = !answered ? null : r.checkmate ? (r.turn === 'white' ? '0-1' : '1-0') : r.stalemate || r.insufficientMaterial ? '1/2-1/2' : null;
  const text = pgnOf({ root, played, best, bestNote, site: location.href.split('#')[0], open: cursed, over });
  return copy(ctx, text, 'PGN');
}

/** Whether `r` (an answer, or {error} kept for a failed one) says the rules refuse the position. */
const unplayable = (r) => {
  const code = r && (r.code || (r.error && r.error.code));
  return code === 'illegal-position' || code === 'invalid-fen';
};

/** The SAN of `uci` in `fen`, from the rules (none cached: the board's own legal moves stay). */
function sanOf(s, fen, uci) {
  const tb = s.handle ? s.handle.tb : s.rules;
  try {
    return (tb.legalMoves(fen).find((m) => m.uci === uci) || {}).san;
  } catch {
    return undefined;
  }
}

async function copy(ctx, text, what) {
  const { s, view } = ctx;
  clearTimeout(s.shareTimer);
  try {
    await navigator.clipboard.writeText(text);
    view.shareStatus.textContent = `${what} copied`;
    s.shareTimer = setTimeout(() => (view.shareStatus.textContent = ''), 4000);
  } catch {
    // No clipboard (a page on plain http, a refusal): the text stays,
    // selected in a field, for the reader to copy themselves.
    const field = h(text.includes('\n') ? 'textarea.sb-share-text' : 'input.sb-share-text', {
      readOnly: true,
      rows: 6,
      'aria-label': `${what} to copy`,
      onfocus: (e) => e.target.select(),
    });
    field.value = text;
    replace(view.shareStatus, field);
    field.focus();
    field.select();
    // (Selecting scrolls a PGN to its end: its tags first.)
    field.scrollTop = 0;
  }
}
