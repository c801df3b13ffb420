// Board editor: spare pieces (drag them on, or pick one and tap squares),
// a trash tool, drag off the board to remove, material presets, side to move,
// the en passant square and the halfmove clock.
import { h, icon, ICONS } from './dom.js';
import { sideName } from './verdict.js';
import { clockOf, enPassantSquares } from './chess.js';

const SPARE_ROLES = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];

/** Material presets: label -> FEN (all without castling rights). */
export const PRESETS = [
  { label: 'KQvK', fen: '8/8/8/4k3/8/8/8/3QK3 w - - 0 1' },
  { label: 'KRvK', fen: '8/8/8/4k3/8/8/8/R3K3 w - - 0 1' },
  { label: 'KPvK', fen: '8/8/8/8/4k3/8/4P3/4K3 w - - 0 1' },
  { label: 'KBNvK', fen: '8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1' },
  { label: 'KRPvKR', fen: '1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1' },
  { label: 'KQPvKQ', fen: 'k6q/8/2P5/8/8/8/8/3Q2K1 w - - 0 1' },
];

/**
 * Creates the editor parts. callbacks:
 *   changed()             pieces on the board changed through a tool
 *   preset(fen)           a preset or "clear" was chosen
 *   turn(color)           side to move chosen
 *   halfmove(n)           halfmove clock edited
 *   ep(square)            en passant square chosen ('-' for none)
 *   transform(kind)       'swap' colours or 'mirror' the position
 *   done()                leave the editor
 */
