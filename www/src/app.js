// The board application's controller, used by both the compact embed and the
// full page. The state (state.js) is a played line of positions and a cursor
// into it; every change of the current position renders the board at once
// (view.js) and then asks the tablebase (analysis.js; answers are cached per
// FEN for instant back/forward). Its parts take one context, { s: state,
// view, full, host, act, options, early, show, load, clearNotice }: the
// Tablebase (connect.js), the editor (editing.js), the session history
// (history.js), sharing (share.js).
import { replace } from './dom.js';
import { createView, renderControls, renderNotice, placeSpares } from './view.js';
import { analyse, awaitsNetwork, hostTables, legalFor, markLoading } from './analysis.js';
import { clearCache, prefetch } from './cache-actions.js';
import { keyHandler } from './keys.js';
import { createState, currentFen, setLine, moveCursor, pushMove, pushLine, DEFAULT_FEN } from './state.js';
import { readUrlPosition } from './url.js';
import { isShareCode, decodePosition } from './sharecode.js';
import { randomPosition } from './materials.js';
import { parseTableUrls, loadWasm } from './tablebase.js';
import { earlyHeads } from './early.js';
import { applyUci, inCheck, makeFen, normalizeFen, parseFen } from './chess.js';
import { connect } from './connect.js';
import { editable, editingActions, setEditing } from './editing.js';
import { historyLine, keepLine, onHistory, writeEntry } from './history.js';
import { share, sharePgn } from './share.js';

export { DEFAULT_FEN };

/**
 * Mounts the app into `host`. options: { full, fen, tables, orientation, urlSync }
 * Returns { load(fen), setTables(spec), fen, result, flip(), destroy() }.
 */
