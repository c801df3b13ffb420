// The keyboard shortcut help, opened with "?": a small dialog listing the
// keys that keys.js handles. Escape or the close button hides it.
import { h, icon, ICONS } from './dom.js';

/** The shortcuts in display order: [keys, what they do]. `full` adds the page-only ones. */
export function shortcuts(full) {
  return [
    ['←  →', 'Previous / next move of the played line'],
    ['Home  End', 'First / last position'],
    ['f', 'Flip the board'],
    ...(full ? [['e', 'Edit the position (again: done)'], ['m', 'Browse by material']] : []),
    ['↑  ↓  Enter', 'In the move list: choose a move, play it'],
    ['?', 'Show or hide this help'],
    ['Esc', 'Close this help'],
  ];
}

/** The dialog element with show/hide/toggle. */
export function createHelp({ full }) {
  const close = h('button.sb-icon-btn.sb-help-close', { type: 'button', 'aria-label': 'Close help', title: 'Close (Esc)', onclick: () => hide() }, icon(ICONS.clear));
  const el = h(
    'section.sb-card.sb-help',
    { role: 'dialog', 'aria-label': 'Keyboard shortcuts', hidden: true, tabindex: '-1' },
    h('div.sb-help-head', h('h2.sb-card-title', 'Keyboard shortcuts'), close),
    h(
      'dl.sb-help-keys',
      shortcuts(full).map(([keys, what]) => [h('dt', keys.split('  ').map((k) => h('kbd', k))), h('dd', what)]),
    ),
  );
  let back = null;
  function show() {
    back = document.activeElement;
    el.hidden = false;
    el.focus();
  }
  function hide() {
    if (el.hidden) return;
    el.hidden = true;
    if (back && back.focus) back.focus();
  }
  el.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      hide();
    }
  });
  return { el, show, hide, toggle: () => (el.hidden ? show() : hide()), get open() {
    return !el.hidden;
  } };
}
