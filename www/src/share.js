// Share: the position's link (url-sync) or FEN to the clipboard, or, where
// there is none, in a selected field for the reader to copy. Takes the app
// context (see app.js).
import { h, replace } from './dom.js';
import { currentFen } from './state.js';
import { shortUrl } from './url.js';

export async function share(ctx) {
  const { s, view, options } = ctx;
  const text = options.urlSync ? shortUrl(currentFen(s), location.href, view.board.orientation) : currentFen(s);
  clearTimeout(s.shareTimer);
  try {
    await navigator.clipboard.writeText(text);
    view.shareStatus.textContent = options.urlSync ? 'Link copied' : 'FEN copied';
    s.shareTimer = setTimeout(() => (view.shareStatus.textContent = ''), 4000);
  } catch {
    // No clipboard (a page on plain http, a refusal): the text stays,
    // selected in a field, for the reader to copy themselves.
    const field = h('input.sb-share-text', {
      readOnly: true,
      value: text,
      'aria-label': options.urlSync ? 'Link to copy' : 'FEN to copy',
      onfocus: (e) => e.target.select(),
    });
    replace(view.shareStatus, field);
    field.focus();
    field.select();
  }
}
