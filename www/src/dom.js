// Minimal DOM helpers.

/**
 * Creates an element: h('button.sb-btn', { onclick, 'aria-label': 'Flip' }, 'text', child).
 * Attributes starting with "on" become listeners; `class`, `dataset`, `style` objects are merged.
 * Text is always set as text: nothing here writes innerHTML, so no FEN, error
 * message or server text can become markup.
 */
export function h(spec, attrs, ...children) {
  const [tag, ...classes] = spec.split('.');
  const el = document.createElement(tag || 'div');
  if (classes.length) el.className = classes.join(' ');
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = [el.className, v].filter(Boolean).join(' ');
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces all children of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

const SVG = 'http://www.w3.org/2000/svg';

/** An inline 24x24 icon from path data (stroked, rounded). */
export function icon(paths, { fill = false } = {}) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'sb-icon');
  for (const d of [].concat(paths)) {
    const p = document.createElementNS(SVG, 'path');
    p.setAttribute('d', d);
    if (fill) p.setAttribute('fill', 'currentColor');
    else {
      p.setAttribute('fill', 'none');
      p.setAttribute('stroke', 'currentColor');
      p.setAttribute('stroke-width', '2');
      p.setAttribute('stroke-linecap', 'round');
      p.setAttribute('stroke-linejoin', 'round');
    }
    svg.append(p);
  }
  return svg;
}

/** Icon path data used by the controls. */
export const ICONS = {
  first: ['M6 5v14', 'M18 6l-7 6 7 6'],
  prev: ['M15 6l-6 6 6 6'],
  next: ['M9 6l6 6-6 6'],
  last: ['M18 5v14', 'M6 6l7 6-7 6'],
  flip: ['M7 4v15', 'M3 15l4 4 4-4', 'M17 20V5', 'M13 9l4-4 4 4'],
  edit: ['M4 20h4L19 9l-4-4L4 16v4z', 'M13.5 6.5l4 4'],
  done: ['M5 12.5l4.5 4.5L19 7.5'],
  link: ['M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1', 'M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1'],
  trash: ['M4 7h16', 'M9 7V4h6v3', 'M6 7l1 13h10l1-13'],
  pointer: ['M6 3l12 9-5.5 1.2L15 19l-2.5 1.2-2.6-5.8L6 18z'],
  download: ['M12 4v11', 'M7 10l5 5 5-5', 'M5 20h14'],
  clear: ['M5 5l14 14', 'M19 5L5 19'],
  swap: ['M4 8h13', 'M14 4l4 4-4 4', 'M20 16H7', 'M10 12l-4 4 4 4'],
  copy: ['M9 9h10v11H9z', 'M5 15V4h10'],
  info: ['M12 8h.01', 'M11 12h1v5h1', 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z'],
};

/** Human-readable byte count. */
export function formatBytes(n) {
  if (!Number.isFinite(n)) return '–';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10240 ? 1 : 0)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

/**
 * Marks a card's content as the previous position's while the next answer
 * comes: dimmed, and busy for screen readers, which would otherwise read
 * it as the current position's.
 */
export function markStale(el, on) {
  el.classList.toggle('sb-stale', on);
  if (on) el.setAttribute('aria-busy', 'true');
  else el.removeAttribute('aria-busy');
}
