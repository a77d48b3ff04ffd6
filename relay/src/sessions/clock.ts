/**
 * Time as the session manager reads and waits on it: the system's, or (in tests) one that moves only when
 * told, so a ten-minute idle expiry is checked in milliseconds with the real defaults.
 */
export interface Clock {
  now(): number;
  /** Calls `fn` once, `ms` from now; the timer never keeps the process alive. Answers a handle for `cancel`. */
  after(ms: number, fn: () => void): unknown;
  cancel(timer: unknown): void;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return timer;
  },
  cancel(timer) {
    if (timer) clearTimeout(timer as NodeJS.Timeout);
  },
};
