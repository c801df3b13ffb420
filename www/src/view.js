// The app's DOM: builds the board column, the cards and the controls once,
// wired to the controller's actions, and renders the position-dependent parts
// of the controls from the state. Answers are rendered by analysis.js.
import { h, icon, ICONS, replace } from './dom.js';
import { createBoard } from './board.js';
import { createEditor } from './editor.js';
import { createMoveList, createMainline, createHistory } from './moves.js';
import { createNetworkPanel } from './network.js';
import { sideName } from './verdict.js';
import { createVerdictCard, explainer } from './verdict-view.js';
import { createHelp } from './help.js';
import { createBrowser } from './browse.js';
import { currentFen } from './state.js';

/**
 * Builds the app inside `host`. `act` holds the controller's actions
 * (called late, so it may be filled after this returns).
 */
export function createView(host, { full, urlSync = true }, act) {
  const boardBox = h('div.sb-board');
  const spareTopSlot = h('div.sb-spare-slot');
  const spareBottomSlot = h('div.sb-spare-slot');
  const controlButton = (name, label, onclick, extra = {}) =>
    h('button.sb-icon-btn', { type: 'button', title: label, 'aria-label': label, onclick, ...extra }, icon(ICONS[name]));
  const firstBtn = controlButton('first', 'First position (Home)', () => act.jump(0));
  const prevBtn = controlButton('prev', 'Previous move (←)', () => act.step(-1));
  const nextBtn = controlButton('next', 'Next move (→)', () => act.step(1));
  const lastBtn = controlButton('last', 'Last position (End)', () => act.jump(Infinity));
  const flipBtn = controlButton('flip', 'Flip board (f)', () => act.flip());
  const turnBtn = h(
    'button.sb-turn-btn',
    { type: 'button', title: 'Switch the side to move', onclick: () => act.toggleTurn() },
    h('span.sb-turn-dot'),
    h('span.sb-turn-label', h('span.sb-turn-side', 'White'), h('span.sb-turn-extra', ' to move')),
  );
  const editBtn = controlButton('edit', 'Edit position', () => act.toggleEditing(), { 'aria-pressed': 'false' });
  const controls = h(
    'div.sb-controls',
    { role: 'toolbar', 'aria-label': 'Board controls' },
    h('div.sb-nav', firstBtn, prevBtn, nextBtn, lastBtn),
    h('div.sb-ctl-right', turnBtn, flipBtn, full ? editBtn : null),
  );

  const verdict = createVerdictCard();
  // Says what went wrong with a FEN or link while the board keeps a valid position.
  const notice = h('div.sb-notice', { role: 'alert', hidden: true });
  const help = createHelp({ full });

  // A move picked below the board, scrolled past it (a phone's one column
  // down at the move list): the board comes back into view, showing the
  // position it played to, and the list's best moves below it. Not while
  // half of it or more shows (a wide page scrolled a little to the best line).
  const reveal = () => {
    const r = boardBox.getBoundingClientRect();
    if (r.bottom >= r.height / 2) return;
    const still = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    boardBox.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
  };
  const moveList = createMoveList({
    play: (uci) => {
      act.play(uci);
      reveal();
    },
    preview: (uci) => act.preview(uci),
  });
  const movesCard = h('section.sb-card.sb-moves-card', { 'aria-label': 'Moves' }, h('h2.sb-card-title', 'Moves'), moveList.el);

  const mainline = createMainline({
    play: (i) => {
      act.playMainline(i);
      reveal();
    },
  });
  const mainlineCard = h(
    'section.sb-card.sb-mainline-card',
    { 'aria-label': 'Best line' },
    h('h2.sb-card-title', 'Best line', mainline.sub),
    mainline.el,
  );

  const history = createHistory({ jump: (ply) => act.jump(ply) });
  const fenInput = h('input.sb-input.sb-fen', {
    type: 'text',
    spellcheck: false,
    autocomplete: 'off',
    'aria-label': 'FEN',
    oninput: () => act.fenEdited(),
    onchange: (e) => act.loadFromInput(e.target.value),
    onkeydown: (e) => {
      if (e.key === 'Enter') act.loadFromInput(e.target.value);
      if (e.key === 'Escape') act.fenReset();
      e.stopPropagation();
    },
  });
  const shareStatus = h('span.sb-share-status', { 'aria-live': 'polite' });
  // Without url-sync the page does not read positions from its address: a link would not open this one.
  const shareBtn = urlSync
    ? h('button.sb-btn', { type: 'button', title: 'Copy a short link to this position', onclick: () => act.share() }, icon(ICONS.link), 'Copy link')
    : h('button.sb-btn', { type: 'button', title: "Copy this position's FEN", onclick: () => act.share() }, icon(ICONS.link), 'Copy FEN');
  const pgnBtn = h('button.sb-btn', { type: 'button', title: 'Copy the played line as PGN, with the best play from its end', onclick: () => act.sharePgn() }, icon(ICONS.copy), 'Copy PGN');
  const lichessLink = h('a.sb-btn.sb-lichess', { target: '_blank', rel: 'noopener', title: 'Open this position in the lichess analysis board' }, 'Open in lichess analysis');
  const positionCard = h(
    'section.sb-card.sb-position-card',
    { 'aria-label': 'Position' },
    h('h2.sb-card-title', 'Played line'),
    history.el,
    h('label.sb-fen-label', 'FEN', fenInput),
    h('div.sb-row', shareBtn, pgnBtn, lichessLink, shareStatus),
  );

  const network = createNetworkPanel({ clear: () => act.clearCache(), prefetch: () => act.prefetch() });
  const browser = full ? createBrowser({ scan: () => act.scanHost(), load: (fen) => act.loadBrowsed(fen), save: (material) => act.saveMaterial(material) }) : null;

  const board = createBoard(boardBox, {
    onMove: (uci) => act.play(uci),
    onCancel: () => act.redraw(),
    onEdit: () => act.editedOnBoard(),
  });
  const editor = createEditor(board, {
    changed: () => act.editedOnBoard(),
    preset: (fen) => act.loadEdited(fen),
    turn: (color) => act.setTurn(color),
    halfmove: (n) => act.setHalfmove(n),
    ep: (sq) => act.setEnPassant(sq),
    // The Done button goes with the editor's panel: the keyboard's focus
    // lands on the Edit button rather than the page's top.
    done: () => {
      act.closeEditor();
      if (editBtn.isConnected) editBtn.focus();
    },
    transform: (kind) => act.transform(kind),
  });
  editor.panel.hidden = true;

  const boardCol = h('div.sb-board-col', spareTopSlot, boardBox, spareBottomSlot, controls);
  const side = full ? h('div.sb-side', notice, help.el, verdict.el, editor.panel, movesCard, mainlineCard) : h('div.sb-side', notice, help.el, verdict.el, movesCard);
  const under = full ? h('div.sb-under', positionCard, browser.el, explainer(), network.el) : null;
  const root = h(`div.sb-root.${full ? 'sb-full' : 'sb-compact'}`, boardCol, side, under);
  replace(host, root);

  return {
    root,
    boardBox,
    spareTopSlot,
    spareBottomSlot,
    nav: { firstBtn, prevBtn, nextBtn, lastBtn },
    turnBtn,
    editBtn,
    verdict,
    moveList,
    movesCard,
    mainline,
    mainlineCard,
    history,
    fenInput,
    shareStatus,
    lichessLink,
    notice,
    help,
    browser,
    network,
    board,
    editor,
  };
}