export function createApp(host, options) {
  const full = !!options.full;
  // Before the board is drawn: the module and the heads of the first position's tables start loading.
  loadWasm().catch(() => {});
  const startFen = (options.urlSync && readUrlPosition()?.fen) || options.fen || DEFAULT_FEN;
  let early = [];
  try {
    early = earlyHeads(parseTableUrls(options.tables), startFen);
  } catch {
    // A table address that is not one: connect() shows why.
  }
  const s = createState();
  const act = {};
  const view = createView(host, { full, urlSync: !!options.urlSync }, act);
  const ctx = { s, view, full, host, act, options, early, show, load, clearNotice };
  const { board, editor } = view;
  // A press on the board takes the focus (its drag handling cancels the
  // press, which would leave it where it was): the keys meant for the board
  // (arrows, f) then reach this element, also where it listens on itself
  // alone (embedded), and a FEN box no longer takes them.
  view.boardBox.tabIndex = -1;
  view.boardBox.addEventListener('pointerdown', () => view.boardBox.focus({ preventScroll: true }), true);

  // ---- rendering -------------------------------------------------------------------
  /** Renders the current position; `redraw` also resets the board pieces. */
  function show(redraw = true, { fromUrl = false, debounce = 0, push = false, held = false } = {}) {
    const fen = currentFen(s);
    const pos = parseFen(fen);
    const entry = s.line[s.ply];
    if (redraw || !s.editing) {
      board.setPosition({
        fen,
        turn: pos.turn,
        lastMove: entry.uci ? [entry.uci.slice(0, 2), entry.uci.slice(2, 4)] : null,
        check: !s.editing && inCheck(fen),
        moves: s.editing ? [] : legalFor(ctx, fen).map((m) => m.uci),
      });
    }
    renderControls(view, s, pos);
    // The entry keeps the played line: Back and Forward bring it back.
    if (options.urlSync && !fromUrl) {
      clearTimeout(s.urlTimer);
      // A held key's address not yet written is written first (it replaces
      // its entry): else the entry Back returns to kept the ply before the
      // key was held.
      const waiting = s.urlWrite;
      s.urlWrite = null;
      if (waiting && !held) waiting();
      const write = () => {
        s.urlWrite = null;
        writeEntry(ctx, fen, push);
      };
      // A key held down writes the address once it rests: browsers refuse
      // history changes (pushes and replacements alike) past about a
      // hundred in a few seconds, and the address then stopped following.
      if (held) {
        s.urlWrite = write;
        s.urlTimer = setTimeout(write, 250);
      } else write();
    }
    // A link or FEN left to copy by hand (no clipboard) was of the last position.
    if (view.shareStatus.firstChild && view.shareStatus.firstChild.nodeType === 1) replace(view.shareStatus);
    host.dispatchEvent(new CustomEvent('syzygy-position', { detail: { fen }, bubbles: true }));
    clearTimeout(s.editTimer);
    // A new token at once: answers for earlier positions still in flight are dropped.
    const token = ++s.token;
    if (debounce) {
      markLoading(ctx, fen);
      s.editTimer = setTimeout(() => analyse(ctx, fen, token), debounce);
    } else analyse(ctx, fen, token);
  }

  // ---- actions ---------------------------------------------------------------------
  /**
   * Loads a FEN (or share code) as the new root, from the attribute, URL,
   * input or API. An invalid one changes nothing on the board: the notice
   * says what is wrong and where it came from (`source`).
   */
  function load(fen, { fromUrl = false, source = 'FEN', push = true, shareCode = false } = {}) {
    let normal;
    try {
      // (`shareCode`: a link's p= that did not decode, said as a code, not as a FEN.)
      normal = shareCode || isShareCode(fen) ? decodePosition(fen) : normalizeFen(fen);
    } catch (err) {
      renderNotice(view, `${source} "${String(fen).slice(0, 80)}" is not a valid position: ${err.message.replace(/^Invalid (FEN|share code): /, '')}.`);
      view.fenInput.setAttribute('aria-invalid', 'true');
      return false;
    }
    renderNotice(view, null);
    view.fenInput.removeAttribute('aria-invalid');
    setLine(s, normal);
    // A new history entry: Back returns to the position (and line) shown before.
    show(true, { fromUrl, push });
    return true;
  }

  /**
   * Moves along the line: a history entry too, as for a played move, so
   * that Back retraces what was shown (replacing the entry instead had
   * Back after stepping to the start land on a later move). A key held
   * down (`repeat`) moves the entry its first press made, once it rests.
   */
  function jump(ply, { repeat = false } = {}) {
    if (s.editing) return;
    if (moveCursor(s, ply)) {
      clearNotice();
      show(true, { push: !repeat, held: repeat });
    }
  }

  /** A notice about a FEN that was not loaded is stale once the user moves on. */
  function clearNotice() {
    renderNotice(view, null);
    view.fenInput.removeAttribute('aria-invalid');
  }

  /** Plays a legal move (UCI) from the current position. */
  function play(uci) {
    clearNotice();
    if (s.editing) setEditing(ctx, false);
    const fen = currentFen(s);
    const known = s.result && s.result.fen === fen && s.result.moves ? s.result.moves : s.legal || [];
    const move = known.find((m) => m.uci === uci) || (s.legal || []).find((m) => m.uci === uci);
    if (!move) {
      show(false);
      return;
    }
    pushMove(s, { fen: applyUci(fen, uci), uci, san: move.san });
    show(true, { push: true });
  }

  function flip() {
    board.flip();
    if (s.editing) placeSpares(view, true);
    renderControls(view, s, parseFen(currentFen(s)));
    // The address keeps the side the board is seen from (&o=black), as a
    // copied link does: a reload, or the next move, no longer turns it back.
    if (options.urlSync) writeEntry(ctx, currentFen(s), false);
  }

  Object.assign(act, {
    load,
    jump,
    step: (d, how) => jump(s.ply + d, how),
    play,
    playMainline(index) {
      const fen = currentFen(s);
      const line = s.mainlines.get(fen) ?? (s.shownLine?.fen === fen ? s.shownLine.line : null);
      if (!line) return;
      if (s.editing) setEditing(ctx, false);
      pushLine(
        s,
        line.moves.slice(0, index + 1).map((m) => ({ fen: normalizeFen(m.fen), uci: m.uci, san: m.san })),
      );
      show(true, { push: true });
    },
    flip,
    ...editingActions(ctx),
    redraw: () => show(false),
    /** Shows a move of the list as an arrow (not while editing: the pieces are being placed). */
    preview: (uci) => board.showArrow(s.editing ? null : uci),
    fenEdited() {
      s.fenDirty = view.fenInput.value !== currentFen(s);
    },
    fenReset() {
      s.fenDirty = false;
      view.fenInput.value = currentFen(s);
    },
    loadFromInput(value) {
      s.fenDirty = false;
      let typed = value.trim();
      if (!typed || typed === currentFen(s)) return;
      // In the editor, as the editor holds positions: castling rights and
      // an en passant square the pieces do not allow go (Done then gave
      // the tables a position they refuse).
      if (s.editing) {
        try {
          typed = makeFen(editable(isShareCode(typed) ? decodePosition(typed) : normalizeFen(typed)));
        } catch {
          /* load() says what is wrong with it */
        }
      }
      if (load(typed) && s.editing) editor.setState(parseFen(currentFen(s)));
    },
    share: () => share(ctx),
    sharePgn: () => sharePgn(ctx),
    clearCache: () => clearCache(ctx),
    prefetch: () => prefetch(ctx, currentFen(s)),
    help: () => view.help.toggle(),
    closeHelp: () => view.help.hide(),
    browse: () => view.browser && view.browser.open(),
    scanHost: () => hostTables(ctx),
    loadBrowsed(fen) {
      if (s.editing) setEditing(ctx, false);
      load(fen);
      view.boardBox.scrollIntoView({ block: 'nearest' });
    },
    saveMaterial: (material) => prefetch(ctx, randomPosition(material)),
  });

  // With url-sync the board is the page's subject: it also takes the keys
  // typed with nothing focused, but not those of the page's other widgets.
  const handle = keyHandler(act);
  const onKey = (e) => {
    const t = e.target;
    if (!options.urlSync || t === document.body || t === document.documentElement || host.contains(t)) handle(e);
  };
  const keyTarget = options.urlSync ? document : host;
  keyTarget.addEventListener('keydown', onKey);

  // popstate alone misses nothing in Chromium, but a hash typed into the
  // address bar fires both: the second finds the position already shown.
  const historyMoved = () => onHistory(ctx);
  if (options.urlSync) {
    window.addEventListener('popstate', historyMoved);
    window.addEventListener('hashchange', historyMoved);
  }
  // Back online with no answer or no best line for the position shown (the
  // module or the tables could not be reached, which is not remembered):
  // try again.
  const onOnline = () => {
    const fen = currentFen(s);
    // Not where nothing is missing (a draw has no line; the compact board
    // asks for none): showing again fired a position event, rewrote the
    // address and cancelled an open promotion choice.
    if (!s.editing && awaitsNetwork(ctx, fen)) show(false);
  };
  window.addEventListener('online', onOnline);

  // ---- start -------------------------------------------------------------------
  connect(ctx, options.tables);
  const fromUrl = options.urlSync ? readUrlPosition() : null;
  if (options.orientation === 'black' || fromUrl?.orientation === 'black') board.setOrientation('black');
  const initial = startFen;
  const source = fromUrl ? 'The link\'s position' : options.fen ? 'The fen attribute' : 'FEN';
  // A reload keeps the played line its history entry holds.
  let kept = null;
  try {
    kept = fromUrl ? historyLine(normalizeFen(fromUrl.fen)) : null;
  } catch {
    kept = null;
  }
  if (kept) {
    s.line = kept.line;
    s.ply = kept.ply;
    show(true, { fromUrl: true });
  } else if (load(initial, { fromUrl: !!fromUrl, source, push: false, shareCode: !!fromUrl?.error })) {
    // A page opened from a link: its entry keeps the line from now on.
    if (fromUrl) keepLine(ctx);
  } else {
    // Keep the notice, show a valid position everywhere (board, FEN box, URL).
    const why = view.notice.textContent;
    setLine(s, DEFAULT_FEN);
    show(true);
    renderNotice(view, `${why} Showing the default position instead.`);
  }
  // Re-render once the decoder is ready so the board gets its legal moves.
  loadWasm().then(
    () =>
      s.handlePromise.then(
        () =>
          !s.destroyed &&
          s.legalFen !== currentFen(s) &&
          !s.editing &&
          board.setMoves(
            legalFor(ctx, currentFen(s)).map((m) => m.uci),
            parseFen(currentFen(s)).turn,
          ),
        () => {},
      ),
    () => {},
  );

  return {
    load: (fen) => load(fen, { source: options.urlSync ? 'FEN' : 'The fen attribute' }),
    setTables(spec) {
      connect(ctx, spec);
      show(false);
    },
    get fen() {
      return currentFen(s);
    },
    get result() {
      return s.result;
    },
    flip,
    /** Shows the board from `color`'s side ('white' or 'black'). */
    setOrientation(color) {
      if (color !== 'white' && color !== 'black') return;
      if (color === board.orientation) return;
      board.setOrientation(color);
      if (s.editing) placeSpares(view, true);
      // As flip() does: the lichess link and the address say the side too.
      renderControls(view, s, parseFen(currentFen(s)));
      if (options.urlSync) writeEntry(ctx, currentFen(s), false);
    },
    destroy() {
      s.destroyed = true;
      clearTimeout(s.urlTimer);
      keyTarget.removeEventListener('keydown', onKey);
      if (options.urlSync) {
        window.removeEventListener('popstate', historyMoved);
        window.removeEventListener('hashchange', historyMoved);
      }
      window.removeEventListener('online', onOnline);
      if (s.unsubscribe) s.unsubscribe();
      board.destroy();
    },
  };
}
