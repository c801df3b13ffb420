// The board application: one controller used by both the compact embed and
// the full page. State is a played line of positions and a cursor into it;
// every change of the current position renders the board at once and then
// asks the tablebase (results are cached per FEN for instant back/forward).
import { h, icon, ICONS, replace } from './dom.js';
import { createBoard } from './board.js';
import { createEditor } from './editor.js';
import { createMoveList, createMainline, createHistory } from './moves.js';
import { createNetworkPanel } from './network.js';
import { describe, describeError, sideName } from './verdict.js';
import { createVerdictCard } from './verdict-view.js';
import { readUrlFen, shareUrl, writeUrl } from './url.js';
import { openTablebase, parseTableUrls, asError, loadWasm } from './tablebase.js';
import { applyUci, inCheck, materialKey, normalizeFen, parseFen, pieceCount, withHalfmove, withTurn, makeFen } from './chess.js';

export const DEFAULT_FEN = '4k3/8/8/8/8/8/8/4K2R w - - 0 1';
const RESULT_CACHE = 400;

/**
 * Mounts the app into `host`. options: { full, fen, tables, orientation, urlSync }
 * Returns { load(fen), setTables(spec), fen, result, destroy() }.
 */
export function createApp(host, options) {
  const full = !!options.full;
  const state = {
    line: [{ fen: DEFAULT_FEN }],
    ply: 0,
    editing: false,
    token: 0,
    handle: null,
    handlePromise: null,
    result: null,
    results: new Map(), // fen -> probe result | {error}
    mainlines: new Map(),
    unsubscribe: null,
    destroyed: false,
    progressTimer: 0,
  };

  // ---- DOM -------------------------------------------------------------------
  const boardBox = h('div.sb-board');
  const spareTopSlot = h('div.sb-spare-slot');
  const spareBottomSlot = h('div.sb-spare-slot');
  const controlButton = (name, label, onclick, extra = {}) =>
    h('button.sb-icon-btn', { type: 'button', title: label, 'aria-label': label, onclick, ...extra }, icon(ICONS[name]));
  const firstBtn = controlButton('first', 'First position (Home)', () => jump(0));
  const prevBtn = controlButton('prev', 'Previous move (←)', () => jump(state.ply - 1));
  const nextBtn = controlButton('next', 'Next move (→)', () => jump(state.ply + 1));
  const lastBtn = controlButton('last', 'Last position (End)', () => jump(state.line.length - 1));
  const flipBtn = controlButton('flip', 'Flip board (f)', () => flip());
  const turnBtn = h(
    'button.sb-turn-btn',
    { type: 'button', title: 'Switch the side to move', onclick: () => toggleTurn() },
    h('span.sb-turn-dot'),
    h('span.sb-turn-label', h('span.sb-turn-side', 'White'), h('span.sb-turn-extra', ' to move')),
  );
  const editBtn = controlButton('edit', 'Edit position', () => setEditing(!state.editing), { 'aria-pressed': 'false' });
  const controls = h(
    'div.sb-controls',
    { role: 'toolbar', 'aria-label': 'Board controls' },
    h('div.sb-nav', firstBtn, prevBtn, nextBtn, lastBtn),
    h('div.sb-ctl-right', turnBtn, flipBtn, full ? editBtn : null),
  );

  const verdict = createVerdictCard({ explain: full });
  const verdictCard = verdict.el;

  const moveList = createMoveList({ play: (uci) => play(uci), preview: (uci) => board.showArrow(uci) });
  const movesCard = h('section.sb-card.sb-moves-card', { 'aria-label': 'Moves' }, h('h2.sb-card-title', 'Moves'), moveList.el);

  const mainline = createMainline({ play: (i) => playMainline(i) });
  const mainlineCard = h('section.sb-card.sb-mainline-card', { 'aria-label': 'Best line' }, h('h2.sb-card-title', 'Best line', h('small', ' to the next capture, pawn move or mate')), mainline.el);

  const history = createHistory({ jump: (ply) => jump(ply) });
  const fenInput = h('input.sb-input.sb-fen', {
    type: 'text',
    spellcheck: false,
    autocomplete: 'off',
    'aria-label': 'FEN',
    oninput: () => {
      state.fenDirty = true;
    },
    onchange: (e) => loadFromInput(e.target.value),
    onkeydown: (e) => {
      if (e.key === 'Enter') loadFromInput(e.target.value);
      if (e.key === 'Escape') {
        state.fenDirty = false;
        fenInput.value = currentFen();
      }
      e.stopPropagation();
    },
  });
  const shareStatus = h('span.sb-share-status', { 'aria-live': 'polite' });
  const shareBtn = h('button.sb-btn', { type: 'button', onclick: () => share() }, icon(ICONS.link), 'Copy link');
  const positionCard = h(
    'section.sb-card.sb-position-card',
    { 'aria-label': 'Position' },
    h('h2.sb-card-title', 'Played line'),
    history.el,
    h('label.sb-fen-label', 'FEN', fenInput),
    h('div.sb-row', shareBtn, shareStatus),
  );

  const network = createNetworkPanel({ clear: () => clearCache(), prefetch: () => prefetch() });

  const board = createBoard(boardBox, {
    onMove: (uci) => play(uci),
    onCancel: () => show(false),
    onEdit: () => editedOnBoard(),
  });
  const editor = createEditor(board, {
    changed: () => editedOnBoard(),
    preset: (fen) => loadEdited(fen),
    turn: (color) => loadEdited(withTurn(currentFen(), color)),
    halfmove: (n) => loadEdited(withHalfmove(currentFen(), n)),
    done: () => setEditing(false),
  });
  let detachEditor = null;

  const boardCol = h('div.sb-board-col', spareTopSlot, boardBox, spareBottomSlot, controls);
  const side = full ? h('div.sb-side', verdictCard, editor.panel, movesCard, mainlineCard) : h('div.sb-side', verdictCard, movesCard);
  const under = full ? h('div.sb-under', positionCard, network.el) : null;
  editor.panel.hidden = true;
  const root = h(`div.sb-root.${full ? 'sb-full' : 'sb-compact'}`, boardCol, side, under);
  replace(host, root);

  // ---- keyboard -----------------------------------------------------------------
  function onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    const keys = {
      ArrowLeft: () => jump(state.ply - 1),
      ArrowRight: () => jump(state.ply + 1),
      Home: () => jump(0),
      End: () => jump(state.line.length - 1),
      f: () => flip(),
    };
    if (t && t.getAttribute && t.getAttribute('role') === 'listbox' && (e.key === 'Home' || e.key === 'End')) return;
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  }
  const keyTarget = options.urlSync ? document : host;
  keyTarget.addEventListener('keydown', onKey);

  // ---- tablebase -----------------------------------------------------------------
  function connect(spec) {
    if (state.unsubscribe) state.unsubscribe();
    state.unsubscribe = null;
    state.handle = null;
    const urls = parseTableUrls(spec);
    state.handlePromise = openTablebase(urls).then((handle) => {
      if (state.destroyed) return handle;
      state.handle = handle;
      state.unsubscribe = handle.subscribe((p) => onProgress(p));
      return handle;
    });
    state.handlePromise.catch(() => {});
    state.results.clear();
    state.mainlines.clear();
  }

  function onProgress(p) {
    const busy = p && p.requestsInFlight > 0;
    verdict.fetching(busy);
    if (full) {
      network.progress(p);
      refreshStats();
    }
  }

  function refreshStats() {
    if (!full || !state.handle) return;
    try {
      Promise.resolve(state.handle.tb.stats()).then((s) => network.stats(s), () => {});
    } catch {
      /* stats are informative only */
    }
  }

  // ---- position ------------------------------------------------------------------
  const currentFen = () => state.line[state.ply].fen;

  function setLine(fen) {
    state.line = [{ fen }];
    state.ply = 0;
  }

  /** Loads a FEN as the new root (from the attribute, URL, input or API). */
  function load(fen, { fromUrl = false } = {}) {
    let normal;
    try {
      normal = normalizeFen(fen);
    } catch (err) {
      showError(err, fen);
      fenInput.setAttribute('aria-invalid', 'true');
      return false;
    }
    fenInput.removeAttribute('aria-invalid');
    setLine(normal);
    show(true, { fromUrl });
    return true;
  }

  function loadFromInput(value) {
    state.fenDirty = false;
    if (!value.trim() || value.trim() === currentFen()) return;
    if (load(value.trim()) && state.editing) editor.setState(parseFen(currentFen()));
  }

  function loadEdited(fen) {
    setLine(normalizeFen(fen));
    board.setPosition({ fen: currentFen(), turn: parseFen(currentFen()).turn });
    show(false);
  }

  /** The pieces on the board changed in the editor. */
  function editedOnBoard() {
    const pos = parseFen(currentFen());
    const fen = `${board.cg.getFen()} ${pos.turn === 'white' ? 'w' : 'b'} - - ${pos.halfmove} ${pos.fullmove}`;
    if (fen === currentFen()) return;
    setLine(fen);
    clearTimeout(state.editTimer);
    show(false, { debounce: 120 });
  }

  function jump(ply) {
    if (state.editing) return;
    const next = Math.max(0, Math.min(state.line.length - 1, ply));
    if (next === state.ply) return;
    state.ply = next;
    show(true);
  }

  /** Plays a legal move (UCI) from the current position. */
  function play(uci) {
    if (state.editing) setEditing(false);
    const fen = currentFen();
    const known = state.result && state.result.fen === fen && state.result.moves ? state.result.moves : state.legal || [];
    const move = known.find((m) => m.uci === uci) || (state.legal || []).find((m) => m.uci === uci);
    if (!move) {
      show(false);
      return;
    }
    const next = state.line[state.ply + 1];
    if (next && next.uci === uci) state.ply++;
    else {
      state.line = state.line.slice(0, state.ply + 1);
      state.line.push({ fen: applyUci(fen, uci), uci, san: move.san });
      state.ply++;
    }
    show(true);
  }

  function playMainline(index) {
    const fen = currentFen();
    const line = state.mainlines.get(fen);
    if (!line) return;
    if (state.editing) setEditing(false);
    state.line = state.line.slice(0, state.ply + 1);
    for (const m of line.moves.slice(0, index + 1)) state.line.push({ fen: normalizeFen(m.fen), uci: m.uci, san: m.san });
    state.ply = state.line.length - 1;
    show(true);
  }

  function flip() {
    board.flip();
    if (state.editing) placeSpares();
  }

  function toggleTurn() {
    const pos = parseFen(currentFen());
    const fen = withTurn(currentFen(), pos.turn === 'white' ? 'black' : 'white');
    setLine(fen);
    if (state.editing) editor.setState(parseFen(fen));
    show(true);
  }

  function setEditing(on) {
    if (on === state.editing) return;
    state.editing = on;
    root.classList.toggle('sb-editing', on);
    editBtn.setAttribute('aria-pressed', String(on));
    editBtn.replaceChildren(icon(on ? ICONS.done : ICONS.edit));
    editBtn.title = on ? 'Done editing' : 'Edit position';
    editBtn.setAttribute('aria-label', editBtn.title);
    editor.panel.hidden = !on;
    board.setEditing(on);
    if (on) {
      // The edited position drops castling rights and en passant: tables need none.
      const pos = parseFen(currentFen());
      setLine(makeFen({ ...pos, castling: '-', ep: '-' }));
      placeSpares();
      detachEditor = editor.attach(boardBox);
      editor.setState(pos);
    } else {
      spareTopSlot.replaceChildren();
      spareBottomSlot.replaceChildren();
      if (detachEditor) detachEditor();
      detachEditor = null;
    }
    show(true);
  }

  function placeSpares() {
    const [top, bottom] = editor.setOrientation(board.orientation);
    spareTopSlot.replaceChildren(top);
    spareBottomSlot.replaceChildren(bottom);
  }

  // ---- rendering -------------------------------------------------------------------
  /** Renders the current position; `redraw` also resets the board pieces. */
  function show(redraw = true, { fromUrl = false, debounce = 0 } = {}) {
    const fen = currentFen();
    const pos = parseFen(fen);
    const entry = state.line[state.ply];
    if (redraw || !state.editing) {
      board.setPosition({
        fen,
        turn: pos.turn,
        lastMove: entry.uci ? [entry.uci.slice(0, 2), entry.uci.slice(2, 4)] : null,
        check: !state.editing && inCheck(fen),
        moves: state.editing ? [] : legalFor(fen).map((m) => m.uci),
      });
    }
    if (!state.fenDirty) fenInput.value = fen;
    fenInput.removeAttribute('aria-invalid');
    turnBtn.querySelector('.sb-turn-side').textContent = sideName(pos.turn);
    turnBtn.setAttribute('aria-label', `${sideName(pos.turn)} to move: switch`);
    turnBtn.dataset.color = pos.turn;
    if (state.editing) editor.setState(pos);
    firstBtn.disabled = prevBtn.disabled = state.ply === 0 || state.editing;
    nextBtn.disabled = lastBtn.disabled = state.ply >= state.line.length - 1 || state.editing;
    history.render(state.line, state.ply);
    if (options.urlSync && !fromUrl) writeUrl(fen);
    host.dispatchEvent(new CustomEvent('syzygy-position', { detail: { fen }, bubbles: true }));
    clearTimeout(state.editTimer);
    // A new token at once: answers for earlier positions still in flight are dropped.
    const token = ++state.token;
    if (debounce) {
      markLoading(fen);
      state.editTimer = setTimeout(() => analyse(fen, token), debounce);
    } else analyse(fen, token);
  }

  function legalFor(fen) {
    if (!state.handle) return [];
    try {
      state.legal = state.handle.tb.legalMoves(fen);
      state.legalFen = fen;
      return state.legal;
    } catch {
      state.legal = [];
      return [];
    }
  }

  function markLoading(fen) {
    state.result = null;
    verdict.stale(true);
    movesCard.classList.add('sb-stale');
    mainlineCard.classList.add('sb-stale');
    network.setMaterial(safeMaterial(fen), false);
  }

  const safeMaterial = (fen) => {
    try {
      return materialKey(fen);
    } catch {
      return '';
    }
  };

  async function analyse(fen, token) {
    const stale = () => token !== state.token || state.destroyed;
    const cached = state.results.get(fen);
    if (cached) {
      if (cached.error) renderError(cached.error, fen);
      else renderResult(cached, fen);
      if (!cached.error) renderMainline(fen, token);
      return;
    }
    markLoading(fen);
    if (!state.handle) verdict.pending();
    let handle;
    try {
      handle = await state.handlePromise;
    } catch (err) {
      if (!stale()) renderError(asError(err), fen);
      return;
    }
    if (stale()) return;
    // Legal moves first: the board is playable while pages arrive.
    if (state.legalFen !== fen) {
      const legal = legalFor(fen);
      if (!state.editing) board.setMoves(legal.map((m) => m.uci), parseFen(fen).turn);
    }
    let before = null;
    try {
      before = await handle.tb.stats();
    } catch {
      before = null;
    }
    if (full) network.working(true);
    try {
      const result = await handle.tb.probe(fen);
      let after = null;
      try {
        after = await handle.tb.stats();
      } catch {
        after = null;
      }
      remember(state.results, fen, result);
      if (full) {
        network.working(false);
        network.cost(before, after);
        if (after) network.stats(after);
      }
      if (stale()) return;
      renderResult(result, fen);
      renderMainline(fen, token);
    } catch (raw) {
      const err = asError(raw);
      if (full) {
        network.working(false);
        network.error(err.code === 'network' ? 'Network error' : 'Idle');
        refreshStats();
      }
      if (err.code !== 'network') remember(state.results, fen, { error: err });
      if (stale()) return;
      renderError(err, fen);
    }
  }

  function remember(map, key, value) {
    map.delete(key);
    map.set(key, value);
    if (map.size > RESULT_CACHE) map.delete(map.keys().next().value);
  }

  function unstale() {
    movesCard.classList.remove('sb-stale');
  }

  function renderResult(r, fen) {
    state.result = r;
    unstale();
    const v = describe(r);
    verdict.result(v);
    const material = safeMaterial(fen);
    network.setMaterial(material, true);
    if (r.checkmate || r.stalemate || (r.moves && !r.moves.length)) moveList.message(r.checkmate ? 'Checkmate: no moves.' : r.stalemate ? 'Stalemate: no moves.' : 'No legal moves.');
    else moveList.render(r.moves || []);
    // The probe's move list is authoritative for the board's destinations too.
    if (!state.editing && r.moves) board.setMoves(r.moves.map((m) => m.uci), r.turn || parseFen(fen).turn);
    host.dispatchEvent(new CustomEvent('syzygy-result', { detail: { fen, result: r, verdict: v }, bubbles: true }));
  }

  function renderError(err, fen) {
    state.result = null;
    unstale();
    let pieces = 0;
    try {
      pieces = pieceCount(fen);
    } catch {
      pieces = 0;
    }
    const e = describeError(err, { pieces });
    // Outside the tables the game can still be over: say so.
    const legal = state.legalFen === fen ? state.legal || [] : [];
    let over = null;
    if (state.handle && state.legalFen === fen && !legal.length && e.code !== 'invalid-fen' && e.code !== 'illegal-position') {
      over = inCheck(fen) ? `Checkmate: ${sideName(parseFen(fen).turn === 'white' ? 'black' : 'white')} wins.` : 'Stalemate: draw.';
    }
    verdict.error(e, { over, fix: fixFor(e.code, fen) });
    if (legal.length) moveList.renderUnknown(legal);
    else moveList.message(e.code === 'invalid-fen' ? '' : 'No moves to show.');
    mainline.message('No best line for this position.');
    mainlineCard.classList.remove('sb-stale');
    network.setMaterial(safeMaterial(fen), false);
    host.dispatchEvent(new CustomEvent('syzygy-error', { detail: { fen, error: err, code: e.code }, bubbles: true }));
  }

  /** A one-click way out of some errors. */
  function fixFor(code, fen) {
    if (code === 'castling') {
      return h('button.sb-btn.sb-fix', { type: 'button', onclick: () => load(makeFen({ ...parseFen(fen), castling: '-' })) }, 'Probe without castling rights');
    }
    if (code === 'too-many-pieces' && full && !state.editing) {
      return h('button.sb-btn.sb-fix', { type: 'button', onclick: () => setEditing(true) }, icon(ICONS.edit), 'Remove pieces in the editor');
    }
    return null;
  }

  function showError(err, fen) {
    state.token++;
    renderError(err, fen);
  }

  async function renderMainline(fen, token) {
    if (!full) return;
    const r = state.results.get(fen);
    if (!r || r.error || r.checkmate || r.stalemate || r.insufficientMaterial || r.wdl === 0) {
      mainlineCard.classList.remove('sb-stale');
      mainline.message(r && r.wdl === 0 && !r.checkmate ? 'Drawn: no line to force.' : 'Game over.');
      return;
    }
    let line = state.mainlines.get(fen);
    if (!line) {
      mainlineCard.classList.add('sb-stale');
      try {
        line = await state.handle.tb.mainline(fen);
        remember(state.mainlines, fen, line);
      } catch (err) {
        if (token === state.token) {
          mainlineCard.classList.remove('sb-stale');
          mainline.message(`Best line unavailable: ${asError(err).message}`);
        }
        return;
      }
      refreshStats();
    }
    if (token !== state.token) return;
    mainlineCard.classList.remove('sb-stale');
    mainline.render(line);
  }

  // ---- cache & offline -------------------------------------------------------------------
  async function clearCache() {
    if (!state.handle) return;
    network.prefetchProgress('Clearing…');
    try {
      await state.handle.tb.clearCache();
      state.results.clear();
      state.mainlines.clear();
      network.prefetchProgress('Cache cleared.');
    } catch (err) {
      network.prefetchProgress(`Could not clear the cache: ${asError(err).message}`);
    }
    refreshStats();
  }

  async function prefetch() {
    if (!state.handle) return;
    const fen = currentFen();
    const key = safeMaterial(fen);
    network.prefetchProgress(`Saving ${key}…`);
    try {
      const res = await state.handle.tb.prefetch(fen, (p) => {
        const done = p && (p.bytes ?? p.loaded ?? 0);
        const total = p && (p.totalBytes ?? p.total ?? 0);
        network.prefetchProgress(total ? `Saving ${key}: ${Math.round((100 * done) / total)} %` : `Saving ${key}: ${formatKB(done)}`);
        refreshStats();
      });
      network.prefetchProgress(`${key} is available offline (${formatKB(res && res.bytes)}).`);
    } catch (err) {
      network.prefetchProgress(`Could not save ${key}: ${asError(err).message}`);
    }
    refreshStats();
  }

  const formatKB = (n) => (Number.isFinite(n) ? `${Math.round(n / 1024).toLocaleString('en')} KB` : '');

  // ---- URL sharing -------------------------------------------------------------------
  async function share() {
    const url = options.urlSync ? shareUrl(currentFen()) : `${location.href.split('#')[0]}#fen=${currentFen().replace(/ /g, '_')}`;
    try {
      await navigator.clipboard.writeText(url);
      shareStatus.textContent = 'Link copied';
    } catch {
      shareStatus.textContent = url;
    }
    setTimeout(() => (shareStatus.textContent = ''), 4000);
  }

  function onHashChange() {
    const fen = readUrlFen();
    if (fen && fen !== currentFen()) load(fen, { fromUrl: true });
  }
  if (options.urlSync) window.addEventListener('hashchange', onHashChange);

  // ---- start -------------------------------------------------------------------
  connect(options.tables);
  if (options.orientation === 'black') board.setOrientation('black');
  const initial = (options.urlSync && readUrlFen()) || options.fen || DEFAULT_FEN;
  if (!load(initial, { fromUrl: !!(options.urlSync && readUrlFen()) })) setLine(DEFAULT_FEN);
  // Re-render once the decoder is ready so the board gets its legal moves.
  loadWasm().then(
    () => state.handlePromise.then(() => !state.destroyed && state.legalFen !== currentFen() && !state.editing && board.setMoves(legalFor(currentFen()).map((m) => m.uci), parseFen(currentFen()).turn)),
    () => {},
  );

  return {
    load: (fen) => load(fen),
    setTables(spec) {
      connect(spec);
      show(false);
    },
    get fen() {
      return currentFen();
    },
    get result() {
      return state.result;
    },
    flip,
    destroy() {
      state.destroyed = true;
      keyTarget.removeEventListener('keydown', onKey);
      if (options.urlSync) window.removeEventListener('hashchange', onHashChange);
      if (state.unsubscribe) state.unsubscribe();
      board.destroy();
    },
  };
}
