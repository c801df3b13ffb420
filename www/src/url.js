// The position in the page URL: #fen=<FEN with _ for spaces> (?fen= and a
// FEN right after the '#' are read too), or #p=<share code> (sharecode.js)
// from a short link; a copied link
// of a flipped board adds &o=black. Links the editor wrote before it kept
// the en passant square and the clock apart are mended (repairLinkedFen).
import { decodePosition, encodePosition } from './sharecode.js';
import { repairLinkedFen } from './chess.js';

/**
 * The position the page URL names: { fen (possibly invalid, for the caller
 * to report), orientation ('black' or null) }, or null. '_' and '+' stand
 * for spaces in a FEN.
 */
export function readUrlPosition() {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
  const orientation = hash.get('o') === 'black' ? 'black' : null;
  const code = hash.get('p');
  if (code) {
    try {
      return { fen: repairLinkedFen(decodePosition(code)), orientation };
    } catch (err) {
      return { fen: code, error: err, orientation };
    }
  }
  const raw = hash.get('fen') || new URLSearchParams(location.search).get('fen') || bareFen(location.hash);
  return raw ? { fen: repairLinkedFen(raw.replace(/_/g, ' ').trim()), orientation } : null;
}

/**
 * A FEN written straight after the '#' (`#8/8/8/4k3/8/8/8/R3K3 w`, as an
 * analysis board's address holds one), spaces percent-encoded or not;
 * null for any other fragment, which the page leaves alone (an anchor).
 */
function bareFen(fragment) {
  let text;
  try {
    text = decodeURIComponent(fragment.replace(/^#/, '').replace(/\+/g, ' '));
  } catch {
    return null;
  }
  // A board of eight ranks first: the one thing every FEN starts with.
  return /^[1-8pnbrqkPNBRQK]+(\/[1-8pnbrqkPNBRQK]+){7}([ _]|$)/.test(text) ? text : null;
}

/** The FEN in the page URL, or null. */
export function readUrlFen() {
  const p = readUrlPosition();
  return p ? p.fen : null;
}

/**
 * This page's URL showing `fen` (other query parameters such as ?tables=
 * kept), seen from Black's side with `orientation` 'black'.
 */
export function shareUrl(fen, orientation = 'white') {
  const url = new URL(location.href);
  url.searchParams.delete('fen');
  url.hash = `fen=${fen.replace(/ /g, '_')}` + (orientation === 'black' ? '&o=black' : '');
  return url.href;
}

/**
 * The short link of `fen` (#p=share code), or the FEN link when it has no
 * code; seen from Black's side with `orientation` 'black'.
 */
export function shortUrl(fen, base = location.href, orientation = 'white') {
  const code = encodePosition(fen);
  const url = new URL(base);
  url.searchParams.delete('fen');
  url.hash = (code ? `p=${code}` : `fen=${fen.replace(/ /g, '_')}`) + (orientation === 'black' ? '&o=black' : '');
  return url.href;
}

/**
 * Puts `fen` in the address bar: a new history entry for a played move, a
 * step along the line, a loaded position or the editor opening (`push`), so
 * that Back returns to what was shown before; otherwise (an edit) the
 * current entry is replaced, as it is when the address already shows
 * `fen`. `state` (the played line) goes with the entry; `orientation`
 * 'black' adds &o=black. Returns whether it pushed an entry.
 */
export function writeUrl(fen, { push = false, state = null, orientation = 'white' } = {}) {
  const url = shareUrl(fen, orientation);
  // The entry already shown (a position loaded again, or a link to it
  // clicked): no second one for Back to step through. The editor opening
  // on the position shown is an entry (its line differs).
  const add = push && !(url === location.href && sameState(window.history.state, state));
  const write = (s) => (add ? window.history.pushState(s, '', url) : window.history.replaceState(s, '', url));
  try {
    write(state);
  } catch {
    // A state too large to keep, or a browser limiting how often history
    // changes: the address still follows the position, without its line.
    try {
      if (state !== null) write(null);
    } catch {
      /* sandboxed frames may refuse */
    }
  }
  return add;
}

/** Whether two history states hold the same line (plain data). */
function sameState(a, b) {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}
