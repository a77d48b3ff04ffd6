import { availableParallelism } from 'node:os';

/**
 * How many sessions may be opening their first page at once. Opening starts a renderer process and loads
 * a page, which is CPU-bound: fifty at once on two cores all miss the navigation timeout together, while
 * taken a few at a time they all open. The rest wait their turn, in order, before their timeout starts.
 */
export const DEFAULT_OPEN_LIMIT = Math.max(2, 2 * availableParallelism());

/** A counting semaphore: at most `limit` operations hold a turn, the others wait in arrival order. */
export class OpenGate {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limit = DEFAULT_OPEN_LIMIT) {}

  /** Operations waiting for their turn (observability). */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Runs `operation` in its turn. The turn is given up when the operation settles or after `maxHoldMs`,
   * whichever comes first: an open stuck in a wedged browser must not keep every later create waiting.
   */
  async run<T>(operation: () => Promise<T>, maxHoldMs: number): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      // The turn passes straight to the next waiter, so a newcomer cannot jump the queue.
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    };
    const timer = setTimeout(release, maxHoldMs);
    timer.unref();
    try {
      return await operation();
    } finally {
      release();
    }
  }
}
