// Static files as a static host or CDN sends them: their MIME type, and
// whether a whole file goes with a content-coding.

import path from 'node:path';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.rtbw': 'application/octet-stream',
  '.rtbz': 'application/octet-stream',
};

// Static assets whose type compresses (the page, scripts, styles, wasm).
const COMPRESSIBLE = /^(text\/|application\/(json|wasm|manifest\+json)|image\/svg\+xml)/;

/**
 * The content-coding a static host or CDN would send for this request:
 * 'br' or 'gzip' when the client accepts it, else null. Only whole static
 * files are encoded; tables and Range requests never are (a range of an
 * encoded body addresses the encoded bytes, which no table reader wants).
 */
export function staticEncoding(file, headers) {
  if (headers.range != null || !COMPRESSIBLE.test(mimeType(file))) return null;
  const accepted = new Map();
  for (const part of String(headers['accept-encoding'] || '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((x) => /^\s*q=([\d.]+)\s*$/.exec(x)).find(Boolean);
    if (name) accepted.set(name, q ? Number(q[1]) : 1);
  }
  for (const enc of ['br', 'gzip']) if (accepted.get(enc) > 0) return enc;
  return null;
}

export function mimeType(file) {
  return MIME[path.extname(file).toLowerCase()] || 'application/octet-stream';
}
