#!/usr/bin/env node
// Finds notable starting positions for the board's "Browse by material" and
// writes www/src/notable-positions.json:
//   { "KRPvKR": { "longest": {fen, dtz}, "cursed": {fen, dtz} | null }, ... }
// for every material in the table folder. The answers come from the
// project's own CLI (target/release/syzygy-web) on those tables; the
// positions from www/src/materials.js (random legal positions, seeded).
//
// "longest": the largest |DTZ| of a win for the side to move found by a
// search (random sampling, then moving one piece at a time while |DTZ| grows);
// it is a long DTZ, not a proven maximum. "cursed": a cursed win for the side
// to move, when the sample holds one (5-piece materials are sampled up to
// 40,000 more times for it).
//
//   node scripts/notable-positions.mjs [--samples N] [--path DIR]
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { randomPosition } from '../www/src/materials.js';
import { parseFen, makeFen, inCheck, squareName } from '../www/src/chess.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const TABLES = path.resolve(arg('--path', process.env.SYZYGY_PATH || path.join(REPO, '..', 'shared', 'syzygy')));
const SAMPLES = Number(arg('--samples', 3000));
const CURSED_BATCHES = Number(arg('--cursed-batches', 4));
const CLI = path.join(REPO, 'target', 'release', 'syzygy-web');
const OUT = path.join(REPO, 'www', 'src', 'notable-positions.json');

/** mulberry32: a small seeded PRNG, so that a rerun gives the same file. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Probes FENs with the CLI: results without their move lists, errors dropped. */
function probe(fens) {
  if (!fens.length) return [];
  let out;
  try {
    out = execFileSync(CLI, ['probe', '--json', '--path', TABLES], { input: fens.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 30 });
  } catch (err) {
    out = err.stdout;
  }
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((r) => !r.error)
    .map(({ moves, ...r }) => r);
}

/** Legal positions with one piece of `fen` moved to another square. */
function neighbours(fen) {
  const pos = parseFen(fen);
  const out = [];
  for (const [from, piece] of pos.pieces) {
    for (let i = 0; i < 64; i++) {
      const to = squareName(i % 8, Math.floor(i / 8));
      if (pos.pieces.has(to)) continue;
      if (piece.role === 'pawn' && (i < 8 || i >= 56)) continue;
      const pieces = new Map(pos.pieces);
      pieces.delete(from);
      pieces.set(to, piece);
      const next = makeFen({ ...pos, pieces });
      const other = makeFen({ ...pos, pieces, turn: pos.turn === 'white' ? 'black' : 'white' });
      if (!inCheck(other)) out.push(next);
    }
  }
  return out;
}

const winning = (r) => r.wdl === 2;
const materials = [...new Set(fs.readdirSync(TABLES).filter((f) => f.endsWith('.rtbw')).map((f) => f.slice(0, -5)))]
  .filter((m) => fs.existsSync(path.join(TABLES, `${m}.rtbz`)))
  .sort();
const result = {};
let probes = 0;
for (const material of materials) {
  const random = rng([...material].reduce((h, c) => h * 31 + c.charCodeAt(0), 7));
  const sample = Array.from({ length: SAMPLES }, () => randomPosition(material, random));
  const answers = probe(sample);
  probes += sample.length;
  let best = answers.filter(winning).sort((a, b) => Math.abs(b.dtz) - Math.abs(a.dtz))[0] || null;
  // Climb: move one piece while the win's DTZ grows.
  for (let round = 0; best && round < 30; round++) {
    const cands = neighbours(best.fen);
    probes += cands.length;
    const better = probe(cands).filter(winning).sort((a, b) => Math.abs(b.dtz) - Math.abs(a.dtz))[0];
    if (!better || Math.abs(better.dtz) <= Math.abs(best.dtz)) break;
    best = better;
  }
  // Cursed wins are rare: 5-piece materials get a larger sample of their own.
  let cursed = answers.find((r) => r.wdl === 1 && r.category === 'cursed-win') || null;
  for (let batch = 0; !cursed && material.length - 1 >= 5 && batch < CURSED_BATCHES; batch++) {
    const more = Array.from({ length: 10000 }, () => randomPosition(material, random));
    probes += more.length;
    cursed = probe(more).find((r) => r.wdl === 1 && r.category === 'cursed-win') || null;
  }
  result[material] = {
    longest: best ? { fen: best.fen, dtz: best.dtz } : null,
    cursed: cursed ? { fen: cursed.fen, dtz: cursed.dtz } : null,
  };
  console.log(`${material}: longest ${best ? best.dtz : '-'}${cursed ? `, cursed win ${cursed.dtz}` : ''}`);
}
fs.writeFileSync(OUT, JSON.stringify(result, null, 1) + '\n');
console.log(`wrote ${path.relative(REPO, OUT)}: ${materials.length} materials, ${probes} probes`);
