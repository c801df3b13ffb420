// Several ranges of a file in one request, where the page and its tables
// share an origin: whether the server answers them in one multipart body
// (learned from the first head a page asks for), and that request.

import { fatal, retryAfterMs } from './errors.js';
import { bodyFailure } from './whole-body.js';
import { byteRanges } from './multipart.js';

/** The origin of an absolute URL ('' when it has none). */
export function originOf(url) {
  try {
    return new URL(url).origin;
  } catch (e) {
    return '';
  }
}

/** The origin of the page (or worker) this runs in. */
function pageOrigin() {
  return (globalThis.location && globalThis.location.origin) || null;
}

/** What each origin's server does with a request for several ranges. */
export class SeveralRanges {
  constructor() {
    // origin -> true (it answers them in one multipart body) or false (it
    // does not); absent while unknown (see `probe`).
    this.known = new Map();
    // Origins whose server answered a request for several ranges with a
    // server error while `known` was unset: a refusal, or a passing fault
    // (a 503 while it restarts). Until that request's retry tells which,
    // other heads ask for one range.
    this.doubted = new Set();
  }

  /**
   * Whether one request may ask this URL for several ranges: its server
   * has answered so, and it is this page's own origin. On another origin a
   * Range header of several ranges is not CORS-safelisted, so each file
   * would cost a preflight round first.
   */
  allowed(url) {
    return this.known.get(originOf(url)) === true;
  }

  learn(url, yes) {
    this.known.set(originOf(url), yes);
  }

  /**
   * The ranges to ask for [start, end): while the origin's answer to
   * several ranges is unknown, a file's head asks for the byte one past
   * its end as well. A server that answers the two in one multipart body
   * will take a probe's scattered ranges in one request; one that sends
   * the first alone still sends the whole head (and a file no longer than
   * the head has one range to send); one that ignores them sends the file
   * from byte 0, read as far as the head. The gap of one byte keeps
   * servers that merge adjacent ranges (Apache) from merging these, and
   * the two never overlap nor add up to more than the file, which some
   * servers (nginx, Go's) answer with the whole file. `again`: a retry
   * of a probe that got a server error, which asks the same again.
   */
  probe(url, start, end, again = false) {
    const origin = originOf(url);
    if (start > 0 || this.known.has(origin) || origin !== pageOrigin()) return [[start, end]];
    if (this.doubted.has(origin) && !again) return [[start, end]];
    return [
      [start, end],
      [end + 1, end + 2],
    ];
  }
}

/**
 * Whether a 200 or 206 answer is an HTML page: a host that answers every
 * path with its page (a single-page app's fallback) has no such table.
 */
export function htmlPage(res) {
  return (res.status === 200 || res.status === 206) && /^\s*text\/html/i.test(res.headers.get('Content-Type') ?? '');
}

/**
 * The Content-Encoding an answer's body has, or null for none: the header's
 * names are case-insensitive, and an empty one or `identity` names none.
 */
export function encodingOf(res) {
  const e = (res.headers.get('Content-Encoding') ?? '').trim();
  return e && e.toLowerCase() !== 'identity' ? e : null;
}

/**
 * One request of a RangeClient (http.js) for several ranges of a URL:
 * {value: {size, validator, parts: [{start, bytes}], received}} with the
 * parts the server sent (a multipart body, one merged range, or the first
 * range alone), or {retry}; throws when fatal. Learns whether the origin
 * answers in one multipart body. `tries` ({serverErrors}) is kept across
 * the retries of one request.
 */
