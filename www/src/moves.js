// Move list (ranked, grouped, keyboard navigable), best line and played line.
import { h, replace } from './dom.js';
import { groupMoves } from './verdict.js';
import { moveNumber } from './chess.js';

let uid = 0;

/**
 * The ranked move list, a listbox: Up/Down/Home/End move the active move,
 * Enter or Space plays it, hovering or focusing shows it on the board.
 * callbacks: play(uci), preview(uci | null)
 */
export function createMoveList(callbacks) {
  const id = `sb-moves-${++uid}`;
  const list = h('div.sb-movelist', { role: 'listbox', tabindex: '0', 'aria-label': 'Moves ranked best first', id });
  // Focusable from script only: a keyboard user whose move ends the game
  // (mate, stalemate) lands on the message instead of losing the focus.
  const empty = h('p.sb-empty', { hidden: true, tabindex: '-1' });
  const el = h('div.sb-moves', list, empty);
  let options = [];
  let active = -1;
  // The position the options are for: a list shown again for it (its
  // verdict, then its ranked moves) keeps the active move.
  let shownFor = null;
  // Whether the active move is one the user chose (keys), not the first
  // of a list set active for them: only a chosen one outlives a re-ranking.
  let chosen = false;

  function setActive(i, scroll = true) {
    if (!options.length) return;
    active = Math.max(0, Math.min(options.length - 1, i));
    options.forEach((o, j) => o.setAttribute('aria-selected', String(j === active)));
    const opt = options[active];
    list.setAttribute('aria-activedescendant', opt.id);
    if (scroll) opt.scrollIntoView({ block: 'nearest' });
    callbacks.preview(opt.dataset.uci);
  }

  list.addEventListener('keydown', (e) => {
    if (!options.length) return;
    const keys = { ArrowDown: active + 1, ArrowUp: active - 1, Home: 0, End: options.length - 1, PageDown: active + 5, PageUp: active - 5 };
    if (e.key in keys) {
      e.preventDefault();
      e.stopPropagation();
      setActive(active < 0 ? 0 : keys[e.key]);
      chosen = true;
    } else if ((e.key === 'Enter' || e.key === ' ') && active >= 0) {
      e.preventDefault();
      e.stopPropagation();
      callbacks.play(options[active].dataset.uci);
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      // leave history navigation to the board
    }
  });
  // Focus from the keyboard, not a press of the mouse: a press focuses the
  // list too, and activating (and scrolling to) its first move then would
  // move the list under the pointer and lose the click.
  const byKeyboard = () => {
    try {
      return list.matches(':focus-visible');
    } catch (e) {
      return true;
    }
  };
  list.addEventListener('focus', () => {
    if (!byKeyboard()) return;
    if (active < 0 && options.length) setActive(0);
    else if (active >= 0) callbacks.preview(options[active].dataset.uci);
  });
  list.addEventListener('blur', () => callbacks.preview(null));
  /** Whether the keyboard is in the list or on its message: a change keeps it there. */
  const hasFocus = () => document.activeElement === list || document.activeElement === empty;

  list.addEventListener('mouseleave', () => callbacks.preview(document.activeElement === list && active >= 0 && byKeyboard() ? options[active].dataset.uci : null));

  return {
    el,
    /**
     * Shows probe moves (ranked best first) of the position `fen`; those
     * without values under `unknownLabel` where given (why they have none).
     */
    render(moves, fen = null, unknownLabel = null) {
      const groups = groupMoves(moves);
      const keep = fen !== null && fen === shownFor && active >= 0 && chosen ? options[active].dataset.uci : null;
      const focused = hasFocus();
      shownFor = fen;
      options = [];
      active = -1;
      chosen = false;
      list.removeAttribute('aria-activedescendant');
      const nodes = groups.map((g) => {
        const labelId = `${id}-${g.key}`;
        return h(
          'div.sb-group',
          { role: 'group', 'aria-labelledby': labelId, dataset: { group: g.key } },
          h('div.sb-group-label', { id: labelId, role: 'presentation' }, g.key === 'unknown' && unknownLabel ? unknownLabel : g.label),
          g.moves.map((m) => {
            const opt = h(
              'div.sb-move',
              {
                role: 'option',
                id: `${id}-${m.uci}`,
                'aria-selected': 'false',
                dataset: { uci: m.uci, category: m.category || 'unknown', group: g.key },
                // The second click of a double click would land on a move
                // of the position the first one played to.
                onclick: (e) => e.detail > 1 || callbacks.play(m.uci),
                onmouseenter: () => callbacks.preview(m.uci),
              },
              h('span.sb-san', m.san),
              h(
                'span.sb-badges',
                m.badges.map((b) => h(`span.sb-badge.sb-badge-${b.kind}`, { title: b.title }, b.text)),
              ),
            );
            options.push(opt);
            return opt;
          }),
        );
      });
      replace(list, nodes);
      // An empty list keeps the keyboard's focus where it was, shown empty.
      list.hidden = !options.length && !focused;
      empty.hidden = true;
      if (focused && !options.length) list.focus({ preventScroll: true });
      // Keyboard users keep an active option after the list changes: the
      // same move when the list is the same position's again.
      if (focused && options.length) {
        if (document.activeElement !== list) list.focus({ preventScroll: true });
        // A list the mouse focused shows no move as the keyboard's.
        if (!byKeyboard()) return;
        const at = keep === null ? -1 : options.findIndex((o) => o.dataset.uci === keep);
        setActive(Math.max(0, at), false);
        chosen = at >= 0;
      }
    },
    /** Shows a message instead of moves (e.g. game over, no table). */
    message(text) {
      const focused = hasFocus();
      options = [];
      active = -1;
      chosen = false;
      shownFor = null;
      list.replaceChildren();
      list.removeAttribute('aria-activedescendant');
      // Without a message, a focused list stays, empty, with the focus.
      list.hidden = !(focused && !text);
      empty.textContent = text;
      empty.hidden = !text;
      if (focused) (text ? empty : list).focus({ preventScroll: true });
    },
    /** Shows legal moves without tablebase values, under `label`: why they have none. */
    renderUnknown(legal, fen = null, label = 'Values loading…') {
      this.render(
        legal.map((m) => ({ uci: m.uci, san: m.san })),
        fen,
        label,
      );
    },
    focus() {
      list.focus();
    },
  };
}

