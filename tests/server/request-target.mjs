// Request targets to file paths, refusing anything odd before any file
// system access.

import fsp from 'node:fs/promises';
import path from 'node:path';

/**
 * Parses a raw request target. Returns {segments, trailingSlash, path, search,
 * query} or {error: status}. `path` is the decoded, slash-joined path.
 */
export function parseTarget(rawUrl) {
  if (typeof rawUrl !== 'string' || !rawUrl.startsWith('/')) return { error: 400 };
  const q = rawUrl.indexOf('?');
  const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const search = q < 0 ? '' : rawUrl.slice(q);
  if (rawPath.includes('\\') || rawPath.includes('\0')) return { error: 400 };
  const parts = rawPath.split('/').slice(1);
  const segments = [];
  let trailingSlash = false;
  for (let i = 0; i < parts.length; i++) {
    let s;
    try {
      s = decodeURIComponent(parts[i]);
    } catch {
      return { error: 400 };
    }
    if (s === '') {
      if (i === parts.length - 1) {
        trailingSlash = true;
        continue;
      }
      return { error: 400 }; // "//": empty segment, absolute-path tricks
    }
    if (s === '.' || s === '..' || /[\/\\\0]/.test(s)) return { error: 400 };
    if (s.startsWith('.')) return { error: 404 }; // dot-files are never served
    segments.push(s);
  }
  const joined = '/' + segments.join('/');
  return {
    segments,
    trailingSlash,
    path: trailingSlash && segments.length ? joined + '/' : joined,
    search,
    query: new URLSearchParams(search.slice(1)),
  };
}

/** Joins segments under root, or null if the result would leave root. */
export function safeJoin(root, segments) {
  const full = path.resolve(root, ...segments);
  const rel = path.relative(root, full);
  if (rel === '') return full;
  if (rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) return null;
  return full;
}

export async function statOrNull(p) {
  try {
    return await fsp.stat(p);
  } catch {
    return null;
  }
}
