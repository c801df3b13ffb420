// Bounds how many network requests run at once, and decides who goes next.

/** Ranks of a request's `prio.rank`: what it is for. */
export const RANK = { moves: 0, verdict: 1, outcome: 2 };

// How long a round of a holder's requests may take to go out (see `Gate.companionsSoon`).
const COMPANION_MS = 10;

/**
 * A counting semaphore for network requests. A waiter of a higher
 * `prio.rank` goes before lower ones (the position's outcome, then its
 * verdict, then the rest of the move list), and while a probe of some rank
 * holds the gate (`hold(rank)` not yet released) lower ranks wait even for
 * a free slot: on a slow link they would share its bandwidth. `prio` is
 * read whenever a slot frees or `kick()` is called, so a waiting request
 * can be promoted when a higher-ranked probe comes to need it too.
 *
 * A hold taken `whileNarrow` (HTTP/1.1 on a fast link) only keeps lower
 * ranks out of the holder's way: they take the slots a round of the
 * holder's requests leaves free, going out with that round (see
 * `companionsSoon`), and the hold lapses once the gate widens, since a
 * multiplexed host answers them beside the holder's.
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
    this.companionTimer = null;
    // Requests admitted and not yet left, by the rank they were admitted at.
    this.running = Object.values(RANK).map(() => 0);
  }
  /** Requests running that were admitted at a rank above `rank`. */
  runningAbove(rank) {
    return this.running.reduce((n, k, r) => (r > rank ? n + k : n), 0);
  }
  /** Whether a probe ranked above `rank` holds the gate (for a companion: a full hold). */
  heldAbove(rank, companion = false) {
    const held = (counts) => counts.some((n, r) => n > 0 && r > rank);
    return held(this.holds) || (!companion && !this.wide && held(this.narrowHolds));
  }
  /** Waits for a slot; resolves the rank admitted at, for `leave`. */
  async enter(prio) {
    const rank = rankOf(prio);
    if (this.free > 0 && !this.heldAbove(rank)) {
      this.free--;
      this.running[rank]++;
      if (!this.wide && this.narrowHolds.some((n, r) => n > 0 && r <= rank)) this.companionsSoon();
      return rank;
    }
    return new Promise((resolve) => this.queue.push({ resolve, prio }));
  }
  /**
   * A round of a holder's requests is going out: once it has (none more
   * for COMPANION_MS), the requests it holds back take the slots it left
   * free. They start with that round and so end with it: the holder's next
   * round waits for them at most COMPANION_MS, where it would otherwise
   * have run beside idle connections.
   */
  companionsSoon() {
    clearTimeout(this.companionTimer);
    this.companionTimer = setTimeout(() => this.kick(true), COMPANION_MS);
  }
  leave(rank) {
    this.free++;
    this.running[rank]--;
    this.kick();
  }
  /**
   * Admits waiters while slots are free: highest rank first, none that a
   * hold keeps back (as `companion`s of a holder's round, only full holds).
   */
  kick(companion = false) {
    while (this.free > 0 && this.queue.length) {
      let i = 0;
      for (let j = 1; j < this.queue.length; j++) if (rankOf(this.queue[j].prio) > rankOf(this.queue[i].prio)) i = j;
      if (this.heldAbove(rankOf(this.queue[i].prio), companion)) return;
      const [next] = this.queue.splice(i, 1);
      const rank = rankOf(next.prio);
      this.free--;
      this.running[rank]++;
      next.resolve(rank);
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
  /** `widen(n)` undone (a host presumed to speak HTTP/2 did not): requests out stay out. */
  narrow(n) {
    this.size -= n;
    this.free -= n;
    this.wide = false;
  }
}

function rankOf(prio) {
  return (prio && prio.rank) || 0;
}
