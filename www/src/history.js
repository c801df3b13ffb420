// The board in the session history (url-sync): each entry keeps the played
// line and whether the editor was open, and Back, Forward or a hash typed
// into the address bar bring them back. Takes the app context (see app.js);
// `ctx.show`, `ctx.load` and `ctx.clearNotice` are the app's.
import { normalizeFen, repairLinkedFen } from './chess.js';
import { editorUi } from './editing.js';
import { currentFen } from './state.js';
import { readUrlPosition, writeUrl } from './url.js';

/**
 * What a history entry keeps: the played line, and whether the editor
 * was open (so opening it is an entry of its own even where the line it
 * starts is the one shown: a position loaded, then Edit).
 */
function entryState(s) {
  return s.editing ? { line: s.line, ply: s.ply, editing: s.editId } : { line: s.line, ply: s.ply };
}

/** The address of `fen` with this entry's state, seen from the board's side (see writeUrl). */
export function writeEntry(ctx, fen, push) {
  const { s, view } = ctx;
  const pushed = writeUrl(fen, { push, state: entryState(s), orientation: view.board.orientation });
  // An entry of its own in the editor (a FEN typed there): the opening's is no longer the one shown.
  if (pushed && s.editing) s.editOpened = null;
}

/**
 * Saves the played line in the entry shown, its address as it is. An
 * entry keeps the line of when it was written: a page opened from a link
 * had none, and one reached again by Back an older one, so the editor
 * opened there and closed unchanged (or a reload) brought back less than
 * the line on screen.
 */
export function keepLine(ctx) {
  // (The editor's entries keep what they were written with: its opening
  // is told by them.)
  if (window.history.state?.editing) return;
  try {
    window.history.replaceState(entryState(ctx.s), '', location.href);
  } catch {
    /* sandboxed frames may refuse */
  }
}

/**
 * The played line an entry of the session history kept (show() writes it
 * there), when it matches the position its URL names: { line, ply } or null.
 */
export function historyLine(fen) {
  const st = window.history.state;
  if (!fen || !st || !Array.isArray(st.line) || !Number.isInteger(st.ply) || !st.line[st.ply]) return null;
  try {
    // (Entries the older editor wrote are mended as their URLs are: see url.js.)
    const line = st.line.map((e) => ({ fen: normalizeFen(repairLinkedFen(e.fen)), uci: typeof e.uci === 'string' ? e.uci : undefined, san: typeof e.san === 'string' ? e.san : undefined }));
    return line[st.ply].fen === fen ? { line, ply: st.ply } : null;
  } catch {
    return null;
  }
}

/**
 * Back and forward (and a hash typed into the address bar): the entry's
 * played line comes back; else a position of the current line moves the
 * cursor there, and another one loads.
 */
export function onHistory(ctx) {
  const { s, view } = ctx;
  clearTimeout(s.leavingEditor);
  s.leavingEditor = 0;
  // A held key's address, not yet written, would land in this entry.
  clearTimeout(s.urlTimer);
  s.urlWrite = null;
  const p = readUrlPosition();
  if (!p) return;
  // An address typed or pasted (an entry the board did not write: no
  // line) that names a side (&o=black) is seen from it, as when it opens
  // a page; one that names none keeps the board's.
  const typed = window.history.state === null;
  const side = p.orientation || 'white';
  let turned = false;
  if (typed && p.orientation && side !== view.board.orientation) {
    view.board.setOrientation(side);
    turned = true;
  } else if (side !== view.board.orientation) {
    // The board keeps the side it is seen from; an entry written before a
    // flip says so too, so that a reload there keeps it.
    writeUrl(p.fen, { state: window.history.state, orientation: view.board.orientation });
  }
  let fen = null;
  try {
    fen = normalizeFen(p.fen);
  } catch {
    /* load() says what is wrong with it */
  }
  const kept = historyLine(fen);
  if (kept) {
    // The current line through that entry's position: the cursor moves
    // and later moves stay (Forward, →); else the entry's line comes
    // back, also where the current line is the start of it (the editor's
    // one position, opened at the line's first).
    const same = (a, b) => a.every((e, i) => e.fen === b[i].fen);
    const shorter = s.line.length < kept.line.length && same(s.line, kept.line);
    const within = !shorter && kept.ply < s.line.length && same(kept.line.slice(0, kept.ply + 1), s.line);
    if (within && kept.ply === s.ply && !s.editing) return;
    if (s.editing) editorUi(ctx, false);
    if (!within) s.line = kept.line;
    s.ply = kept.ply;
    ctx.clearNotice();
    ctx.show(true, { fromUrl: true });
    keepLine(ctx);
    return;
  }
  // Back from the editor leaves it, whatever the entry holds (a page
  // opened from a link has an entry without a line).
  const wasEditing = s.editing;
  if (wasEditing) editorUi(ctx, false);
  if (fen === currentFen(s)) {
    if (wasEditing || turned) {
      ctx.clearNotice();
      ctx.show(true, { fromUrl: true });
    }
    keepLine(ctx);
    return;
  }
  const i = fen ? s.line.findIndex((e) => e.fen === fen) : -1;
  if (i >= 0) {
    s.ply = i;
    ctx.clearNotice();
    ctx.show(true, { fromUrl: true });
  } else ctx.load(p.fen, { fromUrl: true, source: 'The link\'s position', shareCode: !!p.error });
  keepLine(ctx);
}