/**
 * The best line from tb.mainline, clickable move by move.
 * callbacks: play(index) plays the line up to and including move `index`.
 */
export function createMainline(callbacks) {
  // A group of buttons, not a list: role="listitem" on a button would hide that it is one.
  // Focusable itself: a ply played from the line goes with the line it was
  // in, and the focus stays in the card rather than drop to the page.
  const body = h('div.sb-line', { role: 'group', 'aria-label': 'Best line', tabindex: '-1' });
  const el = h('div.sb-mainline', body);
  // The card title's small print: said only of a line that ends in mate.
  const sub = h('small', '');
  /** Replaces the line's content; the focus, if it was inside, stays on the card. */
  const show = (...content) => {
    const had = body.contains(document.activeElement);
    replace(body, ...content);
    if (had) body.focus({ preventScroll: true });
  };
  return {
    el,
    sub,
    /**
     * options.loses: {after: ply index (-1: before the first), text}: where
     * the line loses a win to the 50-move rule; options.note: a node shown
     * under the line.
     */
    render(line, { loses = null, note = null } = {}) {
      sub.textContent = '';
      if (!line || !line.moves || !line.moves.length) {
        show(h('span.sb-muted', 'No moves to show.'));
        return;
      }
      let prevFen = line.fen;
      // (after -1: the claim stands before the line's first move.)
      const items = loses && loses.after === -1 ? [h('span.sb-line-lost', loses.text)] : [];
      line.moves.forEach((m, i) => {
        const num = moveNumber(prevFen, i === 0);
        prevFen = m.fen;
        items.push(
          h(
            'button.sb-ply',
            { type: 'button', title: `Play up to ${m.san}`, dataset: { index: String(i), uci: m.uci }, onclick: () => callbacks.play(i) },
            num ? h('span.sb-num', num) : null,
            m.san,
          ),
        );
        if (loses && loses.after === i) items.push(h('span.sb-line-lost', loses.text));
      });
      const last = line.moves[line.moves.length - 1];
      if (last && last.san.endsWith('#')) sub.textContent = ' played out to mate';
      const end = last && last.san.endsWith('#') ? 'checkmate' : last && last.zeroing && !(loses && loses.after === line.moves.length - 1) ? 'then the 50-move count restarts' : '';
      show(items, end ? h('span.sb-muted.sb-line-end', end) : null, note);
    },
    message(text) {
      sub.textContent = '';
      show(h('span.sb-muted', text));
    },
    /** The line shown is another position's (a new one loading): its plies stop answering until the next render. */
    hold() {
      const had = body.contains(document.activeElement);
      for (const b of body.querySelectorAll('button.sb-ply, .sb-line-note button')) b.disabled = true;
      if (had) body.focus({ preventScroll: true });
    },
  };
}

/** The played line with the current ply highlighted. callbacks: jump(ply). */
export function createHistory(callbacks) {
  const el = h('div.sb-history', { role: 'group', 'aria-label': 'Played moves', tabindex: '-1' });
  return {
    el,
    render(line, ply) {
      if (line.length < 2) {
        const had = el.contains(document.activeElement);
        replace(el, h('span.sb-muted', 'Play a move on the board or from the list.'));
        if (had) el.focus({ preventScroll: true });
        return;
      }
      const items = [];
      for (let i = 1; i < line.length; i++) {
        const num = moveNumber(line[i - 1].fen, i === 1);
        items.push(
          h(
            'button.sb-ply',
            { type: 'button', 'aria-current': i === ply ? 'true' : null, onclick: () => callbacks.jump(i) },
            num ? h('span.sb-num', num) : null,
            line[i].san || line[i].uci,
          ),
        );
      }
      // The focus on a ply (one just chosen) goes to the current one, not to the page.
      const had = el.contains(document.activeElement);
      replace(el, items);
      const current = el.querySelector('[aria-current="true"]');
      if (had) (current || items[items.length - 1]).focus({ preventScroll: true });
      if (current) {
        // Scroll the box only, never the page.
        const top = current.offsetTop - el.offsetTop;
        if (top < el.scrollTop || top + current.offsetHeight > el.scrollTop + el.clientHeight) el.scrollTop = top - 4;
      }
    },
  };
}