/** Renders the parts of the controls that follow the position: side to move, navigation, history, FEN box. */
export function renderControls(view, s, pos) {
  const fen = currentFen(s);
  if (!s.fenDirty) view.fenInput.value = fen;
  view.fenInput.removeAttribute('aria-invalid');
  const { turnBtn } = view;
  turnBtn.querySelector('.sb-turn-side').textContent = sideName(pos.turn);
  turnBtn.setAttribute('aria-label', `${sideName(pos.turn)} to move: switch`);
  turnBtn.dataset.color = pos.turn;
  if (s.editing) view.editor.setState(pos);
  const { firstBtn, prevBtn, nextBtn, lastBtn } = view.nav;
  const nav = [firstBtn, prevBtn, nextBtn, lastBtn];
  const focused = nav.indexOf(document.activeElement);
  firstBtn.disabled = prevBtn.disabled = s.ply === 0 || s.editing;
  nextBtn.disabled = lastBtn.disabled = s.ply >= s.line.length - 1 || s.editing;
  // A button that turns itself off (Previous at the line's start) would
  // drop the focus to the page: it goes to the opposite one, else the board.
  if (focused >= 0 && nav[focused].disabled) {
    const opposite = nav[nav.length - 1 - focused];
    (opposite.disabled ? view.boardBox : opposite).focus({ preventScroll: true });
  }
  view.history.render(s.line, s.ply);
  view.lichessLink.href = `https://lichess.org/analysis/standard/${fen.replace(/ /g, '_')}${view.board.orientation === 'black' ? '?color=black' : ''}`;
}

/** Shows `text` above the verdict (null hides it). */
export function renderNotice(view, text) {
  view.notice.textContent = text || '';
  view.notice.hidden = !text;
}

/** Shows the editing mode on the edit button and the panel. */
export function renderEditing(view, on) {
  const { editBtn } = view;
  view.root.classList.toggle('sb-editing', on);
  editBtn.setAttribute('aria-pressed', String(on));
  editBtn.replaceChildren(icon(on ? ICONS.done : ICONS.edit));
  editBtn.title = on ? 'Done editing' : 'Edit position';
  editBtn.setAttribute('aria-label', editBtn.title);
  view.editor.panel.hidden = !on;
}

/** Puts the spare-piece bars above and below the board, or removes them. */
export function placeSpares(view, on) {
  if (!on) {
    view.spareTopSlot.replaceChildren();
    view.spareBottomSlot.replaceChildren();
    return;
  }
  const [top, bottom] = view.editor.setOrientation(view.board.orientation);
  view.spareTopSlot.replaceChildren(top);
  view.spareBottomSlot.replaceChildren(bottom);
}