export async function requestParts(client, url, ranges, high, timed = null, tries = {}, asOf = client.versionOf(url)) {
  const sent = await client.send(url, ranges, high, timed);
  if (sent.retry) {
    // No answer at all: a redirect to another origin that refuses the
    // preflight several ranges need, a proxy that drops them, or a blip.
    // The retry asks for one range (see RangeClient.get).
    if (!client.several.allowed(url)) tries.unanswered = true;
    return sent;
  }
  const { res, controller } = sent;
  const type = res.headers.get('Content-Type') || '';
  const encoding = encodingOf(res);
  const last = Math.max(...ranges.map((r) => r[1]));
  const length = Number(res.headers.get('Content-Length'));
  const asked = ranges.reduce((n, [a, b]) => n + b - a, 0);
  if (htmlPage(res)) {
    controller.abort();
    return { value: null };
  }
  if (res.status === 200 && length > 0 && !(encoding && encoding !== 'identity')) {
    // Several ranges ignored: the file from byte 0, read as far as the
    // last range asked for, and no further (unlike a server that ignores
    // Range altogether, whose stream answers later requests too); where
    // that is far more than the ranges, not at all: each is asked for on
    // its own.
    client.several.learn(url, false);
    const validator = client.validatorOf(res);
    if (last > 4 * asked + (256 << 10)) {
      controller.abort();
      return { value: { size: length, validator, parts: [], received: 0 } };
    }
    const bytes = await client.read(res, Math.min(last, length), controller);
    if (bytes === null || bytes.length < Math.min(last, length)) return { retry: bodyFailure(controller) };
    return { value: { size: length, validator, parts: [{ start: 0, bytes }], received: bytes.length } };
  }
  // A strict server refuses the set for a range past the end of a file no
  // longer than its head (416); some proxies and CDNs refuse any request
  // for several ranges (400, 403, 501): unless the origin has answered
  // several ranges before, one range a request from here on (the head
  // probes sent before the first refusal came back are refused too).
  // Another server error is a refusal when the same request gets it twice
  // (retried at once): a passing fault must not cost the page one request
  // a range for the rest of its life. A missing file (404, 410) says
  // nothing of ranges.
  const refused = res.status >= 400 && res.status !== 404 && res.status !== 410 && !client.several.allowed(url);
  if (res.status === 416 || refused) {
    controller.abort();
    // A busy server's 408 or 429 passes like a 5xx (with its Retry-After).
    const passing = (res.status >= 500 && res.status !== 501) || res.status === 408 || res.status === 429;
    tries.serverErrors = (tries.serverErrors ?? 0) + (passing ? 1 : 0);
    if (passing && tries.serverErrors < 2) client.several.doubted.add(originOf(url));
    else client.several.learn(url, false);
    return { retry: `HTTP ${res.status} for several ranges`, waitMs: passing ? retryAfterMs(res) : undefined };
  }
  if (res.status !== 206 || !/^multipart\/(x-)?byteranges/i.test(type)) {
    // One range: the ranges merged, or the first alone (then the rest are
    // asked for on their own, and this origin no more for several).
    const r = await client.answer(url, ranges[0][0], last, res, controller, ranges[0][1], asOf);
    if (!r.value) return r;
    const covered = ranges.every(([a, b]) => a >= ranges[0][0] && Math.min(b, r.value.size) <= ranges[0][0] + r.value.bytes.length);
    if (!covered) client.several.learn(url, false);
    const { size, validator, bytes, received } = r.value;
    return { value: { size, validator, parts: [{ start: ranges[0][0], bytes }], received: received ?? bytes.length } };
  }
  if (encoding) {
    controller.abort();
    throw fatal(`${url}: the server compressed a range response (Content-Encoding: ${encoding}); serve tables without compression`);
  }
  // Without a length, as much as the ranges and a generous allowance for part headers.
  const body = await client.read(res, length > 0 ? length : asked + 4096 * (ranges.length + 1), controller);
  const parts = body && byteRanges(body, type);
  if (!parts || !parts.length || parts.some((p) => p.size !== parts[0].size)) {
    // A body that came whole but cannot be read (bare LF line ends, parts
    // past the allowance of a body without a length) would fail the same
    // way every time: one range a request from here on.
    if (body) client.several.learn(url, false);
    return { retry: 'a multipart body that could not be read' };
  }
  // Answered through a redirect to another origin: there several ranges
  // are not CORS-safelisted, and each file's request for them would wait
  // for a preflight. One range a request from here on.
  client.several.learn(url, !(res.redirected && originOf(res.url) !== originOf(url)));
  client.counters.multipartRequests++;
  return { value: { size: parts[0].size, validator: client.validatorOf(res), parts, received: body.length } };
}
