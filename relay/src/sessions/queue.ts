/** Thrown to a queued operation that waited longer than allowed for its turn. */
export class QueueWaitTimeout extends Error {
  constructor(readonly waitedMs: number) {
    super(`waited ${waitedMs} ms for the session`);
  }
}

/**
 * Runs operations one at a time, in the order they were queued. An operation that waits longer
 * than `maxWaitMs` for its turn, or whose `signal` aborts while it waits, gives up (and never runs)
 * while the ones behind it keep their order.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;
  private running = false;

  constructor(private readonly maxWaitMs: number) {}

  /** Operations queued or running. */
  get pending(): number {
    return this.waiting + (this.running ? 1 : 0);
  }

  run<T>(operation: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const turn = this.tail;
    let finish!: () => void;
    this.tail = new Promise<void>((resolve) => {
      finish = resolve;
    });
    this.waiting++;
    return new Promise<T>((resolve, reject) => {
      let gaveUp = false;
      const started = Date.now();
      const giveUp = (reason: unknown) => {
        if (gaveUp) return;
        gaveUp = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting--;
        reject(reason);
      };
      const onAbort = () => giveUp(signal?.reason);
      const timer = setTimeout(() => giveUp(new QueueWaitTimeout(Date.now() - started)), this.maxWaitMs);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      void turn.then(async () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (gaveUp) {
          finish();
          return;
        }
        this.waiting--;
        this.running = true;
        try {
          resolve(await operation());
        } catch (error) {
          reject(error);
        } finally {
          this.running = false;
          finish();
        }
      });
    });
  }
}
