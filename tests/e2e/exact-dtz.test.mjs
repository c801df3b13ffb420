// A rounded DTZ settled by the answer's own moves (www/src/exact-dtz.js,
// what the board shows): checked against the exact DTZ of tables this
// project generates, on random positions of 4-piece materials whose
// official DTZ tables round. No browser.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { CLI, cliProbe, skipReason, rng } from './helpers.mjs';
import { exactByMoves } from '../../www/src/exact-dtz.js';
import { randomPosition } from '../../www/src/materials.js';

const skip = skipReason({ needCli: true });
const MATERIALS = ['KQvKR', 'KRvKN', 'KQvKN', 'KPvKP', 'KRvKP'];
const PER_MATERIAL = 300;

/** The CLI's answers from tables it generates (exact DTZ). */
function generated(fens) {
  const out = execFileSync(CLI, ['probe', '--generate', '--json'], { input: fens.join('\n') + '\n', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

describe('a rounded DTZ settled by its moves', { skip }, () => {
  it(`${PER_MATERIAL} random positions each of ${MATERIALS.join(', ')}: every DTZ settled is the exact one`, { timeout: 600_000 }, () => {
    const random = rng(12);
    let rounded = 0;
    let settled = 0;
    for (const material of MATERIALS) {
      const fens = Array.from({ length: PER_MATERIAL }, () => randomPosition(material, random));
      const host = cliProbe(fens);
      const exact = generated(fens);
      fens.forEach((fen, i) => {
        const r = host[i];
        if (r.error || r.precise !== false) return;
        rounded++;
        const s = exactByMoves(r);
        if (s.precise !== true) return;
        settled++;
        assert.equal(s.dtz, exact[i].dtz, `${fen}: settled ${s.dtz}, exact ${exact[i].dtz} (host ${r.dtz})`);
        assert.equal(s.wdl, r.wdl, fen);
      });
    }
    console.log(`${rounded} positions with a rounded DTZ, ${settled} settled by their moves`);
    assert.ok(settled >= rounded / 4, `${settled} of ${rounded} settled`);
  });
});
