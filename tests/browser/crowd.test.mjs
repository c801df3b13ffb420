// Telling HTTP/2 from HTTP/1.1 by the answers' times (plain JS, no
// browser): what a host without Timing-Allow-Origin shows of itself.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Crowd } from '../../src/web/crowd.js';

const ORIGIN = 'https://cdn.example';

/**
 * Requests started at `starts` (ms) and answered at `answers` (seen late,
 * after a stall of the page, where `late` says so), each event in its
 * time's order (a start before an answer at the same time): the
 * verdicts, in the order of the answers.
 */
function run(starts, answers, late = []) {
  const crowd = new Crowd(6);
  const tokens = [];
  const events = [...starts.map((t, i) => [t, 0, i]), ...answers.map((t, i) => [t, 1, i])].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const shown = [];
  for (const [t, answer, i] of events) {
    if (!answer) {
      tokens[i] = crowd.start(ORIGIN, t);
      continue;
    }
    crowd.answered(tokens[i], t, !!late[i]);
    shown.push(crowd.end(tokens[i]));
  }
  return shown;
}

const eleven = Array.from({ length: 11 }, (_, i) => i);

describe('crowd', () => {
  it('shows a multiplexed host when eleven requests sent together are answered within a round trip, once a request sent after the first answer is answered', () => {
    // The first round's times may hold its connections' set-up: they show
    // nothing alone. A twelfth request leaves after the first answer.
    const shown = run([...eleven, 111], [...eleven.map((s) => 100 + s), 211]);
    assert.deepEqual(shown.slice(0, 11), Array(11).fill(null));
    assert.equal(shown[11], true);
  });

  it('takes no HTTP/1.1 host for a multiplexed one where set-up makes its first answers take two trips', () => {
    // 100 ms a trip; TCP and TLS make the first six answers take 300 ms
    // (two trips more), the five queued behind them 400 ms. Then rounds
    // on the open connections: six and two that wait for them.
    const starts = [...eleven, ...Array.from({ length: 8 }, (_, i) => 410 + i)];
    const answers = [...eleven.map((s, i) => (i < 6 ? 300 + s : 400 + s)), ...starts.slice(11).map((s, i) => (i < 6 ? s + 100 : 610 + i))];
    const shown = run(starts, answers);
    assert.ok(!shown.includes(true), String(shown));
    assert.equal(shown.at(-1), false);
  });

  it('shows HTTP/1.1 when the requests past six wait a trip for a connection, and never a multiplexed host', () => {
    // Six connections: the first six answer after a trip (their handshakes
    // making it 130 ms), the rest a trip of 100 ms after that.
    const shown = run(eleven, eleven.map((s, i) => (i < 6 ? 130 + s : 235 + s)));
    assert.ok(!shown.includes(true), String(shown));
    // Twice shown before taken for shown: one could be the page stalling.
    assert.deepEqual(shown.slice(6), [null, false, false, false, false]);
  });

  it('shows HTTP/1.1 when a request waits a trip, though one of those out before it was answered before it left', () => {
    // A trip of 175 ms. A request whose answer's headers came at 706 is
    // still out (its body) when six more leave at 710-715 and two after
    // them at 718-719: those two wait for connections the six hold until
    // their answers (890-895), and come about a trip later.
    const crowd = new Crowd(6);
    const shown = [];
    const answer = (r, t) => {
      crowd.answered(r, t);
      shown.push(crowd.end(r));
    };
    Array.from({ length: 6 }, (_, i) => crowd.start(ORIGIN, i)).forEach((r, i) => answer(r, 175 + i));
    const reading = crowd.start(ORIGIN, 530);
    crowd.answered(reading, 706);
    const six = Array.from({ length: 6 }, (_, i) => crowd.start(ORIGIN, 710 + i));
    const waiting = [crowd.start(ORIGIN, 718), crowd.start(ORIGIN, 719)];
    shown.push(crowd.end(reading));
    six.forEach((r, i) => answer(r, 890 + i));
    answer(waiting[0], 1006);
    answer(waiting[1], 1010);
    assert.ok(!shown.includes(true), String(shown));
    assert.deepEqual(shown.slice(-2), [null, false]);
  });

  it('takes no stall of a multiplexed host for HTTP/1.1: one late answer shows nothing', () => {
    const answers = eleven.map((s) => 100 + s);
    answers[10] = 190;
    const crowd = new Crowd(6);
    const tokens = eleven.map((t) => crowd.start(ORIGIN, t));
    // The late one first, while the others' verdict is not in yet.
    crowd.answered(tokens[10], 190);
    for (let i = 0; i < 6; i++) crowd.answered(tokens[i], answers[i]);
    const shown = [0, 1, 2, 3, 4, 5, 10].map((i) => crowd.end(tokens[i]));
    assert.ok(!shown.includes(false), String(shown));
  });

  it('takes no stall of the page for a multiplexed host: answers of HTTP/1.1 seen late together show nothing', () => {
    // Twenty requests leave at 0-19; six connections answer them in waves
    // at 100, 200, 300 and 400 ms, but the page's thread is held until 400
    // and sees them all then. Then two rounds go out: six, and eight of
    // which two wait a trip for a connection.
    const twenty = Array.from({ length: 20 }, (_, i) => i);
    const six = Array.from({ length: 6 }, (_, i) => 410 + i);
    const eight = Array.from({ length: 8 }, (_, i) => 520 + i);
    const starts = [...twenty, ...six, ...eight];
    const answers = [...twenty.map((i) => 400 + i / 4), ...six.map((s) => s + 100), ...eight.map((s, i) => s + (i < 6 ? 100 : 200))];
    const shown = run(starts, answers, twenty.map(() => true));
    assert.ok(!shown.includes(true), String(shown));
    assert.deepEqual(shown.slice(-2), [null, false]);
    // Taken as timely, the stall's answers time a trip of 386 ms, in whose
    // window twenty requests were answered: a multiplexed host.
    assert.ok(run(starts, answers).includes(true));
  });

  it('takes no stall of the page for HTTP/1.1 either: a multiplexed host\'s answers seen late together show nothing', () => {
    // Twelve requests leave at 0-11; the first is answered on time at 100,
    // the other eleven by 111, but the page sees them only at 250.
    const twelve = Array.from({ length: 12 }, (_, i) => i);
    const answers = twelve.map((i) => (i === 0 ? 100 : 250 + i / 10));
    assert.deepEqual(run(twelve, answers, twelve.map((i) => i > 0)), Array(12).fill(null));
    // Taken as timely, they would show HTTP/1.1 five times.
    assert.ok(run(twelve, answers).includes(false));
  });

  it('shows nothing while no more than six requests are out', () => {
    assert.deepEqual(run([0, 1, 2, 150, 151], [100, 101, 102, 250, 400]), Array(5).fill(null));
  });

  it('learns nothing from failed requests, nor counts them among those ahead', () => {
    const crowd = new Crowd(6);
    const failed = crowd.start(ORIGIN, 0);
    crowd.answered(failed, 1);
    crowd.drop(failed);
    const ok = crowd.start(ORIGIN, 10);
    crowd.answered(ok, 110);
    assert.equal(crowd.end(ok), null);
    assert.equal(crowd.origins.get(ORIGIN).trip, 100);
  });

  it('counts each origin apart', () => {
    const crowd = new Crowd(6);
    const a = Array.from({ length: 4 }, (_, i) => crowd.start('https://a.example', i));
    const b = Array.from({ length: 4 }, (_, i) => crowd.start('https://b.example', i));
    const shown = [...a, ...b].map((r, i) => {
      crowd.answered(r, 100 + i);
      return crowd.end(r);
    });
    assert.deepEqual(shown, Array(8).fill(null));
  });
});
