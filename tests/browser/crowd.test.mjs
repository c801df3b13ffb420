// Telling HTTP/2 from HTTP/1.1 by the answers' times (plain JS, no
// browser): what a host without Timing-Allow-Origin shows of itself.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Crowd } from '../../src/web/crowd.js';

/** Starts requests at the given times (ms); ends them at the given times; the verdicts, in the order of the ends. */
function run(starts, ends) {
  const crowd = new Crowd(6);
  const tokens = starts.map((t) => crowd.start('https://cdn.example', t));
  return ends
    .map((t, i) => [t, i])
    .sort((a, b) => a[0] - b[0])
    .map(([t, i]) => crowd.end(tokens[i], t));
}

describe('crowd', () => {
  it('shows a multiplexed host when eleven requests sent together are answered within a round trip', () => {
    const starts = Array.from({ length: 11 }, (_, i) => i);
    const ends = starts.map((s) => 100 + s);
    const shown = run(starts, ends);
    assert.deepEqual(shown.slice(0, 6), [null, null, null, null, null, null]);
    assert.equal(shown[6], true);
  });

  it('shows HTTP/1.1 when the requests past six wait for a connection, and never a multiplexed host', () => {
    const starts = Array.from({ length: 11 }, (_, i) => i);
    // Six connections: the first six answer after a trip, the rest a trip after that.
    const ends = starts.map((s, i) => (i < 6 ? 100 + s : 200 + s));
    const shown = run(starts, ends);
    assert.ok(!shown.includes(true), String(shown));
    assert.deepEqual(shown.slice(6), [false, false, false, false, false]);
  });

  it('shows nothing while no more than six requests are out', () => {
    const shown = run([0, 1, 2, 150, 151], [100, 101, 102, 250, 400]);
    assert.deepEqual(shown, [null, null, null, null, null]);
  });

  it('counts each origin apart', () => {
    const crowd = new Crowd(6);
    const a = Array.from({ length: 4 }, (_, i) => crowd.start('https://a.example', i));
    const b = Array.from({ length: 4 }, (_, i) => crowd.start('https://b.example', i));
    const shown = [...a, ...b].map((r, i) => crowd.end(r, 100 + i));
    assert.deepEqual(shown, Array(8).fill(null));
  });
});
