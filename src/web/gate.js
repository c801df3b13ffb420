// Bounds how many network requests run at once, and decides who goes next.

/**
 * A counting semaphore for network requests. A waiter whose `prio.high` is
 * true (the position's verdict) goes before the others (the rest of the
 * move list); `prio` is read when a slot frees, so a request already
 * waiting can be promoted when a verdict comes to need it too.
 */
export class Gate {
  constructor(n) {
    this.free = n;
    this.queue = [];
  }
  async enter(prio) {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise((resolve) => this.queue.push({ resolve, prio }));
  }
  leave() {
    const i = this.queue.findIndex((w) => w.prio && w.prio.high);
    const [next] = this.queue.splice(Math.max(i, 0), 1);
    if (next) next.resolve();
    else this.free++;
  }
}
