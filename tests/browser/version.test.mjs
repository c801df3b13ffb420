// A file's version from its answers' validators (src/web/version.js), by
// the core's rule (engine::same_version, whose unit test holds the same
// cases): every kind both carry (ETag, Last-Modified) agrees.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validatorOf, sameVersion, mergedVersion } from '../../src/web/version.js';

const D1 = 'Wed, 02 Dec 2026 10:00:00 GMT';
const D2 = 'Wed, 02 Dec 2026 10:00:01 GMT';

describe('validators', () => {
  it('hold the ETag, quoted, and the Last-Modified', () => {
    assert.equal(validatorOf('"a"', D1), `"a" ${D1}`);
    assert.equal(validatorOf('W/"x y"', null), 'W/"x y"');
    assert.equal(validatorOf('bare', ' '), '"bare"');
    assert.equal(validatorOf(null, D1), D1);
    assert.equal(validatorOf(null, null), '');
  });

  it('compare by the kinds both carry', () => {
    const a = validatorOf('"a"', D1);
    assert.ok(sameVersion(a, D1), 'the date alone');
    assert.ok(sameVersion(a, '"a"'), 'the ETag alone');
    assert.ok(!sameVersion(a, D2), 'another date');
    assert.ok(!sameVersion(a, `"b" ${D1}`), 'another ETag, same date');
    assert.ok(!sameVersion(a, '"z"'));
    assert.ok(sameVersion('"a"', D2), 'sharing no kind: the size alone');
    assert.ok(sameVersion('', D1) && sameVersion('1234-5', ''));
    assert.ok(!sameVersion('1234-5', '1234-6'));
  });

  it('merge to every kind either carried', () => {
    const a = validatorOf('"a"', D1);
    assert.equal(mergedVersion('"a"', D1), a);
    assert.equal(mergedVersion(D1, '"a"'), a);
    assert.equal(mergedVersion(a, ''), a);
    assert.equal(mergedVersion('v1', 'v1'), 'v1');
    assert.equal(mergedVersion('', '1234-5'), '1234-5');
  });

  it('read tags sent bare (kept so before 2026-12-02), weak, or with junk', () => {
    assert.ok(sameVersion('abc', validatorOf('abc', D1)));
    assert.equal(mergedVersion('abc', D1), `"abc" ${D1}`);
    assert.ok(sameVersion('W/"a"', '"a"'));
    assert.equal(validatorOf('"a", "a"', null), '"a"');
    assert.equal(validatorOf('"abc', D1), `"abc" ${D1}`);
    assert.equal(validatorOf('W/', null), '"W/"');
    assert.ok(sameVersion('1234-5', '1234-5') && !sameVersion('v1', 'v2'));
  });

  it('read dates in other forms, a weak tag cut short, a repeated header', () => {
    const asctime = 'Sun Nov  6 08:49:37 1994';
    assert.ok(sameVersion(validatorOf('"e"', asctime), asctime));
    assert.ok(!sameVersion(asctime, 'Sun Nov  6 08:49:38 1994'));
    assert.equal(validatorOf('W/"abc', null), 'W/"abc"');
    assert.ok(sameVersion('"a", "a"', validatorOf('"a"', D1)));
    assert.equal(validatorOf('\t"a" ', ' \u0085'), '"a" \u0085');
  });
});
