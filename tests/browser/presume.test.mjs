// Whether the page presumes a tables host speaks HTTP/2 before its first
// answer (plain JS, no browser; Resource Timing's entries stubbed): only
// for https, and never for an origin the page has seen answer over
// HTTP/1.1.
import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { RangeClient } from '../../src/web/http.js';

const real = performance.getEntriesByType.bind(performance);
afterEach(() => {
  performance.getEntriesByType = real;
});

/** A client whose page has seen `entries` ({name, nextHopProtocol}), after `learnOrigin` and `presume` for `urls`. */
function client(urls, entries = []) {
  performance.getEntriesByType = (type) => (type === 'navigation' ? entries : []);
  const c = new RangeClient({ requests: 0, bytes: 0, retries: 0, requestsInFlight: 0 }, 0, 1 << 25, () => {});
  for (const u of urls) c.learnOrigin(u);
  c.presume(urls);
  return c;
}

describe('presuming HTTP/2', () => {
  it('presumes it for an https host the page knows nothing of', () => {
    const c = client(['https://cdn.example/tables/']);
    assert.equal(c.gate.wide, true);
    assert.equal(c.presumed, true);
    assert.equal(c.multiplexed, null);
  });

  it('never for plain http, which browsers speak as HTTP/1.1 only', () => {
    const c = client(['http://cdn.example/tables/']);
    assert.equal(c.gate.wide, false);
    assert.equal(c.gate.size, 6);
  });

  it('nor where one of several URLs is plain http', () => {
    const c = client(['https://a.example/tables/', 'http://b.example/tables/']);
    assert.equal(c.gate.wide, false);
  });

  it('nor for an origin the page itself came from over HTTP/1.1', () => {
    const c = client(['https://site.example/tables/'], [{ name: 'https://site.example/', nextHopProtocol: 'http/1.1' }]);
    assert.equal(c.gate.wide, false);
    assert.equal(c.multiplexed, false);
  });

  it('knows it, not presumes it, where the page came over HTTP/2', () => {
    const c = client(['https://site.example/tables/'], [{ name: 'https://site.example/', nextHopProtocol: 'h2' }]);
    assert.equal(c.gate.wide, true);
    assert.equal(c.presumed, false);
    assert.equal(c.multiplexed, true);
  });

  it('narrows back to six once an answer shows HTTP/1.1', () => {
    const c = client(['https://cdn.example/tables/']);
    c.settle(false);
    assert.equal(c.gate.wide, false);
    assert.equal(c.gate.size, 6);
    assert.equal(c.multiplexed, false);
    // And is not presumed again.
    c.presume(['https://cdn.example/tables/']);
    assert.equal(c.gate.wide, false);
  });
});
