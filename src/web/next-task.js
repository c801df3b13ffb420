// A promise that resolves in a task of its own, after the tasks already
// queued (network answers among them): a posted message, which unlike
// setTimeout(0) is not clamped to 4 ms once calls nest.
//
// Each message wakes the highest-ranked waiter, not the oldest: probes of
// one burst of answers then attempt in the gate's order (the position's
// outcome, its verdict, then the move list), so the verdict is not kept
// behind the move list's attempt and the dozens of requests it sends.

const channel = typeof MessageChannel === 'function' ? new MessageChannel() : null;
const waiting = [];
if (channel) {
  channel.port1.onmessage = () => {
    let next = 0;
    for (let i = 1; i < waiting.length; i++) if (waiting[i].rank > waiting[next].rank) next = i;
    waiting.splice(next, 1)[0].resolve();
    // Under Node (the tests), an idle port must not keep the process alive.
    if (!waiting.length) channel.port1.unref?.();
  };
  channel.port1.unref?.();
}

/** Resolves in a task of its own; among waiters, higher `rank` first (see gate.js's RANK). */
export function nextTask(rank = 0) {
  if (!channel) return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    waiting.push({ rank, resolve });
    channel.port1.ref?.();
    channel.port2.postMessage(0);
  });
}
