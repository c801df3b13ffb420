// Bounds how many network requests run at once, and decides who goes next.

/**
 * A counting semaphore for network requests. A waiter whose `prio.high` is
 * true (the position's verdict) goes before the others (the rest of the
 * move list), and while a verdict is being fetched (`hold()` calls not yet
 * released) the others wait even for a free slot: on a slow link they
 * would share its bandwidth. `prio` is read whenever a slot frees or
 * `kick()` is called, so a waiting request can be promoted when a verdict
 * comes to need it too.
 */
export class Gate {
  constructor(n) {
    // Requests it lets run at once.
    this.size = n;
    this.free = n;
    this.queue = [];
    this.holds = 0;
  }
  async enter(prio) {
    if (this.free > 0 && (this.holds === 0 || (prio && prio.high))) {
      this.free--;
      return;
    }
    await new Promise((resolve) => this.queue.push({ resolve, prio }));
  }
  leave() {
    this.free++;
    this.kick();
  }
  /** Admits waiters while slots are free: high first, others when nothing is held. */
  kick() {
    while (this.free > 0 && this.queue.length) {
      let i = this.queue.findIndex((w) => w.prio && w.prio.high);
      if (i < 0 && this.holds > 0) return;
      if (i < 0) i = 0;
      const [next] = this.queue.splice(i, 1);
      this.free--;
      next.resolve();
    }
  }
  /** Holds back requests that are not urgent until the returned release is called. */
  hold() {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.kick();
    };
  }
  /** More room (a host found to speak HTTP/2 takes many requests at once). */
  widen(n) {
    this.size += n;
    this.free += n;
    this.kick();
  }
}
