// The position in the page URL: #fen=<FEN with _ for spaces> (?fen= is read too).

/** The FEN in the page URL, or null. '_' and '+' stand for spaces. */
export function readUrlFen() {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('fen');
  const fromQuery = new URLSearchParams(location.search).get('fen');
  const raw = fromHash || fromQuery;
  return raw ? raw.replace(/_/g, ' ').trim() : null;
}

/** This page's URL showing `fen` (other query parameters such as ?tables= kept). */
export function shareUrl(fen) {
  const url = new URL(location.href);
  url.searchParams.delete('fen');
  url.hash = `fen=${fen.replace(/ /g, '_')}`;
  return url.href;
}

/** Puts `fen` in the address bar without a new history entry. */
export function writeUrl(fen) {
  const url = shareUrl(fen);
  if (url === location.href) return;
  try {
    window.history.replaceState(null, '', url);
  } catch {
    /* sandboxed frames may refuse */
  }
}
