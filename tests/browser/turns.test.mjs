// The order bases are asked in for a file (plain JS, no browser): a base
// that left a request unanswered moves on at once to the next, and is
// asked again last, where its request waits with its retries.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Turns } from '../../src/web/file-open.js';

/** Every turn as [base, moveOn], with the bases in `silent` failing silently each time. */
function walk(bases, silent) {
  const turns = new Turns(bases);
  const seen = [];
  for (let base = turns.next(); base !== undefined; base = turns.next()) {
    seen.push([base, turns.moveOn]);
    if (silent.includes(base)) turns.failed(base, { silent: true });
    else if (silent.includes(`${base}:404`)) turns.failed(base, null);
  }
  return seen;
}

describe('turns of the bases', () => {
  it('a silent base is asked again last, and waits there', () => {
    // (b may move on: a's second turn is left after it.)
    assert.deepEqual(walk(['a', 'b'], ['a']), [['a', true], ['b', true], ['a', false]]);
  });

  it('two silent bases: each second turn waits, even with the other after it', () => {
    assert.deepEqual(walk(['a', 'b'], ['a', 'b']), [['a', true], ['b', true], ['a', false], ['b', false]]);
  });

  it('a base that answered, or said the file is not there, is asked once', () => {
    assert.deepEqual(walk(['a', 'b'], ['a:404']), [['a', true], ['b', false]]);
    assert.deepEqual(walk(['a'], []), [['a', false]]);
  });
});