export function createEditor(board, callbacks) {
  let tool = 'pointer'; // 'pointer' | 'trash' | 'white-queen' ...
  const toolButtons = [];

  function spareBar(color) {
    const items = [
      toolButton('pointer', 'Move pieces', icon(ICONS.pointer)),
      ...SPARE_ROLES.map((role) => {
        const btn = toolButton(`${color}-${role}`, `${sideName(color)} ${role}`, h('piece', { class: `${role} ${color}` }));
        // A drag places one piece and leaves the tool as it was; a click
        // (press and release on the button) arms the piece for tapping squares.
        const start = (e) => {
          if (e.button !== undefined && e.button !== 0) return;
          e.preventDefault();
          board.refreshBounds();
          board.cg.dragNewPiece({ role, color }, e, true);
        };
        btn.addEventListener('mousedown', start);
        btn.addEventListener('touchstart', start, { passive: false });
        // A tap arms the piece: the drag's preventDefault on touchstart
        // suppresses the click that does it for a mouse.
        btn.addEventListener('touchend', (ev) => {
          const t = ev.changedTouches[0];
          if (t && btn.contains(document.elementFromPoint(t.clientX, t.clientY))) selectTool(`${color}-${role}`);
        });
        return btn;
      }),
      toolButton('trash', 'Remove pieces', icon(ICONS.trash)),
    ];
    return h('div.sb-spare.cg-wrap', { role: 'toolbar', 'aria-label': `${sideName(color)} pieces` }, items);
  }

  function toolButton(name, label, content) {
    const btn = h(
      'button.sb-tool',
      { type: 'button', title: label, 'aria-label': label, 'aria-pressed': String(tool === name), dataset: { tool: name }, onclick: () => selectTool(name) },
      content,
    );
    toolButtons.push(btn);
    return btn;
  }

  function selectTool(name) {
    tool = name;
    for (const b of toolButtons) {
      const on = b.dataset.tool === name;
      b.classList.toggle('sb-selected', on);
      b.setAttribute('aria-pressed', String(on));
    }
  }

  const spareTop = spareBar('black');
  const spareBottom = spareBar('white');
  selectTool('pointer');

  // With a piece or the trash selected, taps on the board place or remove.
  function onBoardDown(e) {
    if (tool === 'pointer') return;
    if (e.button !== undefined && e.button !== 0) return;
    const point = e.touches && e.touches[0] ? [e.touches[0].clientX, e.touches[0].clientY] : [e.clientX, e.clientY];
    const key = board.cg.getKeyAtDomPos(point);
    if (!key) return;
    e.preventDefault();
    e.stopPropagation();
    const existing = board.cg.state.pieces.get(key);
    if (tool === 'trash') {
      if (existing) board.cg.setPieces(new Map([[key, undefined]]));
    } else {
      const [color, role] = tool.split('-');
      const same = existing && existing.role === role && existing.color === color;
      board.cg.setPieces(new Map([[key, same ? undefined : { role, color }]]));
    }
    callbacks.changed();
  }

  const turnButtons = ['white', 'black'].map((color) =>
    h(
      'button.sb-seg',
      { type: 'button', role: 'radio', dataset: { color }, 'aria-checked': 'false', onclick: () => callbacks.turn(color) },
      `${sideName(color)} to move`,
    ),
  );
  const clockInput = h('input.sb-input.sb-clock', {
    type: 'number',
    min: '0',
    max: '150',
    inputmode: 'numeric',
    'aria-label': 'Halfmove clock',
    onchange: (e) => {
      // The field shows the clock the position takes, also while focused.
      const n = clockOf(e.target.value);
      e.target.value = String(n);
      callbacks.halfmove(n);
    },
  });

  // Only squares where a capture en passant is possible: the others change nothing.
  const epSelect = h('select.sb-input.sb-ep', { 'aria-label': 'En passant square', onchange: (e) => callbacks.ep(e.target.value) });

  const panel = h(
    'section.sb-card.sb-editor',
    { 'aria-label': 'Board editor' },
    h('h2.sb-card-title', 'Board editor'),
    h('p.sb-hint', 'Drag pieces from the bars onto the board, or pick one and tap squares. Drag a piece off the board to remove it.'),
    h('div.sb-row', h('div.sb-segmented', { role: 'radiogroup', 'aria-label': 'Side to move' }, turnButtons)),
    h(
      'div.sb-presets',
      { role: 'group', 'aria-label': 'Material presets' },
      PRESETS.map((p) => h('button.sb-chip', { type: 'button', title: `Set up ${p.label}`, onclick: () => callbacks.preset(p.fen) }, p.label)),
    ),
    h('label.sb-row.sb-ep-row', h('span', 'En passant', h('small', ' (a pawn that just moved two squares)')), epSelect),
    h(
      'label.sb-row.sb-clock-row',
      h('span', 'Halfmove clock', h('small', ' (plies since the last capture or pawn move)')),
      clockInput,
    ),
    h(
      'div.sb-row.sb-editor-actions',
      h('button.sb-btn', { type: 'button', title: 'Swap colours: the same position with White and Black exchanged', onclick: () => callbacks.transform('swap') }, icon(ICONS.swap), 'Swap colours'),
      h('button.sb-btn', { type: 'button', title: 'Mirror the position from left to right', onclick: () => callbacks.transform('mirror') }, icon(ICONS.flip), 'Mirror'),
      h('button.sb-btn', { type: 'button', onclick: () => callbacks.preset('8/8/8/8/8/8/8/8 w - - 0 1') }, icon(ICONS.clear), 'Clear board'),
      h('button.sb-btn.sb-primary', { type: 'button', onclick: () => callbacks.done() }, icon(ICONS.done), 'Done'),
    ),
  );

  return {
    spareTop,
    spareBottom,
    panel,
    /** Puts the bar of the colour at the top of the board on top. */
    setOrientation(orientation) {
      const top = orientation === 'white' ? 'black' : 'white';
      return top === 'black' ? [spareTop, spareBottom] : [spareBottom, spareTop];
    },
    /** Reflects the position's side to move, en passant square and clock. */
    setState(pos) {
      const { turn, halfmove } = pos;
      const squares = enPassantSquares(pos);
      const ep = squares.includes(pos.ep) ? pos.ep : '-';
      epSelect.replaceChildren(...['-', ...squares].map((sq) => h('option', { value: sq }, sq === '-' ? 'none' : sq)));
      epSelect.value = ep;
      epSelect.disabled = !squares.length;
      for (const b of turnButtons) {
        const on = b.dataset.color === turn;
        b.classList.toggle('sb-selected', on);
        b.setAttribute('aria-checked', String(on));
      }
      if (document.activeElement !== clockInput) clockInput.value = String(halfmove);
    },
    /** Starts or stops listening to taps on the board. */
    attach(boardEl) {
      boardEl.addEventListener('mousedown', onBoardDown, true);
      boardEl.addEventListener('touchstart', onBoardDown, { capture: true, passive: false });
      return () => {
        boardEl.removeEventListener('mousedown', onBoardDown, true);
        boardEl.removeEventListener('touchstart', onBoardDown, { capture: true });
        selectTool('pointer');
      };
    },
  };
}
