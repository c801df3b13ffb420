// Keyboard shortcuts of the board. Keys typed into form fields are left alone,
// and Home/End stay with the move list when it has the focus.

/** A keydown handler calling `act`'s navigation actions. */
export function keyHandler(act) {
  return (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    const keys = {
      ArrowLeft: () => act.step(-1),
      ArrowRight: () => act.step(1),
      Home: () => act.jump(0),
      End: () => act.jump(Infinity),
      f: () => act.flip(),
    };
    if (t && t.getAttribute && t.getAttribute('role') === 'listbox' && (e.key === 'Home' || e.key === 'End')) return;
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  };
}
