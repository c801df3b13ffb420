// Answers on their way in (plain JS, no browser): which are taken as a
// file's new version, and which are left as answers in flight across a
// change.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { accept } from '../../src/web/accept.js';

/** The parts of a Runtime that `accept` touches, the core's identity kept as the real one keeps it. */
function fakeRuntime() {
  const identity = new Map();
  const versions = new Map();
  return {
    epoch: 0,
    pageSize: 4096,
    files: new Map(),
    writes: new Set(),
    missedInDb: new Set(),
    versionChanges: new Map(),
    counters: { identityChanges: 0, staleAnswers: 0, pagesFromNetwork: 0 },
    supplied: [],
    core: {
      identify(id, size, validator) {
        const was = identity.get(id);
        identity.set(id, `${size}/${validator}`);
        return was !== undefined && was !== `${size}/${validator}`;
      },
      setStreamed() {},
      supply(id, start, size, validator) {
        this.owner.supplied.push({ id, start, validator });
      },
    },
    http: {
      versions,
      bodies: new Map(),
      versionOf: (url) => versions.get(url)?.n || 0,
      versionChanged(url, old) {
        const v = versions.get(url) || { n: 0, replaced: [] };
        v.n++;
        if (old) v.replaced = [...v.replaced, { size: old.size, validator: old.validator, at: v.n }];
        versions.set(url, v);
      },
    },
    db: { store: () => Promise.resolve(true) },
  };
}

const answer = (validator, asOf = 0) => ({ size: 8192, validator, bytes: new Uint8Array(4096), asOf });

describe('accept', () => {
  it('answers from a base the file moved from are in flight, not changes of version', () => {
    const rt = fakeRuntime();
    rt.core.owner = rt;
    const a = 'https://a.example/KQvK.rtbw';
    const b = 'https://b.example/KQvK.rtbw';
    rt.files.set(1, { url: a, size: 8192, validator: '"x"' });
    accept(rt, 1, a, 0, answer('"x"'), { size: 8192, validator: '"x"' });
    // A request failed at a and was asked of b (another copy, another
    // ETag): the file is b's from then on.
    rt.files.get(1).url = b;
    accept(rt, 1, b, 4096, answer('"y"'));
    assert.equal(rt.counters.identityChanges, 1);
    // Requests that went to a before the move answer late, by turns with b's.
    for (const [url, v] of [[a, '"x"'], [b, '"y"'], [a, '"x"'], [b, '"y"']]) {
      assert.doesNotThrow(() => accept(rt, 1, url, 0, answer(v)));
    }
    assert.equal(rt.counters.identityChanges, 1);
    assert.equal(rt.counters.staleAnswers, 2);
    // Only the answer of a from before the move reached the core.
    assert.equal(rt.supplied.filter((s) => s.validator === '"x"').length, 1);
    // b itself changing version is still a change.
    accept(rt, 1, b, 0, answer('"z"'));
    assert.equal(rt.counters.identityChanges, 2);
  });
});
