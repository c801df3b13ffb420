// The Tablebase's options checked in one place: each absent one (undefined
// or null) takes its default, and one of the wrong type or range throws
// code `options` naming it, rather than being replaced without a word.
// (pageSize and memoryBudget, which the core is made with, are checked in
// Rust by the same rule.)

import { fail } from './errors.js';

// IndexedDB budget without an idbBudget option (bytes).
const IDB_BUDGET = 256 * 1048576;
/**
 * Generated tables the page keeps in memory without a generatedBudget
 * option (bytes), by the device's memory where the browser tells it
 * (navigator.deviceMemory, GB, at most 8): every 3-4 piece table with its
 * mate distances is 698 MB, which a desktop keeps (nothing is made twice)
 * and a phone cannot (it makes again what it let go and IndexedDB lost).
 */
function generatedBudget() {
  const gb = typeof navigator !== 'undefined' ? navigator.deviceMemory : undefined;
  if (!(gb > 0)) return 192 * 1048576;
  return gb >= 8 ? 1024 * 1048576 : Math.round(gb * 48 * 1048576);
}
// How far into a file a server that ignores Range may be streamed (bytes).
const WHOLE_BODY_LIMIT = 32 * 1048576;
// Most requests a fixed `concurrency` runs at once.
const MAX_CONCURRENCY = 64;
// Every option a Tablebase takes (pageSize and memoryBudget are read in Rust).
const KNOWN = new Set(['urls', 'manifest', 'generate', 'pageSize', 'memoryBudget', 'idbBudget', 'generatedBudget', 'wholeBodyLimit', 'concurrency', 'onProgress', 'onGenerate', 'early']);

/**
 * {generate, urls (absolute, ending in /), manifest, idbBudget, generatedBudget,
 * wholeBodyLimit, concurrency (0: learned from the host), onProgress,
 * onGenerate, early ([url, entry])} from the options the Tablebase was given.
 */
export function checkOptions(options) {
  // `url` for `urls` would otherwise leave the page generating tables
  // with no word; other unknown keys are named on the console.
  if (options.url != null && options.urls == null) throw fail('Tablebase option url is unknown: base URLs go in urls, an array', 'options');
  const unknown = Object.keys(options).filter((k) => !KNOWN.has(k));
  if (unknown.length && typeof console !== 'undefined') console.warn(`Tablebase: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} ignored`);
  const generate = options.generate ?? 'auto';
  if (!['auto', 'always', 'never'].includes(generate)) {
    throw fail("Tablebase option generate must be 'auto', 'always' or 'never'", 'options');
  }
  const manifest = options.manifest ?? null;
  if (manifest !== null && (typeof manifest !== 'object' || Array.isArray(manifest) || !Object.values(manifest).every((v) => typeof v === 'string'))) {
    throw fail('Tablebase option manifest must map file names to base URLs (strings)', 'options');
  }
  const urls = options.urls ?? [];
  if (!Array.isArray(urls) || !urls.every((u) => typeof u === 'string') || (urls.length === 0 && !manifest && generate === 'never')) {
    throw fail('Tablebase options need urls: an array of base URLs (or a manifest, or generate tables)', 'options');
  }
  const concurrency = number(options, 'concurrency') || 0;
  if (!Number.isInteger(concurrency)) throw fail('Tablebase option concurrency must be a whole number of requests', 'options');
  const wholeBodyLimit = number(options, 'wholeBodyLimit');
  if (wholeBodyLimit === 0) throw fail('Tablebase option wholeBodyLimit must be a positive number of bytes', 'options');
  return {
    generate,
    // (The same base twice would be a mirror to fail over to.)
    urls: [...new Set(urls.map(absoluteBase))],
    manifest,
    idbBudget: number(options, 'idbBudget') ?? IDB_BUDGET,
    generatedBudget: number(options, 'generatedBudget') ?? generatedBudget(),
    wholeBodyLimit: wholeBodyLimit ?? WHOLE_BODY_LIMIT,
    concurrency: Math.min(MAX_CONCURRENCY, concurrency),
    onProgress: callback(options, 'onProgress'),
    onGenerate: callback(options, 'onGenerate'),
    early: earlyRequests(options),
  };
}

/** [absolute URL, entry] of the `early` option's usable entries; code `options` for a bad URL. */
function earlyRequests(options) {
  const out = [];
  if (options.early != null && !Array.isArray(options.early)) throw fail('Tablebase option early must be an array of {url, start, end, response}', 'options');
  for (const e of options.early ?? []) {
    if (!e || typeof e.url !== 'string' || !e.response || !(e.end > 0)) {
      throw fail('Tablebase option early: each entry needs url (a string), end (a positive number) and response (a promise of the fetch)', 'options');
    }
    try {
      out.push([new URL(e.url, typeof location !== 'undefined' ? location.href : undefined).href, e]);
    } catch (err) {
      throw fail(`Tablebase option early: ${JSON.stringify(e.url)} is not a URL`, 'options');
    }
  }
  return out;
}


/**
 * A base URL made absolute (against the page) and ending in a slash. One
 * the browser would block from this page is refused here, by name: an
 * http base on an https page (mixed content; loopback hosts excepted, as
 * browsers except them) failed every request after its retries as
 * "unreachable, CORS or compression".
 */
function absoluteBase(u) {
  let url;
  try {
    url = new URL(u, typeof location !== 'undefined' ? location.href : undefined);
  } catch (e) {
    throw fail(`Tablebase option urls: ${JSON.stringify(u)} is not a URL`, 'options');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw fail(`Tablebase option urls: ${JSON.stringify(u)} is not an http or https URL`, 'options');
  }
  const loopback = /^(localhost|127(\.\d+){3}|\[::1\])$/.test(url.hostname) || url.hostname.endsWith('.localhost');
  if (url.protocol === 'http:' && !loopback && typeof location !== 'undefined' && location.protocol === 'https:') {
    throw fail(`Tablebase option urls: ${url.href} is plain http on an https page, which the browser blocks (mixed content); serve the tables over https`, 'options');
  }
  return url.href.endsWith('/') ? url.href : url.href + '/';
}

/** A numeric option: null where absent, else a non-negative finite number. */
function number(options, key) {
  const v = options[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw fail(`Tablebase option ${key} must be a non-negative number`, 'options');
  return v;
}

/** A callback option: null where absent, else a function. */
function callback(options, key) {
  const f = options[key] ?? null;
  if (f !== null && typeof f !== 'function') throw fail(`Tablebase option ${key} must be a function`, 'options');
  return f;
}
