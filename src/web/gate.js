// Bounds how many network requests run at once.

/** A counting semaphore for network requests. */
export class Gate {
  constructor(n) {
    this.free = n;
    this.queue = [];
  }
  async enter() {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise((r) => this.queue.push(r));
  }
  leave() {
    const next = this.queue.shift();
    if (next) next();
    else this.free++;
  }
}

