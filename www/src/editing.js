// The position editor: opening and closing it (a history entry of its own),
// and the edits it makes, each a new position with the pieces kept as
// shown. Takes the app context (see app.js); `ctx.show` renders.
import { enPassantSquares, makeFen, mirrorFiles, normalizeFen, parseFen, swapColors, withHalfmove, withTurn } from './chess.js';
import { currentFen, setLine } from './state.js';
import { placeSpares, renderEditing } from './view.js';

/** The editor's panel, spare pieces and board mode (the position is the caller's). */
export function editorUi(ctx, on) {
  const { s, view } = ctx;
  s.editing = on;
  renderEditing(view, on);
  view.board.setEditing(on);
  if (on) {
    placeSpares(view, true);
    ctx.detachEditor = view.editor.attach(view.boardBox);
  } else {
    placeSpares(view, false);
    if (ctx.detachEditor) ctx.detachEditor();
    ctx.detachEditor = null;
  }
}

/**
 * `fen` as the editor holds a position: no castling rights (tables hold
 * none), and an en passant square only where the pieces allow it and the
 * clock is 0 (see setEditing). A parsed position.
 */
export function editable(fen) {
  const pos = parseFen(fen);
  const keep = pos.halfmove === 0 && enPassantSquares(pos).includes(pos.ep);
  return { ...pos, castling: '-', ep: keep ? pos.ep : '-' };
}

export function setEditing(ctx, on) {
  const { s, view } = ctx;
  if (on === s.editing) return;
  if (on) {
    // The edited position drops castling rights (tables hold none); its
    // en passant square stays, and the editor can set one.
    // An en passant square the pieces do not allow goes too (the editor
    // offers only those they allow, so it could not be taken back), as
    // does one beside a running clock (a pawn's double step sets it to
    // 0: the prober refuses the two once a piece moved makes the capture legal).
    const edited = editable(currentFen(s));
    setLine(s, makeFen(edited));
    // This opening's own entry (a reload keeps an older one's state).
    s.editId = Math.random().toString(36).slice(2);
    editorUi(ctx, true);
    view.editor.setState(edited);
  } else editorUi(ctx, false);
  // Opening the editor is a history entry: Back returns to the played line.
  ctx.show(true, { push: on });
  s.editOpened = on ? { fen: currentFen(s), id: s.editId } : null;
}

/**
 * The editor's own close (its button, Done, the `e` key). Nothing
 * changed in it and its opening's entry still the current one: that
 * entry is taken back, so that Back does not step through the same
 * position twice, and the played line returns.
 */
export function closeEditor(ctx) {
  const { s } = ctx;
  if (s.leavingEditor) return;
  const opened = s.editOpened;
  s.editOpened = null;
  const untouched = ctx.options.urlSync && opened && currentFen(s) === opened.fen && window.history.state?.editing === opened.id;
  if (!untouched) return setEditing(ctx, false);
  // onHistory leaves the editor and brings the entry before back (its
  // line and cursor), redrawing the board for play. Until it lands the
  // editor's toggle waits: a second press would be undone by that Back.
  s.leavingEditor = setTimeout(() => (s.leavingEditor = 0), 1000);
  window.history.back();
}

/** Loads an edited position (preset, side to move, clock) and keeps the pieces as shown. */
export function loadEdited(ctx, fen) {
  const { s, view } = ctx;
  setLine(s, normalizeFen(fen));
  view.board.setPosition({ fen: currentFen(s), turn: parseFen(currentFen(s)).turn });
  ctx.show(false);
}

/** The editor's actions, for the app's action table. */
export function editingActions(ctx) {
  const { s, view, full } = ctx;
  const fen = () => currentFen(s);
  return {
    loadEdited: (f) => loadEdited(ctx, f),
    /**
     * The other side to move: a new position, so a new line and, off the
     * editor, a history entry (Back returns to the line played before).
     */
    toggleTurn() {
      const turned = withTurn(fen(), parseFen(fen()).turn === 'white' ? 'black' : 'white');
      setLine(s, turned);
      if (s.editing) view.editor.setState(parseFen(turned));
      ctx.show(true, { push: !s.editing });
    },
    // The side already to move changes nothing (withTurn drops the en passant square).
    setTurn: (color) => parseFen(fen()).turn !== color && loadEdited(ctx, withTurn(fen(), color)),
    setHalfmove: (n) => loadEdited(ctx, withHalfmove(fen(), n)),
    // A pawn's double step just played sets the clock to 0.
    setEnPassant: (sq) => {
      const pos = parseFen(fen());
      loadEdited(ctx, makeFen({ ...pos, ep: sq, halfmove: sq === '-' ? pos.halfmove : 0 }));
    },
    setEditing: (on) => setEditing(ctx, on),
    closeEditor: () => closeEditor(ctx),
    toggleEditing: () => full && !s.leavingEditor && (s.editing ? closeEditor(ctx) : setEditing(ctx, true)),
    /** The pieces on the board changed in the editor. */
    editedOnBoard() {
      const pos = parseFen(fen());
      let placed = `${view.board.cg.getFen()} ${pos.turn === 'white' ? 'w' : 'b'} - - ${pos.halfmove} ${pos.fullmove}`;
      // The en passant square chosen stays while the pieces still allow it
      // (and the clock stands at 0, see setEditing).
      if (pos.ep !== '-' && pos.halfmove === 0) {
        const withEp = { ...parseFen(placed), ep: pos.ep };
        if (enPassantSquares(withEp).includes(pos.ep)) placed = makeFen(withEp);
      }
      if (placed === fen()) return;
      setLine(s, placed);
      ctx.show(false, { debounce: 120 });
    },
    transform(kind) {
      loadEdited(ctx, kind === 'swap' ? swapColors(fen()) : mirrorFiles(fen()));
      if (s.editing) view.editor.setState(parseFen(fen()));
    },
  };
}
