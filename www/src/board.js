// The chessground board: play mode (legal moves only), edit mode (free
// placement, drag off to remove) and the promotion chooser.
import { Chessground } from '@lichess-org/chessground';
import { h } from './dom.js';
import { coords } from './chess.js';

const PROMOTION_ROLES = ['queen', 'knight', 'rook', 'bishop'];
const ROLE_ORDER = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];
const PROMO_LETTER = { queen: 'q', knight: 'n', rook: 'r', bishop: 'b' };

/** Destination map for chessground from UCI moves. */
export function destsFromUci(ucis) {
  const dests = new Map();
  for (const uci of ucis) {
    const from = uci.slice(0, 2);
    const to = uci.slice(2, 4);
    if (!dests.has(from)) dests.set(from, []);
    if (!dests.get(from).includes(to)) dests.get(from).push(to);
  }
  return dests;
}

/**
 * Creates the board inside `container`.
 * handlers: onMove(uci) in play mode, onEdit(boardFen) after a change in edit mode.
 */
export function createBoard(container, handlers) {
  // For screen readers the board is one image whose label names every piece
  // and its square; the move list is the keyboard path for playing.
  const wrap = h('div.sb-cg.cg-wrap', { role: 'img' });
  const promoLayer = h('div.sb-promo.cg-wrap', { hidden: true });
  container.append(wrap, promoLayer);

  let legal = []; // UCI moves of the current position
  let editing = false;
  let shownTurn = 'white'; // the side to move of the position shown
  let pendingPromotion = null;

  const cg = Chessground(wrap, {
    coordinates: true,
    animation: { enabled: !(window.matchMedia && matchMedia('(prefers-reduced-motion: reduce)').matches), duration: 180 },
    highlight: { lastMove: true, check: true },
    movable: { free: false, color: undefined, showDests: true, events: { after: onAfterMove } },
    draggable: { enabled: true, showGhost: true, deleteOnDropOff: false },
    premovable: { enabled: false },
    // Tables hold no castling rights, and in the editor a king moved
    // beside its rook must not take the rook along.
    autoCastle: false,
    drawable: { enabled: true, visible: true },
    events: {
      change: () => {
        label();
        if (editing) handlers.onEdit(cg.getFen());
      },
    },
  });

  function label() {
    const names = (color) => {
      const list = [...cg.state.pieces]
        .filter(([, p]) => p.color === color)
        .sort(([a, p], [b, q]) => ROLE_ORDER.indexOf(p.role) - ROLE_ORDER.indexOf(q.role) || (a < b ? -1 : 1))
        .map(([sq, p]) => `${p.role} on ${sq}`);
      return `${color === 'white' ? 'White' : 'Black'}: ${list.length ? list.join(', ') : 'no pieces'}.`;
    };
    // The position's side to move: chessground flips its own turnColor on
    // every free move and drop in the editor.
    const turn = shownTurn === 'black' ? 'Black' : 'White';
    wrap.setAttribute('aria-label', `Chess board${editing ? ' (editing)' : ''}. ${names('white')} ${names('black')} ${turn} to move.`);
  }

  // Chessground caches the board's position on screen and only refreshes it on
  // scroll and resize; layout shifts (editor bars, cards above) would make it stale.
  const refreshBounds = () => cg.state.dom.bounds.clear();
  container.addEventListener('mousedown', refreshBounds, { capture: true });
  container.addEventListener('touchstart', refreshBounds, { capture: true, passive: true });

  function onAfterMove(orig, dest) {
    if (editing) return;
    const candidates = legal.filter((u) => u.startsWith(orig + dest));
    const promotions = candidates.filter((u) => u.length === 5).map((u) => u[4]);
    if (promotions.length > 1) {
      choosePromotion(dest, promotions).then((letter) => {
        if (letter) handlers.onMove(orig + dest + letter);
        else handlers.onCancel && handlers.onCancel();
      });
      return;
    }
    if (candidates.length) handlers.onMove(candidates[0]);
    else handlers.onCancel && handlers.onCancel();
  }

  function choosePromotion(dest, letters) {
    const piece = cg.state.pieces.get(dest);
    const color = piece ? piece.color : cg.state.turnColor;
    const [file, rank] = coords(dest);
    const white = cg.state.orientation === 'white';
    const col = white ? file : 7 - file;
    const topRow = white ? 7 - rank : rank; // 0 = top of the board
    const downwards = topRow === 0;
    const roles = PROMOTION_ROLES.filter((r) => letters.includes(PROMO_LETTER[r]));
    return new Promise((resolve) => {
      const finish = (letter) => {
        // The chosen button goes: the board takes the focus back, whose keys
        // (arrows, f) the element hears.
        const hadFocus = promoLayer.contains(document.activeElement);
        promoLayer.hidden = true;
        promoLayer.replaceChildren();
        pendingPromotion = null;
        if (hadFocus) container.focus({ preventScroll: true });
        resolve(letter);
      };
      pendingPromotion = finish;
      const buttons = roles.map((role, i) => {
        const row = downwards ? i : 7 - i;
        return h(
          'button.sb-promo-choice',
          {
            type: 'button',
            'aria-label': `Promote to ${role}`,
            style: { left: `${col * 12.5}%`, top: `${row * 12.5}%` },
            onclick: (e) => {
              e.stopPropagation();
              finish(PROMO_LETTER[role]);
            },
          },
          h('piece', { class: `${role} ${color}` }),
        );
      });
      promoLayer.replaceChildren(...buttons);
      promoLayer.onclick = () => finish(null);
      // Escape takes the move back, as a click beside the choices does.
      promoLayer.onkeydown = (e) => {
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        finish(null);
      };
      promoLayer.hidden = false;
      buttons[0].focus();
    });
  }

  return {
    cg,
    refreshBounds,
    /** Shows a position for play: fen, turn, lastMove [from, to], check, legal UCI moves. */
    setPosition({ fen, turn, lastMove, check, moves }) {
      if (pendingPromotion) pendingPromotion(null);
      legal = moves || [];
      shownTurn = turn;
      cg.set({
        fen,
        turnColor: turn,
        lastMove: lastMove || undefined,
        check: check ? turn : false,
        movable: editing
          ? { free: true, color: 'both', dests: new Map() }
          : { free: false, color: legal.length ? turn : undefined, dests: destsFromUci(legal) },
      });
      if (!lastMove) cg.state.lastMove = undefined;
      cg.setAutoShapes([]);
      label();
    },
    /** Updates the legal moves without touching the pieces. */
    setMoves(moves, turn) {
      legal = moves || [];
      if (editing) return;
      shownTurn = turn;
      cg.set({ turnColor: turn, movable: { free: false, color: legal.length ? turn : undefined, dests: destsFromUci(legal) } });
    },
    /** Switches between free editing and legal play. */
    setEditing(on) {
      editing = on;
      cg.set({
        lastMove: on ? undefined : cg.state.lastMove,
        check: false,
        movable: on ? { free: true, color: 'both', dests: new Map() } : { free: false, color: undefined, dests: new Map() },
        draggable: { deleteOnDropOff: on },
        drawable: { enabled: !on },
      });
      if (on) cg.state.lastMove = undefined;
      cg.setAutoShapes([]);
      label();
    },
    /** Highlights a move with an arrow (uci) or clears it (null). */
    showArrow(uci, brush = 'green') {
      cg.setAutoShapes(uci ? [{ orig: uci.slice(0, 2), dest: uci.slice(2, 4), brush }] : []);
    },
    flip() {
      // The choice of piece stands over squares the turn would move.
      if (pendingPromotion) pendingPromotion(null);
      cg.toggleOrientation();
    },
    setOrientation(color) {
      if (pendingPromotion && color !== cg.state.orientation) pendingPromotion(null);
      cg.set({ orientation: color });
    },
    get orientation() {
      return cg.state.orientation;
    },
    destroy() {
      cg.destroy();
    },
  };
}
