// Bounds how many network requests run at once, and decides who goes next.

/** Ranks of a request's `prio.rank`: what it is for. */
export const RANK = { moves: 0, verdict: 1, outcome: 2 };

/**
 * A counting semaphore for network requests. A waiter of a higher
 * `prio.rank` goes before lower ones (the position's outcome, then its
 * verdict, then the rest of the move list), and while a probe of some rank
 * holds the gate (`hold(rank)` not yet released) lower ranks wait even for
 * a free slot: on a slow link they would share its bandwidth. `prio` is
 * read whenever a slot frees or `kick()` is called, so a waiting request
 * can be promoted when a higher-ranked probe comes to need it too. A hold
 * taken `whileNarrow` lapses once the gate widens: a multiplexed host
 * answers the lower ranks beside the higher ones instead of after them.
 */
export class Gate {
  constructor(n) {
    // Requests it lets run at once.
    this.size = n;
    this.free = n;
    this.queue = [];
    // Holds not yet released, by rank: all of them, and those that lapse
    // once the gate widens.
    this.holds = Object.values(RANK).map(() => 0);
    this.narrowHolds = Object.values(RANK).map(() => 0);
    this.wide = false;
  }
  /** Whether a probe ranked above `rank` holds the gate. */
  heldAbove(rank) {
    const held = (counts) => counts.some((n, r) => n > 0 && r > rank);
    return held(this.holds) || (!this.wide && held(this.narrowHolds));
  }
  async enter(prio) {
    if (this.free > 0 && !this.heldAbove(rankOf(prio))) {
      this.free--;
      return;
    }
    await new Promise((resolve) => this.queue.push({ resolve, prio }));
  }
  leave() {
    this.free++;
    this.kick();
  }
  /** Admits waiters while slots are free: highest rank first, none that a hold keeps back. */
  kick() {
    while (this.free > 0 && this.queue.length) {
      let i = 0;
      for (let j = 1; j < this.queue.length; j++) if (rankOf(this.queue[j].prio) > rankOf(this.queue[i].prio)) i = j;
      if (this.heldAbove(rankOf(this.queue[i].prio))) return;
      const [next] = this.queue.splice(i, 1);
      this.free--;
      next.resolve();
    }
  }
  /**
   * Holds back requests ranked below `rank` until the returned release is
   * called (or, `whileNarrow`, until the gate widens).
   */
  hold(rank, whileNarrow = false) {
    const counts = whileNarrow ? this.narrowHolds : this.holds;
    counts[rank]++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      counts[rank]--;
      this.kick();
    };
  }
  /** More room (a host found to speak HTTP/2 takes many requests at once). */
  widen(n) {
    this.size += n;
    this.free += n;
    this.wide = true;
    this.kick();
  }
}

function rankOf(prio) {
  return (prio && prio.rank) || 0;
}
