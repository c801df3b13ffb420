// Keyboard shortcuts of the board (listed in help.js). Keys typed into form
// fields are left alone, and Home/End stay with the move list when it has the focus.

/** A keydown handler calling `act`'s actions. */
export function keyHandler(act) {
  return (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    const keys = {
      ArrowLeft: () => act.step(-1, { repeat: e.repeat }),
      ArrowRight: () => act.step(1, { repeat: e.repeat }),
      Home: () => act.jump(0),
      End: () => act.jump(Infinity),
      f: () => act.flip(),
      e: () => act.toggleEditing(),
      m: () => act.browse(),
      '?': () => act.help(),
      Escape: () => act.closeHelp(),
    };
    if (t && t.getAttribute && t.getAttribute('role') === 'listbox' && (e.key === 'Home' || e.key === 'End')) return;
    if (keys[e.key]) {
      if (e.key !== 'Escape') e.preventDefault();
      keys[e.key]();
    }
  };
}
