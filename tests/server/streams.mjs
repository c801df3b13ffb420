// Small async helpers tied to a response's lifetime: waits, writes in
// chunks, reads.

import fsp from 'node:fs/promises';

/** Bytes a response is written in at a time. */
export const CHUNK = 64 * 1024;

/** Resolves true after ms, or false as soon as the response is closed. */
export function sleep(ms, res) {
  if (!(ms > 0)) return Promise.resolve(!res.destroyed);
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(!res.destroyed);
    }, ms);
    res.once('close', onClose);
  });
}

function waitDrain(res) {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/**
 * Writes len bytes of file from start to res, chunk bytes at a time, waiting
 * intervalMs between chunks. Never holds more than one chunk in memory.
 * Returns true when every byte was written.
 */
export async function pump(res, file, start, len, rec, chunk = CHUNK, intervalMs = 0) {
  if (len <= 0) return true;
  const fh = await fsp.open(file, 'r');
  try {
    let pos = start;
    let left = len;
    while (left > 0) {
      if (res.destroyed) return false;
      const n = Math.min(chunk, left);
      const buf = Buffer.allocUnsafe(n);
      const { bytesRead } = await fh.read(buf, 0, n, pos);
      if (bytesRead === 0) return false; // the file shrank under us
      if (res.destroyed) return false;
      const ok = res.write(bytesRead < n ? buf.subarray(0, bytesRead) : buf);
      rec.addBytes(bytesRead);
      pos += bytesRead;
      left -= bytesRead;
      if (!ok && !(await waitDrain(res))) return false;
      if (intervalMs > 0 && left > 0 && !(await sleep(intervalMs, res))) return false;
    }
    return true;
  } finally {
    await fh.close().catch(() => {});
  }
}

export async function readSlice(file, start, len) {
  const fh = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(len);
    let off = 0;
    while (off < len) {
      const { bytesRead } = await fh.read(buf, off, len - off, start + off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    return buf.subarray(0, off);
  } finally {
    await fh.close().catch(() => {});
  }
}

export function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > limit) {
        reject(Object.assign(new Error('body too large'), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
