// The board application's controller, used by both the compact embed and the
// full page. The state (state.js) is a played line of positions and a cursor
// into it; every change of the current position renders the board at once
// (view.js) and then asks the tablebase (analysis.js; answers are cached per
// FEN for instant back/forward).
import { h, replace } from './dom.js';
import { createView, renderControls, renderEditing, renderNotice, placeSpares } from './view.js';
import { analyse, awaitsNetwork, hostTables, legalFor, markLoading, refreshStats } from './analysis.js';
import { clearCache, prefetch } from './cache-actions.js';
import { keyHandler } from './keys.js';
import { createState, currentFen, setLine, moveCursor, pushMove, pushLine, DEFAULT_FEN } from './state.js';
import { readUrlPosition, shortUrl, writeUrl } from './url.js';
import { isShareCode, decodePosition } from './sharecode.js';
import { canonicalMaterial, randomPosition } from './materials.js';
import { openTablebase, parseTableUrls, loadWasm } from './tablebase.js';
import { earlyHeads } from './early.js';
import { applyUci, enPassantSquares, inCheck, materialKey, mirrorFiles, normalizeFen, parseFen, repairLinkedFen, swapColors, withHalfmove, withTurn, makeFen } from './chess.js';

/** Whether a table generated for `target` (a material name) is the one `fen` waits for. */
function generatingFor(fen, target) {
  try {
    const [white, black] = materialKey(fen).split('v');
    return canonicalMaterial(white.slice(1), black.slice(1)) === target;
  } catch {
    return false;
  }
}

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
  const ctx = { s, view, full, host, act };
  const { board, editor } = view;
  // A press on the board takes the focus (its drag handling cancels the
  // press, which would leave it where it was): the keys meant for the board
  // (arrows, f) then reach this element, also where it listens on itself
  // alone (embedded), and a FEN box no longer takes them.
  view.boardBox.tabIndex = -1;
  view.boardBox.addEventListener('pointerdown', () => view.boardBox.focus({ preventScroll: true }), true);
  let detachEditor = null;

  // ---- tablebase -----------------------------------------------------------------
  function connect(spec) {
    if (s.unsubscribe) s.unsubscribe();
    s.unsubscribe = null;
    s.handle = null;
    // The legal moves came from the old Tablebase: the new one gives them
    // again (else the board stays locked until an answer brings moves).
    s.legalFen = null;
    s.handleFailed = false;
    act.reconnect = () => connect(spec);
    let urls;
    try {
      urls = parseTableUrls(spec);
    } catch (err) {
      urls = err;
    }
    // An address that is not one fails as the tables failing to open do:
    // the board stays, the card says why.
    const opened = urls instanceof Error ? Promise.reject(urls) : openTablebase(urls, early);
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
      // (not over another position's card, nor over an error).
      const offGen = handle.subscribeGenerate((p) => {
        if (!s.destroyed && s.loading && generatingFor(s.loading, p.target)) view.verdict.generating(p);
      });
      s.unsubscribe = () => {
        offNet();
        offGen();
      };
      return handle;
    });
    s.handlePromise = promise;
    s.handlePromise.catch(() => {});
    early = [];
    s.scan = null;
    s.coverage = null;
    s.results.clear();
    s.mainlines.clear();
    s.zeroingLines.clear();
  }

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
      const write = () => writeEntry(fen, push);
      // A key held down writes the address once it rests: browsers refuse
      // history changes (pushes and replacements alike) past about a
      // hundred in a few seconds, and the address then stopped following.
      if (held) s.urlTimer = setTimeout(write, 250);
      else write();
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

  /**
   * What a history entry keeps: the played line, and whether the editor
   * was open (so opening it is an entry of its own even where the line it
   * starts is the one shown: a position loaded, then Edit).
   */
  function entryState() {
    return s.editing ? { line: s.line, ply: s.ply, editing: s.editId } : { line: s.line, ply: s.ply };
  }

  /** The address of `fen` with this entry's state, seen from the board's side (see writeUrl). */
  function writeEntry(fen, push) {
    const pushed = writeUrl(fen, { push, state: entryState(), orientation: board.orientation });
    // An entry of its own in the editor (a FEN typed there): the opening's is no longer the one shown.
    if (pushed && s.editing) s.editOpened = null;
  }

  // ---- actions ---------------------------------------------------------------------
  /**
   * Loads a FEN (or share code) as the new root, from the attribute, URL,
   * input or API. An invalid one changes nothing on the board: the notice
   * says what is wrong and where it came from (`source`).
   */
  function load(fen, { fromUrl = false, source = 'FEN', push = true } = {}) {
    let normal;
    try {
      normal = isShareCode(fen) ? decodePosition(fen) : normalizeFen(fen);
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

  /** Loads an edited position (preset, side to move, clock) and keeps the pieces as shown. */
  function loadEdited(fen) {
    setLine(s, normalizeFen(fen));
    board.setPosition({ fen: currentFen(s), turn: parseFen(currentFen(s)).turn });
    show(false);
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
    if (s.editing) setEditing(false);
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
    if (options.urlSync) writeEntry(currentFen(s), false);
  }

  /** The editor's panel, spare pieces and board mode (the position is the caller's). */
  function editorUi(on) {
    s.editing = on;
    renderEditing(view, on);
    board.setEditing(on);
    if (on) {
      placeSpares(view, true);
      detachEditor = editor.attach(view.boardBox);
    } else {
      placeSpares(view, false);
      if (detachEditor) detachEditor();
      detachEditor = null;
    }
  }

  function setEditing(on) {
    if (on === s.editing) return;
    if (on) {
      // The edited position drops castling rights (tables hold none); its
      // en passant square stays, and the editor can set one.
      // An en passant square the pieces do not allow goes too (the editor
      // offers only those they allow, so it could not be taken back), as
      // does one beside a running clock (a pawn's double step sets it to
      // 0: the prober refuses the two once a piece moved makes the capture legal).
      const pos = parseFen(currentFen(s));
      const keep = pos.halfmove === 0 && enPassantSquares(pos).includes(pos.ep);
      const edited = { ...pos, castling: '-', ep: keep ? pos.ep : '-' };
      setLine(s, makeFen(edited));
      // This opening's own entry (a reload keeps an older one's state).
      s.editId = Math.random().toString(36).slice(2);
      editorUi(true);
      editor.setState(edited);
    } else editorUi(false);
    // Opening the editor is a history entry: Back returns to the played line.
    show(true, { push: on });
    s.editOpened = on ? { fen: currentFen(s), id: s.editId } : null;
  }

  /**
   * The editor's own close (its button, Done, the `e` key). Nothing
   * changed in it and its opening's entry still the current one: that
   * entry is taken back, so that Back does not step through the same
   * position twice, and the played line returns.
   */
  function closeEditor() {
    if (s.leavingEditor) return;
    const opened = s.editOpened;
    s.editOpened = null;
    const untouched = options.urlSync && opened && currentFen(s) === opened.fen && window.history.state?.editing === opened.id;
    if (!untouched) return setEditing(false);
    // onHistory leaves the editor and brings the entry before back (its
    // line and cursor), redrawing the board for play. Until it lands the
    // editor's toggle waits: a second press would be undone by that Back.
    s.leavingEditor = setTimeout(() => (s.leavingEditor = 0), 1000);
    window.history.back();
  }

  async function share() {
    const text = options.urlSync ? shortUrl(currentFen(s), location.href, board.orientation) : currentFen(s);
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

  Object.assign(act, {
    load,
    loadEdited,
    jump,
    step: (d, how) => jump(s.ply + d, how),
    play,
    playMainline(index) {
      const line = s.mainlines.get(currentFen(s));
      if (!line) return;
      if (s.editing) setEditing(false);
      pushLine(
        s,
        line.moves.slice(0, index + 1).map((m) => ({ fen: normalizeFen(m.fen), uci: m.uci, san: m.san })),
      );
      show(true, { push: true });
    },
    flip,
    /**
     * The other side to move: a new position, so a new line and, off the
     * editor, a history entry (Back returns to the line played before).
     */
    toggleTurn() {
      const fen = withTurn(currentFen(s), parseFen(currentFen(s)).turn === 'white' ? 'black' : 'white');
      setLine(s, fen);
      if (s.editing) editor.setState(parseFen(fen));
      show(true, { push: !s.editing });
    },
    // The side already to move changes nothing (withTurn drops the en passant square).
    setTurn: (color) => parseFen(currentFen(s)).turn !== color && loadEdited(withTurn(currentFen(s), color)),
    setHalfmove: (n) => loadEdited(withHalfmove(currentFen(s), n)),
    // A pawn's double step just played sets the clock to 0.
    setEnPassant: (sq) => {
      const pos = parseFen(currentFen(s));
      loadEdited(makeFen({ ...pos, ep: sq, halfmove: sq === '-' ? pos.halfmove : 0 }));
    },
    setEditing,
    closeEditor,
    toggleEditing: () => full && !s.leavingEditor && (s.editing ? closeEditor() : setEditing(true)),
    /** The pieces on the board changed in the editor. */
    editedOnBoard() {
      const pos = parseFen(currentFen(s));
      let fen = `${board.cg.getFen()} ${pos.turn === 'white' ? 'w' : 'b'} - - ${pos.halfmove} ${pos.fullmove}`;
      // The en passant square chosen stays while the pieces still allow it
      // (and the clock stands at 0, see setEditing).
      if (pos.ep !== '-' && pos.halfmove === 0) {
        const placed = { ...parseFen(fen), ep: pos.ep };
        if (enPassantSquares(placed).includes(pos.ep)) fen = makeFen(placed);
      }
      if (fen === currentFen(s)) return;
      setLine(s, fen);
      show(false, { debounce: 120 });
    },
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
      if (!value.trim() || value.trim() === currentFen(s)) return;
      if (load(value.trim()) && s.editing) editor.setState(parseFen(currentFen(s)));
    },
    transform(kind) {
      loadEdited(kind === 'swap' ? swapColors(currentFen(s)) : mirrorFiles(currentFen(s)));
      if (s.editing) editor.setState(parseFen(currentFen(s)));
    },
    share,
    clearCache: () => clearCache(ctx),
    prefetch: () => prefetch(ctx, currentFen(s)),
    help: () => view.help.toggle(),
    closeHelp: () => view.help.hide(),
    browse: () => view.browser && view.browser.open(),
    scanHost: () => hostTables(ctx),
    loadBrowsed(fen) {
      if (s.editing) setEditing(false);
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

  /**
   * The played line an entry of the session history kept (show() writes it
   * there), when it matches the position its URL names: { line, ply } or null.
   */
  function historyLine(fen) {
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
  function onHistory() {
    clearTimeout(s.leavingEditor);
    s.leavingEditor = 0;
    const p = readUrlPosition();
    if (!p) return;
    // The board keeps the side it is seen from; an entry written before a
    // flip says so too, so that a reload there keeps it.
    if ((p.orientation || 'white') !== board.orientation) {
      writeUrl(p.fen, { state: window.history.state, orientation: board.orientation });
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
      if (s.editing) editorUi(false);
      if (!within) s.line = kept.line;
      s.ply = kept.ply;
      clearNotice();
      show(true, { fromUrl: true });
      return;
    }
    // Back from the editor leaves it, whatever the entry holds (a page
    // opened from a link has an entry without a line).
    const wasEditing = s.editing;
    if (wasEditing) editorUi(false);
    if (fen === currentFen(s)) {
      if (wasEditing) {
        clearNotice();
        show(true, { fromUrl: true });
      }
      return;
    }
    const i = fen ? s.line.findIndex((e) => e.fen === fen) : -1;
    if (i >= 0) {
      s.ply = i;
      clearNotice();
      show(true, { fromUrl: true });
    } else load(p.fen, { fromUrl: true, source: 'The link\'s position' });
  }
  // popstate alone misses nothing in Chromium, but a hash typed into the
  // address bar fires both: the second finds the position already shown.
  if (options.urlSync) {
    window.addEventListener('popstate', onHistory);
    window.addEventListener('hashchange', onHistory);
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
  connect(options.tables);
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
  } else if (!load(initial, { fromUrl: !!fromUrl, source, push: false })) {
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
      connect(spec);
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
      board.setOrientation(color);
      if (s.editing) placeSpares(view, true);
    },
    destroy() {
      s.destroyed = true;
      clearTimeout(s.urlTimer);
      keyTarget.removeEventListener('keydown', onKey);
      if (options.urlSync) {
        window.removeEventListener('popstate', onHistory);
        window.removeEventListener('hashchange', onHistory);
      }
      window.removeEventListener('online', onOnline);
      if (s.unsubscribe) s.unsubscribe();
      board.destroy();
    },
  };
}
