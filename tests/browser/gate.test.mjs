// The request gate on its own (plain JS, no browser): ranks, holds, and the
// holds that lapse once a multiplexed host widens it; and the order in which
// probes woken by one burst of answers attempt.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Gate, RANK } from '../../src/web/gate.js';
import { nextTask } from '../../src/web/next-task.js';

/** Enters `gate` at `rank`, recording the order of admission in `order`. */
function enter(gate, rank, name, order) {
  return gate.enter({ rank }).then(() => order.push(name));
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('request gate', () => {
  it('admits the higher rank first when a slot frees', async () => {
    const gate = new Gate(1);
    const order = [];
    await enter(gate, RANK.moves, 'first', order);
    enter(gate, RANK.moves, 'moves', order);
    enter(gate, RANK.verdict, 'verdict', order);
    gate.leave(RANK.moves);
    await tick();
    gate.leave(RANK.verdict);
    await tick();
    assert.deepEqual(order, ['first', 'verdict', 'moves']);
  });

  it('counts the requests running above a rank, by the rank they were admitted at', async () => {
    const gate = new Gate(6);
    assert.equal(await gate.enter({ rank: RANK.outcome }), RANK.outcome);
    assert.equal(await gate.enter({ rank: RANK.moves }), RANK.moves);
    assert.equal(gate.runningAbove(RANK.verdict), 1);
    assert.equal(gate.runningAbove(RANK.moves), 1);
    assert.equal(gate.runningAbove(RANK.outcome), 0);
    gate.leave(RANK.outcome);
    assert.equal(gate.runningAbove(RANK.verdict), 0);
    assert.equal(gate.free, 5);
  });

  it('keeps lower ranks out while held, even with free slots', async () => {
    const gate = new Gate(6);
    const order = [];
    const release = gate.hold(RANK.verdict);
    enter(gate, RANK.moves, 'moves', order);
    await tick();
    assert.deepEqual(order, []);
    gate.widen(26);
    await tick();
    assert.deepEqual(order, [], 'a plain hold outlasts widening');
    release();
    await tick();
    assert.deepEqual(order, ['moves']);
  });

  it('lets a hold taken while narrow lapse once the host is found multiplexed', async () => {
    const gate = new Gate(6);
    const order = [];
    const release = gate.hold(RANK.verdict, true);
    enter(gate, RANK.moves, 'moves', order);
    await tick();
    assert.deepEqual(order, []);
    gate.widen(26);
    await tick();
    assert.deepEqual(order, ['moves']);
    release();
    assert.equal(gate.free, 32 - 1);
  });

  it('narrows back to six once a host presumed multiplexed is not: requests out stay, new ones wait for room', async () => {
    const gate = new Gate(6);
    gate.widen(58);
    const order = [];
    for (let i = 0; i < 10; i++) await enter(gate, RANK.moves, i, order);
    gate.narrow(58);
    assert.equal(gate.wide, false);
    enter(gate, RANK.moves, 'next', order);
    for (let i = 0; i < 4; i++) gate.leave(RANK.moves);
    await tick();
    assert.equal(order.includes('next'), false);
    gate.leave(RANK.moves);
    await tick();
    assert.equal(order.at(-1), 'next');
    assert.equal(gate.free, 0);
  });

  it('sends held-back requests with a round of the holder, into the slots it leaves', async () => {
    const gate = new Gate(6);
    const order = [];
    gate.hold(RANK.verdict, true);
    for (let k = 0; k < 6; k++) enter(gate, RANK.moves, `moves ${k}`, order);
    await tick();
    assert.deepEqual(order, [], 'nothing of the holder in flight: held');
    for (let k = 0; k < 2; k++) await enter(gate, RANK.verdict, `verdict ${k}`, order);
    await new Promise((r) => setTimeout(r, 40));
    assert.deepEqual(order, ['verdict 0', 'verdict 1', 'moves 0', 'moves 1', 'moves 2', 'moves 3']);
    // A slot freed mid-round stays for the holder's next round.
    gate.leave(RANK.verdict);
    await tick();
    assert.equal(order.length, 6);
    assert.equal(gate.free, 1);
  });

  it('keeps a full hold (a slow link) even for a round of the holder', async () => {
    const gate = new Gate(6);
    const order = [];
    gate.hold(RANK.verdict);
    enter(gate, RANK.moves, 'moves', order);
    await enter(gate, RANK.verdict, 'verdict', order);
    await new Promise((r) => setTimeout(r, 40));
    assert.deepEqual(order, ['verdict']);
  });

  it('wakes the probes of one burst of answers in rank order, each in a task of its own', async () => {
    const order = [];
    const wake = (rank, name) => nextTask(rank).then(() => order.push(name));
    const all = [wake(RANK.moves, 'moves'), wake(RANK.outcome, 'outcome'), wake(RANK.verdict, 'verdict'), wake(RANK.moves, 'moves 2')];
    // One wake a task: after the first, the others still wait.
    await new Promise((r) => queueMicrotask(r));
    assert.deepEqual(order, []);
    await Promise.all(all);
    assert.deepEqual(order, ['outcome', 'verdict', 'moves', 'moves 2']);
  });
});
