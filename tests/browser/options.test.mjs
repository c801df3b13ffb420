// The Tablebase's base URLs as checkOptions reads them (plain JS, no
// browser): one base written twice is one base, not a mirror to fail over
// to; a scheme no fetch can use and plain http under an https page are
// refused by name with code `options`.
import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { checkOptions } from '../../src/web/options.js';

const refused = (urls, pattern) =>
  assert.throws(
    () => checkOptions({ urls }),
    (e) => e.code === 'options' && pattern.test(e.message),
  );

describe('base URLs', () => {
  afterEach(() => {
    delete globalThis.location;
  });

  it('one base written twice (with and without its slash) is one base', () => {
    const { urls } = checkOptions({ urls: ['https://a.example/tb', 'https://a.example/tb/', 'https://b.example/tb/'] });
    assert.deepEqual(urls, ['https://a.example/tb/', 'https://b.example/tb/']);
  });

  it('a relative base is made absolute against the page, then deduplicated', () => {
    globalThis.location = new URL('https://site.example/app/index.html');
    const { urls } = checkOptions({ urls: ['tables', '/app/tables/', 'https://site.example/app/tables'] });
    assert.deepEqual(urls, ['https://site.example/app/tables/']);
  });

  it('a scheme no request can use is refused', () => {
    refused(['ftp://a.example/tb/'], /not an http or https URL/);
    refused(['file:///srv/tb/'], /not an http or https URL/);
    refused(['http://[bad'], /is not a URL/);
  });

  it('plain http on an https page is refused, loopback excepted', () => {
    globalThis.location = new URL('https://site.example/');
    refused(['http://tables.example/'], /mixed content/);
    for (const ok of ['http://localhost:8080/', 'http://127.0.0.1/tb/', 'http://[::1]:9000/', 'http://tb.localhost/']) {
      assert.deepEqual(checkOptions({ urls: [ok] }).urls, [ok]);
    }
    // On an http page, http bases are the page's own kind.
    globalThis.location = new URL('http://site.example/');
    assert.deepEqual(checkOptions({ urls: ['http://tables.example/'] }).urls, ['http://tables.example/']);
  });
});
